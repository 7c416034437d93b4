"""Attack spaces (rules/oceans.py, LAD's oceans): any number of units stand there and meet
only through attack orders (Order.at, orders/attack.py).

Outside those spaces every decision is decisions.Movement's; in them, a unit meets only the
units hostile to it there - one of the two attacks the other's power - and the strengths are
compared unit against unit (the rules are listed in rules/oceans.py). The phase is run by
adjudication/movement.py, which builds an AttackMovement for a map with attack spaces.
"""

from __future__ import annotations

from polydip.adjudication.decisions import _NONE, T_HOLD, T_MOVE, T_SUPPORT, Movement
from polydip.adjudication.legality import support_reach
from polydip.orders.model import HOLD, MOVE, SUPPORT, Order


class AttackMovement(Movement):
    """The movement phase of a map with attack spaces."""

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
        no_hold = m.tables.no_hold_support
        if tp < 0 and no_hold and (kind[best], prov[best]) in no_hold:
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
        for p, us in there.items():
            attacks = [(u, self._at_in(u, p)) for u in us]  # mypyc: method call
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
