"""`polydip serve`: host games in the browser (needs the `host` extra)."""

from __future__ import annotations

import argparse
import logging
import os
from types import FrameType

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
    s.add_argument("--db", metavar="URL", default=os.environ.get("POLYDIP_DB") or None,
                   help="a database URL instead of DIR/polydip.db, e.g. "
                   "postgresql+psycopg://user:password@host/polydip; also from the "
                   "environment variable POLYDIP_DB, which keeps the password out of the "
                   "process list")
    s.add_argument("--tick", type=float, default=5.0, metavar="SECONDS",
                   help="how often deadlines are checked (default 5)")
    s.add_argument("--create-secret", metavar="SECRET",
                   default=os.environ.get("POLYDIP_CREATE_SECRET") or None,
                   help="creating a game needs this secret (the start page asks for it; the "
                   "API takes 'Authorization: Bearer SECRET'); default: anyone may create "
                   "games. Also from the environment variable POLYDIP_CREATE_SECRET")
    s.add_argument("--api-docs", action="store_true",
                   help="serve the API's Swagger page at /api/docs (its script comes from "
                   "a CDN; off by default; /api/openapi.json is always served)")
    s.add_argument("--work-seconds", type=float, default=10.0, metavar="SECONDS",
                   help="CPU seconds one drawing of a map or one upload's check may take "
                   "(default 10); beyond it the request answers 503")
    s.add_argument("--trusted-proxy", default="127.0.0.1", metavar="ADDRS",
                   help="addresses of the TLS proxy whose X-Forwarded-Proto/-For headers "
                   "are believed (default 127.0.0.1; comma-separated)")
    s.add_argument("--smtp", metavar="URL", default=os.environ.get("POLYDIP_SMTP") or None,
                   help="mail notifications through this SMTP server: smtp://host:25, "
                   "smtp+starttls://user:password@host:587 or smtps://user:password@host:465; "
                   "also from the environment variable POLYDIP_SMTP, which keeps the password "
                   "out of the process list (default: no mail)")
    s.add_argument("--mail-from", metavar="ADDR", default=None,
                   help="the sender's address of the mails (default: polydip@ the SMTP host)")
    s.add_argument("--workers", type=int, default=1, metavar="N",
                   help="server processes (default 1); more than one needs a PostgreSQL "
                   "--db: each phase is still processed once (docs/host.md, Scale)")
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
    if not 0 < args.work_seconds <= 3600:
        raise PolydipError(f"--work-seconds {args.work_seconds}: 0 to 3600 seconds")
    _check_workers(args.workers, args.db)
    from polydip.host.edge import safe_url, scrub, url_secrets

    try:
        app = create_app(args.db, args.data, tick_seconds=args.tick,
                         create_secret=args.create_secret, api_docs=args.api_docs,
                         cpu_seconds=args.work_seconds, smtp=args.smtp,
                         mail_from=args.mail_from)
    except Exception as exc:  # a database that cannot be opened or migrated
        text = str(exc).splitlines()[0] if str(exc) else ""
        if isinstance(exc, PolydipError):
            raise PolydipError(scrub(text, url_secrets(args.db) + url_secrets(args.smtp))
                               ) from None
        # without its chain: a driver's exception may quote the URL with its password
        raise PolydipError(f"cannot open the database: {exc.__class__.__name__}: "
                           f"{scrub(text, url_secrets(args.db))}") from None
    where = safe_url(args.db) if args.db else args.data + "/polydip.db"
    print(f"polydip host: http://{args.host}:{args.port}/ (games in {where})"
          + ("; creating games needs the create secret" if args.create_secret else "")
          + (f"; mail through {app.state.mailer.smtp.where()}" if args.smtp else ""),
          flush=True)
    if args.workers > 1:  # the database opened and migrated above, once
        app.state.budget.close()
        app.state.ctx.db.dispose()
        return _serve_workers(args)
    _log_host_lines()
    server = uvicorn.Server(uvicorn.Config(
        app, host=args.host, port=args.port, log_level="info",
        forwarded_allow_ips=args.trusted_proxy,
        timeout_graceful_shutdown=3))  # a stop waits at most 3 s for requests still running
    stop = server.handle_exit

    # a stop ends the drawings at work first
    def handle_exit(sig: int, frame: FrameType | None) -> None:
        app.state.budget.close()
        stop(sig, frame)

    server.handle_exit = handle_exit  # type: ignore[method-assign]
    server.run()
    return 0


MAX_WORKERS = 64
WORKER_SETTINGS = "POLYDIP_SERVE_WORKER"  # the environment variable workers read (below)


def _check_workers(workers: int, db: str | None) -> None:
    """Several processes need PostgreSQL: a SQLite file has one writer at a time, and the
    server's own queue of writers (host/db.py) is one process's."""
    if not 1 <= workers <= MAX_WORKERS:
        raise PolydipError(f"--workers {workers}: 1 to {MAX_WORKERS} server processes")
    scheme = (db or "sqlite").split(":", 1)[0].split("+", 1)[0].lower()
    if workers > 1 and scheme != "postgresql":
        raise PolydipError(f"--workers {workers} needs a PostgreSQL database (--db "
                           "postgresql+psycopg://...): a SQLite database has one writer at a "
                           "time; run one process (--workers 1) on SQLite")


def _serve_workers(args: argparse.Namespace) -> int:
    """`--workers N`: uvicorn's N processes on one socket, each building its app with
    `worker_app` from the settings in the environment (never on the command line: the
    database URL may hold a password). Each runs the deadlines task; a game's processing
    claims its row (Host.process_due), so each phase is processed once."""
    import json

    import uvicorn

    os.environ[WORKER_SETTINGS] = json.dumps({
        "db": args.db, "data": args.data, "tick": args.tick,
        "create_secret": args.create_secret, "api_docs": args.api_docs,
        "work_seconds": args.work_seconds})
    uvicorn.run("polydip.cli.serve:worker_app", factory=True, workers=args.workers,
                host=args.host, port=args.port, log_level="info",
                forwarded_allow_ips=args.trusted_proxy, timeout_graceful_shutdown=3)
    return 0


def worker_app() -> object:
    """The app of one `--workers` process (uvicorn calls it in each)."""
    import json

    from polydip.host.app import create_app

    d = json.loads(os.environ[WORKER_SETTINGS])
    _log_host_lines(with_pid=True)
    return create_app(d["db"], d["data"], tick_seconds=d["tick"],
                      create_secret=d["create_secret"], api_docs=d["api_docs"],
                      cpu_seconds=d["work_seconds"])


def _log_host_lines(with_pid: bool = False) -> None:
    """The host's own lines (phases processed at the deadline, a game whose processing failed,
    the database unavailable) on stderr at INFO, beside uvicorn's: nothing configures the
    polydip.host logger otherwise, and Python shows only warnings without a handler."""
    log = logging.getLogger("polydip.host")
    if not log.handlers:
        handler = logging.StreamHandler()
        pid = " [%(process)d]" if with_pid else ""  # which of the --workers processes
        handler.setFormatter(logging.Formatter(f"%(levelname)s:     %(name)s{pid}: "
                                               "%(message)s"))
        log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # once, whatever the root logger has
