"""`polydip simulate`: play many games and write them as shards of saved games
(docs/simulate.md)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "simulate", help="play many games (a chosen player for every power) into shards",
        description="Play N games of a variant, game i from seed SEED+i, and write them as "
        "DIR/games-XXXXX.jsonl.gz (one game a line, the diplomacy package's saved-game "
        "format) and DIR/manifest.json. The output depends only on the settings, not on "
        "--workers or --ray; a rerun with the same settings skips the finished shards.")
    s.add_argument("--variant", default="standard",
                   help="a built-in variant name or a variant file (default standard)")
    s.add_argument("--games", type=int, required=True, help="how many games")
    s.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    s.add_argument("--out", required=True, metavar="DIR", help="the output directory")
    s.add_argument("--workers", type=int, default=1,
                   help="processes playing games on this machine (default 1)")
    s.add_argument("--ray", metavar="ADDRESS",
                   help="run on a Ray cluster: its address (host:port) or 'auto'")
    s.add_argument("--player", default="random",
                   help="random, hold, coherent, bot, or module:function (default random); "
                   "or seats: POWER=PLAYER,...,PLAYER (e.g. FRANCE=bot,random: France is the "
                   "bot, the other powers random)")
    s.add_argument("--max-year", type=int, metavar="YEAR",
                   help="stop a game after this year (default: its 30th year)")
    s.add_argument("--options", metavar="JSON", default="{}",
                   help='rule options as a JSON object, e.g. \'{"adjacent_convoy": "fallback"}\'')
    s.add_argument("--shard-size", type=int, default=100,
                   help="games per shard, and per Ray task (default 100)")
    s.add_argument("--quiet", action="store_true", help="no progress bar")
    s.set_defaults(func=cmd_simulate)


def cmd_simulate(args: argparse.Namespace) -> int:
    from polydip.simulate.runner import simulate
    from polydip.simulate.shards import Job

    try:
        options = json.loads(args.options)
    except json.JSONDecodeError as exc:
        raise PolydipError(f"--options: not valid JSON ({exc.msg})") from None
    if not isinstance(options, dict):
        raise PolydipError("--options: write a JSON object, e.g. '{\"civil_disorder\": \"1982\"}'")
    if args.workers < 1:
        raise PolydipError(f"--workers must be at least 1 (got {args.workers})")
    job = Job(args.variant, options, args.seed, args.games, args.player, args.max_year,
              args.shard_size)
    started = time.monotonic()
    if args.quiet:
        manifest = simulate(job, args.out, args.workers, args.ray)
    else:
        with _Bar(args.games) as bar:
            manifest = simulate(job, args.out, args.workers, args.ray, bar.advance)
    took = time.monotonic() - started
    c = manifest["counts"]
    ended = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in c.items()
                      if k not in ("games", "phases", "shards"))
    print(f"{c['games']} games ({ended}), {c['phases']} phases in {c['shards']} shards "
          f"in {args.out} ({took:.1f} s)", file=sys.stderr)
    return 0


class _Bar:
    """A rich progress bar showing games/s and phases/s of this run."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.progress = Progress(
            TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rates]}"), TimeElapsedColumn(), TimeRemainingColumn(),
            console=Console(stderr=True))
        self.task = self.progress.add_task("games", total=total, rates="")
        self.start = time.monotonic()
        self.games = self.phases = 0

    def advance(self, games: int, phases: int, resumed: bool = False) -> None:
        if resumed:  # shards a rerun skipped: on the bar, not in the rates
            self.progress.update(self.task, advance=games)
            return
        self.games += games
        self.phases += phases
        dt = max(time.monotonic() - self.start, 1e-9)
        self.progress.update(self.task, advance=games,
                             rates=f"{self.games / dt:,.1f} games/s {self.phases / dt:,.0f} "
                                   "phases/s")

    def __enter__(self) -> _Bar:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.progress.__exit__(*exc)
