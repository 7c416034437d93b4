"""SVG primitives and the colours both map styles (board and schematic) share."""

from __future__ import annotations

from xml.sax.saxutils import escape

from polydip.render.colors import SEA, mix, rgb

Point = tuple[float, float]

FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
PAPER = "#f3efe6"
SEA_LINE = "#8fb3cf"
LAND = "#ebe4d1"  # land that no power owns
NEUTRAL_LAND = "#d9d4c7"  # land that is no province, or no unit may enter
BLOCKED_SEA = "#dae6ee"  # water no unit may enter (an impassable sea)
COAST_LINE = "#4f7896"
LAND_LINE = "#8c7b66"
BLOCKED_LINE = "#3c3128"
INK = "#1e1e1e"
FAIL = "#d0161b"
SEA_INK = "#2c5d85"

__all__ = ["SEA", "mix", "rgb"]

# the style (colour, width, dash) of a border or crossing per edge kind: a crossing kind (some
# unit crosses it: canal, bridge, strait) is drawn as a mark across the border or a line
# between provinces that do not touch; a border class (no unit crosses by it alone: river,
# mountain, rainforest) restyles the border itself
EDGE_STYLES: dict[str, tuple[str, float, str]] = {
    "canal": ("#0f8fb0", 3.2, "7 4"),
    "river": ("#2d6fd6", 3.2, ""),
    "bridge": ("#8b5a2b", 3.2, "3 3"),
    "strait": ("#0f8fb0", 2.6, "2 4"),
    "mountain": ("#8b5a2b", 2.6, "9 3 2 3"),
    "rainforest": ("#2e8b3a", 2.6, "5 3"),
}
OTHER_EDGES: list[tuple[str, float, str]] = [
    ("#8a3ea8", 2.6, "6 3"), ("#c2185b", 2.6, "4 3"), ("#00838f", 2.6, "8 3"),
    ("#6d4c41", 2.6, "2 3"), ("#ef6c00", 2.6, "6 2 2 2")]


def edge_style(v, kind: str) -> tuple[str, float, str]:
    """How an edge kind of variant `v` is drawn; kinds without a style of their own take the
    next of a few distinct ones."""
    if kind in EDGE_STYLES:
        return EDGE_STYLES[kind]
    others = sorted(k for k in v.edge_kinds if k not in EDGE_STYLES and k not in ("land", "sea"))
    return OTHER_EDGES[others.index(kind) % len(OTHER_EDGES)] if kind in others \
        else OTHER_EDGES[0]


def border_class(v, kind: str) -> bool:
    """An edge kind no unit crosses by it alone: it describes the border (a river, a
    mountain range) rather than a way across."""
    ek = v.edge_kinds.get(kind)
    return ek is not None and not ek.units and kind not in ("land", "sea")


def text_color(color: str) -> str:
    r, g, b = rgb(color)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def pts(points: list[Point]) -> str:
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


class Svg:
    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def line(self, p: Point, q: Point, stroke: str, width: float, dash: str = "",
             extra: str = "") -> None:
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<line x1="{fmt(p[0])}" y1="{fmt(p[1])}" x2="{fmt(q[0])}" '
                 f'y2="{fmt(q[1])}" stroke="{stroke}" stroke-width="{fmt(width)}"{d}'
                 f' stroke-linecap="round"{extra}/>')

    def text(self, x: float, y: float, s: str, size: float, fill: str = INK,
             weight: str = "normal", anchor: str = "middle", style: str = "",
             halo: str = "", halo_width: float = 3.5) -> None:
        extra = f' font-style="{style}"' if style else ""
        if halo:  # a stroked copy underneath (paint-order is not supported everywhere)
            self.add(f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" '
                     f'font-weight="{weight}" text-anchor="{anchor}" fill="{halo}" '
                     f'stroke="{halo}" stroke-width="{fmt(halo_width)}" '
                     f'stroke-linejoin="round"{extra}>{escape(s)}</text>')
        self.add(f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" '
                 f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}"{extra}>'
                 f"{escape(s)}</text>")
