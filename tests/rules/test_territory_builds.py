"""rules/territory_builds.py's hooks, asked directly of the rule set of the terrain test map
(Red: capital A1, home A2, territory A1 A2 A3 B1 B2; the game starts in W1904A)."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

RULE = '[rules.territory_builds]\nfirst_phase = true\nyears_ending = [0, 5]\n'


@pytest.fixture
def m():
    return variant_map("terrain", RULE)


def names(m, provs) -> set[str]:
    return {m.prov_abbr[p] for p in provs}


def test_in_the_first_phase_a_power_with_a_capital_builds_anywhere_in_its_territory(m) -> None:
    """7.A: "The first turn of the game ... those powers with Capital Centers showing on
    the map may build a unit on any space which belongs to their power"."""
    pos = position(m, "Red: A A2", phase="W1904A")
    assert names(m, m.rules.build_sites(m, pos, 0)) == {"A1", "A3", "B1", "B2"}
    assert m.rules.build_sites(m, pos, 1) is None  # Blue has no capital: its home centers


def test_in_years_ending_0_or_5_one_build_may_go_off_the_centers(m) -> None:
    """7.A: "on D Phases in years ending in -5 and -0, All powers who continue to control
    their capital centres will be allowed to make ONE build ... on any province which they
    occupied at the beginning of the game unless: a) it is presently occupied by any unit;
    or b) it is a province with a supply center that is no longer under the control of
    that power"."""
    pos = position(m, "Red: A B1", phase="W1905A", centers="Red: A1, A2; Blue: A3, C0")
    assert m.rules.build_sites(m, pos, 0) is None  # not the first phase
    [(sites, n)] = m.rules.extra_build_sites(m, pos, 0)
    assert names(m, sites) == {"A1", "A2", "B2"} and n == 1  # B1 occupied, A3 Blue's
    assert m.rules.extra_build_sites(m, position(m, "", phase="W1906A"), 0) == []


def test_a_power_that_lost_its_capital_builds_nothing_off_the_centers(m) -> None:
    pos = position(m, "", phase="W1910A", centers="Red: A2; Blue: A1")
    assert m.rules.extra_build_sites(m, pos, 0) == []
