"""rules/support_limits.py's hooks, asked directly of the rule set of the terrain test map."""

from __future__ import annotations

from support.positions import support_key, variant_map

from polydip.adjudication import reasons as R


def test_a_kind_supports_nothing_into_provinces_with_the_tags() -> None:
    """6.C note 3: "A Fleet may NEVER support a unit or a move into any Upland Province"
    (here: into a desert)."""
    m = variant_map("terrain", '[rules.support_limits]\n'
                               'no_support_into = [{ kinds = ["F"], tags = ["desert"] }]\n')
    table = m.rules.no_support(m)
    assert support_key(m, "F C1", "C2") in table and support_key(m, "F SEA", "C3") in table
    assert support_key(m, "F C1", "C0") not in table
    assert support_key(m, "A C1", "C2") not in table
    why = m.rules.explain(m, None, "no_support", support_key(m, "F C1", "C2"))
    assert why is not None and why.code == R.RULE_FORBIDS


def test_a_kind_supports_over_edges_it_does_not_move_across() -> None:
    """6.E: River Flotillas "can order support across Rainforest Borders, EVEN to provinces
    where they cannot travel" (here: fleets across land edges)."""
    m = variant_map("terrain", '[rules.support_limits]\n'
                               'support_over = [{ kinds = ["F"], edges = ["land"] }]\n')
    more = m.rules.more_support(m)
    assert support_key(m, "F C0", "B0") in more
    fleet, c0 = m.kind_index["F"], m.loc_index["C0"]
    assert m.prov_index["B0"] in m.tables.support_base[fleet][c0]
    assert m.prov_index["B0"] not in m.reach_prov[fleet][c0]  # it still cannot move there
