"""Process one phase: bind parsed orders to units, adjudicate, update centers, find the next phase.

This is the seam between the pure adjudicators (which see ids and per-unit orders) and the
outside world (which speaks of powers and typed orders).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from polydip.adjudication.adjustments import (
    adjustment_counts,
    adjustment_problem,
    build_sites,
    resolve_adjustments,
)
from polydip.adjudication.legality import closed_passages
from polydip.adjudication.movement import MovementResult, resolve_movement
from polydip.adjudication.reasons import CENTER_BY_EVENT, CIVIL_DISORDER, Reason, reason
from polydip.adjudication.retreats import resolve_retreats, retreat_reasons, retreat_target
from polydip.errors import OrderError
from polydip.geography.map import Map
from polydip.names import possessive
from polydip.orders.canonical import described_orders, keep_description, order_memo
from polydip.orders.model import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    RETREAT,
    SUPPORT,
    WAIVE,
    Order,
    OrderType,
)
from polydip.orders.parser import read_order
from polydip.orders.stacked import count_in, number_of, numbered
from polydip.state import Dislodged, Phase, Position, Unit, unit_index
from polydip.variants.calendar import following

MOVEMENT_TYPES: Final[tuple[OrderType, ...]] = (HOLD, MOVE, SUPPORT, CONVOY)


@dataclass(slots=True)
class OrderResult:
    power: int
    text: str  # the order in diplomacy notation, as bound to the unit
    result: list[str]  # result words, [] = success


# (power, order text in diplomacy notation, result words) per order of a phase
Rows = list[tuple[int, str, list[str]]]


class PhaseOutcome:
    """What processing a phase produced. `results` (one per order, in diplomacy notation) is
    built on first use: simulations that never read it do not pay for the strings. `rows()`
    gives the same as plain tuples, without the OrderResult objects."""

    __slots__ = ("_events", "_given", "_results", "_rows", "_standoffs", "_why", "before",
                 "center_changes", "destroyed", "errors", "fired", "map", "phase", "position",
                 "routed")

    def __init__(self, phase: Phase, position: Position,
                 results: list[OrderResult] | Callable[[], Rows],
                 errors: list[tuple[int, str]] | None = None,
                 center_changes: list[tuple[int, int, int]] | None = None) -> None:
        """`results`: the results, or a function that gives them as rows (called on first
        use)."""
        self.phase = phase
        self.position = position  # the position of the next phase
        self._results: list[OrderResult] | None = None
        self._rows: Rows | Callable[[], Rows] | None = None
        if callable(results):
            self._rows = results
        else:
            self._results = results
        self.errors = errors if errors is not None else []  # (power, message)
        self.center_changes = center_changes if center_changes is not None else []
        # provinces left empty by a standoff, or the movement result that works them out
        # when asked (`standoffs`)
        self._standoffs: frozenset[int] | MovementResult = frozenset()
        # units dislodged with nowhere to retreat, destroyed at once (no retreat phase)
        self.destroyed: list[Dislodged] = []
        # those of `destroyed` beaten in an attack space by the margin that destroys (a
        # rule's rout margin: LAD's oceans), whatever retreats they had
        self.routed: list[Dislodged] = []
        # why each result that is not success did not succeed, beside rows() (worked out
        # when asked: `_why` gives them); what the rules did on their own (`events`)
        # (a list once worked out, or read from a game file)
        self._why: Callable[[], list[Reason | None]] | list[Reason | None] | None = None
        self.fired: list[Reason] = []  # scheduled events that fired (rules' before_phase)
        self.map: Map | None = None  # (with `before`: for the events worked out when asked)
        self.before: Position | None = None
        self._events: list[Reason] | None = None
        # retreats and adjustments worked out here: the result words of the orders as
        # given, without their texts (given_words)
        self._given: list[list[str]] | Callable[[], list[list[str]]] | None = None

    @property
    def standoffs(self) -> frozenset[int]:
        """The provinces left empty by a standoff in this phase."""
        got = self._standoffs
        if isinstance(got, MovementResult):
            got = self._standoffs = got.contested
        return got

    @standoffs.setter
    def standoffs(self, value: frozenset[int]) -> None:
        self._standoffs = value

    @property
    def results(self) -> list[OrderResult]:
        r = self._results
        if r is None:
            r = self._results = [OrderResult(p, t, w) for p, t, w in self.rows()]
        return r

    def rows(self) -> Rows:
        """(power, order text, result words) per order: the results as tuples."""
        got = self._rows
        if got is None:
            done = self._results
            got = [(r.power, r.text, r.result) for r in (done if done is not None else [])]
        elif callable(got):
            got = got()
        self._rows = got
        return got

    def unit_results(self) -> list[tuple[Unit, Order | None, list[str]]] | None:
        """(unit, the order it was given or None, result words) per unit of a movement
        phase, in the rows' order, without writing the orders' texts (a saved game keys
        results by unit); None when the results are not a movement phase's worked out
        here."""
        got = self._rows
        if isinstance(got, _MovementRows):
            return list(zip(got.units, got.bound, got.mr.results, strict=True))
        return None

    def failed_units(self) -> dict[int, int] | None:
        """unit index → result bits, for the units of a movement phase whose order did not
        succeed (`MovementResult.failed`: the words as bits of `movement.RESULT_BITS`),
        without the units that succeeded; None when not a movement phase's worked out
        here."""
        got = self._rows
        if isinstance(got, _MovementRows):
            return got.mr.failed()
        return None

    def failed_into(self, out: bytearray, at: Sequence[int]) -> bool:
        """`failed_units` written into `out`, unit u's bits at index `at[u]` (units with
        `at[u]` < 0 left out: `MovementResult.failed_into`); False (nothing written) when
        not a movement phase's worked out here."""
        got = self._rows
        if isinstance(got, _MovementRows):
            got.mr.failed_into(out, at)
            return True
        return False

    def given_words(self) -> list[list[str]] | None:
        """The result words of a retreat or adjustment phase's orders as they were given,
        without writing the orders' texts: retreats, per dislodged unit of the phase's
        position (a unit given no order included); adjustments, per order given, power by
        power (in the order of the map's powers), each power's in the order given (units
        removed by civil disorder are no order given). None otherwise (a movement phase:
        `failed_units`; results read from a game file)."""
        got = self._given
        if callable(got):
            got = self._given = got()
        return got

    def reasons(self) -> list[Reason | None]:
        """Per row of rows(): the reason of a result that is not success, None for
        success."""
        why = self._why
        got = why() if callable(why) else why
        self._why = got  # (worked out once; a list pickles, a closure does not)
        rows = self.rows()
        if got is None or len(got) != len(rows):
            return [None] * len(rows)
        return got

    def reason_texts(self) -> dict[str, Reason]:
        """Order text → the reason of its result, for the results that are not success
        (the one-shot contract's "reasons"; a later order of the same text wins)."""
        got = self._rows
        if isinstance(got, _MovementRows):
            return got.reason_texts()  # (only the orders that failed are written)
        return {t: r for (_, t, _w), r in zip(self.rows(), self.reasons(), strict=True)
                if r is not None}

    @property
    def events(self) -> list[Reason]:
        """What the variant's rules did on their own in this phase: scheduled events, and
        what the rules find changed between the phase's position and the next."""
        got = self._events
        if got is None:
            got = list(self.fired)
            m = self.map
            if m is not None and self.before is not None:
                got += m.rules.events(m, self.before, self.position)
            self._events = got
        return got

    def result_texts(self) -> dict[str, list[str]]:
        """Order text → result words, one entry per text (a later order of the same text
        wins): the one-shot contract's "results", written without the rows."""
        got = self._rows
        if isinstance(got, _MovementRows):
            return got.texts()
        return {t: w for _, t, w in self.rows()}


def parse_orders(m: Map, phase: Phase, orders: dict[int, list[str]]
                 ) -> tuple[dict[int, list[Order]], list[tuple[int, str]]]:
    """Parse typed orders per power; unreadable ones become errors (never silently dropped)."""
    parsed: dict[int, list[Order]] = {}
    errors: list[tuple[int, str]] = []
    typ = phase.type
    memo = order_memo(m, typ)
    for power, texts in orders.items():
        lst = parsed.get(power)
        if lst is None:
            lst = parsed[power] = []
        for t in texts:
            try:
                lst.append(read_order(m, memo, t, typ, True))  # (kept for the results' texts)
            except OrderError as exc:
                errors.append((power, str(exc)))
    return parsed, errors


@dataclass(slots=True)
class Entry:
    """What giving a power's orders did (enter_orders): the power's pending orders now, the
    orders refused (with the index of the text in what was given, the problem as the API
    reports it — "'text': why; what to do" —, and what to do, or ""), and the earlier
    orders the new ones replaced (earlier text, index of the new one)."""

    orders: list[Order]
    refused: list[tuple[int, str, str]]
    replaced: list[tuple[str, int]]

    @property
    def problems(self) -> list[str]:
        return [why for _, why, _ in self.refused]


def enter_orders(m: Map, pos: Position, power: int, texts: list[str],
                 pending: Sequence[Order] = (), add: bool = False) -> Entry:
    """A power's orders given in the phase of `pos`, added to its `pending` ones.

    Orders that cannot be read, that name a unit the power does not have (movement and
    retreats), a retreat to a place the unit cannot reach, or an adjustment that cannot be
    carried out (a build on a site that is not one, a build beyond the builds due, two
    builds on one site) are refused with the reason. A new order for a unit replaces its
    pending one (`add`: every order is kept as given); builds and removals accumulate, a
    build on a site replacing the pending one there. In a space holding several of the
    power's units the orders bind in turn to its units not yet ordered by these `texts`,
    or to the unit a number names ("F PBS #2 - EPR", orders/stacked.py); their kept texts
    carry the number, so that they bind to the same units when the phase is processed."""
    typ = pos.phase.type
    orders: list[Order] = []
    refused: list[tuple[int, str, str]] = []
    memo = order_memo(m, typ)
    for j, t in enumerate(texts):
        try:
            orders.append(read_order(m, memo, t, typ))
        except OrderError as exc:
            refused.append((j, str(exc), ""))
    if typ == "M" and not pending and not m.tables.has_open_spaces:
        # the common case, each power ordering once on a map without shared spaces: the
        # orders kept as given (a later order for a unit wins when they are bound)
        bad: list[Order] = []
        _, errors = bind_to_units(m, pos.units, {power: orders}, MOVEMENT_TYPES, pos=pos,
                                  refused=bad)
        if not bad:
            return Entry(orders, refused, [])
        said = _said(errors)
        no = {id(o) for o in bad}
        for j, o in _numbered_read(texts, refused, orders):
            if id(o) in no:
                left = said.get(repr(o.text))
                refused.append((j, left.pop(0) if left else f"{o.text!r}: not taken", ""))
        return Entry([o for o in orders if id(o) not in no], refused, [])
    read = _numbered_read(texts, refused, orders)
    if typ == "A":
        return _enter_adjustments(m, pos, power, read, list(pending), refused)
    return _enter_unit_orders(m, pos, power, read, list(pending), refused, add)


def _numbered_read(texts: list[str], refused: list[tuple[int, str, str]],
                   orders: list[Order]) -> list[tuple[int, Order]]:
    """The orders read, each with the index of its text (the texts not read are the first
    entries of `refused`)."""
    if not refused:
        return list(enumerate(orders))
    skipped = {j for j, _, _ in refused}
    return list(zip((j for j in range(len(texts)) if j not in skipped), orders, strict=True))


def _enter_unit_orders(m: Map, pos: Position, power: int, read: list[tuple[int, Order]],
                       pending: list[Order], refused: list[tuple[int, str, str]], add: bool
                       ) -> Entry:
    """enter_orders in a movement or retreat phase."""
    typ = pos.phase.type
    units = pos.units if typ == "M" else pos.dislodged
    allowed = MOVEMENT_TYPES if typ == "M" else (RETREAT, DISBAND)
    orders = [o for _, o in read]
    slots: list[int] = []
    _, errors = bind_to_units(m, units, {power: orders}, allowed, pos=pos, slots=slots)
    said = _said(errors)
    # spaces holding several units (the rare case: only where a variant has open spaces)
    several = unit_index(m, units)[1] if m.tables.has_open_spaces else None
    given: dict[int, int] = {}  # unit index -> position in `new`
    new: list[tuple[int, Order]] = []
    for (j, o), i in zip(read, slots, strict=True):
        if i < 0:
            left = said.get(repr(o.text))
            refused.append((j, left.pop(0) if left else f"{o.text!r}: not taken", ""))
            continue
        u = units[i]
        n = number_of(m, units, i) if several and m.loc_prov[u.loc] in several else 0
        if i in given and n and not o.unit:
            prov = m.prov_name[m.loc_prov[u.loc]]
            hint = (f"write '{m.unit_str(u.kind, u.loc)} #N ...' (N = 1 to "
                    f"{count_in(m, units, power, u.kind, m.loc_prov[u.loc])}) to order one "
                    "of them")
            refused.append((j, f"{o.text!r}: each {m.kind_names[u.kind]} of "
                               f"{m.powers[power]} in {prov} already has an order here; "
                               f"{hint}", hint))
            continue
        if typ == "R" and o.type == RETREAT and o.target is not None:
            d = pos.dislodged[i]
            if retreat_target(m, d, o.target, porous_now(m, pos)) < 0:
                reason, hint = _no_retreat(m, d, o.target)
                refused.append((j, f"{o.text!r}: {reason}; {hint}", hint))
                continue
        if n:  # kept with its number: it binds to this unit when the phase is processed
            o = o.but(kind=u.kind, unit=n,
                      text=o.format(m, f"{m.unit_str(u.kind, u.loc)} #{n}"))
        if i in given:  # (a later order for a unit replaces the earlier, DATC 4.D.3)
            new[given[i]] = (-1, new[given[i]][1])
        given[i] = len(new)
        new.append((j, o))
    replaced: list[tuple[str, int]] = []
    kept: list[Order] = []
    if pending and not add:
        old_slots: list[int] = []
        bind_to_units(m, units, {power: pending}, allowed, pos=pos, slots=old_slots)
        for o, i in zip(pending, old_slots, strict=True):
            if i >= 0 and i in given:
                replaced.append((o.text, new[given[i]][0]))
            else:
                kept.append(o)
    else:
        kept = list(pending)
    kept += [o for j, o in new if j >= 0]
    return Entry(kept, refused, replaced)


def porous_now(m: Map, pos: Position) -> dict[int, set[tuple[int, int]]] | None:
    """The provinces entered without naming a coast now (rules' `porous`), or None."""
    return m.rules.porous(m, pos) or None


def _said(errors: list[tuple[int, str]]) -> dict[str, list[str]]:
    """bind_to_units' errors by the order text they begin with (its repr), in turn."""
    said: dict[str, list[str]] = {}
    for _, e in errors:
        said.setdefault(e.split(": ", 1)[0], []).append(e)
    return said


def _no_retreat(m: Map, d: Dislodged, target: int) -> tuple[str, str]:
    """Why a dislodged unit cannot retreat to `target`, and where it may go."""
    why = f"{m.unit_str(d.kind, d.loc)} cannot retreat to {m.prov_name[m.loc_prov[target]]}"
    if not d.retreats:
        return why, "it has nowhere to retreat: order it to disband"
    return why, (f"it may retreat to "
                 f"{', '.join(sorted(m.loc_name[r] for r in d.retreats))} (or disband)")


def _enter_adjustments(m: Map, pos: Position, power: int, read: list[tuple[int, Order]],
                       held: list[Order], refused: list[tuple[int, str, str]]) -> Entry:
    """enter_orders in an adjustment phase: each order checked, then added to the power's
    pending ones; a build on a site replaces the pending build there, and no more builds
    (or waives) and removals are kept than the power has due."""
    counts = adjustment_counts(m, pos)
    due = counts[power]
    loc_prov = m.loc_prov
    who = m.powers[power]
    here: dict[int, str] = {}  # build site -> the text of this message's build there
    replaced: list[tuple[str, int]] = []
    for j, o in read:
        why = adjustment_problem(m, pos, power, o, counts, held)
        if why:
            refused.append((j, f"{o.text!r}: {why}", ""))
            continue
        if o.type == BUILD and o.act:  # in place of a build (a canal): no unit, no site
            builds = [h for h in held if h.type in (BUILD, WAIVE)]
            if len(builds) >= due:
                refused.append((j, *_too_many(o, who, due, builds, "build")))
                continue
        elif o.type == BUILD:
            prov = loc_prov[o.loc]
            if prov in here:
                hint = f"one unit is built on a site; {here[prov]!r} is kept"
                refused.append((j, f"{o.text!r}: a second build in {m.prov_name[prov]}; "
                                   f"{hint}", hint))
                continue
            old = next((h for h in held if h.type == BUILD and loc_prov[h.loc] == prov), None)
            rest = [h for h in held if h is not old]
            builds = [h for h in rest if h.type in (BUILD, WAIVE)]
            if len(builds) >= due:
                refused.append((j, *_too_many(o, who, due, builds, "build")))
                continue
            if old is not None:
                replaced.append((old.text, j))
            held = rest
            here[prov] = o.text
        elif o.type == WAIVE:
            builds = [h for h in held if h.type in (BUILD, WAIVE)]
            if len(builds) >= due:
                refused.append((j, *_too_many(o, who, due, builds, "build")))
                continue
        else:  # a removal
            prov = loc_prov[o.loc]
            removals = [h for h in held if h.type == DISBAND]
            there = sum(1 for h in removals if loc_prov[h.loc] == prov)
            if there and there >= sum(1 for u in pos.units
                                      if u.power == power and loc_prov[u.loc] == prov):
                refused.append((j, f"{o.text!r}: {possessive(who)} unit in {m.prov_name[prov]} is "
                                   "already removed by an earlier order", ""))
                continue
            if len(removals) >= -due:
                refused.append((j, *_too_many(o, who, -due, removals, "removal")))
                continue
        held.append(o)
    return Entry(held, refused, replaced)


# where the hint below says how to clear a power's orders, each interface says it its own way
# (polydip.cli.orders, the host's order page)
CLEAR_FIRST = "or give them all again in one message that replaces them"


def _too_many(o: Order, who: str, due: int, given: list[Order], what: str
              ) -> tuple[str, str]:
    """The problem and the hint of an adjustment beyond those due."""
    listed = ", ".join(repr(g.text) for g in given)
    hint = (f"a new {what} on the same site replaces the old one; to start again, clear "
            f"the power's orders first ({CLEAR_FIRST})")
    return (f"{o.text!r}: {who} has {due} {what}{'' if due == 1 else 's'} due and "
            f"{'it has' if len(given) == 1 else 'they have'} been given ({listed}); {hint}",
            hint)


def bind_to_units(m: Map, units: Sequence[Unit | Dislodged], orders: dict[int, list[Order]],  # noqa: C901 (compiled hot path: split with a bench run, both builds)
                  allowed: tuple[OrderType, ...],
                  auto: bool = False, pos: Position | None = None,
                  refused: list[Order] | None = None, slots: list[int] | None = None
                  ) -> tuple[list[Order | None], list[tuple[int, str]]]:
    """Give each unit its order (the last one given wins, DATC 4.D.3).

    In a space holding several units, an order binds to the unit its number names
    ("F PBS #2", orders/stacked.py; these first), else to the ordering power's next unit
    there (of the kind named) not yet ordered. An order for a unit that a rule holds (the
    `unit_holds` hook: neutral units) is refused, unless `auto` (orders a rule gave
    itself). `pos` is the position the units stand in, for that hook. Each order refused
    gets an error (power, message) and, when `refused` is given, is appended to it; with
    `slots`, the index in `units` each order was given to (-1: refused) is appended to it,
    in the order of the orders (of one power, as given)."""
    rules = m.rules
    # (the hooks no rule implements are not called: their standard answer is "no")
    holds = rules.unit_holds if not auto and rules.implements("unit_holds") else None
    refuse = rules.refuse if rules.implements("refuse") else None
    ruled = refuse is not None or holds is not None
    # an order with an act (anchors' CONVERT, CAPTURE...) needs a rule that carries it out
    acts = rules.implements("after_orders")
    loc_prov = m.loc_prov
    first, several = unit_index(m, units)
    bound: list[Order | None] = [None] * len(units)
    errors: list[tuple[int, str]] = []
    for power, lst in orders.items():
        todo = lst
        if several and any(o.unit for o in lst):  # numbered orders bind first
            todo = sorted(lst, key=_unnumbered)
        got: list[int] | None = [] if slots is not None else None  # per order of `todo`
        for o in todo:
            i = -1
            why: str | None = None
            if o.type not in allowed:
                why = "not an order for this phase"
            elif o.act and not acts:
                why = f"anchor orders ({o.act}) are not part of this variant"
            elif o.at >= 0 and not m.tables.has_attack_spaces:
                why = ("attacks (AT) are ordered only in spaces where units meet through them "
                       "(oceans), which this variant does not have")
            else:
                p = loc_prov[o.loc]
                if o.unit:
                    i = numbered(m, units, power, o.kind, p, o.unit)
                else:
                    i = _pick(units, several[p], power, o, bound) if several and p in several \
                        else first[p]
                if i < 0:
                    why = f"no unit in {m.prov_name[p]}"
                    if o.unit:
                        n = count_in(m, units, power, o.kind, p)
                        what = m.kind_names[o.kind] if o.kind is not None else "unit"
                        why = (f"{m.powers[power]} has no {what} #{o.unit} in "
                               f"{m.prov_name[p]} ({n} there)")
                elif units[i].power != power:
                    why = (f"the unit in {m.prov_name[p]} belongs to "
                           f"{m.powers[units[i].power]}")
                elif ruled:
                    why = refuse(m, units[i], o, pos) if refuse is not None else None
                    if not why and holds is not None and holds(m, pos, units[i]):
                        why = (f"the unit in {m.prov_name[p]} always holds (a rule of this "
                               "variant): orders for it are refused")
            if why:
                errors.append((power, f"{o.text!r}: {why}"))
                if refused is not None:
                    refused.append(o)
                if got is not None:
                    got.append(-1)
            else:
                bound[i] = o
                if got is not None:
                    got.append(i)
        if got is not None and slots is not None:
            slots += got if todo is lst else _as_given(lst, got)
    return bound, errors


def _unnumbered(o: Order) -> bool:
    """The sort key that puts numbered orders ("F PBS #2 ...") first (a stable sort)."""
    return not o.unit


def _as_given(lst: list[Order], got: list[int]) -> list[int]:
    """`got`, given in the order of sorted(lst, key=_unnumbered), in the order of `lst`."""
    a, b = 0, sum(1 for o in lst if o.unit)
    out = []
    for o in lst:
        if o.unit:
            out.append(got[a])
            a += 1
        else:
            out.append(got[b])
            b += 1
    return out


def _pick(units: Sequence[Unit | Dislodged], here: list[int] | tuple, power: int, o: Order,
          bound: list[Order | None]) -> int:
    """The unit an order addresses among those in its province: the only one, or (in a space
    holding several) the ordering power's unit of the kind named, not yet ordered."""
    if len(here) <= 1:
        return here[0] if here else -1
    mine = [i for i in here if units[i].power == power]
    for i in mine:
        if (o.kind is None or units[i].kind == o.kind) and bound[i] is None:
            return i
    return mine[0] if mine else here[0]


def describe(m: Map, unit: Unit | Dislodged, o: Order | None) -> str:
    """The order of `unit` in diplomacy notation, using where the unit really is."""
    return _describe(m, described_orders(m), _hold_texts(m), unit, o)


def _describe(m: Map, orders: dict[str, tuple[Order, str]], holds: dict[int, str],
              unit: Unit | Dislodged, o: Order | None) -> str:
    """describe, with the map's tables of texts (described_orders, _hold_texts) given: a
    loop over a phase's units fetches them once."""
    if o is None:
        return _hold_text(m, holds, unit.kind, unit.loc)
    k = o.kind
    if k is not None and k == unit.kind and o.loc == unit.loc:
        return _order_text(m, orders, unit, o)
    key = (m, unit.kind, unit.loc, o.text, o.type)
    got = _DESCRIBED.get(key)
    if got is None:
        if len(_DESCRIBED) > 200_000:
            _DESCRIBED.clear()
        got = o.format(m, m.unit_str(unit.kind, unit.loc))
        _DESCRIBED[key] = got
    return got


# describe's texts of orders given to a unit standing elsewhere than the order says (a
# coast left out, an order without the unit's kind)
_DESCRIBED: Final[dict[tuple, str]] = {}


def _hold_texts(m: Map) -> dict[int, str]:
    """Per map: "A PAR H" per kind * locations + location (a unit without an order)."""
    return m.caches.described_holds


def _order_text(m: Map, texts: dict[str, tuple[Order, str]], unit: Unit | Dislodged,
                o: Order) -> str:
    """describe(m, unit, o) for an order of the unit's kind and location, kept in `texts`
    (described_orders) with the order itself: the same text read again is the same order."""
    got = texts.get(o.text)
    if got is not None and got[0] is o:
        return got[1]
    done = o.format(m, m.unit_str(unit.kind, unit.loc))
    keep_description(texts, o.text, o, done)
    return done


def _hold_text(m: Map, texts: dict[int, str], kind: int, loc: int) -> str:
    """describe(m, unit, None): the unit holds, kept in `texts` (_hold_texts)."""
    i = kind * len(m.loc_name) + loc
    got = texts.get(i)
    if got is None:
        got = texts[i] = f"{m.unit_str(kind, loc)} H"
    return got


class _MovementRows:
    """The results of a movement phase, written when first asked for: as rows, or (the
    one-shot contract) as order text → result words."""

    __slots__ = ("bound", "m", "mr", "names", "options", "units")

    def __init__(self, m: Map, units: list[Unit], bound: list[Order | None],
                 mr: MovementResult, options: dict | None = None) -> None:
        self.m, self.units, self.bound, self.mr = m, units, bound, mr
        self.options = options
        self.names: list[str] | None = None  # each unit's order text, once written

    def reasons(self) -> list[Reason | None]:
        return self.mr.reasons(self.options)

    def reason_texts(self) -> dict[str, Reason]:
        names = self.names
        if names is not None:  # (written for the results already)
            return {names[i]: r for i, r in enumerate(self.reasons()) if r is not None}
        m, units, bound = self.m, self.units, self.bound
        orders, holds = described_orders(m), _hold_texts(m)
        return {_describe(m, orders, holds, units[i], bound[i]): r
                for i, r in enumerate(self.reasons()) if r is not None}

    def __call__(self) -> Rows:
        m, units, bound = self.m, self.units, self.bound
        orders, holds = described_orders(m), _hold_texts(m)
        return [(units[i].power, _describe(m, orders, holds, units[i], bound[i]), r)
                for i, r in enumerate(self.mr.results)]

    def texts(self) -> dict[str, list[str]]:
        m, units, bound = self.m, self.units, self.bound
        orders, holds = described_orders(m), _hold_texts(m)
        names = self.names = [_describe(m, orders, holds, units[i], bound[i])
                              for i in range(len(units))]
        return dict(zip(names, self.mr.results, strict=True))


def process(m: Map, pos: Position, orders: dict[int, list[Order]], options: dict
            ) -> PhaseOutcome:
    """Adjudicate the phase of `pos` with each power's parsed orders; the outcome holds the
    position of the next phase."""
    typ = pos.phase.type
    errors: list[tuple[int, str]]
    if typ == "M":
        bound, errors = bind_to_units(m, pos.units, orders, MOVEMENT_TYPES, pos=pos)
        return process_bound(m, pos, bound, options, errors)
    if typ == "R":
        bound, errors = bind_to_units(m, pos.dislodged, orders, (RETREAT, DISBAND), pos=pos)
        return process_bound(m, pos, bound, options, errors)
    per_power: list[list[Order]] = [[] for _ in m.powers]
    errors = []
    for power, lst in orders.items():
        for o in lst:
            if o.type not in (BUILD, DISBAND, WAIVE):
                errors.append((power, f"{o.text!r}: not an order for an adjustment phase"))
            elif o.type == BUILD and o.kind is None and not o.act:
                errors.append((power, f"{o.text!r}: say what to build (A or F)"))
            else:
                per_power[power].append(o)
    return process_bound(m, pos, per_power, options, errors)


def process_bound(m: Map, pos: Position, orders: list, options: dict,  # noqa: C901 (compiled hot path: split with a bench run, both builds)
                  errors: list[tuple[int, str]] | None = None) -> PhaseOutcome:
    """Adjudicate the phase of `pos` with orders already given to units: in a movement
    phase `orders[i]` is the order of `pos.units[i]`, in a retreat phase of
    `pos.dislodged[i]` (None: no order), in an adjustment phase `orders[p]` is the list of
    power p's orders, in the order given. `errors` are carried into the outcome."""
    phase = pos.phase
    new = _next_position(m, pos)
    results: list[OrderResult] | Callable[[], Rows] = []
    why: Callable[[], list[Reason | None]] | None = None
    words_given: list[list[str]] | Callable[[], list[list[str]]] | None = None
    if errors is None:
        errors = []
    destroyed: list[Dislodged] = []
    routed: list[Dislodged] = []
    moved: list[tuple[Unit, Unit, bool]] = []  # for the rules' after_phase hook
    standoffs: frozenset[int] | MovementResult = frozenset()
    rules = m.rules
    # a variant without rules asks no hook (each would give its standard answer)
    active = rules.active
    # (what moved is worked out only for a rule that remembers it)
    remember = active and rules.implements("after_phase")
    if phase.type == "M":
        bound: list[Order | None] = orders
        blocked = closed_passages(m, pos, options) if active else {}
        # the units as they move (a rule may change a kind: a fleet going up a river)
        moving = (rules.moving_kinds(m, pos, bound) if active else None) or pos.units
        mr = resolve_movement(m, moving, bound, options, blocked, pos)
        standoffs = mr  # (worked out when asked)
        results = _MovementRows(m, pos.units, bound, mr, options)
        why = results.reasons
        new.units = mr.units
        new.dislodged = mr.dislodged
        destroyed = list(mr.routed)  # "not allowed to retreat, and is disbanded"
        routed = mr.routed
        if remember:
            moved = mr.moved(moving)
        if new.dislodged:  # (the standoffs matter only to the retreats that follow:
            new.contested = mr.contested  # next_phase empties them when none follow)
        if new.dislodged and active:
            new.dislodged = [rules.retreat(m, new, d) for d in new.dislodged]
        if active and rules.implements("after_orders"):
            # what the orders did beyond moving (anchors)
            rules.after_orders(m, pos, new, moving, bound, mr.finals(moving))
        if new.dislodged and not any(d.retreats for d in new.dislodged) \
                and not options.get("keep_empty_retreats", False):
            # no dislodged unit may go anywhere: they are destroyed, and no retreat phase
            destroyed += new.dislodged
            new.dislodged = []
    elif phase.type == "R":
        bound = orders
        auto = rules.retreat_orders(m, pos) if active else None
        if auto:  # orders a rule gives units nobody orders (neutral units)
            given, _ = bind_to_units(m, pos.dislodged, auto, (RETREAT, DISBAND), auto=True)
            bound = [a if a is not None else o for o, a in zip(bound, given, strict=True)]
        rr = resolve_retreats(m, pos.dislodged, bound, porous_now(m, pos) if active else None)
        retreated = pos.dislodged

        def retreat_results() -> Rows:
            listed: Rows = []
            for d, o, r in zip(retreated, bound, rr.results, strict=True):
                text = describe(m, d, o) if o is not None else f"{m.unit_str(d.kind, d.loc)} D"
                listed.append((d.power, text, r))
            return listed

        results = retreat_results
        words_given = rr.results

        def retreat_why() -> list[Reason | None]:
            return retreat_reasons(m, pos, bound, rr,
                                   closed_passages(m, pos, options))

        why = retreat_why
        new.units = pos.units + rr.units
        if remember:
            moved = rr.moved(pos.dislodged)
        new.dislodged = []
        new.contested = frozenset()
    else:
        ar = resolve_adjustments(m, pos, orders, options)
        # build orders with an act that counted (canal builds: only a rule counts them)
        counted = [(p, o) for p, lst in enumerate(ar.results) for o, r in lst
                   if o.act and not r] if active else []
        if counted:
            rules.acts_done(m, pos, new, counted)

        def adjustment_results() -> Rows:
            listed: Rows = []
            for power, lst in enumerate(ar.results):
                for o, r in lst:
                    listed.append((power, o.format(m), r))
                for u in ar.removed[power]:
                    listed.append((power, f"{m.unit_str(u.kind, u.loc)} D", ["civil disorder"]))
            return listed

        def adjustment_why() -> list[Reason | None]:
            listed: list[Reason | None] = []
            for power, lst in enumerate(ar.reasons):
                listed += lst
                listed += [reason(CIVIL_DISORDER)] * len(ar.removed[power])
            return listed

        results = adjustment_results
        why = adjustment_why

        def adjustment_given() -> list[list[str]]:
            return [words for lst in ar.results for _o, words in lst]

        words_given = adjustment_given
        new.units = ar.units
    if remember:  # what rules remember of this phase (where a unit came from)
        rules.after_phase(m, pos, new, moved)
    changes: list[tuple[int, int, int]] = []
    fired: list[Reason] = []
    new.phase = next_phase(m, new, phase, changes, fired)
    out = PhaseOutcome(phase, new, results, errors, changes)
    out._why = why
    out._given = words_given
    out.fired = fired
    if rules.active:  # (kept for the rules' `events`, asked when a report wants them)
        out.map, out.before = m, pos
    out._standoffs = standoffs
    out.destroyed = destroyed
    if routed:
        out.routed = routed
    return out


def _next_position(m: Map, pos: Position) -> Position:
    """The position to fill with the phase's outcome. Units, dislodged units and the phase
    are always replaced; the rest is shared with `pos` unless a rule of the variant changes
    positions in place (centers change hands by copy-on-write in update_centers)."""
    if m.rules.changes_positions:
        return pos.copy()
    return Position(pos.phase, pos.units, pos.owners, pos.dislodged, pos.contested, pos.homes,
                    pos.year_start_owners, pos.extra)


def next_phase(m: Map, pos: Position, done: Phase, changes: list,
               fired: list[Reason] | None = None) -> Phase:
    """Advance from `done`, updating center owners when the season that changes them ends.
    `fired`: gets the scheduled events that happen on the way (the rules' before_phase)."""
    cal = m.variant.calendar
    rules = m.rules
    active = rules.active  # (a variant without rules asks no hook)
    if done.type == "M" and pos.dislodged:
        # the retreats that follow: in the same season (Spring Retreats), or the next
        # season's when the calendar gives retreats a season of their own (phase B of A-D)
        after = following(cal, done)
        return after if after.type == "R" else Phase(done.year, done.season, "R")
    pos.contested = frozenset()  # standoffs matter only to the retreats that follow
    nxt = following(cal, done)
    while True:
        # centers change owner after the last movement or retreat phase of their season
        if (done.season == cal.centers_change_after and done.type != "A"
                and (nxt.season != done.season or nxt.type == "A")):
            if pos.year_start_owners is None:  # ("the owners now", until they change: a
                # position read from a file that left them out keeps the year's start)
                pos.year_start_owners = pos.owners  # (update_centers replaces the list)
            changes.extend(update_centers(m, pos))
            if active:
                rules.centers_changed(m, pos)
        if nxt.year != done.year:
            pos.year_start_owners = list(pos.owners)
        if active:
            for what in rules.before_phase(m, pos, nxt):
                words = what.words if isinstance(what, Reason) else what
                pos.extra.setdefault("log", []).append(f"{nxt.name}: {words}")
                if fired is not None:
                    fired.append(what if isinstance(what, Reason)
                                 else reason(CENTER_BY_EVENT, words))
        if nxt.type == "R" and not pos.dislodged:
            done, nxt = nxt, following(cal, nxt)
            continue
        if nxt.type == "A" and not adjustments_needed(m, pos):
            done, nxt = nxt, following(cal, nxt)
            continue
        return nxt


def update_centers(m: Map, pos: Position) -> list[tuple[int, int, int]]:
    """Give each center to the power whose unit stands in it; return (center, old owner,
    new owner) per change. The owners list is replaced, not changed in place, when a center
    changes hands (positions of earlier phases may share it)."""
    changes: list[tuple[int, int, int]] = []
    owners = pos.owners
    is_sc, loc_prov = m.is_sc, m.loc_prov
    for u in pos.units:
        p = loc_prov[u.loc]
        if is_sc[p] and owners[p] != u.power:
            if not changes:
                owners = pos.owners = list(owners)
            changes.append((p, owners[p], u.power))
            owners[p] = u.power
    return changes


def adjustments_needed(m: Map, pos: Position) -> bool:
    counts = adjustment_counts(m, pos)
    if any(delta < 0 for delta in counts):  # (a removal: no need to look for build sites)
        return True
    return any(delta > 0 and build_sites(m, pos, power) for power, delta in enumerate(counts))

