"""Projection, magnifier and frame of a board: lon/lat degrees → board pixels.

A board is drawn in a Lambert azimuthal equal-area projection (spherical) about a centre the
hints name, or for a whole-world board an equirectangular one (`kind = "equirect"`, with
`wrap = true` when the seas continue across the left and right edges: the frame is then
the whole way round, and geometry is cut at the seam, the meridian opposite `center`).

An optional smooth radial magnifier enlarges a dense region (the Caribbean): inside radius
R around its centre a distance r becomes R·h(r/R) with h(t) = k·t − 2(k−1)·t² + (k−1)·t³,
which magnifies k times at the centre, meets the plain map at R with the same slope (no
kink), and stays monotone for k < 4. An inset moves what lies in a lon/lat box by some km
(Hawaii closer to the continent) and is drawn with a frame. Stretches draw bands of
longitude (or latitude) wider (taller) or narrower than the rest: empty oceans give their
room to the crowded middle, with no bending (each axis on its own).

The frame is the variant's points padded by `pad_km` (plus `extend_km` per side),
scaled to `width` pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

EARTH_KM = 6371.0
MERCATOR_MAX_LAT = 85.0  # the poles are infinitely far: latitudes beyond are drawn on it


@dataclass(slots=True)
class Magnifier:
    x: float  # centre, projected km
    y: float
    radius: float  # km
    factor: float

    def apply(self, x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        dx, dy = x - self.x, y - self.y
        r = np.hypot(dx, dy)
        t = np.clip(r / self.radius, 0, 1)
        k = self.factor
        h = k * t - 2 * (k - 1) * t ** 2 + (k - 1) * t ** 3
        with np.errstate(invalid="ignore", divide="ignore"):
            s = np.where((r > 0) & (r < self.radius), h * self.radius / np.maximum(r, 1e-9), 1.0)
        return self.x + dx * s, self.y + dy * s


@dataclass(slots=True)
class Projection:
    kind: str  # "laea" | "equirect" | "mercator"
    lat0: float
    lon0: float
    magnifiers: list[Magnifier] = field(default_factory=list)
    # insets: (lon0, lat0, lon1, lat1, dx_km, dy_km): what lies in the box moves by (dx, dy)
    shifts: list[tuple[float, float, float, float, float, float]] = field(
        default_factory=list)
    wrap: bool = False
    # stretches: (a, b, factor) in projected km along x or y: what lies between a and b is
    # drawn `factor` times as wide (tall) as elsewhere
    stretch_x: list[tuple[float, float, float]] = field(default_factory=list)
    stretch_y: list[tuple[float, float, float]] = field(default_factory=list)
    # frame, set by fit(): projected km of the left/top corner and pixels per km
    x0: float = 0.0
    y1: float = 0.0
    scale: float = 1.0
    width: int = 1600
    height: int = 0

    def km(self, lon, lat) -> tuple[np.ndarray, np.ndarray]:
        lon = np.radians(np.asarray(lon, dtype=float))
        lat = np.radians(np.asarray(lat, dtype=float))
        phi1, lam0 = np.radians(self.lat0), np.radians(self.lon0)
        dl = lon - lam0
        # into [-π, π]; a vertex exactly on the seam (lon0 ± 180°, where geometry was cut)
        # keeps its side
        dl = np.where(dl > np.pi, dl - 2 * np.pi, dl)
        dl = np.where(dl < -np.pi, dl + 2 * np.pi, dl)
        if self.kind == "equirect":
            x = EARTH_KM * dl * np.cos(phi1)
            y = EARTH_KM * lat
        elif self.kind == "mercator":  # conformal: the mid-latitudes drawn as tall as wide
            x = EARTH_KM * dl * np.cos(phi1)
            lat = np.clip(lat, -np.radians(MERCATOR_MAX_LAT), np.radians(MERCATOR_MAX_LAT))
            y = EARTH_KM * np.cos(phi1) * np.log(np.tan(np.pi / 4 + lat / 2))
        else:
            cosc = np.sin(phi1) * np.sin(lat) + np.cos(phi1) * np.cos(lat) * np.cos(dl)
            k = np.sqrt(2 / np.maximum(1 + cosc, 1e-12))
            x = EARTH_KM * k * np.cos(lat) * np.sin(dl)
            y = EARTH_KM * k * (np.cos(phi1) * np.sin(lat) - np.sin(phi1) * np.cos(lat)
                                * np.cos(dl))
        if self.shifts:
            lon_d, lat_d = np.degrees(lon), np.degrees(lat)
            for lo0, la0, lo1, la1, dx, dy in self.shifts:
                inside = (lon_d >= lo0) & (lon_d <= lo1) & (lat_d >= la0) & (lat_d <= la1)
                x = np.where(inside, x + dx, x)
                y = np.where(inside, y + dy, y)
        x = _stretch(x, self.stretch_x)
        y = _stretch(y, self.stretch_y)
        for m in self.magnifiers:
            x, y = m.apply(x, y)
        return x, y

    def inset_frames(self) -> list[list[float]]:
        """Each shifted box's outline in board pixels [x0, y0, x1, y1] (drawn as an inset)."""
        out = []
        for lo0, la0, lo1, la1, _dx, _dy in self.shifts:
            lon = np.concatenate([np.linspace(lo0, lo1, 20), np.full(20, lo1),
                                  np.linspace(lo0, lo1, 20), np.full(20, lo0)])
            lat = np.concatenate([np.full(20, la0), np.linspace(la0, la1, 20),
                                  np.full(20, la1), np.linspace(la0, la1, 20)])
            x, y = self.px(lon, lat)
            out.append([round(float(x.min()), 1), round(float(y.min()), 1),
                        round(float(x.max()), 1), round(float(y.max()), 1)])
        return out

    def px(self, lon, lat) -> tuple[np.ndarray, np.ndarray]:
        x, y = self.km(lon, lat)
        return (x - self.x0) * self.scale, (self.y1 - y) * self.scale

    def fit(self, lonlat: list[tuple[float, float]], width: int, pad_km: float,
            extend_km: tuple[float, float, float, float] = (0, 0, 0, 0)) -> None:
        x, y = self.km([p[0] for p in lonlat], [p[1] for p in lonlat])
        left, top, right, bottom = extend_km
        x0, x1 = x.min() - pad_km - left, x.max() + pad_km + right
        if self.wrap:  # the whole way round: the left and right edges are one meridian
            half = np.pi * EARTH_KM * np.cos(np.radians(self.lat0))
            x0, x1 = (float(c) for c in _stretch(np.array([-half, half]), self.stretch_x))
            for m in self.magnifiers:
                if m.x - m.radius < x0 or m.x + m.radius > x1:
                    raise SystemExit("a magnifier reaches the seam of a board that wraps: "
                                     "move it or make it smaller")
        y0, y1 = y.min() - pad_km - bottom, y.max() + pad_km + top
        self.x0, self.y1 = float(x0), float(y1)
        self.width = width
        self.scale = width / float(x1 - x0)
        self.height = round((y1 - y0) * self.scale)

    def describe(self) -> dict:
        return {
            "kind": self.kind, "lat0": self.lat0, "lon0": self.lon0, "wrap": self.wrap,
            "earth_km": EARTH_KM,
            "insets": [{"box_lonlat": [lo0, la0, lo1, la1], "shift_km": [dx, dy]}
                       for lo0, la0, lo1, la1, dx, dy in self.shifts],
            "stretch_km": {"x": [list(b) for b in self.stretch_x],
                           "y": [list(b) for b in self.stretch_y]},
            "magnifiers": [{"x_km": round(m.x, 3), "y_km": round(m.y, 3),
                            "radius_km": m.radius, "factor": m.factor}
                           for m in self.magnifiers],
            "x0_km": round(self.x0, 3), "y1_km": round(self.y1, 3),
            "px_per_km": round(self.scale, 9),
        }


def _stretch(v: np.ndarray, bands: list[tuple[float, float, float]]) -> np.ndarray:
    """v with each band [a, b] drawn `factor` times as long: v + Σ (factor − 1)·|[a, b] ∩
    (−∞, v]| (monotone, continuous; bands must not overlap)."""
    if not bands:
        return v
    out = np.array(v, dtype=float, copy=True)
    for a, b, f in bands:
        out += (f - 1.0) * (np.clip(v, a, b) - a)
    return out


def from_hints(h: dict) -> Projection:
    kind = h.get("kind", "laea")
    if kind not in ("laea", "equirect", "mercator"):
        raise SystemExit(f"projection.kind {kind!r}: use \"laea\", \"equirect\" or "
                         "\"mercator\"")
    lat0, lon0 = h["center"]
    p = Projection(kind, float(lat0), float(lon0), wrap=bool(h.get("wrap", False)))
    if p.wrap and (kind == "laea" or h.get("insets")):
        raise SystemExit("projection.wrap needs a cylindrical kind (\"equirect\", "
                         "\"mercator\") and no insets (the left and right edges must meet)")
    for ins in h.get("insets", []):
        la0, lo0, la1, lo1 = ins["box"]
        dx, dy = ins["shift_km"]
        p.shifts.append((float(lo0), float(la0), float(lo1), float(la1), float(dx), float(dy)))
    st = h.get("stretch", {})
    # bands are given as longitudes (x) and latitudes (y), measured through the centre
    bx, by = [], []  # measured on the plain projection (before any stretch)
    for lo0, lo1, f in st.get("x", []):
        xa, _ = p.km([lo0, lo1], [lat0, lat0])
        bx.append((float(min(xa)), float(max(xa)), float(f)))
    for la0, la1, f in st.get("y", []):
        _, ya = p.km([lon0, lon0], [la0, la1])
        by.append((float(min(ya)), float(max(ya)), float(f)))
    p.stretch_x, p.stretch_y = bx, by
    for band in (p.stretch_x, p.stretch_y):
        band.sort()
        if any(f <= 0 for _a, _b, f in band) or any(
                band[i][1] > band[i + 1][0] for i in range(len(band) - 1)):
            raise SystemExit("projection.stretch: bands must not overlap and factors must "
                             "be positive")
    for mg in h.get("magnifiers", []):
        lat, lon = mg["center"]
        mx, my = p.km([lon], [lat])
        p.magnifiers.append(Magnifier(float(mx[0]), float(my[0]), float(mg["radius_km"]),
                                      float(mg["factor"])))
    return p
