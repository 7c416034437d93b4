"""rules/build_sites.py's hook, asked directly of the rule set of the tiny test map (Red's
homes A1, A2; Blue's B1; neutral centers N1, N2)."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map


def sites(policy: str, **kw: str) -> set[str] | None:
    m = variant_map("tiny", f'[rules.build_sites]\npolicy = "{policy}"\n')
    got = m.rules.build_sites(m, position(m, phase="W1901A", **kw), 0)
    return None if got is None else {m.prov_abbr[p] for p in got}


def test_the_home_policy_leaves_the_standard_rule() -> None:
    assert sites("home", units="Red: A A2", centers="Red: A1, A2, N1") is None


def test_owned_at_year_start_builds_on_centers_owned_all_year() -> None:
    """Seed 000 (War in the Americas): "units may be built on any supply center owned by a
    power at the beginning of the year"."""
    got = sites("owned_at_year_start", units="Red: A A2", centers="Red: A1, A2, N1, N2",
                year_start="Red: A1, A2, N2")
    assert got == {"A1", "N2"}  # N1 was not Red's when the year began; A2 is occupied


@pytest.mark.parametrize(("policy", "expected"), [("owned", {"A1", "N1", "N2"}),
                                                  ("any_home", {"A1", "B1"})])
def test_owned_and_any_home(policy: str, expected: set[str]) -> None:
    """DPjudge's HOME_BUILDS: "players may build in any owned center that was an original
    home center for any of the powers in the game"."""
    got = sites(policy, units="Red: A A2", centers="Red: A1, A2, N1, N2, B1",
                year_start="Red: A1")
    assert got == (expected | {"B1"} if policy == "owned" else expected)
