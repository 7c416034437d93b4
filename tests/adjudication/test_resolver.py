"""The generic resolver (adjudication/resolver.py, DATC 5.F) on its own, below the adjudicator:
decisions given as small functions of other decisions, no map and no order kinds. The DATC
cases check it end to end; these pin its contract: each decision adjudicated
once, the backup rule called with exactly the cycle's members when a cycle has no or two
consistent resolutions, and orders that only read a cycle kept out of it (Pandin's paradox,
DATC 5.D / 6.F.16)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.positions import movement, position, unit, variant_map

from polydip import compiled
from polydip.adjudication.resolver import Resolver

# The compiled Resolver takes no interpreted subclass (mypyc makes it a native class, and
# allowing interpreted subclasses would slow every call of the compiled adjudicator): the
# pure pass runs the Toy tests, and on both builds the tests at the end ask the same contract
# of the one compiled subclass, Movement, on hand-built positions.
pure_only = pytest.mark.skipif(compiled(), reason="the compiled Resolver takes no "
                               "interpreted subclass; the pure pass tests it alone")

Rule = Callable[["Toy"], bool]


class Toy(Resolver):
    """Decision n is `rules[n](self)`; the backup settles the cycle's members to `settle_to`
    (or settles nothing when it is None)."""

    def __init__(self, rules: list[Rule], settle_to: bool | None = None) -> None:
        super().__init__(len(rules))
        self.rules = rules
        self.settle_to = settle_to
        self.calls: list[int] = []
        self.cycles: list[list[int]] = []

    def adjudicate(self, n: int) -> bool:
        self.calls.append(n)
        return self.rules[n](self)

    def backup(self, cycle: list[int]) -> None:
        self.cycles.append(cycle)
        if self.settle_to is not None:
            for n in cycle:
                self.settle(n, self.settle_to)


@pure_only
def test_a_decision_without_dependencies_is_adjudicated_once() -> None:
    toy = Toy([lambda r: True, lambda r: False])
    assert [toy.resolve(0), toy.resolve(1), toy.resolve(0), toy.resolve(1)] == [True, False,
                                                                                True, False]
    assert toy.calls == [0, 1] and toy.cycles == []


@pure_only
def test_a_decision_reads_the_resolution_of_another() -> None:
    """A chain: 0 succeeds when 1 fails, 1 when 2 fails, 2 always succeeds."""
    toy = Toy([lambda r: not r.resolve(1), lambda r: not r.resolve(2), lambda r: True])
    assert [toy.resolve(0), toy.resolve(1), toy.resolve(2)] == [True, False, True]
    assert toy.calls == [0, 1, 2] and toy.cycles == []


@pure_only
def test_a_cycle_with_one_consistent_resolution_needs_no_backup() -> None:
    """0 and 1 read each other, but 0 succeeds whatever 1 does: only one resolution holds."""
    toy = Toy([lambda r: r.resolve(1) or True, lambda r: r.resolve(0)])
    assert [toy.resolve(0), toy.resolve(1)] == [True, True]
    assert toy.cycles == []


@pure_only
def test_a_cycle_with_two_consistent_resolutions_goes_to_the_backup_rule() -> None:
    """Circular movement (DATC 6.C.1): each of three succeeds when the next does; both
    all-succeed and all-fail are consistent, the backup rule chooses."""
    toy = Toy([lambda r: r.resolve(1), lambda r: r.resolve(2), lambda r: r.resolve(0)],
              settle_to=True)
    assert [toy.resolve(0), toy.resolve(1), toy.resolve(2)] == [True, True, True]
    assert toy.cycles == [[0, 1, 2]]


@pure_only
def test_a_cycle_with_no_consistent_resolution_goes_to_the_backup_rule() -> None:
    """A paradox: 0 succeeds when 1 fails, 1 succeeds when 0 does."""
    toy = Toy([lambda r: not r.resolve(1), lambda r: r.resolve(0)], settle_to=False)
    assert [toy.resolve(1), toy.resolve(0)] == [False, False]
    assert toy.cycles == [[1, 0]]  # the ancestor first: the decision whose guess was tried


@pure_only
def test_a_backup_rule_that_settles_nothing_leaves_the_first_guess() -> None:
    toy = Toy([lambda r: not r.resolve(1), lambda r: r.resolve(0)], settle_to=None)
    first = toy.resolve(0)
    assert toy.cycles == [[0, 1]]
    assert first is True  # guessed to fail, 1 fails, so 0 succeeds
    assert toy.resolve(0) is True and toy.resolve(1) is True  # 1 then reads the settled 0


@pure_only
def test_an_order_that_only_reads_a_cycle_is_not_one_of_its_members() -> None:
    """Pandin's paradox (DATC 5.D): Belgium's result reads the cycle but is not on it. Here 2
    reads 0, and 0 and 1 form a paradox: the backup rule gets [0, 1], and 2 follows 0."""
    toy = Toy([lambda r: not r.resolve(1), lambda r: r.resolve(0), lambda r: r.resolve(0)],
              settle_to=False)
    assert toy.resolve(2) is False
    assert toy.cycles == [[0, 1]]
    assert [toy.resolve(0), toy.resolve(1)] == [False, False]


# ---- the same contract through the compiled subclass (both builds) ------------------------

def test_movement_answers_the_same_whatever_order_its_decisions_are_asked_in() -> None:
    """A decision's resolution does not depend on which decision was asked first: a
    circular movement (a cycle the backup rule settles) beside a head-to-head battle."""
    m = variant_map("standard")
    pos = position(m, "Turkey: F Ank, A Con, A Smy; France: A Par, A Pic; Germany: A Bur")
    lines = ("F Ank - Con", "A Con - Smy", "A Smy - Ank", "A Par - Bur", "A Pic S A Par - Bur",
             "A Bur - Par")
    n = len(pos.units)
    first = movement(m, pos, *lines)
    forward = [first.resolve(i) for i in range(n)]
    last = movement(m, pos, *lines)
    backward = [last.resolve(i) for i in reversed(range(n))][::-1]
    assert forward == backward == [True, True, True, True, True, False]
    assert [first.resolve(i) for i in range(n)] == forward  # asked again: settled


def test_movement_keeps_an_order_that_only_reads_a_cycle_out_of_it() -> None:
    """Pandin's paradox (DATC 6.F.16, Szykman): the convoy paradox's members are settled
    by the backup rule; Belgium's move, which only reads the cycle, fails on its own merits
    and London's support stands."""
    m = variant_map("standard")
    pos = position(m, "England: F Lon, F Wal; France: A Bre, F Eng; Germany: F Nth, F Bel")
    mv = movement(m, pos, "F Lon S F Wal - Eng", "F Wal - Eng", "A Bre - Lon",
                  "F Eng C A Bre - Lon", "F Nth S F Bel - Eng", "F Bel - Eng")
    got = {t: mv.resolve(unit(m, pos, t)) for t in ("F Bel", "A Bre", "F Wal", "F Lon")}
    assert got == {"F Bel": False, "A Bre": False, "F Wal": False, "F Lon": True}
