"""Compact JSON written by orjson where installed is byte for byte the standard library's
(game/jsonbytes.py): shards must be the same bytes on every machine of a run."""

from __future__ import annotations

import enum
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydip.game import jsonbytes
from polydip.game.jsonbytes import compact, holds_float, standard


def stdlib(obj) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


class Word(enum.StrEnum):
    BOUNCE = "bounce"


class Count(enum.IntEnum):
    TWO = 2


TRICKY = [
    {"é": "Münster", "x": "\u2028\u2029", "y": "\U0001f600"},  # non-ASCII: \u escapes
    "\x7f", "\x00\x01\x1f\b\f\n\r\t\"\\/",  # DEL and control characters
    [1e16, 1.5e16, -1e22, 1e-4, 1e-5, 1e-7, 5e-324, 0.1, 1.0, -0.0, 123456789.125],
    {"floats": 1e300, "small": 0.00012},
    2 ** 64, -(2 ** 63) - 1, [2 ** 63 - 1],  # beyond orjson's 64 bits, and its edge
    {1: "a", 2.5: "b", None: "c", False: "d"},  # keys that are not strings
    (1, [2, (3,)]), {"t": ()},
    Word.BOUNCE, [Count.TWO], True, False, None, "", [], {},
    {"b": 1, "a": 2, "c": {"z": [], "y": None}},  # key order kept
    "A PAR - BUR", "v1.2", "S1901M",
]


@pytest.mark.parametrize("obj", TRICKY, ids=range(len(TRICKY)))
def test_the_same_bytes_as_the_standard_library(obj):
    assert compact(obj) == stdlib(obj) == standard(obj)


@pytest.mark.parametrize("obj", TRICKY, ids=range(len(TRICKY)))
def test_without_orjson_the_standard_library_writes(obj, monkeypatch):
    monkeypatch.setattr(jsonbytes, "_orjson", None)
    assert not jsonbytes.fast()
    assert compact(obj) == stdlib(obj)


def test_orjson_writes_plain_data():
    pytest.importorskip("orjson")
    calls = []
    real = jsonbytes.standard
    try:
        jsonbytes.standard = lambda obj: calls.append(obj) or real(obj)  # type: ignore
        assert compact({"A": ["A PAR", 3, None, True]}) == b'{"A":["A PAR",3,null,true]}'
        assert compact({"A": [1, 2]}, floats=False) == b'{"A":[1,2]}'
    finally:
        jsonbytes.standard = real
    assert not calls  # orjson wrote both


def test_an_object_neither_can_write_is_refused_as_the_standard_library_refuses_it():
    with pytest.raises(TypeError, match="not JSON serializable"):
        compact({"a": object()})


def test_holds_float():
    assert holds_float({"a": [1, {"b": (2, 0.5)}]})
    assert holds_float({1.5: "key"})
    assert not holds_float({"a": [1, "1.5", None, True, {"b": ()}]})


json_like = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(json_like)
def test_any_json_value_is_written_as_the_standard_library_writes_it(obj):
    assert compact(obj) == stdlib(obj)
    if not holds_float(obj):
        assert compact(obj, floats=False) == stdlib(obj)
