"""The rule hooks, each declared once: its typed signature, what it answers, how the answers
of several rules combine, and what kind of hook it is.

`RuleHooks` holds one method per hook, marked with `@hook(kind, combine)`; its body is the
standard game's answer (what a variant without the rule does). A rule (`rules.base.Rule`)
overrides the hooks it needs; `rules.base.RuleSet` builds its dispatch from `HOOKS`, and the
hook table of docs/architecture.md is written from it (`python -m polydip.rules.docs`).

Kinds (when the hook is asked):
  table     once, when a variant's map is compiled: the answer becomes a plain table
  options   once per game's options (checked when a game is made or loaded)
  position  of a position, while orders are read, judged or listed
  update    after a phase is judged: the rule writes what it remembers in a position
  report    only when a report, a board or a reason wants it, never while judging
Combine (how the answers of the rules that implement a hook make the rule set's answer):
  first       the first answer that is not None (None when none)
  last        the last answer that is not None
  any         True when one rule says True
  each        every rule is called, in the variant file's order; no answer
  chain       each rule gets the answer of the one before as its last argument
  concat      the lists one after the other
  union       the union of the sets
  merge       the dicts merged; a later rule's key replaces an earlier one's
  merge_each  the dicts merged; the lists or sets of one key joined
  min         the smallest answer that is not None
  min_each    per key, the smallest value
  intersect   per key, the provinces every rule allows

Map ids: locations are coasts for coastal kinds and provinces otherwise; a move is
(kind, from location, to location).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeVar

if TYPE_CHECKING:
    from polydip.adjudication.reasons import Reason
    from polydip.geography.map import Map
    from polydip.orders.model import Order
    from polydip.state import Dislodged, Phase, Position, Unit

KINDS: Final = ("table", "options", "position", "update", "report")
COMBINES: Final = ("first", "last", "any", "each", "chain", "concat", "union", "merge",
                   "merge_each", "min", "min_each", "intersect")

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class HookSpec:
    """One hook: its name, kind, how answers combine, whether it changes the position it is
    given in place (then each phase needs a copy), its signature and its docstring."""

    name: str
    kind: str
    combine: str
    in_place: bool
    signature: str
    doc: str

    @property
    def summary(self) -> str:
        """The docstring's first sentence (its first paragraph, on one line)."""
        return " ".join(self.doc.split("\n\n")[0].split())


def hook(kind: str, combine: str, in_place: bool = False) -> Callable[[F], F]:
    """Mark a method of RuleHooks as a hook."""
    if kind not in KINDS or combine not in COMBINES:
        raise ValueError(f"hook kind {kind!r} / combine {combine!r}")

    def mark(fn: F) -> F:
        fn.__polydip_hook__ = (kind, combine, in_place)  # type: ignore[attr-defined]
        return fn
    return mark


class RuleHooks:
    """Every hook, with the standard game's answer. Locations, provinces, kinds and powers
    are map ids (`m`: the compiled Map)."""

    # ---- tables: asked once per compiled map --------------------------------------------

    @hook("table", "union")
    def open_spaces(self) -> set[str]:
        """Provinces (abbreviations) with no stacking limit, where units never bounce."""
        return set()

    @hook("table", "union")
    def attack_spaces(self) -> set[str]:
        """Open spaces where units meet only through attack orders ("F MAO - EAO AT
        BRAZIL", orders/attack.py); they are open spaces too."""
        return set()

    @hook("table", "min")
    def rout_margin(self) -> int | None:
        """A unit beaten in an attack space by an attack this much stronger is disbanded
        (None: beaten units retreat)."""
        return None

    @hook("table", "union")
    def no_swap_pairs(self) -> set[tuple[str, str]]:
        """Province pairs (abbreviations) units never swap across, not even by convoy."""
        return set()

    @hook("table", "union")
    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        """(kind, location, province): a unit of that kind there may not support into the
        province (to hold there or to move there)."""
        return set()

    @hook("table", "union")
    def more_support(self, m: Map) -> set[tuple[int, int, int]]:
        """(kind, location, province): a unit of that kind there may support into the
        province too, though it cannot move there (the other tables apply to it)."""
        return set()

    @hook("table", "union")
    def no_hold_support(self, m: Map) -> set[tuple[int, int]]:
        """(kind, province): a unit of that kind there may not be supported to hold."""
        return set()

    @hook("table", "union")
    def coast_changes(self, m: Map) -> set[tuple[int, int, int]]:
        """(kind, coast, coast2): a unit of that kind may move to another coast of its
        province (it holds for the phase, then stands on coast2)."""
        return set()

    @hook("table", "min_each")
    def hold_strength(self, m: Map) -> dict[tuple[int, int], int]:
        """(kind, province) -> the strength before supports of a unit of that kind staying
        there (standard: 1)."""
        return {}

    @hook("table", "min_each")
    def move_strength(self, m: Map) -> dict[tuple[int, int, int], int]:
        """Move -> its strength before supports (standard: 1)."""
        return {}

    @hook("table", "merge_each")
    def needs_support(self, m: Map) -> dict[str, set[tuple[int, int, int]]]:
        """Season -> the moves that in that season fail unless a support is ordered for
        them, and then cut no support and keep nobody out."""
        return {}

    @hook("table", "union")
    def no_retreat(self, m: Map) -> set[tuple[int, int, int]]:
        """The moves no dislodged unit may retreat by."""
        return set()

    @hook("table", "merge")
    def passage_names(self) -> dict[str, tuple[str, ...]]:
        """Passage name -> the other names players use for it ("Suez Canal")."""
        return {}

    # ---- options: asked once per game's options -------------------------------------------

    @hook("options", "chain")
    def check_options(self, m: Map, options: dict[str, Any]) -> dict[str, Any]:
        """`options` with the values the rule reads checked against the map and written the
        canonical way (a PolydipError names a bad value)."""
        return options

    @hook("options", "union")
    def stalls(self, m: Map, options: dict[str, Any]) -> set[tuple[int, int, int]]:
        """Moves (also weakened by move_strength) that, with an attack strength of 0, enter
        nowhere, not even a province nobody holds or enters (a reading an option chooses)."""
        return set()

    # ---- positions: asked while orders are read, judged or listed ---------------------------

    @hook("position", "first")
    def build_sites(self, m: Map, pos: Position, power: int) -> list[int] | None:
        """The provinces where `power` may build now (None: its vacant owned home
        centers)."""
        return None

    @hook("position", "concat")
    def extra_build_sites(self, m: Map, pos: Position, power: int
                          ) -> list[tuple[list[int], int]]:
        """More places where `power` may build now: groups of provinces, each with how many
        of its builds may go there (off-center builds); each group non-empty, each number
        above 0."""
        return []

    @hook("position", "first")
    def may_build(self, m: Map, pos: Position, power: int, kind: int, prov: int
                  ) -> bool | None:
        """Whether a build of `kind` in `prov` is allowed (None: the rule does not say; the
        build is allowed unless another rule says False)."""
        return None

    @hook("position", "any")
    def unit_holds(self, m: Map, pos: Position | None, unit: Unit | Dislodged) -> bool:
        """The unit always holds: orders for it are refused (neutral units)."""
        return False

    @hook("position", "first")
    def refuse(self, m: Map, unit: Unit | Dislodged, order: Order, pos: Position | None = None
               ) -> str | None:
        """Why this order for this unit is refused (an order a rule does not support), or
        None."""
        return None

    @hook("position", "last")
    def moving_kinds(self, m: Map, pos: Position, orders: list[Order | None]
                     ) -> list[Unit] | None:
        """The units as they move this phase (a fleet ordered up a river moves as a
        flotilla); None: as they stand."""
        return None

    @hook("position", "concat")
    def more_orders(self, m: Map, pos: Position, unit: Unit, us: str) -> list[str]:
        """Orders beyond moves and supports the unit may give now (the legal-order list);
        `us`: the unit as written."""
        return []

    @hook("position", "union")
    def adjustment_acts(self, m: Map, pos: Position, orders: list[list[Order]]
                        ) -> set[tuple[int, int]]:
        """The build orders with an act (a canal build) that count, as (power, index)."""
        return set()

    @hook("position", "first")
    def act_problem(self, m: Map, pos: Position, power: int, order: Order,
                    given: list[Order]) -> str | None:
        """Why a build order with an act of `power` cannot count, asked when it is given
        (`given`: the power's orders already kept this phase); None: it may."""
        return None

    @hook("position", "merge_each")
    def more_adjustments(self, m: Map, pos: Position, power: int) -> dict[str, list[str]]:
        """Adjustment orders beyond builds and removals `power` may give now, by place."""
        return {}

    @hook("position", "merge_each")
    def porous(self, m: Map, pos: Position) -> dict[int, set[tuple[int, int]]]:
        """Provinces a fleet enters without naming a coast now (an open canal), each with
        the moves over the passages the rule opened into it (taken last when a coast is
        chosen)."""
        return {}

    @hook("position", "chain")
    def retreat(self, m: Map, pos: Position, d: Dislodged) -> Dislodged:
        """The dislodged unit with the retreats the rule allows it (`d` when unchanged)."""
        return d

    @hook("position", "merge_each")
    def retreat_orders(self, m: Map, pos: Position) -> dict[int, list[Order]]:
        """Power -> retreat orders the rule gives units no player orders."""
        return {}

    @hook("position", "merge_each")
    def blocked(self, m: Map, pos: Position, options: dict[str, Any]
                ) -> dict[int, set[tuple[int, int, int]]]:
        """Power -> the moves it may not make now (closed to moves, supports and
        retreats)."""
        return {}

    @hook("position", "intersect")
    def move_limits(self, m: Map, pos: Position
                    ) -> dict[tuple[int, int, int], frozenset[int]]:
        """(power, kind, location) -> the only provinces that unit may move to now (by any
        route); its supports and retreats are not limited."""
        return {}

    @hook("position", "merge")
    def passage_controllers(self, m: Map, pos: Position) -> dict[str, int]:
        """Passage name -> the power that may let others through it now (-1: none), by the
        option passage_permissions."""
        return {}

    # ---- updates: after a phase, what a rule remembers ------------------------------------

    @hook("update", "concat", in_place=True)
    def before_phase(self, m: Map, pos: Position, phase: Phase) -> list[str | Reason]:
        """Scheduled events before `phase`, applied to `pos`; what happened (a Reason with an
        event code, or words)."""
        return []

    @hook("update", "each", in_place=True)
    def centers_changed(self, m: Map, pos: Position) -> None:
        """Centers changed owner in `pos` (a rule may change it in place)."""
        return None

    @hook("update", "each")
    def after_orders(self, m: Map, before: Position, after: Position, units: list[Unit],
                     orders: list[Order | None], finals: list[Unit | None]) -> None:
        """After a movement phase: `units` as they moved, their `orders`, where each ended
        (`finals`, None: dislodged); the rule writes in after.extra."""
        return None

    @hook("update", "each")
    def after_phase(self, m: Map, before: Position, after: Position,
                    moved: list[tuple[Unit, Unit, bool]]) -> None:
        """After a phase: `moved` is (unit before, unit after, convoyed) for each move and
        retreat that succeeded; the rule keeps what it remembers in after.extra."""
        return None

    @hook("update", "each")
    def acts_done(self, m: Map, pos: Position, after: Position,
                  counted: list[tuple[int, Order]]) -> None:
        """After the adjustments: the act orders that counted, as (power, order)."""
        return None

    # ---- reports: asked only when someone reads them ----------------------------------------

    @hook("report", "concat")
    def report_lines(self, m: Map, pos: Position) -> list[str]:
        """What players should know of the position (canal progress, anchor markers)."""
        return []

    @hook("report", "concat")
    def markers(self, m: Map, pos: Position) -> list[tuple[int, str]]:
        """Markers to draw on the board: (location, label)."""
        return []

    @hook("report", "first")
    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> Reason | None:
        """Why the rule's answer to `hook` refuses `key` (an entry of its table), as a
        Reason; None when it does not (Rule's default reads the class's `reasons`)."""
        return None

    @hook("report", "concat")
    def events(self, m: Map, before: Position, after: Position) -> list[Reason]:
        """What the rule did on its own between two positions (a canal opened, a marker
        made); codes from adjudication/reasons."""
        return []


def _collect() -> dict[str, HookSpec]:
    out: dict[str, HookSpec] = {}
    for name, fn in vars(RuleHooks).items():
        mark = getattr(fn, "__polydip_hook__", None)
        if mark is None:
            continue
        sig = inspect.signature(fn)
        params = [p.name + (f": {p.annotation}" if p.annotation is not p.empty else "")
                  + (f" = {p.default!r}" if p.default is not p.empty else "")
                  for p in list(sig.parameters.values())[1:]]
        ret = sig.return_annotation  # (a string: annotations are not evaluated)
        out[name] = HookSpec(name, mark[0], mark[1], mark[2],
                             f"({', '.join(params)}) -> {ret}", inspect.getdoc(fn) or "")
    return out


# every hook, in the order declared above
HOOKS: Final[dict[str, HookSpec]] = _collect()

