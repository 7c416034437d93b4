"""Draw a variant's board: provinces on real geography, from its board file (render.board).

Everything that does not change from phase to phase (the province outlines as SVG paths,
the borders grouped by style, the anchors) is built once per map and kept in the map's memo;
a picture then only colours the provinces and places units, orders and labels.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polydip.geography.map import Map
from polydip.render.board import (
    Board,
    Ring,
    impassable,
    polyline_length,
    province_on_land,
    seam_runs,
)
from polydip.render.draw import (
    BLOCKED_LINE,
    COAST_LINE,
    INK,
    LAND_LINE,
    NEUTRAL_LAND,
    SEA,
    SEA_INK,
    SEA_LINE,
    Coords,
    Point,
    Svg,
    border_class,
    css_class,
    edge_style,
    pts,
)
from polydip.render.patterns import draw_terrain_defs, terrain_classes, terrain_id, url
from polydip.render.placement import (
    Label,
    boxes_of,
    first_baseline,
    make_room,
    marker_at,
    place_labels,
    placer,
    text_box,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from polydip.variants.model import Variant

# border styles: (colour, width, dash)
STYLES: dict[str, tuple[str, float, str]] = {
    "coast": (COAST_LINE, 1.3, ""),
    "own-coast": (COAST_LINE, 0.9, ""),
    "land": (LAND_LINE, 1.1, ""),
    "sea": (SEA_LINE, 1.1, ""),
    "halo": ("#6f9bbd", 1.1, "4 3"),
    "nation": ("#b3a991", 0.8, ""),
    "impassable": (BLOCKED_LINE, 2.6, ""),
}


@dataclass(slots=True)
class BoardGeo:
    board: Board
    scale: float
    top: float
    height: float  # of the map in the picture
    unit_r: float
    loc: list[Point]  # per location: where a unit there is drawn
    label: list[Point]  # per province
    disl: list[Point]  # per province: where a unit dislodged from it is drawn
    land: list[bool]  # per province: drawn on land
    blocked: list[bool]  # per province: impassable (no unit may enter)
    slots: list[list[Point]]  # per province: where more units stand (an open space)
    province_d: list[Coords]  # per province: its outline as an SVG path
    water_d: list[Coords]  # per province: its water faces (lakes, an island's halo) if land
    islet_d: list[Coords]  # per province: its land faces (islets) if a sea
    neutral: tuple[Coords, Coords]  # the neutral land and water paths
    borders: list[tuple[str, str, float, str, Coords]]  # (class, colour, width, dash, path)
    links: list[tuple[str, str, str, Point, Point]]  # connectors: (a, b, kind, p, q)
    insets: list[tuple[Point, Point]]  # frames around moved geography
    boxes: list[list[Point]]  # outlines of off-map spaces
    # a board that wraps: what continues across the left and right edges, as (province
    # index, "left" | "right", y0, y1) in the picture
    seam: list[tuple[int, str, float, float]]
    # names of geography inside a province (board.names): (province index, text, centre)
    names: list[tuple[int, str, Point]] = dataclasses.field(default_factory=list)


def layout(m: Map, board: Board, width: float, top: float) -> BoardGeo:
    v = m.variant
    k = width / board.width

    def tf(p: Point) -> Point:
        return (p[0] * k, top + p[1] * k)

    arcs_d = []
    for arc in board.arcs:
        arcs_d.append([tf(p) for p in arc])
    # each point written once ("x y", 0.1 px), shared by both faces and the border
    arcs_s = [[f"{x:.1f} {y:.1f}" for x, y in arc] for arc in arcs_d]

    def rings_d(rings: list[Ring]) -> Coords:
        out = []
        for ring in rings:
            parts: list[str] = []
            for ref in ring:
                a = arcs_s[ref] if ref >= 0 else arcs_s[~ref][::-1]
                parts.extend(a[1:] if parts else a)
            out.append("M" + " ".join(parts) + "Z")
        return Coords("".join(out))

    names = m.prov_abbr
    land = [province_on_land(v, a, board) for a in names]
    blocked = [impassable(v, a) for a in names]
    province_d, water_d, islet_d = [], [], []
    for i, a in enumerate(names):
        province_d.append(rings_d(board.rings(a)))
        water_d.append(rings_d(board.rings(a, "water")) if land[i] else Coords())
        islet_d.append(Coords() if land[i] else rings_d(board.rings(a, "land")))
    neutral = (rings_d(board.rings("neutral", "land")), rings_d(board.rings("neutral", "water")))
    kinds = _edge_kinds(v)
    borders, crossing = _borders(m, board, arcs_d, arcs_s, kinds, land, k)
    links = _links(v, board, arcs_d, kinds, crossing, k, tf)
    unit_r = board.unit_radius * k
    loc, label, disl, slots = _anchors(m, board, tf, unit_r, k, top)
    insets = [(tf((x0 - 10, y0 - 10)), tf((x1 + 10, y1 + 10)))
              for x0, y0, x1, y1 in board.insets]
    boxes = [[tf(p) for p in box] for box in board.boxes]
    seam = [(m.prov_index[r], side, top + y0 * k, top + y1 * k)
            for r, side, y0, y1 in seam_runs(board) if r in m.prov_index]
    names_at = [(m.prov_index[p], text, tf((x, y))) for p, text, x, y in board.names
                 if p in m.prov_index]
    geo = BoardGeo(board, k, top, board.height * k, unit_r, loc, label, disl, land, blocked,
                   slots, province_d, water_d, islet_d, neutral, borders, links, insets,
                   boxes, seam, names_at)
    return geo


def _edge_kinds(v: Variant) -> dict[tuple[str, str], set[str]]:
    """The kinds of the edges between each pair of provinces (coasts folded in)."""
    kinds: dict[tuple[str, str], set[str]] = {}
    for e in v.edges:
        a, b = e.a.split("/")[0], e.b.split("/")[0]
        if a != b:
            kinds.setdefault((min(a, b), max(a, b)), set()).add(e.kind)
    return kinds


def _borders(m: Map, board: Board, arcs_d: list[list[Point]], arcs_s: list[list[str]],
             kinds: dict[tuple[str, str], set[str]], land: list[bool], k: float
             ) -> tuple[list[tuple[str, str, float, str, Coords]],
                    dict[tuple[str, str], tuple[float, int]]]:
    """Border styles: the arcs grouped by style, in drawing order; and for each pair of
    provinces with a marked crossing, its longest arc."""
    v = m.variant
    groups: dict[str, list[str]] = {}
    crossing: dict[tuple[str, str], tuple[float, int]] = {}  # pair → its longest arc
    for i, (lf, rf) in enumerate(board.arc_faces()):
        if lf is None or rf is None:
            continue
        style = _border_style(lf, rf, kinds, board, land, m)
        pts = arcs_d[i]
        groups.setdefault(style, []).append("M" + " ".join(arcs_s[i]))
        pair = (min(lf[0], rf[0]), max(lf[0], rf[0]))
        if lf[0] != rf[0] and lf[1] == rf[1] and _marked(v, kinds.get(pair, set())):
            length = polyline_length(pts)
            if length > crossing.get(pair, (0.0, -1))[0]:
                crossing[pair] = (length, i)
    borders = []
    order = ["nation", "own-coast", "halo", "sea", "land", "coast", "impassable"]
    for style in sorted(groups, key=lambda s: (order.index(s) if s in order else 99, s)):
        if style.startswith("edge:"):
            color, w, dash = edge_style(v, style[5:])
        else:
            color, w, dash = STYLES[style]
        borders.append((css_class(style.replace("edge:", "")), color, w * k, dash,
                        Coords("".join(groups[style]))))
    return borders, crossing


def _links(v: Variant, board: Board, arcs_d: list[list[Point]],
           kinds: dict[tuple[str, str], set[str]],
           crossing: dict[tuple[str, str], tuple[float, int]], k: float,
           tf: Callable[[Point], Point]) -> list[tuple[str, str, str, Point, Point]]:
    """A canal (or bridge, strait...) between provinces that touch: a mark across the middle
    of their border (rivers are drawn as the border itself); and the board's connectors."""
    links = []
    for (a, b), (_length, i) in sorted(crossing.items()):
        kind = _marked(v, kinds[(a, b)])
        p, q = _across(arcs_d[i], 9.0 * k)
        links.append((a, b, kind, p, q))
    for a, b, (x1, y1, x2, y2) in board.connectors:
        ks = sorted(x for x in kinds.get((min(a, b), max(a, b)), set()) if x not in
                    ("land", "sea"))
        p, q = _at_least(tf((x1, y1)), tf((x2, y2)), 16.0 * k)
        links.append((a, b, ks[0] if ks else "", p, q))
    return links


def _anchors(m: Map, board: Board, tf: Callable[[Point], Point], unit_r: float, k: float,
             top: float) -> tuple[list[Point], list[Point], list[Point], list[list[Point]]]:
    """Anchors: where each location's unit, each province's label and dislodged unit, and
    each province's extra units are drawn."""
    v = m.variant
    names = m.prov_abbr
    label, disl, loc = [], [], []
    for a in names:
        anc = board.anchors[a]
        u = tf(tuple(anc["unit"]))
        label.append(tf(tuple(anc["label"])))
        d = anc.get("dislodged")
        disl.append(tf(tuple(d)) if d else (u[0] + unit_r * 1.7, u[1] - unit_r * 1.7))
        loc.append(u)
    for i, a in enumerate(names):
        coasts = board.anchors[a].get("coasts", {})
        for c in v.provinces[a].coasts:
            loc.append(tf(tuple(coasts[c])) if c in coasts else loc[i])
    slots = [[tf(tuple(xy)) for xy in board.anchors[a].get("slots", [])] for a in names]
    # a unit's symbol (a fleet's hull is the widest) kept inside the board's frame
    loc = [_inside_frame(p, board, k, top, unit_r) for p in loc]
    slots = [[_inside_frame(p, board, k, top, unit_r) for p in ps] for ps in slots]
    return loc, label, disl, slots


BADGE_R = 10.0  # px: a build's or removal's badge with its outline (render.svg._badge)
BADGE_AT = (1.2, -1.1)  # its centre from the unit's, in unit radii


def _inside_frame(p: Point, board: Board, k: float, top: float, r: float) -> Point:
    """p moved, if it must be, so that a unit's symbol drawn there stays on the board, and
    the build or removal badge beside it too (it stood on the title bar above the standard
    map's St Petersburg north coast)."""
    left, down = r * 1.45 + 1.5, r + 1.5
    right = max(r * 1.45, BADGE_AT[0] * r + BADGE_R) + 1.5
    up = max(r * 1.45, -BADGE_AT[1] * r + BADGE_R) + 1.5
    return (min(max(p[0], left), board.width * k - right),
            min(max(p[1], top + up), top + board.height * k - down))


def _at_least(p: Point, q: Point, length: float) -> tuple[Point, Point]:
    """A connector between provinces that almost touch, lengthened about its middle so that
    it can be seen."""
    d = math.dist(p, q)
    if d >= length:
        return p, q
    ux, uy = ((q[0] - p[0]) / d, (q[1] - p[1]) / d) if d > 0 else (1.0, 0.0)
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    h = length / 2
    return (mx - ux * h, my - uy * h), (mx + ux * h, my + uy * h)


def _marked(v: Variant, ks: set[str]) -> str:
    """The crossing kind (canal, bridge, strait) a border between two provinces of one
    surface is marked with ("" if none)."""
    special = sorted(x for x in ks if x not in ("land", "sea") and not border_class(v, x))
    return special[0] if special else ""


def _across(pts: list[Point], half: float) -> tuple[Point, Point]:
    """A short segment across a border line at half its length."""
    total = polyline_length(pts)
    run = 0.0
    for (x0, y0), (x1, y1) in itertools.pairwise(pts):
        d = math.hypot(x1 - x0, y1 - y0)
        if d and run + d >= total / 2:
            t = (total / 2 - run) / d
            mx, my = x0 + t * (x1 - x0), y0 + t * (y1 - y0)
            nx, ny = -(y1 - y0) / d, (x1 - x0) / d
            return (mx - nx * half, my - ny * half), (mx + nx * half, my + ny * half)
        run += d
    (x0, y0), (x1, y1) = pts[0], pts[-1]
    return (x0, y0), (x1, y1)


def _border_style(lf: tuple[str, str], rf: tuple[str, str],
                  kinds: dict[tuple[str, str], set[str]], board: Board, land: list[bool],
                  m: Map) -> str:
    (ra, sa), (rb, sb) = lf, rf
    if ra == rb:
        return "own-coast"
    pair = (min(ra, rb), max(ra, rb))
    ks = kinds.get(pair, set())
    classes = sorted(x for x in ks if border_class(m.variant, x))
    if "river" in classes:
        return "edge:river"
    if sa != sb:
        return "coast"
    if "neutral" in pair:
        return "nation" if sa == "land" else "sea"
    if classes:  # a mountain or rainforest border: the most particular class (the
        return "edge:" + classes[0]  # Greater Andes before mountain)
    if sa == "water":
        la = land[m.prov_index[ra]]
        lb = land[m.prov_index[rb]]
        if la or lb:
            return "halo"
        return "sea" if ks else "impassable"
    return "land" if ks else "impassable"


def draw_provinces(svg: Svg, m: Map, geo: BoardGeo, fills: list[str], owners: list[str],
                   full: bool = True) -> None:
    """The provinces' faces and borders (and the seam's marks); `full`: whether the labels
    drawn later are full names (the seam's names keep clear of them)."""
    svg.start("g", class_="provinces", stroke="none")
    land_d, water_d = geo.neutral
    if water_d:
        svg.el("path", class_="neutral water", d=water_d, fill=SEA)
    if land_d:
        svg.el("path", class_="neutral land", d=land_d, fill=NEUTRAL_LAND)
    for i in range(m.n_prov):
        # a <title>: the full name (and code) as a tooltip, on boards labelled by codes too
        svg.start("path", class_="province", data_province=m.prov_abbr[i],
                  data_owner=owners[i], d=geo.province_d[i], fill=fills[i],
                  fill_rule="evenodd")
        svg.el("title", province_title(m, i))
        svg.end("path")
    for i in range(m.n_prov):
        if geo.water_d[i]:
            svg.el("path", class_="water", d=geo.water_d[i], fill=SEA, fill_opacity="0.78",
                   fill_rule="evenodd")
        if geo.islet_d[i]:
            svg.el("path", class_="islet", d=geo.islet_d[i], fill=NEUTRAL_LAND,
                   fill_rule="evenodd")
    svg.end("g")
    draw_terrain(svg, m, geo)
    svg.start("g", class_="borders", fill="none", stroke_linejoin="round",
              stroke_linecap="round")
    for cls, color, w, dash, d in geo.borders:
        svg.el("path", class_="border " + cls, d=d, stroke=color, stroke_width=w,
               stroke_dasharray=dash or None)
    for (x0, y0), (x1, y1) in geo.insets:
        svg.el("rect", class_="inset", x=x0, y=y0, width=x1 - x0, height=y1 - y0, fill="none",
               stroke="#51606e", stroke_width=1.2, stroke_dasharray="6 4")
    for box in geo.boxes:
        d = Coords.of("M", *itertools.chain.from_iterable(box), "Z")
        svg.el("path", class_="box", d=d, fill="none", stroke="#51606e", stroke_width=1.6,
               stroke_dasharray="7 4")
    draw_box_links(svg, m, geo)
    passages = named_passages(m.variant)
    for a, b, kind, p, q in geo.links:
        color, w, dash = edge_style(m.variant, kind) if kind else \
            ("#3d4f5f", 2.4, "2 3")
        svg.start("g", class_="border link", data_link=f"{a}-{b}")
        if frozenset((a, b)) in passages:  # a passage a rule names: its name as a tooltip
            svg.el("title", passages[frozenset((a, b))])
        svg.line(p, q, "#ffffff", w + 2.5)
        svg.line(p, q, color, w, dash)
        for x, y in (p, q):
            svg.el("circle", cx=x, cy=y, r=2.6, fill=color)
        svg.end("g")
    svg.end("g")
    draw_seam(svg, m, geo, full)


def board_terrain(m: Map, geo: BoardGeo) -> list[tuple[str, bool, list[int]]]:
    """The classes of provinces drawn by a pattern (patterns.terrain_classes), once per map."""
    got = m.caches.terrain
    if got is None:
        got = m.caches.terrain = terrain_classes(m.variant, geo.land, m.prov_abbr)
    return got


def draw_terrain(svg: Svg, m: Map, geo: BoardGeo) -> None:
    """Each class of provinces a rule names (mountains, oceans, an open space...) as one path
    over their fills, filled with the class's pattern: what the rules make of a province,
    seen on the board."""
    classes = board_terrain(m, geo)
    if not classes:
        return
    draw_terrain_defs(svg, classes)
    svg.start("g", class_="terrain", stroke="none", pointer_events="none")
    for cls, _water, provs in classes:
        d = Coords("".join(geo.province_d[i] for i in provs))
        svg.el("path", class_="terrain-class", data_terrain=cls, d=d,
               fill=url(terrain_id(cls)), fill_rule="evenodd")
    svg.end("g")


TERRITORY_INSET = 2.6  # px: how far inside its territory a power's border line runs
TERRITORY_WIDTH = 2.4


def territory_lines(m: Map, geo: BoardGeo) -> list[tuple[int, Coords]]:
    """Per power with a territory (the provinces it holds at the start, as LAD lists them):
    the outline of its territory as a path, TERRITORY_INSET inside it, worked out once per
    map."""
    if m.caches.territory is not None:
        return m.caches.territory
    owner: dict[str, int] = {}
    for p, power in enumerate(m.variant.powers):
        for a in power.territory:
            owner.setdefault(a, p)
    paths: dict[int, list[str]] = {}
    board, k, top = geo.board, geo.scale, geo.top
    faces = board.arc_faces()
    for name in sorted(owner):
        p = owner[name]
        for rings in board.regions.get(name, {}).values():
            for ring in rings:
                for ref in ring:
                    lf, rf = faces[ref] if ref >= 0 else faces[~ref][::-1]
                    other = rf[0] if rf else None
                    if (other is not None and owner.get(other) == p) or (lf and lf[0] != name):
                        continue
                    arc = board.arcs[ref if ref >= 0 else ~ref]
                    if len(arc) < 2:
                        continue
                    line = [(x * k, top + y * k) for x, y in arc]
                    # the board's faces lie to the left of their arcs (arc_faces)
                    shifted = _offset(line, TERRITORY_INSET * (1 if ref >= 0 else -1))
                    paths.setdefault(p, []).append("M" + " ".join(
                        f"{x:.0f} {y:.0f}" for x, y in _thin(shifted, 1.5)))
    m.caches.territory = [(p, Coords("".join(d))) for p, d in sorted(paths.items())]
    return m.caches.territory


def _thin(line: list[Point], step: float) -> list[Point]:
    """`line` without the points closer than `step` to the last one kept (its ends kept): a
    thin line drawn in whole pixels needs no more."""
    out = [line[0]]
    for pt in line[1:-1]:
        if math.dist(pt, out[-1]) >= step:
            out.append(pt)
    out.append(line[-1])
    return out


def _offset(line: list[Point], d: float) -> list[Point]:
    """`line` moved sideways by d (to the left of its direction for d > 0)."""
    out = []
    n = len(line)
    for i in range(n):
        x0, y0 = line[max(i - 1, 0)]
        x1, y1 = line[min(i + 1, n - 1)]
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy) or 1.0
        out.append((line[i][0] + dy / length * d, line[i][1] - dx / length * d))
    return out


def _in_rings(pt: Point, rings: list[list[Point]]) -> bool:
    """Is `pt` inside these rings (even-odd)?"""
    x, y = pt
    hit = False
    for ring in rings:
        for (x0, y0), (x1, y1) in itertools.pairwise([*ring, ring[0]]):
            if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
                hit = not hit
    return hit


def draw_territories(svg: Svg, m: Map, geo: BoardGeo, colors: list[str]) -> None:
    """Each power's territory outlined by a thin line of its colour just inside it."""
    lines = territory_lines(m, geo)
    if not lines:
        return
    svg.start("g", class_="territories", fill="none", stroke_linejoin="round",
              stroke_linecap="round")
    for p, d in lines:
        svg.el("path", class_="territory", data_power=m.powers[p], d=d, stroke=colors[p],
               stroke_width=TERRITORY_WIDTH, stroke_opacity="0.9")
    svg.end("g")


def box_links(m: Map, geo: BoardGeo) -> list[tuple[str, str, Point, Point]]:
    """The links of an off-map box (a space drawn apart, as War in North America's Cape
    Horn) to the provinces it borders but does not touch on the board: (box province,
    neighbour, a point on the box's edge, the nearest point of the neighbour), worked out
    once per map."""
    if m.caches.box_links is not None:
        return m.caches.box_links
    out: list[tuple[str, str, Point, Point]] = []
    board, k, top = geo.board, geo.scale, geo.top
    boxed = {m.prov_abbr[i] for box in geo.boxes for i in range(m.n_prov)
             if _in_rings(geo.label[i], [box])}
    shared: dict[frozenset[str], list[Point]] = {}  # two regions → their longest arc
    for arc, (lf, rf) in zip(board.arcs, board.arc_faces(), strict=True):
        if lf and rf and lf[0] != rf[0] and (lf[0] in boxed or rf[0] in boxed):
            pair = frozenset((lf[0], rf[0]))
            line = [(x * k, top + y * k) for x, y in arc]
            if polyline_length(line) > polyline_length(shared.get(pair, [])):
                shared[pair] = line
    linked = {frozenset((a, b)) for a, b, *_ in geo.links}
    for box in geo.boxes:
        inside = [i for i in range(m.n_prov) if _in_rings(geo.label[i], [box])]
        for i in inside:
            a = m.prov_abbr[i]
            for b in sorted(_neighbours(m, a)):
                j = m.prov_index[b]
                pair = frozenset((a, b))
                if j in inside or pair in linked:
                    continue
                if pair in shared:  # they touch: a mark across their border
                    p, q = _across(shared[pair], 11.0 * k)
                    out.append((a, b, p, q))
                    continue
                outline = [(x * k, top + y * k) for ring in board.rings(b) for ref in ring
                           for x, y in (board.arcs[ref] if ref >= 0 else board.arcs[~ref])]
                if not outline:
                    continue
                best = min(((_to_ring(pt, box), pt) for pt in outline), key=lambda t: t[0][0])
                (_d, on_box), near = best
                out.append((a, b, on_box, near))
    m.caches.box_links = out
    return out


def _neighbours(m: Map, a: str) -> set[str]:
    out = set()
    for e in m.variant.edges:
        x, y = e.a.split("/")[0], e.b.split("/")[0]
        if x == a and y != a:
            out.add(y)
        elif y == a and x != a:
            out.add(x)
    return out


def _to_ring(pt: Point, ring: list[Point]) -> tuple[float, Point]:
    """The distance from `pt` to the closed polyline `ring`, and the nearest point on it."""
    best = (math.inf, ring[0])
    for (x0, y0), (x1, y1) in itertools.pairwise([*ring, ring[0]]):
        dx, dy = x1 - x0, y1 - y0
        n2 = dx * dx + dy * dy
        t = 0.0 if n2 == 0 else max(0.0, min(1.0, ((pt[0] - x0) * dx + (pt[1] - y0) * dy) / n2))
        q = (x0 + t * dx, y0 + t * dy)
        d = math.dist(pt, q)
        if d < best[0]:
            best = (d, q)
    return best


def draw_box_links(svg: Svg, m: Map, geo: BoardGeo) -> None:
    """An off-map box's links to its neighbours: a line from the box to each, ended by a
    dot at both ends, as connectors are drawn."""
    links = box_links(m, geo)
    if not links:
        return
    svg.start("g", class_="box-links")
    for a, b, p, q in links:
        svg.start("g", class_="border link box-link", data_link=f"{a}-{b}")
        svg.line(p, q, "#ffffff", 4.9)
        svg.line(p, q, "#3d4f5f", 2.4, "2 3")
        for x, y in (p, q):
            svg.el("circle", cx=x, cy=y, r=2.6, fill="#3d4f5f")
        svg.end("g")
    svg.end("g")


def named_passages(v: Variant) -> dict[frozenset[str], str]:
    """The passages a rule module names (an entry of its parameters with a `name` and
    `edges`, as controlled_passages' "Kiel Canal"): per pair of provinces, the words to
    label it with (its first alias, else its name)."""
    out: dict[frozenset[str], str] = {}

    def walk(value: object) -> None:
        if isinstance(value, dict):
            name, edges = value.get("name"), value.get("edges")
            if isinstance(name, str) and isinstance(edges, list):
                aliases = [a for a in value.get("aliases", []) if isinstance(a, str)]
                for e in edges:
                    if isinstance(e, str) and "-" in e:
                        a, b = (x.split("/")[0] for x in e.split("-", 1))
                        out.setdefault(frozenset((a, b)), aliases[0] if aliases else name)
            for x in value.values():
                walk(x)
        elif isinstance(value, list):
            for x in value:
                walk(x)

    walk(v.rules)
    return out


def center_core(svg: Svg, x: float, y: float, capital: bool) -> None:
    """The middle of a supply center's marker: a dot, or a star for a capital."""
    if not capital:
        svg.el("circle", cx=x, cy=y, r=1.9, fill=INK)
        return
    star = []
    for k in range(10):
        r = 4.9 if k % 2 == 0 else 2.1
        a = math.pi * (k / 5 - 0.5)
        star.append((x + r * math.cos(a), y + r * math.sin(a)))
    svg.el("polygon", class_="capital", points=pts(star), fill=INK)


def province_title(m: Map, i: int) -> str:
    """A province's tooltip: "Name (CODE)"."""
    abbr = m.prov_abbr[i]
    return f"{m.variant.provinces[abbr].name} ({abbr})"


SEAM_MIN_PX = 14.0  # shorter stretches of a province along the seam get no marker
SEAM_NAME_PX = 36.0  # ... and no name
SEAM_NAME_SIZE = 9.5
LABEL_FULL_SIZE, LABEL_SHORT_SIZE = 10.5, 12.0


def draw_seam(svg: Svg, m: Map, geo: BoardGeo, full: bool = True) -> None:
    """On a board that wraps, a marker at the left and right edges for each province that
    continues across them (an arrow pointing off the edge), with the province's name
    where the rest of the province, and its name, lie at the other edge: the map is a
    cylinder, and a sea cut by the edge reads as one sea. A named marker goes where along
    its stretch of the edge the name covers the least of the provinces' labels and units."""
    if not geo.seam:
        return
    width = geo.board.width * geo.scale
    r = geo.unit_r * 1.3
    keep_clear = [label_extent(m, geo, i, full) for i in range(m.n_prov)]
    keep_clear += [(x - r, y - r, x + r, y + r) for x, y in geo.loc]
    svg.start("g", class_="seam")
    for x in (0.0, width):
        svg.line((x, geo.top), (x, geo.top + geo.height), SEA_INK, 1.6, "5 4")
    for p, side, y0, y1 in geo.seam:
        if y1 - y0 < SEAM_MIN_PX:
            continue
        sea = not geo.land[p]
        ink = SEA_INK if sea else INK
        y = (y0 + y1) / 2
        x, d = (0.0, 1.0) if side == "left" else (width, -1.0)
        abbr = m.prov_abbr[p]
        name = m.variant.provinces[abbr].name
        label_x = geo.label[p][0]
        named = abs(label_x - x) > width / 4 and y1 - y0 >= SEAM_NAME_PX
        if named:
            # the name where it covers nothing; else the abbreviation, if that fits better
            cover, y = _seam_name_y(x, d, y0, y1, len(name), keep_clear)
            if cover > 0:
                cover_abbr, y_abbr = _seam_name_y(x, d, y0, y1, len(abbr), keep_clear)
                if cover_abbr < cover:
                    name, y = abbr, y_abbr
        svg.start("g", class_="seam-mark", data_province=abbr, data_side=side)
        tip, back = x + d * 1.5, x + d * 10.5
        svg.el("path", d=Coords.of("M", tip, y, "L", back, y - 6, "L", back, y + 6, "Z"),
               fill=ink, stroke="#ffffff", stroke_width=1.2, stroke_linejoin="round")
        if named:
            svg.text(x + d * 13.5, y + 3.5, name, SEAM_NAME_SIZE, ink, "bold",
                     anchor="start" if d > 0 else "end", style="italic" if sea else "",
                     halo=SEA if sea else "#ffffff", halo_width=3)
        svg.end("g")
    svg.end("g")


def _seam_name_y(x: float, d: float, y0: float, y1: float, n_chars: int,
                 keep_clear: list[tuple[float, float, float, float]]) -> tuple[float, float]:
    """Where along [y0, y1] a seam marker and its name (n_chars long, from x inwards, d = ±1)
    cover the least of `keep_clear`'s boxes: (the area covered, y); the middle if nothing is
    in the way there."""
    w = 13.5 + n_chars * SEAM_NAME_SIZE * 0.62
    a0, a1 = min(x, x + d * w), max(x, x + d * w)
    mid = (y0 + y1) / 2
    near = [(bx0, by0, bx1, by1) for bx0, by0, bx1, by1 in keep_clear
            if bx1 > a0 and bx0 < a1 and by1 > y0 - 8 and by0 < y1 + 8]
    best = (float("inf"), mid)
    steps = int((y1 - y0 - 14) / 1.5)
    for k in range(max(steps, 0) + 1):
        y = min(max(mid + (k + 1) // 2 * 1.5 * (1 if k % 2 else -1), y0 + 7), y1 - 7)
        cover = sum(max(0.0, min(a1, bx1) - max(a0, bx0)) * max(0.0, min(y + 7, by1)
                    - max(y - 7, by0)) for bx0, by0, bx1, by1 in near)
        if cover < best[0]:
            best = (cover, y)
        if cover == 0:
            break
    return best


def label_extent(m: Map, geo: BoardGeo, i: int, full: bool
                 ) -> tuple[float, float, float, float]:
    """The box province i's name (and its supply center's marker) covers where placement
    puts it when no unit is in the way."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    bs = boxes_of(placer(m, geo, full, size).base[i], size)
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs),
            max(b[3] for b in bs))


def nudge_units(m: Map, geo: BoardGeo, full: bool, units: list[tuple[int, Point, str]]
                ) -> dict[int, Point]:
    """Units moved within their province to leave their center's marker room
    (render.placement.make_room); `units`: (province, where drawn, symbol)."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    return make_room(placer(m, geo, full, size), units, geo.unit_r)


def board_labels(m: Map, geo: BoardGeo, full: bool,
                 units: list[tuple[float, float, float, float]]) -> list[Label]:
    """Where each province's name and center marker go in this picture (render.placement):
    off the unit symbols (`units`: their boxes), off the names of geography inside
    provinces (board.names), off each other, inside the board."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    return place_labels(placer(m, geo, full, size), units + feature_boxes(geo))


FEATURE_SIZE = 9.0  # px: the names of geography inside a province (a lake)


def feature_boxes(geo: BoardGeo) -> list[tuple[float, float, float, float]]:
    """The boxes of the names of geography inside provinces (board.names), as drawn."""
    out = []
    for _p, text, (x, y) in geo.names:
        half = len(text) * FEATURE_SIZE * 0.62 / 2
        base = y + FEATURE_SIZE * 0.35
        out.append((x - half, base - FEATURE_SIZE * 0.75, x + half,
                    base + FEATURE_SIZE * 0.22))
    return out


def draw_features(svg: Svg, m: Map, geo: BoardGeo) -> None:
    """The names of geography inside provinces (board.names: a lake that is part of a
    sea), in italics, in the ink of the province's surface; the province's code in their
    data (`data-province`)."""
    if not geo.names:
        return
    svg.start("g", class_="labels features")
    for p, text, (x, y) in geo.names:
        sea = not geo.land[p]
        svg.start("g", class_="feature", data_province=m.prov_abbr[p])
        svg.text(x, y + FEATURE_SIZE * 0.35, text, FEATURE_SIZE, SEA_INK if sea else INK,
                 "bold", style="italic", halo=SEA if sea else "#ffffff", halo_width=2.5)
        svg.end("g")
    svg.end("g")


def marker_under(lab: Label, full: bool, units: list[tuple[float, float, float, float]]
                 ) -> bool:
    """A marker placement could not keep off a unit: drawn under the unit, not over it."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    x, y = marker_at(lab, size)
    r = 8.2
    return any(x - r < u[2] and u[0] < x + r and y - r < u[3] and u[1] < y + r
               for u in units)


def draw_centers_under(svg: Svg, m: Map, full: bool, labels: list[Label],
                       centers: list[tuple[str, str]],
                       units: list[tuple[float, float, float, float]]) -> None:
    """The center markers that would touch a unit, drawn before (under) the units."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    under = [i for i in range(m.n_prov) if centers[i][0] and marker_under(labels[i], full,
                                                                           units)]
    if not under:
        return
    svg.start("g", class_="centers under")
    for i in under:
        _center(svg, m, m.prov_abbr[i], marker_at(labels[i], size), centers[i])
    svg.end("g")


def _center(svg: Svg, m: Map, abbr: str, at: Point, center: tuple[str, str]) -> None:
    (cx, cy), (fill, ring) = at, center
    svg.start("g", class_="center", data_center=abbr, data_home=ring or None)
    if ring:
        svg.el("circle", cx=cx, cy=cy, r=8.2, fill=ring, stroke=INK, stroke_width=1.2)
    svg.el("circle", cx=cx, cy=cy, r=5.6, fill=fill, stroke=INK, stroke_width=1.6)
    center_core(svg, cx, cy, m.variant.provinces[abbr].supply_center == "capital")
    svg.end("g")


def draw_labels(svg: Svg, m: Map, geo: BoardGeo, full: bool, centers: list[tuple[str, str]],
                labels: list[Label] | None = None,
                units: list[tuple[float, float, float, float]] | None = None) -> None:
    """Province names, each supply center's marker beside its name, where placement puts
    them (`labels`, from board_labels; by default placed off `units`, the boxes of the
    unit symbols). Markers that would touch a unit are left to draw_centers_under.
    `centers[i]`: (fill, home ring colour or "") for a supply center, else ("", "")."""
    size = LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE
    units = units or []
    if labels is None:
        labels = board_labels(m, geo, full, units)
    draw_features(svg, m, geo)
    svg.start("g", class_="labels")
    for i in range(m.n_prov):
        lab = labels[i]
        x = lab.x
        lines = lab.lines
        sea = not geo.land[i]
        y0 = first_baseline(lab.y, len(lines), size)
        for n, line in enumerate(lines):
            if sea:
                svg.text(x, y0 + n * size * 1.1, line, size, SEA_INK, "bold", style="italic",
                         halo=SEA, halo_width=3)
            else:
                svg.text(x, y0 + n * size * 1.1, line, size, "#3a3026", "bold",
                         halo="#ffffff", halo_width=3)
        if lab.leader is not None:  # the name beside its province: a line to it
            tb = text_box(lab, size)
            lx = min(max(lab.leader[0], tb[0]), tb[2])
            ly = min(max(lab.leader[1], tb[1]), tb[3])
            ink = SEA_INK if sea else "#3a3026"
            svg.line((lx, ly), lab.leader, ink, 1.1, "3 2", cls="leader")
            svg.el("circle", cx=lab.leader[0], cy=lab.leader[1], r=1.8, fill=ink)
        if centers[i][0] and not marker_under(lab, full, units):
            _center(svg, m, m.prov_abbr[i], marker_at(lab, size), centers[i])
    svg.end("g")
