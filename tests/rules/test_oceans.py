"""rules/oceans.py's hooks, asked directly of the rule set of the tiny test map with its sea
tagged an ocean, and the tables the adjudicator reads from them (the decisions in those
spaces are tests/adjudication/test_attacks.py's)."""

from __future__ import annotations

from support.positions import variant_map

OCEAN_SEA = {'terrain = "sea"': 'terrain = "sea"\ntags = ["ocean"]'}


def test_the_oceans_are_attack_spaces_with_their_disband_margin() -> None:
    """5.F.i: "there is no limit to how many Fleets may enter an Ocean Province"; "Your
    attack must have an attack strength 3 greater than the opposing powers fleet"."""
    m = variant_map("tiny", '[rules.oceans]\nprovinces = "ocean"\n', **OCEAN_SEA)
    assert m.rules.attack_spaces() == {"S"} and m.rules.open_spaces() == set()
    assert m.rules.rout_margin() == 3
    s = m.prov_index["S"]
    assert m.tables.attack_space[s] and m.tables.open_space[s]  # an attack space is open
    assert m.tables.rout_margin == 3


def test_a_margin_of_zero_never_disbands() -> None:
    m = variant_map("tiny", '[rules.oceans]\nprovinces = "ocean"\ndisband_margin = 0\n',
                    **OCEAN_SEA)
    assert m.rules.rout_margin() is None and m.tables.rout_margin is None
