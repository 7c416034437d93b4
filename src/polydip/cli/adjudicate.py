"""The one-shot contract on the command line: `polydip adjudicate`."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from polydip.cli.common import EXIT_ERROR, add_search_path_option
from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    a = sub.add_parser("adjudicate", help="adjudicate JSON request(s): one object or JSON Lines",
                       description="Read one JSON request, or JSON Lines (one request per "
                       "line), from FILE or standard input; write exactly one JSON outcome "
                       "line per request line, whatever the line holds.")
    a.add_argument("file", nargs="?", help="request file (default: standard input)")
    a.add_argument("--no-variant-files", action="store_true",
                   help="requests may only name built-in variants, never a file path (for a "
                   "service that adjudicates other people's requests)")
    add_search_path_option(a)
    a.set_defaults(func=cmd_adjudicate)


def cmd_adjudicate(args: argparse.Namespace) -> int:
    from polydip.oneshot import adjudicate_request, read_line

    files = not args.no_variant_files
    lines: Iterable[bytes]
    if args.file and args.file != "-":
        try:
            data = Path(args.file).read_bytes()
        except OSError as exc:
            raise PolydipError(f"{args.file}: cannot read: {exc.strerror or exc}") from exc
        text = data.decode("utf-8", errors="replace")
        # a single pretty-printed JSON object is also accepted
        if text.lstrip().startswith("{") and "\n" in text.strip():
            try:
                req = json.loads(text)
            except (json.JSONDecodeError, RecursionError):
                req = None
            if isinstance(req, dict):
                out = adjudicate_request(req, files)
                _emit(out)
                return EXIT_ERROR if "error" in out else 0
        lines = data.splitlines()
    else:
        lines = sys.stdin.buffer
    failed = False
    for n, raw in enumerate(lines, 1):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            out = {"error": f"line {n}: not UTF-8 text (byte {exc.start + 1})"}
        else:
            out = read_line(line, n, files)
        failed |= "error" in out
        _emit(out)
    return 0 if not failed else EXIT_ERROR


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()
