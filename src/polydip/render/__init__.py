"""Pictures of a game: the position of any phase with its orders, as SVG or PNG.

`render_file(game, "map.png", phase="S1901M")` draws a processed phase (its starting position
and its orders with their results) or, without `phase`, the current position with the orders
given so far. SVG is written by polydip itself; PNG converts that SVG with CairoSVG (which
needs the system's cairo library, libcairo2 on Debian and Ubuntu).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from polydip.errors import PolydipError
from polydip.render.svg import WIDTH, render_svg
from polydip.render.view import PhaseView, phase_view

FORMATS = ("svg", "png")

__all__ = ["FORMATS", "PhaseView", "phase_view", "render_file", "render_svg", "svg_to_png"]


def picture_svg(game, phase: str | None = None, names: str | None = None,
                board: bool = True) -> str:
    """The SVG text of `phase` (default: the current one). `names`: "full" or "short"
    province labels (default: full names on maps of more than 80 provinces). The variant's
    board is drawn when it has one (`board=False`: the schematic)."""
    return render_svg(game, phase_view(game, phase), title=game.name, names=names, board=board)


def render_file(game, path: str | Path, phase: str | None = None, width: int = WIDTH,
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
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise PolydipError(
            "PNG output needs CairoSVG and the cairo library: pip install cairosvg "
            "(and apt-get install libcairo2); or write an .svg file instead "
            f"({exc.__class__.__name__}: {exc})") from exc
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)


def _write_bytes_atomic(path: str | Path, data: bytes) -> None:
    """Like polydip.game.files.write_atomic, for bytes, and readable by others as a new file
    would be (a picture is made to be posted or served; mkstemp alone gives mode 0600)."""
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
