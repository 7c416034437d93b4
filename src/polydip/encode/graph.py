"""A map as a graph, for graph models: nodes are its locations (`m.loc_name`: provinces,
then named coasts, the rows of BoardEncoder), edges the moves a unit kind may make.

- `edge_index(m, kind)`: the (2, E) int64 array of the moves of one unit kind (both
  directions listed, source row first: the layout graph libraries read);
- `adjacency(m, kinds=None, coasts=True)`: an (n_loc, n_loc) uint8 matrix, 1 where a unit of
  any of `kinds` (default: every kind) moves from the row's location to the column's, and
  with `coasts` between a coast and its province (DipNet's adjacency matrix: a move of an
  army or a fleet, or a coast and its province);
- `edge_types(m)`: every edge of the variant file between two locations, with its edge
  kind (`m.variant.edge_kinds`, in the file's order): a (2, E) array and an (E,) array of
  edge-kind indices, each edge listed both ways; border markers no unit crosses (a
  mountain border) included, as their kind says.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from polydip.errors import PolydipError
from polydip.geography.map import Map


def edge_index(m: Map, kind: int | str) -> np.ndarray:
    """The moves of one unit kind (an index or a letter: "A", "F"), as (2, E) int64."""
    k = _kind(m, kind)
    pairs = [(a, b) for a in range(m.n_loc) for b in m.move_locs[k][a]]
    return np.array(pairs, dtype=np.int64).reshape(-1, 2).T.copy()


def adjacency(m: Map, kinds: Sequence[int | str] | None = None, coasts: bool = True
              ) -> np.ndarray:
    """The (n_loc, n_loc) uint8 adjacency of the moves of `kinds` (default: all), with
    coast-province links when `coasts`."""
    out = np.zeros((m.n_loc, m.n_loc), dtype=np.uint8)
    for kind in range(len(m.kinds)) if kinds is None else kinds:
        e = edge_index(m, kind)
        out[e[0], e[1]] = 1
    if coasts:
        for loc in range(m.n_prov, m.n_loc):
            p = m.loc_prov[loc]
            out[loc, p] = out[p, loc] = 1
    return out


def edge_types(m: Map) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """Every edge of the variant between locations, both ways: ((2, E) int64 locations,
    (E,) int64 edge-kind indices, the edge-kind names)."""
    names = list(m.variant.edge_kinds)
    index = {n: i for i, n in enumerate(names)}
    pairs: list[tuple[int, int]] = []
    kinds: list[int] = []
    for e in m.variant.edges:
        a, b = m.loc_index.get(e.a), m.loc_index.get(e.b)
        if a is None or b is None:  # (the map refuses such a file when it is compiled)
            raise PolydipError(f"edge {e.a}-{e.b} names a place the map does not have")
        pairs += [(a, b), (b, a)]
        kinds += [index[e.kind]] * 2
    return (np.array(pairs, dtype=np.int64).reshape(-1, 2).T.copy(),
            np.array(kinds, dtype=np.int64), names)


def _kind(m: Map, kind: int | str) -> int:
    if isinstance(kind, str):
        if kind not in m.kind_index:
            raise PolydipError(f"unknown unit kind {kind!r}; {m.variant.name} has "
                               f"{', '.join(m.kinds)}")
        return m.kind_index[kind]
    if not 0 <= kind < len(m.kinds):
        raise PolydipError(f"unit kind {kind} does not exist; {m.variant.name} has "
                           f"{len(m.kinds)} (0..{len(m.kinds) - 1})")
    return kind
