"""FastGame: a game played by order codes, for bots, simulations and RL environments.

A phase is a list of *items*, each a choice one power makes: in a movement phase one per
unit (in the order of `position.units`), in a retreat phase one per dislodged unit, in an
adjustment phase one per build or removal a power owes. `legal()` gives each item's legal
orders as codes of the map's order table (polydip.orders.table: stable for the map), `step`
takes one code per item (-1: no order) and processes the phase. No order string is made or
read in the loop; the adjudication is the same code the string API (polydip.game.Game) runs.

    fg = FastGame.new("standard")
    while not fg.is_over:
        legal = fg.legal()
        fg.step([rng.choice(codes) if codes else -1 for codes in legal])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from polydip.adjudication.adjustments import adjustment_counts
from polydip.adjudication.legal import build_codes, movement_codes, retreat_codes
from polydip.errors import PolydipError, int_given
from polydip.game.engine import PhaseOutcome, process_bound
from polydip.game.victory import center_counts, game_end, victory_in_force
from polydip.geography.map import Map
from polydip.orders.table import OrderTable, order_table
from polydip.state import Dislodged, Position, Unit


class _Record:
    """A processed phase, kept only for a victory condition that reads the past."""

    __slots__ = ("outcome", "position")

    def __init__(self, position: Position, outcome: PhaseOutcome | _Changes) -> None:
        self.position = position
        self.outcome = outcome

    def __reduce__(self) -> tuple:
        # (an outcome holds closures: a pickle keeps what the victory condition reads)
        return (_record, (self.position, list(self.outcome.center_changes)))


class _Changes:
    """What an unpickled _Record keeps of its outcome: the center changes."""

    __slots__ = ("center_changes",)

    def __init__(self, center_changes: list[tuple[int, int, int]]) -> None:
        self.center_changes = center_changes


def _record(position: Position, center_changes: list[tuple[int, int, int]]) -> _Record:
    return _Record(position, _Changes(center_changes))


class Snapshot:
    """A FastGame's state at one moment (`FastGame.snapshot`), for `FastGame.restore`."""

    __slots__ = ("counts", "history", "items", "legal", "m", "position", "status", "winners")

    def __init__(self, m: Map, position: Position, status: str, winners: list[int],
                 history: list[_Record] | None, counts: tuple[list[int], list[int]],
                 items: list[tuple[int, int]] | None, legal: list[list[int]] | None) -> None:
        self.m = m
        self.position = position
        self.status = status
        self.winners = winners
        self.history = history
        self.counts = counts
        self.items = items
        self.legal = legal


def _unpickle(m: Map, position: Position, options: dict[str, Any], status: str,
              winners: list[int], history: list[_Record]) -> FastGame:
    fg = FastGame(m, position, options)
    fg.status, fg.winners, fg.history = status, list(winners), list(history)
    return fg


class FastGame:
    """A game of one variant, played by order codes (see the module docstring)."""

    __slots__ = ("_counts", "_items", "_legal", "history", "m", "options", "position",
                 "status", "table", "victory", "winners")

    def __init__(self, m: Map, position: Position, options: dict[str, Any] | None = None
                 ) -> None:
        self.m = m
        self.table: OrderTable = order_table(m)
        self.position = position
        self.options: dict[str, Any] = dict(options or {})
        self.victory = victory_in_force(m.variant, self.options)
        self.status = "active"
        self.winners: list[int] = []
        # the processed phases, kept only when the victory condition reads them
        self.history: list[_Record] = []
        self._counts: tuple[list[int], list[int]] = ([], [])
        self._items: list[tuple[int, int]] | None = None
        self._legal: list[list[int]] | None = None

    @classmethod
    def new(cls, variant: Any = "standard", options: dict[str, Any] | None = None
            ) -> FastGame:
        """A new game of a variant (a name, a file, or a loaded Variant), as Game.new."""
        from polydip.game.game import Game

        return cls.from_game(Game.new(variant, options))

    @classmethod
    def from_game(cls, game: Any) -> FastGame:
        """A fast game from the current phase of a Game (its map, position and options)."""
        fg = cls(game.map, game.position, game.options)
        fg.status, fg.winners = game.status, list(game.winners)
        return fg

    # ---- the phase ---------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.position.phase.name

    @property
    def phase_type(self) -> str:
        """"M" (movement), "R" (retreats) or "A" (adjustments)."""
        return self.position.phase.type

    @property
    def is_over(self) -> bool:
        return self.status != "active"

    def items(self) -> list[tuple[int, int]]:
        """The choices of this phase, as (power, unit): the unit's index in
        `position.units` (movement) or `position.dislodged` (retreats); in an adjustment
        phase -1, one item per build or removal the power owes."""
        items = self._items
        if items is None:
            pos = self.position
            typ = pos.phase.type
            if typ == "A":
                self._compute()
                items = self._items
            else:  # an item per unit (movement) or dislodged unit (retreats), in order
                units: Sequence[Unit | Dislodged] = pos.units if typ == "M" else pos.dislodged
                items = self._items = [(units[i].power, i) for i in range(len(units))]
        return items  # type: ignore[return-value]

    def legal(self) -> list[list[int]]:
        """Per item, the codes of its legal orders (empty: the item takes no order, as a
        unit a rule holds). Do not change the lists: they are kept for `step`."""
        if self._legal is None:
            self._compute()
        return self._legal  # type: ignore[return-value]

    def _compute(self) -> None:
        m, pos, t = self.m, self.position, self.table
        typ = pos.phase.type
        items: list[tuple[int, int]] = []
        legal: list[list[int]] = []
        # (movement and retreats: an item per unit, in order; `items()` lists them)
        if typ == "M":
            for codes in movement_codes(m, pos, self.options, t):
                legal.append(codes if codes is not None else [])
            self._legal = legal
            return
        if typ == "R":
            holds = m.rules.unit_holds
            dislodged = pos.dislodged
            for i, codes in enumerate(retreat_codes(m, pos, t)):
                legal.append([] if holds(m, pos, dislodged[i]) else codes)
            self._legal = legal
            return
        for p, delta in enumerate(adjustment_counts(m, pos)):
            if delta > 0:
                codes = [c for _site, lst in build_codes(m, pos, p, t) for c in lst[:-1]]
                if codes:
                    codes.append(t.waive)
                    for _ in range(delta):
                        items.append((p, -1))
                        legal.append(codes)
            elif delta < 0:
                codes = [t.disband + t.slot_of[u.kind][u.loc] for u in pos.units
                         if u.power == p]
                for _ in range(-delta):
                    items.append((p, -1))
                    legal.append(codes)
        self._items, self._legal = items, legal

    # ---- playing -----------------------------------------------------------------------

    def step(self, codes: Sequence[int]) -> PhaseOutcome:
        """Process the phase with one order code per item (-1: no order: the unit holds or
        is disbanded, the build is waived, the removal left to civil disorder). A code must
        be an order of the item's own unit; whether it is legal is the adjudicator's to say,
        as for a typed order (an illegal order is void)."""
        if self.is_over:
            raise PolydipError(f"the game is over ({self.status})")
        m, pos = self.m, self.position
        typ = pos.phase.type
        bound: list[Any]
        try:
            bound = self._bound_adjustments(codes) if typ == "A" else self._bound_units(codes)
        except (TypeError, IndexError, KeyError):
            raise PolydipError(_bad_codes(codes, self.table.size)) from None
        if typ == "M" and self._legal is not None:
            for i, lst in enumerate(self._legal):
                if not lst:
                    bound[i] = None  # a unit a rule holds takes no order
        # (_play's lines, inline: a call more a phase showed in the fast path's count)
        outcome = process_bound(m, pos, bound, self.options)
        if self.victory.no_change_years is not None:
            self.history.append(_Record(pos, outcome))
        self.position = outcome.position
        self._items = self._legal = None
        self._check_end()
        return outcome

    def _bound_adjustments(self, codes: Sequence[int]) -> list[Any]:
        """`step`'s orders of an adjustment phase, per power."""
        items = self.items()
        if len(codes) != len(items):
            raise PolydipError(f"{len(codes)} order codes for {len(items)} items of "
                               f"{self.phase}")
        t = self.table
        bound: list[Any] = [[] for _ in self.m.powers]
        for j in range(len(items)):
            c = codes[j]
            if c >= 0:
                bound[items[j][0]].append(t.order(c))
        return bound

    def _bound_units(self, codes: Sequence[int]) -> list[Any]:
        """`step`'s orders of a movement or retreat phase: item i is unit i."""
        pos, t = self.position, self.table
        units: Sequence[Unit | Dislodged] = pos.units if pos.phase.type == "M" \
            else pos.dislodged
        if len(codes) != len(units):
            raise PolydipError(f"{len(codes)} order codes for {len(units)} items of "
                               f"{self.phase}")
        bound: list[Any] = [None] * len(units)
        made = t.made
        n_made = len(made)
        for i in range(len(units)):
            c = codes[i]
            if c >= 0:
                o = made[c] if c < n_made else None  # (read inline: the hot read)
                if o is None:
                    o = t.order(c)
                u = units[i]
                if o.loc != u.loc or o.kind != u.kind:
                    raise PolydipError(f"order code {c} ({o.text}) is not an order of "
                                       f"{self.m.unit_str(u.kind, u.loc)}")
                bound[i] = o
        return bound

    def step_legal(self, codes: Sequence[int]) -> PhaseOutcome:
        """`step` for codes taken from this phase's `legal()` lists: per item one code of
        its own list, or -1 (as an environment plays them after checking an agent's
        actions against those lists, or drawing them from the lists). Movement and retreat
        codes are not checked again to be their units' orders, which is what makes it
        cheaper than `step`; a code from elsewhere is the caller's error, not detected here
        (use `step`). The number of codes is checked."""
        if self.is_over:
            raise PolydipError(f"the game is over ({self.status})")
        pos = self.position
        typ = pos.phase.type
        if typ == "A":
            return self.step(codes)
        n = len(pos.units) if typ == "M" else len(pos.dislodged)
        if len(codes) != n:
            raise PolydipError(f"{len(codes)} order codes for {n} items of {self.phase}")
        t = self.table
        made, order = t.made, t.order
        n_made = len(made)
        bound: list[Any] = [((made[c] if c < n_made else None) or order(c)) if c >= 0
                            else None for c in codes]
        return self._play(bound)

    def _play(self, bound: list[Any]) -> PhaseOutcome:
        """Process the phase with the orders bound to its units (step_legal; `step` has
        these lines inline)."""
        pos = self.position
        outcome = process_bound(self.m, pos, bound, self.options)
        if self.victory.no_change_years is not None:
            self.history.append(_Record(pos, outcome))
        self.position = outcome.position
        self._items = self._legal = None
        self._check_end()
        return outcome

    def _check_end(self) -> None:
        owners = self.position.owners
        if self._counts[0] != owners:
            self._counts = (list(owners), center_counts(self.m, owners))
        end = game_end(self.m, self.victory, self.position, self.history, self._counts[1])
        if end is not None:
            self.status, self.winners = end

    # ---- search helpers ----------------------------------------------------------------

    def clone(self) -> FastGame:
        """An independent copy sharing the map, the order table, the options and the
        position (which `step` never changes in place: it makes the next one): stepping
        either game leaves the other as it was."""
        g = FastGame(self.m, self.position, self.options)
        g.victory = self.victory
        g.status, g.winners = self.status, list(self.winners)
        g.history = list(self.history)
        g._counts, g._items, g._legal = self._counts, self._items, self._legal
        return g

    def snapshot(self) -> Snapshot:
        """The game's state now, for `restore` (rollback): a few references, no copy of
        the position."""
        return Snapshot(self.m, self.position, self.status, list(self.winners),
                        list(self.history) if self.history else None,
                        self._counts, self._items, self._legal)

    def restore(self, snap: object) -> None:
        """Go back to the state a `snapshot` of this game (or of a clone) took."""
        if not isinstance(snap, Snapshot):
            raise PolydipError(f"restore takes a FastGame.snapshot(), not "
                               f"{type(snap).__name__}")
        if snap.m is not self.m and snap.m.variant != self.m.variant:
            raise PolydipError(f"a snapshot of a game of {snap.m.variant.name} cannot be "
                               f"restored into a game of {self.m.variant.name}")
        self.position, self.status, self.winners = snap.position, snap.status, list(
            snap.winners)
        self.history = [] if snap.history is None else list(snap.history)
        self._counts, self._items, self._legal = snap.counts, snap.items, snap.legal

    def key(self) -> bytes:
        """The position's stable hash (`Position.key()`)."""
        return self.position.key()

    def __reduce__(self) -> tuple:
        """Pickled small: the map by reference (its variant's name for a built-in one, see
        polydip.compile.map_ref), the position, options and state; no order table
        (each process makes it once per map)."""
        return (_unpickle, (self.m, self.position, self.options, self.status,
                            self.winners, self.history))

    # ---- reading codes -----------------------------------------------------------------

    def text(self, code: int) -> str:
        """The order a code stands for, in the diplomacy package's notation."""
        return self.table.texts[code]


def _bad_codes(codes: Sequence[Any], n_codes: int) -> str:
    """Why `step` could not read these codes: the first that is not an int of the table
    (`step`'s loops read them as they come; this is asked only when one failed)."""
    for j, c in enumerate(codes):
        k = int_given(c)
        if k is None:
            return (f"item {j}'s order code is {c!r} ({type(c).__name__}): order codes are "
                    "ints, one per item, -1 for no order")
        if k >= n_codes:
            return f"item {j}'s order code is {k}: the order table has codes 0 to {n_codes - 1}"
    return "the order codes could not be read (one int per item, -1 for no order)"
