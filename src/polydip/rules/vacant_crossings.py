"""Vacant crossings: edges usable only while a province is empty, across which only units of
some kinds may support.

Latin American Diplomacy (seed 001, rule 5.J.3.i), the Falklands: "a Fleet, River Flotilla
or Army may move from one to the other in one turn, without having to enter FALKLAND SOUND,
except when FALKLAND SOUND is occupied by any unit. In addition, so long as FALKLAND SOUND is
vacant, a unit in either Falkland island may be supported by a FLEET (but not an Army or
River Flotilla) in the other Falkland island."

[[rules.vacant_crossings.crossing]]
edges = ["WFA-EFA"]        # edges declared under [edges]
while_vacant = "FSO"       # usable only while no unit stands in this province
support_kinds = ["F"]      # only these unit kinds support across (default: every kind)

"Occupied" is read at the start of the turn, like a controlled passage: while the province
holds a unit the edges are closed to moves, supports and retreats of every power.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant


@register
class VacantCrossings(Rule):
    name = "vacant_crossings"
    summary = (
        "edges usable only while a province is empty (at the start of the turn: closed to "
        "moves, supports and retreats; a convoy ordered `VIA` still goes), across which only "
        "some kinds support (the Falklands, 5.J.3.i)"
    )
    parameters = (
        Param("crossing", "tables", "the crossings", default=[],
              example='[{edges = ["WFA-EFA"], while_vacant = "FSO", support_kinds = ["F"]}]',
              fields=(
                  Param("edges", "strings", 'the edges ("X-Y"), usable only while the '
                        "province is empty", required=True),
                  Param("while_vacant", "string", "the province", required=True,
                        refers="province"),
                  Param("support_kinds", "strings", "the unit kinds that support across "
                        "them (default every kind)", refers="unit_kind"))),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        declared = {(e.a, e.b) for e in variant.edges} | {(e.b, e.a) for e in variant.edges}
        self.crossings: list[tuple[list[tuple[str, str]], str, list[str]]] = []
        for i, c in enumerate(self.param("crossing")):
            k = f"{key}.crossing[{i}]"
            edges = []
            for e in c["edges"]:
                a, _, b = str(e).partition("-")
                if (a, b) not in declared:
                    raise VariantError(f"{variant.path}: [{k}] edge {e!r} is not declared "
                                       "under [edges]")
                edges.append((a, b))
            kinds = c.get("support_kinds", list(variant.unit_kinds))
            self.crossings.append((edges, c["while_vacant"], kinds))

    def _provs(self, m: Map, edges: list[tuple[str, str]]) -> set[tuple[int, int]]:
        out = set()
        for a, b in edges:
            pa, pb = m.loc_prov[m.loc_index[a]], m.loc_prov[m.loc_index[b]]
            out |= {(pa, pb), (pb, pa)}
        return out

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.RULE_FORBIDS, "a unit of this kind may not support across this "
                                       "crossing"),
        "blocked": (R.PASSAGE_CLOSED, "this crossing is closed while a unit stands in the "
                                      "province between")}

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for edges, _, kinds in self.crossings:
            pairs = self._provs(m, edges)
            for k, letter in enumerate(m.kinds):
                if letter in kinds:
                    continue
                for loc, reach in enumerate(m.reach_prov[k]):
                    p = m.loc_prov[loc]
                    out.update((k, loc, q) for q in reach if (p, q) in pairs)
        return out

    def blocked(self, m: Map, pos: Position, options: dict[str, Any]
                ) -> dict[int, set[tuple[int, int, int]]]:
        shut: set[tuple[int, int, int]] = set()
        for edges, province, _ in self.crossings:
            prov = m.prov_index[province]
            if any(m.loc_prov[u.loc] == prov for u in pos.units):
                pairs = self._provs(m, edges)
                for k in range(len(m.kinds)):
                    for loc, dests in enumerate(m.move_locs[k]):
                        p = m.loc_prov[loc]
                        shut.update((k, loc, d) for d in dests if (p, m.loc_prov[d]) in pairs)
        return {p: set(shut) for p in range(len(m.powers))} if shut else {}
