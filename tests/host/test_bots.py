"""Bot seats (host/bots.py, issue 31) through the API, on SQLite and PostgreSQL: a GM gives a
power to a bot at creation or later (a power in civil disorder), the bot orders as each phase
opens, is ready, never sees another power's orders, and the seat goes back to a player with a
new link."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from tests.host.test_api import Table  # noqa: E402


def _pending(t: Table, power: str) -> dict:
    return next(p for p in t.gm_state()["pending"] if p["power"] == power)


def _hand(t: Table, power: str, player: str = "bot", phase: str | None = None):
    return t.c.post(f"/api/gm/{t.gm}/bots", json={"power": power, "player": player,
                                                  "phase": phase or t.pid()})


def test_a_game_created_with_bots_has_them_order_every_phase(client):
    t = Table(client, bots={"France": "bot", "germany": "random"})
    seats = client.get(f"/api/gm/{t.gm}/bots").json()
    assert seats["seats"] == {"France": "bot", "Germany": "random"}
    assert "bot" in seats["players"] and "random" in seats["players"]
    assert t.state("Italy")["bots"] == {"France": "bot", "Germany": "random"}  # public
    # the seats' links no longer play
    assert client.get(f"/api/play/{t.tokens['France']}").status_code == 404
    for power in ("France", "Germany"):
        p = _pending(t, power)
        assert p["ready"] and len(p["orders"]) == 3, p  # one order a unit, ready
    assert not _pending(t, "Italy")["ready"]
    # a year: after each processing the bots order the phase that opens
    seen = set()
    for _ in range(5):
        phase = t.process()
        seen.add(phase[-1])
        state = t.gm_state()
        to_order = {p["name"] for p in state["powers"] if p["to_order"]}
        for power in ("France", "Germany"):
            p = _pending(t, power)
            assert p["ready"] == (power in to_order), (phase, p)
            if power in to_order and phase.endswith("M"):
                assert p["orders"], (phase, p)
    assert "A" in seen  # an adjustment phase was ordered by the bots too
    game = t.game()
    france = game.power("France")
    assert any(france in rec.orders for rec in game.history)  # kept as France's orders


def test_the_gm_hands_a_power_in_civil_disorder_to_a_bot_and_back(client):
    t = Table(client, nmr_limit=1)
    t.process()  # nobody ordered: every power misses a movement phase
    austria = next(p for p in t.gm_state()["powers"] if p["name"] == "Austria")
    assert austria["civil_disorder"]
    page = client.get(f"/gm/{t.gm}").text
    assert 'id="bots"' in page and "hand to bot" in page
    r = _hand(t, "Austria", "coherent")
    assert r.status_code == 200, r.text
    assert r.json() == {"power": "Austria", "player": "coherent"}
    p = _pending(t, "Austria")
    assert p["ready"] and p["orders"] and not p["civil_disorder"]
    assert client.get(f"/api/play/{t.tokens['Austria']}").status_code == 404
    assert "a bot plays it: <strong>coherent</strong>" in client.get(f"/gm/{t.gm}").text
    # back to a player: a new link that plays; the bot's orders stay until changed
    r = client.post(f"/api/gm/{t.gm}/bots/take-back", json={"power": "Austria",
                                                             "phase": t.pid()})
    assert r.status_code == 200, r.text
    new = r.json()["url"].rsplit("/", 1)[1]
    assert new != t.tokens["Austria"]
    assert client.get(f"/api/play/{new}").status_code == 200
    assert client.get(f"/api/gm/{t.gm}/bots").json()["seats"] == {}
    t.process()
    assert not _pending(t, "Austria")["orders"]  # no bot orders the next phase


def test_a_bot_never_sees_another_powers_orders(client):
    t = Table(client)
    _hand(t, "France")
    first = _pending(t, "France")["orders"]
    r = client.post(f"/api/gm/{t.gm}/bots/take-back", json={"power": "France",
                                                             "phase": t.pid()})
    assert r.status_code == 200
    t.order("Germany", "A MUN - BUR\nA BER - KIE\nF KIE - HOL")
    t.order("England", "F LON - ENG\nF EDI - NTH\nA LVP - WAL")
    _hand(t, "France")
    assert _pending(t, "France")["orders"] == first  # the same orders: only the board counts


def test_the_last_power_handed_to_a_bot_processes_the_phase(client):
    t = Table(client)
    for power in t.tokens:
        if power != "Turkey":
            t.ready(power)
    assert t.gm_state()["phase"] == "S1901M"
    assert _hand(t, "Turkey").status_code == 200
    assert t.gm_state()["phase"] == "F1901M"  # everyone ready: processed at once
    assert _pending(t, "Turkey")["ready"]  # and the bot ordered the new phase


def test_undo_has_the_bots_order_again(client):
    t = Table(client, bots={"Russia": "bot"})
    before = _pending(t, "Russia")["orders"]
    t.process()
    r = client.post(f"/api/gm/{t.gm}/undo", json={"phase": t.pid()})
    assert r.status_code == 200
    p = _pending(t, "Russia")
    assert p["ready"] and p["orders"] == before


@pytest.mark.parametrize(("body", "status", "words"), [
    ({"power": "Narnia", "player": "bot"}, 400, "Narnia"),
    ({"power": "France", "player": "genius"}, 400, "no bot player"),
    ({"power": "France", "player": "os:system"}, 400, "no bot player"),  # never imported
    ({"power": "France", "player": "bot", "phase": "S1901M-0-stale"}, 409, "nothing was"),
    ({"power": "Fra\x00nce", "player": "bot"}, 400, ""),
])
def test_bad_bot_requests_are_refused_clearly(client, body, status, words):
    t = Table(client)
    r = client.post(f"/api/gm/{t.gm}/bots", json={"phase": t.pid(), **body})
    assert r.status_code == status, r.text
    assert words in r.json()["detail"]
    assert client.get(f"/api/gm/{t.gm}/bots").json()["seats"] == {}
    r = client.post(f"/api/gm/{t.gm}/bots/take-back", json={"power": "France",
                                                             "phase": t.pid()})
    assert r.status_code == 400 and "not played by a bot" in r.json()["detail"]
    r = client.post("/api/games", json={"variant": "standard", "bots": {"France": "genius"}})
    assert r.status_code == 400 and "no bot player" in r.json()["detail"]
    r = client.post(f"/gm/{t.gm}/bots", data={"action": "explode", "phase": t.pid(),
                                              "power": "France"}, follow_redirects=False)
    assert r.status_code == 400
    r = client.post(f"/gm/{t.gm}/bots", data={"action": "hand", "phase": t.pid(),
                                              "power": "France", "player": "random"},
                    headers={"Origin": "https://evil.example"}, follow_redirects=False)
    assert r.status_code == 403  # the GM page's form: never from another site
    assert client.get(f"/api/gm/{t.gm}/bots").json()["seats"] == {}


def test_the_gm_form_offers_every_bot_player(client):
    from polydip.host.bots import KINDS

    t = Table(client)
    page = client.get(f"/gm/{t.gm}").text
    section = page[page.index('id="bots"'):]
    for k in KINDS:
        assert f"<option>{k}</option>" in section
    r = client.post(f"/gm/{t.gm}/bots", data={"action": "hand", "phase": t.pid(),
                                              "power": "Italy", "player": "random"},
                    follow_redirects=False)
    assert r.status_code == 303
    assert client.get(f"/api/gm/{t.gm}/bots").json()["seats"] == {"Italy": "random"}


def test_bots_play_a_wita_game_with_neutral_units(client):
    t = Table(client, variant="wita", bots={"Peru": "bot", "Brazil": "bot"})
    for _ in range(3):
        t.process()
    game = t.game()
    assert {game.map.powers[p] for rec in game.history for p in rec.orders} >= {"Peru",
                                                                               "Brazil"}


def test_new_links_for_everyone_give_a_bot_seat_no_link(client):
    t = Table(client, bots={"England": "bot"})
    r = client.post(f"/api/gm/{t.gm}/rotate")
    assert r.status_code == 200, r.text
    links = {k: v.rsplit("/", 1)[1] for k, v in r.json()["players"].items()}
    assert client.get(f"/api/play/{links['England']}").status_code == 404  # the bot's seat
    assert client.get(f"/api/play/{links['France']}").status_code == 200


def test_the_create_form_gives_powers_to_bots_from_the_start(client):
    r = client.post("/new", data={"variant": "standard", "bots": "Italy=bot; turkey: random"},
                    follow_redirects=False)
    assert r.status_code == 303, r.text
    gm = r.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/gm/{gm}/bots").json()["seats"] == {"Italy": "bot",
                                                                "Turkey": "random"}
    assert 'name="bots"' in client.get("/").text
    for bad in ("Italy", "Italy=", "Atlantis=bot", "Italy=os:system"):
        r = client.post("/new", data={"variant": "standard", "bots": bad},
                        follow_redirects=False)
        assert r.status_code in (400, 404, 422), (bad, r.status_code)
        assert "Traceback" not in r.text
