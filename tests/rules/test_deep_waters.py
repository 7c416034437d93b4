"""rules/deep_waters.py's hooks, asked directly of the rule set of the terrain test map: the
sound ISEA tagged deep, the sea SEA tagged offshore (deep unless next to a coastal one)."""

from __future__ import annotations

from support.positions import move_key, support_key, variant_map

from polydip.adjudication import reasons as R

TAGS = {'name = "Island Sound"\nterrain = "sea"': 'name = "Island Sound"\nterrain = "sea"\n'
                                                   'tags = ["deep"]',
        'name = "The Sea"\nterrain = "sea"': 'name = "The Sea"\nterrain = "sea"\n'
                                             'tags = ["offshore"]'}
RULE = '[rules.deep_waters]\nkinds = ["F"]\nprovinces = ["deep"]\noffshore = "offshore"\n'


def test_a_unit_of_the_kind_in_deep_water_has_no_strength_and_gives_no_support() -> None:
    """6.B.ii: a flotilla entering "any Sea Province which is not directly adjacent to a
    Coastal Province, or ANY OCean Province ... cannot support another unit, and has an
    attack strength of zero. It can be supported to hold or to move into such a province"."""
    # (the coast tag must exist: the mountain A0, far from the sea, leaves SEA deep)
    m = variant_map("terrain", RULE + 'coast = "mountain"\n', **TAGS)
    fleet, deep = m.kind_index["F"], m.prov_index["ISEA"]
    assert m.rules.hold_strength(m) == {(fleet, deep): 0, (fleet, m.prov_index["SEA"]): 0}
    strength = m.rules.move_strength(m)
    assert strength[move_key(m, "F I1 - ISEA")] == 0 and strength[move_key(m, "F SEA - ISEA")] == 0
    assert move_key(m, "F ISEA - I1") not in strength  # moving out it is as strong as ever
    assert support_key(m, "F ISEA", "I1") in m.rules.no_support(m)
    assert support_key(m, "F C0", "SEA") not in m.rules.no_support(m)  # into it: allowed
    why = m.rules.explain(m, None, "move_strength", move_key(m, "F I1 - ISEA"))
    assert why is not None and why.code == R.DEEP_WATER


def test_an_offshore_sea_next_to_a_coastal_province_is_not_deep() -> None:
    coastal = {'name = "Harbour"\nterrain = "coast"': 'name = "Harbour"\nterrain = "coast"\n'
                                                      'tags = ["coastal"]'}
    m = variant_map("terrain", RULE, **TAGS, **coastal)
    fleet = m.kind_index["F"]
    assert (fleet, m.prov_index["SEA"]) not in m.rules.hold_strength(m)
    assert (fleet, m.prov_index["ISEA"]) in m.rules.hold_strength(m)
