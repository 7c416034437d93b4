"""Patterns drawn on the board, as SVG <pattern> definitions used by reference: the marks that
tell apart powers whose colours are alike (colors.power_marks), and the terrain classes a
variant's rules name (mountain, rainforest, ocean, ...), each a pattern over the province's
fill. One definition per power or class, however many provinces use it.
"""

from __future__ import annotations

from polydip.render.colors import mix
from polydip.render.draw import Svg, text_color

TILE = 9.0  # px: the side of a mark's tile on a province
UNIT_TILE = 5.0  # ... on a unit symbol and a legend swatch


def mark_id(power: int, use: str) -> str:
    """The id of power `power`'s mark pattern; `use`: "fill" (its provinces) or "unit"
    (its units, its legend swatch)."""
    return f"mark-{use}-{power}"


def url(ident: str) -> str:
    return f"url(#{ident})"


def draw_mark_defs(svg: Svg, colors: list[str], fills: list[str], marks: list[str]) -> None:
    """A <pattern> per marked power and use: on provinces the mark in the power's colour
    over its fill (`fills`), on units and swatches in a tint of the unit's letter colour over
    the power's colour."""
    for p, mark in enumerate(marks):
        if not mark:
            continue
        _pattern(svg, mark_id(p, "fill"), mark, fills[p], colors[p], TILE, 1.6)
        ink = mix(colors[p], text_color(colors[p]), 0.55)
        _pattern(svg, mark_id(p, "unit"), mark, colors[p], ink, UNIT_TILE, 1.1)


def _pattern(svg: Svg, ident: str, mark: str, ground: str, ink: str, s: float,
             w: float) -> None:
    turn = {"stripes": "rotate(45)", "bars": "rotate(-45)", "checks": "rotate(45)"}
    svg.start("pattern", id=ident, width=s, height=s, patternUnits="userSpaceOnUse",
              patternTransform=turn.get(mark))
    svg.el("rect", width=s, height=s, fill=ground)
    h = s / 2
    if mark in ("stripes", "bars"):
        svg.el("rect", width=w, height=s, fill=ink)
    elif mark == "dots":
        svg.el("circle", cx=h, cy=h, r=w * 1.1, fill=ink)
    elif mark == "grid":
        svg.el("rect", width=s, height=w * 0.8, fill=ink)
        svg.el("rect", width=w * 0.8, height=s, fill=ink)
    elif mark == "rings":
        svg.el("circle", cx=h, cy=h, r=h * 0.6, fill="none", stroke=ink, stroke_width=w * 0.7)
    else:  # checks
        svg.el("rect", width=h, height=h, fill=ink, fill_opacity="0.6")
    svg.end("pattern")
