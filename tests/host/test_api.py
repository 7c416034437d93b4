"""The host's JSON API, on SQLite and on PostgreSQL: what GMs and players rely on."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from polydip.game.game import Game  # noqa: E402


class Table:
    """A game created through the API, with each power's token."""

    def __init__(self, client, **body) -> None:
        self.c = client
        r = client.post("/api/games", json={"variant": "standard", **body})
        assert r.status_code == 201, r.text
        d = r.json()
        self.gm = d["gm_token"]
        self.tokens = {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}

    def pid(self) -> str:
        """The current phase's id, which every state-changing request names."""
        return self.gm_state()["phase_id"]

    def order(self, power: str, text: str, mode: str = "replace") -> dict:
        r = self.c.post(f"/api/play/{self.tokens[power]}/orders",
                        json={"text": text, "mode": mode, "phase": self.pid()})
        assert r.status_code == 200, r.text
        return r.json()

    def state(self, power: str) -> dict:
        r = self.c.get(f"/api/play/{self.tokens[power]}")
        assert r.status_code == 200, r.text
        return r.json()

    def gm_state(self) -> dict:
        return self.c.get(f"/api/gm/{self.gm}").json()

    def process(self) -> str:
        r = self.c.post(f"/api/gm/{self.gm}/process", json={"phase": self.pid()})
        assert r.status_code == 200, r.text
        return r.json()["phase"]

    def ready(self, power: str, ready: bool = True) -> dict:
        r = self.c.post(f"/api/play/{self.tokens[power]}/ready", json={"ready": ready,
                                                                     "phase": self.pid()})
        assert r.status_code == 200, r.text
        return r.json()

    def game(self) -> Game:
        r = self.c.get(f"/api/gm/{self.gm}/game.json")
        assert r.status_code == 200
        return _game(r.json())


def _game(data: dict) -> Game:
    from polydip.game.files import game_from_json

    return Game.from_record(game_from_json(data))


def units(game: Game, power: str) -> set[str]:
    m = game.map
    p = game.power(power)
    return {m.unit_str(u.kind, u.loc) for u in game.position.units if u.power == p}


def test_a_new_game_gives_one_secret_link_per_power(client):
    t = Table(client, name="Friday")
    assert sorted(t.tokens) == ["Austria", "England", "France", "Germany", "Italy", "Russia",
                                "Turkey"]
    assert len(set(t.tokens.values())) == 7 and all(len(x) >= 32 for x in t.tokens.values())
    s = t.state("England")
    assert s["power"] == "England" and s["phase"] == "S1901M" and s["name"] == "Friday"
    assert sorted(s["legal_orders"]) == ["A LVP", "F EDI", "F LON"]
    # the GM page shows the same links again (they are derived, not stored)
    links = t.gm_state()["links"]
    assert links == {k: v for k, v in t.tokens.items()}


def test_orders_are_echoed_as_understood_with_line_problems(client):
    t = Table(client)
    r = t.order("England", "Hello GM,\nF London - North Sea\nF Edi - Norwegian Sea\n"
                           "A Lvp - Wals\nFrance: A PAR - BUR\nthanks")
    assert r["understood"] == ["F LON - NTH", "F EDI - NWG"]
    # the player's page echoes them in full names too
    assert t.state("England")["understood_full"] == [
        "Fleet London (LON): move to North Sea (NTH)",
        "Fleet Edinburgh (EDI): move to Norwegian Sea (NWG)"]
    by_line = {p["line"]: p for p in r["problems"]}
    assert "Wales" in by_line[4]["suggestion"]
    assert "you play England" in by_line[5]["reason"]
    assert r["ignored_lines"] == [1, 6]
    assert by_line[1]["reason"] == by_line[6]["reason"] == "not read as an order"
    # replace mode: the text is the power's whole set of orders
    r = t.order("England", "A LVP - YOR")
    assert r["understood"] == ["A LVP - YOR"]
    # merge mode (the picker): one order replaces only its unit's earlier order
    t.order("England", "F LON - ENG", mode="merge")
    r = t.order("England", "F LON - NTH", mode="merge")
    assert sorted(r["understood"]) == ["A LVP - YOR", "F LON - NTH"]


def test_a_power_never_sees_another_powers_orders_or_vote(client):
    t = Table(client)

    def seen(power: str) -> tuple[dict, str]:
        s = t.state(power)
        s.pop("seconds_left")
        return s, client.get(f"/api/play/{t.tokens[power]}/map.svg").text

    before = {p: seen(p) for p in t.tokens if p != "France"}
    t.order("France", "A PAR - BUR\nA MAR S A PAR - BUR")
    client.post(f"/api/play/{t.tokens['France']}/draw", json={"vote": True, "phase": t.pid()})
    t.ready("France")
    for other, view in before.items():
        assert seen(other) == view, other  # nothing France did shows to anyone else
        assert view[0]["orders"] == [] and not view[0]["ready"] and not view[0]["draw_vote"]
    mine = t.state("France")
    assert mine["ready"] and mine["draw_vote"] and mine["understood"][0] == "A PAR - BUR"
    # the GM sees every power's pending orders
    pending = {p["power"]: p for p in t.gm_state()["pending"]}
    assert pending["France"]["orders"] == ["A PAR - BUR", "A MAR S A PAR - BUR"]


def test_bad_links_and_bodies_get_4xx_with_a_message(client):
    t = Table(client)
    e = t.tokens["England"]
    r = client.get("/api/play/" + "x" * 40)
    assert r.status_code == 404 and "no power has this link" in r.json()["detail"]
    assert client.get("/api/gm/" + "y" * 40).status_code == 404
    assert client.post(f"/api/play/{e}/orders", content=b"{not json",
                       headers={"content-type": "application/json"}).status_code == 422
    assert client.post(f"/api/play/{e}/orders", json={"text": 5}).status_code == 422
    assert client.post(f"/api/play/{e}/orders",
                       json={"text": "A LVP H", "mode": "x"}).status_code == 422
    assert client.post(f"/api/play/{e}/orders", json={"text": "x" * 20_001}).status_code == 422
    r = client.post("/api/games", json={"variant": "standrd"})
    assert r.status_code == 400 and "did you mean" in r.json()["detail"]
    for path in ("pyproject.toml", "/etc/passwd", "../polydip.db"):  # never a server file
        r = client.post("/api/games", json={"variant": path})
        assert r.status_code == 400 and "no built-in variant" in r.json()["detail"]
    r = client.post("/api/games", json={"variant": "standard", "options": {"colour": 1}})
    assert r.status_code == 400 and "unknown option" in r.json()["detail"]
    r = client.post("/api/games", json={"variant": "standard", "variant_text": "[[["})
    assert r.status_code == 400 and "TOML" in r.json()["detail"]
    assert client.post(f"/api/gm/{t.gm}/undo", json={"phase": t.pid()}).status_code == 409
    r = client.post(f"/api/gm/{t.gm}/replace", json={"power": "Atlantis", "phase": t.pid()})
    assert r.status_code == 400 and "Atlantis" in r.json()["detail"]
    assert client.get(f"/api/play/{e}/phases/0").status_code == 404
    # the pages answer the same way, as HTML
    r = client.get("/play/" + "x" * 40)
    assert r.status_code == 404 and "no power has this link" in r.text


def test_everyone_ready_processes_the_phase_at_once(client):
    t = Table(client)
    t.order("France", "A PAR - BUR")
    for i, p in enumerate(sorted(t.tokens)):
        r = t.ready(p)
        assert r["processed"] is (i == 6)
    s = t.state("France")
    assert s["phase"] == "F1901M" and s["ready"] is False and s["orders"] == []
    assert "A BUR" in units(t.game(), "France")
    rep = client.get(f"/api/play/{t.tokens['Turkey']}/phases/0").json()
    assert "A PAR - BUR" in rep["report"]
    assert set(rep["report_json"]["nmr"]) == set(t.tokens) - {"France"}


def test_missed_movement_phases_put_a_power_in_civil_disorder(client):
    t = Table(client, nmr_limit=2)
    first = {"Austria": "A VIE H", "England": "A LVP H", "France": "A PAR H",
             "Germany": "A BER H", "Russia": "A MOS H", "Turkey": "A CON H"}
    for _ in range(2):
        assert not {p["name"]: p for p in t.state("France")["powers"]}["Italy"][
            "civil_disorder"]
        for p, o in first.items():
            t.order(p, o)
        t.process()
    powers = {p["name"]: p for p in t.state("France")["powers"]}
    assert powers["Italy"]["civil_disorder"]
    assert [p for p, v in powers.items() if v["civil_disorder"]] == ["Italy"]
    # a power in civil disorder does not hold up "everyone ready"
    for p in first:
        last = t.ready(p)
    assert last["processed"]
    # the player coming back (or a new one) ends it
    t.order("Italy", "A VEN H")
    assert not {p["name"]: p for p in t.state("Italy")["powers"]}["Italy"]["civil_disorder"]


def test_a_standard_year_with_a_retreat_and_a_build(client):
    t = Table(client)
    t.order("Germany", "A Munich - Burgundy")
    t.order("Russia", "F Sevastopol H")
    assert t.process() == "F1901M"
    t.order("France", "A Paris - Burgundy\nA Marseilles S A Paris - Burgundy")
    t.order("Russia", "F Sevastopol - Rumania")
    assert t.process() == "F1901R"
    s = t.state("Germany")
    assert s["to_order"] and list(s["legal_orders"]) == ["A BUR"]
    assert "A BUR R MUN" in s["legal_orders"]["A BUR"]
    assert not t.state("France")["to_order"]
    report = client.get(f"/api/play/{t.tokens['Germany']}/phases/1").json()["report"]
    assert "dislodged" in report
    r = t.order("Germany", "A Burgundy R Munich")
    assert r["understood"] == ["A BUR R MUN"]
    assert t.ready("Germany")["processed"]  # the only power with a retreat to make
    s = t.state("Russia")
    assert s["phase"] == "W1901A" and "SEV" in s["legal_orders"]
    r = t.order("Russia", "Build F Sevastopol")
    assert r["understood"] == ["F SEV B"], r
    assert t.process() == "S1902M"
    g = t.game()
    assert units(g, "Russia") >= {"F RUM", "F SEV"}
    assert "A MUN" in units(g, "Germany") and "A BUR" in units(g, "France")
    assert [h["phase"] for h in t.state("Italy")["history"]] == [
        "S1901M", "F1901M", "F1901R", "W1901A"]
    # the maps of past phases and of the current one are drawn
    for seq in (0, 1, 2, 3):
        r = client.get(f"/api/play/{t.tokens['Italy']}/map.svg", params={"seq": seq})
        assert r.status_code == 200 and r.text.startswith("<svg")


def test_the_gm_undoes_pauses_extends_replaces_and_downloads(client):
    t = Table(client, movement_minutes=60)
    t.order("France", "A PAR - BUR")
    t.process()
    r = client.post(f"/api/gm/{t.gm}/undo", json={"phase": t.pid()})
    assert r.json()["phase"] == "S1901M"
    assert t.state("France")["orders"] == ["A PAR - BUR"]  # pending again
    deadline = t.gm_state()["deadline"]
    client.post(f"/api/gm/{t.gm}/deadline", json={"extend_minutes": 30, "phase": t.pid()})
    assert t.gm_state()["deadline"] > deadline
    r = client.post(f"/api/gm/{t.gm}/deadline", json={"at": "23:59", "phase": t.pid()})
    assert r.json()["deadline"][11:16] == "23:59"  # the next 23:59 UTC
    assert client.post(f"/api/gm/{t.gm}/deadline",
                       json={"at": "25:00", "phase": t.pid()}).status_code == 400
    client.post(f"/api/gm/{t.gm}/pause", json={"paused": True, "phase": t.pid()})
    s = t.gm_state()
    assert s["paused"] and s["deadline"] is None
    client.post(f"/api/gm/{t.gm}/pause", json={"paused": False, "phase": t.pid()})
    assert t.gm_state()["deadline"] is not None
    old = t.tokens["Italy"]
    r = client.post(f"/api/gm/{t.gm}/replace", json={"power": "italy", "phase": t.pid()})
    assert r.json()["power"] == "Italy"  # (as the variant writes it, not as typed)
    new = r.json()["url"].rsplit("/", 1)[1]
    assert client.get(f"/api/play/{old}").status_code == 404
    assert client.get(f"/api/play/{new}").json()["power"] == "Italy"
    assert t.gm_state()["links"]["Italy"] == new
    g = t.game()
    assert g.phase == "S1901M" and g.orders == {g.power("France"): ["A PAR - BUR"]}
    dip = client.get(f"/api/gm/{t.gm}/diplomacy.json")
    assert "attachment" in dip.headers["content-disposition"]
    assert Game.from_diplomacy(dip.json()).phase == "S1901M"


def test_the_deadline_processes_the_phase(client):
    t = Table(client)
    t.order("France", "A PAR - BUR")
    host = client.app.state.host
    assert host.process_due() == []  # a day to go
    client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0, "phase": t.pid()})
    gid = t.gm_state()["game"]
    assert host.process_due() == [gid]
    s = t.gm_state()
    assert s["phase"] == "F1901M" and s["seconds_left"] > 23 * 3600
    assert host.process_due() == []


def test_a_slipped_sign_or_a_mixed_request_never_ends_a_phase(client):
    """Extending by -120 where 120 was meant would put the deadline in the past and end the
    phase at once: refused, nothing changed. A request must name one way to move the
    deadline."""
    t = Table(client, movement_minutes=60)
    url, pid = f"/api/gm/{t.gm}/deadline", t.pid()
    deadline = t.gm_state()["deadline"]
    r = client.post(url, json={"extend_minutes": -120, "phase": pid})
    assert r.status_code == 400 and "in the past" in r.json()["detail"]
    assert "Process now" in r.json()["detail"]
    for body in ({}, {"extend_minutes": 5, "at": "23:00"}, {"extend_minutes": 0}):
        r = client.post(url, json={**body, "phase": pid})
        assert r.status_code == 400, body
    assert t.gm_state()["deadline"] == deadline
    assert client.app.state.host.process_due() == []
    r = client.post(url, json={"extend_minutes": -30, "phase": pid})  # closer, still ahead
    assert r.status_code == 200 and r.json()["deadline"] < deadline
    client.post(f"/api/gm/{t.gm}/pause", json={"paused": True, "phase": pid})
    r = client.post(url, json={"extend_minutes": -31, "phase": pid})  # 30 min are left
    assert r.status_code == 400 and "in the past" in r.json()["detail"]


def test_a_pause_after_the_deadline_processes_the_phase_first(client):
    """The deadline passed and the deadline task has not come yet: a pause keeps no time
    left (resuming would give the phase a whole new deadline); the phase is processed, as
    it would have been a moment later, and the pause is refused naming the new phase."""
    t = Table(client, movement_minutes=60)
    t.order("France", "A PAR - BUR")
    pid = t.pid()
    client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0, "phase": pid})
    r = client.post(f"/api/gm/{t.gm}/pause", json={"paused": True, "phase": pid})
    assert r.status_code == 409 and "F1901M" in r.json()["detail"]
    s = t.gm_state()
    assert s["phase"] == "F1901M" and not s["paused"]
    assert t.game().history[-1].orders  # S1901M processed with France's order
    r = client.post(f"/api/gm/{t.gm}/pause", json={"paused": True, "phase": t.pid()})
    assert r.status_code == 200 and t.gm_state()["paused"]


def test_a_draw_passes_when_every_survivor_votes(client):
    t = Table(client)
    for p in sorted(t.tokens)[:-1]:
        r = client.post(f"/api/play/{t.tokens[p]}/draw", json={"vote": True, "phase": t.pid()})
        assert r.json()["drawn"] is False
    r = client.post(f"/api/play/{t.tokens['Turkey']}/draw", json={"vote": True,
                                                                  "phase": t.pid()})
    assert r.json()["drawn"] is True
    s = t.state("Turkey")
    assert s["status"] == "drawn" and sorted(s["winners"]) == sorted(t.tokens)
    r = client.post(f"/api/play/{t.tokens['Turkey']}/orders",
                    json={"text": "A CON H", "phase": t.pid()})
    assert r.status_code == 409 and "over" in r.json()["detail"]
    assert t.game().status == "drawn"


def test_an_uploaded_variant_file(client):
    from importlib import resources

    text = (resources.files("polydip.variants") / "data" / "standard.toml").read_text()
    r = client.post("/api/games", json={"variant": "my_map.toml", "variant_text": text})
    assert r.status_code == 201, r.text
    token = r.json()["players"]["France"].rsplit("/", 1)[1]
    pid = client.get(f"/api/play/{token}").json()["phase_id"]
    r = client.post(f"/api/play/{token}/orders", json={"text": "A PAR - PIC", "phase": pid})
    assert r.json()["understood"] == ["A PAR - PIC"]


def test_concurrent_submissions_lose_nothing(client):
    """Every power submits (and re-submits) at the same moment: each power's last
    submission is what it holds, and no order lands with another power."""
    t = Table(client)
    state = t.state("Austria")
    host = client.app.state.host
    legal = {}
    for p, tok in t.tokens.items():
        with host.db.transaction() as s:
            g, pw = host.player(s, tok)
            legal[p] = host.game(s, g).legal_orders(pw.power)
    assert state["phase"] == "S1901M"
    pid = t.pid()
    barrier = threading.Barrier(14)
    last: dict[str, list[str]] = {}

    def submit(power: str, k: int) -> None:
        choice = [orders[k % len(orders)] for orders in legal[power].values()]
        barrier.wait()
        host.submit(t.tokens[power], "\n".join(choice), phase=pid)
        if k == 1:
            last[power] = choice

    with ThreadPoolExecutor(14) as ex:
        futures = [ex.submit(submit, p, k) for p in t.tokens for k in (0, 1)]
        for f in futures:
            f.result()
    # the two submissions of a power ran in some order; whichever ran last is held, whole
    for p in t.tokens:
        held = t.state(p)["orders"]
        first = [orders[0] for orders in legal[p].values()]
        assert held in (last[p], first), (p, held)
        assert all(o.split()[1].split("/")[0] in {u.split()[1].split("/")[0]
                                                  for u in legal[p]} for o in held)


def test_a_failure_while_processing_leaves_the_phase_as_it_was(client, monkeypatch):
    t = Table(client)
    t.order("France", "A PAR - BUR")
    host = client.app.state.host

    def boom(*_a, **_k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(host, "_phase_row", boom)
    r = client.post(f"/api/gm/{t.gm}/process", json={"phase": t.pid()})
    assert r.status_code == 409 and "disk full" in r.json()["detail"]
    monkeypatch.undo()
    s = t.state("France")
    assert s["phase"] == "S1901M" and s["orders"] == ["A PAR - BUR"] and s["history"] == []
    assert t.process() == "F1901M"


def test_the_pages_forms_do_what_the_gm_and_players_ask(client):
    page = client.post("/new", data={"variant": "standard", "name": "Forms",
                                     "options": "convoy_paradox=1982",
                                     "movement_minutes": "90", "retreat_minutes": "10",
                                     "adjustment_minutes": "10", "nmr_limit": "2"},
                       follow_redirects=False)
    assert page.status_code == 303
    gm = page.headers["location"].rsplit("/", 1)[1]
    state = client.get(f"/api/gm/{gm}").json()
    assert state["options"] == {"convoy_paradox": "1982"} and state["nmr_limit"] == 2
    france = state["links"]["France"]
    pid = state["phase_id"]
    r = client.post(f"/play/{france}/orders",
                    data={"text": "A Paris - Burgundy\nA Marseilles - Spian\nhi all",
                          "phase": pid})
    assert r.status_code == 200 and "A PAR - BUR" in r.text
    assert "did you mean Spain?" in r.text and "not read as an order" in r.text
    # the lines not taken are back in the box after the orders held, to be corrected
    box = r.text.split('id="orders-text"', 1)[1].split(">", 1)[1].split("</textarea>")[0]
    assert box.splitlines() == ["A Paris - Burgundy", "A Marseilles - Spian", "hi all"]
    assert 'id="retype"' in r.text
    r = client.post(f"/play/{france}/orders", data={"pick": ["F BRE - MAO", ""],
                                                          "phase": pid})
    assert "F BRE - MAO" in r.text and "A PAR - BUR" in r.text
    assert client.post(f"/play/{france}/orders", data={"pick": [""], "phase": pid}
                       ).status_code == 400
    client.post(f"/play/{france}/ready", data={"ready": "1", "phase": pid})
    client.post(f"/play/{france}/draw", data={"vote": "1", "phase": pid})
    mine = client.get(f"/api/play/{france}").json()
    assert mine["ready"] and mine["draw_vote"]
    for action in ("pause", "resume", "extend", "process", "undo"):
        pid = client.get(f"/api/gm/{gm}").json()["phase_id"]
        r = client.post(f"/gm/{gm}", data={"action": action, "minutes": "5", "phase": pid},
                        follow_redirects=False)
        assert r.status_code == 303, (action, r.text)
    assert client.get(f"/api/gm/{gm}").json()["phase"] == "S1901M"
    pid = client.get(f"/api/gm/{gm}").json()["phase_id"]  # new: the undo reached the phase
    r = client.post(f"/gm/{gm}", data={"action": "replace", "power": "France",
                                       "phase": pid})
    assert r.status_code == 200 and client.get(f"/play/{france}").status_code == 404
    r = client.post(f"/gm/{gm}", data={"action": "explode", "phase": pid})
    assert r.status_code == 400 and "unknown action" in r.text
    r = client.post("/new", files={"variant_file": ("bad.toml", b"\xff\xfe")})
    assert r.status_code == 400 and "UTF-8" in r.text
    r = client.post("/new", data={"movement_minutes": "soon"})
    assert r.status_code == 422 and "movement_minutes" in r.text


def test_a_game_that_cannot_be_processed_does_not_stop_the_others(client, monkeypatch):
    first, second = Table(client), Table(client)
    host = client.app.state.host
    for t in (first, second):
        client.post(f"/api/gm/{t.gm}/deadline", json={"minutes_from_now": 0, "phase": t.pid()})
    real = host._process
    broken = first.gm_state()["game"]

    def process(s, g, now):
        if g.id == broken:
            from polydip.errors import PolydipError

            raise PolydipError("the variant file went missing")
        real(s, g, now)

    monkeypatch.setattr(host, "_process", process)
    assert host.process_due() == [second.gm_state()["game"]]
    assert first.gm_state()["phase"] == "S1901M"


def test_the_map_is_never_stale(client):
    """The current map changes with the power's orders and with the phase; the browser may
    keep a copy but must ask (ETag), and gets 304 only when nothing changed."""
    t = Table(client)
    url = f"/api/play/{t.tokens['France']}/map.svg"
    first = client.get(url)
    assert "no-cache" in first.headers["cache-control"]
    etag = first.headers["etag"]
    assert client.get(url, headers={"if-none-match": etag}).status_code == 304
    t.order("France", "A PAR - BUR")
    second = client.get(url, headers={"if-none-match": etag})
    assert second.status_code == 200 and second.headers["etag"] != etag
    # another power's orders change nothing France may see
    t.order("Germany", "A MUN - RUH")
    assert client.get(url, headers={"if-none-match": second.headers["etag"]}
                      ).status_code == 304
    t.process()
    third = client.get(url, headers={"if-none-match": second.headers["etag"]})
    assert third.status_code == 200 and "F1901M" in third.text


def test_the_power_controlling_a_passage_lets_others_through(client):
    """The Twentieth Century: "The owner of these provinces may send fleets to neighboring
    sea zones without having to move into the canal zone first. Owning players may also
    allow other players to send fleets through." Britain, owning Cairo, lets Italy through
    the Aegean-Red Sea canal; the engine then no longer closes it to Italy."""
    r = client.post("/api/games", json={"variant": "twentieth_century"})
    assert r.status_code == 201, r.text
    d = r.json()
    tok = {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}
    pid = client.get(f"/api/gm/{d['gm_token']}").json()["phase_id"]
    britain = client.get(f"/api/play/{tok['Britain']}").json()
    assert "Cairo" in {p["name"] for p in britain["passages"]}
    assert client.get(f"/api/play/{tok['Italy']}").json()["passages"] == []

    def closed_to_italy() -> bool:
        g = _game(client.get(f"/api/gm/{d['gm_token']}/game.json").json())
        m = g.map
        aeg_rse = {(k, m.loc_index["AEG"], m.loc_index["RSE"]) for k in range(len(m.kinds))}
        return bool(aeg_rse & m.rules.blocked(m, g.position, g.options).get(
            g.power("Italy"), set()))

    assert closed_to_italy()
    r = client.post(f"/api/play/{tok['Britain']}/passages",
                    json={"passage": "Cairo", "powers": ["italy"], "phase": pid})
    assert r.status_code == 200 and r.json() == {"Britain": ["Italy"]}
    assert not closed_to_italy()
    r = client.post(f"/api/play/{tok['Italy']}/passages",
                    json={"passage": "Cairo", "powers": ["Italy"], "phase": pid})
    assert r.status_code == 409 and "does not control Cairo" in r.json()["detail"]
    r = client.post(f"/api/play/{tok['Britain']}/passages",
                    json={"passage": "Gibraltar", "powers": [], "phase": pid})
    assert r.status_code == 400 and "Cairo" in r.json()["detail"]
    r = client.post(f"/api/play/{tok['Britain']}/passages",
                    json={"passage": "Cairo", "powers": ["Itly"], "phase": pid})
    assert r.status_code == 400 and "Italy" in r.json()["detail"]
    # the passage by the name players use (issue 27): "Suez" is Cairo's
    r = client.post(f"/api/play/{tok['Britain']}/passages",
                    json={"passage": "Suez", "powers": [], "phase": pid})
    assert r.json() == {} and closed_to_italy()


def test_the_map_is_served_compressed(client):
    """Issue 29: each view downloaded a 1.3 MB uncompressed SVG. A browser that accepts gzip
    gets it compressed (a map holds no secret); one that does not gets the text."""
    import gzip

    r = client.post("/api/games", json={"variant": "wita"})
    gm = r.json()["gm_token"]
    plain = client.get(f"/api/gm/{gm}/map.svg", headers={"Accept-Encoding": "identity"})
    assert plain.status_code == 200 and "Content-Encoding" not in plain.headers
    raw = client.get(f"/api/gm/{gm}/map.svg", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["Content-Encoding"] == "gzip" and "Accept-Encoding" in raw.headers["Vary"]
    # (the test client decodes it as a browser does)
    assert raw.text == plain.text and raw.text.startswith("<svg")
    assert len(gzip.compress(plain.content)) * 3 < len(plain.content)


def test_the_players_page_says_where_its_map_opens(client):
    """Issue 29 (the host): the player's map element carries the box around the power's
    units (fractions of the picture) and the picture's size, for host.js to open on; the
    GM's map, which shows every power, opens as drawn."""
    import re

    t = Table(client)
    html = client.get(f"/play/{t.tokens['Turkey']}").text
    img = re.search(r'<img id="map"[^>]*>', html, re.S).group(0)
    x0, y0, x1, y1 = map(float, re.search(r'data-focus="([^"]+)"', img).group(1).split(","))
    assert 0.5 < x0 < x1 <= 1 and 0.5 < y0 < y1 < 1  # Turkey: the south-east of the board
    assert 'width="1600"' in img and re.search(r'height="\d+"', img)
    assert t.state("Turkey")["map_focus"]["box"] == f"{x0:g},{y0:g},{x1:g},{y1:g}"
    england = client.get(f"/play/{t.tokens['England']}").text
    ex0, _ey0, _ex1, ey1 = map(float, re.search(r'data-focus="([^"]+)"', england)
                              .group(1).split(","))
    assert ex0 < x0 and ey1 < y0  # England: north-west of Turkey
    gm = client.get(f"/gm/{t.gm}").text
    assert 'id="map"' in gm and "data-focus" not in gm


def test_undo_keeps_the_orders_given_for_the_phase_it_steps_back_from(client):
    """Orders players gave for the phase an undo steps back from are not lost: they are
    pending again, checked anew, when processing reaches that phase again (as the CLI's
    undo does); exported with the game file meanwhile (current.undone)."""
    t = Table(client, movement_minutes=60)
    t.order("France", "A PAR - BUR")
    t.process()  # F1901M
    t.order("France", "A BUR - MUN")
    t.order("Germany", "A MUN H")
    client.post(f"/api/gm/{t.gm}/undo", json={"phase": t.pid()})
    assert t.gm_state()["phase"] == "S1901M"
    kept = client.get(f"/api/gm/{t.gm}/game.json").json()["current"]["undone"]
    assert kept == [{"after": 1, "phase": "F1901M",
                     "orders": {"France": ["A BUR - MUN"], "Germany": ["A MUN H"]}}]
    t.process()  # the same spring again: F1901M is reached again
    assert t.gm_state()["phase"] == "F1901M"
    assert t.state("France")["orders"] == ["A BUR - MUN"]
    assert t.state("Germany")["orders"] == ["A MUN H"]
    assert "undone" not in client.get(f"/api/gm/{t.gm}/game.json").json()["current"]
