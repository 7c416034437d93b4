#!/usr/bin/env python
"""process() counted in instructions: polydip against the `diplomacy` package.

    python bench/process_count.py [--games N] [--phases P] [--seed S]

bench/bench.py times `Game.process()` in each engine's own loop over recorded positions; on
a shared machine those CPU times move by a fifth between runs. This script gives the same
comparison as instructions a phase under valgrind's callgrind, which the machine's load
does not move (bench/legal_count.py does the same for legal orders): it records the phases
of N random standard games (polydip's random player of bench/common.py, P phases at most,
seeds from S) with the orders given in each, then counts, in fresh processes, each engine's
`process()` of every phase minus the same process without the calls. The games are set up,
their orders given and polydip's map caches emptied before the count (start-up, set-up and
`set_orders` cancel out); the package is given the same orders as bench/bench.py gives it.
"""

from __future__ import annotations

import argparse
import pickle
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from callgrind import (  # noqa: E402
    CountError,
    add_game_args,
    callgrind,
    check_game_args,
    count_engines,
)


def record(path: Path, games: int, phases: int, seed: int) -> int:
    """Play the games with polydip alone and keep every phase: the position, the orders
    given, and those orders as the package takes them (pickled to `path`)."""
    from common import base_game, dip_orders, safe_random_orders

    from polydip.game.game import Game, initial_position

    base = base_game()
    kept = []
    for i in range(games):
        rng = random.Random(seed + i)
        g = Game(base.variant, base.map, initial_position(base.map), dict(base.options))
        for _ in range(phases):
            if g.is_over:
                break
            pos = g.position.copy()
            orders = safe_random_orders(g.map, g.position, rng)
            kept.append((pos, orders, dip_orders(g.map, pos, orders)))
            for p, lst in orders.items():
                g.set_orders(p, lst)
            g.process()
    path.write_bytes(pickle.dumps(kept))
    return len(kept)


def child(engine: str, path: Path, run: bool) -> None:
    """Set up one engine's game of each recorded phase, its orders given; with `run`,
    process each (what the parent counts by difference)."""
    from common import base_game

    phases = pickle.loads(path.read_bytes())
    base = base_game()
    m = base.map
    games = []
    if engine == "polydip":
        from polydip.game.game import Game

        for pos, orders, _dip in phases:
            g = Game(base.variant, m, pos.copy(), dict(base.options))
            for p, lst in orders.items():
                g.set_orders(p, lst)
            games.append(g)
        m.caches.clear()
    else:
        from common import new_diplomacy_game, resync_diplomacy

        for pos, _orders, dip in phases:
            dg = new_diplomacy_game()
            resync_diplomacy(m, pos, dg)
            for p, lst in dip.items():
                dg.set_orders(m.powers[p].upper(), lst)
            games.append(dg)
    if run:
        for g in games:
            g.process()


def count(engine: str, path: Path, run: bool) -> int:
    """Instructions of one child process under callgrind."""
    args = [str(Path(__file__).resolve()), "--_child", engine, "--_phases", str(path)]
    if run:
        args.append("--_run")
    return callgrind(args, engine)[0]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_args(ap)
    ap.add_argument("--_child", choices=("polydip", "diplomacy"), help=argparse.SUPPRESS)
    ap.add_argument("--_phases", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--_run", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    check_game_args(ap, args)
    if args._child:
        child(args._child, args._phases, args._run)
        return 0
    try:
        per = count_engines(
            "bench/process_count.py",
            lambda path: (record(path, args.games, args.phases, args.seed),
                          f"phases of {args.games} random standard games from seed "
                          f"{args.seed}"),
            count)
    except CountError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print("process(), instructions a phase (orders given and polydip's map caches emptied "
          "first):")
    print(f"  polydip    {per['polydip']:>12,.0f}")
    print(f"  diplomacy  {per['diplomacy']:>12,.0f}")
    print(f"  ratio      {per['diplomacy'] / per['polydip']:>12.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
