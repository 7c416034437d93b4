#!/usr/bin/env python
"""process() counted in instructions: polydip against the `diplomacy` package.

    python bench/process_count.py [--games N] [--phases P] [--seed S] [--loop] [--cache-sim]

bench/bench.py times `Game.process()` in each engine's own loop over recorded positions; on
a shared machine those CPU times move by a fifth between runs. This script gives the same
comparison as instructions a phase under valgrind's callgrind, which the machine's load
does not move (bench/legal_count.py does the same for legal orders): it records the phases
of N random standard games (polydip's random player of bench/common.py, P phases at most,
seeds from S) with the orders given in each, then counts, in fresh processes, each engine's
`process()` of every phase minus the same process without the calls. The games are set up,
their orders given and polydip's map caches emptied before the count (start-up, set-up and
`set_orders` cancel out); the package is given the same orders as bench/bench.py gives it.
With --loop it counts each engine's string loop instead: legal orders, `set_orders` for
every power and `process()` of every phase (bench/bench.py's "random-game loop").
--cache-sim counts estimated cycles (bench/callgrind.py: valgrind's cache simulation).
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from callgrind import (  # noqa: E402
    CountError,
    add_game_args,
    check_game_args,
    count_engines,
    print_counts,
)


def child(engine: str, path: Path, run: bool, loop: bool) -> None:
    """Set up one engine's game of each recorded phase; with `run`, play each (what the
    parent counts by difference). Without `loop` the orders are given in the set-up and
    `run` is `process()` alone. With `loop`, `run` is each engine's string loop: legal
    orders, `set_orders` for every power, `process()`. polydip starts it with every cache
    emptied (as bench/bench.py's own loop); the package starts each phase with the caches
    its set-up built, as its own `process()` leaves them for the next phase (bench/bench.py
    clears them before its legal orders, which counts their build twice)."""
    from common import base_game, clear_polydip_caches

    phases = pickle.loads(path.read_bytes())
    base = base_game()
    m = base.map
    if engine == "polydip":
        from polydip.adjudication.legal import legal_orders
        from polydip.game.game import Game

        games = []
        for pos, orders, _dip in phases:
            g = Game(base.variant, m, pos.copy(), dict(base.options))
            if not loop:
                for p, lst in orders.items():
                    g.set_orders(p, lst)
            games.append((g, orders))
        if loop:
            clear_polydip_caches()
        else:
            m.caches.clear()
        if run and loop:
            for g, orders in games:
                legal_orders(m, g.position)
                for p, lst in orders.items():
                    g.set_orders(p, lst)
                g.process()
        elif run:
            for g, _orders in games:
                g.process()
        return
    from common import new_diplomacy_game, resync_diplomacy

    dgames = []
    for pos, _orders, dip in phases:
        dg = new_diplomacy_game()
        resync_diplomacy(m, pos, dg)
        if not loop:
            for p, lst in dip.items():
                dg.set_orders(m.powers[p].upper(), lst)
        dgames.append((dg, dip))
    if run and loop:
        for dg, dip in dgames:
            dg.get_all_possible_orders()
            for p, lst in dip.items():
                dg.set_orders(m.powers[p].upper(), lst)
            dg.process()
    elif run:
        for dg, _dip in dgames:
            dg.process()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_args(ap)
    ap.add_argument("--loop", action="store_true",
                    help="count the string loop (legal orders, set_orders for every power, "
                         "process()) instead of process() alone")
    args = ap.parse_args(argv)
    check_game_args(ap, args)
    if args._child:
        child(args._child, args._phases, args._run, args.loop)
        return 0
    try:
        per = count_engines(Path(__file__).resolve(), args, "phases",
                            ["--loop"] if args.loop else [])
    except CountError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    unit = "estimated cycles" if args.cache_sim else "instructions"
    if args.loop:
        print(f"the string loop (legal orders, set_orders, process()), {unit} a phase "
              "(polydip's caches emptied first; the order table built in the count):")
    else:
        print(f"process(), {unit} a phase (orders given and polydip's map caches emptied "
              "first):")
    print_counts(("polydip", per["polydip"]), ("diplomacy", per["diplomacy"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
