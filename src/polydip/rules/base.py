"""The Rule base class and the RuleSet the engine calls.

The hooks a rule may implement are declared once, typed, in `rules/hookspec.py` (RuleHooks:
their signatures, what they answer, how several rules' answers combine). `Rule` adds what
every rule has: its parameters (declared once, `rules/params.py`), the checks of their
values and the reasons of its refusals. `RuleSet` is the rules of one variant as the engine
sees them: its dispatch is built from the spec, one callable per hook, so a hook no rule
implements costs one call of the standard answer and callers need no guard.

Locations are map ids (coasts for coastal kinds, provinces otherwise); the helpers at the
end turn a variant's border marker edges and province tags into them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication.reasons import Reason, ReasonCode, reason
from polydip.errors import PolydipError, VariantError, did_you_mean
from polydip.names import name_key
from polydip.rules.hookspec import HOOKS, RuleHooks
from polydip.rules.params import Param, check_params

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant


class Rule(RuleHooks):
    """A rule module's class: `name` is its key in the variant file ([rules.NAME]),
    `parameters` the parameters it takes (declared once: rules/params.py); it overrides the
    hooks it needs (rules/hookspec.py)."""

    name: ClassVar[str] = ""
    # what the rule does, one sentence or a few, for the rule table of variant-format.md
    summary: ClassVar[str] = ""
    parameters: ClassVar[tuple[Param, ...]] = ()
    params_doc: ClassVar[dict[str, str]] = {}  # (name -> words, from `parameters`)

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.params_doc = {p.name: p.doc for p in cls.parameters}

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        self.variant = variant
        self.key = key
        # every declared parameter: its value checked, or its default
        self.params = check_params(self.parameters, params, variant, key)

    def param(self, name: str) -> Any:
        """The value of a declared parameter (its default when not given)."""
        return self.params[name]

    def fail(self, words: str) -> VariantError:
        """An error in this rule's table of the variant file (naming the file and key)."""
        return VariantError(f"{self.variant.path}: [{self.key}] {words}")

    # ---- reasons and events: asked only when a report wants them, never while adjudicating

    # hook name -> (reason code, words): why an entry of the rule's table for that hook
    # refuses or weakens an order (see explain)
    reasons: ClassVar[dict[str, tuple[ReasonCode, str]]] = {}

    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> Reason | None:
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

    def _holds(self, m: Map, pos: Position | None, hook: str, key: tuple,
               options: dict[str, Any] | None = None) -> bool:
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
            assert pos is not None, "blocked is asked of a position"
            return key[1:] in self.blocked(m, pos, options or {}).get(key[0], ())
        if hook == "move_limits":
            assert pos is not None, "move_limits is asked of a position"
            allowed = self.move_limits(m, pos).get(key[:3])
            return allowed is not None and key[3] not in allowed
        if hook == "unit_holds":
            return self.unit_holds(m, pos, key[0])
        return False

REGISTRY: dict[str, type[Rule]] = {}


def register(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make a rule module's class known by its `name`."""
    REGISTRY[cls.name] = cls
    return cls


class RuleSet(RuleHooks):
    """The rules of one variant, as the engine sees them: each hook of RuleHooks answers
    with the rules' answers combined as the spec says (rules/hookspec.py)."""

    def __init__(self, rules: list[Rule]) -> None:
        self.rules = rules
        # whether the variant has any rule: a plain attribute, for the engine to read once a
        # phase (compiled, `bool(rule_set)` is a call of the interpreted __bool__)
        self.active = bool(rules)
        standard = RuleHooks()
        self._implemented: dict[str, list[Rule]] = {}
        for name, spec in HOOKS.items():
            impls = [r for r in rules if getattr(type(r), name) is not getattr(RuleHooks, name)]
            self._implemented[name] = impls
            fns = [getattr(r, name) for r in impls]
            if not fns and spec.combine != "chain":
                call = getattr(standard, name)  # the standard answer, a fresh one each time
            elif len(fns) == 1 and spec.combine in _DIRECT:
                call = fns[0]  # one rule: its own answer is the rule set's
            else:
                call = _COMBINE[spec.combine](fns)
            setattr(self, name, call)  # (an instance attribute: found before the method)
        # whether a hook changes a position in place (so each phase needs a copy)
        self.changes_positions = any(self._implemented[h.name] for h in HOOKS.values()
                                     if h.in_place)
        # (read by adjudication/movement.py's hot loop: a plain flag)
        self.has_stalls = bool(self._implemented["stalls"])

    def __bool__(self) -> bool:
        return self.active

    def implements(self, hook: str) -> bool:
        """Whether a rule of the variant implements `hook` (for a caller whose arguments
        cost work to make: the call itself is cheap either way)."""
        return bool(self._implemented[hook])

    def passage(self, text: Any) -> str:
        """The passage a typed name means ("Suez", "the Suez Canal"); a PolydipError with a
        suggestion when there is none."""
        return passage_named(self.passage_names(), text)


# ---- how the answers of several rules combine (hookspec.COMBINES) --------------------------

Call = Callable[..., Any]


def _first(fns: list[Call]) -> Call:
    def call(*a: Any) -> Any:
        for f in fns:
            got = f(*a)
            if got is not None:
                return got
        return None
    return call


def _last(fns: list[Call]) -> Call:
    def call(*a: Any) -> Any:
        out = None
        for f in fns:
            got = f(*a)
            if got is not None:
                out = got
        return out
    return call


def _any(fns: list[Call]) -> Call:
    def call(*a: Any) -> bool:
        return any(f(*a) for f in fns)
    return call


def _each(fns: list[Call]) -> Call:
    def call(*a: Any) -> None:
        for f in fns:
            f(*a)
    return call


def _chain(fns: list[Call]) -> Call:
    def call(*a: Any) -> Any:
        *head, x = a
        for f in fns:
            x = f(*head, x)
        return x
    return call


def _concat(fns: list[Call]) -> Call:
    def call(*a: Any) -> list:
        return [x for f in fns for x in f(*a)]
    return call


def _union(fns: list[Call]) -> Call:
    def call(*a: Any) -> set:
        return {x for f in fns for x in f(*a)}
    return call


def _merge(fns: list[Call]) -> Call:
    def call(*a: Any) -> dict:
        out: dict = {}
        for f in fns:
            out.update(f(*a))
        return out
    return call


def _merge_each(fns: list[Call]) -> Call:
    def call(*a: Any) -> dict:
        out: dict = {}
        for f in fns:
            for key, got in f(*a).items():
                if key not in out:
                    out[key] = type(got)(got)  # (a copy: the rule's own stays as it is)
                elif isinstance(got, list):
                    out[key].extend(got)
                else:
                    out[key].update(got)
        return out
    return call


def _min(fns: list[Call]) -> Call:
    def call(*a: Any) -> Any:
        got = [x for f in fns if (x := f(*a)) is not None]
        return min(got) if got else None
    return call


def _min_each(fns: list[Call]) -> Call:
    def call(*a: Any) -> dict:
        out: dict = {}
        for f in fns:
            for key, val in f(*a).items():
                out[key] = min(val, out[key]) if key in out else val
        return out
    return call


def _intersect(fns: list[Call]) -> Call:
    def call(*a: Any) -> dict:
        out: dict = {}
        for f in fns:
            for key, allowed in f(*a).items():
                out[key] = out[key] & allowed if key in out else frozenset(allowed)
        return out
    return call


_COMBINE: dict[str, Callable[[list[Call]], Call]] = {
    "first": _first, "last": _last, "any": _any, "each": _each, "chain": _chain,
    "concat": _concat, "union": _union, "merge": _merge, "merge_each": _merge_each,
    "min": _min, "min_each": _min_each, "intersect": _intersect}
# combines where one rule's answer is already the combined answer (no copy needed)
_DIRECT = frozenset({"first", "last", "any", "each", "chain", "min"})


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


def tagged(m: Map, tag: str) -> set[int]:
    """The provinces carrying `tag`."""
    if not tag:
        return set()
    return {m.prov_index[a] for a, p in m.variant.provinces.items() if tag in p.tags}


def border(m: Map, edge_kind: str) -> set[tuple[int, int]]:
    """The province pairs (both ways) joined by an edge of `edge_kind` (a marker kind, like
    "mountain", or any other)."""
    out: set[tuple[int, int]] = set()
    for e in m.variant.edges:
        if e.kind == edge_kind:
            a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
            out.add((a, b))
            out.add((b, a))
    return out


def crossings(m: Map, pairs: set[tuple[int, int]], kinds: list[str] | None = None
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


def supports_into(m: Map, provinces: set[int] | None,
                  targets: Callable[[int], set[int]] | None = None,
                  kinds: list[str] | None = None) -> set[tuple[int, int, int]]:
    """(kind, location, province) for units of `kinds` (default: every kind) standing in
    `provinces` (None: anywhere) and each province they could support into that
    `targets(their province)` names (targets None: all of them)."""
    out: set[tuple[int, int, int]] = set()
    letters = m.kinds if kinds is None else kinds
    for letter in letters:
        k = m.kind_index[letter]
        for loc, reach in enumerate(m.tables.support_base[k]):
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
