"""The Rule base class and the RuleSet the engine calls.

Hooks (a rule implements the ones it needs; RuleSet combines them):
  build_sites(m, pos, power) -> list[int] | None   provinces where `power` may build now
  year_start(m, pos) -> None                        bookkeeping when a new year begins
  before_phase(m, pos, phase) -> list[str]          scheduled events; returns what happened
  unit_holds(m, pos, unit) -> bool                  the unit always holds: orders for it
                                                    are refused (neutral units)
  retreat(m, pos, dislodged) -> Dislodged | None    changes a dislodged unit's options
  retreat_orders(m, pos) -> {power: [Order]}        orders for units no player orders
  blocked(m, pos, options) -> {power: {(kind, a, b)}}  moves a power may not make now
  open_spaces() -> [province]                       no stacking limit, no bounce there
  no_swap_pairs() -> [(a, b)]                        no swapping across, even by convoy
  centers_changed(m, pos) -> None                   after centers change owner
  may_build(m, pos, power, kind, prov) -> bool|None a build of this kind there allowed?
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.errors import VariantError


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

    def before_phase(self, m: Any, pos: Any, phase: Any) -> list[str]:
        return []

    def unit_holds(self, m: Any, pos: Any, unit: Any) -> bool:
        return False

    def retreat(self, m: Any, pos: Any, d: Any) -> Any:
        return None

    def retreat_orders(self, m: Any, pos: Any) -> dict[int, list[Any]]:
        return {}

    def blocked(self, m: Any, pos: Any, options: dict) -> dict[int, set[tuple[int, int, int]]]:
        return {}

    def open_spaces(self) -> list[str]:
        return []

    def no_swap_pairs(self) -> list[tuple[str, str]]:
        return []

    def centers_changed(self, m: Any, pos: Any) -> None:
        return None

    def may_build(self, m: Any, pos: Any, power: int, kind: int, prov: int) -> bool | None:
        return None

    # ---- parameters ----------------------------------------------------------------------

    def param(self, name: str, default: Any, choices: tuple | None = None) -> Any:
        val = self.params.get(name, default)
        if choices is not None and val not in choices:
            raise VariantError(f"{self.variant.path}: [{self.key}] {name} = {val!r} is not "
                               f"one of {', '.join(map(repr, choices))}")
        return val


REGISTRY: dict[str, type[Rule]] = {}


def register(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make a rule module's class known by its `name`."""
    REGISTRY[cls.name] = cls
    return cls


class RuleSet:
    """The rules of one variant, as the engine sees them."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        self._build = [r for r in rules if type(r).build_sites is not Rule.build_sites]
        self._year = [r for r in rules if type(r).year_start is not Rule.year_start]
        self._events = [r for r in rules if type(r).before_phase is not Rule.before_phase]
        self._holds = [r for r in rules if type(r).unit_holds is not Rule.unit_holds]
        self._retreat = [r for r in rules if type(r).retreat is not Rule.retreat]
        self._retreat_orders = [r for r in rules
                                if type(r).retreat_orders is not Rule.retreat_orders]
        self._blocked = [r for r in rules if type(r).blocked is not Rule.blocked]
        self._centers = [r for r in rules if type(r).centers_changed is not Rule.centers_changed]
        self._may_build = [r for r in rules if type(r).may_build is not Rule.may_build]

    def __bool__(self) -> bool:
        return bool(self.rules)

    def build_sites(self, m: Any, pos: Any, power: int) -> list[int] | None:
        for r in self._build:
            got = r.build_sites(m, pos, power)
            if got is not None:
                return got
        return None

    def year_start(self, m: Any, pos: Any) -> None:
        for r in self._year:
            r.year_start(m, pos)

    def before_phase(self, m: Any, pos: Any, phase: Any) -> list[str]:
        out: list[str] = []
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

    def centers_changed(self, m: Any, pos: Any) -> None:
        for r in self._centers:
            r.centers_changed(m, pos)

    def may_build(self, m: Any, pos: Any, power: int, kind: int, prov: int) -> bool:
        for r in self._may_build:
            got = r.may_build(m, pos, power, kind, prov)
            if got is not None:
                return got
        return True

    def open_spaces(self) -> set[str]:
        """Provinces without stacking limit where units never bounce (rules/open_spaces)."""
        return {p for r in self.rules for p in r.open_spaces()}

    def no_swap_pairs(self) -> set[tuple[str, str]]:
        """Province pairs units never swap across, not even by convoy (rules/no_swap)."""
        return {(a, b) for r in self.rules for a, b in r.no_swap_pairs()}

    def retreat_orders(self, m: Any, pos: Any) -> dict[int, list[Any]]:
        out: dict[int, list[Any]] = {}
        for r in self._retreat_orders:
            for p, lst in r.retreat_orders(m, pos).items():
                out.setdefault(p, []).extend(lst)
        return out

