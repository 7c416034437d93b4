"""rules/open_spaces.py's hook, asked directly of the rule set of the tiny test map, and the
table the adjudicator reads from it."""

from __future__ import annotations

from support.positions import variant_map


def test_the_open_spaces_are_the_provinces_named() -> None:
    """Seed 004 (Cape Horn): "Es gibt kein Limit der einziehenden Flotten, es kann auch kein
    Bounce entstehen" (no limit on fleets entering, no bounce)."""
    m = variant_map("tiny", '[rules.open_spaces]\nprovinces = ["S"]\n')
    assert m.rules.open_spaces() == {"S"}
    assert m.tables.has_open_spaces
    assert [m.prov_abbr[p] for p, o in enumerate(m.tables.open_space) if o] == ["S"]
    assert not variant_map("tiny").tables.has_open_spaces
