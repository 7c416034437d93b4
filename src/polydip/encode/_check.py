"""What every encoder checks before reading: a position is one of its map; an order code
given for a unit is an order of that unit."""

from __future__ import annotations

from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.orders.model import Order
from polydip.orders.table import OrderTable
from polydip.state import Position, Unit


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


def unit_order(m: Map, table: OrderTable, code: int, u: Unit, kinds: dict[str, int]) -> Order:
    """The order of code `code` given to unit `u`, whose type `kinds` (a movement order type
    -> its column) knows; a PolydipError when the code is not in the table, not an order of
    a movement phase, or not an order of that unit."""
    if code >= table.size:
        raise PolydipError(f"order code {code} is not in this map's table "
                           f"(0..{table.size - 1})")
    o = table.orders[code]
    if o.type not in kinds or o.kind is None:
        raise PolydipError(f"{o.text!r} is not an order of a movement phase")
    if o.loc != u.loc or o.kind != u.kind:
        raise PolydipError(f"{o.text!r} is not an order of the unit "
                           f"{m.unit_str(u.kind, u.loc)}")
    return o
