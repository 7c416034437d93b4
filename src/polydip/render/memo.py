"""What a board's first picture works out once, kept on disk for the next process
(issue 28.10: `polydip render` of The Twentieth Century spent half a second on it).

A picture on a board first works out, per map and width, the board's layout (every
province's outline as path text, the borders, the anchors: render.boardsvg.layout), the
per-map label placement (render.placement.placer: where every name goes when no unit is in
the way, and the candidates tried so far) and a few small tables; the map's memo
(`Map.caches`) keeps them for the next picture in the same process (the host), and this
module keeps them in a file for the next process (a GM's next `polydip render`).

- **Where**: `$POLYDIP_CACHE_DIR`, else `$XDG_CACHE_HOME/polydip/render`, else
  `~/.cache/polydip/render`; `POLYDIP_CACHE_DIR=off` turns it off. Only the command line
  uses it (`enable()`, called by `polydip render`): the library writes no file of its own.
- **Which file**: named by a SHA-256 of the board file's bytes, the variant (its whole
  definition), the picture's width, this module's FORMAT, polydip's version, Python's and
  the code of the render modules whose results it keeps (_CODE): a board or variant file
  changed, another polydip or another Python never read an old one.
- **Bounded**: at most MAX_FILES files of each kind (about 1.8 MB each for The Twentieth
  Century, zlib-compressed pickles; render.cairodraw's borders `.layer` and a position's
  `.base`, about 0.9 MB each); the oldest go first.
- **Never in the way**: a file that cannot be read, is not this module's or is not owned
  by the user is ignored (and replaced); a folder that cannot be written is left alone. The
  picture is drawn either way and is the same: a cold cache works it all out, as before.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import hashlib
import os
import pickle
import sys
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from polydip.geography.map import Map

FORMAT = 2  # bump when what is kept (render's memo fields, their classes) changes
MAX_FILES = 16
_MAGIC = b"polydip-render-memo\n"
_FIELDS = ("power_styles", "key_layouts", "passage_lines", "terrain", "territory",
           "box_links")

_enabled = False
_done: set[str] = set()  # keys restored or saved by this process (each once)


def enable(on: bool = True) -> None:
    """Use the on-disk memo in this process (the command line does)."""
    global _enabled
    _enabled = on


def cache_dir() -> Path | None:
    """The folder of the memo's files (None: turned off)."""
    env = os.environ.get("POLYDIP_CACHE_DIR")
    if env is not None:
        return None if env.strip().lower() in ("", "off", "0", "no") else Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        try:
            base = str(Path.home() / ".cache")
        except (RuntimeError, KeyError):  # (no home folder known: no memo)
            return None
    return Path(base) / "polydip" / "render"


# the modules whose classes and results the memo keeps: their code is part of the key, so
# that a changed polydip never reads a memo an older one wrote (even at the same version)
_CODE = ("polydip.render.memo", "polydip.render.board", "polydip.render.boardsvg",
         "polydip.render.placement", "polydip.render.svg", "polydip.render.raster",
         "polydip.geography.cache")
_code_digest: bytes | None = None


def _code() -> bytes:
    global _code_digest
    if _code_digest is None:
        h = hashlib.sha256()
        for name in _CODE:
            mod = sys.modules.get(name)
            path = getattr(mod, "__file__", None) if mod is not None else None
            try:
                h.update(Path(path).read_bytes() if path else name.encode())
            except OSError:
                h.update(name.encode())
        _code_digest = h.digest()
    return _code_digest


def memo_key(m: Map, board_file: Path, width: float) -> str | None:
    """The name of the file kept for map `m` drawn on `board_file` `width` px wide (None
    when the board file cannot be read)."""
    from polydip import __version__

    try:
        raw = board_file.read_bytes()
        out: list[str] = []
        _canon(m.variant, out)
    except (OSError, TypeError):
        return None
    h = hashlib.sha256()
    h.update(repr((FORMAT, __version__, sys.version_info[:2], width)).encode())
    h.update(_code())
    h.update(hashlib.sha256(raw).digest())
    h.update("\x00".join(out).encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:40]


def _canon(o: Any, out: list[str]) -> None:
    """`o` (a variant: dataclasses, dicts, lists, sets, enums, numbers and strings) written
    out the same way in every process (sets and dicts in a sorted order; a pickle is not:
    set order follows the string hash's random seed); fields kept out of comparison (a
    variant's compiled map) are left out."""
    t = type(o)
    if o is None or t in (str, int, float, bool):
        out.append(repr(o))
    elif t in (list, tuple):
        out.append("[")
        for x in o:
            _canon(x, out)
        out.append("]")
    elif t in (set, frozenset):
        out.append("{")
        out.extend(sorted(_one(x) for x in o))
        out.append("}")
    elif t is dict:
        out.append("(")
        for k in sorted(o, key=_one):
            out.append(_one(k))
            _canon(o[k], out)
        out.append(")")
    elif dataclasses.is_dataclass(o):
        out.append(t.__qualname__ + "<")
        for f in dataclasses.fields(o):
            if f.compare:
                _canon(getattr(o, f.name), out)
        out.append(">")
    elif isinstance(o, enum.Enum):
        out.append(f"{t.__qualname__}.{o.name}")
    else:
        raise TypeError(f"cannot key a {t.__qualname__}")


def _one(o: Any) -> str:
    out: list[str] = []
    _canon(o, out)
    return "\x00".join(out)


def restore(m: Map, board_file: Path, width: float) -> str | None:
    """Fill map `m`'s render memo from the file kept for it, when the memo has no layout
    of this width yet and a file is kept; return the key (None: the memo is not used)."""
    folder = cache_dir() if _enabled else None
    if folder is None or ("board", width) in m.caches.layouts:
        return None
    key = memo_key(m, board_file, width)
    if key is None or key in _done:
        return key
    snap = _read(folder / f"{key}.pickle")
    if snap is None:
        return key
    from polydip.render.boardsvg import BoardGeo

    try:
        layouts, placement, fields = snap
        if not isinstance(layouts.get(("board", width)), BoardGeo):
            return key
        for k, v in layouts.items():
            m.caches.layouts.setdefault(k, v)
        for k, v in placement.items():
            m.caches.placement.setdefault(k, v)
        for name in _FIELDS:
            if getattr(m.caches, name) in (None, {}, []) and fields.get(name) is not None:
                setattr(m.caches, name, fields[name])
    except (TypeError, ValueError, AttributeError):
        return key
    from polydip.render.board import remember_board
    from polydip.render.raster import packed_later

    geo = layouts.get(("board", width))
    if geo is not None:
        remember_board(board_file, geo.board)
        packed_later(set(_outlines(geo)), lambda: _restore_packed(key, geo))
    _done.add(key)
    return key


def _restore_packed(key: str, geo: Any) -> None:
    """The outlines' packed paths kept under `key` (a file of their own: read only when a
    picture draws the outlines, not when its base is copied: render.cairodraw)."""
    from polydip.render.raster import remember_packed

    data = read_blob(key, ".packed")
    if data is None:
        return
    try:
        packed = pickle.loads(data)
    except Exception:  # a damaged file: the paths are packed again as they are drawn
        return
    if isinstance(packed, list):
        for d, arr in zip(_outlines(geo), packed, strict=False):
            remember_packed(d, arr)


def save(m: Map, key: str | None, width: float) -> None:
    """Keep map `m`'s render memo of `width` px under `key` (once per process; nothing
    when it cannot be written)."""
    folder = cache_dir() if _enabled else None
    if folder is None or key is None or key in _done:
        return
    _done.add(key)
    c = m.caches
    layouts = {k: v for k, v in c.layouts.items() if k == ("board", width)}
    placement = {k: v for k, v in c.placement.items() if len(k) > 1 and k[1] == width}
    if not layouts:
        return
    fields: dict[str, Any] = {name: getattr(c, name) for name in _FIELDS}
    # the outlines' paths as cairo's path data (render.raster._packed): 0.1 s to work out
    # on The Twentieth Century, 0.015 s to read back
    from polydip.render.raster import _packed

    packed = [_packed(d) for d in _outlines(layouts[("board", width)])]
    try:
        data = _MAGIC + zlib.compress(pickle.dumps((layouts, placement, fields),
                                                   protocol=pickle.HIGHEST_PROTOCOL), 1)
        more = pickle.dumps(packed, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError, RecursionError):
        return
    _write(folder, f"{key}.pickle", data)
    write_blob(key, ".packed", more)


def _outlines(geo: Any) -> list[str]:
    """The path text of a board layout's province, water, islet and neutral faces (as the
    SVG writes them), in a fixed order."""
    return [str(d) for d in (*geo.province_d, *geo.water_d, *geo.islet_d, *geo.neutral) if d]


def read_blob(key: str, suffix: str) -> bytes | None:
    """The bytes kept under `key` (render.cairodraw's static layers; None: off, absent or
    damaged)."""
    folder = cache_dir() if _enabled else None
    if folder is None:
        return None
    data = _read_bytes(folder / f"{key}{suffix}")
    if data is None or not data.startswith(_MAGIC):
        return None
    try:
        return zlib.decompress(data[len(_MAGIC):])
    except zlib.error:
        return None


def seen(key: str, suffix: str) -> bool | None:
    """Whether a file was kept under `key` before (even an empty mark); when not, an empty
    mark is left, so that the next call says yes (None: the memo is off). A picture's base
    (render.cairodraw) is written out the second time it is drawn: a position drawn once
    pays no 12 MB to compress."""
    folder = cache_dir() if _enabled else None
    if folder is None:
        return None
    if (folder / f"{key}{suffix}").exists():
        return True
    _write(folder, f"{key}{suffix}", b"")
    return False


def write_blob(key: str, suffix: str, data: bytes | memoryview) -> None:
    """Keep `data` under `key` (nothing when off or the folder cannot be written)."""
    folder = cache_dir() if _enabled else None
    if folder is not None:
        _write(folder, f"{key}{suffix}", _MAGIC + zlib.compress(data, 1))


def _write(folder: Path, name: str, data: bytes) -> None:
    """Write a file of the memo atomically, then keep the newest MAX_FILES of its kind."""
    import tempfile

    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".memo-", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, folder / name)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _trim(folder, "*" + Path(name).suffix)


def _read_bytes(path: Path) -> bytes | None:
    """A kept file's bytes (None: absent, unreadable, or not the user's own)."""
    try:
        with open(path, "rb") as f:
            st = os.fstat(f.fileno())
            if hasattr(os, "getuid") and st.st_uid != os.getuid():
                return None  # (never read what another user could have written)
            return f.read()
    except OSError:
        return None


def _read(path: Path) -> Any:
    """A kept file's content (None: absent, not ours, or unreadable)."""
    data = _read_bytes(path)
    if data is None or not data.startswith(_MAGIC):
        return None
    try:
        return pickle.loads(zlib.decompress(data[len(_MAGIC):]))
    except Exception:  # a damaged file: whatever unpickling raises, it is worked out again
        return None


def _trim(folder: Path, pattern: str) -> None:
    """Keep the newest MAX_FILES files matching `pattern`."""
    files = []
    for p in folder.glob(pattern):
        with contextlib.suppress(OSError):
            files.append((p.stat().st_mtime, p))
    files.sort(reverse=True)
    for _t, p in files[MAX_FILES:]:
        with contextlib.suppress(OSError):
            p.unlink()
