"""What the player's page carries for orders on the map (host/mapclick.py), through the API
and the page, on SQLite and PostgreSQL: per unit its order now or "no order" in full names;
the picker's choices placed on the board, for the link's own power only."""

from __future__ import annotations

import html
import json
import re

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from tests.host.test_api import Table  # noqa: E402


def test_each_unit_lists_its_order_or_no_order(client):
    t = Table(client)
    state = t.state("France")
    assert state["unit_orders"] == [
        {"unit": "F BRE", "name": "Fleet Brest (BRE)", "order": None},
        {"unit": "A MAR", "name": "Army Marseilles (MAR)", "order": None},
        {"unit": "A PAR", "name": "Army Paris (PAR)", "order": None}]
    t.order("France", "A Paris - Burgundy\nF BRE S A MAR - GAS")
    orders = {u["unit"]: u["order"] for u in t.state("France")["unit_orders"]}
    assert orders == {"F BRE": "Fleet Brest (BRE): support Army Marseilles (MAR) to Gascony "
                                "(GAS)",
                      "A MAR": None, "A PAR": "Army Paris (PAR): move to Burgundy (BUR)"}
    page = client.get(f"/play/{t.tokens['France']}").text
    listed = re.search(r'<div class="unit-orders" id="unit-orders">(.*?)</div>', page, re.S)
    assert listed and "Army Marseilles (MAR): <span class=\"none\">no order</span>" in \
        listed.group(1)
    assert "Army Paris (PAR): move to Burgundy (BUR)" in listed.group(1)


def test_the_map_data_is_the_pickers_choices_placed_for_its_own_power(client):
    t = Table(client)
    t.order("Germany", "A MUN - RUH")  # a secret of Germany's
    state = t.state("France")
    data = state["map_orders"]
    assert [u["key"] for u in data["units"]] == list(state["legal_orders"])
    for u in data["units"]:  # every choice is the picker's, in the same order
        assert [c["text"] for c in u["choices"]] == state["legal_orders"][u["key"]]
        assert u["at"] and 0 < u["at"][0] < data["width"]
    par = next(u for u in data["units"] if u["key"] == "A PAR")
    move = next(c for c in par["choices"] if c["text"] == "A PAR - BUR")
    assert (move["full"], move["type"], move["to"]) == \
        ("Army Paris (PAR): move to Burgundy (BUR)", "-", "BUR")
    assert move["line"][0] == par["at"] and len(move["line"]) == 2
    bre = next(u for u in data["units"] if u["key"] == "F BRE")
    sup = next(c for c in bre["choices"] if c["text"] == "F BRE S A MAR - GAS")
    assert (sup["type"], sup["aux"], sup["to"], len(sup["line"])) == ("S", "MAR", "GAS", 3)
    assert data["names"]["BUR"] == "Burgundy"
    # France's data in its page, without Germany's pending order
    page = client.get(f"/play/{t.tokens['France']}").text
    raw = re.search(r"<div id=\"mapclick-data\" hidden data-orders='([^']*)'>", page)
    assert raw and json.loads(html.unescape(raw.group(1))) == data
    assert "RUH" not in raw.group(1)


def test_retreats_and_builds_on_the_map(client):
    t = Table(client)
    t.order("Italy", "A VEN - TYR")
    t.order("Austria", "A VIE - BOH")
    t.process()
    t.order("Italy", "A TYR - MUN")
    t.order("Austria", "A BOH S A TYR - MUN")
    t.order("Russia", "F SEV - RUM")
    t.process()
    state = t.state("Germany")
    assert state["phase_type"] == "R"
    [mun] = state["map_orders"]["units"]
    assert mun["key"] == "A MUN" and mun["name"] == "Army Munich (MUN)" and mun["at"]
    assert {c["to"] for c in mun["choices"] if c["type"] == "R"} >= {"RUH", "SIL"}
    assert state["unit_orders"] == [{"unit": "A MUN", "name": "Army Munich (MUN)",
                                     "order": None}]
    t.process()
    state = t.state("Russia")
    assert state["phase_type"] == "A" and state["unit_orders"] == []
    [sev] = state["map_orders"]["units"]
    assert sev["at"] is None and sev["name"] == "Builds in Sevastopol (SEV)"
    assert [(c["full"], c["type"], c["to"]) for c in sev["choices"]] == [
        ("build Army Sevastopol (SEV)", "B", "SEV"), ("build Fleet Sevastopol (SEV)", "B", "SEV"),
        ("waive a build", "W", None)]
    assert "You have <strong>1 build</strong>" in client.get(f"/play/{t.tokens['Russia']}").text


def test_units_sharing_an_ocean_are_told_apart():
    """LAD: two Peruvian fleets in the Peru Basin are two entries, numbered as the picker
    numbers them, each drawn at its own place; the order held names the unit's number."""
    from polydip.game.game import Game
    from polydip.host.mapclick import map_orders, unit_orders
    from polydip.host.views import numbered_choices
    from polydip.state import Unit

    g = Game.new("lad1890")
    while g.position.phase.type != "M":
        g.process()
    m, pos = g.map, g.position.copy()
    peru, fleet = m.powers.index("Peru"), m.kinds.index("F")
    pos.units = [*pos.units, Unit(peru, fleet, m.loc_index["PBS"]),
                 Unit(peru, fleet, m.loc_index["PBS"])]
    game = Game(g.variant, m, pos, g.options, {peru: ["F PBS #2 - EPR"]})
    data = map_orders(game, peru, numbered_choices(game, peru, game.legal_orders(peru)))
    stack = [u for u in data["units"] if u["prov"] == "PBS"]
    assert [(u["key"], u["name"]) for u in stack] == [
        ("F PBS #1", "Fleet Peru Basin (PBS) #1"), ("F PBS #2", "Fleet Peru Basin (PBS) #2")]
    assert stack[0]["at"] != stack[1]["at"]
    assert all(c["text"].startswith("F PBS #2 ") or c["text"] == "F PBS #2 H"
               for c in stack[1]["choices"])
    held = {u["unit"]: u["order"] for u in unit_orders(game, peru)}
    assert held["F PBS #1"] is None
    assert held["F PBS #2"] == "Fleet Peru Basin (PBS) #2: move to East Pacific Rise (EPR)"


@pytest.mark.parametrize("variant,power", [("standard", "Russia"), ("wita", "Peru")])
def test_every_place_the_data_names_is_a_shape_of_the_served_map(client, variant, power):
    """The overlay clicks on the served SVG's `.province[data-province]` shapes and the
    data's units sit on its unit symbols: each province a choice names is one of those
    shapes, each unit is drawn where the data says."""
    t = Table(client, variant=variant)
    data = t.state(power)["map_orders"]
    svg = client.get(f"/api/play/{t.tokens[power]}/map.svg").text
    shapes = set(re.findall(r'class="province" data-province="([^"]+)"', svg))
    named = {c[k] for u in data["units"] for c in u["choices"] for k in ("to", "aux")
             if c[k]}
    assert named and named <= shapes
    drawn = {m.group(1): tuple(map(float, m.group(2).split(",")))
             for m in re.finditer(r'<g class="unit" data-unit="([^"]+)" data-power="'
                                  + power + r'" data-at="([^"]+)"', svg)}
    for u in data["units"]:
        x, y = drawn[u["key"]]
        assert abs(x - u["at"][0]) < 0.2 and abs(y - u["at"][1]) < 0.2


def test_a_build_given_with_the_retreats_is_no_units_order():
    """LAD's D phase: retreats and builds are ordered together; a build on the province a
    dislodged unit stands in is not that unit's order."""
    from polydip.game.game import Game
    from polydip.host.mapclick import unit_orders
    from polydip.state import Dislodged, Phase

    g = Game.new("lad1890")
    while g.position.phase.type != "M":
        g.process()
    m, pos = g.map, g.position.copy()
    peru = m.powers.index("Peru")
    pos.phase = Phase(1891, "D", "R")
    cuz = next(u for u in pos.units if u.power == peru and m.loc_name[u.loc] == "CUZ")
    pos.units = [u for u in pos.units if u is not cuz]
    pos.dislodged = [Dislodged(peru, cuz.kind, cuz.loc, -1, False, (m.loc_index["ARE"],))]
    game = Game(g.variant, m, pos, g.options, {peru: ["A CUZ B", "A CUZ R ARE"]})
    assert game.combined
    assert unit_orders(game, peru) == [{"unit": "A CUZ", "name": "Army Cuzco (CUZ)",
                                        "order": "Army Cuzco (CUZ): retreat to Arequipa (ARE)"}]
