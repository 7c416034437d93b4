#!/usr/bin/env python
"""What a player's page, `show --legal` and a simulation wait on, per built-in variant.

    python bench/variants.py [--years N] [--seed S] [--variants twentieth_century,wita]
                             [--render]

For each variant, a seeded random game (polydip.play.random_orders) is played for N game
years. At every movement phase the CPU time of `Game.legal_orders()` (all powers) is taken
(time.process_time, garbage collection off during the call); the table gives its median and
maximum, the whole game's phases per second (legal orders, orders given, process), and with
`--render` the CPU time of drawing the last position as a 1600 px PNG (polydip render's
default). Run it on the pure build (the editable install) and on the compiled one.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import tempfile
import time
from pathlib import Path

from polydip.game.game import Game
from polydip.play import random_orders
from polydip.variants.loader import builtin_names


def play(variant: str, years: int, seed: int) -> tuple[list[float], float, int, Game]:
    g = Game.new(variant)
    rng = random.Random(seed)
    legal_ms: list[float] = []
    end = g.position.phase.year + years
    phases = 0
    start = time.process_time()
    while g.position.phase.year < end and not g.is_over:
        gc.disable()
        t = time.process_time()
        legal = g.legal_orders()
        took = time.process_time() - t
        gc.enable()
        if g.position.phase.type == "M":
            legal_ms.append(took * 1000)
        for p, lst in random_orders(g.map, g.position, rng, legal=legal).items():
            g.set_orders(p, lst)
        g.process()
        phases += 1
    return legal_ms, phases / (time.process_time() - start), phases, g


def render_seconds(g: Game) -> float:
    from polydip.render import render_file

    with tempfile.TemporaryDirectory() as d:
        t = time.process_time()
        render_file(g, str(Path(d) / "map.png"))
        return time.process_time() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--years", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variants", default=",".join(builtin_names()))
    ap.add_argument("--render", action="store_true", help="also time a PNG of the end")
    args = ap.parse_args()
    print(f"{'variant':<22} {'phases':>6} {'phases/s':>9} {'legal median ms':>16} "
          f"{'legal max ms':>13}" + (f" {'PNG s':>6}" if args.render else ""))
    for v in args.variants.split(","):
        legal_ms, rate, phases, g = play(v, args.years, args.seed)
        row = (f"{v:<22} {phases:>6} {rate:>9.1f} {statistics.median(legal_ms):>16.1f} "
               f"{max(legal_ms):>13.1f}")
        if args.render:
            row += f" {render_seconds(g):>6.2f}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
