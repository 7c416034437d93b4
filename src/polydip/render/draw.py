"""SVG primitives and the colours both map styles (board and schematic) share.

Every piece of markup of a picture is written here, by `element`, `start` and `Svg`: they
take attribute values as Python values and write each through `esc`, the one escaping point
(text between tags too). A name from a variant, a game or an order (a power called
`Austria & Hungary`, or `"/><script>`) therefore reaches the SVG as text, never as markup.
The renderer builds no tag or attribute with an f-string of its own. Numbers are written
by `fmt`; geometry (`points`, `d`) as `Coords`, which only `pts` and `Coords.of` make, from
numbers. A class name built from a variant's word (an edge kind) goes through `css_class`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from polydip.render.colors import SEA, mix, rgb

if TYPE_CHECKING:
    from polydip.variants.model import Variant

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


def edge_style(v: Variant, kind: str) -> tuple[str, float, str]:
    """How an edge kind of variant `v` is drawn; kinds without a style of their own take the
    next of a few distinct ones."""
    if kind in EDGE_STYLES:
        return EDGE_STYLES[kind]
    others = sorted(k for k in v.edge_kinds if k not in EDGE_STYLES and k not in ("land", "sea"))
    return OTHER_EDGES[others.index(kind) % len(OTHER_EDGES)] if kind in others \
        else OTHER_EDGES[0]


def border_class(v: Variant, kind: str) -> bool:
    """An edge kind no unit crosses by it alone: it describes the border (a river, a
    mountain range) rather than a way across."""
    ek = v.edge_kinds.get(kind)
    return ek is not None and not ek.units and kind not in ("land", "sea")


def text_color(color: str) -> str:
    r, g, b = rgb(color)
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


class Coords(str):
    """Numbers for a geometry attribute (`points`, `d`), written without escaping: made
    only from numbers (`pts`, `Coords.of`) and the path letters, so no text can hide in
    one."""

    __slots__ = ()

    @classmethod
    def of(cls, *parts: float | str) -> Coords:
        """A path from numbers and single path command letters: Coords.of("M", x, y, "L",
        ...)."""
        out = []
        for v in parts:
            if isinstance(v, str):
                if v not in _PATH_COMMANDS:
                    raise ValueError(f"not a path command: {v!r}")
                out.append(v)
            else:
                out.append(fmt(v))
        return cls(" ".join(out))


_PATH_COMMANDS = frozenset("MmLlHhVvCcSsQqTtAaZz")


def pts(points: list[Point]) -> Coords:
    return Coords(" ".join(f"{fmt(x)},{fmt(y)}" for x, y in points))


# ---- the one escaping point ------------------------------------------------------------------

# characters XML 1.0 cannot hold even as a reference: the C0 controls but tab, newline and
# carriage return, the surrogates, U+FFFE and U+FFFF; a name holding one is drawn with U+FFFD
# in its place rather than making the whole picture unreadable
_ESCAPES: dict[int, str] = {c: "\ufffd" for c in range(0x20)}
_ESCAPES.update({c: "\ufffd" for c in range(0xD800, 0xE000)})
_ESCAPES.update({0xFFFE: "\ufffd", 0xFFFF: "\ufffd"})
# tab, newline and carriage return as references: an attribute value keeps them
_ESCAPES.update({0x09: "&#9;", 0x0A: "&#10;", 0x0D: "&#13;"})
_ESCAPES.update({ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;", ord('"'): "&quot;",
                 ord("'"): "&#39;"})
_PLAIN = re.compile("[^&<>\"'\x00-\x1f\ud800-\udfff\ufffe\uffff]*")


def esc(s: str) -> str:
    """`s` as XML character data, fit for text between tags and for a quoted attribute
    value alike: & < > " ' as references, characters XML cannot hold replaced."""
    if _PLAIN.fullmatch(s):
        return s
    return s.translate(_ESCAPES)


_CLASS_BAD = re.compile(r"[^a-z0-9_-]+")


def css_class(word: str) -> str:
    """A variant's word (an edge kind) as one CSS class name: lower case, each run of other
    characters than a-z, 0-9, _ and - as one -."""
    return _CLASS_BAD.sub("-", word.lower()).strip("-") or "x"


_NAMES: dict[str, str] = {}
Value = str | float | int | None


def _attr_name(key: str) -> str:
    name = _NAMES[key] = key.rstrip("_").replace("_", "-")
    return name


def attrs(values: dict[str, Value]) -> str:
    """` name="value"` for each attribute: a keyword's underscores become hyphens
    (`stroke_width`, `data_province`; `class_` is `class`); None leaves the attribute out;
    text is escaped, numbers written by `fmt`, Coords as they are."""
    out = ""
    plain = _PLAIN.fullmatch
    for key, v in values.items():
        if v is None:
            continue
        if type(v) is str:  # `type(v)` each time, not held in a name: mypy narrows `v` by it
            if plain(v) is None:
                v = v.translate(_ESCAPES)
        elif type(v) is float:  # fmt, written out: this loop is the hot path of a picture
            v = f"{v:.1f}"
            if v[-1] == "0":
                v = v[:-2]
        elif type(v) is int or type(v) is Coords:
            pass
        else:
            raise TypeError(f"attribute {key}: {type(v).__name__} is not text, a number or "
                            "Coords")
        out += f' {_NAMES.get(key) or _attr_name(key)}="{v}"'
    return out


def element(tag: str, text: str | None = None, /, **values: Value) -> str:
    """One element: `<tag .../>`, or `<tag ...>text</tag>` with the text escaped."""
    if text is None:
        return f"<{tag}{attrs(values)}/>"
    return f"<{tag}{attrs(values)}>{esc(text)}</{tag}>"


def start(tag: str, /, **values: Value) -> str:
    """The start tag of an element with children (Svg.end closes it)."""
    return f"<{tag}{attrs(values)}>"


class Svg:
    """The parts of a picture, each written by element or start."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, *parts: str) -> None:
        """Parts written by element or start."""
        self.parts.extend(parts)

    def el(self, tag: str, text: str | None = None, /, **values: Value) -> None:
        self.parts.append(element(tag, text, **values))

    def start(self, tag: str, /, **values: Value) -> None:
        self.parts.append(start(tag, **values))

    def end(self, tag: str) -> None:
        self.parts.append(f"</{tag}>")

    def line(self, p: Point, q: Point, stroke: str, width: float, dash: str = "",
             cls: str | None = None) -> None:
        self.el("line", x1=p[0], y1=p[1], x2=q[0], y2=q[1], stroke=stroke, stroke_width=width,
                stroke_dasharray=dash or None, stroke_linecap="round", class_=cls)

    def text(self, x: float, y: float, s: str, size: float, fill: str = INK,
             weight: str = "normal", anchor: str = "middle", style: str = "",
             halo: str = "", halo_width: float = 3.5) -> None:
        # the most frequent element (two per label), written here directly rather than by
        # element, but by the same rule: every value through esc or fmt
        s, xy = esc(s), f'x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}"'
        head = f'{xy} font-weight="{esc(weight)}" text-anchor="{esc(anchor)}"'
        tail = f' font-style="{esc(style)}">' if style else ">"
        if halo:  # a stroked copy underneath (paint-order is not supported everywhere)
            halo = esc(halo)
            self.parts.append(f'<text {head} fill="{halo}" stroke="{halo}" '
                              f'stroke-width="{fmt(halo_width)}" stroke-linejoin="round"'
                              f'{tail}{s}</text>')
        self.parts.append(f'<text {head} fill="{esc(fill)}"{tail}{s}</text>')
