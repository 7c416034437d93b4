"""Support limits by unit kind: kinds that never support into some provinces, and kinds that
support over borders they do not move across.

Latin American Diplomacy (seed 001, rule 6.E): "River Flotillas may not offer support to any
unit in a Sea Province or Ocean Province. River Flotillas are not restricted by Rainforest
Borders, however, and can order support across Rainforest Borders, EVEN to provinces where
they cannot travel" ("R Napo S A Pastaza. Result: Order is valid."); 6.B.ii: "This rule does
not prevent a River Flotilla from supporting another unit to hold or move into such a
Coastal Province, which it may do." 6.C note 3: "A Fleet may NEVER support a unit or a move
into any Upland Province."

[rules.support_limits]
no_support_into = [{ kinds = ["R"], tags = ["sea", "ocean"] }, { kinds = ["F"], tags = ["upland"] }]
support_over = [{ kinds = ["R"], edges = ["land"] }]

`no_support_into`: a unit of these kinds supports no unit to hold in, or to move into, a
province carrying one of the tags. `support_over`: a unit of these kinds also supports into
the provinces across edges of these kinds from its province, though it cannot move there
(the other rules' limits, such as mountain borders, still apply).
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, register, supports_into, tagged


@register
class SupportLimits(Rule):
    name = "support_limits"
    params_doc: ClassVar[dict[str, str]] = {
        "no_support_into": "[{kinds, tags}]: kinds that support nothing into those provinces",
        "support_over": "[{kinds, edges}]: kinds that support across those edge kinds too"}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.into = [self._entry(e, "no_support_into", "tags") for e in
                     self._list("no_support_into")]
        self.over = [self._entry(e, "support_over", "edges") for e in
                     self._list("support_over")]

    def _list(self, name: str) -> list:
        val = self.param(name, [])
        if not isinstance(val, list) or not all(isinstance(e, dict) for e in val):
            raise VariantError(f"{self.variant.path}: [{self.key}] {name}: a list of tables")
        return val

    def _entry(self, e: dict, name: str, what: str) -> tuple[list[str], list[str]]:
        where = f"{self.variant.path}: [{self.key}] {name}"
        if set(e) != {"kinds", what}:
            raise VariantError(f"{where}: each entry has kinds and {what}, not {sorted(e)}")
        kinds, names = e["kinds"], e[what]
        if not isinstance(kinds, list) or any(k not in self.variant.unit_kinds for k in kinds):
            raise VariantError(f"{where}: kinds = {kinds!r}: a list of unit kinds")
        if not isinstance(names, list):
            raise VariantError(f"{where}: {what} = {names!r}: a list")
        for n in names:
            known = (any(n in p.tags for p in self.variant.provinces.values())
                     if what == "tags" else n in self.variant.edge_kinds)
            if not known:
                raise VariantError(f"{where}: {n!r} is not a province tag" if what == "tags"
                                   else f"{where}: {n!r} is not an edge kind")
        return kinds, names

    reasons: ClassVar[dict[str, tuple[str, str]]] = {
        "no_support": (R.RULE_FORBIDS, "a unit of this kind may not support into a province "
                                       "of this kind")}

    def no_support(self, m: Any) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for kinds, tags in self.into:
            targets: set[int] = set()
            for tag in tags:
                targets |= tagged(m, tag)
            out |= supports_into(m, None, lambda p, t=targets: t, kinds)  # type: ignore[misc]
        return out

    def more_support(self, m: Any) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for kinds, edges in self.over:
            across: dict[int, set[int]] = {}
            for e in m.variant.edges:
                if e.kind in edges:
                    a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
                    across.setdefault(a, set()).add(b)
                    across.setdefault(b, set()).add(a)
            for letter in kinds:
                k = m.kind_index[letter]
                for loc in range(m.n_loc):
                    if m.occupy[k][loc]:
                        out.update((k, loc, q) for q in across.get(m.loc_prov[loc], ()))
        return out
