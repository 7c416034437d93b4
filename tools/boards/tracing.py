"""From a raster of faces to shared arcs: every border between two faces traced once.

A face is one surface (land or water) of one region (a province, or neutral). The borders of
the raster's cells between two different faces (and the frame, face -1) form a planar graph
whose nodes are the cell corners where three or more borders meet; each chain between nodes
(or closed loop) is one arc, with the face on its left and on its right. Each arc is smoothed
(cell-edge midpoints: staircases become lines) and simplified (Douglas-Peucker, tolerance by
the kind of border), with its end points fixed, so the faces still tile the board exactly.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(slots=True)
class Arc:
    pts: list[tuple[float, float]]  # board pixels
    left: int  # face on the left when walking the arc (y down), -1 outside the frame
    right: int


def trace(face: np.ndarray, say) -> list[Arc]:
    h, w = face.shape
    fp = np.full((h + 2, w + 2), -1, dtype=np.int64)
    fp[1:-1, 1:-1] = face
    a, b = fp[:-1, :-1], fp[:-1, 1:]  # around corner (i, j): up-left, up-right
    c, d = fp[1:, :-1], fp[1:, 1:]  # down-left, down-right
    up, down, left, right = a != b, c != d, a != c, b != d
    W = w + 1
    deg = up.astype(np.int8) + down + left + right
    corners = np.nonzero(deg.ravel())[0]
    say(f"  {len(corners)} border corners")
    upf, downf, leftf, rightf = (x.ravel() for x in (up, down, left, right))
    adj: dict[int, list[int]] = {}
    for cid in corners.tolist():
        lst = []
        if upf[cid]:
            lst.append(cid - W)
        if downf[cid]:
            lst.append(cid + W)
        if leftf[cid]:
            lst.append(cid - 1)
        if rightf[cid]:
            lst.append(cid + 1)
        adj[cid] = lst
    degf = deg.ravel()
    fpr = fp.ravel()
    FW = w + 2

    def sides(p: int, q: int) -> tuple[int, int]:
        i, j = divmod(p, W)
        if q == p + 1:  # east: above is left
            return int(fpr[i * FW + j + 1]), int(fpr[(i + 1) * FW + j + 1])
        if q == p - 1:  # west: below is left
            return int(fpr[(i + 1) * FW + j]), int(fpr[i * FW + j])
        if q == p + W:  # south: east is left
            return int(fpr[(i + 1) * FW + j + 1]), int(fpr[(i + 1) * FW + j])
        return int(fpr[i * FW + j]), int(fpr[i * FW + j + 1])  # north: west is left

    used: set[tuple[int, int]] = set()
    arcs: list[Arc] = []

    def walk(start: int, nxt: int) -> None:
        chain = [start, nxt]
        used.add((start, nxt))
        used.add((nxt, start))
        prev, cur = start, nxt
        while degf[cur] == 2 and cur != start:
            n1, n2 = adj[cur]
            q = n1 if n1 != prev else n2
            used.add((cur, q))
            used.add((q, cur))
            chain.append(q)
            prev, cur = cur, q
        lf, rt = sides(chain[0], chain[1])
        pts = [(float(p % W), float(p // W)) for p in chain]
        arcs.append(Arc(pts, lf, rt))

    nodes = [cid for cid in adj if degf[cid] != 2]
    for cid in nodes:
        for q in adj[cid]:
            if (cid, q) not in used:
                walk(cid, q)
    for cid in adj:  # closed loops with no node
        for q in adj[cid]:
            if (cid, q) not in used:
                walk(cid, q)
    say(f"  {len(arcs)} arcs")
    return arcs


def smooth(pts: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Cell-edge midpoints between the fixed end points: staircases become slopes."""
    if len(pts) <= 2:
        return list(pts)
    mids = [((x0 + x1) / 2, (y0 + y1) / 2) for (x0, y0), (x1, y1) in itertools.pairwise(pts)]
    return [pts[0], *mids, pts[-1]]


def simplify(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    """Douglas-Peucker keeping both ends; a closed loop keeps at least a triangle."""
    if len(pts) <= 2 or tol <= 0:
        return list(pts)
    if pts[0] == pts[-1]:
        x0, y0 = pts[0]
        far = max(range(len(pts)), key=lambda k: (pts[k][0] - x0) ** 2 + (pts[k][1] - y0) ** 2)
        if far in (0, len(pts) - 1):
            return list(pts)
        first = _dp(pts[:far + 1], tol)
        second = _dp(pts[far:], tol)
        out = first + second[1:]
        if len(out) < 4:
            third = len(pts) // 3
            out = [pts[0], pts[third], pts[2 * third], pts[-1]]
        return out
    return _dp(pts, tol)


def _dp(pts: list[tuple[float, float]], tol: float) -> list[tuple[float, float]]:
    arr = np.asarray(pts)
    keep = np.zeros(len(pts), dtype=bool)
    keep[0] = keep[-1] = True
    stack = [(0, len(pts) - 1)]
    tol2 = tol * tol
    while stack:
        i, j = stack.pop()
        if j <= i + 1:
            continue
        p, q = arr[i], arr[j]
        seg = arr[i + 1:j]
        dx, dy = q - p
        n2 = dx * dx + dy * dy
        if n2 == 0:
            d2 = ((seg - p) ** 2).sum(axis=1)
        else:
            t = np.clip(((seg[:, 0] - p[0]) * dx + (seg[:, 1] - p[1]) * dy) / n2, 0, 1)
            px, py = p[0] + t * dx, p[1] + t * dy
            d2 = (seg[:, 0] - px) ** 2 + (seg[:, 1] - py) ** 2
        k = int(d2.argmax())
        if d2[k] > tol2:
            m = i + 1 + k
            keep[m] = True
            stack.append((i, m))
            stack.append((m, j))
    return [pts[k] for k in np.nonzero(keep)[0]]
