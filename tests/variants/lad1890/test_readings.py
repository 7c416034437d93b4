"""Latin American Diplomacy 1890: where the rules text reads two ways, the default and the
option that offers the other reading (issue 28, item 8), each quoting the sentences that
disagree (seed 001, "Latin American Diplomacy" by Michael Zmolek). docs/options.md lists the
options; the rule modules' docstrings say which reading is the default and why.
"""

from __future__ import annotations

import json

import pytest
from scenario import Scenario

from polydip.adjudication import reasons as R
from polydip.errors import NotSupportedError, PolydipError
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.report import build_report, format_report
from polydip.state import Phase, Unit

GREATER_ANDES = ("THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the "
                 "supporting units count towards an attack.")

lad = Scenario("lad1890", "C1891M", "Bolivia")


def crossing(units: dict, orders: dict, option: str | None) -> dict:
    """A C-phase position adjudicated through the one-shot contract, with the option
    weak_crossing_into_empty set to `option` (None: left to its default)."""
    extra = {} if option is None else {"options": {"weak_crossing_into_empty": option}}
    return lad.adjudicate(units, orders, **extra)


# ---- 5.C.iii: an unsupported crossing of the Greater Andes into an empty province -----------

@pytest.mark.parametrize("option", [None, "enters"])
def test_an_unsupported_crossing_enters_an_empty_province_by_default(option) -> None:
    """"THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting
    units count towards an attack." By default a move of strength 0 still enters a province
    nobody holds or enters (0 beats nothing), and one its unit leaves."""
    out = crossing({"Bolivia": ["A AYA"]}, {"Bolivia": ["A AYA - LIM"]}, option)
    assert out["results"] == {"A AYA - LIM": []}
    assert out["units"]["Bolivia"] == ["A LIM"]
    out = crossing({"Bolivia": ["A AYA"], "Peru": ["A LIM"]},
                   {"Bolivia": ["A AYA - LIM"], "Peru": ["A LIM - ANC"]}, option)
    assert out["results"]["A AYA - LIM"] == [] and out["units"]["Bolivia"] == ["A LIM"]


def test_under_fails_an_unsupported_crossing_moves_nowhere() -> None:
    """"THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting
    units count towards an attack." Read as "an attack of strength 0 moves nowhere"
    (weak_crossing_into_empty = "fails"): the army stays, even facing an empty province or
    one its unit leaves, and its result names the rule."""
    out = crossing({"Bolivia": ["A AYA"]}, {"Bolivia": ["A AYA - LIM"]}, "fails")
    assert out["results"] == {"A AYA - LIM": ["bounce"]}
    assert out["reasons"]["A AYA - LIM"]["code"] == R.WEAK_CROSSING
    assert out["units"]["Bolivia"] == ["A AYA"]
    out = crossing({"Bolivia": ["A AYA"], "Peru": ["A LIM"]},
                   {"Bolivia": ["A AYA - LIM"], "Peru": ["A LIM - ANC"]}, "fails")
    assert out["results"] == {"A AYA - LIM": ["bounce"], "A LIM - ANC": []}
    assert out["units"] == {"Bolivia": ["A AYA"], "Peru": ["A ANC"]}


def test_under_fails_a_supported_crossing_still_enters() -> None:
    """"only the supporting units count towards an attack": with one support given the
    crossing has strength 1 and enters an empty province under either reading; with its
    support cut it has 0 again and, under "fails", stays."""
    units = {"Bolivia": ["A AYA", "A HUA"]}
    orders = {"Bolivia": ["A AYA - LIM", "A HUA S A AYA - LIM"]}
    for option in ("enters", "fails"):
        out = crossing(units, orders, option)
        assert out["results"]["A AYA - LIM"] == [], option
        assert "A LIM" in out["units"]["Bolivia"]
    cut = {**units, "Peru": ["A SMT"]}
    out = crossing(cut, {**orders, "Peru": ["A SMT - HUA"]}, "fails")
    assert out["results"]["A HUA S A AYA - LIM"] == ["cut"]
    assert out["results"]["A AYA - LIM"] == ["bounce"]
    out = crossing(cut, {**orders, "Peru": ["A SMT - HUA"]}, "enters")
    assert out["results"]["A AYA - LIM"] == []


def test_fails_changes_only_crossings_of_the_greater_andes() -> None:
    """An army moving into an empty province over an ordinary border enters under either
    reading (the option reads the Greater Andes' sentence only)."""
    out = crossing({"Peru": ["A ANC"]}, {"Peru": ["A ANC - LIM"]}, "fails")
    assert out["results"] == {"A ANC - LIM": []}


def test_a_game_with_fails_keeps_the_army_home_and_reports_why() -> None:
    """The option set for a game (as `polydip new lad1890 GAME --option
    weak_crossing_into_empty=fails` does): the game path agrees with the contract, and the
    report gives the reason code."""
    g = Game.new("lad1890", {"weak_crossing_into_empty": "fails"})
    m = g.map
    g.position.phase = Phase(1891, "C", "M")
    g.position.units = [Unit(g.power("Bolivia"), m.kind_index["A"], m.loc_of("AYA"))]
    assert g.set_orders("Bolivia", ["A Ayacucho - Lima"]) == []
    g.process()
    assert g.position.units == [Unit(g.power("Bolivia"), m.kind_index["A"], m.loc_of("AYA"))]
    rep = json.loads(format_report(build_report(g, g.history[-1]), "json"))
    shown = {o["order"]: o["reason"] for s in rep["powers"] for o in s["orders"] if o["reason"]}
    assert shown == {"A AYA - LIM": R.WEAK_CROSSING}
    # the default game: the army crosses
    g = Game.new("lad1890")
    g.position.phase = Phase(1891, "C", "M")
    g.position.units = [Unit(g.power("Bolivia"), m.kind_index["A"], m.loc_of("AYA"))]
    g.set_orders("Bolivia", ["A Ayacucho - Lima"])
    g.process()
    assert g.position.units == [Unit(g.power("Bolivia"), m.kind_index["A"], m.loc_of("LIM"))]


def test_the_option_is_refused_where_nothing_reads_it() -> None:
    """A variant without the Greater Andes' rule refuses the option (it would change
    nothing); a value that is not a reading is refused too, naming the readings."""
    out = adjudicate_request({"variant": "standard", "phase": "S1901M", "units": {},
                              "orders": {}, "options": {"weak_crossing_into_empty": "fails"}})
    assert "weak_crossings" in out["error"]
    out = adjudicate_request({"variant": "lad1890", "phase": "C1891M", "units": {},
                              "orders": {}, "options": {"weak_crossing_into_empty": "stays"}})
    assert "'enters', 'fails'" in out["error"]


# ---- 6.B.ii and 7: where a river flotilla may be built --------------------------------------

FLOTILLA_BUILDS = ("A River Flotilla may be built on any Home or Capital Supply Center which "
                   "is a coastal province, island province, or any province which has a river "
                   "bank or lake shore.")
FLOTILLA_STANDS = ("RIVER FLOTILLAS ... MAY NOT OCCUPY ANY COASTAL PROVINCE OR UPLAND PROVINCE "
                   "WHICH DOES NOT HAVE A RIVER COURSING THROUGH IT, OR which DOES NOT BORDER "
                   "A RIVER.")
BRAZIL = {"units": {"Brazil": ["A SAO"]}, "centers": {"Brazil": ["RIO", "REC", "BAH", "SAO"]}}


@pytest.mark.parametrize("option", [None, "rivers"])
def test_a_flotilla_is_built_only_where_it_may_stand_by_default(option) -> None:
    """"A River Flotilla may be built on any Home or Capital Supply Center which is a coastal
    province, island province, or any province which has a river bank or lake shore." against
    "RIVER FLOTILLAS ... MAY NOT OCCUPY ANY COASTAL PROVINCE OR UPLAND PROVINCE WHICH DOES NOT
    HAVE A RIVER COURSING THROUGH IT": by default (flotilla_builds = "rivers") a unit is built
    only where it may stand, so not on Rio de Janeiro, a coastal capital without a river; on
    Recife, a home center a river reaches, it is."""
    extra = {} if option is None else {"options": {"flotilla_builds": option}}
    out = lad.adjudicate(BRAZIL["units"], {"Brazil": ["Build R RIO", "Build R REC"]},
                         phase="D1891A", centers=BRAZIL["centers"], **extra)
    assert out["results"] == {"R RIO B": ["void"], "R REC B": []}
    assert out["reasons"]["R RIO B"]["code"] == R.CANNOT_STAND
    assert out["units"]["Brazil"] == ["A SAO", "R REC"]
    # a fleet may stand on Rio de Janeiro's coast: built there
    out = lad.adjudicate(BRAZIL["units"], {"Brazil": ["Build F RIO"]}, phase="D1891A",
                         centers=BRAZIL["centers"], **extra)
    assert out["results"] == {"F RIO B": []}


def test_the_coastal_reading_is_refused_and_says_why() -> None:
    """The other reading (flotilla_builds = "coastal": built on any coastal home or capital
    center, river or not) would put the flotilla where the map lets none stand: a request or
    a new game asking for it is refused as not supported, naming the two sentences, never
    played as if it were honoured."""
    out = adjudicate_request({"variant": "lad1890", "phase": "D1891A", **BRAZIL,
                              "orders": {"Brazil": ["Build R RIO"]},
                              "options": {"flotilla_builds": "coastal"}})
    assert "not supported" in out["error"]
    assert "MAY NOT OCCUPY ANY COASTAL PROVINCE" in out["error"]
    with pytest.raises(NotSupportedError, match="flotilla_builds = 'coastal'"):
        Game.new("lad1890", {"flotilla_builds": "coastal"})
    with pytest.raises(PolydipError, match="'rivers', 'coastal'"):
        Game.new("lad1890", {"flotilla_builds": "anywhere"})
