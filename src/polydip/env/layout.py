"""The RL environment's loops over a step's units and slots (polydip.env.parallel), without
numpy, so that the compiled build (setup.py COMPILED) runs them natively: interpreted, they
cost the compiled build more than the pure one (each read of a compiled unit's attribute
goes through a descriptor). parallel.py wraps the lists and bytes they give in numpy
arrays."""

from __future__ import annotations

from collections.abc import Sequence

from polydip.state import Dislodged, Unit

Units = Sequence[Unit | Dislodged]


def group_units(units: Units, row_of: list[int], n_rows: int) -> list[list[int]]:
    """Per agent row, the indices of its units in `units` (`row_of`: per power its row, -1
    for a neutral power, whose units are left out)."""
    mine: list[list[int]] = [[] for _ in range(n_rows + 1)]
    for k, u in enumerate(units):
        mine[row_of[u.power]].append(k)
    mine.pop()  # (row -1: the neutral powers')
    return mine


def slot_cells(lists: list[list[int]], mine: list[list[int]], units: Units | None
               ) -> tuple[list[int], list[int], list[int]]:
    """The slots in cell order (agent row, then slot): per slot its number of legal codes,
    its unit's location (none without `units`: an adjustment phase's items have none), and
    every slot's codes one after the other."""
    lens: list[int] = []
    locs: list[int] = []
    flat: list[int] = []
    if units is None:
        for ks in mine:
            for k in ks:
                lst = lists[k]
                lens.append(len(lst))
                flat += lst
    else:
        for ks in mine:
            for k in ks:
                lst = lists[k]
                lens.append(len(lst))
                flat += lst
                locs.append(units[k].loc)
    return lens, locs, flat


def count_units(units: Units, size: int, n_kinds: int, n_powers: int) -> bytes:
    """How many of `units` stand at each (location, kind, power), one byte each, in that
    order."""
    board = bytearray(size)
    for u in units:
        board[(u.loc * n_kinds + u.kind) * n_powers + u.power] += 1
    return bytes(board)


def draw(draws: list[list[float]], agent_rows: list[int], mine: list[list[int]],
         lists: list[list[int]], width: int, max_units: int, code: bool, codes: list[int],
         played: memoryview) -> list[int]:
    """sample_actions' draw: per live agent (`agent_rows`: their rows, in order) and slot,
    the legal code at floor(u × its number of codes) — stored in `codes` (per item) and
    `played` (per cell of (agents, max_units)) — or -1 for a slot with none; the actions
    (the code, or its index with `code` False), `width` per agent, one after the other."""
    out: list[int] = []
    for u, r in zip(draws, agent_rows, strict=True):
        act = [-1] * width
        at = r * max_units
        for s, k in enumerate(mine[r]):
            lst = lists[k]
            if lst:
                j = int(u[s] * len(lst))
                codes[k] = played[at + s] = c = lst[j]
                act[s] = c if code else j
        out += act
    return out
