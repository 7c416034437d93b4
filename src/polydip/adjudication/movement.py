"""Movement phase: validate the orders, then resolve them with the guess algorithm.

The decisions are the DATC's (5.B): one boolean per order — a move succeeds, a support is
given (not cut, supporter not dislodged), a convoy is effective (fleet not dislodged) — and the
strengths (hold, attack, defend, prevent) are computed from them. Options select the rule
choices of DATC chapter 4 where rulebooks differ (see docs/options.md).

What a variant's rules change is read from the Map's tables and the rules' hooks, never by
name: supports a unit may not give (`Map.support_reach`, `Map.no_hold_support`), the
strength of a move before supports (`Map.move_strength`: 0 across Latin American
Diplomacy's Greater Andes), moves that fail unless supported (`Map.needs_support`), units
that may move only to some provinces now (the `move_limits` hook). Each costs nothing when
the map has no such rule: the decisions that read strengths are those of _Movement, and a
map with weakened or conditional moves gets _RuleMovement, which overrides them.
"""

from __future__ import annotations

from typing import Final

from polydip.adjudication import reasons as R
from polydip.adjudication.convoy import provinces_on_routes
from polydip.adjudication.legality import (
    Closed,
    coastless_target,
    convoy_reaches,
    convoy_seas,
    limited,
    may_convoy,
    move_limits,
    move_target,
    route_without,
    shut,
    support_reach,
    why_hold_support,
    why_move,
    why_support,
)
from polydip.adjudication.resolver import Resolver
from polydip.adjudication.retreats import retreat_options
from polydip.errors import NotSupportedError
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, HOLD, MOVE, SUPPORT, Order
from polydip.state import Dislodged, Position, Unit, unit_cache, unit_index

_NONE: Final[tuple[int, ...]] = ()
_NO_MOVES: Final[frozenset[int]] = frozenset()

# order codes used in the hot path (Final: compiled, each use is the value itself, not a
# look-up in the module's dict)
T_HOLD: Final = 0
T_MOVE: Final = 1
T_SUPPORT: Final = 2
T_CONVOY: Final = 3

# result words, as the diplomacy package writes them
BOUNCE: Final = "bounce"
CUT: Final = "cut"
DISLODGED: Final = "dislodged"
VOID: Final = "void"
NO_CONVOY: Final = "no convoy"
DISRUPTED: Final = "disrupted"


class MovementResult:
    """The outcome of a movement phase. `results` (per unit of the input position, its
    result words, [] = success) is worked out on first use."""

    __slots__ = ("_dislodger", "_mv", "_ok", "_results", "contested", "dislodged", "orders",
                 "routed", "units")

    def __init__(self, units: list[Unit], dislodged: list[Dislodged],
                 contested: frozenset[int], orders: list[Order | None], mv: _Movement,
                 ok: list[bool], dislodger: dict[int, int]) -> None:
        self.units = units  # after the phase (dislodged units removed)
        self.dislodged = dislodged
        # dislodged units a rule disbands at once, with no retreat (beaten in an attack
        # space by the rout margin): never part of a retreat phase
        self.routed: list[Dislodged] = []
        self.contested = contested
        self.orders = orders
        self._mv, self._ok, self._dislodger = mv, ok, dislodger
        self._results: list[list[str]] | None = None

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

    def reasons(self, options: dict | None = None) -> list[R.Reason | None]:
        """Per unit of the input position: why its order did not succeed (the reason of its
        first result word), None for success. Worked out on each call, from the decisions
        already made: reports ask, the adjudication never does. `options`: the phase's."""
        results = self.results
        return [_why(self, u, words[0], options or {}) if words else None
                for u, words in enumerate(results)]


class _Movement(Resolver):
    __slots__ = (
        "any_route",
        "attackers",
        "base",
        "base_held",
        "blocked",
        "conv_fleets",
        "convoyed",
        "crowded",
        "dest",
        "dest_prov",
        "feeble",
        "fleet_seas",
        "h2h",
        "hold_supp",
        "kind",
        "land_ok",
        "loc",
        "m",
        "move_supp",
        "needy",
        "occ",
        "open_",
        "paradox",
        "pos",
        "power",
        "prov",
        "shift",
        "stack",
        "stuck",
        "sup_prov",
        "typ",
        "units",
        "void",
    )

    def __init__(self, m: Map, units: list[Unit], orders: list[Order | None],
                 options: dict, blocked: Closed | None = None, pos: Position | None = None) -> None:
        n = len(units)
        super().__init__(n)
        self.m = m
        self.units = units
        self.pos = pos
        self.paradox = options.get("convoy_paradox", "szykman")
        self.any_route = options.get("multi_route_disruption", "all") == "any"
        self.power = [u.power for u in units]
        self.kind = [u.kind for u in units]
        self.loc = [u.loc for u in units]
        loc_prov = m.loc_prov
        self.prov = [loc_prov[u.loc] for u in units]
        self.open_ = m.tables.open_space
        self.stack: dict[int, list[int]] = {}  # units in open spaces (several per space)
        first, several = unit_index(m, units)  # (kept from binding the orders to them)
        if several or m.tables.has_open_spaces:
            occ = [-1] * m.n_prov
            for i, p in enumerate(self.prov):
                if self.open_[p]:
                    self.stack.setdefault(p, []).append(i)
                    continue
                if occ[p] >= 0:
                    raise NotSupportedError(
                        f"two units in {m.prov_abbr[p]}: several units in one space need a "
                        "stacking rule, which this variant does not declare")
                occ[p] = i
        else:
            occ = first  # one unit at most in each province (read, never changed)
        self.occ = occ
        self.typ = [T_HOLD] * n
        self.dest = [-1] * n  # move: destination location; convoy: army destination province
        self.dest_prov = [-1] * n
        self.sup_prov = [-1] * n  # support: province the support is given into
        self.void = [False] * n
        self.convoyed = [False] * n
        self.land_ok = [False] * n
        self.h2h = [-1] * n
        # sparse: most units are not attacked, supported or convoyed
        self.attackers: dict[int, list[int]] = {}  # province -> units moving there
        self.move_supp: dict[int, list[int]] = {}  # unit -> units supporting its move
        self.hold_supp: dict[int, list[int]] = {}  # unit -> units supporting it to hold
        self.conv_fleets: dict[int, list[int]] = {}  # army -> fleets convoying it
        self.fleet_seas: frozenset[int] | None = None
        self.blocked = blocked or {}
        # a move's strength before supports, when a rule makes it other than 1: in its
        # attack (base) and in its prevent and defend strengths (base_held)
        self.base: list[int] | None = None
        self.base_held: list[int] | None = None
        self.stuck: set[int] | frozenset[int] = _NO_MOVES  # moves a rule lets through only
        self.needy: set[int] | frozenset[int] = _NO_MOVES  # when supported: without; with a
        # support that must be given (an option); sets of their own in _RuleMovement
        self.feeble: set[int] | frozenset[int] = _NO_MOVES  # weakened moves that enter
        # nowhere with an attack strength of 0 (the rules' `stalls` under an option)
        self.shift: dict[int, int] | None = None  # coast changes (_RuleMovement): unit -> coast
        self._validate(orders, options)

    # ---- order validation (DATC 4.B, 4.C, 4.E.1): the checks are adjudication/legality's ---

    def _validate(self, orders: list[Order | None], options: dict) -> None:
        m = self.m
        typ, dest, dest_prov, void = self.typ, self.dest, self.dest_prov, self.void
        kind, loc, prov, power = self.kind, self.loc, self.prov, self.power
        convoyed, conv_fleets = self.convoyed, self.conv_fleets
        loc_prov = m.loc_prov
        blocked = self.blocked
        limits = move_limits(m, self.pos) if m.tables.has_move_limits else None
        refused = self._refused if blocked or limits else None  # passages, limits
        moves: list[int] = []
        supports: list[int] = []
        convoys: list[int] = []
        direct = [False] * len(orders)  # move -> its destination is adjacent (no convoy)
        # pass 1: moves (destination, coasts) — convoy need decided after convoys are read
        # (typed: compiled, the entries are read as (int, bool) without generic look-ups)
        cache = m.caches.move_target
        for u, o in enumerate(orders):
            if o is None:
                continue
            t = o.type
            if t == MOVE:
                got = cache.get((kind[u], loc[u], o.target))
                if got is None:
                    got = move_target(m, kind[u], loc[u], o.target)
                d = got[0]
                if d < 0:
                    # no coast named where several could be meant: one may still be meant
                    # (a porous province, or the only coast open to the unit's power)
                    d = coastless_target(m, kind[u], loc[u], o.target, power[u], blocked,
                                         self.pos)
                    if d < 0:
                        void[u] = True
                        continue
                    got = (d, True)
                if refused is not None:
                    no = refused(u, o, d, limits)
                    if no:
                        void[u] = True
                        continue
                    if no is None:
                        got = (d, False)  # not over the closed edge: by convoy, as it says
                typ[u] = T_MOVE
                dest[u] = d
                dest_prov[u] = loc_prov[d]
                direct[u] = got[1]
                moves.append(u)
            elif t == SUPPORT:
                supports.append(u)
            elif t == CONVOY:
                convoys.append(u)
            elif t != HOLD:
                void[u] = True
        # pass 2: convoy orders
        for u in convoys:
            o = orders[u]
            assert o is not None and o.target is not None
            tp = loc_prov[o.target]
            a = self._unit_at(loc_prov[o.aux_loc], tp) if o.aux_loc is not None else -1
            if (a < 0 or typ[a] != T_MOVE or dest_prov[a] != tp
                    or not may_convoy(m, kind[u], prov[u], kind[a], prov[a], tp, self._seas())):
                void[u] = True
                continue
            typ[u] = T_CONVOY
            dest[u] = tp
            fl = conv_fleets.get(a)
            if fl is None:
                conv_fleets[a] = [u]
            else:
                fl.append(u)
        # pass 3: does each move use a convoy?  (DATC 4.A.3, 2023 rulebook by default)
        adjacent = options.get("adjacent_convoy", "2023")
        for u in moves:
            fleets = conv_fleets.get(u) if conv_fleets else None
            if not fleets and direct[u]:
                o = orders[u]
                assert o is not None
                if not o.via:
                    continue  # the common case: an ordinary move
            self._convoy_need(u, orders, fleets, direct[u], adjacent)
        # pass 4: supports (into provinces the supporter may support into, Map.support_reach)
        reach_prov = m.tables.support_reach
        no_hold = m.tables.no_hold_support
        closed_to = blocked.get if blocked else None
        sup_prov, hold_supp, move_supp = self.sup_prov, self.hold_supp, self.move_supp
        occ, open_ = self.occ, self.open_
        for u in supports:
            o = orders[u]
            assert o is not None
            if o.aux_loc is None:
                void[u] = True
                continue
            target = o.target
            ap = loc_prov[o.aux_loc]
            s = occ[ap]
            if s < 0 and open_[ap]:
                s = self._unit_at(ap, loc_prov[target] if target is not None else -1)
            if s < 0 or s == u:
                void[u] = True
                continue
            reach = reach_prov[kind[u]][loc[u]]
            if closed_to is not None and closed_to(power[u]):
                reach = support_reach(m, kind[u], loc[u], power[u], blocked)
            if target is None:
                if typ[s] == T_MOVE or prov[s] not in reach or (
                        no_hold and (kind[s], prov[s]) in no_hold):
                    void[u] = True
                    continue
                typ[u] = T_SUPPORT
                sup_prov[u] = prov[s]
                sl = hold_supp.get(s)
                if sl is None:
                    hold_supp[s] = [u]
                else:
                    sl.append(u)
            else:
                tp = loc_prov[target]
                if (typ[s] != T_MOVE or dest_prov[s] != tp or tp not in reach
                        or tp == prov[u]
                        # a coast named in the support must be the move's (6.B.9)
                        or (target != tp and dest[s] != target)
                        or (convoyed[s] and not direct[s]
                            and not route_without(m, prov[s], tp, self._seas(), prov[u]))):
                    void[u] = True
                    continue
                typ[u] = T_SUPPORT
                sup_prov[u] = tp
                dest[u] = s
                sl = move_supp.get(s)
                if sl is None:
                    move_supp[s] = [u]
                else:
                    sl.append(u)
        if m.tables.move_strength or m.tables.needs_support:
            self._rule_strengths(moves, options)
        # attackers and head-to-head battles
        attackers = self.attackers
        crowded = []
        h2h = self.h2h
        no_swap = m.tables.no_swap
        for u in moves:
            if typ[u] != T_MOVE:
                continue
            dp = dest_prov[u]
            lst = attackers.get(dp)
            if lst is None:
                attackers[dp] = [u]
            else:
                lst.append(u)
                if len(lst) == 2 and not open_[dp]:
                    crowded.append(dp)
            v = occ[dp]
            if (v >= 0 and typ[v] == T_MOVE and dest_prov[v] == prov[u] and not open_[prov[u]]
                    and ((not convoyed[u] and not convoyed[v]) or (prov[u], dp) in no_swap)):
                h2h[u] = v
        self.crowded = crowded

    def _convoy_need(self, u: int, orders: list[Order | None], fleets: list[int] | None,
                     direct: bool, adjacent: str) -> None:
        """Whether the move of unit u goes by convoy (pass 3 of _validate), for a move with
        convoy orders, one that says VIA or one to a province it is not next to."""
        m = self.m
        typ, void, prov, power = self.typ, self.void, self.prov, self.power
        conv_fleets, convoyed, dest_prov = self.conv_fleets, self.convoyed, self.dest_prov
        o = orders[u]
        assert o is not None
        via = o.via
        own = False
        if fleets:
            # intent to convoy: a legal convoy order by a fleet of the army's own power
            own = any(power[f] == power[u] for f in fleets)
            on_route = provinces_on_routes(m, prov[u], dest_prov[u], [prov[f] for f in fleets])
            # fleets not on any complete route cannot help: their convoy is void
            for f in fleets:
                if prov[f] not in on_route:
                    typ[f] = T_HOLD
                    void[f] = True
            fleets = conv_fleets[u] = [f for f in fleets if typ[f] == T_CONVOY]
        if not direct or (via and adjacent == "2023"):
            # a move that needs a convoy (or says it goes by one and may not fall back on
            # the land route) is legal when a convoy route could exist at all (DATC
            # 6.D.8, 6.D.32); without convoy orders it simply fails
            if not fleets and not convoy_reaches(m, self.kind[u], prov[u], dest_prov[u],
                                                 self._seas()):
                typ[u] = T_HOLD
                void[u] = True
                return
        if not direct:
            convoyed[u] = True
        elif fleets or via:
            if via or own:
                convoyed[u] = True
                if adjacent != "2023" and not fleets:
                    # DATC v2.4: no convoy ordered, so the land route is used
                    convoyed[u] = False
                elif adjacent == "fallback_disrupted":
                    # the reading DATC 6.G.20 asks about: land route when disrupted
                    self.land_ok[u] = True
        if not convoyed[u] and fleets:
            for f in fleets:  # a convoy of a move that goes by land is void
                typ[f] = T_HOLD
                void[f] = True
            del conv_fleets[u]

    def _refused(self, u: int, o: Order, d: int, limits: dict | None) -> bool | None:
        """Whether a rule refuses the move of unit u to location d now: True when it may not
        go there at all (a passage closed to it, a province it may not move to), None when
        it may go there only by convoy, ordered VIA (a closed edge), False when free."""
        kind, loc, power = self.kind[u], self.loc[u], self.power[u]
        if limits and limited(limits, power, kind, loc, self.m.loc_prov[d]):
            return True
        if self.blocked and shut(self.blocked, power, kind, loc, d):
            return None if o.via and self.m.kind_convoyed[kind] else True
        return False

    def _rule_strengths(self, moves: list[int], options: dict) -> None:
        """Strengths and conditions the map's rules set (_RuleMovement; none here)."""

    def _unit_at(self, prov: int, dest: int) -> int:
        """The unit an order names by its province; in an open space, the one moving to
        `dest` (or the first one there, for a hold)."""
        o = self.occ[prov]
        if o >= 0 or not self.open_[prov]:
            return o
        here = self.stack.get(prov, ())
        for u in here:
            if self.typ[u] == T_MOVE and self.dest_prov[u] == dest:
                return u
        return here[0] if here and dest < 0 else -1

    def _seas(self) -> frozenset[int]:
        """Convoy provinces holding a unit that may convoy (computed once per phase)."""
        if self.fleet_seas is None:
            self.fleet_seas = convoy_seas(self.m, self.units, self.pos)
        return self.fleet_seas

    # ---- decisions -----------------------------------------------------------------------

    def adjudicate(self, u: int) -> bool:
        t = self.typ[u]
        if t == T_MOVE:
            return self._move(u)
        if t == T_SUPPORT:
            return not self._support_cut(u) and not self._support_dislodged(u)
        if t == T_CONVOY:
            return not self._dislodged(u)
        return True

    def _dislodged(self, u: int) -> bool:
        if self.open_[self.prov[u]]:
            return False  # nothing is dislodged from an open space
        return any(self.resolve(a) for a in self.attackers.get(self.prov[u], _NONE))

    def _support_dislodged(self, s: int) -> bool:
        """A dislodged supporter gives no support — except, under the paradox rules of the
        rulebooks, when the army that dislodges it is one whose cut those rules forbid
        (the paradox rule takes precedence over the dislodge rule, DATC 6.F.17)."""
        if self.open_[self.prov[s]]:
            return False
        for a in self.attackers.get(self.prov[s], _NONE):
            if self.convoyed[a] and self._convoy_spares(a, s):
                continue
            if self.resolve(a):
                return True
        return False

    def _move(self, u: int) -> bool:
        if self.convoyed[u] and not self._path(u):
            return False
        dp = self.dest_prov[u]
        if self.open_[dp]:
            return True  # nobody bounces, nobody is kept out of an open space
        if self.occ[dp] < 0 and len(self.attackers[dp]) == 1:
            return True  # an empty province nobody else tries to enter
        att = self._attack(u)
        if att == 0:
            return False
        v = self.h2h[u]
        if v >= 0:
            if att <= self._defend(v):
                return False
        elif att <= self._hold(self.dest_prov[u]):
            return False
        for w in self.attackers[self.dest_prov[u]]:  # u is one of them
            if w != u and att <= self._prevent(w):
                return False
        return True

    def _path(self, u: int) -> bool:
        if not self.convoyed[u]:
            return True
        fleets = self.conv_fleets.get(u)
        if not fleets:
            return self.land_ok[u]
        if self.any_route:  # 1971: disrupted when any route is
            ok = all(self.resolve(f) for f in fleets)
        else:
            good = [self.prov[f] for f in fleets if self.resolve(f)]
            ok = bool(good) and bool(
                provinces_on_routes(self.m, self.prov[u], self.dest_prov[u], good))
        return ok or self.land_ok[u]

    def _support_count(self, supporters: list[int] | tuple[int, ...],
                       exclude_power: int = -1) -> int:
        if not supporters:
            return 0
        # (self.resolve called as a method: a bound method kept in a variable is called
        # through Python's generic call once compiled)
        power = self.power
        return sum(1 for s in supporters if power[s] != exclude_power and self.resolve(s))

    def _hold(self, p: int) -> int:
        o = self.occ[p]
        if o < 0:
            return 0
        if self.typ[o] == T_MOVE:
            return 0 if self.resolve(o) else 1
        return 1 + self._support_count(self.hold_supp.get(o, _NONE))

    def _attack(self, u: int) -> int:
        o = self.occ[self.dest_prov[u]]
        if o < 0 or (self.h2h[u] != o and self.typ[o] == T_MOVE and self.resolve(o)):
            return 1 + self._support_count(self.move_supp.get(u, _NONE))
        if self.power[o] == self.power[u]:
            return 0
        return 1 + self._support_count(self.move_supp.get(u, _NONE), self.power[o])

    def _defend(self, u: int) -> int:
        return 1 + self._support_count(self.move_supp.get(u, _NONE))

    def _prevent(self, u: int) -> int:
        if not self._path(u):
            return 0
        v = self.h2h[u]
        if v >= 0 and self.resolve(v):
            return 0
        return 1 + self._support_count(self.move_supp.get(u, _NONE))

    def _support_cut(self, s: int) -> bool:
        if self.open_[self.prov[s]]:
            return False  # units entering an open space meet nobody
        power = self.power
        for a in self.attackers.get(self.prov[s], _NONE):
            if power[a] == power[s] or self.prov[a] == self.sup_prov[s]:
                continue
            if self.convoyed[a] and self._convoy_spares(a, s):
                continue
            if self._path(a):
                return True
        return False

    def _convoy_spares(self, a: int, s: int) -> bool:
        """Paradox rules that keep a convoyed army from cutting support (DATC 4.A.2)."""
        rule = self.paradox
        if rule in ("1971", "2000"):
            # no cut of a support for an attack on a fleet necessary for the army's convoy
            # (1971: every convoying fleet; 2000/2023: one without which no route is left)
            target = self.sup_prov[s]
            fleets = self.conv_fleets.get(a, _NONE)
            if self.dest[s] < 0 or not any(self.prov[f] == target for f in fleets):
                return False
            if rule == "1971":
                return True
            rest = [self.prov[f] for f in fleets if self.prov[f] != target]
            return not provinces_on_routes(self.m, self.prov[a], self.dest_prov[a], rest)
        if rule == "1982":
            # no cut of a support for an action in a body of water with a convoying fleet
            target = self.sup_prov[s]
            o = self.occ[target]
            return self.m.convoy_prov[target] and o >= 0 and self.typ[o] == T_CONVOY
        return False

    def backup(self, cycle: list[int]) -> None:
        convoys = [u for u in cycle if self.typ[u] == T_CONVOY]
        if not convoys:
            if all(self.typ[u] == T_MOVE for u in cycle):
                for u in cycle:  # circular movement: all moves succeed
                    self.settle(u, True)
                return
            for u in cycle:
                self.settle(u, False)
            return
        if self.paradox == "all_hold":
            for u in cycle:
                if self.typ[u] == T_MOVE:
                    self.settle(u, False)
            for u in convoys:
                self.settle(u, False)
            return
        # Szykman (and the fallback of the other rules for paradoxes they leave open):
        # the convoying fleets in the paradox do not convoy
        for u in convoys:
            self.settle(u, False)


class _RuleMovement(_Movement):
    """The movement phase of a map whose rules weaken some moves (Map.move_strength) or let
    some through only when supported (Map.needs_support): the same decisions, with a move's
    own strength read from a table and moves that do not cross left out. The standard game
    never builds one."""

    __slots__ = ()

    def _validate(self, orders: list[Order | None], options: dict) -> None:
        if self.m.tables.coast_change:
            orders = self._coast_changes(orders)
        super()._validate(orders, options)

    def _coast_changes(self, orders: list[Order | None]) -> list[Order | None]:
        """Moves from one coast of a province to another (Map.coast_change) hold for the
        phase and are remembered in `shift`; a support of a move within one province is a
        support to hold."""
        m = self.m
        loc_prov, change = m.loc_prov, m.tables.coast_change
        out = list(orders)
        shift = {}
        for u, o in enumerate(orders):
            if o is None or o.target is None:
                continue
            if o.type == MOVE and loc_prov[o.target] == self.prov[u]:
                others = change.get((self.kind[u], self.loc[u]), ())
                target = o.target
                if target == self.prov[u] and len(others) == 1:
                    target = others[0]  # the one other coast it may go to
                if target in others and o.at < 0:
                    shift[u] = target
                    out[u] = None  # it holds
            elif (o.type == SUPPORT and o.aux_loc is not None
                  and loc_prov[o.target] == loc_prov[o.aux_loc]):
                out[u] = o.but(target=None)  # "understood as a support order to Hold"
        self.shift = shift or None
        return out

    def _rule_strengths(self, moves: list[int], options: dict) -> None:
        """Moves over an edge a rule weakens (Map.move_strength) get their strength before
        supports; moves a rule lets through only with support (Map.needs_support) that have
        none fail at once: they reach nobody, cut nothing and keep nobody out."""
        m = self.m
        typ, kind, loc, dest, convoyed = self.typ, self.kind, self.loc, self.dest, self.convoyed
        ms = m.tables.move_strength
        if ms:
            base = [1] * len(typ)
            for u in moves:
                if typ[u] == T_MOVE and not convoyed[u]:
                    base[u] = ms.get((kind[u], loc[u], dest[u]), 1)
            self.base = base
            if options.get("crossing_strength", "move") == "move":
                self.base_held = base
            stalls = m.rules.stalls(m, options) if m.rules.has_stalls else None
            if stalls:
                self.feeble = {u for u in moves if typ[u] == T_MOVE and base[u] == 0
                               and (kind[u], loc[u], dest[u]) in stalls}
        season = self.pos.phase.season if self.pos is not None else None
        needs = m.tables.needs_support.get(season) if m.tables.needs_support and season else None
        if needs:
            self.stuck, self.needy = set(), set()
            given = options.get("supported_crossing", "ordered") == "given"
            for u in moves:
                if typ[u] == T_MOVE and not convoyed[u] and (kind[u], loc[u], dest[u]) in needs:
                    if not self.move_supp.get(u):
                        # it stays where it is, as if it held (its result says it bounced)
                        typ[u] = T_HOLD
                        self.stuck.add(u)
                    elif given:
                        self.needy.add(u)

    def _hold(self, p: int) -> int:
        o = self.occ[p]
        if o < 0:
            return 0
        if self.typ[o] == T_MOVE and self.resolve(o):
            return 0
        # (a unit weaker where it stands, Map.hold_strength: a flotilla in deep water)
        held = self.m.tables.hold_strength
        one = held.get((self.kind[o], p), 1) if held else 1
        if self.typ[o] == T_MOVE:
            return one
        return one + self._support_count(self.hold_supp.get(o, _NONE))

    def _unsupported(self, u: int) -> bool:
        """A move that crosses only if a support is given (option supported_crossing =
        "given") and gets none: it does not cross, like a move stuck for want of support."""
        return not any(self.resolve(s) for s in self.move_supp.get(u, _NONE))

    def _move(self, u: int) -> bool:
        if self.convoyed[u] and not self._path(u):
            return False
        needy = self.needy
        if needy and u in needy and self._unsupported(u):
            return False
        if self.feeble and u in self.feeble and self._attack(u) == 0:
            return False  # an attack of strength 0 moves nowhere (rules' stalls)
        dp = self.dest_prov[u]
        if self.open_[dp]:
            return True  # nobody bounces, nobody is kept out of an open space
        if self.occ[dp] < 0 and len(self.attackers[dp]) == 1:
            return True  # an empty province nobody else tries to enter
        att = self._attack(u)
        if att == 0 and self.base is None:
            return False  # (its own power's unit stays in the way)
        v = self.h2h[u]
        if v >= 0 and needy and v in needy and self._unsupported(v):
            v = -1  # the other never crosses: no head-to-head battle, it holds
        if v >= 0:
            if att <= self._defend(v):
                return False
        else:
            hold = self._hold(dp)
            # (a move of strength 0 still enters a province its unit leaves, unopposed)
            if att <= hold and (att or hold):
                return False
        for w in self.attackers[self.dest_prov[u]]:  # u is one of them
            if w != u and att <= self._prevent(w):
                return False
        return True

    def _attack(self, u: int) -> int:
        o = self.occ[self.dest_prov[u]]
        one = 1 if self.base is None else self.base[u]
        if o < 0 or (self.h2h[u] != o and self.typ[o] == T_MOVE and self.resolve(o)):
            return one + self._support_count(self.move_supp.get(u, _NONE))
        if self.power[o] == self.power[u]:
            return 0
        return one + self._support_count(self.move_supp.get(u, _NONE), self.power[o])

    def _defend(self, u: int) -> int:
        one = 1 if self.base_held is None else self.base_held[u]
        return one + self._support_count(self.move_supp.get(u, _NONE))

    def _prevent(self, u: int) -> int:
        if not self._path(u) or (self.needy and u in self.needy and self._unsupported(u)):
            return 0
        v = self.h2h[u]
        if v >= 0 and self.resolve(v):
            return 0
        one = 1 if self.base_held is None else self.base_held[u]
        return one + self._support_count(self.move_supp.get(u, _NONE))

    def _support_cut(self, s: int) -> bool:
        if self.open_[self.prov[s]]:
            return False  # units entering an open space meet nobody
        power = self.power
        for a in self.attackers.get(self.prov[s], _NONE):
            if power[a] == power[s] or self.prov[a] == self.sup_prov[s]:
                continue
            if self.convoyed[a] and self._convoy_spares(a, s):
                continue
            if self.needy and a in self.needy and self._unsupported(a):
                continue  # it never crosses
            if self._path(a):
                return True
        return False


class _AttackMovement(_RuleMovement):
    """The movement phase of a map with attack spaces (rules/oceans.py): any number of units
    stand there and meet only through attack orders (Order.at, orders/attack.py). Outside
    those spaces every decision is _RuleMovement's; in them, a unit meets only the units
    hostile to it there - one of the two attacks the other's power - and the strengths are
    compared unit against unit (the rules are listed in rules/oceans.py)."""

    __slots__ = ("at", "foes_at", "foes_in", "sup_of")

    def _validate(self, orders: list[Order | None], options: dict) -> None:
        m = self.m
        space, loc_prov, power, prov = m.tables.attack_space, m.loc_prov, self.power, self.prov
        n = len(orders)
        at = self.at = [-1] * n
        self.sup_of: dict[int, int] = {}  # support -> the unit it supports (attack spaces)
        orders = list(orders)
        bad = []
        for u, o in enumerate(orders):
            if o is None or o.at < 0 or o.type == SUPPORT:
                continue
            p = loc_prov[o.target] if o.type == MOVE and o.target is not None else prov[u]
            if o.type not in (MOVE, HOLD) or o.at == power[u] or o.at >= len(m.powers) \
                    or not space[p]:
                bad.append(u)  # an attack outside an attack space, or on its own power
                orders[u] = None
                continue
            at[u] = o.at
        super()._validate(orders, options)
        for u in bad:
            self.void[u] = True
        for u in range(n):
            if at[u] >= 0 and orders[u].type == MOVE and self.typ[u] != T_MOVE:  # type: ignore[union-attr]
                at[u] = -1  # a void move attacks nobody
        self._space_supports(orders)
        self._hostility()

    def _at_in(self, u: int, p: int) -> int:
        """The power unit u attacks in space p (-1: none)."""
        if self.typ[u] == T_MOVE:
            return self.at[u] if self.dest_prov[u] == p else -1
        return self.at[u] if self.prov[u] == p else -1

    def _space_supports(self, orders: list[Order | None]) -> None:
        """Supports given in, into or of a unit in an attack space, judged again: the unit
        supported is the one the order names among several (not the supporter itself; its
        attack, when the order names one; else one of the supporter's power, an attacker
        first), and a unit there may support a unit into or in its own space."""
        m = self.m
        space, loc_prov = m.tables.attack_space, m.loc_prov
        typ, void, dest, sup_prov = self.typ, self.void, self.dest, self.sup_prov
        for u, o in enumerate(orders):
            if o is None or o.type != SUPPORT or o.aux_loc is None:
                continue
            ap = loc_prov[o.aux_loc]
            tp = loc_prov[o.target] if o.target is not None else -1
            if not (space[ap] or (tp >= 0 and space[tp]) or o.at >= 0):
                continue
            if typ[u] == T_SUPPORT:  # undo what the standard checks made of it
                lst = (self.move_supp if dest[u] >= 0 else self.hold_supp)
                for key, sups in list(lst.items()):
                    if u in sups:
                        sups.remove(u)
                        if not sups:
                            del lst[key]
            typ[u], dest[u], sup_prov[u] = T_HOLD, -1, -1
            s = self._supported(u, o, ap, tp)
            if s < 0:
                void[u] = True
                continue
            typ[u], void[u] = T_SUPPORT, False
            self.sup_of[u] = s
            if tp < 0:
                sup_prov[u] = ap
                self.hold_supp.setdefault(s, []).append(u)
            else:
                sup_prov[u] = tp
                dest[u] = s
                self.move_supp.setdefault(s, []).append(u)

    def _supported(self, u: int, o: Order, ap: int, tp: int) -> int:
        """The unit support order o of unit u supports, or -1 when it is void."""
        m = self.m
        kind, power, prov, typ, at = self.kind, self.power, self.prov, self.typ, self.at
        here = self.stack.get(ap, _NONE) if self.open_[ap] else (
            (self.occ[ap],) if self.occ[ap] >= 0 else _NONE)
        best, score = -1, -1
        for s in here:
            if s == u or (o.aux_kind is not None and kind[s] != o.aux_kind):
                continue
            if tp < 0:
                if typ[s] == T_MOVE:
                    continue
            elif (typ[s] != T_MOVE or self.dest_prov[s] != tp
                  or (o.target != tp and self.dest[s] != o.target) or self.convoyed[s]):
                continue
            if o.at >= 0 and at[s] != o.at:
                continue
            sc = 2 * (power[s] == power[u]) + (at[s] >= 0)
            if sc > score:
                best, score = s, sc
        if best < 0:
            return -1
        into = prov[best] if tp < 0 else tp
        if not (into == prov[u] and m.tables.attack_space[into]):  # a support into its own space
            reach = m.tables.support_reach[kind[u]][self.loc[u]]
            if self.blocked and self.blocked.get(power[u]):
                reach = support_reach(m, kind[u], self.loc[u], power[u], self.blocked)
            if into not in reach or into == prov[u]:
                return -1
        if tp < 0 and m.tables.no_hold_support \
                and (kind[best], prov[best]) in m.tables.no_hold_support:
            return -1
        return best

    def _hostility(self) -> None:
        """For each unit, the units hostile to it in the space it stands in (foes_in) and in
        the space it enters (foes_at): in attack spaces where some unit attacks."""
        space, typ, prov, dest_prov, power = (self.m.tables.attack_space, self.typ, self.prov,
                                              self.dest_prov, self.power)
        there: dict[int, list[int]] = {}
        for u in range(len(typ)):
            if space[prov[u]]:
                there.setdefault(prov[u], []).append(u)
            if typ[u] == T_MOVE and space[dest_prov[u]]:
                there.setdefault(dest_prov[u], []).append(u)
        self.foes_in: dict[int, list[int]] = {}
        self.foes_at: dict[int, list[int]] = {}
        at_in = self._at_in
        for p, us in there.items():
            attacks = [(u, at_in(u, p)) for u in us]
            if all(a < 0 for _, a in attacks):
                continue
            for x, ax in attacks:
                foes = [y for y, ay in attacks
                        if power[y] != power[x] and (ax == power[y] or ay == power[x])]
                if foes:
                    (self.foes_in if prov[x] == p else self.foes_at)[x] = foes

    def _present(self, y: int, p: int) -> bool:
        """Unit y is in space p at the end of the phase, or tries to enter it."""
        return self.prov[y] != p or self.typ[y] != T_MOVE or not self.resolve(y)

    def _strength(self, y: int, p: int, x: int) -> int:
        """Unit y's strength against unit x in space p: entering, 1 plus its move's
        supports; staying, 1 plus its supports to hold (1 when it failed to leave). An
        attack on x's power does not count x's power's supports."""
        ex = self.power[x] if self._at_in(y, p) == self.power[x] else -1
        m = self.m
        if self.prov[y] == p:
            one = m.tables.hold_strength.get((self.kind[y], p), 1) if m.tables.hold_strength else 1
            if self.typ[y] == T_MOVE:
                return one
            return one + self._support_count(self.hold_supp.get(y, _NONE), ex)
        if not self._path(y):
            return 0
        one = 1 if self.base is None else self.base[y]
        return one + self._support_count(self.move_supp.get(y, _NONE), ex)

    def _move(self, u: int) -> bool:
        dp = self.dest_prov[u]
        if not self.m.tables.attack_space[dp]:
            return super()._move(u)
        if self.convoyed[u] and not self._path(u):
            return False
        for y in self.foes_at.get(u, _NONE):
            if self._present(y, dp) and self._strength(u, dp, y) <= self._strength(y, dp, u):
                return False
        return True

    def beaten(self, y: int) -> tuple[int, int] | None:
        """(attacker, margin) of the strongest attack that beats unit y, staying in its
        attack space, or None."""
        p = self.prov[y]
        best = None
        for x in self.foes_in.get(y, _NONE):
            if self._at_in(x, p) != self.power[y]:
                continue
            if self.prov[x] != p and not self.resolve(x):
                continue  # an attack that did not enter
            margin = self._strength(x, p, y) - self._strength(y, p, x)
            if margin > 0 and (best is None or margin > best[1]):
                best = (x, margin)
        return best

    def _dislodged(self, u: int) -> bool:
        if self.m.tables.attack_space[self.prov[u]]:
            return u in self.foes_in and self.beaten(u) is not None
        return super()._dislodged(u)

    def _support_dislodged(self, s: int) -> bool:
        if self.m.tables.attack_space[self.prov[s]]:
            return s in self.foes_in and self.beaten(s) is not None
        return super()._support_dislodged(s)

    def _support_cut(self, s: int) -> bool:
        p = self.prov[s]
        if not self.m.tables.attack_space[p]:
            return super()._support_cut(s)
        foes = self.foes_in.get(s)
        if not foes:
            return False
        w = self.sup_of.get(s, self.dest[s])
        # a support into its own space is not cut by the power the supported attack attacks
        against = self._at_in(w, p) if w >= 0 and self.sup_prov[s] == p else -1
        for x in foes:
            if self._at_in(x, p) != self.power[s] or self.power[x] == against:
                continue
            if self.prov[x] != p and (self.prov[x] == self.sup_prov[s] or not self._path(x)):
                continue  # (an attack from where the support goes does not cut it)
            return True
        return False

    def beaten_units(self) -> dict[int, tuple[int, int]]:
        """Units beaten in attack spaces: unit -> (attacker, margin)."""
        out = {}
        for y in self.foes_in:
            if self.typ[y] == T_MOVE and self.resolve(y):
                continue  # it left
            got = self.beaten(y)
            if got is not None:
                out[y] = got
        return out


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


def _why_void(mv: _Movement, o: Order, u: int, options: dict) -> R.Reason:
    """Why unit u's order `o` is void: the checks of _validate, named."""
    m = mv.m
    kind, loc, power, prov = mv.kind[u], mv.loc[u], mv.power[u], mv.prov[u]
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
    them = m.unit_str(mv.kind[s], mv.loc[s])
    if t == CONVOY:
        if mv.typ[s] != T_MOVE or mv.dest_prov[s] != tp:
            return R.reason(R.CONVOY_UNMATCHED, f"{them} was not ordered to {name[tp]}"
                            if tp >= 0 else "")
        if not (m.kind_convoys[kind] and m.convoy_prov[prov]):
            return R.Reason(R.CANNOT_CONVOY, f"{m.unit_str(kind, loc)} cannot convoy")
        if not convoy_reaches(m, mv.kind[s], mv.prov[s], tp, mv._seas()):
            return R.Reason(R.NO_CONVOY_ROUTE, f"no fleets could convoy {them} to {name[tp]}")
        return R.Reason(R.CONVOY_NOT_NEEDED, f"this fleet is on no route of {them} to "
                                             f"{name[tp]}, or it went by land")
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
    # (each class called by name: compiled, a call through a variable holding the class is a
    # generic Python call)
    mv: _Movement
    if m.tables.has_attack_spaces:
        mv = _AttackMovement(m, units, orders, options, blocked, pos)
    elif (m.tables.move_strength or m.tables.needs_support or m.tables.hold_strength
          or m.tables.coast_change):
        mv = _RuleMovement(m, units, orders, options, blocked, pos)
    else:
        mv = _Movement(m, units, orders, options, blocked, pos)
    n = len(units)
    typ = mv.typ
    # decisions that depend on nothing else are settled before the resolver runs: a support
    # or convoy nobody attacks, and a move over land into an empty province nobody else
    # enters
    attackers, occ = mv.attackers, mv.occ
    needy = mv.needy  # (moves that cross only if a support is given: never sure)
    if mv.feeble:  # (and moves of attack strength 0 that enter nowhere)
        needy = needy | mv.feeble
    # (attacks there: never sure)
    space = m.tables.attack_space if m.tables.has_attack_spaces else None
    for u, t in enumerate(typ):
        if t == T_MOVE:
            dp = mv.dest_prov[u]
            if (not mv.convoyed[u] and occ[dp] < 0 and len(attackers[dp]) == 1
                    and not (needy and u in needy) and not (space and space[dp])):
                mv.settle(u, True)
        elif t != T_HOLD and mv.prov[u] not in attackers and not (space and space[mv.prov[u]]):
            mv.settle(u, True)
    ok = [mv.resolve(u) if t != T_HOLD else True for u, t in enumerate(typ)]
    # where each unit ends, who is dislodged
    occ, dest_prov, dest = mv.occ, mv.dest_prov, mv.dest
    dislodger: dict[int, int] = {}
    moved = [u for u in range(n) if typ[u] == T_MOVE and ok[u]]
    for u in moved:
        o = occ[dest_prov[u]]
        if o >= 0 and not (typ[o] == T_MOVE and ok[o]):
            dislodger[o] = u
    routed: set[int] = set()  # beaten in an attack space by the margin that disbands
    if space:
        for o, (u, margin) in mv.beaten_units().items():  # type: ignore[attr-defined]
            dislodger[o] = u
            if m.tables.rout_margin is not None and margin >= m.tables.rout_margin:
                routed.add(o)
    new_units: list[Unit] = list(units)
    made = unit_cache(m).unit
    for u in moved:
        new_units[u] = made(mv.power[u], mv.kind[u], dest[u])
    if mv.shift:  # coast changes of the units that were not dislodged
        for u, coast in mv.shift.items():
            new_units[u] = made(mv.power[u], mv.kind[u], coast)
    if dislodger:
        new_units = [nu for u, nu in enumerate(new_units) if u not in dislodger]
    # standoffs: an empty province that two or more units tried to enter, none succeeding
    # (crowded provinces are never open spaces; one nobody entered is empty unless the unit
    # there stayed: it did not leave and, nobody entering, was not dislodged)
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
    if not dislodger:
        return MovementResult(new_units, [], frozenset(contested), list(orders), mv, ok,
                              dislodger)
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
    out = MovementResult(new_units, dislodged, frozenset(contested), list(orders), mv, ok,
                         dislodger)
    out.routed = disbanded
    return out
