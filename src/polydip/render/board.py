"""A variant's board: its provinces drawn on real geography, read from a compact file.

A board file (`NAME.board.json` beside the variant file `NAME.toml`) is written once by the
generator in `tools/boards/` and read here with no geometry library. It holds:

- `arcs`: every border between two faces, once, as integer coordinates in units of
  `quantum` pixels, delta-encoded (`x0, y0, dx1, dy1, ...`) and written as text with the
  polyline algorithm (each integer zigzag-encoded, in 5-bit groups, lowest first, each
  group + 63 as one character, 0x20 marking that another group follows);
- `regions`: per province (and `neutral` for land and water that is no province), its
  faces: `land` and `water` rings, each ring a list of arc references (`i` walks arc i
  forward, `~i` = -i-1 backward), the face on the left of the walk (y down);
- `anchors`: per province, where its label, its unit, a dislodged unit and a fleet on each
  named coast are drawn (board pixels), and `short_label` where the full name would cover a
  unit wherever it went (the abbreviation is drawn instead);
- `insets`: boxes of geography moved nearer the rest (Hawaii), drawn with a frame;
- `boxes`: outlines (closed lists of points) of off-map spaces (Cape Horn) drawn as a
  framed box, not where they lie;
- `land`: provinces drawn on land although no army may stand there (impassable land);
- anchors' `slots`: where more units stand in a space with no stacking limit;
- `connectors`: adjacent pairs that do not touch on the board (a canal, an island's land
  edge), each with the line that shows it; `no_passage`: touching pairs that are not adjacent;
- `names`: names of geography inside a province that its rules or notes use (Lake Ontario,
  part of War in North America's Gulf of St. Lawrence), each `{"province", "text", "at"}`.

See docs/boards.md for the format and how boards are generated.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from polydip.errors import PolydipError

if TYPE_CHECKING:
    from polydip.variants.model import Variant

FORMAT = "polydip-board 1"
Point = tuple[float, float]
Ring = list[int]


def province_on_land(v: Variant, abbr: str, board: Board | None = None) -> bool:
    """A province is drawn as land when a unit kind that is not coastal (an army) may stand
    there, or when the board draws it on land although no unit may enter it (impassable
    land); otherwise it is water."""
    if board is not None and abbr in board.land:
        return True
    occ = v.terrains[v.provinces[abbr].terrain].occupy
    return any(not v.unit_kinds[k].coastal for k in occ if k in v.unit_kinds)


def impassable(v: Variant, abbr: str) -> bool:
    """No unit may enter the province (Greenland, the Arctic Ocean)."""
    return not v.terrains[v.provinces[abbr].terrain].occupy


@dataclass(slots=True)
class Board:
    variant: str
    width: float
    height: float
    arcs: list[list[Point]]
    regions: dict[str, dict[str, list[Ring]]]  # name ("" = neutral) → surface → rings
    anchors: dict[str, dict]
    connectors: list[tuple[str, str, tuple[float, float, float, float]]]
    no_passage: set[tuple[str, str]]
    unit_radius: float
    projection: dict = field(default_factory=dict)
    insets: list[tuple[float, float, float, float]] = field(default_factory=list)
    boxes: list[list[Point]] = field(default_factory=list)
    land: set[str] = field(default_factory=set)  # impassable provinces drawn on land
    # names of geography within a province that a variant's rules or notes use (a lake
    # that is part of a sea): (province, text, x, y), the name centred on (x, y)
    names: list[tuple[str, str, float, float]] = field(default_factory=list)
    size: int = 0  # bytes of the file
    _faces: list[tuple[tuple[str, str] | None, tuple[str, str] | None]] | None = None
    _sides: list[tuple[str | None, str | None]] | None = None

    def ring_points(self, ring: Ring) -> list[Point]:
        pts: list[Point] = []
        for ref in ring:
            arc = self.arcs[ref] if ref >= 0 else self.arcs[~ref][::-1]
            pts.extend(arc[1:] if pts else arc)
        return pts

    def rings(self, name: str, surface: str | None = None) -> list[Ring]:
        faces = self.regions.get(name, {})
        if surface is not None:
            return faces.get(surface, [])
        return [r for s in ("land", "water") for r in faces.get(s, [])]

    def arc_faces(self) -> list[tuple[tuple[str, str] | None, tuple[str, str] | None]]:
        """Per arc: the face (region, surface) on its left and on its right (None: outside
        the frame)."""
        if self._faces is None:
            left: list[tuple[str, str] | None] = [None] * len(self.arcs)
            right: list[tuple[str, str] | None] = [None] * len(self.arcs)
            for name, faces in self.regions.items():
                for surface, rings in faces.items():
                    for ring in rings:
                        for ref in ring:
                            if ref >= 0:
                                left[ref] = (name, surface)
                            else:
                                right[~ref] = (name, surface)
            self._faces = list(zip(left, right, strict=True))
        return self._faces

    def arc_sides(self) -> list[tuple[str | None, str | None]]:
        """Per arc: the region on its left and on its right (None: outside the frame)."""
        if self._sides is None:
            self._sides = [(a[0] if a else None, b[0] if b else None)
                           for a, b in self.arc_faces()]
        return self._sides


def board_path(v: Variant) -> Path | None:
    """Where the board of variant `v` is, if it has one."""
    path = v.path or ""
    if path.startswith("<built-in "):
        res = resources.files("polydip.variants") / "data" / f"{v.name}.board.json"
        return Path(str(res)) if res.is_file() else None
    if path and not path.startswith("<"):
        p = Path(path)
        cand = p.with_name(p.name.rsplit(".", 1)[0] + ".board.json")
        return cand if cand.is_file() else None
    return None


_CACHE: dict[tuple[str, int, int], Board] = {}


def load_board(v: Variant, path: Path | None = None) -> Board | None:
    """The board of variant `v` (None when it has none); read once per file version."""
    path = path or board_path(v)
    if path is None:
        return None
    try:
        st = path.stat()
    except OSError:
        return None
    key = (str(path), st.st_mtime_ns, st.st_size)
    b = _CACHE.get(key)
    if b is None:
        b = read_board(path)
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = b
    return b


def remember_board(path: Path, b: Board) -> None:
    """Keep board `b` as load_board's answer for `path` as it is now (render.memo: a board
    read back from the memo's file, which holds it whole)."""
    try:
        st = path.stat()
    except OSError:
        return
    if len(_CACHE) > 16:
        _CACHE.clear()
    _CACHE[(str(path), st.st_mtime_ns, st.st_size)] = b


def read_board(path: Path) -> Board:
    try:
        raw = path.read_bytes()
        data = json.loads(raw)
    except (OSError, ValueError) as exc:
        raise PolydipError(f"{path}: cannot read the board: {exc}") from exc
    try:
        return decode_board(data, len(raw))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise PolydipError(f"{path}: not a valid board file ({exc.__class__.__name__}: "
                           f"{exc})") from exc


def _four(numbers: list[float]) -> tuple[float, float, float, float]:
    """A line (x0, y0, x1, y1) or a box (x0, y0, x1, y1) of the file, as four floats."""
    a, b, c, d = (float(x) for x in numbers)
    return a, b, c, d


def decode_board(data: dict, size: int = 0) -> Board:
    if data.get("format") != FORMAT:
        raise ValueError(f"format {data.get('format')!r}, expected {FORMAT!r}")
    q = float(data["quantum"])
    arcs: list[list[Point]] = []
    for enc in data["arcs"]:
        nums = decode_ints(enc)
        x = y = 0
        pts: list[Point] = []
        for k in range(0, len(nums) - 1, 2):
            x += nums[k]
            y += nums[k + 1]
            pts.append((x * q, y * q))
        if len(pts) < 2:
            raise ValueError("an arc has fewer than two points")
        arcs.append(pts)
    n = len(arcs)
    regions: dict[str, dict[str, list[Ring]]] = {}
    for name, faces in data["regions"].items():
        regions[name] = {}
        for surface, rings in faces.items():
            if surface not in ("land", "water"):
                raise ValueError(f"region {name}: unknown surface {surface!r}")
            for ring in rings:
                for ref in ring:
                    if not -n <= ref < n:
                        raise ValueError(f"region {name}: no arc {ref}")
            regions[name][surface] = [list(r) for r in rings]
    connectors = [(a, b, _four(line)) for a, b, line in data["connectors"]]
    return Board(
        variant=data["variant"], width=float(data["width"]), height=float(data["height"]),
        arcs=arcs, regions=regions, anchors=data["anchors"], connectors=connectors,
        no_passage={(min(a, b), max(a, b)) for a, b in data.get("no_passage", [])},
        unit_radius=float(data.get("unit_radius", 10)), projection=data.get("projection", {}),
        insets=[_four(box) for box in data.get("insets", [])],
        boxes=[[(float(x), float(y)) for x, y in box] for box in data.get("boxes", [])],
        land=set(data.get("land", [])), size=size,
        names=[(str(n["province"]), str(n["text"]), float(n["at"][0]), float(n["at"][1]))
               for n in data.get("names", [])])


def encode_ints(nums: list[int]) -> str:
    """Integers as text, the polyline algorithm's way (see the module docstring)."""
    out = []
    for v in nums:
        v = ~(v << 1) if v < 0 else v << 1
        while v >= 0x20:
            out.append(chr((0x20 | (v & 0x1F)) + 63))
            v >>= 5
        out.append(chr(v + 63))
    return "".join(out)


def decode_ints(text: str) -> list[int]:
    nums = []
    v = shift = 0
    for ch in text:
        b = ord(ch) - 63
        if not 0 <= b < 64:
            raise ValueError(f"bad character {ch!r} in an arc")
        v |= (b & 0x1F) << shift
        if b & 0x20:
            shift += 5
            continue
        nums.append(~(v >> 1) if v & 1 else v >> 1)
        v = shift = 0
    if shift:
        raise ValueError("an arc ends in the middle of a number")
    return nums


# ---- geometry, pure Python -------------------------------------------------------------------

def polyline_length(pts: list[Point]) -> float:
    return sum(math.dist(pts[k], pts[k + 1]) for k in range(len(pts) - 1))


def signed_area(pts: list[Point]) -> float:
    """Shoelace area; positive for a ring with its inside on the left when y points down."""
    s = 0.0
    for k in range(len(pts) - 1):
        (x0, y0), (x1, y1) = pts[k], pts[k + 1]
        s += x0 * y1 - x1 * y0
    return -s / 2


def region_area(board: Board, name: str) -> float:
    return sum(signed_area(board.ring_points(r)) for r in board.rings(name))


def point_in_region(board: Board, name: str, pt: Point) -> bool:
    """Even-odd rule over all the region's rings (its faces tile it without overlap)."""
    x, y = pt
    inside = False
    for ring in board.rings(name):
        pts = board.ring_points(ring)
        for k in range(len(pts) - 1):
            (x0, y0), (x1, y1) = pts[k], pts[k + 1]
            if (y0 > y) != (y1 > y):
                xc = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
                if xc > x:
                    inside = not inside
    return inside


def _seg_dist(p: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n2 = dx * dx + dy * dy
    t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def clearance(board: Board, name: str, pt: Point) -> float:
    """Distance from `pt` to the region's outline: its border with other regions and the
    frame (borders between its own land and water do not count); negative outside."""
    sides = board.arc_sides()
    best = math.inf
    for ring in board.rings(name):
        for ref in ring:
            i = ref if ref >= 0 else ~ref
            if sides[i][0] == sides[i][1]:
                continue  # its own coast (a lake, an island's halo)
            arc = board.arcs[i]
            for k in range(len(arc) - 1):
                d = _seg_dist(pt, arc[k], arc[k + 1])
                if d < best:
                    best = d
    return best if point_in_region(board, name, pt) else -best


def touch_lengths(board: Board) -> dict[tuple[str, str], float]:
    """Pairs of regions (names sorted) → the length of border they share, in pixels. On a
    board that wraps (the left and right edges are one meridian), what faces across that
    seam touches too."""
    out: dict[tuple[str, str], float] = {}
    sides = board.arc_sides()
    for i, (a, b) in enumerate(sides):
        if a is None or b is None or a == b:
            continue
        key = (a, b) if a < b else (b, a)
        out[key] = out.get(key, 0.0) + polyline_length(board.arcs[i])
    if board.projection.get("wrap"):
        for (a, b), length in _seam_touches(board, sides).items():
            key = (a, b) if a < b else (b, a)
            out[key] = out.get(key, 0.0) + length
    return out


def seam_runs(board: Board) -> list[tuple[str, str, float, float]]:
    """On a board that wraps, what lies along its left and right edges (the seam, one
    meridian): (region, "left" | "right", y0, y1) for each stretch of one region, top to
    bottom; [] on a flat board. An arc may run along an edge and turn a corner: only its
    segments on the edge count."""
    if not board.projection.get("wrap"):
        return []
    out: list[tuple[str, str, float, float]] = []
    sides = board.arc_sides()
    for side, x in (("left", 0.0), ("right", board.width)):
        pieces = []
        for i, (a, b) in enumerate(sides):
            region = a if b is None else b if a is None else None
            if region is None:
                continue
            arc = board.arcs[i]
            for (x0, y0), (x1, y1) in itertools.pairwise(arc):
                if x0 == x and x1 == x and y0 != y1:
                    pieces.append((min(y0, y1), max(y0, y1), region))
        pieces.sort()
        for y0, y1, region in pieces:
            if out and out[-1][0] == region and out[-1][1] == side and out[-1][3] >= y0:
                out[-1] = (region, side, out[-1][2], max(out[-1][3], y1))
            else:
                out.append((region, side, y0, y1))
    return out


def _seam_touches(board: Board, sides: list[tuple[str | None, str | None]]
                  ) -> dict[tuple[str, str], float]:
    """Overlaps of what lies on the left edge with what lies on the right edge."""
    runs = seam_runs(board)
    out: dict[tuple[str, str], float] = {}
    for a, side_a, y0, y1 in runs:
        if side_a != "left":
            continue
        for b, side_b, v0, v1 in runs:
            if side_b != "right":
                continue
            overlap = min(y1, v1) - max(y0, v0)
            if overlap > 0 and a != b:
                out[(a, b)] = out.get((a, b), 0.0) + overlap
    return out


def crossing_arcs(arcs: list[list[Point]], cell: float = 16.0) -> list[tuple[int, int]]:
    """Pairs of arcs whose segments cross or overlap anywhere but at shared arc ends (a
    segment grid keeps this near-linear)."""
    buckets: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for i, arc in enumerate(arcs):
        for k in range(len(arc) - 1):
            (x0, y0), (x1, y1) = arc[k], arc[k + 1]
            for gx in range(int(min(x0, x1) // cell), int(max(x0, x1) // cell) + 1):
                for gy in range(int(min(y0, y1) // cell), int(max(y0, y1) // cell) + 1):
                    buckets.setdefault((gx, gy), []).append((i, k))
    bad: set[tuple[int, int]] = set()
    seen: set[tuple[int, int, int, int]] = set()
    for segs in buckets.values():
        for m in range(len(segs)):
            i, k = segs[m]
            for n in range(m + 1, len(segs)):
                j, m2 = segs[n]
                key = (i, k, j, m2)
                if key in seen:
                    continue
                seen.add(key)
                if i == j and abs(k - m2) <= 1:
                    continue
                if _segments_meet(arcs, i, k, j, m2):
                    bad.add((min(i, j), max(i, j)))
    return sorted(bad)


def _segments_meet(arcs: list[list[Point]], i: int, k: int, j: int, m: int) -> bool:
    a, b = arcs[i][k], arcs[i][k + 1]
    c, d = arcs[j][m], arcs[j][m + 1]
    shared = {a, b} & {c, d}
    if shared:
        # segments meeting at an end point are fine only where arcs are meant to meet:
        # at arc ends, or consecutive segments of one arc (a closed loop's seam)
        p = next(iter(shared))
        ends_i = (k == 0 and p == a) or (k == len(arcs[i]) - 2 and p == b)
        ends_j = (m == 0 and p == c) or (m == len(arcs[j]) - 2 and p == d)
        if i == j and {k, m} == {0, len(arcs[i]) - 2}:
            return _collinear_overlap(a, b, c, d)
        if ends_i and ends_j:
            return _collinear_overlap(a, b, c, d)
        return True
    return _proper_cross(a, b, c, d)


def _orient(a: Point, b: Point, c: Point) -> float:
    return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])


def _proper_cross(a: Point, b: Point, c: Point, d: Point) -> bool:
    o1, o2 = _orient(a, b, c), _orient(a, b, d)
    o3, o4 = _orient(c, d, a), _orient(c, d, b)
    if ((o1 > 0) != (o2 > 0) and o1 != 0 and o2 != 0
            and (o3 > 0) != (o4 > 0) and o3 != 0 and o4 != 0):
        return True
    # touching or collinear: a point of one segment on the other
    return any(o == 0 and _on_segment(p, q, r) for o, p, q, r in
               ((o1, a, b, c), (o2, a, b, d), (o3, c, d, a), (o4, c, d, b)))


def _on_segment(p: Point, q: Point, r: Point) -> bool:
    return (min(p[0], q[0]) <= r[0] <= max(p[0], q[0])
            and min(p[1], q[1]) <= r[1] <= max(p[1], q[1]))


def _collinear_overlap(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Two segments sharing an end point overlap along a stretch (fold back)."""
    if _orient(a, b, c) != 0 or _orient(a, b, d) != 0:
        return False
    shared = ({a, b} & {c, d}).pop()
    u = b if a == shared else a
    w = d if c == shared else c
    return (u[0] - shared[0]) * (w[0] - shared[0]) + (u[1] - shared[1]) * (w[1] - shared[1]) > 0
