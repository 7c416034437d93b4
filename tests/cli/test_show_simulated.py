"""`polydip show`, `render` and `convert` read one game straight out of a simulation
(`--game`)."""

from __future__ import annotations

import pytest

from polydip.cli.main import main
from polydip.simulate import Job, simulate


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sim")
    simulate(Job("standard", {}, 40, 4, "random", 1902, 2), out)
    return out


@pytest.mark.parametrize("where,which", [(".", "42"), (".", "polydip-standard-43"),
                                          ("games-00000.jsonl.gz", "41")])
def test_show_a_game_of_a_simulation(run, capsys, where, which):
    assert main(["show", str(run / where), "--game", which, "--history"]) == 0
    out = capsys.readouterr().out
    assert "S1901M" in out and "F1902M" in out


def test_render_a_past_phase_of_a_simulated_game(run, tmp_path):
    svg = tmp_path / "g.svg"
    assert main(["render", str(run), "--game", "40", "--phase", "F1901M", "-o", str(svg)]) == 0
    assert svg.read_text().startswith("<svg") or "<svg" in svg.read_text()[:500]


def test_a_simulation_without_game_or_with_an_unknown_one_is_a_clear_error(run, capsys):
    assert main(["show", str(run)]) == 1
    assert "choose one with --game" in capsys.readouterr().err
    assert main(["show", str(run), "--game", "7"]) == 1
    assert "no game '7'" in capsys.readouterr().err


@pytest.mark.parametrize("to", ["polydip", "diplomacy"])
def test_convert_a_game_of_a_simulation(run, tmp_path, capsys, to):
    out = tmp_path / "one.json"
    assert main(["convert", str(run), str(out), "--game", "41", "--to", to]) == 0
    assert "5 processed" in capsys.readouterr().out
    assert main(["show", str(out), "--history"]) == 0
    shown = capsys.readouterr().out
    assert main(["show", str(run), "--game", "41", "--history"]) == 0
    assert capsys.readouterr().out == shown  # (the same game, its phases and results)
    assert main(["convert", str(run), str(tmp_path / "x.json")]) == 1
    assert "choose one with --game" in capsys.readouterr().err


def test_a_game_of_a_negative_seed_is_found_by_its_seed(tmp_path, capsys):
    """`simulate --seed -1` names its first game polydip-standard--1; `--game=-1` found
    none (the seed was read as the id's last digits)."""
    simulate(Job("standard", {}, -1, 2, "random", 1901, 2), tmp_path)
    for which in ("-1", "polydip-standard--1", "0"):
        assert main(["show", str(tmp_path), "--game", which]) == 0, which
    assert main(["show", str(tmp_path), "--game", "1"]) == 1
    assert "no game '1'" in capsys.readouterr().err
