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

from typing import Any, ClassVar

from polydip.errors import VariantError
from polydip.rules.base import Rule, register


@register
class CoastChanges(Rule):
    name = "coast_changes"
    params_doc: ClassVar[dict[str, str]] = {"kinds": "unit kinds that may change coasts"}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.kinds = self.kinds_param("kinds")
        if not self.kinds:
            raise VariantError(f"{variant.path}: [{key}] needs kinds = a list of unit kinds")

    def coast_changes(self, m: Any) -> set[tuple[int, int, int]]:
        out = set()
        for letter in self.kinds:
            k = m.kind_index[letter]
            for p in range(m.n_prov):
                locs = [c for c in m.prov_coast_locs[p] if m.occupy[k][c]]
                out.update((k, a, b) for a in locs for b in locs if a != b)
        return out
