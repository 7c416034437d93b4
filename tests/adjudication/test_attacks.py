"""The decisions in attack spaces (adjudication/attacks.py, AttackMovement: Latin American
Diplomacy's oceans, rules/oceans.py), asked directly on the tiny test map with its sea made
an ocean: units there meet only through attack orders, strengths are compared unit against
unit, and a unit beaten by `disband_margin` is routed. Run on both builds."""

from __future__ import annotations

import pytest
from support.positions import movement, orders_of, position, unit, variant_map

from polydip.adjudication.attacks import AttackMovement
from polydip.adjudication.movement import resolve_movement
from polydip.orders.model import Order
from polydip.orders.parser import parse_order

OCEAN = '[rules.oceans]\nprovinces = "ocean"\ndisband_margin = 2\n'


@pytest.fixture
def m():
    return variant_map("tiny", OCEAN, **{'terrain = "sea"': 'terrain = "sea"\ntags = ["ocean"]'})


def test_a_map_with_oceans_is_judged_by_the_attack_decisions(m) -> None:
    pos = position(m, "Red: F A1; Blue: F S")
    assert isinstance(movement(m, pos, "F A1 - S"), AttackMovement)


def test_a_fleet_entering_an_ocean_without_an_attack_meets_nobody(m) -> None:
    """5.F.i: "Any Fleet ordered into an Ocean Province will not come into conflict with
    other fleets unless specifically ordered to attack"."""
    pos = position(m, "Red: F A1; Blue: F S")
    mv = movement(m, pos, "F A1 - S")
    red = unit(m, pos, "F A1")
    assert mv.resolve(red) is True
    assert mv._dislodged(unit(m, pos, "F S")) is False


def test_an_attack_of_equal_strength_bounces_off_the_fleet_it_attacks(m) -> None:
    """5.F.i: "bounces occur in Ocean Provinces the same as in other provinces, but only
    when an attack is ordered by one side or the other"."""
    pos = position(m, "Red: F A1; Blue: F S")
    mv = movement(m, pos, "F A1 - S AT Blue")
    red, blue = unit(m, pos, "F A1"), unit(m, pos, "F S")
    assert mv.foes_at[red] == [blue]
    assert mv._strength(red, m.prov_index["S"], blue) == 1
    assert mv._strength(blue, m.prov_index["S"], red) == 1
    assert mv.resolve(red) is False


def test_a_supported_attack_enters_and_beats_the_fleet_by_its_margin(m) -> None:
    pos = position(m, "Red: F A1, F N2; Blue: F S")
    mv = movement(m, pos, "F A1 - S AT Blue", "F N2 S F A1 - S")
    red, blue = unit(m, pos, "F A1"), unit(m, pos, "F S")
    assert mv.resolve(red) is True
    assert mv.beaten(blue) == (red, 1)
    assert mv.beaten_units() == {blue: (red, 1)}


def test_a_fleet_beaten_by_the_disband_margin_is_routed(m) -> None:
    """5.F.i: "Your attack must have an attack strength 3 greater than the opposing powers
    fleet" to force a disband (here the test map's margin, 2)."""
    pos = position(m, "Red: F A1, F N2, F B1; Blue: F S")
    lines = ("F A1 - S AT Blue", "F N2 S F A1 - S", "F B1 S F A1 - S")
    mv = movement(m, pos, *lines)
    blue = unit(m, pos, "F S")
    assert mv.beaten(blue) == (unit(m, pos, "F A1"), 2)
    out = resolve_movement(m, list(pos.units), orders_of(m, pos, *lines), {}, None, pos)
    assert [(d.power, m.loc_name[d.loc]) for d in out.routed] == [(1, "S")]


def test_a_stationary_attack_needs_no_move(m) -> None:
    """5.F.i: "the attacking F does not have to be moving into the space to make the
    attack"."""
    pos = position(m, "Red: F S, F N2; Blue: F S")
    units = list(pos.units)
    sea = m.loc_index["S"]
    red_s = next(i for i, u in enumerate(units) if (u.power, u.loc) == (0, sea))
    blue_s = next(i for i, u in enumerate(units) if (u.power, u.loc) == (1, sea))
    orders: list[Order | None] = [None] * len(units)
    orders[red_s] = parse_order(m, "F S AT Blue")
    orders[unit(m, pos, "F N2")] = parse_order(m, "F N2 S F S")
    mv = AttackMovement(m, units, orders, {}, None, pos)
    assert mv.beaten(blue_s) == (red_s, 1)  # 1 + the hold support against Blue's 1
