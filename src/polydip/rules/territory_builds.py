"""Builds off the centers, on a power's starting territory: anywhere in it in the game's first
phase, and one build in years ending 0 or 5 while the power holds its capital.

Latin American Diplomacy (seed 001, rule 7.A): "The first turn of the game will be a Phase D
turn ... those powers with Capital Centers showing on the map may build a unit on any space
which belongs to their power, including Island Provinces." "After this, on D Phases in years
ending in -5 and -0, All powers who continue to control their capital centres will be
allowed to make ONE build earned on any province which they occupied at the beginning of the
game unless: a) it is presently occupied by any unit; or b) it is a province with a supply
center that is no longer under the control of that power. This INCLUDES the imperial powers
... these powers will never lose the ability". Rule 7.C, outposts: "that power may build on
it SO LONG AS NO OTHER POWER CONTROLS IT (see Rule 7.A.ii above)."

[rules.territory_builds]
first_phase = true         # the game's first phase: any vacant province of the territory
years_ending = [0, 5]      # the years (last digit) of the builds off the centers
per_phase = 1              # how many builds may go off the usual sites then (default 1)
capital = "capital"        # the supply-center kind of capitals (default "capital")

Left out, first_phase is false and years_ending empty: the rule changes nothing.

A power's territory is `territory` in [[powers]]. A site off the centers is a province of it
that no unit occupies and that is not a center another power owns (an outpost nobody owns
qualifies; a home center lost to another power does not). A power holds its capital when it
owns every center of that kind among its home centers; a power with none on the map (the
imperial powers) always does. In the first phase only powers with a capital build there.
The builds themselves are earned as usual, centers counted by value (a capital counts 2).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.errors import VariantError
from polydip.rules.base import Rule, register
from polydip.rules.params import Param
from polydip.variants.calendar import parse_phase

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant


@register
class TerritoryBuilds(Rule):
    name = "territory_builds"
    summary = (
        "builds on a power's `territory`: anywhere in it (vacant) in the game's first phase "
        "for a power with a capital; in years ending in the digits given, `per_phase` builds "
        "on a vacant province of it that no other power owns, while the power holds its "
        "capital (or has none on the map) (7.A, 7.C)"
    )
    parameters = (
        Param("first_phase", "boolean", "builds anywhere in the territory in the game's first "
              "phase", default=False, example="true"),
        Param("years_ending", "integers", "last digits of the years with builds off the "
              "centers", default=[], minimum=0, maximum=9, example="[0, 5]"),
        Param("per_phase", "integer", "builds that may go off the centers then", default=1,
              minimum=0),
        Param("capital", "string", "the supply-center kind of capitals", default="capital"),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.first_phase = bool(self.param("first_phase"))
        self.years = self.param("years_ending")
        self.per_phase = self.param("per_phase")
        self.capital = self.param("capital")
        for p in variant.powers:
            for t in p.territory:
                if t not in variant.provinces:
                    raise VariantError(f"{variant.path}: [{key}] territory of {p.name}: "
                                       f"unknown province {t!r}")
        self.start = parse_phase(variant.calendar, variant.calendar.start)

    def _capitals(self, m: Map, power: int) -> list[int]:
        return [h for h in m.homes[power] if m.sc_kind[h] == self.capital]

    def _territory(self, m: Map, pos: Position, power: int) -> list[int]:
        """Vacant provinces of the power's territory that no other power owns."""
        occupied = {m.loc_prov[u.loc] for u in pos.units}
        out = []
        for abbr in m.variant.powers[power].territory:
            p = m.prov_index[abbr]
            if p not in occupied and pos.owners[p] in (-1, power):
                out.append(p)
        return out

    def build_sites(self, m: Map, pos: Position, power: int) -> list[int] | None:
        if not (self.first_phase and pos.phase == self.start and self._capitals(m, power)):
            return None
        occupied = {m.loc_prov[u.loc] for u in pos.units}
        homes = pos.homes[power] if pos.homes else m.homes[power]
        sites = [p for p in homes if pos.owners[p] == power and p not in occupied]
        return sites + [p for p in self._territory(m, pos, power) if p not in sites]

    def extra_build_sites(self, m: Map, pos: Position, power: int) -> list[tuple[list[int], int]]:
        if pos.phase.year % 10 not in self.years or (self.first_phase and pos.phase == self.start):
            return []
        if any(pos.owners[c] != power for c in self._capitals(m, power)):
            return []  # the capital is lost: no builds off the centers
        sites = self._territory(m, pos, power)
        return [(sites, self.per_phase)] if sites and self.per_phase > 0 else []
