"""What bench/legal_count.py, process_count.py and env_count.py share: a child process
counted under valgrind's callgrind, both engines counted on the same recorded items, and
the random standard games those items are recorded from."""

from __future__ import annotations

import argparse
import os
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path


class CountError(Exception):
    """A problem the user can fix (no valgrind, a failed child): printed, exit 2."""


def need_valgrind(script: str) -> None:
    if shutil.which("valgrind") is None:
        raise CountError(f"{script} needs valgrind (Debian: apt-get install valgrind)")


def callgrind(args: list[str], what: str) -> tuple[int, str]:
    """(instructions, standard output) of `python ARGS` under callgrind, with
    PYTHONHASHSEED=0; a CountError naming `what` when it fails."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
           *args]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
    got = [line for line in r.stderr.splitlines() if "Collected :" in line]
    if r.returncode != 0 or not got:
        raise CountError(f"{what} under valgrind failed (status {r.returncode}): "
                         f"{r.stderr.strip()[-600:]}")
    return int(got[-1].split()[-1]), r.stdout


def count_engines(script: str, record: Callable[[Path], tuple[int, str]],
                  count: Callable[[str, Path, bool], int]) -> dict[str, float]:
    """Instructions an item for polydip and the `diplomacy` package: `record` writes the
    items to a file and gives (their number, what they are, for the progress line);
    `count(engine, path, run)` counts one child, which does the work only with `run`."""
    from common import diplomacy_available

    need_valgrind(script)
    if not diplomacy_available():
        raise CountError(f"{script} needs the `diplomacy` package: pip install -e '.[bench]'")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "recorded.pickle"
        n, what = record(path)
        print(f"{n} {what}; counting instructions with valgrind (minutes)...",
              file=sys.stderr, flush=True)
        return {engine: (count(engine, path, True) - count(engine, path, False)) / n
                for engine in ("polydip", "diplomacy")}


def add_game_args(ap: argparse.ArgumentParser) -> None:
    """The recorded games' options: --games, --phases, --seed."""
    ap.add_argument("--games", type=int, default=10, help="random games (default 10)")
    ap.add_argument("--phases", type=int, default=40, help="phases per game at most (40)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")


def check_game_args(ap: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    if args.games < 1 or args.phases < 1:
        ap.error("--games and --phases must be at least 1")


def random_phases(path: Path, games: int, phases: int, seed: int) -> int:
    """Play N random standard games with polydip alone (bench/common.py's random player, P
    phases at most, seeds from S) and pickle every phase to `path` as (the position before
    any orders, the orders given by power index, the same orders as the package reads
    them); gives the number of phases. legal_count.py reads only the positions."""
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
