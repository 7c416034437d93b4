"""Pictures of a game: the position of any phase with its orders, as SVG or PNG.

`render_file(game, "map.png", phase="S1901M")` draws a processed phase (its starting position
and its orders with their results) or, without `phase`, the current position with the orders
given so far. SVG is written by polydip itself; PNG draws that SVG with the system's cairo library
(libcairo2 on Debian and Ubuntu) through ctypes (render.cairodraw), or with CairoSVG
(render.raster) for an SVG that module does not read.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from polydip.errors import PolydipError
from polydip.game.files import write_atomic
from polydip.render.draw import element
from polydip.render.svg import WIDTH, render_svg
from polydip.render.view import PhaseView, phase_view

if TYPE_CHECKING:
    from polydip.game.game import Game

FORMATS = ("svg", "png")

__all__ = ["FORMATS", "PhaseView", "phase_view", "render_file", "render_svg", "svg_to_png"]


def picture_svg(game: Game, phase: str | None = None, names: str | None = None,
                board: bool = True) -> str:
    """The SVG text of `phase` (default: the current one). `names`: "full" or "short"
    province labels (default: full names on maps of more than 80 provinces). The variant's
    board is drawn when it has one (`board=False`: the schematic)."""
    return render_svg(game, phase_view(game, phase), title=game.name, names=names, board=board)


def render_file(game: Game, path: str | Path, phase: str | None = None, width: int = WIDTH,
                names: str | None = None) -> str:
    """Draw `phase` to `path` (.svg or .png, written atomically like
    polydip.game.files.write_atomic); return the format used."""
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise PolydipError(f"{path}: write the picture to a .svg or .png file")
    svg = picture_svg(game, phase, names)
    try:
        data = svg.encode("utf-8") if fmt == "svg" else svg_to_png(svg, width)
        _write_bytes_atomic(path, data)
    except OSError as exc:
        raise PolydipError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    return fmt


def svg_to_png(svg: str, width: int = WIDTH) -> bytes:
    """SVG text `svg` as a PNG file `width` pixels wide: drawn by libcairo directly
    (render.cairodraw) when the SVG is polydip's own, else by CairoSVG (render.raster)."""
    from polydip.render.cairodraw import svg_png as cairo_png

    data = svg.encode("utf-8")
    png = cairo_png(data, width)
    if png is not None:
        return png
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise PolydipError(
            "PNG output needs CairoSVG and the cairo library: pip install cairosvg "
            "(and apt-get install libcairo2); or write an .svg file instead "
            f"({exc.__class__.__name__}: {exc})") from exc
    from polydip.render.raster import svg_png

    del cairosvg  # (imported above to say what is missing; raster draws with it)
    return svg_png(data, width)


def _write_bytes_atomic(path: str | Path, data: bytes) -> None:
    write_atomic(path, data)


def check_output(path: str | Path) -> None:
    """Refuse, before anything is drawn or adjudicated, a picture path polydip cannot
    write: a wrong extension, a missing folder, a folder not writable, PNG without cairo."""
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise PolydipError(f"{path}: write the picture to a .svg or .png file")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise PolydipError(f"{path}: no folder {folder}")
    if p.is_dir():
        raise PolydipError(f"{path}: is a folder; name a .svg or .png file")
    if not os.access(folder, os.W_OK):
        raise PolydipError(f"{path}: cannot write in {folder}")
    if fmt == "png":
        svg_to_png(element("svg", xmlns="http://www.w3.org/2000/svg", width=1, height=1), 1)
