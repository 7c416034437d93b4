"""The host's database: an engine for a URL (SQLite by default, PostgreSQL by URL), the
schema brought up to date with the Alembic migrations shipped in this package, and one
transaction per request.

SQLite allows one writer at a time: the transactions of one server queue on a lock, and each
starts with BEGIN IMMEDIATE (for other processes on the same file) so that a
read followed by a write never fails half-way ("database is locked") and waits its turn
instead. PostgreSQL transactions lock the game's row (SELECT ... FOR UPDATE) for the same
effect per game.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

MIGRATIONS = Path(__file__).parent / "migrations"


def sqlite_url(data_dir: str | Path) -> str:
    return f"sqlite:///{Path(data_dir).resolve() / 'polydip.db'}"


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False},
                               pool_size=20, max_overflow=40)

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn, _record) -> None:
            dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not pysqlite's
            cur = dbapi_conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")  # WAL: safe from crashes of the app
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=60000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn) -> None:
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        return engine
    return create_engine(url, pool_size=20, max_overflow=40, pool_pre_ping=True)


# the errors that say the database is unavailable (down, unreachable, read-only, locked too
# long, no pooled connection free): no request can do anything about them; the app answers
# 503, and they are never blamed on one game
UNAVAILABLE = (OperationalError, InterfaceError, InternalError, PoolTimeout)
MIGRATION_LOCK = 0x706F6C7964697000  # the PostgreSQL advisory lock of migrations ("polydip")


def is_read_only(exc: BaseException | None) -> bool:
    """Whether a driver's error says the database refused a write as read-only."""
    return (getattr(exc, "sqlstate", None) == "25006"  # PostgreSQL read_only_sql_transaction
            or "readonly database" in str(exc))  # SQLite's SQLITE_READONLY


def _drop_read_only(ctx) -> None:
    """handle_error: a connection opened while the database was read-only (a file or
    filesystem made read-only, a PostgreSQL failover to a standby,
    default_transaction_read_only) stays read-only after the episode. Treated as a lost
    connection, it is dropped with the rest of the pool, and the next request connects
    afresh."""
    if is_read_only(ctx.original_exception):
        ctx.is_disconnect = True


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration (creating it in an empty database)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:  # on SQLite: BEGIN IMMEDIATE, the file's write lock
        if conn.dialect.name == "postgresql":
            # servers started together on a new database: one migrates, the others wait
            # here, then find the schema up to date (released at the commit)
            conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


class Database:
    """An engine and its sessions; `with db.transaction() as s:` commits or rolls back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        event.listen(self.engine, "handle_error", _drop_read_only)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.locks_rows = self.engine.dialect.name != "sqlite"
        # SQLite has one writer at a time: the server's threads queue here, in turn, rather
        # than in SQLite's busy handler, which polls with growing sleeps (long waits)
        self._one_writer = threading.Lock() if not self.locks_rows else None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        with self._one_writer or contextlib.nullcontext(), self.sessions() as s, s.begin():
            yield s

    def dispose(self) -> None:
        self.engine.dispose()
