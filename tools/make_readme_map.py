"""Regenerate the README's map picture: docs/images/standard-f1901m.png.

    python3 tools/make_readme_map.py [OUTPUT]

Plays a scripted 1901 of the standard game, typed as a game master receives orders (one
pasted message per phase), and draws Fall 1901 with its results: moves, supports, a convoy,
bounces, a dislodged unit and the held units. Needs CairoSVG for the PNG (it is a polydip
dependency); with an .svg OUTPUT it needs nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

from polydip.game.game import Game
from polydip.orders.message import apply_message, read_message
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


def main(argv: list[str]) -> int:
    out = Path(argv[0]) if argv else Path(__file__).resolve().parent.parent / "docs" / \
        "images" / "standard-f1901m.png"
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
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
