"""The one-shot contract survives any line (issue 19): exactly one output line per input line,
no request can end the batch, and variant files are read only where the setting allows.

Shapes a hostile client sends: JSON nested 100,000 deep, strings of megabytes, lists of a
million entries, wrong types in every field, a variant that names a system file or is too
long for a path, bytes that are not UTF-8.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from polydip.oneshot import MAX_DEPTH, MAX_ITEMS, MAX_LINE, MAX_STRING, run_lines
from polydip.variants.loader import builtin_names

GOOD = {"phase": "S1901M", "units": {"France": ["A PAR"]}, "orders": {"France": ["A PAR - BUR"]}}
FIELDS = ("variant", "phase", "units", "dislodged", "contested", "centers", "homes", "orders",
          "options", "id", "year_start_centers", "extra")
ODD = [None, True, 0, -1, 1.5, "", "x" * 50, [], {}, [[]], [None], {"": None},
       {"France": None}, {"France": [None]}, {"France": [1]}, {"France": {"a": 1}},
       {"France": ["A PAR", "A PAR"]}, ["A PAR"], "S1901M", {"Nowhere": []}]


def outcomes(lines: list[str], **kw) -> list[dict]:
    out = list(run_lines(lines, **kw))
    assert len(out) == len(lines)  # one line out per line in, whatever it held
    for o in out:
        assert not str(o.get("error", "")).startswith("internal error"), o
    return out


def test_deep_nesting_is_an_error_line_and_the_batch_goes_on() -> None:
    lines = ["[" * 100_000, json.dumps(GOOD), "{\"extra\": " + "[" * 500 + "]" * 500 + "}",
             json.dumps({**GOOD, "extra": {"a": [[[[[[[[[[[[]]]]]]]]]]]]}})]
    out = outcomes(lines)
    assert "nested too deep" in out[0]["error"]
    assert out[1]["units"] == {"France": ["A BUR"]}
    assert f"nested more than {MAX_DEPTH} levels" in out[2]["error"]
    assert "error" not in out[3]  # nesting within the limit is fine


def test_huge_strings_lists_and_lines_are_refused_with_the_limit() -> None:
    lines = [
        json.dumps({**GOOD, "variant": "v" * 300}),
        json.dumps({**GOOD, "orders": {"France": ["A PAR - BUR" + " " * 5_000]}}),
        json.dumps({**GOOD, "units": {"France": ["A PAR"] * (MAX_ITEMS + 1)}}),
        json.dumps({**GOOD, "id": "x" * (MAX_LINE + 10)}),
        "",
        json.dumps(GOOD),
    ]
    out = outcomes(lines)
    assert "unknown variant 'vvvv" in out[0]["error"]
    assert f"at most {MAX_STRING:,}" in out[1]["error"]
    assert f"at most {MAX_ITEMS:,}" in out[2]["error"]
    assert f"at most {MAX_LINE:,}" in out[3]["error"]
    assert "empty" in out[4]["error"]
    assert "error" not in out[5]


def test_the_limits_themselves_are_allowed_and_one_more_is_refused() -> None:
    # docs/adjudicate.md, Limits: "at most" each figure; the field beyond it is named
    def at_depth(depth: int, leaf: object) -> dict:  # the request is level 0, "extra" 1
        for _ in range(depth - 2):
            leaf = [leaf]
        return {**GOOD, "extra": {"rule": leaf}}

    for leaf in (1, "x", [], {}):
        for depth, ok in ((MAX_DEPTH, True), (MAX_DEPTH + 1, False)):
            out, = outcomes([json.dumps(at_depth(depth, leaf))])
            assert ("error" not in out) == ok, (leaf, depth, out)
            if not ok:
                assert out["error"].endswith(f": nested more than {MAX_DEPTH} levels deep")
    for n, ok in ((MAX_STRING, True), (MAX_STRING + 1, False)):
        value, = outcomes([json.dumps({**GOOD, "id": "i" * n})])
        assert ("error" not in value) == ok, value
        key, = outcomes([json.dumps({**GOOD, "extra": {"k" * n: 1}})])
        assert ("error" not in key) == ok, key
    for n, ok in ((MAX_ITEMS, True), (MAX_ITEMS + 1, False)):
        out, = outcomes([json.dumps({**GOOD, "extra": {"rule": [0] * n}})])
        assert ("error" not in out) == ok, out
        if not ok:
            assert out["error"] == f"request.extra.rule: {n:,} entries (at most {MAX_ITEMS:,})"


def test_odd_types_in_every_field() -> None:
    rng = random.Random(19)
    lines = []
    for field in FIELDS:
        for value in ODD:
            lines.append(json.dumps({**GOOD, field: value}))
    for _ in range(300):  # several fields at once
        req = dict(GOOD)
        for field in rng.sample(FIELDS, rng.randint(1, 4)):
            req[field] = rng.choice(ODD)
        lines.append(json.dumps(req))
    lines += ["null", "[]", "7", '"S1901M"', "{", "}", "\x00", "{}"]
    outcomes(lines)


def test_variant_files_are_a_setting() -> None:
    req = json.dumps({**GOOD, "variant": "/etc/passwd"})
    on, = outcomes([req])
    assert "not valid TOML" in on["error"]  # a command-line user may load any file
    off, = outcomes([req], variant_files=False)
    assert off["error"].startswith("unknown variant '/etc/passwd': this service reads no "
                                   "variant files (it runs with --no-variant-files)")
    ok, = outcomes([json.dumps({**GOOD, "variant": "wita", "phase": "S1845M",
                                "units": {}, "orders": {}})], variant_files=False)
    assert "error" not in ok
    missing, = outcomes([json.dumps({**GOOD, "variant": "no/such/file.toml"})])
    assert "not a built-in variant, not a readable variant file" in missing["error"]


def test_a_variant_file_on_the_search_path_is_read_by_name_when_files_are_allowed(
        tmp_path, monkeypatch) -> None:
    from polydip.variants.loader import load_builtin
    from polydip.variants.writer import variant_to_toml

    (tmp_path / "my_standard.toml").write_text(variant_to_toml(load_builtin("standard")))
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", str(tmp_path))
    req = json.dumps({**GOOD, "variant": "my_standard"})
    on, = outcomes([req])
    assert "error" not in on and on["results"] == outcomes([json.dumps(GOOD)])[0]["results"]
    off, = outcomes([req], variant_files=False)
    assert "this service reads no variant files" in off["error"]


@pytest.mark.parametrize("flag", [[], ["--no-variant-files"]])
def test_the_command_answers_every_line(flag) -> None:
    raw = b"\n".join([b"[" * 100_000, json.dumps(GOOD).encode(), b"\xff\xfe not utf-8",
                      json.dumps({**GOOD, "variant": "/etc/hostname"}).encode(),
                      json.dumps(GOOD).encode()]) + b"\n"
    res = subprocess.run([sys.executable, "-m", "polydip.cli.main", "adjudicate", *flag],
                         input=raw, capture_output=True, timeout=120)
    assert res.stderr == b""
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(out) == 5
    assert "nested too deep" in out[0]["error"] and "not UTF-8" in out[2]["error"]
    assert out[1]["units"] == out[4]["units"] == {"France": ["A BUR"]}
    if flag:
        assert "--no-variant-files" in out[3]["error"]
    assert res.returncode == 1  # some lines failed


@pytest.mark.parametrize("field", ["units", "centers", "homes", "year_start_centers", "orders"])
def test_the_limits_of_each_power_list_field(field) -> None:
    # docs/adjudicate.md, Limits: any string at most 1,000 characters, any list 10,000
    # entries; these fields are checked list by list as they are read
    def with_list(lst: list) -> dict:
        return {**GOOD, field: {"France": lst}}

    def size_error(out: dict) -> bool:
        return "(at most" in out.get("error", "")

    at_limit = "A PAR".ljust(MAX_STRING)  # a unit or order, padded: still readable
    long_text, = outcomes([json.dumps(with_list(["A PAR - BUR", at_limit]))])
    assert not size_error(long_text), long_text
    beyond, = outcomes([json.dumps(with_list(["A PAR - BUR", at_limit + " "]))])
    assert beyond["error"] == (f"request.{field}.France.1: a string of {MAX_STRING + 1:,} "
                               f"characters (at most {MAX_STRING:,})")
    many, = outcomes([json.dumps(with_list(["PAR"] * MAX_ITEMS))])
    assert not size_error(many), many
    too_many, = outcomes([json.dumps(with_list(["PAR"] * (MAX_ITEMS + 1)))])
    assert too_many["error"] == (f"request.{field}.France: {MAX_ITEMS + 1:,} entries (at most "
                                 f"{MAX_ITEMS:,})")
    key, = outcomes([json.dumps({**GOOD, field: {"F" * (MAX_STRING + 1): []}})])
    assert key["error"] == f"request.{field}: a key of {MAX_STRING + 1:,} characters"
    # a size error wins over any other error of the request, wherever it is
    both, = outcomes([json.dumps({**with_list([None, "x" * (MAX_STRING + 1)]),
                                  "variant": "nowhere", "phase": "X"})])
    assert both["error"].startswith(f"request.{field}.France.1: a string of")


@pytest.mark.parametrize("head", ["", " ", "\n", "\ufeff"])
@pytest.mark.parametrize("tail", ["", "\n", " \t\r\n", "\x0b", "\u3000", " x", "}", "\n{}",
                                  ' {"id": 2}'])
def test_a_request_line_is_read_as_json_loads_reads_it(head: str, tail: str) -> None:
    """White space JSON allows around the object is read past; anything else after it (other
    white space included) or before it makes the line bad JSON, with json.loads's message."""
    line = head + '{"id": 1, "units": {"France": ["A PAR"]}}' + tail
    got = next(iter(run_lines([line])))
    try:
        json.loads(line)
    except json.JSONDecodeError as exc:
        assert got == {"error": f"line 1: not valid JSON: {exc.msg} (column {exc.colno})"}
    else:
        assert got.get("id") == 1 and "error" not in got


def test_homes_given_are_the_homes_read_whether_the_variants_own_or_not() -> None:
    """A request's "homes" are the position's home centers: the variant's own written out,
    or others (a power given another home center builds there, not in its old one)."""
    from polydip.game.positions import build_position, position_to_json
    from polydip.oneshot import get_map

    m = get_map("standard")
    own = position_to_json(m, build_position(m, {}))["homes"]
    assert build_position(m, {"homes": own}).homes == m.homes
    moved = {**own, "France": ["BRE", "MAR", "SPA"]}
    homes = build_position(m, {"homes": moved}).homes
    france = m.powers.index("France")
    assert sorted(m.prov_abbr[c] for c in homes[france]) == ["BRE", "MAR", "SPA"]
    assert [h for p, h in enumerate(homes) if p != france] == \
        [h for p, h in enumerate(m.homes) if p != france]
    line = json.dumps({"phase": "W1901A", "units": {}, "centers": {"France": ["SPA"]},
                       "homes": moved, "orders": {"France": ["A SPA B"]}})
    got = next(iter(run_lines([line])))
    assert got["units"] == {"France": ["A SPA"]} and not got["errors"]


@pytest.mark.parametrize("variant", builtin_names())
def test_units_written_as_polydip_writes_them_read_as_parse_unit_reads_them(variant) -> None:
    """The units of a request read through the map's name indexes (texts as Map.unit_str
    writes them) are what the notation's reader gives, or its error, for every kind and
    place, coasts and places a kind cannot stand in included."""
    from polydip.game.positions import read_unit
    from polydip.notation import NotationError, parse_unit
    from polydip.oneshot import get_map

    m = get_map(variant)
    m.caches.clear()
    for k in range(len(m.kinds)):
        for loc in range(len(m.loc_name)):
            text = m.unit_str(k, loc)
            try:
                want: object = parse_unit(m, text)
            except NotationError as exc:
                want = str(exc)
            try:
                got: object = read_unit(m, text)
            except NotationError as exc:
                got = str(exc)
            assert got == want, text
