"""The host's storage: durable commits, page views that never wait for a writer (nor make
one wait), and phase rows that hold what their phase changed."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host



def _new_game(client) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json={"variant": "standard"})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["gm_token"], {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}


def test_page_views_answer_while_a_write_transaction_is_open(client):
    """Another request holds a write transaction open (SQLite: the write lock; PostgreSQL:
    the game's row locked): the views of the same game — a power's state with its legal
    orders, the map, the GM's page, the game file — answer at once, and see the state as
    last committed."""
    gm, tokens = _new_game(client)
    host = client.app.state.host
    held, release = threading.Event(), threading.Event()

    def writer() -> None:
        with host.db.transaction() as s:
            g = host.gm_game(s, gm, lock=True)
            g.name = "not yet"
            s.flush()
            held.set()
            release.wait(30)

    views = [f"/api/play/{tokens['France']}", f"/api/play/{tokens['France']}/map.svg",
             f"/api/gm/{gm}", f"/gm/{gm}", f"/play/{tokens['France']}",
             f"/api/gm/{gm}/game.json"]
    with ThreadPoolExecutor(2) as ex:
        holder = ex.submit(writer)
        try:
            assert held.wait(10)
            answers = [ex.submit(client.get, url).result(timeout=10) for url in views]
        finally:
            release.set()
        holder.result()
    assert [r.status_code for r in answers] == [200] * len(views)
    assert answers[0].json()["name"] != "not yet"
    assert sorted(answers[0].json()["legal_orders"]) == ["A MAR", "A PAR", "F BRE"]
    assert client.get(f"/api/gm/{gm}").json()["name"] == "not yet"  # once committed


def test_a_read_transaction_changes_nothing(client):
    from polydip.host.db import ReadOnlyError

    gm, _tokens = _new_game(client)
    host = client.app.state.host
    with pytest.raises(ReadOnlyError), host.db.read() as s:
        host.gm_game(s, gm).name = "changed"
    assert client.get(f"/api/gm/{gm}").json()["name"] != "changed"


def test_sqlite_commits_reach_the_disk(tmp_path):
    """synchronous=FULL: a commit that returned (an acknowledged order) survives a power
    loss; in WAL mode NORMAL may lose the last commits."""
    from polydip.host.db import Database

    db = Database(f"sqlite:///{tmp_path / 'polydip.db'}")
    try:
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        db.dispose()
