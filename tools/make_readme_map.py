"""Regenerate the README's map pictures, drawn on the variants' boards:

    python3 tools/make_readme_map.py [OUTDIR]

- docs/images/standard-f1901m.png: a scripted 1901 of the standard game, typed as a game
  master receives orders (one pasted message per phase), and Fall 1901 drawn with its
  results: moves, supports, a convoy, bounces, a dislodged unit and the held units;
- docs/images/wita-f1845m.png: War in the Americas, two seasons of random orders (seed 3)
  from the rules text's start, Fall 1845 drawn with its results;
- docs/images/war_in_north_america-f1860m.png: War in North America, the same way (seed 3),
  Fall 1860;
- docs/images/lad1890-c1891m.png: Latin American Diplomacy 1890, the same way (seed 3), the
  C phase of 1891;
- docs/images/twentieth_century-f1935m.png: The Twentieth Century, the same way (seed 3),
  Fall 1935, on the world board that wraps.

Needs CairoSVG for the PNG (a polydip dependency).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from polydip.game.game import Game
from polydip.game.message import apply_message, read_message
from polydip.play import random_orders
from polydip.render import render_file
from polydip.report import build_report, format_report

SPRING = """
England: F London - North Sea; F Edinburgh - Norwegian Sea; A Liverpool - Yorkshire
France: F Brest - Mid-Atlantic; A Paris - Picardy; A Marseilles - Burgundy
Germany: F Kiel - Holland; A Berlin - Kiel; A Munich - Ruhr
Italy: F Naples - Ionian; A Rome - Apulia; A Venice holds
Austria: F Trieste holds; A Vienna - Tyrolia; A Budapest - Serbia
Russia: F StP/sc - Bothnia; A Warsaw - Galicia; A Moscow - Ukraine; F Sevastopol - Black Sea
Turkey: F Ankara - Black Sea; A Constantinople - Bulgaria; A Smyrna - Constantinople
"""

FALL = """
England: F NTH C A YOR - NWY; A YOR - NWY via convoy; F NWG - BAR
France: A PIC - BEL; A BUR S A PIC - BEL; F MAO - POR
Germany: F HOL - BEL; A KIE - DEN; A RUH S F HOL - BEL
Italy: A VEN H; A APU - ROM; F ION - TUN
Austria: A TYR - VEN; F TRI S A TYR - VEN; A SER - GRE
Russia: F BOT - SWE; A GAL - RUM; A UKR S A GAL - RUM; F SEV H
Turkey: A BUL - RUM; F ANK - BLA; A CON - BUL
"""


def standard(out: Path) -> None:
    g = Game.new("standard", name="polydip")
    for text in (SPRING, FALL):
        msg = read_message(g.map, g.position, text)
        problems = msg.problems + apply_message(g, msg)
        if problems:
            raise SystemExit("\n".join(str(p) for p in problems))
        g.process()
    rec = g.history[-1]
    print(format_report(build_report(g, rec), "text"))
    render_file(g, out, phase=rec.position.phase.name)
    print(f"wrote {out}")


def random_play(variant: str, phase: str, seed: int, out: Path) -> None:
    """Random orders (seeded) from the variant's start until `phase` is processed; `phase`
    drawn with its results."""
    g = Game.new(variant, name="polydip")
    rng = random.Random(seed)
    while not any(r.position.phase.name == phase for r in g.history):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    rec = next(r for r in g.history if r.position.phase.name == phase)
    render_file(g, out, phase=phase)
    print(f"wrote {out} ({len(rec.outcome.results)} orders)")


def main(argv: list[str]) -> int:
    outdir = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / \
        "images"
    standard(outdir / "standard-f1901m.png")
    random_play("wita", "F1845M", 3, outdir / "wita-f1845m.png")
    random_play("war_in_north_america", "F1860M", 3, outdir / "war_in_north_america-f1860m.png")
    random_play("lad1890", "C1891M", 3, outdir / "lad1890-c1891m.png")
    random_play("twentieth_century", "F1935M", 3, outdir / "twentieth_century-f1935m.png")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
