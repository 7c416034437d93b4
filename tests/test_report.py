"""The adjudication report (issue 5, part 2): per power each order with its result in the
words GMs use, the dislodged units with their retreat options, center changes, builds or
removals due, and the next phase; as text, Markdown or JSON."""

from __future__ import annotations

import json

import pytest

from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.game.positions import build_position
from polydip.report import build_report, format_report, gm_words, history_lines


def _game(req: dict) -> Game:
    g = Game.new("standard")
    g.position = build_position(g.map, req)
    return g


def test_gm_words() -> None:
    assert gm_words("M", ["bounce"]) == ["bounced"]
    assert gm_words("M", ["cut", "dislodged"]) == ["cut", "dislodged"]
    assert gm_words("M", ["no convoy"]) == ["no convoy"]
    assert gm_words("M", ["void"]) == ["void"]
    assert gm_words("M", ["disrupted"]) == ["disrupted"]
    # a dislodged unit that did not retreat (no order, or no place to go) is destroyed
    assert gm_words("R", ["disband"], "A PAR D", ordered=False) == ["destroyed"]
    assert gm_words("R", ["bounce", "disband"], "A PAR R BUR") == ["bounced", "destroyed"]
    assert gm_words("R", ["disband"], "A PAR D", ordered=True) == []  # as ordered
    assert gm_words("A", ["civil disorder"]) == ["removed in civil disorder"]


def test_movement_report_in_text() -> None:
    g = _game({"phase": "F1901M",
               "units": {"Germany": ["A MUN", "A RUH", "A KIE"],
                         "France": ["A BUR", "A PAR", "A MAR", "A GAS"],
                         "England": ["A LON", "F NTH"], "Italy": ["A TYR"]},
               "centers": {"Germany": ["MUN", "KIE", "BER"], "France": ["PAR", "MAR", "BRE"]}})
    g.set_orders("Germany", ["A MUN - BUR", "A RUH S A MUN - BUR", "A KIE - HOL"])
    g.set_orders("France", ["A BUR H", "A PAR S A BUR", "A MAR - PIE", "A GAS - BRE"])
    g.set_orders("England", ["A LON - BEL VIA"])
    g.set_orders("Italy", ["A TYR - PIE"])
    rec_out = g.process()
    assert rec_out.position.dislodged == []  # 2 vs 2: no dislodgement
    text = format_report(build_report(g, g.history[-1]), "text")
    assert text.startswith("F1901M: Fall 1901 Movement\n")
    assert "    A MUN - BUR  (bounced)" in text
    assert "    A MAR - PIE  (bounced)" in text
    assert "    A TYR - PIE  (bounced)" in text
    assert "    A LON - BEL VIA  (no convoy)" in text
    assert "    A KIE - HOL\n" in text
    assert "Center changes:\n    HOL: neutral → Germany" in text
    assert "Germany: 4 centers, 3 units — builds 1" in text
    assert "France: 3 centers, 4 units — removes 1" in text
    assert "    F NTH H  (no order)" in text
    assert text.endswith("Next: Winter 1901 Adjustments (W1901A)")


def test_dislodged_units_with_their_retreats_and_destroyed() -> None:
    g = _game({"phase": "S1901M",
               "units": {"Germany": ["A MUN", "A RUH", "A BOH"],
                         "France": ["A BUR", "A PAR", "A MAR", "A GAS", "A PIC", "A BEL"],
                         "Austria": ["A TYR", "A SIL"]},
               "centers": {}})
    g.set_orders("Germany", ["A MUN - BUR", "A RUH S A MUN - BUR", "A BOH - TYR"])
    g.set_orders("Austria", ["A SIL - MUN"])
    g.process()
    rep = build_report(g, g.history[-1])
    assert [(d.unit, d.retreats) for d in rep.dislodged] == [("A BUR", [])]
    text = format_report(rep, "text")
    assert "    A BUR H  (dislodged, no order)" in text
    assert "    France A BUR (attacked from MUN): no retreat: destroyed" in text
    assert "    A SIL - MUN\n" in text  # into the province the attacker left
    # nowhere to retreat: destroyed at once, no retreat phase (issue 17)
    assert "Next: Fall 1901 Movement (F1901M)" in text
    france = g.power("France")
    assert not [u for u in g.position.units
                if u.power == france and g.map.loc_name[u.loc] == "BUR"]
    # with keep_empty_retreats the phase is kept; an unordered unit is destroyed there
    g = _game({"phase": "S1901M",
               "units": {"Germany": ["A MUN", "A RUH", "A BOH"],
                         "France": ["A BUR", "A PAR", "A MAR", "A GAS", "A PIC", "A BEL"],
                         "Austria": ["A TYR", "A SIL"]},
               "centers": {}})
    g.options["keep_empty_retreats"] = True
    g.set_orders("Germany", ["A MUN - BUR", "A RUH S A MUN - BUR", "A BOH - TYR"])
    g.set_orders("Austria", ["A SIL - MUN"])
    g.process()
    assert g.phase == "S1901R"
    g.process()  # nobody orders the retreat: the unit is destroyed
    text = format_report(build_report(g, g.history[-1]), "text")
    assert "    Disband A BUR  (destroyed, no order)" in text


def test_markdown_and_json() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR"])
    g.set_orders("Germany", ["A MUN - BUR"])
    g.process()
    rep = build_report(g, g.history[-1])
    md = format_report(rep, "markdown")
    assert md.startswith("### Spring 1901 Movement (S1901M)")
    assert "- `A PAR - BUR` — *bounced*" in md
    assert "**Next:** Fall 1901 Movement (F1901M)" in md
    data = json.loads(format_report(rep, "json"))
    france = next(p for p in data["powers"] if p["power"] == "France")
    line = next(o for o in france["orders"] if o["order"] == "A PAR - BUR")
    assert line["result"] == ["bounce"] and line["words"] == ["bounced"]
    assert data["next_phase"] == "F1901M" and data["phase"] == "S1901M"
    with pytest.raises(PolydipError, match="unknown report format"):
        format_report(rep, "html")


def test_history_lines() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR"])
    g.set_orders("Germany", ["A MUN - BUR"])
    g.process()
    lines = history_lines(g)
    assert "S1901M" in lines[0] and "2 orders; 2 failed" in lines[0]
    assert lines[-1].split()[:2] == ["now", "F1901M"]
