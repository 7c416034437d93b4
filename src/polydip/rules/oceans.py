"""Oceans: spaces where any number of units stand and meet only through attack orders.

Latin American Diplomacy (seed 001, rule 5.F.i): "there is no limit to how many Fleets may
enter an Ocean Province." "Any Fleet ordered into an Ocean Province will not come into
conflict with other fleets unless specifically ordered to attack the fleets of another power,
or when (a) fleet(s) of another power are specifically ordered to attack that fleet."
"Your attack must have an attack strength 3 greater than the opposing powers fleet" (to
force a disband). "NOTE also that the attacking F does not have to be moving into the space
to make the attack." "bounces occur in Ocean Provinces the same as in other provinces, but
only when an attack is ordered by one side or the other."

[rules.oceans]
provinces = "ocean"        # tag of the ocean provinces
disband_margin = 3         # a unit beaten by an attack this much stronger is disbanded

The orders (orders/attack.py): "F MAO - EAO AT BRAZIL" moves into the ocean and attacks
Brazil's units there; "F PBS AT PERU" attacks them without moving. How a battle in an ocean
is judged (adjudication/attacks.py, AttackMovement; docs/variant-format.md):
- Two units in (or entering) an ocean are hostile when one of them attacks the other's
  power there. Only hostile units meet; every other unit comes and goes as it pleases.
- A unit entering an ocean enters unless a hostile unit there is at least as strong: the
  strength of a unit entering is 1 plus its move's supports, of a unit staying 1 plus its
  supports to hold (a stationary attack is supported like a hold), of a unit that failed
  to leave 1. An attack does not count the supports of the power it attacks.
- A unit staying in an ocean is dislodged by an attack on its power that entered, or by a
  stationary attack stronger than it. Beaten by an attack at least `disband_margin`
  stronger, it is disbanded instead of retreating.
- A support given in an ocean is cut by an attack on the supporter's power there, except by
  the power its own supported attack in that ocean attacks (the seed's Peru Basin example);
  moves that attack nobody there cut nothing.
Nothing is dislodged, nobody bounces and no support is cut in an ocean without an attack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.variants.model import Variant


@register
class Oceans(Rule):
    name = "oceans"
    summary = (
        "any number of units stand in these provinces and meet only through attack orders (`F "
        "MAO - EAO AT BRAZIL`, `F PBS AT PERU`); a unit beaten there by an attack "
        "`disband_margin` stronger is disbanded (Latin American Diplomacy 5.F.i; see \"Attack "
        "orders\" below)"
    )
    parameters = (
        Param("provinces", "string", "tag of the ocean provinces", required=True, refers="tag",
              example='"ocean"'),
        Param("disband_margin", "integer", "a unit beaten by an attack this much stronger is "
              "disbanded (0: beaten units always retreat)", default=3, minimum=0),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        tag = self.param("provinces")
        self.provinces = [a for a, p in variant.provinces.items() if tag in p.tags]
        self.margin = self.param("disband_margin") or None

    def attack_spaces(self) -> set[str]:
        return set(self.provinces)

    def rout_margin(self) -> int | None:
        return self.margin
