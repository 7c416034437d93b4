"""Orders checked when they are given (issue 27): builds and removals accumulate across
messages, over-building, two builds on one site and impossible retreats are refused at
entry with their line, and units of one power that share a space (LAD's oceans, War in North
America's Cape Horn) are ordered apart — in turn, or by number ("F Peru Basin #2") — from a
message, the Python API and the one-shot contract, and echoed back unit by unit."""

from __future__ import annotations

import pytest

from polydip.cli.main import main
from polydip.game.game import Game
from polydip.game.message import apply_message, read_message
from polydip.game.positions import build_position
from polydip.oneshot import adjudicate_request
from polydip.report import pending_lines


def game_at(variant: str, position: dict) -> Game:
    g = Game.new(variant)
    g.position = build_position(g.map, position)
    return g


def give(g: Game, text: str, **how: bool):
    """A message given to the game: (problems, notes)."""
    msg = read_message(g.map, g.position, text)
    problems = msg.problems + apply_message(g, msg, **how)
    return problems, msg.notes


def orders_of(g: Game, power: str) -> list[str]:
    return g.orders.get(g.power(power), [])


WINTER = {"phase": "W1901A", "units": {"France": ["A PAR"], "Germany": ["A BUR", "A RUH",
                                                                        "F KIE", "A HOL"]},
          "centers": {"France": ["PAR", "MAR", "BRE", "SPA"], "Germany": ["MUN", "BER", "KIE"]}}


# ---- builds and removals accumulate --------------------------------------------------------

def test_builds_of_two_messages_are_both_kept() -> None:
    """A second build message no longer replaces the earlier builds."""
    g = game_at("standard", WINTER)
    assert give(g, "France: Build A Marseilles") == ([], [])
    assert give(g, "France: Build F Brest") == ([], [])
    assert orders_of(g, "France") == ["Build A Marseilles", "Build F Brest"]
    out = g.process()
    assert sorted(r.text for r in out.results if r.power == g.power("France")) == [
        "A MAR B", "F BRE B"]


def test_a_new_build_on_a_site_replaces_the_one_there() -> None:
    g = game_at("standard", WINTER)
    give(g, "France: Build A Marseilles\nFrance: Build F Brest")
    problems, notes = give(g, "France: Build F Marseilles")
    assert problems == []
    assert orders_of(g, "France") == ["Build F Brest", "Build F Marseilles"]
    assert notes == ["line 1: 'Build F Marseilles' replaces the earlier order "
                     "'Build A Marseilles'"]


def test_building_more_than_due_is_refused_with_its_line() -> None:
    """France has three centers and two units: one build."""
    g = game_at("standard", {"phase": "W1901A", "units": {"France": ["A PAR", "A SPA"]},
                             "centers": {"France": ["PAR", "MAR", "BRE", "SPA"][:3]}})
    problems, _ = give(g, "France\nBuild A Marseilles\nBuild F Brest\n")
    assert [(p.line, p.text) for p in problems] == [(3, "Build F Brest")]
    # (in words for any interface: the host's order box, the command line, the API)
    assert "1 build due" in problems[0].reason and "--replace-all" not in problems[0].reason
    assert "give them all again in one message" in problems[0].suggestion
    assert problems[0].code == "adjustment_refused"
    assert orders_of(g, "France") == ["Build A Marseilles"]
    # in a later message too, and a waive counts as a build
    for more in ("France: Build F Brest", "France: WAIVE"):
        problems, _ = give(g, more)
        assert len(problems) == 1 and orders_of(g, "France") == ["Build A Marseilles"]


def test_two_builds_on_one_site_in_one_message_are_refused() -> None:
    g = game_at("standard", WINTER)
    problems, _ = give(g, "France\nBuild A Marseilles\nBuild F Marseilles\n")
    assert [p.line for p in problems] == [3]
    assert "second build in Marseilles" in problems[0].reason
    assert orders_of(g, "France") == ["Build A Marseilles"]


def test_removals_accumulate_and_a_unit_is_removed_once() -> None:
    g = game_at("standard", {"phase": "W1901A", "units": {"Germany": ["A BUR", "A RUH",
                                                                      "F KIE", "A HOL"]},
                             "centers": {"Germany": ["MUN", "KIE"]}})
    assert give(g, "Germany: Remove A Burgundy")[0] == []
    problems, _ = give(g, "Germany\nRemove A Ruhr\nRemove A Burgundy\nRemove A Holland")
    assert [p.line for p in problems] == [3, 4]  # Burgundy again; a third removal of two
    assert orders_of(g, "Germany") == ["Remove A Burgundy", "Remove A Ruhr"]


def test_replace_all_starts_the_builds_again(tmp_path, capsys) -> None:
    g = game_at("standard", WINTER)
    path = tmp_path / "g.json"
    g.save(path)
    assert main(["orders", str(path), "France", "Build A Marseilles"]) == 0
    assert main(["orders", str(path), "France", "Build F Brest"]) == 0
    assert Game.load(path).orders[g.power("France")] == ["Build A Marseilles", "Build F Brest"]
    assert main(["orders", str(path), "--replace-all", "France", "Build F Marseilles"]) == 0
    assert Game.load(path).orders[g.power("France")] == ["Build F Marseilles"]
    capsys.readouterr()


def test_the_command_line_names_its_own_ways_to_start_again(tmp_path, capsys) -> None:
    """A build beyond those due: the engine's hint is in words for any interface (the
    host's order box too); `polydip orders` names its own options."""
    g = game_at("standard", {"phase": "W1901A", "units": {"France": ["A PAR", "A SPA"]},
                             "centers": {"France": ["PAR", "MAR", "BRE"]}})
    path = tmp_path / "g.json"
    g.save(path)
    assert main(["orders", str(path), "France", "Build A Marseilles", "Build F Brest"]) == 4
    err = capsys.readouterr().err
    assert "argument 3: Build F Brest" in err
    assert "(polydip orders --replace-all, or --clear POWER)" in err


def test_the_python_api_accumulates_builds_and_clears_them() -> None:
    g = game_at("standard", WINTER)
    assert g.set_orders("France", ["Build A Marseilles"]) == []
    assert g.set_orders("France", ["Build F Brest"]) == []
    assert orders_of(g, "France") == ["Build A Marseilles", "Build F Brest"]
    g.clear_orders("France")
    assert g.set_orders("France", ["Build F Brest"]) == []
    assert orders_of(g, "France") == ["Build F Brest"]


# ---- retreats ---------------------------------------------------------------------------

def test_a_retreat_the_unit_cannot_make_is_refused_with_its_line_and_the_places() -> None:
    g = game_at("standard", {"phase": "F1901R", "units": {"England": ["F NTH"],
                                                          "France": ["A PIC", "A RUH"]},
                             "dislodged": {"Germany": [{"unit": "A BEL", "from": "PIC"}]}})
    for where in ("Pic", "Ruhr", "Kiel"):  # the attacker's, occupied, not adjacent
        problems, _ = give(g, f"Germany\nA Bel R {where}\n")
        assert [(p.line, p.code) for p in problems] == [(2, "retreat_refused")]
        assert problems[0].suggestion == "it may retreat to BUR, HOL (or disband)"
        assert orders_of(g, "Germany") == []
    assert give(g, "Germany: A Bel R Hol") == ([], [])
    assert orders_of(g, "Germany") == ["A Bel R Hol"]


def test_a_unit_with_nowhere_to_go_is_told_to_disband() -> None:
    g = game_at("standard", {"phase": "F1901R", "units": {"France": ["A PIC", "A RUH", "A HOL",
                                                                     "F NTH"]},
                             "dislodged": {"Germany": [{"unit": "A BEL", "from": "BUR"}]}})
    [problem] = g.set_orders("Germany", ["A BEL R PIC"])
    assert "nowhere to retreat" in problem


# ---- units that share a space -----------------------------------------------------------

PERU_BASIN = {"phase": "A1891M", "units": {"Chile": ["F PBS"] * 4, "Peru": ["F PBS"]}}
# the orders of the example, one a line, as the rules text writes each of them
CHILE_PERU = """\
Chile:
F Peru Basin AT Peru
F Peru Basin S F Peru Basin AT Peru
F Peru Basin S F Peru Basin AT Peru
F Peru Basin S F Peru Basin AT Peru
Peru: F Peru Basin AT Chile
"""


def test_lad_four_chilean_fleets_in_peru_basin_from_one_message() -> None:
    """"NOTE also that the attacking F does not have to be moving into the space to make
    the attack. Example: Chile: F Peru Basin AT Peru, Supported by: F Peru Basin, F Peru
    Basin, and F Peru Basin. Peru: F Peru Basin AT Chile. Result: Peruvian F Peru Basin must
    disband." (seed 001, 5.F.i). Typed as a GM pastes it, each order goes to its own fleet;
    before, the second line replaced the first and three fleets held."""
    g = game_at("lad1890", PERU_BASIN)
    assert give(g, CHILE_PERU) == ([], [])
    assert pending_lines(g, g.power("Chile"), "short") == [
        "F PBS #1 AT PERU", "F PBS #2 S F PBS AT PERU", "F PBS #3 S F PBS AT PERU",
        "F PBS #4 S F PBS AT PERU"]
    assert pending_lines(g, g.power("Chile"))[1].startswith("Fleet Peru Basin (PBS) #2: ")
    out = g.process()
    assert [(d.power, g.map.unit_str(d.kind, d.loc)) for d in out.destroyed] == [
        (g.power("Peru"), "F PBS")]
    assert [g.map.unit_str(u.kind, u.loc) for u in g.position.units
            if u.power == g.power("Peru")] == []


def test_lad_fleets_in_one_ocean_ordered_apart_by_number() -> None:
    """"there is no limit to how many Fleets may enter an Ocean Province" (seed 001, 5.F.i):
    each of them takes its own order; a number names one, a later message changes only it."""
    g = game_at("lad1890", PERU_BASIN)
    give(g, CHILE_PERU)
    problems, notes = give(g, "Chile: F Peru Basin #2 - East Pacific Rise")
    assert problems == []
    assert notes == ["line 1: 'F Peru Basin #2 - East Pacific Rise' replaces the earlier "
                     "order 'F PBS #2 S F PBS AT PERU'"]
    assert pending_lines(g, g.power("Chile"), "short") == [
        "F PBS #1 AT PERU", "F PBS #3 S F PBS AT PERU", "F PBS #4 S F PBS AT PERU",
        "F PBS #2 - EPR"]
    problems, _ = give(g, "Chile: F Peru Basin #5 H")
    assert "no fleet #5 in Peru Basin (4 there)" in problems[0].reason
    out = g.process()
    chile = sorted(g.map.unit_str(u.kind, u.loc) for u in out.position.units
                   if u.power == g.power("Chile"))
    assert chile == ["F EPR", "F PBS", "F PBS", "F PBS"]


def test_more_orders_than_fleets_in_a_space_are_refused() -> None:
    g = game_at("lad1890", {"phase": "A1891M", "units": {"Chile": ["F PBS"] * 2}})
    problems, _ = give(g, "Chile\nF PBS - EPR\nF PBS H\nF PBS - PTR\n")
    assert [p.line for p in problems] == [4]
    assert "'F PBS #N ...'" in problems[0].suggestion


def test_the_python_api_orders_shared_spaces_apart() -> None:
    g = game_at("lad1890", PERU_BASIN)
    assert g.set_orders("Chile", ["F PBS AT Peru"] + ["F PBS S F PBS AT Peru"] * 3) == []
    assert g.set_orders("Chile", ["F PBS #4 - EPR"]) == []
    assert len(orders_of(g, "Chile")) == 4
    out = g.process()
    assert sorted(g.map.unit_str(u.kind, u.loc) for u in out.position.units
                  if u.power == g.power("Chile")) == ["F EPR", "F PBS", "F PBS", "F PBS"]


def test_the_one_shot_contract_takes_numbers() -> None:
    out = adjudicate_request({"variant": "lad1890", "phase": "A1891M",
                              "units": {"Chile": ["F PBS", "F PBS"]},
                              "orders": {"Chile": ["F PBS #2 - EPR", "F PBS #1 H"]}})
    assert out["errors"] == []
    assert out["units"]["Chile"] == ["F PBS", "F EPR"]


WINA_HORN = {"phase": "S1860M", "units": {"Mexico": ["F CHO", "F CHO", "F GOF"],
                                          "Canada": ["F PAC"]}}


def test_wina_two_fleets_in_cape_horn_leave_it_apart() -> None:
    """"Es gibt kein Limit der einziehenden Flotten" and "Flotten können beim Auszug der
    Flotten in den Atlantik und in der Pazifik unterstützt werden." (no limit on the fleets
    entering Cape Horn; fleets leaving it into the Atlantic and the Pacific may be
    supported; seed 004). Two Mexican fleets in Cape Horn, one to the Atlantic, one to the
    Pacific with support; before, the second line replaced the first."""
    g = game_at("war_in_north_america", WINA_HORN)
    problems, _ = give(g, "Mexico\nF Cape Horn - Atlantik\nF Cape Horn - Pazifik\n"
                          "F GOF S F Cape Horn - Pazifik\n")
    assert problems == []
    assert pending_lines(g, g.power("Mexico"), "short")[:2] == ["F CHO #1 - ATL",
                                                                "F CHO #2 - PAC"]
    out = g.process()
    assert sorted(g.map.unit_str(u.kind, u.loc) for u in out.position.units
                  if u.power == g.power("Mexico")) == ["F ATL", "F GOF", "F PAC"]
    assert [g.map.unit_str(d.kind, d.loc) for d in out.position.dislodged] == ["F PAC"]


@pytest.mark.parametrize("typed", ["F CHO #3 - ATL", "F CHO S F CHO #2 - PAC"])
def test_a_bad_number_is_a_clear_problem(typed: str) -> None:
    g = game_at("war_in_north_america", WINA_HORN)
    problems, _ = give(g, f"Mexico: {typed}")
    assert len(problems) == 1 and problems[0].line == 1
    assert orders_of(g, "Mexico") == []


# ---- undo ---------------------------------------------------------------------------------

def test_undo_twice_keeps_the_orders_of_the_phase_undone_first(tmp_path, capsys) -> None:
    """`polydip undo` twice used to drop the pending orders of the phase undone first: they
    are pending again when processing reaches that phase anew."""
    path = str(tmp_path / "g.json")
    assert main(["new", "standard", path]) == 0
    assert main(["orders", path, "France", "A PAR - BUR", "F BRE - MAO"]) == 0
    assert main(["process", path]) == 0
    assert main(["orders", path, "France", "A BUR H", "F MAO - POR"]) == 0
    assert main(["process", path]) == 0  # F1901M, then Winter adjustments
    assert main(["orders", path, "France", "Build A Paris"]) == 0
    capsys.readouterr()
    assert main(["undo", path]) == 0  # back to F1901M, its orders pending
    assert "The orders pending for W1901A are kept" in capsys.readouterr().out
    assert main(["undo", path]) == 0  # back to S1901M
    g = Game.load(path)
    assert g.phase == "S1901M"
    assert g.orders[g.power("France")] == ["A PAR - BUR", "F BRE - MAO"]
    assert main(["process", path]) == 0
    out = capsys.readouterr().out
    assert "France: 2 orders given for F1901M before the undo pending again" in out
    g = Game.load(path)
    assert g.orders[g.power("France")] == ["A BUR H", "F MAO - POR"]
    assert main(["process", path]) == 0
    g = Game.load(path)
    assert g.phase == "W1901A" and g.orders[g.power("France")] == ["Build A Paris"]
    assert g.undone == []


def test_undone_orders_that_no_longer_fit_are_left_out_and_said() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR"])
    g.process()
    g.set_orders("France", ["A BUR - MUN"])
    g.undo()
    g.set_orders("France", ["A PAR H"])  # changed: there is no army in Burgundy in the fall
    g.process()
    assert g.orders == {}
    assert len(g.restored) == 1 and "left out" in g.restored[0]
    assert "no unit in Burgundy" in g.restored[0]


def test_the_gm_command_echoes_units_sharing_a_space_one_by_one(tmp_path, capsys) -> None:
    """`polydip orders` with the rules text's Peru Basin orders, then `--add` for two fleets
    of another message: each line lands on its own fleet, echoed with its number."""
    g = game_at("lad1890", {"phase": "A1891M", "units": {"Chile": ["F PBS"] * 4,
                                                          "Peru": ["F PBS"] * 2}})
    path = tmp_path / "g.json"
    g.save(path)
    message = tmp_path / "m.txt"
    message.write_text(CHILE_PERU)
    assert main(["orders", str(path), "--file", str(message), "--names", "short"]) == 0
    out = capsys.readouterr().out
    for n, order in enumerate(["AT PERU"] + ["S F PBS AT PERU"] * 3, 1):
        assert f"  F PBS #{n} {order}\n" in out
    assert "Still to order: Peru (F PBS #2)" in out
    assert main(["orders", str(path), "--add", "--names", "short", "Peru",
                 "F Peru Basin - East Pacific Rise", "F Peru Basin - Peru Trench"]) == 0
    out = capsys.readouterr().out
    assert "F PBS #1 - EPR" in out and "F PBS #2 - PTR" in out
    assert Game.load(path).orders[g.power("Peru")][-2:] == ["F PBS #1 - EPR", "F PBS #2 - PTR"]


def test_an_order_sent_again_is_no_replacement_worth_a_note() -> None:
    g = Game.new("standard")
    give(g, "France: A Par - Bur")
    assert give(g, "France: A Par - Bur") == ([], [])
    assert give(g, "France: A Par - Pic")[1] == [
        "line 1: 'A Par - Pic' replaces the earlier order 'A Par - Bur'"]
    assert orders_of(g, "France") == ["A Par - Pic"]


def test_the_rules_texts_one_line_form_of_an_order_and_its_supports() -> None:
    """The LAD rules text writes an order with its supports on one line: "Chile: F Peru
    Basin AT Peru, Supported by: F Peru Basin, F Peru Basin, and F Peru Basin." and
    "Bolivian A Ayacucho to Lima; Supported by A Huanuco and A San Martin." (seed 001, 5.F.i
    and 5.D): each supporter gets its support order, the power named by its adjective."""
    g = game_at("lad1890", {"phase": "A1891M", "units": {
        "Chile": ["F PBS"] * 4, "Peru": ["F PBS", "A LIM", "A ANC"],
        "Bolivia": ["A AYA", "A HUA", "A SMT"]}})
    assert give(g, "Chile: F Peru Basin AT Peru, Supported by: F Peru Basin, F Peru Basin, "
                   "and F Peru Basin.\n"
                   "Bolivian A Ayacucho to Lima; Supported by A Huanuco and A San Martin.\n"
                   "Peruvian A Lima Holds; Supported by A Ancash.\n") == ([], [])
    assert pending_lines(g, g.power("Chile"), "short") == [
        "F PBS #1 AT PERU", "F PBS #2 S F PBS AT PERU", "F PBS #3 S F PBS AT PERU",
        "F PBS #4 S F PBS AT PERU"]
    assert pending_lines(g, g.power("Bolivia"), "short") == [
        "A AYA - LIM", "A HUA S A AYA - LIM", "A SMT S A AYA - LIM"]
    assert pending_lines(g, g.power("Peru"), "short") == ["A LIM H", "A ANC S A LIM"]
    out = g.process()
    # "The attack fails *Conflict of Equal Forces* (2 v 2)" (the Greater Andes: Ayacucho's
    # own strength is zero); "Result: Peruvian F Peru Basin must disband."
    lima = [u for u in out.position.units if g.map.loc_name[u.loc] == "LIM"]
    assert [g.map.powers[u.power] for u in lima] == ["Peru"]
    assert [(g.map.powers[d.power], g.map.unit_str(d.kind, d.loc)) for d in out.destroyed] \
        == [("Peru", "F PBS")]


def test_the_report_numbers_units_sharing_a_space_and_says_why_one_is_destroyed() -> None:
    """The results of four Chilean fleets in one ocean are told apart by number, as their
    orders were; Peru's fleet, beaten 4 v 1, is reported destroyed because "a Fleet that is
    defeated ... by a force 3 or more stronger ... is not allowed to retreat" (seed 001,
    5.F), not as having nowhere to go."""
    from polydip.game.files import game_from_json, game_to_json
    from polydip.report import build_report

    g = game_at("lad1890", PERU_BASIN)
    give(g, CHILE_PERU)
    g.process()
    for game in (g, Game.from_record(game_from_json(game_to_json(g)))):  # also once saved
        rep = build_report(game, game.history[-1])
        chile = next(s for s in rep.powers if s.power == "Chile")
        assert [o.text.split(" S ")[0].split(" AT ")[0] for o in chile.orders] == [
            "F PBS #1", "F PBS #2", "F PBS #3", "F PBS #4"]
        [d] = rep.dislodged
        assert (d.power, d.unit, d.reason) == ("Peru", "F PBS", "routed")


def test_builds_with_no_open_site_are_not_still_owed(tmp_path, capsys) -> None:
    """War in North America, Winter 1859: the United States are due 5 builds and have 3
    open sites (Chicago, Cincinnati, Philadelphia). With those 3 built, "Still to order:
    United States (3 of 5 builds)" asked for builds that cannot be made; the power has
    ordered, and before that the count says how many have no site."""
    g = Game.new("war_in_north_america")
    path = tmp_path / "g.json"
    g.save(path)
    message = tmp_path / "m.txt"
    message.write_text("USA:\nBuild A Chicago\n")
    main(["orders", str(path), "--file", str(message)])
    out = capsys.readouterr().out
    assert "United States (1 of 5 builds; 2 more without an open site)" in out
    message.write_text("USA:\nBuild A Cincinnati\nBuild A Philadelphia\n")
    main(["orders", str(path), "--file", str(message)])
    out = capsys.readouterr().out
    assert "United States (" not in out


def test_an_empty_message_file_is_said_so(tmp_path, capsys) -> None:
    """An empty file (a paste that went wrong) gave status 0 and no word."""
    path = tmp_path / "g.json"
    Game.new("standard").save(path)
    (tmp_path / "m.txt").write_text("\n  \n")
    assert main(["orders", str(path), "--file", str(tmp_path / "m.txt")]) == 1
    assert "m.txt holds no text: no orders read" in capsys.readouterr().err
