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

from typing import Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, register, supports_into, tagged


@register
class DeepWaters(Rule):
    name = "deep_waters"
    params_doc: ClassVar[dict[str, str]] = {
        "kinds": "unit kinds that are weak in deep water",
        "provinces": "tags of the provinces that are always deep water",
        "offshore": "tag of the provinces that are deep when none next to them is `coast`",
        "coast": "the tag of a coast (default coastal)"}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.kinds = self.kinds_param("kinds")
        if not self.kinds:
            raise VariantError(f"{variant.path}: [{key}] needs kinds = a list of unit kinds")
        tags = self.param("provinces", [])
        coast = self.param("coast", "coastal")
        if not isinstance(tags, list):
            raise VariantError(f"{variant.path}: [{key}] provinces = a list of tags")
        for tag in [*tags, coast]:
            if not any(tag in p.tags for p in variant.provinces.values()):
                raise VariantError(f"{variant.path}: [{key}] {tag!r}: no province has this tag")
        self.tags, self.coast = tags, coast
        self.offshore = self.tag_param("offshore")

    reasons: ClassVar[dict[str, tuple[str, str]]] = {
        "no_support": (R.DEEP_WATER, "a unit of this kind in deep water gives no support"),
        "move_strength": (R.DEEP_WATER, "a unit of this kind moving into deep water has "
                                        "strength 0 but for its supports")}

    def deep(self, m: Any) -> set[int]:
        """The deep-water provinces."""
        out: set[int] = set()
        for tag in self.tags:
            out |= tagged(m, tag)
        coast = tagged(m, self.coast)
        out |= {p for p in tagged(m, self.offshore) if not m.prov_neighbours[p] & coast}
        return out

    def no_support(self, m: Any) -> set[tuple[int, int, int]]:
        return supports_into(m, self.deep(m), None, self.kinds)

    def move_strength(self, m: Any) -> dict[tuple[int, int, int], int]:
        deep = self.deep(m)
        out = {}
        for letter in self.kinds:
            k = m.kind_index[letter]
            for loc, dests in enumerate(m.move_locs[k]):
                for d in dests:
                    if m.loc_prov[d] in deep:
                        out[(k, loc, d)] = 0
        return out

    def hold_strength(self, m: Any) -> dict[tuple[int, int], int]:
        return {(m.kind_index[k], p): 0 for k in self.kinds for p in self.deep(m)}
