"""Deep waters: some unit kinds lose their strength and their support in open water.

Latin American Diplomacy (seed 001, rule 6.B.ii): "River Flotillas may occupy Sea Provinces
and Ocean Provinces; however, when a River Flotilla enters any Sea Province which is not
directly adjacent to a Coastal Province, or ANY OCean Province, it cannot support another
unit, and has an attack strength of zero. It can be supported to hold or to move into such a
province, however, and in such a case its attack strength equals the number of supporting
units."

[rules.deep_waters]
kinds = ["R"]              # the unit kinds it applies to (required)
provinces = ["ocean"]      # tags of provinces that are always deep water
offshore = "sea"           # tag of provinces that are deep when no province next to them
coast = "coastal"          #   carries the tag `coast`

A unit of these kinds moving into deep water, or staying there, has strength 0 before its
supports (its hold strength and its move's attack, prevent and defend strengths); moving out
it is as strong as ever. There it gives no support (a support it is ordered to give is void).
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
class DeepWaters(Rule):
    name = "deep_waters"
    summary = (
        "units of some kinds moving into or staying in deep water have strength 0 before "
        "supports and give no support there (Latin American Diplomacy's flotillas, 6.B.ii)"
    )
    parameters = (
        Param("kinds", "strings", "the unit kinds that are weak in deep water", required=True,
              refers="unit_kind", example='["R"]'),
        Param("provinces", "strings", "tags of the provinces that are always deep water",
              default=[], refers="tag", example='["ocean"]'),
        Param("offshore", "string", "tag of the provinces that are deep when no province "
              "next to them carries `coast`", default="", refers="tag", example='"sea"'),
        Param("coast", "string", "the tag of a coast", default="coastal", refers="tag"),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.kinds = self.param("kinds")
        self.tags, self.coast = self.param("provinces"), self.param("coast")
        self.offshore = self.param("offshore")

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.DEEP_WATER, "a unit of this kind in deep water gives no support"),
        "move_strength": (R.DEEP_WATER, "a unit of this kind moving into deep water has "
                                        "strength 0 but for its supports")}

    def deep(self, m: Map) -> set[int]:
        """The deep-water provinces."""
        out: set[int] = set()
        for tag in self.tags:
            out |= tagged(m, tag)
        coast = tagged(m, self.coast)
        out |= {p for p in tagged(m, self.offshore) if not m.prov_neighbours[p] & coast}
        return out

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        return supports_into(m, self.deep(m), None, self.kinds)

    def move_strength(self, m: Map) -> dict[tuple[int, int, int], int]:
        deep = self.deep(m)
        out = {}
        for letter in self.kinds:
            k = m.kind_index[letter]
            for loc, dests in enumerate(m.move_locs[k]):
                for d in dests:
                    if m.loc_prov[d] in deep:
                        out[(k, loc, d)] = 0
        return out

    def hold_strength(self, m: Map) -> dict[tuple[int, int], int]:
        return {(m.kind_index[k], p): 0 for k in self.kinds for p in self.deep(m)}
