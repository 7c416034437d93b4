"""Fixtures of the host's tests: a database (SQLite, and PostgreSQL in a throwaway cluster
when its binaries are installed), the app on it, and helpers to play through the API.

The tests need the `host` and `host-test` extras; without them each module skips saying so.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest


def _pg_bin() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
    return Path(dirs[-1]) if dirs and (Path(dirs[-1]) / "pg_ctl").exists() else None


def _as_postgres(cmd: list[str]) -> list[str]:
    if os.geteuid() == 0:  # initdb refuses root: run it as the postgres user
        return ["runuser", "-u", "postgres", "--", *cmd]
    return cmd


@pytest.fixture(scope="session")
def pg_cluster():
    """A PostgreSQL cluster of its own, on a Unix socket in a temporary folder, stopped at
    the end of the session; yields the socket folder."""
    pytest.importorskip("psycopg", reason="PostgreSQL tests need psycopg (the host extra)")
    bindir = _pg_bin()
    if bindir is None:
        pytest.skip("PostgreSQL tests skipped: no initdb/pg_ctl (apt-get install postgresql)")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or subprocess.run(
            ["id", "postgres"], capture_output=True).returncode != 0):
        pytest.skip("PostgreSQL tests skipped: running as root without a postgres user")
    base = Path(tempfile.mkdtemp(prefix="polydip-pg-"))
    if os.geteuid() == 0:
        shutil.chown(base, "postgres")
    data = base / "data"
    run = subprocess.run(_as_postgres([str(bindir / "initdb"), "-D", str(data), "-A", "trust",
                                       "-U", "postgres", "--no-sync", "-E", "UTF8"]),
                         capture_output=True, text=True)
    if run.returncode != 0:
        shutil.rmtree(base, ignore_errors=True)
        pytest.skip(f"PostgreSQL tests skipped: initdb failed: {run.stderr.strip()[:300]}")
    opts = f"-k {base} -c listen_addresses='' -c fsync=off -c max_connections=300"
    run = subprocess.run(_as_postgres([str(bindir / "pg_ctl"), "-D", str(data), "-o", opts,
                                       "-l", str(base / "log"), "-w", "start"]),
                         capture_output=True, text=True)
    if run.returncode != 0:
        log = (base / "log").read_text() if (base / "log").exists() else run.stderr
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"pg_ctl start failed: {log[-500:]}")
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        yield base
    finally:
        os.kill(pid, signal.SIGINT)  # "fast" shutdown of this cluster's postmaster only
        # done when it has removed its pid file (the process itself may linger as a zombie
        # where nothing reaps it, e.g. a container whose init does not: waiting for it to
        # vanish cost every worker 10 s at the end of the run)
        for _ in range(100):
            if not (data / "postmaster.pid").exists():
                break
            time.sleep(0.1)
        shutil.rmtree(base, ignore_errors=True)


def _new_pg_database(sockdir: Path) -> str:
    import psycopg

    name = "t" + uuid.uuid4().hex[:12]
    with psycopg.connect(host=str(sockdir), user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"postgresql+psycopg://postgres@/{name}?host={sockdir}"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path) -> str:
    """A new, empty database: SQLite in the test's folder, or one in the PostgreSQL
    cluster."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'polydip.db'}"
    return _new_pg_database(request.getfixturevalue("pg_cluster"))


@pytest.fixture
def client(db_url, tmp_path):
    pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                        "'polydip[host,host-test]'")
    from fastapi.testclient import TestClient

    from polydip.host.app import create_app

    app = create_app(db_url, tmp_path / "data", tick_seconds=3600)
    with TestClient(app) as c:
        yield c
