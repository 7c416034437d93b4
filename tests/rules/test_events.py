"""rules/events.py's hook, asked directly of the rule set of the tiny test map: N1 joins Blue
in the winter of 1901 if Red still owns it then."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.state import Phase

RULE = '[[rules.events.join]]\nat = "W1901"\nprovince = "N1"\nfrom = "Red"\nto = "Blue"\n'


@pytest.fixture
def m():
    return variant_map("tiny", RULE)


def test_a_province_still_owned_joins_the_other_power_with_its_units(m) -> None:
    """Seed 004: "Wurde das russische Alaska bis zum Winter 1867 nicht erobert, so schließt
    sich dieses Gebiet automatisch den Vereinigten Staaten von Amerika an. Die neutrale Armee
    in Alaska steht dann unter der Flagge der Vereinigten Staaten!"."""
    pos = position(m, "Red: A N1, A A2", phase="F1901M", centers="Red: N1, A1, A2")
    [event] = m.rules.before_phase(m, pos, Phase(1901, "W", "A"))
    assert event.code == R.PROVINCE_JOINS
    assert pos.owners[m.prov_index["N1"]] == 1
    assert [(u.power, m.loc_name[u.loc]) for u in pos.units] == [(1, "N1"), (0, "A2")]


def test_a_conquered_province_does_not_join(m) -> None:
    pos = position(m, "Blue: A N1", phase="F1901M", centers="Blue: N1")
    [event] = m.rules.before_phase(m, pos, Phase(1901, "W", "A"))
    assert event.code == R.JOIN_FAILED
    assert pos.owners[m.prov_index["N1"]] == 1


def test_nothing_happens_on_another_date(m) -> None:
    pos = position(m, "Red: A N1", phase="S1901M", centers="Red: N1")
    assert m.rules.before_phase(m, pos, Phase(1901, "F", "M")) == []
    assert m.rules.before_phase(m, pos, Phase(1902, "W", "A")) == []
    assert pos.units[0].power == 0


def test_a_date_without_a_season_of_the_calendar_is_refused() -> None:
    with pytest.raises(VariantError, match="write season and year"):
        variant_map("tiny", RULE.replace("W1901", "X1901"))
