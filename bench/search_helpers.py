"""Search helpers of the fast path (docs/fastpath.md, "Search helpers"): pickle size and
round trip, deepcopy, the old copy idiom, clone, snapshot/restore and Position.key, in µs
(the fastest of 5 timeit runs), on standard at the first movement phase after 10 random
phases.

    PYTHONPATH=src python bench/search_helpers.py

Runs on older code too (the helpers it lacks are skipped), to compare before and after.
"""

from __future__ import annotations

import copy
import pickle
import random
import timeit
from collections.abc import Callable

from polydip.fast import FastGame


def us(f: Callable[[], object], n: int = 2000) -> float:
    return min(timeit.repeat(f, number=n, repeat=5)) / n * 1e6


def main() -> None:
    fg = FastGame.new("standard")
    rng = random.Random(1)
    for _ in range(10):
        fg.step([rng.choice(c) if c else -1 for c in fg.legal()])
    while fg.phase_type != "M":  # (a movement phase: the one the last line times)
        fg.step([rng.choice(c) if c else -1 for c in fg.legal()])
    print(f"at {fg.phase}, {len(fg.position.units)} units")
    print(f"pickle bytes {len(pickle.dumps(fg))}, the position alone "
          f"{len(pickle.dumps(fg.position))}")
    print(f"pickle round trip {us(lambda: pickle.loads(pickle.dumps(fg)), 20):.1f} µs")
    print(f"copy.deepcopy {us(lambda: copy.deepcopy(fg), 20):.1f} µs")
    print(f"FastGame(fg.m, fg.position.copy(), fg.options) "
          f"{us(lambda: FastGame(fg.m, fg.position.copy(), fg.options)):.1f} µs")
    if hasattr(fg, "clone"):
        snap = fg.snapshot()
        print(f"clone {us(fg.clone):.1f} µs")
        print(f"snapshot {us(fg.snapshot):.1f} µs")
        print(f"restore {us(lambda: fg.restore(snap)):.1f} µs")
        print(f"Position.key {us(fg.position.key):.1f} µs")
    print(f"this movement phase played (new FastGame, legal codes, step) "
          f"{us(lambda: _one_phase(fg, rng), 200):.1f} µs")


def _one_phase(fg: FastGame, rng: random.Random) -> None:
    g = FastGame(fg.m, fg.position, fg.options)  # (the same before and after: legal afresh)
    g.step([rng.choice(c) if c else -1 for c in g.legal()])


if __name__ == "__main__":
    main()
