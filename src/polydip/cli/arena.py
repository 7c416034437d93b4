"""`polydip arena`: a game played by agents that read the board in words and answer with
orders and messages, each a program speaking JSON Lines (docs/arena.md)."""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    s = sub.add_parser(
        "arena", help="a game played by agents (programs speaking JSON Lines)",
        description="Play a game of VARIANT with an agent per power: a program given each "
        "phase's observation (the board in words, the legal orders, the messages it may "
        "read, the feedback on its last orders) as one JSON line on its standard input, "
        "answering with one JSON line of orders and messages (docs/arena.md). Powers with "
        "no agent play by --default.")
    s.add_argument("--variant", default="standard", help="a built-in variant or a file")
    s.add_argument("--agent", action="append", default=[], metavar="POWER=COMMAND",
                   help="the program playing POWER, e.g. 'France=python my_agent.py' "
                   "(repeatable)")
    s.add_argument("--default", choices=["hold", "random"], default="hold",
                   help="the scripted agent of powers without --agent (default hold)")
    s.add_argument("--rounds", type=int, default=2,
                   help="answers per agent and phase; messages of one are read in the next "
                   "(default 2)")
    s.add_argument("--max-year", type=int, metavar="YEAR",
                   help="stop after this year (default: the game's tenth)")
    s.add_argument("--no-press", action="store_true", help="agents may not write messages")
    s.add_argument("--timeout", type=float, default=60.0, metavar="SECONDS",
                   help="how long an agent may take to answer (default 60)")
    s.add_argument("--seed", type=int, default=0, help="seed of the random agents")
    s.add_argument("-o", "--output", metavar="GAMEFILE",
                   help="save the game (with its messages) to this file")
    s.set_defaults(func=cmd_arena)


def cmd_arena(args: argparse.Namespace) -> int:
    from polydip.arena import Arena, HoldAgent, RandomAgent
    from polydip.arena.jsonl import ProcessAgent

    if args.timeout <= 0:
        raise PolydipError("--timeout must be positive")
    programs: dict[str, ProcessAgent] = {}
    for spec in args.agent:
        power, sep, command = spec.partition("=")
        if not sep or not power.strip() or not command.strip():
            raise PolydipError(f"--agent {spec!r}: write POWER=COMMAND, e.g. "
                               "'France=python my_agent.py'")
        programs[power.strip()] = ProcessAgent(shlex.split(command), args.timeout,
                                               name=power.strip())
    default: Any = RandomAgent(args.seed) if args.default == "random" else HoldAgent()
    arena = Arena(args.variant, dict(programs), default, rounds=args.rounds,
                  max_year=args.max_year, press=not args.no_press)
    try:
        result = arena.run(lambda phase: print(f"{phase}...", file=sys.stderr))
    finally:
        g = arena.game
        end = {"status": g.status if g.is_over else "year_limit",
               "centers": {g.map.powers[p]: len(g.position.centers_of(p))
                           for p in range(len(g.map.powers))}}
        for agent in programs.values():
            agent.close(end)
    g = result.game
    print(f"{g.variant.title}: {result.phases} phases, {result.status}, now {g.phase}; "
          f"{len(g.messages)} messages")
    for p, name in enumerate(g.map.powers):
        n = len(g.position.centers_of(p))
        if n:
            print(f"  {name}: {n} centers")
    for f in result.failures:
        print(f"  {f['phase']} {f['power']}: agent failed: {f['error']}", file=sys.stderr)
    if args.output:
        g.save(args.output)
        print(f"Saved to {args.output}")
    return 0
