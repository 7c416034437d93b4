"""Convoy routes (adjudication/convoy.py) on the standard map, asked directly: whether a
chain of fleets joins two coasts, which fleets lie on a route, which are necessary for one
(DATC 4.E.1, 6.G.19), and where fleets can carry an army. Plain functions of a compiled
map: these run on both builds."""

from __future__ import annotations

import pytest
from support.positions import variant_map

from polydip.adjudication.convoy import (
    fleet_component,
    fleet_reach,
    necessary,
    provinces_on_routes,
    route_exists,
    routes_through,
)


@pytest.fixture
def m():
    return variant_map("standard")


def ids(m, *names: str) -> frozenset[int]:
    return frozenset(m.prov_index[n] for n in names)


def test_a_route_needs_an_unbroken_chain_of_usable_fleets(m) -> None:
    lon, tun = m.prov_index["LON"], m.prov_index["TUN"]
    chain = ids(m, "ENG", "MAO", "WES")
    assert route_exists(m, lon, tun, lambda p: p in chain)
    assert not route_exists(m, lon, tun, lambda p: p in chain - ids(m, "MAO"))


def test_only_the_fleets_on_a_complete_route_are_on_routes(m) -> None:
    """A fleet in a dead end next to a route is not on it: London to Norway through the
    North Sea; the Skagerrak fleet touches the North Sea but leads nowhere needed."""
    lon, nwy = m.prov_index["LON"], m.prov_index["NWY"]
    got = provinces_on_routes(m, lon, nwy, ids(m, "NTH", "HEL"))
    assert got == set(ids(m, "NTH"))


def test_two_routes_each_fleet_is_on_one_but_none_is_necessary(m) -> None:
    """DATC 6.G.19 reading: a convoy order is legal when the fleet is necessary for some
    route; with two parallel routes (English Channel, or Irish Sea and Mid-Atlantic) to
    Brest from Wales, each route's fleets are necessary for their own route."""
    wal, bre = m.prov_index["WAL"], m.prov_index["BRE"]
    seas = ids(m, "ENG", "IRI", "MAO")
    assert provinces_on_routes(m, wal, bre, seas) == set(seas)
    assert necessary(m, wal, bre, m.prov_index["ENG"], seas)
    assert necessary(m, wal, bre, m.prov_index["MAO"], seas)


def test_a_fleet_beside_a_shortcut_is_on_a_route_but_not_necessary(m) -> None:
    """DATC 4.E.1: a fleet is necessary when it lies on a route without a shortcut. London
    to Brest: the Channel alone joins them; London - North Sea - Channel - Brest is a
    route too, but London touches the Channel, so the North Sea is not necessary."""
    lon, bre = m.prov_index["LON"], m.prov_index["BRE"]
    seas = ids(m, "ENG", "NTH")
    assert provinces_on_routes(m, lon, bre, seas) == set(seas)
    assert necessary(m, lon, bre, m.prov_index["ENG"], seas)
    assert not necessary(m, lon, bre, m.prov_index["NTH"], seas)


def test_the_fleets_connected_to_an_army_and_where_they_carry_it(m) -> None:
    seas = ids(m, "NTH", "NWG", "ADR")
    assert fleet_component(m, m.prov_index["LON"], seas) == ids(m, "NTH", "NWG")
    reach = fleet_reach(m, m.prov_index["LON"], seas)
    assert {"NWY", "DEN", "HOL", "BEL", "EDI", "YOR", "CLY"} <= {m.prov_abbr[p] for p in reach}
    assert m.prov_index["ALB"] not in reach  # the Adriatic fleet is not connected


@pytest.mark.parametrize("name", ["standard", "lad1890", "twentieth_century", "wita"])
def test_one_fleet_is_on_a_route_exactly_when_its_geometry_says_so(name: str) -> None:
    """provinces_on_routes answers a single fleet without building its geometry (a fleet
    next to both ends, neither end its own province): the same answer as the geometry's,
    for every fleet province and every pair of ends it could join, ports included."""
    m = variant_map(name)
    seas = [p for p in range(m.n_prov) if m.convoy_prov[p]]
    checked = 0
    for f in seas:
        ends = [p for p in range(m.n_prov) if m.convoy_touch_mask[p] >> f & 1 or p == f]
        for origin in ends:
            for dest in ends:
                if origin != dest:
                    want = set(routes_through(m, origin, dest, frozenset({f})))
                    assert provinces_on_routes(m, origin, dest, [f]) == want, (f, origin, dest)
                    checked += 1
    assert checked > 100
