"""Where a board's province names and supply center markers go in a picture (issue 29).

The board file gives each province one label anchor. In dense regions a name drawn there
covers a unit, another name, or reaches past the board's edge, and a center marker beside
a name may stand in the next province. Placement moves them, generically, from the board's
geometry alone (no variant is named here):

1. **Per map** (cached in the map's memo, per picture width and name style): each label is
   tried at its anchor, then at candidate centres round it, nearest first (RADII × ANGLES).
   A candidate is taken when the name's centre and its center marker lie inside the
   province (the marker on the name's left, else its right), the whole label inside the
   board's frame, and it meets no name placed before it. Small provinces are placed first:
   they have the fewest places. Failing that (see `_search`): the code (abbreviation) in
   the same places; the name with its marker standing apart, each inside the province; the
   code beside the province with a dashed leader line to its marker or anchor; failing all,
   the place that covers least (`_fallback`).
2. **Per picture** only the units change. A unit alone in a supply center too small for its
   symbol and the marker side by side is first moved within its province (`make_room`);
   then each label whose text or marker meets a unit's symbol is placed again, the same
   way, off the units and the other labels. A marker no place keeps off a unit is drawn
   under the unit (boardsvg.draw_centers_under), peeking out, never over it.

Province outlines are kept as scanlines (`_Shape`): point-in-province is a bisection; a
place about to be taken is checked exactly. Text boxes are estimated as the renderer and
render.audit do: a character 0.62 em wide. Everything is deterministic: candidates and
labels in a fixed order.
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
import pickle
from bisect import bisect_right
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING, Any

from polydip.geography.cache import LAYOUTS, room
from polydip.geography.map import Map

if TYPE_CHECKING:
    from polydip.render.board import Board
    from polydip.render.boardsvg import BoardGeo

Point = tuple[float, float]
Box = tuple[float, float, float, float]

CHAR_EM = 0.62
MARKER_R = 8.2  # the home ring's radius: a center marker's extent
MARKER_GAP = 9.0  # from the text's end to the marker's centre
CELL = 48.0  # px: the grid that finds boxes near a box
PAD = 1.5  # px kept between a label and a unit or another label
RADII = (0.0, 6.0, 12.0, 19.0, 27.0, 36.0, 47.0, 60.0)  # px from the anchor: candidates
ANGLES = 12  # ... in as many directions, down first
LEADER_RADII = (22.0, 30.0, 39.0, 49.0, 60.0)  # a code on a leader line: this far out
MARKER_RADII = (0.0, 6.0, 12.0, 18.0, 25.0, 33.0, 41.0)
MARKER_ANGLES = 10
FALLBACK_TRIES = 160  # candidates weighed when none is free
MARKER_TOUCH = 3.0  # px a marker standing apart may reach over another label


@dataclass(slots=True, frozen=True)
class Label:
    """A province's name as drawn: its lines, where (x, y: the label's centre), the marker's
    side (-1 left, +1 right, 0 none) and whether it is the code rather than the name."""

    x: float
    y: float
    lines: tuple[str, ...]
    side: int
    short: bool
    marker: Point | None = None  # a marker standing apart from the name (side 0)
    leader: Point | None = None  # the name stands outside its province: a line to here


def label_lines(name: str, full: bool) -> list[str]:
    if not full:
        return [name]
    if len(name) <= 12 or " " not in name:
        return [name]
    words = name.split()
    best = None
    for k in range(1, len(words)):
        a, b = " ".join(words[:k]), " ".join(words[k:])
        score = max(len(a), len(b))
        if best is None or score < best[0]:
            best = (score, [a, b])
    return best[1] if best else [name]


def first_baseline(y: float, n: int, size: float) -> float:
    return y - (n - 1) * size * 0.55 + size * 0.35


_SHAPES: dict[tuple, tuple[Box, Point]] = {}


def _offsets(lines: tuple[str, ...], side: int, size: float) -> tuple[Box, Point]:
    """A label's text box and its marker's centre relative to the label's centre."""
    key = (lines, side, size)
    got = _SHAPES.get(key)
    if got is None:
        half = max(len(s) for s in lines) * size * CHAR_EM / 2
        y0 = first_baseline(0.0, len(lines), size)
        box = (-half, y0 - size * 0.75, half, y0 + (len(lines) - 1) * size * 1.1 + size * 0.22)
        got = _SHAPES[key] = (box, (side * (half + MARKER_GAP), y0 - size * 0.35))
        if len(_SHAPES) > 20000:
            _SHAPES.clear()
    return got


def marker_at(lab: Label, size: float) -> Point:
    if lab.marker is not None:
        return lab.marker
    (_b, (mx, my)) = _offsets(lab.lines, lab.side or -1, size)
    return (lab.x + mx, lab.y + my)


def text_box(lab: Label, size: float) -> Box:
    (b, _m) = _offsets(lab.lines, lab.side, size)
    return (lab.x + b[0], lab.y + b[1], lab.x + b[2], lab.y + b[3])


def boxes_of(lab: Label, size: float) -> list[Box]:
    (b, (mx, my)) = _offsets(lab.lines, lab.side, size)
    x, y = lab.x, lab.y
    out = [(x + b[0], y + b[1], x + b[2], y + b[3])]
    if lab.side:
        out.append((x + mx - MARKER_R, y + my - MARKER_R, x + mx + MARKER_R, y + my + MARKER_R))
    elif lab.marker is not None:
        mx, my = lab.marker
        out.append((mx - MARKER_R, my - MARKER_R, mx + MARKER_R, my + MARKER_R))
    return out


def _meet(a: Box, b: Box, pad: float = PAD) -> bool:
    return (a[0] < b[2] + pad and b[0] < a[2] + pad and a[1] < b[3] + pad
            and b[1] < a[3] + pad)


def _area(a: Box, b: Box) -> float:
    dx = min(a[2], b[2]) - max(a[0], b[0])
    dy = min(a[3], b[3]) - max(a[1], b[1])
    return dx * dy if dx > 0 and dy > 0 else 0.0


class _Grid:
    """Boxes by the grid cells they touch: the boxes near a box, quickly."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[tuple[int, Box]]] = {}
        self.where: dict[int, set[tuple[int, int]]] = {}

    def _keys(self, b: Box) -> Iterator[tuple[int, int]]:
        for gx in range(int(b[0] // CELL), int(b[2] // CELL) + 1):
            for gy in range(int(b[1] // CELL), int(b[3] // CELL) + 1):
                yield gx, gy

    def add(self, key: int, b: Box) -> None:
        for c in self._keys(b):
            self.cells.setdefault(c, []).append((key, b))
            self.where.setdefault(key, set()).add(c)

    def remove(self, key: int) -> None:
        for c in self.where.pop(key, ()):
            self.cells[c] = [(k, b) for k, b in self.cells[c] if k != key]

    def any_hit(self, b: Box, skip: int = -1, pad: float = PAD) -> bool:
        for c in self._keys((b[0] - PAD, b[1] - PAD, b[2] + PAD, b[3] + PAD)):
            for k, bb in self.cells.get(c, ()):
                if k != skip and _meet(b, bb, pad):
                    return True
        return False

    def hits(self, b: Box, skip: int = -1) -> list[tuple[int, Box]]:
        seen = set()
        out = []
        for c in self._keys((b[0] - PAD, b[1] - PAD, b[2] + PAD, b[3] + PAD)):
            for k, bb in self.cells.get(c, ()):
                if k != skip and (k, bb) not in seen and _meet(b, bb):
                    seen.add((k, bb))
                    out.append((k, bb))
        return out


BAND = 2.0  # px: a province's outline is kept as its crossings of lines this far apart


def _bbox(pts: list[Point]) -> Box:
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


class _Shape:
    """A province's outline in the picture, kept as scanlines: per horizontal line every
    BAND px, the sorted x where the outline crosses it. A point is inside when an odd number
    of crossings of its line lie to its right (points are taken to the nearest line: to
    BAND / 2 px)."""

    __slots__ = ("bands", "box", "rings", "rows", "small")

    def __init__(self, rings: list[list[Point]]) -> None:
        pts = [p for r in rings for p in r]
        self.box: Box = ((min(p[0] for p in pts), min(p[1] for p in pts),
                          max(p[0] for p in pts), max(p[1] for p in pts)) if pts
                         else (0.0, 0.0, -1.0, -1.0))
        self.rings = [(_bbox(r), r) for r in rings if r]
        self.bands: dict[int, list[tuple[float, float, float, float]]] | None = None
        rows: dict[int, list[float]] = {}
        # rings too small for the scanlines (a lake, an islet) are tested exactly
        self.small: dict[int, list[tuple[Box, list[Point]]]] = {}
        for ring in rings:
            ys = [p[1] for p in ring]
            if ring and max(ys) - min(ys) < 3 * BAND:
                xs = [p[0] for p in ring]
                b = (min(xs), min(ys), max(xs), max(ys))
                for n in range(int(b[1] // BAND), int(b[3] // BAND) + 1):
                    self.small.setdefault(n, []).append((b, ring))
                continue
            for k in range(len(ring) - 1):
                (x0, y0), (x1, y1) = ring[k], ring[k + 1]
                if y0 == y1:
                    continue
                if y0 > y1:
                    x0, y0, x1, y1 = x1, y1, x0, y0
                slope = (x1 - x0) / (y1 - y0)
                for r in range(math.ceil(y0 / BAND - 0.5), math.ceil(y1 / BAND - 0.5)):
                    rows.setdefault(r, []).append(x0 + ((r + 0.5) * BAND - y0) * slope)
        for xs in rows.values():
            xs.sort()
        self.rows = rows

    def exactly_contains(self, p: Point) -> bool:
        """contains, exactly: the outline's edges near the point's height (kept per 8 px
        band, made the first time)."""
        if self.bands is None:
            self.bands = {}
            for _b, ring in self.rings:
                for k in range(len(ring) - 1):
                    (x0, y0), (x1, y1) = ring[k], ring[k + 1]
                    if y0 != y1:
                        for n in range(int(min(y0, y1) // 8), int(max(y0, y1) // 8) + 1):
                            self.bands.setdefault(n, []).append((x0, y0, x1, y1))
        x, y = p
        ins = False
        for x0, y0, x1, y1 in self.bands.get(int(y // 8), ()):
            if (y0 > y) != (y1 > y) and x0 + (y - y0) * (x1 - x0) / (y1 - y0) > x:
                ins = not ins
        return ins

    def contains(self, p: Point) -> bool:
        xs = self.rows.get(int(p[1] // BAND))
        ins = xs is not None and (len(xs) - bisect_right(xs, p[0])) % 2 == 1  # ([]: even)
        x, y = p
        for b, ring in self.small.get(int(y // BAND), ()):
            if b[0] <= x <= b[2] and b[1] <= y <= b[3]:
                for k in range(len(ring) - 1):
                    (x0, y0), (x1, y1) = ring[k], ring[k + 1]
                    if (y0 > y) != (y1 > y) and x0 + (y - y0) * (x1 - x0) / (y1 - y0) > x:
                        ins = not ins
        return ins


@dataclass(slots=True)
class Placer:
    """What placement keeps per map (see the module docstring)."""

    size: float
    frame: Box
    shapes: _Shapes
    names: list[tuple[tuple[str, ...], tuple[str, ...]]]  # per province: (full, code) lines
    sc: list[bool]
    anchors: list[Point]  # per province: the board's label anchor
    units: list[Point]  # per province: the board's unit anchor
    base: list[Label]  # per province: where its label goes when no unit is in the way
    fitting: dict[int, list[Label]]  # per province: the candidates that fit, found so far
    pending: dict[int, Iterator[Label]]  # ... and the rest of its candidates, not yet tried
    marks: dict[int, list[Point]]  # per province: where its marker may stand apart
    # per province: how many of its candidates were tried (the ones `pending` has given;
    # -1: all of them): a placer kept on disk (render.memo) keeps no iterator and takes up
    # where it was
    tried: dict[int, int] = dataclasses.field(default_factory=dict)

    def __getstate__(self) -> dict[str, Any]:
        state = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        state["pending"] = {}
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)

    def markers_of(self, i: int) -> list[Point]:
        """Where province i's marker may stand apart from its name (marker_spots), the
        whole marker on the board."""
        got = self.marks.get(i)
        if got is None:
            shape = self.shapes[i]
            f = self.frame  # (a marker inside the province, all of it on the board)
            got = self.marks[i] = [p for p in marker_spots(shape, (self.units[i],
                                                                    self.anchors[i]))
                                   if shape.exactly_contains(p)
                                   and f[0] + MARKER_R < p[0] < f[2] - MARKER_R
                                   and f[1] + MARKER_R < p[1] < f[3] - MARKER_R]
        return got

    def fits_of(self, i: int) -> Iterator[Label]:
        """Province i's candidates that fit (see _fits), in order; each tried once per map."""
        done = self.fitting.setdefault(i, [])
        yield from done
        rest = self.pending.get(i)
        if rest is None:
            tried = self.tried.get(i, 0)
            rest = self.pending[i] = (iter(()) if tried < 0 else
                                      islice(_all_candidates(self, i), tried, None))
        while True:
            n = len(done)
            if n < len(self.fitting[i]):  # another caller went further meanwhile
                yield from done[n:]
                continue
            lab = next(rest, None)
            if lab is None:
                self.tried[i] = -1  # (all tried: none is made again to be skipped)
                return
            self.tried[i] = self.tried.get(i, 0) + 1
            if _fits(self, i, lab):
                done.append(lab)
                yield lab


def marker_spots(shape: _Shape, around: tuple[Point, ...]) -> list[Point]:
    """Where a center marker may stand in a province: round each point of `around`,
    nearest first, the marker inside the province (its centre, and the points 0.8 of its
    radius from its centre each way); then the places where only 0.3 of its radius each
    way is inside (the marker reaching over the border a little)."""
    strict: list[Point] = []
    loose: list[Point] = []
    d, e = MARKER_R * 0.8, MARKER_R * 0.3
    inside = shape.contains
    for ax, ay in around:
        for r in MARKER_RADII:
            for n in range(MARKER_ANGLES if r else 1):
                t = math.pi / 2 + 2 * math.pi * n / MARKER_ANGLES
                x, y = ax + r * math.cos(t), ay + r * math.sin(t)
                if not (inside((x, y)) and inside((x - e, y)) and inside((x + e, y))
                        and inside((x, y - e)) and inside((x, y + e))):
                    continue
                if (inside((x - d, y)) and inside((x + d, y)) and inside((x, y - d))
                        and inside((x, y + d))):
                    strict.append((x, y))
                else:
                    loose.append((x, y))
    return strict + loose


class _Shapes:
    """The provinces' outlines in the picture, each made the first time it is asked for
    (most names stand at their board anchor and never need theirs)."""

    def __init__(self, m: Map, geo: BoardGeo) -> None:
        self.names = m.prov_abbr
        self.board, self.k, self.top = geo.board, geo.scale, geo.top
        self.made: dict[int, _Shape] = {}
        # outlines read back from render.memo's file, each still pickled: unpickled when
        # asked for (a picture asks for a few; all of them took 0.09 s to read back)
        self.kept: dict[int, bytes] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        kept = dict(self.kept)
        for i, shape in self.made.items():
            kept[i] = pickle.dumps(shape, protocol=pickle.HIGHEST_PROTOCOL)
        state["made"], state["kept"] = {}, kept
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if not isinstance(self.__dict__.get("kept"), dict):
            self.kept = {}

    def __getitem__(self, i: int) -> _Shape:
        got = self.made.get(i)
        if got is None and i in self.kept:
            with contextlib.suppress(Exception):  # (a damaged one is made again)
                shape = pickle.loads(self.kept[i])
                if isinstance(shape, _Shape):
                    got = self.made[i] = shape
            del self.kept[i]
        if got is None:
            k, top, board = self.k, self.top, self.board
            got = self.made[i] = _Shape([[(x * k, top + y * k) for x, y in
                                          board.ring_points(r)]
                                         for r in board.rings(self.names[i])])
        return got


def shapes(m: Map, geo: BoardGeo) -> _Shapes:
    """The provinces' outlines in the picture (per map and width, from its memo)."""
    key = ("shapes", geo.board.width * geo.scale)
    got = m.caches.placement.get(key)
    if got is None:
        got = room(m.caches.placement, LAYOUTS)[key] = _Shapes(m, geo)
    return got


UNIT_STEPS = (3.0, 6.0, 9.0, 12.0, 16.0, 20.0, 25.0)  # px a unit may move (make_room)


def _room_beside(shape: _Shape, u: Point, r: float) -> bool:
    """A marker fits inside the province right beside a unit (a fleet's box) at u."""
    d = MARKER_R * 0.8
    for dx, dy in ((-1, 0), (1, 0), (0, 1), (0, -1), (-1, 1), (1, 1), (-1, -1), (1, -1)):
        x = u[0] + dx * (r * 1.45 + MARKER_R + 2.5)
        y = u[1] + dy * ((r if dy > 0 else r * 1.45) + MARKER_R + 2.5)
        if all(shape.contains(p) for p in ((x, y), (x - d, y), (x + d, y), (x, y - d),
                                           (x, y + d))):
            return True
    return False


def _disc(p: Point) -> Box:
    return (p[0] - MARKER_R, p[1] - MARKER_R, p[0] + MARKER_R, p[1] + MARKER_R)


def _rough_size(board: Board, name: str) -> float:
    """The area of the box round a province's arcs' ends (cheap; for ordering only)."""
    ends: list[Point] = []
    for ring in board.rings(name):
        for ref in ring:
            arc = board.arcs[ref if ref >= 0 else ~ref]
            ends += (arc[0], arc[-1], arc[len(arc) // 2])
    if not ends:
        return 0.0
    b = _bbox(ends)
    return (b[2] - b[0]) * (b[3] - b[1])


def placer(m: Map, geo: BoardGeo, full: bool, size: float) -> Placer:
    """The per-map part of placement, from the map's memo (made once per width and name
    style)."""
    key = ("labels", geo.board.width * geo.scale, full)
    p = m.caches.placement.get(key)
    if p is None:
        p = room(m.caches.placement, LAYOUTS)[key] = _make_placer(m, geo, full, size)
    return p


def _make_placer(m: Map, geo: BoardGeo, full: bool, size: float) -> Placer:
    board, k, top = geo.board, geo.scale, geo.top
    sh = shapes(m, geo)
    names: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for a in m.prov_abbr:
        short = not full or board.anchors[a].get("short_label", False)
        name = a if short else m.variant.provinces[a].name
        names.append((tuple(label_lines(name, not short)), (a,)))
    frame = (0.0, top, board.width * k, top + board.height * k)
    pl = Placer(size, frame, sh, names, [bool(m.is_sc[i]) for i in range(m.n_prov)],
                list(geo.label), [geo.loc[i] for i in range(m.n_prov)], [], {}, {}, {})
    # the smallest provinces first: they have the fewest places
    order = sorted(range(m.n_prov), key=lambda i: (_rough_size(board, m.prov_abbr[i]), i))
    grid = _Grid()
    base: list[Label | None] = [None] * m.n_prov
    for i in order:
        lab = _search(pl, i, grid, []) or _fallback(pl, i, grid, [])
        base[i] = lab
        for b in boxes_of(lab, size):
            grid.add(i, b)
    pl.base = [b for b in base if b is not None]
    return pl


def _candidates(pl: Placer, i: int, radii: tuple[float, ...] = RADII) -> Iterator[Point]:
    """Candidate centres for province i's label, nearest its anchor first."""
    ax, ay = pl.anchors[i]
    for r in radii:
        if r == 0:
            yield ax, ay
            continue
        for n in range(ANGLES):
            t = math.pi / 2 + 2 * math.pi * n / ANGLES  # down first, then round
            yield ax + r * math.cos(t), ay + r * math.sin(t) * 0.8


def _fits(pl: Placer, i: int, lab: Label) -> bool:
    """The label's centre and its marker inside its province (the label is inside the
    frame: _clamp). The board's label anchor is inside: `variant check --board` checks it."""
    shape = None
    if (lab.x, lab.y) != pl.anchors[i]:
        shape = pl.shapes[i]
        if not shape.contains((lab.x, lab.y)):
            return False
    if lab.side:
        inside = (shape or pl.shapes[i]).contains
        mx, my = marker_at(lab, pl.size)
        d = MARKER_R * 0.7
        return (inside((mx, my)) and inside((mx - d, my)) and inside((mx + d, my))
                and inside((mx, my - d)) and inside((mx, my + d)))
    return True


def _exact(pl: Placer, i: int, lab: Label) -> bool:
    """The label about to be taken: its marker's centre (or its own centre, away from the
    anchor) inside its province, exactly."""
    if lab.side:
        return pl.shapes[i].exactly_contains(marker_at(lab, pl.size))
    if lab.marker is not None or (lab.x, lab.y) == pl.anchors[i] or lab.leader:
        return True
    return pl.shapes[i].exactly_contains((lab.x, lab.y))


def _clamp(pl: Placer, lab: Label) -> Label:
    """The label moved sideways (and up or down) back inside the frame."""
    f = pl.frame
    (b, (mx, my)) = _offsets(lab.lines, lab.side, pl.size)
    x, y = lab.x, lab.y
    x0, y0, x1, y1 = x + b[0], y + b[1], x + b[2], y + b[3]
    if lab.side:  # (boxes_of, without making the list: this runs per candidate)
        mx, my = x + mx, y + my
    elif lab.marker is not None:
        mx, my = lab.marker
    if lab.side or lab.marker is not None:
        x0, y0 = min(x0, mx - MARKER_R), min(y0, my - MARKER_R)
        x1, y1 = max(x1, mx + MARKER_R), max(y1, my + MARKER_R)
    dx = (f[0] - x0 + 1 if x0 < f[0] else f[2] - x1 - 1 if x1 > f[2] else 0.0)
    dy = (f[1] - y0 + 1 if y0 < f[1] else f[3] - y1 - 1 if y1 > f[3] else 0.0)
    if not dx and not dy:
        return lab
    return Label(lab.x + dx, lab.y + dy, lab.lines, lab.side, lab.short, lab.marker,
                 lab.leader)


def _free(pl: Placer, i: int, lab: Label, grid: _Grid, units: list[Box]) -> bool:
    """The label meets no unit and no other label (a marker standing apart may touch
    one: _free_box)."""
    bs = boxes_of(lab, pl.size)
    if len(bs) > 1 and lab.marker is not None and _meet(bs[0], bs[1]):
        return False  # a marker apart keeps off its own name too
    for n, b in enumerate(bs):
        if n and lab.marker is not None:
            if not _free_box(b, i, grid, units):
                return False
            continue
        if grid.any_hit(b, skip=i):
            return False
        if any(_meet(b, u) for u in units):
            return False
    return True


def _all_candidates(pl: Placer, i: int) -> Iterator[Label]:
    """Every candidate label of province i, in order of preference: the full name (then
    the code) at each candidate centre, the marker on the left, then on the right; each
    kept inside the frame."""
    sides = (-1, 1) if pl.sc[i] else (0,)
    forms = [(pl.names[i][0], False)]
    if pl.names[i][1] != pl.names[i][0]:
        forms.append((pl.names[i][1], True))
    anchor = pl.anchors[i]
    shape = None
    for lines, short in forms:
        for x, y in _candidates(pl, i):
            if (x, y) != anchor:
                shape = shape or pl.shapes[i]
                if not shape.contains((x, y)):
                    continue  # (the cheap test first)
            for side in sides:
                yield _clamp(pl, Label(x, y, lines, side, short))


def _search(pl: Placer, i: int, grid: _Grid, units: list[Box]) -> Label | None:
    """The first candidate that fits and is free (meets no unit, no other label); failing
    that, for a supply center, the name (then its code) and its marker placed apart, each
    inside the province; failing that the code beside the province with a leader line to
    its marker, or to its label anchor."""
    around = _around(pl, i)
    near = [u for u in units if _meet(u, around)]
    for lab in pl.fits_of(i):
        if _free(pl, i, lab, grid, near) and _exact(pl, i, lab):
            return lab
    marks: list[Point | None] = [None]
    hidden = False  # the marker cannot keep off the units: drawn under them (boardsvg)
    if pl.sc[i]:
        apart = [mk for mk in pl.markers_of(i) if _free_box(_disc(mk), i, grid, near)][:6]
        marks = [*apart]
        for lab in pl.fits_of(i) if marks else ():
            if lab.side == 1:
                continue
            for mk in marks:
                cand = Label(lab.x, lab.y, lab.lines, 0, lab.short, mk)
                if _free(pl, i, cand, grid, near):
                    return cand
        if not marks:  # under a unit: where the unit hides least of it
            spots = pl.markers_of(i)
            best = min(spots, key=lambda p: (sum(_area(_disc(p), u) for u in near)
                                             + sum(_area(_disc(p), b) for _, b in
                                                   grid.hits(_disc(p), skip=i))),
                       default=pl.units[i])
            marks, hidden = [best], True
    # the code beside the province, a leader line to the marker (or the label anchor)
    code = pl.names[i][1]
    for x, y in _candidates(pl, i, LEADER_RADII):
        for mk in marks[:4]:
            cand = _clamp(pl, Label(x, y, code, 0, True, mk, mk or pl.anchors[i]))
            if hidden:
                tb = text_box(cand, pl.size)
                if (not grid.any_hit(tb, skip=i) and not any(_meet(tb, u) for u in near)
                        and not (mk and _meet(tb, _disc(mk)))):
                    return cand
            elif _free(pl, i, cand, grid, near):
                return cand
    return None


def _free_box(b: Box, i: int, grid: _Grid, units: list[Box]) -> bool:
    """A marker standing apart: off the units; it may touch another label by up to
    MARKER_TOUCH px (two markers side by side in small provinces)."""
    return not grid.any_hit(b, skip=i, pad=-MARKER_TOUCH) and not any(_meet(b, u)
                                                                      for u in units)


def _around(pl: Placer, i: int) -> Box:
    """The box every candidate of province i lies within."""
    ax, ay = pl.anchors[i]
    w = max(len(s) for s in pl.names[i][0]) * pl.size * CHAR_EM + 2 * (MARKER_GAP + MARKER_R)
    r = RADII[-1] + w + pl.size * 3
    return (ax - r, ay - r, ax + r, ay + r)


def _fallback(pl: Placer, i: int, grid: _Grid, units: list[Box]) -> Label:
    """No candidate is free: the one that fits and covers least (units count four times
    as much as names), a supply center's marker standing apart where it is free; the
    anchor, kept inside the frame, when none fits."""
    best: tuple[float, Label] | None = None
    around = _around(pl, i)
    near = [u for u in units if _meet(u, around)]
    mk: Point | None = None
    if pl.sc[i]:
        mk = next((p for p in pl.markers_of(i) if _free_box(_disc(p), i, grid, near)), None)

    def cost(lab: Label) -> float:
        bs = boxes_of(lab, pl.size)
        c = 2 * _area(bs[0], bs[1]) if lab.marker is not None and len(bs) > 1 else 0.0
        for b in bs:
            c += sum(_area(b, bb) for _, bb in grid.hits(b, skip=i))
            c += 4 * sum(_area(b, u) for u in near)
        return c

    tries = []
    for n, lab in enumerate(pl.fits_of(i)):
        if n >= FALLBACK_TRIES:
            break
        tries.append(lab)
        if mk is not None and lab.side == -1:
            tries.append(Label(lab.x, lab.y, lab.lines, 0, lab.short, mk))
    if mk is not None:
        tries += [_clamp(pl, Label(x, y, pl.names[i][1], 0, True, mk, mk))
                  for x, y in _candidates(pl, i, LEADER_RADII)]
    for lab in tries:
        c = cost(lab)
        if best is None or c < best[0]:
            best = (c, lab)
            if c == 0:
                break
    if best is not None:
        return best[1]
    ax, ay = pl.anchors[i]
    return _clamp(pl, Label(ax, ay, pl.names[i][0], -1 if pl.sc[i] else 0, False))


def unit_box(x: float, y: float, r: float) -> Box:
    """The box a unit's symbol covers (an army's circle, a fleet's hull and sail)."""
    return (x - r * 1.45 - 1, y - r * 1.45 - 1, x + r * 1.45 + 1, y + r + 1)


def make_room(pl: Placer, units: list[tuple[int, Point, str]], r: float
              ) -> dict[int, Point]:
    """Per picture: a unit alone in a supply center too small for its symbol (as drawn:
    `units` are (province, where, "army" | "fleet" | "other")) and the center's marker
    side by side is moved, as little as will do, to where both fit inside the province.
    Returns the new places by index in `units`."""
    count: dict[int, int] = {}
    for p, _xy, _s in units:
        count[p] = count.get(p, 0) + 1
    out: dict[int, Point] = {}
    for n, (p, xy, shape) in enumerate(units):
        if not pl.sc[p] or count[p] > 1:
            continue
        if _room_beside(pl.shapes[p], xy, r):
            continue
        spots = pl.markers_of(p)
        if not spots or any(not _meet(symbol_box(*xy, r, shape), _disc(s)) for s in spots):
            continue
        for c in _moves_within(pl.shapes[p], xy, r):
            if any(not _meet(symbol_box(*c, r, shape), _disc(s)) for s in spots):
                out[n] = c
                break
    _apart(pl, units, r, out)
    return out


def _apart(pl: Placer, units: list[tuple[int, Point, str]], r: float,
           out: dict[int, Point]) -> None:
    """Units of neighbouring provinces whose symbols touch (The Twentieth Century's
    Edinburgh army and Glasgow fleet): the later one, else the earlier, is moved within
    its province, as little as will do (UNIT_STEPS, 8 directions), to where its symbol
    keeps UNIT_GAP px off every other unit's, leaving its center's marker a place where
    it had one. `out` (the new places by index) is updated."""
    at = [out.get(n, xy) for n, (_p, xy, _s) in enumerate(units)]
    boxes = [symbol_box(*at[n], r, s) for n, (_p, _xy, s) in enumerate(units)]
    grid = _Grid()
    for n, b in enumerate(boxes):
        grid.add(n, b)
    for n in range(len(units)):
        # (units of one space are drawn in its slots: only another province's count)
        near = [j for j in _touching(grid, boxes[n], n) if units[j][0] != units[n][0]]
        if not near:
            continue
        for k in (max(near[0], n), min(near[0], n)):
            spot = _clear_within(pl, grid, units[k], at[k], r, k)
            if spot is not None:
                at[k] = out[k] = spot
                boxes[k] = symbol_box(*spot, r, units[k][2])
                grid.remove(k)
                grid.add(k, boxes[k])
                break


def _touching(grid: _Grid, b: Box, skip: int) -> list[int]:
    """The units whose symbol comes within UNIT_GAP px of box b (skip: b's own)."""
    g = UNIT_GAP
    return [k for k, bb in grid.hits((b[0] - g, b[1] - g, b[2] + g, b[3] + g), skip)
            if _meet(b, bb, g)]


def _clear_within(pl: Placer, grid: _Grid, unit: tuple[int, Point, str], xy: Point,
                  r: float, k: int) -> Point | None:
    """The nearest place for unit k inside its province, off the other units (`grid`)
    and leaving its center's marker a place (None: there is none)."""
    p, _xy, shape = unit
    spots = pl.markers_of(p) if pl.sc[p] else []
    for c in _moves_within(pl.shapes[p], xy, r):
        box = symbol_box(*c, r, shape)
        if not _touching(grid, box, k) and not (spots and all(_meet(box, _disc(s))
                                                              for s in spots)):
            return c
    return None


def _moves_within(room: _Shape, xy: Point, r: float) -> Iterator[Point]:
    """The places a unit drawn at xy may move to inside its province (`room`), nearest
    first (UNIT_STEPS, 8 directions, down first): its symbol's middle and the points
    0.9 unit radii round it inside."""
    d = r * 0.9
    for step in UNIT_STEPS:
        for k in range(8):
            t = math.pi / 2 + 2 * math.pi * k / 8
            c = (xy[0] + step * math.cos(t), xy[1] + step * math.sin(t))
            if all(room.contains(q) for q in (c, (c[0] - d, c[1]), (c[0] + d, c[1]),
                                              (c[0], c[1] - d), (c[0], c[1] + d))):
                yield c


def symbol_box(x: float, y: float, r: float, shape: str) -> Box:
    """The box of a unit's symbol as render.svg draws it: "army" (a circle), "fleet" (a
    hull and sail), else a diamond."""
    if shape == "army":
        return (x - r - 1, y - r - 1, x + r + 1, y + r + 1)
    if shape == "fleet":
        return unit_box(x, y, r)
    d = r * 1.2 + 1
    return (x - d, y - d, x + d, y + d)


UNIT_GAP = 3.0  # px kept between a unit's symbol moved off another (_apart, clear_spot) and it
CLEAR_RADII = (2.6, 3.1, 3.7, 4.4, 5.2)  # × the unit radius: where a dislodged unit may go
CLEAR_STEPS = 12  # ... in as many directions, its board place's first


def clear_spot(at: Point, around: Point, box_of: Callable[[Point], Box], taken: list[Box],
               r: float, inside: Callable[[Point], Point]) -> Point:
    """Where a dislodged unit is drawn: its board place `at` when its symbol (`box_of`)
    keeps UNIT_GAP px off every symbol drawn (`taken`); else a clear spot on circles round
    `around` (the place of its location's unit): in the direction of `at`, further out,
    then turning either way, each spot first kept on the board by `inside`. Where
    nothing is clear, `at` (a crowded board draws them close)."""

    def clear(p: Point) -> bool:
        b = box_of(p)
        return not any(_meet(b, t, UNIT_GAP) for t in taken)

    if clear(at):
        return at
    base = math.atan2(at[1] - around[1], at[0] - around[0]) if at != around else -math.pi / 4
    step = 2 * math.pi / CLEAR_STEPS
    turns = [0] + [k * sign for k in range(1, CLEAR_STEPS // 2 + 1) for sign in (1, -1)]
    for k in turns[:CLEAR_STEPS]:  # (further out the same way before turning)
        for radius in CLEAR_RADII:
            a = base + k * step
            p = inside((around[0] + radius * r * math.cos(a),
                        around[1] + radius * r * math.sin(a)))
            if clear(p):
                return p
    return at


def place_labels(pl: Placer, boxes: list[Box]) -> list[Label]:
    """Per picture: the labels, each moved off the unit symbols and the orders' lines
    (`boxes`) it would cover."""
    ugrid = _Grid()
    for n, b in enumerate(boxes):
        ugrid.add(n, b)
    out = list(pl.base)
    moving = [i for i, lab in enumerate(out)
              if any(ugrid.any_hit(b) for b in boxes_of(lab, pl.size))]
    if not moving:
        return out
    grid = _Grid()
    for i, lab in enumerate(out):
        for b in boxes_of(lab, pl.size):
            grid.add(i, b)
    for i in moving:
        grid.remove(i)
        near = [b for _n, b in ugrid.hits(_around(pl, i))]
        lab = _search(pl, i, grid, near) or _fallback(pl, i, grid, near)
        out[i] = lab
        for b in boxes_of(lab, pl.size):
            grid.add(i, b)
    return out
