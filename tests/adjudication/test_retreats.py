"""The retreat phase (adjudication/retreats.py), asked directly on hand-built dislodged
units of the standard map: where a unit may retreat (not the attacker's province, not a
province left empty by a standoff, not an occupied one), a coast taken when only one fits,
two retreats to one province both disbanded, an unordered unit disbanded. Plain functions
of a compiled map: these run on both builds."""

from __future__ import annotations

import pytest
from support.positions import position, variant_map

from polydip.adjudication.retreats import (
    BOUNCE,
    DISBANDED,
    VOID,
    resolve_retreats,
    retreat_options,
    retreat_target,
)
from polydip.orders.parser import parse_order
from polydip.state import Dislodged


@pytest.fixture
def m():
    return variant_map("standard")


def test_a_unit_retreats_neither_to_its_attackers_province_nor_an_occupied_or_contested_one(
        m) -> None:
    """Rulebook: a unit may not retreat "to the province from which the attacker came",
    "to an occupied province" nor "to a province left vacant by a standoff"."""
    army, mun = m.kind_index["A"], m.loc_index["MUN"]
    occupied = {m.prov_index["BOH"]}
    contested = frozenset({m.prov_index["SIL"]})
    got = retreat_options(m, army, mun, occupied, contested, m.prov_index["BUR"])
    assert {m.loc_name[x] for x in got} == {"KIE", "BER", "RUH", "TYR"}


def test_a_retreat_order_naming_no_coast_takes_the_only_coast_allowed(m) -> None:
    fleet = m.kind_index["F"]
    d = Dislodged(0, fleet, m.loc_index["BOT"], retreats=(m.loc_index["STP/SC"],))
    assert retreat_target(m, d, m.loc_index["STP"]) == m.loc_index["STP/SC"]
    assert retreat_target(m, d, m.loc_index["FIN"]) == -1  # not among its retreats


def test_two_units_retreating_to_one_province_are_both_disbanded(m) -> None:
    """Rulebook: "If two or more units are ordered to retreat to the same province, they
    are all disbanded"."""
    pos = position(m, "Germany: A Ber; Russia: A War", phase="F1901M")
    army = m.kind_index["A"]
    ger, rus = m.powers.index("Germany"), m.powers.index("Russia")
    sil = m.loc_index["SIL"]
    dislodged = [Dislodged(ger, army, m.loc_index["MUN"], retreats=(sil, m.loc_index["KIE"])),
                 Dislodged(rus, army, m.loc_index["GAL"], retreats=(sil,))]
    orders = [parse_order(m, "A Mun R Sil", "R"), parse_order(m, "A Gal R Sil", "R")]
    rr = resolve_retreats(m, dislodged, orders)
    assert rr.units == [] and rr.results == [[BOUNCE, DISBANDED], [BOUNCE, DISBANDED]]
    assert pos.units  # (the units standing are not the retreat phase's to touch)


def test_a_retreat_succeeds_alone_and_a_unit_without_order_or_place_is_disbanded(m) -> None:
    army = m.kind_index["A"]
    ds = [Dislodged(0, army, m.loc_index["MUN"], retreats=(m.loc_index["KIE"],)),
          Dislodged(1, army, m.loc_index["GAL"], retreats=(m.loc_index["UKR"],)),
          Dislodged(2, army, m.loc_index["PAR"], retreats=(m.loc_index["GAS"],))]
    orders = [parse_order(m, "A Mun R Kie", "R"), None, parse_order(m, "A Par R Bur", "R")]
    rr = resolve_retreats(m, ds, orders)
    assert [(u.power, m.loc_name[u.loc]) for u in rr.units] == [(0, "KIE")]
    assert rr.origins == [0]
    assert rr.results == [[], [DISBANDED], [VOID, DISBANDED]]
