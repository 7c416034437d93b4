"""Movement phase: `resolve_movement` validates the orders, resolves them with the guess
algorithm and works out where every unit ends; `MovementResult` holds the outcome and says
why an order did not succeed.

The decisions are decisions.Movement's (DATC 5.B, with the map's rule terms), or, on a map
with attack spaces (LAD's oceans), attacks.AttackMovement's. Options select the rule
choices of DATC chapter 4 where rulebooks differ (see docs/options.md).

`# mypyc: NAME` marks a line written for the compiled build (docs/speed.md names each idiom).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from operator import not_
from typing import Final

from polydip.adjudication import reasons as R
from polydip.adjudication.attacks import AttackMovement
from polydip.adjudication.decisions import T_CONVOY, T_HOLD, T_MOVE, T_SUPPORT, Movement
from polydip.adjudication.legality import (
    Closed,
    convoy_reaches,
    move_limits,
    support_reach,
    why_hold_support,
    why_move,
    why_support,
)
from polydip.adjudication.retreats import retreat_options
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, MOVE, SUPPORT, Order
from polydip.state import Dislodged, Position, Unit, unit_cache

# result words, as the diplomacy package writes them
BOUNCE: Final = "bounce"  # mypyc: final
CUT: Final = "cut"  # mypyc: final
DISLODGED: Final = "dislodged"  # mypyc: final
VOID: Final = "void"  # mypyc: final
NO_CONVOY: Final = "no convoy"  # mypyc: final
DISRUPTED: Final = "disrupted"  # mypyc: final
# the result words as bits (`MovementResult.failed`): word i is bit 1 << i
RESULT_BITS: Final = (BOUNCE, CUT, DISLODGED, VOID, NO_CONVOY, DISRUPTED)
BOUNCE_BIT: Final = 1  # mypyc: final
CUT_BIT: Final = 2  # mypyc: final
DISLODGED_BIT: Final = 4  # mypyc: final
VOID_BIT: Final = 8  # mypyc: final
NO_CONVOY_BIT: Final = 16  # mypyc: final
DISRUPTED_BIT: Final = 32  # mypyc: final


class MovementResult:
    """The outcome of a movement phase. `results` (per unit of the input position, its
    result words, [] = success) and, when nobody was dislodged, `contested` are worked out
    on first use."""

    __slots__ = ("_contested", "_dislodger", "_mv", "_ok", "_results", "dislodged", "orders",
                 "routed", "units")

    def __init__(self, units: list[Unit], dislodged: list[Dislodged],
                 contested: frozenset[int] | None, orders: list[Order | None], mv: Movement,
                 ok: list[bool], dislodger: dict[int, int]) -> None:
        self.units = units  # after the phase (dislodged units removed)
        self.dislodged = dislodged
        # dislodged units a rule disbands at once, with no retreat (beaten in an attack
        # space by the rout margin): never part of a retreat phase
        self.routed: list[Dislodged] = []
        self._contested = contested  # (None: not worked out yet)
        self.orders = orders
        self._mv, self._ok, self._dislodger = mv, ok, dislodger
        self._results: list[list[str]] | None = None

    @property
    def contested(self) -> frozenset[int]:
        """The standoffs: empty provinces two or more units tried to enter, none
        succeeding (what the retreats that follow may not enter)."""
        got = self._contested
        if got is None:  # (every decision is made: this only reads them)
            got = self._contested = frozenset(_standoffs(self._mv, self._ok, self._dislodger))
        return got

    def moved(self, before: list[Unit]) -> list[tuple[Unit, Unit, bool]]:
        """(unit before, unit after, by convoy) for each move that succeeded; `before` is
        the units of the input position."""
        mv, ok = self._mv, self._ok
        return [(u, Unit(u.power, u.kind, mv.dest[i]), mv.convoyed[i])
                for i, u in enumerate(before) if mv.typ[i] == T_MOVE and ok[i]]

    def finals(self, before: list[Unit]) -> list[Unit | None]:
        """Where each unit of the input position ends the phase (None: dislodged)."""
        mv, ok, shift = self._mv, self._ok, self._mv.shift or {}
        out: list[Unit | None] = []
        for i, u in enumerate(before):
            if i in self._dislodger:
                out.append(None)
            elif mv.typ[i] == T_MOVE and ok[i]:
                out.append(Unit(u.power, u.kind, mv.dest[i]))
            elif i in shift:
                out.append(Unit(u.power, u.kind, shift[i]))
            else:
                out.append(u)
        return out

    @property
    def results(self) -> list[list[str]]:
        if self._results is None:
            mv, ok, dislodger = self._mv, self._ok, self._dislodger
            out = []
            for u in range(len(ok)):
                words: list[str] = []
                t = mv.typ[u]
                if mv.void[u]:
                    words.append(VOID)
                elif mv.stuck and u in mv.stuck:
                    words.append(BOUNCE)  # a move that needed support and had none
                elif t == T_MOVE and not ok[u]:
                    words.append(NO_CONVOY if mv.convoyed[u] and not mv._path(u) else BOUNCE)
                elif t == T_SUPPORT and not ok[u] and u not in dislodger:
                    words.append(CUT)
                elif t == T_CONVOY and not ok[u] and u not in dislodger:
                    words.append(DISRUPTED)
                if u in dislodger:
                    words.append(DISLODGED)
                out.append(words)
            self._results = out
        return self._results

    def failed(self) -> dict[int, int]:
        """unit → result bits, for each unit of the input position whose order did not
        succeed (a new dict): its `results` words as bits (word `RESULT_BITS[i]` is bit
        1 << i); the units that succeeded are left out (`failed_into`)."""
        out = bytearray(len(self._ok))
        self.failed_into(out, range(len(out)))
        return {u: out[u] for u in range(len(out)) if out[u]}

    def failed_into(self, out: bytearray, at: Sequence[int]) -> None:
        """Write the result bits of each unit of the input position whose order did not
        succeed into `out`, at index `at[u]` for unit u (units with `at[u]` < 0 are left
        out; the bytes of the others are left as they are, which should be 0): its
        `results` words as bits. Read from the decisions' failures (the void orders, the
        moves, supports and convoys that failed, the dislodged units) without looking at
        the units that succeeded, nor writing words (an environment writes its per-slot
        results array with it, no dict between)."""
        mv, ok, dislodger = self._mv, self._ok, self._dislodger
        void, stuck = mv.void, mv.stuck
        n = len(ok)
        if True in void:  # a void order: "void" whatever its decision
            for u in compress(range(n), void):
                a = at[u]
                if a >= 0:
                    out[a] = VOID_BIT
        if stuck:  # a move that needed support and had none
            for u in stuck:
                a = at[u]
                if a >= 0 and not void[u]:
                    out[a] = BOUNCE_BIT
        if False in ok:
            for u in compress(range(n), map(not_, ok)):
                a = at[u]
                if a >= 0 and not void[u] and not (stuck and u in stuck):
                    bit = self._failure_bit(u)
                    if bit:
                        out[a] = bit
        for u in dislodger:
            a = at[u]
            if a >= 0:
                out[a] |= DISLODGED_BIT

    def _failure_bit(self, u: int) -> int:
        """The bit of unit u's failed order (not void, not a move stuck without the
        support a rule wants), 0 for none: a support or convoy of a dislodged unit is
        "dislodged" only."""
        mv = self._mv
        t = mv.typ[u]
        if t == T_MOVE:
            return NO_CONVOY_BIT if mv.convoyed[u] and not mv._path(u) else BOUNCE_BIT
        if u in self._dislodger:
            return 0
        if t == T_SUPPORT:
            return CUT_BIT
        if t == T_CONVOY:
            return DISRUPTED_BIT
        return 0

    def reasons(self, options: dict | None = None) -> list[R.Reason | None]:
        """Per unit of the input position: why its order did not succeed (the reason of its
        first result word), None for success. Worked out on each call, from the decisions
        already made: reports ask, the adjudication never does. `options`: the phase's."""
        results = self.results
        return [_why(self, u, words[0], options or {}) if words else None
                for u, words in enumerate(results)]


def _why(mr: MovementResult, u: int, word: str, options: dict) -> R.Reason:
    """The reason of unit u's result `word` (MovementResult.reasons)."""
    mv = mr._mv
    m = mv.m
    o = mr.orders[u] if u < len(mr.orders) else None
    name = m.prov_name
    if word == VOID:
        if o is None:
            return R.reason(R.WRONG_PHASE)
        try:
            return _why_void(mv, o, u, options)
        except Exception:  # (an order of a kind this explainer does not know: say so)
            return R.Reason(R.RULE_FORBIDS, "the order is illegal here")
    if word == DISLODGED:
        a = mr._dislodger.get(u, -1)
        return R.reason(R.DISLODGED, f"dislodged by the unit from {name[mv.prov[a]]}"
                        if a >= 0 else "")
    if word == CUT:
        by = [a for a in mv.attackers.get(mv.prov[u], ()) if mv.power[a] != mv.power[u]]
        return R.reason(R.SUPPORT_CUT, f"cut by the attack from {name[mv.prov[by[0]]]}"
                        if by else "")
    if word == NO_CONVOY and not mv.conv_fleets.get(u):
        return R.Reason(R.NO_CONVOY_ROUTE, "no fleet on a route was ordered to convoy it")
    if word in (NO_CONVOY, DISRUPTED):
        return R.reason(R.CONVOY_DISRUPTED)
    # a bounce: a move that needed support and had none, one a rule left weak, or beaten
    k, loc, d = mv.kind[u], mv.loc[u], mv.dest[u]
    rules = m.rules
    if mv.stuck and u in mv.stuck and mv.pos is not None:
        got = rules.explain(m, mv.pos, "needs_support", (mv.pos.phase.season, k, loc, d))
        return got or R.reason(R.NEEDS_SUPPORT)
    if mv.feeble and u in mv.feeble:
        got = rules.explain(m, mv.pos, "stalls", (k, loc, d), options)
        if got is not None:
            return got
    if mv.base is not None and mv.base[u] == 0:
        got = rules.explain(m, mv.pos, "move_strength", (k, loc, d))
        if got is not None:
            return got
    dp = mv.dest_prov[u]
    return R.reason(R.BOUNCED, f"the move to {name[dp]} met an equal or stronger force"
                    if dp >= 0 else "")


def _why_void(mv: Movement, o: Order, u: int, options: dict) -> R.Reason:
    """Why unit u's order `o` is void: the checks of _validate, named."""
    m = mv.m
    kind, loc, power = mv.kind[u], mv.loc[u], mv.power[u]
    loc_prov, name = m.loc_prov, m.prov_name
    t = o.type
    if t == MOVE:
        limits = move_limits(m, mv.pos) if m.tables.has_move_limits else None
        return why_move(m, kind, loc, o.target, power, mv.blocked, limits, mv.pos, options)
    if t not in (SUPPORT, CONVOY):
        return R.reason(R.WRONG_PHASE)
    if o.aux_loc is None:
        return R.Reason(R.NO_UNIT, "the order names no unit")
    ap = loc_prov[o.aux_loc]
    tp = loc_prov[o.target] if o.target is not None else -1
    s = mv._unit_at(ap, tp)
    if s < 0:
        return R.Reason(R.NO_UNIT, f"no unit in {name[ap]}")
    if t == CONVOY:
        return _why_convoy_void(mv, u, s, tp)
    return _why_support_void(mv, o, u, s, tp, options)


def _why_convoy_void(mv: Movement, u: int, s: int, tp: int) -> R.Reason:
    """Why fleet u's convoy of unit s to province tp is void."""
    m = mv.m
    kind, name = mv.kind[u], m.prov_name
    them = m.unit_str(mv.kind[s], mv.loc[s])
    if mv.typ[s] != T_MOVE or mv.dest_prov[s] != tp:
        return R.reason(R.CONVOY_UNMATCHED, f"{them} was not ordered to {name[tp]}"
                        if tp >= 0 else "")
    if not (m.kind_convoys[kind] and m.convoy_prov[mv.prov[u]]):
        return R.Reason(R.CANNOT_CONVOY, f"{m.unit_str(kind, mv.loc[u])} cannot convoy")
    if not convoy_reaches(m, mv.kind[s], mv.prov[s], tp, mv._seas()):
        return R.Reason(R.NO_CONVOY_ROUTE, f"no fleets could convoy {them} to {name[tp]}")
    return R.Reason(R.CONVOY_NOT_NEEDED, f"this fleet is on no route of {them} to "
                                         f"{name[tp]}, or it went by land")


def _why_support_void(mv: Movement, o: Order, u: int, s: int, tp: int,
                      options: dict) -> R.Reason:
    """Why unit u's support `o` of unit s (to hold, or to move into province tp) is void."""
    m = mv.m
    kind, loc, power, prov = mv.kind[u], mv.loc[u], mv.power[u], mv.prov[u]
    name = m.prov_name
    them = m.unit_str(mv.kind[s], mv.loc[s])
    if s == u:
        return R.Reason(R.SUPPORT_UNMATCHED, "a unit does not support itself")
    closed = mv.blocked
    if o.target is None:
        if mv.typ[s] == T_MOVE:
            return R.Reason(R.SUPPORT_UNMATCHED, f"{them} was ordered to move, not to hold")
        if mv.prov[s] not in support_reach(m, kind, loc, power, closed):
            return why_support(m, kind, loc, mv.prov[s], power, closed, mv.pos, options)
        return why_hold_support(m, mv.kind[s], mv.prov[s], mv.pos)
    if tp == prov:
        return why_support(m, kind, loc, tp, power, closed, mv.pos, options)
    if mv.typ[s] != T_MOVE or mv.dest_prov[s] != tp:
        return R.Reason(R.SUPPORT_UNMATCHED, f"{them} was not ordered to {name[tp]}"
                        + (" (its own order is void)" if mv.void[s] else ""))
    if tp not in support_reach(m, kind, loc, power, closed):
        return why_support(m, kind, loc, tp, power, closed, mv.pos, options)
    if o.target != tp and mv.dest[s] != o.target:
        return R.Reason(R.SUPPORT_UNMATCHED, f"{them} moves to {m.loc_name[mv.dest[s]]}, not "
                                             f"{m.loc_name[o.target]}")
    return R.reason(R.SUPPORT_OWN_CONVOY)


def resolve_movement(m: Map, units: list[Unit], orders: list[Order | None],
                     options: dict | None = None, blocked: Closed | None = None,
                     pos: Position | None = None) -> MovementResult:
    """Adjudicate a movement phase. `orders[i]` is the order of `units[i]` (None = hold).
    `blocked`: per power, moves (kind, from, to) closed to it now (controlled passages);
    `pos`: the position, for the rules' hooks."""
    options = options or {}
    mv: Movement
    if m.tables.has_attack_spaces:
        mv = AttackMovement(m, units, orders, options, blocked, pos)  # mypyc: class by name
    else:
        mv = Movement(m, units, orders, options, blocked, pos)  # mypyc: class by name
    _settle_sure(mv)
    typ = mv.typ
    ok = [mv.resolve(u) if t != T_HOLD else True for u, t in enumerate(typ)]
    moved = [u for u in mv.moves if typ[u] == T_MOVE and ok[u]]
    dislodger, routed = _dislodgers(mv, ok, moved)
    new_units = _units_after(mv, units, moved, dislodger)
    if not dislodger:  # (no retreats: the standoffs are worked out if asked for)
        return MovementResult(new_units, [], None, list(orders), mv, ok, dislodger)
    contested = _standoffs(mv, ok, dislodger)
    dislodged, disbanded = _retreats(mv, new_units, dislodger, routed, contested, options)
    out = MovementResult(new_units, dislodged, frozenset(contested), list(orders), mv, ok,
                         dislodger)
    out.routed = disbanded
    return out


def _settle_sure(mv: Movement) -> None:
    """Settle the decisions that depend on nothing else before the resolver runs: a support
    or convoy nobody attacks, and a move over land into an empty province nobody else
    enters."""
    m = mv.m
    attackers, occ = mv.attackers, mv.occ
    needy = mv.needy  # (moves that cross only if a support is given: never sure)
    if mv.feeble:  # (and moves of attack strength 0 that enter nowhere)
        needy = needy | mv.feeble
    # (attacks there: never sure)
    space = m.tables.attack_space if m.tables.has_attack_spaces else None
    dest_prov, convoyed, prov = mv.dest_prov, mv.convoyed, mv.prov
    for u, t in enumerate(mv.typ):
        if t == T_MOVE:
            dp = dest_prov[u]
            if (not convoyed[u] and occ[dp] < 0 and len(attackers[dp]) == 1
                    and not (needy and u in needy) and not (space and space[dp])):
                mv.settle(u, True)
        elif t != T_HOLD and prov[u] not in attackers and not (space and space[prov[u]]):
            mv.settle(u, True)


def _dislodgers(mv: Movement, ok: list[bool], moved: list[int]
                ) -> tuple[dict[int, int], set[int]]:
    """Who dislodges whom (dislodged unit -> the unit that dislodged it), and the units
    beaten in an attack space by the margin that disbands them (routed)."""
    m = mv.m
    typ, occ, dest_prov = mv.typ, mv.occ, mv.dest_prov
    dislodger: dict[int, int] = {}
    for u in moved:
        o = occ[dest_prov[u]]
        if o >= 0 and not (typ[o] == T_MOVE and ok[o]):
            dislodger[o] = u
    routed: set[int] = set()
    if m.tables.has_attack_spaces:
        for o, (u, margin) in mv.beaten_units().items():
            dislodger[o] = u
            if m.tables.rout_margin is not None and margin >= m.tables.rout_margin:
                routed.add(o)
    return dislodger, routed


def _units_after(mv: Movement, units: list[Unit], moved: list[int],
                 dislodger: dict[int, int]) -> list[Unit]:
    """The units at the end of the phase, in the order of `units`, the dislodged left out."""
    new_units: list[Unit] = list(units)
    made = unit_cache(mv.m).unit
    power, kind, dest = mv.power, mv.kind, mv.dest
    for u in moved:
        new_units[u] = made(power[u], kind[u], dest[u])
    if mv.shift:  # coast changes of the units that were not dislodged
        for u, coast in mv.shift.items():
            new_units[u] = made(power[u], kind[u], coast)
    if dislodger:
        new_units = [nu for u, nu in enumerate(new_units) if u not in dislodger]
    return new_units


def _standoffs(mv: Movement, ok: list[bool], dislodger: dict[int, int]) -> set[int]:
    """Standoffs: the empty provinces that two or more units tried to enter, none
    succeeding. (Crowded provinces are never open spaces; one nobody entered is empty unless
    the unit there stayed: it did not leave and, nobody entering, was not dislodged.)"""
    typ, occ = mv.typ, mv.occ
    contested = set()
    for p in mv.crowded:
        att = mv.attackers[p]
        if any(ok[a] for a in att):
            continue
        o = occ[p]
        if o >= 0 and not (typ[o] == T_MOVE and ok[o]) and o not in dislodger:
            continue
        if sum(1 for a in att if mv._prevent(a) > 0) >= 2:
            contested.add(p)
    return contested


def _retreats(mv: Movement, new_units: list[Unit], dislodger: dict[int, int],
              routed: set[int], contested: set[int], options: dict
              ) -> tuple[list[Dislodged], list[Dislodged]]:
    """The dislodged units with the places each may retreat to, and those disbanded at once
    (routed)."""
    m = mv.m
    occupied = [False] * m.n_prov
    loc_prov = m.loc_prov
    for nu in new_units:
        occupied[loc_prov[nu.loc]] = True
    if m.tables.has_open_spaces:  # an open space is never full: units may retreat into it
        occupied = [o and not m.tables.open_space[p] for p, o in enumerate(occupied)]
    retreat_from_convoy = options.get("retreat_to_convoy_origin", True)
    dislodged = []
    disbanded = []
    for u, a in sorted(dislodger.items()):
        k, loc = mv.kind[u], mv.loc[u]
        if u in routed:
            disbanded.append(Dislodged(mv.power[u], k, loc, mv.prov[a], mv.convoyed[a], ()))
            continue
        blocked_from = -1 if (mv.convoyed[a] and retreat_from_convoy) else mv.prov[a]
        where = retreat_options(
            m, k, loc, occupied, contested, blocked_from, mv.power[u], mv.blocked)
        dislodged.append(Dislodged(mv.power[u], k, loc, mv.prov[a], mv.convoyed[a], where))
    return dislodged, disbanded
