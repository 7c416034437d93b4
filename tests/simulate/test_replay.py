"""`polydip replay` and the simulation's default readings: games written in the diplomacy
package's format replay there, and those that cannot are named with the package's bug."""

from __future__ import annotations

import json

import pytest

from polydip.cli.main import main
from polydip.game.dipjson import game_to_diplomacy
from polydip.game.game import Game
from polydip.simulate import Job, simulate
from polydip.simulate.replay import KNOWN_BUGS, replay

pytest.importorskip("diplomacy")


def _played(turns: list[dict[str, list[str]]], options: dict | None = None) -> dict:
    g = Game.new("standard", options or {}, name="replay-test")
    for orders in turns:
        for power, lines in orders.items():
            g.set_orders(power, lines)
        g.process()
    return game_to_diplomacy(g, stamp=0)


# Turkey convoys Bulgaria's army into Sevastopol, helped by a Russian support: DATC 6.D.12,
# "a unit cannot be dislodged by a support of its own power", so the attack fails; the
# package dislodges the fleet when the move is marked VIA.
OWN_SUPPORT = [
    {"TURKEY": ["F ANK - BLA", "A CON - BUL"], "RUSSIA": ["A MOS - UKR", "F SEV H"]},
    {"TURKEY": ["F BLA C A BUL - SEV", "A BUL - SEV VIA"],
     "RUSSIA": ["A UKR S A BUL - SEV", "F SEV H"]},
]


def test_a_game_that_replays_is_reported_the_same():
    saved = _played(OWN_SUPPORT[:1] + [{"TURKEY": ["A BUL - RUM"]}])
    r = replay(saved)
    assert r.same and r.phases == 3 and r.cause is None


def test_the_package_own_support_bug_is_named():
    saved = _played(OWN_SUPPORT)
    r = replay(saved)
    assert not r.same
    assert r.diverged == "F1901M" and r.package_phase == "F1901R" and r.saved_phase == "W1901A"
    assert r.differences["RUSSIA"] == (["*F SEV"], ["F SEV"])
    assert r.cause == "via_own_support" and "via_own_support" in KNOWN_BUGS


def test_without_via_the_package_agrees():
    turns = [OWN_SUPPORT[0], {**OWN_SUPPORT[1], "TURKEY": ["F BLA C A BUL - SEV",
                                                          "A BUL - SEV"]}]
    assert replay(_played(turns)).same


def test_a_difference_nobody_explained_fails_the_command(tmp_path, capsys):
    saved = _played(OWN_SUPPORT)
    saved["phases"][1]["orders"]["RUSSIA"] = ["A UKR - GAL", "F SEV H"]  # not a known bug
    (tmp_path / "g.json").write_text(json.dumps(saved))
    assert main(["replay", str(tmp_path / "g.json")]) == 5
    err = capsys.readouterr()
    assert "not explained" in err.out and "0 replay" in err.err


def test_simulate_writes_the_package_reading_by_default_and_keeps_a_chosen_one(tmp_path):
    m = simulate(Job("standard", {}, 0, 1, "random", 1901, 1), tmp_path / "a")
    assert m["options"] == {"adjacent_convoy": "fallback"}
    m = simulate(Job("standard", {"adjacent_convoy": "2023"}, 0, 1, "random", 1901, 1),
                 tmp_path / "b")
    assert m["options"] == {"adjacent_convoy": "2023"}


def test_replay_command_on_a_simulation_directory(tmp_path, capsys):
    simulate(Job("standard", {}, 5, 2, "random", 1903, 2), tmp_path)
    assert main(["replay", str(tmp_path), "--all"]) == 0
    out = capsys.readouterr()
    assert out.out.count("replays") == 2 and "2 games: 2 replay" in out.err


@pytest.mark.parametrize("bad", ["missing", "notjson", "notgame"])
def test_bad_input_is_a_clear_error(tmp_path, capsys, bad):
    p = tmp_path / "x.json"
    if bad == "notjson":
        p.write_text("{")
    elif bad == "notgame":
        p.write_text("[1]")
    assert main(["replay", str(p)]) == 1
    assert "polydip: error:" in capsys.readouterr().err


def test_a_variant_the_package_has_no_map_of_is_said_so(tmp_path, capsys):
    """The package makes an empty map of a name it does not know, and every game then
    'differed' at its first phase, reported as a difference to report to polydip."""
    simulate(Job("wita", {}, 1, 1, "random", 1846, 1), tmp_path)
    assert main(["replay", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "the diplomacy package has no map 'wita'" in err and "please report" not in err


def test_a_game_that_differs_at_its_first_phase_says_so():
    saved = _played(OWN_SUPPORT)
    saved["phases"][0]["state"]["units"]["FRANCE"] = ["A PAR"]  # not the package's start
    r = replay(saved)
    assert not r.same and r.phases == 0
    assert "differs from the start (S1901M)" in r.describe()
