"""Swamps: a unit of some kinds standing in a swamp gives no support and may not be supported
to hold there; it may be supported to move out.

Latin American Diplomacy (seed 001, rule 5.E): "NO ARMY located in one of these provinces MAY
OFFER SUPPORT TO ANOTHER UNIT, OR BE SUPPORTED TO HOLD in that province by another unit (i.e.
the defense strength of such an army cannot exceed one). Note that: 1) no restrictions apply
to River Flotillas; 2) an army may be supported to move OUT of the swampy province, even to
another swampy province."

[rules.swamps]
provinces = "swamp"        # tag of the swamp provinces
kinds = ["A"]              # unit kinds it applies to (default: every kind)

A support to hold such a unit is an illegal order (void), as is a support it gives.
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
class Swamps(Rule):
    name = "swamps"
    summary = (
        "a unit of these kinds in a swamp gives no support and may not be supported to hold; "
        "it may be supported to move out (5.E)"
    )
    parameters = (
        Param("provinces", "string", "tag of the swamp provinces", required=True, refers="tag"),
        Param("kinds", "strings", "unit kinds it applies to (default every kind)", default=[],
              refers="unit_kind", example='["A"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.provinces = self.param("provinces")
        self.kinds = self.param("kinds") or list(variant.unit_kinds)

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.SWAMP, "a unit in a swamp gives no support"),
        "no_hold_support": (R.SWAMP, "a unit in a swamp may not be supported to hold")}

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        return supports_into(m, tagged(m, self.provinces), None, self.kinds)

    def no_hold_support(self, m: Map) -> set[tuple[int, int]]:
        return {(m.kind_index[k], p) for k in self.kinds for p in tagged(m, self.provinces)}
