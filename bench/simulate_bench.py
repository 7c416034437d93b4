"""Simulation throughput: games per hour per core and memory per game, polydip against the
`diplomacy` package, both playing the same random player in the same run (bench/README.md).

    python bench/simulate_bench.py                  # 20 games each to 1930, ~1 minute
    python bench/simulate_bench.py --games 50 --max-year 1920

The random player, in both engines: every orderable unit (or build/removal) gets one of its
legal orders uniformly at random; the game stops when it is over or after --max-year.
- polydip: the runner of `polydip simulate` (`polydip.simulate.games.play_game`: the fast
  path, FastGame, with `polydip.simulate.players.random_player`), the game written as its
  saved-game JSON line — what a simulation costs end to end; and the same games without
  writing them (play only: `polydip.simulate.games.play`, the runner's play with the
  orders' texts kept for writing). The writing share printed under the table is the written
  run's writing (`write_game`, timed apart) over that run's time (bench/simulate_write.py
  measures it with the shard's gzip too, by CPU time or instruction counts).
- diplomacy (1.1.2): its documented random-game loop (`get_all_possible_orders`, a random
  order per orderable location, `set_orders`, `process`), and `to_saved_game_format` +
  `json.dumps` for the written figure.
Time is CPU time of this process (`time.process_time`), so a busy machine does not lower the
per-core figure. Memory per game: in a fresh interpreter per engine, the Python memory held
by finished games with their histories (tracemalloc, mean over 10 games kept alive), and the
resident size of a process that has played one game.

dipcc (Meta's C++ engine, standard map only) cannot be installed from the registries this
project uses; its row is computed from the figure quoted in polydip's speed issue (1,600-1,800
phases/s in its Python loop) and the phases per game measured here for the package.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from typing import Any

DIPCC_PHASES_PER_S = (1600, 1800)  # issue 14 of this project; see bench/README.md


WRITING: list[float] = []  # CPU seconds of the last written run spent writing


def polydip_games(n: int, seed: int, max_year: int, write: bool) -> tuple[int, float]:
    from polydip.compile import compile_map
    from polydip.game.dipjson import WriteMemo
    from polydip.simulate.games import play, write_game
    from polydip.simulate.players import random_player
    from polydip.variants.loader import load_variant

    v = load_variant("standard")
    phases = 0
    writing = 0.0
    t = time.process_time()
    memo = WriteMemo(compile_map(v))  # as a worker of `polydip simulate` keeps one (shards.py)
    for i in range(n):  # play_game, with its writing timed apart
        game = play(v, {}, seed + i, random_player, max_year)
        phases += len(game.history)
        if write:
            w = time.process_time()
            write_game(game, memo)
            writing += time.process_time() - w
    WRITING[:] = [writing]
    return phases, time.process_time() - t


def diplomacy_game(seed: int, max_year: int) -> tuple[Any, int]:
    from diplomacy import Game

    rng = random.Random(seed)
    game = Game()
    phases = 0
    while not game.is_game_done and int(game.get_current_phase()[1:5]) <= max_year:
        possible = game.get_all_possible_orders()
        for power in game.powers:
            locs = game.get_orderable_locations(power)
            game.set_orders(power, [rng.choice(possible[loc]) for loc in locs
                                    if possible[loc]])
        game.process()
        phases += 1
    return game, phases


def diplomacy_games(n: int, seed: int, max_year: int, write: bool) -> tuple[int, float]:
    from diplomacy.utils.export import to_saved_game_format

    phases = 0
    t = time.process_time()
    for i in range(n):
        game, k = diplomacy_game(seed + i, max_year)
        phases += k
        if write:
            json.dumps(to_saved_game_format(game))
    return phases, time.process_time() - t


MEMORY = """
import sys, tracemalloc, resource, random
sys.path.insert(0, {bench!r})
import simulate_bench as b
engine, max_year = sys.argv[1], int(sys.argv[2])
def one(seed):
    if engine == "polydip":
        from polydip.fast import FastGame
        from polydip.game.record import PhaseRecord
        from polydip.simulate.players import random_player
        fg = FastGame.new("standard"); rng = random.Random(seed); hist = []
        while not fg.is_over and fg.position.phase.year <= max_year:
            pos = fg.position
            hist.append(PhaseRecord(pos, {{}}, fg.step(random_player(fg, rng))))
        return fg, hist
    return b.diplomacy_game(seed, max_year)
keep = [one(0)]
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
tracemalloc.start()
before = tracemalloc.get_traced_memory()[0]
keep += [one(s) for s in range(1, 11)]
per_game = (tracemalloc.get_traced_memory()[0] - before) / 10 / 1024 / 1024
print(rss, per_game)
"""


def memory(engine: str, max_year: int) -> tuple[float, float]:
    import pathlib

    code = MEMORY.format(bench=str(pathlib.Path(__file__).parent))
    out = subprocess.run([sys.executable, "-c", code, engine, str(max_year)],
                         capture_output=True, text=True, check=True, timeout=1800)
    rss, per_game = out.stdout.split()
    return float(rss), float(per_game)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games per engine (default 20)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game")
    ap.add_argument("--max-year", type=int, default=1930, help="last year played (1930)")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory measurement")
    args = ap.parse_args(argv)
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        print("the diplomacy package is needed: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.table import Table

    out = Console(width=120)
    polydip_games(2, 10_000, 1903, True)  # warm: the map, its order table, imports
    rows = []
    # the play-only runs take other seeds: polydip's caches (convoy geometry per fleet
    # configuration, ...) would otherwise meet the positions of the written run again
    other = args.seed + 1_000_000
    for name, fn in (("polydip, written", lambda: polydip_games(
                         args.games, args.seed, args.max_year, True)),
                     ("polydip, play only", lambda: polydip_games(
                         args.games, other, args.max_year, False)),
                     ("diplomacy 1.1.2, written", lambda: diplomacy_games(
                         args.games, args.seed, args.max_year, True)),
                     ("diplomacy 1.1.2, play only", lambda: diplomacy_games(
                         args.games, other, args.max_year, False))):
        phases, cpu = fn()
        rows.append((name, args.games, phases, cpu))
        if name == "polydip, written":
            writing = WRITING[0]
    dip_phases_per_game = rows[3][2] / args.games
    table = Table(title=f"random standard games to {args.max_year}, {args.games} per engine "
                        "(CPU time, one core)")
    for col in ("engine", "phases/game", "phases/s", "games/s", "games/hour/core", "vs pkg"):
        table.add_column(col, justify="left" if col == "engine" else "right")
    base = {True: rows[2][1] / rows[2][3], False: rows[3][1] / rows[3][3]}
    for name, games, phases, cpu in rows:
        gps = games / cpu
        ratio = gps / base["written" in name]
        table.add_row(name, f"{phases / games:.0f}", f"{phases / cpu:,.0f}", f"{gps:.2f}",
                      f"{gps * 3600:,.0f}", f"{ratio:.1f}x")
    lo, hi = DIPCC_PHASES_PER_S
    table.add_row("dipcc (quoted, not run)", f"{dip_phases_per_game:.0f}",
                  f"{lo:,}-{hi:,}", f"{lo / dip_phases_per_game:.1f}-"
                  f"{hi / dip_phases_per_game:.1f}",
                  f"{lo / dip_phases_per_game * 3600:,.0f}-{hi / dip_phases_per_game * 3600:,.0f}",
                  "")
    out.print(table)
    # what writing costs polydip: the written run's writing, timed apart, over its time
    _, _, phases, cpu = rows[0]
    out.print(f"polydip, writing share: {writing / cpu:.0%} of the written run's CPU time "
              f"({(cpu - writing) / phases * 1e3:.3f} ms a phase played, "
              f"{writing / phases * 1e3:.3f} ms written; bench/simulate_write.py adds gzip)")
    if not args.no_memory:
        for engine in ("polydip", "diplomacy"):
            rss, per_game = memory(engine, args.max_year)
            out.print(f"memory, {engine}: a process that played one game: {rss:.0f} MB; "
                      f"each finished game kept with its history: {per_game:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
