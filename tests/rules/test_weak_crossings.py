"""rules/weak_crossings.py's hooks, asked directly of the rule set of the terrain test map
(pass borders A1|B1 and A3|B3)."""

from __future__ import annotations

import pytest
from support.positions import move_key, variant_map

from polydip.adjudication import reasons as R

RULE = '[rules.weak_crossings]\nborders = "pass"\n'


@pytest.fixture
def m():
    return variant_map("terrain", RULE)


def test_a_move_across_the_border_has_strength_zero_before_its_supports(m) -> None:
    """5.C.iii: "THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the
    supporting units count towards an attack"."""
    got = m.rules.move_strength(m)
    assert got[move_key(m, "A A1 - B1")] == 0 and got[move_key(m, "A B3 - A3")] == 0
    assert move_key(m, "A A1 - A2") not in got
    assert m.tables.move_strength[move_key(m, "A A1 - B1")] == 0
    why = m.rules.explain(m, None, "move_strength", move_key(m, "A A1 - B1"))
    assert why is not None and why.code == R.WEAK_CROSSING


def test_a_crossing_stalls_only_under_the_option_fails(m) -> None:
    """The option weak_crossing_into_empty = "fails": an attack of strength 0 moves
    nowhere; by default ("enters") it still enters an empty province."""
    assert m.rules.stalls(m, {}) == set()
    assert m.rules.stalls(m, {"weak_crossing_into_empty": "enters"}) == set()
    stalls = m.rules.stalls(m, {"weak_crossing_into_empty": "fails"})
    assert move_key(m, "A A1 - B1") in stalls and move_key(m, "A A1 - A2") not in stalls


def test_a_crossing_of_strength_one_never_stalls() -> None:
    m = variant_map("terrain", RULE + "strength = 1\n")
    assert m.rules.move_strength(m)[move_key(m, "A A1 - B1")] == 1
    assert m.tables.move_strength == {}  # (strength 1 is the standard: no table entry)
    assert m.rules.stalls(m, {"weak_crossing_into_empty": "fails"}) == set()
