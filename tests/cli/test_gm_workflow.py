"""The game master's workflow, end to end through the `polydip` command (issue 5): a pasted
message of typed orders in, the adjudication report and a map picture out; the history,
drawing a past phase, undoing a phase; the demo's final map."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from polydip.cli.main import main

MESSAGE = """\
Hi GM, here are the orders for Spring 1901:

England:
F London - North Sea
F Edinburgh - Norwegian Sea
A Liverpool -> Yorkshire

FRANCE
A Par - Bur
A mar s a par-bur
F Brest - Mid-Atlantic

Germany: A Munich - Burgundy
Germany: F Kiel - Holland
Germany: A Berlin - Kiel

Italy: A Ven - Tyrolia; A Rome - Apulia; F Naples - Ionian
Austria
A Vienna - Galicia
A Budapest - Serbia
F Trieste - Albania
Russia
A Warsaw - Galicia
A Moscow - Ukraine
F Sevastopol - Black Sea
F StP/sc - Gulf of Bothnia
Turkey
F Ankara - Black Sea
A Constantinople - Bulgaria
A Smyrna - Armenia
A Smyrna - Burgandy

Cheers, the players
"""

MOVES = ["F LON - NTH", "F EDI - NWG", "A LVP - YOR", "A PAR - BUR", "F BRE - MAO",
         "A MUN - BUR", "F KIE - HOL", "A BER - KIE", "A VEN - TYR", "A ROM - APU",
         "F NAP - ION", "A VIE - GAL", "A BUD - SER", "F TRI - ALB", "A WAR - GAL",
         "A MOS - UKR", "F SEV - BLA", "F STP/SC - BOT", "F ANK - BLA", "A CON - BUL",
         "A SMY - ARM"]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_whole_phase_typed_orders_report_and_render(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    assert run(capsys, "new", "standard", game)[0] == 0
    msg = tmp_path / "orders.txt"
    msg.write_text(MESSAGE)

    # 1. orders from a message: unreadable lines reported with line, reason and suggestion
    code, out, err = run(capsys, "orders", game, "--file", str(msg))
    assert code == 4  # a line was not taken ... (EXIT_NOT_TAKEN)
    assert "line 31: A Smyrna - Burgandy" in err and "did you mean Burgundy?" in err
    assert "1 line(s) not taken" in err  # the greeting and the signature are no errors:
    assert "Ignored 2 lines that are not orders (lines 1, 33)." in out  # (issue 8)
    assert "England, Spring 1901 Movement (S1901M): 3 orders" in out  # ... and every order
    assert "Turkey, Spring 1901 Movement (S1901M): 3 orders" in out  # read was kept
    assert "Every power has ordered" in out
    saved = json.loads((tmp_path / "game.json").read_text())
    assert sum(len(v) for v in saved["current"]["orders"].values()) == 22

    # orders can be replaced until the phase is processed
    code, out, _ = run(capsys, "orders", game, "Germany: A Munich - Ruhr")
    assert code == 0 and "  A MUN - RUH\n" in out and "  A MUN - BUR\n" not in out
    # ... and the confirmation says so (issue 8)
    assert "'A Munich - Ruhr' replaces the earlier order 'A Munich - Burgundy'" in out
    code, out, _ = run(capsys, "orders", game, "Germany: A Munich - Burgundy")
    assert "  A MUN - BUR\n" in out and "  A MUN - RUH\n" not in out

    # 2. the adjudication report
    code, out, _ = run(capsys, "process", game)
    assert code == 0
    report = out
    assert report.startswith("S1901M: Spring 1901 Movement\n")
    for line in ("  France:\n", "    A PAR - BUR\n", "    A MAR S A PAR - BUR\n",
                 "    A MUN - BUR  (bounced) — ", "    A VIE - GAL  (bounced) — ",
                 "    A WAR - GAL  (bounced) — ", "    F SEV - BLA  (bounced) — ",
                 "    F ANK - BLA  (bounced) — ", "    F STP/SC - BOT\n"):
        assert line in report, line  # (each failure followed by its reason's words)
    assert report.rstrip().endswith("Next: Fall 1901 Movement (F1901M)")

    # 3. the map of the processed phase: every unit, every order's arrow, failures marked
    svg_path = tmp_path / "s1901m.svg"
    code, out, _ = run(capsys, "render", game, "--phase", "S1901M", "-o", str(svg_path))
    assert code == 0 and str(svg_path) in out
    svg = svg_path.read_text()
    units = re.findall(r'<g class="unit[^"]*" data-unit="([^"]*)"', svg)
    assert sorted(units) == sorted(["F LON", "F EDI", "A LVP", "F BRE", "A PAR", "A MAR",
                                    "F KIE", "A BER", "A MUN", "F NAP", "A ROM", "A VEN",
                                    "A VIE", "A BUD", "F TRI", "A WAR", "A MOS", "F SEV",
                                    "F STP/SC", "F ANK", "A CON", "A SMY"])
    drawn = {text: cls for cls, text in re.findall(
        r'<g class="order ([a-z ]+)" data-order="([^"]*)"', svg)}
    for move in MOVES:
        assert move in drawn, move
        failed = move in ("A MUN - BUR", "A VIE - GAL", "A WAR - GAL", "F SEV - BLA",
                          "F ANK - BLA")
        assert drawn[move] == ("move failed" if failed else "move"), move
    assert drawn["A MAR S A PAR - BUR"] == "support"
    assert svg.count("<path ") >= 2 * len(MOVES)  # each arrow: an outline and a shaft

    # the current position (default) as PNG, at 1600 px
    if _has_cairosvg():
        png = tmp_path / "now.png"
        code, out, _ = run(capsys, "render", game, "-o", str(png))
        assert code == 0 and "F1901M" in out
        assert int.from_bytes(png.read_bytes()[16:20], "big") == 1600

    # 4. history and undo
    code, out, _ = run(capsys, "show", game, "--history")
    assert "1. S1901M" in out and "now F1901M" in out
    code, out, _ = run(capsys, "show", game, "--phase", "S1901M", "--format", "markdown")
    assert "- `A MUN - BUR` — *bounced*" in out
    code, out, _ = run(capsys, "undo", game)
    assert code == 0 and "back to Spring 1901 Movement (S1901M)" in out
    code, out, _ = run(capsys, "show", game, "--history")
    assert "S1901M" in out.splitlines()[-1] and "22 pending orders" in out
    code, _, err = run(capsys, "undo", game)
    assert code == 1 and "nothing to undo" in err
    code, out, _ = run(capsys, "process", game, "--format", "json")
    data = json.loads(out)
    assert data["phase"] == "S1901M" and data["next_phase"] == "F1901M"


def test_orders_for_one_power_as_arguments(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "new", "standard", game)
    code, out, _err = run(capsys, "orders", game, "France", "A PAR - BUR", "A Mar - Spa")
    assert code == 0 and "France, Spring 1901 Movement (S1901M): 2 orders" in out
    assert "Still to order: " in out and "France (F BRE)" in out
    _code, out, _err = run(capsys, "orders", game, "--clear", "France")
    assert "France, Spring 1901 Movement (S1901M): 0 orders" in out


def test_render_errors_are_messages(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "new", "standard", game)
    code, _, err = run(capsys, "render", game, "--phase", "F1903M", "-o",
                       str(tmp_path / "x.svg"))
    assert code == 1 and "no phase F1903M" in err
    code, _, err = run(capsys, "render", game, "-o", str(tmp_path / "x.jpg"))
    assert code == 1 and ".svg or .png" in err
    assert not (tmp_path / "x.jpg").exists()


@pytest.mark.slow
def test_demo_writes_the_final_map(tmp_path) -> None:
    target = tmp_path / "demo.svg"
    res = subprocess.run([sys.executable, "-m", "polydip.cli.main", "demo", "--years", "1",
                          "--map", str(target)], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert f"The final map (Spring 1902 Movement (S1902M)) is in {target}" in res.stdout
    assert target.read_text().startswith("<svg")


def _has_cairosvg() -> bool:
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True
