"""Importers: read other tools' variant files into polydip's Variant.

    import_variant("standard.map")          DPjudge / diplomacy package map files
    import_variant("americas4.cfg")         Parlance / Parterre variant files

A malformed file raises VariantError naming the file, the line and the problem; something the
file uses that polydip cannot represent raises NotSupportedError naming it. The Variant's
`notes` say what was imported, from where, and what was left out (never a rule).
`polydip.variants.writer.variant_to_toml` writes the result as a polydip variant file.
"""

from __future__ import annotations

from pathlib import Path

from polydip.errors import NotSupportedError, VariantError
from polydip.variants.importers.dpjudge import import_map
from polydip.variants.importers.parlance import import_cfg
from polydip.variants.model import Variant
from polydip.variants.search import search_path as search

SUFFIXES = {".map": "DPjudge / diplomacy package map", ".cfg": "Parlance / Parterre variant"}


def import_variant(path: str | Path, search_path: list[str | Path] | None = None) -> Variant:
    """Read a `.map` or `.cfg` variant file into a Variant.

    `search_path`: further folders where files the variant includes are looked for
    (`USE x.map`, `MAP x`, `base=x`), after the folder of the including file; then those
    of the command line, POLYDIP_VARIANT_PATH, Parlance's data and the diplomacy package's
    maps (variants/search.py).
    """
    folders = search(search_path)
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in SUFFIXES:
        known = ", ".join(f"{s} ({what})" for s, what in SUFFIXES.items())
        raise NotSupportedError(f"{p}: cannot import {suffix or 'files without a suffix'}: "
                                f"polydip imports {known}")
    if not p.is_file():
        raise VariantError(f"{p}: no such file")
    if suffix == ".map":
        return import_map(p, folders)
    return import_cfg(p, folders)


__all__ = ["SUFFIXES", "import_variant"]
