"""`polydip serve --workers N`: several server processes on one PostgreSQL database, each
phase processed exactly once (each game's processing claims its row: SELECT ... FOR UPDATE
SKIP LOCKED); on SQLite more than one process is refused."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections import Counter

import pytest

from polydip.cli.main import main

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")


def test_workers_on_sqlite_are_refused(capsys, tmp_path):
    assert main(["serve", "--workers", "2", "--data", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "--workers 2 needs a PostgreSQL database" in err and "Traceback" not in err
    assert not (tmp_path / "polydip.db").exists()  # refused before anything was opened


def test_workers_out_of_range_are_refused(capsys):
    for n in ("0", "65"):
        assert main(["serve", "--workers", n, "--db", "postgresql+psycopg://u@h/d"]) == 1
        assert f"--workers {n}: 1 to 64" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_processes_process_each_phase_once(pg_cluster, tmp_path):
    """Two server processes on one database, deadlines of about a second, checked every
    0.2 s by both: every phase row is there once, in order, no processing failed, every
    processing was logged once, and both processes took part."""
    from sqlalchemy import select

    from polydip.host.db import Database, migrate
    from polydip.host.models import GameRow, PhaseRow
    from polydip.host.service import Host
    from tests.host.conftest import _new_pg_database

    url = _new_pg_database(pg_cluster)
    db = Database(url)
    migrate(db.engine)
    host = Host(db, tmp_path)
    games = [host.create_game("standard", movement_minutes=0.02, retreat_minutes=0.02,
                              adjustment_minutes=0.02)[0] for _ in range(6)]
    port = _free_port()
    log = tmp_path / "serve.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "polydip.cli.main", "serve", "--workers", "2", "--host",
             "127.0.0.1", "--port", str(port), "--data", str(tmp_path), "--tick", "0.2",
             "--db", url], stdout=out, stderr=subprocess.STDOUT)
        try:
            end = time.monotonic() + 120
            while time.monotonic() < end:
                assert proc.poll() is None, log.read_text()[-2000:]
                with db.read() as s:
                    seqs = list(s.scalars(select(GameRow.seq).where(GameRow.id.in_(games))))
                if min(seqs) >= 5:
                    break
                time.sleep(0.5)
            else:
                pytest.fail(f"phases processed: {seqs}; log: {log.read_text()[-2000:]}")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/variants", timeout=5) as r:
                assert r.status == 200  # and it serves requests meanwhile
        finally:
            proc.terminate()
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    with db.read() as s:
        rows = s.execute(select(GameRow.id, GameRow.seq, GameRow.failure)
                         .where(GameRow.id.in_(games))).all()
        for gid, seq, failure in rows:
            assert failure is None
            got = list(s.scalars(select(PhaseRow.seq).where(PhaseRow.game_id == gid)
                                 .order_by(PhaseRow.seq)))
            assert got == list(range(seq + 1))  # each phase's row once, none missing
    text = log.read_text()
    done = re.findall(r"polydip\.host \[(\d+)\]: game (\d+): processed at the deadline, "
                      r"now (\w+)", text)
    assert done, text[-2000:]
    twice = [k for k, n in Counter((g, p) for _pid, g, p in done).items() if n > 1]
    assert not twice, f"processed more than once: {twice}"
    assert len({pid for pid, _g, _p in done}) == 2, "both processes took part"
    db.dispose()


def test_a_game_held_by_another_process_is_skipped_not_waited_for(pg_cluster, tmp_path):
    """The deadline task claims a game with SKIP LOCKED: while another transaction (a
    sibling process processing it, a player's request) holds the game's row, process_due
    passes it by at once; once free, it is processed."""
    import threading

    import psycopg

    from polydip.host.db import Database, migrate
    from polydip.host.service import Host, now_utc
    from tests.host.conftest import _new_pg_database

    url = _new_pg_database(pg_cluster)
    db = Database(url)
    migrate(db.engine)
    host = Host(db, tmp_path)
    gid, _gm = host.create_game("standard", movement_minutes=0.001)
    time.sleep(0.2)
    dbname = url.split("@/", 1)[1].split("?")[0]
    with psycopg.connect(host=str(pg_cluster), user="postgres", dbname=dbname) as other:
        other.execute("SELECT id FROM games WHERE id = %s FOR UPDATE", (gid,))
        result: list[list[int]] = []
        t = threading.Thread(target=lambda: result.append(host.process_due()), daemon=True)
        t.start()
        t.join(10)
        assert not t.is_alive(), "process_due waited for the held game"
        assert result == [[]]
        other.rollback()
    assert host.process_due(now_utc()) == [gid]
    db.dispose()
