"""The `bot` player (simulate/bot.py) and seat lists (`FRANCE=bot,random`), issue 31: one bot
power among random players ends with more centers than the best of them."""

from __future__ import annotations

import random

import pytest

from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.simulate import Job, simulate
from polydip.simulate.players import load_player


def _centers(fg: FastGame) -> list[int]:
    held = [0] * len(fg.m.powers)
    for pv in fg.m.sc_list:
        if fg.position.owners[pv] >= 0:
            held[fg.position.owners[pv]] += 1
    return held


def _play(variant: str, power: str, seed: int, years: int) -> tuple[FastGame, int]:
    fg = FastGame.new(variant)
    me = fg.m.find_power(power)
    assert me is not None
    player = load_player(f"{power}=bot,random")
    rng = random.Random(seed)
    last = fg.position.phase.year + years - 1
    while not fg.is_over and fg.position.phase.year <= last:
        fg.step(player(fg, rng))
    return fg, me


@pytest.mark.parametrize(("variant", "power", "seed"), [
    ("standard", "England", 1),     # an island: its armies need convoys
    ("standard", "Russia", 2),
    ("wita", "Peru", 3),            # neutral units hold centers
    ("war_in_north_america", "Mexico", 4),
])
def test_bot_outgrows_every_random_power(variant: str, power: str, seed: int) -> None:
    fg, me = _play(variant, power, seed, years=12)
    held = _centers(fg)
    best_other = max(h for p, h in enumerate(held) if p != me)
    assert held[me] >= 2 * best_other, (fg.phase, held)  # at least twice the best


def test_bot_is_reproducible_and_orders_only_its_power() -> None:
    a, _ = _play("standard", "France", 7, years=3)
    b, _ = _play("standard", "France", 7, years=3)
    assert a.position == b.position
    fg = FastGame.new("standard")
    codes = load_player("bot")(fg, random.Random(0))
    assert all(c >= 0 for c in codes)  # a movement phase: every unit gets an order
    france = fg.m.find_power("France")
    seats = load_player("France=bot,hold")(fg, random.Random(0))
    for (p, _i), c in zip(fg.items(), seats, strict=True):
        assert (c >= 0) == (p == france)  # hold: the others give no order


def test_bot_convoys_an_army_off_an_island() -> None:
    from polydip.game.positions import build_position

    m = FastGame.new("standard").m
    pos = build_position(m, {"phase": "S1901M", "units": {
        "ENGLAND": ["A WAL", "F ENG"], "FRANCE": ["A PAR"]}})
    fg = FastGame(m, pos)
    texts = [fg.table.texts[c] for c in load_player("bot")(fg, random.Random(0)) if c >= 0]
    army = next(t for t in texts if t.startswith("A WAL"))
    assert army.endswith(" VIA"), texts  # the army goes to the continent by the fleet
    assert f"F ENG C {army[:-4]}" in texts, texts


@pytest.mark.parametrize(("spec", "code"), [
    ("NARNIA=bot,random", "no power"),
    ("FRANCE=bot", "end with the player"),
    ("FRANCE=bot,FRANCE=random,random", "two players"),
    ("FRANCE=nope,random", "unknown player"),
    ("FRANCE=,random", "is not POWER=PLAYER"),
])
def test_bad_seat_lists_are_refused_before_playing(tmp_path, spec: str, code: str) -> None:
    with pytest.raises(PolydipError, match=code):
        simulate(Job("standard", {}, 0, 1, spec, 1902, 10), tmp_path / "out")
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_simulate_plays_a_seat_list(tmp_path) -> None:
    m = simulate(Job("standard", {}, 0, 2, "TURKEY=bot,random", 1903, 10), tmp_path)
    assert m["counts"]["games"] == 2 and m["player"] == "TURKEY=bot,random"


def test_a_power_of_armies_alone_builds_fleets() -> None:
    """Builds lean to the kind the power has fewer of: armies behind an isthmus (Colombia in
    the Twentieth Century) otherwise never get to sea."""
    from polydip.game.positions import build_position

    m = FastGame.new("standard").m
    pos = build_position(m, {"phase": "W1901A",
                             "units": {"TURKEY": ["A BUL", "A ARM"], "RUSSIA": ["A MOS"]},
                             "centers": {"TURKEY": ["CON", "ANK", "SMY", "BUL", "GRE"],
                                         "RUSSIA": ["MOS"]}})
    fg = FastGame(m, pos)
    texts = [fg.table.texts[c] for c in load_player("bot")(fg, random.Random(0)) if c >= 0]
    assert len(texts) == 3 and any(t.startswith("F ") for t in texts), texts


def test_the_bench_prints_the_table() -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    run = subprocess.run([sys.executable, str(root / "bench" / "bots.py"), "--variants",
                          "standard", "--games", "2", "--max-year", "1903"],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": str(root / "src")})
    assert run.returncode == 0, run.stderr[-2000:]
    row = next(line for line in run.stdout.splitlines() if line.startswith("| standard"))
    assert row.split("|")[2].strip() == "2"  # games


@pytest.mark.parametrize("variant", ["standard", "wita", "lad1890", "twentieth_century",
                                     "war_in_north_america"])
def test_the_bots_orders_are_legal_and_never_meet(variant: str) -> None:
    """At random positions of every variant: every orderable unit gets one of its legal
    orders; no two units of a power end in one province by their moves; a support backs an
    own unit's order as it was given."""
    from polydip.orders.model import CONVOY, MOVE, SUPPORT
    from polydip.simulate.players import random_player

    bot = load_player("bot")
    for seed in range(8):
        rng = random.Random(seed)
        fg = FastGame.new(variant)
        for _ in range(rng.randrange(0, 24)):
            fg.step(random_player(fg, rng))
        while fg.phase_type != "M" and not fg.is_over:
            fg.step(random_player(fg, rng))
        if fg.is_over:
            continue
        m, pos, orders = fg.m, fg.position, fg.table.orders
        codes = bot(fg, rng)
        moved: dict[int, list[int]] = {}  # power -> provinces its moves go to
        stay: dict[int, set[int]] = {}  # power -> provinces its units stay in
        for k, ((p, i), c) in enumerate(zip(fg.items(), codes, strict=True)):
            assert (c in fg.legal()[k]) if fg.legal()[k] else c == -1, (seed, k)
            o = orders[c] if c >= 0 else None
            if o is not None and o.type == MOVE:
                moved.setdefault(p, []).append(m.loc_prov[o.target])
            else:  # (units sharing an ocean in LAD may all stay)
                stay.setdefault(p, set()).add(m.loc_prov[pos.units[i].loc])
        for p, ends in moved.items():
            assert len(ends) == len(set(ends)), (seed, p)
            assert not set(ends) & stay.get(p, set()), (seed, p)
        by_loc = {(p, m.loc_prov[pos.units[i].loc]): (i, orders[c])
                  for (p, i), c in zip(fg.items(), codes, strict=True) if c >= 0}
        for (p, _i), c in zip(fg.items(), codes, strict=True):
            o = orders[c] if c >= 0 else None
            if o is None or o.type not in (SUPPORT, CONVOY):
                continue
            _i, theirs = by_loc[(p, m.loc_prov[o.aux_loc])]
            if o.type == SUPPORT and o.target is None:
                assert theirs.type != MOVE
            else:
                assert theirs.type == MOVE and m.loc_prov[theirs.target] == m.loc_prov[
                    o.target]
