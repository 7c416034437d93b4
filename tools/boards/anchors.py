"""Halo water around small island provinces, and where labels and units go in each province.

Anchors are chosen on the final face raster with a distance transform: a point's clearance is
its distance to the nearest cell of another region (or the frame). The unit goes where the
clearance is large, on land for land provinces, near the province's own point; the label
below or beside it; a dislodged unit beside the unit; a fleet on a named coast near the seas
that coast touches.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import ndimage


def halo_zones(gr, seeds, land, seed_part, pin_parts, halo_hints: dict, m, auto_px: float,
               auto_area: float, say, claims: list[tuple[int, float, float, float]] = ()
               ) -> np.ndarray:
    """int32 per cell: province + 1 where water belongs to that province's halo, else 0.
    `claims`: (province, x, y, radius) in cells: water a land province holds (a strait
    its land closes, as Denmark the Øresund)."""
    part = gr.part
    ss = gr.ss
    prov_parts: dict[int, set[int]] = {}
    for pid, ps in seed_part.items():
        for p in ps:
            prov_parts.setdefault(p, set()).add(pid)
    for pid, p in pin_parts.items():
        prov_parts.setdefault(p, set()).add(pid)
    radius: dict[int, float] = {}
    for abbr, r in halo_hints.items():
        if abbr not in m.prov_index:
            raise SystemExit(f"hints halos: unknown province {abbr!r}")
        radius[m.prov_index[abbr]] = float(r)
    # a province on small islands (its land masses, whole, are small) gets a halo
    mass, _n = ndimage.label(part > 0)
    mass_area = np.bincount(mass.ravel())
    land_cells = part > 0
    pairs = np.unique(part[land_cells].astype(np.int64) * (1 << 32) + mass[land_cells])
    part_masses: dict[int, set[int]] = {}
    for key in pairs.tolist():
        part_masses.setdefault(key >> 32, set()).add(key & 0xFFFFFFFF)
    for p, pids in prov_parts.items():
        if p in radius or not land[p]:
            continue
        masses = {k for pid in pids for k in part_masses.get(pid + 1, ())}
        area = sum(int(mass_area[k]) for k in masses) / (ss * ss)
        if area < auto_area:
            radius[p] = auto_px
    zone = np.zeros(part.shape, dtype=np.int32)
    for p, cx, cy, r in claims:
        y0, y1 = max(int(cy - r), 0), min(int(cy + r) + 1, part.shape[0])
        x0, x1 = max(int(cx - r), 0), min(int(cx + r) + 1, part.shape[1])
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = ((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r) & (part[y0:y1, x0:x1] == 0)
        zone[y0:y1, x0:x1][disc] = p + 1
    radius = {p: r for p, r in radius.items() if r > 0 and p in prov_parts}
    if not radius:
        return zone
    owner = np.full(len(gr.part_area) + 1, -1, dtype=np.int32)
    for p in radius:
        for pid in prov_parts[p]:
            owner[pid + 1] = p
    dist, (iy, ix) = ndimage.distance_transform_edt(part == 0, return_indices=True)
    near = owner[part[iy, ix]]
    rmax = np.zeros(len(m.prov_abbr) + 1)
    for p, r in radius.items():
        rmax[p] = r * ss
    water = part == 0
    ok = water & (near >= 0) & (dist <= rmax[np.maximum(near, 0)]) & (zone == 0)
    zone[ok] = near[ok] + 1
    say(f"  halos for {len(radius)} island provinces: "
        + ", ".join(sorted(m.prov_abbr[p] for p in radius)))
    return zone


def _edt_inside(mask: np.ndarray) -> np.ndarray:
    """Distance of each cell of `mask` to the nearest cell outside it (the frame is outside)."""
    padded = np.pad(mask, 1, constant_values=False)
    return ndimage.distance_transform_edt(padded)[1:-1, 1:-1]


CHAR_W = 0.64  # average glyph width of the label font (bold), in font sizes
LINE_H = 1.1


def label_box(name: str, full: bool, size: float, center: bool) -> tuple[float, float]:
    """Width and height of a province label as the renderer draws it (with the supply
    center marker to its left)."""
    from polydip.render.boardsvg import label_lines

    lines = label_lines(name, full)
    w = max(len(s) for s in lines) * size * CHAR_W + (20 if center else 0)
    return w + 4, len(lines) * size * LINE_H + 3


def place(region: np.ndarray, land_surface: np.ndarray, n: int, ss: int, m, land: list[bool],
          seeds, unit_r: float, full: bool, label_size: float, say) -> dict[int, dict]:
    """Anchors per province (board pixels); labels are placed last, all together, so that
    none covers another label or a unit."""
    out: dict[int, dict] = {}
    objs = ndimage.find_objects(region + 1)
    coast_seas: dict[tuple[int, str], set[int]] = {}
    v = m.variant
    for e in v.edges:
        for end, other in ((e.a, e.b), (e.b, e.a)):
            if "/" in end:
                pa, c = end.split("/")
                q = m.prov_index[other.split("/")[0]]
                coast_seas.setdefault((m.prov_index[pa], c), set()).add(q)
    cands: dict[int, tuple] = {}
    for p in range(n):
        sl = objs[p] if p < len(objs) else None
        if sl is None:
            continue
        y0, x0 = max(sl[0].start - 2, 0), max(sl[1].start - 2, 0)
        y1, x1 = sl[0].stop + 2, sl[1].stop + 2
        sub = region[y0:y1, x0:x1]
        mask = sub == p
        edt = _edt_inside(mask) / ss  # board px
        yy, xx = np.nonzero(mask)
        px = (xx + x0 + 0.5) / ss
        py = (yy + y0 + 0.5) / ss
        clear = edt[yy, xx]
        on_land = land_surface[y0:y1, x0:x1][yy, xx]
        sx, sy = seeds[p][0][0] / ss, seeds[p][0][1] / ss
        dseed = np.hypot(px - sx, py - sy)
        score = np.minimum(clear, 16.0) - 0.02 * dseed
        if land[p]:
            score = score + 5.0 * on_land
        i = int(score.argmax())
        ux, uy = float(px[i]), float(py[i])
        rec = {"unit": [ux, uy]}
        coasts = {}
        good = clear >= 10.5
        for c in v.provinces[m.prov_abbr[p]].coasts:
            seas = coast_seas.get((p, c), set())
            if not seas:
                continue
            tmask = np.isin(sub, list(seas))
            if not tmask.any():
                dsea = np.zeros_like(clear)
            else:
                dsea = ndimage.distance_transform_edt(~tmask)[yy, xx] / ss
            cand = good & (np.hypot(px - ux, py - uy) >= 1.5 * unit_r)
            if not cand.any():
                cand = good if good.any() else clear >= clear.max()
            k = int(np.where(cand, -dsea - 0.02 * np.minimum(clear, 14.0), -1e9).argmax())
            coasts[c] = [float(px[k]), float(py[k])]
        if coasts:
            rec["coasts"] = coasts
        out[p] = rec
        # label candidates: cells with room, every few pixels
        sel = good if good.any() else clear >= clear.max() - 0.01
        step = max(1, int(len(np.nonzero(sel)[0]) / 600))
        idx = np.nonzero(sel)[0][::step]
        cands[p] = (px[idx], py[idx], clear[idx], (x0, y0, sub == p))
    # labels, hardest first: avoid other labels and every unit
    units = [(xy[0], xy[1]) for rec in out.values()
             for xy in [rec["unit"], *rec.get("coasts", {}).values()]]
    ux_all = np.array([u[0] for u in units])
    uy_all = np.array([u[1] for u in units])
    boxes: list[tuple[float, float, float, float]] = []
    order = sorted(cands, key=lambda p: len(cands[p][0]))
    for p in order:
        cx, cy, cl, (x0, y0, mask) = cands[p]
        abbr = m.prov_abbr[p]
        name = v.provinces[abbr].name if full else abbr
        bw, bh = label_box(name, full, label_size, bool(v.provinces[abbr].supply_center))
        ux, uy = out[p]["unit"]
        du = np.hypot(cx - ux, cy - uy)
        cost = 0.25 * np.abs(du - 24.0) - 1.5 * (cy > uy) - 0.3 * np.minimum(cl, 16)
        bx0, bx1 = cx - bw / 2, cx + bw / 2
        by0, by1 = cy - bh / 2, cy + bh / 2
        r = unit_r + 2
        for u0, u1 in zip(ux_all.tolist(), uy_all.tolist(), strict=True):
            near = (u0 > bx0 - r) & (u0 < bx1 + r) & (u1 > by0 - r) & (u1 < by1 + r)
            cost = cost + 60.0 * near
        for a0, b0, a1, b1 in boxes:
            ow = np.clip(np.minimum(bx1, a1) - np.maximum(bx0, a0), 0, None)
            oh = np.clip(np.minimum(by1, b1) - np.maximum(by0, b0), 0, None)
            cost = cost + 0.5 * ow * oh
        # how much of the box lies outside the province
        h, w = mask.shape
        outside = np.zeros_like(cost)
        for fx in (-0.5, 0.0, 0.5):
            for fy in (-0.5, 0.5):
                qx = ((cx + fx * bw) * ss - x0).astype(int)
                qy = ((cy + fy * bh) * ss - y0).astype(int)
                ok = (qx >= 0) & (qx < w) & (qy >= 0) & (qy < h)
                inside = np.zeros_like(ok)
                inside[ok] = mask[qy[ok], qx[ok]]
                outside += ~inside
        cost = cost + 3.0 * outside
        j = int(cost.argmin())
        lx, ly = float(cx[j]), float(cy[j])
        out[p]["label"] = [lx, ly]
        boxes.append((lx - bw / 2, ly - bh / 2, lx + bw / 2, ly + bh / 2))
    # dislodged units: inside the province, clear of its unit and label
    for p, rec in out.items():
        cx, cy, cl, _ = cands[p]
        ux, uy = rec["unit"]
        lx, ly = rec["label"]
        du = np.hypot(cx - ux, cy - uy)
        ok = (cl >= 10.5) & (du >= 2.2 * unit_r)
        for a0, b0, a1, b1 in boxes:
            ok &= ~((cx > a0 - unit_r) & (cx < a1 + unit_r) & (cy > b0 - unit_r)
                    & (cy < b1 + unit_r))
        if ok.any():
            k = int(np.where(ok, -du, -1e9).argmax())
            rec["dislodged"] = [float(cx[k]), float(cy[k])]
    return out


def closest_pair(region: np.ndarray, a: int, b: int, ss: int) -> list[float] | None:
    """The closest cells of regions a and b (a connector's two ends), board pixels."""
    ma, mb = region == a, region == b
    if not ma.any() or not mb.any():
        return None
    da, (iy, ix) = ndimage.distance_transform_edt(~ma, return_indices=True)
    yy, xx = np.nonzero(mb)
    k = int(da[yy, xx].argmin())
    by, bx = int(yy[k]), int(xx[k])
    ay, ax = int(iy[by, bx]), int(ix[by, bx])
    return [(ax + 0.5) / ss, (ay + 0.5) / ss, (bx + 0.5) / ss, (by + 0.5) / ss]


def unit_radius(n_provinces: int, width: int) -> float:
    return max(8.0, min(13.0, width / math.sqrt(max(n_provinces, 1)) * 0.09))
