"""Weak crossings: a unit moving across some borders counts for nothing by itself; only the
units supporting its move give it strength.

Latin American Diplomacy (seed 001, rule 5.C.iii), the Greater Andes: "THE ATTACK STRENGTH OF
ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting units count towards an attack."

[rules.weak_crossings]
borders = "greater_andes"  # edge kind of the borders
strength = 0               # the crossing move's own strength (the standard is 1)
kinds = []                 # unit kinds it applies to (default: every kind)

The game option `crossing_strength` says which of the move's strengths are weakened: "move"
(the default: its attack strength, its prevent strength against others moving to the same
province, and its defend strength in a head-to-head battle) or "attack" (its attack strength
only, the seed's words read literally). A convoyed move crosses no border.

An unsupported crossing into an empty province. The rules text says both "THE ATTACK STRENGTH
OF ANY UNIT CROSSING THESE BORDERS = ZERO" and that "only the supporting units count towards
an attack": nothing there says whether an attack of strength 0 enters a province nobody holds
or tries to enter. The game option `weak_crossing_into_empty` chooses:
- "enters" (the default, the standard rules' reading: a move into an empty province nobody
  else enters needs no strength, 0 beats nothing): the army crosses; likewise into a province
  its unit leaves.
- "fails" (an attack of strength 0 moves nowhere): a crossing whose attack strength is 0 —
  no support given — stays where it is, its result a bounce with the reason `weak_crossing`.
  It still cuts a support where it attacks, and its prevent strength is what
  `crossing_strength` says (0 under "move").
The hook `stalls` names these moves when the option says "fails" (only with strength = 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.rules.base import Rule, border, crossings, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.variants.model import Variant


@register
class WeakCrossings(Rule):
    name = "weak_crossings"
    summary = (
        "a move across these borders counts only its supports (the Greater Andes, 5.C.iii); "
        "it still enters a province nobody holds or enters (the option "
        "`weak_crossing_into_empty = \"fails\"`: it moves nowhere without a support); the "
        "option `crossing_strength` says whether prevent and defend strengths are weakened "
        "too"
    )
    parameters = (
        Param("borders", "string", "edge kind of the borders", required=True,
              refers="edge_kind"),
        Param("strength", "integer", "the move's own strength", default=0, minimum=0,
              maximum=1),
        Param("kinds", "strings", "unit kinds it applies to (default every kind)", default=[],
              refers="unit_kind"),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.borders = self.param("borders")
        self.strength = self.param("strength")
        self.kinds = self.param("kinds") or None

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "move_strength": (R.WEAK_CROSSING, "a move across this border counts only its "
                                           "supports"),
        "stalls": (R.WEAK_CROSSING, "a move across this border counts only its supports, "
                                    "and with none it enters nowhere, not even an empty "
                                    "province (option weak_crossing_into_empty = \"fails\")")}

    def move_strength(self, m: Map) -> dict[tuple[int, int, int], int]:
        return {mv: self.strength for mv in self._moves(m)}

    def stalls(self, m: Map, options: dict[str, Any]) -> set[tuple[int, int, int]]:
        if self.strength or options.get("weak_crossing_into_empty", "enters") != "fails":
            return set()
        return self._moves(m)

    def _moves(self, m: Map) -> set[tuple[int, int, int]]:
        got = m.caches.rule_tables.get((self.key, "crossings"))
        if got is None:
            got = m.caches.rule_tables[self.key, "crossings"] = crossings(
                m, border(m, self.borders), self.kinds)
        return got
