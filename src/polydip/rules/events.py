"""Scheduled events: changes that happen when the game reaches a given season and year.

A `join` moves a province — its center and the units in it — from one power to another if
the first still owns it then (War in North America: "Wurde das russische Alaska bis zum
Winter 1867 nicht erobert, so schließt sich dieses Gebiet automatisch den Vereinigten
Staaten von Amerika an. Die neutrale Armee in Alaska steht dann unter der Flagge der
Vereinigten Staaten!").

[[rules.events.join]]
at = "W1867"              # season abbreviation + year: fires as the game reaches it
province = "ALA"
from = "Neutral"
to = "United States"
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Phase, Position
    from polydip.variants.model import Variant

_AT = re.compile(r"^([A-Za-z]+)(\d+)$")


@register
class Events(Rule):
    name = "events"
    summary = "scheduled changes"
    parameters = (
        Param("join", "tables", "an unconquered province and its units change sides",
              default=[], example='[{at = "W1867", province = "ALA", from = "Russia", '
                                  'to = "United States"}]',
              fields=(
                  Param("at", "string", "the phase, season and year (W1867)", required=True),
                  Param("province", "string", "the province", required=True,
                        refers="province"),
                  Param("from", "string", "the power it leaves", required=True,
                        refers="power"),
                  Param("to", "string", "the power it joins", required=True, refers="power"))),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.joins = []
        seasons = {s.abbr for s in variant.calendar.seasons}
        for i, ev in enumerate(self.param("join")):
            k = f"{key}.join[{i}]"
            mt = _AT.match(str(ev["at"]))
            if not mt or mt.group(1) not in seasons:
                raise VariantError(f"{variant.path}: [{k}] at = {ev['at']!r}: write season "
                                   f"and year, like W1867 (seasons: {', '.join(seasons)})")
            self.joins.append((f"join {ev['province']} {ev['at']}", mt.group(1),
                               int(mt.group(2)), ev["province"], ev["from"], ev["to"]))

    def before_phase(self, m: Map, pos: Position, phase: Phase) -> list[str | R.Reason]:
        # the game reaches each phase once: an event fires once, on its date
        out: list[str | R.Reason] = []
        for _ev_id, season, year, prov_abbr, frm, to in self.joins:
            if (phase.year, phase.season) != (year, season):
                continue
            prov = m.prov_index[prov_abbr]
            a, b = m.power_of(frm), m.power_of(to)
            owner = pos.owners[prov] if m.is_sc[prov] else a
            if owner != a:
                out.append(R.reason(R.JOIN_FAILED,
                                    f"{prov_abbr} was conquered: it does not join {to}"))
                continue
            if m.is_sc[prov]:
                pos.owners[prov] = b
            pos.units = [u.but(power=b) if u.power == a and m.loc_prov[u.loc] == prov
                         else u for u in pos.units]
            out.append(R.reason(R.PROVINCE_JOINS, f"{prov_abbr} joins {to}"))
        return out
