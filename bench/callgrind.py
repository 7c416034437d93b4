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
from pathlib import Path


class CountError(Exception):
    """A problem the user can fix (no valgrind, a failed child): printed, exit 2."""


def need_valgrind(script: str) -> None:
    if shutil.which("valgrind") is None:
        raise CountError(f"{script} needs valgrind (Debian: apt-get install valgrind)")


# the cache simulation of --cache-sim: valgrind's first-level caches as the machine's, and a
# last level of 2 MB (a core's share of a shared machine's cache, not the whole 300 MB L3
# valgrind reads from this CPU, in which everything fits); a miss costs, as valgrind's
# manual puts it, about 10 cycles at the first level and up to 200 at the last
CACHE_SIM = ["--cache-sim=yes", "--LL=2097152,16,64"]
L1_MISS, LL_MISS = 10, 200


def estimated_cycles(events: dict[str, int]) -> int:
    """A rough cycle count of callgrind's cache-simulation events: every instruction one
    cycle, plus the misses at their cost (no branch mispredictions, no pipelining)."""
    l1 = events["I1mr"] + events["D1mr"] + events["D1mw"]
    ll = events["ILmr"] + events["DLmr"] + events["DLmw"]
    return events["Ir"] + L1_MISS * l1 + LL_MISS * ll


def callgrind(args: list[str], what: str, cache_sim: bool = False) -> tuple[int, str]:
    """(instructions, standard output) of `python ARGS` under callgrind, with
    PYTHONHASHSEED=0; with `cache_sim`, estimated cycles (CACHE_SIM, estimated_cycles)
    instead of instructions; a CountError naming `what` when it fails."""
    return count_command([sys.executable, *args], what, cache_sim)


def count_command(cmd: list[str], what: str, cache_sim: bool = False) -> tuple[int, str]:
    """`callgrind` for any command (a Python script or a native program): (instructions,
    or estimated cycles with `cache_sim`, of the whole process; its standard output). The
    scripts check first that valgrind is there (need_valgrind), naming themselves."""
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           *(CACHE_SIM if cache_sim else []), *cmd]
    r = subprocess.run(cmd, capture_output=True, text=True,
                       env={**os.environ, "PYTHONHASHSEED": "0"})
    names = [line.split(":", 1)[1].split() for line in r.stderr.splitlines()
             if "Events    :" in line]
    got = [line.split(":", 1)[1].split() for line in r.stderr.splitlines()
           if "Collected :" in line]
    if r.returncode != 0 or not got:
        raise CountError(f"{what} under valgrind failed (status {r.returncode}): "
                         f"{r.stderr.strip()[-600:]}")
    events = dict(zip(names[-1] if names else ["Ir"], map(int, got[-1]), strict=False))
    return (estimated_cycles(events) if cache_sim else events["Ir"]), r.stdout


def count_engines(script: Path, args: argparse.Namespace, items: str,
                  flags: list[str]) -> dict[str, float]:
    """Instructions (or, with --cache-sim, estimated cycles) an item for polydip and the
    `diplomacy` package: the phases of the random games `args` names are recorded
    (`random_phases`; `items` says what the script counts of them, for the progress line),
    then each engine's child, `python SCRIPT --_child ENGINE --_phases PATH FLAGS`, is
    counted with `--_run` (doing the work) and without (start-up and set-up cancel out)."""
    from common import diplomacy_available

    name = f"bench/{script.name}"
    need_valgrind(name)
    if not diplomacy_available():
        raise CountError(f"{name} needs the `diplomacy` package: pip install -e '.[bench]'")

    def count(engine: str, path: Path, run: bool) -> int:
        child = [str(script), "--_child", engine, "--_phases", str(path), *flags]
        return callgrind([*child, "--_run"] if run else child, engine, args.cache_sim)[0]

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "recorded.pickle"
        n = random_phases(path, args.games, args.phases, args.seed)
        print(f"{n} {items} of {args.games} random standard games from seed {args.seed}; "
              f"counting with valgrind (minutes)...", file=sys.stderr, flush=True)
        return {engine: (count(engine, path, True) - count(engine, path, False)) / n
                for engine in ("polydip", "diplomacy")}


def print_counts(first: tuple[str, float], second: tuple[str, float],
                 second_note: str = "", ratio_note: str = "") -> None:
    """The two counts a step or phase, and the second's over the first's."""
    (a, x), (b, y) = first, second
    print(f"  {a:<10} {x:>12,.0f}")
    print(f"  {b:<10} {y:>12,.0f}{'  ' + second_note if second_note else ''}")
    print(f"  ratio      {y / x:>12.2f}x{'  ' + ratio_note if ratio_note else ''}")


def add_game_args(ap: argparse.ArgumentParser) -> None:
    """The recorded games' options (--games, --phases, --seed), --cache-sim, and the
    options `count_engines` gives its children (hidden)."""
    ap.add_argument("--games", type=int, default=10, help="random games (default 10)")
    ap.add_argument("--phases", type=int, default=40, help="phases per game at most (40)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--cache-sim", action="store_true",
                    help="count estimated cycles instead of instructions: valgrind's cache "
                         "simulation with a 2 MB last level, a first-level miss 10 cycles "
                         "and a last-level one 200 (slower, a rough model)")
    ap.add_argument("--_child", choices=("polydip", "diplomacy"), help=argparse.SUPPRESS)
    ap.add_argument("--_phases", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--_run", action="store_true", help=argparse.SUPPRESS)


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
