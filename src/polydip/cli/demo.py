"""`polydip demo`: a short random game, its reports, and a picture of its final map."""

from __future__ import annotations

import argparse
import random

from polydip.cli.common import (
    add_search_path_option,
    check_picture_path,
    phase_title,
    print_outcome,
)
from polydip.errors import PolydipError

DEFAULT_PICTURE = "polydip-demo.png"


def register(sub: argparse._SubParsersAction) -> None:
    d = sub.add_parser("demo", help="play a short random game and draw its final map",
                       description="Play a short game with random orders, print the report "
                       "of every phase and draw the final map.")
    d.add_argument("--variant", default="standard",
                   help="a built-in variant name or a variant file (default standard)")
    d.add_argument("--years", type=int, default=2, help="years to play (default 2)")
    d.add_argument("--seed", type=int, default=1,
                   help="random seed: the same seed plays the same game (default 1)")
    d.add_argument("--save", metavar="GAMEFILE", help="also save the game to GAMEFILE")
    d.add_argument("--map", metavar="FILE", help="where to draw the final map (.png or .svg; "
                   f"default {DEFAULT_PICTURE} in the current folder)")
    add_search_path_option(d)
    d.set_defaults(func=cmd_demo)


def cmd_demo(args: argparse.Namespace) -> int:
    from polydip.game.game import Game
    from polydip.play import random_orders
    from polydip.render import render_file

    if args.years < 1:
        raise PolydipError("--years: at least 1")
    target = args.map or DEFAULT_PICTURE
    try:
        check_picture_path(target)
    except PolydipError as exc:
        if args.map or not target.endswith(".png"):
            raise
        target = target[:-4] + ".svg"  # no PNG support here: SVG needs nothing
        print(f"({exc}; drawing SVG instead)")
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
    render_file(g, target)
    print(f"The final map ({phase_title(g)}) is in {target}")
    return 0
