"""`polydip demo`: a short random game and its final map."""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from polydip.cli.common import (
    phase_title,
    print_outcome,
)
from polydip.errors import PolydipError


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("demo", help="play a short random game and print every phase")
    d.add_argument("--variant", default="standard")
    d.add_argument("--years", type=int, default=2, help="years to play (default 2)")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--save", metavar="GAMEFILE", help="also save the game")
    d.add_argument("--map", metavar="FILE", help="where to draw the final map (.png or .svg; "
                   "default: polydip-demo.png in the system's temporary folder)")
    d.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    import tempfile

    from polydip.game.game import Game
    from polydip.play import random_orders

    g = Game.new(args.variant, name="demo")
    rng = random.Random(args.seed)
    end_year = g.position.phase.year + args.years
    print(f"A random game of {g.variant.title} (seed {args.seed}), {args.years} year(s).\n")
    while not g.is_over and g.position.phase.year < end_year:
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
        print_outcome(g)
        print()
    if args.save:
        g.save(args.save)
        print(f"Saved the game to {args.save}.")
    from polydip.render import render_file

    target = args.map or str(Path(tempfile.gettempdir()) / "polydip-demo.png")
    try:
        render_file(g, target)
    except PolydipError as exc:
        if args.map or not target.endswith(".png"):
            raise
        target = target[:-4] + ".svg"  # no PNG support here: SVG needs nothing
        print(f"({exc}; drawing SVG instead)")
        render_file(g, target)
    print(f"The final map ({phase_title(g)}) is in {target}")
    return 0
