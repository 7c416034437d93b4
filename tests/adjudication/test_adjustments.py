"""The adjustment phase (adjudication/adjustments.py), asked directly on hand-built standard
positions: builds and removals due, build sites, why a build is refused (its reason code),
builds and disbands carried out, and civil disorder's removals. Plain functions of a
compiled map: these run on both builds."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

from polydip.adjudication import reasons as R
from polydip.adjudication.adjustments import (
    VOID,
    adjustment_counts,
    build_reason,
    build_sites,
    centers_per_power,
    civil_disorder_order,
    resolve_adjustments,
)
from polydip.orders.parser import parse_order


@pytest.fixture
def m():
    return variant_map("standard")


def orders_by_power(m, **given: list[str]) -> list[list]:
    return [[parse_order(m, o, "A") for o in given.get(p, [])] for p in m.powers]


def test_builds_and_removals_due_are_centers_minus_units(m) -> None:
    pos = position(m, "France: A Par; Germany: A Mun, A Ber, A Kie, A Ruh, A Hol",
                   phase="W1901A", centers="France: Par, Bre, Mar; Germany: Mun, Ber, Kie")
    counts = adjustment_counts(m, pos)
    assert counts[m.powers.index("France")] == 2
    assert counts[m.powers.index("Germany")] == -2
    assert counts[m.powers.index("Italy")] == 0  # no centers, no units


def test_counts_follow_the_owners_given_whatever_was_counted_before(m) -> None:
    """The center counts are kept per owners: a caller changing the list it was given, or
    positions whose owners differ by one center, still get their own counts."""
    pos = position(m, "France: A Par; Germany: A Mun, A Ber, A Kie, A Ruh, A Hol",
                   phase="W1901A", centers="France: Par, Bre, Mar; Germany: Mun, Ber, Kie")
    fr, ge = m.powers.index("France"), m.powers.index("Germany")
    first = adjustment_counts(m, pos)
    first[fr] = 99
    assert centers_per_power(m, pos.owners)[fr] == 3
    assert adjustment_counts(m, pos)[fr] == 2
    owners = list(pos.owners)
    owners[m.prov_index["MAR"]] = ge
    assert centers_per_power(m, owners)[fr] == 2 and centers_per_power(m, owners)[ge] == 4
    assert adjustment_counts(m, pos)[ge] == -2


def test_a_power_builds_on_its_vacant_owned_home_centers(m) -> None:
    """Rulebook: a build goes "in a home supply center that is vacant and that [the
    power] still controls"."""
    fr = m.powers.index("France")
    pos = position(m, "France: A Par; Germany: A Mar", phase="W1901A",
                   centers="France: Par, Bre, Spa; Germany: Mar")
    assert {m.prov_abbr[p] for p in build_sites(m, pos, fr)} == {"BRE"}


@pytest.mark.parametrize(("order", "code"), [
    ("A Par B", R.SITE_OCCUPIED),
    ("A Spa B", R.NOT_A_BUILD_SITE),  # owned, but not a home center
    ("A Mar B", R.NOT_OWNED),
    ("A Bur B", R.NOT_A_CENTER),
    ("F Stp B", R.NOT_OWNED),
])
def test_a_refused_build_says_why_by_its_code(m, order: str, code: str) -> None:
    fr = m.powers.index("France")
    pos = position(m, "France: A Par; Germany: A Pic", phase="W1901A",
                   centers="France: Par, Bre, Spa; Germany: Mar")
    why = build_reason(m, pos, fr, parse_order(m, order, "A"))
    assert why is not None and why.code == code


def test_a_fleet_built_on_a_two_coast_center_needs_its_coast(m) -> None:
    ru = m.powers.index("Russia")
    pos = position(m, "", phase="W1901A", centers="Russia: Stp, Mos")
    why = build_reason(m, pos, ru, parse_order(m, "F Stp B", "A"))
    assert why is not None and why.code == R.COAST_NEEDED
    assert build_reason(m, pos, ru, parse_order(m, "F Stp/nc B", "A")) is None
    why = build_reason(m, pos, ru, parse_order(m, "F Mos B", "A"))
    assert why is not None and why.code == R.CANNOT_STAND


def test_builds_beyond_the_count_and_on_a_used_site_are_void(m) -> None:
    pos = position(m, "France: A Par", phase="W1901A", centers="France: Par, Bre, Mar")
    out = resolve_adjustments(m, pos, orders_by_power(
        m, France=["A Bre B", "F Bre B", "A Mar B", "A Par B"]))
    fr = m.powers.index("France")
    assert [r for _o, r in out.results[fr]] == [[], [VOID], [], [VOID]]
    assert sorted(m.unit_str(u.kind, u.loc) for u in out.units) == ["A BRE", "A MAR", "A PAR"]


def test_a_power_that_removes_too_few_units_loses_them_by_civil_disorder(m) -> None:
    """Rulebook (2023): civil disorder removes the units farthest from the power's supply
    centers first (by provinces), fleets before armies at equal distance, then
    alphabetically."""
    pos = position(m, "Germany: A Mun, A Ber, A Kie, A Ukr, F Bar", phase="W1901A",
                   centers="Germany: Mun, Ber, Kie")
    de = m.powers.index("Germany")
    order = civil_disorder_order(m, pos, de, [u for u in pos.units if u.power == de])
    assert [m.unit_str(u.kind, u.loc) for u in order][:2] == ["F BAR", "A UKR"]
    out = resolve_adjustments(m, pos, orders_by_power(m, Germany=["A Ukr D"]))
    assert [m.unit_str(u.kind, u.loc) for u in out.removed[de]] == ["F BAR"]
    assert len([u for u in out.units if u.power == de]) == 3
