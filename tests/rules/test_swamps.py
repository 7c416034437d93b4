"""rules/swamps.py's hooks, asked directly of the rule set of the terrain test map (C1 a
swamp on the coast)."""

from __future__ import annotations

from support.positions import support_key, variant_map

from polydip.adjudication import reasons as R


def test_an_army_in_a_swamp_gives_no_support_and_gets_none_to_hold() -> None:
    """5.E: "NO ARMY located in one of these provinces MAY OFFER SUPPORT TO ANOTHER UNIT,
    OR BE SUPPORTED TO HOLD in that province ... no restrictions apply to River
    Flotillas" (here: to fleets, the kind not named)."""
    m = variant_map("terrain", '[rules.swamps]\nprovinces = "swamp"\nkinds = ["A"]\n')
    table = m.rules.no_support(m)
    assert support_key(m, "A C1", "C0") in table and support_key(m, "A C1", "B1") in table
    assert support_key(m, "F C1", "C0") not in table
    assert m.rules.no_hold_support(m) == {(m.kind_index["A"], m.prov_index["C1"])}
    why = m.rules.explain(m, None, "no_hold_support",
                          (m.kind_index["A"], m.prov_index["C1"]))
    assert why is not None and why.code == R.SWAMP


def test_without_kinds_every_kind_is_held_back() -> None:
    m = variant_map("terrain", '[rules.swamps]\nprovinces = "swamp"\n')
    assert support_key(m, "F C1", "C0") in m.rules.no_support(m)
    assert len(m.rules.no_hold_support(m)) == 2
