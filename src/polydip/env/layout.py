"""The RL environment's loops over a step's units and slots (polydip.env.parallel), without
numpy, so that the compiled build (setup.py COMPILED) runs them natively: interpreted, they
cost the compiled build more than the pure one (each read of a compiled unit's attribute
goes through a descriptor). parallel.py wraps the lists and bytes they give in numpy
arrays."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from math import floor

from polydip.state import Dislodged, Unit

Units = Sequence[Unit | Dislodged]


def read_units(units: Units, row_of: list[int], n_rows: int, max_units: int,
               board: bytearray | None, n_kinds: int, n_powers: int
               ) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """Per agent row, the indices of its units in `units` (`row_of`: per power its row, -1
    for a neutral power, whose units are left out); per unit, its cell in the (agents,
    max_units) arrays (row × max_units + slot; meaningless for a neutral unit and past
    max_units); per agent row, its units' locations; and, with `board`, the units counted
    in it as `count_units` counts them: one pass over the units for all four."""
    mine: list[list[int]] = [[] for _ in range(n_rows + 1)]
    locs: list[list[int]] = [[] for _ in range(n_rows + 1)]
    cells: list[int] = []
    for k, u in enumerate(units):
        p = u.power
        loc = u.loc
        r = row_of[p]
        ks = mine[r]
        cells.append(r * max_units + len(ks))
        ks.append(k)
        locs[r].append(loc)
        if board is not None:
            board[(loc * n_kinds + u.kind) * n_powers + p] += 1
    mine.pop()  # (row -1: the neutral powers')
    locs.pop()
    return mine, cells, locs


# struct formats (pack_cells): per number of codes L, a slot's L ints then its padding
# taken from a bytes argument (an "Ns" field copies the first N bytes of its argument); per
# (rows, cols, max_units), the rows' formats of the three arrays by number of slots c
_SLOT_FORMATS: dict[int, list[str]] = {}
_ROW_FORMATS: dict[tuple[int, int, int], tuple[list[str], list[str], list[str]]] = {}


def _slot_formats(cols: int) -> list[str]:
    got = _SLOT_FORMATS.get(cols)
    if got is None:
        got = _SLOT_FORMATS[cols] = [f"{n}i{4 * (cols - n)}s" for n in range(cols + 1)]
    return got


def _row_formats(rows: int, cols: int, max_units: int
                 ) -> tuple[list[str], list[str], list[str]]:
    key = (rows, cols, max_units)
    got = _ROW_FORMATS.get(key)
    if got is None:
        if len(_ROW_FORMATS) > 4096:  # (a long run over many shapes: start again)
            _ROW_FORMATS.clear()
        got = _ROW_FORMATS[key] = (
            [f"{c}i{4 * (rows - c)}s" for c in range(rows + 1)],
            [f"{c}i{4 * (max_units - c)}s" for c in range(max_units + 1)],
            [f"{4 * cols * (rows - c)}s" for c in range(rows + 1)])
    return got


def pack_cells(lists: list[list[int]], mine: list[list[int]], locs: list[list[int]] | None,
               rows: int, cols: int, max_units: int, minus: bytes, zeros: bytes) -> bytes:
    """The step's three slot arrays as the bytes of int32s, one after the other, laid out
    by one struct call (its padding copied from `minus`, 0xFF bytes, and `zeros`, each at
    least 4 × rows × cols long, and `minus` 4 × max_units): per agent row (`mine`: its
    items) `n_legal`, each slot's number of codes, 0-padded to `rows`; then per row
    `slots`, each slot's unit's location (`locs`: per row, its slots'; none without:
    an adjustment phase's items have none), -1-padded to `max_units`; then per row and
    slot `legal`, its codes -1-padded to `cols`, and the row's missing slots all -1."""
    piece = _slot_formats(cols)
    n_row, s_row, l_row = _row_formats(rows, cols, max_units)
    n_fmt: list[str] = []
    s_fmt: list[str] = []
    l_fmt: list[str] = []
    n_args: list[int | bytes] = []
    s_args: list[int | bytes] = []
    l_args: list[int | bytes] = []
    for r, ks in enumerate(mine):
        c = len(ks)
        for k in ks:
            lst = lists[k]
            n = len(lst)
            n_args.append(n)
            l_fmt.append(piece[n])
            l_args += lst
            l_args.append(minus)
        if locs is None:
            s_fmt.append(s_row[0])
        else:
            s_fmt.append(s_row[c])
            here = locs[r]
            s_args += here if len(here) == c else here[:c]  # (a row cut to max_units
            # keeps its first slots)
        n_fmt.append(n_row[c])
        n_args.append(zeros)
        s_args.append(minus)
        l_fmt.append(l_row[c])
        l_args.append(minus)
    return struct.pack("".join(n_fmt) + "".join(s_fmt) + "".join(l_fmt), *n_args, *s_args,
                       *l_args)


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
    out = [-1] * (width * len(agent_rows))
    i = 0  # (the agent's first action in out)
    for u, r in zip(draws, agent_rows, strict=True):
        at = r * max_units
        for s, k in enumerate(mine[r]):
            lst = lists[k]
            if lst:
                j = floor(u[s] * len(lst))  # (a third of int()'s time, the same for u >= 0)
                codes[k] = played[at + s] = c = lst[j]
                out[i + s] = c if code else j
        i += width
    return out
