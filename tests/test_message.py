"""Orders from a pasted message (issue 5, part 1): several powers' orders in one text; every
line that cannot be read is reported with its number, the reason and a suggestion, and the
orders that were read are never lost."""

from __future__ import annotations

from polydip.game.game import Game
from polydip.orders.message import apply_message, read_message

ISSUE_EXAMPLE = """\
England:
F London - North Sea
A Liverpool -> Yorkshire

FRANCE
A Par - Bur
A mar s a par-bur

Germany: A Munich - Ruhr
Germany: F Kiel - Holland
"""


def _read(text: str, game: Game | None = None):
    g = game or Game.new("standard")
    return g, read_message(g.map, g.position, text)


def _orders(g: Game, msg) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for o in msg.orders:
        out.setdefault(g.map.powers[o.power], []).append(o.text)
    return out


def test_the_issue_example_is_read_whole() -> None:
    g, msg = _read(ISSUE_EXAMPLE)
    assert msg.problems == []
    assert _orders(g, msg) == {
        "England": ["F London - North Sea", "A Liverpool -> Yorkshire"],
        "France": ["A Par - Bur", "A mar s a par-bur"],
        "Germany": ["A Munich - Ruhr", "F Kiel - Holland"],
    }
    assert [o.line for o in msg.orders] == [2, 3, 6, 7, 9, 10]


def test_lines_plainly_not_orders_are_ignored_and_counted() -> None:
    """Issue 8: greetings and signatures are summarised as "ignored N lines that are not
    orders" instead of one long error each."""
    text = "Hi GM,\nOrders for Spring 1901:\n\n" + ISSUE_EXAMPLE + "\nThanks,\nBob\n"
    _g, msg = _read(text)
    assert len(msg.orders) == 6
    assert msg.problems == []
    assert msg.ignored == [1, 2, 15, 16]


def test_lines_that_look_like_orders_keep_their_detailed_error() -> None:
    _g, msg = _read("France\nA Pari - Bur\nArmy Burgandy holds\nFrnace:\nA quick note\n")
    bad = {p.line: p for p in msg.problems}
    assert sorted(bad) == [2, 3, 4]
    assert "did you mean Paris?" in bad[2].reason + bad[2].suggestion
    assert "Burgundy" in bad[3].reason + bad[3].suggestion
    assert bad[4].reason == "not a power name or an order"
    assert bad[4].suggestion == "did you mean France?"
    assert msg.ignored == [5]  # "A quick note" starts with A, but names no place


def test_typos_get_a_suggestion() -> None:
    _g, msg = _read("Germnay: A Berlin - Kiel\nRussia: A Warsaw - Burgandy\n"
                   "Italy\nA Warsaw - Galicia\n")
    by_line = {p.line: p for p in msg.problems}
    assert by_line[1].suggestion == "did you mean Germany?"
    assert by_line[2].reason == "unknown destination 'burgandy'"
    assert by_line[2].suggestion == "did you mean Burgundy?"
    assert "belongs to Russia" in by_line[4].reason
    assert msg.orders == []


def test_an_order_before_any_power_says_whose_unit_it_is() -> None:
    _g, msg = _read("A Vie - Gal\n")
    (p,) = msg.problems
    assert p.reason == "no power named before this order"
    assert "Austria: A Vie - Gal" in p.suggestion


def test_header_forms() -> None:
    g, msg = _read("**Turkey**\nF Ank - Bla\nOrders for Italy (Spring 1901):\nA Ven - Tyr\n"
                   "Russian orders\nA Mos - Ukr; A War - Gal\n- F Sev - Bla\n1. F StP/sc - Bot\n")
    assert msg.problems == []
    assert _orders(g, msg) == {"Turkey": ["F Ank - Bla"], "Italy": ["A Ven - Tyr"],
                               "Russia": ["A Mos - Ukr", "A War - Gal", "F Sev - Bla",
                                          "F StP/sc - Bot"]}


def test_a_later_order_for_the_same_unit_replaces_the_earlier_one() -> None:
    g, msg = _read("Turkey\nF Ank - Bla\nF Ank - Con\n")
    assert _orders(g, msg) == {"Turkey": ["F Ank - Con"]}
    assert msg.notes and "replaces line 2" in msg.notes[0]


def test_orders_can_be_replaced_until_the_phase_is_processed() -> None:
    g, msg = _read(ISSUE_EXAMPLE)
    assert apply_message(g, msg) == []
    france = g.power("France")
    msg2 = read_message(g.map, g.position, "France: A Par - Pic")
    apply_message(g, msg2)
    assert g.orders[france] == ["A mar s a par-bur", "A Par - Pic"]
    apply_message(g, read_message(g.map, g.position, "France: F Bre - Mao"),
                  replace_all=True)
    assert g.orders[france] == ["F Bre - Mao"]
    g.process()
    assert g.orders == {}


def test_retreat_and_adjustment_phases() -> None:
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "F1901R", "units": {"England": ["F NTH"], "France": ["A PIC"]},
        "dislodged": {"Germany": [{"unit": "A BEL", "from": "PIC"}]}})
    _g, msg = _read("Germany: A Bel R Hol\nGermany: A Bel - Ruh\nFrance: A Pic R Bur\n", g)
    assert [o.text for o in msg.orders] == ["A Bel - Ruh"]  # the later order wins
    assert msg.problems[0].reason == "no dislodged unit in Picardy"
    g.position = build_position(g.map, {"phase": "W1901A", "units": {"France": ["A PAR"]},
                                        "centers": {"France": ["PAR", "MAR", "BRE"]}})
    _g, msg = _read("France\nBuild A Mar\nBuild Bre\nWAIVE\nA Par - Bur\n", g)
    assert [o.text for o in msg.orders] == ["Build A Mar", "WAIVE"]
    reasons = [p.reason for p in msg.problems]
    assert reasons == ["say what to build", "moves are not ordered in an adjustment phase "
                       "(in an adjustment phase: 'Build A PAR', 'Remove A PAR' or 'WAIVE')"]
