"""Neutral units: units of a power with no player (`neutral = true` in [[powers]]).

They always hold (orders for them are refused), may be supported like any unit, and are
disbanded instead of retreating — unless they stand in one of `retreat_to_free_center`,
whose unit retreats to a free (vacant) supply center it could otherwise retreat to, or is
disbanded when there is none (War in North America: the Alaskan army).

[rules.neutral_units]
retreat_to_free_center = ["ALA"]   # provinces whose neutral unit retreats (default: none)
"""

from __future__ import annotations

from typing import Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.orders.model import RETREAT, Order
from polydip.rules.base import Rule, register
from polydip.rules.params import Param


@register
class NeutralUnits(Rule):
    name = "neutral_units"
    summary = (
        "units of `neutral = true` powers always hold, may be supported, are disbanded "
        "instead of retreating"
    )
    parameters = (
        Param("retreat_to_free_center", "strings", "provinces whose neutral unit retreats to a "
              "free center (War in North America's Alaskan army)", default=[],
              refers="province", example='["ALA"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Any, key: str) -> None:
        super().__init__(params, variant, key)
        self.retreating = set(self.param("retreat_to_free_center"))
        if not any(pw.neutral for pw in variant.powers):
            raise VariantError(f"{variant.path}: [{key}] no power has neutral = true")

    reasons: ClassVar[dict[str, tuple[str, str]]] = {
        "unit_holds": (R.NEUTRAL_DISBANDS, "a neutral unit takes no orders and is disbanded "
                                           "instead of retreating")}

    def events(self, m: Any, before: Any, after: Any) -> list[R.Reason]:
        """The neutral units that were on the board (or dislodged) and are no more."""
        gone = [u for u in [*before.units, *before.dislodged] if m.power_neutral[u.power]]
        if not gone:
            return []
        standing = {(u.kind, u.loc) for u in [*after.units, *after.dislodged]}
        # (a neutral unit that retreated stands elsewhere: one new neutral unit each)
        moved = [u for u in after.units if m.power_neutral[u.power]
                 and (u.kind, u.loc) not in {(g.kind, g.loc) for g in gone}]
        out = []
        for u in gone:
            if (u.kind, u.loc) in standing:
                continue  # still there (or joined a power where it stands)
            twin = next((x for x in moved if (x.power, x.kind) == (u.power, u.kind)), None)
            if twin is not None:
                moved.remove(twin)
                continue
            out.append(R.reason(R.NEUTRAL_DISBANDED,
                                f"the neutral {m.unit_str(u.kind, u.loc)} is disbanded"))
        return out

    def unit_holds(self, m: Any, pos: Any, unit: Any) -> bool:
        return m.power_neutral[unit.power]

    def retreat(self, m: Any, pos: Any, d: Any) -> Any:
        if not m.power_neutral[d.power]:
            return d
        home = m.prov_abbr[m.loc_prov[d.loc]]
        if home not in self.retreating:
            return d.but(retreats=())  # disbanded instead of retreating
        return d.but(retreats=tuple(r for r in d.retreats if m.is_sc[m.loc_prov[r]]))

    def retreat_orders(self, m: Any, pos: Any) -> dict[int, list[Any]]:
        """A dislodged neutral unit with somewhere to go retreats to the first free center
        in alphabetical order (the others, unordered, are disbanded)."""
        out: dict[int, list[Any]] = {}
        for d in pos.dislodged:
            if m.power_neutral[d.power] and d.retreats:
                dest = min(d.retreats, key=lambda r: m.loc_name[r])
                unit = m.unit_str(d.kind, d.loc)  # the text names the order (describe's key)
                out.setdefault(d.power, []).append(Order(
                    RETREAT, kind=d.kind, loc=d.loc, target=dest,
                    text=f"{unit} R {m.loc_name[dest]}"))
        return out
