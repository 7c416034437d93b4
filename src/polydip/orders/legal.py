"""Legal orders of a position, as order strings in the diplomacy package's notation.

"Legal" follows DATC 4.E.1: an order that could be valid given the units on the board —
convoys and convoyed moves need a chain of fleets on the board, a support of a convoyed move
must not need the supporting fleet itself (6.D.31), a convoying fleet must be necessary for
some route (6.G.19). The checks are those the adjudicator applies
(adjudication/legality.py): every order listed here is accepted by it, and every order it
accepts is listed (tests/test_legality.py checks both on random positions of every variant).
Units a rule holds (neutral units) have no orders; passages a rule closes are left out, and
so are moves a rule forbids a unit now (`move_limits`) and supports the map's rules forbid
(Map.support_reach, Map.no_hold_support).

Speed: everything that depends only on the map is built once per map and cached as tuples of
strings — a unit's holds and moves, and for each pair of unit placements the supports one
may give the other. Per position, only the lookups of who stands where, and the convoys, are
done.
"""

from __future__ import annotations

from functools import lru_cache

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.convoy import fleet_component, routes_through
from polydip.adjudication.legality import (
    Closed,
    Limits,
    closed_passages,
    convoy_reach,
    convoy_seas,
    limited,
    may_convoy,
    may_support_hold,
    move_limits,
    move_locs,
    route_without,
    support_reach,
)
from polydip.geography.map import Map
from polydip.state import Position, Unit


class _Tables:
    """Per-map string tables, filled lazily."""

    __slots__ = ("conv", "m", "moves", "pair", "partners", "unit")

    def __init__(self, m: Map) -> None:
        self.m = m
        nk = len(m.kinds)
        self.unit = [[f"{k} {m.loc_name[loc]}" for loc in range(m.n_loc)] for k in m.kinds]
        self.moves = [
            [(f"{self.unit[k][loc]} H",) + tuple(
                f"{self.unit[k][loc]} - {m.loc_name[d]}" for d in m.move_locs[k][loc])
             for loc in range(m.n_loc)]
            for k in range(nk)
        ]
        # placements (kind, loc) of units that can stand somewhere
        places = [(k, loc) for k in range(nk) for loc in range(m.n_loc) if m.occupy[k][loc]]
        # reach by province for each placement (moves without convoy), and the provinces it
        # may support into (fewer, where the map's rules forbid some supports)
        reach = {pl: m.reach_prov[pl[0]][pl[1]] for pl in places}
        sreach = {pl: m.support_reach[pl[0]][pl[1]] for pl in places}
        by_prov: dict[int, list[tuple[int, int]]] = {}
        for pl in places:
            by_prov.setdefault(m.loc_prov[pl[1]], []).append(pl)
        # partners of a supporter: placements whose province or move targets it can reach
        self.partners: dict[tuple[int, int], frozenset[tuple[int, int]]] = {}
        for pl in places:
            mine = sreach[pl]
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

    def via(self, us: str, entry: tuple) -> tuple[str, ...]:
        """"A X - Y VIA" orders of an army, given its convoy table entry."""
        key = (us, entry[2])
        got = self.conv.get(key)
        if got is None:
            if len(self.conv) > 100_000:  # bound the memory of very long simulations
                self.conv.clear()
            abbr = self.m.prov_abbr
            got = self.conv[key] = tuple(f"{us} - {abbr[dp]} VIA" for dp in entry[1])
        return got

    def convoys(self, us: str, k: int, p: int, army: Unit, entry: tuple,
                seas: frozenset[int]) -> tuple[str, ...]:
        """Convoy orders a fleet `us` (kind k) in province p may give `army`."""
        key = (us, self.unit[army.kind][army.loc], entry[2])
        got = self.conv.get(key)
        if got is None:
            if len(self.conv) > 100_000:
                self.conv.clear()
            m = self.m
            ap = m.loc_prov[army.loc]
            got = self.conv[key] = tuple(
                f"{us} C {key[1]} - {m.prov_abbr[dp]}" for dp, route in entry[1].items()
                if p in route and may_convoy(m, k, p, army.kind, ap, dp, seas))
        return got

    def supports(self, k: int, loc: int, k2: int, loc2: int) -> tuple[str, ...]:
        """Supports a unit (k, loc) may give a unit (k2, loc2), moves without convoy."""
        key = (k, loc, k2, loc2)
        got = self.pair.get(key)
        if got is None:
            m = self.m
            got = self.pair[key] = _supports(m, self.unit[k][loc], self.unit[k2][loc2],
                                             m.support_reach[k][loc], m.loc_prov[loc],
                                             m.loc_prov[loc2], m.reach_prov[k2][loc2], k2)
        return got


def _supports(m: Map, us: str, them: str, mine: frozenset[int], own: int, their_prov: int,
              theirs: frozenset[int], their_kind: int) -> tuple[str, ...]:
    """Supports `us` (supporting into the provinces `mine`, standing in `own`) may give
    `them` (a unit of `their_kind` standing in `their_prov`, moving over an edge into the
    provinces `theirs`)."""
    out = []
    if their_prov in mine and may_support_hold(m, their_kind, their_prov):
        out.append(f"{us} S {them}")
    for q in sorted(theirs):
        if q in mine and q != own:
            out.append(f"{us} S {them} - {m.prov_abbr[q]}")
    return tuple(out)


@lru_cache(maxsize=64)
def _tables(m: Map) -> _Tables:
    return _Tables(m)


def legal_orders(m: Map, pos: Position, power: int | None = None,
                 options: dict | None = None) -> dict[str, list[str]]:
    """Unit (or build site) → list of legal orders, for one power or all."""
    if pos.phase.type == "M":
        if not m.rules:
            return _movement(m, pos, power, {}, {})
        return _movement(m, pos, power, closed_passages(m, pos, options),
                         move_limits(m, pos))
    if pos.phase.type == "R":
        return _retreats(m, pos, power)
    return _adjustments(m, pos, power)


def _movement(m: Map, pos: Position, power: int | None, closed: Closed, limits: Limits
              ) -> dict[str, list[str]]:
    t = _tables(m)
    unit_s, moves, partners, supports = t.unit, t.moves, t.partners, t.supports
    loc_prov, support_prov = m.loc_prov, m.support_reach
    holds = m.rules.unit_holds if m.rules and m.rules.has_holds else None
    # units a rule holds: no orders of their own, supported only in holding, never convoyed
    held_units = {u for u in pos.units if holds(m, pos, u)} if holds else set()
    at = {u.loc: u for u in pos.units}
    placed = {(u.kind, u.loc) for u in pos.units}
    seas = convoy_seas(m, pos.units, pos)
    # convoyed moves: army province -> (fleet provinces that can carry it, destinations and
    # the fleet provinces on their routes, what the string caches key them by)
    convoys: dict[int, tuple[frozenset[int], dict[int, frozenset[int]], object]] = {}
    if seas:
        for u in pos.units:
            p = loc_prov[u.loc]
            if (m.kind_convoyed[u.kind] and m.convoy_touch[p]
                    and not (held_units and u in held_units)):
                comp = fleet_component(m, p, seas)
                dests = _convoy_table(m, u.kind, p, comp) if comp else {}
                tag: object = comp
                if limits and (u.power, u.kind, u.loc) in limits:
                    dests = {q: r for q, r in dests.items()
                             if not limited(limits, u.power, u.kind, u.loc, q)}
                    tag = (comp, tuple(dests))
                if dests:
                    convoys[p] = (comp, dests, tag)
    into = _convoy_only(m, at, convoys, closed) if convoys else {}
    # passages closed, moves limited, units held, open spaces: the general (slower) path
    special = (_Special(m, pos, closed, limits, held_units)
               if closed or limits or held_units or m.has_open_spaces else None)
    out: dict[str, list[str]] = {}
    for u in pos.units:
        if power is not None and u.power != power:
            continue
        k, loc = u.kind, u.loc
        p = loc_prov[loc]
        us = unit_s[k][loc]
        if special is None:
            mine = support_prov[k][loc]
            lst = list(moves[k][loc])
            if p in convoys:
                lst.extend(t.via(us, convoys[p]))
            for k2, loc2 in partners[(k, loc)] & placed:
                lst.extend(supports(k, loc, k2, loc2))
        else:
            if u in held_units:
                continue  # orders for it are refused
            mine, lst = special.orders(u, us, p, convoys.get(p), partners[(k, loc)] & placed)
        if convoys:
            if into:
                _convoy_supports(m, us, p, mine, into, seas, lst)
            if m.kind_convoys[k] and p in seas:
                for ap, entry in convoys.items():
                    if p in entry[0]:
                        lst.extend(t.convoys(us, k, p, at_prov(m, at, ap), entry, seas))
        out[us] = lst
    return out


class _Special:
    """Moves and supports of a unit when a rule closes passages, limits where units may
    move, holds units, or lets several units share an open space."""

    def __init__(self, m: Map, pos: Position, closed: Closed, limits: Limits,
                 held_units: set[Unit]) -> None:
        self.m, self.pos, self.closed, self.limits = m, pos, closed, limits
        self.held_units = held_units
        self.t = _tables(m)
        # places of held units (unless a unit not held shares one, in an open space)
        self.held = ({(u.kind, u.loc) for u in held_units}
                     - {(u.kind, u.loc) for u in pos.units if u not in held_units})
        # the units on each place that may move (several in an open space)
        self.movers: dict[tuple[int, int], list[Unit]] = {}
        for u in pos.units:
            if u not in held_units:
                self.movers.setdefault((u.kind, u.loc), []).append(u)

    def orders(self, u: Unit, us: str, p: int, convoy: tuple | None,
               partners: set[tuple[int, int]]) -> tuple[frozenset[int], list[str]]:
        m, t, closed, limits = self.m, self.t, self.closed, self.limits
        k, loc = u.kind, u.loc
        mine = support_reach(m, k, loc, u.power, closed)
        lst = [f"{us} H"] + [f"{us} - {m.loc_name[d]}"
                             for d in move_locs(m, k, loc, u.power, closed)
                             if not limited(limits, u.power, k, loc, m.loc_prov[d])]
        if convoy is not None:
            lst.extend(t.via(us, convoy))
        for pl in partners:
            them = t.unit[pl[0]][pl[1]]
            there = m.loc_prov[pl[1]]
            if pl in self.held:
                if there in mine and may_support_hold(m, pl[0], there):
                    lst.append(f"{us} S {them}")
            else:
                theirs = frozenset().union(*(_moves_into(m, v, closed, limits)
                                             for v in self.movers[pl] if v is not u))
                lst.extend(_supports(m, us, them, mine, p, there, theirs, pl[0]))
        if m.open_space[p]:
            # in an open space, another unit of the same kind stands on the same place
            for v in self.pos.units:
                if v is not u and v.loc == loc and v.kind == k and v not in self.held_units:
                    lst.extend(_supports(m, us, us, mine, p, p,
                                         _moves_into(m, v, closed, limits), k))
        return mine, lst


def _moves_into(m: Map, v: Unit, closed: Closed, limits: Limits) -> frozenset[int]:
    """The provinces unit `v` may move into over an edge now."""
    if closed and closed.get(v.power):
        reach = frozenset(m.loc_prov[d] for d in move_locs(m, v.kind, v.loc, v.power, closed))
    else:
        reach = m.reach_prov[v.kind][v.loc]
    allowed = limits.get((v.power, v.kind, v.loc)) if limits else None
    return reach if allowed is None else reach & allowed


def at_prov(m: Map, at: dict, prov: int):
    """The unit in province `prov` (on its province location or one of its coasts)."""
    u = at.get(prov)
    if u is None:
        for c in m.prov_coast_locs[prov]:
            u = at.get(c)
            if u is not None:
                break
    return u


def _convoy_only(m: Map, at: dict, convoys: dict, closed: Closed
                 ) -> dict[int, list[tuple[str, int, int, frozenset[int]]]]:
    """Destination → convoyed moves there that the army could not make without a convoy
    (not adjacent, or over an edge closed to it now): (army string, army province,
    destination, fleet provinces on its routes)."""
    into: dict[int, list[tuple[str, int, int, frozenset[int]]]] = {}
    for ap, (_comp, dests, _k) in convoys.items():
        a = at_prov(m, at, ap)
        direct = _moves_into(m, a, closed, {}) if closed else m.reach_prov[a.kind][a.loc]
        army = m.unit_str(a.kind, a.loc)
        for dp, route in dests.items():
            if dp not in direct:
                into.setdefault(dp, []).append((army, ap, dp, route))
    return into


def _convoy_supports(m: Map, us: str, p: int, mine: frozenset[int],
                     into: dict[int, list[tuple[str, int, int, frozenset[int]]]],
                     seas: frozenset[int], lst: list[str]) -> None:
    """Supports of convoyed moves that could not be made without a convoy, and not only by
    a convoy through the supporter itself (DATC 6.D.31; a supporter on no route of the
    move cannot be needed by it)."""
    for q in mine:
        for army, ap, dp, route in into.get(q, ()):
            # (a route set that is empty means no chain of fleets at all: ask)
            if ap != p and dp != p and ((route and p not in route)
                                        or route_without(m, ap, dp, seas, p)):
                lst.append(f"{us} S {army} - {m.prov_abbr[dp]}")


@lru_cache(maxsize=1 << 14)
def _convoy_table(m: Map, kind: int, origin: int, comp: frozenset[int]
                  ) -> dict[int, frozenset[int]]:
    """For each province an army of `kind` in `origin` could be convoyed to through the
    fleet provinces `comp` (connected to it), the fleet provinces on some route there."""
    return {q: routes_through(m, origin, q, comp)
            for q in sorted(convoy_reach(m, kind, origin, comp))}


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
