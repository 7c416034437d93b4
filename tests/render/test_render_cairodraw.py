"""PNG drawn by libcairo directly (render/cairodraw.py, issue 28.10): the picture CairoSVG
draws of the same SVG, without CairoSVG; anything that module does not read is CairoSVG's."""

from __future__ import annotations

import io
import random
import zlib
from pathlib import Path

import cairocffi
import cairosvg
import pytest

from polydip.game.game import Game
from polydip.play import random_orders
from polydip.render import cairodraw, picture_svg, raster, svg_to_png


def _pixels(png: bytes) -> tuple[int, int, bytes]:
    s = cairocffi.ImageSurface.create_from_png(io.BytesIO(png))
    s.flush()
    return s.get_width(), s.get_height(), bytes(s.get_data())


def _same_to_the_eye(a: bytes, b: bytes, mean: float = 0.05, far: int = 10000) -> None:
    """As tests/render/test_render_raster.py: CairoSVG's letter-by-letter names differ by
    a shade here and there from the names laid out as one run (at a scale other than 1,
    glyphs land a fraction of a pixel apart: a mean of 0.1 of 255 and 0.09% of the bytes
    off by more than 40 on a scaled-down standard map)."""
    wa, ha, pa = _pixels(a)
    wb, hb, pb = _pixels(b)
    assert (wa, ha) == (wb, hb)
    diff = [abs(x - y) for x, y in zip(pa, pb, strict=True)]
    assert sum(diff) / len(diff) < mean
    assert sum(1 for d in diff if d > 40) <= len(diff) // far


def _differing(a: bytes, b: bytes) -> tuple[int, int]:
    """How many bytes of the two pictures' pixels differ at all, and by more than 8."""
    wa, ha, pa = _pixels(a)
    wb, hb, pb = _pixels(b)
    assert (wa, ha) == (wb, hb)
    diff = [abs(x - y) for x, y in zip(pa, pb, strict=True) if x != y]
    return len(diff), sum(1 for d in diff if d > 8)


def _played(variant: str, phases: int) -> Game:
    g = Game.new(variant)
    rng = random.Random(3)
    for _ in range(phases):
        for power, orders in random_orders(g.map, g.position, rng).items():
            g.set_orders(power, orders)
        g.process()
    return g


@pytest.mark.parametrize(("variant", "phases"), [("standard", 4), ("lad1890", 3)])
def test_the_png_is_the_one_cairosvg_draws_of_the_same_svg(
        variant: str, phases: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # LAD: terrain and power patterns (tiles, turned), territories, a legend of terrains
    svg = picture_svg(_played(variant, phases))
    # (every element drawn in turn: the borders laid over as one layer are the next test's)
    layers = cairodraw.STATIC_LAYERS
    monkeypatch.setattr(cairodraw, "STATIC_LAYERS", frozenset())
    ours = cairodraw.svg_png(svg.encode(), 700)
    assert ours is not None  # (drawn by cairodraw, not handed to CairoSVG)
    # the pixels CairoSVG draws with render.raster's quick handlers (themselves CairoSVG's
    # picture to the eye), but for a shade in a few pixels of a scaled pattern tile
    anything, much = _differing(ours, raster.svg_png(svg.encode(), 700))
    assert much == 0 and anything < 1000
    _same_to_the_eye(ours, cairosvg.svg2png(bytestring=svg.encode(), output_width=700),
                     0.2, 800)
    assert svg_to_png(svg, 700) == ours
    monkeypatch.setattr(cairodraw, "STATIC_LAYERS", layers)
    _anything, much = _differing(svg_to_png(svg, 700), ours)
    assert much == 0


_SHAPES = """<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"
 viewBox="0 0 200 120" font-family="DejaVu Sans, sans-serif">
<defs><pattern id="p" width="6" height="6" patternUnits="userSpaceOnUse"
 patternTransform="rotate(30)"><rect width="6" height="6" fill="#ccc"/>
<path d="M 0 3 Q 1.5 0 3 3 T 6 3" fill="none" stroke="#036" stroke-width="0.8"/></pattern>
</defs>
<g fill="#d00" stroke="#000" stroke-width="2" stroke-linejoin="round">
<path d="m10 10 l 30 0 l 0 30 z M50 10 H 80 V 40 h -10 v -5 C 60 40 55 30 50 30 S 45 20 50 10Z"/>
<polygon points="90,10 120,10 105,35" fill="url(#p)"/>
</g>
<rect x="130" y="8" width="60" height="34" rx="6" fill="url(#p)" stroke="#333"/>
<circle cx="30" cy="80" r="14" fill="#0c6" fill-opacity="0.5" stroke="#000"
 stroke-dasharray="4 2"/>
<line x1="60" y1="70" x2="190" y2="70" stroke="#06c" stroke-width="3" stroke-linecap="round"/>
<text x="120" y="100" font-size="14" font-weight="bold" text-anchor="middle" fill="#fff"
 stroke="#fff" stroke-width="3" stroke-linejoin="round">Two  words
</text>
<g><title>a tooltip</title><text x="120" y="100" font-size="14" font-weight="bold"
 text-anchor="middle" fill="#222">Two  words</text></g>
<text x="195" y="116" font-size="9" font-style="italic" text-anchor="end">end</text>
</svg>"""


def test_every_shape_polydip_writes_is_drawn_as_cairosvg_draws_it() -> None:
    ours = cairodraw.svg_png(_SHAPES.encode(), 400)
    assert ours is not None
    _same_to_the_eye(ours, cairosvg.svg2png(bytestring=_SHAPES.encode(), output_width=400))


@pytest.mark.parametrize("svg", [
    '<path d="M20 100 a 20 10 0 1 0 40 0" fill="#0a0"/>',  # an arc
    '<rect x="1" y="2" width="30" height="20" fill="#999" transform="rotate(10)"/>',
    '<text x="10 20 30" y="110" font-size="12">xyz</text>',
    '<text x="10" y="60" font-size="12">A<tspan fill="#c00">B</tspan></text>',
    '<text x="10" y="60" font-size="12"><title>tip</title>AB</text>',
    '<ellipse cx="50" cy="50" rx="20" ry="10"/>',
    '<circle cx="50" cy="50" r="2em"/>',
    '<circle cx="50" cy="50" r="20" fill="rgb(1, 2, 3)"/>',
    '<g opacity="0.5"><circle cx="50" cy="50" r="20"/></g>',
])
def test_what_cairodraw_does_not_read_is_drawn_by_cairosvg(svg: str) -> None:
    whole = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120">'
             f'<rect width="200" height="120" fill="#fff"/>{svg}</svg>')
    assert cairodraw.svg_png(whole.encode(), 200) is None
    _same_to_the_eye(svg_to_png(whole, 200),
                     cairosvg.svg2png(bytestring=whole.encode(), output_width=200))


def test_without_libcairo_found_cairosvg_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cairodraw, "_LIB", False)
    svg = picture_svg(Game.new("standard"))
    assert cairodraw.svg_png(svg.encode(), 300) is None
    assert svg_to_png(svg, 300).startswith(b"\x89PNG")


def test_the_borders_drawn_once_and_laid_over_give_the_same_picture(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from polydip.render import memo

    svg = picture_svg(Game.new("twentieth_century")).encode()
    monkeypatch.setattr(cairodraw, "STATIC_LAYERS", frozenset())
    monkeypatch.setattr(cairodraw, "BASE_GROUPS", frozenset())
    direct = cairodraw.svg_png(svg, 500)
    monkeypatch.setattr(cairodraw, "STATIC_LAYERS", frozenset(("borders",)))
    monkeypatch.setattr(cairodraw, "_LAYERS", {})
    monkeypatch.setenv("POLYDIP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(memo, "_enabled", True)
    layered = cairodraw.svg_png(svg, 500)
    assert direct is not None and layered is not None
    # (a layer laid over rounds a premultiplied colour once more: a shade at most)
    _anything, much = _differing(direct, layered)
    assert much == 0
    (kept,) = tmp_path.glob("*.layer")
    # the next process: the layer read from disk; a damaged one drawn again
    monkeypatch.setattr(cairodraw, "_LAYERS", {})
    assert cairodraw.svg_png(svg, 500) == layered
    kept.write_bytes(b"polydip-render-memo\n" + b"not zlib")
    monkeypatch.setattr(cairodraw, "_LAYERS", {})
    assert cairodraw.svg_png(svg, 500) == layered


def test_the_base_kept_gives_the_same_picture_and_follows_the_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from polydip.render import memo

    start = picture_svg(Game.new("twentieth_century")).encode()
    later = picture_svg(_played("twentieth_century", 3)).encode()
    groups = cairodraw.BASE_GROUPS
    monkeypatch.setattr(cairodraw, "BASE_GROUPS", frozenset())
    direct = {svg: cairodraw.svg_png(svg, 400) for svg in (start, later)}
    monkeypatch.setattr(cairodraw, "BASE_GROUPS", groups)
    monkeypatch.setattr(cairodraw, "_BASES", {})
    monkeypatch.setenv("POLYDIP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(memo, "_enabled", True)
    # the base (sea, provinces' fills, borders) drawn, kept, and copied: the same pixels;
    # on disk from its second picture (a position drawn once costs no base written)
    assert cairodraw.svg_png(start, 400) == direct[start]
    (kept,) = tmp_path.glob("*.base")
    assert kept.stat().st_size == 0 and cairodraw._BASES == {}
    assert cairodraw.svg_png(start, 400) == direct[start]
    assert kept.stat().st_size > 1000
    assert cairodraw.svg_png(start, 400) == direct[start]  # (from the file)
    # other owners, or the same board at another width: another base, not the kept one
    for _twice in range(2):
        assert cairodraw.svg_png(later, 400) == direct[later]
        assert cairodraw.svg_png(start, 300) == svg_to_png(start.decode(), 300)
    assert len([p for p in tmp_path.glob("*.base") if p.stat().st_size]) == 3
    # a damaged or cut file is drawn again, and replaced
    for bad in (b"polydip-render-memo\nnot zlib", b"garbage",
                b"polydip-render-memo\n" + zlib.compress(b"\x00" * 99)):
        kept.write_bytes(bad)
        monkeypatch.setattr(cairodraw, "_BASES", {})
        assert cairodraw.svg_png(start, 400) == direct[start]
        assert kept.read_bytes() != bad
        assert cairodraw.svg_png(start, 400) == direct[start]


def test_the_base_is_kept_in_the_process_without_the_memo(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from polydip.render import memo

    monkeypatch.setattr(memo, "_enabled", False)
    monkeypatch.setattr(cairodraw, "_BASES", {})
    svg = picture_svg(Game.new("standard")).encode()
    first = cairodraw.svg_png(svg, 300)
    assert len(cairodraw._BASES) == 1  # (the host: its next view of the position)
    assert cairodraw.svg_png(svg, 300) == first


@pytest.mark.parametrize("variant", ["lad1890", "war_in_north_america"])
def test_terrain_and_territories_are_part_of_the_base(
        variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import xml.etree.ElementTree as ET

    svg = picture_svg(_played(variant, 2)).encode()
    prefix = cairodraw.base_prefix(ET.fromstring(svg))
    kinds = {c.get("class") for c in prefix}
    assert {"provinces", "terrain", "borders"} <= kinds  # (all under the units)
    groups = cairodraw.BASE_GROUPS
    monkeypatch.setattr(cairodraw, "BASE_GROUPS", frozenset())
    direct = cairodraw.svg_png(svg, 400)
    # (not monkeypatch.undo(): that would also undo conftest's memo off)
    monkeypatch.setattr(cairodraw, "BASE_GROUPS", groups)
    monkeypatch.setattr(cairodraw, "_BASES", {})
    assert cairodraw.svg_png(svg, 400) == direct == cairodraw.svg_png(svg, 400)
    assert len(cairodraw._BASES) == 1
