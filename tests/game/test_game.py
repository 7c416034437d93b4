"""Game: phase sequence, center ownership, victory, orders handling, saved files."""

from __future__ import annotations

import json
import random
import re

import pytest

from polydip.errors import GameFileError, PolydipError
from polydip.game.files import write_atomic
from polydip.game.game import Game
from polydip.play import random_orders


def units_of(g: Game, power: str) -> set[str]:
    p = g.power(power)
    return {g.map.unit_str(u.kind, u.loc) for u in g.position.units if u.power == p}


def venice_dislodged() -> Game:
    """A standard game at F1901R: Austria dislodged the Italian army in Venice."""
    g = Game.new("standard")
    g.set_orders("Austria", ["A VIE - TYR", "A BUD - VIE"])
    g.set_orders("Italy", ["A VEN H"])
    g.process()
    g.set_orders("Austria", ["A TYR - VEN", "F TRI S A TYR - VEN"])
    g.process()
    return g


def test_phase_sequence_skips_empty_retreats_and_adjustments() -> None:
    g = Game.new("standard")
    assert g.phase == "S1901M"
    g.process()
    assert g.phase == "F1901M"  # no retreat: nothing dislodged
    g.process()
    assert g.phase == "S1902M"  # no adjustment: nobody gained or lost a center


def test_center_changes_after_fall_and_builds_in_winter() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR", "A MAR - SPA", "F BRE - MAO"])
    g.process()
    pos = g.position
    spa = g.map.prov_index["SPA"]
    assert pos.owners[spa] == -1  # not yet: centers change owner after the fall
    g.set_orders("France", ["F MAO - POR", "A BUR - BEL"])
    out = g.process()
    assert g.phase == "W1901A"
    changed = {g.map.prov_abbr[p] for p, _, new in out.center_changes}
    assert changed == {"SPA", "POR", "BEL"}
    assert g.position.owners[spa] == g.power("France")
    assert set(g.legal_orders("France")) == {"BRE", "MAR", "PAR"}
    problems = g.set_orders("France", ["Build A Paris", "build F Brest", "A MAR B"])
    assert problems == []
    g.process()
    assert g.phase == "S1902M"
    assert {"A PAR", "F BRE", "A MAR"} <= units_of(g, "France")


def test_dislodgement_leads_to_a_retreat_phase_with_options() -> None:
    g = Game.new("standard")
    g.set_orders("Germany", ["A MUN - TYR"])
    g.set_orders("Italy", ["A VEN - TYR"])
    g.process()
    g.set_orders("Germany", ["A MUN - TYR", "A BER - MUN"])
    g.set_orders("Austria", ["A VIE - TYR"])
    out = g.process()  # Munich-Tyrolia and Vienna-Tyrolia bounce; nothing dislodged
    results = {r.text: r.result for r in out.results}
    assert results["A MUN - TYR"] == ["bounce"] and results["A VIE - TYR"] == ["bounce"]
    assert results["A BER - MUN"] == ["bounce"]  # Munich stayed where it was
    assert out.position.dislodged == [] and out.center_changes == []
    assert g.phase == "S1902M"  # no retreat, nobody to build or remove
    assert {"A MUN", "A BER"} <= units_of(g, "Germany") and "A VIE" in units_of(g, "Austria")
    g2 = venice_dislodged()
    assert g2.phase == "F1901R"
    (d,) = g2.position.dislodged
    assert g2.map.unit_str(d.kind, d.loc) == "A VEN"
    retreats = {g2.map.loc_name[x] for x in d.retreats}
    # not Tyrolia (the attacker came from there), not Rome (occupied)
    assert retreats == {"APU", "TUS", "PIE"}
    # a retreat the unit cannot make is refused when given, with where it may go
    [problem] = g2.set_orders("Italy", ["A VEN R TYR"])
    assert "APU, PIE, TUS" in problem and g2.orders == {}
    out = g2.process()
    assert next(r.result for r in out.results if "VEN" in r.text) == ["disband"]
    assert "A VEN" not in units_of(g2, "Italy")


def test_orders_are_replaced_per_unit_and_bad_ones_reported() -> None:
    g = Game.new("standard")
    assert g.set_orders("France", ["A PAR - BUR", "A MAR - SPA"]) == []
    problems = g.set_orders("France", ["A PAR - PIC", "A Pari - Gascony", "A MUN - RUH"])
    assert len(problems) == 2
    assert "did you mean" in problems[0]
    assert "belongs to Germany" in problems[1]
    assert g.orders[g.power("France")] == ["A MAR - SPA", "A PAR - PIC"]


def test_a_refused_order_is_not_kept_whatever_its_text() -> None:
    """An order refused for a unit the power does not have is reported and not kept, also
    when its text holds an apostrophe (the message quotes it with double quotes)."""
    g = Game.new("standard")
    problems = g.set_orders("France", ["A Ber - Kie'", "A PAR - BUR"])
    assert problems == ['"A Ber - Kie\'": the unit in Berlin belongs to Germany']
    assert g.orders[g.power("France")] == ["A PAR - BUR"]


def test_unknown_power_suggests() -> None:
    g = Game.new("standard")
    with pytest.raises(PolydipError, match="did you mean"):
        g.set_orders("Frnace", ["A PAR H"])


def test_victory_at_eighteen_centers_ends_the_game() -> None:
    g = Game.new("standard")
    france = g.power("France")
    owners = g.position.owners
    owners[:] = [-1] * len(owners)
    for p in g.map.sc_list[:17]:
        owners[p] = france
    g._check_end()
    assert not g.is_over
    owners[g.map.sc_list[17]] = france
    g._check_end()
    assert g.status == "won" and g.winners == [france]
    with pytest.raises(PolydipError, match="over"):
        g.process()


def test_undo_restores_the_phase_and_its_orders() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR"])
    g.process()
    assert "A BUR" in units_of(g, "France")
    g.undo()
    assert g.phase == "S1901M"
    assert "A PAR" in units_of(g, "France")
    assert g.orders[g.power("France")] == ["A PAR - BUR"]


def test_save_and_load_round_trip(tmp_path) -> None:
    g = Game.new("standard")
    rng = random.Random(5)
    for _ in range(8):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    g.set_orders("France", ["A PAR H"]) if "A PAR" in units_of(g, "France") else None
    path = tmp_path / "g.json"
    g.save(path)
    h = Game.load(path)
    assert h.phase == g.phase
    assert sorted(h.position.units) == sorted(g.position.units)
    assert h.position.owners == g.position.owners
    assert h.orders == g.orders
    assert [r.position.phase for r in h.history] == [r.position.phase for r in g.history]
    assert [r.outcome.results for r in h.history] == [r.outcome.results for r in g.history]
    # and the loaded game plays on
    h.process()


def test_a_saved_game_is_never_half_written(tmp_path, monkeypatch) -> None:
    path = tmp_path / "g.json"
    g = Game.new("standard")
    g.save(path)
    before = path.read_text()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.fsync", boom)
    g.set_orders("France", ["A PAR - BUR"])
    with pytest.raises(GameFileError, match="No space left"):
        g.save(path)
    assert path.read_text() == before
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]  # no temporary file left


@pytest.mark.parametrize(("content", "message"), [
    ("not json", "not valid JSON"),
    ("[]", "not a polydip game file"),
    ('{"format": "polydip-game", "version": 99}', "version 99"),
    ('{"format": "polydip-game", "version": 1, "variant": {"name": "nosuch"}}', "nosuch"),
    ('{"format": "polydip-game", "version": 1, "variant": {"name": "standard"}, '
     '"current": {"position": {"phase": "S1901M", "units": {"France": ["A XXX"]}}}}',
     "unknown place"),
])
def test_bad_game_files_give_clear_errors(tmp_path, content: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(GameFileError, match=message):
        Game.load(path)


def test_write_atomic_replaces_whole_file(tmp_path) -> None:
    path = tmp_path / "x.json"
    write_atomic(path, json.dumps({"a": 1}))
    write_atomic(path, json.dumps({"b": 2}))
    assert json.loads(path.read_text()) == {"b": 2}


# the command line in a child process whose save hangs once the temporary file is written
# (fsync of the new file never returns), so that the parent can kill it mid-save
_SLOW_SAVE = """
import os, sys, time
def hang(fd):
    print("saving", flush=True)
    time.sleep(60)
os.fsync = hang
from polydip.cli.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("sig", ["SIGTERM", "SIGINT", "SIGHUP"])
def test_a_save_killed_midway_leaves_no_temporary_file(tmp_path, sig: str) -> None:
    """The command line killed while it saves: the game file is the old one whole, and the
    hidden temporary file beside it is gone; the program still ends by the signal."""
    import os
    import signal
    import subprocess
    import sys
    from pathlib import Path

    import polydip

    path = tmp_path / "g.json"
    Game.new("standard").save(path)
    before = path.read_text()
    src = str(Path(polydip.__file__).parent.parent)
    env = {**os.environ, "PYTHONPATH": src + os.pathsep + os.environ.get("PYTHONPATH", "")}

    def as_from_a_terminal() -> None:
        # (a test runner started with nohup or in the background passes its children SIGHUP
        # or SIGINT ignored, which a program rightly leaves ignored; a user's shell does not)
        for name in ("SIGTERM", "SIGINT", "SIGHUP"):
            signal.signal(getattr(signal, name), signal.SIG_DFL)

    with subprocess.Popen(
            [sys.executable, "-c", _SLOW_SAVE, "orders", str(path), "France", "A PAR - BUR"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
            preexec_fn=as_from_a_terminal) as child:
        try:
            assert child.stdout.readline() == "saving\n", child.stderr.read()
            assert any(p.name.endswith(".tmp") for p in tmp_path.iterdir())  # mid-save
            child.send_signal(getattr(signal, sig))
            code = child.wait(timeout=30)
        finally:
            child.kill()
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []
    assert path.read_text() == before
    if sig == "SIGINT":
        assert code == 130  # "polydip: interrupted"
    else:
        assert code == -getattr(signal, sig)  # ended by the signal, as without the save


def test_a_save_flushes_the_file_and_then_its_folder(tmp_path, monkeypatch) -> None:
    """The rename that puts the new file in place is flushed too (fsync of the folder):
    without it a power loss may bring back the old file after the save was acknowledged."""
    import os
    import stat

    flushed: list[str] = []
    real = os.fsync

    def record(fd: int) -> None:
        flushed.append("folder" if stat.S_ISDIR(os.fstat(fd).st_mode) else "file")
        real(fd)

    monkeypatch.setattr("os.fsync", record)
    Game.new("standard").save(tmp_path / "g.json")
    assert flushed == ["file", "folder"]


def test_year_start_owners_survive_a_reload(tmp_path) -> None:
    """A game begun in the fall with the owners of the year's start given: after the fall
    the owners are those of the year's start again (France takes Spain back). The winter's
    owners at the year's start are kept by the save, so the saved and reloaded game exports
    the same package JSON as the game in memory."""
    from polydip.game.dipjson import game_to_diplomacy
    from polydip.game.files import position_from_json
    from polydip.game.positions import position_to_json

    g = Game.new("standard")
    req = position_to_json(g.map, g.position)
    start = {k: list(v) for k, v in req["centers"].items()}
    start["France"].append("SPA")
    req.update(phase="F1901M", year_start_centers=start)
    g.position = position_from_json(g.map, req, "start")
    g.set_orders("France", ["A MAR - SPA"])
    g.process()
    assert g.phase == "W1901A" and g.position.year_start_owners == g.position.owners
    path = tmp_path / "g.json"
    g.save(path)
    h = Game.load(path)
    assert h.position.year_start_owners == g.position.year_start_owners
    assert game_to_diplomacy(h, stamp=1) == game_to_diplomacy(g, stamp=1)
    h.save(tmp_path / "again.json")
    assert (tmp_path / "again.json").read_text() == path.read_text()


def test_damaged_game_files_never_crash(tmp_path) -> None:
    """Random damage to a saved game gives a GameFileError (or a game that plays on), never
    a traceback."""
    import copy

    g = Game.new("standard")
    rng = random.Random(5)
    for _ in range(6):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
    path = tmp_path / "g.json"
    g.save(path)
    base = json.loads(path.read_text())
    junk = [None, 1, "x", [], {}, [1], {"a": 1}, True, "S1901M", ["A PAR"], -1]

    def damage(d) -> None:
        if isinstance(d, dict) and d:
            k = rng.choice(list(d))
            r = rng.random()
            if r < 0.3:
                del d[k]
            elif r < 0.6:
                d[k] = copy.deepcopy(rng.choice(junk))
            else:
                damage(d[k])
        elif isinstance(d, list) and d:
            i = rng.randrange(len(d))
            r = rng.random()
            if r < 0.3:
                del d[i]
            elif r < 0.6:
                d[i] = copy.deepcopy(rng.choice(junk))
            else:
                damage(d[i])

    for _ in range(300):
        d = copy.deepcopy(base)
        for _ in range(rng.randint(1, 3)):
            damage(d)
        path.write_text(json.dumps(d))
        try:
            h = Game.load(path)
            if not h.is_over:
                h.legal_orders()
                h.process()
        except PolydipError:
            pass


def test_positions_and_their_values_survive_pickling_and_copying() -> None:
    """Positions go through pickle (simulation workers, the host) and deepcopy: the units,
    the dislodged units, the phase and the results of a retreat phase come back equal —
    on the compiled build too, where the value classes are native classes."""
    import copy
    import pickle

    from polydip.adjudication.retreats import resolve_retreats

    g = venice_dislodged()
    pos = g.position
    assert pos.dislodged  # (Venice, dislodged)
    for back in (pickle.loads(pickle.dumps(pos)), copy.deepcopy(pos), pos.copy()):
        assert back == pos and back is not pos
        assert back.phase == pos.phase and hash(back.phase) == hash(pos.phase)
        assert back.phase.name == "F1901R" and str(back.phase) == "F1901R"
        assert back.units == pos.units and back.dislodged == pos.dislodged
        assert {hash(u) for u in back.units} == {hash(u) for u in pos.units}
    res = resolve_retreats(g.map, pos.dislodged, [None])
    assert pickle.loads(pickle.dumps(res)) == res


def test_units_compare_and_sort_by_power_kind_and_location() -> None:
    from polydip.state import Dislodged, Unit

    a, b, c = Unit(1, 0, 5), Unit(1, 1, 1), Unit(2, 0, 1)
    assert sorted([c, b, a]) == [a, b, c] and a < b <= b < c and c > a >= a
    assert Unit(1, 0, 5) == a and hash(Unit(1, 0, 5)) == hash(a) and a != b
    assert len({a, Unit(1, 0, 5), b}) == 2
    assert Unit(1, 0, 5) != Dislodged(1, 0, 5)  # a dislodged unit is not a unit on the board
    d = Dislodged(1, 0, 5, attacker=3, retreats=(1, 2))
    assert d.but(retreats=()) == Dislodged(1, 0, 5, 3, False, ())
    assert a.but(power=4) == Unit(4, 0, 5) and a == Unit(1, 0, 5)  # (a copy: a unchanged)
    assert repr(a) == "Unit(power=1, kind=0, loc=5)"


def test_the_wrong_kind_of_argument_is_named_not_taken() -> None:
    """One order string where a list is meant was read letter by letter; a float power was
    taken and the game could not be saved after; an index out of range listed no order."""
    g = Game.new("standard")
    for power, orders, said in (
            ("France", "A PAR - BUR", "a list of order strings, not one string"),
            ("France", [1, 2], "order strings ('A PAR - BUR'), not 1"),
            (2.0, ["A PAR - BUR"], "its index 0 to 6, not 2.0"),
            (True, ["A PAR - BUR"], "not True")):
        with pytest.raises(PolydipError, match=re.escape(said)):
            g.set_orders(power, orders)
    for power in (99, -1, 1.0):
        with pytest.raises(PolydipError, match="its index 0 to 6"):
            g.legal_orders(power)
    assert g.orders == {}
    assert g.set_orders(2, ["A PAR - BUR"]) == [] and g.orders == {2: ["A PAR - BUR"]}
