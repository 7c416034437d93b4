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
import geodata  # noqa: E402
import grid  # noqa: E402
import project  # noqa: E402
import tracing  # noqa: E402
import writer  # noqa: E402
from geodata import say  # noqa: E402

from polydip.geography.map import compile_map  # noqa: E402
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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("variant", help="a built-in variant name or a variant file")
    ap.add_argument("--hints", help="hints file (default tools/boards/hints/NAME.toml)")
    ap.add_argument("--out", help="board file (default: beside the variant file)")
    ap.add_argument("--cache", default=str(geodata.DEFAULT_CACHE),
                    help=f"where fetched data is kept (default {geodata.DEFAULT_CACHE})")
    ap.add_argument("--seed", type=int, default=1)
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
    # points: the variant's coordinates, or the hints' moved points, plus extra points
    moved = hints.get("points", {})
    extra = hints.get("extra_points", {})
    for k in list(moved) + list(extra):
        if k not in m.prov_index:
            raise SystemExit(f"{hints_path}: unknown province {k!r}")
    latlon: list[list[tuple[float, float]]] = []
    for a in names:
        p = v.provinces[a]
        pts = [tuple(x) for x in moved[a]] if a in moved else [p.coords]
        pts += [tuple(x) for x in extra.get(a, [])]
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
    timer.step(f"rasterised {gr.w} x {gr.h} cells")
    # seeds in grid cells
    seeds = []
    for pts in latlon:
        x, y = proj.px([lon for _, lon in pts], [lat for lat, _ in pts])
        seeds.append([(float(a) * ss, float(b) * ss) for a, b in zip(x, y, strict=True)])
    # admin parts by name (pins, divide, neutral)
    def parts_named(name: str, strict: bool = True) -> list[int]:
        nm, _, country = name.partition("/")
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
    for item in hints.get("pin_boxes", []):
        la0, lo0, la1, lo1 = item["box"]
        bx0, by0 = proj.px([lo0], [la1])
        bx1, by1 = proj.px([lo1], [la0])
        country = item.get("country", "").lower()
        for pid, geom in enumerate(gr.part_geom):
            if country and admin[gr.part_admin[pid]].country.lower() != country:
                continue
            rp = geom.representative_point()
            if bx0[0] <= rp.x <= bx1[0] and by0[0] <= rp.y <= by1[0]:
                pin_parts[pid] = m.prov_index[item["to"]]
    neutral_parts = {pid for name in hints.get("neutral", []) for pid in parts_named(name, False)}
    for la0, lo0, la1, lo1 in hints.get("neutral_boxes", []):
        bx0, by0 = proj.px([lo0], [la1])
        bx1, by1 = proj.px([lo1], [la0])
        for pid, geom in enumerate(gr.part_geom):
            rp = geom.representative_point()
            if bx0[0] <= rp.x <= bx1[0] and by0[0] <= rp.y <= by1[0]:
                neutral_parts.add(pid)
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
        return assign.Problem(names, land, seeds, adjacent, connectors | no_passage, pins,
                              neutral, float(g.get("max_land_px", 260)) * ss,
                              float(g.get("island_join_px", 18)) * ss, unit_admin,
                              float(g.get("admin_follow_px", 120)) * ss, shared)

    block_w, block_l = int(g.get("water_block", 12)), int(g.get("land_block", 16))
    zone0 = anchors.halo_zones(gr, land, {}, {}, m, 0, 0, say, claims)
    units0 = grid.make_units(gr, block_w, block_l, divisible, proj.wrap, zone0, say)
    first = assign.Assignment(units0, problem(units0, zone0), w, say)
    first.grow()
    owner = np.asarray(first.P, dtype=np.int32)[units0.uid]
    timer.step("first growing (for halos)")
    zone = anchors.halo_zones(gr, land, anchors.land_of(owner, gr, len(names)),
                              hints.get("halos", {}), m, float(g.get("auto_halo_px", 14)),
                              float(g.get("auto_halo_area", 1400)), say, claims,
                              owner, float(g.get("min_room_px", 11.5)), adjacent)
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
    asg.optimise(seed=args.seed, rounds=int(g.get("rounds", 8)))
    timer.step("optimised")
    region = np.asarray(asg.P, dtype=np.int32)[units.uid]
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
    arcs = tracing.trace(face, say)
    timer.step("traced")
    board = writer.build_board(v, m, proj, ss, face, arcs, hints, connectors, no_passage,
                               asg.NEUTRAL, seeds, say)
    timer.step("anchors placed")
    size = writer.write_board(board, out)
    timer.step(f"wrote {out} ({size / 1024:.0f} KB)")
    from polydip.variants.check import board_report

    ok, text = board_report(v, out)
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
