"""Mountains: a unit in a mountain province gives no support, no unit retreats across a
mountain border, and units of some kinds may not support across one.

Latin American Diplomacy (seed 001, rule 5.C): "NO UNIT MAY RETREAT ACROSS A MOUNTAINOUS
BORDER ON ANY RETREAT PHASE (B or D Phases)"; "no River Flotilla may order support across a
mountainous border"; "MOUNTAIN PROVINCES (MP), i.e. PROVINCES WITH ONLY MOUNTAINOUS BORDERS
... NO UNIT LOCATED IN ONE OF THESE PROVINCES MAY OFFER SUPPORT to any other unit."

[rules.mountains]
provinces = "mountain"     # tag of the mountain provinces: a unit there gives no support
borders = "mountain"       # edge kind of the mountain borders: no unit retreats across
no_support_across = []     # unit kinds that may not support across those borders (["R"])

Each parameter may be left out (no such restriction). A unit in a mountain province may still
be supported, move and hold; crossing a mountain border is an ordinary move (the harder
crossings are rules/weak_crossings.py and rules/supported_crossings.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.rules.base import Rule, across, border, crossings, register, supports_into, tagged
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant


@register
class Mountains(Rule):
    name = "mountains"
    summary = (
        "a unit in a mountain province gives no support; no unit retreats across a mountain "
        "border; some kinds do not support across one (Latin American Diplomacy 5.C.i–ii)"
    )
    parameters = (
        Param("provinces", "string", "tag of the provinces whose units give no support",
              default="", refers="tag", example='"mountain"'),
        Param("borders", "string", "edge kind of the borders no unit retreats across",
              default="", refers="edge_kind", example='"mountain"'),
        Param("no_support_across", "strings", "unit kinds that may not support across those "
              "borders", default=[], refers="unit_kind", example='["R"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.provinces = self.param("provinces")
        self.borders = self.param("borders")
        self.no_support_kinds = self.param("no_support_across")

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        out = supports_into(m, tagged(m, self.provinces)) if self.provinces else set()
        if self.borders and self.no_support_kinds:
            other_side = across(border(m, self.borders))
            out |= supports_into(m, set(other_side), lambda p: other_side[p],
                                 self.no_support_kinds)
        return out

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_retreat": (R.MOUNTAIN_BORDER, "no unit retreats across a mountain border")}

    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> R.Reason | None:
        if hook != "no_support" or not self._holds(m, pos, hook, key):
            return super().explain(m, pos, hook, key, options)
        kind, loc, _ = key
        if self.provinces and m.loc_prov[loc] in tagged(m, self.provinces):
            return R.reason(R.MOUNTAIN_PROVINCE, "a unit in a mountain province gives no "
                                                 "support")
        return R.reason(R.MOUNTAIN_BORDER, f"a {m.kind_names[kind]} may not support across a "
                                           "mountain border")

    def no_retreat(self, m: Map) -> set[tuple[int, int, int]]:
        return crossings(m, border(m, self.borders)) if self.borders else set()
