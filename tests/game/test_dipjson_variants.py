"""The `diplomacy` package's saved-game JSON for every variant: polydip writes a game of any
variant (its name as "map") and reads it back, phase by phase, with the same positions,
orders and results; a map of the package itself (ancmed, modern...) is found among the
package's .map files and the package loads polydip's file of it.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from game.test_dipjson import play_diplomacy
from polydip.cli.main import main
from polydip.errors import GameFileError
from polydip.game.dipjson import game_to_diplomacy
from polydip.game.game import Game
from polydip.play import random_orders
from polydip.state import Position
from polydip.variants.calendar import parse_phase
from polydip.variants.search import find_named

# (variant, seed, years): each seed's game has retreats and builds (asserted below)
GAMES = [
    ("standard", 7, 3),
    ("wita", 5, 4),
    ("war_in_north_america", 5, 4),
    ("lad1890", 6, 7),
    ("twentieth_century", 3, 4),
]


def play(variant: str, seed: int, years: int, options: dict | None = None) -> Game:
    g = Game.new(variant, options, name=f"{variant}-{seed}")
    rng = random.Random(seed)
    first = g.position.phase.year
    while not g.is_over and g.position.phase.year < first + years:
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    return g


def play_with_retreats(variant: str, seed: int, years: int) -> Game:
    """`play` from the first seed on (`seed`, `seed` + 1, ...) whose game has retreat and
    adjustment phases and center changes (which seed does depends on the order of the legal
    lists random_orders draws from)."""
    for s in range(seed, seed + 40):
        g = play(variant, s, years)
        kinds = {r.position.phase.type for r in g.history}
        if {"R", "A"} <= kinds and any(r.outcome.center_changes for r in g.history):
            return g
    raise AssertionError(f"no random {variant} game with retreats in 40 seeds from {seed}")


def round_trip(g: Game) -> tuple[dict, Game]:
    data = json.loads(json.dumps(game_to_diplomacy(g)))
    return data, Game.from_diplomacy(data)


def meaning(g: Game, pos: Position) -> tuple:
    """Everything a position holds, lists in a fixed order (the standoffs where they count,
    in a retreat phase; the year's starting owners, where the position does not keep them,
    are its owners)."""
    m = g.map
    return (pos.phase,
            sorted((u.power, m.unit_str(u.kind, u.loc)) for u in pos.units),
            list(pos.owners),
            sorted((d.power, m.unit_str(d.kind, d.loc), d.attacker, d.convoyed, d.retreats)
                   for d in pos.dislodged),
            sorted(pos.contested) if pos.phase.type == "R" else None,
            [tuple(h) for h in pos.homes],
            list(pos.year_start_owners if pos.year_start_owners is not None else pos.owners),
            pos.extra)


def assert_same_game(a: Game, b: Game) -> None:
    assert b.variant is a.variant
    pa = [r.position for r in a.history] + [a.position]
    pb = [r.position for r in b.history] + [b.position]
    assert len(pa) == len(pb)
    for x, y in zip(pa, pb, strict=True):
        assert meaning(b, y) == meaning(a, x), x.phase.name
    for ra, rb in zip(a.history, b.history, strict=True):
        w = ra.position.phase.name
        assert {p: sorted(v) for p, v in rb.orders.items() if v} == {
            p: sorted(v) for p, v in ra.orders.items() if v}, w
        assert sorted((r.power, r.text, tuple(r.result)) for r in rb.outcome.results) == sorted(
            (r.power, r.text, tuple(r.result)) for r in ra.outcome.results), w
        assert sorted(rb.outcome.center_changes) == sorted(ra.outcome.center_changes), w
    assert b.orders == a.orders
    assert (b.status, b.winners, b.options, b.name) == (a.status, a.winners, a.options, a.name)


@pytest.mark.parametrize(("variant", "seed", "years"), GAMES)
def test_every_builtin_variant_round_trips(variant: str, seed: int, years: int) -> None:
    g = play_with_retreats(variant, seed, years)
    data, back = round_trip(g)
    assert data["map"] == variant
    assert_same_game(g, back)


def test_lad_flotillas_attack_orders_anchors_and_canals_survive() -> None:
    """LAD 1890's R flotillas, attack orders (6.F: "F CCU - SSE AT FRANCE"), anchor markers
    and the ships a fleet carries (6.C-D), and the builds spent on the Panama canal: what
    the orders and the positions say after the file is read back."""
    g = play("lad1890", 6, 7)
    orders = [o for r in g.history for lst in r.orders.values() for o in lst]
    for word in (" AT ", " CONVERT", " CAPTURE", "BUILD PAN CANAL"):
        assert any(word in o for o in orders), word  # the seed's game gives them
    assert any(o.startswith("R ") for o in orders)
    extras = [r.position.extra for r in g.history]
    assert any(e.get("anchors") for e in extras) and any(e.get("canals") for e in extras)
    assert any(e.get("ships") for e in extras)
    data, back = round_trip(g)
    written = [o for ph in data["phases"] for lst in ph["orders"].values() for o in lst or []]
    for word in (" AT ", " CONVERT", " CAPTURE", "BUILD PAN CANAL"):
        assert any(word in o for o in written), word
    assert_same_game(g, back)
    back.process()  # the game read back plays on as the original does
    g.process()
    assert meaning(back, back.position) == meaning(g, g.position)


def test_results_the_package_cannot_key_by_unit_keep_their_powers() -> None:
    """Two canal builds in one phase, two units of one kind in one ocean: the package's
    results keyed by unit cannot tell them apart, so the phase also lists every result with
    its power ("polydip_results"), and reading it gives each order its own result."""
    g = play("lad1890", 6, 7)
    m = g.map
    data = json.loads(json.dumps(game_to_diplomacy(g)))
    shared = [ph for ph in data["phases"] if "polydip_results" in ph]
    assert shared and len(shared) < len(data["phases"])  # only where needed
    for ph in shared:
        keys = []
        for power, order, _ in ph["polydip_results"]:
            assert power in {p.upper() for p in m.powers}
            words = order.split()
            keys.append("WAIVE" if words[0] == "WAIVE" else " ".join(words[:2]))
        assert len(set(keys)) < len(keys) or "WAIVE" in keys
    assert_same_game(g, Game.from_diplomacy(json.loads(json.dumps(data))))
    # without them, the results read from the package's dict are not all the game's
    for ph in shared:
        del ph["polydip_results"]
    back = Game.from_diplomacy(data)
    assert any(sorted(map(tuple, ([r.power, r.text, r.result] for r in a.outcome.results)))
               != sorted(map(tuple, ([r.power, r.text, r.result] for r in b.outcome.results)))
               for a, b in zip(g.history, back.history, strict=True))


def test_options_the_game_was_played_with_are_kept() -> None:
    """The Twentieth Century's canal permissions are a game option (decision 10: "the
    Britain player may also allow Italy F(Aegean Sea) to Red Sea"): written with the game,
    read back with it."""
    perms = {"passage_permissions": {"Cairo": {"Britain": ["Italy"]}},
             "adjacent_convoy": "fallback"}
    g = play("twentieth_century", 3, 1, perms)
    data, back = round_trip(g)
    assert data["polydip_options"] == perms
    assert back.options == g.options
    assert "polydip_options" not in game_to_diplomacy(Game.new("twentieth_century"))


def test_unknown_option_in_the_file_is_an_error() -> None:
    data = game_to_diplomacy(Game.new("wita"))
    data["polydip_options"] = {"convoy_paradx": "1982"}
    with pytest.raises(GameFileError, match="polydip_options: unknown option 'convoy_paradx'"):
        Game.from_diplomacy(data)


# ---- maps found on the search path --------------------------------------------------------------


def test_a_map_of_the_diplomacy_package_is_found_and_the_package_loads_polydip_s_file() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    path = find_named("ancmed")
    assert path is not None and path.name == "ancmed.map"
    g = Game.new(str(path), {"adjacent_convoy": "fallback"}, name="anc")
    rng = random.Random(1)
    for _ in range(12):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    assert any(r.position.phase.type == "A" for r in g.history)
    data, back = round_trip(g)
    assert data["map"] == "ancmed"
    assert back.variant is g.variant  # the same .map file, loaded once
    assert_same_game(g, back)
    dg = from_saved_game_format(data)
    # the package writes years in four digits (ancmed begins in year 1), and so does polydip
    assert dg.get_current_phase() == data["phases"][-1]["name"]
    assert [h.name for h in dg.get_phase_history()] == [ph["name"] for ph in data["phases"][:-1]]
    assert parse_phase(g.variant.calendar, dg.get_current_phase()) == g.position.phase
    theirs = {k: sorted(v) for k, v in dg.get_state()["units"].items()}
    assert theirs == {p.upper(): sorted(g.map.unit_str(u.kind, u.loc) for u in g.position.units
                                        if u.power == i) for i, p in enumerate(g.map.powers)}


def test_a_variant_file_on_the_search_path(tmp_path, monkeypatch, capsys) -> None:
    """A game of a variant file: its "map" is the variant's name, found as NAME.toml in a
    folder given with --search-path or POLYDIP_VARIANT_PATH; without it the error names the
    map and both ways to give it."""
    src = Path(__file__).parents[2] / "src" / "polydip" / "variants" / "data" / "wita.toml"
    folder = tmp_path / "variants"
    folder.mkdir()
    text = src.read_text(encoding="utf-8").replace('name = "wita"', 'name = "mywita"', 1)
    (folder / "mywita.toml").write_text(text, encoding="utf-8")
    g = play(str(folder / "mywita.toml"), 5, 1)
    saved = tmp_path / "g.json"
    saved.write_text(json.dumps(game_to_diplomacy(g)))
    assert json.loads(saved.read_text())["map"] == "mywita"
    monkeypatch.delenv("POLYDIP_VARIANT_PATH", raising=False)
    assert main(["show", str(saved)]) == 1
    err = capsys.readouterr().err
    assert "map 'mywita'" in err and "--search-path DIR" in err
    assert "POLYDIP_VARIANT_PATH" in err and "Traceback" not in err
    with pytest.raises(GameFileError, match="map 'mywita' is neither a built-in variant"):
        Game.load(saved)
    assert main(["show", str(saved), "--search-path", str(folder)]) == 0
    assert capsys.readouterr().out.startswith(g.variant.title)
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", str(folder))
    assert_same_game(g, Game.load(saved))


def test_the_command_line_reads_a_simulated_lad_game(tmp_path) -> None:
    """`polydip simulate` writes LAD games; show, render and convert read them."""
    out = tmp_path / "runs"
    cmd = [sys.executable, "-m", "polydip.cli.main"]
    res = subprocess.run([*cmd, "simulate", "--variant", "lad1890", "--games", "1", "--seed",
                          "4", "--max-year", "1893", "--out", str(out), "--quiet"],
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    with gzip.open(out / "games-00000.jsonl.gz") as f:
        line = f.readline()
    game = tmp_path / "lad.json"
    game.write_bytes(line)
    data = json.loads(line)
    assert data["map"] == "lad1890"
    assert main(["show", str(game), "--history"]) == 0
    assert main(["show", str(game), "--phase", data["phases"][1]["name"]]) == 0
    native = tmp_path / "lad.polydip.json"
    assert main(["convert", str(game), str(native)]) == 0
    again = tmp_path / "lad.again.json"
    assert main(["convert", str(native), str(again), "--to", "diplomacy"]) == 0
    a, b = Game.load(game), Game.load(again)
    assert_same_game(a, b)
    svg = tmp_path / "lad.svg"
    assert main(["render", str(game), "--phase", data["phases"][1]["name"], "-o", str(svg)]) == 0
    assert "<svg" in svg.read_text()


# ---- malformed polydip keys ---------------------------------------------------------------------


@pytest.mark.parametrize(("where", "value", "expect"), [
    ("contested", "MAO", r"state.contested: a list of provinces"),
    ("contested", ["XYZ"], r"state.contested"),
    ("extra", [], r"state.extra: an object"),
    ("year_start_centers", {"FRANCE": "MAO"}, r"state.year_start_centers.FRANCE: a list"),
])
def test_malformed_polydip_state_keys_name_the_problem(where, value, expect) -> None:
    g = play_with_retreats("standard", 7, 3)
    data = json.loads(json.dumps(game_to_diplomacy(g)))
    i = next(i for i, ph in enumerate(data["phases"]) if ph["name"].endswith("R"))
    data["phases"][i]["state"][where] = value
    with pytest.raises(GameFileError, match=expect):
        Game.from_diplomacy(data)


def test_malformed_polydip_results_name_the_problem() -> None:
    data = json.loads(json.dumps(game_to_diplomacy(play("standard", 7, 1))))
    data["phases"][0]["polydip_results"] = [["FRANCE", "A PAR H"]]
    with pytest.raises(GameFileError, match=r"phases\[0\] \(S1901M\): polydip_results\[0\]"):
        Game.from_diplomacy(data)
    data["phases"][0]["polydip_results"] = [["PRUSSIA", "A PAR H", []]]
    with pytest.raises(GameFileError, match="unknown power 'PRUSSIA'"):
        Game.from_diplomacy(data)


@pytest.mark.parametrize("variant", [v for v, _, _ in GAMES])
def test_simulated_games_read_back_and_write_the_same_bytes(variant: str) -> None:
    """A game `polydip simulate` wrote, read back and written again, is the same JSON: the
    reader lost nothing the writer puts in a file (the package's influence included)."""
    from polydip.simulate.games import play_game
    from polydip.simulate.players import coherent_player, random_player
    from polydip.variants.loader import load_variant

    v = load_variant(variant)
    start = Game.new(v).position.phase.year
    names = []
    for seed, player in ((1, random_player), (2, coherent_player)):
        line = play_game(v, {}, seed, player, start + 8).line
        data = json.loads(line)
        names += [ph["name"] for ph in data["phases"]]
        again = json.dumps(game_to_diplomacy(Game.from_diplomacy(data), stamp=0),
                           separators=(",", ":")).encode()
        assert again == line, (variant, seed)
    assert any(n.endswith("R") for n in names) and any(n.endswith("A") for n in names)


def test_a_retreat_into_an_occupied_ocean_is_read_back(tmp_path) -> None:
    """LAD 5.F.i: "there is no limit to how many Fleets may enter an Ocean", so a dislodged
    fleet may retreat into an ocean other fleets hold. Read back from polydip's game file and
    from the package's JSON, the retreat places still include it (the positions read from a
    file once counted an occupied ocean as full)."""
    g = play("lad1890", 7, 8)
    m = g.map
    held = [(rec, d) for rec in g.history for d in rec.position.dislodged
            if any(m.tables.open_space[m.loc_prov[x]] and any(
                m.loc_prov[u.loc] == m.loc_prov[x] for u in rec.position.units)
                for x in d.retreats)]
    assert held  # the seed's game has one
    g.save(tmp_path / "lad.json")
    for back in (Game.load(tmp_path / "lad.json"), round_trip(g)[1]):
        for a, b in zip(g.history, back.history, strict=True):
            assert b.position.dislodged == a.position.dislodged, a.position.phase.name


@pytest.mark.parametrize("map_name", ["ancmed", "modern"])
def test_a_game_the_package_played_on_its_own_map_is_read(map_name: str) -> None:
    """A game the package played on one of its maps (random possible orders) and saved:
    polydip finds the map among the package's .map files and reads every phase, with the
    package's units and centers."""
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import to_saved_game_format

    dg = play_diplomacy(4, until=None, map_name=map_name, phases=20)  # with retreat phases
    data = json.loads(json.dumps(to_saved_game_format(dg)))
    assert any(ph["name"].endswith("R") for ph in data["phases"])
    g = Game.from_diplomacy(data)
    m = g.map
    positions = [r.position for r in g.history] + [g.position]
    assert len(positions) == len(data["phases"])
    for pos, ph in zip(positions, data["phases"], strict=True):
        assert parse_phase(g.variant.calendar, ph["name"]) == pos.phase
        for i, p in enumerate(m.powers):
            mine = [m.unit_str(u.kind, u.loc) for u in pos.units if u.power == i]
            mine += ["*" + m.unit_str(d.kind, d.loc) for d in pos.dislodged if d.power == i]
            assert sorted(mine) == sorted(ph["state"]["units"][p.upper()]), ph["name"]
            assert sorted(m.prov_abbr[c] for c in pos.centers_of(i)) == sorted(
                ph["state"]["centers"][p.upper()]), ph["name"]
