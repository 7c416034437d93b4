"""Press in the host (host/press.py, issue 31 "Press"), on SQLite and PostgreSQL: every press
rule, who reads what (a third power never reads a private message; the GM reads private ones
only when the game is set so), anonymous games, limits, stale phases, exports and the
listeners."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host


class Press:
    """A game created through the API, with helpers to write and read press."""

    def __init__(self, client, **body) -> None:
        self.c = client
        r = client.post("/api/games", json={"variant": "standard", **body})
        assert r.status_code == 201, r.text
        d = r.json()
        self.gm = d["gm_token"]
        self.tokens = {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}

    def pid(self) -> str:
        return self.c.get(f"/api/gm/{self.gm}").json()["phase_id"]

    def send(self, power: str, to, text: str, phase: str | None = None):
        return self.c.post(f"/api/play/{self.tokens[power]}/press",
                           json={"to": to, "text": text, "phase": phase or self.pid()})

    def read(self, power: str, **params) -> dict:
        r = self.c.get(f"/api/play/{self.tokens[power]}/press", params=params)
        assert r.status_code == 200, r.text
        return r.json()

    def texts(self, power: str | None = None, **params) -> list[str]:
        if power is None:
            r = self.c.get(f"/api/gm/{self.gm}/press", params=params)
            assert r.status_code == 200, r.text
            return [x["text"] for x in r.json()["messages"]]
        return [x["text"] for x in self.read(power, **params)["messages"]]

    def page(self, power: str | None = None) -> str:
        url = f"/gm/{self.gm}" if power is None else f"/play/{self.tokens[power]}"
        r = self.c.get(url)
        assert r.status_code == 200, r.text
        return r.text

    def order(self, power: str, text: str) -> None:
        r = self.c.post(f"/api/play/{self.tokens[power]}/orders",
                        json={"text": text, "phase": self.pid()})
        assert r.status_code == 200, r.text

    def process(self) -> str:
        r = self.c.post(f"/api/gm/{self.gm}/process", json={"phase": self.pid()})
        assert r.status_code == 200, r.text
        return r.json()["phase"]

    def exports(self) -> tuple[str, str]:
        a = self.c.get(f"/api/gm/{self.gm}/game.json")
        b = self.c.get(f"/api/gm/{self.gm}/diplomacy.json")
        assert a.status_code == b.status_code == 200
        return a.text, b.text


def _three_messages(t: Press) -> None:
    assert t.send("France", "England", "Channel DMZ?").status_code == 201
    assert t.send("Germany", ["Russia", "austria"], "split Poland").status_code == 201
    assert t.send("Italy", "GLOBAL", "peace in our time").status_code == 201


def test_full_press_each_power_reads_only_what_it_sent_or_what_addresses_it(client):
    t = Press(client)
    _three_messages(t)
    assert t.texts("France") == ["Channel DMZ?", "peace in our time"]
    assert t.texts("England") == ["Channel DMZ?", "peace in our time"]
    assert t.texts("Austria") == ["split Poland", "peace in our time"]
    assert t.texts("Turkey") == ["peace in our time"]  # a third power: public only
    got = t.read("England")["messages"][0]
    assert (got["sender"], got["recipients"], got["phase"], got["seq"]) == (
        "France", ["England"], "S1901M", 0)
    turkey = t.page("Turkey")
    assert "peace in our time" in turkey
    assert "Channel DMZ?" not in turkey and "split Poland" not in turkey


def test_the_gm_reads_public_press_only_unless_the_game_is_set_so(client):
    t = Press(client)
    _three_messages(t)
    assert t.texts() == ["peace in our time"]
    page, (game_json, dip_json) = t.page(), t.exports()
    for text in (page, game_json, dip_json):
        assert "peace in our time" in text
        assert "Channel DMZ?" not in text and "split Poland" not in text
    t2 = Press(client, gm_reads_press=True)
    _three_messages(t2)
    assert t2.texts() == ["Channel DMZ?", "split Poland", "peace in our time"]
    assert "split Poland" in t2.page()
    data = json.loads(t2.exports()[1])
    sent = [(x["sender"], x["recipient"], x["message"]) for x in data["phases"][0]["messages"]]
    assert sent == [("FRANCE", "ENGLAND", "Channel DMZ?"), ("GERMANY", "AUSTRIA", "split Poland"),
                    ("GERMANY", "RUSSIA", "split Poland"),
                    ("ITALY", "GLOBAL", "peace in our time")]


def test_public_press_refuses_private_messages(client):
    t = Press(client, press="public")
    r = t.send("France", "England", "psst")
    assert r.status_code == 409 and "public" in r.json()["detail"]
    assert t.send("France", "GLOBAL", "hello all").status_code == 201
    assert t.texts("Turkey") == ["hello all"]
    assert t.read("France")["private_allowed"] is False


def test_gunboat_refuses_every_message(client):
    t = Press(client, press="none")
    for to in ("England", "GLOBAL"):
        assert t.send("France", to, "hi").status_code == 409
    view = t.read("France")
    assert view["may_send"] is False and view["rule"] == "none"
    assert 'id="press-form"' not in t.page("France")
    assert t.texts("France") == []


def test_rulebook_press_is_closed_in_retreat_and_adjustment_phases(client):
    t = Press(client, press="rulebook")
    assert t.send("France", "England", "spring").status_code == 201
    t.order("France", "A MAR - SPA")
    assert t.process() == "F1901M"
    assert t.send("France", "England", "fall").status_code == 201
    assert t.process() == "W1901A"  # France builds for Spain
    r = t.send("France", "England", "winter")
    assert r.status_code == 409 and "adjustment" in r.json()["detail"]
    assert t.read("England")["may_send"] is False
    # the messages stay with the phase they were sent in
    assert t.texts("England", seq=0) == ["spring"]
    assert t.texts("England", seq=1) == ["fall"]
    assert [p["phase"] for p in t.read("England")["phases"]] == ["S1901M", "F1901M"]


def test_a_message_written_for_a_phase_that_is_gone_is_refused(client):
    t = Press(client)
    old = t.pid()
    t.process()
    r = t.send("France", "England", "late", phase=old)
    assert r.status_code == 409
    assert t.texts("England") == []


@pytest.mark.parametrize(("to", "text", "status"), [
    ("Atlantis", "hi", 400), ("France", "hi", 400), (["England"], "   ", 400),
    ("England", "x" * 4001, 422), ([], "hi", 400), ("England", "a\x00b", 400),
    ("y" * 101, "hi", 422), (["England"] * 101, "hi", 422)])
def test_bad_messages_get_a_clear_refusal(client, to, text, status):
    t = Press(client)
    r = t.send("France", to, text)
    assert r.status_code == status, r.text
    assert "Traceback" not in r.text and r.json()["detail"]
    assert t.texts("France") == []


def test_a_power_sending_too_fast_is_refused_with_429(client, monkeypatch):
    from polydip.host import press

    monkeypatch.setattr(press, "RATE", 2)
    t = Press(client)
    assert t.send("France", "England", "1").status_code == 201
    assert t.send("France", "England", "2").status_code == 201
    r = t.send("France", "England", "3")
    assert r.status_code == 429
    assert t.send("England", "France", "my own quota").status_code == 201


def test_message_text_is_escaped_in_pages(client):
    t = Press(client)
    assert t.send("France", "England", "<script>alert(1)</script> & co").status_code == 201
    page = t.page("England")
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in page


def test_player_names_shown_in_open_games_never_kept_in_anonymous_ones(client):
    t = Press(client)
    r = client.post(f"/api/play/{t.tokens['France']}/name", json={"name": "Zorblax Q"})
    assert r.status_code == 200
    t.send("France", "GLOBAL", "bonjour")
    assert t.read("Turkey")["messages"][0]["sender_player"] == "Zorblax Q"
    assert "Zorblax Q" in t.page("Turkey")

    a = Press(client, anonymous=True, gm_reads_press=True)
    r = client.post(f"/api/play/{a.tokens['France']}/name", json={"name": "Zorblax Q"})
    assert r.status_code == 409
    a.send("France", "GLOBAL", "bonjour")
    a.send("France", "England", "entre nous")
    seen = [a.page(), *a.exports(), client.get(f"/api/gm/{a.gm}").text,
            client.get(f"/api/gm/{a.gm}/press").text]
    for power in a.tokens:
        seen += [a.page(power), client.get(f"/api/play/{a.tokens[power]}").text,
                 client.get(f"/api/play/{a.tokens[power]}/press").text]
    assert all("Zorblax" not in x for x in seen)
    assert all("sender_player" not in x for x in seen)


def test_listeners_hear_each_message_after_it_is_stored(client):
    from polydip.host import press

    heard: list[press.PressEvent] = []
    press.on_message(heard.append)

    def broken(_event):
        raise RuntimeError("a listener's bug")

    press.on_message(broken)
    try:
        t = Press(client)
        assert t.send("France", ["England", "Germany"], "hello").status_code == 201
        assert t.send("Italy", "GLOBAL", "all").status_code == 201
    finally:
        press.listeners.remove(heard.append)
        press.listeners.remove(broken)
    assert [(e.sender, e.readers, e.public, e.phase) for e in heard] == [
        ("France", ("England", "Germany"), False, "S1901M"),
        ("Italy", ("Austria", "England", "France", "Germany", "Russia", "Turkey"), True,
         "S1901M")]


def test_a_bad_press_rule_at_creation_is_refused(client):
    r = client.post("/api/games", json={"variant": "standard", "press": "whispers"})
    assert r.status_code == 422


def test_the_create_form_sets_the_press_rule(client):
    r = client.post("/new", data={"variant": "standard", "press_rule": "none"},
                    follow_redirects=False)
    assert r.status_code == 303
    gm = r.headers["location"].rsplit("/", 1)[1]
    assert client.get(f"/api/gm/{gm}/press").json()["rule"] == "none"
    r = client.post("/new", data={"variant": "standard", "press_rule": "loud"})
    assert r.status_code == 400


def test_a_neutral_power_has_no_player_to_write_to(client):
    t = Press(client, variant="war_in_north_america")
    writer = sorted(t.tokens)[0]
    r = t.send(writer, "Rebels", "join us")
    assert r.status_code == 400 and "no player" in r.json()["detail"]
    assert "Rebels" not in t.read(writer)["others"]
