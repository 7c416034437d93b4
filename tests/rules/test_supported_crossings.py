"""rules/supported_crossings.py's hook, asked directly of the rule set of the terrain test
map (a ridge border A3|B3)."""

from __future__ import annotations

from support.positions import move_key, variant_map

from polydip.adjudication import reasons as R


def test_in_the_seasons_named_a_crossing_needs_support() -> None:
    """5.C.iv: "During the FIRST MOVEMENT PHASE ... NO ARMY MAY CROSS this mountainous
    border UNLESS SUPPORTED by another unit"."""
    m = variant_map("terrain", '[rules.supported_crossings]\nborders = "ridge"\n'
                               'seasons = ["S"]\nkinds = ["A"]\n')
    got = m.rules.needs_support(m)
    assert set(got) == {"S"}
    assert got["S"] == {move_key(m, "A A3 - B3"), move_key(m, "A B3 - A3")}
    assert m.tables.needs_support["S"] == frozenset(got["S"])
    why = m.rules.explain(m, None, "needs_support", ("S", *move_key(m, "A A3 - B3")))
    assert why is not None and why.code == R.NEEDS_SUPPORT
    assert m.rules.explain(m, None, "needs_support", ("F", *move_key(m, "A A3 - B3"))) is None


def test_without_seasons_every_season_needs_support() -> None:
    m = variant_map("terrain", '[rules.supported_crossings]\nborders = "ridge"\n')
    assert set(m.rules.needs_support(m)) == {"S", "F", "W"}
