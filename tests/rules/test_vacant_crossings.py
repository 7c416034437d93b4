"""rules/vacant_crossings.py's hooks, asked directly of the rule set of the terrain test map
(a ford I1|I2, usable while the sound ISEA is empty)."""

from __future__ import annotations

import pytest
from support.positions import move_key, position, support_key, variant_map

from polydip.adjudication import reasons as R

RULE = ('[[rules.vacant_crossings.crossing]]\nedges = ["I1-I2"]\nwhile_vacant = "ISEA"\n'
        'support_kinds = ["F"]\n')


@pytest.fixture
def m():
    return variant_map("terrain", RULE)


def test_only_the_kinds_named_support_across_the_crossing(m) -> None:
    """5.J.3.i: "so long as FALKLAND SOUND is vacant, a unit in either Falkland island may
    be supported by a FLEET (but not an Army or River Flotilla) in the other"."""
    table = m.rules.no_support(m)
    assert support_key(m, "A I1", "I2") in table and support_key(m, "A I2", "I1") in table
    assert support_key(m, "F I1", "I2") not in table


def test_the_crossing_is_closed_to_every_power_while_the_province_is_occupied(m) -> None:
    """5.J.3.i: units move from one island to the other "except when FALKLAND SOUND is
    occupied by any unit"."""
    assert m.rules.blocked(m, position(m, "Red: A I1", phase="S1905M"), {}) == {}
    pos = position(m, "Red: A I1; Blue: F ISEA", phase="S1905M")
    shut = m.rules.blocked(m, pos, {})
    assert set(shut) == {0, 1}
    assert move_key(m, "A I1 - I2") in shut[0] and move_key(m, "F I2 - I1") in shut[1]
    assert move_key(m, "F I1 - ISEA") not in shut[0]
    why = m.rules.explain(m, pos, "blocked", (0, *move_key(m, "A I1 - I2")))
    assert why is not None and why.code == R.PASSAGE_CLOSED
