"""A schematic map from province coordinates: projection, one region per province, borders.

Each province gets the region of the plane nearer to its centre than to any other centre (a
Voronoi cell, or rather a power-diagram cell: each centre has a weight that moves its
borders outward), cut to a disc around the centre so the outer provinces end in rounded
coasts rather than running to the frame. Cells are computed by clipping a polygon with one
half-plane per nearby centre (pure Python; about 20 ms for the standard map), and every edge
of a cell remembers which neighbour it borders, so a border can be drawn in the style of the
map's edge between the two provinces (land, sea, canal, river, bridge...).

One point per province cannot give every province its real neighbours: on the standard map
plain Voronoi cells of the real-world centres get 82 of 206 adjacencies wrong. `fit_regions`
therefore nudges the centres (less than a province's spacing) and the weights for a few dozen
rounds, pulling apart provinces whose cells touch but which are not adjacent and pushing
together adjacent ones whose cells do not touch, and keeps the best layout (about 10 left
on the standard map). The picture draws what is still wrong honestly: a border between
provinces that are not adjacent is drawn as "no passage", and adjacent provinces whose
regions do not touch are joined by a thin line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from polydip.errors import PolydipError

Point = tuple[float, float]
OUTSIDE = -1  # edge label of a cell's outer (disc or frame) boundary


@dataclass(slots=True)
class Projection:
    """Variant coordinates → picture coordinates (pixels, y down)."""

    latlon: bool
    x0: float
    y0: float
    scale: float
    kx: float  # longitude squeeze (cos of the middle latitude)
    left: float
    top: float

    def __call__(self, c: tuple[float, float]) -> Point:
        if self.latlon:
            lat, lon = c
            x, y = lon * self.kx, -lat
        else:
            x, y = c
        return (self.left + (x - self.x0) * self.scale, self.top + (y - self.y0) * self.scale)


def fit_projection(coords: list[tuple[float, float]], latlon: bool, width: float,
                   height: float | None, left: float = 0.0, top: float = 0.0,
                   pad: float = 0.0) -> tuple[Projection, float]:
    """A projection of `coords` into a box `width` wide (and `height` high, or as high as the
    map's shape needs); returns it and the height used."""
    if not coords:
        raise PolydipError("the variant has no province coordinates to draw")
    kx = 1.0
    if latlon:
        lats = [c[0] for c in coords]
        kx = math.cos(math.radians((max(lats) + min(lats)) / 2))
        pts = [(c[1] * kx, -c[0]) for c in coords]
    else:
        pts = list(coords)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    w = max(xs) - min(xs) or 1.0
    h = max(ys) - min(ys) or 1.0
    scale = (width - 2 * pad) / w
    if height is not None:
        scale = min(scale, (height - 2 * pad) / h)
    used_h = h * scale + 2 * pad if height is None else height
    ox = left + pad + ((width - 2 * pad) - w * scale) / 2
    oy = top + pad + ((used_h - 2 * pad) - h * scale) / 2
    return Projection(latlon, min(xs), min(ys), scale, kx, ox, oy), used_h


@dataclass(slots=True)
class Cell:
    points: list[Point]
    labels: list[int]  # labels[k]: the site across edge points[k] → points[k+1], or OUTSIDE


def _clip(pts: list[Point], labels: list[int], a: float, b: float, c: float, label: int
          ) -> tuple[list[Point], list[int]]:
    """Keep the part of the polygon with a·x + b·y <= c; the new edge gets `label`."""
    out_p: list[Point] = []
    out_l: list[int] = []
    n = len(pts)
    for k in range(n):
        p, q, lab = pts[k], pts[(k + 1) % n], labels[k]
        fp = a * p[0] + b * p[1] - c
        fq = a * q[0] + b * q[1] - c
        if fp <= 0:
            out_p.append(p)
            out_l.append(lab)
            if fq > 0:
                t = fp / (fp - fq)
                out_p.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
                out_l.append(label)
        elif fq <= 0:
            t = fp / (fp - fq)
            out_p.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
            out_l.append(lab)
    return out_p, out_l


def voronoi_cells(sites: list[Point], radius: list[float],
                  frame: tuple[float, float, float, float], weights: list[float] | None = None,
                  segments: int = 40) -> list[Cell]:
    """The (power-diagram) cell of each site, cut to a disc of `radius[i]` and to the frame
    (x0, y0, x1, y1). Without weights these are Voronoi cells."""
    cells = []
    w = weights or [0.0] * len(sites)
    wmax = max(w, default=0.0) - min(w, default=0.0)
    x0, y0, x1, y1 = frame
    for i, (sx, sy) in enumerate(sites):
        r = radius[i]
        pts = [(sx + r * math.cos(2 * math.pi * k / segments),
                sy + r * math.sin(2 * math.pi * k / segments)) for k in range(segments)]
        labels = [OUTSIDE] * segments
        for fa, fb, fc in ((1, 0, x1), (-1, 0, -x0), (0, 1, y1), (0, -1, -y0)):
            if fa * sx + fb * sy + r > fc:  # the disc crosses this side of the frame
                pts, labels = _clip(pts, labels, fa, fb, fc, OUTSIDE)
        reach = r  # the farthest point of the polygon from the site, kept up to date
        by_distance = sorted((((tx - sx) ** 2 + (ty - sy) ** 2), j)
                             for j, (tx, ty) in enumerate(sites) if j != i)
        for d2, j in by_distance:
            tx, ty = sites[j]
            # |p - s|² - w_i <= |p - t|² - w_j  ⟺  2 p·(t - s) <= |t|² - |s|² + w_i - w_j
            a, b = tx - sx, ty - sy
            c = ((tx * tx + ty * ty) - (sx * sx + sy * sy) + w[i] - w[j]) / 2
            dist = math.sqrt(d2) or 1e-9
            if (c - (a * sx + b * sy)) / dist >= reach:  # the line misses the polygon
                # and so do those of all farther sites once d >= reach + √(reach² + max w)
                if dist >= reach + math.sqrt(reach * reach + wmax):
                    break
                continue
            pts, labels = _clip(pts, labels, a, b, c, j)
            if not pts:
                break
            reach = max(math.hypot(x - sx, y - sy) for x, y in pts)
        cells.append(Cell(pts, labels))
    return cells


def shared_borders(cells: list[Cell]) -> dict[tuple[int, int], list[tuple[Point, Point]]]:
    """(i, j) with i < j → the segments of the border the two cells share."""
    out: dict[tuple[int, int], list[tuple[Point, Point]]] = {}
    for i, cell in enumerate(cells):
        n = len(cell.points)
        for k in range(n):
            j = cell.labels[k]
            if j <= i:  # each border once (from the lower index), and not the outside
                continue
            p, q = cell.points[k], cell.points[(k + 1) % n]
            if (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 < 0.25:
                continue
            out.setdefault((i, j), []).append((p, q))
    return out


def outer_edges(cells: list[Cell]) -> list[list[tuple[Point, Point]]]:
    """Per cell, its edges on the outside (disc or frame)."""
    out = []
    for cell in cells:
        n = len(cell.points)
        out.append([(cell.points[k], cell.points[(k + 1) % n]) for k in range(n)
                    if cell.labels[k] == OUTSIDE])
    return out


def nearest_distances(sites: list[Point]) -> list[float]:
    out = []
    for i, (x, y) in enumerate(sites):
        best = math.inf
        for j, (u, v) in enumerate(sites):
            if i != j:
                best = min(best, math.hypot(x - u, y - v))
        out.append(best if best < math.inf else 100.0)
    return out


def centroid(points: list[Point]) -> Point:
    """Area centroid of a polygon (the mean of its points if it has no area)."""
    a = cx = cy = 0.0
    n = len(points)
    for k in range(n):
        x0, y0 = points[k]
        x1, y1 = points[(k + 1) % n]
        cr = x0 * y1 - x1 * y0
        a += cr
        cx += (x0 + x1) * cr
        cy += (y0 + y1) * cr
    if abs(a) < 1e-9:
        return (sum(p[0] for p in points) / n, sum(p[1] for p in points) / n)
    return (cx / (3 * a), cy / (3 * a))


@dataclass(slots=True)
class Regions:
    sites: list[Point]  # the centres used (nudged from the given ones)
    cells: list[Cell]
    wrong_borders: int  # borders between provinces that are not adjacent
    missing_borders: int  # adjacent provinces whose cells do not touch


def fit_regions(sites: list[Point], adjacent: set[tuple[int, int]],
                frame: tuple[float, float, float, float], rounds: int = 50,
                keep_in: tuple[float, float, float, float] | None = None,
                grow: list[float] | None = None) -> Regions:
    """Cells for `sites` whose shared borders match `adjacent` ((i, j), i < j) as well as a
    few rounds of nudging can make them (see the module docstring). Nudged centres stay in
    `keep_in` (default: the frame). `grow[i]` (in spacings) pushes a cell's borders out from
    the start: land provinces, which carry units and labels, take room from the seas."""
    kx0, ky0, kx1, ky1 = keep_in or frame
    n = len(sites)
    near = nearest_distances(sites)
    spacing = sorted(near)[n // 2] if n else 1.0
    radius = [max(2.0 * spacing, 1.25 * d) for d in near]
    neighbours: list[set[int]] = [set() for _ in range(n)]
    for i, j in adjacent:
        neighbours[i].add(j)
        neighbours[j].add(i)
    cur = list(sites)
    weights = [(g * spacing) ** 2 for g in grow] if grow else [0.0] * n
    best: Regions | None = None
    best_bad = 0
    step, limit = 0.05 * spacing, 0.7 * spacing
    since_best = 0
    for _ in range(rounds):
        cells = voronoi_cells(cur, radius, frame, weights)
        touching = shared_borders(cells)
        wrong = [k for k in touching if k not in adjacent]
        missing = [k for k in adjacent if k not in touching]
        # a province whose own centre is not in its cell (or that has none) is far worse
        lost = [i for i in range(n) if not inside(cur[i], cells[i].points)]
        bad = len(wrong) + len(missing) + 10 * len(lost)
        if best is None or bad < best_bad:
            best, best_bad = Regions(list(cur), cells, len(wrong), len(missing)), bad
            since_best = 0
            if not bad:
                break
        else:
            since_best += 1
            if since_best >= 12:
                break
        for i in lost:
            for j in neighbours[i]:
                weights[j] *= 0.7
            weights[i] += 0.1 * spacing * spacing
        move = _pair_moves(cur, missing, wrong, step)
        for i, j in missing:
            weights[i] += 0.02 * spacing * spacing
            weights[j] += 0.02 * spacing * spacing
        for i, j in wrong:
            for k in neighbours[i] & neighbours[j]:
                weights[k] += 0.03 * spacing * spacing
        for i in range(n):
            cur[i] = _moved(cur[i], move[i], sites[i], limit, (kx0, ky0, kx1, ky1))
    assert best is not None
    if any(not inside(best.sites[i], best.cells[i].points) for i in range(n)):
        # never lose a province: plain Voronoi cells always hold their own centre
        cells = voronoi_cells(sites, radius, frame)
        touching = shared_borders(cells)
        best = Regions(list(sites), cells, sum(1 for k in touching if k not in adjacent),
                       sum(1 for k in adjacent if k not in touching))
    return best


def _pair_moves(cur: list[Point], missing: list[tuple[int, int]],
                wrong: list[tuple[int, int]], step: float) -> list[list[float]]:
    """Each centre's nudge: towards the neighbours its cell misses, away from the cells it
    touches but should not."""
    move = [[0.0, 0.0] for _ in cur]
    for pairs, sign in ((missing, 1.0), (wrong, -1.0)):
        for i, j in pairs:
            dx, dy = cur[j][0] - cur[i][0], cur[j][1] - cur[i][1]
            d = math.hypot(dx, dy) or 1.0
            ux, uy = sign * dx / d * step, sign * dy / d * step
            move[i][0] += ux
            move[i][1] += uy
            move[j][0] -= ux
            move[j][1] -= uy
    return move


def _moved(at: Point, move: list[float], site: Point, limit: float,
           keep: tuple[float, float, float, float]) -> Point:
    """`at` nudged by `move`, kept within `limit` of its given site and inside `keep`."""
    x, y = at[0] + move[0], at[1] + move[1]
    dx, dy = x - site[0], y - site[1]
    d = math.hypot(dx, dy)
    if d > limit:
        x, y = site[0] + dx / d * limit, site[1] + dy / d * limit
    return (min(max(x, keep[0]), keep[2]), min(max(y, keep[1]), keep[3]))


def inside(pt: Point, poly: list[Point]) -> bool:
    """Is `pt` inside the convex polygon `poly` (either orientation)?"""
    n = len(poly)
    if n < 3:
        return False
    sign = 0
    for k in range(n):
        (x0, y0), (x1, y1) = poly[k], poly[(k + 1) % n]
        cr = (x1 - x0) * (pt[1] - y0) - (y1 - y0) * (pt[0] - x0)
        if abs(cr) < 1e-9:
            continue
        s = 1 if cr > 0 else -1
        if sign and s != sign:
            return False
        sign = s
    return True


def spread(sites: list[Point], frame: tuple[float, float, float, float], rounds: int = 60
           ) -> list[Point]:
    """Push crowded centres apart (towards an even spacing), a little pulled back to where
    they were, so that small provinces in dense parts of a map get room for a unit and a
    label. Order and rough shape are kept: a centre moves at most about one spacing."""
    n = len(sites)
    if n < 3:
        return list(sites)
    near = sorted(nearest_distances(sites))
    target = near[(7 * n) // 10]
    cur = [list(p) for p in sites]
    x0, y0, x1, y1 = frame
    for _ in range(rounds):
        order = sorted(range(n), key=lambda k: cur[k][0])
        move = [[0.0, 0.0] for _ in range(n)]
        for a in range(n):
            i = order[a]
            for b in range(a + 1, n):
                j = order[b]
                dx = cur[j][0] - cur[i][0]
                if dx >= target:
                    break
                dy = cur[j][1] - cur[i][1]
                d = math.hypot(dx, dy)
                if d >= target:
                    continue
                if d < 1e-6:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (target - d) * 0.25 / d
                move[i][0] -= dx * push
                move[i][1] -= dy * push
                move[j][0] += dx * push
                move[j][1] += dy * push
        for k in range(n):
            cur[k][0] += move[k][0] + 0.03 * (sites[k][0] - cur[k][0])
            cur[k][1] += move[k][1] + 0.03 * (sites[k][1] - cur[k][1])
            cur[k][0] = min(max(cur[k][0], x0), x1)
            cur[k][1] = min(max(cur[k][1], y0), y1)
    return [(p[0], p[1]) for p in cur]


def closest_points(a: list[Point], b: list[Point]) -> tuple[Point, Point]:
    """The closest pair of vertices of two polygons (a bridge across the gap between them)."""
    best = (math.inf, a[0], b[0])
    for p in a:
        for q in b:
            d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
            if d < best[0]:
                best = (d, p, q)
    return best[1], best[2]
