"""The `bot` player: coherent, greedy orders for each power it plays, on any variant.

It reads only the position and the legal order codes (never another power's orders) and
works on the fast path (docs/fastpath.md). Per power and phase:

- movement: every unit scores its legal orders (a move onto a center the power does not
  own, one step closer to such a center by its own kind's paths, into an own center under
  threat; a hold on a threatened own center or on a center it is taking) and the best ones
  are taken greedily, no two units to one province and no move onto an own unit that stays;
  an army that cannot get anywhere by land is convoyed by a chain of the power's idle fleets;
  the idle units then support the power's moves (first those into a province an enemy unit
  holds or can reach) and the holds of threatened own units;
- retreats: towards an own center left empty, a center to take, or the nearest one;
- adjustments: builds where the unit built (army or fleet, whichever kind the site allows)
  is nearest to a center to take, under threat first; removals of the units farthest from any
  center to take, off own centers first.

Ties are broken by the game's `rng`, so a seeded game is reproducible.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any

from polydip.orders.model import BUILD, CONVOY, HOLD, MOVE, RETREAT, SUPPORT

_FAR = 10_000  # the distance of a place no path reaches


def bot_player(game: Any, rng: random.Random) -> list[int]:
    """Orders for every power that has items this phase (see the module docstring)."""
    items, legal = game.items(), game.legal()
    codes = [-1] * len(items)
    by_power: dict[int, list[int]] = {}
    for k, (p, _i) in enumerate(items):
        if legal[k]:
            by_power.setdefault(p, []).append(k)
    typ = game.phase_type
    for p, ks in by_power.items():
        view = _View(game, p)
        if typ == "M":
            _movement(view, ks, codes, rng)
        elif typ == "R":
            _retreats(view, ks, codes, rng)
        else:
            _adjustments(view, ks, codes, rng)
    return codes


class _View:
    """What one power's orders are chosen from: its targets, the threats, the distances."""

    def __init__(self, game: Any, p: int) -> None:
        m, pos = game.m, game.position
        self.game, self.m, self.pos, self.p = game, m, pos, p
        self.orders = game.table.orders
        self.items, self.legal = game.items(), game.legal()
        loc_prov = m.loc_prov
        owners = pos.owners
        self.targets = [pv for pv in m.sc_list if owners[pv] != p]
        self.own_centers = {pv for pv in m.sc_list if owners[pv] == p}
        self.taking = pos.phase.season == m.variant.calendar.centers_change_after
        # per province: enemy units that stand there / could move there
        self.enemy_at: dict[int, int] = {}
        self.threat = [0] * m.n_prov
        self.own_at: dict[int, int] = {}
        for u in pos.units:
            pv = loc_prov[u.loc]
            if u.power == p:
                self.own_at[pv] = self.own_at.get(pv, 0) + 1
                continue
            self.enemy_at[pv] = self.enemy_at.get(pv, 0) + 1
            for q in m.reach_prov[u.kind][u.loc]:
                self.threat[q] += 1
        self._dist: dict[tuple[int, str], list[int]] = {}  # (kind, to what) -> distances

    def dist(self, kind: int, home: bool = False) -> list[int]:
        """Per location, the moves a unit of `kind` needs to reach a center to take (or, with
        `home`, one of the power's own centers)."""
        key = (kind, "home" if home else "targets")
        d = self._dist.get(key)
        if d is None:
            provs = self.own_centers if home else self.targets
            d = self._dist[key] = _distances(self.m, kind, provs)
        return d

    def far(self, kind: int) -> list[int]:
        """As `dist`, to the centers to take that no own unit is next to: where the units
        behind the front go, rather than all after the same center."""
        d = self._dist.get((kind, "far"))
        if d is None:
            m, covered = self.m, set(self.own_at)
            for u in self.pos.units:
                if u.power == self.p:
                    covered.update(m.reach_prov[u.kind][u.loc])
            open_ = [pv for pv in self.targets if pv not in covered]
            d = _distances(m, kind, open_) if open_ else self.dist(kind)
            self._dist[(kind, "far")] = d
        return d

    def value(self, pv: int) -> float:
        """What standing in province `pv` after this phase is worth by itself."""
        m = self.m
        if not m.is_sc[pv]:
            return 0.0
        worth = float(m.sc_value[pv] or 1)
        if self.pos.owners[pv] != self.p:
            return (20.0 if self.taking else 9.0) * worth
        if self.threat[pv]:
            # a center is lost only where centers change owner: before, a step forward
            # counts for more than standing guard
            return (10.0 if self.taking else 1.0) * worth
        return 0.0


def _distances(m: Any, kind: int, provs: Any) -> list[int]:
    """Multi-source breadth-first distances over the moves of `kind`, from the locations of
    `provs` it may stand on."""
    occupy = m.occupy[kind]
    d = [_FAR] * m.n_loc
    queue: deque[int] = deque()
    for pv in provs:
        for loc in (pv, *m.prov_coast_locs[pv]):
            if occupy[loc] and d[loc] == _FAR:
                d[loc] = 0
                queue.append(loc)
    moves = m.move_locs[kind]
    while queue:
        loc = queue.popleft()
        nd = d[loc] + 1
        for x in moves[loc]:
            if d[x] == _FAR:
                d[x] = nd
                queue.append(x)
    return d


# ---- movement -----------------------------------------------------------------------------


def _movement(v: _View, ks: list[int], codes: list[int], rng: random.Random) -> None:
    units = v.pos.units
    here = {k: v.m.loc_prov[units[v.items[k][1]].loc] for k in ks}
    options = _options(v, ks, here, rng)
    goal: dict[int, int] = {}  # item -> province it will stand in
    moving: set[int] = set()  # items moving away
    claimed: set[int] = set()
    staying: set[int] = set()  # provinces an own unit stays in
    # first the armies no land path takes anywhere (an island): any own fleets convoy them
    stuck = [k for k in ks if v.dist(units[v.items[k][1]].kind)[units[v.items[k][1]].loc]
             >= _FAR]
    reserved: set[int] = set()
    if stuck:
        free = list(ks)
        _convoys(v, stuck, free, here, goal, codes, claimed)
        reserved = set(ks) - set(free)
        for k in reserved:  # the army and its fleets
            if goal.get(k, here[k]) != here[k]:
                moving.add(k)
            else:
                goal[k] = here[k]
                staying.add(here[k])
    for _score, _tie, k, c, q in options:
        if k in goal or q in claimed:
            continue
        moved = q != here[k]
        if moved and (q in staying or (v.own_at.get(q) and not _vacated(q, here, moving))):
            continue
        if not moved and here[k] in claimed:
            continue  # an own unit moves in: this one must go or support
        goal[k] = q
        codes[k] = c
        claimed.add(q)
        if moved:
            moving.add(k)
        else:
            staying.add(q)
    idle = [k for k in ks if k not in moving and k not in reserved]
    for k in ks:
        if k not in goal:  # nothing left: it holds where it is
            goal[k] = here[k]
            codes[k] = _hold(v, k)
    _convoys(v, [k for k in idle if k not in stuck], idle, here, goal, codes, claimed)
    _supports(v, idle, here, goal, codes)


def _options(v: _View, ks: list[int], here: dict[int, int], rng: random.Random
             ) -> list[tuple[float, float, int, int, int]]:
    """Every (score, tie, item, code, province it will stand in) of the units' holds and
    moves, best first."""
    orders, legal, loc_prov, units = v.orders, v.legal, v.m.loc_prov, v.pos.units
    options: list[tuple[float, float, int, int, int]] = []
    for k in ks:
        u = units[v.items[k][1]]
        pv = here[k]
        d = v.dist(u.kind)
        if d[u.loc] > 1:  # behind the front: towards a center nobody is after yet
            far = v.far(u.kind)
            d = far if far[u.loc] < _FAR else d
        stay = v.value(pv)
        for c in legal[k]:
            o = orders[c]
            if o.type == HOLD and not o.act:
                options.append((stay, rng.random(), k, c, pv))
            elif o.type == MOVE and not o.via and not o.act and o.at < 0:
                q = loc_prov[o.target]
                if q == pv:
                    continue
                gain = v.value(q) + 3.0 * (d[u.loc] - d[o.target])
                if d[o.target] >= _FAR:
                    gain -= 5.0
                if v.enemy_at.get(q):
                    gain -= 2.0  # needs support (or luck) to get in
                options.append((gain - stay * 0.9, rng.random(), k, c, q))
    options.sort(reverse=True)
    return options


def _vacated(q: int, here: dict[int, int], moving: set[int]) -> bool:
    """Every own unit in province q is moving away."""
    return all(k in moving for k, pv in here.items() if pv == q)


def _hold(v: _View, k: int) -> int:
    for c in v.legal[k]:
        if v.orders[c].type == HOLD and not v.orders[c].act:
            return c
    return -1


def _convoys(v: _View, armies: list[int], idle: list[int], here: dict[int, int],
             goal: dict[int, int], codes: list[int], claimed: set[int]) -> None:
    """An army of `armies` with no way forward by land goes by a chain of fleets of `idle`
    (both taken out of `idle`)."""
    m, orders, legal, units = v.m, v.orders, v.legal, v.pos.units
    loc_prov = m.loc_prov
    for k in armies:
        if k not in idle:
            continue
        u = units[v.items[k][1]]
        d = v.dist(u.kind)
        if d[u.loc] < _FAR and d[u.loc] <= 1:
            continue  # a center is one step away by land
        best: tuple[float, int, int] | None = None
        for c in legal[k]:
            o = orders[c]
            if o.type != MOVE or not o.via:
                continue
            q = loc_prov[o.target]
            if q in claimed or any(pv == q and goal.get(j) == q for j, pv in here.items()):
                continue  # an own unit goes there or stays there
            gain = v.value(q) + 3.0 * (min(d[u.loc], 8) - min(d[o.target], 8))
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, c, q)
        if best is None:
            continue
        _gain, c, q = best
        chain = _fleet_chain(v, idle, here, here[k], u.loc, q)
        if chain is None:
            continue
        codes[k] = c
        goal[k] = q
        claimed.add(q)
        idle.remove(k)
        for j, cc in chain:
            codes[j] = cc
            idle.remove(j)


def _fleet_chain(v: _View, idle: list[int], here: dict[int, int], army_prov: int,
                 army_loc: int, q: int) -> list[tuple[int, int]] | None:
    """Idle own fleets whose convoy codes carry the army at army_loc to q, forming a path of
    neighbouring provinces from the army's province to q; None if there is none."""
    m, orders, legal = v.m, v.orders, v.legal
    loc_prov = m.loc_prov
    can: dict[int, tuple[int, int]] = {}  # province -> (item, convoy code)
    for j in idle:
        for c in legal[j]:
            o = orders[c]
            if (o.type == CONVOY and o.aux_loc == army_loc and o.target is not None
                    and loc_prov[o.target] == q):
                can.setdefault(here[j], (j, c))
                break
    if not can:
        return None
    nb = m.prov_neighbours
    start = [pv for pv in can if army_prov in nb[pv]]
    came: dict[int, int] = {pv: -1 for pv in start}
    queue = deque(start)
    while queue:
        pv = queue.popleft()
        if q in nb[pv]:
            path = []
            while pv != -1:
                path.append(can[pv])
                pv = came[pv]
            return path
        for x in nb[pv]:
            if x in can and x not in came:
                came[x] = pv
                queue.append(x)
    return None


def _supports(v: _View, idle: list[int], here: dict[int, int], goal: dict[int, int],
              codes: list[int]) -> None:
    """Idle units support own moves (contested ones first), then threatened own holds."""
    orders, legal, loc_prov = v.orders, v.legal, v.m.loc_prov
    by_prov: dict[int, list[int]] = {}
    for k, pv in here.items():
        by_prov.setdefault(pv, []).append(k)
    backed: dict[int, int] = {}  # item -> supports given to it

    def need(k: int) -> float:
        """How much a unit's order would gain from one more support."""
        q = goal[k]
        if q == here[k]:
            threat = v.threat[q]
            return (3.0 + v.value(q)) / (1 + backed.get(k, 0)) if threat else 0.0
        hostile = v.enemy_at.get(q, 0) + v.threat[q]
        return (1.0 + v.value(q) + 4.0 * hostile) / (1 + 2 * backed.get(k, 0))

    for k in idle:
        best: tuple[float, int, int] | None = None
        for c in legal[k]:
            o = orders[c]
            if o.type != SUPPORT or o.aux_loc is None:
                continue
            them = by_prov.get(loc_prov[o.aux_loc])
            if not them:
                continue
            for j in them:
                if j == k:
                    continue
                to = loc_prov[o.target] if o.target is not None else here[j]
                is_move = goal[j] != here[j]
                if goal[j] != to or (o.target is None) == is_move:
                    continue
                if (o.target is None) and j not in idle:
                    continue  # a convoying fleet keeps its convoy order
                gain = need(j)
                if gain > 0 and (best is None or gain > best[0]):
                    best = (gain, c, j)
        if best is not None:
            codes[k] = best[1]
            backed[best[2]] = backed.get(best[2], 0) + 1


# ---- retreats and adjustments ---------------------------------------------------------------


def _retreats(v: _View, ks: list[int], codes: list[int], rng: random.Random) -> None:
    m, orders, legal = v.m, v.orders, v.legal
    loc_prov = m.loc_prov
    taken: set[int] = set()
    for k in ks:
        kind = v.pos.dislodged[v.items[k][1]].kind
        d, dh = v.dist(kind), v.dist(kind, home=True)
        best: tuple[float, float, int] | None = None
        for c in legal[k]:
            o = orders[c]
            if o.type != RETREAT or loc_prov[o.target] in taken:
                continue
            q = loc_prov[o.target]
            score = v.value(q) + (6.0 if q in v.own_centers and q not in v.own_at else 0.0)
            score -= min(d[o.target], 20) + 0.5 * min(dh[o.target], 20)
            cand = (score, rng.random(), c)
            if best is None or cand > best:
                best = cand
        if best is not None:
            codes[k] = best[2]
            taken.add(loc_prov[orders[best[2]].target])


def _adjustments(v: _View, ks: list[int], codes: list[int], rng: random.Random) -> None:
    m, orders = v.m, v.orders
    loc_prov = m.loc_prov
    t = v.game.table
    first = v.legal[ks[0]]
    scored: list[tuple[float, float, int]] = []
    builds = any(orders[c].type == BUILD for c in first if c != t.waive)
    # a power of one kind of unit gets stuck where that kind cannot go (an army behind an
    # isthmus, a fleet at an inland center): builds lean to the kind it has fewer of
    mine = [u.kind for u in v.pos.units if u.power == v.p]
    share = [mine.count(k) / max(len(mine), 1) for k in range(len(m.kinds))]
    for c in first:
        if c == t.waive:
            continue
        o = orders[c]
        kind = o.kind if o.kind is not None else 0
        dist = min(v.dist(kind)[o.loc], 30)
        pv = loc_prov[o.loc]
        if builds:  # near a center to take; where a center is under threat
            score = -float(dist) + (3.0 if v.threat[pv] else 0.0) - 4.0 * share[kind]
            score -= 0.25 * kind  # the variant's first kind (army) on a tie
        else:  # remove the farthest, off own centers first
            score = float(dist) + (5.0 if pv not in v.own_centers else 0.0)
        scored.append((score, rng.random(), c))
    scored.sort(reverse=True)
    used: set[int] = set()
    chosen: list[int] = []
    for _s, _tie, c in scored:
        if len(chosen) == len(ks):
            break
        key = loc_prov[orders[c].loc] if builds else c
        if key in used:
            continue
        used.add(key)
        chosen.append(c)
    for n, k in enumerate(ks):
        if n < len(chosen):
            codes[k] = chosen[n]
        else:
            codes[k] = t.waive if t.waive in v.legal[k] else -1
