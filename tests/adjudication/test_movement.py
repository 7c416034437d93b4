"""The movement phase's outcome (adjudication/movement.py, resolve_movement) asked directly
on hand-built standard positions, below Game: the units after the phase, the standoffs left
empty, the dislodged units with where each may retreat, the result words and each unit's
end. Run on both builds."""

from __future__ import annotations

import pytest
from support.positions import orders_of, position, variant_map

from polydip.adjudication.movement import BOUNCE, CUT, DISLODGED, resolve_movement


@pytest.fixture
def m():
    return variant_map("standard")


def phase(m, pos, *lines: str, options: dict | None = None):
    return resolve_movement(m, list(pos.units), orders_of(m, pos, *lines), options, None, pos)


def names(m, units) -> list[str]:
    return sorted(m.unit_str(u.kind, u.loc) for u in units)


def test_a_standoff_leaves_the_province_empty_and_contested(m) -> None:
    """Rulebook: units of equal strength trying to enter the same province all fail (a
    "standoff"); the province stays empty and no unit may retreat there."""
    pos = position(m, "France: A Par; Germany: A Mun")
    out = phase(m, pos, "A Par - Bur", "A Mun - Bur")
    assert out.contested == frozenset({m.prov_index["BUR"]})
    assert out.results == [[BOUNCE], [BOUNCE]]
    assert names(m, out.units) == ["A MUN", "A PAR"]


def test_a_dislodged_unit_may_not_retreat_where_its_attacker_came_from(m) -> None:
    """Rulebook: a dislodged unit may not retreat "to the province from which the attacker
    came", nor to an occupied province or one left empty by a standoff."""
    pos = position(m, "Germany: A Par; France: A Pic, A Bur, A Spa, A Mar")
    out = phase(m, pos, "A Pic - Par", "A Bur S A Pic - Par", "A Spa - Gas", "A Mar - Gas")
    [d] = out.dislodged
    assert m.unit_str(d.kind, d.loc) == "A PAR" and d.attacker == m.prov_index["PIC"]
    # Picardy the attacker's, Burgundy occupied, Gascony left empty by a standoff: Brest
    assert out.contested == frozenset({m.prov_index["GAS"]})
    assert [m.loc_name[x] for x in d.retreats] == ["BRE"]
    assert out.results[0] == [DISLODGED]
    assert [u.power for u in out.units if m.loc_name[u.loc] == "PAR"] == [m.powers.index("France")]


def test_each_unit_ends_where_its_order_took_it(m) -> None:
    pos = position(m, "France: A Par, A Mar; Italy: A Pie")
    out = phase(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Pie - Mar")
    finals = out.finals(list(pos.units))
    assert [m.unit_str(u.kind, u.loc) if u else None for u in finals] == ["A BUR", "A MAR",
                                                                          "A PIE"]
    assert out.results == [[], [CUT], [BOUNCE]]
    assert [(m.loc_name[a.loc], m.loc_name[b.loc], c)
            for a, b, c in out.moved(list(pos.units))] == [("PAR", "BUR", False)]
