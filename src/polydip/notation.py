"""Units, places and powers written as text, read into map ids: "A PAR", "F STP/SC",
"Fleet St Petersburg (sc)", "France" or "F".

The one reader of positions written by hand or by other tools: one-shot requests, saved
games, the diplomacy package's files and variant files' starting units all go through it.
Every problem is a NotationError naming the text and what is wrong with it.
"""

from __future__ import annotations

from typing import Any

from polydip.errors import PolydipError, did_you_mean
from polydip.geography.map import Map


class NotationError(PolydipError):
    """Text that does not name a unit, a place or a power of the map."""


def power_index(m: Map, name: Any) -> int:
    """A power by its name or its letter, in any case."""
    if not isinstance(name, str):
        raise NotationError(f"a power name must be a string, not {name!r}")
    got = m.find_power(name)
    if got is not None:
        return got
    raise NotationError(f"unknown power {name!r}" + did_you_mean(name, m.powers))


def parse_unit(m: Map, text: Any) -> tuple[int, int]:
    """'A PAR' / 'F STP/SC' / 'Fleet St Petersburg (sc)' → (kind, location)."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError(f"a unit is written like \"A PAR\", not {text!r}")
    parts = text.strip().split(None, 1)
    if len(parts) != 2:
        raise NotationError(f"unit {text!r}: write the kind and the place, like \"A PAR\"")
    word, place = parts
    kind = None
    for k, letter in enumerate(m.kinds):
        if word.upper() == letter or word.lower() == m.kind_names[k]:
            kind = k
    if kind is None:
        raise NotationError(f"unit {text!r}: unknown unit kind {word!r} "
                            f"(kinds: {', '.join(m.kinds)})")
    place = place.replace("(", "/").replace(")", "").strip()
    try:
        loc = m.loc_of(place)
    except KeyError:
        raise NotationError(f"unit {text!r}: unknown place {place!r}"
                            + did_you_mean(place.split("/")[0], m.prov_abbr + m.prov_name)
                            ) from None
    where = m.unit_loc(kind, loc)
    if where < 0:
        coasts = ", ".join(m.loc_name[c] for c in m.prov_coast_locs[m.loc_prov[loc]])
        raise NotationError(f"unit {text!r}: say which coast ({coasts})")
    if not m.occupy[kind][where]:
        kind_name = m.kind_names[kind]
        raise NotationError(f"unit {text!r}: {'an' if kind_name[0] in 'aeiou' else 'a'} "
                            f"{kind_name} cannot stand in {m.prov_name[m.loc_prov[where]]}")
    return kind, where


def parse_province(m: Map, text: Any, what: str) -> int:
    """A province by abbreviation or name (a coast names its province); `what` says where
    the text comes from, for the error."""
    if not isinstance(text, str):
        raise NotationError(f"{what}: a province is a string, not {text!r}")
    try:
        return m.loc_prov[m.loc_of(text)]
    except KeyError:
        raise NotationError(f"{what}: unknown province {text!r}"
                            + did_you_mean(text, m.prov_abbr + m.prov_name)) from None
