"""Figures of the built-in boards' pictures (issue 29): for each variant, the start and the
position after three years of a seeded game of random orders, drawn as `polydip render`
draws them and measured by polydip.render.audit.

    PYTHONPATH=src python tools/picture_figures.py [--seed N] [-v]
"""

from __future__ import annotations

import argparse
import random

from polydip.game.game import Game
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.render.audit import audit_svg

VARIANTS = ["standard", "wita", "lad1890", "twentieth_century", "war_in_north_america"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-v", action="store_true", help="name what is covered, overlapping...")
    args = ap.parse_args()
    for name in VARIANTS:
        g = Game.new(name)
        pictures = [("start", picture_svg(g))]
        rng = random.Random(args.seed)
        y0 = g.position.phase.year
        while g.position.phase.year < y0 + 3:
            for p, orders in random_orders(g.map, g.position, rng).items():
                g.set_orders(p, orders)
            g.process()
        phase = g.history[-1].position.phase.name
        pictures.append((phase, picture_svg(g, phase)))
        for label, svg in pictures:
            a = audit_svg(svg)
            print(f"{name} {label}: {a.line()}")
            if args.v:
                print(f"  covered {a.units_covered}; markers on units {a.markers_on_units}; "
                      f"outside {a.markers_outside}; overlaps {a.label_overlaps}; "
                      f"clipped {a.clipped}; seam {a.seam_long}")


if __name__ == "__main__":
    main()
