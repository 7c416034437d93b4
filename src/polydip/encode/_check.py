"""What every encoder checks of a position before reading it: that it is one of its map."""

from __future__ import annotations

from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.state import Position


def check_position(m: Map, pos: Position) -> None:
    """A PolydipError naming what does not fit when `pos` is not a position of `m` (a
    position of another map, a unit on no location of it)."""
    if len(pos.owners) != m.n_prov:
        raise PolydipError(f"a position of another map: {len(pos.owners)} provinces, "
                           f"{m.variant.name} has {m.n_prov}")
    n_loc, n_kinds, n_powers = m.n_loc, len(m.kinds), len(m.powers)
    for what, units in (("unit", pos.units), ("dislodged unit", pos.dislodged)):
        for u in units:
            if not (0 <= u.loc < n_loc and 0 <= u.kind < n_kinds and 0 <= u.power < n_powers):
                raise PolydipError(f"a {what} that is not one of {m.variant.name}'s: power "
                                   f"{u.power}, kind {u.kind}, location {u.loc}")
    for o in pos.owners:
        if not -1 <= o < n_powers:
            raise PolydipError(f"a center owner that is no power of {m.variant.name}: {o}")
