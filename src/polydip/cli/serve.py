"""`polydip serve`: host games in the browser (needs the `host` extra)."""

from __future__ import annotations

import argparse
import logging

from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "serve", help="host games: a web server for the GM and the players",
        description="Run the game host: the GM creates games at http://HOST:PORT/ and hands "
        "out one link per power. Games live in a SQLite database in --data (created on "
        "first start) or in the PostgreSQL database --db names. Needs: pip install "
        "'polydip[host]'.")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1; 0.0.0.0 for every one)")
    s.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    s.add_argument("--data", default=".", metavar="DIR",
                   help="folder of the database (polydip.db) and uploaded variant files "
                   "(default: the current folder)")
    s.add_argument("--db", metavar="URL", help="a database URL instead of DIR/polydip.db, "
                   "e.g. postgresql+psycopg://user:password@host/polydip")
    s.add_argument("--tick", type=float, default=5.0, metavar="SECONDS",
                   help="how often deadlines are checked (default 5)")
    s.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        raise PolydipError(f"--port {args.port}: a port is 1 to 65535")
    try:
        import uvicorn

        from polydip.host.app import create_app
    except ImportError as exc:
        raise PolydipError(f"the game host needs its extra: pip install 'polydip[host]' "
                           f"({exc.name or exc} is missing)") from None
    try:
        app = create_app(args.db, args.data, tick_seconds=args.tick)
    except Exception as exc:  # a database that cannot be opened or migrated
        if isinstance(exc, PolydipError):
            raise
        raise PolydipError(f"cannot open the database: {exc.__class__.__name__}: "
                           f"{str(exc).splitlines()[0] if str(exc) else ''}") from exc
    print(f"polydip host: http://{args.host}:{args.port}/ (games in "
          f"{args.db or args.data + '/polydip.db'})")
    _log_host_lines()
    uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    return 0


def _log_host_lines() -> None:
    """The host's own lines (phases processed at the deadline, a game whose processing failed,
    the database unavailable) on stderr at INFO, beside uvicorn's: nothing configures the
    polydip.host logger otherwise, and Python shows only warnings without a handler."""
    log = logging.getLogger("polydip.host")
    if not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(name)s: %(message)s"))
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # once, whatever the root logger has
