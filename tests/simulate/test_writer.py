"""The simulation's writer: with a memo kept across games, movement phases are written from
what the adjudication bound to each unit; the saved games must be exactly what the general
writer (reading the typed orders again) writes, on every built-in variant."""

from __future__ import annotations

import json
import random

import pytest

from polydip.compile import compile_map
from polydip.fast import FastGame
from polydip.game import jsonbytes
from polydip.game.dipjson import WriteMemo, diplomacy_line, game_to_diplomacy
from polydip.game.game import Game
from polydip.game.record import PhaseRecord
from polydip.simulate.players import load_player
from polydip.variants.loader import load_variant

VARIANTS = ["standard", "wita", "lad1890", "twentieth_century", "war_in_north_america"]


def _played(variant, seed: int, years: int) -> Game:
    """A game played as simulate plays it (simulate/games.py): codes, their texts kept."""
    game = Game.new(variant, {})
    fg = FastGame.from_game(game)
    rng = random.Random(seed)
    player = load_player("random")
    history = []
    last = game.position.phase.year + years - 1
    while not fg.is_over and fg.position.phase.year <= last:
        pos = fg.position
        codes = player(fg, rng)
        orders: dict[int, list[str]] = {}
        for (p, _i), c in zip(fg.items(), codes, strict=True):
            if c >= 0 and fg.table.texts[c] not in orders.get(p, []):
                orders.setdefault(p, []).append(fg.table.texts[c])
        history.append(PhaseRecord(pos, orders, fg.step(codes)))
    game.position, game.history = fg.position, history
    return game


@pytest.mark.parametrize("name", VARIANTS)
def test_the_memo_writer_writes_what_the_general_writer_writes(name):
    variant = load_variant(name)
    memo = WriteMemo(compile_map(variant))
    for seed in range(2):  # the second game reads the first one's texts from the memo
        game = _played(variant, seed, 4)
        fast = game_to_diplomacy(game, stamp=0, memo=memo)
        general = game_to_diplomacy(game, stamp=0)
        assert json.dumps(fast) == json.dumps(general)
    assert (memo.bound or memo.orders) and any(t for row in memo.texts for t in row)


def test_a_memo_of_another_map_is_not_used():
    std, wita = load_variant("standard"), load_variant("wita")
    memo = WriteMemo(compile_map(std))
    game = _played(wita, 0, 1)
    assert game_to_diplomacy(game, stamp=0, memo=memo) == game_to_diplomacy(game, stamp=0)
    assert not memo.orders and not memo.bound  # (untouched: a fresh one was used)


@pytest.mark.parametrize("name", VARIANTS)
def test_the_line_is_the_same_bytes_with_orjson_and_without(name, monkeypatch):
    """simulate's line (diplomacy_line): orjson writes it, the standard library's bytes; the
    same bytes without orjson (a machine of a Ray cluster may not have it)."""
    pytest.importorskip("orjson")
    variant = load_variant(name)
    memo = WriteMemo(compile_map(variant))
    game = _played(variant, 3, 4)
    general = json.dumps(game_to_diplomacy(game, stamp=0), separators=(",", ":")).encode()
    fallbacks = []
    real = jsonbytes.standard
    monkeypatch.setattr(jsonbytes, "standard", lambda obj: fallbacks.append(1) or real(obj))
    assert diplomacy_line(game, stamp=0, memo=memo) == general
    assert not fallbacks  # orjson wrote it: no float, no byte it writes otherwise
    monkeypatch.setattr(jsonbytes, "_orjson", None)
    assert diplomacy_line(game, stamp=0, memo=WriteMemo(compile_map(variant))) == general


def test_a_float_in_the_options_is_written_by_the_standard_library(monkeypatch):
    pytest.importorskip("orjson")
    game = _played(load_variant("standard"), 0, 1)
    game.options = {**game.options, "a_float": 1e16}  # (no option is a float today)
    line = diplomacy_line(game, stamp=0, memo=WriteMemo(game.map))
    assert b'"a_float":1e+16' in line
    assert line == json.dumps(game_to_diplomacy(game, stamp=0),
                              separators=(",", ":")).encode()


@pytest.mark.parametrize("name", ["lad1890", "war_in_north_america"])
def test_units_sharing_a_space_are_numbered_as_the_order_reader_numbers_them(name):
    """The writer numbers every unit of a phase in one pass (`F PBS #2`): the numbers of
    orders/stacked.number_of, one unit at a time; on the played positions and on them with
    each power's first unit there twice more (three fleets in one ocean)."""
    from polydip.game.dipjson_write import _numbers
    from polydip.orders.stacked import number_of
    from polydip.state import Unit

    variant = load_variant(name)
    game = _played(variant, 1, 3)
    m = game.map
    for rec in game.history:
        units = list(rec.position.units)
        firsts = {u.power: u for u in reversed(units)}
        stacked = units + [Unit(u.power, u.kind, u.loc) for u in firsts.values()] * 2
        for lst in (units, list(rec.position.dislodged), stacked):
            got = _numbers(m, lst)
            assert got == [number_of(m, lst, i) for i in range(len(lst))]
        assert sorted(n for n in _numbers(m, stacked) if n)[-1] == 3


def _general(game) -> bytes:
    return json.dumps(game_to_diplomacy(game, stamp=0), separators=(",", ":")).encode()


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("status", ["active", "won", "drawn"])
def test_the_line_encoded_phase_by_phase_is_the_general_writers_json(name, status):
    """diplomacy_line with a memo encodes each phase as it is made: the bytes of json.dumps
    of the general writer's saved game, with retreats, builds, pending orders, a non-ASCII
    game name, a finished game's COMPLETED phase, a changed rule option; and with press (to
    all, to several, non-ASCII, of a phase not in the file)."""
    from polydip.game.press import GLOBAL, Message

    variant = load_variant(name)
    memo = WriteMemo(compile_map(variant))
    with_retreats = next(g for g in (_played(variant, s, 4) for s in range(20))
                         if any(rec.position.dislodged for rec in g.history))
    for seed, game in enumerate([_played(variant, 0, 3), with_retreats]):
        # (the second game reads the first one's texts from the memo)
        powers = game.map.powers
        game.name = f"partie-{seed}-Zürich «ü» \u2028"
        game.orders = {0: [game.history[-1].orders.get(0, ["?"])[0], "nonsense"]}
        game.status = status
        if seed:
            game.options = {**game.options, "no_such_option_value": "ü"}
        line = diplomacy_line(game, stamp=0, memo=memo)
        assert line == _general(game)
        assert (b"COMPLETED" in line) == (status != "active")
        first, last = game.history[0].position.phase.name, game.position.phase.name
        game.messages = [
            Message(first, powers[0], GLOBAL, 10, "Bonjour à tous \U0001f600"),
            Message(first, powers[1], (powers[0], powers[2]), 10, 'say "hi"\n'),
            Message(last, powers[2], (powers[0],), 5, "\x7f"),
            Message("X9999M", powers[0], (powers[1],), 20, "a phase not in the file"),
        ]
        with_press = diplomacy_line(game, stamp=0, memo=memo)
        assert with_press == _general(game) and with_press.count(b'"sender"') == 5
