"""Neutral units: units of a power with no player (`neutral = true` in [[powers]]).

They always hold (orders for them are refused), may be supported like any unit, and are
disbanded instead of retreating — unless they stand in one of `retreat_to_free_center`,
whose unit retreats to a free (vacant) supply center it could otherwise retreat to, or is
disbanded when there is none (War in North America: the Alaskan army).

[rules.neutral_units]
retreat_to_free_center = ["ALA"]   # provinces whose neutral unit retreats (default: none)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.orders.model import RETREAT, Order
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Dislodged, Position, Unit
    from polydip.variants.model import Variant


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

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.retreating = set(self.param("retreat_to_free_center"))
        if not any(pw.neutral for pw in variant.powers):
            raise VariantError(f"{variant.path}: [{key}] no power has neutral = true")

    reasons: ClassVar[dict[str, tuple[R.ReasonCode, str]]] = {
        "unit_holds": (R.NEUTRAL_DISBANDS, "a neutral unit takes no orders and is disbanded "
                                           "instead of retreating")}

    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> R.Reason | None:
        """A dislodged neutral unit of `retreat_to_free_center` is not disbanded for being
        neutral: it had nowhere to go ("Die Armee in Alaska (Ala) versucht sich in ein
        freies VZ zurückzuziehen ... Ist ein Rückzug nicht möglich, so wird die Armee
        aufgelöst"), which the retreat's own reasons say."""
        if hook == "unit_holds" and key and hasattr(key[0], "retreats") \
                and m.prov_abbr[m.loc_prov[key[0].loc]] in self.retreating:
            return None
        return super().explain(m, pos, hook, key, options)

    def events(self, m: Map, before: Position, after: Position) -> list[R.Reason]:
        """The neutral units that were on the board (or dislodged) and are no more."""
        were: list[Unit | Dislodged] = [*before.units, *before.dislodged]
        gone = [u for u in were if m.power_neutral[u.power]]
        if not gone:
            return []
        # a unit of the same kind where it stood is the neutral one, still there or joined
        # to a power (War in North America's Alaska: its power has one unit more) - not a
        # unit of a power that took the place (it has no unit more: it moved there)
        def count(units: list[Unit | Dislodged]) -> dict[int, int]:
            got: dict[int, int] = {}
            for v in units:
                got[v.power] = got.get(v.power, 0) + 1
            return got

        now: list[Unit | Dislodged] = [*after.units, *after.dislodged]
        had, has = count(were), count(now)
        standing = {(v.kind, v.loc): v.power for v in now}
        # (a neutral unit that retreated stands elsewhere: one new neutral unit each)
        moved = [u for u in after.units if m.power_neutral[u.power]
                 and (u.kind, u.loc) not in {(g.kind, g.loc) for g in gone}]
        out = []
        for u in gone:
            there = standing.get((u.kind, u.loc))
            if there is not None and (there == u.power or has.get(there, 0) > had.get(there, 0)):
                continue
            twin = next((x for x in moved if (x.power, x.kind) == (u.power, u.kind)), None)
            if twin is not None:
                moved.remove(twin)
                continue
            out.append(R.reason(R.NEUTRAL_DISBANDED,
                                f"the neutral {m.unit_str(u.kind, u.loc)} is disbanded"))
        return out

    def unit_holds(self, m: Map, pos: Position | None, unit: Unit | Dislodged) -> bool:
        return m.power_neutral[unit.power]

    def retreat(self, m: Map, pos: Position, d: Dislodged) -> Dislodged:
        if not m.power_neutral[d.power]:
            return d
        home = m.prov_abbr[m.loc_prov[d.loc]]
        if home not in self.retreating:
            return d.but(retreats=())  # disbanded instead of retreating
        return d.but(retreats=tuple(r for r in d.retreats if m.is_sc[m.loc_prov[r]]))

    def retreat_orders(self, m: Map, pos: Position) -> dict[int, list[Order]]:
        """A dislodged neutral unit with somewhere to go retreats to the first free center
        in alphabetical order (the others, unordered, are disbanded)."""
        out: dict[int, list[Order]] = {}
        for d in pos.dislodged:
            if m.power_neutral[d.power] and d.retreats:
                dest = min(d.retreats, key=lambda r: m.loc_name[r])
                unit = m.unit_str(d.kind, d.loc)  # the text names the order (describe's key)
                out.setdefault(d.power, []).append(Order(
                    RETREAT, kind=d.kind, loc=d.loc, target=dest,
                    text=f"{unit} R {m.loc_name[dest]}"))
        return out
