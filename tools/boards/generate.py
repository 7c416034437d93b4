"""Generate a variant's board (its map drawn on real geography) from Natural Earth data.

    python tools/boards/generate.py wita [--hints FILE] [--out FILE] [--cache DIR] [--png FILE]

Run once per variant by a variant author, never at play time. Needs the `boards` extra
(`pip install -e '.[boards]'`: shapely, numpy, scipy, pillow, pyshp), `apt-get` and
`dpkg-deb` (Debian/Ubuntu) to fetch its inputs. Steered by `tools/boards/hints/NAME.toml`;
writes `src/polydip/variants/data/NAME.board.json` (or --out) and prints the figures of
`polydip variant check NAME --board`. See docs/boards.md.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import tomllib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

import anchors  # noqa: E402
import assign  # noqa: E402
import fatten  # noqa: E402
import geodata  # noqa: E402
import grid  # noqa: E402
import project  # noqa: E402
import tracing  # noqa: E402
import writer  # noqa: E402
from geodata import say  # noqa: E402

from polydip.compile import compile_map  # noqa: E402
from polydip.render.board import province_on_land  # noqa: E402
from polydip.variants.loader import load_variant  # noqa: E402


class Timer:
    def __init__(self) -> None:
        self.t0 = time.perf_counter()
        self.last = self.t0

    def step(self, what: str) -> None:
        now = time.perf_counter()
        say(f"[{now - self.t0:6.1f} s] {what}")
        self.last = now


def read_hints(path: Path) -> dict:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SystemExit(f"{path}: {exc}") from exc


def pair_set(m, items, what: str) -> set[tuple[int, int]]:
    out = set()
    for item in items:
        if len(item) != 2 or any(a not in m.prov_index for a in item):
            raise SystemExit(f"hints {what}: {item!r} is not a pair of province abbreviations")
        a, b = (m.prov_index[x] for x in item)
        out.add((min(a, b), max(a, b)))
    return out


def default_slots(v) -> int:
    """How many more units an open space (no stacking limit) has room for by default: a
    fleet of every other power and two more."""
    return len(v.powers) + 1


def read_boxes(hints: dict, m, hints_path: Path) -> dict[int, dict]:
    """Off-map spaces drawn as a box: province → its `[[boxes]]` entry: either `size_px`
    (width, height) with `center` (a [lat, lon] point) or `at_px` ([x, y] board px) for
    its centre, or `rects_px`: rectangles [x0, y0, x1, y1] in board px whose union is the
    box (a lane round a corner). A negative px value counts from the right or bottom edge;
    rectangles are clipped to the frame."""
    out = {}
    for item in hints.get("boxes", []):
        a = item.get("province")
        if a not in m.prov_index:
            raise SystemExit(f"{hints_path}: boxes: unknown province {a!r}")
        ways = ("center" in item) + ("at_px" in item) + ("rects_px" in item)
        if ways != 1 or (("rects_px" in item) == ("size_px" in item)):
            raise SystemExit(f"{hints_path}: boxes: {a} needs rects_px, or size_px and one "
                             "of center, at_px")
        out[m.prov_index[a]] = item
    return out


def place_boxes(gr, proj, boxes: dict[int, dict], ss: int) -> dict[int, list[list[float]]]:
    """Clear each box's rectangles to water (what geography lay there is covered by the
    box); province → its rectangles [x0, y0, x1, y1] in board px."""
    out = {}

    def edge(v: float, size: int) -> float:
        return v + size if v < 0 else v

    for p, item in boxes.items():
        if "rects_px" in item:
            rects = [[edge(float(x0), proj.width), edge(float(y0), proj.height),
                      edge(float(x1), proj.width), edge(float(y1), proj.height)]
                     for x0, y0, x1, y1 in item["rects_px"]]
        else:
            w, h = (float(c) for c in item["size_px"])
            if "center" in item:
                lat, lon = item["center"]
                x, y = proj.px([lon], [lat])
                cx, cy = float(x[0]), float(y[0])
            else:
                cx, cy = (edge(float(c), n) for c, n in zip(item["at_px"], (
                    proj.width, proj.height), strict=True))
            rects = [[cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]]
        out[p] = []
        for x0, y0, x1, y1 in rects:
            x0, y0 = max(x0, 0.0), max(y0, 0.0)
            x1, y1 = min(x1, proj.width), min(y1, proj.height)
            x0, y0, x1, y1 = (round(c * ss) / ss for c in (x0, y0, x1, y1))
            sl = np.s_[int(y0 * ss):int(y1 * ss), int(x0 * ss):int(x1 * ss)]
            gr.part[sl] = 0
            gr.lake[sl] = False
            out[p].append([x0, y0, x1, y1])
    return out


def box_outline(rects: list[list[float]]) -> list[list[float]]:
    """The outline of a union of rectangles, as a closed list of [x, y] points."""
    import shapely

    union = shapely.union_all([shapely.box(*r) for r in rects])
    if union.geom_type != "Polygon":
        raise SystemExit("a box's rectangles must make one piece")
    union = union.simplify(0)
    return [[round(x, 1), round(y, 1)] for x, y in union.exterior.coords]


def draw_channels(gr, proj, hints: dict, ss: int) -> int:
    """Water drawn along `[[channels]]` lines (a river that is a sea lane, as the St.
    Lawrence: Natural Earth's land has no rivers): `points` ([lat, lon] along the river) and
    `width_px`. The channel is water like the sea it joins."""
    from PIL import Image, ImageDraw

    items = hints.get("channels", [])
    if not items:
        return 0
    img = Image.new("1", (gr.w, gr.h), 0)
    draw = ImageDraw.Draw(img)
    for item in items:
        pts = item["points"]
        x, y = proj.px([lon for _, lon in pts], [lat for lat, _ in pts])
        xy = [(float(a) * ss, float(b) * ss) for a, b in zip(x, y, strict=True)]
        wd = max(1, round(float(item.get("width_px", 4)) * ss))
        draw.line(xy, fill=1, width=wd, joint="curve")
        for cx, cy in xy:
            draw.ellipse([cx - wd / 2, cy - wd / 2, cx + wd / 2, cy + wd / 2], fill=1)
    mask = np.asarray(img, dtype=bool).copy()
    # a lake the channel passes through is part of it (Lake St. Clair, Lac Saint-Pierre)
    from scipy import ndimage

    lab, _n = ndimage.label(gr.lake)
    crossed = np.unique(lab[mask & gr.lake])
    mask |= np.isin(lab, crossed[crossed > 0])
    gr.part[mask] = 0
    gr.lake[mask] = False
    return len(items)


def widen_water(gr, proj, hints: dict, ss: int) -> int:
    """`[[widen]]`: water near a point made wider by `by_px` (a lake or a strait too narrow
    for a unit and its name), within `radius_px` of `at` ([lat, lon]); the land it takes
    is the shore's, drawn as water."""
    from scipy import ndimage

    for item in hints.get("widen", []):
        lat, lon = item["at"]
        x, y = proj.px([lon], [lat])
        cx, cy = float(x[0]) * ss, float(y[0]) * ss
        r = float(item["radius_px"]) * ss
        by = float(item["by_px"]) * ss
        y0, y1 = max(int(cy - r - by), 0), min(int(cy + r + by) + 1, gr.h)
        x0, x1 = max(int(cx - r - by), 0), min(int(cx + r + by) + 1, gr.w)
        sub = gr.part[y0:y1, x0:x1]
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = (xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r
        near = ndimage.distance_transform_edt(sub != 0) <= by
        take = disc & near & (sub != 0)
        sub[take] = 0
        gr.lake[y0:y1, x0:x1][take] = False
    return len(hints.get("widen", []))


def stamp_boxes(zone: np.ndarray, box_px: dict[int, list[list[float]]], ss: int) -> None:
    for p, rects in box_px.items():
        for x0, y0, x1, y1 in rects:
            zone[int(y0 * ss):int(y1 * ss), int(x0 * ss):int(x1 * ss)] = p + 1


def touching_pairs(region: np.ndarray, n: int, wrap: bool = False) -> set[tuple[int, int]]:
    """Pairs of provinces whose cells meet (side by side) on the final raster (and across
    the seam of a board that wraps)."""
    out = set()
    sides = [(region[:, :-1], region[:, 1:]), (region[:-1, :], region[1:, :])]
    if wrap:
        sides.append((region[:, -1:], region[:, :1]))
    for a, b in sides:
        d = a != b
        lo, hi = np.minimum(a[d], b[d]), np.maximum(a[d], b[d])
        keys = np.unique(lo.astype(np.int64) * (n + 1) + hi)
        out |= {(int(k // (n + 1)), int(k % (n + 1))) for k in keys.tolist()}
    return {(a, b) for a, b in out if b < n}


def fix_junctions(region: np.ndarray, on_land: np.ndarray, land: list[bool],
                  adjacent: set[tuple[int, int]], free: set[tuple[int, int]], n: int,
                  max_edges: int = 100) -> int:
    """Cell by cell, undo the short wrong touches left where four provinces meet (the units
    are blocks; a junction needs single cells): a cell of one side of a wrong pair that
    touches the other side goes to a third neighbouring province of its surface when that
    makes no new wrong touch. Returns the number of cells handed over."""
    h, w = region.shape

    def ok(a: int, b: int) -> bool:
        return a == b or a >= n or b >= n or (min(a, b), max(a, b)) in adjacent \
            or (min(a, b), max(a, b)) in free

    moved = 0
    for _round in range(40):
        wrong: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for dy, dx in ((0, 1), (1, 0)):
            a = region[:h - dy, :w - dx]
            b = region[dy:, dx:]
            d = (a != b) & (a < n) & (b < n)
            ys, xs = np.nonzero(d)
            for y, x in zip(ys.tolist(), xs.tolist(), strict=True):
                pa, pb = int(a[y, x]), int(b[y, x])
                if not ok(pa, pb):
                    key = (min(pa, pb), max(pa, pb))
                    wrong.setdefault(key, []).extend([(y, x), (y + dy, x + dx)])
        changed = 0
        for (pa, pb), cells in wrong.items():
            if len(cells) > 2 * max_edges:
                continue
            for y, x in set(cells):
                me = int(region[y, x])
                other = pb if me == pa else pa
                nb = [int(region[y + dy, x + dx]) for dy, dx in ((0, 1), (1, 0), (0, -1), (-1, 0))
                      if 0 <= y + dy < h and 0 <= x + dx < w]
                if other not in nb:
                    continue
                for c in sorted(set(nb) - {me, other}):
                    if c >= n or land[c] != bool(on_land[y, x]):
                        continue
                    if all(ok(c, q) for q in nb):
                        region[y, x] = c
                        changed += 1
                        break
        moved += changed
        if not changed:
            break
    return moved


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", help="a built-in variant name or a variant file")
    ap.add_argument("--hints", help="hints file (default tools/boards/hints/NAME.toml)")
    ap.add_argument("--out", help="board file (default: beside the variant file)")
    ap.add_argument("--cache", default=str(geodata.DEFAULT_CACHE),
                    help=f"where fetched data is kept (default {geodata.DEFAULT_CACHE})")
    ap.add_argument("--seed", type=int, default=None,
                    help="the optimiser's random seed (default: the hints' grid.seed, else 1)")
    args = ap.parse_args(argv)
    timer = Timer()
    v = load_variant(args.variant)
    m = compile_map(v)
    hints_path = Path(args.hints) if args.hints else HERE / "hints" / f"{v.name}.toml"
    hints = read_hints(hints_path)
    if args.out:
        out = Path(args.out)
    elif v.path.startswith("<built-in"):
        out = ROOT / "src" / "polydip" / "variants" / "data" / f"{v.name}.board.json"
    else:
        out = Path(v.path).with_suffix(".board.json")
    names = list(m.prov_abbr)
    land = [province_on_land(v, a) for a in names]
    # a province no unit may enter (Greenland, the Arctic Ocean) is drawn on the surface
    # under its point (decided once the geography is rasterised)
    impassable = [not v.terrains[v.provinces[a].terrain].occupy for a in names]
    # points: the variant's coordinates, or the hints' moved points, plus extra points
    moved = hints.get("points", {})
    extra = hints.get("extra_points", {})
    for k in list(moved) + list(extra):
        if k not in m.prov_index:
            raise SystemExit(f"{hints_path}: unknown province {k!r}")
    boxes = read_boxes(hints, m, hints_path)
    latlon: list[list[tuple[float, float]]] = []
    for i, a in enumerate(names):
        p = v.provinces[a]
        pts = [tuple(x) for x in moved[a]] if a in moved else [p.coords]
        pts += [tuple(x) for x in extra.get(a, [])]
        if i in boxes:  # an off-map space: its box, not its point, is on the board
            pts = [tuple(boxes[i]["center"])] if "center" in boxes[i] else []
        latlon.append(pts)
    proj = project.from_hints(hints["projection"])
    ph = hints["projection"]
    proj.fit([(lon, lat) for pts in latlon for lat, lon in pts], int(ph.get("width", 1600)),
             float(ph.get("pad_km", 400)), tuple(ph.get("extend_km", (0, 0, 0, 0))))
    say(f"board {proj.width} x {proj.height} px, {1 / proj.scale:.2f} km/px "
        "(outside magnifiers)")
    g = hints.get("grid", {})
    ss = int(g.get("ss", 2))
    # data
    cache = Path(args.cache)
    gpkg = geodata.world_map_gpkg(cache)
    lakes_base = geodata.lakes_shapefile(cache)
    lats = [lat for pts in latlon for lat, _ in pts]
    lons = [lon for pts in latlon for _, lon in pts]
    mlat, mlon = g.get("data_margin_deg", [25, 35])
    bbox = (max(min(lons) - mlon, -180), max(min(lats) - mlat, -90),
            min(max(lons) + mlon, 180), min(max(lats) + mlat, 90))
    admin = geodata.read_admin1(gpkg, bbox)
    lakes = geodata.read_lakes(lakes_base, bbox)
    timer.step(f"read {len(admin)} admin-1 units and {len(lakes)} lakes")
    sea_lake_pts = []
    for lat, lon in hints.get("sea_lakes", []):
        x, y = proj.px([lon], [lat])
        sea_lake_pts.append((float(x[0]), float(y[0])))
    gr = grid.rasterise([a.geom for a in admin], lakes, proj, ss, sea_lake_pts,
                        float(g.get("min_lake_px", 40)), say)
    draw_channels(gr, proj, hints, ss)
    widen_water(gr, proj, hints, ss)
    box_px = place_boxes(gr, proj, boxes, ss)
    timer.step(f"rasterised {gr.w} x {gr.h} cells")
    # seeds in grid cells
    seeds = []
    for p, pts in enumerate(latlon):
        if p in box_px:  # the centre of its largest rectangle
            x0, y0, x1, y1 = max(box_px[p], key=lambda r: (r[2] - r[0]) * (r[3] - r[1]))
            seeds.append([((x0 + x1) / 2 * ss, (y0 + y1) / 2 * ss)])
            continue
        x, y = proj.px([lon for _, lon in pts], [lat for lat, _ in pts])
        seeds.append([(float(a) * ss, float(b) * ss) for a, b in zip(x, y, strict=True)])
    for p in range(len(names)):
        if impassable[p]:
            sx, sy = seeds[p][0]
            xi, yi = int(min(max(sx, 0), gr.w - 1)), int(min(max(sy, 0), gr.h - 1))
            land[p] = bool(gr.part[yi, xi] > 0)
    # admin parts by name (pins, divide, neutral)
    def parts_named(name: str, strict: bool = True) -> list[int]:
        nm, _, country = name.partition("/")
        if nm == "*":  # "*/Panama": every unit of the country
            nm, country = country, ""
            hits = [pid for pid, ai in enumerate(gr.part_admin)
                    if admin[ai].country.lower() == nm.lower()]
            if not hits and strict:
                raise SystemExit(f"{hints_path}: no country {nm!r} in the frame")
            return hits
        hits = [pid for pid, ai in enumerate(gr.part_admin)
                if admin[ai].name.lower() == nm.lower()
                and (not country or admin[ai].country.lower() == country.lower())]
        if not hits:
            hits = [pid for pid, ai in enumerate(gr.part_admin)
                    if not country and admin[ai].country.lower() == nm.lower()]
        if not hits and strict:
            raise SystemExit(f"{hints_path}: no admin unit or country {name!r} in the frame")
        return hits

    def part_at(lat: float, lon: float) -> int:
        x, y = proj.px([lon], [lat])
        xi, yi = int(x[0] * ss), int(y[0] * ss)
        if not (0 <= xi < gr.w and 0 <= yi < gr.h) or gr.part[yi, xi] == 0:
            raise SystemExit(f"{hints_path}: no land at [{lat}, {lon}]")
        return int(gr.part[yi, xi]) - 1

    pin_parts: dict[int, int] = {}
    for name, prov in hints.get("pins", {}).items():
        if prov not in m.prov_index:
            raise SystemExit(f"{hints_path}: pins: unknown province {prov!r}")
        for pid in parts_named(name):
            pin_parts[pid] = m.prov_index[prov]
    for item in hints.get("pin_points", []):
        pin_parts[part_at(*item["at"])] = m.prov_index[item["to"]]
    def parts_in_box(box, country: str = "") -> list[int]:
        """Admin parts whose representative point lies in a lon/lat box [lat0, lon0, lat1,
        lon1] (the box drawn in the projection, so that it is a true lon/lat box)."""
        import shapely

        la0, lo0, la1, lo1 = box
        poly = grid.project_geom(shapely.box(lo0, la0, lo1, la1), proj, 0.5)
        return [pid for pid, geom in enumerate(gr.part_geom)
                if (not country or admin[gr.part_admin[pid]].country.lower() == country)
                and poly.contains(geom.representative_point())]

    for item in hints.get("pin_boxes", []):
        for pid in parts_in_box(item["box"], item.get("country", "").lower()):
            pin_parts[pid] = m.prov_index[item["to"]]
    neutral_parts = {pid for name in hints.get("neutral", []) for pid in parts_named(name, False)}
    for box in hints.get("neutral_boxes", []):
        neutral_parts.update(parts_in_box(box))
    pin_parts = {pid: p for pid, p in pin_parts.items() if pid not in neutral_parts}
    # a part holding points of two provinces, or named by the hints, is divided into blocks
    seed_part: dict[int, set[int]] = {}
    from scipy import ndimage

    _d, (near_y, near_x) = ndimage.distance_transform_edt(gr.part == 0, return_indices=True)
    del _d
    for p, pts in enumerate(seeds):
        if not land[p]:
            continue
        for x, y in pts:
            xi, yi = int(min(max(x, 0), gr.w - 1)), int(min(max(y, 0), gr.h - 1))
            yi, xi = int(near_y[yi, xi]), int(near_x[yi, xi])  # a point off the coast
            pid = int(gr.part[yi, xi]) - 1
            if pid >= 0:
                seed_part.setdefault(pid, set()).add(p)
    divisible = {pid for pid, ps in seed_part.items() if len(ps) > 1}
    divisible |= {pid for name in hints.get("divide", []) for pid in parts_named(name)}
    # halos: water around small island provinces, and along narrow coastal ones, belongs
    # to them. Which land each province has comes from a first growing without halos.
    claims = []
    for abbr, items in hints.get("claims", {}).items():
        if abbr not in m.prov_index:
            raise SystemExit(f"{hints_path}: claims: unknown province {abbr!r}")
        for lat, lon, r in items:
            x, y = proj.px([lon], [lat])
            claims.append((m.prov_index[abbr], float(x[0]) * ss, float(y[0]) * ss, r * ss))
    adjacent = set()
    for e in v.edges:
        a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
        if a != b:
            adjacent.add((min(a, b), max(a, b)))
    connectors = pair_set(m, hints.get("connectors", []), "connectors")
    no_passage = pair_set(m, hints.get("no_passage", []), "no_passage")
    # an impassable province may touch anything: no unit ever crosses its borders
    free_impassable = {(min(p, q), max(p, q)) for p in range(len(names)) if impassable[p]
                       for q in range(len(names)) if q != p}
    w = assign.Weights(target=float(g.get("target_px", 9)) * ss)

    def problem(units, zone):
        pins = {}
        for k in range(units.n):
            if units.land[k] and int(units.part[k]) in pin_parts:
                pins[k] = pin_parts[int(units.part[k])]
        uzone = np.zeros(units.n, dtype=np.int64)
        np.maximum.at(uzone, units.uid.ravel(), zone.ravel())
        for k in np.nonzero(uzone)[0].tolist():
            pins[k] = int(uzone[k]) - 1
        neutral = {k for k in range(units.n)
                   if units.land[k] and int(units.part[k]) in neutral_parts}
        unit_admin = [gr.part_admin[int(units.part[k])] if units.land[k] else -1
                      for k in range(units.n)]
        shared = {}
        for k in range(units.n):
            if units.land[k] and int(units.part[k]) in divisible:
                owners = seed_part.get(int(units.part[k]), set())
                if owners:
                    shared[k] = owners
        return assign.Problem(names, land, seeds, adjacent,
                              connectors | no_passage | free_impassable, pins,
                              neutral, float(g.get("max_land_px", 260)) * ss,
                              float(g.get("island_join_px", 18)) * ss, unit_admin,
                              float(g.get("admin_follow_px", 120)) * ss, shared, set(boxes))

    block_w, block_l = int(g.get("water_block", 12)), int(g.get("land_block", 16))
    zone0 = anchors.halo_zones(gr, land, {}, {}, m, 0, 0, say, claims)
    stamp_boxes(zone0, box_px, ss)
    units0 = grid.make_units(gr, block_w, block_l, divisible, proj.wrap, zone0, say)
    first = assign.Assignment(units0, problem(units0, zone0), w, say)
    first.grow()
    owner = np.asarray(first.P, dtype=np.int32)[units0.uid]
    timer.step("first growing (for halos)")
    zone = anchors.halo_zones(gr, land, anchors.land_of(owner, gr, len(names)),
                              hints.get("halos", {}), m, float(g.get("auto_halo_px", 14)),
                              float(g.get("auto_halo_area", 1400)), say, claims,
                              owner, float(g.get("min_room_px", 11.5)), adjacent)
    stamp_boxes(zone, box_px, ss)
    if os.environ.get("BOARDS_DEBUG"):  # the halo zones as a picture, for hint authors
        from PIL import Image

        rng = np.random.default_rng(0)
        pal = rng.integers(60, 255, size=(len(names) + 2, 3), dtype=np.uint8)
        img = np.where((gr.part > 0)[..., None], pal[np.clip(owner, 0, len(names))] // 2, 230)
        img = np.where((zone > 0)[..., None], pal[zone], img).astype(np.uint8)
        Image.fromarray(img).save(os.environ["BOARDS_DEBUG"])
    del first, units0, owner
    units = grid.make_units(gr, block_w, block_l, divisible, proj.wrap, zone, say)
    timer.step("units made")
    pb = problem(units, zone)
    asg = assign.Assignment(units, pb, w, say)
    asg.grow()
    timer.step("grown")
    seed = args.seed if args.seed is not None else int(g.get("seed", 1))
    asg.optimise(seed=seed, rounds=int(g.get("rounds", 8)))
    timer.step("optimised")
    region = np.asarray(asg.P, dtype=np.int32)[units.uid]
    fixed = fix_junctions(region, gr.part > 0, land, adjacent,
                          connectors | no_passage | free_impassable, len(names))
    if fixed:
        say(f"  {fixed} cells at junctions handed to a third province (short wrong touches)")
    if float(g.get("fatten_px", 0)) > 0:  # room for narrow provinces' anchors
        fatten.fatten(region, gr.part == 0, land, adjacent,
                      connectors | no_passage | free_impassable, len(names), ss,
                      float(g["fatten_px"]), float(g.get("fatten_below_px", 11.5)),
                      float(g.get("fatten_keep_px", 12)),
                      float(g.get("fatten_min_area_px", 650)), names, say)
        timer.step("room made")
    surface_land = (gr.part > 0) & ~gr.lake
    # islets too small to see (in seas, or no province's) are left out of the drawing
    sea_region = ~np.asarray(land + [True])[region] | (region == asg.NEUTRAL)
    lab, nlab = ndimage.label(surface_land & sea_region)
    if nlab:
        sizes = np.bincount(lab.ravel(), minlength=nlab + 1)
        tiny = sizes < float(g.get("min_islet_px", 3)) * ss * ss
        tiny[0] = False
        surface_land &= ~tiny[lab]
    face = region * 2 + surface_land.astype(np.int32)
    # the touches of impassable provinces are drawn as borders no unit crosses
    no_passage |= touching_pairs(region, len(names), proj.wrap) & free_impassable
    arcs = tracing.trace(face, say)
    timer.step("traced")
    # every open space (no stacking limit: open_spaces, and attack spaces such as oceans)
    slots = dict.fromkeys(sorted(a for p, a in enumerate(m.prov_abbr) if m.tables.open_space[p]),
                          default_slots(v))
    slots.update(hints.get("slots", {}))
    for a in slots:
        if a not in m.prov_index:
            raise SystemExit(f"{hints_path}: slots: unknown province {a!r}")
    board = writer.build_board(v, m, proj, ss, face, arcs, hints, connectors, no_passage,
                               asg.NEUTRAL, seeds, say, land=land, slots=slots,
                               boxes=[box_outline(box_px[p]) for p in sorted(box_px)], part=gr.part)
    timer.step("anchors placed")
    size = writer.write_board(board, out)
    timer.step(f"wrote {out} ({size / 1024:.0f} KB)")
    from polydip.check import board_report

    ok, text = board_report(v, out)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
