"""Orders from a pasted message (issue 5, part 1): several powers' orders in one text; every
line that cannot be read is reported with its number, the reason and a suggestion, and the
orders that were read are never lost."""

from __future__ import annotations

from polydip.game.game import Game
from polydip.game.message import apply_message, read_message

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
    assert reasons == ["say what to build", "moves are not ordered in an adjustment phase"]
    # how adjustments are written is said once, as the suggestion (not in the reason too)
    assert msg.problems[1].suggestion == \
        "write adjustments like 'Build A PAR', 'Remove F KIE' or 'WAIVE'"


def test_last_turns_orders_in_an_adjustment_phase_are_told_as_such() -> None:
    """A support, convoy, hold or move sent in an adjustment phase is reported as an order
    of the wrong phase even where its unit's place is not read either (before: "unknown
    unit location 'xyz s a par'", the support's words read as the place)."""
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {"phase": "W1901A", "units": {"France": ["A PAR"]},
                                        "centers": {"France": ["PAR", "MAR", "BRE"]}})
    _g, msg = _read("France\nA XYZ S A PAR - BUR\nF QQQ C A PAR - LON\nA ZZZ H\n"
                    "A QQQ - BUR\nBuild A MARR\n", g)
    assert msg.orders == []
    got = [(p.line, p.code, p.reason) for p in msg.problems]
    assert got == [
        (2, "wrong_phase", "supports and convoys are only ordered in a movement phase; also "
                           "unknown unit location 'xyz'"),
        (3, "wrong_phase", "supports and convoys are only ordered in a movement phase; also "
                           "unknown unit location 'qqq'"),
        (4, "wrong_phase", "a hold is only ordered in a movement phase; also unknown unit "
                           "location 'zzz'"),
        (5, "wrong_phase", "moves are not ordered in an adjustment phase; also unknown unit "
                           "location 'qqq'"),
        (6, "unknown_place", "unknown place 'marr'"),
    ]
    assert [p.suggestion for p in msg.problems[:4]] == [
        "write adjustments like 'Build A PAR', 'Remove F KIE' or 'WAIVE'"] * 4
    # a short word is read as a mistyped abbreviation too
    assert msg.problems[4].suggestion == "did you mean MAR?"


def test_a_build_at_an_unknown_place_lists_where_the_power_may_build() -> None:
    """A GM reading "Build A PTS" (no such place) is shown where the power may build,
    not sent to another command."""
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {"phase": "W1901A", "units": {"France": ["A PAR"]},
                                        "centers": {"France": ["PAR", "MAR", "BRE"]}})
    _g, msg = _read("France: Build A XQZW\nFrance: Remove A QQQ\n", g)
    assert [(p.code, p.reason, p.suggestion) for p in msg.problems] == [
        ("unknown_place", "unknown place 'xqzw'", "France builds 2 this phase, at BRE, MAR"),
        ("unknown_place", "unknown place 'qqq'",
         "write adjustments like 'Build A PAR', 'Remove F KIE' or 'WAIVE'")]


def test_a_retreat_written_as_a_move_with_an_unknown_place_is_an_unknown_place() -> None:
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "F1901R", "units": {"France": ["A PIC"]},
        "dislodged": {"Germany": [{"unit": "A BEL", "from": "PIC"}]}})
    _g, msg = _read("Germany: A Bell - Hol\nGermany: A Qqq S A Bel - Hol\n", g)
    assert [(p.code, p.reason) for p in msg.problems] == [
        ("unknown_place", "unknown unit location 'bell'"),
        ("wrong_phase", "supports and convoys are only ordered in a movement phase; also "
                        "unknown unit location 'qqq'")]


# ---- issue 27: no line that starts like an order is lost --------------------------------------

def test_a_line_that_starts_like_an_order_is_read_or_reported_never_ignored() -> None:
    _g, msg = _read("France\nA PAR-BUR\nF bre-mao\nA MGE-PAR\nA XYZ - ABC\nsee you in Paris\n"
                    "I will support you next turn\nA quick note\n")
    assert [o.text for o in msg.orders] == ["A PAR-BUR", "F bre-mao"]
    assert [(p.line, p.code) for p in msg.problems] == [(4, "unknown_place"),
                                                        (5, "unknown_place")]
    assert msg.ignored == [6, 7, 8]  # prose stays prose


def test_problems_carry_a_code() -> None:
    _g, msg = _read("Germnay:\nFrance\nA Munich - Ruhr\nF BRE - Spain (moon coast)\n"
                    "A PAR - BUR AT Atlantis\nA Paris flies to Burgundy\nWAIVE\nA Ruh - Kie\n")
    assert [p.code for p in msg.problems] == [
        "unknown_power", "not_own_unit", "bad_coast", "unknown_power", "unknown_word",
        "wrong_phase", "no_unit"]


def test_a_coast_the_place_does_not_have_is_refused_never_another_coast() -> None:
    g = Game.new("war_in_north_america")
    from polydip.game.positions import build_position

    g.position = build_position(g.map, {"phase": "S1860M", "units": {
        "Mexico": ["F MEX/EC"], "Confederate States": ["F FLA"]}})
    msg = read_message(g.map, g.position, "Mexico\nF MEX - Nicaragua (Moon coast)\n"
                       "F Mexico City (Pacific) - Nicaragua (Pacific coast)\n"
                       "Confederate States\nF Florida - Straits of Florida\n")
    assert [p.code for p in msg.problems] == ["bad_coast"]
    assert [o.order.format(g.map) for o in msg.orders] == ["F MEX/WC - NIC/WC",
                                                           "F FLA - SOF"]


def test_hints_and_suggestions_use_the_games_own_map() -> None:
    import re

    from polydip.game.message import order_examples

    for variant in ("wita", "lad1890", "twentieth_century", "war_in_north_america"):
        m = Game.new(variant).map
        for phase in "MRA":
            hint = order_examples(phase, m)
            places = re.findall(r"'(?:Build |Remove )?[A-Z] ([A-Z/]+)", hint)
            assert places and all(p in m.loc_index for p in places), (variant, hint)
    g = Game.new("lad1890")
    msg = read_message(g.map, g.position, "Mexico\nBuild A Mexco\nA MEX - GDL\n")
    assert msg.problems[0].suggestion == "did you mean Mexico City?"  # once, by its name
    assert "PAR" not in msg.problems[1].suggestion and "BUR" not in msg.problems[1].suggestion


def test_the_rules_texts_headings_and_power_names() -> None:
    for variant, lines in {
        "lad1890": {"CHILE 1891A (March-June)": "Chile", "Britain (GB):": "Britain",
                    "USA:": "United States", "Brasil:": "Brazil", "Colombia": "Colombia"},
        "twentieth_century": {"Soviet Union:": "USSR", "Iran": "Persia", "UK:": "Britain",
                              "Colombia:": "Columbia"},
        "war_in_north_america": {"Republic of Texas:": "Texas"},
    }.items():
        g = Game.new(variant)
        for text, power in lines.items():
            msg = read_message(g.map, g.position, text)
            assert [g.map.powers[p] for p in msg.powers] == [power], (variant, text)


def test_orders_written_on_one_line_with_commas_are_each_read() -> None:
    _g, msg = _read("France\nA Paris - Burgundy, F Brest - Mid-Atlantic\n"
                    "A MAR - PIE, F BRE - Mid-Atlanti\n")
    assert [(o.line, o.text) for o in msg.orders] == [
        (2, "A Paris - Burgundy"), (2, "F Brest - Mid-Atlantic"), (3, "A MAR - PIE")]
    assert [(p.line, p.text, p.code) for p in msg.problems] == [
        (3, "A MAR - PIE, F BRE - Mid-Atlanti", "unknown_place")]


def test_quoted_lines_of_a_reply_are_never_read_as_orders() -> None:
    """A player's reply quotes the GM's earlier mail ("> A Paris - Burgundy"): the quoted
    orders are not this player's orders now. An order-like quoted line is reported (so a GM
    who meant it removes the '>'); other quoted text is ignored like prose."""
    text = ("France:\n"
            "A Marseilles - Spain\n"
            "\n"
            "On Monday the GM wrote:\n"
            "> Results of Spring 1901:\n"
            "> A Paris - Burgundy\n"
            ">> F Brest - English Channel\n"
            "> Thanks, GM\n")
    g, msg = _read(text)
    assert _orders(g, msg) == {"France": ["A Marseilles - Spain"]}
    assert [(p.line, p.code) for p in msg.problems] == [(6, "quoted"), (7, "quoted")]
    assert msg.problems[0].text == "A Paris - Burgundy"
    assert "remove the '>'" in msg.problems[0].suggestion
    assert 5 in msg.ignored and 8 in msg.ignored


def test_an_order_after_a_power_name_or_adjective_without_a_colon() -> None:
    """The rules texts write "Bolivian A Ayacucho to Lima"; players write "France A Paris -
    Burgundy": the order is the named power's (it was ignored as prose before), and the
    power named stays current for the lines below."""
    g, msg = _read("France A Paris - Burgundy\nEnglish F London - North Sea\n"
                   "F Edinburgh - Norwegian Sea\nFrance - the usual orders, I think\n")
    assert _orders(g, msg) == {"France": ["A Paris - Burgundy"],
                               "England": ["F London - North Sea",
                                           "F Edinburgh - Norwegian Sea"]}
    assert msg.problems == [] and msg.ignored == [4]


def test_an_order_naming_the_wrong_kind_of_unit_is_taken_and_said_so() -> None:
    """"A Brest - English Channel" for France's fleet in Brest: the unit is named by its
    place, so the order is the fleet's (as GMs read it), and the GM is told, never
    silently."""
    g, msg = _read("France:\nA Brest - English Channel\nA Paris - Burgundy\n")
    assert _orders(g, msg) == {"France": ["A Brest - English Channel", "A Paris - Burgundy"]}
    assert msg.notes == ["line 2: 'A Brest - English Channel': the unit in Brest is a "
                         "fleet; taken as its order"]


def test_a_quoted_one_line_order_with_supports_is_quoted_whole() -> None:
    """"> A PAR - BUR; Supported by A MAR" quotes an earlier message: neither the order nor
    the support it names is read, and the support is not reported as a broken order."""
    _g, msg = _read("France:\n> A Paris - Burgundy; Supported by A Marseilles\n")
    assert msg.orders == []
    assert [(p.line, p.code) for p in msg.problems] == [(2, "quoted")]


def test_a_misspelled_power_is_suggested_once_by_its_name() -> None:
    """A power's name, adjective and aliases are all read; a misspelling close to several
    of them names the power once ("did you mean Mexico?", not "Mexico or México")."""
    g = Game.new("lad1890")
    _g, msg = _read("Méjico:\nA MEX H\nColombie:\nFrnace:\n", g)
    got = [(p.line, p.code, p.suggestion) for p in msg.problems if p.code == "unknown_power"]
    assert got[:2] == [(1, "unknown_power", "did you mean Mexico?"),
                       (3, "unknown_power", "did you mean Colombia?")]
    assert got[2][0] == 4 and got[2][2] == "did you mean France?"


def test_a_power_and_an_order_after_a_colon_is_never_read_as_a_heading() -> None:
    """On a map whose seasons are letters ("1891 A Phase"), "Argentina: A S A" read as a
    heading ("Argentina", season A) and the line was lost: neither taken nor reported.
    After a colon, words that start like an order are an order."""
    g = Game.new("lad1890")
    _g, msg = _read("Argentina: A S A\nArgentina: A S\nArgentina: A 1891\n", g)
    assert [p.line for p in msg.problems] == [1, 2, 3]
    assert all(p.power == g.map.powers.index("Argentina") for p in msg.problems)
    # a heading with a season after the colon is still a heading
    # (the game opens on D1890A, an adjustment phase: the hold under it is Argentina's,
    # refused for its phase)
    _g, msg = _read("Argentina's orders: Phase A 1891\nA BUE H\n", g)
    assert msg.orders == [] and msg.ignored == []
    assert [(p.line, p.code, p.power) for p in msg.problems] == [
        (2, "wrong_phase", g.map.powers.index("Argentina"))]


def test_a_move_that_can_only_be_void_is_said_so_when_read() -> None:
    """"F Mérida - Yucatán" on LAD: Yucatán is Mérida's other name, so the fleet "moves"
    where it stands; "F Santiago de Cuba - Jamaica Channel" reads as Jamaica, which the fleet
    cannot reach. Both are taken as written (the adjudicator voids them), and the GM is told
    now, with the place the words may have meant, not only when the phase is processed. A
    move that a convoy might make, or a legal one, gets no note."""
    from polydip.game.positions import build_position

    g = Game.new("lad1890")
    m = g.map
    g.position = build_position(m, {"phase": "A1891M", "units": {
        "Mexico": ["F MER", "A MEX"], "Spain": ["F SCU"]}, "centers": {}})
    msg = read_message(m, g.position, "Mexico:\nF Mérida - Yucatán\nA Mexico - Mérida\n"
                       "Spain:\nF Santiago de Cuba - Jamaica Channel\n")
    assert len(msg.orders) == 3  # (taken: void is the adjudicator's word)
    assert msg.notes[0].startswith("line 2: 'F Mérida - Yucatán': taken as a move to Mérida: "
                                   "it will be void (a move to Mérida, where the unit stands)")
    assert msg.notes[0].endswith("did you mean Yucatán Channel?")
    assert msg.notes[1].startswith("line 5: 'F Santiago de Cuba - Jamaica Channel': taken "
                                   "as a move to Jamaica: it will be void (a fleet in "
                                   "Santiago de Cuba cannot reach Jamaica)")
    assert len(msg.notes) == 2
    _g, std = _read("England:\nA Liverpool - Belgium\nF London - North Sea\n")
    assert std.notes == []  # (an army a convoy may carry; a legal move)


def test_a_build_on_another_powers_occupied_center_says_whose_it_is() -> None:
    """"Build A Trieste" for Italy: Trieste is Austria's (and occupied); the reason that
    stands with the army gone is that it is not Italy's, which is said, not "occupied"."""
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "W1901A", "units": {"Italy": ["A VEN", "A TUN"], "Austria": ["A TRI"]},
        "centers": {"Italy": ["VEN", "ROM", "NAP", "TUN"], "Austria": ["TRI", "VIE"]}})
    _g, msg = _read("Italy:\nBuild A Trieste\nBuild A Rome\n", g)
    assert _orders(g, msg) == {"Italy": ["Build A Rome"]}
    assert [p.line for p in msg.problems] == [2]
    assert msg.problems[0].reason.startswith("Trieste belongs to Austria")


def test_a_powers_long_name_heads_its_orders() -> None:
    """War in North America: "Confederate States of America:" was counted as prose and the
    orders under it had no power; a misspelled long name is reported with the power meant;
    a name ending in s takes the apostrophe alone ("Confederate States'")."""
    from polydip.game.positions import build_position

    g = Game.new("war_in_north_america")
    g.position = build_position(g.map, {
        "phase": "S1860M", "units": {"Confederate States": ["A RIC"]}, "centers": {}})
    csa = g.power("Confederate States")
    msg = read_message(g.map, g.position, "Confederate States of America:\nA Richmond H\n"
                       "Confederate Stats of Amerika:\n")
    assert [(o.line, o.power) for o in msg.orders] == [(2, csa)]
    assert [(p.line, p.code, p.suggestion) for p in msg.problems] == [
        (3, "unknown_power", "did you mean Confederate States?")]
    loose = read_message(g.map, g.position, "A Richmond H\n")
    assert "the unit there is Confederate States': write" in loose.problems[0].suggestion


def test_a_huge_line_is_quoted_by_its_start() -> None:
    """One pasted line of 200,000 characters was echoed whole, twice (the line and its
    'unexpected ...'): 400 KB on the GM's terminal. Its start is quoted, with its length."""
    _g, msg = _read("France:\nA PAR - BUR " + "x" * 200_000 + "\n")
    (problem,) = msg.problems
    assert len(str(problem)) < 1_200
    assert problem.text.endswith("… (200,012 characters)")


def test_retreat_phase_lines_for_a_unit_that_stays_or_a_replaced_impossible_retreat() -> None:
    """Spring retreats: Germany's army took Burgundy, France's retreats from it.
    "Germany: A Bur - Par" said the unit there was France's ("put it under France"): it is
    that Germany's unit stays and has no retreat. "A Burgundy retreats to Munich" (the
    attacker's origin) then "A Bur R Picardy": the note that line 2 replaces line 1 says line
    1 could not have been carried out, rather than reading as if it had been taken."""
    from polydip.game.positions import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "S1902R", "units": {"Germany": ["A BUR"]},
        "dislodged": {"France": [{"unit": "A BUR", "from": "MUN"}]}, "centers": {}})
    _g, msg = _read("France: A Burgundy retreats to Munich\nFrance: A Bur R Picardy\n"
                    "Germany: A Bur - Par\n", g)
    assert _orders(g, msg) == {"France": ["A Bur R Picardy"]}
    (germany,) = msg.problems
    assert germany.line == 3 and germany.code == "no_unit"
    assert germany.reason.startswith("Germany has no dislodged unit in Burgundy: its unit "
                                     "there stays")
    assert msg.notes == ["line 2: 'A Bur R Picardy' replaces line 1: 'A Burgundy retreats to "
                         "Munich' (which could not have been carried out: A BUR cannot "
                         "retreat to Munich; it may retreat to BEL, GAS, MAR, PAR, PIC, RUH)"]
