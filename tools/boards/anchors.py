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


def land_of(owner: np.ndarray, gr, n: int) -> dict[int, set[int]]:
    """Province → the admin parts it holds most of (after a first growing)."""
    cells = gr.part > 0
    keys = gr.part[cells].astype(np.int64) * (1 << 20) + owner[cells]
    uniq, cnt = np.unique(keys, return_counts=True)
    best: dict[int, tuple[int, int]] = {}
    for key, c in zip(uniq.tolist(), cnt.tolist(), strict=True):
        pid, p = (key >> 20) - 1, key & 0xFFFFF
        if p < n and c > best.get(pid, (0, -1))[0]:
            best[pid] = (c, p)
    out: dict[int, set[int]] = {}
    for pid, (_c, p) in best.items():
        out.setdefault(p, set()).add(pid)
    return out


def halo_zones(gr, land, prov_parts: dict[int, set[int]], halo_hints: dict, m,
               auto_px: float, auto_area: float, say,
               claims: list[tuple[int, float, float, float]] = (),
               owner: np.ndarray | None = None, min_room: float = 0.0,
               adjacent: set[tuple[int, int]] = frozenset()) -> np.ndarray:
    """int32 per cell: province + 1 where water belongs to that province, else 0.

    - `claims` (province, x, y, radius; cells): water a land province holds (a strait its
      land closes, as Denmark the Øresund);
    - halos: the water nearer a province's land than any other land, within a radius:
      `halo_hints` (abbr → px), else `auto_px` for a province whose land masses are smaller
      than `auto_area` px² (islands), else, for a coastal province whose land has no point
      `min_room` px from its outline (`owner`: the first growing), enough to make room.
    """
    part = gr.part
    ss = gr.ss
    zone = np.zeros(part.shape, dtype=np.int32)
    for p, cx, cy, r in claims:
        y0, y1 = max(int(cy - r), 0), min(int(cy + r) + 1, part.shape[0])
        x0, x1 = max(int(cx - r), 0), min(int(cx + r) + 1, part.shape[1])
        yy, xx = np.mgrid[y0:y1, x0:x1]
        disc = ((xx + 0.5 - cx) ** 2 + (yy + 0.5 - cy) ** 2 <= r * r) & (part[y0:y1, x0:x1] == 0)
        zone[y0:y1, x0:x1][disc] = p + 1
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
    # narrow coastal provinces: room for a unit and a label
    if owner is not None and min_room > 0:
        reg = np.where(land_cells, owner, -1)
        edge = np.zeros(reg.shape, dtype=bool)
        edge[:, :-1] |= reg[:, :-1] != reg[:, 1:]
        edge[:, 1:] |= reg[:, :-1] != reg[:, 1:]
        edge[:-1, :] |= reg[:-1, :] != reg[1:, :]
        edge[1:, :] |= reg[:-1, :] != reg[1:, :]
        room = ndimage.distance_transform_edt(~edge) / ss
        n = len(m.prov_abbr)
        best = ndimage.maximum(room, labels=np.where(land_cells, owner + 1, 0),
                               index=np.arange(1, n + 1))
        fat = []
        for p in range(n):
            coastal = any((min(p, q), max(p, q)) in adjacent and not land[q]
                          for q in range(n))
            if land[p] and coastal and p not in radius and p in prov_parts \
                    and best[p] < min_room:
                radius[p] = float(min(12.0, max(5.0, 2.2 * (min_room - best[p]) + 3)))
                fat.append(f"{m.prov_abbr[p]} {radius[p]:.0f}")
        if fat:
            say(f"  coastal waters (px) for narrow provinces: {', '.join(fat)}")
    radius = {p: r for p, r in radius.items() if r > 0}
    if not radius:
        return zone
    # each halo stays `gap` px clear of the land of provinces it is not adjacent to, so
    # seas pass between islands
    gap = 10.0 * ss
    h, w = part.shape
    if owner is not None:  # who holds each land cell after the first growing
        prov_of_cell = np.where(part > 0, owner, -1)
    else:
        part_prov = np.full(len(gr.part_area) + 1, -1, dtype=np.int32)
        for q, pids in prov_parts.items():
            for pid in pids:
                part_prov[pid + 1] = q
        prov_of_cell = part_prov[part]
    for p, r in sorted(radius.items()):
        own = prov_of_cell == p
        ys, xs = np.nonzero(own)
        if not len(ys):
            continue
        rr = r * ss
        pad = int(rr + gap) + 2
        y0, y1 = max(ys.min() - pad, 0), min(ys.max() + pad + 1, h)
        x0, x1 = max(xs.min() - pad, 0), min(xs.max() + pad + 1, w)
        sub_own = own[y0:y1, x0:x1]
        sub_land = part[y0:y1, x0:x1] > 0
        sub_prov = prov_of_cell[y0:y1, x0:x1]
        others = np.unique(sub_prov[sub_land & ~sub_own])
        far = [q for q in others.tolist() if q >= 0 and q != p
               and (min(p, q), max(p, q)) not in adjacent]
        d_own = ndimage.distance_transform_edt(~sub_own)
        d_other = ndimage.distance_transform_edt(~np.isin(sub_prov, far)) if far else \
            np.full(sub_own.shape, 1e9)
        # and never past the midline to any other land
        d_any = ndimage.distance_transform_edt(~(sub_land & ~sub_own))
        d_other = np.minimum(d_other, d_any + gap)
        ok = ~sub_land & (d_own <= rr) & (d_other >= d_own + gap) & (zone[y0:y1, x0:x1] == 0)
        zone[y0:y1, x0:x1][ok] = p + 1
    area = np.bincount(zone.ravel(), minlength=len(m.prov_abbr) + 1) / (ss * ss)
    say(f"  halos (px²) for {len(radius)} provinces: "
        + ", ".join(f"{m.prov_abbr[p]} {area[p + 1]:.0f}" for p in sorted(
            radius, key=lambda q: m.prov_abbr[q])))
    return zone


def _edt_inside(mask: np.ndarray) -> np.ndarray:
    """Distance of each cell of `mask` to the nearest cell outside it (the frame is outside)."""
    padded = np.pad(mask, 1, constant_values=False)
    return ndimage.distance_transform_edt(padded)[1:-1, 1:-1]


ROOM = 11.5  # px wanted from an anchor to its province's outline (the check wants 10, and
# simplified outlines move up to a pixel)
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
          seeds, unit_r: float, full: bool, label_size: float, say,
          slots: dict[int, int] | None = None, room: float = ROOM) -> dict[int, dict]:
    """Anchors per province (board pixels); labels are placed last, all together, so that
    none covers another label or a unit. `slots`: province → how many more units it needs
    room for (an open space, where any number of units may stand); `room`: px wanted from
    an anchor to the outline on the raster (the outlines simplified move a little)."""
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
    edts: dict[int, tuple[int, int, np.ndarray]] = {}
    narrow: list[str] = []
    for p in range(n):
        sl = objs[p] if p < len(objs) else None
        if sl is None:
            continue
        y0, x0 = max(sl[0].start - 2, 0), max(sl[1].start - 2, 0)
        y1, x1 = sl[0].stop + 2, sl[1].stop + 2
        sub = region[y0:y1, x0:x1]
        mask = sub == p
        edt = _edt_inside(mask) / ss  # board px
        edts[p] = (x0, y0, edt)
        yy, xx = np.nonzero(mask)
        px = (xx + x0 + 0.5) / ss
        py = (yy + y0 + 0.5) / ss
        clear = edt[yy, xx]
        on_land = land_surface[y0:y1, x0:x1][yy, xx]
        sx, sy = seeds[p][0][0] / ss, seeds[p][0][1] / ss
        dseed = np.hypot(px - sx, py - sy)
        # room first (10.5 px from the outline), then land for land provinces, then near
        # the province's own point
        score = 20.0 * np.minimum(clear, room) + np.minimum(clear, 14.0) - 0.04 * dseed
        if land[p]:
            score = score + 12.0 * on_land
        i = int(score.argmax())
        if clear.max() < room:
            narrow.append(f"{m.prov_abbr[p]} {clear.max():.1f}")
        ux, uy = float(px[i]), float(py[i])
        rec = {"unit": [ux, uy]}
        coasts = {}
        good = clear >= room
        for c in v.provinces[m.prov_abbr[p]].coasts:
            seas = coast_seas.get((p, c), set())
            if not seas:
                continue
            # the waters of the coast (a fleet also sails along it to land provinces)
            seas = {q for q in seas if not land[q]} or seas
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
    if narrow:
        say(f"  provinces with no point {room} px inside: {', '.join(narrow)}")
    # labels, hardest first: avoid other labels and every unit
    units = [(xy[0], xy[1]) for rec in out.values()
             for xy in [rec["unit"], *rec.get("coasts", {}).values()]]
    ux_all = np.array([u[0] for u in units])
    uy_all = np.array([u[1] for u in units])
    boxes: list[tuple[float, float, float, float]] = []
    order = sorted(cands, key=lambda p: len(cands[p][0]))

    def label_cost(p: int, bw: float, bh: float, reach: float = 1.6) -> np.ndarray:
        cx, cy, cl, _ = cands[p]
        ux, uy = out[p]["unit"]
        du = np.hypot(cx - ux, cy - uy)
        cost = (0.25 * np.abs(du - 24.0) + 0.6 * np.maximum(du - 45.0, 0) - 1.5 * (cy > uy)
                - 0.3 * np.minimum(cl, 16))
        bx0, bx1 = cx - bw / 2, cx + bw / 2
        by0, by1 = cy - bh / 2, cy + bh / 2
        r = unit_r * reach  # a fleet's hull and sail reach 1.6 radii
        for u0, u1 in zip(ux_all.tolist(), uy_all.tolist(), strict=True):
            near = (u0 > bx0 - r) & (u0 < bx1 + r) & (u1 > by0 - r) & (u1 < by1 + r)
            cost = cost + 60.0 * near
        for a0, b0, a1, b1 in boxes:
            ow = np.clip(np.minimum(bx1, a1) - np.maximum(bx0, a0), 0, None)
            oh = np.clip(np.minimum(by1, b1) - np.maximum(by0, b0), 0, None)
            cost = cost + 0.5 * ow * oh
        return cost + 8.0 * outside_count(p, bw, bh)

    def outside_count(p: int, bw: float, bh: float) -> np.ndarray:
        """Per candidate: how many of six points of the label's box lie outside the
        province (its corners and the middles of its long sides)."""
        cx, cy, _cl, (x0, y0, mask) = cands[p]
        h, w = mask.shape
        outside = np.zeros(len(cx))
        for fx in (-0.5, 0.0, 0.5):
            for fy in (-0.5, 0.5):
                qx = ((cx + fx * bw) * ss - x0).astype(int)
                qy = ((cy + fy * bh) * ss - y0).astype(int)
                ok = (qx >= 0) & (qx < w) & (qy >= 0) & (qy < h)
                inside = np.zeros_like(ok)
                inside[ok] = mask[qy[ok], qx[ok]]
                outside += ~inside
        return outside

    for p in order:
        cx, cy = cands[p][0], cands[p][1]
        abbr = m.prov_abbr[p]
        center = bool(v.provinces[abbr].supply_center)
        name = v.provinces[abbr].name if full else abbr
        bw, bh = label_box(name, full, label_size, center)
        cost = label_cost(p, bw, bh)
        j = int(cost.argmin())
        if full and cost[j] >= 60.0 and name != abbr:
            # is a unit really under the text (not just near it)?
            tight = label_cost(p, bw, bh, reach=0.9)
            if tight[j] >= 60.0:
                j2 = int(tight.argmin())
                if tight[j2] < 60.0:
                    j = j2
        if full and label_cost(p, bw, bh, reach=0.9)[j] >= 60.0 and name != abbr:
            # the full name covers a unit wherever it goes: the abbreviation, if it fits
            sw, sh = label_box(abbr, False, label_size, center)
            short = label_cost(p, sw, sh)
            k = int(short.argmin())
            if short[k] < 60.0:
                j, bw, bh = k, sw, sh
                out[p]["short_label"] = True
        if full and name != abbr and not out[p].get("short_label") \
                and outside_count(p, bw, bh)[j] >= 3:
            # half the full name would lie in the neighbours (a small island): the
            # abbreviation, if it fits better
            sw, sh = label_box(abbr, False, label_size, center)
            short = label_cost(p, sw, sh)
            k = int(short.argmin())
            if short[k] < 60.0 and outside_count(p, sw, sh)[k] < outside_count(p, bw, bh)[j]:
                j, bw, bh = k, sw, sh
                out[p]["short_label"] = True
        lx, ly = float(cx[j]), float(cy[j])
        out[p]["label"] = [lx, ly]
        boxes.append((lx - bw / 2, ly - bh / 2, lx + bw / 2, ly + bh / 2))
    # dislodged units: inside the province, clear of its unit and label
    for p, rec in out.items():
        cx, cy, cl, _ = cands[p]
        ux, uy = rec["unit"]
        lx, ly = rec["label"]
        du = np.hypot(cx - ux, cy - uy)
        ok = (cl >= room) & (du >= 2.2 * unit_r)
        for a0, b0, a1, b1 in boxes:
            ok &= ~((cx > a0 - unit_r) & (cx < a1 + unit_r) & (cy > b0 - unit_r)
                    & (cy < b1 + unit_r))
        if ok.any():
            k = int(np.where(ok, -du, -1e9).argmax())
            rec["dislodged"] = [float(cx[k]), float(cy[k])]
    # more units in an open space: a lattice of places about the unit, rows of fleets that
    # do not overlap, each with room, clear of the dislodged unit and every label
    short = []
    for p, want in sorted((slots or {}).items()):
        if p not in out or want <= 0:
            continue
        rec = out[p]
        x0, y0, edt = edts[p]
        ux, uy = rec["unit"]
        dx, dy = 3.3 * unit_r, 3.0 * unit_r
        pts = [(ux + i * dx + (dx / 2 if j % 2 else 0.0), uy + j * dy)
               for j in range(-6, 7) for i in range(-8, 9)]
        pts.sort(key=lambda q: math.hypot(q[0] - ux, q[1] - uy))
        taken = [tuple(rec["dislodged"])] if "dislodged" in rec else []
        got = []
        for qx, qy in pts[1:]:
            if len(got) >= want:
                break
            cx, cy = int(qx * ss) - x0, int(qy * ss) - y0
            if not (0 <= cy < edt.shape[0] and 0 <= cx < edt.shape[1]) or edt[cy, cx] < room:
                continue
            if any(math.hypot(qx - tx, qy - ty) < 2.6 * unit_r for tx, ty in taken):
                continue
            if any(a0 - unit_r * 1.5 < qx < a1 + unit_r * 1.5
                   and b0 - unit_r * 1.6 < qy < b1 + unit_r for a0, b0, a1, b1 in boxes):
                continue
            got.append([qx, qy])
        rec["slots"] = got
        if len(got) < want:
            short.append(f"{m.prov_abbr[p]} {len(got)} of {want}")
    if short:
        say(f"  open spaces with room for fewer units than asked: {', '.join(short)}")
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
