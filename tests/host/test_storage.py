"""The host's storage: durable commits, page views that never wait for a writer (nor make
one wait), and phase rows that hold what their phase changed."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from sqlalchemy import select, text  # noqa: E402


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


def _play(host, gm: str, phases: int, seed: int = 3) -> None:
    """`phases` phases of random legal orders from every power, processed by the GM."""
    import random

    from polydip.host.service import phase_id

    rnd = random.Random(seed)
    tokens = host.links(gm)
    for _ in range(phases):
        with host.db.read() as s:
            g = host.gm_game(s, gm)
            game = host.game(s, g)
            legal = {game.map.powers[p]: game.legal_orders(p) for p in game.powers_to_order()}
            phase = phase_id(g)
        for power, units in legal.items():
            host.submit(tokens[power], "\n".join(rnd.choice(o) for o in units.values() if o),
                        phase=phase)
        host.process_now(gm, phase=phase)


def test_a_phase_row_holds_its_phase_not_the_whole_game(client):
    """Rows grow with what a phase changed: the row of the twelfth phase is about the size
    of the first one's, while the game as it began holds every phase before it; and the
    rows put together give back the game as each phase began."""
    import json

    from polydip.game.files import game_to_json
    from polydip.host.models import PhaseRow

    gm, _tokens = _new_game(client)
    host = client.app.state.host
    _play(host, gm, 12)
    with host.db.read() as s:
        g = host.gm_game(s, gm)
        rows = list(s.scalars(select(PhaseRow).where(PhaseRow.game_id == g.id)
                              .order_by(PhaseRow.seq)))
        whole = len(json.dumps(game_to_json(host.game(s, g))))
        assert [r.seq for r in rows] == list(range(g.seq + 1)) and g.seq >= 12
        sizes = [len(r.record) for r in rows]
        assert max(sizes) < 2 * sizes[1] and max(sizes) * 4 < whole, (sizes, whole)
        host._cache.clear()  # rebuilt from the rows, not from memory
        for seq in range(g.seq + 1):
            game = host.game(s, g, seq)
            assert len(game.history) == seq
            assert game.phase == rows[seq].name


def _old_rows(phases: int) -> list[str]:
    """A game's phase rows as revision 0001 stored them: the whole game file as each phase
    began (the owners at the year's start left out where they are the owners now)."""
    import json
    import random

    from polydip.game.files import game_to_json
    from polydip.game.game import Game
    from polydip.play import random_orders

    def old(data: dict) -> str:
        for pos in [h["position"] for h in data["history"]] + [data["current"]["position"]]:
            if pos.get("year_start_centers") == pos["centers"]:
                del pos["year_start_centers"]
        return json.dumps(data)

    game = Game.new("standard")
    rng = random.Random(7)
    out = [old(game_to_json(game))]
    while len(out) <= phases:
        for p, lst in random_orders(game.map, game.position, rng).items():
            game.set_orders(p, lst)
        game.process()
        out.append(old(game_to_json(game)))
    return out


def test_the_migration_converts_old_phase_rows(db_url, tmp_path):
    """A database at revision 0001 with a game stored the old way (the whole game file in
    each row) is upgraded: every row keeps only its phase, the game reads back as it was
    at every phase, and a player's page answers; the downgrade gives the old rows back."""
    import json
    from datetime import datetime

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import MetaData, Table, inspect

    from polydip.game.files import game_from_json, game_to_json
    from polydip.host.db import MIGRATIONS, Database, migrate
    from polydip.host.service import Host
    from polydip.host.tokens import power_token, token_hash

    old = _old_rows(6)
    db = Database(db_url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))

    def to(revision: str, up: bool = True) -> None:
        with db.engine.begin() as conn:
            cfg.attributes["connection"] = conn
            (command.upgrade if up else command.downgrade)(cfg, revision)

    try:
        to("0001")
        now = datetime(2026, 1, 1)
        with db.engine.begin() as conn:
            meta = MetaData()
            games, powers, phases = (Table(n, meta, autoload_with=conn)
                                     for n in ("games", "powers", "phases"))
            conn.execute(games.insert().values(
                id=1, name="old", variant="standard", variant_text=None, options={},
                gm_token_hash=token_hash("g" * 40), status="active", seq=len(old) - 1,
                phase=json.loads(old[-1])["current"]["position"]["phase"], deadline=None,
                paused=True, paused_left=0.0, movement_minutes=1.0, retreat_minutes=1.0,
                adjustment_minutes=1.0, nmr_limit=0, created=now))
            conn.execute(powers.insert().values(
                game_id=1, power=2, name="France", generation=0, missed=0,
                civil_disorder=False, token_hash=token_hash(power_token("g" * 40, 1, 2, 0))))
            for seq, old_file in enumerate(old):
                conn.execute(phases.insert().values(
                    game_id=1, seq=seq, uid=f"u{seq}", game_json=old_file,
                    name=json.loads(old_file)["current"]["position"]["phase"],
                    powers_before=[], created=now))
        migrate(db.engine)
        with db.engine.connect() as conn:
            assert "game_json" not in {c["name"] for c in inspect(conn).get_columns("phases")}
            sizes = [len(r) for r in conn.execute(text("SELECT record FROM phases")).scalars()]
        assert max(sizes) * 3 < len(old[-1])
        host = Host(db, tmp_path)
        with db.read() as s:
            g = host.gm_game(s, "g" * 40)
            for seq, old_file in enumerate(old):
                assert game_to_json(host.game(s, g, seq)) == game_to_json(
                    game_from_json(json.loads(old_file)))
        from polydip.host.views import player_state

        with db.read() as s:
            g, p = host.player(s, power_token("g" * 40, 1, 2, 0))
            assert player_state(host, s, g, p)["seq"] == len(old) - 1
        to("0001", up=False)
        with db.engine.connect() as conn:
            back = conn.execute(text("SELECT game_json FROM phases ORDER BY seq")).scalars()
            assert [game_from_json(json.loads(t)).position for t in back] == [
                game_from_json(json.loads(t)).position for t in old]
    finally:
        db.dispose()
