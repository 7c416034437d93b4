"""rules/canals.py's hooks, asked directly of the rule set of the tiny test map: a canal in
N2, two builds, over the edge S|N2 (closed until the canal opens)."""

from __future__ import annotations

import pytest
from support.positions import move_key, position, variant_map

from polydip.adjudication import reasons as R
from polydip.orders.parser import parse_order

RULE = '[rules.canals]\ncanals = [{ province = "N2", builds = 2, edges = ["S-N2"] }]\n'


@pytest.fixture
def m():
    return variant_map("tiny", RULE)


def build(m, text: str = "Build N2 Canal"):
    return parse_order(m, text, "A")


def test_the_canal_is_closed_to_every_power_until_it_opens(m) -> None:
    """"Once four builds have been spent on the building of the canal, the Canal will open
    in the first movement phase ... of the succeeding year"."""
    done = {"canals": {"N2": 2, "open": {"N2": 1903}}}  # complete in 1902's adjustments
    pos = position(m, "Red: F A1", phase="S1902M", extra=done)
    shut = m.rules.blocked(m, pos, {})
    assert set(shut) == {0, 1} and move_key(m, "F S - N2") in shut[0]
    why = m.rules.explain(m, pos, "blocked", (0, *move_key(m, "F S - N2")))
    assert why is not None and why.code == R.PASSAGE_CLOSED
    assert m.rules.porous(m, pos) == {}
    opened = position(m, "Red: F A1", phase="S1903M", extra=done)
    assert m.rules.blocked(m, opened, {}) == {}
    n2, s = m.loc_index["N2"], m.loc_index["S"]
    assert m.rules.porous(m, opened) == {m.prov_index["N2"]: {(s, n2), (n2, s)}}


def test_a_build_counts_only_from_the_controller_with_a_unit_there(m) -> None:
    """"the canal must be controlled by the building power, and that power must have a unit
    present and holding in the province ... on the turn the order 'Build Panama Canal' is
    given"; "this contribution ... will not count if the occupying power does not also
    submit the order Build Panama Canal on the same ... Phase"."""
    pos = position(m, "Red: A N2", phase="W1901A", centers="Red: N2, A1, A2; Blue: B1")
    both = [[build(m)], [build(m)]]
    assert m.rules.adjustment_acts(m, pos, both) == {(0, 0), (1, 0)}
    assert m.rules.adjustment_acts(m, pos, [[], [build(m)]]) == set()  # Blue's alone
    nobody_there = position(m, "", phase="W1901A", centers="Red: N2")
    assert m.rules.adjustment_acts(m, nobody_there, both) == set()


def test_builds_beyond_what_the_canal_needs_do_not_count(m) -> None:
    pos = position(m, "Red: A N2", phase="W1901A", centers="Red: N2",
                   extra={"canals": {"N2": 1}})
    assert m.rules.adjustment_acts(m, pos, [[build(m), build(m)], []]) == {(0, 0)}
    assert m.rules.act_problem(m, pos, 0, build(m), []) is None
    assert "needs 1 more build" in m.rules.act_problem(m, pos, 0, build(m), [build(m)])
    assert "no canal can be built in" in m.rules.act_problem(m, pos, 0,
                                                              build(m, "Build A1 Canal"), [])


def test_the_last_build_opens_the_canal_the_next_year(m) -> None:
    pos = position(m, "Red: A N2", phase="W1901A", centers="Red: N2",
                   extra={"canals": {"N2": 1}})
    after = pos.copy()
    m.rules.acts_done(m, pos, after, [(0, build(m))])
    assert after.extra["canals"] == {"N2": 2, "open": {"N2": 1902}}
    assert [e.code for e in m.rules.events(m, pos, after)] == [R.CANAL_OPENED]
    assert m.rules.markers(m, pos) == [(m.prov_index["N2"], "canal 1/2")]
    assert m.rules.report_lines(m, after) == [
        "Canal Neutral Port (N2): complete, open from the first movement phase of 1902"]


def test_the_canal_builds_a_power_may_order(m) -> None:
    pos = position(m, "Red: A N2", phase="W1901A", centers="Red: N2")
    assert m.rules.more_adjustments(m, pos, 0) == {"N2": ["BUILD N2 CANAL"]}
    assert m.rules.more_adjustments(m, pos, 1) == {"N2": ["BUILD N2 CANAL"]}  # a contribution
    assert m.rules.more_adjustments(m, position(m, "", phase="W1901A"), 0) == {}
