"""Power colours that every player can tell apart, and that stand out from the sea.

Two colours are told apart when they differ by at least PAIR_MIN in CIEDE2000 (ΔE00) for
normal vision and as protanopes and deuteranopes see them (Machado et al. 2009, full
severity). A variant's own colours are drawn when every pair differs by PAIR_MIN for normal
vision and every power's province fill (its colour mixed with white, as drawn) differs from
the sea by SEA_MIN; else the powers are drawn from PALETTES (sets chosen by a local search
over a colour grid that pass the normal-vision test and leave the fewest pairs alike for the
deficiencies). Of the two (the variant's own, the palette), the one with fewer pairs alike in
any vision is drawn. Pairs still alike (as many powers as The Twentieth Century's thirteen
cannot all differ by 20 for protanopes) are told apart by a second channel: power_marks gives
such powers a pattern (stripes, dots, ...) that their provinces, their units and their
legend swatch carry, so that no two powers alike in any vision share both colour and mark.
docs/boards.md says the same for variant authors.
"""

from __future__ import annotations

import math
import re

SEA = "#bcd6e8"
FILL_MIX = 0.42  # an owned land province: the power's colour this far towards white

# Found by a local search (swap one colour at a time) over the 8x8x8 grid of #11..#ff
# colours of lightness 28-78 whose fills stand out from the sea by SEA_MIN in every vision:
# first no pair under PAIR_MIN for normal vision, then the fewest pairs under PAIR_MIN for any
# vision, then the widest smallest normal-vision difference. A variant of n powers takes the
# first n colours of the smallest set of at least n.
PALETTES: dict[int, list[str]] = {
    7: ["#117777", "#773333", "#9977ff", "#1133dd", "#ddbb11", "#55bb99", "#bb5511"],
    10: ["#555511", "#115555", "#773311", "#773355", "#ddbb11", "#9977ff", "#bb7777",
         "#119977", "#1111dd", "#33dd11"],
    13: ["#335511", "#115555", "#1177bb", "#775511", "#9977ff", "#55bb99", "#1111dd",
         "#773355", "#33dd11", "#991111", "#999911", "#997777", "#ff7711"],
}
PAIR_MIN = 20.0  # ΔE00, between two powers' colours
SEA_MIN = 12.0  # ΔE00, between a power's province fill and the sea

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
    r, g, b = (_linear(c) for c in rgb(color))
    out = [_lab((r, g, b))]
    for m in _CVD.values():
        x, y, z = (m[i][0] * r + m[i][1] * g + m[i][2] * b for i in range(3))
        out.append(_lab((x, y, z)))
    return out


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (kL = kC = kH = 1), as Sharma,
    Wu and Dalal (2005) set it out."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c7 = ((math.hypot(a1, b1) + math.hypot(a2, b2)) / 2) ** 7
    g = 0.5 * (1 - math.sqrt(c7 / (c7 + 25.0 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    chroma = c1p * c2p != 0
    dh = 0.0
    if chroma:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    big_dh = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh) / 2)
    lbar = (l1 + l2) / 2
    cbar = (c1p + c2p) / 2
    if not chroma:
        hbar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbar = (h1p + h2p) / 2
    else:
        hbar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (1 - 0.17 * math.cos(math.radians(hbar - 30)) + 0.24 * math.cos(math.radians(2 * hbar))
         + 0.32 * math.cos(math.radians(3 * hbar + 6))
         - 0.20 * math.cos(math.radians(4 * hbar - 63)))
    theta = 30 * math.exp(-(((hbar - 275) / 25) ** 2))
    cbar7 = cbar ** 7
    rc = 2 * math.sqrt(cbar7 / (cbar7 + 25.0 ** 7))
    sl = 1 + 0.015 * (lbar - 50) ** 2 / math.sqrt(20 + (lbar - 50) ** 2)
    sc = 1 + 0.045 * cbar
    sh = 1 + 0.015 * cbar * t
    rt = -math.sin(math.radians(2 * theta)) * rc
    x, y, z = (l2 - l1) / sl, (c2p - c1p) / sc, big_dh / sh
    return math.sqrt(x * x + y * y + z * z + rt * y * z)


VISIONS = ("normal", "protan", "deutan")


def differences(a: str, b: str) -> tuple[float, float, float]:
    """The ΔE00 of two colours for normal vision, protanopes and deuteranopes."""
    d = [ciede2000(p, q) for p, q in zip(_views(a), _views(b), strict=True)]
    return d[0], d[1], d[2]


def difference(a: str, b: str) -> float:
    """The smallest ΔE00 of two colours, for normal vision and the two red-green
    deficiencies."""
    return min(differences(a, b))


def clashes(colors: list[str]) -> list[str]:
    """Why these power colours cannot be drawn as they are (empty: they can): a fill like
    the sea, or two colours alike for normal vision."""
    out = []
    for i, c in enumerate(colors):
        if difference(mix(c, "#ffffff", FILL_MIX), SEA) < SEA_MIN:
            out.append(f"colour {i + 1} ({c}) looks like the sea")
        for j in range(i):
            if differences(c, colors[j])[0] < PAIR_MIN:
                out.append(f"colours {j + 1} and {i + 1} ({colors[j]}, {c}) look alike")
    return out


def alike(colors: list[str]) -> list[tuple[int, int]]:
    """The pairs (j < i) of colours under PAIR_MIN apart in some vision."""
    return [(j, i) for i, c in enumerate(colors) for j in range(i)
            if difference(c, colors[j]) < PAIR_MIN]


def palette(n: int) -> list[str]:
    """n colours from PALETTES (beyond the largest set, it repeats)."""
    size = min((k for k in PALETTES if k >= n), default=max(PALETTES))
    return [PALETTES[size][i % size] for i in range(n)]


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
    fallback = palette(len(players))
    if clashes(players) or len(alike(fallback)) < len(alike(players)):
        players = fallback
    mine = iter(players)
    greys = iter(NEUTRAL_GREYS * (1 + len(colors) // len(NEUTRAL_GREYS)))
    return [next(greys) if n else next(mine) for n in neutral]


# the second channel: patterns a power's provinces, units and legend swatch carry ("" none)
MARKS = ["", "stripes", "dots", "grid", "rings", "bars", "checks"]


def power_marks(colors: list[str]) -> list[str]:
    """Per power (drawn in `colors`, as power_colors gives them): the mark from MARKS that
    tells it apart from every power whose colour is alike (under PAIR_MIN in some vision).
    Powers alike to the fewest others are marked first (so that most powers keep no mark),
    each with the first mark none of its alike powers has ("" first: no mark)."""
    near: dict[int, set[int]] = {i: set() for i in range(len(colors))}
    for j, i in alike(colors):
        near[i].add(j)
        near[j].add(i)
    marks = [""] * len(colors)
    done: set[int] = set()
    for i in sorted(near, key=lambda i: (len(near[i]), i)):
        taken = {marks[j] for j in near[i] if j in done}
        marks[i] = next((k for k in MARKS if k not in taken), MARKS[-1])
        done.add(i)
    return marks
