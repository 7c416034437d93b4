"""A picture's SVG as PNG, fast: CairoSVG draws it, with two of its steps done quicker for
the SVG polydip writes (issue 28.10: a Twentieth Century PNG took 3.8 s of CPU).

CairoSVG reads a path's points one by one in Python (a regular expression and a unit
conversion per number: 106,000 points on The Twentieth Century's board, about half the
time) and lays out text one letter at a time, twice per element (the fill, then the
outline of a name's halo). Here a surface of its own draws:

- a path written only with `M`, `L`, `Z` and numbers (every outline and border polydip
  writes) by splitting its text once and adding its points to cairo's path directly;
  any other path (arcs, curves) by CairoSVG's own code;
- a text element with one `x` and one `y`, no `dx`/`dy`/`rotate`/`letter-spacing`, no
  text path and no child elements (every name polydip writes) as one string, anchored by
  its whole extent: the glyphs and their advances are those CairoSVG's letter-by-letter
  layout gives (cairo's toy text API has no kerning), so the picture is the same;
  any other text by CairoSVG's own code.

A plain leaf element (no children, transform, mask, filter, clip or markers: nearly every
element polydip writes) is drawn by `_leaf_drawer`, which does what CairoSVG's draw does for
it (line caps, joins and dashes, the fill and the stroke with CairoSVG's own paint and
pattern code) without the look-ups that do nothing for it; fills and strokes of a
transparent colour (CairoSVG paints `fill="none"` and an unset stroke as one) are skipped.
Everything else (groups, patterns' insides, opacity of groups, transforms) is CairoSVG's
own: its `Surface.draw` runs with these handlers in its table, for this surface only
(nothing of CairoSVG is modified). The PNG file is written here from the drawn pixels (an opaque
picture as RGB, compressed at zlib level 3): cairo's writer took 0.2 s of the 1.3 MB image.
When CairoSVG is not laid out as expected (another version), the plain `svg2png` is used.
"""

from __future__ import annotations

import contextlib
import re
import struct
import sys
import types
import zlib
from array import array
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # (neither ships types: both read as Any, named here for the reader)
    from cairocffi import Context, ImageSurface
    from cairosvg.parser import Node
    from cairosvg.surface import Surface

# what draws an element: CairoSVG's handlers (TAGS), and this module's
Handler = Callable[..., None]

_FAST_DRAW: type | Literal[False] | None = None  # the surface class, made the first time
_TITLE = re.compile(rb"<title>[^<]*</title>")


def svg_png(svg: bytes, width: int) -> bytes:
    """The PNG of SVG text `svg`, `width` pixels wide (the height in proportion)."""
    import cairosvg

    cls = _surface_class()
    if cls is None:
        return cairosvg.svg2png(bytestring=svg, output_width=width)
    from cairosvg.parser import Tree

    # tooltips (<title>, one per province) are never drawn: not read at all
    svg = _TITLE.sub(b"", svg)
    surface = cls(Tree(bytestring=svg), None, 96, output_width=width)
    png = _encode(surface.cairo)
    if png is None:
        import io

        out = io.BytesIO()
        surface.cairo.write_to_png(out)
        png = out.getvalue()
    surface.finish()
    return png


def _surface_class() -> type | None:
    """CairoSVG's PNG surface whose draw uses the quick path and text handlers (None if
    CairoSVG is not what this module was written against)."""
    global _FAST_DRAW
    if _FAST_DRAW is not None:
        return _FAST_DRAW or None
    try:
        import cairosvg.surface as cs
        from cairosvg.helpers import size
        from cairosvg.path import path as slow_path
        from cairosvg.text import text as slow_text

        draw = cs.Surface.draw
        # (the handlers compared as a pair: `is` would narrow them to TAGS.get's `| None`)
        if draw.__closure__ or not isinstance(cs.TAGS, dict) or (
                cs.TAGS.get("text"), cs.TAGS.get("path")) != (slow_text, slow_path):
            raise TypeError("another CairoSVG")
    except (ImportError, AttributeError, TypeError):
        _FAST_DRAW = False
        return None

    def fast_path(surface: Surface, node: Node) -> None:
        packed = _packed(node.get("d", ""))
        if packed is None:
            slow_path(surface, node)
            return
        _append(surface.context, packed)
        node.vertices = None  # (no markers on polydip's paths)

    def fast_text(surface: Surface, node: Node, draw_as_text: bool = False) -> None:
        if not _plain_text(node):
            slow_text(surface, node, draw_as_text)
            return
        _draw_plain_text(surface, node, draw_as_text, size)

    tags = dict(cs.TAGS)
    tags["path"] = fast_path
    for t in ("a", "text", "textPath", "tspan"):
        if tags.get(t) is slow_text:
            tags[t] = fast_text
    names = dict(cs.__dict__)
    names["TAGS"] = tags
    names["text"] = fast_text  # draw tells text from shapes by `TAGS[tag] == text`
    quick = types.FunctionType(draw.__code__, names, "draw", draw.__defaults__)
    quiet = _quiet_context()
    leaf = _leaf_drawer(cs, tags, fast_text)

    def draw_quickly(self: Surface, node: Node) -> None:
        if type(self.context) is not quiet:  # (the context __init__ made, before drawing)
            self.context.__class__ = quiet
        if not leaf(self, node):
            quick(self, node)

    _FAST_DRAW = type("_QuickPNGSurface", (cs.PNGSurface,), {"draw": draw_quickly})
    return _FAST_DRAW


def _draw_plain_text(surface: Surface, node: Node, draw_as_text: bool,
                     size: Callable[[Surface, str | None, str], float]) -> None:
    """A plain name (see _plain_text): its font chosen and its one line drawn (as text, or
    as a path), as CairoSVG's text handler does, with `size` CairoSVG's own length reader."""
    import cairocffi as cairo

    ctx = surface.context
    family = (node.get("font-family") or "sans-serif").split(",")[0].strip("\"' ")
    slant = getattr(cairo, f"FONT_SLANT_{node.get('font-style')}".upper(),
                    cairo.FONT_SLANT_NORMAL)
    weight = node.get("font-weight")
    if weight and weight.isdigit() and int(weight) >= 550:
        weight = "bold"
    ctx.select_font_face(family, slant, getattr(
        cairo, f"FONT_WEIGHT_{weight}".upper(), cairo.FONT_WEIGHT_NORMAL))
    ctx.set_font_size(surface.font_size)
    s = node.text
    x, y = size(surface, node.get("x"), "x"), size(surface, node.get("y"), "y")
    x_bearing, _yb, w, _h, x_advance, _ya = ctx.text_extents(s)
    anchor = node.get("text-anchor")
    if anchor == "middle":
        x -= w / 2 + x_bearing
    elif anchor == "end":
        x -= w + x_bearing
    ctx.move_to(x, y)
    if draw_as_text:
        ctx.show_text(s)
    else:
        ctx.text_path(s)
    surface.cursor_position = (x + x_advance, y)


# what a leaf element may carry to be drawn by _leaf_drawer (anything else: CairoSVG's draw)
_LEAF_TAGS = frozenset(("path", "circle", "line", "polygon", "polyline", "rect", "text"))
_NOT_LEAF = ("transform", "transform-origin", "mask", "filter", "clip", "clip-path", "font",
             "display", "visibility", "shape-rendering", "text-rendering", "marker",
             "marker-start", "marker-mid", "marker-end", "width", "height",
             "stroke-dashoffset")


def _leaf_drawer(cs: types.ModuleType, tags: dict[str, Handler], fast_text: Handler
                 ) -> Callable[[Surface, Node], bool]:
    """A drawer of a plain leaf element (no children, no transform, mask, filter, clip,
    markers or rendering hints: every shape and name polydip writes but a few), which does
    what CairoSVG's draw does for such an element without the steps that do nothing for it
    (its transform, mask, filter and clip look-ups, the text cursor's copy, the font options
    set again to their defaults). Returns False for any other element."""
    import cairocffi as cairo
    from cairosvg.defs import gradient_or_pattern
    from cairosvg.helpers import normalize, paint, size

    def draw_leaf(self: Surface, node: Node) -> bool:
        tag = node.tag
        if tag not in _LEAF_TAGS or node.children or any(a in node for a in _NOT_LEAF):
            return False
        ctx = self.context
        old_parent, old_font_size = self.parent_node, self.font_size
        self.parent_node = node
        self.font_size = size(self, node.get("font-size", "12pt"))
        ctx.save()
        ctx.move_to(size(self, node.get("x"), "x"), size(self, node.get("y"), "y"))
        cap = node.get("stroke-linecap")
        if cap == "square":
            ctx.set_line_cap(cairo.LINE_CAP_SQUARE)
        elif cap == "round":
            ctx.set_line_cap(cairo.LINE_CAP_ROUND)
        join = node.get("stroke-linejoin")
        if join == "round":
            ctx.set_line_join(cairo.LINE_JOIN_ROUND)
        elif join == "bevel":
            ctx.set_line_join(cairo.LINE_JOIN_BEVEL)
        dash = node.get("stroke-dasharray")
        if dash:
            dashes = [size(self, d) for d in normalize(dash).split()]
            if sum(dashes):
                ctx.set_dash(dashes, 0)
        ctx.set_miter_limit(float(node.get("stroke-miterlimit", 4)))
        with contextlib.suppress(cs.PointError):  # (a point CairoSVG cannot read: no shape)
            tags[tag](self, node)
        opacity = float(node.get("opacity", 1))
        fill_opacity = float(node.get("fill-opacity", 1)) * opacity
        stroke_opacity = float(node.get("stroke-opacity", 1)) * opacity
        ctx.save()
        source, col = paint(node.get("fill", "black"))
        if node.get("fill-rule") == "evenodd":
            ctx.set_fill_rule(cairo.FILL_RULE_EVEN_ODD)
        if not gradient_or_pattern(self, node, source, fill_opacity):
            ctx.set_source_rgba(*self.map_color(col, fill_opacity))
        if tag == "text":
            fast_text(self, node, draw_as_text=True)
        else:
            ctx.fill_preserve()
        ctx.restore()
        ctx.save()
        ctx.set_line_width(size(self, node.get("stroke-width", "1")))
        source, col = paint(node.get("stroke"))
        if not gradient_or_pattern(self, node, source, stroke_opacity):
            ctx.set_source_rgba(*self.map_color(col, stroke_opacity))
        ctx.stroke()
        ctx.restore()
        if tag == "text":
            self.cursor_position = [0, 0]
            self.cursor_d_position = [0, 0]
            self.text_path_width = 0
        ctx.restore()
        self.parent_node, self.font_size = old_parent, old_font_size
        return True

    return draw_leaf


def _quiet_context() -> type:
    """A cairo context that skips filling and stroking with a transparent source: CairoSVG
    fills and strokes every shape, with `fill="none"` (every border line) or `stroke`
    unset (every province, every name) as a transparent colour, which costs cairo as much
    as a visible one and draws nothing."""
    import cairocffi as cairo

    def clear(ctx: Context) -> bool:
        src = ctx.get_source()
        return (isinstance(src, cairo.SolidPattern) and src.get_rgba()[3] == 0
                and ctx.get_operator() == cairo.OPERATOR_OVER)

    class QuietContext(cairo.Context):
        def stroke(self) -> None:
            if clear(self):
                self.new_path()
            else:
                super().stroke()

        def fill_preserve(self) -> None:
            if not clear(self):
                super().fill_preserve()

    return QuietContext


def _plain_text(node: Node) -> bool:
    """A text element CairoSVG would lay out as one run: one x and one y, no per-letter
    shifts, no text path, no children."""
    if node.tag != "text" or node.children or not node.text:
        return False
    if any(a in node for a in ("dx", "dy", "rotate", "letter-spacing", "display-anchor",
                               "dominant-baseline", "alignment-baseline")):
        return False
    if node.get_href() or (node.parent is not None and node.parent.get_href()):
        return False
    x, y = node.get("x", ""), node.get("y", "")
    return _number(x) and _number(y)


def _number(s: str) -> bool:
    try:
        float(s)
    except (TypeError, ValueError):
        return False
    return True


_NOT_SIMPLE = re.compile(r"[^MLZ0-9. \n-]")
_CLOSE = struct.unpack("=d", struct.pack("=ii", 3, 1))[0]  # cairo_path_data_t headers,
_MOVE = struct.unpack("=d", struct.pack("=ii", 0, 2))[0]  # read as the first double of
_LINE = struct.unpack("=d", struct.pack("=ii", 1, 2))[0]  # the 16-byte element
_PACKED: dict[str, array | None] = {}  # d → its path, packed (bounded: _PACKED_MAX)
_ABSENT = array("d")  # _PACKED.get's default: a path not packed yet
_PACKED_MAX = 40_000_000  # bytes of packed paths kept
_packed_bytes = 0
# where packed paths kept on disk are read from when a path is first asked for
# (render.memo: a picture whose base is copied asks for none)
_LATER: list[tuple[set[str], Callable[[], None]]] = []


def packed_later(paths: set[str], load: Callable[[], None]) -> None:
    """Call `load` (it calls remember_packed) the first time one of `paths` is asked for
    and not known."""
    _LATER.append((paths, load))


def _packed(d: str) -> array | None:
    """Path text `d` as cairo's path data (cairo_path_data_t elements, 16 bytes: a header
    then its points), for paths of absolute moves and lines only (None for any other):
    worked out once per path text, kept for the next picture of the same board."""
    global _packed_bytes
    got = _PACKED.get(d, _ABSENT)
    if got is not _ABSENT:
        return got
    for n, (paths, load) in enumerate(_LATER):
        if d in paths:
            del _LATER[n]
            load()
            got = _PACKED.get(d, _ABSENT)
            if got is not _ABSENT:
                return got
            break
    out = _pack(d)
    size = len(d) + (out.itemsize * len(out) if out is not None else 0)
    if _packed_bytes + size > _PACKED_MAX:
        _PACKED.clear()
        _packed_bytes = 0
    _PACKED[d] = out
    _packed_bytes += size
    return out


def remember_packed(d: str, packed: array | None) -> None:
    """Keep `packed` as path text `d`'s packed path (render.memo: read back from disk);
    anything but a path of doubles is ignored."""
    global _packed_bytes
    if packed is not None and (not isinstance(packed, array) or packed.typecode != "d"):
        return
    if not isinstance(d, str) or d in _PACKED:
        return
    size = len(d) + (packed.itemsize * len(packed) if packed is not None else 0)
    if _packed_bytes + size > _PACKED_MAX:
        return
    _PACKED[d] = packed
    _packed_bytes += size


def _pack(d: str) -> array | None:
    if not d.startswith("M") or _NOT_SIMPLE.search(d):
        return None
    out = array("d")
    for part in d.split("M")[1:]:
        body = part.rstrip()
        closed = body.endswith("Z")
        if closed:
            body = body[:-1]
        if "Z" in body:
            return None  # (a line after Z without M)
        try:
            nums = array("d", map(float, body.replace("L", " ").split()))
        except ValueError:
            return None
        n = len(nums) // 2
        if len(nums) % 2 or n == 0:
            return None
        ring = array("d", bytes(32 * n))
        ring[0::4] = array("d", [_LINE]) * n
        ring[0] = _MOVE
        ring[2::4] = nums[0::2]
        ring[3::4] = nums[1::2]
        out += ring
        if closed:
            out += array("d", (_CLOSE, 0.0))
    return out


def _append(ctx: Context, packed: array) -> None:
    """Add packed path data to a cairocffi context's path, in one call."""
    from cairocffi import cairo, ffi

    if not packed:
        return
    data = ffi.from_buffer("cairo_path_data_t[]", packed)
    path = ffi.new("cairo_path_t *", {"status": 0, "data": data,
                                      "num_data": len(packed) // 2})
    cairo.cairo_append_path(ctx._pointer, path)


def _encode(img: ImageSurface) -> bytes | None:
    """The PNG file of an opaque ARGB32 cairo image (None when it is not opaque or the
    machine is big-endian: cairo's own writer then)."""
    img.flush()
    return encode_argb(bytes(img.get_data()), img.get_width(), img.get_height(),
                       img.get_stride())


def encode_argb(data: bytes, w: int, h: int, stride: int) -> bytes | None:
    """The PNG file of opaque ARGB32 pixels `data` (cairo's layout, `stride` bytes a row),
    as RGB compressed at zlib level 3; None when they are not opaque or the machine is
    big-endian."""
    if sys.byteorder != "little":
        return None
    if w == 0 or h == 0 or stride != w * 4:
        return None
    if data[3::4] != b"\xff" * (w * h):
        return None
    rgb = bytearray(w * h * 3)
    rgb[0::3], rgb[1::3], rgb[2::3] = data[2::4], data[1::4], data[0::4]
    row = w * 3
    raw = b"".join(b"\x00" + rgb[y * row:(y + 1) * row] for y in range(h))

    def chunk(tag: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + tag + body
                + struct.pack(">I", zlib.crc32(tag + body)))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 3)) + chunk(b"IEND", b""))
