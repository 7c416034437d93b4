"""rules/mountains.py's hooks, asked directly of the rule set of the terrain test map (A0 a
mountain province; mountain borders A0|A1, A0|B0, A2|B2)."""

from __future__ import annotations

import pytest
from support.positions import move_key, support_key, variant_map

from polydip.adjudication import reasons as R

RULE = ('[rules.mountains]\nprovinces = "mountain"\nborders = "mountain"\n'
        'no_support_across = ["A"]\n')


@pytest.fixture
def m():
    return variant_map("terrain", RULE)


def test_a_unit_in_a_mountain_province_gives_no_support(m) -> None:
    """5.C: "NO UNIT LOCATED IN ONE OF THESE PROVINCES MAY OFFER SUPPORT to any other
    unit"."""
    table = m.rules.no_support(m)
    assert support_key(m, "A A0", "A1") in table and support_key(m, "A A0", "B0") in table
    got = m.rules.explain(m, None, "no_support", support_key(m, "A A0", "A1"))
    assert got is not None and got.code == R.MOUNTAIN_PROVINCE


def test_the_kinds_named_support_nobody_across_a_mountain_border(m) -> None:
    """5.C: "no River Flotilla may order support across a mountainous border" (here the
    kind named is the army)."""
    table = m.rules.no_support(m)
    assert support_key(m, "A A2", "B2") in table  # across the mountain border A2|B2
    assert support_key(m, "A A2", "A3") not in table  # an ordinary border
    got = m.rules.explain(m, None, "no_support", support_key(m, "A A2", "B2"))
    assert got is not None and got.code == R.MOUNTAIN_BORDER


def test_no_unit_retreats_across_a_mountain_border(m) -> None:
    """5.C: "NO UNIT MAY RETREAT ACROSS A MOUNTAINOUS BORDER ON ANY RETREAT PHASE"."""
    table = m.rules.no_retreat(m)
    assert move_key(m, "A A1 - A0") in table and move_key(m, "A B2 - A2") in table
    assert move_key(m, "A A1 - A2") not in table
    # the table reaches the retreats the adjudicator reads
    army, a1 = m.kind_index["A"], m.loc_index["A1"]
    assert m.loc_index["A0"] not in m.tables.retreat_locs[army][a1]


def test_without_parameters_the_rule_changes_nothing() -> None:
    m = variant_map("terrain", "[rules.mountains]\n")
    assert m.rules.no_support(m) == set() and m.rules.no_retreat(m) == set()
