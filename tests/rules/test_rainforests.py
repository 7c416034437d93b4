"""rules/rainforests.py's hooks, asked directly of the rule set of the terrain test map (B2,
B3 rainforest provinces; rainforest borders B1|B2, A2|B2, B2|C2, B2|B3, A3|B3, B3|C3)."""

from __future__ import annotations

import pytest
from support.positions import position, support_key, variant_map

from polydip.adjudication import reasons as R
from polydip.state import Unit

RULE = ('[rules.rainforests]\nborders = "rainforest"\nno_support_across = ["A"]\n'
        'provinces = "rainforest"\nway_back_only = ["A"]\n')


@pytest.fixture
def m():
    return variant_map("terrain", RULE)


def test_an_army_supports_nobody_across_a_rainforest_border(m) -> None:
    """5.D: "NO ARMY MAY SUPPORT ORDER SUPPORT ACROSS A RAINFOREST BORDER"."""
    table = m.rules.no_support(m)
    assert support_key(m, "A B1", "B2") in table and support_key(m, "A B2", "B1") in table
    assert support_key(m, "A B1", "A1") not in table


def test_the_rule_remembers_where_a_unit_entered_a_rainforest_from(m) -> None:
    """5.D: "ONCE AN ARMY HAS ENTERED such a province, IT MAY NOT MOVE ON THE SUCCEEDING
    TURN, EXCEPT TO THE PROVINCE FROM WHICH IT ENTERED"."""
    before = position(m, "Red: A B1, A A1", phase="S1905M")
    after = position(m, "Red: A B2, A A2", phase="S1905M")
    army = m.kind_index["A"]
    moved = [(Unit(0, army, m.loc_index["B1"]), Unit(0, army, m.loc_index["B2"]), False),
             (Unit(0, army, m.loc_index["A1"]), Unit(0, army, m.loc_index["A2"]), False)]
    m.rules.after_phase(m, before, after, moved)
    assert after.extra == {"rainforests": {"A B2": "B1"}}


def test_a_unit_that_entered_may_next_move_only_back(m) -> None:
    pos = position(m, "Red: A B2, A A2", phase="F1905M",
                   extra={"rainforests": {"A B2": "B1"}})
    army = m.kind_index["A"]
    limits = m.rules.move_limits(m, pos)
    assert limits == {(0, army, m.loc_index["B2"]): frozenset({m.prov_index["B1"]})}
    key = (0, army, m.loc_index["B2"], m.prov_index["C2"])
    why = m.rules.explain(m, pos, "move_limits", key)
    assert why is not None and why.code == R.WAY_BACK_ONLY
    assert m.rules.explain(m, pos, "move_limits", key[:3] + (m.prov_index["B1"],)) is None


def test_the_next_movement_phase_forgets_the_way_back(m) -> None:
    before = position(m, "Red: A B2", phase="F1905M", extra={"rainforests": {"A B2": "B1"}})
    after = position(m, "Red: A B2", phase="F1905M", extra={"rainforests": {"A B2": "B1"}})
    m.rules.after_phase(m, before, after, [])
    assert "rainforests" not in after.extra
