"""The integer fast path (polydip.fast) and the order table it speaks (orders/table.py).

What a bot author relies on: the fast path plays the same game as the string API — the same
legal orders, the same positions after every phase, on every shipped variant — and an order
code means the same order in every process and every game of a map.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest

from polydip.adjudication.legal import has_variant_orders, variant_orders
from polydip.adjudication.movement import RESULT_BITS
from polydip.errors import PolydipError
from polydip.fast import FAMILIES, FastGame, order_table
from polydip.game.game import Game
from polydip.orders.parser import parse_order
from polydip.variants.loader import builtin_names

VARIANTS = sorted(builtin_names())


def normal(pos) -> tuple:
    """A position in a form where the order of units does not matter (two identical units
    in an open space may swap their orders between the two APIs)."""
    return (pos.phase.name, sorted((u.power, u.kind, u.loc) for u in pos.units),
            list(pos.owners),
            sorted((d.power, d.kind, d.loc, d.attacker, d.convoyed, d.retreats)
                   for d in pos.dislodged),
            sorted(pos.contested), [tuple(h) for h in pos.homes], pos.year_start_owners,
            pos.extra)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_fast_path_and_the_string_api_play_the_same_games(variant: str) -> None:
    """Random games played twice, by codes (FastGame.step) and by strings
    (Game.set_orders/process): after every phase both positions are the same, and every
    item's legal codes are, as text, the string API's legal orders of that unit — but for the
    orders a variant has beyond the order table (LAD's attacks, anchor acts, bank changes),
    which the string API alone lists (adjudication/legal.py)."""
    phases = 0
    for seed in range(4):
        g = Game.new(variant)
        fg = FastGame.from_game(g)
        rng = random.Random(seed)
        for _ in range(40):  # about ten game years
            if fg.is_over:
                break
            legal, items = fg.legal(), fg.items()
            listed = g.legal_orders()
            beyond: dict[str, list[str]] = {}
            if fg.phase_type == "M" and has_variant_orders(g.map):
                variant_orders(g.map, g.position, None, g.options, beyond)
            t = fg.table
            if fg.phase_type in "MR":
                units = g.position.units if fg.phase_type == "M" else g.position.dislodged
                for (_p, i), codes in zip(items, legal, strict=True):
                    u = units[i]
                    key = g.map.unit_str(u.kind, u.loc)
                    if codes:  # units a rule holds take no orders in either API
                        assert ({t.texts[c] for c in codes} | set(beyond.get(key, ()))
                                == set(listed[key]))
                        assert len(codes) == len(set(codes))
            # a random order per item; sometimes none
            codes = [rng.choice(c) if c and rng.random() < 0.95 else -1 for c in legal]
            by_power: dict[int, list[str]] = {}
            for (p, _i), c in zip(items, codes, strict=True):
                if c >= 0:
                    by_power.setdefault(p, []).append(fg.text(c))
            for p, lst in by_power.items():
                # a second build on one site, a second removal of one unit are refused
                # when given (issue 27); the fast path's adjudication voids them: the same
                # position follows
                problems = g.set_orders(p, lst)
                assert all("a second build in" in x or "already removed" in x
                           for x in problems), problems
            fg.step(codes)
            g.process()
            assert normal(fg.position) == normal(g.position), (variant, seed, g.phase)
            assert (fg.status, fg.winners) == (g.status, g.winners)
            phases += 1
    assert phases >= 100


def test_a_code_is_the_order_its_text_says() -> None:
    """Every family of the table: the order a code stands for is the order its text parses
    to, and the table finds the code again from the unit, target and partner."""
    g = Game.new("standard")
    t = order_table(g.map)
    m = g.map
    seen = set()
    rng = random.Random(3)
    for code in [*range(t.retreat), *rng.sample(range(t.retreat, t.size), 3000)]:
        o = t.orders[code]
        phase = {"RETREAT": "R", "DISBAND": "R", "BUILD": "A", "WAIVE": "A"}.get(
            t.family(code), "M")
        parsed = parse_order(m, o.text, phase)
        assert (parsed.type, parsed.kind, parsed.loc, parsed.target, parsed.aux_kind,
                parsed.aux_loc, parsed.via) == (o.type, o.kind, o.loc, o.target, o.aux_kind,
                                                o.aux_loc, o.via), o.text
        seen.add(t.family(code))
        s = t.slot(o.kind, o.loc) if o.kind is not None else -1
        fam = t.family(code)
        if fam == "MOVE":
            assert t.move_code(s, o.target) == code
        elif fam == "RETREAT":
            assert t.retreat_code(s, o.target) == code
        elif fam == "VIA":
            assert t.via_code(s, o.target) == code
        elif fam == "CONVOY":
            assert t.convoy_code(s, t.slot(o.aux_kind, o.aux_loc), o.target) == code
        elif fam.startswith("SUPPORT"):
            # a support of a move over an edge has its SUPPORT_MOVE code, the one legal
            # orders list; the SUPPORT_CONVOYED code of the same words is never listed
            q = -1 if o.target is None else o.target
            found = t.support_code(s, t.slot(o.aux_kind, o.aux_loc), q)
            if fam == "SUPPORT_CONVOYED" and m.loc_prov[o.aux_loc] == q:
                assert found == -1  # an army "moving" where it stands: no order
            else:
                assert found == code or (fam == "SUPPORT_CONVOYED"
                                         and t.family(found) == "SUPPORT_MOVE"
                                         and t.texts[found] == o.text)
    assert seen == set(FAMILIES) - {"ACT"}  # (acts in place: none on the standard map)
    assert t.act == t.retreat
    assert len({t.texts[c] for c in range(t.retreat)}) == t.retreat  # no two codes alike
    with pytest.raises(IndexError):
        t.family(t.size)


def test_codes_are_the_same_in_every_process() -> None:
    """Codes depend on the map only: a fresh interpreter gives the same code to the same
    orders, whatever was asked before."""
    t = order_table(Game.new("standard").map)
    picks = [0, 17, t.support_move + 5, t.via + 123, t.convoy + 4567, t.size - 1]
    script = ("from polydip.fast import FastGame\n"
              "t = FastGame.new('standard').table\n"
              f"print('|'.join(t.texts[c] for c in {picks!r}), t.size)")
    got = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert got == f"{'|'.join(t.texts[c] for c in picks)} {t.size}"


def test_step_refuses_a_code_of_another_unit_and_the_wrong_number_of_codes() -> None:
    fg = FastGame.new("standard")
    legal = fg.legal()
    with pytest.raises(PolydipError, match="items"):
        fg.step([])
    codes = [c[0] for c in legal]
    codes[0] = legal[1][0]  # the second unit's hold given to the first
    with pytest.raises(PolydipError, match="is not an order of"):
        fg.step(codes)
    codes = [c[0] for c in legal]
    for bad, said in ((0.5, "is 0.5 (float): order codes are ints"),
                      ("A VIE H", "is 'A VIE H' (str)"), (None, "is None (NoneType)"),
                      (10**9, "is 1000000000: the order table has codes 0 to")):
        with pytest.raises(PolydipError, match=re.escape(f"item 2's order code {said}")):
            fg.step(codes[:2] + [bad] + codes[3:])
    assert fg.phase == "S1901M"  # (nothing played)


def test_adjustment_items_are_one_per_build_or_removal_owed() -> None:
    """Winter: a power with four builds due has four items, each listing every build site's
    builds and WAIVE; the same build chosen twice is carried out once (DATC 4.D.5)."""
    g = Game.new("standard")
    pos = g.position
    m = g.map
    france = g.power("France")
    # France has only F BRE left, Paris and Marseilles empty, and two more centers
    units = [u for u in pos.units
             if not (u.power == france and m.loc_prov[u.loc] in (m.prov_index["PAR"],
                                                                 m.prov_index["MAR"]))]
    owners = list(pos.owners)
    owners[m.prov_index["SPA"]] = owners[m.prov_index["POR"]] = france
    from polydip.state import Position
    from polydip.variants.calendar import parse_phase

    fg = FastGame(m, Position(parse_phase(m.variant.calendar, "W1901A"), units, owners, [],
                              frozenset(), pos.homes, owners), g.options)
    mine = [i for i, (p, _u) in enumerate(fg.items()) if p == france]
    assert len(mine) == 4  # 5 centers, 1 unit (F BRE)
    t = fg.table
    texts = sorted(t.texts[c] for c in fg.legal()[mine[0]])
    assert texts == ["A MAR B", "A PAR B", "F MAR B", "WAIVE"]
    build = t.build + t.slot(0, m.prov_index["PAR"])
    codes = [-1] * len(fg.items())
    codes[mine[0]] = codes[mine[1]] = build
    out = fg.step(codes)
    assert sum(1 for u in fg.position.units if u.power == france) == 2
    assert [r.result for r in out.results if r.power == france] == [[], ["void"]]


def _play_both(g: Game, fg: FastGame, power: int, text: str) -> None:
    """One movement phase: `power` gives `text` (one order of one of its units) in both
    APIs, every other unit has no order; then the phases up to the next movement phase."""
    t = fg.table
    units = g.position.units
    codes = [-1] * len(fg.items())
    hits = [j for j, ((p, i), lst) in enumerate(zip(fg.items(), fg.legal(), strict=True))
            if p == power and text in {t.texts[c] for c in lst}]
    assert len(hits) == 1, (text, [g.map.unit_str(u.kind, u.loc) for u in units])
    j = hits[0]
    codes[j] = next(c for c in fg.legal()[j] if t.texts[c] == text)
    assert t.family(codes[j]) == "ACT" and t.orders[codes[j]].act == "convert"
    assert text in g.legal_orders(power)[text.rsplit(" ", 1)[0]]
    assert g.set_orders(power, [text]) == []
    fg.step(codes)
    g.process()
    assert normal(fg.position) == normal(g.position)
    while g.position.phase.type != "M":
        fg.step([-1] * len(fg.items()))
        g.process()
        assert normal(fg.position) == normal(g.position)


def test_a_lad_convert_in_place_is_an_order_code_and_plays_as_the_string_game() -> None:
    """LAD 6.C note 1: "a Fleet may be ordered to convert into a River Flotilla at any
    time, but this costs one turn" (and a flotilla on the ships takes them back). The order
    table holds F/R ... CONVERT (family ACT), the fast path lists it when the string API
    does, and a fast game and the string game reach the same position with it."""
    g = Game.new("lad1890")
    g.process()  # 1890 D: nobody builds
    fg = FastGame.from_game(g)
    m = g.map
    argentina = g.power("Argentina")
    bue = m.loc_index["BUE"]
    assert any(u.power == argentina and (m.kind_names[u.kind], u.loc) == ("fleet", bue)
               for u in g.position.units)
    _play_both(g, fg, argentina, "F BUE CONVERT")
    assert fg.position.extra.get("anchors") == {"BUE": 1}  # the ships left where it stood
    assert any(u.power == argentina and m.kind_names[u.kind] == "river flotilla"
               and u.loc == bue for u in fg.position.units)
    # the flotilla standing on its ships converts back: listed, played alike
    _play_both(g, fg, argentina, "R BUE CONVERT")
    assert "anchors" not in fg.position.extra
    assert any(u.power == argentina and m.kind_names[u.kind] == "fleet" and u.loc == bue
               for u in fg.position.units)
    # with no ships to take, a flotilla has no CONVERT: the table's code is never listed
    t = fg.table
    lists = [{t.texts[c] for c in lst} for lst in fg.legal()]
    assert all("R BUE CONVERT" not in x for x in lists)


@pytest.mark.parametrize("variant", ["standard", "lad1890", "twentieth_century"])
def test_step_legal_plays_legal_codes_as_step_does(variant: str) -> None:
    """step_legal (the env's step: codes taken from legal(), not checked again) reaches the
    same position, outcome and end as step, phase after phase, with units a rule holds
    (their empty lists: -1) and orders left out (-1)."""
    a, b = FastGame.new(variant), FastGame.new(variant)
    rng = random.Random(7)
    for _ in range(40):
        if a.is_over:
            break
        codes = [rng.choice(c) if c and rng.random() < 0.9 else -1 for c in a.legal()]
        assert b.legal() == a.legal()
        got, want = b.step_legal(codes), a.step(codes)
        assert normal(b.position) == normal(a.position)
        assert got.unit_results() == want.unit_results()
        assert (b.status, b.winners) == (a.status, a.winners)
        # the env's previous results: the units that failed, their words as bits
        by_unit = got.unit_results()
        if by_unit is None:
            assert got.failed_units() is None
        else:
            assert got.failed_units() == {
                u: sum(1 << RESULT_BITS.index(w) for w in words)
                for u, (_unit, _order, words) in enumerate(by_unit) if words}


def test_step_legal_refuses_the_wrong_number_of_codes_and_a_finished_game() -> None:
    fg = FastGame.new("standard")
    with pytest.raises(PolydipError, match="0 order codes for 22 items"):
        fg.step_legal([])
    fg.status = "won"
    with pytest.raises(PolydipError, match="the game is over"):
        fg.step_legal([-1] * 22)
