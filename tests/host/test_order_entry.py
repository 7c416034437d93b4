"""The player's page in the phases where entry matters (issue 27): the builds or removals
due and how many are given, the dislodged units with their attackers and retreats, picks
that add builds instead of wiping them, and one picker entry per unit where several of a
power's units share a space."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from polydip.game.game import Game  # noqa: E402
from polydip.game.message import apply_message, read_message  # noqa: E402
from polydip.game.positions import build_position  # noqa: E402


def _new(client) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json={"variant": "standard"})
    assert r.status_code == 201, r.text
    d = r.json()
    return d["gm_token"], {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}


def _pid(client, token: str) -> str:
    """The phase a request is made for (the host refuses one made for another phase)."""
    return client.get(f"/api/play/{token}").json()["phase_id"]


def _order(client, token: str, text: str, mode: str = "replace") -> dict:
    r = client.post(f"/api/play/{token}/orders",
                    json={"text": text, "mode": mode, "phase": _pid(client, token)})
    assert r.status_code == 200, r.text
    return r.json()


def _process(client, gm: str) -> str:
    pid = client.get(f"/api/gm/{gm}").json()["phase_id"]
    r = client.post(f"/api/gm/{gm}/process", json={"phase": pid})
    assert r.status_code == 200, r.text
    return r.json()["phase"]


def test_builds_due_are_shown_and_picks_add_to_them(client):
    gm, tokens = _new(client)
    germany = tokens["Germany"]
    _order(client, germany, "F KIE - HOL\nA BER - KIE")
    assert _process(client, gm) == "F1901M"
    _order(client, germany, "A KIE - DEN\nF HOL H")
    assert _process(client, gm) == "W1901A"
    s = client.get(f"/api/play/{germany}").json()
    assert s["adjustment"] == {"kind": "build", "due": 2, "given": 0,
                               "sites": ["Berlin (BER)", "Kiel (KIE)"]}
    assert s["dislodged"] == []
    pid = _pid(client, germany)
    client.post(f"/play/{germany}/orders", data={"pick": ["A BER B"], "phase": pid})
    page = client.post(f"/play/{germany}/orders", data={"pick": ["F KIE B"], "phase": pid})
    assert page.status_code == 200
    s = client.get(f"/api/play/{germany}").json()
    assert s["orders"] == ["A BER B", "F KIE B"]  # the second pick no longer wipes the first
    assert s["adjustment"]["given"] == 2
    assert "You have <strong>2 builds</strong>; your orders give 2." in page.text
    r = _order(client, germany, "WAIVE", mode="merge")
    assert r["problems"][0]["line"] == 1 and "2 builds due" in r["problems"][0]["reason"]
    # the text box replaces them all
    assert _order(client, germany, "Build A Kiel")["orders"] == ["Build A Kiel"]


def test_dislodged_units_are_shown_with_attacker_and_retreats(client):
    gm, tokens = _new(client)
    _order(client, tokens["Germany"], "A Munich - Burgundy")
    assert _process(client, gm) == "F1901M"
    _order(client, tokens["France"], "A Paris - Burgundy\nA Marseilles S A Paris - Burgundy")
    assert _process(client, gm) == "F1901R"
    s = client.get(f"/api/play/{tokens['Germany']}").json()
    assert s["dislodged"] == [{"unit": "Army Burgundy (BUR)", "notation": "A BUR",
                               "from": "Paris (PAR)",
                               "retreats": ["Belgium (BEL)", "Gascony (GAS)", "Munich (MUN)",
                                            "Picardy (PIC)", "Ruhr (RUH)"]}]
    assert s["adjustment"] is None
    page = client.get(f"/play/{tokens['Germany']}").text
    assert "dislodged by the attack from Paris (PAR)" in page
    r = _order(client, tokens["Germany"], "A Burgundy R Paris")  # the attacker's
    assert r["orders"] == [] and r["problems"][0]["suggestion"].startswith("it may retreat")


def test_the_picker_has_one_entry_per_unit_sharing_a_space() -> None:
    from polydip.host.views import numbered_choices

    g = Game.new("lad1890")
    g.position = build_position(g.map, {"phase": "A1891M",
                                        "units": {"Chile": ["F PBS", "F PBS", "A STG"]}})
    chile = g.power("Chile")
    picks = numbered_choices(g, chile, g.legal_orders(chile))
    assert {"F PBS #1", "F PBS #2"} <= set(picks) and "F PBS" not in picks
    assert "F PBS #2 - EPR" in picks["F PBS #2"]
    msg = read_message(g.map, g.position, "F PBS #2 - EPR", default_power=chile)
    assert apply_message(g, msg) == []
    out = g.process()
    assert sorted(g.map.unit_str(u.kind, u.loc) for u in out.position.units
                  if u.power == chile) == ["A STG", "F EPR", "F PBS"]


def test_a_permission_typed_in_the_order_box_is_reported(client):
    """A passage permission typed among orders is not an order: the player is pointed to
    the passages form, never left to think it was taken (issue 27)."""
    r = client.post("/api/games", json={"variant": "twentieth_century"})
    britain = r.json()["players"]["Britain"].rsplit("/", 1)[1]
    got = _order(client, britain, "F LON H\nBritain allows Italy through Suez")
    assert got["orders"] == ["F LON H"]
    assert [(p["line"], p["code"]) for p in got["problems"]] == [(2, "permission_refused")]
