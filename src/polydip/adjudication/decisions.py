"""The decisions of a movement phase: the orders validated, then resolved by the guess
algorithm (adjudication/resolver.py).

The decisions are the DATC's (5.B): one boolean per order — a move succeeds, a support is
given (not cut, supporter not dislodged), a convoy is effective (fleet not dislodged) — and the
strengths (hold, attack, defend, prevent) are computed from them. Options select the rule
choices of DATC chapter 4 where rulebooks differ (see docs/options.md).

What a variant's rules change is read from the Map's tables and the rules' hooks, never by
name: supports a unit may not give (`Map.support_reach`, `Map.no_hold_support`), the
strength of a move before supports (`Map.move_strength`: 0 across Latin American
Diplomacy's Greater Andes), of a unit holding (`Map.hold_strength`), moves that fail unless
supported (`Map.needs_support`), moves from one coast to another (`Map.coast_change`), units
that may move only to some provinces now (the `move_limits` hook). Each rule term of a
decision is a test of a table or set that is empty (or None) on a map without the rule, so
the standard game pays one test for it. Attack spaces (LAD's oceans) are decided in
adjudication/attacks.py, a subclass; the phase is run by adjudication/movement.py.

`# mypyc: NAME` marks a line written for the compiled build (docs/speed.md names each idiom).
"""

from __future__ import annotations

from typing import Final

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
)
from polydip.adjudication.resolver import Resolver
from polydip.errors import NotSupportedError
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, HOLD, MOVE, SUPPORT, Order
from polydip.state import Position, Unit, unit_index

_NONE: Final[tuple[int, ...]] = ()  # mypyc: final
_NO_MOVES: Final[frozenset[int]] = frozenset()  # mypyc: final

# order codes of the decisions
T_HOLD: Final = 0  # mypyc: final
T_MOVE: Final = 1  # mypyc: final
T_SUPPORT: Final = 2  # mypyc: final
T_CONVOY: Final = 3  # mypyc: final



class Movement(Resolver):
    """The orders of a movement phase bound to their units and validated, and the
    decisions the resolver asks (`adjudicate`, `backup`)."""

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
        "hold_str",
        "hold_supp",
        "kind",
        "land_ok",
        "loc",
        "m",
        "move_supp",
        "moves",
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
        self.occ = self._occupants()
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
        self.crowded: list[int] = []  # provinces two or more units try to enter
        self.fleet_seas: frozenset[int] | None = None
        self.blocked = blocked or {}
        # the rule terms, each empty or None where no rule of the map sets it:
        # a unit's strength where it holds, when a rule makes it other than 1 (a flotilla in
        # deep water, Map.hold_strength): (kind, province) -> strength
        self.hold_str: dict[tuple[int, int], int] = m.tables.hold_strength
        # a move's strength before supports, when a rule makes it other than 1: in its
        # attack (base) and in its prevent and defend strengths (base_held)
        self.base: list[int] | None = None
        self.base_held: list[int] | None = None
        self.stuck: set[int] | frozenset[int] = _NO_MOVES  # moves a rule lets through only
        self.needy: set[int] | frozenset[int] = _NO_MOVES  # when supported: without; with a
        # support that must be given (an option)
        self.feeble: set[int] | frozenset[int] = _NO_MOVES  # weakened moves that enter
        # nowhere with an attack strength of 0 (the rules' `stalls` under an option)
        self.shift: dict[int, int] | None = None  # coast changes: unit -> coast
        # the units ordered to move, in order (a move found void or stuck later is among
        # them: its type says so)
        self.moves: list[int] = []
        self._validate(orders, options)

    def _occupants(self) -> list[int]:
        """The unit in each province (-1: none); units in open spaces go to `stack`."""
        m = self.m
        first, several = unit_index(m, self.units)  # (kept from binding the orders to them)
        if not several and not m.tables.has_open_spaces:
            return first  # one unit at most in each province (read, never changed)
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
        return occ

    # ---- order validation (DATC 4.B, 4.C, 4.E.1): the checks are adjudication/legality's ---

    def _validate(self, orders: list[Order | None], options: dict) -> None:
        m = self.m
        if m.tables.coast_change:
            orders = self._coast_changes(orders)
        moves, supports, convoys, direct = self._read_moves(orders)
        self.moves = moves
        self._read_convoys(orders, convoys)
        # does each move use a convoy?  (DATC 4.A.3, 2023 rulebook by default)
        adjacent = options.get("adjacent_convoy", "2023")
        conv_fleets = self.conv_fleets
        for u in moves:
            fleets = conv_fleets.get(u) if conv_fleets else None
            if not fleets and direct[u]:
                o = orders[u]
                assert o is not None
                if not o.via:
                    continue  # the common case: an ordinary move
            self._convoy_need(u, orders, fleets, direct[u], adjacent)
        self._read_supports(orders, supports, direct)
        if m.tables.move_strength or m.tables.needs_support:
            self._rule_strengths(moves, options)
        self._battles(moves)

    def _read_moves(self, orders: list[Order | None]
                    ) -> tuple[list[int], list[int], list[int], list[bool]]:
        """Pass 1: each move's destination and coast (its convoy need is decided once the
        convoys are read); the units ordered to support and to convoy, and which moves are
        to an adjacent location (no convoy needed)."""
        m = self.m
        typ, dest, dest_prov, void = self.typ, self.dest, self.dest_prov, self.void
        kind, loc, power = self.kind, self.loc, self.power
        loc_prov = m.loc_prov
        blocked = self.blocked
        limits = move_limits(m, self.pos) if m.tables.has_move_limits else None
        refuse = bool(blocked or limits)  # passages closed to a power, move limits
        moves: list[int] = []
        supports: list[int] = []
        convoys: list[int] = []
        direct = [False] * len(orders)
        cache = m.caches.move_target  # (typed: compiled, entries read as (int, bool))
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
                if refuse:
                    no = self._refused(u, o, d, limits)
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
        return moves, supports, convoys, direct

    def _read_convoys(self, orders: list[Order | None], convoys: list[int]) -> None:
        """Pass 2: a convoy order is valid when it names an army ordered to move where it
        says, by a route that could exist (`may_convoy`)."""
        m = self.m
        typ, dest, dest_prov, void = self.typ, self.dest, self.dest_prov, self.void
        kind, prov, conv_fleets = self.kind, self.prov, self.conv_fleets
        loc_prov = m.loc_prov
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
            fl = conv_fleets.get(a)  # mypyc: no setdefault
            if fl is None:
                conv_fleets[a] = [u]
            else:
                fl.append(u)

    def _read_supports(self, orders: list[Order | None], supports: list[int],
                       direct: list[bool]) -> None:
        """Pass 4: a support is valid into a province the supporter may support into
        (Map.support_reach), of a unit ordered to hold there or to move where it says."""
        m = self.m
        typ, dest, dest_prov, void = self.typ, self.dest, self.dest_prov, self.void
        kind, loc, prov, power, convoyed = self.kind, self.loc, self.prov, self.power, self.convoyed
        loc_prov = m.loc_prov
        blocked = self.blocked
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
                sl = hold_supp.get(s)  # mypyc: no setdefault
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
                sl = move_supp.get(s)  # mypyc: no setdefault
                if sl is None:
                    move_supp[s] = [u]
                else:
                    sl.append(u)

    def _battles(self, moves: list[int]) -> None:
        """The units moving into each province (`attackers`), the provinces two or more try
        to enter (`crowded`) and the head-to-head battles (`h2h`)."""
        typ, prov, dest_prov, convoyed = self.typ, self.prov, self.dest_prov, self.convoyed
        attackers, crowded, h2h = self.attackers, self.crowded, self.h2h
        occ, open_ = self.occ, self.open_
        no_swap = self.m.tables.no_swap
        for u in moves:
            if typ[u] != T_MOVE:
                continue
            dp = dest_prov[u]
            lst = attackers.get(dp)  # mypyc: no setdefault
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

    def _unsupported(self, u: int) -> bool:
        """A move that crosses only if a support is given (option supported_crossing =
        "given") and gets none: it does not cross, like a move stuck for want of support."""
        return not any(self.resolve(s) for s in self.move_supp.get(u, _NONE))

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
        power = self.power
        # mypyc: method call
        return sum(1 for s in supporters if power[s] != exclude_power and self.resolve(s))

    def _hold(self, p: int) -> int:
        o = self.occ[p]
        if o < 0:
            return 0
        if self.typ[o] == T_MOVE and self.resolve(o):
            return 0
        hs = self.hold_str
        one = hs.get((self.kind[o], p), 1) if hs else 1
        if self.typ[o] == T_MOVE:
            return one
        return one + self._support_count(self.hold_supp.get(o, _NONE))

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
        if not self._path(u):
            return 0
        needy = self.needy
        if needy and u in needy and self._unsupported(u):
            return 0
        v = self.h2h[u]
        if v >= 0 and self.resolve(v):
            return 0
        one = 1 if self.base_held is None else self.base_held[u]
        return one + self._support_count(self.move_supp.get(u, _NONE))

    def _support_cut(self, s: int) -> bool:
        if self.open_[self.prov[s]]:
            return False  # units entering an open space meet nobody
        power, needy = self.power, self.needy
        for a in self.attackers.get(self.prov[s], _NONE):
            if power[a] == power[s] or self.prov[a] == self.sup_prov[s]:
                continue
            if self.convoyed[a] and self._convoy_spares(a, s):
                continue
            if needy and a in needy and self._unsupported(a):
                continue  # it never crosses
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

    def beaten_units(self) -> dict[int, tuple[int, int]]:
        """Units beaten in attack spaces: unit -> (attacker, margin). None here: a map with
        attack spaces is decided by attacks.AttackMovement."""
        return {}
