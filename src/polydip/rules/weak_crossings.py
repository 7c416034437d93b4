"""Weak crossings: a unit moving across some borders counts for nothing by itself; only the
units supporting its move give it strength.

Latin American Diplomacy (seed 001, rule 5.C.iii), the Greater Andes: "THE ATTACK STRENGTH OF
ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting units count towards an attack."

[rules.weak_crossings]
borders = "greater_andes"  # edge kind of the borders
strength = 0               # the crossing move's own strength (the standard is 1)
kinds = []                 # unit kinds it applies to (default: every kind)

Such a move still enters a province nobody holds or tries to enter. The game option
`crossing_strength` says which of the move's strengths are weakened: "move" (the default:
its attack strength, its prevent strength against others moving to the same province, and
its defend strength in a head-to-head battle) or "attack" (its attack strength only, the
seed's words read literally). A convoyed move crosses no border.
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, border, crossings, register


@register
class WeakCrossings(Rule):
    name = "weak_crossings"
    params_doc: ClassVar[dict[str, str]] = {
        "borders": "edge kind of the borders", "strength": "the move's own strength (0)",
        "kinds": "unit kinds it applies to (default: all)"}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.borders = self.edge_kind_param("borders", required=True)
        self.strength = self.param("strength", 0)
        if not isinstance(self.strength, int) or isinstance(self.strength, bool) \
                or not 0 <= self.strength <= 1:
            raise VariantError(f"{variant.path}: [{key}] strength = {self.strength!r}: 0 or 1")
        self.kinds = self.kinds_param("kinds") or None

    reasons: ClassVar[dict[str, tuple[str, str]]] = {
        "move_strength": (R.WEAK_CROSSING, "a move across this border counts only its "
                                           "supports")}

    def move_strength(self, m: Any) -> dict[tuple[int, int, int], int]:
        return {mv: self.strength for mv in crossings(m, border(m, self.borders), self.kinds)}
