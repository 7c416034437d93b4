"""Convoy routes: chains of convoying fleets from an army's province to its destination.

Routes are found over provinces (a province whose convoying fleet is usable is a node), so a
space holding several fleets needs only one of them. All functions take plain ids.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache

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


def provinces_on_routes(m: Map, origin: int, dest: int, nodes: Iterable[int]) -> set[int]:
    """The provinces of `nodes` that lie on at least one complete route origin → dest (a
    simple chain: a fleet in a dead end next to a route is not on it).

    A province lies on a simple origin–dest chain exactly when it shares a biconnected
    component with the edge origin–dest added to the graph (a simple cycle through that
    edge), so one linear pass over the graph answers for every fleet at once.
    """
    nodes = set(nodes)
    nodes.discard(origin)
    nodes.discard(dest)
    touch = m.convoy_touch
    fwd = _reach(touch, [p for p in touch[origin] if p in nodes], nodes)
    back = _reach(touch, [p for p in touch[dest] if p in nodes], nodes)
    candidates = fwd & back
    if len(candidates) <= 2:
        return candidates  # one or two fleets: reachable both ways means on a route
    return _block_of_edge(touch, candidates, origin, dest)


@lru_cache(maxsize=1 << 16)
def routes_through(m: Map, origin: int, dest: int, fleets: frozenset[int]) -> frozenset[int]:
    """provinces_on_routes, cached for a fixed set of fleet provinces."""
    return frozenset(provinces_on_routes(m, origin, dest, fleets))


def _block_of_edge(touch: list[tuple[int, ...]], nodes: set[int], s: int, t: int
                   ) -> set[int]:
    """The vertices of `nodes` in the biconnected component holding the edge s–t of the
    graph: `nodes` joined by `touch`, plus s and t joined to their neighbours in `nodes` and
    to each other (Tarjan's algorithm, iterative)."""
    dest_side = {q for q in touch[t] if q in nodes}

    def neighbours(v: int) -> list[int]:
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

    index: dict[int, int] = {}
    low: dict[int, int] = {}
    edges: list[tuple[int, int]] = []
    result: set[int] = set()
    counter = 0
    index[s] = low[s] = counter
    stack = [(s, -1, iter(neighbours(s)))]
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
                stack.append((w, v, iter(neighbours(w))))
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
                block = set()
                while edges:
                    a, b = edges.pop()
                    block.add(a)
                    block.add(b)
                    if (a, b) == (u, v):
                        break
                if s in block and t in block:
                    result = block
    return (result - {s, t}) & nodes


def _reach(touch: list[tuple[int, ...]], start: list[int], nodes: set[int]) -> set[int]:
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
    return via in _necessary(m, origin, dest, seas)


@lru_cache(maxsize=1 << 15)
def _necessary(m: Map, origin: int, dest: int, seas: frozenset[int]) -> frozenset[int]:
    # only fleets on some simple route can be on a route without shortcuts
    candidates = routes_through(m, origin, dest, seas)
    if len(candidates) <= 1:
        return candidates
    seas = candidates
    touch = m.convoy_touch_set
    found: set[int] = set()
    budget = [300]  # past this (crowded oceans), any fleet on some route counts
    path: list[int] = []
    dest_touch = touch[dest]
    origin_touch = touch[origin]

    def extend(cur: int) -> bool:
        for s in touch[cur]:
            budget[0] -= 1
            if budget[0] < 0:
                return False
            if s not in seas or s in path or s in (origin, dest):
                continue
            if path and s in origin_touch:
                continue  # shortcut from the origin
            if any(s in touch[q] for q in path[:-1]):
                continue  # shortcut from an earlier sea
            if s in dest_touch:
                found.update(path)
                found.add(s)
                continue
            path.append(s)
            ok = extend(s)
            path.pop()
            if not ok:
                return False
        return True

    if not extend(origin):
        return candidates
    return frozenset(found)


@lru_cache(maxsize=1 << 14)
def fleet_component(m: Map, origin: int, seas: frozenset[int]) -> frozenset[int]:
    """The convoy provinces of `seas` (those holding a fleet) connected to `origin`."""
    touch = m.convoy_touch
    comp = set()
    stack = [s for s in touch[origin] if s in seas]
    comp.update(stack)
    while stack:
        s = stack.pop()
        for x in touch[s]:
            if x in seas and x not in comp:
                comp.add(x)
                stack.append(x)
    return frozenset(comp)


@lru_cache(maxsize=1 << 14)
def fleet_reach(m: Map, origin: int, seas: frozenset[int]) -> frozenset[int]:
    """Provinces an army in `origin` could be convoyed to through the convoy provinces
    `seas` (those holding a fleet)."""
    comp = fleet_component(m, origin, seas)
    return frozenset(q for s in comp for q in m.convoy_shore[s] if q != origin)
