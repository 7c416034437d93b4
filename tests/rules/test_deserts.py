"""rules/deserts.py's hook, asked directly of the rule set of the terrain test map (C2, C3
adjacent desert provinces)."""

from __future__ import annotations

from support.positions import support_key, variant_map

from polydip.adjudication import reasons as R


def test_no_support_from_a_desert_into_an_adjacent_desert() -> None:
    """5.I: "NO UNIT IN ONE DESERT PROVINCE MAY SUPPORT ANOTHER UNIT INTO, OR TO HOLD IN AN
    ADJACENT DESERT PROVINCE. Note that this means that a unit in a desert province may
    support a unit in an adjacent desert province to move into a non-desert province"."""
    m = variant_map("terrain", '[rules.deserts]\nprovinces = "desert"\n')
    table = m.rules.no_support(m)
    assert support_key(m, "A C2", "C3") in table and support_key(m, "F C3", "C2") in table
    assert support_key(m, "A C2", "B2") not in table  # into a non-desert province
    assert support_key(m, "A C2", "C1") not in table
    why = m.rules.explain(m, None, "no_support", support_key(m, "A C2", "C3"))
    assert why is not None and why.code == R.DESERT_BORDER
