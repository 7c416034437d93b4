"""Patterns drawn on the board, as SVG <pattern> definitions used by reference: the marks that
tell apart powers whose colours are alike (colors.power_marks), and the terrain classes a
variant's rules name (mountain, rainforest, ocean, ...), each a pattern over the province's
fill. One definition per power or class, however many provinces use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polydip.render.colors import mix
from polydip.render.draw import Coords, Svg, text_color

if TYPE_CHECKING:
    from polydip.variants.model import Variant

TILE = 10.0  # px: the side of a mark's tile on a province
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
        _pattern(svg, mark_id(p, "fill"), mark, fills[p], colors[p], TILE, 1.4)
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
        svg.el("rect", width=s, height=w * 0.7, fill=ink)
        svg.el("rect", width=w * 0.7, height=s, fill=ink)
    elif mark == "rings":
        svg.el("circle", cx=h, cy=h, r=h * 0.6, fill="none", stroke=ink, stroke_width=w * 0.7)
    else:  # checks
        svg.el("rect", width=h, height=h, fill=ink, fill_opacity="0.6")
    svg.end("pattern")


# ---- terrain classes ------------------------------------------------------------------------

# how a class of provinces is drawn: (pattern, ink); a class without a style of its own takes
# the next of OTHER_TERRAINS. Water classes (provinces drawn as water) darken the sea.
TERRAIN_STYLES: dict[str, tuple[str, str]] = {
    "mountain": ("peaks", "#7a5230"),
    "rainforest": ("trees", "#2e7d32"),
    "swamp": ("reeds", "#3f7f6f"),
    "desert": ("sand", "#b7791f"),
    "glacier": ("ice", "#5b8db8"),
    "ocean": ("waves", "#1d4f7a"),
}
OTHER_TERRAINS: list[tuple[str, str]] = [("hatch", "#6a4c93"), ("sand", "#8d6e63"),
                                         ("peaks", "#455a64")]
WATER_STYLE = ("waves", "#1d4f7a")


def terrain_classes(v: Variant, land: list[bool], names: list[str]
                    ) -> list[tuple[str, bool, list[int]]]:
    """The classes of provinces the board shows by a pattern, as (class, water, province
    indices): the tags a rule module selects provinces by (its `provinces` parameter: "the
    mountain provinces"), the provinces a rule names one by one (a class named after the rule:
    "open space"), and the tags and terrains with a style of their own (a glacier). `water`:
    its provinces are drawn as water."""
    index = {a: i for i, a in enumerate(names)}
    tags: dict[str, list[int]] = {}
    for i, a in enumerate(names):
        p = v.provinces[a]
        for t in dict.fromkeys([*p.tags, p.terrain]):
            tags.setdefault(t, []).append(i)
    found: dict[str, list[int]] = {}
    for rule, params in sorted(v.rules.items()):
        sel = params.get("provinces") if isinstance(params, dict) else None
        sel = [sel] if isinstance(sel, str) else sel if isinstance(sel, list) else []
        for item in sel:
            if not isinstance(item, str):
                continue
            if item in tags:
                found.setdefault(item, tags[item])
            elif item in index:
                cls = rule.replace("_", " ").removesuffix("s")
                found.setdefault(cls, []).append(index[item])
    for t in TERRAIN_STYLES:
        if t in tags:
            found.setdefault(t, tags[t])
    out = []
    for cls, provs in found.items():
        provs = sorted(set(provs))
        water = not any(land[i] for i in provs)
        out.append((cls, water, provs))
    return sorted(out)


def terrain_id(cls: str) -> str:
    return "terrain-" + "".join(ch if ch.isalnum() else "-" for ch in cls.lower())


def terrain_style(classes: list[tuple[str, bool, list[int]]], cls: str, water: bool
                  ) -> tuple[str, str]:
    if cls in TERRAIN_STYLES:
        return TERRAIN_STYLES[cls]
    if water:
        return WATER_STYLE
    others = [c for c, w, _ in classes if c not in TERRAIN_STYLES and not w]
    return OTHER_TERRAINS[others.index(cls) % len(OTHER_TERRAINS)]


def draw_terrain_defs(svg: Svg, classes: list[tuple[str, bool, list[int]]]) -> None:
    """A <pattern> per class: marks on a see-through ground (over the province's fill);
    water classes darken the sea as well."""
    svg.start("defs")
    for cls, water, _ in classes:
        kind, ink = terrain_style(classes, cls, water)
        s = {"peaks": 16.0, "trees": 12.0, "reeds": 14.0, "sand": 7.0, "ice": 10.0,
             "waves": 18.0, "hatch": 8.0}[kind]
        svg.start("pattern", id=terrain_id(cls), width=s, height=s,
                  patternUnits="userSpaceOnUse",
                  patternTransform="rotate(-35)" if kind in ("ice", "hatch") else None)
        if water:
            svg.el("rect", width=s, height=s, fill=ink, fill_opacity="0.22")
        if kind == "peaks":
            svg.el("path", d=Coords.of("M", 3, 11, "L", 8, 5, "L", 13, 11), fill="none",
                   stroke=ink, stroke_width=1.5, stroke_linejoin="round", stroke_opacity="0.8")
        elif kind == "trees":
            svg.el("circle", cx=3, cy=3, r=1.9, fill=ink, fill_opacity="0.75")
            svg.el("circle", cx=9, cy=9, r=1.9, fill=ink, fill_opacity="0.75")
        elif kind == "reeds":
            for x, y in ((2, 4), (9, 11)):
                svg.el("path", d=Coords.of("M", x, y, "L", x + 4, y), stroke=ink,
                       stroke_width=1.4, stroke_linecap="round", stroke_opacity="0.8")
                svg.el("path", d=Coords.of("M", x + 2, y, "L", x + 2, y - 3), stroke=ink,
                       stroke_width=1.1, stroke_linecap="round", stroke_opacity="0.8")
        elif kind == "sand":
            svg.el("circle", cx=2, cy=2, r=0.9, fill=ink, fill_opacity="0.8")
            svg.el("circle", cx=5.5, cy=5, r=0.7, fill=ink, fill_opacity="0.6")
        elif kind == "waves":
            svg.el("path", d=Coords.of("M", 1, 9, "Q", 5.5, 5, 9, 9, "T", 17, 9), fill="none",
                   stroke=ink, stroke_width=1.1, stroke_opacity="0.55")
        else:  # ice, hatch: fine lines
            svg.el("rect", width=s, height=1.2, fill=ink, fill_opacity="0.55")
        svg.end("pattern")
    svg.end("defs")
