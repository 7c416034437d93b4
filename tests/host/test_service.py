"""The host under faults and races: stale requests, concurrent GM actions, one game's
failure, late orders, migrations started together, database outages (SQLite and
PostgreSQL)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from tests.host.test_api import Table  # noqa: E402


def test_two_servers_migrating_a_new_database_at_once(db_url):
    """Two servers started together on an empty database: both come up (the second waits for
    the first's migration instead of failing on its CREATE TABLE). Two processes, as two
    servers are (Alembic's context is one per process)."""
    import subprocess
    import sys
    import time

    from sqlalchemy import inspect

    from polydip.host.db import Database

    script = ("import sys, time; from polydip.host.db import Database, migrate; "
              "db = Database(sys.argv[1]); import alembic.command; "
              "time.sleep(max(0.0, float(sys.argv[2]) - time.time())); "
              "migrate(db.engine); db.dispose()")
    at = str(time.time() + 6)  # both processes imported by then: they start together
    procs = [subprocess.Popen([sys.executable, "-c", script, db_url, at],
                              stderr=subprocess.PIPE, text=True, env=_env_of_this_code())
             for _ in range(2)]
    errors = [p.communicate(timeout=120)[1] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], errors
    db = Database(db_url)
    assert "games" in inspect(db.engine).get_table_names()
    db.dispose()


def _env_of_this_code() -> dict[str, str]:
    """The environment of a child Python running this checkout's polydip."""
    import os
    from pathlib import Path

    src = str(Path(__file__).resolve().parents[2] / "src")
    return {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}


# ---- finding 5: stale requests -------------------------------------------------------------

def test_a_request_made_for_an_earlier_phase_changes_nothing(client):
    """A page left open across a deadline: its orders, ready, process now and undo name the
    phase they were made for, and once the game moved on they are refused (409), changing
    nothing."""
    t = Table(client)
    spring = t.pid()
    t.order("France", "A PAR - BUR")
    assert t.process() == "F1901M"
    fall = t.pid()
    e = t.tokens["England"]
    r = client.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": spring})
    assert r.status_code == 409 and "F1901M" in r.json()["detail"]
    assert client.post(f"/api/play/{e}/ready",
                       json={"ready": True, "phase": spring}).status_code == 409
    assert client.post(f"/api/gm/{t.gm}/process", json={"phase": spring}).status_code == 409
    assert client.post(f"/api/gm/{t.gm}/undo", json={"phase": spring}).status_code == 409
    s = t.state("England")
    assert s["phase"] == "F1901M" and s["orders"] == [] and not s["ready"]
    assert s["phase_id"] == fall
    # the pages' forms carry the phase id too: a stale form is refused, as a page
    r = client.post(f"/play/{e}/orders", data={"text": "F LON - NTH", "phase": spring})
    assert r.status_code == 409 and "F1901M" in r.text
    r = client.post(f"/gm/{t.gm}", data={"action": "process", "phase": spring})
    assert r.status_code == 409
    # undone and processed again, F1901M is a new phase: requests made for the old one fail
    assert client.post(f"/api/gm/{t.gm}/undo", json={"phase": fall}).json()["phase"] == "S1901M"
    assert t.process() == "F1901M"
    r = client.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": fall})
    assert r.status_code == 409
    assert t.state("England")["orders"] == []
    # a request naming no phase is malformed
    assert client.post(f"/api/gm/{t.gm}/process").status_code == 422
    assert client.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH"}).status_code == 422
    # the pages carry the current id in every form
    assert client.get(f"/play/{e}").text.count(f'value="{t.pid()}"') >= 3
    assert client.get(f"/gm/{t.gm}").text.count(f'value="{t.pid()}"') >= 5


def test_process_now_and_undo_are_exactly_once_under_concurrency(client):
    """Eight GM windows click "process now" at once: the phase is processed once, the others
    answer 409; then eight "undo" at once step back one phase."""
    t = Table(client)
    t.order("France", "A PAR - BUR")
    gid = t.gm_state()["game"]

    def at_once(path: str, phase: str) -> list[int]:
        barrier = threading.Barrier(8)

        def post(_i: int) -> int:
            barrier.wait()
            return client.post(path, json={"phase": phase}).status_code

        with ThreadPoolExecutor(8) as ex:
            return sorted(ex.map(post, range(8)))

    assert at_once(f"/api/gm/{t.gm}/process", t.pid()) == [200] + [409] * 7
    s = t.gm_state()
    assert s["phase"] == "F1901M" and len(s["history"]) == 1 and s["game"] == gid
    assert at_once(f"/api/gm/{t.gm}/undo", t.pid()) == [200] + [409] * 7
    s = t.gm_state()
    assert s["phase"] == "S1901M" and s["history"] == []
    assert t.state("France")["orders"] == ["A PAR - BUR"]


# ---- finding 8: one game's failure ---------------------------------------------------------

def test_one_game_failing_to_process_never_stops_another(client, monkeypatch, caplog):
    """A bug in one game's processing (anything, not only a PolydipError): the other games
    keep their deadlines, the failure is logged once with the game's id, the GM sees it, and
    "process now" on it answers 409 with the reason (never a 500)."""
    from polydip.game.game import Game

    doomed, fine, later = Table(client, name="doomed"), Table(client), Table(client)
    host = client.app.state.host
    for t in (doomed, fine, later):
        client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0,
                                                       "phase": t.pid()})
    real = Game.process

    def process(self, *a, **k):
        if self.name == "doomed":
            raise KeyError("a bug in one game")
        return real(self, *a, **k)

    monkeypatch.setattr(Game, "process", process)
    gid = doomed.gm_state()["game"]
    with caplog.at_level("INFO", logger="polydip.host"):
        assert host.process_due() == [fine.gm_state()["game"], later.gm_state()["game"]]
        assert host.process_due() == []  # marked: not tried again on every tick
    failed = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(failed) == 1 and f"game {gid}" in failed[0].getMessage()
    assert not any(r.exc_info for r in caplog.records)
    assert fine.gm_state()["phase"] == later.gm_state()["phase"] == "F1901M"
    s = doomed.gm_state()
    assert s["phase"] == "S1901M" and "processing failed: KeyError" in s["failure"]
    assert "processing failed" in client.get(f"/gm/{doomed.gm}").text
    assert fine.gm_state()["failure"] is None
    r = client.post(f"/api/gm/{doomed.gm}/process", json={"phase": doomed.pid()})
    assert r.status_code == 409 and "a bug in one game" in r.json()["detail"]
    # the cause fixed, the GM processes it again; the mark goes
    monkeypatch.setattr(Game, "process", real)
    assert doomed.process() == "F1901M"
    assert doomed.gm_state()["failure"] is None


def test_every_power_ready_on_a_game_that_fails_keeps_the_ready_flags(client, monkeypatch):
    from polydip.game.game import Game

    t = Table(client)

    def broken(self, *a, **k):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Game, "process", broken)
    for p in sorted(t.tokens):
        last = t.ready(p)
    assert last["processed"] is False
    s = t.gm_state()
    assert s["phase"] == "S1901M" and "disk on fire" in s["failure"]
    assert all(p["ready"] for p in s["pending"])


# ---- finding 9: the deadline holds when orders arrive --------------------------------------

def test_orders_after_the_deadline_are_refused_and_the_phase_processed(client):
    """Orders and "ready" arriving after the deadline, before any tick: the overdue phase is
    processed first (without them) and the request is refused with 409."""
    t = Table(client)
    t.order("France", "A PAR - BUR")
    late = t.pid()
    client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0, "phase": late})
    e = t.tokens["England"]
    r = client.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": late})
    assert r.status_code == 409 and "deadline" in r.json()["detail"]
    s = t.state("England")
    assert s["phase"] == "F1901M" and s["orders"] == []
    report = client.get(f"/api/gm/{t.gm}/phases/0").json()["report_json"]
    assert "England" in report["nmr"] and "France" not in report["nmr"]
    # the same with "ready", on the new phase
    client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0, "phase": t.pid()})
    r = client.post(f"/api/play/{e}/ready", json={"ready": True, "phase": t.pid()})
    assert r.status_code == 409 and t.state("England")["phase"] == "S1902M"  # no builds


def test_after_a_restart_an_overdue_phase_takes_no_orders(db_url, tmp_path):
    """The server was down across a deadline: on its return, before its first tick, the
    overdue phase takes no orders."""
    from fastapi.testclient import TestClient

    from polydip.host.app import create_app

    with TestClient(create_app(db_url, tmp_path / "data", tick_seconds=3600)) as c:
        t = Table(c)
        pid = t.pid()
        c.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0.01, "phase": pid})
    import time

    time.sleep(1.0)  # the deadline passes while the server is down
    with TestClient(create_app(db_url, tmp_path / "data", tick_seconds=3600)) as c:
        r = c.post(f"/api/play/{t.tokens['Italy']}/orders",
                   json={"text": "A VEN - TYR", "phase": pid})
        assert r.status_code == 409 and "deadline" in r.json()["detail"]
        assert c.get(f"/api/play/{t.tokens['Italy']}").json()["phase"] == "F1901M"


# ---- a long order text reads outside the writer's lock -------------------------------------

def test_reading_a_long_order_text_keeps_no_other_game_waiting(client, monkeypatch):
    """A player's text of many misspelled lines takes a while to read (each gets its
    suggestions). It is read before the write transaction, so another game's orders are
    taken meanwhile (a SQLite file has one writer for every game), and it is read once."""
    import polydip.host.service as service

    mine, theirs = Table(client), Table(client)
    started, release = threading.Event(), threading.Event()
    real = service.read_message
    calls = []

    def slow(m, pos, text, **kw):
        if text.startswith("A Paree"):
            calls.append(text)
            started.set()
            assert release.wait(60)
        return real(m, pos, text, **kw)

    monkeypatch.setattr(service, "read_message", slow)
    with ThreadPoolExecutor(2) as pool:
        long = pool.submit(mine.order, "France", "A Paree - Burgandy\n" * 5)
        try:
            assert started.wait(60)
            other = pool.submit(theirs.order, "England", "F LON - NTH")
            assert other.result(timeout=30)["orders"] == ["F LON - NTH"]
        finally:
            release.set()
        got = long.result(timeout=60)
    assert len(calls) == 1  # read before the transaction, and not again in it
    assert [p["line"] for p in got["problems"]] == [1, 2, 3, 4, 5]
    assert "did you mean PAR" in got["problems"][0]["suggestion"]


def test_orders_of_more_lines_than_any_power_needs_are_refused_whole(client):
    """At most 400 lines (and 20,000 characters): more is refused with a reason, and the
    power's orders are left as they were."""
    t = Table(client)
    t.order("France", "A PAR - BUR")
    e = t.tokens["France"]
    r = client.post(f"/api/play/{e}/orders",
                    json={"text": "A MAR - SPA\n" * 401, "phase": t.pid()})
    assert r.status_code == 400 and "more than 400 lines" in r.json()["detail"]
    assert t.state("France")["orders"] == ["A PAR - BUR"]
    assert t.order("France", "A MAR - SPA\n" * 400)["orders"] == ["A MAR - SPA"]


# ---- finding 11: database outages ----------------------------------------------------------

def _admin(sockdir, *sql: str) -> None:
    import psycopg

    with psycopg.connect(host=str(sockdir), user="postgres", dbname="postgres",
                         autocommit=True) as conn:
        for q in sql:
            conn.execute(q)


def _kick(name: str) -> str:
    """SQL closing every connection to database `name` (an outage, a failover)."""
    return (f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}' "
            "AND pid <> pg_backend_pid()")


@pytest.fixture
def pg_app(pg_cluster, tmp_path):
    from fastapi.testclient import TestClient

    from polydip.host.app import create_app
    from tests.host.conftest import _new_pg_database

    url = _new_pg_database(pg_cluster)
    name = url.split("@/", 1)[1].split("?")[0]
    app = create_app(url, tmp_path / "data", tick_seconds=3600)
    with TestClient(app, raise_server_exceptions=False) as c:
        yield c, name


def test_a_postgresql_outage_answers_json_503_logs_one_line_and_recovers(pg_app, pg_cluster,
                                                                         caplog):
    c, name = pg_app
    t = Table(c)
    pid, e = t.pid(), t.tokens["England"]
    _admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false', _kick(name))
    try:
        with caplog.at_level("INFO", logger="polydip.host"):
            r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
            assert r.status_code == 503 and "database" in r.json()["detail"]
            assert c.get(f"/api/play/{e}").status_code == 503
            assert c.get(f"/play/{e}").status_code == 503  # the page says it too, as HTML
        lines = [r for r in caplog.records if r.name == "polydip.host"]
        assert len(lines) == 3 and not any(r.exc_info for r in lines)
        assert all("database unavailable" in r.getMessage() for r in lines)
    finally:
        _admin(pg_cluster, f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
    assert r.status_code == 200 and r.json()["orders"] == ["F LON - NTH"]


def test_writes_work_again_after_a_postgresql_read_only_episode(pg_app, pg_cluster):
    """Connections opened while the database was read-only (a failover to a standby, or
    default_transaction_read_only) are dropped once a write fails on them."""
    c, name = pg_app
    t = Table(c)
    pid, e = t.pid(), t.tokens["England"]
    _admin(pg_cluster, f'ALTER DATABASE "{name}" SET default_transaction_read_only = on',
           _kick(name))
    try:
        for _ in range(3):
            r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
            assert r.status_code == 503, r.text
    finally:
        _admin(pg_cluster, f'ALTER DATABASE "{name}" SET default_transaction_read_only = off')
    r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
    assert r.status_code == 200, r.text


def test_writes_work_again_after_a_sqlite_file_was_read_only(tmp_path):
    """The database file could not be written for a while (here: made immutable, as root
    may not be refused by permissions); connections opened meanwhile are read-only for good
    unless dropped."""
    import shutil
    import subprocess

    from fastapi.testclient import TestClient

    from polydip.host.app import create_app

    if shutil.which("chattr") is None:
        pytest.skip("needs chattr")
    db = tmp_path / "polydip.db"
    app = create_app(f"sqlite:///{db}", tmp_path / "data", tick_seconds=3600)
    with TestClient(app, raise_server_exceptions=False) as c:
        t = Table(c)
        pid, e = t.pid(), t.tokens["England"]
        if subprocess.run(["chattr", "+i", str(db)], capture_output=True).returncode:
            pytest.skip("chattr +i refused on this filesystem")
        try:
            app.state.host.db.engine.dispose()  # connections opened during the episode
            for _ in range(2):
                r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
                assert r.status_code == 503, r.text
        finally:
            subprocess.run(["chattr", "-i", str(db)], check=True)
        r = c.post(f"/api/play/{e}/orders", json={"text": "F LON - NTH", "phase": pid})
        assert r.status_code == 200, r.text


def test_polydip_serve_logs_the_phases_processed_at_the_deadline(tmp_path):
    """`polydip serve` shows the host's INFO lines: a phase processed at its deadline."""
    import json
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    env = _env_of_this_code()
    log = open(tmp_path / "serve.log", "w")  # noqa: SIM115 - closed below
    proc = subprocess.Popen([sys.executable, "-m", "polydip.cli.main", "serve", "--port",
                             str(port), "--data", str(tmp_path), "--tick", "0.5"],
                            stdout=log, stderr=subprocess.STDOUT, env=env)

    def call(path: str, body: dict | None = None) -> dict:
        req = urllib.request.Request(url + path, data=json.dumps(body).encode()
                                     if body is not None else None,
                                     headers={"content-type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            return json.loads(r.read())

    try:
        for _ in range(300):
            try:
                call("/api/variants")
                break
            except OSError:
                time.sleep(0.1)
        gm = call("/api/games", {"variant": "standard"})["gm_token"]
        state = call(f"/api/gm/{gm}")
        call(f"/api/gm/{gm}/deadline", {"minutes_from_now": 0, "phase": state["phase_id"]})
        text = ""
        for _ in range(100):
            time.sleep(0.2)
            text = (tmp_path / "serve.log").read_text()
            if "processed at the deadline" in text:
                break
        assert f"game {state['game']}: processed at the deadline, now F1901M" in text, text
    finally:
        proc.terminate()
        proc.wait(30)
        log.close()


def test_the_games_migration_keeps_every_game_both_ways(db_url, tmp_path):
    """An older database's games get a phase id and no failure mark, and take requests; the
    downgrade keeps every game's rows (a batch copy of `games` would cascade-delete them)."""
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import text

    from polydip.host.db import MIGRATIONS, Database, migrate
    from polydip.host.service import Host

    db = Database(db_url)

    def to(revision: str, up: bool = True) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with db.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.upgrade if up else command.downgrade)(cfg, revision)

    try:
        migrate(db.engine)
        host = Host(db, tmp_path)
        _gid, gm = host.create_game("standard")
        to("0001", up=False)
        with db.engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM phases")).scalar() == 1
            assert conn.execute(text("SELECT count(*) FROM powers")).scalar() == 7
        migrate(db.engine)
        with db.transaction() as s:
            g = host.gm_game(s, gm)
            assert g.failure is None and g.phase_key == ""
            old = f"{g.phase}-{g.seq}-"
        assert host.process_now(gm, phase=old)[0] == "F1901M"
    finally:
        db.dispose()


def test_wal_mode_is_set_again_while_another_server_holds_the_new_file():
    """SQLite answers "database is locked" at once (no busy wait) to a connection switching a
    new file to WAL while another server does: the switch is tried again, other errors are
    not hidden."""
    import sqlite3

    from polydip.host.db import _wal

    class Cursor:
        def __init__(self, fails: list[str]) -> None:
            self.fails, self.calls = fails, 0

        def execute(self, sql: str) -> None:
            self.calls += 1
            if self.fails:
                raise sqlite3.OperationalError(self.fails.pop(0))

    cur = Cursor(["database is locked", "database is locked"])
    _wal(cur)
    assert cur.calls == 3
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        _wal(Cursor(["disk I/O error"]))
