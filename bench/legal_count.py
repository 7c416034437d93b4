#!/usr/bin/env python
"""Legal orders counted in instructions: polydip against the `diplomacy` package.

    python bench/legal_count.py [--games N] [--phases P] [--seed S] [--table-built] [--cache-sim]

bench/bench.py times legal orders in each engine's own loop over recorded positions, each
position new to it, polydip's caches emptied first; on a shared machine those CPU times move
by a fifth between runs. This script gives the same comparison as instructions a position
under valgrind's callgrind, which the machine's load does not move: it records the positions
of N random standard games (polydip's random player of bench/common.py, P phases at most,
seeds from S), then counts, in fresh processes, each engine's legal orders on all of them
minus the same process without them (start-up and set-up cancel out). polydip starts with
its caches emptied and its order table not built (as bench/bench.py's own loop; with
--table-built the table is built before the count, as the package's map is loaded before
its); the package's per-game caches are cleared before each call (`clear_cache`, as
bench/bench.py's "cold" figure).
--cache-sim counts estimated cycles instead (bench/callgrind.py: valgrind's cache
simulation).
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


def child(engine: str, path: Path, run: bool, table_built: bool) -> None:
    """Set up one engine on the recorded positions; with `run`, ask its legal orders of
    each (what the parent counts by difference)."""
    from common import base_game

    positions = [pos for pos, _orders, _dip in pickle.loads(path.read_bytes())]
    m = base_game().map
    if engine == "polydip":
        import polydip.orders.table as table
        from polydip.adjudication.legal import legal_orders

        table.order_table.cache_clear()
        m.caches.clear()
        if table_built:
            table.order_table(m)
        if run:
            for pos in positions:
                legal_orders(m, pos)
    else:
        from common import new_diplomacy_game, resync_diplomacy

        games = []
        for pos in positions:
            dg = new_diplomacy_game()
            resync_diplomacy(m, pos, dg)
            games.append(dg)
        if run:
            for dg in games:
                dg.clear_cache()
                dg.get_all_possible_orders()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_game_args(ap)
    ap.add_argument("--table-built", action="store_true",
                    help="build polydip's order table before the count (as the package's "
                         "map is loaded before its count)")
    args = ap.parse_args(argv)
    check_game_args(ap, args)
    if args._child:
        child(args._child, args._phases, args._run, args.table_built)
        return 0
    try:
        per = count_engines(Path(__file__).resolve(), args, "positions",
                            ["--table-built"] if args.table_built else [])
    except CountError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    table = "order table built first" if args.table_built else "order table built in the count"
    unit = "estimated cycles" if args.cache_sim else "instructions"
    print(f"legal orders, {unit} a position (caches emptied first; {table}):")
    print_counts(("polydip", per["polydip"]), ("diplomacy", per["diplomacy"]),
                 "(clear_cache before each call)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
