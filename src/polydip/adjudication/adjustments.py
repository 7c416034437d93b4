"""Adjustment phase: builds on vacant owned home centers, removals, civil disorder.

Orders of a power are executed one by one in the order given (DATC 4.D.4–4.D.6): builds
beyond the number allowed, a second build in one province and removals beyond the number
required fail. A power that removes fewer units than it must is put in civil disorder for the
rest (DATC 4.D.8, the 2023 rulebook by default). A unit is built only where a unit of its
kind may stand (the map's occupy table; reason cannot_stand): Latin American Diplomacy's
flotilla builds "on any Home or Capital Supply Center which is a coastal province" are read
so (the option flotilla_builds names the other reading and refuses it, options.py).
"""

from __future__ import annotations

from collections import deque
from typing import ClassVar, Final

from polydip.adjudication import reasons as R
from polydip.geography.map import Map
from polydip.orders.model import BUILD, DISBAND, WAIVE, Order
from polydip.state import Position, Record, Unit, unit_cache, unit_index

VOID: Final = "void"
# the bound of the center counts kept per map (centers_per_power): owner lists of 75
# provinces take about 700 bytes each
_OWNERS_KEPT: Final = 2048


class AdjustmentResult(Record):
    """What an adjustment phase did: the units after it, the results per power ((order,
    result words) each) and per power the units removed by civil disorder. A plain class
    rather than a dataclass (compiled, a dataclass is still made through the interpreted
    __init__ the dataclasses module writes); compared by value, unhashable, like the
    dataclass it was."""

    __slots__ = ("reasons", "removed", "results", "units")
    _fields: ClassVar[tuple[str, ...]] = ("units", "results", "removed")

    def __init__(self, units: list[Unit], results: list[list[tuple[Order, list[str]]]],
                 removed: list[list[Unit]],
                 reasons: list[list[R.Reason | None]] | None = None) -> None:
        self.units = units
        self.results = results  # per power: (order, result words)
        self.removed = removed  # per power: units removed by civil disorder
        # per power, beside `results`: why each order that failed did (None: it did not);
        # not part of the value (two results are equal by what they did)
        self.reasons: list[list[R.Reason | None]] = (
            [[None] * len(r) for r in results] if reasons is None else reasons)


def adjustment_counts(m: Map, pos: Position) -> list[int]:
    """Per power: centers (by their value: a capital worth 2 supports two units) minus units
    (positive = builds allowed, negative = removals due)."""
    counts = centers_per_power(m, pos.owners)
    for u in pos.units:
        counts[u.power] -= 1
    for p, neutral in enumerate(m.power_neutral):
        if neutral:  # a neutral power neither builds nor removes
            counts[p] = 0
    return counts


def centers_per_power(m: Map, owners: list[int]) -> list[int]:
    """Centers per power (`owners`: the owner of each province, -1 for none), counted by
    value where the variant gives centers values (a capital worth 2 counts twice);
    neutral powers count none. A new list each call; the counts are kept per map by
    owners (positions share them until centers change hands, and a loop over every
    province costs more than reading them back)."""
    key = tuple(owners)
    memo = m.caches.center_counts
    got = memo.get(key)
    if got is None:
        if len(memo) >= _OWNERS_KEPT:
            memo.clear()
        got = memo[key] = _count_centers(m, owners)
    return list(got)


def _count_centers(m: Map, owners: list[int]) -> list[int]:
    counts = [0] * len(m.powers)
    if m.has_center_values:
        value = m.sc_value
        for p, o in enumerate(owners):
            if o >= 0:
                counts[o] += value[p]
    else:  # (one loop: list.count per power compares every province once per power,
        # three times the work in the interpreter)
        for o in owners:
            if o >= 0:
                counts[o] += 1
    for p, neutral in enumerate(m.power_neutral):
        if neutral:
            counts[p] = 0
    return counts


def build_sites(m: Map, pos: Position, power: int, extra: bool = True) -> list[int]:
    """Provinces where `power` may build now: by default its owned, vacant home centers; a
    build-site rule of the variant may say otherwise (rules/build_sites.py), and rules may
    add sites where only some of the builds may go (`site_groups`; `extra` False leaves
    them out)."""
    sites = m.rules.build_sites(m, pos, power)
    if sites is None:
        # (the unit in each province: kept per units list, so the powers' calls share it)
        occupant = unit_index(m, pos.units)[0]
        homes = pos.homes[power] if pos.homes else m.homes[power]
        owners = pos.owners
        sites = [p for p in homes if owners[p] == power and occupant[p] < 0]
    groups = m.rules.extra_build_sites(m, pos, power) if extra else []
    if not groups:
        return sites
    out, seen = list(sites), set(sites)
    for group, _ in groups:
        for p in group:
            if p not in seen:
                seen.add(p)
                out.append(p)
    return out


def site_groups(m: Map, pos: Position, power: int
                ) -> tuple[list[int], list[tuple[list[int], int]]]:
    """The usual build sites of `power` now, and the groups of further sites rules add, each
    with how many builds may go there (Latin American Diplomacy's one build off the centers
    in years ending 0 or 5: rules/territory_builds.py)."""
    groups = m.rules.extra_build_sites(m, pos, power)
    return build_sites(m, pos, power, extra=False), groups


def build_room(m: Map, pos: Position, power: int) -> int:
    """How many units `power` could build now at most, sites allowing: each usual site one,
    each group of further sites as many as it allows."""
    usual, groups = site_groups(m, pos, power)
    room, taken = len(usual), set(usual)
    for g, n in groups:
        free = set(g) - taken
        k = min(n, len(free))
        room += k
        taken |= set(sorted(free)[:k])
    return room


class _FreeSites:
    """The build sites a power has left as its builds are carried out one by one: a usual
    site takes one build, a site of a group also uses one of the group's builds."""

    def __init__(self, usual: list[int], groups: list[tuple[list[int], int]]) -> None:
        self.usual = set(usual)
        # per group: its sites (but the usual ones), and how many builds it has left
        self.sites: list[set[int]] = [set(g) - self.usual for g, _n in groups]
        self.left: list[int] = [n for _g, n in groups]

    def free(self) -> set[int]:
        out = set(self.usual)
        for g, n in zip(self.sites, self.left, strict=True):
            if n > 0:
                out |= g
        return out

    def take(self, prov: int) -> None:
        if prov in self.usual:
            self.usual.discard(prov)
        else:
            for i, g in enumerate(self.sites):
                if prov in g and self.left[i] > 0:
                    self.left[i] -= 1
                    break
        for g in self.sites:
            g.discard(prov)


def build_problem(m: Map, pos: Position, power: int, o: Order,
                  sites: set[int] | None = None) -> str | None:
    """Why the build order `o` of `power` cannot be carried out, in words; None when it can.
    `sites`: the build sites still free (default: all of them, as the phase begins)."""
    why = build_reason(m, pos, power, o, sites)
    return why.words if why is not None else None


def build_reason(m: Map, pos: Position, power: int, o: Order,
                 sites: set[int] | None = None) -> R.Reason | None:
    """build_problem as a reason code and words."""
    if o.act:  # a build of something else (a canal): the rule judges it with all orders
        return None
    if o.kind is None:
        return R.reason(R.KIND_NEEDED, f"say what to build ({' or '.join(m.kinds)})")
    prov = m.loc_prov[o.loc]
    name = m.prov_name[prov]
    if sites is None:
        sites = set(build_sites(m, pos, power))
    if prov not in sites:
        return _not_a_site(m, pos, power, prov, sites)
    loc = build_loc(m, pos, o.kind, o.loc)
    kind = m.kind_names[o.kind]
    if loc < 0:
        coasts = ", ".join(m.loc_name[c] for c in m.prov_coast_locs[prov])
        return R.reason(R.COAST_NEEDED,
                        f"say on which coast of {name} to build the {kind} ({coasts})")
    if not m.occupy[o.kind][loc]:
        return R.reason(R.CANNOT_STAND,
                        f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} cannot stand in {name}")
    if m.rules.may_build(m, pos, power, o.kind, prov) is False:
        return R.reason(R.BUILD_FORBIDDEN, f"the variant's rules allow no {kind} in {name} now")
    return None


def build_loc(m: Map, pos: Position, kind: int, loc: int) -> int:
    """Where a unit of `kind` built on `loc` stands (Map.unit_loc): in a porous province (the
    rules' `porous`: an open canal's) a build naming no coast takes the lowest coast the
    unit may stand on; -1 when a coast must be named."""
    got = m.unit_loc(kind, loc)
    if got < 0 and loc == m.loc_prov[loc] and loc in m.rules.porous(m, pos):
        return next((c for c in m.prov_coast_locs[loc] if m.occupy[kind][c]), -1)
    return got


def adjustment_problem(m: Map, pos: Position, power: int, o: Order,
                       counts: list[int] | None = None, given: list[Order] | None = None
                       ) -> str | None:
    """Why an adjustment order cannot be carried out now (refused when it is given), or
    None. The adjudication itself still judges the orders in the order given. `counts`:
    adjustment_counts of `pos`, when the caller has them; `given`: the power's orders
    already kept this phase (a canal build beyond what the canal still needs is refused)."""
    delta = (adjustment_counts(m, pos) if counts is None else counts)[power]
    who = m.powers[power]
    if o.type == BUILD:
        if delta <= 0:
            return f"{who} has no builds this phase"
        if o.act:  # (a build with an act counts only through a rule: a canal build)
            return (m.rules.act_problem(m, pos, power, o, given or [])
                    if m.rules.implements("adjustment_acts")
                    else f"this variant has no {o.act} to build")
        return build_problem(m, pos, power, o)
    if o.type == WAIVE:
        return None if delta > 0 else f"{who} has no builds to waive"
    if o.type == DISBAND:
        prov = m.loc_prov[o.loc]
        if not any(u.power == power and m.loc_prov[u.loc] == prov for u in pos.units):
            return f"{who} has no unit in {m.prov_name[prov]}"
        if delta >= 0:
            return f"{who} has no units to remove this phase"
        return None
    return "not an order for an adjustment phase"


def _not_a_site(m: Map, pos: Position, power: int, prov: int, sites: set[int]) -> R.Reason:
    name = m.prov_name[prov]
    free = ", ".join(sorted(m.prov_abbr[s] for s in sites)) or "none"
    code: R.ReasonCode
    # (the reason that would stand were the others gone first: another power's center is
    # no site of this one's even empty, so that is said before "occupied")
    if not m.is_sc[prov]:
        code, why = R.NOT_A_CENTER, f"{name} is not a supply center"
    elif pos.owners[prov] != power:
        owner = pos.owners[prov]
        code = R.NOT_OWNED
        why = f"{name} belongs to {m.powers[owner]}" if owner >= 0 else f"{name} is neutral"
    elif any(m.loc_prov[u.loc] == prov for u in pos.units):
        code, why = R.SITE_OCCUPIED, f"{name} is occupied"
    else:
        code, why = R.NOT_A_BUILD_SITE, f"{name} is not a build site of {m.powers[power]} now"
    return R.reason(code, f"{why} (build sites: {free})")


def resolve_adjustments(m: Map, pos: Position, orders: list[list[Order]],
                        options: dict | None = None) -> AdjustmentResult:
    options = options or {}
    counts = adjustment_counts(m, pos)
    units = list(pos.units)
    kept = len(units)  # units[:kept] are the position's (the units built come after them)
    results: list[list[tuple[Order, list[str]]]] = [[] for _ in m.powers]
    removed_cd: list[list[Unit]] = [[] for _ in m.powers]
    why: list[list[R.Reason | None]] = [[] for _ in m.powers]
    # build orders with an act (a canal build) that a rule counts, by (power, index)
    acts = (m.rules.adjustment_acts(m, pos, orders)
            if any(o.act for lst in orders for o in lst) else set())
    for power in range(len(m.powers)):
        delta = counts[power]
        free: set[int] = set()
        limited = None  # the sites only some builds may use, when a rule adds them
        if delta > 0:
            usual, groups = site_groups(m, pos, power)
            free = set(usual)
            limited = _FreeSites(usual, groups) if groups else None
        done = 0
        for i, o in enumerate(orders[power] if power < len(orders) else []):
            ok = False
            if delta > 0 and done < delta:
                if o.type == WAIVE:
                    ok = True
                elif o.act:  # in place of a build (a canal build)
                    ok = (power, i) in acts
                elif (o.type == BUILD and o.kind is not None and build_problem(
                        m, pos, power, o, free if limited is None else limited.free()) is None):
                    units.append(unit_cache(m).unit(power, o.kind,
                                                    build_loc(m, pos, o.kind, o.loc)))
                    if limited is None:
                        free.discard(m.loc_prov[o.loc])
                    else:
                        limited.take(m.loc_prov[o.loc])
                    ok = True
            elif delta < 0 and done < -delta and o.type == DISBAND:
                prov = m.loc_prov[o.loc]
                for i in range(kept):  # (a unit of the position, not one built now)
                    u = units[i]
                    if u.power == power and m.loc_prov[u.loc] == prov:
                        del units[i]
                        kept -= 1
                        ok = True
                        break
            if ok:
                done += 1
            results[power].append((o, [] if ok else [VOID]))
            why[power].append(None if ok else _why_void(
                m, pos, power, o, delta, done, free if limited is None else limited.free()))
        if delta < 0 and done < -delta:
            mine = [u for u in units if u.power == power]
            order = civil_disorder_order(m, pos, power, mine,
                                         options.get("civil_disorder", "2023"))
            for u in order[: -delta - done]:
                units.remove(u)  # (a unit of the position: the power built none)
                kept -= 1
                removed_cd[power].append(u)
    return AdjustmentResult(units, results, removed_cd, why)


def _why_void(m: Map, pos: Position, power: int, o: Order, delta: int, done: int,
              free: set[int]) -> R.Reason:
    """Why an adjustment order of `power` failed, `done` of its `delta` adjustments made
    before it, `free` the build sites still free."""
    who = m.powers[power]
    if o.type in (BUILD, WAIVE):
        if delta <= 0:
            return R.reason(R.NO_BUILDS, f"{who} has no builds this phase")
        if done >= delta:
            return R.reason(R.NO_BUILDS, f"{who} has made all its {delta} build(s)")
        if o.act:
            return R.reason(R.ACT_NOT_COUNTED)
        got = build_reason(m, pos, power, o, free)
        if got is not None and got.code == R.NOT_A_BUILD_SITE and \
                m.loc_prov[o.loc] in build_sites(m, pos, power):
            return R.reason(R.SITE_TAKEN, f"{m.prov_name[m.loc_prov[o.loc]]} was built on "
                                          "by an earlier order")
        return got or R.reason(R.NO_BUILDS)
    if o.type == DISBAND:
        if delta >= 0:
            return R.reason(R.NO_REMOVALS, f"{who} has no units to remove this phase")
        if done >= -delta:
            return R.reason(R.NO_REMOVALS, f"{who} has made all its {-delta} removal(s)")
        return R.reason(R.NO_UNIT, f"{who} has no unit in "
                                   f"{m.prov_name[m.loc_prov[o.loc]]}")
    return R.reason(R.WRONG_PHASE)


def civil_disorder_order(m: Map, pos: Position, power: int, units: list[Unit],
                         rule: str = "2023") -> list[Unit]:
    """The units of a power in the order civil disorder removes them."""
    if rule == "1982":
        homes = list(pos.homes[power] if pos.homes else m.homes[power])
        return sorted(units, key=lambda u: (
            -_distance_1982(m, u, homes), m.kind_coastal[u.kind] is False,
            m.prov_name[m.loc_prov[u.loc]].lower()))
    owned = pos.centers_of(power)
    dist = m.distances(owned) if owned else [0] * m.n_prov

    def key(u: Unit) -> tuple:
        p = m.loc_prov[u.loc]
        return (m.is_sc[p], -dist[p], not m.kind_coastal[u.kind], m.prov_name[p].lower())

    return sorted(units, key=key)


def _distance_1982(m: Map, u: Unit, homes: list[int]) -> int:
    """DATC v2 reading of the 1982 rule: fleets move as fleets, armies also cross water."""
    if not homes:
        return 0
    start = m.loc_prov[u.loc]
    if m.kind_coastal[u.kind]:
        graph: list[set[int]] = [set() for _ in range(m.n_prov)]
        for loc, nbrs in enumerate(m.adj[u.kind]):
            for x in nbrs:
                graph[m.loc_prov[loc]].add(m.loc_prov[x])
    else:
        graph = m.prov_neighbours
    dist = {start: 0}
    q = deque([start])
    targets = set(homes)
    while q:
        p = q.popleft()
        if p in targets:
            return dist[p]
        for x in graph[p]:
            if x not in dist:
                dist[x] = dist[p] + 1
                q.append(x)
    return 10**6
