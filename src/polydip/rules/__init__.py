"""Rule modules: one module per rule idea, switched on and parameterised by the variant file.

A variant lists its rules under `[rules.NAME]`; `compile_rules` instantiates the registered
class for each NAME with the table as parameters. The adjudicator and the game call the
hooks of the resulting RuleSet; a hook no rule implements has the standard behaviour. No
rule module knows a variant by name.
"""

from __future__ import annotations

from typing import Any

from polydip.errors import VariantError, did_you_mean
from polydip.rules.base import Rule, RuleSet

_REGISTRY: dict[str, type[Rule]] = {}


def register(cls: type[Rule]) -> type[Rule]:
    _REGISTRY[cls.name] = cls
    return cls


def known_rules() -> list[str]:
    _load_all()
    return sorted(_REGISTRY)


def _load_all() -> None:
    # importing the modules registers their classes
    from polydip.rules import (  # noqa: F401
        build_sites,
        capture_home,
        controlled_passages,
        events,
        neutral_units,
        no_swap,
        open_spaces,
    )


def compile_rules(variant: Any) -> RuleSet:
    _load_all()
    rules = []
    for name, params in variant.rules.items():
        cls = _REGISTRY.get(name)
        if cls is None:
            raise VariantError(f"{variant.path}: [rules.{name}] unknown rule"
                               + did_you_mean(name, _REGISTRY)
                               + f"; known rules: {', '.join(sorted(_REGISTRY))}")
        rules.append(cls(params, variant, f"rules.{name}"))
    return RuleSet(rules)


__all__ = ["Rule", "RuleSet", "compile_rules", "known_rules", "register"]
