"""Boards (issue 9): the built-in variants' boards meet the drawing targets, checked from the
board file alone in pure Python, and the checks catch a board that does not fit its map."""

from __future__ import annotations

import copy
import itertools
import json
import subprocess
import sys
from dataclasses import replace

import pytest

from polydip.check import (
    MAX_BOARD_KB,
    board_consistency,
    board_report,
    check_board,
    check_variant,
)
from polydip.errors import PolydipError
from polydip.render.board import (
    board_path,
    clearance,
    decode_board,
    load_board,
    point_in_region,
    read_board,
    touch_lengths,
)
from polydip.variants.loader import load_variant
from polydip.variants.model import Edge

BOARDS = ["standard", "wita", "war_in_north_america", "lad1890", "twentieth_century"]


@pytest.mark.parametrize("name", BOARDS)
def test_builtin_board_meets_every_target(name: str) -> None:
    """Every adjacent pair touches (>= 5 px) or is a declared connector (<= 3%), no
    undeclared non-adjacent touch, anchors 10 px inside, provinces >= 600 px², a valid
    coverage, <= 250 KB: `polydip variant check NAME --board` exits 0."""
    v = load_variant(name)
    fig = check_board(v, read_board(board_path(v)))
    assert fig.problems == []
    assert any(line.startswith("coverage:") and line.endswith("valid") for line in fig.lines)
    assert board_path(v).stat().st_size <= MAX_BOARD_KB * 1024


def test_board_check_needs_no_geometry_library() -> None:
    """CI and players need no shapely/numpy: the check runs on the board file alone."""
    code = ("import sys; from polydip.variants.loader import load_variant; "
            "from polydip.check import board_report; "
            "ok, _ = board_report(load_variant('standard')); "
            "bad = [m for m in ('shapely', 'numpy', 'scipy') if m in sys.modules]; "
            "print(ok, bad)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "True []"


def test_check_finds_a_wrong_touch_and_a_missing_one() -> None:
    """Remove the map's Paris-Burgundy edge: the board still draws them touching, a wrong
    touch; add an edge Portugal-Moscow: they do not touch, a missing one."""
    v = copy.deepcopy(load_variant("standard"))
    board = read_board(board_path(v))
    v.edges = [e for e in v.edges if {e.a, e.b} != {"PAR", "BUR"}]
    v.edges.append(Edge("land", "POR", "MOS", "test"))
    problems = check_board(v, board).problems
    assert any(p.startswith("BUR-PAR are not adjacent but share") for p in problems)
    assert any(p.startswith("MOS-POR are adjacent but share only 0.0 px") for p in problems)


def test_check_finds_broken_boards() -> None:
    v = load_variant("standard")
    data = json.loads(board_path(v).read_text())
    # a province missing, an anchor outside its province
    bad = copy.deepcopy(data)
    del bad["regions"]["PAR"]
    bad["anchors"]["BUR"]["unit"] = bad["anchors"]["MAR"]["unit"]
    board = decode_board(bad)
    assert "province PAR is not on the board" in board_consistency(v, board)
    problems = check_board(v, board).problems
    assert any(p.startswith("anchor too close to the province outline: BUR unit")
               for p in problems)
    assert any(p.startswith("arc ") and ("used 1 times forward and 0 backward" in p
                                          or "used 0 times forward and 1 backward" in p)
               for p in problems)
    assert any(p.startswith("the faces cover") for p in problems)  # a gap where Paris was
    # plain `variant check` reports a board that does not fit the variant
    v2 = replace(copy.deepcopy(v), provinces={k: p for k, p in v.provinces.items()})
    v2.provinces.pop("BEL")
    assert any(p.key == "board" and "BEL, which is no province" in p.message
               for p in check_variant(v2))


def test_touches_follow_the_geography() -> None:
    """On the standard board, France's provinces touch their neighbours and the sea."""
    touch = touch_lengths(load_board(load_variant("standard")))
    assert touch[("BUR", "PAR")] > 50
    assert touch[("BRE", "ENG")] > 50
    assert ("PAR", "MAO") not in touch and ("MAO", "PAR") not in touch


def test_anchors_lie_inside_their_provinces() -> None:
    for name in BOARDS:
        v = load_variant(name)
        board = load_board(v)
        for abbr in v.provinces:
            anc = board.anchors[abbr]
            assert point_in_region(board, abbr, tuple(anc["unit"])), (name, abbr)
            assert clearance(board, abbr, tuple(anc["label"])) >= 10, (name, abbr)


def test_variant_check_board_cli(capsys) -> None:
    from polydip.cli.main import main

    assert main(["variant", "check", "standard", "--board"]) == 0
    out = capsys.readouterr().out
    assert "adjacent pairs: 206" in out and "all targets met" in out


def test_board_report_for_a_variant_without_board(tmp_path) -> None:
    v = copy.deepcopy(load_variant("standard"))
    v.path = str(tmp_path / "mine.toml")
    ok, text = board_report(v)
    assert not ok and "has no board" in text


def test_a_board_that_wraps_touches_across_its_seam() -> None:
    """A world board is a cylinder: what lies on its left edge touches what lies on its right
    edge (the 1933 world's wraparound seas)."""
    from polydip.render.board import FORMAT, encode_ints

    def arc(*pts):
        flat = [pts[0][0], pts[0][1]]
        for (x0, y0), (x1, y1) in itertools.pairwise(pts):
            flat += [x1 - x0, y1 - y0]
        return encode_ints(flat)

    data = {
        "format": FORMAT, "variant": "t", "width": 10, "height": 10, "quantum": 1,
        "arcs": [arc((5, 0), (5, 10)), arc((5, 0), (0, 0)), arc((0, 0), (0, 10)),
                 arc((0, 10), (5, 10)), arc((5, 10), (10, 10)), arc((10, 10), (10, 0)),
                 arc((10, 0), (5, 0))],
        "regions": {"A": {"land": [[1, 2, 3, ~0]]}, "B": {"land": [[0, 4, 5, 6]]}},
        "anchors": {}, "connectors": [], "projection": {"wrap": False},
    }
    assert touch_lengths(decode_board(data)) == {("A", "B"): 10.0}
    data["projection"]["wrap"] = True
    assert touch_lengths(decode_board(data)) == {("A", "B"): 20.0}


@pytest.mark.parametrize("field, value", [("connectors", [["LON", "WAL", [1, 2, 3]]]),
                                          ("insets", [[0, 0, 10, 10, 20]])])
def test_a_line_or_box_not_of_four_numbers_is_refused(tmp_path, field: str,
                                                       value: list) -> None:
    """A connector's line and an inset's box are x0, y0, x1, y1: any other count is a
    clear error when the board is read, not a traceback when it is drawn."""
    data = json.loads(board_path(load_variant("standard")).read_text())
    data[field] = value
    bad = tmp_path / "bad.board.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(PolydipError, match="not a valid board file"):
        read_board(bad)
