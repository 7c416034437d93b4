"""Convoy routes: chains of convoying fleets from an army's province to its destination.

Routes are found over provinces (a province whose convoying fleet is usable is a node), so a
space holding several fleets needs only one of them. All functions take plain ids.
"""

from __future__ import annotations

from collections.abc import Callable

from polydip.geography.cache import MEMO_LIMIT, room
from polydip.geography.map import Map


def sea_neighbours(m: Map, prov: int) -> tuple[int, ...]:
    """Convoy provinces next to convoy province `prov`."""
    return m.convoy_touch[prov]


def route_exists(m: Map, origin: int, dest: int, usable: Callable[[int], bool]) -> bool:
    """Is there a chain origin → p1 → … → pn → dest of provinces with usable(p) true?"""
    touch = m.convoy_touch
    dest_touch = m.convoy_touch_set[dest]
    seen = set()
    stack = [p for p in touch[origin] if usable(p)]
    seen.update(stack)
    while stack:
        p = stack.pop()
        if p in dest_touch:
            return True
        for q in touch[p]:
            if q not in seen and q != origin and q != dest and usable(q):
                seen.add(q)
                stack.append(q)
    return False


def provinces_on_routes(m: Map, origin: int, dest: int, nodes: list[int] | frozenset[int]
                        ) -> set[int]:
    """The provinces of `nodes` that lie on at least one complete route origin → dest (a
    simple chain: a fleet in a dead end next to a route is not on it)."""
    if len(nodes) == 1:  # (most convoys: one fleet, on the route when next to both ends)
        for f in nodes:
            touch = m.convoy_touch_mask
            if f != origin and f != dest and touch[origin] >> f & 1 and touch[dest] >> f & 1:
                return {f}
        return set()
    fleets = nodes if isinstance(nodes, frozenset) else frozenset(nodes)
    return set(bits(geometry(m, fleets).routes(origin, dest)))


def routes_through(m: Map, origin: int, dest: int, fleets: frozenset[int]) -> frozenset[int]:
    """provinces_on_routes, for a fixed set of fleet provinces (answered from its geometry)."""
    return frozenset(bits(geometry(m, fleets).routes(origin, dest)))


def bits(mask: int) -> list[int]:
    """The set bits of `mask`, lowest first (province sets are kept as int bit masks)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def geometry(m: Map, fleets: frozenset[int]) -> FleetGeometry:
    """The convoy geometry of one set of fleet provinces, cached per map (bounded)."""
    cache = m.caches.fleet_geometry
    got = cache.get(fleets)
    if got is None:
        if len(cache) > 4096:  # bound the memory of long simulations
            cache.clear()
        got = cache[fleets] = FleetGeometry(m, fleets)
    return got


class FleetGeometry:
    """Where convoys can go with the fleets in a given set of provinces, for every origin and
    destination: the fleets' connected components, and for each component the biconnected
    blocks and the block-cut tree (BlockTree).

    A fleet lies on a simple route origin → dest exactly when it lies on a simple chain of
    fleets between a fleet next to the origin and one next to the destination; the fleets on
    such chains between two fleets a and b are those of the blocks on the tree path between
    a and b. So the fleets on some route are the blocks of the smallest subtree joining the
    fleets next to either end (one lone fleet touching both ends: that fleet alone). That
    depends only on the component and on which of its fleets touch either end, so the answers
    are kept per map under that key and serve every fleet configuration holding the same
    component. Province sets are int bit masks.
    """

    __slots__ = ("_reach", "_routes", "_without", "comp_mask", "comp_shore", "fleets", "fmask",
                 "m", "necessary")

    def __init__(self, m: Map, fleets: frozenset[int]) -> None:
        self.m = m
        self.fleets = fleets
        self._routes: dict[tuple[int, int], int] = {}
        self.necessary: dict[tuple[int, int], int] = {}  # see necessary_mask
        self._reach: dict[int, int] = {}
        self._without: dict[tuple[int, int, int], bool] = {}
        fmask = 0
        for f in fleets:
            fmask |= 1 << f
        self.fmask = fmask
        # components, and the provinces each one can land an army in
        touch, shore_mask = m.convoy_touch_mask, m.convoy_shore_mask
        comp_shore: list[int] = []
        comp_mask: list[int] = []
        left = fmask
        while left:
            frontier = cmask = left & -left
            shore = 0
            while frontier:
                nxt = 0
                for v in bits(frontier):
                    nxt |= touch[v]
                    shore |= shore_mask[v]
                frontier = nxt & left & ~cmask
                cmask |= frontier
            left &= ~cmask
            comp_shore.append(shore)
            comp_mask.append(cmask)
        self.comp_shore = comp_shore
        self.comp_mask = comp_mask

    def routes(self, origin: int, dest: int) -> int:
        """The fleet provinces on some simple route origin → dest, as a bit mask."""
        key = (origin, dest)
        got = self._routes.get(key)
        if got is None:
            got = self._routes[key] = self._find(origin, dest)
        return got

    def _find(self, origin: int, dest: int) -> int:
        fmask = self.fmask
        if fmask >> origin & 1 or fmask >> dest & 1:
            # an end that holds a fleet itself (a port): not a fleet of the route
            return _routes_searched(self.m, origin, dest, self.fleets - {origin, dest})
        touch = self.m.convoy_touch_mask
        ends_o = touch[origin] & fmask
        ends_d = touch[dest] & fmask
        if not ends_o or not ends_d:
            return 0
        out = 0
        for cm in self.comp_mask:
            eo = ends_o & cm
            if not eo:
                continue
            ed = ends_d & cm
            if not ed:
                continue
            out |= _component_routes(self.m, self.m.caches.convoy_routes,
                                     cm, eo, ed)
        return out

    def reach(self, origin: int) -> int:
        """Provinces an army in `origin` could be convoyed to by these fleets (bit mask)."""
        got = self._reach.get(origin)
        if got is None:
            near = self.m.convoy_touch_mask[origin] & self.fmask
            got = 0
            if near:
                comp_mask, comp_shore = self.comp_mask, self.comp_shore
                for c in range(len(comp_mask)):
                    if near & comp_mask[c]:
                        got |= comp_shore[c]
                got &= ~(1 << origin)
            self._reach[origin] = got
        return got

    def route_without(self, origin: int, dest: int, p: int) -> bool:
        """Could these fleets, but the one in province p, convoy origin → dest?"""
        if not self.fmask >> p & 1:
            return bool(self.reach(origin) >> dest & 1)
        key = (origin, dest, p)
        got = self._without.get(key)
        if got is None:
            usable = self.fmask & ~(1 << p) & ~(1 << origin) & ~(1 << dest)
            got = self._without[key] = route_exists_mask(self.m, origin, dest, usable)
        return got


def block_tree(m: Map, component: int) -> BlockTree:
    """The block-cut tree of a connected set of fleet provinces (a bit mask), per map."""
    cache = m.caches.block_trees
    got = cache.get(component)
    if got is None:
        if len(cache) > 20_000:
            cache.clear()
        got = cache[component] = BlockTree(m, component)
    return got


class BlockTree:
    """The biconnected blocks of a connected set of fleet provinces and their block-cut
    tree: nodes are the blocks, then one node per cut vertex."""

    __slots__ = ("depth", "node_mask", "node_of", "parent")

    def __init__(self, m: Map, component: int) -> None:
        blocks = _blocks(m.convoy_touch, frozenset(bits(component)))
        member: dict[int, list[int]] = {}
        for b, verts in enumerate(blocks):
            for v in verts:
                member.setdefault(v, []).append(b)
        node_mask = []
        for verts in blocks:
            mask = 0
            for v in verts:
                mask |= 1 << v
            node_mask.append(mask)
        node_of: dict[int, int] = {}
        tree: list[list[int]] = [[] for _ in blocks]
        for v in sorted(member):
            bs = member[v]
            if len(bs) == 1:
                node_of[v] = bs[0]
                continue
            c = len(node_mask)
            node_mask.append(1 << v)
            tree.append(list(bs))
            for b in bs:
                tree[b].append(c)
            node_of[v] = c
        parent = [-1] * len(node_mask)
        depth = [-1] * len(node_mask)
        depth[0] = 0
        stack = [0]
        while stack:
            x = stack.pop()
            for y in tree[x]:
                if depth[y] < 0:
                    depth[y] = depth[x] + 1
                    parent[y] = x
                    stack.append(y)
        self.node_mask = node_mask
        self.node_of = node_of
        self.parent = parent
        self.depth = depth

    def subtree(self, vertices: list[int]) -> int:
        """The vertices of the smallest subtree of the block-cut tree holding these vertices
        (at least two)."""
        node_of = self.node_of
        frontier = {node_of[v] for v in vertices}
        node_mask, parent, depth = self.node_mask, self.parent, self.depth
        mask = 0
        for x in frontier:
            mask |= node_mask[x]
        while len(frontier) > 1:
            # the deepest node (the first of them, as max() would give; any of them gives
            # the same subtree)
            x = best = -1
            for y in frontier:
                if depth[y] > best:
                    best = depth[y]
                    x = y
            frontier.discard(x)
            up = parent[x]
            if up not in frontier:
                frontier.add(up)
                mask |= node_mask[up]
        return mask


def route_exists_mask(m: Map, origin: int, dest: int, usable: int) -> bool:
    """Is there a chain origin → p1 → … → pn → dest of provinces in the bit mask `usable`?"""
    touch = m.convoy_touch_mask
    target = touch[dest]
    frontier = seen = touch[origin] & usable
    while frontier:
        if frontier & target:
            return True
        nxt = 0
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            nxt |= touch[low.bit_length() - 1]
        frontier = nxt & usable & ~seen
        seen |= frontier
    return False


def _blocks(touch: list[tuple[int, ...]], nodes: frozenset[int]) -> list[list[int]]:
    """The biconnected blocks of the graph `nodes` joined by `touch` (a lone vertex is a
    block of its own), by Tarjan's algorithm (iterative)."""
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    blocks: list[list[int]] = []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        first = [w for w in touch[root] if w in nodes]
        if not first:
            blocks.append([root])
            continue
        edges: list[tuple[int, int]] = []
        stack = [(root, -1, iter(first))]
        while stack:
            v, up, it = stack[-1]
            advanced = False
            for w in it:
                if w == up:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    edges.append((v, w))
                    stack.append((w, v, iter([x for x in touch[w] if x in nodes])))
                    advanced = True
                    break
                if index[w] < index[v]:
                    edges.append((v, w))
                    if index[w] < low[v]:
                        low[v] = index[w]
            if advanced:
                continue
            stack.pop()
            if stack:
                u = stack[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
                if low[v] >= index[u]:  # u separates: the block of edge u–v
                    blocks.append(sorted(_pop_block(edges, u, v)))
    return blocks


def _routes_searched(m: Map, origin: int, dest: int, nodes: frozenset[int]) -> int:
    """provinces_on_routes by a search of its own (an end that holds a fleet)."""
    touch = m.convoy_touch
    fwd = _reach(touch, [p for p in touch[origin] if p in nodes], nodes)
    back = _reach(touch, [p for p in touch[dest] if p in nodes], nodes)
    candidates = fwd & back
    if len(candidates) > 2:
        candidates = _block_of_edge(touch, candidates, origin, dest)
    mask = 0
    for v in candidates:
        mask |= 1 << v
    return mask


def _block_of_edge(touch: list[tuple[int, ...]], nodes: set[int], s: int, t: int
                   ) -> set[int]:
    """The vertices of `nodes` in the biconnected component holding the edge s–t of the
    graph: `nodes` joined by `touch`, plus s and t joined to their neighbours in `nodes` and
    to each other (Tarjan's algorithm, iterative)."""
    dest_side = {q for q in touch[t] if q in nodes}
    index: dict[int, int] = {}
    low: dict[int, int] = {}
    edges: list[tuple[int, int]] = []
    result: set[int] = set()
    counter = 0
    index[s] = low[s] = counter
    stack = [(s, -1, iter(_neighbours(touch, nodes, s, t, dest_side, s)))]
    while stack:
        v, parent, it = stack[-1]
        advanced = False
        for w in it:
            if w == parent:
                continue
            if w not in index:
                counter += 1
                index[w] = low[w] = counter
                edges.append((v, w))
                stack.append((w, v, iter(_neighbours(touch, nodes, s, t, dest_side, w))))
                advanced = True
                break
            if index[w] < index[v]:
                edges.append((v, w))
                low[v] = min(low[v], index[w])
        if advanced:
            continue
        stack.pop()
        if stack:
            u = stack[-1][0]
            low[u] = min(low[u], low[v])
            if low[v] >= index[u]:  # u separates: pop the block of edge u–v
                block = _pop_block(edges, u, v)
                if s in block and t in block:
                    result = block
    return (result - {s, t}) & nodes


def _neighbours(touch: list[tuple[int, ...]], nodes: set[int], s: int, t: int,
                dest_side: set[int], v: int) -> list[int]:
    """v's neighbours in _block_of_edge's graph: in `nodes` by `touch`, and s and t joined
    to their neighbours in `nodes` (t's are `dest_side`) and to each other."""
    if v == s:
        return [q for q in touch[s] if q in nodes] + [t]
    if v == t:
        return [*dest_side, s]
    out = [q for q in touch[v] if q in nodes]
    if s in touch[v] or v in touch[s]:
        out.append(s)
    if v in dest_side:
        out.append(t)
    return out


def _pop_block(edges: list[tuple[int, int]], u: int, v: int) -> set[int]:
    """Pop Tarjan's edge stack down to the edge u–v: the vertices of the block it closes."""
    block: set[int] = set()
    while edges:
        a, b = edges.pop()
        block.add(a)
        block.add(b)
        if a == u and b == v:
            break
    return block


def _reach(touch: list[tuple[int, ...]], start: list[int], nodes: set[int] | frozenset[int]
           ) -> set[int]:
    seen = set(start)
    stack = list(start)
    while stack:
        p = stack.pop()
        for q in touch[p]:
            if q in nodes and q not in seen:
                seen.add(q)
                stack.append(q)
    return seen


def necessary(m: Map, origin: int, dest: int, via: int, seas: frozenset[int]) -> bool:
    """Is a fleet in `via` *necessary* for some convoy origin → dest through the convoy
    provinces `seas` (those holding a convoying unit)?

    A convoy order is legal only when the fleet is necessary for some convoy route
    (DATC 4.E.1, 6.G.19): it lies on a route without a shortcut — an induced path of
    convoy provinces from origin to dest. The routes are those the fleets on the board could
    form. The search is bounded; past the bound any province on some route counts.
    """
    return bool(necessary_mask(m, origin, dest, seas) >> via & 1)


def necessary_mask(m: Map, origin: int, dest: int, seas: frozenset[int],
                   g: FleetGeometry | None = None) -> int:
    """The provinces `necessary` is true of, as a bit mask (cached with the geometry `g` of
    `seas`)."""
    if g is None:
        g = geometry(m, seas)
    key = (origin, dest)
    got = g.necessary.get(key)
    if got is None:
        got = g.necessary[key] = _necessary_kept(
            m, m.caches.convoy_necessary, origin, dest,
            g.routes(origin, dest), len(m.convoy_touch_set[origin]))
    return got


def _necessary_kept(m: Map, memo: dict, origin: int, dest: int, candidates: int,
                    degree: int) -> int:
    """necessary_mask's answer for the fleets `candidates` on the routes origin → dest, kept
    in `memo` (the map's caches.convoy_necessary): the search depends on nothing else (its budget
    counts the `degree` provinces next to the origin), so the same answer serves every
    position with these fleets."""
    if candidates & (candidates - 1) == 0:  # none or one
        return candidates
    tm = m.convoy_touch_mask
    mkey = (candidates, tm[origin] & candidates, tm[dest] & candidates, degree)
    got = memo.get(mkey)
    if got is None:
        got = room(memo, MEMO_LIMIT)[mkey] = _necessary(m, origin, dest, candidates)
    return got


def _component_routes(m: Map, memo: dict, cm: int, eo: int, ed: int) -> int:
    """The fleets of component `cm` on some route between the fleets `eo` next to the origin
    and `ed` next to the destination (bit masks): the blocks of the smallest subtree of the
    component's block-cut tree joining them, kept in `memo` (the map's caches.convoy_routes)."""
    ends = eo | ed
    if ends & (ends - 1) == 0:  # one fleet next to both ends
        return ends
    key = (cm, ends)  # (the subtree joins the ends, whichever side each is next to)
    got = memo.get(key)
    if got is None:
        got = room(memo, MEMO_LIMIT)[key] = block_tree(m, cm).subtree(bits(ends))
    return got


def routes_and_necessary(m: Map, origin: int, dests: list[int], g: FleetGeometry
                         ) -> tuple[list[int], list[int]]:
    """For each destination, `g.routes(origin, dest)` and `necessary_mask` (the same
    answers, found together for one origin: what depends only on the origin is read
    once)."""
    routes: list[int] = []
    necs: list[int] = []
    tm = m.convoy_touch_mask
    fmask = g.fmask
    memo = m.caches.convoy_necessary
    route_memo = m.caches.convoy_routes
    t_origin = tm[origin]
    degree = len(m.convoy_touch_set[origin])
    # the components next to the origin, with their fleets next to it
    near = [(cm, t_origin & cm) for cm in g.comp_mask if t_origin & cm]
    # (answered from the map's memos, which every fleet configuration shares, without
    # going through the geometry's own per-(origin, destination) caches: legal orders ask
    # this once per army and fleet component, and keep the answers)
    port = fmask >> origin & 1
    for q in dests:
        if port or fmask >> q & 1:
            cand = g.routes(origin, q)
        else:
            cand = 0
            t_dest = tm[q]
            for cm, eo in near:
                ed = t_dest & cm
                if ed:
                    # (_component_routes, its memo read inline: most answers are kept)
                    ends = eo | ed
                    if ends & (ends - 1):
                        got = route_memo.get((cm, ends))
                        cand |= (got if got is not None
                                 else _component_routes(m, route_memo, cm, eo, ed))
                    else:
                        cand |= ends
        routes.append(cand)
        if cand & (cand - 1):  # (_necessary_kept, likewise)
            nec = memo.get((cand, t_origin & cand, tm[q] & cand, degree))
            necs.append(nec if nec is not None
                        else _necessary_kept(m, memo, origin, q, cand, degree))
        else:
            necs.append(cand)
    return routes, necs


class _Search:
    """The state of one search for routes without shortcuts."""

    __slots__ = ("budget", "dest", "dest_touch", "found", "origin", "origin_touch", "seas",
                 "touch", "touch_mask")

    def __init__(self, m: Map, origin: int, dest: int, seas: int) -> None:
        self.touch = m.convoy_touch_set
        self.touch_mask = m.convoy_touch_mask
        self.origin, self.dest, self.seas = origin, dest, seas
        self.origin_touch = m.convoy_touch_mask[origin]
        self.dest_touch = m.convoy_touch_mask[dest]
        self.found = 0
        self.budget = 300  # past this (crowded oceans), any fleet on some route counts

    def extend(self, cur: int, path: int, earlier: int) -> bool:
        """Extend the induced path `path` (a mask, ending in `cur`; `earlier`: the provinces
        next to its seas before `cur`) by each sea next to `cur`; False when out of budget.
        The seas are tried in the order of m.convoy_touch_set, the budget counted per try."""
        origin, dest = self.origin, self.dest
        later = 0 if path == 0 else earlier | self.touch_mask[cur]
        for s in self.touch[cur]:
            self.budget -= 1
            if self.budget < 0:
                return False
            bit = 1 << s
            if not self.seas & bit or path & bit or s in (origin, dest):
                continue
            if path and self.origin_touch & bit:
                continue  # shortcut from the origin
            if earlier & bit:
                continue  # shortcut from an earlier sea
            if self.dest_touch & bit:
                self.found |= path | bit
                continue
            if not self.extend(s, path | bit, later):
                return False
        return True


def _necessary(m: Map, origin: int, dest: int, candidates: int) -> int:
    # only fleets on some simple route can be on a route without shortcuts
    if candidates & (candidates - 1) == 0:  # none or one
        return candidates
    search = _Search(m, origin, dest, candidates)
    if not search.extend(origin, 0, 0):
        return candidates
    return search.found


def fleet_component(m: Map, origin: int, seas: frozenset[int]) -> frozenset[int]:
    """The convoy provinces of `seas` (those holding a fleet) connected to `origin`."""
    g = geometry(m, seas)
    near = m.convoy_touch_mask[origin]
    out = 0
    for cm in g.comp_mask:
        if near & cm:
            out |= cm
    return frozenset(bits(out))


def fleet_reach(m: Map, origin: int, seas: frozenset[int]) -> frozenset[int]:
    """Provinces an army in `origin` could be convoyed to through the convoy provinces
    `seas` (those holding a fleet)."""
    return frozenset(bits(geometry(m, seas).reach(origin)))
