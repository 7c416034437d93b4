"""Give every unit to a province: grow from the variant's points, then optimise the touches.

Growing: each province's points (its coordinates, a moved point or extra points from the
hints) flood units of their own kind, land or water, nearest first (Dijkstra over the unit
graph, by centroid distance). That is a Voronoi diagram that follows real borders and cannot
jump an isthmus. Land too far from every point, and water bodies with no point, stay neutral.
Pinned units belong to their province from the start and flood for it too.

Optimising: the cost of an assignment is, per pair of provinces, a penalty for an adjacent pair
whose shared border is shorter than the target (large when they do not touch at all) and for
a non-adjacent pair that touches (unless the hints declare it "no passage" or a connector),
plus a small cost for each unit's distance from its province's nearest point and for border
length (smooth borders). A local search moves single border units to a neighbouring
province while that lowers the cost and keeps every province in one piece; batch moves
follow for what single moves cannot fix: a *corridor* (the cheapest chain of units from one
province to an adjacent one it does not touch) and a *strip* (the units along a wrong border
handed to third provinces).
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass, field

import numpy as np
from grid import Units


@dataclass(slots=True)
class Weights:
    target: float  # wanted border length, in cell edges
    miss: float = 40.0  # per cell edge short of the target (adjacent pairs)
    miss0: float = 4000.0  # an adjacent pair that does not touch at all
    wrong: float = 120.0  # per cell edge of a touching non-adjacent pair
    wrong0: float = 6000.0  # a non-adjacent pair that touches at all
    dist: float = 1.0  # per cell of area per spacing of distance from the province's points
    border: float = 1.0  # per cell edge of border between provinces of the same surface


@dataclass
class Problem:
    names: list[str]
    land: list[bool]  # per province: drawn on land (armies stand there) or water
    seeds: list[list[tuple[float, float]]]  # per province: points, grid cells
    adjacent: set[tuple[int, int]]
    free: set[tuple[int, int]]  # pairs whose touching does not matter (connectors, no passage)
    pins: dict[int, int] = field(default_factory=dict)  # unit → province
    neutral: set[int] = field(default_factory=set)  # units that stay neutral
    max_land_dist: float = 1e9  # cells: land farther than this from every point is neutral
    island_join: float = 0.0  # cells: an unreached island this close to a province joins it
    unit_admin: list[int] = field(default_factory=list)  # admin unit per land unit (else -1)
    admin_follow: float = 0.0  # cells: an island follows its admin unit's province this far
    shared: dict[int, set[int]] = field(default_factory=dict)  # unit of a divided admin unit
    # → the provinces whose points lie in it (only they may have it)
    closed: set[int] = field(default_factory=set)  # provinces that hold their pins only
    # (an off-map space's box): they neither grow nor take units


class Assignment:
    def __init__(self, u: Units, pb: Problem, w: Weights, say) -> None:
        self.u, self.pb, self.w, self.say = u, pb, w, say
        self.n = len(pb.names)
        self.NEUTRAL = self.n
        self.P = [self.NEUTRAL] * u.n
        self.fixed = [False] * u.n
        self.nbrs = u.nbrs
        self.area = u.area.tolist()
        self.cx = u.cx.tolist()
        self.cy = u.cy.tolist()
        self.is_land = u.land.tolist()
        self.L: dict[tuple[int, int], int] = {}
        self.spacing = 1.0
        self.seed_units: list[list[int]] = [[] for _ in range(self.n)]
        self.members: list[set[int]] = [set() for _ in range(self.n + 1)]

    # ---- geometry helpers -----------------------------------------------------------------
    def dist(self, unit: int, prov: int) -> float:
        if prov >= self.n:
            return 0.0
        x, y = self.cx[unit], self.cy[unit]
        return min(math.hypot(x - sx, y - sy) for sx, sy in self.pb.seeds[prov])

    def unit_at(self, x: float, y: float, land: bool) -> int:
        uid = self.u.uid
        h, w = uid.shape
        xi, yi = int(min(max(x, 0), w - 1)), int(min(max(y, 0), h - 1))
        k = int(uid[yi, xi])
        if self.is_land[k] == land:
            return k
        # the nearest unit of the right kind (a point a little off the coast)
        best, bd = -1, math.inf
        for j in range(self.u.n):
            if self.is_land[j] != land:
                continue
            d = (self.cx[j] - x) ** 2 + (self.cy[j] - y) ** 2
            if d < bd:
                best, bd = j, d
        return best

    # ---- growing ----------------------------------------------------------------------------
    def grow(self) -> None:
        pb, n = self.pb, self.n
        heap: list[tuple[float, int, int]] = []
        for p in range(n):
            for sx, sy in pb.seeds[p]:
                k = self.unit_at(sx, sy, pb.land[p])
                if k < 0:
                    raise SystemExit(f"{pb.names[p]}: no {'land' if pb.land[p] else 'water'} "
                                     "on the board for its point")
                self.seed_units[p].append(k)
                heapq.heappush(heap, (0.0, k, p))
        for p in range(n):
            for k in self.seed_units[p]:
                if k in pb.pins and pb.pins[k] != p:
                    q = pb.pins[k]
                    if not self.is_land[k] and pb.land[q]:  # a halo yields to a sea's point
                        self.say(f"  {pb.names[p]}'s point lies in {pb.names[q]}'s halo: the "
                                 "point wins")
                        del pb.pins[k]
                        continue
                    raise SystemExit(f"a pin gives the unit under {pb.names[p]}'s point to "
                                     f"{pb.names[q]}")
        for k, p in pb.pins.items():
            heapq.heappush(heap, (0.0, k, p))
        done = [False] * self.u.n
        while heap:
            d, k, p = heapq.heappop(heap)
            if done[k]:
                continue
            if k in pb.neutral:
                continue
            if self.is_land[k] and d > pb.max_land_dist and k not in pb.pins:
                continue
            done[k] = True
            self.P[k] = p
            if p in pb.closed:
                continue
            if self.is_land[k] != pb.land[p]:
                continue  # a halo: water of a land province, which does not flood further
            x, y = self.cx[k], self.cy[k]
            for j, _l in self.nbrs[k]:
                if done[j] or self.is_land[j] != self.is_land[k]:
                    continue
                if j in pb.pins and pb.pins[j] != p:
                    continue
                if j in pb.shared and p not in pb.shared[j]:
                    continue
                heapq.heappush(heap, (d + math.hypot(self.cx[j] - x, self.cy[j] - y), j, p))
        # islands nobody reached: with the province of the nearest land within reach
        if pb.island_join > 0:
            self._join_islands(done)
        for k in pb.pins:
            self.fixed[k] = True
        for p in range(n):
            for k in self.seed_units[p]:
                self.fixed[k] = True
                self.P[k] = p
        for k in range(self.u.n):
            self.members[self.P[k]].add(k)
            if self.P[k] == self.NEUTRAL and not self.is_land[k]:
                self.fixed[k] = True  # water bodies with no sea point
        self._recount()
        radii = []
        for p in range(n):
            a = sum(self.area[k] for k in self.members[p])
            radii.append(math.sqrt(a / math.pi))
        self.spacing = sorted(radii)[len(radii) // 2] or 1.0

    def _join_islands(self, done: list[bool]) -> None:
        owned = [k for k in range(self.u.n) if done[k] and self.is_land[k]]
        if not owned:
            return
        ox = np.array([self.cx[k] for k in owned])
        oy = np.array([self.cy[k] for k in owned])
        # an admin unit's islands follow the province that holds most of it (Nunavut's
        # islands, Hawaii's, Tierra del Fuego's), within reach
        admin_prov: dict[int, dict[int, int]] = {}
        ua = self.pb.unit_admin
        if ua:
            for k in owned:
                admin_prov.setdefault(ua[k], {}).setdefault(self.P[k], 0)
                admin_prov[ua[k]][self.P[k]] += self.area[k]
        for k in range(self.u.n):
            if done[k] or not self.is_land[k] or k in self.pb.neutral:
                continue
            if any(self.is_land[j] for j, _ in self.nbrs[k]):
                continue  # not an island: land nobody reached (too far) stays neutral
            d = np.hypot(ox - self.cx[k], oy - self.cy[k])
            if ua and ua[k] in admin_prov:
                by = admin_prov[ua[k]]
                p = max(by, key=by.__getitem__)
                mine = np.array([self.P[j] == p for j in owned])
                d_mine = d[mine].min() if mine.any() else 1e18
                d_other = d[~mine].min() if (~mine).any() else 1e18
                # unless it lies off another province's coast (islets off Quebec's shore)
                if d_mine <= self.pb.admin_follow and d_mine <= 3 * d_other:
                    self.P[k] = p
                    continue
            i = int(d.argmin())
            if d[i] - math.sqrt(self.area[k]) <= self.pb.island_join:
                self.P[k] = self.P[owned[i]]

    def _recount(self) -> None:
        L: dict[tuple[int, int], int] = {}
        P = self.P
        for k in range(self.u.n):
            a = P[k]
            for j, ln in self.nbrs[k]:
                if j < k:
                    continue
                b = P[j]
                if a != b:
                    key = (a, b) if a < b else (b, a)
                    L[key] = L.get(key, 0) + ln
        self.L = L

    # ---- cost ----------------------------------------------------------------------------------
    def pair_cost(self, key: tuple[int, int], length: int) -> float:
        if key[1] >= self.n or key in self.pb.free:
            return 0.0
        w = self.w
        if key in self.pb.adjacent:
            if length >= w.target:
                return 0.0
            return w.miss * (w.target - length) + (w.miss0 if length <= 0 else 0.0)
        if length <= 0:
            return 0.0
        return w.wrong * length + w.wrong0

    def border_weight(self, k: int, j: int) -> float:
        return self.w.border if self.is_land[k] == self.is_land[j] else 0.0

    def move_delta(self, k: int, b: int) -> tuple[float, dict[tuple[int, int], int]]:
        """The cost change of giving unit k to province b, and the border length changes."""
        a = self.P[k]
        dl: dict[tuple[int, int], int] = {}
        border = 0.0
        for j, ln in self.nbrs[k]:
            c = self.P[j]
            if c != a:
                key = (a, c) if a < c else (c, a)
                dl[key] = dl.get(key, 0) - ln
                border -= ln * self.border_weight(k, j)
            if c != b:
                key = (b, c) if b < c else (c, b)
                dl[key] = dl.get(key, 0) + ln
                border += ln * self.border_weight(k, j)
        delta = self.w.border * border
        for key, d in dl.items():
            if d:
                cur = self.L.get(key, 0)
                delta += self.pair_cost(key, cur + d) - self.pair_cost(key, cur)
        delta += self.w.dist * self.area[k] * (self.dist(k, b) - self.dist(k, a)) / self.spacing
        return delta, dl

    def apply(self, k: int, b: int, dl: dict[tuple[int, int], int] | None = None) -> None:
        if dl is None:
            _, dl = self.move_delta(k, b)
        for key, d in dl.items():
            if d:
                v = self.L.get(key, 0) + d
                if v:
                    self.L[key] = v
                else:
                    self.L.pop(key, None)
        self.members[self.P[k]].discard(k)
        self.members[b].add(k)
        self.P[k] = b

    def total(self) -> float:
        pair = sum(self.pair_cost(key, ln) for key, ln in self.L.items())
        pair += sum(self.pair_cost(key, 0) for key in self.pb.adjacent if key not in self.L)
        return pair

    # ---- connectivity ---------------------------------------------------------------------
    def keeps_connected(self, k: int, limit: int = 400) -> bool:
        a = self.P[k]
        same = [j for j, _ in self.nbrs[k] if self.P[j] == a]
        if not same:
            return len(self.members[a]) > 1
        if len(same) == 1:
            return True
        want = set(same)
        seen = {same[0], k}
        stack = [same[0]]
        want.discard(same[0])
        steps = 0
        while stack and want:
            x = stack.pop()
            steps += 1
            if steps > limit:
                return False
            for j, _ in self.nbrs[x]:
                if j not in seen and self.P[j] == a:
                    seen.add(j)
                    want.discard(j)
                    stack.append(j)
        return not want

    def components(self, p: int) -> int:
        left = set(self.members[p])
        n = 0
        while left:
            n += 1
            stack = [left.pop()]
            while stack:
                x = stack.pop()
                for j, _ in self.nbrs[x]:
                    if j in left:
                        left.remove(j)
                        stack.append(j)
        return n

    # ---- local search ---------------------------------------------------------------------
    def allowed(self, k: int, b: int) -> bool:
        if b >= self.n or b in self.pb.closed:
            return False
        if k in self.pb.shared and b not in self.pb.shared[k]:
            return False
        return self.pb.land[b] == self.is_land[k]

    def local_pass(self, rng: random.Random) -> int:
        P = self.P
        border = [k for k in range(self.u.n) if not self.fixed[k]
                  and any(P[j] != P[k] for j, _ in self.nbrs[k])]
        rng.shuffle(border)
        moved = 0
        for k in border:
            a = P[k]
            if a >= self.n:
                continue
            cands = {P[j] for j, _ in self.nbrs[k]} - {a}
            best, best_b, best_dl = -1e-6, -1, None
            for b in cands:
                if not self.allowed(k, b):
                    continue
                d, dl = self.move_delta(k, b)
                if d < best:
                    best, best_b, best_dl = d, b, dl
            if best_b >= 0 and self.keeps_connected(k):
                self.apply(k, best_b, best_dl)
                moved += 1
        return moved

    def local(self, rng: random.Random, rounds: int = 30) -> None:
        for _ in range(rounds):
            if self.local_pass(rng) == 0:
                break

    # ---- batch moves ------------------------------------------------------------------------
    def try_batch(self, moves: list[tuple[int, int]]) -> bool:
        """Apply `moves` (unit, province) if together they lower the cost and split nothing."""
        moves = [(k, b) for k, b in moves if not self.fixed[k] and self.P[k] != b
                 and self.allowed(k, b)]
        if not moves:
            return False
        touched = {self.P[k] for k, _ in moves} | {b for _, b in moves}
        touched.discard(self.NEUTRAL)
        before_comp = {p: self.components(p) for p in touched}
        before = self.total() + self._dist_sum(moves, False)
        undo = [(k, self.P[k]) for k, _ in moves]
        border_before = self._border_len({k for k, _ in moves})
        for k, b in moves:
            self.apply(k, b)
        after = self.total() + self._dist_sum(moves, True)
        border_after = self._border_len({k for k, _ in moves})
        ok = after + self.w.border * border_after < before + self.w.border * border_before - 1
        if ok:
            ok = all(self.components(p) <= before_comp[p] for p in touched)
        if not ok:
            for k, a in reversed(undo):
                self.apply(k, a)
        return ok

    def _dist_sum(self, moves: list[tuple[int, int]], after: bool) -> float:
        s = 0.0
        for k, _b in moves:
            s += self.area[k] * self.dist(k, self.P[k])
        return self.w.dist * s / self.spacing

    def _border_len(self, units: set[int]) -> float:
        s = 0.0
        seen = set()
        for k in units:
            for j, ln in self.nbrs[k]:
                key = (k, j) if k < j else (j, k)
                if key in seen:
                    continue
                seen.add(key)
                if self.P[j] != self.P[k] and self.is_land[j] == self.is_land[k]:
                    s += ln
        return s

    def _path(self, src: int, dst: int, land: bool, extra_cost) -> list[int] | None:
        """The cheapest chain of units of one surface from province src to province dst
        (exclusive of both); None if there is none."""
        P = self.P
        heap = []
        best: dict[int, float] = {}
        prev: dict[int, int] = {}
        for k in self.members[src]:
            if any(P[j] != src for j, _ in self.nbrs[k]):
                heap.append((0.0, k))
                best[k] = 0.0
        heapq.heapify(heap)
        reach = 6 * self.spacing
        while heap:
            d, k = heapq.heappop(heap)
            if d > best.get(k, math.inf):
                continue
            if P[k] == dst:
                path = []
                x = prev.get(k)
                while x is not None and P[x] != src:
                    path.append(x)
                    x = prev.get(x)
                return path[::-1]
            if d > reach:
                break
            for j, _ in self.nbrs[k]:
                if P[j] == src:
                    continue
                if P[j] != dst:
                    if self.is_land[j] != land or self.fixed[j] or P[j] >= self.n:
                        continue
                step = math.hypot(self.cx[j] - self.cx[k], self.cy[j] - self.cy[k])
                nd = d + step + extra_cost(j)
                if nd < best.get(j, math.inf):
                    best[j] = nd
                    prev[j] = k
                    heapq.heappush(heap, (nd, j))
        return None

    def corridor(self, a: int, b: int) -> bool:
        pb = self.pb
        options = []
        if pb.land[a] == pb.land[b]:
            options.append((a, b, pb.land[a], "split"))
        else:
            la, sb = (a, b) if pb.land[a] else (b, a)
            options.append((la, sb, False, "sea"))  # water grows to the land
            options.append((sb, la, True, "land"))  # land grows to the water
        for src, dst, land, how in options:
            def cost(j, src=src, dst=dst):
                c = self.P[j]
                return 0.0 if c in (src, dst) else 2.0 * math.sqrt(self.area[j])
            path = self._path(src, dst, land, cost)
            if path is None:
                continue
            if how == "split":
                half = len(path) // 2
                moves = [(k, src) for k in path[:half]] + [(k, dst) for k in path[half:]]
            elif how == "sea":
                moves = [(k, dst) for k in path]
            else:
                moves = [(k, src) for k in path]
            if self.try_batch(moves):
                return True
            # a wider corridor
            wide = list(moves)
            seen = {k for k, _ in moves}
            for k, p in moves:
                for j, _ in self.nbrs[k]:
                    if j not in seen and self.P[j] not in (src, dst) and \
                            self.is_land[j] == self.is_land[k]:
                        seen.add(j)
                        wide.append((j, p))
            if self.try_batch(wide):
                return True
        return False

    def strip(self, a: int, c: int) -> bool:
        for x, y in ((a, c), (c, a)):
            units = [k for k in self.members[x] if not self.fixed[k]
                     and any(self.P[j] == y for j, _ in self.nbrs[k])]
            for layers in (1, 2):
                moves = []
                chosen = set(units)
                if layers == 2:
                    for k in units:
                        for j, _ in self.nbrs[k]:
                            if self.P[j] == x and not self.fixed[j]:
                                chosen.add(j)
                for k in chosen:
                    cands = {self.P[j] for j, _ in self.nbrs[k]} - {x, y}
                    cands = [p for p in cands if p < self.n and self.allowed(k, p)]
                    if not cands:
                        continue
                    moves.append((k, min(cands, key=lambda p, k=k: self.dist(k, p))))
                if moves and self.try_batch(moves):
                    return True
        return False

    def problems(self) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
        missing = [k for k in self.pb.adjacent if k not in self.pb.free
                   and self.L.get(k, 0) < self.w.target]
        wrong = [k for k, ln in self.L.items() if ln > 0 and k[1] < self.n
                 and k not in self.pb.adjacent and k not in self.pb.free]
        return missing, wrong

    def optimise(self, seed: int = 1, rounds: int = 6) -> None:
        rng = random.Random(seed)
        self.local(rng)
        for r in range(rounds):
            missing, wrong = self.problems()
            self.say(f"  round {r + 1}: {len(missing)} adjacent pairs short, "
                     f"{len(wrong)} wrong touches")
            if not missing and not wrong:
                break
            fixed_any = False
            for a, b in sorted(missing, key=lambda k: self.L.get(k, 0)):
                if self.L.get((a, b), 0) == 0 and self.corridor(a, b):
                    fixed_any = True
            for a, c in wrong:
                if self.L.get((a, c), 0) and self.strip(a, c):
                    fixed_any = True
            self.local(rng)
            if not fixed_any:
                break
        missing, wrong = self.problems()
        self.say(f"  after optimising: {len(missing)} adjacent pairs short, "
                 f"{len(wrong)} wrong touches")
