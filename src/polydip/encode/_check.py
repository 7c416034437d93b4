"""What every encoder checks before reading: a position is one of its map; an order code
given for a unit is an order of that unit."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, HOLD, MOVE, SUPPORT, Order
from polydip.orders.table import OrderTable
from polydip.state import Position, Unit

# a movement order's type -> its place among the order-type features (hold, move, support,
# convoy), in DipNet's order and the general encoding's alike
ORDER_TYPES: dict[str, int] = {HOLD: 0, MOVE: 1, SUPPORT: 2, CONVOY: 3}


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


def given_orders(m: Map, table: OrderTable, pos: Position, codes: Sequence[int],
                 kinds: dict[str, int], holder: list[int], none: int
                 ) -> Iterator[tuple[Order, Unit, int, int, int]]:
    """Each unit's order of `codes` (-1: none, skipped), checked (unit_order), with its
    type's column in `kinds` and the powers at its source and destination (`holder`: per
    province the power there, `none` for nobody) — what a previous-orders encoding writes."""
    for u, code in zip(pos.units, codes, strict=True):
        if code < 0:
            continue
        o = unit_order(m, table, code, u, kinds)
        source = dest = none
        if o.type != HOLD and o.aux_loc is not None:
            source = holder[m.loc_prov[o.aux_loc]]
        if o.target is not None:
            dest = holder[m.loc_prov[o.target]]
        yield o, u, kinds[o.type], source, dest
