"""rules/neutral_units.py's hooks, asked directly of the rule set of the tiny test map with
Blue made a neutral power."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.state import Dislodged

NEUTRAL = {'letter = "B"': 'letter = "B"\nneutral = true'}


def neutral_map(rule: str = "[rules.neutral_units]\n"):
    return variant_map("tiny", rule, **NEUTRAL)


def test_a_neutral_unit_always_holds() -> None:
    """Seed 004: "Die Einheiten der neutralen Staaten bekommen immer den Befehl Halten"
    (the neutral units are always ordered to hold)."""
    m = neutral_map()
    pos = position(m, "Red: A A2; Blue: F B1")
    red, blue = pos.units
    assert m.rules.unit_holds(m, pos, blue) is True
    assert m.rules.unit_holds(m, pos, red) is False
    why = m.rules.explain(m, pos, "unit_holds", (blue,))
    assert why is not None and why.code == R.NEUTRAL_DISBANDS


def test_a_dislodged_neutral_unit_is_disbanded_instead_of_retreating() -> None:
    m = neutral_map()
    d = Dislodged(1, m.kind_index["F"], m.loc_index["B1"],
                  retreats=(m.loc_index["N2"], m.loc_index["S"]))
    assert m.rules.retreat(m, position(m, ""), d).retreats == ()
    red = Dislodged(0, m.kind_index["F"], m.loc_index["A1"], retreats=(m.loc_index["S"],))
    assert m.rules.retreat(m, position(m, ""), red) is red


def test_a_neutral_unit_named_retreats_to_a_free_center_first_by_name() -> None:
    """War in North America, the Alaskan army: "versucht sich in ein freies VZ
    zurückzuziehen ... Ist ein Rückzug nicht möglich, so wird die Armee aufgelöst"."""
    m = neutral_map('[rules.neutral_units]\nretreat_to_free_center = ["B1"]\n')
    d = Dislodged(1, m.kind_index["F"], m.loc_index["B1"],
                  retreats=(m.loc_index["S"], m.loc_index["N2"]))
    kept = m.rules.retreat(m, position(m, ""), d)
    assert kept.retreats == (m.loc_index["N2"],)  # the sea is no center
    pos = position(m, "Red: F A1", phase="F1901M")
    pos.dislodged = [kept]
    assert {p: [o.text for o in lst] for p, lst in m.rules.retreat_orders(m, pos).items()} \
        == {1: ["F B1 R N2"]}


def test_a_neutral_unit_gone_from_the_board_is_an_event() -> None:
    m = neutral_map()
    before = position(m, "Red: F A1; Blue: F B1")
    after = position(m, "Red: F B1")
    [event] = m.rules.events(m, before, after)
    assert event.code == R.NEUTRAL_DISBANDED


def test_the_rule_needs_a_neutral_power() -> None:
    with pytest.raises(VariantError, match="no power has neutral = true"):
        variant_map("tiny", "[rules.neutral_units]\n")
