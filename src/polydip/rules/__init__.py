"""Rule modules: one module per rule idea, switched on and parameterised by the variant file.

A variant lists its rules under `[rules.NAME]`; `compile_rules` instantiates the registered
class for each NAME with the table as parameters. The adjudicator and the game call the
hooks of the resulting RuleSet (declared in `hookspec.py`); a hook no rule implements has the
standard behaviour. No rule module knows a variant by name.

Every module of this package but the ones of INFRASTRUCTURE holds one rule and is found by
listing the package (pkgutil): a new rule is a new module, no list to keep.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING, Final

from polydip.errors import VariantError, did_you_mean
from polydip.rules.base import REGISTRY, Rule, RuleSet, register

if TYPE_CHECKING:
    from polydip.variants.model import Variant

# the modules that hold no rule: the contract and its helpers
INFRASTRUCTURE: Final = frozenset({"base", "hookspec", "params", "docs", "tables"})


def _discover() -> None:
    """Import every rule module of the package (importing one registers its class)."""
    for info in pkgutil.iter_modules(__path__):
        if info.name not in INFRASTRUCTURE:
            importlib.import_module(f"{__name__}.{info.name}")


_discover()


def known_rules() -> list[str]:
    return sorted(REGISTRY)


def compile_rules(variant: Variant) -> RuleSet:
    rules = []
    for name, params in variant.rules.items():
        cls = REGISTRY.get(name)
        if cls is None:
            raise VariantError(f"{variant.path}: [rules.{name}] unknown rule"
                               + did_you_mean(name, REGISTRY)
                               + f"; known rules: {', '.join(sorted(REGISTRY))}")
        rules.append(cls(params, variant, f"rules.{name}"))
    return RuleSet(rules)


__all__ = ["INFRASTRUCTURE", "Rule", "RuleSet", "compile_rules", "known_rules", "register"]
