"""Deserts: no unit in a desert province supports another into, or to hold in, an adjacent
desert province.

Latin American Diplomacy (seed 001, rule 5.I): "NO UNIT IN ONE DESERT PROVINCE MAY SUPPORT
ANOTHER UNIT INTO, OR TO HOLD IN AN ADJACENT DESERT PROVINCE. Note that this means that a unit
in a desert province may support a unit in an adjacent desert province to move into a
non-desert province."

[rules.deserts]
provinces = "desert"       # tag of the desert provinces
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
class Deserts(Rule):
    name = "deserts"
    summary = (
        "no unit in a desert province supports into, or to hold in, an adjacent desert "
        "province (5.I)"
    )
    parameters = (
        Param("provinces", "string", "tag of the desert provinces", required=True,
              refers="tag"),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.provinces = self.param("provinces")

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.DESERT_BORDER, "no support from a desert province into an adjacent "
                                        "desert province")}

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        deserts = tagged(m, self.provinces)
        return supports_into(m, deserts, lambda p: deserts - {p})
