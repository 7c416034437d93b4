"""Supported crossings: in some seasons a unit may cross some borders only when supported.

Latin American Diplomacy (seed 001, rule 5.C.iv), the Chilean Andes: "During the FIRST
MOVEMENT PHASE (A Phase: March-June) of any year, NO ARMY MAY CROSS this mountainous border
UNLESS SUPPORTED by another unit." Its example 2: without support "the support for A
Cordillera Domeyko would not be cut as the A San Juan would not make it across the
mountains."

[rules.supported_crossings]
borders = "chilean_andes"  # edge kind of the borders
seasons = ["A"]            # the seasons it applies in (abbreviations)
kinds = ["A"]              # unit kinds it applies to (default: every kind)

"Supported" is read as: some support order for the move is valid (a support that is cut
still counts). The game option `supported_crossing = "given"` reads it as: some support is
given (not cut) — then a circle of such crossings cutting each other's supports is settled
as a paradox by the resolver (all those supports fail). An unsupported crossing is a legal
order that fails: it reaches nobody, cuts no support, bounces nobody and leaves no standoff;
its unit stays and may be dislodged.
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
class SupportedCrossings(Rule):
    name = "supported_crossings"
    summary = (
        "in these seasons a unit crosses these borders only when a support is ordered for the "
        "move (the option `supported_crossing = \"given\"`: given, not cut); unsupported it "
        "fails and cuts, bounces and blocks nothing (the Chilean Andes, 5.C.iv)"
    )
    parameters = (
        Param("borders", "string", "edge kind of the borders", required=True,
              refers="edge_kind"),
        Param("seasons", "strings", "season abbreviations (default every season)",
              refers="season", example='["A"]'),
        Param("kinds", "strings", "unit kinds it applies to (default every kind)", default=[],
              refers="unit_kind", example='["A"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.borders = self.param("borders")
        self.seasons = self.param("seasons")
        if self.seasons is None:
            self.seasons = [s.abbr for s in variant.calendar.seasons]
        self.kinds = self.param("kinds") or None

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "needs_support": (R.NEEDS_SUPPORT, "this border may be crossed now only with support")}

    def needs_support(self, m: Map) -> dict[str, set[tuple[int, int, int]]]:
        moves = crossings(m, border(m, self.borders), self.kinds)
        return {s: moves for s in self.seasons}
