"""rules/anchors.py's hooks, asked directly of the rule set of Latin American Diplomacy
(lad1890: Amapá, AMP, a coastal province on the river to Pará, PRA, which only a flotilla
reaches)."""

from __future__ import annotations

import pytest
from support.positions import orders_of, position, variant_map

from polydip.adjudication import reasons as R
from polydip.orders.parser import parse_order
from polydip.state import Unit


@pytest.fixture
def m():
    return variant_map("lad1890")


def test_a_fleet_ordered_up_a_river_moves_as_a_flotilla(m) -> None:
    """6.C: "once ordered to proceed to an inland province by way of a river, a Fleet
    AUTOMATICALLY becomes a River Flotilla"."""
    pos = position(m, "Brazil: F AMP", phase="A1891M")
    [moving] = m.rules.moving_kinds(m, pos, orders_of(m, pos, "F AMP - PRA"))
    assert (moving.kind, moving.loc) == (m.kind_index["R"], m.loc_index["AMP"])
    assert m.rules.moving_kinds(m, pos, orders_of(m, pos, "F AMP - MRJ")) is None
    assert m.rules.more_orders(m, pos, pos.units[0], "F AMP") == ["F AMP - PRA",
                                                                  "F AMP CONVERT"]


def test_arriving_up_the_river_it_leaves_an_anchor_marker(m) -> None:
    """6.C: "The GM will leave an Anchor Marker where the Fleet left behind its large
    ships" ("F Amapa to Para [becomes R, Anchor Marker left in Amapa]")."""
    before = position(m, "Brazil: F AMP", phase="A1891M")
    orders = orders_of(m, before, "F AMP - PRA")
    units = m.rules.moving_kinds(m, before, orders)
    after = position(m, "Brazil: R PRA", phase="B1891R")
    m.rules.after_orders(m, before, after, units, orders, [after.units[0]])
    assert after.extra == {"anchors": {"AMP": 1}}
    assert [e.code for e in m.rules.events(m, before, after)] == [R.ANCHOR_MADE]
    assert m.rules.markers(m, after) == [(m.loc_index["AMP"], "⚓")]
    assert m.rules.report_lines(m, after) == ["Anchor markers: AMP"]


def test_a_fleet_captures_the_marker_it_stands_on_and_carries_it(m) -> None:
    """6.D: "a Fleet moving into a Coastal Province where an Anchor Marker is located must
    order capture ships ... the Anchor Marker symbol will travel with that Fleet"."""
    marker = {"anchors": {"AMP": 1}}
    before = position(m, "Brazil: F AMP", phase="A1891M", extra=marker)
    orders = orders_of(m, before, "F AMP CAPTURE")
    after = position(m, "Brazil: F AMP", phase="B1891R", extra=marker)
    m.rules.after_orders(m, before, after, list(before.units), orders, [after.units[0]])
    assert after.extra == {"ships": {"F AMP": 1}}
    assert [e.code for e in m.rules.events(m, before, after)] == [R.ANCHOR_CAPTURED]


def test_acts_the_unit_may_not_give_are_refused_with_why(m) -> None:
    """6.C: a flotilla converts only "by capturing the ships"; "Armies and River Flotillas
    may not destroy anchor markers" nor capture them."""
    pos = position(m, "Brazil: F AMP", phase="A1891M")
    fleet = pos.units[0]
    flotilla = Unit(fleet.power, m.kind_index["R"], fleet.loc)
    assert m.rules.refuse(m, fleet, parse_order(m, "F AMP CONVERT"), pos) is None
    assert "no anchor marker in AMP" in m.rules.refuse(
        m, flotilla, parse_order(m, "R AMP CONVERT"), pos)
    assert m.rules.refuse(m, flotilla, parse_order(m, "R AMP CAPTURE"), pos) == \
        "only a fleet captures an anchor marker"
    assert m.rules.refuse(m, fleet, parse_order(m, "F AMP - MRJ"), pos) is None  # no act
