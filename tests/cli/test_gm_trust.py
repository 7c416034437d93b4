"""A game master can trust every command (issue 8): nothing is processed by mistake, no
order is lost under concurrency, reports use names players read, names are read the way
players type them, adjustments are said right, variant files never crash the checker, and
the small things a first-time user hits work.

Most tests play War in the Americas (176 provinces, ten powers), where these traps were met.
"""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from polydip.check import check_variant
from polydip.cli.main import build_parser, main
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.game.message import read_message
from polydip.oneshot import adjudicate_request
from polydip.orders.parser import parse_order
from polydip.variants.loader import builtin_names, parse_variant


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def wita(tmp_path, capsys) -> str:
    game = str(tmp_path / "wita.json")
    assert run(capsys, "new", "wita", game)[0] == 0
    return game


def phase_of(game: str) -> str:
    return Game.load(game).phase


# ---- 1. nothing is processed by mistake ----------------------------------------------------

@pytest.mark.parametrize("picture, reason", [
    ("nowhere/map.png", "no folder"),
    ("map.gif", "write the picture to a .svg or .png file"),
    (".", "write the picture to a .svg or .png file"),
])
def test_a_bad_map_path_changes_nothing(wita, capsys, tmp_path, picture, reason) -> None:
    run(capsys, "orders", wita, "Mexico", "A Guadalajara - Mexico")
    before = Path(wita).read_text()
    code, out, err = run(capsys, "process", wita, "--map", str(tmp_path / picture))
    assert code == 1 and reason in err and out == ""
    assert Path(wita).read_text() == before  # not adjudicated, not saved


def test_a_phase_nobody_ordered_is_refused_unless_forced(wita, capsys) -> None:
    code, out, err = run(capsys, "process", wita)
    assert code == 1
    assert "no orders given for S1845M; give them with 'polydip orders" in err
    assert "use --force to process with every unit holding" in err
    assert phase_of(wita) == "S1845M"
    # a second 'process' typed by accident never turns a phase into holds; --force does
    code, out, _ = run(capsys, "process", wita, "--force")
    assert code == 0 and phase_of(wita) == "F1845M"
    assert "No orders from (NMR): Argentina, Brazil, Colombia, Mexico" in out


@pytest.mark.parametrize("fmt, expected", [
    ("text", "No orders from (NMR): Argentina, Brazil, Colombia, Great Britain, Chile, Peru, "
             "Spain, United States, Venezuela"),
    ("markdown", "**No orders from (NMR):** Argentina, Brazil"),
    ("json", '"nmr": ['),
])
def test_the_report_names_the_powers_that_gave_no_orders(wita, capsys, fmt, expected) -> None:
    run(capsys, "orders", wita, "Mexico", "A Guadalajara - Mexico")
    code, out, _ = run(capsys, "process", wita, "--format", fmt)
    assert code == 0 and expected in out
    if fmt == "json":
        nmr = json.loads(out)["nmr"]
        assert len(nmr) == 9 and "Mexico" not in nmr


# ---- 2. no lost orders under concurrency ---------------------------------------------------

ONE_ORDER_EACH = {
    "Argentina": "A Cordoba H", "Brazil": "A Sao Paulo H", "Colombia": "A Bogota H",
    "Mexico": "A Guadalajara H", "Great Britain": "A Montreal H", "Chile": "A Santiago H",
    "Peru": "A Arequipa H", "Spain": "F Havana H", "United States": "A New Orleans H",
    "Venezuela": "A Bolivar H",
}


def test_ten_players_ordering_at_the_same_moment_lose_nothing(tmp_path, capsys) -> None:
    """Ten `polydip orders` processes started together on one game file: every order is
    kept (without the lock, each read the file before the others wrote it, and only one
    power's orders survived). POLYDIP_STRESS=20 repeats it 20 times."""
    rounds = int(os.environ.get("POLYDIP_STRESS", "2"))
    cli = [sys.executable, "-m", "polydip.cli.main"]
    for r in range(rounds):
        game = tmp_path / f"g{r}.json"
        assert run(capsys, "new", "wita", str(game))[0] == 0
        procs = [subprocess.Popen([*cli, "orders", str(game), power, order],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for power, order in ONE_ORDER_EACH.items()]
        for p in procs:
            _out, err = p.communicate(timeout=120)
            assert p.returncode == 0, err.decode()
        g = Game.load(game)
        kept = {g.map.powers[p]: lst for p, lst in g.orders.items()}
        assert kept == {power: [order] for power, order in ONE_ORDER_EACH.items()}, f"round {r}"


def test_saved_files_get_the_usual_mode(tmp_path, capsys) -> None:
    old = os.umask(0o022)
    try:
        game = tmp_path / "g.json"
        run(capsys, "new", "standard", str(game))
        assert stat.S_IMODE(game.stat().st_mode) == 0o644
        run(capsys, "orders", str(game), "France", "A PAR - BUR")
        assert stat.S_IMODE(game.stat().st_mode) == 0o644
        game.chmod(0o640)  # a mode the GM chose is kept
        run(capsys, "orders", str(game), "France", "A MAR - SPA")
        assert stat.S_IMODE(game.stat().st_mode) == 0o640
    finally:
        os.umask(old)


# ---- 3. reports a player can read ----------------------------------------------------------

def test_orders_are_echoed_in_full_names_on_a_big_map(wita, capsys) -> None:
    code, out, _ = run(capsys, "orders", wita, "Great Britain", "A Montreal H",
                       "F Trinidad - Guayanas Sea")
    assert code == 0
    assert "  Army Montreal (MON): hold\n" in out
    assert "  Fleet Trinidad (TRI): move to Guayanas Sea (GSE)\n" in out
    code, out, _ = run(capsys, "orders", wita, "Great Britain", "A Montreal - Toronto")
    assert "'A Montreal - Toronto' replaces the earlier order 'A Montreal H'" in out
    assert "  Army Montreal (MON): move to Toronto (TOR)\n" in out
    _code, out, _ = run(capsys, "orders", wita, "--names", "short", "Great Britain",
                        "A Montreal H")
    assert "  A MON H\n" in out


def test_process_and_show_print_full_names_by_default_on_a_big_map(wita, capsys) -> None:
    run(capsys, "orders", wita, "Mexico", "A Guadalajara - Mexico")
    _code, out, _ = run(capsys, "process", wita)
    assert "Army Guadalajara (GDL): move to Mexico (MEX)" in out
    _code, out, _ = run(capsys, "show", wita, "--phase", "S1845M", "--names", "short")
    assert "A GDL - MEX" in out and "Guadalajara (GDL)" not in out
    _code, out, _ = run(capsys, "show", wita)
    assert "Army Mexico (MEX)" in out


def test_the_standard_map_keeps_its_codes(tmp_path, capsys) -> None:
    game = str(tmp_path / "g.json")
    run(capsys, "new", "standard", game)
    _code, out, _ = run(capsys, "orders", game, "France", "A Paris - Burgundy")
    assert "  A PAR - BUR\n" in out


# ---- 4. names players type -----------------------------------------------------------------

@pytest.fixture(scope="module")
def wmap():
    return Game.new("wita").map


@pytest.mark.parametrize("typed, meant", [
    ("A Bogotá H", "A BOG H"),
    ("F Río de la Plata H", "F RLP H"),
    ("A Québec H", "A QUE H"),
    ("A São Paulo H", "A SPA H"),
    ("A Mexico City - Oaxaca", "A MEX - OAX"),
    ("F W Caribbean H", "F WCS H"),
    ("F W. Caribbean Sea H", "F WCS H"),
    ("A La Guajira H", "A GJR H"),
    ("A Sta Fe H", "A SFE H"),
    ("F Gulf of Mexico - W Caribbean", "F GOM - WCS"),
])
def test_place_names_as_players_type_them(wmap, typed, meant) -> None:
    assert parse_order(wmap, typed, "M").format(wmap) == meant


@pytest.mark.parametrize("typed, suggestion", [
    ("F Carribean H", "did you mean East Caribbean Sea, North Caribbean Sea or West "
                      "Caribbean Sea?"),
    ("F Veracruz - Gulf of Mexco", "unknown destination 'gulf of mexco' (did you mean Gulf "
                                   "of Mexico?)"),
    ("A Bogata H", "did you mean Bogota?"),
])
def test_misspellings_get_a_real_suggestion(wmap, typed, suggestion) -> None:
    with pytest.raises(PolydipError) as exc:
        parse_order(wmap, typed, "M")
    assert suggestion in str(exc.value)


@pytest.mark.parametrize("heading, power", [
    ("US", "United States"), ("U.S.", "United States"), ("USA", "United States"),
    ("America", "United States"), ("GB", "Great Britain"), ("UK", "Great Britain"),
    ("Britain", "Great Britain"), ("Brasil", "Brazil"), ("México", "Mexico"),
    ("Perú", "Peru"), ("U", "United States"), ("-- Mexico --", "Mexico"),
    ("== Spain ==", "Spain"), ("Mexico's orders:", "Mexico"), ("## Peru", "Peru"),
    ("*** Great Britain ***", "Great Britain"),
])
def test_power_headings_and_aliases(wmap, heading, power) -> None:
    g = Game.new("wita")
    msg = read_message(g.map, g.position, f"{heading}\nA Guadalajara H\nF Lima H\n"
                       "A Montreal H\nA New Orleans H\nA Arequipa H\nF Havana H\n"
                       "A Sao Paulo H")
    taken = {wmap.powers[o.power] for o in msg.orders}
    assert taken == {power}


def test_power_aliases_in_the_one_shot_contract() -> None:
    out = adjudicate_request({
        "variant": "wita", "phase": "S1845M",
        "units": {"US": ["A NOR"], "u.s.a.": ["A ATL"], "Brasil": ["A SPA"], "G": ["A MON"]},
        "orders": {"America": ["A New Orleans - Texas"], "Brasil": ["A SPA H"]}})
    assert "error" not in out, out
    assert sorted(out["units"]["United States"]) == ["A ATL", "A TEX"]
    assert out["units"]["Brazil"] == ["A SPA"] and out["units"]["Great Britain"] == ["A MON"]


def test_put_it_under_names_the_whole_power() -> None:
    g = Game.new("wita")
    msg = read_message(g.map, g.position, "Mexico\nA New Orleans - Mississippi\n")
    (p,) = msg.problems
    assert p.reason == "the unit in New Orleans belongs to United States"
    assert p.suggestion == "put it under United States, or check the province"


def test_greetings_and_signatures_are_ignored_and_counted(wita, capsys) -> None:
    message = Path(wita).with_name("msg.txt")
    message.write_text("Hola a todos,\n\n-- Mexico --\nA Guadalajara - Mexico\nSaludos,\n"
                       "Juan\n")
    code, out, err = run(capsys, "orders", wita, "--file", str(message))
    assert code == 0 and err == ""
    assert "Ignored 3 lines that are not orders (lines 1, 5, 6)." in out


# ---- 5. adjustments said right -------------------------------------------------------------

def winter(variant: str, position: dict) -> Game:
    from polydip.game.positions import build_position

    g = Game.new(variant)
    g.position = build_position(g.map, position)
    return g


def test_impossible_builds_are_refused_when_given_with_the_reason() -> None:
    g = winter("standard", {
        "phase": "W1901A", "units": {"France": ["A PAR"], "Germany": ["A BUR", "A RUH", "F KIE"]},
        "centers": {"France": ["PAR", "MAR", "BRE", "SPA"], "Germany": ["MUN", "BER", "KIE"]}})
    problems = g.set_orders("France", ["F PAR B", "A PAR B", "A MUN B", "F Marseilles B"])
    assert problems == [
        "'F PAR B': Paris is occupied (build sites: BRE, MAR)",
        "'A PAR B': Paris is occupied (build sites: BRE, MAR)",
        "'A MUN B': Munich belongs to Germany (build sites: BRE, MAR)",
    ]
    assert g.orders == {g.power("France"): ["F Marseilles B"]}
    assert g.set_orders("Germany", ["Build F Berlin"]) == [
        "'Build F Berlin': Germany has no builds this phase"]


def test_an_inland_fleet_is_refused_and_unused_builds_are_waived(capsys, tmp_path) -> None:
    g = winter("standard", {
        "phase": "W1901A", "units": {"Germany": ["A BUR"]},
        "centers": {"Germany": ["MUN", "BER", "KIE", "HOL"]}})
    assert g.set_orders("Germany", ["F MUN B", "A MUN B"]) == [
        "'F MUN B': a fleet cannot stand in Munich"]
    game = tmp_path / "g.json"
    g.save(game)
    code, out, _ = run(capsys, "process", str(game))
    assert code == 0
    assert "Build A MUN" in out
    assert "Germany: 2 builds waived" in out  # 3 allowed (BER, KIE, MUN free), 1 made


def test_the_report_lists_build_sites_of_the_variants_rule(wita, capsys) -> None:
    """WITA builds on any center owned at the start of the year: the report says 'build
    sites', not 'free home centers'."""
    g = Game.load(wita)
    g.set_orders("Mexico", ["A Guadalajara - Michoacan"])
    for _ in range(2):
        g.process()
    g.set_orders("Mexico", ["A Michoacan - Colima"])
    g.save(wita)
    _code, out, _ = run(capsys, "process", wita, "--force")
    assert "free home centers" not in out


# ---- 6. variant authors --------------------------------------------------------------------

def test_a_misspelled_home_center_gives_key_and_line(tmp_path, capsys) -> None:
    text = (resources.files("polydip.variants") / "data" / "wita.toml").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace('homes = ["WAS", "NYC", "NOR", "ATL"]',
                                'homes = ["WAS", "NYX", "NOR", "ATL"]'))
    line = next(i for i, s in enumerate(bad.read_text().splitlines(), 1) if '"NYX"' in s)
    code, out, _ = run(capsys, "variant", "check", str(bad))
    assert code == 1
    assert (f"line {line}: [powers.United States.homes] unknown province 'NYX' (did you mean "
            "NYS, NYC or NYB?)") in out
    code, _out, err = run(capsys, "new", str(bad), str(tmp_path / "g.json"))
    assert code == 1 and f"line {line}: [powers.United States.homes]" in err


def _mutate(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    i = rng.randrange(len(lines))
    op = rng.randrange(6)
    if op == 0:
        del lines[i]
    elif op == 1:  # a province deleted, still referenced elsewhere
        heads = [k for k, s in enumerate(lines) if s.startswith("[provinces.")]
        k = rng.choice(heads)
        e = k + 1
        while e < len(lines) and not lines[e].startswith("["):
            e += 1
        del lines[k:e]
    elif op == 2:  # a code misspelled
        lines[i] = lines[i].replace('"', '"X', 1)
    elif op == 3 and "=" in lines[i]:  # a value of the wrong type
        lines[i] = lines[i].split("=")[0] + "= " + rng.choice(
            ["1", '"x"', "[]", "{}", "true", "[1, 2]", '"A XYZ"', "-5"])
    elif op == 4:
        lines.insert(i, lines[i])
    else:
        lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
    return "\n".join(lines)


@pytest.mark.parametrize("name", builtin_names())
def test_the_checker_never_crashes_on_damaged_variant_files(name) -> None:
    """Mutated copies of a shipped variant: each one gives a clean error or passes."""
    base = (resources.files("polydip.variants") / "data" / f"{name}.toml").read_text()
    rng = random.Random(name)
    for _ in range(60):
        text = _mutate(_mutate(base, rng), rng)
        try:
            v = parse_variant(text, "x.toml")
            check_variant(v)
            Game.new(v)
        except PolydipError:
            pass


def test_variant_show_prints_a_province_table(capsys) -> None:
    code, out, _ = run(capsys, "variant", "show", "wita")
    assert code == 0
    rows = {line.split()[0]: line for line in out.splitlines() if line[:1].isupper()
            and len(line.split()) > 1}
    assert "Bogota" in rows["BOG"] and "home of Colombia" in rows["BOG"]
    assert "NC" in rows["CLI"] and "WC" in rows["CLI"]  # Cali's two coasts
    assert "sea" in rows["GOM"]


def test_variant_show_json_lists_neighbours_per_unit_kind(capsys) -> None:
    _code, out, _ = run(capsys, "variant", "show", "standard", "--json")
    provinces = {p["abbr"]: p for p in json.loads(out)["provinces"]}
    assert provinces["PAR"]["neighbours"] == {"A": ["BRE", "BUR", "GAS", "PIC"]}
    assert provinces["SPA"]["neighbours"]["F"] == ["GAS", "LYO", "MAO", "MAR", "POR", "WES"]
    assert "A" not in provinces["NTH"]["neighbours"]


def test_variant_show_lad1890_is_the_list_of_provinces_their_powers_and_capitals(capsys
                                                                                   ) -> None:
    """Issue 28.7, seed 001: "These abbreviations will be given in the List of Provinces
    provided along with these rules"; "Eight powers in the game have Capital Centers ...
    Control of a capital center allows for two builds." The table shows each province's
    classes, its center's kind and value and whose home it is, and whose territory it is."""
    code, out, _ = run(capsys, "variant", "show", "lad1890")
    assert code == 0
    bolivia = next(line for line in out.splitlines() if line.startswith("  Bolivia (O)"))
    assert ": capital LPZ (counts 2); homes LPZ, COC, CHQ" in bolivia
    rows = {line.split()[0]: line for line in out.splitlines() if line[:1].isupper()
            and len(line.split()) > 1}
    assert "capital of Bolivia (2)" in rows["LPZ"] and "upland" in rows["LPZ"]
    assert "outpost" in rows["BAR"] and "Britain" in rows["BAR"]  # Britain's territory
    assert "desert" in rows["ATA"] and "Chile" in rows["ATA"]
    assert "neutral" in rows["ASU"]
    _code, out, _ = run(capsys, "variant", "show", "lad1890", "--json")
    data = json.loads(out)
    lpz = {p["abbr"]: p for p in data["provinces"]}["LPZ"]
    assert (lpz["center_kind"], lpz["center_value"], lpz["home_of"], lpz["territory_of"]) == (
        "capital", 2, "Bolivia", "Bolivia")
    assert "TAR" in lpz["borders"]["greater_andes"] and "PUN" in lpz["borders"]["mountain"]
    bolivia = next(p for p in data["powers"] if p["name"] == "Bolivia")
    assert bolivia["capitals"] == ["LPZ"] and "POT" in bolivia["territory"]
    assert sum(len(p["capitals"]) for p in data["powers"]) == 8  # "Eight powers ..."


# ---- 7. small things a first-time user hits ------------------------------------------------

def test_version(capsys) -> None:
    from polydip import __version__

    with pytest.raises(SystemExit):
        main(["--version"])
    assert capsys.readouterr().out.strip() == f"polydip {__version__}"


def _parsers(p):
    yield p
    for action in p._actions:
        if getattr(action, "choices", None) and isinstance(action.choices, dict):
            for sub in action.choices.values():
                yield from _parsers(sub)


def test_every_option_has_help_text() -> None:
    missing = [f"{p.prog} {a.dest}" for p in _parsers(build_parser()) for a in p._actions
               if a.dest not in ("help", "version") and not a.help
               and not isinstance(a.choices, dict)]
    assert missing == []


def test_convert_says_what_it_wrote(tmp_path, capsys) -> None:
    game = str(tmp_path / "g.json")
    run(capsys, "new", "standard", game)
    run(capsys, "orders", game, "France", "A PAR - BUR")
    run(capsys, "process", game)
    _code, out, _ = run(capsys, "convert", game, str(tmp_path / "d.json"), "--to", "diplomacy")
    data = json.loads((tmp_path / "d.json").read_text())
    n = len(data["phases"])
    assert f"the diplomacy package's saved-game JSON, {n} phases (1 processed and the " \
           "current one, F1901M)" in out


def test_demo_draws_its_picture_in_the_current_folder(tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "demo", "--years", "1", "--map", "final.svg")
    assert code == 0 and (tmp_path / "final.svg").exists()
    code, out, _ = run(capsys, "demo", "--years", "1")
    assert code == 0
    drawn = [p.name for p in tmp_path.iterdir() if p.name.startswith("polydip-demo")]
    assert len(drawn) == 1 and f"is in {drawn[0]}" in out
