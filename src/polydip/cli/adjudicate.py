"""The one-shot contract on the command line: `polydip adjudicate`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from polydip.cli.common import EXIT_ERROR, add_search_path_option
from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    a = sub.add_parser("adjudicate", help="adjudicate JSON request(s): one object or JSON Lines",
                       description="Read one JSON request, or JSON Lines (one request per "
                       "line), from FILE or standard input; write one JSON outcome per line.")
    a.add_argument("file", nargs="?", help="request file (default: standard input)")
    add_search_path_option(a)
    a.set_defaults(func=cmd_adjudicate)


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from polydip.oneshot import adjudicate_request, run_lines

    if args.file and args.file != "-":
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except OSError as exc:
            raise PolydipError(f"{args.file}: cannot read: {exc.strerror or exc}") from exc
        lines = text.splitlines()
    else:
        text = None
        lines = sys.stdin
    # a single pretty-printed JSON object is also accepted
    if text is not None and text.lstrip().startswith("{") and "\n" in text.strip():
        try:
            req = json.loads(text)
        except json.JSONDecodeError:
            req = None
        if isinstance(req, dict):
            _emit(adjudicate_request(req))
            return 0
    failed = False
    for out in run_lines(lines):
        failed |= "error" in out
        _emit(out)
    return 0 if not failed else EXIT_ERROR


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
