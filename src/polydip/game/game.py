"""Game: a variant, its options, the history of processed phases and the current phase.

Orders are kept as the players typed them until the phase is processed; they are parsed (and
each problem reported) when given, and parsed again on processing. A processed phase keeps its
position, orders, results and center changes, so any past phase can be shown or drawn.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.legal import legal_orders
from polydip.compile import compile_map
from polydip.errors import GameFileError, OrderError, PolydipError, int_given
from polydip.game.combined import combined_phase, enter_kept, likely_adjusting, split_texts
from polydip.game.dipjson import is_diplomacy_game, record_from_diplomacy
from polydip.game.engine import Entry, PhaseOutcome, enter_orders, parse_orders, process
from polydip.game.files import game_from_json, locked, read_json, save_game
from polydip.game.press import Message, make_message
from polydip.game.record import GameRecord, PhaseRecord
from polydip.game.victory import center_counts, draw_shares, game_end, victory_in_force
from polydip.geography.map import Map
from polydip.notation import parse_unit, power_index
from polydip.options import check_options, defaults
from polydip.orders.model import Order
from polydip.state import Position, Unit
from polydip.variants.calendar import parse_phase
from polydip.variants.loader import load_variant
from polydip.variants.model import Variant, Victory

# a power as the API takes it: its name (str) or its index (int), checked by Game._power_of
# (Any, so that the compiled build does not refuse another type at its boundary first)
PowerRef = Any


@dataclass(slots=True)
class Game(GameRecord):
    """A game: its data (GameRecord) and what one does with it."""

    # the pending orders as parsed when given, per power: (the list of texts in `orders`
    # they were parsed from, a copy of it, the orders) — used while `orders` is unchanged
    _parsed: dict[int, tuple[list[str], list[str], list[Order]]] = field(
        default_factory=dict, repr=False, compare=False)
    # center counts per power, and the center owners they were counted from
    _counts: tuple[list[int], list[int]] = field(
        default=([], []), repr=False, compare=False)
    # what the last process did with orders kept by undo (_restore_undone), one line a power
    restored: list[str] = field(default_factory=list, repr=False, compare=False)
    # the current phase is the adjustment phase of a combined season (game/combined.py),
    # its orders kept from the retreat phase: it is to be processed at once (process)
    carried: bool = field(default=False, repr=False, compare=False)
    # the kept adjustment orders refused when that phase began, for its outcome's errors
    _carry_errors: list[tuple[int, str]] = field(default_factory=list, repr=False,
                                                 compare=False)

    # ---- creation --------------------------------------------------------------------------

    @classmethod
    def new(cls, variant: str | Variant = "standard", options: dict[str, Any] | None = None,
            name: str = "") -> Game:
        v = load_variant(variant) if isinstance(variant, str) else variant
        m = compile_map(v)
        opts = defaults()
        opts.update(v.options)
        opts.update(options or {})
        opts = check_options(opts, m)
        game = cls(v, m, initial_position(m), opts, name=name)
        game.victory  # noqa: B018 - validates the 'victory' option against the variant
        return game

    @property
    def victory(self) -> Victory:
        """The victory condition in force: the variant's, or the preset the options name."""
        return victory_in_force(self.variant, self.options)

    # ---- state ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.position.phase.name

    @property
    def is_over(self) -> bool:
        return self.status != "active"

    def power(self, name: str) -> int:
        """A power by its name, adjective, letter or alias, in any case."""
        return power_index(self.map, name)

    def powers_to_order(self) -> list[int]:
        """Powers that have something to order in the current phase (in the retreat phase
        of a combined season, also those likely to build or remove after it)."""
        got = powers_to_order(self.map, self.position)
        if combined_phase(self.map, self.position.phase, self.options):
            m = self.map
            got = sorted(set(got) | {p for p in likely_adjusting(m, self.position)
                                     if not m.power_neutral[p]})
        return got

    @property
    def combined(self) -> bool:
        """Whether the current phase is the retreat phase of a combined season, its
        adjustment orders given with the retreats (game/combined.py)."""
        return combined_phase(self.map, self.position.phase, self.options)

    def legal_orders(self, power: PowerRef = None) -> dict[str, list[str]]:
        if power is not None:
            power = self._power_of(power)
        return legal_orders(self.map, self.position, power, self.options)

    def _power_of(self, power: Any) -> int:
        """A power given by name or by index, checked (an index out of range, or a float,
        named as such rather than taken or answered with nothing)."""
        if isinstance(power, str):
            return self.power(power)
        n = len(self.map.powers)
        p = int_given(power)
        if p is None or not 0 <= p < n:
            raise PolydipError(f"a power is given by its name or its index 0 to {n - 1}, not "
                               f"{power!r}"[:200])
        return p

    # ---- passages (rules/controlled_passages.py) -------------------------------------------

    def passages(self) -> list[dict[str, Any]]:
        """The variant's controlled passages now: for each, its name, the other names players
        use, the power controlling it (None: nobody) and the permissions recorded, as
        {controlling power: [powers it lets through]}."""
        m = self.map
        perms = self.options.get("passage_permissions") or {}
        names = m.rules.passage_names()
        return [{"name": name, "aliases": list(names.get(name, ())),
                 "controller": m.powers[who] if who >= 0 else None,
                 "permissions": {k: list(v) for k, v in perms.get(name, {}).items()}}
                for name, who in m.rules.passage_controllers(m, self.position).items()]

    def permit(self, passage: str, powers: list[str], controller: str | None = None,
               allow: bool = True, replace: bool = False) -> list[str]:
        """Record that `controller` (default: the power controlling `passage` now) lets
        `powers` through it (`allow`), or no longer does (not `allow`); with `replace`,
        exactly `powers` (none: the permission is withdrawn). Names are read as players
        write them ("Suez", "UK"). Returns the powers `controller` lets through now. Takes
        effect from the current phase."""
        m = self.map
        if self.is_over:
            raise PolydipError(f"the game is over ({self.status})")
        known = m.rules.passage_controllers(m, self.position)
        if not known:
            raise PolydipError(f"{self.variant.title} has no controlled passages")
        name = m.rules.passage(passage)
        if controller is None:
            who = known[name]
            if who < 0:
                raise PolydipError(f"nobody controls {name} now: name the controlling "
                                   "power the permission is for")
        else:
            who = self.power(controller)
        granted = {m.powers[self.power(p)] for p in powers}
        perms = {k: {c: list(v) for c, v in t.items()}
                 for k, t in (self.options.get("passage_permissions") or {}).items()}
        entry = perms.setdefault(name, {})
        now = set() if replace else set(entry.get(m.powers[who], []))
        now = now | granted if allow else now - granted
        now.discard(m.powers[who])
        entry[m.powers[who]] = sorted(now)
        self.options = check_options({**self.options, "passage_permissions": perms}, m)
        return sorted(now)

    # ---- press (game/press.py) -------------------------------------------------------------

    def add_message(self, sender: str, recipients: str | list[str] | tuple[str, ...],
                    text: str, sent: int | None = None) -> Message:
        """Record a message of the current phase from `sender` to `recipients` (GLOBAL, a
        power, or a list of powers; names as players type them) and return it. Its time is
        `sent` (microseconds; default now), made later than the game's last message's so
        that times stay unique and in order. An unknown power, an empty or too long text
        raise a PressError with a code."""
        last = self.messages[-1].time if self.messages else 0
        msg = make_message(self.map, self.phase, sender, recipients, text, last, sent)
        self.messages.append(msg)
        return msg

    def messages_for(self, power: str, phase: str | None = None) -> list[Message]:
        """The messages `power` may read (it sent them, they address it, or they are
        public), of `phase` if given, in the order sent."""
        who = self.map.powers[self.power(power)]
        return [x for x in self.messages
                if x.addresses(who) and (phase is None or x.phase == phase)]

    # ---- orders --------------------------------------------------------------------------

    def set_orders(self, power: PowerRef, orders: Any, replace: bool = True
                   ) -> list[str]:
        """Give a power's orders for the current phase; return the problems found.

        Orders that cannot be read, that name a unit the power does not have, retreat to a
        place the unit cannot reach or make an adjustment that cannot be made (more builds
        than due, two builds on one site) are reported and not kept; the others are kept.
        With `replace`, a new order for a unit replaces its earlier one (and an empty list
        clears the power's orders); without, orders are added as given. Builds and removals
        accumulate, a build on a site replacing the earlier one there (clear_orders first to
        start again). Units sharing a space are ordered in turn, or by number ("F Peru Basin
        #2 - East Pacific Rise", orders/stacked.py).
        """
        return self.enter_orders(power, orders, add=not replace).problems

    def enter_orders(self, power: PowerRef, orders: Any, add: bool = False) -> Entry:
        """set_orders, telling more: the power's pending orders now, the orders refused
        (by their index in `orders`) and the earlier orders replaced (engine.Entry)."""
        if self.is_over:
            raise PolydipError(f"the game is over ({self.status})")
        p = self._power_of(power)
        # (`power` and `orders` are typed Any so that the compiled build checks them here,
        # with these words, and not at its boundary with a TypeError)
        if isinstance(orders, str):
            raise PolydipError(f"orders are a list of order strings, not one string: "
                               f"[{orders[:60]!r}]")
        try:
            items: list[Any] = list(orders)  # (Any: compiled, a list[str] checks each item)
        except TypeError:
            raise PolydipError(f"orders are a list of order strings, not {orders!r}"[:200]
                               ) from None
        bad = next((o for o in items if not isinstance(o, str)), None)
        if bad is not None:
            raise PolydipError(f"orders are order strings ('A PAR - BUR'), not {bad!r}"[:200])
        given: list[str] = items
        if not given:
            if not add:
                self.orders.pop(p, None)
                self._parsed.pop(p, None)
            return Entry(self._pending(p), [], [])
        if self.combined:
            entry = self._enter_combined(p, given, add)
        else:
            entry = enter_orders(self.map, self.position, p, given, self._pending(p), add)
        if len(entry.refused) == len(given):
            return entry  # nothing taken: the orders given before stay as they were
        merged = entry.orders
        if merged:
            texts = [o.text for o in merged]
            self.orders[p] = texts
            self._parsed[p] = (texts, list(texts), merged)
        else:
            self.orders.pop(p, None)
            self._parsed.pop(p, None)
        return entry

    def _enter_combined(self, power: int, orders: list[str], add: bool) -> Entry:
        """enter_orders in the retreat phase of a combined season: each order entered for
        the phase it belongs to, the adjustments kept for the phase that follows."""
        m, pos = self.map, self.position
        pending = self._pending(power)
        ri, ai = split_texts(m, pos, power, orders)
        pr, pa = split_texts(m, pos, power, [o.text for o in pending])
        r = enter_orders(m, pos, power, [orders[j] for j in ri], [pending[k] for k in pr],
                         add)
        kept, refused, replaced = enter_kept(m, [orders[j] for j in ai],
                                             [pending[k] for k in pa], add)
        return Entry(r.orders + kept,
                     sorted([(ri[j], why, hint) for j, why, hint in r.refused]
                            + [(ai[j], why, hint) for j, why, hint in refused]),
                     [(old, ri[j]) for old, j in r.replaced]
                     + [(old, ai[j]) for old, j in replaced])

    def _pending(self, power: int, errors: list[tuple[int, str]] | None = None
                 ) -> list[Order]:
        """The pending orders of a power, parsed (as when given, while `orders` has not
        been changed since); problems reading them go to `errors`."""
        texts = self.orders.get(power)
        if not texts:
            return []
        got = self._parsed.get(power)
        if got is not None and got[0] is texts and got[1] == texts:
            return got[2]
        adjustments: list[str] = []
        if self.combined:
            ri, ai = split_texts(self.map, self.position, power, texts)
            adjustments = [texts[j] for j in ai]
            texts = [texts[j] for j in ri]
        parsed, errs = parse_orders(self.map, self.position.phase, {power: texts})
        if errors is not None:
            errors.extend(errs)
        mine = parsed.get(power, [])
        if self.combined and adjustments:
            mine = mine + enter_kept(self.map, adjustments, [], True)[0]
        return mine

    def clear_orders(self, power: int | str | None = None) -> None:
        if power is None:
            self.orders.clear()
        else:
            self.orders.pop(self.power(power) if isinstance(power, str) else power, None)

    # ---- processing ----------------------------------------------------------------------

    def process(self, carry: bool = False) -> PhaseOutcome:
        """Adjudicate the current phase with the orders given; advance to the next phase.

        In the retreat phase of a combined season (game/combined.py) the adjustment orders
        given with the retreats become the pending orders of the adjustment phase that
        follows (checked then; those refused go to its outcome's errors), and `carried`
        says that phase is to be processed at once: with `carry` it is (the season is
        processed once, as `polydip process` and the host do; the outcome returned is then
        the adjustments', and both phases are in `history`). Without, one phase is processed,
        as in any other season (programs stepping phase by phase, the fast path's twin)."""
        if self.is_over:
            raise PolydipError(f"the game is over ({self.status})")
        errors: list[tuple[int, str]] = self._carry_errors
        self._carry_errors = []
        self.carried = False
        self.restored = []
        combined = self.combined
        if combined:  # the retreats now, the adjustments kept for the phase that follows
            orders, kept = self._split_kept()
            parsed, errs = parse_orders(self.map, self.position.phase, orders)
            errors += errs
        else:
            orders, kept = self.orders, {}
            parsed = {p: self._pending(p, errors) for p in orders}
        outcome = process(self.map, self.position, parsed, self.options)
        outcome.errors[:0] = errors
        self.history.append(PhaseRecord(self.position, orders, outcome))
        self.position = outcome.position
        self.orders = {}
        self._parsed = {}
        self._check_end()
        if self.undone:
            self._restore_undone()
        if combined:
            self._carry(kept)
            if self.carried and carry:
                notes = self.restored  # (what the retreats' processing noted)
                outcome = self.process(carry)
                self.restored[:0] = notes
                return outcome
        return outcome

    def _split_kept(self) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
        """The orders of a combined retreat phase: (the retreat phase's, those kept for the
        adjustment phase), per power."""
        retreats: dict[int, list[str]] = {}
        kept: dict[int, list[str]] = {}
        for p, texts in self.orders.items():
            ri, ai = split_texts(self.map, self.position, p, texts)
            if ri:
                retreats[p] = [texts[j] for j in ri]
            if ai:
                kept[p] = [texts[j] for j in ai]
        return retreats, kept

    def _carry(self, kept: dict[int, list[str]]) -> None:
        """After the retreats of a combined season: the adjustment orders kept become the
        adjustment phase's (each checked now, as when given there; those refused become
        errors of its outcome), and the phase is marked to be processed at once. When no
        adjustment phase follows (nobody builds or removes), the kept orders are void."""
        done = self.history[-1].position.phase
        now = self.position.phase
        if self.is_over or now.type != "A" or (now.year, now.season) != (done.year,
                                                                         done.season):
            for p, texts in kept.items():
                self.restored.append(f"{self.map.powers[p]}: no adjustment phase follows "
                                     f"the retreats of {done.name}; not carried out: "
                                     + "; ".join(texts))
            return
        self.carried = True
        for p, texts in kept.items():
            entry = self.enter_orders(p, texts)
            self._carry_errors += [(p, why) for _, why, _ in entry.refused]

    def _restore_undone(self) -> None:
        """The phase reached was stepped back over by an undo: the orders pending then are
        pending again (each checked anew against the position, as when given: those that no
        longer fit are left out and noted in `restored`). Entries of phases the game has
        gone past, or reaches on another path, are dropped."""
        done = len(self.history)
        keep = []
        for n, name, orders in self.undone:
            if n > done:
                keep.append((n, name, orders))
            elif n == done and name == self.phase and not self.is_over:
                for p, texts in orders.items():
                    entry = self.enter_orders(p, texts)
                    taken = len(texts) - len(entry.refused)
                    note = (f"{self.map.powers[p]}: {taken} order{'' if taken == 1 else 's'}"
                            f" given for {name} before the undo pending again")
                    if entry.refused:
                        note += "; left out: " + "; ".join(why for _, why, _ in entry.refused)
                    self.restored.append(note)
        self.undone = keep

    def undo(self) -> PhaseRecord:
        """Step back one processed phase; its orders become the pending orders again."""
        if not self.history:
            raise PolydipError("nothing to undo: no phase has been processed")
        if self.orders:  # kept for when the game reaches this phase again
            self.undone.append((len(self.history), self.phase,
                                {p: list(lst) for p, lst in self.orders.items()}))
        rec = self.history.pop()
        self.position = rec.position
        self.orders = {p: list(lst) for p, lst in rec.orders.items()}
        self._parsed = {}
        self.status, self.winners = "active", []
        self._check_end()
        self.carried, self._carry_errors = False, []
        if self.combined:
            self._take_back_kept()
        return rec

    def _take_back_kept(self) -> None:
        """Back in the retreat phase of a combined season from its adjustment phase: the
        adjustment orders pending there (kept from this phase, or given since) are this
        phase's again, as the players gave them."""
        if not self.undone:
            return
        n, name, orders = self.undone[-1]
        ph = self.position.phase
        if n != len(self.history) + 1 or name != f"{ph.season}{ph.year}A":
            return
        self.undone.pop()
        for p, texts in orders.items():
            self.orders.setdefault(p, []).extend(texts)

    def _check_end(self) -> None:
        owners = self.position.owners
        if self._counts[0] != owners:  # centers changed hands
            self._counts = (list(owners), center_counts(self.map, owners))
        end = game_end(self.map, self.victory, self.position, self.history, self._counts[1])
        if end is not None:
            self.status, self.winners = end

    def declare_draw(self, powers: list[int | str] | None = None) -> None:
        """End the game as a draw shared by `powers` (default: every surviving power). Where
        the variant's draws are voted by all players ([victory] draw = "all"), a draw
        leaving out a surviving power is refused."""
        ids = None if powers is None else [self.power(p) if isinstance(p, str) else p
                                           for p in powers]
        self.status, self.winners = "drawn", draw_shares(self.map, self.victory,
                                                         self.position, ids)

    # ---- files ---------------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the game to `path` in polydip's game file format (atomically)."""
        save_game(self, path)

    @classmethod
    def load(cls, path: str | Path) -> Game:
        """A game from a polydip game file or a diplomacy package saved game."""
        data = read_json(path)
        if is_diplomacy_game(data):
            return cls.from_record(record_from_diplomacy(data, str(path)))
        return cls.from_record(game_from_json(data, str(path)))

    @classmethod
    def from_diplomacy(cls, data: Any, where: str = "game", variant: Variant | None = None
                       ) -> Game:
        """A game from the diplomacy package's saved game (a dict, as json.loads gives it).
        Its "map" names the variant (a built-in one, or a file of the variant search path:
        dipjson.variant_for_map); `variant` gives it instead."""
        return cls.from_record(record_from_diplomacy(data, where, variant))

    @classmethod
    def from_record(cls, rec: GameRecord) -> Game:
        return cls(**{f.name: getattr(rec, f.name) for f in fields(GameRecord)})


def load_game(path: str | Path) -> Game:
    """A game from a polydip game file or a diplomacy package saved game."""
    return Game.load(path)


@contextlib.contextmanager
def game_transaction(path: str | Path) -> Iterator[Game]:
    """Load a game under its file's lock (game/files.locked) and save it when the block ends
    without an error: `with game_transaction("g.json") as game: game.set_orders(...)`."""
    with locked(path):
        game = Game.load(path)
        yield game
        save_game(game, path)


def powers_to_order(m: Map, pos: Position) -> list[int]:
    """Powers that have something to order in the phase of `pos`: units to move, dislodged
    units to retreat, builds or removals to make (neutral powers never order)."""
    if pos.phase.type == "M":
        powers = {u.power for u in pos.units}
    elif pos.phase.type == "R":
        powers = {d.power for d in pos.dislodged}
    else:
        powers = {p for p, d in enumerate(adjustment_counts(m, pos))
                  if d < 0 or (d > 0 and build_sites(m, pos, p))}
    return sorted(p for p in powers if not m.power_neutral[p])


def initial_position(m: Map) -> Position:
    v = m.variant
    units = []
    for i, p in enumerate(v.powers):
        for t in p.units:
            try:
                k, loc = parse_unit(m, t)
            except PolydipError as exc:
                raise GameFileError(f"variant {v.name}: starting unit of {p.name}: {exc}") from exc
            units.append(Unit(i, k, loc))
    owners = [-1] * m.n_prov
    for i, p in enumerate(v.powers):
        for c in p.centers:
            owners[m.prov_index[c]] = i
    return Position(parse_phase(v.calendar, v.calendar.start), units, owners, [],
                    frozenset(), [tuple(h) for h in m.homes], list(owners))


__all__ = ["Game", "OrderError", "PhaseRecord", "initial_position"]
