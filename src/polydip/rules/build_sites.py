"""Where a power may build (the `build_sites` hook).

[rules.build_sites]
policy = "home"                  # standard: vacant home centers the power owns
policy = "owned_at_year_start"   # any vacant center the power owned when the year began and
                                 # still owns (the Chaos rule; War in the Americas)
policy = "owned"                 # any vacant center the power owns now
policy = "any_home"              # any vacant center the power owns that is a home center of
                                 # some power (DPjudge's HOME_BUILDS: "players may build in
                                 # any owned center that was an original home center for any
                                 # of the powers in the game"; Imperial)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant

POLICIES = ("home", "owned_at_year_start", "owned", "any_home")


@register
class BuildSites(Rule):
    name = "build_sites"
    summary = "where builds go"
    parameters = (
        Param("policy", "string", "where a power builds: its owned home centers (home), any "
              "center it owned when the year began and still owns (owned_at_year_start: "
              "Chaos, War in the Americas), any center it owns (owned), an owned home center "
              "of any power (any_home: DPjudge's HOME_BUILDS, Imperial)", default="home",
              choices=POLICIES),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.policy = self.param("policy")

    def build_sites(self, m: Map, pos: Position, power: int) -> list[int] | None:
        if self.policy == "home":
            return None
        occupied = {m.loc_prov[u.loc] for u in pos.units}
        owners = pos.owners
        if self.policy == "any_home":
            homes = {p for lst in m.homes for p in lst}
            return [p for p in m.sc_list
                    if owners[p] == power and p in homes and p not in occupied]
        if self.policy == "owned":
            start = owners
        else:
            start = pos.year_start_owners if pos.year_start_owners is not None else owners
        return [p for p in m.sc_list
                if owners[p] == power and start[p] == power and p not in occupied]
