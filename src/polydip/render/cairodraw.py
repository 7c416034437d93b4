"""A picture's SVG as PNG drawn by the cairo library itself, without CairoSVG (issue 28.10).

CairoSVG's import (cairocffi parses cairo's C declarations: 0.3 s) and its Python work per
element (2,800 elements on The Twentieth Century) took most of a `polydip render` PNG. The SVG
polydip writes uses a small part of SVG: groups carrying presentation attributes, paths,
circles, lines, polygons, rectangles, one-line names, and `<pattern>` tiles in `<defs>`. This
module reads that SVG with the standard library's XML parser and draws it with libcairo
through `ctypes` (imported in a few milliseconds), doing for each element what CairoSVG does
(the same cairo calls in the same order: path, then fill, then stroke; names by cairo's
toy text API anchored by their extent; pattern tiles drawn on a cairo SVG surface and
repeated), so that the picture is the same (tests/render/test_render_cairodraw.py compares
the two pixel by pixel).

Anything else in the SVG (another element, attribute, unit, colour or path command) makes
`svg_png` return None and the caller draws with CairoSVG (render.raster), as before; so
does a machine without libcairo where ctypes cannot find it.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import math
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

_NS = "{http://www.w3.org/2000/svg}"
_D = ctypes.c_double
_P = ctypes.c_void_p
_I = ctypes.c_int

# what each cairo function takes (None: returns nothing)
_SIGNATURES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "cairo_image_surface_create": (_P, (_I, _I, _I)),
    "cairo_image_surface_get_data": (_P, (_P,)),
    "cairo_image_surface_get_stride": (_I, (_P,)),
    "cairo_svg_surface_create": (_P, (ctypes.c_char_p, _D, _D)),
    "cairo_surface_flush": (None, (_P,)),
    "cairo_surface_mark_dirty": (None, (_P,)),
    "cairo_surface_finish": (None, (_P,)),
    "cairo_surface_destroy": (None, (_P,)),
    "cairo_surface_status": (_I, (_P,)),
    "cairo_surface_write_to_png_stream": (_I, (_P, _P, _P)),
    "cairo_image_surface_create_for_data": (_P, (_P, _I, _I, _I, _I)),
    "cairo_set_source_surface": (None, (_P, _P, _D, _D)),
    "cairo_identity_matrix": (None, (_P,)),
    "cairo_paint": (None, (_P,)),
    "cairo_version": (_I, ()),
    "cairo_create": (_P, (_P,)),
    "cairo_destroy": (None, (_P,)),
    "cairo_status": (_I, (_P,)),
    "cairo_save": (None, (_P,)),
    "cairo_restore": (None, (_P,)),
    "cairo_scale": (None, (_P, _D, _D)),
    "cairo_translate": (None, (_P, _D, _D)),
    "cairo_rotate": (None, (_P, _D)),
    "cairo_rectangle": (None, (_P, _D, _D, _D, _D)),
    "cairo_clip": (None, (_P,)),
    "cairo_move_to": (None, (_P, _D, _D)),
    "cairo_line_to": (None, (_P, _D, _D)),
    "cairo_curve_to": (None, (_P, _D, _D, _D, _D, _D, _D)),
    "cairo_rel_line_to": (None, (_P, _D, _D)),
    "cairo_rel_curve_to": (None, (_P, _D, _D, _D, _D, _D, _D)),
    "cairo_close_path": (None, (_P,)),
    "cairo_new_path": (None, (_P,)),
    "cairo_new_sub_path": (None, (_P,)),
    "cairo_arc": (None, (_P, _D, _D, _D, _D, _D)),
    "cairo_append_path": (None, (_P, _P)),
    "cairo_set_source_rgba": (None, (_P, _D, _D, _D, _D)),
    "cairo_set_source": (None, (_P, _P)),
    "cairo_set_fill_rule": (None, (_P, _I)),
    "cairo_set_line_width": (None, (_P, _D)),
    "cairo_set_line_cap": (None, (_P, _I)),
    "cairo_set_line_join": (None, (_P, _I)),
    "cairo_set_miter_limit": (None, (_P, _D)),
    "cairo_set_dash": (None, (_P, ctypes.POINTER(_D), _I, _D)),
    "cairo_fill_preserve": (None, (_P,)),
    "cairo_stroke": (None, (_P,)),
    "cairo_select_font_face": (None, (_P, ctypes.c_char_p, _I, _I)),
    "cairo_set_font_size": (None, (_P, _D)),
    "cairo_text_extents": (None, (_P, ctypes.c_char_p, ctypes.POINTER(_D * 6))),
    "cairo_show_text": (None, (_P, ctypes.c_char_p)),
    "cairo_text_path": (None, (_P, ctypes.c_char_p)),
    "cairo_pattern_create_for_surface": (_P, (_P,)),
    "cairo_pattern_set_extend": (None, (_P, _I)),
    "cairo_pattern_set_matrix": (None, (_P, ctypes.POINTER(_D * 6))),
    "cairo_pattern_destroy": (None, (_P,)),
}


class _Path(ctypes.Structure):  # cairo_path_t
    _fields_ = [("status", _I), ("data", _P), ("num_data", _I)]


_LIB: Any = None  # the loaded library, False when there is none


def _cairo() -> Any:
    """libcairo through ctypes, its functions typed (None when it cannot be loaded)."""
    global _LIB
    if _LIB is None:
        _LIB = False
        names = [ctypes.util.find_library("cairo"), "libcairo.so.2", "libcairo.2.dylib",
                 "libcairo-2.dll"]
        for name in names:
            if not name:
                continue
            try:
                lib = ctypes.CDLL(name)
                for fn, (res, args) in _SIGNATURES.items():
                    f = getattr(lib, fn)
                    f.restype, f.argtypes = res, list(args)
            except (OSError, AttributeError):
                continue
            _LIB = lib
            break
    return _LIB or None


class Unsupported(Exception):
    """The SVG uses something this drawer does not draw (CairoSVG does it then)."""


# attributes of the SVG polydip writes that change nothing drawn
_IGNORED = frozenset(("class", "id", "pointer-events"))
# presentation attributes, inherited by children as CairoSVG inherits them
_STYLE = frozenset(("fill", "fill-opacity", "fill-rule", "stroke", "stroke-width",
                    "stroke-opacity", "stroke-linecap", "stroke-linejoin",
                    "stroke-dasharray", "stroke-miterlimit", "font-family", "font-size",
                    "font-weight", "font-style", "text-anchor"))
_GEOMETRY = {
    "path": frozenset(("d",)),
    "circle": frozenset(("cx", "cy", "r")),
    "line": frozenset(("x1", "y1", "x2", "y2")),
    "polygon": frozenset(("points",)),
    "rect": frozenset(("x", "y", "width", "height", "rx", "ry")),
    "text": frozenset(("x", "y")),
}
_TOOLTIPS = (_NS + "title", _NS + "desc")  # children of a shape that draw nothing
_SPACES = re.compile(" +")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?")
_NAMED = {"black": (0.0, 0.0, 0.0), "white": (1.0, 1.0, 1.0)}
_ROTATE = re.compile(r"rotate\(\s*([-+]?[\d.]+)\s*\)")
# cairo's enumerations
_ARGB32, _CONTENT = 0, 0x3000
_EVEN_ODD = 1
_CAPS = {"butt": 0, "round": 1, "square": 2}
_JOINS = {"miter": 0, "round": 1, "bevel": 2}
_EXTEND_REPEAT = 1
# top-level groups drawn once per board and size and laid over the picture (static_layer):
# the borders, the same in every picture of a board (the provinces' fills change)
STATIC_LAYERS = frozenset(("borders",))
_LAYERS: dict[str, bytes] = {}  # a layer's key → its pixels (at most 4 kept)
# the top-level groups that make a picture's base (base_prefix): everything under the
# orders, units and names (the provinces' fills, the terrain, the borders, the powers'
# territories, the seam), with the background and the pattern tiles before them
BASE_GROUPS = frozenset(("provinces", "terrain", "borders", "territories", "seam"))
_BASES: dict[str, bytes] = {}  # a base's key → the picture's pixels after it (2 kept)
_BASES_MAX = 2
_PT = 1.0  # (CairoSVG makes a tile on an SVG surface counted in pixels)


def _num(s: str | None, default: float = 0.0) -> float:
    """A plain number (no unit: anything else is Unsupported)."""
    if s is None or s == "":
        return default
    try:
        return float(s)
    except ValueError:
        raise Unsupported(f"length {s!r}") from None


_COLOURS: dict[str, tuple[float, float, float] | None] = {}


def _rgb(value: str) -> tuple[float, float, float] | None:
    """A colour as r, g, b in 0..1 (None: no paint)."""
    got = _COLOURS.get(value, ())
    if got != ():
        return got  # type: ignore[return-value]
    rgb = _read_rgb(value)
    if len(_COLOURS) < 4096:
        _COLOURS[value] = rgb
    return rgb


def _read_rgb(value: str) -> tuple[float, float, float] | None:
    if value in ("none", "transparent"):
        return None
    if value in _NAMED:
        return _NAMED[value]
    if not _HEX.fullmatch(value):
        raise Unsupported(f"colour {value!r}")
    h = value[1:]
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16) / 255, int(h[2:4], 16) / 255, int(h[4:6], 16) / 255


class _Drawer:
    """Draws one SVG tree on a cairo context (see the module's doc)."""

    def __init__(self, lib: Any, root: ET.Element) -> None:
        self.lib = lib
        self.patterns: dict[str, ET.Element] = {}
        self.sources: dict[str, int] = {}  # a pattern's id → its cairo pattern
        self.surfaces: list[int] = []
        self.root = root
        self.extents = (_D * 6)()
        # the picture's size and placement (iw, ih, width, height, scale, tx, ty): the
        # main surface's, for static layers
        self.frame: tuple[int, int, float, float, float, float, float] | None = None

    def close(self) -> None:
        for p in self.sources.values():
            self.lib.cairo_pattern_destroy(p)
        for s in self.surfaces:
            self.lib.cairo_surface_destroy(s)

    def draw(self, cr: int, node: ET.Element, style: dict[str, str],
             children: list[ET.Element] | None = None) -> None:
        """Draw `node`'s children (or those of them given) with the inherited
        presentation `style`."""
        for child in node if children is None else children:
            tag = child.tag[len(_NS):] if child.tag.startswith(_NS) else None
            if tag is None:
                raise Unsupported(f"element {child.tag}")
            if tag in ("title", "desc"):
                continue
            if tag == "defs":
                self.defs(child)
                continue
            own = style
            for k, v in child.attrib.items():
                if k in _STYLE:
                    if own is style:
                        own = dict(style)
                    own[k] = v
                elif k not in _IGNORED and not k.startswith("data-") and (
                        tag not in _GEOMETRY or k not in _GEOMETRY[tag]):
                    raise Unsupported(f"attribute {k} of {tag}")
            if tag == "g":
                if (node is self.root and self.frame is not None
                        and child.get("class") in STATIC_LAYERS):
                    self.static_layer(cr, child, own)
                else:
                    self.draw(cr, child, own)
            elif tag in _GEOMETRY:
                if len(child) and (tag == "text" or any(c.tag not in _TOOLTIPS
                                                        for c in child)):
                    raise Unsupported(f"{tag} with children")
                self.leaf(cr, tag, child, own)
            else:
                raise Unsupported(f"element {tag}")

    def static_layer(self, cr: int, node: ET.Element, style: dict[str, str]) -> None:
        """A group that is the same in every picture of a board at this size (its borders):
        drawn once on a transparent layer, kept (in this process, and on disk when
        render.memo is on), and laid over the picture."""
        frame = self.frame
        assert frame is not None
        text = ET.tostring(node)
        if b"url(" in text:  # (its look would hang on the patterns too)
            self.draw(cr, node, style)
            return
        lib = self.lib
        iw, ih = frame[0], frame[1]
        stride = iw * 4
        h = hashlib.sha256(text)
        h.update(repr((frame, sorted(style.items()), lib.cairo_version())).encode())
        key = h.hexdigest()[:40]
        data = _LAYERS.get(key)
        if data is None:
            from polydip.render import memo

            data = memo.read_blob(key, ".layer")
            if data is None or len(data) != stride * ih:
                data = self.draw_layer(node, style)
                memo.write_blob(key, ".layer", data)
            if len(_LAYERS) >= 4:
                _LAYERS.clear()
            _LAYERS[key] = data
        buf = (ctypes.c_char * len(data)).from_buffer_copy(data)
        layer = lib.cairo_image_surface_create_for_data(buf, _ARGB32, iw, ih, stride)
        try:
            lib.cairo_save(cr)
            lib.cairo_identity_matrix(cr)
            lib.cairo_set_source_surface(cr, layer, 0.0, 0.0)
            lib.cairo_paint(cr)
            lib.cairo_restore(cr)
        finally:
            lib.cairo_surface_destroy(layer)

    def draw_layer(self, node: ET.Element, style: dict[str, str]) -> bytes:
        """Group `node` drawn alone on a transparent image of the picture's size: its
        pixels (ARGB32, premultiplied)."""
        lib = self.lib
        assert self.frame is not None
        iw, ih, width, out_h, scale, tx, ty = self.frame
        surf = lib.cairo_image_surface_create(_ARGB32, iw, ih)
        cr = lib.cairo_create(surf)
        try:
            _frame(lib, cr, width, out_h, scale, tx, ty)
            self.draw(cr, node, style)
            if lib.cairo_status(cr):
                raise Unsupported("a layer cairo could not draw")
            lib.cairo_surface_flush(surf)
            return ctypes.string_at(lib.cairo_image_surface_get_data(surf), iw * 4 * ih)
        finally:
            lib.cairo_destroy(cr)
            lib.cairo_surface_destroy(surf)

    def defs(self, node: ET.Element) -> None:
        for child in node:
            if child.tag != _NS + "pattern":
                raise Unsupported(f"{child.tag} in defs")
            a = child.attrib
            if a.get("patternUnits") != "userSpaceOnUse" or "id" not in a or any(
                    k not in ("id", "width", "height", "patternUnits", "patternTransform")
                    for k in a):
                raise Unsupported("pattern")
            t = a.get("patternTransform")
            if t is not None and not _ROTATE.fullmatch(t.strip()):
                raise Unsupported(f"patternTransform {t!r}")
            self.patterns[a["id"]] = child

    def source(self, cr: int, value: str, opacity: float) -> bool:
        """Set the paint `value` on `cr`; False when it paints nothing."""
        lib = self.lib
        if value.startswith("url("):
            m = re.fullmatch(r"url\(#([^)]+)\)", value.strip())
            if not m or m.group(1) not in self.patterns or opacity != 1:
                raise Unsupported(f"paint {value!r}")
            node = self.patterns[m.group(1)]
            t = node.get("patternTransform")
            if t:  # (CairoSVG turns the context, locking the tile's turn with the source)
                lib.cairo_rotate(cr, math.radians(float(_ROTATE.fullmatch(t.strip())
                                                        .group(1))))  # type: ignore[union-attr]
            lib.cairo_set_source(cr, self.tile(m.group(1), node))
            return True
        rgb = _rgb(value)
        if rgb is None or opacity == 0:
            return False
        lib.cairo_set_source_rgba(cr, *rgb, opacity)
        return True

    def tile(self, pid: str, node: ET.Element) -> int:
        """A pattern's tile as a repeating cairo pattern, made as CairoSVG makes it: its
        content drawn on a cairo SVG surface counted in points."""
        got = self.sources.get(pid)
        if got is not None:
            return got
        lib = self.lib
        w, h = _num(node.get("width")), _num(node.get("height"))
        if w <= 0 or h <= 0:
            raise Unsupported("pattern size")
        surf = lib.cairo_svg_surface_create(None, w * _PT, h * _PT)
        self.surfaces.append(surf)
        cr = lib.cairo_create(surf)
        try:
            lib.cairo_scale(cr, _PT, _PT)
            lib.cairo_rectangle(cr, 0.0, 0.0, w, h)
            lib.cairo_clip(cr)
            lib.cairo_move_to(cr, 0.0, 0.0)
            lib.cairo_set_miter_limit(cr, 4.0)
            self.draw(cr, node, {})
        finally:
            lib.cairo_destroy(cr)
        pat = lib.cairo_pattern_create_for_surface(surf)
        lib.cairo_pattern_set_extend(pat, _EXTEND_REPEAT)
        lib.cairo_pattern_set_matrix(pat, ctypes.byref((_D * 6)(_PT, 0, 0, _PT, 0, 0)))
        self.sources[pid] = pat
        return pat

    def leaf(self, cr: int, tag: str, node: ET.Element, style: dict[str, str]) -> None:
        """One shape or name, as CairoSVG's draw does it: its path, its fill, its stroke
        (the calls that change nothing for it left out: the miter limit is CairoSVG's
        from the start, a fill of a plain colour needs no state of its own, a name not
        stroked no outline)."""
        lib = self.lib
        a = node.attrib
        get = style.get
        lib.cairo_save(cr)
        cap = get("stroke-linecap")
        if cap:
            lib.cairo_set_line_cap(cr, _CAPS.get(cap, 0))
        join = get("stroke-linejoin")
        if join:
            lib.cairo_set_line_join(cr, _JOINS.get(join, 0))
        dash = get("stroke-dasharray")
        if dash and dash != "none":
            dashes = [_num(d) for d in dash.replace(",", " ").split()]
            if sum(dashes):
                lib.cairo_set_dash(cr, (_D * len(dashes))(*dashes), len(dashes), 0.0)
        miter = get("stroke-miterlimit")
        if miter is not None:
            lib.cairo_set_miter_limit(cr, _num(miter, 4.0))
        stroke = get("stroke")
        stroke_opacity = _num(get("stroke-opacity"), 1)
        stroked = (stroke is not None and stroke not in ("none", "transparent")
                   and stroke_opacity != 0)
        text = None
        if tag == "text":
            text = self.text_at(cr, node, style, _num(a.get("x")), _num(a.get("y")),
                                stroked)
        else:
            self.shape(cr, tag, a)
        fill = get("fill", "black")
        pattern = fill.startswith("url(")
        if pattern:  # (its turn must not reach the stroke)
            lib.cairo_save(cr)
        if get("fill-rule") == "evenodd":
            lib.cairo_set_fill_rule(cr, _EVEN_ODD)
        if self.source(cr, fill, _num(get("fill-opacity"), 1)):
            if text is not None:
                lib.cairo_move_to(cr, text[1], text[2])
                lib.cairo_show_text(cr, text[0])
            elif tag != "text":
                lib.cairo_fill_preserve(cr)
        if pattern:
            lib.cairo_restore(cr)
        if stroked and self.source(cr, stroke or "", stroke_opacity):
            lib.cairo_set_line_width(cr, _num(get("stroke-width"), 1.0))
            lib.cairo_stroke(cr)
        else:
            lib.cairo_new_path(cr)
        lib.cairo_restore(cr)

    def text_at(self, cr: int, node: ET.Element, style: dict[str, str], x: float,
                y: float, outline: bool) -> tuple[bytes, float, float] | None:
        """A one-line name's font set and, when `outline`, its path added (anchored by
        its extent); returns its text and where it starts (None: an empty name)."""
        lib = self.lib
        # white space as SVG (and CairoSVG) reads it: lines joined, runs of spaces as one
        s = _SPACES.sub(" ", (node.text or "").replace("\n", "").replace("\r", "")
                        .replace("\t", " ")).strip(" ")
        if not s:
            return None
        family = (style.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
        slant = {"italic": 1, "oblique": 2}.get(style.get("font-style", ""), 0)
        weight = style.get("font-weight", "")
        bold = weight == "bold" or (weight.isdigit() and int(weight) >= 550)
        lib.cairo_select_font_face(cr, family.encode("utf-8"), slant, 1 if bold else 0)
        lib.cairo_set_font_size(cr, _num(style.get("font-size"), 16.0))
        b = s.encode("utf-8")
        e = self.extents
        lib.cairo_text_extents(cr, b, ctypes.byref(e))
        anchor = style.get("text-anchor")
        if anchor == "middle":
            x -= e[2] / 2 + e[0]
        elif anchor == "end":
            x -= e[2] + e[0]
        if outline:
            lib.cairo_move_to(cr, x, y)
            lib.cairo_text_path(cr, b)
        return b, x, y

    def shape(self, cr: int, tag: str, a: dict[str, str]) -> None:
        lib = self.lib
        if tag == "path":
            _path(lib, cr, a.get("d", ""))
        elif tag == "circle":
            r = _num(a.get("r"))
            if r:
                lib.cairo_new_sub_path(cr)
                lib.cairo_arc(cr, _num(a.get("cx")), _num(a.get("cy")), r, 0.0, 2 * math.pi)
                lib.cairo_close_path(cr)
        elif tag == "line":
            lib.cairo_move_to(cr, _num(a.get("x1")), _num(a.get("y1")))
            lib.cairo_line_to(cr, _num(a.get("x2")), _num(a.get("y2")))
        elif tag == "polygon":
            nums = [float(n) for n in _NUMBER.findall(a.get("points", ""))]
            if len(nums) >= 2:
                lib.cairo_move_to(cr, nums[0], nums[1])
                for i in range(2, len(nums) - 1, 2):
                    lib.cairo_line_to(cr, nums[i], nums[i + 1])
            lib.cairo_close_path(cr)
        else:
            _rect(lib, cr, a)


def _rect(lib: Any, cr: int, a: dict[str, str]) -> None:
    """A rectangle, rounded as CairoSVG rounds it (Bézier quarter circles)."""
    x, y = _num(a.get("x")), _num(a.get("y"))
    w, h = _num(a.get("width")), _num(a.get("height"))
    srx, sry = a.get("rx"), a.get("ry")
    if srx and sry is None:
        sry = srx
    elif sry and srx is None:
        srx = sry
    rx, ry = _num(srx), _num(sry)
    if rx == 0 or ry == 0:
        lib.cairo_rectangle(cr, x, y, w, h)
        return
    rx, ry = min(rx, w / 2), min(ry, h / 2)
    k = 4 * (2 ** .5 - 1) / 3
    c1, c2 = k * rx, k * ry
    lib.cairo_new_path(cr)
    lib.cairo_move_to(cr, x + rx, y)
    lib.cairo_rel_line_to(cr, w - 2 * rx, 0.0)
    lib.cairo_rel_curve_to(cr, c1, 0.0, rx, c2, rx, ry)
    lib.cairo_rel_line_to(cr, 0.0, h - 2 * ry)
    lib.cairo_rel_curve_to(cr, 0.0, c2, c1 - rx, ry, -rx, ry)
    lib.cairo_rel_line_to(cr, -w + 2 * rx, 0.0)
    lib.cairo_rel_curve_to(cr, -c1, 0.0, -rx, -c2, -rx, -ry)
    lib.cairo_rel_line_to(cr, 0.0, -h + 2 * ry)
    lib.cairo_rel_curve_to(cr, 0.0, -c2, rx - c1, -ry, rx, -ry)
    lib.cairo_close_path(cr)


_TOKEN = re.compile(r"([MmLlHhVvCcSsQqTtZz])|" + _NUMBER.pattern)


def _path(lib: Any, cr: int, d: str) -> None:
    """Path data `d` added to `cr`'s path: moves and lines by one call (render.raster's
    packing), curves (M L H V C S Q T Z, absolute or relative) point by point; arcs and
    anything else are Unsupported."""
    from polydip.render.raster import _packed

    packed = _packed(d)
    if packed is not None:
        if packed:
            addr, _n = packed.buffer_info()
            path = _Path(0, addr, len(packed) // 2)
            lib.cairo_append_path(cr, ctypes.byref(path))
        return
    _draw_commands(lib, cr, d)


def _commands(d: str) -> Iterator[tuple[str, list[float]]]:
    pos, op = 0, ""
    args: list[float] = []
    for m in _TOKEN.finditer(d):
        gap = d[pos:m.start()]
        if gap.strip(" \t\r\n,"):
            raise Unsupported(f"path data {gap!r}")
        pos = m.end()
        if m.group(1):
            if op:
                yield op, args
            op, args = m.group(1), []
        else:
            if not op:
                raise Unsupported("path data before a command")
            args.append(float(m.group(0)))
    if d[pos:].strip(" \t\r\n,"):
        raise Unsupported(f"path data {d[pos:]!r}")
    if op:
        yield op, args


_ARITY = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "Z": 0}


class _Pen:
    """Where a path is: its point, its subpath's start, the last control point."""
    x = y = sx = sy = 0.0
    cx: float | None = None
    cy: float | None = None
    quad: bool = False


def _draw_commands(lib: Any, cr: int, d: str) -> None:
    pen = _Pen()
    for op, args in _commands(d):
        up = op.upper()
        rel = op != up
        n = _ARITY[up]
        if n == 0:
            if args:
                raise Unsupported("numbers after Z")
            lib.cairo_close_path(cr)
            pen.x, pen.y, pen.cx = pen.sx, pen.sy, None
            continue
        if not args or len(args) % n:
            raise Unsupported(f"path command {op} with {len(args)} numbers")
        for i in range(0, len(args), n):
            _segment(lib, cr, pen, up, rel, args[i:i + n], first=i == 0)


def _segment(lib: Any, cr: int, pen: _Pen, up: str, rel: bool, a: list[float],
             first: bool) -> None:
    ox, oy = (pen.x, pen.y) if rel else (0.0, 0.0)
    if up == "M" and first:
        pen.x, pen.y = a[0] + ox, a[1] + oy
        pen.sx, pen.sy, pen.cx = pen.x, pen.y, None
        lib.cairo_move_to(cr, pen.x, pen.y)
        return
    if up in ("M", "L"):
        pen.x, pen.y, pen.cx = a[0] + ox, a[1] + oy, None
    elif up == "H":
        pen.x, pen.cx = a[0] + ox, None
    elif up == "V":
        pen.y, pen.cx = a[0] + oy, None
    if up in ("M", "L", "H", "V"):
        lib.cairo_line_to(cr, pen.x, pen.y)
        return
    if up in ("C", "S"):
        if up == "C":
            x1, y1, rest = a[0] + ox, a[1] + oy, a[2:]
        else:
            (x1, y1), rest = _reflect(pen, quad=False), a
        x2, y2, x, y = rest[0] + ox, rest[1] + oy, rest[2] + ox, rest[3] + oy
        lib.cairo_curve_to(cr, x1, y1, x2, y2, x, y)
        pen.x, pen.y, pen.cx, pen.cy, pen.quad = x, y, x2, y2, False
        return
    # Q, T: the quadratic as the cubic that draws it
    if up == "Q":
        qx, qy, x, y = a[0] + ox, a[1] + oy, a[2] + ox, a[3] + oy
    else:
        (qx, qy), x, y = _reflect(pen, quad=True), a[0] + ox, a[1] + oy
    lib.cairo_curve_to(cr, pen.x + 2 / 3 * (qx - pen.x), pen.y + 2 / 3 * (qy - pen.y),
                       x + 2 / 3 * (qx - x), y + 2 / 3 * (qy - y), x, y)
    pen.x, pen.y, pen.cx, pen.cy, pen.quad = x, y, qx, qy, True


def _reflect(pen: _Pen, quad: bool) -> tuple[float, float]:
    """The previous control point reflected about the current point (the current point
    when the previous segment was not of the same kind)."""
    if pen.cx is None or pen.cy is None or pen.quad != quad:
        return pen.x, pen.y
    return 2 * pen.x - pen.cx, 2 * pen.y - pen.cy


def svg_png(svg: bytes, width: int) -> bytes | None:
    """The PNG file of SVG text `svg`, `width` pixels wide (the height in proportion);
    None when libcairo is missing or the SVG uses something this module does not draw
    (CairoSVG draws it then)."""
    lib = _cairo()
    if lib is None:
        return None
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return None
    if root.tag != _NS + "svg":
        return None
    try:
        return _draw_root(lib, root, width)
    except (Unsupported, ValueError):
        return None


_WRITE = ctypes.CFUNCTYPE(_I, _P, ctypes.POINTER(ctypes.c_char), ctypes.c_uint)


def _draw_root(lib: Any, root: ET.Element, width: int) -> bytes | None:
    a = root.attrib
    style: dict[str, str] = {}
    for k, v in a.items():
        if k in _STYLE:
            style[k] = v
        elif k not in ("width", "height", "viewBox", "version") and k not in _IGNORED:
            raise Unsupported(f"attribute {k} of svg")
    w, h = _num(a.get("width")), _num(a.get("height"))
    vb = [float(n) for n in _NUMBER.findall(a.get("viewBox", ""))] or [0, 0, w, h]
    if len(vb) != 4 or w <= 0 or h <= 0 or vb[2] <= 0 or vb[3] <= 0 or vb[0] or vb[1]:
        raise Unsupported("size")
    out_h = h * width / w
    iw, ih = width, round(out_h)
    sx, sy = width / vb[2], out_h / vb[3]
    scale = min(sx, sy)  # (xMidYMid meet, as CairoSVG reads a viewBox)
    tx = (width / scale - vb[2]) / 2
    ty = (out_h / scale - vb[3]) / 2
    surf = lib.cairo_image_surface_create(_ARGB32, iw, ih)
    cr = lib.cairo_create(surf)
    drawer = _Drawer(lib, root)
    try:
        if lib.cairo_status(cr):
            return None
        _frame(lib, cr, width, out_h, scale, tx, ty)
        rest: list[ET.Element] | None = None
        if iw * 4 == lib.cairo_image_surface_get_stride(surf):
            drawer.frame = (iw, ih, width, out_h, scale, tx, ty)
            rest = _with_base(lib, drawer, surf, cr, root, style)
        drawer.draw(cr, root, style, rest)
        if lib.cairo_status(cr):
            return None
        lib.cairo_surface_flush(surf)
        return _png(lib, surf, iw, ih)
    finally:
        drawer.close()
        lib.cairo_destroy(cr)
        lib.cairo_surface_destroy(surf)


_BASE_LEAVES = frozenset((_NS + "title", _NS + "desc", _NS + "defs", _NS + "rect"))


def base_prefix(root: ET.Element) -> list[ET.Element]:
    """The picture's base: its first top-level elements while they are a background
    (`rect`), the pattern tiles (`defs`), a title, or one of BASE_GROUPS; empty when no
    group of BASE_GROUPS is among them (nothing worth keeping)."""
    out: list[ET.Element] = []
    for child in root:
        if child.tag not in _BASE_LEAVES and not (
                child.tag == _NS + "g" and child.get("class") in BASE_GROUPS):
            break
        out.append(child)
    if not any(c.tag == _NS + "g" for c in out):
        return []
    return out


def base_key(root: ET.Element, prefix: list[ET.Element], frame: tuple[Any, ...],
             style: dict[str, str], version: int) -> str:
    """The key of a picture's base: what it draws (its elements written out), the
    picture's size and placement, the root's presentation, cairo's version and how it is
    drawn (STATIC_LAYERS); a base
    whose elements changed (another owner of a province, another board) is another key."""
    h = hashlib.sha256(b"polydip-base 1\n")
    h.update(repr((frame, sorted(style.items()), version, sorted(STATIC_LAYERS))).encode())
    for child in prefix:
        if child.tag not in _TOOLTIPS:
            h.update(ET.tostring(child))
            h.update(b"\x00")
    return h.hexdigest()[:40]


def _with_base(lib: Any, drawer: _Drawer, surf: int, cr: int, root: ET.Element,
               style: dict[str, str]) -> list[ET.Element] | None:
    """Draw the picture's base (base_prefix): its pixels copied from the last picture
    that had the same base (kept in this process; on disk when render.memo is on, from
    the second picture with that base: render.memo.seen), else drawn and kept. Returns
    the top-level elements left to draw (None: all of them, the picture has no base)."""
    frame = drawer.frame
    assert frame is not None
    prefix = base_prefix(root)
    if not prefix:
        return None
    iw, ih = frame[0], frame[1]
    size = iw * 4 * ih
    key = base_key(root, prefix, frame, style, lib.cairo_version())
    data = _BASES.get(key)
    if data is None:
        from polydip.render import memo

        data = memo.read_blob(key, ".base")
        if data is not None and len(data) != size:
            data = None
    if data is not None:
        lib.cairo_surface_flush(surf)
        ctypes.memmove(lib.cairo_image_surface_get_data(surf), data, size)
        lib.cairo_surface_mark_dirty(surf)
        for child in prefix:  # (the pattern tiles, for what is drawn over the base)
            if child.tag == _NS + "defs":
                drawer.defs(child)
    else:
        drawer.draw(cr, root, style, prefix)
        if lib.cairo_status(cr):
            raise Unsupported("a base cairo could not draw")
        lib.cairo_surface_flush(surf)
        pixels = (ctypes.c_char * size).from_address(
            lib.cairo_image_surface_get_data(surf))
        from polydip.render import memo

        before = memo.seen(key, ".base")
        if before is not None:  # (the command line: one picture a process, kept on disk)
            if before:
                memo.write_blob(key, ".base", memoryview(pixels))
            return list(root)[len(prefix):]
        data = bytes(pixels)
    if len(_BASES) >= _BASES_MAX:
        _BASES.clear()
    _BASES[key] = data
    return list(root)[len(prefix):]


def _frame(lib: Any, cr: int, width: float, height: float, scale: float, tx: float,
           ty: float) -> None:
    """The picture's clip and user space, as CairoSVG sets them for the root element."""
    lib.cairo_rectangle(cr, 0.0, 0.0, float(width), height)
    lib.cairo_clip(cr)
    lib.cairo_scale(cr, scale, scale)
    lib.cairo_translate(cr, tx, ty)
    lib.cairo_move_to(cr, 0.0, 0.0)
    lib.cairo_set_miter_limit(cr, 4.0)  # (CairoSVG's, on every element)


def _png(lib: Any, surf: int, w: int, h: int) -> bytes | None:
    """The PNG file of an image surface: written here when it is opaque (as RGB, quickly:
    render.raster.encode_argb), else by cairo's own writer."""
    from polydip.render.raster import encode_argb

    stride = lib.cairo_image_surface_get_stride(surf)
    data = ctypes.string_at(lib.cairo_image_surface_get_data(surf), stride * h)
    png = encode_argb(data, w, h, stride)
    if png is not None:
        return png
    parts: list[bytes] = []

    def write(_closure: int | None, buf: Any, n: int) -> int:
        parts.append(ctypes.string_at(buf, n))
        return 0  # CAIRO_STATUS_SUCCESS

    callback = _WRITE(write)
    if lib.cairo_surface_write_to_png_stream(surf, callback, None):
        return None
    return b"".join(parts)
