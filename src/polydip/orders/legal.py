"""Legal orders of a position, as order strings in the diplomacy package's notation.

"Legal" follows DATC 4.E.1: an order that could be valid given the units on the board —
convoys and convoyed moves need a chain of fleets on the board, a support of a convoyed move
must not need the supporting fleet itself (6.D.31), a convoying fleet must be necessary for
some route (6.G.19).

Speed: everything that depends only on the map is built once per map and cached as tuples of
strings — a unit's holds and moves, and for each pair of unit placements the supports one
may give the other. Per position, only the lookups of who stands where, and the convoys, are
done.
"""

from __future__ import annotations

from functools import lru_cache

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.convoy import (
    fleet_component,
    necessary,
    provinces_on_routes,
    routes_through,
)
from polydip.geography.map import Map
from polydip.state import Position


class _Tables:
    """Per-map string tables, filled lazily."""

    __slots__ = ("conv", "m", "moves", "pair", "partners", "unit")

    def __init__(self, m: Map) -> None:
        self.m = m
        nk = len(m.kinds)
        self.unit = [[f"{k} {m.loc_name[loc]}" for loc in range(m.n_loc)] for k in m.kinds]
        self.moves = [
            [(f"{self.unit[k][loc]} H",) + tuple(
                f"{self.unit[k][loc]} - {m.loc_name[d]}" for d in m.adj[k][loc]
                if m.occupy[k][d])
             for loc in range(m.n_loc)]
            for k in range(nk)
        ]
        # placements (kind, loc) of units that can stand somewhere
        places = [(k, loc) for k in range(nk) for loc in range(m.n_loc) if m.occupy[k][loc]]
        # reach by province for each placement (moves without convoy)
        reach = {pl: m.reach_prov[pl[0]][pl[1]] for pl in places}
        by_prov: dict[int, list[tuple[int, int]]] = {}
        for pl in places:
            by_prov.setdefault(m.loc_prov[pl[1]], []).append(pl)
        # partners of a supporter: placements whose province or move targets it can reach
        self.partners: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}
        for pl in places:
            mine = reach[pl]
            own = m.loc_prov[pl[1]]
            cands = set()
            for q in mine:
                for other in by_prov.get(q, ()):
                    cands.add(other)
                for q2 in m.prov_neighbours[q]:
                    for other in by_prov.get(q2, ()):
                        if other[1] != pl[1] and (reach[other] & mine) - {own}:
                            cands.add(other)
            cands.discard(pl)
            self.partners[pl] = frozenset(cands)
        self.pair: dict[tuple[int, int, int, int], tuple[str, ...]] = {}
        self.conv: dict[tuple, tuple[str, ...]] = {}

    def via(self, us: str, p: int, entry: tuple) -> tuple[str, ...]:
        """"A X - Y VIA" orders of an army in province p, given its convoy table entry."""
        key = (us, entry[0])
        got = self.conv.get(key)
        if got is None:
            if len(self.conv) > 100_000:  # bound the memory of very long simulations
                self.conv.clear()
            abbr = self.m.prov_abbr
            got = self.conv[key] = tuple(f"{us} - {abbr[dp]} VIA" for dp in entry[1])
        return got

    def convoys(self, us: str, p: int, army: str, ap: int, entry: tuple) -> tuple[str, ...]:
        """Convoy orders a fleet `us` in province p may give the army `army` in ap."""
        key = (us, army, entry[0])
        got = self.conv.get(key)
        if got is None:
            if len(self.conv) > 100_000:
                self.conv.clear()
            m = self.m
            got = self.conv[key] = tuple(
                f"{us} C {army} - {m.prov_abbr[dp]}" for dp, route in entry[1].items()
                if p in route and necessary(m, ap, dp, p, entry[0]))
        return got

    def supports(self, k: int, loc: int, k2: int, loc2: int) -> tuple[str, ...]:
        """Supports a unit (k, loc) may give a unit (k2, loc2), moves without convoy."""
        key = (k, loc, k2, loc2)
        got = self.pair.get(key)
        if got is not None:
            return got
        m = self.m
        us, them = self.unit[k][loc], self.unit[k2][loc2]
        mine = m.reach_prov[k][loc]
        own = m.loc_prov[loc]
        out = []
        if m.loc_prov[loc2] in mine:
            out.append(f"{us} S {them}")
        for q in sorted(m.reach_prov[k2][loc2]):
            if q in mine and q != own:
                out.append(f"{us} S {them} - {m.prov_abbr[q]}")
        got = self.pair[key] = tuple(out)
        return got


@lru_cache(maxsize=64)
def _tables(m: Map) -> _Tables:
    return _Tables(m)


def legal_orders(m: Map, pos: Position, power: int | None = None,
                 options: dict | None = None) -> dict[str, list[str]]:
    """Unit (or build site) → list of legal orders, for one power or all."""
    if pos.phase.type == "M":
        out = _movement(m, pos, power)
        if m.rules:
            blocked = m.rules.blocked(m, pos, options or {})
            if blocked:
                _drop_closed(m, pos, blocked, out)
        return out
    if pos.phase.type == "R":
        return _retreats(m, pos, power)
    return _adjustments(m, pos, power)


def _movement(m: Map, pos: Position, power: int | None) -> dict[str, list[str]]:
    t = _tables(m)
    unit_s, moves, partners, supports = t.unit, t.moves, t.partners, t.supports
    loc_prov = m.loc_prov
    at = {u.loc: u for u in pos.units}
    placed = {(u.kind, u.loc) for u in pos.units}
    seas = {loc_prov[u.loc] for u in pos.units
            if m.kind_convoys[u.kind] and m.convoy_prov[loc_prov[u.loc]]}
    # convoyed moves: army province -> (fleet provinces that can carry it, destinations)
    convoys: dict[int, tuple[frozenset[int], dict[int, frozenset[int]]]] = {}
    if seas:
        for u in pos.units:
            p = loc_prov[u.loc]
            if m.kind_convoyed[u.kind] and m.convoy_touch[p]:
                comp, dests = _convoy_destinations(m, p, frozenset(seas))
                if dests:
                    convoys[p] = (comp, dests)
    into = _convoy_only(m, t, at, convoys) if convoys else {}
    out: dict[str, list[str]] = {}
    for u in pos.units:
        if power is not None and u.power != power:
            continue
        k, loc = u.kind, u.loc
        p = loc_prov[loc]
        us = unit_s[k][loc]
        lst = list(moves[k][loc])
        if p in convoys:
            lst.extend(t.via(us, p, convoys[p]))
        for k2, loc2 in partners[(k, loc)] & placed:
            lst.extend(supports(k, loc, k2, loc2))
        if convoys:
            if into:
                _convoy_supports(m, u, p, us, into, lst)
            if m.kind_convoys[k] and p in seas:
                for ap, entry in convoys.items():
                    if p in entry[0]:
                        a = at_prov(m, at, ap)
                        lst.extend(t.convoys(us, p, unit_s[a.kind][a.loc], ap, entry))
        out[us] = lst
    return out


def _drop_closed(m: Map, pos: Position, blocked: dict[int, set[tuple[int, int, int]]],
                 out: dict[str, list[str]]) -> None:
    """Remove moves and supports through passages closed to the unit's power."""
    for u in pos.units:
        closed = blocked.get(u.power)
        us = m.unit_str(u.kind, u.loc)
        if not closed or us not in out:
            continue
        shut = {m.loc_prov[d] for d in m.adj[u.kind][u.loc] if (u.kind, u.loc, d) in closed}
        if not shut:
            continue
        still = {m.loc_prov[d] for d in m.adj[u.kind][u.loc]
                 if (u.kind, u.loc, d) not in closed}
        gone = {m.prov_abbr[p] for p in shut - still}
        if not gone:
            continue

        out[us] = [o for o in out[us] if _keeps(o, gone)]


def _keeps(order: str, gone: set[str]) -> bool:
    """Does `order` avoid the provinces in `gone` (reachable only through a closed passage)?"""
    if " C " in order or order.endswith(" H"):
        return True
    if " S " in order:
        rest = order.split(" S ", 1)[1].split(" ")
        target = rest[3] if len(rest) == 4 else rest[1]
        return target.split("/")[0] not in gone
    dest = order.split(" - ", 1)[1].split(" ")[0].split("/")[0]
    return dest not in gone or order.endswith(" VIA")


def at_prov(m: Map, at: dict, prov: int):
    """The unit in province `prov` (on its province location or one of its coasts)."""
    u = at.get(prov)
    if u is None:
        for c in m.prov_coast_locs[prov]:
            u = at.get(c)
            if u is not None:
                break
    return u


def _convoy_only(m: Map, t: _Tables, at: dict, convoys: dict
                 ) -> dict[int, list[tuple[str, int, int, frozenset[int]]]]:
    """Destination → convoyed moves there that no army could make without a convoy:
    (army string, army province, destination, fleet provinces on its routes)."""
    into: dict[int, list[tuple[str, int, int, frozenset[int]]]] = {}
    for ap, (_comp, dests) in convoys.items():
        a = at_prov(m, at, ap)
        direct = m.reach_prov[a.kind][a.loc]
        army = t.unit[a.kind][a.loc]
        for dp, route in dests.items():
            if dp not in direct:
                into.setdefault(dp, []).append((army, ap, dp, route))
    return into


def _convoy_supports(m: Map, u, p: int, us: str,
                     into: dict[int, list[tuple[str, int, int, frozenset[int]]]],
                     lst: list[str]) -> None:
    """Supports of convoyed moves that could not be made without a convoy."""
    for q in m.reach_prov[u.kind][u.loc]:
        for army, ap, dp, route in into.get(q, ()):
            if ap == p or dp == p:
                continue
            if p in route and not _routes_without(m, ap, dp, route, p):
                continue  # every convoy goes through the supporter itself (6.D.31)
            lst.append(f"{us} S {army} - {m.prov_abbr[dp]}")


@lru_cache(maxsize=1 << 17)
def _routes_without(m: Map, origin: int, dest: int, route: frozenset[int], p: int) -> bool:
    return bool(provinces_on_routes(m, origin, dest, route - {p}))


def _convoy_destinations(m: Map, origin: int, seas: frozenset[int]
                         ) -> tuple[frozenset[int], dict[int, frozenset[int]]]:
    """The fleet provinces connected to `origin`, and for each province an army there could
    reach through them, the fleet provinces on some route there."""
    comp = fleet_component(m, origin, seas)
    if not comp:
        return frozenset(), {}
    return comp, _convoy_table(m, origin, comp)


@lru_cache(maxsize=1 << 14)
def _convoy_table(m: Map, origin: int, comp: frozenset[int]) -> dict[int, frozenset[int]]:
    army = m.army
    dests = sorted({q for s in comp for q in m.convoy_shore[s]
                    if q != origin and m.occupy[army][q]})
    return {q: routes_through(m, origin, q, comp) for q in dests}


def _retreats(m: Map, pos: Position, power: int | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for d in pos.dislodged:
        if power is not None and d.power != power:
            continue
        us = m.unit_str(d.kind, d.loc)
        out[us] = [f"{us} R {m.loc_name[r]}" for r in d.retreats] + [f"{us} D"]
    return out


def _adjustments(m: Map, pos: Position, power: int | None) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    counts = adjustment_counts(m, pos)
    for pw in range(len(m.powers)) if power is None else [power]:
        delta = counts[pw]
        if delta > 0:
            for prov in build_sites(m, pos, pw):
                opts = []
                for k in range(len(m.kinds)):
                    if m.rules and not m.rules.may_build(m, pos, pw, k, prov):
                        continue
                    if m.kind_coastal[k] and m.prov_coast_locs[prov]:
                        locs = [c for c in m.prov_coast_locs[prov] if m.occupy[k][c]]
                    else:
                        locs = [prov] if m.occupy[k][prov] else []
                    opts += [f"{m.kinds[k]} {m.loc_name[c]} B" for c in locs]
                out[m.prov_abbr[prov]] = [*opts, "WAIVE"]
        elif delta < 0:
            for u in pos.units:
                if u.power == pw:
                    us = m.unit_str(u.kind, u.loc)
                    out[us] = [f"{us} D"]
    return out
