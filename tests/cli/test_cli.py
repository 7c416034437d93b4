"""The polydip command: what a game master types, and what tools pipe through it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from polydip.cli.main import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_help_lists_every_command(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for cmd in ("adjudicate", "demo", "new", "orders", "process", "show", "variant"):
        assert cmd in out


def test_a_phase_from_new_to_process(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    code, out, _ = run(capsys, "new", "standard", game)
    assert code == 0 and "S1901M" in out
    code, out, err = run(capsys, "orders", game, "France", "A PAR - BUR", "A MAR S A PAR - BUR")
    assert code == 0 and "A PAR - BUR" in out
    code, out, err = run(capsys, "orders", game, "germany", "A Munich -> Burgundy",
                         "A Warsaw - Silesia")
    assert code == 4  # one order refused, the other kept (EXIT_NOT_TAKEN)
    assert "belongs to Russia" in err
    # what was understood is echoed back, in the standard notation on the standard map
    assert "A MUN - BUR" in out and "Warsaw" not in out
    code, out, _ = run(capsys, "process", game)
    assert code == 0
    assert "A MUN - BUR  (bounced)" in out  # the GM's word (issue 5)
    assert "Next: Fall 1901 Movement (F1901M)" in out
    code, out, _ = run(capsys, "show", game)
    assert "France (3 centers, 3 units): F BRE, A MAR, A BUR" in out
    code, out, _ = run(capsys, "show", game, "--phase", "S1901M")
    assert "A PAR - BUR" in out


def test_orders_from_a_file(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "new", "standard", game)
    orders = tmp_path / "orders.txt"
    orders.write_text("# England\nF LON - ENG\n\nF EDI - NTH\nA LVP - YOR\n")
    code, out, _ = run(capsys, "orders", game, "England", "--file", str(orders))
    assert code == 0 and "England, Spring 1901 Movement (S1901M): 3 orders" in out
    # the comment and the blank line are skipped; the three orders are kept for England
    from polydip.game.game import Game

    g = Game.load(game)
    assert g.orders == {g.power("England"): ["F LON - ENG", "F EDI - NTH", "A LVP - YOR"]}
    code, out, _ = run(capsys, "process", game)
    assert code == 0
    g = Game.load(game)
    assert {g.map.unit_str(u.kind, u.loc) for u in g.position.units
            if u.power == g.power("England")} == {"F ENG", "F NTH", "A YOR"}


def test_new_refuses_to_overwrite(tmp_path, capsys) -> None:
    game = str(tmp_path / "game.json")
    run(capsys, "new", "standard", game)
    code, _, err = run(capsys, "new", "standard", game)
    assert code == 1 and "--force" in err


def test_errors_are_messages_not_tracebacks(tmp_path, capsys) -> None:
    code, _, err = run(capsys, "show", str(tmp_path / "missing.json"))
    assert code == 1 and "no such game file" in err
    code, _, err = run(capsys, "new", "standrad", str(tmp_path / "x.json"))
    assert code == 1 and "did you mean standard" in err
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    code, _, err = run(capsys, "process", str(bad))
    assert code == 1 and "not valid JSON" in err


def test_adjudicate_json_lines_goes_on_after_a_bad_line(tmp_path, capsys) -> None:
    req = tmp_path / "req.jsonl"
    good = {"variant": "standard", "phase": "S1901M",
            "units": {"France": ["A PAR"], "Germany": ["A MUN"]},
            "orders": {"France": ["A PAR - BUR"], "Germany": ["A MUN - BUR"]}}
    req.write_text("\n".join([json.dumps(good), "{oops", json.dumps({"units": 3}),
                              json.dumps(good)]) + "\n")
    code, out, _ = run(capsys, "adjudicate", str(req))
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) == 4
    assert lines[0]["results"] == {"A PAR - BUR": ["bounce"], "A MUN - BUR": ["bounce"]}
    assert lines[0]["contested"] == ["BUR"]
    assert "error" in lines[1] and "error" in lines[2]
    assert lines[3] == lines[0]
    assert code == 1


def test_adjudicate_retreat_request_with_contested_and_convoyed() -> None:
    from polydip.oneshot import adjudicate_request

    out = adjudicate_request({
        "phase": "F1901R",
        "units": {"England": ["A BEL", "F NTH"], "France": ["A PIC"]},
        "dislodged": {"Germany": [{"unit": "A HOL", "from": "BEL", "convoyed": True}]},
        "contested": ["RUH"],
        "orders": {"Germany": ["A HOL R BEL"]},
    })
    assert out["errors"] == []
    assert out["results"] == {"A HOL R BEL": ["void", "disband"]}  # occupied
    out = adjudicate_request({
        "phase": "F1901R",
        "units": {"England": ["F NTH"]},
        "dislodged": {"Germany": [{"unit": "A HOL", "from": "BEL", "convoyed": True}]},
        "contested": ["RUH"],
        "orders": {"Germany": ["A HOL R BEL"]},
    })
    assert out["units"]["Germany"] == ["A BEL"]  # may retreat to a convoyed attacker's origin


def test_adjudicate_reports_dislodged_with_retreats() -> None:
    from polydip.oneshot import adjudicate_request

    out = adjudicate_request({
        "phase": "S1901M",
        "units": {"Russia": ["F STP/SC", "F BOT"], "Germany": ["F FIN"]},
        "orders": {"Russia": ["F STP/SC - FIN", "F BOT S F STP/SC - FIN"]},
    })
    assert sorted(out["units"]["Russia"]) == ["F BOT", "F FIN"]
    assert out["dislodged"] == {"Germany": [{"unit": "F FIN", "from": "STP",
                                             "retreats": ["SWE"]}]}
    assert out["next_phase"] == "S1901R"


def test_variant_show_json(capsys) -> None:
    _code, out, _ = run(capsys, "variant", "show", "standard", "--json")
    info = json.loads(out)
    assert len(info["provinces"]) == 75
    assert sum(p["supply_center"] for p in info["provinces"]) == 34
    stp = next(p for p in info["provinces"] if p["abbr"] == "STP")
    assert stp["coasts"] == ["NC", "SC"] and stp["army"] and stp["fleet"]
    mos = next(p for p in info["provinces"] if p["abbr"] == "MOS")
    assert mos["army"] and not mos["fleet"]
    nth = next(p for p in info["provinces"] if p["abbr"] == "NTH")
    assert nth["fleet"] and not nth["army"]
    assert info["units"]["Russia"] == ["A WAR", "A MOS", "F SEV", "F STP/SC"]
    assert info["victory"]["centers"] == 18


def test_variant_check_reports_problems_with_lines(tmp_path, capsys) -> None:
    code, out, _ = run(capsys, "variant", "check", "standard")
    assert code == 0 and "OK" in out
    bad = tmp_path / "bad.toml"
    bad.write_text("""
[variant]
name = "tiny"

[[powers]]
name = "Red"
homes = ["AAA"]
units = ["F AAA", "A ZZZ"]

[provinces.AAA]
name = "Alpha"
terrain = "land"
supply_center = true

[provinces.BBB]
name = "Beta"
terrain = "coast"
aliases = ["Alpha"]

[edges]
land = ["AAA-BBB", "BBB-AAA", "AAA-CCC"]
""")
    code, out, _ = run(capsys, "variant", "check", str(bad))
    assert code == 1
    assert "unknown place 'CCC'" in out
    assert "listed 2 times" in out
    assert "'Alpha' is also used by" in out
    assert "cannot stand" in out  # F AAA on land
    assert "line " in out


def test_demo_runs_as_installed_command(tmp_path) -> None:
    res = subprocess.run([sys.executable, "-m", "polydip.cli.main", "demo", "--years", "1"],
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "S1901M:" in res.stdout and "F1901M:" in res.stdout


def test_a_builtin_name_is_not_confused_with_a_folder(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "standard").mkdir()
    code, out, _ = run(capsys, "new", "standard", "g.json")
    assert code == 0 and "Diplomacy" in out


def test_variant_import_writes_a_checked_toml(tmp_path, capsys) -> None:
    from pathlib import Path

    src = Path(__file__).parents[1] / "data" / "importers" / "tiny.map"
    out = tmp_path / "tiny.toml"
    code, text, _ = run(capsys, "variant", "import", str(src), "-o", str(out))
    assert code == 0 and "wrote" in text
    code, text, _ = run(capsys, "variant", "check", str(out))
    assert code == 0 and "OK" in text
    code, _, _ = run(capsys, "variant", "check", str(src))  # and directly by path
    assert code == 0


@pytest.mark.parametrize("req", [
    {"contested": True}, {"contested": -3}, {"units": {"France": "A PAR"}},
    {"orders": {"France": [1]}}, {"dislodged": {"France": [{"unit": "A PAR", "from": []}]}},
    {"phase": "S1901X"}, {"options": {"convoy_paradox": "1999"}}, {"variant": 5}, [],
    {"centers": {"France": ["NTH"]}}, {"extra": "x"}, {"id": 7, "units": {"Frnace": []}},
])
def test_malformed_requests_get_an_error_line_not_a_crash(req) -> None:
    from polydip.oneshot import adjudicate_request

    out = adjudicate_request(req)
    assert set(out) <= {"error", "id"} and out["error"]
    assert not out["error"].startswith("internal error")


def test_show_legal_lists_each_powers_orders_under_its_name(tmp_path, capsys) -> None:
    """`polydip show --legal`: a GM finds a power's orders under its name, one unit a line
    (wrapped between whole orders), and every order listed is one `polydip orders` takes."""
    game = tmp_path / "g.json"
    assert run(capsys, "new", "standard", str(game))[0] == 0
    code, out, _ = run(capsys, "show", str(game), "--legal")
    assert code == 0
    listing = out.split("Legal orders (S1901M)")[1].splitlines()[1:]
    assert listing[0] == "  Austria:"
    powers = [line.strip(" :") for line in listing if line.startswith("  ") and
              not line.startswith("    ")]
    assert powers == ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    france = listing[listing.index("  France:") + 1:listing.index("  Germany:")]
    orders = [o.strip() for line in france for o in line.split(": ", 1)[-1].split(",")
              if o.strip()]
    assert "F BRE - MAO" in orders and "A PAR S A MAR - BUR" in orders
    assert all(len(line) <= 100 for line in listing)
    code, out, err = run(capsys, "orders", str(game), "France", *orders[:40])
    assert code == 0 and "not taken" not in out + err


def test_new_takes_the_options_as_its_help_writes_them(tmp_path, capsys) -> None:
    """`--option convoy_paradox=1982` (the help's own example) is the option's value "1982",
    not the number 1982; a number stays a number where the option takes one."""
    from polydip.options import parse_options

    code, _out, err = run(capsys, "new", "standard", str(tmp_path / "g.json"),
                          "--option", "convoy_paradox=1982")
    assert code == 0, err
    saved = json.loads((tmp_path / "g.json").read_text())
    assert saved["options"]["convoy_paradox"] == "1982"
    assert parse_options(["retreat_to_convoy_origin=false"]) == {
        "retreat_to_convoy_origin": False}


def test_orders_exits_4_when_a_line_was_not_taken_and_keeps_the_others(tmp_path,
                                                                       capsys) -> None:
    """Issue 27: a line that starts like an order is read or reported with its code, and
    `polydip orders` exits with its own status (4) so a GM's script notices; the orders
    read are kept."""
    game = str(tmp_path / "game.json")
    run(capsys, "new", "wita", game)
    msg = tmp_path / "msg.txt"
    msg.write_text("Hi GM\nBrazil\nA MGE-PAR\nA XYZ - ABC\nF bah-mao\nObrigado, Pedro\n")
    code, out, err = run(capsys, "orders", game, "--file", str(msg))
    assert code == 4
    assert "line 4: A XYZ - ABC" in err and "[unknown_place]" in err
    assert "Ignored 2 lines that are not orders (lines 1, 6)." in out
    from polydip.game.game import Game

    g = Game.load(game)
    assert g.orders[g.power("Brazil")] == ["A MGE-PAR", "F bah-mao"]
    code, _out, _err = run(capsys, "orders", game, "Brazil", "A MGE - PAR")
    assert code == 0


def test_orders_given_as_arguments_are_numbered_as_arguments(tmp_path, capsys) -> None:
    """A GM's trial: `polydip orders game.json France 'A PAR - BUR' 'A MAR - Spian'` said
    "line 3" for the misspelled order, a line of no message the GM wrote. Arguments are
    counted as arguments, from the first after the game file."""
    game = str(tmp_path / "game.json")
    run(capsys, "new", "standard", game)
    code, out, err = run(capsys, "orders", game, "France", "A PAR - BUR", "A MAR - Spian",
                         "Thanks")
    assert code == 4
    assert "1 argument(s) not taken:" in err
    assert "argument 3: A MAR - Spian" in err and "did you mean Spain?" in err
    assert "Ignored 1 argument that is not orders (argument 4)." in out
    run(capsys, "orders", game, "France", "A PAR - PIC")  # (a note numbers arguments too)
    code, out, _ = run(capsys, "orders", game, "France", "A Par - Bur", "A Par - Gas")
    assert "note: argument 3: 'A Par - Gas' replaces argument 2: 'A Par - Bur'" in out
