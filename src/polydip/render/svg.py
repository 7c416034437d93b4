"""Draw a phase as SVG: provinces colored by center owner, supply centers, units, orders.

The picture is made for posting at 1600 px width: a title bar, the map, and a legend with
the powers' colors, center and unit counts, and a key to the symbols. Every element that a
test or a tool may look for carries a class and a data attribute: units are
`<g class="unit" data-unit="F LON" data-power="England" data-at="x,y">` (data-at: where it is
drawn), orders are
`<g class="order move failed" data-order="A MUN - BUR" data-result="bounce"
data-reason="bounced">` with a `<title>` saying why it failed.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from polydip.geography.cache import LAYOUTS, room
from polydip.geography.map import Map
from polydip.orders.describe import default_names
from polydip.orders.model import BUILD, CONVOY, DISBAND, HOLD, MOVE, RETREAT, SUPPORT
from polydip.render import memo
from polydip.render.board import board_path, load_board
from polydip.render.boardsvg import (
    BADGE_AT,
    BADGE_R,
    BoardGeo,
    board_labels,
    board_terrain,
    center_core,
    draw_centers_under,
    draw_labels,
    draw_provinces,
    draw_territories,
    named_passages,
    nudge_units,
    province_title,
)
from polydip.render.boardsvg import layout as board_layout
from polydip.render.colors import mix as _mix
from polydip.render.colors import power_colors, power_marks
from polydip.render.draw import (
    BLOCKED_LINE,
    BLOCKED_SEA,
    COAST_LINE,
    FAIL,
    FONT,
    INK,
    LAND,
    LAND_LINE,
    NEUTRAL_LAND,
    PAPER,
    SEA,
    SEA_LINE,
    Coords,
    border_class,
    css_class,
    edge_style,
    element,
)
from polydip.render.draw import Svg as _Svg
from polydip.render.draw import fmt as _fmt
from polydip.render.draw import pts as _pts
from polydip.render.draw import text_color as _text_color
from polydip.render.geometry import (
    Point,
    centroid,
    closest_points,
    fit_projection,
    fit_regions,
    inside,
    nearest_distances,
    outer_edges,
    shared_borders,
    spread,
)
from polydip.render.patterns import draw_mark_defs, mark_id, terrain_id, url
from polydip.render.placement import Box, clear_spot, symbol_box
from polydip.render.view import DrawnOrder, PhaseView
from polydip.variants.calendar import season_name

if TYPE_CHECKING:
    from polydip.game.game import Game
    from polydip.render.board import Board
    from polydip.render.geometry import Cell
    from polydip.state import Position
    from polydip.variants.model import Variant

WIDTH = 1600
TITLE_H = 64
KEY_ROW = 40  # height of one row of the legend band under the map
EVENT_ROW = 28  # height of one line of the phase's events, under the legend

# where the units are drawn: ("unit" | "dislodged", location), ("unit", location, power),
# ("unit#", index in the position) → the point (_unit_places)
Where = dict[tuple[str, int] | tuple[str, int, int], Point]

@dataclass(slots=True)
class _Geo:
    """Where everything of the schematic map goes in the picture."""

    site: list[Point]  # per province: its centre
    loc: list[Point]  # per location: where a unit there is drawn
    cells: list[Cell]
    height: float
    unit_r: float


# ---- layout ---------------------------------------------------------------------------------

def _layout(m: Map, map_w: float) -> _Geo:
    v = m.variant
    provs = list(v.provinces.values())
    missing = [p.abbr for p in provs if p.coords is None]
    if missing:
        from polydip.errors import PolydipError

        raise PolydipError(f"variant {v.name} has no coordinates for {', '.join(missing[:8])}"
                           f"{'...' if len(missing) > 8 else ''}: add 'coords' to every "
                           "province to draw it (docs/variant-format.md)")
    points = [p.coords for p in provs if p.coords is not None]  # (every province: checked)
    coords = points + [c for p in provs for c in p.coast_coords.values()]
    latlon = v.coords != "xy"
    proj, _h = fit_projection(coords, latlon, map_w, None, 0, TITLE_H, pad=46)
    max_h = 1500.0
    if _h > max_h:
        proj, _h = fit_projection(coords, latlon, map_w, max_h, 0, TITLE_H, pad=46)
    given = [proj(xy) for xy in points]
    adjacent = set()
    for e in v.edges:
        a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
        if a != b:
            adjacent.add((min(a, b), max(a, b)))
    frame = (4.0, TITLE_H + 4.0, map_w - 4.0, TITLE_H + _h - 4.0)
    inner = (frame[0] + 40, frame[1] + 30, frame[2] - 40, frame[3] - 50)
    grow = [0.0 if m.convoy_prov[i] and not _is_land(m, i) else 0.3 for i in range(m.n_prov)]
    regions = fit_regions(spread(given, inner), adjacent, frame, keep_in=inner, grow=grow)
    cells = regions.cells
    site = [regions.sites[i] if inside(regions.sites[i], cells[i].points)
            else centroid(cells[i].points) if cells[i].points else regions.sites[i]
            for i in range(len(provs))]
    loc = list(site)
    for i, p in enumerate(provs):
        dx, dy = site[i][0] - given[i][0], site[i][1] - given[i][1]
        for c in p.coasts:
            xy = p.coast_coords.get(c)
            if xy:
                cx, cy = proj(xy)
                loc.append((cx + dx, cy + dy))
            else:
                loc.append(site[i])
    near = nearest_distances(site)
    spacing = sorted(near)[len(near) // 2]
    unit_r = max(9.0, min(16.0, spacing * 0.3))
    return _Geo(site, loc, cells, _h, unit_r)


# ---- the picture ----------------------------------------------------------------------------

def render_svg(game: Game, view: PhaseView, title: str = "", names: str | None = None,
               board: bool = True) -> str:
    """The SVG of a phase. `names`: "full" or "short" labels (default: full names when the
    map has more than 80 provinces, as in reports). `board=False` draws the schematic even
    when the variant has a board."""
    m = game.map
    v = m.variant
    map_w = WIDTH
    memo_key = None  # the on-disk memo of what this map's first picture works out
    drawn = None
    if board:
        path = board_path(v)
        if path is not None:
            memo_key = memo.restore(m, path, map_w)
            drawn = load_board(v, path)
    geo = map_geo(m, drawn, map_w)
    if names not in (None, "full", "short"):
        from polydip.errors import PolydipError

        raise PolydipError(f"names: {names!r}; use \"full\" or \"short\"")
    full = (names or default_names(m)) == "full"
    pos = view.position
    colors, marks = _power_styles(m)
    legend_top = TITLE_H + geo.height
    codes = _code_key(m, geo, full)
    on_board = isinstance(geo, BoardGeo)
    height = picture_height(m, geo, full, len(view.events))
    svg = _Svg()
    svg.start("svg", xmlns="http://www.w3.org/2000/svg", width=WIDTH, height=height,
              viewBox=f"0 0 {WIDTH} {_fmt(height)}", font_family=FONT)
    phase_name = season_name(v.calendar, pos.phase)
    svg.el("title", f"{v.title} — {phase_name} ({pos.phase.name})")
    svg.el("rect", width=WIDTH, height=height, fill=PAPER)
    tints = [_mix(c, "#ffffff", 0.42) for c in colors]
    svg.start("defs")
    draw_mark_defs(svg, colors, tints, marks)
    svg.end("defs")
    power_fill = [url(mark_id(p, "fill")) if marks[p] else tints[p] for p in range(len(colors))]
    if isinstance(geo, BoardGeo):
        fills, owners = _fills(m, pos, power_fill, geo.land, geo.blocked)
        draw_provinces(svg, m, geo, fills, owners, full)
        draw_territories(svg, m, geo, colors)
    else:
        _provinces(svg, m, geo, pos, colors, marks)
    where = _places(m, geo, pos, full)
    orders = _Svg()
    lines: list[tuple[Point, float]] = []
    _orders(orders, m, geo, view, colors, where, lines)
    tags = _rule_tags(m, geo, pos)
    if isinstance(geo, BoardGeo):
        symbols = _symbols_at(m, geo, view, where) + [box for *_, box in tags]
        # the names keep off the units and the orders' lines (issue 29: short moves vanished
        # under names)
        labels = board_labels(m, geo, full, symbols + order_boxes(lines))
        centers = _center_marks(m, pos, colors)
    svg.add(*orders.parts)
    if isinstance(geo, BoardGeo):
        draw_centers_under(svg, m, full, labels, centers, symbols)
    _draw_tags(svg, tags, geo.unit_r)
    _units(svg, m, geo, view, colors, where, marks)
    if isinstance(geo, BoardGeo):
        draw_labels(svg, m, geo, full, centers, labels, symbols)
    else:
        _centers_and_labels(svg, m, geo, pos, colors)
    _title(svg, v, pos, title, map_w)
    _legend(svg, m, pos, colors, legend_top, geo.unit_r, marks, codes, on_board)
    if view.events:  # what the rules did on their own, under the legend
        _events(svg, view.events, legend_top + _legend_height(m, codes, on_board))
    svg.end("svg")
    if memo_key is not None:
        memo.save(m, memo_key, map_w)
    return "\n".join(svg.parts) + "\n"


def map_geo(m: Map, drawn: Board | None, map_w: float = WIDTH) -> _Geo | BoardGeo:
    """Where everything of map `m` goes in a picture `map_w` wide: on board `drawn`, or the
    schematic when it is None; worked out once per map and width."""
    key = ("board" if drawn else "schematic", map_w)
    geo = m.caches.layouts.get(key)
    if geo is None:
        geo = (board_layout(m, drawn, map_w, TITLE_H) if drawn else _layout(m, map_w))
        room(m.caches.layouts, LAYOUTS)[key] = geo
    return geo


def picture_height(m: Map, geo: _Geo | BoardGeo, full: bool, events: int = 0) -> float:
    """The height of the picture of `m` (`full` names, `events` lines of events under the
    legend): title, map, legend and events."""
    on_board = isinstance(geo, BoardGeo)
    if isinstance(geo, BoardGeo):
        board_terrain(m, geo)  # the legend shows its classes
    codes = _code_key(m, geo, full)
    return (TITLE_H + geo.height + _legend_height(m, codes, on_board)
            + events * EVENT_ROW)


def _power_styles(m: Map) -> tuple[list[str], list[str]]:
    """The powers' colours and marks (colors.power_colors, power_marks), worked out once per
    map."""
    got = m.caches.power_styles
    if got is None:
        v = m.variant
        colors = power_colors([p.color or "#888888" for p in v.powers],
                              [p.neutral for p in v.powers])
        got = m.caches.power_styles = (colors, power_marks(colors))
    return got


def _fills(m: Map, pos: Position, power_fill: list[str], land: list[bool], blocked: list[bool]
           ) -> tuple[list[str], list[str]]:
    """Per province: its fill (an owned land province: its owner's `power_fill`) and its
    owner's name."""
    fills, owners = [], []
    for i in range(m.n_prov):
        o = pos.owners[i]
        if not land[i]:
            fills.append(BLOCKED_SEA if blocked[i] else SEA)
        elif blocked[i]:
            fills.append(NEUTRAL_LAND)
        elif o >= 0:
            fills.append(power_fill[o])
        else:
            fills.append(LAND)
        owners.append(m.powers[o] if o >= 0 else "")
    return fills, owners


def _center_marks(m: Map, pos: Position, colors: list[str]) -> list[tuple[str, str]]:
    """Per province: (marker fill, home ring colour) for a supply center, else ("", "")."""
    home: dict[str, int] = {}
    for p, power in enumerate(m.variant.powers):
        for abbr in power.homes:
            home.setdefault(abbr, p)
    out = []
    for i in range(m.n_prov):
        if not m.is_sc[i]:
            out.append(("", ""))
            continue
        o = pos.owners[i]
        h = home.get(m.prov_abbr[i])
        out.append((colors[o] if o >= 0 else "#ffffff", colors[h] if h is not None else ""))
    return out


def _provinces(svg: _Svg, m: Map, geo: _Geo, pos: Position, colors: list[str], marks: list[str]
               ) -> None:
    v = m.variant
    is_sea = [not _is_land(m, i) for i in range(m.n_prov)]
    svg.start("g", class_="provinces", stroke="none")
    for i, cell in enumerate(geo.cells):
        if not cell.points:
            continue
        fill = _province_fill(pos, i, is_sea[i], colors, marks)
        owner = m.powers[pos.owners[i]] if pos.owners[i] >= 0 else ""
        svg.start("polygon", class_="province", data_province=m.prov_abbr[i],
                  data_owner=owner, points=_pts(cell.points), fill=fill)
        svg.el("title", province_title(m, i))
        svg.end("polygon")
    svg.end("g")
    # borders: styled by the edges the map has between the two provinces
    kinds: dict[tuple[int, int], set[str]] = {}
    for e in v.edges:
        a = m.loc_prov[m.loc_index[e.a]]
        b = m.loc_prov[m.loc_index[e.b]]
        kinds.setdefault((min(a, b), max(a, b)), set()).add(e.kind)
    borders = shared_borders(geo.cells)
    svg.start("g", class_="borders", fill="none")
    for (i, j), segs in borders.items():
        color, width, dash, kind = _border_line(v, kinds.get((i, j), set()), is_sea[i],
                                                is_sea[j])
        for p, q in segs:
            svg.line(p, q, color, width, dash, "border " + css_class(kind))
    for i, edges in enumerate(outer_edges(geo.cells)):
        if is_sea[i]:
            continue
        for p, q in edges:
            svg.line(p, q, COAST_LINE, 2.0, "", "border coast")
    _unbordered_links(svg, v, geo, kinds, borders)
    svg.end("g")


def _province_fill(pos: Position, i: int, sea: bool, colors: list[str], marks: list[str]
                   ) -> str:
    """A sea's blue, the owner's mark or pale colour, or plain land."""
    if sea:
        return SEA
    if pos.owners[i] >= 0 and marks[pos.owners[i]]:
        return url(mark_id(pos.owners[i], "fill"))
    if pos.owners[i] >= 0:
        return _mix(colors[pos.owners[i]], "#ffffff", 0.38)
    return LAND


def _border_line(v: Variant, ks: set[str], sea_i: bool, sea_j: bool
                 ) -> tuple[str, float, str, str]:
    """(colour, width, dash, kind) of the border between two provinces whose edges are of
    the kinds `ks`."""
    special = sorted(k for k in ks if k not in ("land", "sea"))
    if special:
        color, width, dash = edge_style(v, special[0])
        return color, width, dash, special[0]
    if sea_i != sea_j:
        return COAST_LINE, 2.0, "", "coast"
    if sea_i:
        return SEA_LINE, 1.2, "", "sea"
    if ks:
        return LAND_LINE, 1.3, "", "land"
    return BLOCKED_LINE, 3.2, "", "impassable"


def _unbordered_links(svg: _Svg, v: Variant, geo: _Geo, kinds: dict[tuple[int, int], set[str]],
                      borders: dict[tuple[int, int], list[tuple[Point, Point]]]) -> None:
    """Map edges between provinces whose regions do not touch: a thin line between centres."""
    for (i, j), ks in kinds.items():
        if (i, j) in borders:
            continue
        special = sorted(k for k in ks if k not in ("land", "sea"))
        color, width, dash = (edge_style(v, special[0]) if special
                              else ("#5f6f7d", 2.0, "2 4"))
        cell_i, cell_j = geo.cells[i].points, geo.cells[j].points
        p, q = (closest_points(cell_i, cell_j) if cell_i and cell_j
                else (geo.site[i], geo.site[j]))
        if math.dist(p, q) < 6:  # the cells almost touch: a short mark across the gap
            mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
            p, q = _shorten(geo.site[i], geo.site[j], 0, 0)
            ux, uy = q[0] - p[0], q[1] - p[1]
            n = math.hypot(ux, uy) or 1.0
            p, q = (mx - ux / n * 8, my - uy / n * 8), (mx + ux / n * 8, my + uy / n * 8)
        svg.line(p, q, color, min(width, 2.5), dash or "2 4", "border link")


def _is_land(m: Map, prov: int) -> bool:
    army_kinds = [k for k in range(len(m.kinds)) if not m.kind_coastal[k]]
    return any(m.occupy[k][prov] for k in army_kinds) or not m.convoy_prov[prov]


def _label_pos(geo: _Geo, i: int) -> Point:
    x, y = geo.site[i]
    below = y + geo.unit_r + 15
    if below > TITLE_H + geo.height - 8:  # at the bottom edge: above the unit instead
        return (x, y - geo.unit_r * 1.6 - 6)
    return (x, below)


def _centers_and_labels(svg: _Svg, m: Map, geo: _Geo, pos: Position, colors: list[str]) -> None:
    svg.start("g", class_="labels")
    for i in range(m.n_prov):
        if not geo.cells[i].points:
            continue
        x, y = _label_pos(geo, i)
        sea = not _is_land(m, i)
        abbr = m.prov_abbr[i]
        size = 14.0
        if sea:
            svg.text(x, y, abbr, size, "#2c5d85", "bold", style="italic", halo=SEA)
        else:
            svg.text(x, y, abbr, size, "#3a3026", "bold", halo="#ffffff")
        if m.is_sc[i]:
            owner = pos.owners[i]
            cx = x - len(abbr) * size * 0.36 - 10
            cy = y - size * 0.36
            fill = colors[owner] if owner >= 0 else "#ffffff"
            svg.start("g", class_="center", data_center=abbr)
            svg.el("circle", cx=cx, cy=cy, r=7, fill=fill, stroke=INK, stroke_width=2)
            svg.el("circle", cx=cx, cy=cy, r=2.4, fill=INK)
            svg.end("g")
    svg.end("g")


# ---- units ----------------------------------------------------------------------------------

def _unit_shape(m: Map, kind: int, x: float, y: float, r: float, fill: str, stroke: str,
                dash: str | None = None, opacity: str | None = None,
                pattern: str | None = None) -> str:
    """A unit's symbol with its kind's letter; `dash`: its outline dashed, `opacity`: its
    fill see-through (a unit to be built); `pattern`: the id of its power's mark, filling
    the symbol in place of `fill` (the letter keeps `fill`'s contrast)."""
    letter = m.kinds[kind]
    tc = _text_color(fill)
    if pattern:
        fill = url(pattern)
    fs = r * 1.15
    if m.kind_names[kind].lower() == "fleet" or (letter == "F" and m.kind_coastal[kind]):
        w, h = r * 1.45, r * 0.95
        hull = [(x - w, y - h * 0.35), (x + w, y - h * 0.35), (x + w * 0.68, y + h),
                (x - w * 0.68, y + h)]
        sail = [(x - r * 0.2, y - h * 0.45), (x - r * 0.2, y - r * 1.45),
                (x + r * 0.75, y - h * 0.45)]
        return (element("polygon", points=_pts(sail), fill=fill, stroke=stroke, stroke_width=2,
                        stroke_linejoin="round", stroke_dasharray=dash, fill_opacity=opacity)
                + element("polygon", points=_pts(hull), fill=fill, stroke=stroke,
                          stroke_width=2.2, stroke_linejoin="round", stroke_dasharray=dash,
                          fill_opacity=opacity)
                + element("text", letter, x=x, y=y + h * 0.58, font_size=fs * 0.9,
                          font_weight="bold", text_anchor="middle", fill=tc))
    if m.kind_names[kind].lower() == "army" or letter == "A":
        return (element("circle", cx=x, cy=y, r=r, fill=fill, stroke=stroke, stroke_width=2.2,
                        stroke_dasharray=dash, fill_opacity=opacity)
                + element("text", letter, x=x, y=y + fs * 0.36, font_size=fs,
                          font_weight="bold", text_anchor="middle", fill=tc))
    d = r * 1.2  # any other kind (a flotilla, ...): a diamond with its letter
    pts = [(x, y - d), (x + d, y), (x, y + d), (x - d, y)]
    return (element("polygon", points=_pts(pts), fill=fill, stroke=stroke, stroke_width=2.2,
                    stroke_linejoin="round", stroke_dasharray=dash, fill_opacity=opacity)
            + element("text", letter, x=x, y=y + fs * 0.36, font_size=fs * 0.9,
                      font_weight="bold", text_anchor="middle", fill=tc))


@dataclass(frozen=True, slots=True)
class UnitPlaces:
    """Where the picture of a position draws its units, in the picture's pixels, as drawn
    (units moved within their province, _make_room, included)."""

    units: tuple[Point, ...]  # per unit of the position, in the position's order
    dislodged: tuple[Point, ...]  # per dislodged unit of the position, in its order

    def of_power(self, pos: Position, power: int) -> list[Point]:
        """Where `power`'s units and dislodged units of position `pos` are drawn."""
        return ([xy for xy, u in zip(self.units, pos.units, strict=True) if u.power == power]
                + [xy for xy, d in zip(self.dislodged, pos.dislodged, strict=True)
                   if d.power == power])


def unit_places(m: Map, geo: _Geo | BoardGeo, pos: Position, full: bool | None = None
                ) -> UnitPlaces:
    """Where each unit of position `pos` is drawn on the picture laid out as `geo`
    (map_geo), with full names or not (`full`; default: as the picture's default)."""
    if full is None:
        full = default_names(m) == "full"
    where = _places(m, geo, pos, full)
    return UnitPlaces(tuple(where[("unit#", i)] for i in range(len(pos.units))),
                      tuple(where[("dislodged", d.loc)] for d in pos.dislodged))


def _unit_places(m: Map, geo: _Geo | BoardGeo, pos: Position) -> Where:
    """Where each unit is drawn, keyed by ("unit" | "dislodged", location), by ("unit",
    location, power) (the first such unit) and by ("unit#", index in the position)."""
    r = geo.unit_r
    where: Where = {}
    stacked: dict[int, int] = {}  # units already drawn per location (an open space)
    count: dict[int, int] = {}
    for u in pos.units:
        count[u.loc] = count.get(u.loc, 0) + 1
    for i, u in enumerate(pos.units):
        p = m.loc_prov[u.loc]
        n = stacked.get(u.loc, 0)
        stacked[u.loc] = n + 1
        slots = geo.slots[p] if isinstance(geo, BoardGeo) else []
        if not slots and count[u.loc] > 1:  # schematic: side by side, centred on the place
            x0, y0 = geo.loc[u.loc]
            xy = (x0 + (n - (count[u.loc] - 1) / 2) * r * 2.5, y0)
        elif n == 0:
            xy = geo.loc[u.loc]
        elif n <= len(slots):
            xy = slots[n - 1]
        else:  # more units than places: stacked, each a little lower and to the right
            x0, y0 = slots[-1] if slots else geo.loc[u.loc]
            k = n - len(slots)
            xy = (x0 + k * r * 0.5, y0 + k * r * 0.5)
        where.setdefault(("unit", u.loc), xy)
        where.setdefault(("unit", u.loc, u.power), xy)
        where[("unit#", i)] = xy  # this very unit (several of one power may share an ocean)
    if isinstance(geo, BoardGeo):
        return where  # (the dislodged ones: _places)
    for d in pos.dislodged:
        x, y = geo.loc[d.loc]
        where[("dislodged", d.loc)] = (x + r * 1.5, y - r * 1.5)
    return where


def _places(m: Map, geo: _Geo | BoardGeo, pos: Position, full: bool) -> Where:
    """Where the picture draws each unit and dislodged unit (see _unit_places): on a
    board, units then moved within their provinces where they would touch each other or
    leave their center's marker no room (_make_room), and the dislodged units placed off
    them all."""
    where = _unit_places(m, geo, pos)
    if isinstance(geo, BoardGeo):
        _make_room(m, geo, full, pos, where)
        _place_dislodged(m, geo, pos, where)
    return where


def _place_dislodged(m: Map, geo: BoardGeo, pos: Position, where: Where) -> None:
    """Each dislodged unit at its province's dislodged place on the board, never off the
    board, and moved round its location (placement.clear_spot) where its symbol would touch
    a unit's: a fleet's hull is wider than the room some boards leave beside the unit that
    took the province."""
    r = geo.unit_r
    edge = r * 1.3
    width = geo.board.width * geo.scale

    def inside(p: Point) -> Point:
        return (min(max(p[0], edge), width - edge),
                min(max(p[1], geo.top + edge), geo.top + geo.height - edge))

    taken = _unit_boxes(m, r, pos, where)
    for d in pos.dislodged:

        def box_of(p: Point, kind: int = d.kind) -> Box:
            return _dislodged_box(m, r, kind, p)

        xy = clear_spot(inside(geo.disl[m.loc_prov[d.loc]]), geo.loc[d.loc], box_of, taken,
                        r, inside)
        where[("dislodged", d.loc)] = xy
        taken.append(box_of(xy))


def _make_room(m: Map, geo: BoardGeo, full: bool, pos: Position, where: Where) -> None:
    """Move a unit within a small supply center so that the center's marker fits beside
    it, and units apart whose symbols would touch (boardsvg.nudge_units); their orders
    start where they are drawn."""
    units = [(m.loc_prov[u.loc], where[("unit#", i)], unit_symbol(m, u.kind))
             for i, u in enumerate(pos.units)]
    for i, xy in nudge_units(m, geo, full, units).items():
        u = pos.units[i]
        old = where[("unit#", i)]
        where[("unit#", i)] = xy
        for key in (("unit", u.loc), ("unit", u.loc, u.power)):
            if where.get(key) == old:
                where[key] = xy


def _symbols_at(m: Map, geo: BoardGeo, view: PhaseView, where: Where
                ) -> list[tuple[float, float, float, float]]:
    """The boxes of the unit symbols drawn: the units, the dislodged ones, the units to be
    built (the names and markers keep off them all)."""
    pos = view.position
    r = geo.unit_r
    out = _unit_boxes(m, r, pos, where)
    out += [_dislodged_box(m, r, d.kind, where[("dislodged", d.loc)]) for d in pos.dislodged]
    out += [symbol_box(*geo.loc[d.order.loc], r, unit_symbol(m, d.order.kind))
            for d in view.orders if d.order.type == BUILD and d.order.kind is not None]
    return out


def _unit_boxes(m: Map, r: float, pos: Position, where: Where) -> list[Box]:
    """The boxes of the symbols of the position's units, where they are drawn."""
    return [symbol_box(*where[("unit#", i)], r, unit_symbol(m, u.kind))
            for i, u in enumerate(pos.units)]


def _dislodged_box(m: Map, r: float, kind: int, xy: Point) -> Box:
    """The box of a dislodged unit's symbol (drawn smaller) at xy."""
    return symbol_box(*xy, r * 0.85, unit_symbol(m, kind))


def unit_symbol(m: Map, kind: int) -> str:
    """The symbol _unit_shape draws for a unit kind: "fleet", "army" or "other"."""
    letter = m.kinds[kind]
    if m.kind_names[kind].lower() == "fleet" or (letter == "F" and m.kind_coastal[kind]):
        return "fleet"
    if m.kind_names[kind].lower() == "army" or letter == "A":
        return "army"
    return "other"


def _rule_tags(m: Map, geo: _Geo | BoardGeo, pos: Position
               ) -> list[tuple[str, str, Point, Box]]:
    """The markers the variant's rules keep on the map (a canal's progress, anchors): per
    marker its location's name, its label, and the centre and box of its tag, drawn under
    its location's unit, as wide as its label and inside the board. (It was drawn below
    left of the unit, under a fleet's hull, and names and center markers did not keep off
    it: Panamá's home center sat on "canal 3/4".)"""
    if not m.rules:
        return []
    r = geo.unit_r
    out = []
    for loc, label in m.rules.markers(m, pos):
        x, y = geo.loc[loc]
        half = max(r * 0.95, len(label) * r * 1.2 * 0.3 + r * 0.4)
        if isinstance(geo, BoardGeo):
            x = min(max(x, half + 2), geo.board.width * geo.scale - half - 2)
        y += r * 2.35
        out.append((m.loc_name[loc], label, (x, y),
                    (x - half - 1, y - r * 0.95 - 1, x + half + 1, y + r * 0.95 + 1)))
    return out


def _draw_tags(svg: _Svg, tags: list[tuple[str, str, Point, Box]], r: float) -> None:
    for name, label, (x, y), (x0, _y0, x1, _y1) in tags:
        svg.start("g", class_="marker", data_marker=name)
        svg.el("rect", x=x0 + 1, y=y - r * 0.95, width=x1 - x0 - 2, height=r * 1.9,
               rx=r * 0.95, fill="#ffffff", stroke=INK, stroke_width=1.8)
        svg.el("text", label, x=x, y=y + r * 0.4, font_size=r * 1.2, text_anchor="middle",
               fill=INK)
        svg.end("g")


def _units(svg: _Svg, m: Map, geo: _Geo | BoardGeo, view: PhaseView, colors: list[str],
           where: Where, marks: list[str] | None = None) -> None:
    pos = view.position
    marks = marks or [""] * len(colors)
    pat = [mark_id(p, "unit") if mk else None for p, mk in enumerate(marks)]
    r = geo.unit_r
    dislodged_now = {(o.power, o.order.loc) for o in view.orders if o.dislodged}
    svg.start("g", class_="units")
    for i, u in enumerate(pos.units):
        x, y = where[("unit#", i)]
        name = m.unit_str(u.kind, u.loc)
        svg.start("g", class_="unit", data_unit=name, data_power=m.powers[u.power],
                  data_at=_pts([(x, y)]))
        if (u.power, u.loc) in dislodged_now:
            svg.el("circle", cx=x, cy=y, r=r * 1.75, fill="none", stroke=FAIL, stroke_width=3,
                   stroke_dasharray="5 3")
        svg.add(_unit_shape(m, u.kind, x, y, r, colors[u.power], INK, pattern=pat[u.power]))
        svg.end("g")
    for d in pos.dislodged:
        x, y = where[("dislodged", d.loc)]
        name = m.unit_str(d.kind, d.loc)
        svg.start("g", class_="unit dislodged", data_unit=name, data_power=m.powers[d.power],
                  data_at=_pts([(x, y)]), opacity="0.92")
        svg.add(_unit_shape(m, d.kind, x, y, r * 0.85, colors[d.power], FAIL, "4 2",
                            pattern=pat[d.power]))
        svg.end("g")
    svg.end("g")


# ---- orders ---------------------------------------------------------------------------------

def _shorten(p: Point, q: Point, a: float, b: float) -> tuple[Point, Point]:
    dx, dy = q[0] - p[0], q[1] - p[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    a = min(a, n * 0.35)
    b = min(b, n * 0.45)
    return (p[0] + ux * a, p[1] + uy * a), (q[0] - ux * b, q[1] - uy * b)


def _curve(p: Point, q: Point, bend: float = 0.12) -> tuple[Point, Point, Point]:
    """A gentle arc p → q (control point to the left of travel): swaps do not overlap."""
    mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
    dx, dy = q[0] - p[0], q[1] - p[1]
    c = (mx + dy * bend, my - dx * bend)
    return p, c, q


def _bez(p: Point, c: Point, q: Point, t: float) -> Point:
    s = 1 - t
    return (s * s * p[0] + 2 * s * t * c[0] + t * t * q[0],
            s * s * p[1] + 2 * s * t * c[1] + t * t * q[1])


def _arrow_head(tip: Point, frm: Point, size: float) -> list[Point]:
    dx, dy = tip[0] - frm[0], tip[1] - frm[1]
    n = math.hypot(dx, dy) or 1.0
    ux, uy = dx / n, dy / n
    base = (tip[0] - ux * size, tip[1] - uy * size)
    w = size * 0.62
    return [tip, (base[0] - uy * w, base[1] + ux * w), (base[0] + uy * w, base[1] - ux * w)]


def _cross(svg: _Svg, x: float, y: float, s: float, color: str = FAIL) -> None:
    svg.start("g", class_="fail-mark")
    svg.el("circle", cx=x, cy=y, r=s * 1.05, fill="#ffffff", stroke=color, stroke_width=2)
    k = s * 0.55
    svg.line((x - k, y - k), (x + k, y + k), color, 3.2)
    svg.line((x - k, y + k), (x + k, y - k), color, 3.2)
    svg.end("g")


def _badge(svg: _Svg, x: float, y: float, kind: str, ok: bool = True) -> None:
    """A plus (build) or cross (remove / disband) badge next to a unit."""
    color = "#1b8a2e" if kind == "plus" else FAIL
    if not ok:
        color = "#777777"
    svg.start("g", class_="badge " + kind)
    svg.el("circle", cx=x, cy=y, r=BADGE_R - 1, fill=color, stroke="#ffffff", stroke_width=2)
    if kind == "plus":
        svg.line((x - 5, y), (x + 5, y), "#ffffff", 2.8)
        svg.line((x, y - 5), (x, y + 5), "#ffffff", 2.8)
    else:
        svg.line((x - 4, y - 4), (x + 4, y + 4), "#ffffff", 2.8)
        svg.line((x - 4, y + 4), (x + 4, y - 4), "#ffffff", 2.8)
    svg.end("g")


def _orders(svg: _Svg, m: Map, geo: _Geo | BoardGeo, view: PhaseView, colors: list[str],
            where: Where,
            lines: list[tuple[Point, float]] | None = None) -> None:
    """The orders; `lines` (when given) gets points along every order's line as drawn, each
    with the line's half width, for the names to keep off (order_boxes)."""
    lines = [] if lines is None else lines
    occupied = {m.loc_prov[u.loc] for u in view.position.units}
    svg.start("g", class_="orders")
    # supports and convoys under moves; holds; then moves and retreats on top
    rank = {SUPPORT: 0, CONVOY: 0, HOLD: 1, MOVE: 2, RETREAT: 2, BUILD: 3, DISBAND: 3}
    tags: dict[int, int] = {}  # attack tags drawn over each place so far
    links: list[tuple[Point, Point]] = []  # supports' and convoys' lines so far
    for d in sorted(view.orders, key=lambda d: rank.get(d.order.type, 4)):
        o = d.order
        color = colors[d.power]
        text = o.format(m)
        kind = {HOLD: "hold", MOVE: "move", SUPPORT: "support", CONVOY: "convoy",
                RETREAT: "retreat", BUILD: "build", DISBAND: "disband"}.get(o.type, "other")
        if view.position.phase.type == "A" and o.type == DISBAND:
            kind = "remove"
        failed = d.failed and not (o.type == DISBAND and "void" not in (d.result or []))
        cls = f"order {kind}" + (" failed" if failed else "")
        res = ", ".join(d.result or [])
        svg.start("g", class_=cls, data_order=text, data_power=m.powers[d.power],
                  data_result=res, data_reason=d.reason if failed and d.reason else None)
        if failed and d.why:  # (a tooltip: why it failed)
            svg.el("title", f"{res}: {d.why}")
        _draw_order(svg, m, geo, view, d, color, where, occupied, tags, lines, links)
        svg.end("g")
    svg.end("g")


def _draw_order(svg: _Svg, m: Map, geo: _Geo | BoardGeo, view: PhaseView, d: DrawnOrder,
                color: str, where: Where, occupied: set[int],
                tags: dict[int, int], lines: list[tuple[Point, float]],
                links: list[tuple[Point, Point]]) -> None:
    """One order's marks: a hold's ring, a move's or retreat's arrow, a support's or
    convoy's link, a build's or removal's badge (points along its line added to `lines`;
    a link's ends to `links`, the links drawn so far)."""
    o = d.order
    r = geo.unit_r
    if o.type == HOLD:
        if d.explicit:
            x, y = where.get(("unit", o.loc, d.power), geo.loc[o.loc])
            svg.el("circle", cx=x, cy=y, r=r * 1.5, fill="none", stroke=INK,
                   stroke_width=6)
            svg.el("circle", cx=x, cy=y, r=r * 1.5, fill="none", stroke=color,
                   stroke_width=3.4, stroke_dasharray="6 4" if d.failed else None)
        if o.at >= 0:  # an attack where it stands (an ocean): tags stacked above it
            x, y = where.get(("unit", o.loc), geo.loc[o.loc])
            i = tags[o.loc] = tags.get(o.loc, -1) + 1
            _attack_label(svg, m, x, y - r * 2.6 - i * 22, o.at, color)
    elif o.type in (MOVE, RETREAT) and o.target is not None:
        src = (where.get(("dislodged", o.loc), geo.loc[o.loc]) if o.type == RETREAT
               else where.get(("unit", o.loc, d.power), geo.loc[o.loc]))
        dst = geo.loc[o.target]
        end_gap = r * 1.25 if m.loc_prov[o.target] in occupied else r * 0.5
        for a, b in _across_seam(geo, src, dst):
            lines += _arrow(svg, a, b, color, r * 1.1, end_gap, d.failed,
                            dash="10 5" if o.type == RETREAT else "",
                            width=4.2 if o.type == MOVE else 3.6)
        if o.at >= 0:  # a move that attacks a power's units where it goes
            near = _beside(geo, src, dst)
            _, c, _ = _curve(src, near)
            x, y = _wrapped(geo, _bez(src, c, near, 0.6))
            _attack_label(svg, m, x, y - r * 1.2, o.at, color)
    elif o.type in (SUPPORT, CONVOY) and o.aux_loc is not None:
        src = where.get(("unit", o.loc, d.power), geo.loc[o.loc])
        aux = _aux_loc(m, view, o.aux_loc)
        a = where.get(("unit", aux), geo.loc[aux])
        if o.target is not None:
            b = _beside(geo, a, geo.loc[o.target])
            _, c, _ = _curve(a, b)
            tgt = _wrapped(geo, _bez(a, c, b, 0.5))
            gap = 3.0
        else:
            tgt, gap = a, r * 1.35
        for a, b in _across_seam(geo, src, tgt):
            lines += _link(svg, a, b, color, r * 1.1, gap, d.failed,
                           "8 5" if o.type == SUPPORT else "1.5 5",
                           hold_ring=o.target is None, drawn=links)
    elif o.type == BUILD:
        x, y = geo.loc[o.loc]
        if o.kind is not None:
            svg.add(_unit_shape(m, o.kind, x, y, r, color, INK, "4 3", "0.55"))
        badge = (x + r * BADGE_AT[0], y + r * BADGE_AT[1])
        _badge(svg, *badge, "plus", not d.failed)
        lines.append((badge, BADGE_R))
        if d.failed:
            _cross(svg, x, y, 8)
    elif o.type == DISBAND:
        key = ("dislodged", o.loc) if view.position.phase.type == "R" else ("unit", o.loc)
        x, y = where.get(key, geo.loc[o.loc])
        badge = (x + r * BADGE_AT[0], y + r * BADGE_AT[1])
        _badge(svg, *badge, "cross", "void" not in (d.result or []))
        lines.append((badge, BADGE_R))


def _across_seam(geo: _Geo | BoardGeo, src: Point, dst: Point) -> list[tuple[Point, Point]]:
    """The line from `src` to `dst` as drawn: on a board that wraps, an order between places
    more than half the map apart goes the short way, across the seam: off one edge and in at
    the other (two lines, each cut by the frame)."""
    if not isinstance(geo, BoardGeo) or not geo.board.projection.get("wrap"):
        return [(src, dst)]
    width = geo.board.width * geo.scale
    dx = dst[0] - src[0]
    if abs(dx) <= width / 2:
        return [(src, dst)]
    shift = -width if dx > 0 else width
    return [(src, (dst[0] + shift, dst[1])), ((src[0] - shift, src[1]), dst)]


def _beside(geo: _Geo | BoardGeo, a: Point, b: Point) -> Point:
    """On a board that wraps, b or its copy one board's width left or right, whichever is
    nearer a: the point b is reached at going the short way from a."""
    if not isinstance(geo, BoardGeo) or not geo.board.projection.get("wrap"):
        return b
    width = geo.board.width * geo.scale
    if b[0] - a[0] > width / 2:
        return (b[0] - width, b[1])
    if a[0] - b[0] > width / 2:
        return (b[0] + width, b[1])
    return b


def _wrapped(geo: _Geo | BoardGeo, p: Point) -> Point:
    """A point past a wrapping board's left or right edge, at its place on the board."""
    if not isinstance(geo, BoardGeo) or not geo.board.projection.get("wrap"):
        return p
    width = geo.board.width * geo.scale
    return (p[0] % width, p[1])


def _attack_label(svg: _Svg, m: Map, x: float, y: float, power: int, color: str) -> None:
    """'AT Brazil' on a tag of the attacker's colour: the power an attack order names."""
    text = f"AT {m.powers[power]}"
    fs = 15.0
    w = len(text) * fs * 0.56 + 10
    svg.el("rect", x=x - w / 2, y=y - fs * 0.85, width=w, height=fs * 1.35, rx=4, fill=color,
           stroke=INK, stroke_width=1.5)
    svg.el("text", text, x=x, y=y + fs * 0.2, font_size=fs, font_weight="bold",
           text_anchor="middle", fill=_text_color(color))


def _aux_loc(m: Map, view: PhaseView, aux_loc: int) -> int:
    """The location of the unit a support or convoy names (`aux_loc`, the order's: its coast
    if it has one)."""
    prov = m.loc_prov[aux_loc]
    for u in view.position.units:
        if m.loc_prov[u.loc] == prov:
            return u.loc
    return aux_loc


LINE_STEP = 5.0  # px between the points order_boxes keeps along an order's line


def _along(p: Point, c: Point, q: Point, half: float) -> list[tuple[Point, float]]:
    """Points every LINE_STEP px along the curve p-c-q (a straight line when c is its
    middle), each with the line's half width."""
    n = max(1, math.ceil((math.dist(p, c) + math.dist(c, q)) / LINE_STEP))
    return [(_bez(p, c, q, k / n), half) for k in range(n + 1)]


def order_boxes(lines: list[tuple[Point, float]]) -> list[tuple[float, float, float, float]]:
    """Boxes round the points along the orders' lines (from _orders): what the names keep
    off, as they keep off the units."""
    return [(x - h, y - h, x + h, y + h) for (x, y), h in lines]


def _arrow(svg: _Svg, src: Point, dst: Point, color: str, start_gap: float, end_gap: float,
           failed: bool, dash: str = "", width: float = 4.2) -> list[tuple[Point, float]]:
    """A move's arrow; returns points along it (_along) and its failure mark."""
    p, q = _shorten(src, dst, start_gap, end_gap)
    p, c, q = _curve(p, q)
    head = 15.0
    # stop the shaft at the arrow head's base
    t_end = 1.0 - min(0.45, head * 0.8 / (math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0))
    shaft_end = _bez(p, c, q, t_end)
    # the part 0..t_end of the curve has its control point at p + t_end·(c - p)
    c2 = (p[0] + t_end * (c[0] - p[0]), p[1] + t_end * (c[1] - p[1]))
    path = Coords.of("M", p[0], p[1], "Q", c2[0], c2[1], shaft_end[0], shaft_end[1])
    if failed and not dash:
        dash = "11 6"
    svg.el("path", d=path, fill="none", stroke=INK, stroke_width=width + 3,
           stroke_linecap="round", stroke_dasharray=dash or None)
    svg.el("path", d=path, fill="none", stroke=color, stroke_width=width,
           stroke_linecap="round", stroke_dasharray=dash or None)
    before = _bez(p, c, q, 0.85)
    svg.el("polygon", points=_pts(_arrow_head(q, before, head)), fill=color, stroke=INK,
           stroke_width=2, stroke_linejoin="round")
    out = _along(p, c2, shaft_end, width / 2 + 2.5) + [(q, head * 0.5)]
    if failed:
        x, y = _bez(p, c, q, 0.55)
        _cross(svg, x, y, 8)
        out.append(((x, y), 8 * 1.05 + 1))
    return out


LINK_NEAR = 6.0  # px: a link passing this near another's line runs along it ...
LINK_SHARED = 2  # ... at this many of its five inner points: it is drawn bent
LINK_BEND = (0.14, 16.0)  # the bend: this share of its length from the line, at least px


def _link(svg: _Svg, src: Point, tgt: Point, color: str, start_gap: float, end_gap: float,
          failed: bool, dash: str, hold_ring: bool, drawn: list[tuple[Point, Point]]
          ) -> list[tuple[Point, float]]:
    """A support's or convoy's line; returns points along it (_along). Straight, unless it
    would run along a link drawn before (`drawn`, to which it is added): two supports of one
    unit from places in a line with it drew one line. Then it bends (a quadratic curve),
    to one side or the other in turn."""
    p, q = _shorten(src, tgt, start_gap, end_gap)
    c = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
    along = sum(1 for a, b in drawn if _runs_along(p, q, a, b))
    drawn.append((p, q))
    if along:
        length = math.dist(p, q) or 1.0
        off = max(LINK_BEND[0] * length, LINK_BEND[1]) * (1 if along % 2 else -1) * (
            (along + 1) // 2)
        c = (c[0] - (q[1] - p[1]) / length * off, c[1] + (q[0] - p[0]) / length * off)
        path = Coords.of("M", p[0], p[1], "Q", c[0], c[1], q[0], q[1])
        for stroke, width in ((INK, 5.6), (color, 3.0)):
            svg.el("path", d=path, fill="none", stroke=stroke, stroke_width=width,
                   stroke_dasharray=dash)
    else:
        svg.line(p, q, INK, 5.6, dash)
        svg.line(p, q, color, 3.0, dash)
    out = _along(p, c, q, 5.6 / 2 + 1.5)
    if hold_ring:
        svg.el("circle", cx=tgt[0], cy=tgt[1], r=end_gap, fill="none", stroke=color,
               stroke_width=2.6, stroke_dasharray=dash)
    else:
        svg.el("circle", cx=q[0], cy=q[1], r=5, fill=color, stroke=INK, stroke_width=1.8)
    if failed:
        x, y = _bez(p, c, q, 0.5)
        _cross(svg, x, y, 7)
        out.append(((x, y), 7 * 1.05 + 1))
    return out


def _runs_along(p: Point, q: Point, a: Point, b: Point) -> bool:
    """Whether the line p-q passes within LINK_NEAR px of the line a-b at LINK_SHARED of
    its points at 1/6 ... 5/6 of its length."""
    near = 0
    for k in range(1, 6):
        t = k / 6
        x, y = p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])
        if _to_segment((x, y), a, b) < LINK_NEAR:
            near += 1
    return near >= LINK_SHARED


def _to_segment(pt: Point, a: Point, b: Point) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((pt[0] - a[0]) * dx + (pt[1] - a[1]) * dy) / n))
    return math.hypot(pt[0] - a[0] - t * dx, pt[1] - a[1] - t * dy)


# ---- title and legend -----------------------------------------------------------------------

def _title(svg: _Svg, v: Variant, pos: Position, title: str, map_w: float) -> None:
    svg.el("rect", width=WIDTH, height=TITLE_H, fill="#2b2f36")
    head = f"{v.title} — {season_name(v.calendar, pos.phase)} ({pos.phase.name})"
    svg.text(24, 42, head, 28, "#ffffff", "bold", anchor="start")
    if title:
        svg.text(WIDTH - 24, 42, title, 20, "#d8dbe0", anchor="end")


POWERS_PER_ROW = 4
KEY_ITEM_W = 196


def _key_items(m: Map, board: bool = False) -> list[str]:
    """The legend's key; `board`: what only a board draws too (capitals, territories,
    classes of provinces)."""
    items = ["army", "fleet"] + [m.kind_names[k] for k in range(len(m.kinds))
                                 if m.kinds[k] not in ("A", "F")]
    items += ["supply center", "home center", "move", "retreat", "support", "convoy", "hold",
              "failed order", "dislodged unit", "build / remove", "no passage"]
    v = m.variant
    crossing = set()  # kinds joining two provinces of one surface (not a coast)
    for e in v.edges:
        a, b = m.prov_index[e.a.split("/")[0]], m.prov_index[e.b.split("/")[0]]
        if a != b and _is_land(m, a) == _is_land(m, b):
            crossing.add(e.kind)
    for k in sorted(v.edge_kinds):
        if k in ("land", "sea"):
            continue
        name = k.replace("_", " ")
        if border_class(v, k):
            items.append(f"{name} border")
        elif k in crossing:
            items.append(f"{name} crossing")
    if not board:
        return items
    if any(p.supply_center == "capital" for p in v.provinces.values()):
        items.append("capital")
    if any(p.territory for p in v.powers):
        items.append("territory")
    items += [_terrain_label(cls) for cls, _w, _p in m.caches.terrain or []]
    return items


def _terrain_label(cls: str) -> str:
    return cls if cls.endswith(("space", "province")) else f"{cls} province"


def _key_layout(m: Map, board: bool = False) -> list[tuple[str, float, int]]:
    """The legend's key items, flowed into rows: (label, x, row); worked out once per map
    (the edge kinds it looks through do not change)."""
    out = m.caches.key_layouts.get(board)  # a board shows more (its terrain classes...)
    if out is None:
        out = m.caches.key_layouts[board] = _flow_key(m, board)
    return out


def _flow_key(m: Map, board: bool = False) -> list[tuple[str, float, int]]:
    out = []
    x, row = 14.0, 0
    for label in _key_items(m, board):
        w = max(KEY_ITEM_W, 68 + len(label) * 16 * 0.52 + 20)
        if x + w > WIDTH - 8 and x > 14:
            x, row = 14.0, row + 1
        out.append((label, x, row))
        x += w
    return out


def _events(svg: _Svg, events: list[tuple[str, str]], top: float) -> None:
    """One line per event of the phase: `<text data-event="canal_opened">`."""
    svg.start("g", class_="events")
    for i, (code, words) in enumerate(events):
        y = top + (i + 0.7) * EVENT_ROW
        svg.el("text", words, x=20, y=y, font_size=17, fill=INK, data_event=code)
    svg.end("g")


CODE_ROW = 21  # the key to the provinces drawn by code: one line of it
CODE_SIZE = 13.0


def _code_key(m: Map, geo: _Geo | BoardGeo, full: bool) -> list[int]:
    """The provinces a board with full names still draws by their code (where the name
    does not fit): the legend lists them with their names."""
    if not full or not isinstance(geo, BoardGeo):
        return []
    anchors = geo.board.anchors
    return sorted((i for i in range(m.n_prov)
                   if anchors[m.prov_abbr[i]].get("short_label", False)),
                  key=lambda i: m.prov_abbr[i])


def _code_columns(m: Map, codes: list[int]) -> tuple[int, float]:
    """(columns, column width) of the key to `codes`."""
    longest = max(len(m.prov_abbr[i]) + 1 + len(m.variant.provinces[m.prov_abbr[i]].name)
                  for i in codes)
    col_w = longest * CODE_SIZE * 0.6 + 24
    return max(1, int((WIDTH - 40) // col_w)), col_w


def _passage_lines(m: Map) -> list[str]:
    """The passages the rules name ("Kiel Canal: Helgoland Bight – Baltic Sea"), flowed into
    lines of the legend's width."""
    if m.caches.passage_lines is None:
        provs = m.variant.provinces
        entries = sorted(
            f"{name}: {' – '.join(sorted(provs[a].name if a in provs else a for a in pair))}"
            for pair, name in named_passages(m.variant).items())
        lines: list[str] = []
        for e in entries:
            if lines and (len(lines[-1]) + 5 + len(e)) * CODE_SIZE * 0.56 < WIDTH - 40:
                lines[-1] += "   ·   " + e
            else:
                lines.append(e)
        m.caches.passage_lines = lines
    return m.caches.passage_lines


def _legend_height(m: Map, codes: list[int] | None = None, board: bool = False) -> float:
    power_rows = -(-len(m.powers) // POWERS_PER_ROW)
    key_rows = _key_layout(m, board)[-1][2] + 1
    extra = len(_passage_lines(m)) * CODE_ROW + (12 if _passage_lines(m) else 0)
    if codes:  # (below the passages, when there are both)
        cols, _w = _code_columns(m, codes)
        extra += 12 + -(-len(codes) // cols) * CODE_ROW + 8
    return 24 + power_rows * KEY_ROW + 12 + key_rows * KEY_ROW + 16 + extra


def _legend(svg: _Svg, m: Map, pos: Position, colors: list[str], top: float, r: float,
            marks: list[str] | None = None, codes: list[int] | None = None,
            board: bool = False) -> None:
    marks = marks or [""] * len(colors)
    svg.start("g", class_="legend")
    svg.el("rect", x=0, y=top, width=WIDTH, height=_legend_height(m, codes, board),
           fill="#ffffff", stroke="#b9b2a3", stroke_width=1)
    y = top + 24
    _legend_powers(svg, m, pos, colors, marks, y)
    rows = -(-len(m.powers) // POWERS_PER_ROW)
    y += rows * KEY_ROW + 12
    svg.line((20, y - 8), (WIDTH - 20, y - 8), "#d8d2c4", 1)
    _legend_symbols(svg, m, y, r, board)
    y += (_key_layout(m, board)[-1][2] + 1) * KEY_ROW + 8
    passages = _passage_lines(m)
    if passages:  # the passages the rules name, with the provinces they join
        svg.line((20, y), (WIDTH - 20, y), "#d8d2c4", 1)
        svg.start("g", class_="passages")
        for n, line in enumerate(passages):
            svg.text(20, y + 12 + n * CODE_ROW + 13, line, CODE_SIZE, INK, anchor="start")
        svg.end("g")
        y += len(passages) * CODE_ROW + 12
    if codes:
        _draw_code_key(svg, m, codes, y)
    svg.end("g")


def _legend_powers(svg: _Svg, m: Map, pos: Position, colors: list[str], marks: list[str],
                   y: float) -> None:
    """Each power's colour (or mark), name and counts of centres and units, in rows."""
    cell_w = (WIDTH - 40) / POWERS_PER_ROW
    for p, name in enumerate(m.powers):
        row, col = divmod(p, POWERS_PER_ROW)
        x = 20 + col * cell_w
        yy = y + row * KEY_ROW + 14
        n_sc = len(pos.centers_of(p))
        if m.has_center_values:  # as the report counts them: a capital worth 2 counts twice
            n_sc = sum(m.sc_value[c] for c in pos.centers_of(p))
        n_u = sum(1 for u in pos.units if u.power == p)
        svg.el("rect", x=x, y=yy - 19, width=30, height=26, rx=5,
               fill=url(mark_id(p, "unit")) if marks[p] else colors[p], stroke=INK,
               stroke_width=1.5, data_mark=marks[p] or None)
        counts = (f"{n_sc} center{'' if n_sc == 1 else 's'} · "
                  f"{n_u} unit{'' if n_u == 1 else 's'}")
        # a long name is drawn smaller rather than under its counts
        room = cell_w - 30 - 40 - len(counts) * 16 * 0.47 - 12
        if m.power_neutral[p]:  # (drawn in grey: say why)
            name += " (neutral)"
        size = max(13.0, min(19.0, room / (max(len(name), 1) * 0.6)))
        svg.text(x + 40, yy, name, size, INK, "bold", anchor="start")
        svg.text(x + cell_w - 30, yy, counts, 16, "#4a4a4a", anchor="end")


_KEY_GRAY = "#9a9a9a"


def _legend_symbols(svg: _Svg, m: Map, y: float, r: float, board: bool) -> None:
    """The key: each symbol the picture may use, drawn in grey, with its label."""
    for label, x, row in _key_layout(m, board):
        yy = y + row * KEY_ROW + 16
        svg.text(x + 68, yy + 6, label, 16, INK, anchor="start")
        if not (_key_unit_or_center(svg, m, label, x, yy, r)
                or _key_order(svg, m, label, x, yy, r)):
            _key_line_or_terrain(svg, m, label, x, yy)


def _army_kind(m: Map) -> int:
    return next((k for k in range(len(m.kinds)) if m.kinds[k] == "A"), 0)


def _key_unit_or_center(svg: _Svg, m: Map, label: str, x: float, yy: float, r: float
                        ) -> bool:
    """Draw the key's unit kinds, centres and territory symbol; False for other labels."""
    sx = x + 30  # the symbol's centre
    gray = _KEY_GRAY
    if label in ("army", "fleet") or label in m.kind_names:
        army = _army_kind(m)
        k = next((i for i in range(len(m.kinds)) if m.kind_names[i] == label),
                 army if label == "army" else 0)
        if label == "fleet":
            k = next((i for i in range(len(m.kinds)) if m.kinds[i] == "F"), k)
        svg.add(_unit_shape(m, k, sx, yy + 2, r * 0.85, gray, INK))
    elif label == "supply center":
        svg.el("circle", cx=sx, cy=yy, r=7, fill="#ffffff", stroke=INK, stroke_width=2)
        svg.el("circle", cx=sx, cy=yy, r=2.4, fill=INK)
    elif label == "home center":
        svg.el("circle", cx=sx, cy=yy, r=8.2, fill=gray, stroke=INK, stroke_width=1.2)
        svg.el("circle", cx=sx, cy=yy, r=5.6, fill="#ffffff", stroke=INK,
               stroke_width=1.6)
        svg.el("circle", cx=sx, cy=yy, r=1.9, fill=INK)
    elif label == "capital":
        svg.el("circle", cx=sx, cy=yy, r=7, fill="#ffffff", stroke=INK, stroke_width=2)
        center_core(svg, sx, yy, True)
    elif label == "territory":  # a power's outline, just inside its provinces
        svg.el("rect", x=x + 2, y=yy - 11, width=56, height=22, rx=2, fill=LAND,
               stroke=LAND_LINE, stroke_width=1)
        svg.el("rect", x=x + 5, y=yy - 8, width=50, height=16, rx=1, fill="none",
               stroke=gray, stroke_width=2.4)
    else:
        return False
    return True


def _key_order(svg: _Svg, m: Map, label: str, x: float, yy: float, r: float) -> bool:
    """Draw the key's order symbols; False for other labels."""
    sx = x + 30  # the symbol's centre
    gray = _KEY_GRAY
    if label == "move":
        _arrow(svg, (x, yy), (x + 62, yy), gray, 0, 0, False)
    elif label == "retreat":
        _arrow(svg, (x, yy), (x + 62, yy), gray, 0, 0, False, dash="10 5", width=3.6)
    elif label == "support":
        _link(svg, (x, yy), (x + 58, yy), gray, 0, 0, False, "8 5", False, [])
    elif label == "convoy":
        _link(svg, (x, yy), (x + 58, yy), gray, 0, 0, False, "1.5 5", False, [])
    elif label == "hold":
        svg.add(_unit_shape(m, _army_kind(m), sx, yy, r * 0.7, gray, INK))
        svg.el("circle", cx=sx, cy=yy, r=r * 1.1, fill="none", stroke=INK, stroke_width=6)
        svg.el("circle", cx=sx, cy=yy, r=r * 1.1, fill="none", stroke=gray,
               stroke_width=3.4)
    elif label == "failed order":
        _arrow(svg, (x, yy), (x + 62, yy), gray, 0, 0, True)
    elif label == "dislodged unit":
        svg.add(_unit_shape(m, _army_kind(m), sx, yy, r * 0.8, gray, FAIL, "4 2"))
    elif label == "build / remove":
        _badge(svg, sx - 13, yy, "plus")
        _badge(svg, sx + 13, yy, "cross")
    else:
        return False
    return True


def _key_line_or_terrain(svg: _Svg, m: Map, label: str, x: float, yy: float) -> None:
    """Draw the key's impassable line, a terrain class or an edge kind."""
    terrain = {_terrain_label(c): (c, w) for c, w, _p in
               m.caches.terrain or []}
    if label == "no passage":
        svg.line((x, yy), (x + 60, yy), BLOCKED_LINE, 3.2)
    elif label in terrain:  # a class of provinces: its pattern on land or sea
        cls, water = terrain[label]
        for fill in (SEA if water else LAND, url(terrain_id(cls))):
            svg.el("rect", x=x + 2, y=yy - 11, width=56, height=22, rx=3, fill=fill,
                   stroke=INK if fill.startswith("url") else "none", stroke_width=1)
    else:  # an edge kind: "<kind> crossing" or "<kind> border"
        edge_names = {k.replace("_", " "): k for k in m.variant.edge_kinds}
        kind = edge_names.get(label.rsplit(" ", 1)[0], "")
        color, width, dash = edge_style(m.variant, kind)
        svg.line((x, yy), (x + 60, yy), color, width, dash)


def _draw_code_key(svg: _Svg, m: Map, codes: list[int], top: float) -> None:
    """The provinces drawn by code, each with its name, in columns (down, then across)."""
    svg.line((20, top), (WIDTH - 20, top), "#d8d2c4", 1)
    cols, col_w = _code_columns(m, codes)
    rows = -(-len(codes) // cols)
    name_x = max(len(m.prov_abbr[i]) for i in codes) * CODE_SIZE * 0.8 + 8
    svg.start("g", class_="code-key")
    for n, i in enumerate(codes):
        col, row = divmod(n, rows)
        x, y = 20 + col * col_w, top + 12 + row * CODE_ROW + 13
        abbr = m.prov_abbr[i]
        svg.start("g", class_="code", data_code=abbr)
        svg.text(x, y, abbr, CODE_SIZE, INK, "bold", anchor="start")
        svg.text(x + name_x, y, m.variant.provinces[abbr].name,
                 CODE_SIZE, "#4a4a4a", anchor="start")
        svg.end("g")
    svg.end("g")
