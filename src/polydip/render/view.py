"""What a picture of one phase shows: the position, and the orders with their results.

A processed phase shows the position it started from and the orders as adjudicated (each
with its result words); the current phase shows the position now and the orders given so
far, not yet adjudicated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from polydip.errors import OrderError, PolydipError
from polydip.game.engine import MOVEMENT_TYPES, bind_to_units, describe, parse_orders
from polydip.orders.model import BUILD, DISBAND, HOLD, RETREAT, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.state import Dislodged, PhaseType, Position, Unit

if TYPE_CHECKING:
    from polydip.game.game import Game
    from polydip.game.record import PhaseRecord
    from polydip.geography.map import Map


@dataclass(slots=True)
class DrawnOrder:
    power: int
    order: Order  # `loc` is where the unit stands (for builds: where it is built)
    result: list[str] | None  # the engine's words; None: not adjudicated yet
    explicit: bool = True  # False for a unit that was given no order (held / disbanded)
    reason: str = ""  # why it failed: a code of adjudication/reasons.py ("" when it did not)
    why: str = ""  # ... in words (the failed-order mark's title)

    @property
    def failed(self) -> bool:
        return any(w != "dislodged" for w in self.result or ())

    @property
    def dislodged(self) -> bool:
        return "dislodged" in (self.result or ())


@dataclass(slots=True)
class PhaseView:
    position: Position
    orders: list[DrawnOrder]
    processed: bool  # the orders carry results
    # what the rules did on their own in the phase: (reason code, words) each
    events: list[tuple[str, str]] = field(default_factory=list)


def phase_view(game: Game, phase: str | None = None) -> PhaseView:
    """The view of `phase` (a processed one, or the current one when None)."""
    if phase is None or phase.strip().upper() == game.phase:
        return _current_view(game)
    want = phase.strip().upper()
    for rec in game.history:
        if rec.position.phase.name == want:
            return _record_view(game, rec)
    done = ", ".join(r.position.phase.name for r in game.history) or "none"
    raise PolydipError(f"no phase {phase} in this game (processed: {done}; current: "
                       f"{game.phase})")


def _current_view(game: Game) -> PhaseView:
    m, pos = game.map, game.position
    ptype = pos.phase.type
    parsed, _errors = parse_orders(m, pos.phase, game.orders)
    out: list[DrawnOrder] = []
    if ptype in ("M", "R"):
        units: Sequence[Unit | Dislodged] = pos.units if ptype == "M" else pos.dislodged
        allowed = MOVEMENT_TYPES if ptype == "M" else (RETREAT, DISBAND)
        bound, _ = bind_to_units(m, units, parsed, allowed)
        for u, o in zip(units, bound, strict=True):
            if o is None:
                continue
            drawn = _reparse(m, describe(m, u, o), ptype)
            if drawn is not None:
                out.append(DrawnOrder(u.power, drawn, None))
    else:
        for p, lst in parsed.items():
            for o in lst:
                if o.type in (BUILD, DISBAND):
                    out.append(DrawnOrder(p, o, None))
    return PhaseView(pos, out, False)


def _record_view(game: Game, rec: PhaseRecord) -> PhaseView:
    from polydip.report import _explicitly_ordered

    m, pos = game.map, rec.position
    ptype = pos.phase.type
    ordered = _explicitly_ordered(game, rec)
    out = []
    for r, why in zip(rec.outcome.results, rec.outcome.reasons(), strict=True):
        o = _reparse(m, r.text, ptype)
        if o is None or o.type == WAIVE:
            continue
        explicit = ptype == "A" or r.text in ordered
        drawn = DrawnOrder(r.power, o, list(r.result), explicit)
        if why is not None:
            drawn.reason, drawn.why = why.code, why.words
        out.append(drawn)
    return PhaseView(pos, out, True, [(e.code, e.words) for e in rec.outcome.events])


def _reparse(m: Map, text: str, ptype: PhaseType) -> Order | None:
    try:
        o = parse_order(m, text, ptype)
    except OrderError:
        return None
    if o.type == HOLD and ptype != "M":
        return None
    return o
