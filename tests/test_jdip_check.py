"""tools/jdip_check.py: reading jDip-format case files and building one-shot requests.

The case texts here are written for the test (the real case files are not part of the repo).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parent.parent / "tools" / "jdip_check.py"


@pytest.fixture(scope="module")
def jc():
    spec = importlib.util.spec_from_file_location("jdip_check", TOOL)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["jdip_check"] = mod
    spec.loader.exec_module(mod)
    return mod


MOVEMENT = """\
# a comment
VARIANT_ALL Standard

CASE move with typo
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tEngland: A yor
\tEngland: F nth
\tGermany: F lon\t\t# tabs and a comment
  Germany: A wal

ORDERS
\tGermany: F lon-yor
\tGermnay: A wal SUPPORTS F lon-yor
\tEngland F nth H
POSTSTATE
\tEngland: F nth
\tGermany: F yor
\tGermany: A wal
POSTSTATE_DISLODGED
\tEngland: A yor
END

CASE destroyed in a comment
PRESTATE_SETPHASE Spring 1901, Movement
PRESTATE
\tItaly: A ven
\tItaly: A tyr
\tAustria: A tri
\tAustria: F adr
\tAustria: A vie
ORDERS
\tItaly: A tyr-tri
\tItaly: A ven S A tyr-tri
POSTSTATE
\tItaly: A ven
\tItaly: A tri
\tAustria: F adr
\tAustria: A vie
POSTSTATE_DISLODGED
\t# Austria: A tri\t# destroyed (wrong on purpose: it may retreat to alb or bud)
END

CASE builds
PRESTATE_SETPHASE Fall 1901, Adjustment
PRESTATE_SUPPLYCENTER_OWNERS
\tRussia: A stp
\tRussia: A mos
PRESTATE
\tRussia: A stp
ORDERS
\tRussia: Build A mos
POSTSTATE
\tRussia: A stp
\tRussia: A mos
END
"""

RETREAT = """\
CASE retreat
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
\tFrance: A mar
\tFrance: A bur
\tFrance: F mid
\tFrance: F wes
\tFrance: F gol
\tGermany: A mun
\tGermany: A sil
PRESTATE_DISLODGED
\tItaly: A mar
PRESTATE_RESULTS
\tSUCCESS: France: A gas-mar
\tSUCCESS: France: A bur S A gas-mar
\tSUCCESS: France: F mid C A gas-mar
\tSUCCESS: France: F wes C A gas-mar
\tSUCCESS: France: F gol C A gas-mar
\tFAILURE: Italy: A mar H
\tFAILURE: Germany: A mun-boh
\tFAILURE: Germany: A sil-boh
ORDERS
\tItaly: A mar-gas
POSTSTATE
\tFrance: A mar
\tFrance: A bur
\tFrance: F mid
\tFrance: F wes
\tFrance: F gol
\tGermany: A mun
\tGermany: A sil
\tItaly: A gas
END
"""


def test_parse_is_tolerant(jc, tmp_path):
    f = tmp_path / "cases.txt"
    f.write_text(MOVEMENT)
    cases = jc.parse_file(f)
    assert [c.name for c in cases] == ["move with typo", "destroyed in a comment", "builds"]
    c = cases[0]
    assert ("Germany", "F lon") in c.prestate and ("Germany", "A wal") in c.prestate
    assert ("England", "F nth H") in c.orders  # no colon after the power
    assert c.post_dislodged == [("England", "A yor")]
    assert cases[1].destroyed == [("Austria", "A tri")]
    assert cases[2].owners == [("Russia", "stp"), ("Russia", "mos")]


def test_phase_codes(jc):
    notes: list[str] = []
    assert jc.phase_code("Spring 1901, Movement", notes) == "S1901M"
    assert jc.phase_code(" Fall 1902, Retreat", notes) == "F1902R"
    assert jc.phase_code("Fall 1901, Adjustment", notes) == "W1901A"
    assert jc.phase_code(None, notes) == "S1901M" and notes


def test_requests_and_comparison(jc, tmp_path):
    f = tmp_path / "cases.txt"
    f.write_text(MOVEMENT)
    move, destroyed, builds = jc.parse_file(f)
    req = jc.build_request(move)
    assert req["phase"] == "S1901M"
    assert req["orders"]["Germany"] == ["F lon-yor", "A wal SUPPORTS F lon-yor"]
    assert any("Germnay" in n for n in move.notes)
    out = jc.run_python([req])[0]
    assert jc.compare(move, req, out) == []
    # the comment says A tri is destroyed, but it can retreat: the checker must say so
    req = jc.build_request(destroyed)
    diffs = jc.compare(destroyed, req, jc.run_python([req])[0])
    assert len(diffs) == 1 and "expected destroyed" in diffs[0] and "ALB" in diffs[0]
    req = jc.build_request(builds)
    assert req["phase"] == "W1901A" and req["centers"] == {"Russia": ["STP", "MOS"]}
    assert jc.compare(builds, req, jc.run_python([req])[0]) == []


def test_retreat_request(jc, tmp_path):
    f = tmp_path / "retreat.txt"
    f.write_text(RETREAT)
    (case,) = jc.parse_file(f)
    req = jc.build_request(case)
    assert req["phase"] == "S1901R"
    assert req["dislodged"] == {"Italy": [{"unit": "A MAR", "from": "GAS", "convoyed": True}]}
    assert req["contested"] == ["BOH"]
    assert jc.compare(case, req, jc.run_python([req])[0]) == []


def test_main_summary_and_exit(jc, tmp_path, capsys):
    f = tmp_path / "cases.txt"
    f.write_text(MOVEMENT + RETREAT)
    assert jc.main([str(f)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("FAIL cases.txt:") and "destroyed in a comment" in out[0]
    assert out[-2] == f"{f}: 3 passed, 1 failed"
    assert out[-1] == "total: 3 passed, 1 failed"
    assert jc.main([str(f), "--case", "retreat"]) == 0
