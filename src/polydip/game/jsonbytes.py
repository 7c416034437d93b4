"""Compact JSON as bytes, the same bytes whichever encoder writes them.

`compact(obj)` is `json.dumps(obj, separators=(",", ":")).encode()`: the standard library's
text, ASCII only. When orjson is installed (the `simulate` extra) it writes them, about five
times faster on a saved game; where orjson would write other bytes than the standard
library, the standard library writes them instead:

- a string with a character outside printable ASCII and the usual escapes: orjson writes it
  as UTF-8, the standard library as \\uXXXX (DEL, 0x7f, too);
- a float: the two agree on every float written without an exponent, not on 1e+16 or
  1e-05 (orjson: 1e16, 0.00001); a float is seen in orjson's output as a digit followed by
  ".", "e" or "E" (text such as "v1.2" in a string only costs the standard library's time).
  Looking for one costs about a tenth of orjson's own time: a caller that knows its object
  holds no float says so (`floats=False`) and skips it;
- what orjson refuses: an integer beyond 64 bits, a key that is not a string, an object of
  a type it does not know (the standard library then accepts or refuses it as it does).

One difference is not seen: a float that is not finite (orjson writes null, the standard
library NaN, which is not JSON). polydip's saved games hold no floats.

Why the bytes must not depend on orjson: shards of one simulation are the same bytes
wherever they are written (a Ray cluster's nodes need not all have orjson), and their
sha256 in the manifest is how a rerun knows them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

_orjson: Callable[[Any], bytes] | None
try:
    from orjson import dumps as _orjson
except ImportError:  # pragma: no cover (orjson is installed with the simulate extra)
    _orjson = None

_DIGITS = bytes.maketrans(b"123456789", b"000000000")


def standard(obj: Any) -> bytes:
    """The standard library's compact JSON of `obj`."""
    return json.dumps(obj, separators=(",", ":")).encode()


def compact(obj: Any, floats: bool = True) -> bytes:
    """`standard(obj)`'s bytes, written by orjson when it is installed and writes them.
    `floats=False`: the caller knows that `obj` holds no float (it is not looked for)."""
    if _orjson is not None:
        try:
            out = _orjson(obj)
        except TypeError:  # (orjson.JSONEncodeError is a TypeError)
            return standard(obj)
        if out.isascii() and b"\x7f" not in out and not (floats and _float_in(out)):
            return out
    return standard(obj)


def _float_in(out: bytes) -> bool:
    """Does orjson's output hold a float: a digit followed by ".", "e" or "E"?"""
    zeros = out.translate(_DIGITS)
    return b"0." in zeros or b"0e" in zeros or b"0E" in zeros


def holds_float(obj: Any) -> bool:
    """Is there a float in `obj` (JSON-like: dicts, lists, tuples, scalars)?"""
    if isinstance(obj, float):
        return True
    if isinstance(obj, dict):
        return any(holds_float(k) or holds_float(v) for k, v in obj.items())
    if isinstance(obj, list | tuple):
        return any(holds_float(x) for x in obj)
    return False


def fast() -> bool:
    """Is orjson writing (installed)?"""
    return _orjson is not None
