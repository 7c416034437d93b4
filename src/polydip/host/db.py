"""The host's database: an engine for a URL (SQLite by default, PostgreSQL by URL), the
schema brought up to date with the Alembic migrations shipped in this package, and one
transaction per request: `transaction()` for a request that may write, `read()` for one that
only reads (a page view).

SQLite allows one writer at a time: the writing transactions of one server queue on a lock,
and each starts with BEGIN IMMEDIATE (for other processes on the same file) so that a read
followed by a write never fails half-way ("database is locked") and waits its turn instead.
PostgreSQL transactions lock the game's row (SELECT ... FOR UPDATE) for the same effect per
game. A read transaction takes no lock of either kind: on SQLite it is a plain (deferred)
BEGIN, which in WAL mode reads a snapshot while a writer works; on PostgreSQL a READ ONLY,
REPEATABLE READ transaction (one snapshot for the whole view). So page views never wait for
a write, and never make writes or deadline processing wait.

Durability: SQLite runs in WAL mode with synchronous=FULL, so a transaction whose commit
returned (an acknowledged order) is on the disk and survives a power loss, not only a crash
of the server (NORMAL, the WAL default, may lose the last commits on a power loss).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, ExceptionContext, create_engine, event
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, UOWTransaction, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

MIGRATIONS = Path(__file__).parent / "migrations"
READ_ONLY = "polydip_read_only"  # execution option of the connections of read transactions


def sqlite_url(data_dir: str | Path) -> str:
    return f"sqlite:///{Path(data_dir).resolve() / 'polydip.db'}"


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 60, "check_same_thread": False},
                               pool_size=20, max_overflow=40, hide_parameters=True)

        @event.listens_for(engine, "connect")
        def _connect(dbapi_conn: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
            dbapi_conn.isolation_level = None  # SQLAlchemy's BEGIN below, not pysqlite's
            cur = dbapi_conn.cursor()
            _wal(cur)
            cur.execute("PRAGMA synchronous=FULL")  # every commit on the disk (power loss)
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=60000")
            cur.close()

        @event.listens_for(engine, "begin")
        def _begin(conn: Connection) -> None:
            # a writer takes the write lock at once; a reader reads a snapshot, locking nothing
            read = conn.get_execution_options().get(READ_ONLY)
            conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")
        return engine
    # hide_parameters: an error's text never quotes the values (names, orders) it wrote
    engine = create_engine(url, pool_size=20, max_overflow=40, pool_pre_ping=True,
                           hide_parameters=True)

    @event.listens_for(engine, "begin")
    def _begin_pg(conn: Connection) -> None:
        # a read transaction sets the driver's read_only, and SQLAlchemy sets it back to
        # False, not to the server's default: a writer after a reader on the same pooled
        # connection would write READ WRITE even while the database is read-only
        # (default_transaction_read_only during a failover); a writer uses the default
        if not conn.get_execution_options().get(READ_ONLY):
            raw = conn.connection.dbapi_connection
            if getattr(raw, "read_only", None) is False:
                raw.read_only = None  # type: ignore[union-attr]
    return engine


def _wal(cur: Any) -> None:
    """Put the database in WAL mode. Two servers opening a new database at once can meet
    here: switching the journal mode needs the file to itself, and SQLite answers "database
    is locked" at once (no busy wait) to a connection that reads while another writes; so
    try again for up to a minute, as the busy timeout would."""
    import sqlite3
    import time

    end = time.monotonic() + 60
    while True:
        try:
            cur.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > end:
                raise
            time.sleep(0.05)


# the errors that say the database is unavailable (down, unreachable, read-only, locked too
# long, no pooled connection free): no request can do anything about them; the app answers
# 503, and they are never blamed on one game
UNAVAILABLE = (OperationalError, InterfaceError, InternalError, PoolTimeout)
MIGRATION_LOCK = 0x706F6C7964697000  # the PostgreSQL advisory lock of migrations ("polydip")


def is_read_only(exc: BaseException | None) -> bool:
    """Whether a driver's error says the database refused a write as read-only."""
    return (getattr(exc, "sqlstate", None) == "25006"  # PostgreSQL read_only_sql_transaction
            or "readonly database" in str(exc))  # SQLite's SQLITE_READONLY


def _drop_read_only(ctx: ExceptionContext) -> None:
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


class ReadOnlyError(RuntimeError):
    """A change was made in a read transaction (a bug of the caller: use transaction())."""


class Database:
    """An engine and its sessions; `with db.transaction() as s:` commits or rolls back,
    `with db.read() as s:` reads without any lock and changes nothing."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        event.listen(self.engine, "handle_error", _drop_read_only)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.locks_rows = self.engine.dialect.name != "sqlite"
        options: dict[str, object] = {READ_ONLY: True}
        if self.locks_rows:  # PostgreSQL: one snapshot, and writes refused by the server
            options.update(isolation_level="REPEATABLE READ", postgresql_readonly=True)
        self.readers = sessionmaker(self.engine.execution_options(**options),
                                    expire_on_commit=False, autoflush=False)

        @event.listens_for(self.readers, "before_flush")
        def _refuse(session: Session, _context: UOWTransaction, _instances: object) -> None:
            if session.new or session.dirty or session.deleted:
                raise ReadOnlyError("a read transaction cannot change the database")
        # SQLite has one writer at a time: the server's threads queue here, in turn, rather
        # than in SQLite's busy handler, which polls with growing sleeps (long waits)
        self._one_writer = threading.Lock() if not self.locks_rows else None

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        with self._one_writer or contextlib.nullcontext(), self.sessions() as s, s.begin():
            yield s

    @contextlib.contextmanager
    def read(self) -> Iterator[Session]:
        """A read-only transaction for a request that only reads: no writer lock, no row
        lock; it sees one consistent state of the database and ends with a rollback."""
        with self.readers() as s:
            s.begin()
            try:
                yield s
                s.flush()  # a change made by mistake is refused, not silently dropped
            finally:
                s.rollback()

    def dispose(self) -> None:
        self.engine.dispose()
