"""Units that share a space: how players tell apart the units of one power in one space.

A LAD ocean or War in North America's Cape Horn holds any number of units, so a province
no longer names one unit. Two ways to order them apart, both typed as players write:

- in order: the first order a message gives for such a space goes to the power's first unit
  there, the second to the second, and so on ("F Peru Basin AT Peru", then three times
  "F Peru Basin S F Peru Basin AT Peru" order four fleets);
- by number: "F Peru Basin #2 - East Pacific Rise" orders the power's second fleet there.
  The number counts the power's units of the kind named in that space, in the order the
  position lists them (the echo of `polydip orders` and the host's page number them the
  same way); without a kind it counts all the power's units there. It follows the unit
  right after its place.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from polydip.geography.map import Map
from polydip.state import Dislodged, Unit

# "#2", "# 2", "no. 2" are not all needed: "#N" is what the docs and the echo write
_INDEX: Final = re.compile(r"\s*#\s*(\d{1,4})\b")


def split_index(text: str) -> tuple[str, str, int]:
    """(the text before the unit number, the text without it, the number) of "F PBS #2 -
    EPR"; (text, text, 0) when it has none."""
    mm = _INDEX.search(text)
    if mm is None:
        return text, text, 0
    before = text[:mm.start()]
    return before, (before + " " + text[mm.end():].lstrip()).strip(), int(mm.group(1))


def number_of(m: Map, units: Sequence[Unit | Dislodged], i: int) -> int:
    """The number of `units[i]` among its power's units of its kind in its province (1, 2,
    ...), or 0 when it is the only one there (no number needed)."""
    u = units[i]
    prov = m.loc_prov[u.loc]
    n = at = 0
    for j, v in enumerate(units):
        if v.power == u.power and v.kind == u.kind and m.loc_prov[v.loc] == prov:
            n += 1
            if j == i:
                at = n
    return at if n > 1 else 0


def numbered(m: Map, units: Sequence[Unit | Dislodged], power: int, kind: int | None,
             prov: int, n: int) -> int:
    """The index in `units` of the power's `n`th unit (of `kind`, when given) in `prov`,
    or -1."""
    seen = 0
    for j, v in enumerate(units):
        if v.power == power and m.loc_prov[v.loc] == prov and (kind is None or v.kind == kind):
            seen += 1
            if seen == n:
                return j
    return -1


def count_in(m: Map, units: Sequence[Unit | Dislodged], power: int, kind: int | None,
             prov: int) -> int:
    """How many units of the power (of `kind`, when given) stand in `prov`."""
    return sum(1 for v in units if v.power == power and m.loc_prov[v.loc] == prov
               and (kind is None or v.kind == kind))


def unit_label(m: Map, units: Sequence[Unit | Dislodged], i: int) -> str:
    """'F PBS #2' for a unit that shares its space with others of its power and kind,
    'F PBS' otherwise."""
    u = units[i]
    n = number_of(m, units, i)
    return m.unit_str(u.kind, u.loc) + (f" #{n}" if n else "")
