"""The host under faults and races: stale requests, concurrent GM actions, one game's
failure, late orders, migrations started together, database outages (SQLite and
PostgreSQL)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host


def test_two_servers_migrating_a_new_postgresql_database_at_once(pg_cluster):
    """Two servers started together on an empty database: both come up (the second waits for
    the first's migration instead of failing on its CREATE TABLE). Two processes, as two
    servers are (Alembic's context is one per process)."""
    import subprocess
    import sys
    import time

    from sqlalchemy import inspect

    from polydip.host.db import Database
    from tests.host.conftest import _new_pg_database

    script = ("import sys, time; from polydip.host.db import Database, migrate; "
              "db = Database(sys.argv[1]); import alembic.command; "
              "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); "
              "migrate(db.engine); db.dispose()")
    for _ in range(2):
        url = _new_pg_database(pg_cluster)
        at = str(time.time() + 6)  # both processes imported by then: they start together
        procs = [subprocess.Popen([sys.executable, "-c", script, url, at],
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        errors = [p.communicate(timeout=120)[1] for p in procs]
        assert [p.returncode for p in procs] == [0, 0], errors
        db = Database(url)
        assert "games" in inspect(db.engine).get_table_names()
        db.dispose()
