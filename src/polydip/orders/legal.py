"""Legal orders of a position, as order strings in the diplomacy package's notation.

"Legal" follows DATC 4.E.1: an order that could be valid given the units on the board —
convoys and convoyed moves need a chain of fleets on the board, a support of a convoyed move
must not need the supporting fleet itself (6.D.31), a convoying fleet must be necessary for
some route (6.G.19). Strings of moves per (kind, location) are built once per map and cached;
per position only supports and convoys are assembled.
"""

from __future__ import annotations

from functools import lru_cache

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.convoy import geometric_route, provinces_on_routes
from polydip.geography.map import Map
from polydip.state import Position


@lru_cache(maxsize=64)
def _static(m: Map) -> tuple[list[list[str]], list[list[tuple[str, ...]]]]:
    """Per (kind, loc): the unit string, and its move/hold order strings."""
    unit = [[f"{k} {m.loc_name[loc]}" for loc in range(m.n_loc)] for k in m.kinds]
    moves = [
        [(f"{unit[k][loc]} H",) + tuple(f"{unit[k][loc]} - {m.loc_name[d]}"
                                        for d in m.adj[k][loc] if m.occupy[k][d])
         for loc in range(m.n_loc)]
        for k in range(len(m.kinds))
    ]
    return unit, moves


def legal_orders(m: Map, pos: Position, power: int | None = None) -> dict[str, list[str]]:
    """Unit (or build site) → list of legal orders, for one power or all."""
    if pos.phase.type == "M":
        return _movement(m, pos, power)
    if pos.phase.type == "R":
        return _retreats(m, pos, power)
    return _adjustments(m, pos, power)


def _movement(m: Map, pos: Position, power: int | None) -> dict[str, list[str]]:
    unit_s, moves = _static(m)
    units = pos.units
    loc_prov = m.loc_prov
    occ = {loc_prov[u.loc]: u for u in units}
    seas = {loc_prov[u.loc] for u in units
            if m.kind_convoys[u.kind] and m.convoy_prov[loc_prov[u.loc]]}
    # convoyed moves possible for each convoyable unit: dest province -> route provinces
    convoy_dests: dict[int, dict[int, set[int]]] = {}
    if seas:
        for u in units:
            p = loc_prov[u.loc]
            if m.kind_convoyed[u.kind] and m.convoy_touch[p]:
                d = _convoy_destinations(m, p, seas)
                if d:
                    convoy_dests[p] = d
    # every move any unit may make, by destination province: (unit string, dest, route seas)
    into: dict[int, list[tuple[str, int, int, frozenset[int] | None]]] = {}
    for u in units:
        k, loc = u.kind, u.loc
        us = unit_s[k][loc]
        for d in m.adj[k][loc]:
            if m.occupy[k][d]:
                into.setdefault(loc_prov[d], []).append((us, loc_prov[loc], loc_prov[d], None))
        for dp, route in convoy_dests.get(loc_prov[loc], {}).items():
            if dp not in m.reach_prov[k][loc]:
                into.setdefault(dp, []).append((us, loc_prov[loc], dp, frozenset(route)))
    out: dict[str, list[str]] = {}
    for u in units:
        if power is not None and u.power != power:
            continue
        k, loc = u.kind, u.loc
        p = loc_prov[loc]
        us = unit_s[k][loc]
        lst = list(moves[k][loc])
        for dp in convoy_dests.get(p, {}):
            lst.append(f"{us} - {m.prov_abbr[dp]} VIA")
        reach = m.reach_prov[k][loc]
        for q in reach:
            v = occ.get(q)
            if v is not None:
                lst.append(f"{us} S {unit_s[v.kind][v.loc]}")
            seen = set()
            for other, op, dp, route in into.get(q, ()):
                if other == us or other in seen:
                    continue
                if (route is not None and p in route
                        and not provinces_on_routes(m, op, dp, route - {p})):
                    continue  # every convoy goes through the supporter itself (6.D.31)
                seen.add(other)
                lst.append(f"{us} S {other} - {m.prov_abbr[dp]}")
        if m.kind_convoys[k] and m.convoy_prov[p] and p in seas:
            for ap, dests in convoy_dests.items():
                a = occ[ap]
                for dp, route in dests.items():
                    if p in route and geometric_route(m, ap, dp, p):
                        lst.append(f"{us} C {unit_s[a.kind][a.loc]} - {m.prov_abbr[dp]}")
        out[us] = lst
    return out


def _convoy_destinations(m: Map, origin: int, seas: set[int]) -> dict[int, set[int]]:
    """Provinces an army in `origin` could reach through the fleets in `seas`, each with the
    fleet provinces on some route there."""
    touch = m.convoy_touch
    comp = set()
    stack = [s for s in touch[origin] if s in seas]
    comp.update(stack)
    while stack:
        s = stack.pop()
        for t in touch[s]:
            if t in seas and t not in comp:
                comp.add(t)
                stack.append(t)
    if not comp:
        return {}
    army = m.army
    dests: dict[int, set[int]] = {}
    candidates = {q for s in comp for q in m.convoy_shore[s]}
    for q in candidates:
        if q == origin or m.convoy_prov[q] or not m.occupy[army][q]:
            continue
        route = provinces_on_routes(m, origin, q, comp)
        if route:
            dests[q] = route
    return dests


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
                    if m.kind_coastal[k] and m.prov_coast_locs[prov]:
                        locs = [c for c in m.prov_coast_locs[prov] if m.occupy[k][c]]
                    else:
                        locs = [prov] if m.occupy[k][prov] else []
                    opts += [f"{m.kinds[k]} {m.loc_name[c]} B" for c in locs]
                out[m.prov_abbr[prov]] = opts + ["WAIVE"]
        elif delta < 0:
            for u in pos.units:
                if u.power == pw:
                    us = m.unit_str(u.kind, u.loc)
                    out[us] = [f"{us} D"]
    return out
