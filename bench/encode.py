"""The encodings of polydip.encode (docs/encoding.md), in µs of CPU time per call (the fastest
of 5 timeit runs, timed by process_time: on shared cores wall time mostly measures the
neighbours): DipNet's board and previous orders and the vocabulary's code mapping on standard, the
general planes on standard, Latin American Diplomacy and The Twentieth Century, each at the
first movement phase after 10 random phases, with the time a phase takes to play there (new
FastGame, legal codes, step) to compare with.

    PYTHONPATH=src python bench/encode.py
"""

from __future__ import annotations

import random
import time
import timeit
from collections.abc import Callable

import numpy as np

from polydip.encode import board_encoder, dipnet_encoder, vocabulary
from polydip.fast import FastGame


def us(f: Callable[[], object], n: int = 500) -> float:
    return min(timeit.repeat(f, number=n, repeat=5, timer=time.process_time)) / n * 1e6


def played(variant: str, phases: int = 10) -> tuple[FastGame, list[int]]:
    """A game at its first movement phase after `phases` random ones, and random orders."""
    fg = FastGame.new(variant)
    rng = random.Random(1)
    for _ in range(phases):
        fg.step([rng.choice(c) if c else -1 for c in fg.legal()])
    while fg.phase_type != "M":
        fg.step([rng.choice(c) if c else -1 for c in fg.legal()])
    return fg, [rng.choice(c) if c else -1 for c in fg.legal()]


def _one_phase(fg: FastGame, codes: list[int]) -> None:
    g = FastGame(fg.m, fg.position, fg.options)
    g.legal()
    g.step(codes)


def main() -> None:
    fg, codes = played("standard")
    pos = fg.position
    dn = dipnet_encoder(fg.m)
    print(f"standard at {fg.phase}, {len(pos.units)} units")
    print(f"  DipNet board (81 x 35) {us(lambda: dn.board(pos)):.1f} µs")
    print(f"  DipNet previous orders (81 x 40) {us(lambda: dn.prev_orders(pos, codes)):.1f} µs")
    v = vocabulary(fg.m)
    legal = np.array([c for cs in fg.legal() for c in cs])
    print(f"  vocabulary: {len(legal)} legal codes -> indices "
          f"{us(lambda: v.indices_of(legal)):.1f} µs")
    for variant in ("standard", "lad1890", "twentieth_century"):
        g, cs = played(variant) if variant != "standard" else (fg, codes)
        enc = board_encoder(g.m)
        p = g.position
        print(f"{variant} at {g.phase}, {len(p.units)} units: general board "
              f"({enc.n_rows} x {len(enc.features)}) {us(lambda e=enc, q=p: e.board(q)):.1f} µs, "
              f"orders ({enc.n_rows} x {len(enc.order_features)}) "
              f"{us(lambda e=enc, q=p, c=cs: e.orders(q, c)):.1f} µs; "
              f"the phase played {us(lambda q=g, c=cs: _one_phase(q, c), 50):.1f} µs")


if __name__ == "__main__":
    main()
