"""What writing costs a simulation: `polydip simulate`'s play against its writing (the saved
game's JSON line, and the line gzip-compressed into a shard), per phase (bench/README.md,
"Writing simulated games").

    python bench/simulate_write.py                       # CPU time, 10 standard games to 1910
    python bench/simulate_write.py --variants standard wita --games 20 --max-year 1920
    python bench/simulate_write.py --callgrind           # instruction counts (valgrind)

CPU time (the default): the games are played as the runner plays them
(`polydip.simulate.games.play`), then each is written as `play_game` writes it (the line)
and compressed as a shard's piece compresses it (the gzip member), each step timed apart by
`time.process_time` (best of --repeat for the writing steps). The writing share is
write / (play + write), without and with the compression.

--callgrind: four child processes under `valgrind --tool=callgrind` (PYTHONHASHSEED=0), each
importing polydip and playing and writing one warm-up game, then: nothing more (setup),
playing the games (play), playing and writing them (line: `play_game` with the process's
memo, as a piece does), playing, writing and compressing them (shard: `play_piece`, the
runner's own task). The writer's memo is the one a worker keeps across its pieces, warmed by
the warm-up game, in both kinds of run. A mode's instructions minus the one before's,
divided by the phases, are its instructions a phase: stable on a loaded machine, where CPU
times are not. Needs valgrind; one run takes a few minutes (valgrind runs Python ~50x
slower).
"""

from __future__ import annotations

import argparse
import gzip
import io
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from callgrind import CountError, callgrind, need_valgrind

WARM_SEED = 10_000


def _job(variant: str, games: int, seed: int, max_year: int):  # -> Job
    from polydip.simulate.runner import check_job
    from polydip.simulate.shards import Job

    return check_job(Job(variant, {}, seed, games, "random", max_year, games))


def cpu(variant: str, games: int, seed: int, max_year: int, repeat: int) -> dict[str, float]:
    """Seconds a phase: play, line, gzip (and the phases)."""
    from polydip.compile import compile_map
    from polydip.game.dipjson import WriteMemo
    from polydip.simulate import games as g
    from polydip.simulate.players import load_player
    from polydip.simulate.shards import COMPRESS_LEVEL
    from polydip.variants.loader import load_variant

    job = _job(variant, games, seed, max_year)
    v = load_variant(variant)
    player = load_player(job.player)
    memo = WriteMemo(compile_map(v))  # kept across the runs, as a worker keeps it
    g.play_game(v, job.options, WARM_SEED, player, max_year, memo)  # map, tables, imports
    t = time.process_time()
    played = [g.play(v, job.options, seed + i, player, max_year) for i in range(games)]
    t_play = time.process_time() - t
    phases = sum(len(x.history) for x in played)
    t_line = t_gzip = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        lines = [g.write_game(x, memo) for x in played]
        t_line = min(t_line, time.process_time() - t)
        t = time.process_time()
        buf = io.BytesIO()
        with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0,
                           compresslevel=COMPRESS_LEVEL) as gz:
            for line in lines:
                gz.write(line + b"\n")
        t_gzip = min(t_gzip, time.process_time() - t)
    return {"phases": phases, "play": t_play / phases, "line": t_line / phases,
            "gzip": t_gzip / phases, "bytes": sum(map(len, lines)) / phases,
            "gz_bytes": len(buf.getvalue()) / phases}


def child(mode: str, variant: str, games: int, seed: int, max_year: int) -> None:
    """One callgrind child: setup, then the mode's work; prints the phases played."""
    from polydip.compile import compile_map
    from polydip.simulate import games as g
    from polydip.simulate.players import load_player
    from polydip.simulate.shards import play_piece

    try:
        from polydip.simulate.shards import write_memo
    except ImportError:  # an older polydip (before 0d21cdc): one memo, warmed alike
        from polydip.game.dipjson import WriteMemo

        memos: dict[int, Any] = {}

        def write_memo(m: Any) -> Any:
            return memos.setdefault(id(m), WriteMemo(m))
    from polydip.variants.loader import load_variant

    job = _job(variant, games, seed, max_year)
    v = load_variant(variant)
    player = load_player(job.player)
    memo = write_memo(compile_map(v))  # the memo a worker keeps across its pieces
    g.play_game(v, job.options, WARM_SEED, player, max_year, memo)
    phases = 0
    if mode == "play":
        phases = sum(len(g.play(v, job.options, seed + i, player, max_year).history)
                     for i in range(games))
    elif mode == "line":
        phases = sum(g.play_game(v, job.options, seed + i, player, max_year, memo).phases
                     for i in range(games))
    elif mode == "shard":
        from polydip.simulate.shards import pieces

        phases = sum(play_piece(job, 0, part).phases for part in range(len(pieces(job, 0))))
    print(phases)


def instructions(variant: str, games: int, seed: int, max_year: int) -> dict[str, float]:
    """Instructions a phase: play, line (writing), gzip; from four valgrind runs."""
    counts: dict[str, int] = {}
    phases = 0
    for mode in ("setup", "play", "line", "shard"):
        counts[mode], out = callgrind(
            [__file__, "--child", mode, "--variants", variant, "--games", str(games),
             "--seed", str(seed), "--max-year", str(max_year)], f"the {mode} child")
        if mode == "play":
            phases = int(out.split()[-1])
    play = (counts["play"] - counts["setup"]) / phases
    line = (counts["line"] - counts["play"]) / phases
    gz = (counts["shard"] - counts["line"]) / phases
    return {"phases": phases, "play": play, "line": line, "gzip": gz}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", default=["standard"])
    ap.add_argument("--games", type=int, default=None,
                    help="games per variant (default 10; 4 with --callgrind)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game")
    ap.add_argument("--max-year", type=int, default=None,
                    help="last year played (default: the variant's first year + 9)")
    ap.add_argument("--repeat", type=int, default=3, help="writing runs, the best counted")
    ap.add_argument("--callgrind", action="store_true", help="count instructions instead")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    games = args.games or (4 if args.callgrind or args.child else 10)
    if args.child:
        child(args.child, args.variants[0], games, args.seed, args.max_year)
        return 0
    try:
        if args.callgrind:
            need_valgrind("bench/simulate_write.py --callgrind")
        report(args, games)
    except CountError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def report(args: argparse.Namespace, games: int) -> None:
    """Each variant's play, writing and gzip figures a phase, printed."""
    from polydip.game.game import Game
    from polydip.variants.loader import load_variant

    print("build:", _build())
    for variant in args.variants:
        start = Game.new(load_variant(variant)).position.phase.year
        max_year = args.max_year or start + 9
        where = f"{variant}, {games} games to {max_year}"
        if args.callgrind:
            r = instructions(variant, games, args.seed, max_year)
            unit, scale = "instructions", 1.0
        else:
            r = cpu(variant, games, args.seed, max_year, args.repeat)
            unit, scale = "us", 1e6
        play, line, gz = r["play"] * scale, r["line"] * scale, r["gzip"] * scale
        print(f"{where}: {r['phases']:.0f} phases; a phase: play {play:,.0f} {unit}, "
              f"write {line:,.0f}, gzip {gz:,.0f}"
              + (f"; {r['bytes']:,.0f} bytes, {r['gz_bytes']:,.0f} gzipped" if "bytes" in r
                 else ""))
        print(f"  writing share: {line / (play + line):.1%} of play + write; "
              f"with gzip {(line + gz) / (play + line + gz):.1%}")


def _build() -> str:
    """Which polydip runs: compiled (mypyc) or pure."""
    import polydip.state

    where = os.path.dirname(polydip.state.__file__)
    return ("compiled" if not polydip.state.__file__.endswith(".py") else "pure") + \
        f" ({where})"


if __name__ == "__main__":
    sys.exit(main())
