"""The rule terms of the movement decisions (adjudication/decisions.py), asked directly of
`Movement` on the small test maps with one rule module switched on: each term reads a rule
table, and without the rule the decision is the standard one (tests/adjudication/
test_decisions.py). Run on both builds."""

from __future__ import annotations

import pytest
from support.positions import movement, position, unit, variant_map

from polydip.errors import NotSupportedError


def test_a_weakened_move_attacks_with_its_supports_only() -> None:
    """Weak crossings (LAD 5.C.iii): "THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE
    BORDERS = ZERO; only the supporting units count towards an attack"."""
    m = variant_map("terrain", '[rules.weak_crossings]\nborders = "pass"\n')
    pos = position(m, "Red: A A1, A B0; Blue: A B1", phase="S1905M")
    mv = movement(m, pos, "A A1 - B1", "A B0 S A A1 - B1")
    a1, b1 = unit(m, pos, "A A1"), unit(m, pos, "A B1")
    assert mv.base is not None and mv.base[a1] == 0
    assert mv._attack(a1) == 1 and mv._hold(m.prov_index["B1"]) == 1
    assert mv.resolve(a1) is False and mv._dislodged(b1) is False
    # its defend and prevent strengths too, under the default crossing_strength = "move"
    assert mv.base_held is mv.base
    assert movement(m, pos, "A A1 - B1", options={"crossing_strength": "attack"}).base_held \
        is None


def test_a_weakened_move_stalls_into_an_empty_province_only_under_the_option() -> None:
    m = variant_map("terrain", '[rules.weak_crossings]\nborders = "pass"\n')
    pos = position(m, "Red: A A1", phase="S1905M")
    assert movement(m, pos, "A A1 - B1").resolve(0) is True  # "enters" (the default)
    mv = movement(m, pos, "A A1 - B1", options={"weak_crossing_into_empty": "fails"})
    assert mv.feeble == {0} and mv.resolve(0) is False


def test_an_unsupported_crossing_that_needs_support_holds_instead() -> None:
    """Supported crossings (LAD 5.C.iv): "NO ARMY MAY CROSS this mountainous border UNLESS
    SUPPORTED by another unit"; it "would not make it across" and cuts nothing."""
    m = variant_map("terrain", '[rules.supported_crossings]\nborders = "ridge"\n'
                               'seasons = ["S"]\n')
    pos = position(m, "Red: A A3; Blue: A B3, A C3, A C2", phase="S1905M")
    mv = movement(m, pos, "A A3 - B3", "A C3 S A C2 - B3")
    a3 = unit(m, pos, "A A3")
    assert mv.stuck == {a3} and mv.resolve(a3) is True  # (it holds: a hold succeeds)
    assert mv.attackers.get(m.prov_index["B3"], []) == []
    fall = position(m, "Red: A A3; Blue: A B3", phase="F1905M")
    assert movement(m, fall, "A A3 - B3").stuck == frozenset()  # another season


def test_a_unit_holding_in_deep_water_has_strength_zero_before_supports() -> None:
    """Deep waters (LAD 6.B.ii): there a flotilla "has an attack strength of zero. It can
    be supported to hold"."""
    deep = {'name = "Island Sound"\nterrain = "sea"': 'name = "Island Sound"\nterrain = "sea"\n'
                                                      'tags = ["deep"]'}
    m = variant_map("terrain", '[rules.deep_waters]\nkinds = ["F"]\nprovinces = ["deep"]\n'
                               'coast = "mountain"\n', **deep)
    pos = position(m, "Blue: F ISEA; Red: F I1", phase="S1905M")
    assert movement(m, pos)._hold(m.prov_index["ISEA"]) == 0
    mv = movement(m, pos, "F I1 S F ISEA")
    assert mv._hold(m.prov_index["ISEA"]) == 1


def test_units_in_an_open_space_stack_and_are_never_dislodged() -> None:
    """Open spaces (War in North America's Cape Horn): "man kann keine Flotte aus Cape Horn
    vertreiben" (no fleet can be driven out of Cape Horn)."""
    m = variant_map("tiny", '[rules.open_spaces]\nprovinces = ["S"]\n')
    pos = position(m, "Red: F A1, F N2; Blue: F S")
    mv = movement(m, pos, "F A1 - S", "F N2 S F A1 - S")
    assert mv.stack == {m.prov_index["S"]: [unit(m, pos, "F S")]}
    assert mv.resolve(unit(m, pos, "F A1")) is True
    assert mv._dislodged(unit(m, pos, "F S")) is False


def test_two_units_in_one_province_without_a_stacking_rule_are_refused() -> None:
    m = variant_map("tiny")
    pos = position(m, "Red: F A1")
    pos.units = [*pos.units, pos.units[0]]
    with pytest.raises(NotSupportedError, match="two units in A1"):
        movement(m, pos)


def test_a_convoyed_swap_across_a_no_swap_pair_is_a_head_to_head_battle() -> None:
    """No swap (War in North America's land bridges): "Ein Platzwechsel mit der jeweils
    gegenüber liegenden Einheit ist nicht möglich", not even by convoy."""
    m = variant_map("tiny", '[rules.no_swap]\npairs = ["A1-N2"]\n')
    pos = position(m, "Red: A A1; Blue: A N2, F S")
    lines = ("A A1 - N2", "A N2 - A1 VIA", "F S C A N2 - A1")
    mv = movement(m, pos, *lines)
    a1, n2 = unit(m, pos, "A A1"), unit(m, pos, "A N2")
    assert mv.convoyed[n2] and mv.h2h[a1] == n2
    assert mv.resolve(a1) is False and mv.resolve(n2) is False
    plain = movement(m := variant_map("tiny"), position(m, "Red: A A1; Blue: A N2, F S"),
                     *lines)
    assert plain.h2h[0] == -1 and plain.resolve(0) is True  # the standard: they swap


def test_a_move_to_the_other_coast_holds_and_a_support_of_it_is_a_support_to_hold() -> None:
    """Coast changes (LAD 6.B.iv): "This equals one turn. ... Such moves may be supported,
    and such a support order will be understood as a support order to Hold"."""
    m = variant_map("geo", '[rules.coast_changes]\nkinds = ["F"]\n')
    pos = position(m, "Blue: F DUO/NC, F W")
    mv = movement(m, pos, "F DUO/NC - DUO/SC", "F W S F DUO/NC - DUO/SC")
    duo = unit(m, pos, "F DUO/NC")
    assert mv.shift == {duo: m.loc_index["DUO/SC"]}
    assert mv.hold_supp == {duo: [unit(m, pos, "F W")]}
