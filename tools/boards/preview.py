"""Draw a variant's position on a board file, to look at a board while working on its hints.

    python tools/boards/preview.py wita [--board FILE] [--out wita.png] [--phases N]
        [--crop X0,Y0,X1,Y1 [--zoom 2]] [--names full|short]

Draws the starting position (or, with `--phases N`, the position after N phases of random
orders, seed 1) on `--board` (default: the variant's own board) as a PNG at 1600 px. With
`--crop` (board pixels) only that part is written, enlarged `--zoom` times: dense regions
are judged at full size or larger.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from polydip.game.game import Game
from polydip.play import random_orders
from polydip.render import picture_svg, svg_to_png
from polydip.render import svg as svg_module
from polydip.render.board import read_board


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant")
    ap.add_argument("--board", help="a board file (default: the variant's own)")
    ap.add_argument("--out", help="the PNG (default: VARIANT-preview.png)")
    ap.add_argument("--phases", type=int, default=0)
    ap.add_argument("--crop", help="X0,Y0,X1,Y1 in board pixels")
    ap.add_argument("--zoom", type=float, default=2.0)
    ap.add_argument("--names", choices=["full", "short"])
    ap.add_argument("--regions", action="store_true",
                    help="fill every province with a colour of its own (to see its extent)")
    args = ap.parse_args(argv)
    if args.board:
        board = read_board(Path(args.board))
        svg_module.load_board = lambda v, path=None: board  # draw this board, not the shipped one
    if args.regions:
        original = svg_module._fills

        def fills(m, pos, colors, land, blocked):
            rng = random.Random(7)
            out, owners = original(m, pos, colors, land, blocked)
            return [f"#{rng.randrange(0x60, 0xf0):02x}{rng.randrange(0x60, 0xf0):02x}"
                    f"{rng.randrange(0x60, 0xf0):02x}" for _ in out], owners

        svg_module._fills = fills
    g = Game.new(args.variant, name="preview")
    rng = random.Random(1)
    for _ in range(args.phases):
        if g.is_over:
            break
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    phase = g.history[-1].position.phase.name if args.phases and g.history else None
    svg = picture_svg(g, phase, args.names)
    out = Path(args.out or f"{g.map.variant.name}-preview.png")
    if not args.crop:
        out.write_bytes(svg_to_png(svg))
        print(f"wrote {out}")
        return 0
    import re

    x0, y0, x1, y1 = (float(c) for c in args.crop.split(","))
    top = svg_module.TITLE_H
    w, h = x1 - x0, y1 - y0
    # the same picture with its view box on the crop, drawn `zoom` times larger
    svg = re.sub(r'width="[^"]*" height="[^"]*" viewBox="[^"]*"',
                 f'width="{w * args.zoom:.0f}" height="{h * args.zoom:.0f}" '
                 f'viewBox="{x0} {y0 + top} {w} {h}"', svg, count=1)
    out.write_bytes(svg_to_png(svg, round(w * args.zoom)))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
