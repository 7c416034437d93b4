"""The movement phase's outcome (adjudication/movement.py, resolve_movement) asked directly
on hand-built standard positions, below Game: the units after the phase, the standoffs left
empty, the dislodged units with where each may retreat, the result words and each unit's
end. Run on both builds."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support.positions import orders_of, position, variant_map

from polydip.adjudication.movement import (
    BOUNCE,
    CUT,
    DISLODGED,
    NO_CONVOY,
    RESULT_BITS,
    VOID,
    resolve_movement,
)
from polydip.fast import FastGame


@pytest.fixture
def m():
    return variant_map("standard")


def phase(m, pos, *lines: str, options: dict | None = None):
    return resolve_movement(m, list(pos.units), orders_of(m, pos, *lines), options, None, pos)


def names(m, units) -> list[str]:
    return sorted(m.unit_str(u.kind, u.loc) for u in units)


def test_a_standoff_leaves_the_province_empty_and_contested(m) -> None:
    """Rulebook: units of equal strength trying to enter the same province all fail (a
    "standoff"); the province stays empty and no unit may retreat there."""
    pos = position(m, "France: A Par; Germany: A Mun")
    out = phase(m, pos, "A Par - Bur", "A Mun - Bur")
    assert out.contested == frozenset({m.prov_index["BUR"]})
    assert out.results == [[BOUNCE], [BOUNCE]]
    assert names(m, out.units) == ["A MUN", "A PAR"]


def test_a_dislodged_unit_may_not_retreat_where_its_attacker_came_from(m) -> None:
    """Rulebook: a dislodged unit may not retreat "to the province from which the attacker
    came", nor to an occupied province or one left empty by a standoff."""
    pos = position(m, "Germany: A Par; France: A Pic, A Bur, A Spa, A Mar")
    out = phase(m, pos, "A Pic - Par", "A Bur S A Pic - Par", "A Spa - Gas", "A Mar - Gas")
    [d] = out.dislodged
    assert m.unit_str(d.kind, d.loc) == "A PAR" and d.attacker == m.prov_index["PIC"]
    # Picardy the attacker's, Burgundy occupied, Gascony left empty by a standoff: Brest
    assert out.contested == frozenset({m.prov_index["GAS"]})
    assert [m.loc_name[x] for x in d.retreats] == ["BRE"]
    assert out.results[0] == [DISLODGED]
    assert [u.power for u in out.units if m.loc_name[u.loc] == "PAR"] == [m.powers.index("France")]


def test_each_unit_ends_where_its_order_took_it(m) -> None:
    pos = position(m, "France: A Par, A Mar; Italy: A Pie")
    out = phase(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Pie - Mar")
    finals = out.finals(list(pos.units))
    assert [m.unit_str(u.kind, u.loc) if u else None for u in finals] == ["A BUR", "A MAR",
                                                                          "A PIE"]
    assert out.results == [[], [CUT], [BOUNCE]]
    assert [(m.loc_name[a.loc], m.loc_name[b.loc], c)
            for a, b, c in out.moved(list(pos.units))] == [("PAR", "BUR", False)]


def as_bits(results: list[list[str]]) -> dict[int, int]:
    """`results` as `failed` gives them: unit → bits for the units with result words."""
    return {u: sum(1 << RESULT_BITS.index(w) for w in words)
            for u, words in enumerate(results) if words}


def test_failed_gives_the_units_that_did_not_succeed_with_their_words_as_bits(m) -> None:
    """`failed` (the env's previous results) leaves out the units that succeeded and gives
    the others' result words as bits: a bounce, a cut support, a dislodged unit, a void
    order, a dislodged unit whose order was void (two words), a move with no convoy."""
    pos = position(m, "France: A Par, A Mar, A Bre; Italy: A Pie, A Bur; Germany: A Ruh; "
                      "England: A Lon, A Yor, F Nth")
    out = phase(m, pos, "A Par - Pic", "A Mar S A Bur", "A Bre - Pic", "A Pie - Mar",
                "A Bur S A Mun", "A Ruh - Bur", "A Lon - Bel", "A Yor H", "F Nth H")
    # (units in the position's order; France's Paris and Brest bounce in Picardy, Piedmont
    # cuts Marseilles' support of Burgundy, whose support names nobody: Ruhr bounces; the
    # North Sea does not convoy London)
    bits = out.failed()
    by_loc = {m.loc_name[u.loc]: i for i, u in enumerate(pos.units)}
    assert out.failed() == as_bits(out.results)
    assert bits[by_loc["PAR"]] == bits[by_loc["BRE"]] == 1 << RESULT_BITS.index(BOUNCE)
    assert bits[by_loc["MAR"]] == 1 << RESULT_BITS.index(CUT)
    assert bits[by_loc["BUR"]] == 1 << RESULT_BITS.index(VOID)
    assert bits[by_loc["LON"]] == 1 << RESULT_BITS.index(NO_CONVOY)
    assert by_loc["YOR"] not in bits and by_loc["RUH"] in bits
    pos = position(m, "France: A Pic, A Bur; Germany: A Par")
    out = phase(m, pos, "A Pic - Par", "A Bur S A Pic - Par", "A Par S A Mun")
    assert out.failed() == {2: (1 << RESULT_BITS.index(VOID))
                               | (1 << RESULT_BITS.index(DISLODGED))}
    pos = position(m, "France: A Par")
    assert phase(m, pos, "A Par - Bur").failed() == {}


@pytest.mark.parametrize("variant", ["standard", "lad1890", "twentieth_century", "wita",
                                     "war_in_north_america"])
def test_failed_agrees_with_results_on_random_positions(variant: str) -> None:
    """On the movement phases of random games (legal orders, some left out), `failed` is
    `results` with the successes left out and the words as bits; LAD's oceans (attack
    spaces) and moves that need support included."""
    seen: Counter[int] = Counter()
    for seed in range(3):
        fg = FastGame.new(variant)
        rng = random.Random(seed)
        table = fg.table
        for _ in range(45):
            if fg.is_over:
                break
            codes = [rng.choice(c) if c and rng.random() < 0.9 else -1 for c in fg.legal()]
            pos = fg.position
            if pos.phase.type == "M":
                bound = [table.order(c) if c >= 0 else None for c in codes]
                out = resolve_movement(fg.m, list(pos.units), bound, fg.options, None, pos)
                got = out.failed()
                assert got == as_bits(out.results), (seed, pos.phase)
                seen.update(got.values())
            fg.step(codes)
    assert len(seen) >= 3  # (several kinds of failure met)
