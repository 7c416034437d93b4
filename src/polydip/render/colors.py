"""Power colours that every player can tell apart, and that stand out from the sea.

A variant names a colour per power. polydip draws them as they are when they pass two tests,
for normal vision and as protanopes and deuteranopes see them (Machado et al. 2009, full
severity): every power's colour differs from every other's by at least PAIR_MIN (CIE76 ΔE),
and a power's province fill (its colour mixed with white, as drawn) differs from the sea by
at least SEA_MIN. When any test fails, all powers are drawn from PALETTE by their index in
the variant instead (a set that passes both tests for up to ten powers). Beyond ten no set
passes both tests for every vision, and MANY_PALETTE is used: colours far apart for normal
vision (every pair of its first thirteen by about 40), with fills that stand out from the sea.
docs/boards.md says the same for variant authors.
"""

from __future__ import annotations

import math
import re

SEA = "#bcd6e8"
FILL_MIX = 0.42  # an owned land province: the power's colour this far towards white

# Chosen by a farthest-point search over a colour grid: any two of these differ by at least
# 21.6 ΔE for normal, protan and deutan vision, and each fill by at least 22 from the sea.
# blue, red, gold, teal green, violet, brown, olive, magenta, deep blue, green
PALETTE = ["#3377ee", "#ee3311", "#ddbb11", "#117755", "#771199", "#773311", "#aabb55",
           "#991177", "#1111ee", "#559955"]
# For eleven to sixteen powers, where no set passes both tests for every vision: a farthest-
# point search over the 8x8x8 grid of #11..#ff colours (fills told from the sea and from
# unowned land, lightness 30-75), weighing normal vision fully and the deficiencies at 3x.
# Its first thirteen differ by at least 39.9 for normal vision (13 for protan/deutan); all
# sixteen by 29.2. Beyond sixteen it repeats.
MANY_PALETTE = ["#3333bb", "#11bb11", "#773311", "#115577", "#ff11ff", "#ff1155", "#1111ff",
                "#777711", "#bb1199", "#ff7711", "#1177dd", "#115533", "#773355", "#bb3355",
                "#dd1111", "#bb7733"]
PAIR_MIN = 20.0
SEA_MIN = 20.0

_CVD = {
    "protan": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
               (-0.003882, -0.048116, 1.051998)),
    "deutan": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
               (-0.011820, 0.042940, 0.968881)),
}


def rgb(color: str) -> tuple[int, int, int]:
    c = color.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    try:
        return int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    except ValueError:
        return (128, 128, 128)


def mix(color: str, other: str, t: float) -> str:
    """`color` moved a fraction `t` toward `other` (both #rrggbb)."""
    a, b = rgb(color), rgb(other)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def _linear(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def _lab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (min(max(x, 0.0), 1.0) for x in lin)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _views(color: str) -> list[tuple[float, float, float]]:
    lin = tuple(_linear(c) for c in rgb(color))
    out = [_lab(lin)]
    for m in _CVD.values():
        out.append(_lab(tuple(sum(m[i][k] * lin[k] for k in range(3)) for i in range(3))))
    return out


def difference(a: str, b: str) -> float:
    """The smallest CIE76 difference of two colours, for normal vision and the two
    red-green deficiencies."""
    return min(math.dist(p, q) for p, q in zip(_views(a), _views(b), strict=True))


def clashes(colors: list[str]) -> list[str]:
    """Why these power colours cannot be drawn as they are (empty: they can)."""
    out = []
    for i, c in enumerate(colors):
        if difference(mix(c, "#ffffff", FILL_MIX), SEA) < SEA_MIN:
            out.append(f"colour {i + 1} ({c}) looks like the sea")
        for j in range(i):
            if difference(c, colors[j]) < PAIR_MIN:
                out.append(f"colours {j + 1} and {i + 1} ({colors[j]}, {c}) look alike")
    return out


# what a variant may name a colour with: #rgb, #rrggbb or a word (an SVG colour name)
COLOR = re.compile(r"#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-zA-Z]{1,30}")
NO_COLOR = "#888888"


# neutral powers (no player: their units always hold) are drawn in greys, never in a
# player's colour; each fill stands out from the sea by at least SEA_MIN
NEUTRAL_GREYS = ["#5a5a5a", "#4a4a4a", "#525252", "#444444", "#565656", "#4e4e4e"]


def power_colors(colors: list[str], neutral: list[bool] | None = None) -> list[str]:
    """The colours to draw the powers with (see the module docstring); a colour that is
    neither #rgb, #rrggbb nor a colour's name counts as grey. Neutral powers (`neutral`)
    get NEUTRAL_GREYS; the tests and palettes apply to the others."""
    neutral = neutral or [False] * len(colors)
    players = [c if COLOR.fullmatch(c) else NO_COLOR
               for c, n in zip(colors, neutral, strict=True) if not n]
    if clashes(players):
        players = (PALETTE[:len(players)] if len(players) <= len(PALETTE)
                   else [MANY_PALETTE[i % len(MANY_PALETTE)] for i in range(len(players))])
    mine = iter(players)
    greys = iter(NEUTRAL_GREYS * (1 + len(colors) // len(NEUTRAL_GREYS)))
    return [next(greys) if n else next(mine) for n in neutral]
