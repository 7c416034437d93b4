"""`polydip replay`: replay saved games in the `diplomacy` package and say which reach the
same positions, and why the others do not (docs/simulate.md)."""

from __future__ import annotations

import argparse
import sys

from polydip.cli.common import EXIT_DIFFERS


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "replay", help="replay saved games in the diplomacy package, report differences",
        description="Replay saved games (the diplomacy package's format: a `polydip simulate` "
        "directory, its shards, JSON Lines or one game's JSON) phase by phase in the "
        "diplomacy package and report each game that reaches another position, with the "
        "phase and, where known, the package's bug that explains it. Exit status 5 when a "
        "difference is not explained. Needs the package: pip install 'polydip[bench]'.")
    s.add_argument("paths", nargs="+", metavar="PATH", help="directories or files of games")
    s.add_argument("--limit", type=int, metavar="N", help="replay at most N games")
    s.add_argument("--all", action="store_true", help="also list the games that replay")
    s.set_defaults(func=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from polydip.simulate.reading import read_games
    from polydip.simulate.replay import replay

    same = known = unexplained = 0
    for n, saved in enumerate(read_games(args.paths)):
        if args.limit is not None and n >= args.limit:
            break
        r = replay(saved)  # (a map the package lacks: an error that ends the run)
        if r.same:
            same += 1
        elif r.cause:
            known += 1
        else:
            unexplained += 1
        if args.all or not r.same:
            print(r.describe())
    total = same + known + unexplained
    print(f"{total} games: {same} replay to the same positions, {known} differ by a known "
          f"bug of the package, {unexplained} not explained", file=sys.stderr)
    return EXIT_DIFFERS if unexplained else 0
