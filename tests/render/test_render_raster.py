"""PNG drawn quickly (render/raster.py, issue 28.10): the same picture CairoSVG draws by
itself, in a fraction of the time."""

from __future__ import annotations

import io

import cairocffi
import cairosvg
import pytest

from polydip.game.game import Game
from polydip.render import picture_svg, svg_to_png
from polydip.render.raster import _pack, svg_png


def _pixels(png: bytes) -> tuple[int, int, bytes]:
    s = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    s.flush()
    return s.get_width(), s.get_height(), bytes(s.get_data())


def _same_to_the_eye(a: bytes, b: bytes) -> None:
    wa, ha, pa = _pixels(a)
    wb, hb, pb = _pixels(b)
    assert (wa, ha) == (wb, hb)
    diff = [abs(x - y) for x, y in zip(pa, pb, strict=True)]
    assert sum(diff) / len(diff) < 0.05
    assert sum(1 for d in diff if d > 40) <= len(diff) // 10000


@pytest.mark.parametrize("variant", ["standard", "twentieth_century"])
def test_the_png_is_the_one_cairosvg_draws(variant: str) -> None:
    svg = picture_svg(Game.new(variant))
    _same_to_the_eye(svg_to_png(svg, 800),
                     cairosvg.svg2png(bytestring=svg.encode(), output_width=800))


# what the quick handlers leave to CairoSVG: curves, arcs, relative moves, a line after Z,
# text with per-letter shifts and spans; a transparent picture (written by cairo)
_OTHER = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120">
<path d="M10 10 Q 60 80 110 10" fill="none" stroke="#d00" stroke-width="3"/>
<path d="M20 100 a 20 10 0 1 0 40 0" fill="#0a0"/>
<path d="m120 20 l 30 0 l 0 30 z" fill="#00c" stroke="#000"/>
<path d="M150 80 170 80 170 100Z L 190 110" fill="#fc0" stroke="#000"/>
<text x="10" y="60" dx="3 4 5" font-size="14" fill="#000">Shift</text>
<text x="100" y="70" font-size="12" text-anchor="middle" fill="#333">A<tspan fill="#c00">B
</tspan></text>
<text x="10 20 30" y="110" font-size="12">xyz</text>
<line x1="5" y1="115" x2="195" y2="115" stroke="#06c" stroke-width="3" stroke-dasharray="6 3"
 stroke-linecap="round" opacity="0.5"/>
<circle cx="180" cy="30" r="12" fill="#0c6" fill-opacity="0.4" stroke="#000"
 stroke-linejoin="bevel"/>
<rect x="60" y="70" width="30" height="20" fill="#999" transform="rotate(10)"/>
</svg>"""


def test_what_the_quick_path_does_not_read_is_drawn_by_cairosvg() -> None:
    for d in ("M10 10 Q 60 80 110 10", "M20 100 a 20 10 0 1 0 40 0", "m120 20 l 30 0 z",
              "M150 80 170 80 170 100Z L 190 110", "M1e3 2 3 4", "M1-2 3 4"):
        assert _pack(d) is None
    assert _pack("M1 2 3 4Z M5 6 L 7 8") is not None
    _same_to_the_eye(svg_png(_OTHER.encode(), 400),
                     cairosvg.svg2png(bytestring=_OTHER.encode(), output_width=400))
