"""Rainforests: units of some kinds may not support across a rainforest border, and a unit of
some kinds that entered a rainforest province may next move only back where it came from.

Latin American Diplomacy (seed 001, rule 5.D): "A blanket restriction applies to all Armies,
but not to River Flotillas: NO ARMY MAY SUPPORT ORDER SUPPORT ACROSS A RAINFOREST BORDER."
"ONCE AN ARMY HAS ENTERED such a province, IT MAY NOT MOVE ON THE SUCCEEDING TURN, EXCEPT TO
THE PROVINCE FROM WHICH IT ENTERED."

[rules.rainforests]
borders = "rainforest"     # edge kind of the rainforest borders
no_support_across = ["A"]  # unit kinds that may not support across them
provinces = "rainforest"   # tag of the rainforest provinces
way_back_only = ["A"]      # unit kinds that, having entered one, may next move only back

Where a unit came from is remembered in the position (Position.extra["rainforests"], saved
with games and carried by one-shot requests): unit → the province it entered from, for the
units that entered a rainforest province in the last movement phase or the retreats after
it. In the next movement phase such a unit may move only to that province (over an edge, or
by convoy when it came by convoy); holding, supporting and convoying are not limited, and
neither is a retreat. Then it is free again. A unit that retreated into a rainforest
province entered it from where it was dislodged; a unit built in one entered it from nowhere
and moves freely.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.rules.base import Rule, across, border, register, supports_into, tagged
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position, Unit
    from polydip.variants.model import Variant

KEY = "rainforests"  # its key in Position.extra


@register
class Rainforests(Rule):
    name = "rainforests"
    summary = (
        "some kinds do not support across a rainforest border; a unit of some kinds that "
        "entered a rainforest province may next move only back where it came from (5.D) — "
        "remembered in `Position.extra[\"rainforests\"]` (unit → the province it entered from; "
        "retreats count, builds do not; supports and retreats are not limited)"
    )
    parameters = (
        Param("borders", "string", "edge kind of the rainforest borders", default="",
              refers="edge_kind"),
        Param("no_support_across", "strings", "unit kinds that may not support across them",
              default=[], refers="unit_kind", example='["A"]'),
        Param("provinces", "string", "tag of the rainforest provinces", default="",
              refers="tag"),
        Param("way_back_only", "strings", "unit kinds that, having entered one, may next move "
              "only back", default=[], refers="unit_kind", example='["A"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.borders = self.param("borders")
        self.no_support_kinds = self.param("no_support_across")
        self.provinces = self.param("provinces")
        self.way_back = set(self.param("way_back_only"))

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "no_support": (R.RAINFOREST_BORDER, "no support across a rainforest border"),
        "move_limits": (R.WAY_BACK_ONLY, "a unit that entered a rainforest province may next "
                                         "move only back where it came from")}

    def no_support(self, m: Map) -> set[tuple[int, int, int]]:
        if not (self.borders and self.no_support_kinds):
            return set()
        other_side = across(border(m, self.borders))
        return supports_into(m, set(other_side), lambda p: other_side[p],
                             self.no_support_kinds)

    # ---- the way back ----------------------------------------------------------------------

    def after_phase(self, m: Map, before: Position, after: Position,
                    moved: list[tuple[Unit, Unit, bool]]) -> None:
        if not (self.provinces and self.way_back):
            return
        forest = m.caches.rule_tables.get((self.key, "forest"))
        if forest is None:
            forest = m.caches.rule_tables[self.key, "forest"] = tagged(m, self.provinces)
        # a movement phase starts the memory afresh; its retreats and adjustments keep it
        came: dict[str, str] = {} if before.phase.type == "M" else dict(
            after.extra.get(KEY, {}))
        for was, now, _convoyed in moved:
            p = m.loc_prov[now.loc]
            if p in forest and m.kinds[now.kind] in self.way_back:
                came[m.unit_str(now.kind, now.loc)] = m.prov_abbr[m.loc_prov[was.loc]]
        on_board = {m.unit_str(u.kind, u.loc) for u in after.units}
        came = {u: p for u, p in came.items() if u in on_board}  # removed units forget
        if came:
            after.extra[KEY] = came
        else:
            after.extra.pop(KEY, None)

    def move_limits(self, m: Map, pos: Position) -> dict[tuple[int, int, int], frozenset[int]]:
        came = pos.extra.get(KEY) if pos.extra else None
        if not came or not isinstance(came, dict):
            return {}
        out = {}
        for u in pos.units:
            origin = came.get(m.unit_str(u.kind, u.loc))
            if origin in m.prov_index:
                out[(u.power, u.kind, u.loc)] = frozenset((m.prov_index[origin],))
        return out
