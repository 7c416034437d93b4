"""Spaces with no stacking limit, where units never bounce and cannot be dislodged.

War in North America's Cape Horn (seed 004): "Es gibt kein Limit der einziehenden Flotten,
es kann auch kein Bounce entstehen. Verfeindete Flotten können in diesem Gebiet stehen, man
kann keine Flotte aus Cape Horn vertreiben. Flotten können nicht am Einzug in Cape Horn
gehindert werden, auch nicht durch entgegen kommende Flotten." (no limit on fleets entering,
no bounce; hostile fleets may stand there together; no fleet can be dislodged from it; no
fleet can be kept from entering, not even by a fleet coming the other way.)
"Flotten können beim Auszug der Flotten in den Atlantik und in der Pazifik unterstützt
werden. Armeen können über Cape Horn transportiert werden" (fleets leaving may be supported;
armies may be convoyed through it).

[rules.open_spaces]
provinces = ["CHO"]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.variants.model import Variant


@register
class OpenSpaces(Rule):
    name = "open_spaces"
    summary = "no stacking limit, no bounce, no dislodgement (Cape Horn)"
    parameters = (
        Param("provinces", "strings", "the open spaces", default=[], refers="province",
              example='["CHO"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.provinces = list(self.param("provinces"))

    def open_spaces(self) -> set[str]:
        return set(self.provinces)
