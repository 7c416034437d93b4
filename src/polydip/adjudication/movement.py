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

from polydip.adjudication.convoy import provinces_on_routes
from polydip.adjudication.legality import (
    Closed,
    convoy_reach,
    convoy_seas,
    limited,
    may_convoy,
    move_limits,
    move_target,
    route_without,
    shut,
    support_reach,
)
from polydip.adjudication.resolver import Resolver
from polydip.adjudication.retreats import retreat_options
from polydip.errors import NotSupportedError
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, HOLD, MOVE, SUPPORT, Order
from polydip.state import Dislodged, Position, Unit

_NONE: tuple[int, ...] = ()
_NO_MOVES: frozenset[int] = frozenset()

# order codes used in the hot path
T_HOLD, T_MOVE, T_SUPPORT, T_CONVOY = 0, 1, 2, 3

# result words, as the diplomacy package writes them
BOUNCE, CUT, DISLODGED, VOID, NO_CONVOY, DISRUPTED = (
    "bounce", "cut", "dislodged", "void", "no convoy", "disrupted")


class MovementResult:
    """The outcome of a movement phase. `results` (per unit of the input position, its
    result words, [] = success) is worked out on first use."""

    __slots__ = ("_dislodger", "_mv", "_ok", "_results", "contested", "dislodged", "orders",
                 "units")

    def __init__(self, units: list[Unit], dislodged: list[Dislodged],
                 contested: frozenset[int], orders: list[Order | None], mv: _Movement,
                 ok: list[bool], dislodger: dict[int, int]) -> None:
        self.units = units  # after the phase (dislodged units removed)
        self.dislodged = dislodged
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
        occ = [-1] * m.n_prov
        self.open_ = m.open_space
        self.stack: dict[int, list[int]] = {}  # units in open spaces (several per space)
        for i, p in enumerate(self.prov):
            if self.open_[p]:
                self.stack.setdefault(p, []).append(i)
                continue
            if occ[p] >= 0:
                raise NotSupportedError(
                    f"two units in {m.prov_abbr[p]}: several units in one space need a "
                    "stacking rule, which this variant does not declare")
            occ[p] = i
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
        self._validate(orders, options)

    # ---- order validation (DATC 4.B, 4.C, 4.E.1): the checks are adjudication/legality's ---

    def _validate(self, orders: list[Order | None], options: dict) -> None:
        m = self.m
        typ, dest, dest_prov, void = self.typ, self.dest, self.dest_prov, self.void
        kind, loc, prov, power = self.kind, self.loc, self.prov, self.power
        convoyed, conv_fleets = self.convoyed, self.conv_fleets
        loc_prov = m.loc_prov
        blocked = self.blocked
        limits = move_limits(m, self.pos) if m.has_move_limits else None
        refused = self._refused if blocked or limits else None  # passages, limits
        moves, supports, convoys = [], [], []
        direct = {}  # move -> its destination is adjacent (no convoy needed)
        # pass 1: moves (destination, coasts) — convoy need decided after convoys are read
        cache = m.memo.setdefault("move_target", {})
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
                    void[u] = True
                    continue
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
            conv_fleets.setdefault(a, []).append(u)
        # pass 3: does each move use a convoy?  (DATC 4.A.3, 2023 rulebook by default)
        adjacent = options.get("adjacent_convoy", "2023")
        for u in moves:
            fleets = conv_fleets.get(u)
            o = orders[u]
            assert o is not None
            via = o.via
            if not fleets and not via and direct[u]:
                continue  # the common case: an ordinary move
            own = False
            if fleets:
                # intent to convoy: a legal convoy order by a fleet of the army's own power
                own = any(power[f] == power[u] for f in fleets)
                on_route = provinces_on_routes(m, prov[u], dest_prov[u],
                                               [prov[f] for f in fleets])
                # fleets not on any complete route cannot help: their convoy is void
                for f in fleets:
                    if prov[f] not in on_route:
                        typ[f] = T_HOLD
                        void[f] = True
                fleets = conv_fleets[u] = [f for f in fleets if typ[f] == T_CONVOY]
            if not direct[u] or (via and adjacent == "2023"):
                # a move that needs a convoy (or says it goes by one and may not fall back on
                # the land route) is legal when a convoy route could exist at all (DATC
                # 6.D.8, 6.D.32); without convoy orders it simply fails
                if not fleets and dest_prov[u] not in convoy_reach(m, kind[u], prov[u],
                                                                   self._seas()):
                    typ[u] = T_HOLD
                    void[u] = True
                    continue
            if not direct[u]:
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
        # pass 4: supports (into provinces the supporter may support into, Map.support_reach)
        reach_prov = m.support_reach
        no_hold = m.no_hold_support
        closed_to = blocked.get if blocked else None
        sup_prov, hold_supp, move_supp = self.sup_prov, self.hold_supp, self.move_supp
        occ, open_ = self.occ, self.open_
        for u in supports:
            o = orders[u]
            assert o is not None
            target = o.target
            if o.aux_loc is None:
                void[u] = True
                continue
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
                hold_supp.setdefault(s, []).append(u)
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
                move_supp.setdefault(s, []).append(u)
        if m.move_strength or m.needs_support:
            self._rule_strengths(moves, options)
        # attackers and head-to-head battles
        attackers = self.attackers
        crowded = []
        h2h = self.h2h
        no_swap = m.no_swap
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
        resolve = self.resolve
        return any(resolve(a) for a in self.attackers.get(self.prov[u], _NONE))

    def _support_dislodged(self, s: int) -> bool:
        """A dislodged supporter gives no support — except, under the paradox rules of the
        rulebooks, when the army that dislodges it is one whose cut those rules forbid
        (the paradox rule takes precedence over the dislodge rule, DATC 6.F.17)."""
        if self.open_[self.prov[s]]:
            return False
        resolve = self.resolve
        for a in self.attackers.get(self.prov[s], _NONE):
            if self.convoyed[a] and self._convoy_spares(a, s):
                continue
            if resolve(a):
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
        resolve = self.resolve
        if self.any_route:  # 1971: disrupted when any route is
            ok = all(resolve(f) for f in fleets)
        else:
            good = [self.prov[f] for f in fleets if resolve(f)]
            ok = bool(good) and bool(
                provinces_on_routes(self.m, self.prov[u], self.dest_prov[u], good))
        return ok or self.land_ok[u]

    def _support_count(self, supporters: list[int] | tuple[int, ...],
                       exclude_power: int = -1) -> int:
        if not supporters:
            return 0
        resolve = self.resolve
        power = self.power
        return sum(1 for s in supporters if power[s] != exclude_power and resolve(s))

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

    def _rule_strengths(self, moves: list[int], options: dict) -> None:
        """Moves over an edge a rule weakens (Map.move_strength) get their strength before
        supports; moves a rule lets through only with support (Map.needs_support) that have
        none fail at once: they reach nobody, cut nothing and keep nobody out."""
        m = self.m
        typ, kind, loc, dest, convoyed = self.typ, self.kind, self.loc, self.dest, self.convoyed
        ms = m.move_strength
        if ms:
            base = [1] * len(typ)
            for u in moves:
                if typ[u] == T_MOVE and not convoyed[u]:
                    base[u] = ms.get((kind[u], loc[u], dest[u]), 1)
            self.base = base
            if options.get("crossing_strength", "move") == "move":
                self.base_held = base
        season = self.pos.phase.season if self.pos is not None else None
        needs = m.needs_support.get(season) if m.needs_support and season else None
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


def resolve_movement(m: Map, units: list[Unit], orders: list[Order | None],
                     options: dict | None = None, blocked: Closed | None = None,
                     pos: Position | None = None) -> MovementResult:
    """Adjudicate a movement phase. `orders[i]` is the order of `units[i]` (None = hold).
    `blocked`: per power, moves (kind, from, to) closed to it now (controlled passages);
    `pos`: the position, for the rules' hooks."""
    options = options or {}
    cls = _RuleMovement if m.move_strength or m.needs_support else _Movement
    mv = cls(m, units, orders, options, blocked, pos)
    n = len(units)
    resolve = mv.resolve
    typ = mv.typ
    # decisions that depend on nothing else are settled before the resolver runs: a support
    # or convoy nobody attacks, and a move over land into an empty province nobody else
    # enters
    attackers, occ, settle = mv.attackers, mv.occ, mv.settle
    needy = mv.needy  # (moves that cross only if a support is given: never sure)
    for u, t in enumerate(typ):
        if t == T_MOVE:
            dp = mv.dest_prov[u]
            if (not mv.convoyed[u] and occ[dp] < 0 and len(attackers[dp]) == 1
                    and not (needy and u in needy)):
                settle(u, True)
        elif t != T_HOLD and mv.prov[u] not in attackers:
            settle(u, True)
    ok = [resolve(u) if t != T_HOLD else True for u, t in enumerate(typ)]
    # where each unit ends, who is dislodged
    occ, dest_prov, dest = mv.occ, mv.dest_prov, mv.dest
    dislodger: dict[int, int] = {}
    moved = [u for u in range(n) if typ[u] == T_MOVE and ok[u]]
    for u in moved:
        o = occ[dest_prov[u]]
        if o >= 0 and not (typ[o] == T_MOVE and ok[o]):
            dislodger[o] = u
    new_units: list[Unit] = list(units)
    for u in moved:
        new_units[u] = Unit(mv.power[u], mv.kind[u], dest[u])
    if dislodger:
        new_units = [nu for u, nu in enumerate(new_units) if u not in dislodger]
    occupied = [False] * m.n_prov
    loc_prov = m.loc_prov
    for nu in new_units:
        occupied[loc_prov[nu.loc]] = True
    if m.has_open_spaces:  # an open space is never full: units may retreat into it
        occupied = [o and not m.open_space[p] for p, o in enumerate(occupied)]
    # standoffs: an empty province that two or more units tried to enter, none succeeding
    contested = set()
    for p in mv.crowded:
        att = mv.attackers[p]
        if not occupied[p] and not any(ok[a] for a in att):
            if sum(1 for a in att if mv._prevent(a) > 0) >= 2:
                contested.add(p)
    retreat_from_convoy = options.get("retreat_to_convoy_origin", True)
    dislodged = []
    for u, a in sorted(dislodger.items()):
        k, loc = mv.kind[u], mv.loc[u]
        blocked_from = -1 if (mv.convoyed[a] and retreat_from_convoy) else mv.prov[a]
        where = retreat_options(m, k, loc, occupied, contested, blocked_from, mv.power[u],
                                mv.blocked)
        dislodged.append(Dislodged(mv.power[u], k, loc, mv.prov[a], mv.convoyed[a], where))
    return MovementResult(new_units, dislodged, frozenset(contested), list(orders), mv, ok,
                          dislodger)
