"""The `diplomacy` package's saved-game JSON: export, import, round trip, malformed files.

Tests marked with the package skip when it is not installed; the fixture tests
(tests/data/dipjson/) and the malformed-file tests run without it.
"""

from __future__ import annotations

import copy
import itertools
import json
import random
from pathlib import Path

import pytest

from polydip.cli.main import main
from polydip.errors import GameFileError
from polydip.game.dipjson import game_to_diplomacy
from polydip.game.engine import parse_orders, process
from polydip.game.game import Game
from polydip.play import random_orders
from polydip.state import Position
from polydip.variants import loader
from polydip.variants.loader import load_variant

DATA = Path(__file__).parents[1] / "data" / "dipjson"
FIXTURE = DATA / "short_game.json"


# ---- helpers --------------------------------------------------------------------------------


def play_polydip(seed: int, years: int = 3) -> Game:
    g = Game.new("standard", name=f"seed{seed}")
    rng = random.Random(seed)
    while not g.is_over and g.position.phase.year < 1901 + years:
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    return g


def play_with_retreats(first_seed: int = 7) -> Game:
    """play_polydip from the first seed on whose game has a retreat phase (which seed does
    depends on the order of the legal lists random_orders draws from)."""
    for seed in range(first_seed, first_seed + 50):
        g = play_polydip(seed)
        if any(r.position.phase.type == "R" for r in g.history):
            return g
    raise AssertionError("no random game with retreats in 50 seeds")


def play_diplomacy(seed: int, until: str | None = "S1904M", map_name: str = "standard",
                   phases: int | None = None):
    """A diplomacy.Game on `map_name` played with random possible orders (sorted, so the seed
    decides) until the phase `until`, or for `phases` phases."""
    from diplomacy import Game as DipGame

    g = DipGame(map_name=map_name)
    rng = random.Random(seed)
    played = 0
    while (not g.is_game_done and g.get_current_phase() != until
           and (phases is None or played < phases)):
        played += 1
        possible = g.get_all_possible_orders()
        for power in sorted(g.powers):
            locs = sorted(g.get_orderable_locations(power))
            g.set_orders(power, [rng.choice(sorted(possible[loc])) for loc in locs
                                 if possible[loc]])
        g.process()
    return g


def board(g: Game, pos: Position) -> dict[str, list[str]]:
    """Units per upper-case power, dislodged ones as "*A PAR" (the package's way)."""
    m = g.map
    out: dict[str, list[str]] = {p.upper(): [] for p in m.powers}
    for u in pos.units:
        out[m.powers[u.power].upper()].append(m.unit_str(u.kind, u.loc))
    for d in pos.dislodged:
        out[m.powers[d.power].upper()].append("*" + m.unit_str(d.kind, d.loc))
    return {k: sorted(v) for k, v in out.items()}


def centers(g: Game, pos: Position) -> dict[str, list[str]]:
    m = g.map
    return {p.upper(): sorted(m.prov_abbr[c] for c in pos.centers_of(i))
            for i, p in enumerate(m.powers)}


def sorted_lists(d: dict) -> dict:
    return {k: sorted(v) for k, v in d.items()}


def norm(g: Game, pos: Position) -> tuple:
    """What a position means (lists in a fixed order; the standoff set only where it counts,
    in a retreat phase)."""
    m = g.map
    return (pos.phase, board(g, pos), list(pos.owners),
            sorted((m.unit_str(d.kind, d.loc), d.attacker, d.convoyed, d.retreats)
                   for d in pos.dislodged),
            pos.contested if pos.phase.type == "R" else None, [tuple(h) for h in pos.homes])


def all_positions(g: Game) -> list[Position]:
    return [r.position for r in g.history] + [g.position]


def given(orders: dict[int, list[str]]) -> dict[int, list[str]]:
    return {p: sorted(lst) for p, lst in orders.items() if lst}


def results_set(rec) -> set[tuple]:
    return {(r.power, r.text, tuple(r.result)) for r in rec.outcome.results}


# ---- (a) polydip → diplomacy ------------------------------------------------------------------


def test_export_is_read_by_the_diplomacy_package() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    g = play_with_retreats()
    data = json.loads(json.dumps(game_to_diplomacy(g)))
    dg = from_saved_game_format(data)
    hist = dg.get_phase_history()
    assert [h.name for h in hist] == [r.position.phase.name for r in g.history]
    assert dg.get_current_phase() == g.phase
    for h, rec in zip(hist, g.history, strict=True):
        assert sorted_lists(h.state["units"]) == board(g, rec.position), h.name
        assert sorted_lists(h.state["centers"]) == centers(g, rec.position), h.name
        m = g.map
        for d in rec.position.dislodged:
            power = m.powers[d.power].upper()
            assert h.state["retreats"][power][m.unit_str(d.kind, d.loc)] == [
                m.loc_name[x] for x in d.retreats]
        for r in rec.outcome.results:  # every unit's result, keyed by unit
            key = "WAIVE" if r.text == "WAIVE" else " ".join(r.text.split()[:2])
            words = [str(x) for x in h.results[key]]
            assert [w for w in words if w] == [w for w in r.result if w != "civil disorder"]
        for p, lst in given(rec.orders).items():
            assert sorted(h.orders[m.powers[p].upper()]) == lst
    state = dg.get_state()
    assert sorted_lists(state["units"]) == board(g, g.position)
    assert sorted_lists(state["centers"]) == centers(g, g.position)


def _without_supports_against_own_units(g: Game, orders: dict[int, list[str]]
                                        ) -> dict[int, list[str]]:
    """Random orders, less the supports of a move into a province the supporter's own power
    holds: there the diplomacy package counts a power's support against its own unit (its
    known deviations from DATC 6.D.12 and 6.E.3, tests/adjudication/test_differential.py), and a
    replay in the package would part from the DATC at that phase."""
    from polydip.orders.model import SUPPORT
    from polydip.orders.parser import parse_order

    m, pos = g.map, g.position
    holder = {m.loc_prov[u.loc]: u.power for u in pos.units}
    out = {}
    for p, lst in orders.items():
        keep = []
        for text in lst:
            o = parse_order(m, text, pos.phase.type)
            if o.type == SUPPORT and o.target is not None \
                    and holder.get(m.loc_prov[o.target]) == p:
                continue
            keep.append(text)
        out[p] = keep
    return out


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 8, 14])
def test_an_exported_game_replays_in_the_diplomacy_package(tmp_path, capsys, seed) -> None:
    """Issue 17: a long random game exported with `convert --to diplomacy`, loaded in the
    diplomacy package and replayed there phase by phase from the start, with the orders the
    file records, reaches every recorded position and the same final one. The game is played
    under the package's reading of 'via convoy' (adjacent_convoy=fallback). It holds
    dislodged units with nowhere to retreat: destroyed at once, without a retreat phase the
    package would never produce."""
    pytest.importorskip("diplomacy")
    from diplomacy import Game as DipGame

    for s in range(seed, seed + 6):  # the first seed on whose game destroys a unit
        g = Game.new("standard", {"adjacent_convoy": "fallback"})
        rng = random.Random(s)
        while not g.is_over and g.position.phase.year < 1911:
            orders = _without_supports_against_own_units(g, random_orders(g.map, g.position,
                                                                          rng))
            for p, lst in orders.items():
                g.set_orders(p, lst)
            g.process()
        if any(rec.outcome.destroyed for rec in g.history):  # what issue 17 changes
            break
    assert any(rec.outcome.destroyed for rec in g.history)
    assert len(g.history) >= 30
    game = tmp_path / "g.json"
    g.save(game)
    assert main(["convert", str(game), str(tmp_path / "d.json"), "--to", "diplomacy"]) == 0
    capsys.readouterr()
    phases = json.loads((tmp_path / "d.json").read_text())["phases"]
    assert [ph["name"] for ph in phases] == [r.position.phase.name for r in g.history] + [g.phase]
    dg = DipGame()
    for before, after in itertools.pairwise(phases):
        assert dg.get_current_phase() == before["name"]
        for power, lst in before["orders"].items():
            if lst:
                dg.set_orders(power, lst)
        dg.process()
        state = dg.get_state()
        for key in ("units", "centers"):
            assert sorted_lists(state[key]) == sorted_lists(after["state"][key]), \
                f"seed {seed}: {key} after {before['name']}"
    assert dg.get_current_phase() == g.phase
    assert sorted_lists(dg.get_state()["units"]) == board(g, g.position)


def test_export_pending_orders_and_the_package_plays_on() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    g = play_polydip(seed=7, years=1)
    assert g.phase == "S1902M" or g.position.phase.type == "M"
    unit = g.map.unit_str(g.position.units[0].kind, g.position.units[0].loc)
    power = g.map.powers[g.position.units[0].power]
    g.set_orders(power, [f"{unit} H"])
    data = game_to_diplomacy(g)
    assert data["phases"][-1]["orders"][power.upper()] == [f"{unit} H"]
    assert data["phases"][-1]["results"] == {}
    dg = from_saved_game_format(data)
    assert dg.get_orders(power.upper()) == [f"{unit} H"]
    dg.process()  # the package can carry on from polydip's position


def test_export_a_finished_game_ends_with_completed() -> None:
    g = Game.new("standard")
    g.process()
    g.declare_draw()
    data = game_to_diplomacy(g)
    assert [p["name"] for p in data["phases"]] == ["S1901M", "F1901M", "COMPLETED"]
    back = Game.from_diplomacy(json.loads(json.dumps(data)))
    assert back.status == "drawn" and back.phase == "F1901M" and len(back.history) == 1
    try:
        from diplomacy.utils.export import from_saved_game_format
    except ImportError:
        return
    assert from_saved_game_format(data).is_game_done


def test_export_of_another_variant_names_it_as_the_map(tmp_path, capsys) -> None:
    g = Game.new("wita")
    g.process()
    native = tmp_path / "wita.json"
    g.save(native)
    dip = tmp_path / "wita.dip.json"
    assert main(["convert", str(native), str(dip), "--to", "diplomacy"]) == 0
    data = json.loads(dip.read_text())
    assert data["map"] == "wita"
    assert {ph["state"]["map"] for ph in data["phases"]} == {"wita"}
    assert Game.load(dip).phase == g.phase


# ---- (b) diplomacy → polydip ------------------------------------------------------------------


def test_import_of_a_diplomacy_game_matches_the_package() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import to_saved_game_format

    dg = play_diplomacy(seed=10)
    data = json.loads(json.dumps(to_saved_game_format(dg)))
    assert any(p["name"].endswith("R") for p in data["phases"])  # the seed has retreats
    g = Game.from_diplomacy(data, "dg")
    m = g.map
    positions = all_positions(g)
    assert [p.phase.name for p in positions] == [p["name"] for p in data["phases"]]
    for pos, ph in zip(positions, data["phases"], strict=True):
        st = ph["state"]
        assert board(g, pos) == sorted_lists(st["units"]), ph["name"]
        assert centers(g, pos) == sorted_lists(st["centers"]), ph["name"]
        assert {p.upper(): sorted(m.prov_abbr[h] for h in hs)
                for p, hs in zip(m.powers, pos.homes, strict=True)} == sorted_lists(st["homes"])
        for d in pos.dislodged:
            unit = m.unit_str(d.kind, d.loc)
            assert d.attacker >= 0  # read from the movement phase before
            if not d.convoyed:  # (the package's list is wrong after a convoy: see report)
                theirs = st["retreats"][m.powers[d.power].upper()][unit]
                assert sorted(m.loc_name[x] for x in d.retreats) == sorted(theirs), unit
    for rec, ph in zip(g.history, data["phases"], strict=False):
        assert given(rec.orders) == {m.power_index[k.lower()]: sorted(v)
                                     for k, v in ph["orders"].items() if v}
        mine = {" ".join(r.text.split()[:2]): r.result for r in rec.outcome.results}
        for unit, words in ph["results"].items():
            if unit in mine and mine[unit] != ["civil disorder"]:
                assert mine[unit] == [w for w in words if w], (ph["name"], unit)
    assert g.orders == {}  # nothing ordered yet in the current phase


def test_polydip_plays_on_from_an_imported_game() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import to_saved_game_format

    g = Game.from_diplomacy(to_saved_game_format(play_diplomacy(seed=11, until="F1902M")))
    assert g.phase == "F1902M"
    rng = random.Random(1)
    for _ in range(4):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    assert len(g.history) >= 7


# ---- (c) round trip -----------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [7, 17])
def test_round_trip_keeps_positions_orders_and_results(seed: int) -> None:
    g = play_polydip(seed)
    unit = g.position.units[0]
    g.set_orders(unit.power, [f"{g.map.unit_str(unit.kind, unit.loc)} H"])
    back = Game.from_diplomacy(json.loads(json.dumps(game_to_diplomacy(g))))
    assert [norm(back, p) for p in all_positions(back)] == [norm(g, p) for p in all_positions(g)]
    for a, b in zip(g.history, back.history, strict=True):
        assert given(b.orders) == given(a.orders), a.position.phase
        assert results_set(b) == results_set(a), a.position.phase
        assert sorted(b.outcome.center_changes) == sorted(a.outcome.center_changes)
    assert back.orders == g.orders
    assert back.name == g.name and back.status == g.status


def test_round_trip_through_files_and_the_cli(tmp_path, capsys) -> None:
    g = play_polydip(seed=7, years=2)
    native = tmp_path / "game.json"
    g.save(native)
    dip = tmp_path / "game.dip.json"
    assert main(["convert", str(native), str(dip), "--to", "diplomacy"]) == 0
    data = json.loads(dip.read_text())
    assert data["map"] == "standard" and "format" not in data
    back = tmp_path / "back.json"
    assert main(["convert", str(dip), str(back)]) == 0  # Game.load sees the package's format
    assert "a polydip game file" in capsys.readouterr().out
    g2 = Game.load(back)
    assert [norm(g2, p) for p in all_positions(g2)] == [norm(g, p) for p in all_positions(g)]


# ---- (d) a hand-written file (no diplomacy package needed) --------------------------------------


def test_fixture_reads_as_a_polydip_game() -> None:
    g = Game.load(FIXTURE)
    m = g.map
    assert g.name == "dipjson-fixture"
    assert [r.position.phase.name for r in g.history] == ["S1901M", "F1901M", "F1901R", "W1901A"]
    assert g.phase == "S1902M"
    assert g.orders == {m.power_index["france"]: ["A MUN - BOH", "F BRE - MAO"]}
    # the retreat phase: who dislodged the unit, where it may go (BUR is the attacker's
    # origin, SIL was left empty by a standoff, TYR is occupied)
    retreat = g.history[2].position
    (d,) = retreat.dislodged
    assert (m.powers[d.power], m.unit_str(d.kind, d.loc)) == ("Germany", "A MUN")
    assert m.prov_abbr[d.attacker] == "BUR" and not d.convoyed
    assert sorted(m.loc_name[x] for x in d.retreats) == ["BOH", "KIE", "RUH"]
    assert {m.prov_abbr[p] for p in retreat.contested} == {"SIL"}
    # results: power, order in the package's notation, words ("" is the package's OK)
    s1901 = {(m.powers[r.power], r.text): r.result for r in g.history[0].outcome.results}
    assert s1901[("Germany", "A MUN - BUR")] == ["bounce"]
    assert s1901[("France", "A PAR - BUR")] == []
    assert s1901[("Italy", "A ROM H")] == []  # unordered: holds
    f1901 = {r.text: r.result for r in g.history[1].outcome.results}
    assert f1901["A MUN H"] == ["dislodged"] and f1901["A WAR - SIL"] == ["bounce"]
    builds = {(m.powers[r.power], r.text): r.result for r in g.history[3].outcome.results}
    assert builds == {("Austria", "A VIE B"): [], ("France", "A PAR B"): [],
                      ("France", "F BRE B"): []}
    changes = {m.prov_abbr[p]: (m.powers[a] if a >= 0 else None, m.powers[b])
               for p, a, b in g.history[2].outcome.center_changes}
    assert changes == {"MUN": ("Germany", "France"), "SER": (None, "Austria"),
                       "POR": (None, "France"), "SPA": (None, "France"),
                       "HOL": (None, "Germany")}


def test_fixture_history_agrees_with_polydip_adjudication() -> None:
    """Each phase of the file, adjudicated again by polydip, gives the file's next phase."""
    g = Game.load(FIXTURE)
    for rec in g.history:
        parsed, errors = parse_orders(g.map, rec.position.phase, rec.orders)
        assert errors == []
        out = process(g.map, rec.position, parsed, g.options)
        assert norm(g, out.position) == norm(g, rec.outcome.position), rec.position.phase
        assert {(r.power, r.text, tuple(r.result)) for r in out.results} == results_set(rec)
    g.process()  # and the pending orders play on
    assert g.phase == "F1902M"
    france = g.power("France")
    assert {g.map.unit_str(u.kind, u.loc) for u in g.position.units if u.power == france} >= {
        "A BOH", "F MAO"}


def test_fixture_exports_back_to_the_same_file_content() -> None:
    data = json.loads(FIXTURE.read_text())
    out = game_to_diplomacy(Game.load(FIXTURE))
    assert [p["name"] for p in out["phases"]] == [p["name"] for p in data["phases"]]
    for mine, theirs in zip(out["phases"], data["phases"], strict=True):
        for key in ("units", "centers", "homes"):
            assert sorted_lists(mine["state"][key]) == sorted_lists(theirs["state"][key]), key
        assert {k: sorted(v) for k, v in mine["orders"].items() if v} == {
            k: sorted(v) for k, v in theirs["orders"].items() if v}
        assert {k: v for k, v in mine["results"].items() if k != "WAIVE"} == {
            k: v for k, v in theirs["results"].items() if k != "WAIVE"}
    assert out["phases"][2]["state"]["retreats"]["GERMANY"] == {"A MUN": ["BOH", "KIE", "RUH"]}
    assert out["phases"][3]["state"]["builds"]["FRANCE"] == {"count": 3,
                                                           "homes": ["BRE", "MAR", "PAR"]}


def test_a_file_starting_with_a_retreat_phase_uses_its_retreat_places() -> None:
    data = json.loads(FIXTURE.read_text())
    data["phases"] = data["phases"][2:]  # no movement phase to find the attacker in
    g = Game.from_diplomacy(copy.deepcopy(data))
    (d,) = g.history[0].position.dislodged
    assert d.attacker == -1
    assert sorted(g.map.loc_name[x] for x in d.retreats) == ["BOH", "KIE", "RUH"]
    del data["phases"][0]["state"]["retreats"]  # nothing to go on: every empty neighbour
    (d,) = Game.from_diplomacy(data).history[0].position.dislodged
    assert sorted(g.map.loc_name[x] for x in d.retreats) == ["BOH", "BUR", "KIE", "RUH", "SIL"]


def test_fixture_is_read_by_the_diplomacy_package() -> None:
    pytest.importorskip("diplomacy")
    from diplomacy.utils.export import from_saved_game_format

    dg = from_saved_game_format(json.loads(FIXTURE.read_text()))
    assert dg.get_current_phase() == "S1902M"
    assert sorted(dg.get_orders("FRANCE")) == ["A MUN - BOH", "F BRE - MAO"]


# ---- (e) malformed files ------------------------------------------------------------------------


def _mutate(path: str, value):
    def apply(data: dict) -> dict:
        keys = path.split("/")
        target = data
        for k in keys[:-1]:
            target = target[int(k)] if isinstance(target, list) else target[k]
        last = keys[-1]
        if value is _DELETE:
            del target[last]
        else:
            target[int(last) if isinstance(target, list) else last] = value
        return data
    return apply


_DELETE = object()


@pytest.mark.parametrize(("path", "value", "expect"), [
    ("phases", "S1901M", r'"phases" must be a non-empty list'),
    ("phases", [], r'"phases" must be a non-empty list'),
    ("phases/1", "F1901M", r"phases\[1\]: a phase is an object"),
    ("phases/1/state", _DELETE, r"phases\[1\] \(F1901M\): \"state\" missing"),
    ("phases/1/name", "X1901M", r"phases\[1\] \(X1901M\): name: .*unknown season"),
    ("phases/0/state/units", ["A PAR"], r"phases\[0\] \(S1901M\): state.units: an object"),
    ("phases/0/state/units/FRANCE", "A PAR", r"state.units.FRANCE: a list of strings"),
    ("phases/0/state/units/PRUSSIA", ["A BER"], r"phases\[0\] .*unknown power 'PRUSSIA'"),
    ("phases/0/state/units/FRANCE", ["Z PAR"], r"phases\[0\] \(S1901M\): state: .*'Z PAR'"),
    ("phases/0/state/centers/FRANCE", ["BUR"], r"BUR is not a supply center"),
    ("phases/1/orders/FRANCE", "A BUR - MUN", r"phases\[1\] \(F1901M\): orders.FRANCE"),
    ("phases/1/results", ["A BUR"], r"phases\[1\] \(F1901M\): results: an object"),
    ("phases/1/results/A BUR", 3, r"results.A BUR: a list of result words"),
    ("phases/1/results/A XYZ", [], r"phases\[1\] \(F1901M\): results: .*unknown place"),
    ("phases/2/state/units/GERMANY", ["F HOL", "A BER", "*A MUNICHX"],
     r"phases\[2\] \(F1901R\): state"),
    ("phases/2/state/retreats", ["A MUN"], r"phases\[2\] \(F1901R\): state.retreats"),
])
def test_malformed_files_name_the_problem(tmp_path, path, value, expect) -> None:
    data = _mutate(path, value)(json.loads(FIXTURE.read_text()))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(GameFileError, match=expect) as info:
        Game.load(bad)
    assert str(bad) in str(info.value)


def test_an_unknown_map_names_the_map_and_how_to_give_it(tmp_path, capsys) -> None:
    data = json.loads(FIXTURE.read_text())
    data["map"] = "atlantis"
    with pytest.raises(GameFileError, match="map 'atlantis' is neither a built-in variant"):
        Game.from_diplomacy(data)
    bad = tmp_path / "atlantis.json"
    bad.write_text(json.dumps(data))
    assert main(["show", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "atlantis.toml, .map or .cfg" in err and "--search-path DIR" in err
    data = json.loads(FIXTURE.read_text())
    data["phases"][0]["state"]["map"] = "modern"
    with pytest.raises(GameFileError, match=r"phases\[0\] \(S1901M\): state.map 'modern' is "
                       "not the game's map 'standard'"):
        Game.from_diplomacy(data)


def test_not_a_saved_game() -> None:
    with pytest.raises(GameFileError, match="not a diplomacy saved game"):
        Game.from_diplomacy([])  # type: ignore[arg-type]
    data = copy.deepcopy(json.loads(FIXTURE.read_text()))
    data["phases"] = [{"name": "COMPLETED", "state": {"units": {}}}]
    with pytest.raises(GameFileError, match="COMPLETED"):
        Game.from_diplomacy(data)


def test_cli_convert_reports_a_malformed_file(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"phases": [{"name": "S1901M", "state": {"units": {"FRANCE": 1}}}]}))
    assert main(["convert", str(bad), str(tmp_path / "out.json")]) == 1
    err = capsys.readouterr().err
    assert "phases[0] (S1901M): state.units.FRANCE" in err


def test_a_variant_file_naming_itself_otherwise_is_found_again_by_its_file_name(
        tmp_path, monkeypatch) -> None:
    """A saved game names a variant file's variant by the file's name, which the search path
    finds, when the file declares another name (`name = "Copy of standard"`)."""
    text = (Path(loader.__file__).parent / "data" / "standard.toml").read_text()
    assert '\nname = "standard"\n' in text
    path = tmp_path / "my_copy.toml"
    path.write_text(text.replace('\nname = "standard"\n', '\nname = "Copy of standard"\n', 1))
    g = Game.new(load_variant(path))
    g.process()
    data = game_to_diplomacy(g)
    assert data["map"] == "my_copy"
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", str(tmp_path))
    back = Game.from_diplomacy(data)
    assert back.variant.name == "Copy of standard" and back.phase == g.phase


def test_a_game_read_from_the_package_keeps_the_year_start_owners_through_the_fall():
    """The reader leaves the owners at the year's start out where they are the owners now;
    when the fall then changed owners, the winter's year-start owners were the new ones (a
    center taken in the fall counted as owned at the year's start). The same game played on
    from its package JSON reaches the same position, key and year-start owners."""
    from polydip.game.game import Game

    a = Game.new("standard")
    a.set_orders("France", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    a.process()
    b = Game.from_diplomacy(json.loads(json.dumps(game_to_diplomacy(a))))
    for g in (a, b):
        g.set_orders("France", ["A SPA H", "F MAO - POR", "A BUR - BEL"])
        g.process()
    assert b.phase == "W1901A" and b.position.key() == a.position.key()
    france = b.power("France")
    start = b.position.year_start_owners
    assert start is not None
    assert sorted(b.map.prov_abbr[c] for c, o in enumerate(start) if o == france) == [
        "BRE", "MAR", "PAR"]
