"""The compile step above geography and rules: a Variant becomes a Map (geography:
ids, adjacency, convoy geometry, names; geography/map.py) with the variant's rules
(`m.rules`, the RuleSet the engine asks) and the tables they make of the map (`m.tables`,
rules/tables.py) attached. geography imports nothing of rules; this module joins them.
"""

from __future__ import annotations

import pickle
from hashlib import blake2b

from polydip.errors import VariantError
from polydip.geography.map import Map
from polydip.rules import compile_rules
from polydip.rules.tables import RuleTables
from polydip.variants.loader import builtin_names, load_builtin
from polydip.variants.model import Variant


def compile_variant(variant: Variant) -> Map:
    """A new Map of `variant`, its rules and their tables attached (errors in the rules'
    parameters are VariantErrors naming the key)."""
    m = Map(variant)
    m.rules = compile_rules(variant)
    m.tables = RuleTables(m, m.rules)
    m.compiled_by = _pickled
    return m


def compile_map(variant: Variant) -> Map:
    """Compile (once per Variant object) and return its Map, kept on the variant
    (`Variant.compiled`): no table of maps outlives their variants."""
    m: Map | None = variant.compiled
    if m is None or m.variant is not variant:
        m = compile_variant(variant)
        variant.compiled = m
    return m


def _pickled(m: Map) -> tuple:
    """What pickle keeps of a compiled map (Map.__reduce__): a reference, read by map_of."""
    return (map_of, (map_ref(m),))


_BUILTIN_PREFIX = "<built-in "
# maps unpickled from a variant other than a built-in one, by the digest of that variant
_BY_DIGEST: dict[bytes, Map] = {}
# built-in maps unpickled, by name (listing the built-in variants is a directory read)
_BUILTIN_MAPS: dict[str, Map] = {}
# the references of the maps last pickled, by id of their variant: (variant, reference)
_REFS: dict[int, tuple[Variant, tuple]] = {}


def map_ref(m: Map) -> tuple:
    """What a pickled map holds: ("builtin", name) for a variant shipped with polydip (the
    very Variant object `load_builtin` gives), else ("variant", digest, pickled variant):
    the BLAKE2b digest of the pickled variant, so that `map_of` compiles each variant once
    per process however many pickles hold it."""
    v = m.variant
    kept = _REFS.get(id(v))
    if kept is not None and kept[0] is v:
        return kept[1]
    path = v.path
    ref: tuple | None = None
    if path.startswith(_BUILTIN_PREFIX) and path.endswith(">"):
        name = path[len(_BUILTIN_PREFIX):-1]
        if name in builtin_names() and load_builtin(name) is v:
            ref = ("builtin", name)
    if ref is None:
        blob = pickle.dumps(v, protocol=pickle.HIGHEST_PROTOCOL)
        ref = ("variant", blake2b(blob, digest_size=16).digest(), blob)
    if len(_REFS) >= 16:
        _REFS.clear()
    _REFS[id(v)] = (v, ref)  # (the variant kept with it: its id is not reused meanwhile)
    return ref


def map_of(ref: tuple) -> Map:
    """The compiled map a `map_ref` names, from this process's caches (a built-in variant
    is loaded and compiled once per process; another variant once per digest)."""
    if not isinstance(ref, tuple) or not ref or ref[0] not in ("builtin", "variant"):
        raise VariantError(f"not a map reference: {str(ref)[:80]}")
    if ref[0] == "builtin":
        name = str(ref[1])
        got = _BUILTIN_MAPS.get(name)
        if got is None:
            got = _BUILTIN_MAPS[name] = compile_map(load_builtin(name))
        return got
    digest: bytes = ref[1]
    got = _BY_DIGEST.get(digest)
    if got is None:
        v = pickle.loads(ref[2])
        if not isinstance(v, Variant):
            raise VariantError("a map reference holds no variant")
        got = compile_map(v)
        if len(_BY_DIGEST) >= 16:
            _BY_DIGEST.clear()
        _BY_DIGEST[digest] = got
    return got
