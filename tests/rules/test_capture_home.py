"""rules/capture_home.py's hooks, asked directly of the rule set of the tiny test map: Blue's
first captured center among N1 and N2 becomes the only place it builds fleets."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

from polydip.adjudication import reasons as R

RULE = '[rules.capture_home]\npower = "Blue"\ncandidates = ["N2", "N1"]\nkind = "F"\n'


@pytest.fixture
def m():
    return variant_map("tiny", RULE)


def test_the_first_candidate_captured_becomes_the_home(m) -> None:
    """Seed 004: "Das erstbesetzte VZ wird zum Heimat-VZ" (the first one taken becomes a
    home center); two taken in the same year: the first listed."""
    pos = position(m, "", phase="W1901A", centers="Blue: B1, N1, N2")
    before = pos.copy()
    m.rules.centers_changed(m, pos)
    assert pos.extra == {"capture_home": {"Blue": "N2"}}
    [event] = m.rules.events(m, before, pos)
    assert event.code == R.NEW_HOME
    # later captures change nothing
    pos.owners[m.prov_index["N2"]] = 0
    m.rules.centers_changed(m, pos)
    assert pos.extra == {"capture_home": {"Blue": "N2"}}


def test_fleets_are_built_only_on_the_captured_home(m) -> None:
    """Seed 004: "Nur in diesem VZ können Flotten gebaut werden" (fleets can only be built
    there)."""
    fleet, army = m.kind_index["F"], m.kind_index["A"]
    none_yet = position(m, "", phase="W1901A")
    assert m.rules.may_build(m, none_yet, 1, fleet, m.prov_index["B1"]) is False
    pos = position(m, "", phase="W1901A", extra={"capture_home": {"Blue": "N2"}})
    assert m.rules.may_build(m, pos, 1, fleet, m.prov_index["N2"]) is True
    assert m.rules.may_build(m, pos, 1, fleet, m.prov_index["B1"]) is False
    assert m.rules.may_build(m, pos, 1, army, m.prov_index["B1"]) is None  # armies: as usual
    assert m.rules.may_build(m, pos, 0, fleet, m.prov_index["A1"]) is None  # other powers
