"""Latin American Diplomacy 1890: the D Phase is one phase by default (issue 28, item 4).

Seed 001, the calendar: "D: Second Retreat (/Build/Disband) Phase: (December-March)", and
"Or by request from any player the D Phase will be divided [see Rule 8.E above]". Undivided
(the default, a season marked `combined = true`): retreats and builds are ordered together,
and the GM processes D once — the retreats, then at once the builds. Divided (the option
`divided_retreats = true`): D1 (retreats) and D2 (builds) are two phases, as before.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import polydip
from polydip.cli.main import main
from polydip.errors import VariantError
from polydip.game.game import Game
from polydip.game.message import apply_message, read_message
from polydip.variants.loader import load_variant, parse_variant
from polydip.variants.writer import variant_to_toml
from variants.lad1890.test_rules import game_at

# Chile's army in Arequipa is dislodged in a C phase by Peru and retreats in D; in the same
# D, Chile builds in Antofagasta and Peru in Lima (the army it moved out of Lima)
MESSAGE = """Chile:
A Arequipa R Tarapaca
Build A Antofagasta
Peru:
Build A Lima
"""


def dislodged_in_c(divided: bool = False) -> Game:
    """A game at D1891R: Chile's A ARE dislodged by Peru in C1891M (retreat: Tarapacá)."""
    g = game_at("C1891M", {"Chile": ["A ARE", "A STG"], "Peru": ["A LIM", "F NAZ"]})
    if divided:
        g.options["divided_retreats"] = True
    assert g.set_orders("Peru", ["A LIM - ARE", "F NAZ S A LIM - ARE"]) == []
    g.process()
    assert g.phase == "D1891R"
    return g


def units(g: Game, power: str) -> set[str]:
    m = g.map
    return {m.unit_str(u.kind, u.loc) for u in g.position.units if u.power == g.power(power)}


def give(g: Game, text: str) -> list:
    msg = read_message(g.map, g.position, text, combined=g.combined)
    return msg.problems + apply_message(g, msg)


def test_the_rules_text_says_d_is_one_phase_unless_divided() -> None:
    """"D: Second Retreat (/Build/Disband) Phase: (December-March) / Or by request from any
    player the D Phase will be divided [see Rule 8.E above]: / D1: Second Retreat Phase
    (December-January) / D2: Build/Disband Phase (February-March)"."""
    d = next(s for s in load_variant("lad1890").calendar.seasons if s.abbr == "D")
    assert d.combined and d.phases == ("retreats", "adjustments")
    assert not Game.new("lad1890").options["divided_retreats"]


def test_the_standard_game_has_no_combined_season() -> None:
    """(Speed: the standard game never takes the combined path.)"""
    assert not any(s.combined for s in load_variant("standard").calendar.seasons)


def test_one_d_message_with_a_retreat_and_builds_processed_once() -> None:
    """Undivided: the message holding Chile's retreat and both builds is taken whole, and
    one process carries out the retreat, then the builds."""
    g = dislodged_in_c()
    assert give(g, MESSAGE) == []
    assert g.orders[g.power("Chile")] == ["A Arequipa R Tarapaca", "Build A Antofagasta"]
    assert g.orders[g.power("Peru")] == ["Build A Lima"]
    g.process(carry=True)  # once
    assert g.phase == "A1892M"
    assert [r.position.phase.name for r in g.history[-2:]] == ["D1891R", "D1891A"]
    assert units(g, "Chile") == {"A TAR", "A STG", "A ANT"}
    assert units(g, "Peru") == {"A ARE", "F NAZ", "A LIM"}
    # each phase's record holds its own orders
    assert g.history[-2].orders == {g.power("Chile"): ["A Arequipa R Tarapaca"]}
    assert g.history[-1].orders[g.power("Chile")] == ["Build A Antofagasta"]


def test_divided_d_is_two_phases_as_before() -> None:
    """'Or by request from any player the D Phase will be divided': D1 takes only the
    retreats (a build there is of another phase), and D2 is ordered and processed after."""
    g = dislodged_in_c(divided=True)
    assert not g.combined
    problems = give(g, MESSAGE)
    assert [p.code for p in problems] == ["wrong_phase", "wrong_phase"]
    g.process()
    assert g.phase == "D1891A"
    assert give(g, "Chile: Build A Antofagasta\nPeru: Build A Lima") == []
    g.process()
    assert g.phase == "A1892M"
    assert units(g, "Chile") == {"A TAR", "A STG", "A ANT"}


def test_a_kept_build_the_phase_refuses_is_reported() -> None:
    """The builds are checked when the adjustment phase begins (the builds due are known
    once the retreats are done); one that cannot be made is in the report, refused."""
    g = dislodged_in_c()
    assert give(g, "Chile:\nA ARE R TAR\nBuild F Arequipa\nBuild A Concepcion") == []
    out = g.process(carry=True)
    assert out.phase.name == "D1891A"
    assert [(g.map.powers[p], "Build F Arequipa" in why) for p, why in out.errors] == [
        ("Chile", True)]
    assert units(g, "Chile") == {"A TAR", "A STG", "A CON"}


def test_orders_are_read_for_the_phase_they_belong_to() -> None:
    """A disband of the dislodged unit is its retreat order; a removal of a unit on the
    board, a build or a waive is kept for the adjustments; a second build on a site
    replaces the first."""
    g = dislodged_in_c()
    chile = g.power("Chile")
    entry = g.enter_orders(chile, ["A ARE D", "Build A ANT", "Build F ANT", "Waive"])
    assert entry.refused == []
    assert entry.replaced == [("Build A ANT", 2)]
    assert g.orders[chile] == ["A ARE D", "Build F ANT", "Waive"]
    assert g.combined and g.power("Peru") in g.powers_to_order()  # it builds this D
    g.process(carry=True)
    assert units(g, "Chile") == {"A STG", "F ANT"}  # disbanded, then F ANT built
    g2 = dislodged_in_c()
    problems = give(g2, "Peru:\nRemove A Lima\nChile:\nRemove A Lima")
    assert [p.code for p in problems] == ["no_unit", "no_unit"]
    # a canal build (rules/canals.py) is an adjustment too
    assert give(g2, "Colombia: Build Panama Canal") == []
    assert g2.orders[g2.power("Colombia")] == ["Build Panama Canal"]


def test_step_by_step_the_kept_orders_are_the_adjustment_phases() -> None:
    """Processing one phase at a time (programs, the host): after the retreats the
    adjustment phase holds the kept orders, marked to be processed at once."""
    g = dislodged_in_c()
    give(g, MESSAGE)
    g.process()
    assert g.phase == "D1891A" and g.carried
    assert g.orders == {g.power("Chile"): ["Build A Antofagasta"],
                        g.power("Peru"): ["Build A Lima"]}
    g.process()
    assert g.phase == "A1892M" and not g.carried
    assert "A ANT" in units(g, "Chile")


def test_kept_builds_are_void_when_no_adjustment_phase_follows() -> None:
    """Nobody builds or removes after the retreats: there is no adjustment phase, and the
    builds kept are void, said in a note (polydip process prints it)."""
    g = game_at("C1891M", {"Chile": ["A ARE"], "Peru": ["A LIM", "F NAZ"]},
                {"Chile": ["ANT"], "Peru": ["TRU", "CUZ"]})
    g.set_orders("Peru", ["A LIM - ARE", "F NAZ S A LIM - ARE"])
    g.process()
    assert g.set_orders("Chile", ["A ARE R TAR", "Build A ANT"]) == []
    g.process(carry=True)
    assert g.phase == "A1892M" and units(g, "Chile") == {"A TAR"}
    assert len(g.restored) == 1 and "not carried out: Build A ANT" in g.restored[0]


def test_undo_back_to_the_retreats_takes_the_builds_back() -> None:
    g = dislodged_in_c()
    give(g, MESSAGE)
    g.process(carry=True)
    g.undo()
    assert g.phase == "D1891A"
    g.undo()
    assert g.phase == "D1891R" and g.undone == []
    assert g.orders == {g.power("Chile"): ["A Arequipa R Tarapaca", "Build A Antofagasta"],
                        g.power("Peru"): ["Build A Lima"]}
    g.process(carry=True)
    assert g.phase == "A1892M" and "A ANT" in units(g, "Chile")


def test_nobody_dislodged_the_d_phase_is_its_builds() -> None:
    """When nobody is dislodged there is no retreat phase: D is the adjustment phase."""
    g = game_at("C1891M", {"Chile": ["A STG"], "Peru": ["A LIM"]})
    g.process()
    assert g.phase == "D1891A"
    assert give(g, "Chile: Build A Antofagasta") == []
    g.process()
    assert "A ANT" in units(g, "Chile")


def test_combined_is_written_back_to_a_variant_file() -> None:
    again = parse_variant(variant_to_toml(load_variant("lad1890")))
    assert [s.combined for s in again.calendar.seasons] == [False, False, False, True]


def test_combined_only_on_a_retreats_then_adjustments_season() -> None:
    text = (Path(polydip.__file__).parent / "variants" / "data" / "lad1890.toml").read_text(
        encoding="utf-8")
    bad = text.replace('title = "A Phase (March-June)" }',
                       'title = "A Phase (March-June)", combined = true }')
    assert bad != text
    with pytest.raises(VariantError, match="combined"):
        parse_variant(bad)


# ---- the GM path ------------------------------------------------------------------------

def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_gm_orders_show_process_once(tmp_path, capsys) -> None:
    path = str(tmp_path / "game.json")
    dislodged_in_c().save(path)
    msg = tmp_path / "d.txt"
    msg.write_text(MESSAGE)
    code, out, err = run(capsys, "orders", path, "--file", str(msg))
    assert code == 0, err
    assert "build Army Lima (LIM) (after the retreats)" in out
    code, out, _ = run(capsys, "show", path)
    assert "build Army Antofagasta (ANT) (after the retreats)" in out
    code, out, err = run(capsys, "process", path, "--names", "short")
    assert code == 0, err
    assert "D1891R:" in out and "D1891A:" in out  # the report shows both
    assert out.index("A ARE R TAR") < out.index("Build A ANT") < out.index("Build A LIM")
    assert Game.load(path).phase == "A1892M"


def test_gm_process_json_holds_both(tmp_path, capsys) -> None:
    path = str(tmp_path / "game.json")
    g = dislodged_in_c()
    give(g, MESSAGE)
    g.save(path)
    code, out, err = run(capsys, "process", path, "--format", "json")
    assert code == 0, err
    rep = json.loads(out)
    assert rep["phase"] == "D1891A"
    assert [r["phase"] for r in rep["processed_before"]] == ["D1891R"]


def test_gm_divided_option_processes_d1_alone(tmp_path, capsys) -> None:
    path = str(tmp_path / "game.json")
    g = dislodged_in_c(divided=True)
    give(g, "Chile: A ARE R TAR")
    g.save(path)
    code, out, err = run(capsys, "process", path)
    assert code == 0, err
    assert "D1891R:" in out and "D1891A:" not in out.split("Next:")[0]
    assert Game.load(path).phase == "D1891A"
