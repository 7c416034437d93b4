"""The `polydip` command: one entry point for game masters, tools and researchers.

Each group of commands lives in its own module (games, demo, adjudicate, variants); this one
builds the parser from their `register` functions and turns errors into messages.
"""

from __future__ import annotations

import argparse
import os
import sys

from polydip import __version__
from polydip.cli import (
    adjudicate,
    arena,
    demo,
    games,
    orders,
    passages,
    process,
    replay,
    serve,
    simulate,
    variants,
)
from polydip.cli.common import EXIT_BUG, EXIT_ERROR, EXIT_USAGE
from polydip.errors import PolydipError


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra and isinstance(getattr(args, "lines", None), list) \
            and not any(e.startswith("-") for e in extra):
        args.lines += extra  # orders after an option: polydip orders g.json --add France ...
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    from polydip.variants.search import set_command_line_path

    set_command_line_path(getattr(args, "search_path", None) or [])
    try:
        return int(args.func(args) or 0)
    except PolydipError as exc:
        print(f"polydip: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("polydip: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so plainly, traceback only on request
        if os.environ.get("POLYDIP_DEBUG"):
            raise
        print(f"polydip: internal error: {exc.__class__.__name__}: {exc}\n"
              "This is a bug in polydip; set POLYDIP_DEBUG=1 to see the traceback.",
              file=sys.stderr)
        return EXIT_BUG


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="polydip",
        description="Adjudicate and host Diplomacy games on any map variant.",
    )
    p.add_argument("--version", action="version", version=f"polydip {__version__}")
    sub = p.add_subparsers(title="commands", metavar="COMMAND")
    adjudicate.register(sub)
    arena.register(sub)
    demo.register(sub)
    games.register(sub)
    orders.register(sub)
    passages.register(sub)
    process.register(sub)
    replay.register(sub)
    simulate.register(sub)
    serve.register(sub)
    variants.register(sub)
    return p


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
