"""The compile step above geography and rules: a Variant becomes a Map (geography:
ids, adjacency, convoy geometry, names; geography/map.py) with the variant's rules
(`m.rules`, the RuleSet the engine asks) and the tables they make of the map (`m.tables`,
rules/tables.py) attached. geography imports nothing of rules; this module joins them.
"""

from __future__ import annotations

from polydip.geography.map import Map
from polydip.rules import compile_rules
from polydip.rules.tables import RuleTables
from polydip.variants.model import Variant


def compile_variant(variant: Variant) -> Map:
    """A new Map of `variant`, its rules and their tables attached (errors in the rules'
    parameters are VariantErrors naming the key)."""
    m = Map(variant)
    m.rules = compile_rules(variant)
    m.tables = RuleTables(m, m.rules)
    m.compiled_by = compile_map
    return m


def compile_map(variant: Variant) -> Map:
    """Compile (once per Variant object) and return its Map, kept on the variant
    (`Variant.compiled`): no table of maps outlives their variants."""
    m: Map | None = variant.compiled
    if m is None or m.variant is not variant:
        m = compile_variant(variant)
        variant.compiled = m
    return m
