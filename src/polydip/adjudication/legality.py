"""Which orders a unit may give: the one source of the checks that both the movement
validator (adjudication/decisions.py) and the legal-order lister (adjudication/legal.py) apply.

- Moves: `move_target` reads where a move goes (coasts, DATC 4.B), `move_locs` lists where
  a unit may go over an edge; `convoy_reach` where an army could be convoyed through the
  fleets on the board (a convoyed move with no possible route is illegal, DATC 6.D.32).
- Supports: a unit supports into a province it could move to (`support_reach`); the support
  of a convoyed move that only a convoy through the supporter could make is illegal
  (`route_without`, DATC 6.D.31).
- Convoys: a fleet may convoy an army only when it is necessary for some route
  (`may_convoy`, DATC 4.E.1 and 6.G.19).
- Passages a rule closes to a power this turn (rules/controlled_passages.py) are applied
  here and only here (`shut`, used by `move_locs`, `support_reach` and the retreats).
- Units a rule lets move only to some provinces now (a rainforest army that may only go
  back, rules/rainforests.py): `move_limits` reads them, `limited` tests a move.
- What the map's rules forbid for good (no support from a mountain province, none across a
  rainforest border, no retreat across a mountain border) is in the Map's tables
  (`support_reach`, `no_hold_support`, `retreat_locs`), read here.

Why an order is illegal, in a reason code (adjudication/reasons.py): `why_move`,
`why_support`, `why_hold_support` go through the same checks, in the same order, and name the
first that fails — a rule's table through the rule that filled it (RuleSet.explain). They are
asked only for orders already found void, when a report wants to say why.

Everything takes and returns plain ids; what depends only on the map is cached on it.
`closed` is the rules' `blocked` table: per power, the (kind, from location, to location)
moves it may not make now ({} when no rule closes anything).
"""

from __future__ import annotations

from polydip.adjudication import reasons as R
from polydip.adjudication.convoy import bits, geometry, necessary
from polydip.geography.map import Map
from polydip.state import Position, Unit

Closed = dict[int, set[tuple[int, int, int]]]
# (power, kind, location) of a unit -> the provinces it may move to now
Limits = dict[tuple[int, int, int], frozenset[int]]


# ---- passages ------------------------------------------------------------------------------

def closed_passages(m: Map, pos: Position, options: dict | None) -> Closed:
    """The moves closed to each power in this position (the rules' `blocked` hook)."""
    return m.rules.blocked(m, pos, options or {})


def shut(closed: Closed, power: int, kind: int, a: int, b: int) -> bool:
    """Is the move of a `kind` unit of `power` from location a to b through a closed
    passage?"""
    return bool(closed) and (kind, a, b) in closed.get(power, ())


def move_limits(m: Map, pos: Position | None) -> Limits:
    """The units a rule lets move only to some provinces in this position ({} for none)."""
    return m.rules.move_limits(m, pos) if m.tables.has_move_limits and pos is not None else {}


def limited(limits: Limits, power: int, kind: int, loc: int, prov: int) -> bool:
    """Is the move of this unit into province `prov` one a rule forbids now?"""
    allowed = limits.get((power, kind, loc)) if limits else None
    return allowed is not None and prov not in allowed


# ---- moves ---------------------------------------------------------------------------------

def move_locs(m: Map, kind: int, loc: int, power: int = -1, closed: Closed | None = None
              ) -> tuple[int, ...]:
    """The locations a unit may move to over an edge (no convoy): adjacent, a place it may
    stand on, and not through a passage closed to its power."""
    locs = m.move_locs[kind][loc]
    if closed and closed.get(power):
        return tuple(d for d in locs if not shut(closed, power, kind, loc, d))
    return locs


def support_reach(m: Map, kind: int, loc: int, power: int = -1, closed: Closed | None = None
                  ) -> frozenset[int]:
    """The provinces a unit may support into: those it could move into over an edge, but
    where the map's rules forbid its support (RuleTables.support_reach) or a passage is closed."""
    if closed and closed.get(power):
        # (not into a province it could reach only through a closed passage)
        open_ = {m.loc_prov[d] for d in move_locs(m, kind, loc, power, closed)}
        return m.tables.support_reach[kind][loc] - (m.reach_prov[kind][loc] - open_)
    return m.tables.support_reach[kind][loc]


def may_support_hold(m: Map, kind: int, prov: int) -> bool:
    """May a unit of `kind` in `prov` be supported to hold (a swamp army may not)?"""
    return not m.tables.no_hold_support or (kind, prov) not in m.tables.no_hold_support


def retreat_locs(m: Map, kind: int, loc: int, power: int = -1, closed: Closed | None = None
                 ) -> tuple[int, ...]:
    """Where a unit dislodged from `loc` could go before counting who stands where: where it
    could move, but over a border no unit retreats across, and not through a passage closed
    to its power."""
    locs = m.tables.retreat_locs[kind][loc]
    if closed and closed.get(power):
        return tuple(d for d in locs if not shut(closed, power, kind, loc, d))
    return locs


def move_target(m: Map, kind: int, loc: int, target: int | None) -> tuple[int, bool]:
    """Where a move from `loc` written to `target` (a province or a coast) goes, and whether
    it goes over an edge: (destination location, adjacent); destination -1 when the order is
    illegal. A move of a convoyable kind to a coastal province it is not next to is legal
    here; it needs a convoy route (`convoy_reach`). Cached per map."""
    cache = m.caches.move_target
    key = (kind, loc, target)
    got = cache.get(key)
    if got is None:
        d = _move_target(m, kind, loc, target)
        got = cache[key] = (d, d >= 0 and d in m.move_locs_set[kind][loc])
    return got


def _move_target(m: Map, k: int, loc: int, target: int | None) -> int:
    if target is None:
        return -1
    tprov = m.loc_prov[target]
    if tprov == m.loc_prov[loc]:
        return -1
    adj = m.move_locs_set[k][loc]
    if not m.kind_coastal[k]:
        if not m.occupy[k][tprov]:
            return -1
        if tprov in adj or (m.kind_convoyed[k] and m.convoy_touch[m.loc_prov[loc]]
                            and m.convoy_touch[tprov]):
            return tprov
        return -1
    coasts = m.prov_coast_locs[tprov]
    if not coasts or target != tprov:
        # no coasts there, or a coast was written: it must be reachable (DATC 4.B.3)
        return target if target in adj else -1
    reachable = [c for c in coasts if c in adj]
    # DATC 4.B.1 / 4.B.2: no coast given — fine when only one coast can be reached
    return reachable[0] if len(reachable) == 1 else -1


def coastless_target(m: Map, kind: int, loc: int, target: int | None, power: int = -1,
                     closed: Closed | None = None, pos: Position | None = None) -> int:
    """Where a move written to a province of several coasts, naming none, goes when
    move_target finds no single coast (-1: nowhere, the order stays illegal). In a porous
    province (the rules' `porous`: a canal's once it is open) it takes a coast it reaches,
    the one reached over an edge the rule did not open first, else the lowest. Elsewhere it
    takes the only coast it reaches that is not closed to its power (DATC 4.B.1: "only one
    coast possible"). Depends on the position: never cached, asked only for such moves."""
    if target is None or not m.kind_coastal[kind]:
        return -1
    tprov = m.loc_prov[target]
    coasts = m.prov_coast_locs[tprov]
    if target != tprov or not coasts or tprov == m.loc_prov[loc]:
        return -1
    adj = m.move_locs_set[kind][loc]
    reachable = [c for c in coasts
                 if c in adj and not (closed and shut(closed, power, kind, loc, c))]
    if not reachable:
        return -1
    opened = m.rules.porous(m, pos).get(tprov) if pos is not None else None
    if opened is not None:
        return min(reachable, key=lambda c: ((loc, c) in opened, c))
    return reachable[0] if len(reachable) == 1 else -1


def convoy_reach(m: Map, kind: int, origin: int, seas: frozenset[int]) -> frozenset[int]:
    """Provinces a unit of `kind` in province `origin` could be convoyed to through the
    convoy provinces `seas` (those holding a unit that may convoy)."""
    if not m.kind_convoyed[kind] or not seas:
        return frozenset()
    return frozenset(bits(geometry(m, seas).reach(origin) & m.occupy_mask[kind]))


def convoy_reaches(m: Map, kind: int, origin: int, dest: int, seas: frozenset[int]) -> bool:
    """Is `dest` among convoy_reach(m, kind, origin, seas)? (without listing them)"""
    if not m.kind_convoyed[kind] or not seas:
        return False
    return bool((geometry(m, seas).reach(origin) & m.occupy_mask[kind]) >> dest & 1)


def convoy_seas(m: Map, units: list[Unit], pos: Position | None = None) -> frozenset[int]:
    """The convoy provinces holding a unit that may convoy — not one a rule holds (a
    neutral fleet takes no convoy order)."""
    loc_prov, convoys, sea = m.loc_prov, m.kind_convoys, m.convoy_prov
    if m.rules.implements("unit_holds"):  # (else the comprehension below, without a call)
        holds = m.rules.unit_holds
        return frozenset({loc_prov[u.loc] for u in units if convoys[u.kind]
                          and sea[loc_prov[u.loc]] and not holds(m, pos, u)})
    # (units typed: the compiled build reads their fields natively)
    return frozenset({loc_prov[u.loc] for u in units if convoys[u.kind] and sea[loc_prov[u.loc]]})


# ---- supports and convoys ------------------------------------------------------------------

def route_without(m: Map, origin: int, dest: int, seas: frozenset[int], p: int) -> bool:
    """Could the fleets in `seas`, but the one in province p, convoy origin → dest? (A
    support needing a convoy through the supporter itself is illegal, DATC 6.D.31.)"""
    return geometry(m, seas).route_without(origin, dest, p)


def may_convoy(m: Map, fleet_kind: int, fleet_prov: int, army_kind: int, origin: int,
               dest: int, seas: frozenset[int]) -> bool:
    """May a `fleet_kind` unit in `fleet_prov` convoy an `army_kind` unit from origin to
    dest: it may convoy there, the army may be convoyed and stand in dest, and the fleet is
    necessary for some route of the fleets in `seas` (DATC 4.E.1, 6.G.19) — so such a route
    exists."""
    return (m.kind_convoys[fleet_kind] and m.convoy_prov[fleet_prov]
            and m.kind_convoyed[army_kind] and m.occupy[army_kind][dest] and dest != origin
            and necessary(m, origin, dest, fleet_prov, seas))


# ---- why an order is illegal (asked for void orders only, by reports) ----------------------

def _a(kind_name: str) -> str:
    return f"{'an' if kind_name[:1].lower() in 'aeiou' else 'a'} {kind_name.lower()}"


def why_move(m: Map, kind: int, loc: int, target: int | None, power: int = -1,
             closed: Closed | None = None, limits: Limits | None = None,
             pos: Position | None = None, options: dict | None = None) -> R.Reason:
    """Why the move of a `kind` unit of `power` on `loc` to `target` is illegal (the first
    of the checks move_target, the rules' move limits, closed passages and the convoy route
    that refuses it)."""
    if target is None:
        return R.reason(R.NOT_ADJACENT, "the move names no destination")
    d, _adj = move_target(m, kind, loc, target)
    if d < 0:
        d = coastless_target(m, kind, loc, target, power, closed, pos)
    if d < 0:
        return _why_no_target(m, kind, loc, target)
    prov = m.loc_prov[d]
    if limits and limited(limits, power, kind, loc, prov):
        got = m.rules.explain(m, pos, "move_limits", (power, kind, loc, prov), options)
        return got or R.reason(R.RULE_FORBIDS, f"a rule lets this unit not move to "
                                               f"{m.prov_name[prov]} now")
    if closed and shut(closed, power, kind, loc, d):
        got = m.rules.explain(m, pos, "blocked", (power, kind, loc, d), options)
        return got or R.reason(R.PASSAGE_CLOSED)
    return R.reason(R.NO_CONVOY_ROUTE, f"no fleets could convoy {_a(m.kind_names[kind])} "
                                       f"from {m.prov_name[m.loc_prov[loc]]} to "
                                       f"{m.prov_name[prov]}")


def _why_no_target(m: Map, k: int, loc: int, target: int) -> R.Reason:
    """Why move_target found no destination for a move to `target`."""
    tprov, here = m.loc_prov[target], m.loc_prov[loc]
    unit, there = _a(m.kind_names[k]), m.prov_name[tprov]
    if tprov == here:
        return R.reason(R.SAME_PROVINCE, f"a move to {there}, where the unit stands")
    coasts = m.prov_coast_locs[tprov]
    if not m.occupy[k][tprov] and not any(m.occupy[k][c] for c in coasts):
        return R.reason(R.CANNOT_STAND, f"{unit} cannot stand in {there}")
    adj = m.move_locs_set[k][loc]
    if m.kind_coastal[k] and coasts:
        reachable = [c for c in coasts if c in adj]
        if target == tprov and len(reachable) > 1:
            return R.reason(R.COAST_NEEDED, f"say which coast of {there}: "
                                            f"{', '.join(m.loc_name[c] for c in reachable)}")
        if target != tprov and reachable:
            return R.reason(R.COAST_UNREACHABLE,
                            f"{unit} in {m.prov_name[here]} cannot reach {m.loc_name[target]}"
                            f" (it can reach {', '.join(m.loc_name[c] for c in reachable)})")
    if loc != here:  # on a coast: is the place on the other side of its province?
        others = [c for c in m.prov_coast_locs[here] if c != loc and any(
            m.loc_prov[d] == tprov for d in m.move_locs[k][c])]
        if others:
            return R.reason(R.WRONG_COAST, f"{there} is reached from "
                                           f"{', '.join(m.loc_name[c] for c in others)}, not "
                                           f"from {m.loc_name[loc]}")
    if m.kind_convoyed[k] and not (m.convoy_touch[here] and m.convoy_touch[tprov]):
        return R.reason(R.NOT_ADJACENT, f"{m.prov_name[here]} is not next to {there}, and "
                                        "no convoy could carry an army between them")
    return R.reason(R.NOT_ADJACENT, f"{unit} in {m.prov_name[here]} cannot reach {there}")


def why_support(m: Map, kind: int, loc: int, prov: int, power: int = -1,
                closed: Closed | None = None, pos: Position | None = None,
                options: dict | None = None) -> R.Reason:
    """Why a `kind` unit on `loc` may not support into province `prov` (support_reach)."""
    here = m.loc_prov[loc]
    there = m.prov_name[prov]
    if prov == here:
        return R.reason(R.SUPPORT_UNREACHABLE, "a unit does not support a move into its own "
                                               "province")
    if prov in m.tables.support_reach[kind][loc] and closed:
        for d in m.move_locs[kind][loc]:
            if m.loc_prov[d] == prov and shut(closed, power, kind, loc, d):
                got = m.rules.explain(m, pos, "blocked", (power, kind, loc, d), options)
                return got or R.reason(R.PASSAGE_CLOSED)
    if prov in m.tables.support_base[kind][loc]:
        got = m.rules.explain(m, pos, "no_support", (kind, loc, prov), options)
        if got is not None:
            return got
    return R.reason(R.SUPPORT_UNREACHABLE, f"{_a(m.kind_names[kind])} in {m.prov_name[here]} "
                                           f"could not move to {there}, so it cannot support "
                                           "there")


def why_hold_support(m: Map, kind: int, prov: int, pos: Position | None = None) -> R.Reason:
    """Why a `kind` unit in `prov` may not be supported to hold (may_support_hold)."""
    got = m.rules.explain(m, pos, "no_hold_support", (kind, prov))
    return got or R.reason(R.RULE_FORBIDS, f"{_a(m.kind_names[kind])} in {m.prov_name[prov]} "
                                           "may not be supported to hold")
