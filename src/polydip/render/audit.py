"""How legible a picture is, measured from the SVG polydip drew (issue 29).

`audit_svg(svg)` reads a picture's SVG text and counts what hides what a player needs:

- `units_covered`: unit symbols more than a quarter of whose box lies under province names
  or supply center markers drawn over them (later in the SVG);
- `markers_on_units`: center markers drawn over a unit symbol, their box meeting the
  symbol's box by more than `TOUCH` px each way (a marker drawn under a unit, peeking out
  beside it, hides nothing);
- `units_touching`, `dislodged_touching`: unit symbols, and dislodged units' symbols,
  whose box comes within `GAP` px of another unit symbol's box (their outlines, drawn 2 px
  wide, would touch: a dislodged army pressed against the fleet that took its place);
- `markers_outside`: center markers whose centre is not inside their own province
  (`data-center`), `units_outside`: units (not dislodged ones) drawn outside their own;
- `label_overlaps`: province names (and the names at a seam) whose box meets another's;
- `clipped`: names, markers and units reaching past the board's frame (the box of all the
  provinces' outlines);
- `orders_covered`: orders whose line (a move's or retreat's shaft, a support's or convoy's
  link) lies more than `COVERED` of its length under province names or center markers
  (short moves between neighbours vanished under names);
- `seam_long`: on a board that wraps (it has a `seam` group), order lines drawn across
  the map rather than the short way through the seam: a move's spanning more than half
  the board's width, a support's or convoy's more than a quarter (they join neighbours).

Text boxes are estimated, as the renderer does, from the font size: a character is
`CHAR_EM` (0.62) em wide (DejaVu Sans Bold's advance widths average about that for names),
the box from 0.75 em above the baseline to 0.22 em below. The picture is read with the
standard library's XML parser; nothing is drawn.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from polydip.errors import PolydipError

if TYPE_CHECKING:
    from polydip.variants.model import Variant

NS = "{http://www.w3.org/2000/svg}"
CHAR_EM = 0.62
ASCENT, DESCENT = 0.75, 0.22
COVERED = 0.25  # a unit is covered when more than this share of its box is under names
TOUCH = 2.0  # px: boxes meeting by less than this each way do not count as overlapping
GAP = 2.0  # px: the least room between two unit symbols' boxes (shapes, outlines left out)
Box = tuple[float, float, float, float]


@dataclass(slots=True)
class Audit:
    units: int = 0
    units_covered: list[str] = field(default_factory=list)
    units_outside: list[str] = field(default_factory=list)
    units_touching: list[str] = field(default_factory=list)  # one entry per unit involved
    dislodged_touching: list[str] = field(default_factory=list)
    markers: int = 0
    markers_on_units: list[str] = field(default_factory=list)
    markers_outside: list[str] = field(default_factory=list)
    labels: int = 0
    label_overlaps: list[str] = field(default_factory=list)  # one entry per label involved
    clipped: list[str] = field(default_factory=list)
    seam_long: list[str] = field(default_factory=list)
    orders: int = 0  # orders drawn with a line
    orders_covered: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        return {"units": self.units, "units covered": len(self.units_covered),
                "units outside": len(self.units_outside),
                "units touching": len(self.units_touching),
                "dislodged touching": len(self.dislodged_touching), "markers": self.markers,
                "markers on units": len(self.markers_on_units),
                "markers outside": len(self.markers_outside), "labels": self.labels,
                "label overlaps": len(self.label_overlaps), "clipped": len(self.clipped),
                "seam lines drawn long": len(self.seam_long), "orders": self.orders,
                "orders covered": len(self.orders_covered)}

    def line(self) -> str:
        c = self.counts()
        return (f"units covered {c['units covered']}/{c['units']}, markers on units "
                f"{c['markers on units']}, markers outside {c['markers outside']}/"
                f"{c['markers']}, units outside {c['units outside']}, units touching "
                f"{c['units touching']}, dislodged touching {c['dislodged touching']}, "
                f"label overlaps "
                f"{c['label overlaps']}/{c['labels']}, clipped {c['clipped']}, seam lines "
                f"drawn long {c['seam lines drawn long']}, orders covered "
                f"{c['orders covered']}/{c['orders']}")


def text_box(x: float, y: float, size: float, anchor: str, text: str) -> Box:
    """The box a text drawn at (x, y) covers, estimated as the module docstring says."""
    w = len(text) * size * CHAR_EM
    x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
    return (x0, y - size * ASCENT, x0 + w, y + size * DESCENT)


def overlap(a: Box, b: Box) -> tuple[float, float]:
    return (min(a[2], b[2]) - max(a[0], b[0]), min(a[3], b[3]) - max(a[1], b[1]))


def _meets(a: Box, b: Box) -> bool:
    dx, dy = overlap(a, b)
    return dx > TOUCH and dy > TOUCH


def _area(a: Box, b: Box) -> float:
    dx, dy = overlap(a, b)
    return dx * dy if dx > 0 and dy > 0 else 0.0


_NUM = re.compile(r"-?\d+(?:\.\d+)?(?:e-?\d+)?")


def path_rings(d: str) -> list[list[tuple[float, float]]]:
    """The rings of a province's path (M x y x y ... Z, as polydip writes them)."""
    rings = []
    for part in d.split("M")[1:]:
        nums = [float(v) for v in _NUM.findall(part)]
        rings.append(list(zip(nums[0::2], nums[1::2], strict=False)))
    return rings


def inside(pt: tuple[float, float], rings: list[list[tuple[float, float]]]) -> bool:
    x, y = pt
    ins = False
    for ring in rings:
        n = len(ring)
        for k in range(n):
            (x0, y0), (x1, y1) = ring[k], ring[(k + 1) % n]
            if (y0 > y) != (y1 > y) and x0 + (y - y0) * (x1 - x0) / (y1 - y0) > x:
                ins = not ins
    return ins


def _shape_box(g: ET.Element) -> Box | None:
    """The box of a unit's or marker's filled shapes (an outline ring with no fill, such as
    a dislodged unit's, does not count)."""
    xs: list[float] = []
    ys: list[float] = []
    for el in g.iter():
        tag = el.tag.replace(NS, "")
        if el.get("fill") == "none":
            continue
        if tag == "circle":
            cx, cy, r = float(el.get("cx", 0)), float(el.get("cy", 0)), float(el.get("r", 0))
            xs += [cx - r, cx + r]
            ys += [cy - r, cy + r]
        elif tag == "polygon":
            nums = [float(v) for v in _NUM.findall(el.get("points", ""))]
            xs += nums[0::2]
            ys += nums[1::2]
    if not xs:
        return None
    return (min(xs), min(ys), max(xs), max(ys))


def _classes(el: ET.Element) -> set[str]:
    return set((el.get("class") or "").split())


def audit_svg(svg: str) -> Audit:
    """The figures of a picture (see the module docstring)."""
    try:
        root = ET.fromstring(svg)
    except ET.ParseError as exc:
        raise PolydipError(f"not an SVG picture polydip can read: {exc}") from exc
    out = Audit()
    provinces, frame = _board_outline(root)
    # what is drawn later is drawn over: each element's place in the document
    place = {id(el): n for n, el in enumerate(root.iter())}
    names, markers, wraps = _names_and_markers(root, place)
    units = _units(root, place)
    out.units, out.markers, out.labels = len(units), len(markers), len(names)
    over = [(b, n) for _, b, n in names] + [(b, n) for _, b, _, n in markers]
    _check_units(out, units, over, provinces, frame)
    _check_touching(out, units)
    _check_markers(out, markers, units, provinces, frame)
    _check_names(out, names, frame)
    _check_orders(out, root, place, over)
    if wraps:
        _check_seam(out, root, frame[2] - frame[0])
    return out


Rings = list[list[tuple[float, float]]]
# a unit: its name, box, whether dislodged, the point it is drawn at, its place in the document
_Unit = tuple[str, Box, bool, tuple[float, float] | None, int]


def _board_outline(root: ET.Element) -> tuple[dict[str, Rings], Box]:
    """The rings of each province drawn, and the frame of the whole board."""
    provinces: dict[str, Rings] = {}
    xs: list[float] = []
    ys: list[float] = []
    for el in root.iter(NS + "path"):
        cls = _classes(el)
        if "province" in cls or ("neutral" in cls and "land" in cls) or (
                "neutral" in cls and "water" in cls):
            rings = path_rings(el.get("d", ""))
            if "province" in cls and el.get("data-province"):
                provinces[el.get("data-province", "")] = rings
            for ring in rings:
                xs += [p[0] for p in ring]
                ys += [p[1] for p in ring]
    if not provinces:
        raise PolydipError("the picture has no provinces drawn on a board (data-province)")
    return provinces, (min(xs), min(ys), max(xs), max(ys))


def _clipped(b: Box, frame: Box) -> bool:
    return (b[0] < frame[0] - 0.5 or b[1] < frame[1] - 0.5 or b[2] > frame[2] + 0.5
            or b[3] > frame[3] + 0.5)


def _names_and_markers(root: ET.Element, place: dict[int, int]) -> tuple[
        list[tuple[str, Box, int]], list[tuple[str, Box, tuple[float, float], int]], bool]:
    """The names (in the labels group and at the seam; halo copies, stroked, are skipped)
    and the supply-centre markers, each with its place; and whether the board wraps."""
    names: list[tuple[str, Box, int]] = []
    markers: list[tuple[str, Box, tuple[float, float], int]] = []
    wraps = False
    for g in root.iter(NS + "g"):
        cls = _classes(g)
        if "seam" in cls:
            wraps = True
        if "labels" in cls or "seam" in cls:
            for t in g.iter(NS + "text"):
                if t.get("stroke") or not (t.text or "").strip():
                    continue
                box = text_box(float(t.get("x", 0)), float(t.get("y", 0)),
                               float(t.get("font-size", 12)), t.get("text-anchor", "start"),
                               t.text or "")
                names.append((t.text or "", box, place[id(t)]))
        if "center" in cls and g.get("data-center"):
            shape = _shape_box(g)
            if shape:
                markers.append((g.get("data-center", ""), shape,
                                ((shape[0] + shape[2]) / 2, (shape[1] + shape[3]) / 2),
                                place[id(g)]))
    return names, markers, wraps


def _units(root: ET.Element, place: dict[int, int]) -> list[_Unit]:
    units: list[_Unit] = []
    for g in root.iter(NS + "g"):
        cls = _classes(g)
        if "unit" in cls and g.get("data-unit"):
            shape = _shape_box(g)
            if shape:
                xy = g.get("data-at", "").split(",")
                units.append((g.get("data-unit", ""), shape, "dislodged" in cls,
                              (float(xy[0]), float(xy[1])) if len(xy) == 2 else None,
                              place[id(g)]))
    return units


def _check_units(out: Audit, units: list[_Unit], over: list[tuple[Box, int]],
                 provinces: dict[str, Rings], frame: Box) -> None:
    for unit, box, dislodged, g_at, u_at in units:
        ua = (box[2] - box[0]) * (box[3] - box[1]) or 1.0
        covered = sum(_area(box, b) for b, n in over if n > u_at)
        if covered > COVERED * ua:
            out.units_covered.append(unit)
        if _clipped(box, frame):
            out.clipped.append(unit)
        if not dislodged:
            prov = unit.split()[-1].split("/")[0]
            middle = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
            if prov in provinces and not inside(g_at or middle, provinces[prov]):
                out.units_outside.append(unit)


def _check_touching(out: Audit, units: list[_Unit]) -> None:
    for i, (unit, box, dislodged, _, _) in enumerate(units):
        if any(j != i and min(overlap(box, other[1])) > -GAP for j, other in enumerate(units)):
            (out.dislodged_touching if dislodged else out.units_touching).append(unit)


def _check_markers(out: Audit, markers: list[tuple[str, Box, tuple[float, float], int]],
                   units: list[_Unit], provinces: dict[str, Rings], frame: Box) -> None:
    for abbr, box, centre, m_at in markers:
        if any(_meets(box, ub) and m_at > u_at for _, ub, _, _, u_at in units):
            out.markers_on_units.append(abbr)
        if abbr in provinces and not inside(centre, provinces[abbr]):
            out.markers_outside.append(abbr)
        if _clipped(box, frame):
            out.clipped.append(f"center {abbr}")


def _check_names(out: Audit, names: list[tuple[str, Box, int]], frame: Box) -> None:
    for i, (text, box, _) in enumerate(names):
        if any(j != i and _meets(box, other) for j, (_, other, _) in enumerate(names)):
            out.label_overlaps.append(text)
        if _clipped(box, frame):
            out.clipped.append(text)


def _check_orders(out: Audit, root: ET.Element, place: dict[int, int],
                  over: list[tuple[Box, int]]) -> None:
    """Count the orders drawn with a line, and those mostly hidden under what is drawn
    after them."""
    for g in root.iter(NS + "g"):
        if "order" not in _classes(g):
            continue
        pts = _order_line(g)
        if not pts:
            continue
        out.orders += 1
        o_at = place[id(g)]
        later = [b for b, n in over if n > o_at]
        hidden = sum(1 for p in pts if any(b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3]
                                           for b in later))
        if hidden > COVERED * len(pts):
            out.orders_covered.append(g.get("data-order", ""))


def _check_seam(out: Audit, root: ET.Element, width: float) -> None:
    """On a board that wraps: the orders drawn the long way round instead of across the seam."""
    for g in root.iter(NS + "g"):
        cls = _classes(g)
        if "order" not in cls:
            continue
        # a support or convoy joins neighbours: a quarter of the board is already
        # across it; a move (by convoy) may be long, but not over half the board
        limit = width / 4 if cls & {"support", "convoy"} else width / 2
        for el in g.iter():
            span = _span(el)
            if span > limit:
                out.seam_long.append(g.get("data-order", ""))
                break


def _order_line(g: ET.Element) -> list[tuple[float, float]]:
    """Points every 2 px along an order's line as drawn: its `line` elements and its
    paths (M x y Q cx cy x y: a move's shaft), each once (a build's or disband's badge is
    no line)."""
    out: list[tuple[float, float]] = []
    seen = set()
    badges = {id(el) for b in g.iter(NS + "g") if "badge" in _classes(b) for el in b.iter()}
    for el in g.iter():
        if id(el) in badges:
            continue
        tag = el.tag.replace(NS, "")
        if tag == "line":
            p0 = (float(el.get("x1", 0)), float(el.get("y1", 0)))
            p2 = (float(el.get("x2", 0)), float(el.get("y2", 0)))
            p1 = ((p0[0] + p2[0]) / 2, (p0[1] + p2[1]) / 2)
        elif tag == "path" and "Q" in el.get("d", ""):
            nums = [float(v) for v in _NUM.findall(el.get("d", ""))]
            if len(nums) != 6:
                continue
            p0, p1, p2 = (nums[0], nums[1]), (nums[2], nums[3]), (nums[4], nums[5])
        else:
            continue
        if (p0, p1, p2) in seen:
            continue
        seen.add((p0, p1, p2))
        length = abs(p2[0] - p0[0]) + abs(p2[1] - p0[1])
        n = max(2, int(length / 2))
        for k in range(n + 1):
            t = k / n
            a, b, c = (1 - t) ** 2, 2 * t * (1 - t), t * t
            out.append((a * p0[0] + b * p1[0] + c * p2[0], a * p0[1] + b * p1[1] + c * p2[1]))
    return out


def _span(el: ET.Element) -> float:
    """How wide a line or path of an order spans."""
    tag = el.tag.replace(NS, "")
    if tag == "line":
        return abs(float(el.get("x2", 0)) - float(el.get("x1", 0)))
    if tag == "path":
        nums = [float(v) for v in _NUM.findall(el.get("d", ""))]
        xs = nums[0::2]
        return max(xs) - min(xs) if xs else 0.0
    return 0.0


MAX_OVERLAP_SHARE = 0.02  # of the labels may meet another label
# of the units may touch another (two provinces too small to draw theirs apart: Taiwan's
# fleet and Fuchan's army); a dislodged unit never
MAX_TOUCHING_SHARE = 0.03


def targets_missed(a: Audit) -> list[str]:
    """What a picture misses of issue 29's targets: no unit covered, no marker on a unit,
    no dislodged unit drawn on another unit and at most 3% of the units touching another,
    markers and units inside their own province, at most 2% of labels overlapping, nothing
    clipped, no order line drawn the long way across a seam, no order's line under names."""
    out = []
    for what, items in (("units covered by names or markers", a.units_covered),
                        ("center markers on units", a.markers_on_units),
                        ("center markers outside their province", a.markers_outside),
                        ("units outside their province", a.units_outside),
                        ("dislodged units drawn on another unit", a.dislodged_touching),
                        ("items clipped at the board's edge", a.clipped),
                        ("order lines drawn across the map at the seam", a.seam_long),
                        ("orders covered by names or markers", a.orders_covered)):
        if items:
            out.append(f"{len(items)} {what}: {', '.join(items[:6])}"
                       f"{'...' if len(items) > 6 else ''}")
    if len(a.units_touching) > MAX_TOUCHING_SHARE * max(a.units, 1):
        out.append(f"{len(a.units_touching)} of {a.units} units touch another (at most "
                   f"{MAX_TOUCHING_SHARE:.0%}): {', '.join(a.units_touching[:6])}")
    if len(a.label_overlaps) > MAX_OVERLAP_SHARE * max(a.labels, 1):
        out.append(f"{len(a.label_overlaps)} of {a.labels} labels overlap another (at most "
                   f"{MAX_OVERLAP_SHARE:.0%}): {', '.join(a.label_overlaps[:6])}")
    return out


def audit_variant(v: Variant, phases: int = 4, seed: int = 1) -> list[tuple[str, Audit]]:
    """The figures of variant `v`'s pictures: its start, and `phases` phases of a game of
    random orders (seeded: the same pictures each time), each with its orders and results."""
    import random

    from polydip.game.game import Game
    from polydip.play import random_orders
    from polydip.render import picture_svg

    g = Game.new(v)
    out = [("start", audit_svg(picture_svg(g)))]
    rng = random.Random(seed)
    for _ in range(phases):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
        name = g.history[-1].position.phase.name
        out.append((name, audit_svg(picture_svg(g, name))))
    return out
