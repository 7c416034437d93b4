"""Search plumbing (issue 32, item 5): a stable position hash, hashable positions,
FastGame clone and snapshot/restore, pickles that name the map instead of carrying it."""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from polydip.compile import map_of, map_ref
from polydip.errors import PolydipError, VariantError
from polydip.fast import FastGame
from polydip.game.game import Game
from polydip.state import Dislodged, Phase, Position, Unit

SRC = str(Path(__file__).resolve().parents[2] / "src")


def _play(fg: FastGame, seed: int, phases: int) -> list[tuple[list[list[int]], bytes]]:
    """Random phases; per phase the legal codes and the key of the position reached."""
    rng = random.Random(seed)
    seen = []
    for _ in range(phases):
        if fg.is_over:
            break
        legal = fg.legal()
        fg.step([rng.choice(c) if c else -1 for c in legal])
        seen.append(([list(c) for c in legal], fg.position.key()))
    return seen


def _subprocess(code: str, stdin: bytes = b"") -> bytes:
    env = {**os.environ, "PYTHONPATH": SRC, "PYTHONHASHSEED": "random"}
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          env=env, check=True, timeout=120)
    return done.stdout


# ---- the position key ---------------------------------------------------------------------

def test_equal_positions_reached_two_ways_have_equal_keys() -> None:
    # the same moves typed in two orders of entry, and the same units listed in another order
    a, b = Game.new("standard"), Game.new("standard")
    a.set_orders("FRANCE", ["A PAR - BUR", "A MAR - PIE"])
    a.set_orders("GERMANY", ["A MUN - RUH"])
    b.set_orders("GERMANY", ["A MUN - RUH"])
    b.set_orders("FRANCE", ["A MAR - PIE", "A PAR - BUR"])
    a.process()
    b.process()
    assert a.position == b.position
    assert a.position.key() == b.position.key()
    shuffled = a.position.copy()
    shuffled.units = list(reversed(shuffled.units))
    assert shuffled.key() == a.position.key()
    assert hash(shuffled) == hash(a.position)
    assert len({a.position, b.position, shuffled}) <= 2  # (== is by the units' order)


def test_different_positions_have_different_keys() -> None:
    fg = FastGame.new("standard")
    start = fg.position
    keys = {start.key()}
    variants = []
    p = start.copy()
    p.units = p.units[1:]  # a unit fewer
    variants.append(p)
    p = start.copy()
    p.units = [p.units[0].but(power=(p.units[0].power + 1) % 7), *p.units[1:]]  # an owner
    variants.append(p)
    p = start.copy()
    p.owners = [(-1 if i == start.units[0].loc else o) for i, o in enumerate(p.owners)]
    variants.append(p)
    p = start.copy()
    p.phase = replace_phase(start, year=1902)
    variants.append(p)
    p = start.copy()
    p.dislodged = [Dislodged(0, 0, 5, attacker=3, retreats=(1, 2))]
    variants.append(p)
    p = start.copy()
    p.dislodged = [Dislodged(0, 0, 5, attacker=3, retreats=(1,))]
    variants.append(p)
    p = start.copy()
    p.contested = frozenset({4})
    variants.append(p)
    p = start.copy()
    p.extra = {"rule": {"a": [1, 2]}}
    variants.append(p)
    p = start.copy()
    p.year_start_owners = [-1] * len(start.owners)
    variants.append(p)
    for v in variants:
        keys.add(v.key())
    assert len(keys) == len(variants) + 1
    # and the phases of a played game all differ
    seen = [k for _legal, k in _play(FastGame.new("standard"), 3, 20)]
    assert len(set(seen)) == len(seen)


def replace_phase(pos: Position, year: int) -> Phase:
    return Phase(year, pos.phase.season, pos.phase.type)


def test_key_ignores_year_start_owners_equal_to_owners() -> None:
    p = FastGame.new("standard").position.copy()
    q = p.copy()
    q.year_start_owners = list(p.owners)
    assert p.key() == q.key()


def test_keys_are_the_same_in_another_process() -> None:
    seen = _play(FastGame.new("standard"), 7, 12)
    code = ("import random, sys\nfrom polydip.fast import FastGame\n"
            "fg = FastGame.new('standard'); rng = random.Random(7)\n"
            "for _ in range(12):\n"
            "    fg.step([rng.choice(c) if c else -1 for c in fg.legal()])\n"
            "    sys.stdout.write(fg.position.key().hex() + '\\n')\n")
    out = _subprocess(code).decode().split()
    assert out == [k.hex() for _legal, k in seen]


def test_positions_are_hashable_dict_keys() -> None:
    fg = FastGame.new("standard")
    table = {fg.position: "start"}
    assert table[fg.position.copy()] == "start"
    assert isinstance(hash(Position(fg.position.phase, [Unit(0, 0, 1)], [])), int)


# ---- clone, snapshot, restore -------------------------------------------------------------

def test_clone_plays_on_alone() -> None:
    fg = FastGame.new("standard")
    _play(fg, 1, 3)
    twin = fg.clone()
    assert twin.m is fg.m and twin.table is fg.table
    assert twin.victory == fg.victory
    assert twin.position == fg.position and twin.legal() == fg.legal()
    before = fg.position.key()
    a = _play(twin, 5, 6)
    assert fg.position.key() == before  # the original did not move
    b = _play(fg, 5, 6)
    assert a == b  # the same codes give the same games


def test_restore_goes_back_and_replays_the_same() -> None:
    fg = FastGame.new("standard")
    _play(fg, 2, 4)
    snap = fg.snapshot()
    legal, phase, key = fg.legal(), fg.phase, fg.key()
    first = _play(fg, 9, 8)
    _play(fg, 10, 5)  # another branch
    fg.restore(snap)
    assert (fg.legal(), fg.phase, fg.key()) == (legal, phase, key)
    assert _play(fg, 9, 8) == first
    # a snapshot restores into a clone too
    twin = FastGame.new("standard")
    twin.restore(snap)
    assert twin.key() == key


def test_restore_brings_back_a_finished_game() -> None:
    fg = FastGame.new("standard")
    snap = fg.snapshot()
    fg.status, fg.winners = "won", [2]
    fg.restore(snap)
    assert (fg.status, fg.winners, fg.is_over) == ("active", [], False)


def test_restore_refuses_what_is_not_a_snapshot() -> None:
    fg = FastGame.new("standard")
    with pytest.raises(PolydipError, match="snapshot"):
        fg.restore(fg.position)  # type: ignore[arg-type]
    other = FastGame.new("wita")
    with pytest.raises(PolydipError, match="cannot be restored"):
        fg.restore(other.snapshot())


# ---- pickles ------------------------------------------------------------------------------

def test_pickle_is_small_and_names_the_map() -> None:
    fg = FastGame.new("standard")
    _play(fg, 4, 5)
    data = pickle.dumps(fg)
    assert len(data) < 4000  # (261 KB when it carried the variant and the order table)
    assert b"standard" in data
    back = pickle.loads(data)
    assert back.m is fg.m  # the process's own compiled map, not a new one
    assert back.position == fg.position and back.legal() == fg.legal()
    assert _play(back, 8, 6) == _play(fg, 8, 6)


def test_pickle_round_trips_in_a_fresh_process() -> None:
    fg = FastGame.new("standard")
    _play(fg, 6, 7)
    expected = _play(fg.clone(), 11, 6)
    code = ("import pickle, random, sys\n"
            "fg = pickle.loads(sys.stdin.buffer.read()); rng = random.Random(11)\n"
            "for _ in range(6):\n"
            "    fg.step([rng.choice(c) if c else -1 for c in fg.legal()])\n"
            "    sys.stdout.write(fg.position.key().hex() + '\\n')\n")
    out = _subprocess(code, pickle.dumps(fg)).decode().split()
    assert out == [k.hex() for _legal, k in expected]


def test_pickle_keeps_the_history_a_victory_condition_reads() -> None:
    fg = FastGame.new("standard")
    fg.victory = replace(fg.victory, no_change_years=3)
    _play(fg, 1, 4)
    assert len(fg.history) == 4
    back = pickle.loads(pickle.dumps(fg))
    assert [r.position for r in back.history] == [r.position for r in fg.history]
    assert [list(r.outcome.center_changes) for r in back.history] == \
        [list(r.outcome.center_changes) for r in fg.history]


def test_a_variant_not_built_in_is_pickled_whole_and_compiled_once() -> None:
    from polydip.variants.loader import load_builtin, load_variant_text

    std = load_builtin("standard")
    v = load_variant_text(std.text, "mine.toml", untrusted=False, path="mine.toml")
    fg = FastGame.new(v)
    ref = map_ref(fg.m)
    assert ref[0] == "variant"
    data = pickle.dumps(fg)
    one, two = pickle.loads(data), pickle.loads(data)
    assert one.m is two.m  # one compile per process per variant
    assert one.position == fg.position and one.legal() == fg.legal()


def test_a_bad_map_reference_is_a_clear_error() -> None:
    with pytest.raises(VariantError, match="not a map reference"):
        map_of(("nonsense",))
    with pytest.raises(VariantError, match="no variant named"):
        map_of(("builtin", "no-such-variant"))
