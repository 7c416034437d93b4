"""Room for the anchors of narrow provinces, taken from their neighbours on the final raster.

A province with no point `need_px` from its outline (a narrow coast, a strait, a small
country between two big ones) takes a disc of room round one of its roomiest points from the
neighbours it is adjacent to, when that keeps every border the map needs: no adjacent pair's
touch falls below what it had (or below `keep_px`), no pair that must not touch comes to
touch, every neighbour stays in as many pieces as before, keeps its own room (or what it had)
and `min_area_px` px² of area. Land provinces take land of land neighbours and water of any
neighbour (a coastal halo); sea provinces take water only.
"""

from __future__ import annotations

import numpy as np
from scipy import ndimage


def _edt_inside(mask: np.ndarray) -> np.ndarray:
    padded = np.pad(mask, 1, constant_values=False)
    return ndimage.distance_transform_edt(padded)[1:-1, 1:-1]


def _pair_counts(win: np.ndarray, n: int) -> dict[tuple[int, int], int]:
    """Cell edges between two different provinces inside a window, per pair."""
    out: dict[tuple[int, int], int] = {}
    for a, b in ((win[:, :-1], win[:, 1:]), (win[:-1, :], win[1:, :])):
        d = a != b
        lo, hi = np.minimum(a[d], b[d]), np.maximum(a[d], b[d])
        keys, cnt = np.unique(lo.astype(np.int64) * (n + 1) + hi, return_counts=True)
        for k, c in zip(keys.tolist(), cnt.tolist(), strict=True):
            key = (k // (n + 1), k % (n + 1))
            out[key] = out.get(key, 0) + c
    return out


class _Province:
    """Bounding boxes and room of provinces on the raster, recomputed on demand."""

    def __init__(self, region: np.ndarray) -> None:
        self.region = region
        self.objs = ndimage.find_objects(region + 1)

    def box(self, p: int) -> tuple[slice, slice] | None:
        return self.objs[p] if p < len(self.objs) else None

    def stats(self, p: int, region: np.ndarray, box: tuple[slice, slice]
              ) -> tuple[float, int, int]:
        """Room (cells), pieces and area (cells) of province p within `box`."""
        mask = region[box] == p
        pieces = ndimage.label(mask)[1]
        return float(_edt_inside(mask).max(initial=0.0)), pieces, int(mask.sum())


def fatten(region: np.ndarray, water: np.ndarray, land: list[bool],
           adjacent: set[tuple[int, int]], free: set[tuple[int, int]], n: int, ss: int,
           room_px: float, need_px: float, keep_px: float, min_area_px: float,
           names: list[str], say, floor_px: float = 11.5) -> int:
    """Give each province with no point `need_px` from its outline a disc of room (in
    place): `room_px` radius, else the largest down to `floor_px` that fits. Returns how many
    got one."""
    h, w = region.shape
    room = room_px * ss
    keep = keep_px * ss
    min_area = min_area_px * ss * ss
    need = need_px * ss
    floor = floor_px * ss
    r_int = int(np.ceil(room)) + 1
    yy, xx = np.mgrid[-r_int:r_int + 1, -r_int:r_int + 1]
    radii = np.arange(room, min(need, floor) - 0.01, -ss / 2)
    discs = [(np.hypot(yy, xx) <= r + 0.5) for r in radii]
    why: dict[str, int] = {}
    may_touch = adjacent | free
    lengths = _pair_counts(region, n)
    boxes = _Province(region)
    done, failed = [], []

    def grown_box(q: int, y0: int, y1: int, x0: int, x1: int) -> tuple[slice, slice]:
        b = boxes.box(q)
        return (slice(min(b[0].start, y0), max(b[0].stop, y1)),
                slice(min(b[1].start, x0), max(b[1].stop, x1)))

    for p in range(n):
        b = boxes.box(p)
        if b is None:
            continue
        mask = region[b] == p
        edt = _edt_inside(mask)
        if edt.max() >= need:
            continue
        before = edt.max() / ss
        # candidate centres: the roomiest cells first
        flat = np.argsort(edt.ravel())[::-1][:1600:4]
        ok_any = False
        for disc, f in ((d, f) for d in discs for f in flat.tolist()):
            cy, cx = divmod(f, mask.shape[1])
            cy += b[0].start
            cx += b[1].start
            y0, y1, x0, x1 = cy - r_int, cy + r_int + 1, cx - r_int, cx + r_int + 1
            if y0 < 2 or x0 < 2 or y1 > h - 2 or x1 > w - 2:
                continue
            sub = region[y0:y1, x0:x1]
            take = disc & (sub != p)
            owners = set(np.unique(sub[take]).tolist())
            strangers = [names[q] for q in owners
                         if q < n and (min(p, q), max(p, q)) not in may_touch]
            if strangers:  # a province it must not touch
                k = "not adjacent " + ",".join(strangers)
                why[k] = why.get(k, 0) + 1
                continue
            wsub = water[y0:y1, x0:x1]
            # land of land neighbours (land provinces), neutral islets, any water
            bad = take & ~wsub & (sub != n)
            if land[p]:
                bad &= ~np.asarray(land + [False])[sub]
            if bad.any():
                why["land"] = why.get("land", 0) + 1
                continue
            win = (slice(y0 - 1, y1 + 1), slice(x0 - 1, x1 + 1))
            old_counts = _pair_counts(region[win], n)
            olds = {q: boxes.stats(q, region, grown_box(q, y0, y1, x0, x1)) for q in owners}
            saved = sub.copy()
            sub[take] = p
            new_counts = _pair_counts(region[win], n)
            good = True
            for key in set(old_counts) | set(new_counts):
                if key[1] >= n:
                    continue
                old = lengths.get(key, 0)
                new = old - old_counts.get(key, 0) + new_counts.get(key, 0)
                if key in free or new == old:
                    continue
                if key in adjacent:
                    if new < min(old, keep):
                        good = False
                        why["border short"] = why.get("border short", 0) + 1
                elif new > old:
                    good = False
                    why["wrong touch"] = why.get("wrong touch", 0) + 1
            if good:
                for q in owners:
                    r0, pieces0, _a0 = olds[q]
                    r1, pieces1, a1 = boxes.stats(q, region, grown_box(q, y0, y1, x0, x1))
                    if pieces1 > pieces0 or a1 < min_area or r1 < min(r0, floor):
                        why["neighbour"] = why.get("neighbour", 0) + 1
                        good = False
                        break
            if not good:
                sub[...] = saved
                continue
            for key in set(old_counts) | set(new_counts):
                new = lengths.get(key, 0) - old_counts.get(key, 0) + new_counts.get(key, 0)
                if new:
                    lengths[key] = new
                else:
                    lengths.pop(key, None)
            boxes = _Province(region)
            ok_any = True
            done.append(f"{names[p]} {before:.1f}")
            break
        if not ok_any:
            failed.append(f"{names[p]} {before:.1f} {why}")
        why = {}
    if done or failed:
        say(f"  room taken from neighbours (px before): {', '.join(done) or 'none'}; "
            f"found none: {', '.join(failed) or 'none'}")
    return len(done)
