"""The `bot` player against random players: one power is the bot, the others random, the
bot's power rotating over the variant's powers (issue 31; docs/simulate.md, "The bot").

    python bench/bots.py                                  # every built-in variant, 14 games
    python bench/bots.py --variants standard wita --games 21 --opponents coherent

Each game is what `polydip simulate --player POWER=bot,random --seed S` plays (the same
player function, seat list and seed; game i from seed SEED+i, its bot power the i-th of the
variant's non-neutral powers, cyclically), to its end or the end of its 30th year. Per
variant it prints: the bot's mean share of all supply centers at the end (centers counted by
their value), the share of the best other power, how often the bot won the game by the
variant's victory condition and how often it ended with the most centers, and the time the
bot took per phase it ordered against the random player's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from polydip.fast import FastGame
from polydip.game.game import Game
from polydip.simulate.players import load_player
from polydip.simulate.runner import DEFAULT_YEARS

VARIANTS = ["standard", "twentieth_century", "lad1890", "war_in_north_america", "wita"]


def one_game(variant: str, seed: int, bot: str, opponents: str,
             max_year: int | None) -> dict:
    """Play one game, the seed's power as the bot; what the table counts of it."""
    game = Game.new(variant)
    fg = FastGame.from_game(game)
    m = fg.m
    powers = [p for p, neutral in enumerate(m.power_neutral) if not neutral]
    me = powers[seed % len(powers)]
    spec = f"{m.powers[me]}={bot},{opponents}"
    player = load_player(spec)
    lone = load_player(opponents)
    last = max_year if max_year is not None else fg.position.phase.year + DEFAULT_YEARS - 1
    rng = random.Random(seed)
    spent = phases = 0.0
    base = 0.0
    while not fg.is_over and fg.position.phase.year <= last:
        fg.legal()  # the legal orders, computed once a phase whoever plays, not timed
        t0 = time.process_time()
        codes = player(fg, rng)
        t1 = time.process_time()
        lone(fg, random.Random(seed))  # the opponents alone, for the time comparison
        t2 = time.process_time()
        spent += t1 - t0
        base += t2 - t1
        phases += 1
        fg.step(codes)
    total = sum(m.sc_value[pv] or 1 for pv in m.sc_list)
    held = [0] * len(m.powers)
    for pv in m.sc_list:
        if fg.position.owners[pv] >= 0:
            held[fg.position.owners[pv]] += m.sc_value[pv] or 1
    best_other = max(h for p, h in enumerate(held) if p != me)
    return {"power": m.powers[me], "share": held[me] / total, "other": best_other / total,
            "won": fg.status == "won" and me in fg.winners, "most": held[me] > best_other,
            "phases": phases, "bot_ms": 1000 * (spent - base) / max(phases, 1),
            "base_ms": 1000 * base / max(phases, 1), "end": fg.phase, "spec": spec}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", nargs="+", default=VARIANTS)
    ap.add_argument("--games", type=int, default=14, help="games per variant (default 14)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--bot", default="bot", help="the player tried (default bot)")
    ap.add_argument("--opponents", default="random", help="the other powers' player")
    ap.add_argument("--max-year", type=int, help="stop after this year (default: 30th year)")
    ap.add_argument("--verbose", action="store_true", help="one line per game")
    args = ap.parse_args(argv)
    print("| variant | games | bot's centers share (mean, min) | best other's share | "
          "bot won | bot most centers | phases/game | ms/phase: bot (random) |")
    print("|---|---|---|---|---|---|---|---|")
    for v in args.variants:
        rows = []
        for i in range(args.games):
            r = one_game(v, args.seed + i, args.bot, args.opponents, args.max_year)
            rows.append(r)
            if args.verbose:
                print(f"  {v} seed {args.seed + i} {r['spec']}: {r['share']:.0%} "
                      f"(best other {r['other']:.0%}), {'won' if r['won'] else 'not won'} "
                      f"at {r['end']}", file=sys.stderr)
        n = len(rows)
        share = statistics.mean(r["share"] for r in rows)
        print(f"| {v} | {n} | {share:.0%}, {min(r['share'] for r in rows):.0%} | "
              f"{statistics.mean(r['other'] for r in rows):.0%} | "
              f"{sum(r['won'] for r in rows)}/{n} | {sum(r['most'] for r in rows)}/{n} | "
              f"{statistics.mean(r['phases'] for r in rows):.0f} | "
              f"{statistics.mean(r['bot_ms'] for r in rows):.2f} "
              f"({statistics.mean(r['base_ms'] for r in rows):.2f}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
