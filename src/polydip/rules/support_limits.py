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

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.rules.base import Rule, register, supports_into, tagged
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.variants.model import Variant


@register
class SupportLimits(Rule):
    name = "support_limits"
    summary = (
        "kinds that support nothing into provinces with some tags; kinds that also support "
        "across edge kinds they do not move over (6.E, 6.C)"
    )
    parameters = (
        Param("no_support_into", "tables", "kinds that support nothing into provinces with "
              "these tags", default=[],
              example='[{kinds = ["R"], tags = ["sea", "ocean"]}]',
              fields=(Param("kinds", "strings", "unit kinds", required=True, refers="unit_kind"),
                      Param("tags", "strings", "province tags", required=True, refers="tag"))),
        Param("support_over", "tables", "kinds that also support across these edge kinds",
              default=[], example='[{kinds = ["R"], edges = ["land"]}]',
              fields=(Param("kinds", "strings", "unit kinds", required=True, refers="unit_kind"),
                      Param("edges", "strings", "edge kinds", required=True,
                            refers="edge_kind"))),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.into = [(e["kinds"], e["tags"]) for e in self.param("no_support_into")]
        self.over = [(e["kinds"], e["edges"]) for e in self.param("support_over")]

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.RULE_FORBIDS, "a unit of this kind may not support into a province "
                                       "of this kind")}

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for kinds, tags in self.into:
            targets: set[int] = set()
            for tag in tags:
                targets |= tagged(m, tag)

            def into(_p: int, t: set[int] = targets) -> set[int]:
                return t
            out |= supports_into(m, None, into, kinds)
        return out

    def more_support(self, m: Map) -> set[tuple[int, int, int]]:
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
