"""Rasterise the geography onto the board's pixel grid (supersampled) and cut it into units.

The grid has `ss` cells per board pixel each way. Every cell is water (ocean, or a lake the
hints make sea) or land, and land cells carry their admin part (one polygon of a Natural
Earth admin-1 unit). Lakes on land keep their admin part (a province owns its lakes) but are
marked as lake surface, so they are drawn as water.

Units are what the assignment moves between provinces: each admin part on land (divided into
blocks where the hints or two province points in one part ask for it), and on water the
cells of one block of `block` cells that belong to one connected body of water.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import shapely
import shapely.affinity
from PIL import Image, ImageDraw
from project import Projection
from scipy import ndimage


@dataclass(slots=True)
class Grid:
    ss: int  # grid cells per board pixel (each way)
    w: int  # grid size in cells
    h: int
    part: np.ndarray  # int32 [h, w]: admin part id + 1 on land, 0 on water
    lake: np.ndarray  # bool [h, w]: lake surface on land
    part_admin: list[int]  # part id → index in the admin unit list
    part_area: np.ndarray  # cells per part
    part_geom: list[shapely.Geometry]  # part polygon in board pixels


def project_geom(g: shapely.Geometry, proj: Projection, max_deg: float = 0.25
                 ) -> shapely.Geometry:
    """`g` (lon/lat) in board pixels; long segments are cut first so they bend as they should,
    and on a whole-world board geometry is cut at the seam (the meridian opposite the
    centre) so nothing spans the map."""
    g = shapely.segmentize(g, max_deg)
    if proj.kind != "laea" and proj.lon0 % 360 != 0:
        lo = proj.lon0 - 180
        window = shapely.box(lo, -90, lo + 360, 90)
        pieces = [shapely.affinity.translate(g, k, 0).intersection(window)
                  for k in (-360, 0, 360)]
        g = shapely.union_all([q for q in pieces if not q.is_empty])

    def tf(coords: np.ndarray) -> np.ndarray:
        x, y = proj.px(coords[:, 0], coords[:, 1])
        return np.column_stack([x, y])

    return shapely.transform(g, tf)


def _polygons(g: shapely.Geometry) -> list[shapely.Polygon]:
    if g.geom_type == "Polygon":
        return [g]
    if hasattr(g, "geoms"):
        return [p for sub in g.geoms for p in _polygons(sub)]
    return []


def _ring_xy(ring, ss: int) -> list[tuple[float, float]]:
    return [(x * ss, y * ss) for x, y in np.asarray(ring.coords)]


def rasterise(admin_geoms: list[shapely.Geometry], lakes: list[shapely.Geometry],
              proj: Projection, ss: int, sea_lake_points: list[tuple[float, float]],
              min_lake_px: float, say) -> Grid:
    w, h = proj.width * ss, proj.height * ss
    frame = shapely.box(-2, -2, proj.width + 2, proj.height + 2)
    parts: list[tuple[float, int, shapely.Polygon]] = []
    for i, g in enumerate(admin_geoms):
        pg = project_geom(g, proj)
        if not pg.is_valid:
            pg = shapely.make_valid(pg)
        pg = pg.intersection(frame)
        for poly in _polygons(pg):
            if poly.area > 0:
                parts.append((poly.area, i, poly))
    parts.sort(key=lambda t: -t[0])  # large first: enclaves drawn later win
    say(f"  {len(parts)} admin parts in the frame")
    img = Image.new("I", (w, h), 0)
    draw = ImageDraw.Draw(img)
    for pid, (_a, _i, poly) in enumerate(parts):
        draw.polygon(_ring_xy(poly.exterior, ss), fill=pid + 1)
        for hole in poly.interiors:
            draw.polygon(_ring_xy(hole, ss), fill=0)
    part = np.asarray(img, dtype=np.int32).copy()
    # lakes: sea lakes become water; the others stay land of their part, marked as lakes
    lake_img = Image.new("I", (w, h), 0)
    ld = ImageDraw.Draw(lake_img)
    sea_pts = [shapely.Point(p) for p in sea_lake_points]
    sea_ids: set[int] = set()
    kept = 0
    for k, g in enumerate(lakes):
        pg = project_geom(g, proj)
        if not pg.is_valid:
            pg = shapely.make_valid(pg)
        pg = pg.intersection(frame)
        if pg.is_empty:
            continue
        is_sea = any(pg.contains(p) for p in sea_pts)
        if not is_sea and pg.area < min_lake_px:
            continue
        if is_sea:
            sea_ids.add(k + 1)
        kept += 1
        for poly in _polygons(pg):
            ld.polygon(_ring_xy(poly.exterior, ss), fill=k + 1)
            for hole in poly.interiors:
                ld.polygon(_ring_xy(hole, ss), fill=0)
    lk = np.asarray(lake_img, dtype=np.int32)
    is_sea_lake = np.isin(lk, list(sea_ids)) if sea_ids else np.zeros_like(lk, dtype=bool)
    part[is_sea_lake] = 0
    lake = (lk > 0) & ~is_sea_lake
    # an ordinary lake outside every admin part (a lake the admin layer leaves out) takes
    # the part of the nearest land
    hole = lake & (part == 0)
    if hole.any():
        _, (iy, ix) = ndimage.distance_transform_edt(part == 0, return_indices=True)
        part[hole] = part[iy[hole], ix[hole]]
    lake &= part > 0
    say(f"  {kept} lakes drawn ({len(sea_ids)} of them sea)")
    area = np.bincount(part.ravel(), minlength=len(parts) + 1)[1:]
    return Grid(ss, w, h, part, lake, [i for _a, i, _p in parts], area,
                [p for _a, _i, p in parts])


@dataclass(slots=True)
class Units:
    uid: np.ndarray  # int32 [h, w]: unit id per cell
    n: int
    land: np.ndarray  # bool per unit
    area: np.ndarray  # cells per unit
    cx: np.ndarray  # centroid, grid cells
    cy: np.ndarray
    part: np.ndarray  # admin part id per land unit (-1 for water)
    water_body: np.ndarray  # connected water body per water unit (-1 for land)
    nbrs: list[list[tuple[int, int]]]  # per unit: (other unit, shared cell edges)
    frame_len: np.ndarray  # cell edges on the frame's left/right sides (for wrap)


def make_units(grid: Grid, block: int, land_block: int, divisible: set[int], wrap: bool,
               zone: np.ndarray, say) -> Units:
    """Units; `zone` (int per cell, 0 = none) keeps halo water apart from open water."""
    h, w = grid.h, grid.w
    water = grid.part == 0
    body, n_body = ndimage.label(water)
    by, bx = np.indices((h, w), dtype=np.int32)
    wblock = (by // block) * ((w + block - 1) // block) + (bx // block)
    lblock = (by // land_block) * ((w + land_block - 1) // land_block) + (bx // land_block)
    # key per cell, then compacted to unit ids
    key = np.where(water, body.astype(np.int64) * (1 << 22) + wblock
                   + zone.astype(np.int64) * (1 << 40),
                   -(grid.part.astype(np.int64) * (1 << 22)) - 1)
    if divisible:
        div = np.isin(grid.part - 1, list(divisible)) & ~water
        key = np.where(div, key - lblock.astype(np.int64) - 1, key)
    uniq, inv = np.unique(key.ravel(), return_inverse=True)
    uid = inv.reshape(h, w).astype(np.int32)
    n = len(uniq)
    area = np.bincount(uid.ravel(), minlength=n)
    cx = np.bincount(uid.ravel(), weights=bx.ravel() + 0.5, minlength=n) / area
    cy = np.bincount(uid.ravel(), weights=by.ravel() + 0.5, minlength=n) / area
    flat_part = grid.part.ravel()
    first = np.zeros(n, dtype=np.int64)
    first[uid.ravel()[::-1]] = np.arange(h * w)[::-1]
    land = flat_part[first] > 0
    part = np.where(land, flat_part[first] - 1, -1)
    water_body = np.where(land, -1, body.ravel()[first])
    say(f"  {n} units ({int(land.sum())} on land, {int((~land).sum())} on water, "
        f"{n_body} water bodies)")
    pairs = [(uid[:, :-1], uid[:, 1:]), (uid[:-1, :], uid[1:, :])]
    if wrap:
        pairs.append((uid[:, -1:], uid[:, :1]))
    keys = []
    for a, b in pairs:
        a, b = a.ravel(), b.ravel()
        d = a != b
        lo, hi = np.minimum(a[d], b[d]).astype(np.int64), np.maximum(a[d], b[d]).astype(np.int64)
        keys.append(lo * n + hi)
    allk, cnt = np.unique(np.concatenate(keys), return_counts=True)
    nbrs: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for k, c in zip(allk.tolist(), cnt.tolist(), strict=True):
        a, b = divmod(k, n)
        nbrs[a].append((b, c))
        nbrs[b].append((a, c))
    frame_len = np.bincount(np.concatenate([uid[:, 0], uid[:, -1]]), minlength=n)
    return Units(uid, n, land, area, cx, cy, part, water_body, nbrs, frame_len)
