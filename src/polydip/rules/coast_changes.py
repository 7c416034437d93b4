"""Coast changes: units of some kinds may move from one coast (bank, shore) of a province to
another of the same province, which takes their turn; a support of such a move is a support
to hold.

Latin American Diplomacy (seed 001, rule 6.B.iv): "River Flotillas may be ordered to cross
from one sea coast/river bank/lake shore to another. This equals one turn. Here are some
examples of valid orders: R La Paz[rib] to La Paz [ls] / R Cuiaba [eb] to Cuiaba [sb] / R
Guyana [rib] to [sec]. Such moves may be supported, and such a support order will be
understood as a support order to Hold." 6.C note 2: "a FLEET may not be ordered to move from
one coast/bank/shore to another."

[rules.coast_changes]
kinds = ["R"]        # the unit kinds that may change coasts (required)

The unit holds where it stands for the phase (it can be supported to hold, attacked,
dislodged); if it is not dislodged it ends on the other coast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.variants.model import Variant


@register
class CoastChanges(Rule):
    name = "coast_changes"
    summary = (
        "units of some kinds may move to another coast (bank, shore) of their own province: "
        "they hold for the phase, a support of the move is a support to hold, and if not "
        "dislodged they end on the new coast (6.B.iv)"
    )
    parameters = (
        Param("kinds", "strings", "the unit kinds that may change coasts", required=True,
              refers="unit_kind", example='["R"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.kinds = self.param("kinds")

    def coast_changes(self, m: Map) -> set[tuple[int, int, int]]:
        out: set[tuple[int, int, int]] = set()
        for letter in self.kinds:
            k = m.kind_index[letter]
            for p in range(m.n_prov):
                locs = [c for c in m.prov_coast_locs[p] if m.occupy[k][c]]
                out.update((k, a, b) for a in locs for b in locs if a != b)
        return out
