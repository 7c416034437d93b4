"""Rule modules: one module per rule idea, switched on and parameterised by the variant file.

A variant lists its rules under `[rules.NAME]`; `compile_rules` instantiates the registered
class for each NAME with the table as parameters. The adjudicator and the game call the
hooks of the resulting RuleSet; a hook no rule implements has the standard behaviour. No
rule module knows a variant by name.
"""

from __future__ import annotations

from typing import Any

from polydip.errors import VariantError, did_you_mean

# importing a rule module registers its class: every module is imported here
from polydip.rules import (  # noqa: F401
    build_sites,
    capture_home,
    controlled_passages,
    deserts,
    events,
    mountains,
    neutral_units,
    no_swap,
    open_spaces,
    rainforests,
    supported_crossings,
    swamps,
    territory_builds,
    vacant_crossings,
    weak_crossings,
)
from polydip.rules.base import REGISTRY, Rule, RuleSet, register


def known_rules() -> list[str]:
    return sorted(REGISTRY)


def compile_rules(variant: Any) -> RuleSet:
    rules = []
    for name, params in variant.rules.items():
        cls = REGISTRY.get(name)
        if cls is None:
            raise VariantError(f"{variant.path}: [rules.{name}] unknown rule"
                               + did_you_mean(name, REGISTRY)
                               + f"; known rules: {', '.join(sorted(REGISTRY))}")
        rules.append(cls(params, variant, f"rules.{name}"))
    return RuleSet(rules)


__all__ = ["Rule", "RuleSet", "compile_rules", "known_rules", "register"]
