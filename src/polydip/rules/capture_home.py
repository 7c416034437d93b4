"""A power's first captured center among some candidates becomes a home — the only place
it may build units of the given kind.

War in North America (seed 004): "Um Flotten aufbauen zu können, muss die Indianer
Föderation (Native Federation) Boston oder California erobern. Das erstbesetzte VZ wird zum
Heimat-VZ. Nur in diesem VZ können Flotten gebaut werden." (To build fleets the Native
Federation must conquer Boston or California. The first one taken becomes a home center.
Fleets can only be built there.) Two candidates taken in the same year: the first listed.
Latin American Diplomacy (seed 001, rule 7.B): Antofagasta, Chile's home center at the
start, "if [Bolivia] can reclaim Antofagasta, in this game it can use Antofagasta as a Home
Center, and thus build a fleet to put out to sea" (kind = "any": a home like any other).

[rules.capture_home]
power = "Native Federation"
candidates = ["BOS", "CAL"]
kind = "F"                 # the only place this power may build this kind (the default);
                           # "any": the center simply becomes a home, for every kind
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant


@register
class CaptureHome(Rule):
    name = "capture_home"
    summary = (
        "a power's first captured candidate center becomes its home: the only one where it "
        "may build a unit of `kind` (War in North America's fleets), or with `kind = \"any\"` a "
        "home like any other (Latin American Diplomacy's Antofagasta, 7.B)"
    )
    parameters = (
        Param("power", "string", "the power", required=True, refers="power"),
        Param("candidates", "strings", "its candidate supply centers, in order of preference",
              default=[], example='["BOS", "CAL"]'),
        Param("kind", "string", "the unit kind buildable only there, or any (a home like "
              "any other)", default="F", refers="unit_kind", also=("any",)),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.power = self.param("power")
        self.candidates = list(self.param("candidates"))
        for c in self.candidates:
            if c not in variant.provinces or not variant.provinces[c].supply_center:
                raise VariantError(f"{variant.path}: [{key}] {c!r} is not a supply center")
        self.kind = self.param("kind")

    def centers_changed(self, m: Map, pos: Position) -> None:
        if pos.extra.get(self.name, {}).get(self.power):
            return
        p = m.power_of(self.power)
        for c in self.candidates:
            prov = m.prov_index[c]
            if pos.owners[prov] == p:
                pos.extra.setdefault(self.name, {})[self.power] = c
                if pos.homes and prov not in pos.homes[p]:
                    pos.homes[p] = (*pos.homes[p], prov)
                return

    def events(self, m: Map, before: Position, after: Position) -> list[R.Reason]:
        was = before.extra.get(self.name, {}).get(self.power) if before.extra else None
        now = after.extra.get(self.name, {}).get(self.power) if after.extra else None
        if now is None or now == was:
            return []
        what = (f"the only place it may build {m.kind_names[m.kind_index[self.kind]]}s"
                if self.kind != "any" else "a home center")
        return [R.reason(R.NEW_HOME, f"{m.prov_name[m.prov_index[now]]} ({now}) becomes "
                                     f"{self.power}'s home: {what}")]

    def may_build(self, m: Map, pos: Position, power: int, kind: int, prov: int) -> bool | None:
        if self.kind == "any" or m.powers[power] != self.power or m.kinds[kind] != self.kind:
            return None
        home = pos.extra.get(self.name, {}).get(self.power)
        return home is not None and m.prov_abbr[prov] == home
