#!/usr/bin/env python
"""The RL environment against the fast path it plays on, counted in instructions.

    python bench/env_count.py [--variant V] [--games N] [--phases P] [--cache-sim]

bench/env.py times the env's steps against the fast path's in lockstep (issue 32 item 4: the
env within 1.5x of the fast path); on a shared machine those CPU times move by a few percent
between runs, as much as a change to the env is worth. This script gives the same comparison
as instructions a step under valgrind's callgrind, which the machine's load does not move:
each loop of bench/env.py (`fast_games`: the random policy played on FastGame; `env_games`:
the same games through DiplomacyEnv with `sample_actions`) is counted in a fresh process,
minus the same process without it (start-up and set-up cancel out). Both children first play
both loops' games twice, untimed, so that the map's caches are as full as in bench/env.py's
lockstep runs. The counts are per step of the same games (checked: the same number of
steps). Needs valgrind (Debian: apt-get install valgrind); a few minutes for 5 games.
--cache-sim counts estimated cycles instead (bench/callgrind.py: valgrind's cache
simulation, which adds what the numpy calls' cold caches cost).
"""

from __future__ import annotations

import argparse
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from callgrind import CountError, callgrind, need_valgrind, print_counts  # noqa: E402


def child(loop: str, variant: str, games: int, phases: int, run: bool) -> None:
    """Warm both loops' caches, then with `run` play `loop`'s games (what the parent counts
    by difference) and print its steps."""
    from env import env_games, fast_games

    from polydip.env import DiplomacyEnv

    max_units = DiplomacyEnv(variant).max_units
    kw = {"max_phases": phases + 1, "max_year": 100_000}  # (the games stop at `phases`)
    for _ in range(2):
        fast_games(variant, games, phases, max_units)
        env_games(variant, games, phases, **kw)
    if run:
        if loop == "fast":
            steps = fast_games(variant, games, phases, max_units)[0]
        else:
            steps = env_games(variant, games, phases, **kw)[0]
        print(f"steps {steps}")


def count(loop: str, variant: str, games: int, phases: int, run: bool,
          cache_sim: bool = False) -> tuple[int, int]:
    """(instructions or estimated cycles, steps played) of one child process under
    callgrind."""
    args = [str(Path(__file__).resolve()), "--_child", loop, "--variant", variant,
            "--games", str(games), "--phases", str(phases)]
    if run:
        args.append("--_run")
    instructions, out = callgrind(args, f"the {loop} loop", cache_sim)
    steps = [int(line.split()[1]) for line in out.splitlines() if line.startswith("steps ")]
    return instructions, steps[-1] if steps else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--games", type=int, default=5, help="random games (default 5)")
    ap.add_argument("--phases", type=int, default=200, help="phases per game at most (200)")
    ap.add_argument("--cache-sim", action="store_true",
                    help="count estimated cycles (valgrind's cache simulation, a rough "
                         "model: bench/callgrind.py) instead of instructions")
    ap.add_argument("--_child", choices=("fast", "env"), help=argparse.SUPPRESS)
    ap.add_argument("--_run", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.games < 1 or args.phases < 1:
        ap.error("--games and --phases must be at least 1")
    if args._child:
        child(args._child, args.variant, args.games, args.phases, args._run)
        return 0
    try:
        need_valgrind("bench/env_count.py")
        try:
            import numpy  # noqa: F401
            import pettingzoo  # noqa: F401
        except ImportError:
            raise CountError("bench/env_count.py needs the rl extra: "
                             "pip install -e '.[rl]'") from None
        from polydip.errors import PolydipError
        from polydip.variants.loader import load_variant

        try:
            load_variant(args.variant)
        except PolydipError as e:
            raise CountError(str(e)) from None
        print(f"{args.games} random {args.variant} games of {args.phases} phases at most, "
              f"each loop counted with valgrind (minutes)...", file=sys.stderr, flush=True)
        jobs = [(loop, run) for loop in ("fast", "env") for run in (False, True)]
        with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:  # (a core a child)
            got = dict(zip(jobs, pool.map(
                lambda j: count(j[0], args.variant, args.games, args.phases, j[1],
                                args.cache_sim), jobs),
                strict=True))
        per, steps = {}, {}
        for loop in ("fast", "env"):
            total, steps[loop] = got[(loop, True)]
            if steps[loop] < 1:
                raise CountError(f"the {loop} loop played no step")
            per[loop] = (total - got[(loop, False)][0]) / steps[loop]
        if steps["fast"] != steps["env"]:
            raise CountError(f"the two loops played different games ({steps['fast']} and "
                             f"{steps['env']} steps)")
    except CountError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    unit = "estimated cycles" if args.cache_sim else "instructions"
    print(f"{args.variant}, {steps['env']} steps; {unit} a step (caches warm):")
    print_counts(("fast path", per["fast"]), ("env", per["env"]),
                 ratio_note="(env step / fast-path step)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
