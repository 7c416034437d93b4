"""The Rule base class and the RuleSet the engine calls.

Hooks (a rule implements the ones it needs; RuleSet combines them). Positions:
  build_sites(m, pos, power) -> list[int] | None   provinces where `power` may build now
  extra_build_sites(m, pos, power) -> (list[int], int) | None
                                                    more provinces where `power` may build
                                                    now, and how many of its builds may go
                                                    there (off-center builds)
  year_start(m, pos) -> None                        bookkeeping when a new year begins
  before_phase(m, pos, phase) -> [str | Reason]     scheduled events; returns what happened
                                                    (a Reason with an event code, or words)
  after_phase(m, before, after, moved) -> None      after a phase is adjudicated: `moved` is
                                                    (unit before, unit after, convoyed) for
                                                    each move and retreat that succeeded; a
                                                    rule keeps what it remembers in
                                                    after.extra
  moving_kinds(m, pos, orders) -> [Unit] | None     the units as they move this phase (a fleet
                                                    ordered up a river moves as a flotilla)
  after_orders(m, before, after, units, orders, finals) -> None
                                                    after a movement phase: `units` as they
                                                    moved, their `orders`, where each ended
                                                    (`finals`, None: dislodged)
  more_orders(m, pos, unit, us) -> [str]            orders beyond moves and supports a unit
                                                    may give now (listed by legal orders)
  adjustment_acts(m, pos, orders) -> {(power, i)}   the build orders with an act (a canal
                                                    build) that count, by power and index
  more_adjustments(m, pos, power) -> {place: [str]} adjustment orders beyond builds and
                                                    removals `power` may give now (listed)
  act_problem(m, pos, power, order, given) -> str | None
                                                    why a build order with an act (a canal
                                                    build) of `power` cannot count, asked when
                                                    it is given (`given`: the power's orders
                                                    already kept this phase); None: it may
  acts_done(m, pos, after, counted) -> None         after the adjustments: the act orders
                                                    that counted, as (power, order)
  report_lines(m, pos) -> [str]                     what players should know of the position
  markers(m, pos) -> [(loc, label)]                 markers to draw on the map
  porous(m, pos) -> {province: {(loc, loc2)}}       provinces a fleet enters without naming
                                                    a coast now (an open canal), each with
                                                    the moves over the passages the rule
                                                    opened into it (taken last when a coast
                                                    is chosen)
  refuse(m, unit, order, pos) -> str | None         a reason to refuse this order for this
                                                    unit (an order a rule does not support)
  unit_holds(m, pos, unit) -> bool                  the unit always holds: orders for it
                                                    are refused (neutral units)
  retreat(m, pos, dislodged) -> Dislodged | None    changes a dislodged unit's options
  retreat_orders(m, pos) -> {power: [Order]}        orders for units no player orders
  blocked(m, pos, options) -> {power: {(kind, a, b)}}  moves a power may not make now
                                                    (closed to moves, supports and retreats)
  passage_controllers(m, pos) -> {name: power}      passages whose controlling power (-1:
                                                    none) may let others through, by the
                                                    option passage_permissions (the host
                                                    records those declarations)
  passage_names() -> {name: (alias, ...)}           the passages' names and the other names
                                                    players use for them ("Suez Canal")
  check_options(m, options) -> {key: value}         the options a rule reads, checked against
                                                    the map and written the canonical way
                                                    (raises PolydipError naming the bad value)
  stalls(m, options) -> {(kind, a, b)}              moves (also weakened by move_strength)
                                                    that, with an attack strength of 0, enter
                                                    nowhere, not even a province nobody holds
                                                    or enters (a reading an option chooses)
  move_limits(m, pos) -> {(power, kind, loc): provinces}  units that may move (by any
                                                    route) only to these provinces now; their
                                                    supports and retreats are not limited
  centers_changed(m, pos) -> None                   after centers change owner
  may_build(m, pos, power, kind, prov) -> bool|None a build of this kind there allowed?
  explain(m, pos, hook, key, options) -> Reason|None  why the rule's answer to `hook` refuses
                                                    `key` (an entry of its table: see
                                                    Rule.explain); the default reads the
                                                    class's `reasons` (hook -> code, words)
  events(m, before, after) -> [Reason]              what the rule did on its own between two
                                                    positions (a canal opened, a marker
                                                    made); codes from adjudication/reasons
The map (asked once, when a variant is compiled; the Map keeps the answers as plain tables):
  open_spaces() -> [province]                       no stacking limit, no bounce there
  attack_spaces() -> [province]                     open spaces where units meet only through
                                                    attack orders (orders/attack.py: "F MAO -
                                                    EAO AT BRAZIL"); also open spaces
  rout_margin() -> int | None                       a unit beaten in an attack space by an
                                                    attack this much stronger is disbanded
  no_swap_pairs() -> [(a, b)]                        no swapping across, even by convoy
  no_support(m) -> {(kind, loc, province)}          a unit of `kind` on `loc` may not support
                                                    into `province` (to hold there or to move
                                                    there)
  more_support(m) -> {(kind, loc, province)}        a unit of `kind` on `loc` may support into
                                                    `province` too, though it cannot move there
                                                    (the other tables apply to these supports)
  coast_changes(m) -> {(kind, loc, loc2)}          a unit of `kind` may move from coast loc to
                                                    coast loc2 of the same province (it holds
                                                    for the phase, then stands on loc2)
  hold_strength(m) -> {(kind, province): int}       the strength before supports of a unit of
                                                    `kind` staying in `province` (standard: 1)
  no_hold_support(m) -> {(kind, province)}          a unit of `kind` in `province` may not be
                                                    supported to hold
  move_strength(m) -> {(kind, a, b): int}           the strength of a move from location a
                                                    to b before supports (standard: 1)
  needs_support(m) -> {season: {(kind, a, b)}}      in that season a move from a to b fails
                                                    unless a support is ordered for it, and
                                                    then cuts no support and keeps nobody out
  no_retreat(m) -> {(kind, a, b)}                    no retreat from location a to b
Locations are map ids (coasts for coastal kinds, provinces otherwise); the helpers at the
end turn a variant's border marker edges and province tags into them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.adjudication.reasons import Reason, reason
from polydip.errors import PolydipError, VariantError, did_you_mean
from polydip.names import name_key


class Rule:
    """A rule module's class: `name` is its key in the variant file ([rules.NAME]),
    `params_doc` the parameters it takes; it overrides the hooks it needs."""

    name: ClassVar[str] = ""
    params_doc: ClassVar[dict[str, str]] = {}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        self.params = params
        self.variant = variant
        self.key = key
        unknown = set(params) - set(self.params_doc)
        if unknown:
            raise VariantError(f"{variant.path}: [{key}] unknown parameter(s) "
                               f"{', '.join(sorted(unknown))}; this rule takes "
                               f"{', '.join(self.params_doc) or 'no parameters'}")

    # ---- hooks: the defaults are the standard rules ("nothing to change") --------------

    def build_sites(self, m: Any, pos: Any, power: int) -> list[int] | None:
        return None

    def year_start(self, m: Any, pos: Any) -> None:
        return None

    def before_phase(self, m: Any, pos: Any, phase: Any) -> list[str | Reason]:
        return []

    def unit_holds(self, m: Any, pos: Any, unit: Any) -> bool:
        return False

    def refuse(self, m: Any, unit: Any, order: Any, pos: Any = None) -> str | None:
        return None

    def moving_kinds(self, m: Any, pos: Any, orders: list) -> list | None:
        return None

    def after_orders(self, m: Any, before: Any, after: Any, units: list, orders: list,
                     finals: list) -> None:
        return None

    def more_orders(self, m: Any, pos: Any, unit: Any, us: str) -> list[str]:
        return []

    def adjustment_acts(self, m: Any, pos: Any, orders: list) -> set[tuple[int, int]]:
        return set()

    def act_problem(self, m: Any, pos: Any, power: int, order: Any, given: list
                    ) -> str | None:
        return None

    def acts_done(self, m: Any, pos: Any, after: Any, counted: list) -> None:
        return None

    def more_adjustments(self, m: Any, pos: Any, power: int) -> dict[str, list[str]]:
        return {}

    def report_lines(self, m: Any, pos: Any) -> list[str]:
        return []

    def markers(self, m: Any, pos: Any) -> list[tuple[int, str]]:
        return []

    def porous(self, m: Any, pos: Any) -> dict[int, set[tuple[int, int]]]:
        return {}

    def retreat(self, m: Any, pos: Any, d: Any) -> Any:
        return None

    def retreat_orders(self, m: Any, pos: Any) -> dict[int, list[Any]]:
        return {}

    def blocked(self, m: Any, pos: Any, options: dict) -> dict[int, set[tuple[int, int, int]]]:
        return {}

    def passage_controllers(self, m: Any, pos: Any) -> dict[str, int]:
        return {}

    def passage_names(self) -> dict[str, tuple[str, ...]]:
        return {}

    def check_options(self, m: Any, options: dict) -> dict[str, Any]:
        return {}

    def open_spaces(self) -> list[str]:
        return []

    def attack_spaces(self) -> list[str]:
        return []

    def rout_margin(self) -> int | None:
        return None

    def no_swap_pairs(self) -> list[tuple[str, str]]:
        return []

    def centers_changed(self, m: Any, pos: Any) -> None:
        return None

    def may_build(self, m: Any, pos: Any, power: int, kind: int, prov: int) -> bool | None:
        return None

    def extra_build_sites(self, m: Any, pos: Any, power: int) -> tuple[list[int], int] | None:
        return None

    def after_phase(self, m: Any, before: Any, after: Any, moved: list[tuple[Any, Any, bool]]
                    ) -> None:
        return None

    def move_limits(self, m: Any, pos: Any) -> dict[tuple[int, int, int], frozenset[int]]:
        return {}

    def stalls(self, m: Any, options: dict) -> set[tuple[int, int, int]]:
        return set()

    def no_support(self, m: Any) -> set[tuple[int, int, int]]:
        return set()

    def no_hold_support(self, m: Any) -> set[tuple[int, int]]:
        return set()

    def more_support(self, m: Any) -> set[tuple[int, int, int]]:
        return set()

    def hold_strength(self, m: Any) -> dict[tuple[int, int], int]:
        return {}

    def coast_changes(self, m: Any) -> set[tuple[int, int, int]]:
        return set()

    def move_strength(self, m: Any) -> dict[tuple[int, int, int], int]:
        return {}

    def needs_support(self, m: Any) -> dict[str, set[tuple[int, int, int]]]:
        return {}

    def no_retreat(self, m: Any) -> set[tuple[int, int, int]]:
        return set()

    # ---- reasons and events: asked only when a report wants them, never while adjudicating

    # hook name -> (reason code, words): why an entry of the rule's table for that hook
    # refuses or weakens an order (see explain)
    reasons: ClassVar[dict[str, tuple[str, str]]] = {}

    def explain(self, m: Any, pos: Any, hook: str, key: tuple, options: dict | None = None
                ) -> Reason | None:
        """The reason, when this rule's answer to `hook` holds `key`:
        no_support (kind, loc, province), no_hold_support (kind, province), no_retreat,
        move_strength and stalls (kind, loc, loc2), needs_support (season, kind, loc, loc2),
        blocked (power, kind, loc, loc2), move_limits (power, kind, loc, province), unit_holds
        (unit,). None when the rule has nothing to do with it. A rule whose one table mixes
        several reasons overrides this."""
        got = self.reasons.get(hook)
        if got is None or not self._holds(m, pos, hook, key, options):
            return None
        return reason(*got)

    def _holds(self, m: Any, pos: Any, hook: str, key: tuple, options: dict | None = None
              ) -> bool:
        """Whether this rule's answer to `hook` holds `key` (see explain)."""
        if hook in ("no_support", "no_hold_support", "no_retreat", "move_strength"):
            table = m.caches.rule_tables.get((self.key, hook))
            if table is None:
                table = m.caches.rule_tables[self.key, hook] = getattr(self, hook)(m)
            return key in table
        if hook == "needs_support":
            return key[1:] in self.needs_support(m).get(key[0], ())
        if hook == "stalls":
            return key in self.stalls(m, options or {})
        if hook == "blocked":
            return key[1:] in self.blocked(m, pos, options or {}).get(key[0], ())
        if hook == "move_limits":
            allowed = self.move_limits(m, pos).get(key[:3])
            return allowed is not None and key[3] not in allowed
        if hook == "unit_holds":
            return self.unit_holds(m, pos, key[0])
        return False

    def events(self, m: Any, before: Any, after: Any) -> list[Reason]:
        return []

    # ---- parameters ----------------------------------------------------------------------

    def param(self, name: str, default: Any, choices: tuple | None = None) -> Any:
        val = self.params.get(name, default)
        if choices is not None and val not in choices:
            raise VariantError(f"{self.variant.path}: [{self.key}] {name} = {val!r} is not "
                               f"one of {', '.join(map(repr, choices))}")
        return val

    def tag_param(self, name: str) -> str:
        """A parameter naming a province tag some province of the variant carries ("" when
        absent)."""
        tag = self.param(name, "")
        if tag and not any(tag in p.tags for p in self.variant.provinces.values()):
            raise VariantError(f"{self.variant.path}: [{self.key}] {name} = {tag!r}: no "
                               "province has this tag")
        return tag

    def edge_kind_param(self, name: str, required: bool = False) -> str:
        """A parameter naming an edge kind of the variant ("" when absent and not
        `required`)."""
        kind = self.param(name, "")
        if required and not kind:
            raise VariantError(f"{self.variant.path}: [{self.key}] needs {name} = an edge kind "
                               f"(edge kinds: {', '.join(self.variant.edge_kinds) or 'none'})")
        if kind and kind not in self.variant.edge_kinds:
            raise VariantError(f"{self.variant.path}: [{self.key}] {name} = {kind!r} is not "
                               f"an edge kind (edge kinds: {', '.join(self.variant.edge_kinds)})")
        return kind

    def kinds_param(self, name: str, default: list[str] | None = None) -> list[str]:
        """A parameter listing unit kind letters (default: none, or `default`)."""
        kinds = self.param(name, default or [])
        if not isinstance(kinds, list) or any(k not in self.variant.unit_kinds for k in kinds):
            raise VariantError(f"{self.variant.path}: [{self.key}] {name} = {kinds!r}: a list "
                               f"of unit kinds ({', '.join(self.variant.unit_kinds)})")
        return kinds


REGISTRY: dict[str, type[Rule]] = {}


def register(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make a rule module's class known by its `name`."""
    REGISTRY[cls.name] = cls
    return cls


class RuleSet:
    """The rules of one variant, as the engine sees them."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        # whether the variant has any rule: a plain attribute, for the engine to read once a
        # phase (compiled, `bool(rule_set)` is a call of the interpreted __bool__)
        self.active = bool(rules)
        self._build = [r for r in rules if type(r).build_sites is not Rule.build_sites]
        self._year = [r for r in rules if type(r).year_start is not Rule.year_start]
        self._events = [r for r in rules if type(r).before_phase is not Rule.before_phase]
        self._holds = [r for r in rules if type(r).unit_holds is not Rule.unit_holds]
        self._refuse = [r for r in rules if type(r).refuse is not Rule.refuse]
        self.has_refuse = bool(self._refuse)
        self._kinds_moving = [r for r in rules if type(r).moving_kinds is not Rule.moving_kinds]
        self._after_orders = [r for r in rules if type(r).after_orders is not Rule.after_orders]
        self._more_orders = [r for r in rules if type(r).more_orders is not Rule.more_orders]
        self.has_after_orders = bool(self._after_orders)
        self.has_kind_moves = bool(self._kinds_moving)
        self.has_more_orders = bool(self._more_orders)
        self._retreat = [r for r in rules if type(r).retreat is not Rule.retreat]
        self._retreat_orders = [r for r in rules
                                if type(r).retreat_orders is not Rule.retreat_orders]
        self._blocked = [r for r in rules if type(r).blocked is not Rule.blocked]
        self._passages = [r for r in rules
                          if type(r).passage_controllers is not Rule.passage_controllers]
        self._options = [r for r in rules if type(r).check_options is not Rule.check_options]
        self._centers = [r for r in rules if type(r).centers_changed is not Rule.centers_changed]
        self._may_build = [r for r in rules if type(r).may_build is not Rule.may_build]
        self._extra_sites = [r for r in rules
                             if type(r).extra_build_sites is not Rule.extra_build_sites]
        self._after = [r for r in rules if type(r).after_phase is not Rule.after_phase]
        self._limits = [r for r in rules if type(r).move_limits is not Rule.move_limits]
        self._stalls = [r for r in rules if type(r).stalls is not Rule.stalls]
        self._porous = [r for r in rules if type(r).porous is not Rule.porous]
        self.has_porous = bool(self._porous)
        # (plain flags: the engine reads them on every phase)
        self.has_extra_sites = bool(self._extra_sites)
        self.has_after_phase = bool(self._after)
        self.has_move_limits = bool(self._limits)
        self.has_stalls = bool(self._stalls)

    def __bool__(self) -> bool:
        return self.active

    def build_sites(self, m: Any, pos: Any, power: int) -> list[int] | None:
        for r in self._build:
            got = r.build_sites(m, pos, power)
            if got is not None:
                return got
        return None

    def year_start(self, m: Any, pos: Any) -> None:
        for r in self._year:
            r.year_start(m, pos)

    def before_phase(self, m: Any, pos: Any, phase: Any) -> list[str | Reason]:
        out: list[str | Reason] = []
        for r in self._events:
            out += r.before_phase(m, pos, phase)
        return out

    @property
    def changes_positions(self) -> bool:
        """Whether a hook changes a position in place (so each phase needs a copy)."""
        return bool(self._year or self._events or self._centers)

    @property
    def has_holds(self) -> bool:
        return bool(self._holds)

    def unit_holds(self, m: Any, pos: Any, unit: Any) -> bool:
        return any(r.unit_holds(m, pos, unit) for r in self._holds)

    def moving_kinds(self, m: Any, pos: Any, orders: list) -> list:
        """The units as they move this phase (pos.units unless a rule changes a kind)."""
        units = pos.units
        for r in self._kinds_moving:
            units = r.moving_kinds(m, pos, orders) or units
        return units

    def after_orders(self, m: Any, before: Any, after: Any, units: list, orders: list,
                     finals: list) -> None:
        for r in self._after_orders:
            r.after_orders(m, before, after, units, orders, finals)

    def more_orders(self, m: Any, pos: Any, unit: Any, us: str) -> list[str]:
        return [o for r in self._more_orders for o in r.more_orders(m, pos, unit, us)]

    def adjustment_acts(self, m: Any, pos: Any, orders: list) -> set[tuple[int, int]]:
        return {x for r in self.rules for x in r.adjustment_acts(m, pos, orders)}

    def act_problem(self, m: Any, pos: Any, power: int, order: Any, given: list
                    ) -> str | None:
        """The first rule's reason why the act order cannot count (None: it may)."""
        for r in self.rules:
            why = r.act_problem(m, pos, power, order, given)
            if why:
                return why
        return None

    def acts_done(self, m: Any, pos: Any, after: Any, counted: list) -> None:
        for r in self.rules:
            r.acts_done(m, pos, after, counted)

    def more_adjustments(self, m: Any, pos: Any, power: int) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for r in self.rules:
            for place, lst in r.more_adjustments(m, pos, power).items():
                out.setdefault(place, []).extend(lst)
        return out

    def report_lines(self, m: Any, pos: Any) -> list[str]:
        return [line for r in self.rules for line in r.report_lines(m, pos)]

    def markers(self, m: Any, pos: Any) -> list[tuple[int, str]]:
        return [x for r in self.rules for x in r.markers(m, pos)]

    def porous(self, m: Any, pos: Any) -> dict[int, set[tuple[int, int]]]:
        """The provinces entered without naming a coast now, each with the moves over the
        passages a rule opened into it."""
        out: dict[int, set[tuple[int, int]]] = {}
        for r in self._porous:
            for prov, opened in r.porous(m, pos).items():
                out.setdefault(prov, set()).update(opened)
        return out

    def refuse(self, m: Any, unit: Any, order: Any, pos: Any = None) -> str | None:
        """A reason to refuse `order` for `unit` (`pos`: the position, when known)."""
        for r in self._refuse:
            why = r.refuse(m, unit, order, pos)
            if why:
                return why
        return None

    def explain(self, m: Any, pos: Any, hook: str, key: tuple, options: dict | None = None
                ) -> Reason | None:
        """The first rule's reason for refusing `key` by its answer to `hook`
        (Rule.explain), or None when no rule does."""
        for r in self.rules:
            got = r.explain(m, pos, hook, key, options)
            if got is not None:
                return got
        return None

    def events(self, m: Any, before: Any, after: Any) -> list[Reason]:
        """What the rules did on their own between the positions `before` and `after`."""
        return [e for r in self.rules for e in r.events(m, before, after)]

    def retreat(self, m: Any, pos: Any, d: Any) -> Any:
        for r in self._retreat:
            d = r.retreat(m, pos, d) or d
        return d

    def blocked(self, m: Any, pos: Any, options: dict) -> dict[int, set[tuple[int, int, int]]]:
        """Per power, the (kind, from location, to location) moves it may not make now."""
        out: dict[int, set[tuple[int, int, int]]] = {}
        for r in self._blocked:
            for p, edges in r.blocked(m, pos, options).items():
                out.setdefault(p, set()).update(edges)
        return out

    def passage_controllers(self, m: Any, pos: Any) -> dict[str, int]:
        """Passage name → the power that may permit others through it now (-1: none)."""
        out: dict[str, int] = {}
        for r in self._passages:
            out.update(r.passage_controllers(m, pos))
        return out

    def passage_names(self) -> dict[str, tuple[str, ...]]:
        """Passage name → the other names players use for it."""
        out: dict[str, tuple[str, ...]] = {}
        for r in self._passages:
            out.update(r.passage_names())
        return out

    def passage(self, text: Any) -> str:
        """The passage a typed name means ("Suez", "the Suez Canal"); a PolydipError with a
        suggestion when there is none."""
        return passage_named(self.passage_names(), text)

    def check_options(self, m: Any, options: dict) -> dict:
        """`options` with the values the rules read checked and written canonically; a
        PolydipError names the first bad value."""
        out = dict(options)
        for r in self._options:
            out.update(r.check_options(m, out))
        return out

    def centers_changed(self, m: Any, pos: Any) -> None:
        for r in self._centers:
            r.centers_changed(m, pos)

    def may_build(self, m: Any, pos: Any, power: int, kind: int, prov: int) -> bool:
        for r in self._may_build:
            got = r.may_build(m, pos, power, kind, prov)
            if got is not None:
                return got
        return True

    def extra_build_sites(self, m: Any, pos: Any, power: int) -> list[tuple[list[int], int]]:
        """Groups of provinces beyond the usual build sites, each with the number of builds
        that may go there."""
        out = []
        for r in self._extra_sites:
            got = r.extra_build_sites(m, pos, power)
            if got is not None and got[0] and got[1] > 0:
                out.append(got)
        return out

    def after_phase(self, m: Any, before: Any, after: Any,
                    moved: list[tuple[Any, Any, bool]]) -> None:
        for r in self._after:
            r.after_phase(m, before, after, moved)

    def move_limits(self, m: Any, pos: Any) -> dict[tuple[int, int, int], frozenset[int]]:
        """Per unit (power, kind, location): the only provinces it may move to now."""
        out: dict[tuple[int, int, int], frozenset[int]] = {}
        for r in self._limits:
            for key, allowed in r.move_limits(m, pos).items():
                out[key] = out[key] & allowed if key in out else frozenset(allowed)
        return out

    # ---- map tables (asked once per compiled map) -----------------------------------------

    def no_support(self, m: Any) -> set[tuple[int, int, int]]:
        return {x for r in self.rules for x in r.no_support(m)}

    def no_hold_support(self, m: Any) -> set[tuple[int, int]]:
        return {x for r in self.rules for x in r.no_hold_support(m)}

    def more_support(self, m: Any) -> set[tuple[int, int, int]]:
        return {x for r in self.rules for x in r.more_support(m)}

    def coast_changes(self, m: Any) -> set[tuple[int, int, int]]:
        return {x for r in self.rules for x in r.coast_changes(m)}

    def hold_strength(self, m: Any) -> dict[tuple[int, int], int]:
        """The weakest strength any rule gives a unit staying in a province."""
        out: dict[tuple[int, int], int] = {}
        for r in self.rules:
            for key, val in r.hold_strength(m).items():
                out[key] = min(val, out.get(key, val))
        return out

    def move_strength(self, m: Any) -> dict[tuple[int, int, int], int]:
        """The weakest strength any rule gives each move it names."""
        out: dict[tuple[int, int, int], int] = {}
        for r in self.rules:
            for key, val in r.move_strength(m).items():
                out[key] = min(val, out.get(key, val))
        return out

    def stalls(self, m: Any, options: dict) -> set[tuple[int, int, int]]:
        """The moves that, with an attack strength of 0, enter nowhere under `options`."""
        return {x for r in self._stalls for x in r.stalls(m, options)}

    def needs_support(self, m: Any) -> dict[str, set[tuple[int, int, int]]]:
        out: dict[str, set[tuple[int, int, int]]] = {}
        for r in self.rules:
            for season, moves in r.needs_support(m).items():
                out.setdefault(season, set()).update(moves)
        return out

    def no_retreat(self, m: Any) -> set[tuple[int, int, int]]:
        return {x for r in self.rules for x in r.no_retreat(m)}

    def open_spaces(self) -> set[str]:
        """Provinces without stacking limit where units never bounce (rules/open_spaces)."""
        return {p for r in self.rules for p in r.open_spaces()}

    def attack_spaces(self) -> set[str]:
        """Open spaces where units meet only through attack orders (rules/oceans)."""
        return {p for r in self.rules for p in r.attack_spaces()}

    def rout_margin(self) -> int | None:
        """The smallest margin by which an attack in an attack space disbands the unit it
        beats (None: beaten units retreat)."""
        got = [x for r in self.rules if (x := r.rout_margin()) is not None]
        return min(got) if got else None

    def no_swap_pairs(self) -> set[tuple[str, str]]:
        """Province pairs units never swap across, not even by convoy (rules/no_swap)."""
        return {(a, b) for r in self.rules for a, b in r.no_swap_pairs()}

    def retreat_orders(self, m: Any, pos: Any) -> dict[int, list[Any]]:
        out: dict[int, list[Any]] = {}
        for r in self._retreat_orders:
            for p, lst in r.retreat_orders(m, pos).items():
                out.setdefault(p, []).extend(lst)
        return out



# ---- helpers: a variant's tags and border markers as map ids ------------------------------

def passage_named(names: dict[str, tuple[str, ...]], text: Any) -> str:
    """The passage of `names` (name → aliases) that `text` names, in any case, with or
    without "the"; a PolydipError with a suggestion otherwise."""
    if isinstance(text, str):
        key = name_key(text)
        key = key[4:] if key.startswith("the ") else key
        for name, aliases in names.items():
            for a in (name, *aliases):
                k = name_key(a)
                if key == (k[4:] if k.startswith("the ") else k):
                    return name
    known = [a for name, aliases in names.items() for a in (name, *aliases)]
    raise PolydipError(f"no passage {str(text)[:80]!r} in this variant"
                       + did_you_mean(str(text), known)
                       + (f"; passages: {', '.join(names)}" if names else " (it has none)"))


def tagged(m: Any, tag: str) -> set[int]:
    """The provinces carrying `tag`."""
    if not tag:
        return set()
    return {m.prov_index[a] for a, p in m.variant.provinces.items() if tag in p.tags}


def border(m: Any, edge_kind: str) -> set[tuple[int, int]]:
    """The province pairs (both ways) joined by an edge of `edge_kind` (a marker kind, like
    "mountain", or any other)."""
    out: set[tuple[int, int]] = set()
    for e in m.variant.edges:
        if e.kind == edge_kind:
            a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
            out.add((a, b))
            out.add((b, a))
    return out


def crossings(m: Any, pairs: set[tuple[int, int]], kinds: list[str] | None = None
              ) -> set[tuple[int, int, int]]:
    """The moves (kind, from location, to location) over an edge between the provinces of
    one of `pairs`, by units of `kinds` (default: every kind)."""
    out = set()
    letters = m.kinds if kinds is None else kinds
    for letter in letters:
        k = m.kind_index[letter]
        for loc, dests in enumerate(m.move_locs[k]):
            p = m.loc_prov[loc]
            for d in dests:
                if (p, m.loc_prov[d]) in pairs:
                    out.add((k, loc, d))
    return out


def supports_into(m: Any, provinces: set[int] | None, targets: Any = None,
                  kinds: list[str] | None = None) -> set[tuple[int, int, int]]:
    """(kind, location, province) for units of `kinds` (default: every kind) standing in
    `provinces` (None: anywhere) and each province they could support into that
    `targets(their province)` names (targets None: all of them)."""
    out = set()
    letters = m.kinds if kinds is None else kinds
    for letter in letters:
        k = m.kind_index[letter]
        for loc, reach in enumerate(m.support_base[k]):
            p = m.loc_prov[loc]
            if not reach or (provinces is not None and p not in provinces):
                continue
            out.update((k, loc, q) for q in (reach if targets is None else reach & targets(p)))
    return out


def across(pairs: set[tuple[int, int]]) -> dict[int, set[int]]:
    """Province -> the provinces across a border of `pairs` from it."""
    out: dict[int, set[int]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
    return out
