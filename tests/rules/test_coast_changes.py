"""rules/coast_changes.py's hook, asked directly of the rule set of the geography test map
(DUO: a province with two coasts)."""

from __future__ import annotations

from support.positions import variant_map


def test_a_unit_of_the_kind_may_move_to_the_other_coast_of_its_province() -> None:
    """6.B.iv: "River Flotillas may be ordered to cross from one sea coast/river bank/lake
    shore to another. This equals one turn" (here: fleets)."""
    m = variant_map("geo", '[rules.coast_changes]\nkinds = ["F"]\n')
    fleet, nc, sc = m.kind_index["F"], m.loc_index["DUO/NC"], m.loc_index["DUO/SC"]
    assert m.rules.coast_changes(m) == {(fleet, nc, sc), (fleet, sc, nc)}
    assert m.tables.coast_change == {(fleet, nc): (sc,), (fleet, sc): (nc,)}
    assert variant_map("geo").tables.coast_change == {}
