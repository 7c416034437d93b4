"""Kind changes: a unit that becomes a unit of another kind on the way. NOT SUPPORTED YET:
the orders that need it are refused with a clear reason.

Latin American Diplomacy (seed 001, rule 6.C): "A Fleet may be converted into a River
Flotilla simply by being ordered to travel up a river. ... Example: F Amapa to Para [becomes
R, Anchor Marker left in Amapa]." With the anchor markers it leaves (6.D) this waits for a
later part; until then a move that a unit of kind `from` cannot make but a unit of kind `to`
on the same place could is refused ("not supported yet") instead of being void silently.

[rules.kind_changes]
from = "F"
to = "R"
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.errors import VariantError
from polydip.orders.model import MOVE
from polydip.rules.base import Rule, register


@register
class KindChanges(Rule):
    name = "kind_changes"
    params_doc: ClassVar[dict[str, str]] = {
        "from": "the unit kind that changes", "to": "the kind it becomes"}

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.kinds = []
        for name in ("from", "to"):
            k = self.param(name, "")
            if k not in variant.unit_kinds:
                raise VariantError(f"{variant.path}: [{key}] {name} = {k!r}: a unit kind "
                                   f"({', '.join(variant.unit_kinds)})")
            self.kinds.append(k)

    def refuse(self, m: Any, unit: Any, order: Any) -> str | None:
        a, b = (m.kind_index[k] for k in self.kinds)
        if (order.type != MOVE or unit.kind != a or order.target is None
                or _reaches(m, a, unit.loc, order.target)
                or not m.occupy[b][unit.loc] or not _reaches(m, b, unit.loc, order.target)):
            return None
        return (f"a {m.kind_names[a]} cannot move there, a {m.kind_names[b]} could: a "
                f"{m.kind_names[a]} becoming a {m.kind_names[b]} on the way is not supported "
                "yet")


def _reaches(m: Any, kind: int, loc: int, target: int) -> bool:
    """A unit of `kind` on `loc` moves over an edge into the province of `target`."""
    return m.loc_prov[target] in m.reach_prov[kind][loc]
