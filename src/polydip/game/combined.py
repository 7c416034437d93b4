"""A season whose retreats and adjustments are one phase to the players.

Latin American Diplomacy's rules text: "D: Second Retreat (/Build/Disband) Phase
(December-March)" — "Or by request from any player the D Phase will be divided". A season
marked `combined = true` in its variant's [calendar] (its phases: retreats, adjustments) is
one phase unless the option `divided_retreats` is on: in its retreat phase each power gives
its retreats and its builds, removals and waives together; the retreats are adjudicated,
then at once the adjustment phase that follows, with the adjustment orders kept from the
retreat phase (checked then: the builds due are known only once the retreats are done).
When nobody is dislodged there is no retreat phase, and the adjustment phase is ordered as
any other. The position and the adjudication are those of the two phases; only the ordering
and the processing are one.

Each order given in such a retreat phase is read for the phase it belongs to: a build or a
waive is an adjustment; a disband (or removal) of a unit where the power has no dislodged
unit is a removal; every other order is a retreat order.
"""

from __future__ import annotations

from collections.abc import Sequence

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.errors import OrderError
from polydip.game.engine import update_centers
from polydip.geography.map import Map
from polydip.orders.canonical import order_memo
from polydip.orders.model import BUILD, DISBAND, WAIVE, Order
from polydip.orders.parser import read_order
from polydip.state import Phase, Position


def combined_phase(m: Map, phase: Phase, options: dict) -> bool:
    """Whether `phase` is the retreat phase of a combined season, undivided by the options
    (its orders may hold the season's adjustments too)."""
    if phase.type != "R" or options.get("divided_retreats", False):
        return False
    return any(s.combined for s in m.variant.calendar.seasons if s.abbr == phase.season)


def is_adjustment(m: Map, pos: Position, power: int, o: Order) -> bool:
    """Whether an order read in a combined retreat phase is one of the adjustment phase's."""
    if o.type in (BUILD, WAIVE):
        return True
    if o.type != DISBAND or o.loc < 0:
        return False
    prov = m.loc_prov[o.loc]
    return not any(m.loc_prov[d.loc] == prov and d.power == power for d in pos.dislodged)


def read_combined(m: Map, pos: Position, power: int, text: str,
                  memos: tuple[dict, dict] | None = None) -> tuple[str, Order]:
    """An order given in a combined retreat phase, read for the phase it belongs to: ("R",
    order) or ("A", order). Raises OrderError (as the retreat phase reads it) when it is
    neither phase's."""
    memo_r, memo_a = memos or (order_memo(m, "R"), order_memo(m, "A"))
    try:
        o = read_order(m, memo_r, text, "R")
    except OrderError as exc:
        if exc.code != "wrong_phase":
            raise
        try:
            o = read_order(m, memo_a, text, "A")
        except OrderError:
            raise exc from None
        return "A", o
    return ("A" if is_adjustment(m, pos, power, o) else "R"), o


def split_texts(m: Map, pos: Position, power: int, texts: Sequence[str]
                ) -> tuple[list[int], list[int]]:
    """The indices of the retreat phase's texts and of the adjustment phase's (a text read
    by neither goes with the retreats, whose reading reports it)."""
    memos = (order_memo(m, "R"), order_memo(m, "A"))
    retreats: list[int] = []
    adjustments: list[int] = []
    for j, t in enumerate(texts):
        try:
            typ, _ = read_combined(m, pos, power, t, memos)
        except OrderError:
            typ = "R"
        (adjustments if typ == "A" else retreats).append(j)
    return retreats, adjustments


def enter_kept(m: Map, texts: Sequence[str], pending: Sequence[Order], add: bool
               ) -> tuple[list[Order], list[tuple[int, str, str]], list[tuple[str, int]]]:
    """Adjustment orders given in a combined retreat phase, added to the `pending` ones:
    (orders kept, refused (index, problem, hint), replaced (earlier text, index)). Only
    their reading is checked now (the builds due are known once the retreats are done); a
    build on a site replaces the earlier one there, a removal of a unit the earlier one."""
    memo = order_memo(m, "A")
    held = list(pending)
    refused: list[tuple[int, str, str]] = []
    replaced: list[tuple[str, int]] = []
    for j, t in enumerate(texts):
        try:
            o = read_order(m, memo, t, "A")
        except OrderError as exc:
            refused.append((j, str(exc), ""))
            continue
        if o.type in (BUILD, DISBAND) and not add:
            prov = m.loc_prov[o.loc]
            old = next((h for h in held if h.type == o.type and h.loc >= 0
                        and m.loc_prov[h.loc] == prov), None)
            if old is not None:
                held.remove(old)
                replaced.append((old.text, j))
        held.append(o)
    return held, refused, replaced


def season_end(m: Map, pos: Position) -> Position:
    """The position of a combined retreat phase with the centers counted as if the season
    ended now (the retreats may still change them): for who is likely to build or remove."""
    if m.variant.calendar.centers_change_after != pos.phase.season:
        return pos
    now = pos.copy()
    update_centers(m, now)
    return now


def likely_adjusting(m: Map, pos: Position) -> set[int]:
    """The powers likely to build or remove after the retreats of a combined phase (the
    centers counted as if the season ended now): they too have something to order."""
    now = season_end(m, pos)
    return {p for p, d in enumerate(adjustment_counts(m, now))
            if d < 0 or (d > 0 and build_sites(m, now, p))}
