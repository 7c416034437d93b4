"""Pairs of provinces between which two units can never swap places.

War in North America (seed 004): "Die roten Balken auf der Karte stellen Landbrücken dar
und können von Armeen und Flotten gleichermaßen genutzt werden. Ein Platzwechsel mit der
jeweils gegenüber liegenden Einheit ist nicht möglich." (The red bars are land bridges, used
by armies and fleets alike. Swapping places with the unit opposite is not possible.)

Without a convoy, two units moving against each other already meet head to head and cannot
swap. This rule also makes a convoyed move across the pair a head-to-head battle, so no
convoy can carry a swap over the bridge either.

[rules.no_swap]
pairs = ["ALA-NWT"]
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.errors import VariantError
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.variants.model import Variant


@register
class NoSwap(Rule):
    name = "no_swap"
    summary = "units never swap across these pairs, not even by convoy (land bridges)"
    parameters = (
        Param("pairs", "strings", 'province pairs, "X-Y"', default=[], example='["FLA-CUB"]'),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.pairs: list[tuple[str, str]] = []
        for p in self.param("pairs"):
            ends = str(p).split("-")
            a, b = ends if len(ends) == 2 else ("", "")
            if a not in variant.provinces or b not in variant.provinces:
                raise VariantError(f"{variant.path}: [{key}] {p!r}: write two provinces, "
                                   "like \"ALA-NWT\"")
            self.pairs.append((a, b))

    def no_swap_pairs(self) -> set[tuple[str, str]]:
        return set(self.pairs)
