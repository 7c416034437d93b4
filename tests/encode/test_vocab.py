"""DipNet's order vocabulary built from polydip's standard map, and its mapping both ways to
the map's order codes (Paquette et al. 2019, section 4.2; the reference's rules are in
polydip/encode/vocab.py's docstring and docs/encoding.md)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from polydip.encode.vocab import DIPNET_TOKENS, convoy_routes, vocabulary
from polydip.errors import PolydipError
from polydip.fast import FastGame


@pytest.fixture(scope="module")
def fg() -> FastGame:
    return FastGame.new("standard")


def test_the_size_is_dipnets(fg: FastGame) -> None:
    """The reference asserts ORDER_VOCABULARY_SIZE == 13042: 12 tokens and 13,030 orders
    (the same list, in the same order, as the reference run on the diplomacy package)."""
    v = vocabulary(fg.m)
    assert len(DIPNET_TOKENS) + v.size == 13_042
    assert len(set(v.texts)) == v.size and len(set(v.codes.tolist())) == v.size


def test_entries_by_the_rules(fg: FastGame) -> None:
    v = vocabulary(fg.m)
    # holds come first, sorted by the unit's location then the text
    assert v.texts[:3] == ["F ADR H", "F AEG H", "A ALB H"]
    assert v.categories[0] == "H"
    # a convoy over one fleet, its move and a support of it
    assert v.categories[v.index("A BRE - LON VIA")] == "-1"
    assert v.categories[v.index("F ENG C A BRE - LON")] == "C1"
    assert v.categories[v.index("A LON - TUN VIA")] == "-3"  # ENG, MAO, WES
    # a support of a move to a coast is written without it (and read either way)
    i = v.index("F MAO S F GAS - SPA")
    assert i >= 0 and v.index("F MAO S F GAS - SPA/NC") == i
    # builds in any center, never elsewhere; retreats only over an edge
    assert v.index("A BEL B") >= 0 and v.index("A BUR B") == -1
    assert v.index("A PAR R BUR") >= 0 and v.index("A PAR R MUN") == -1
    # a convoy needing more than four fleets is not in it (Liverpool to Syria: six)
    assert v.index("A LVP - SYR VIA") == -1
    # a unit does not support a move out of its own province
    assert v.index("F SPA/NC S A SPA - GAS") == -1


def test_every_entry_maps_to_the_code_of_the_same_order(fg: FastGame) -> None:
    v, t = vocabulary(fg.m), fg.table
    for i in range(v.size):
        code = v.code(i)
        assert t.texts[code] == v.texts[i]
        assert v.index_of(code) == i
    assert (v.indices_of(v.codes) == np.arange(v.size)).all()
    assert v.dipnet_id_of(t.waive) == 11 and v.dipnet_id(0) == 12


def long_convoy(fg: FastGame, code: int) -> bool:
    """Whether `code` is a move by convoy, a convoy or a support of a convoyed move whose
    every route takes more than four fleets (the only orders DipNet leaves out)."""
    t, m = fg.table, fg.m
    fam = t.family(code)
    if fam not in ("VIA", "CONVOY", "SUPPORT_CONVOYED"):
        return False
    o = t.orders[code]
    start = m.loc_prov[o.loc if fam == "VIA" else o.aux_loc]
    short = convoy_routes(m).get((start, m.loc_prov[o.target]), [])
    if fam == "CONVOY":
        return not any(m.loc_prov[o.loc] in r for r in short)
    return not short


@pytest.mark.parametrize(("variant", "games", "least"), [("standard", 3, 10_000),
                                                          ("war_in_north_america", 1, 1_000)])
def test_every_legal_order_of_random_games_round_trips(variant: str, games: int,
                                                       least: int) -> None:
    """Standard, and War in North America (armies and fleets, neutral units, Cape Horn):
    every legal order maps to its entry and back, but WAIVE and the long convoys."""
    first = FastGame.new(variant)
    v = vocabulary(first.m)
    t = first.table
    rng = random.Random(32)
    checked = 0
    for _game in range(games):
        g = FastGame.new(variant)
        for _phase in range(30):
            if g.is_over:
                break
            legal = g.legal()
            for codes in legal:
                for code in codes:
                    i = v.index_of(code)
                    if code == t.waive:
                        assert i == -1 and v.dipnet_id_of(code) == 11
                    elif i < 0:
                        assert long_convoy(first, code), t.texts[code]
                    else:
                        assert v.code(i) == code and v.index(t.texts[code]) == i
                        checked += 1
            g.step([rng.choice(c) if c else -1 for c in legal])
    assert checked > least


def test_bad_input_is_refused(fg: FastGame) -> None:
    v = vocabulary(fg.m)
    with pytest.raises(PolydipError, match="not in this map's table"):
        v.index_of(-5)
    with pytest.raises(PolydipError, match="does not exist"):
        v.code(v.size)
    with pytest.raises(PolydipError, match="outside this map's table"):
        v.indices_of(np.array([0, 10**9]))
    with pytest.raises(PolydipError, match="armies and fleets"):
        vocabulary(FastGame.new("lad1890").m)
