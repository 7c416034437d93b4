"""The diplomacy package's own order notation, read directly (compiled with the hot path).

"A PAR - BUR", "A LVP - EDI VIA", "F NTH C A LON - NWY", "A MUN S A BER", "A MUN S A BER -
SIL", "A PAR H", "A IRO R MAO", "F LON D", "A PAR B", "WAIVE": what programs write, split on
spaces and looked up in the map's indexes of kind letters and location names. Anything else
(other case, other words, prose) gives None here and is read by the general reader
(orders/parser.py), which reads these forms to the same orders.

`order_memo` keeps the orders read per map, phase type and text (by this reader or, through
orders/parser.parse_order, by the general one), so the same text recurring phase after phase is
one dictionary lookup.
"""

from __future__ import annotations

from polydip.geography.map import Map
from polydip.orders.model import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    RETREAT,
    SUPPORT,
    WAIVE,
    Order,
)

# the orders read per phase type: how many texts a map keeps before starting afresh
_KEEP = 1 << 16
_MEMO_KEYS = {"M": "orders M", "R": "orders R", "A": "orders A"}


def order_memo(m: Map, phase_type: str) -> dict[str, Order]:
    """The orders read on map `m` for phase type `phase_type`, by text (in `Map.memo`, so
    emptying a map's memo tables empties it too)."""
    key = _MEMO_KEYS.get(phase_type)
    if key is None:
        key = "orders " + phase_type
    got = m.memo.get(key)
    if got is None:
        got = m.memo[key] = {}
    return got


def known_order(memo: dict[str, Order], m: Map, text: str, phase_type: str) -> Order | None:
    """The order `text` means: from `memo` (order_memo), or read in the canonical notation
    and kept there; None when it is not written so (the general reader's turn)."""
    got = memo.get(text)
    if got is None:
        got = read_canonical(m, text, phase_type)
        if got is not None:
            keep_order(memo, text, got)
    return got


def keep_order(memo: dict[str, Order], text: str, order: Order) -> None:
    """Keep the order `text` was read as in `memo` (order_memo), which is emptied when full."""
    if len(memo) >= _KEEP:
        memo.clear()
    memo[text] = order


def read_canonical(m: Map, text: str, phase_type: str) -> Order | None:
    """The order `text` in the diplomacy package's notation; None for anything else."""
    t = text.split()
    n = len(t)
    if n == 1:
        return Order(WAIVE, text=text) if t[0] == "WAIVE" else None
    if n < 3:
        return None
    kinds, locs = m.kind_index, m.loc_index
    k = kinds.get(t[0])
    loc = locs.get(t[1])
    if k is None or loc is None:
        return None
    verb = t[2]
    if n == 3:
        if verb == "H" and phase_type == "M":
            return Order(HOLD, kind=k, loc=loc, text=text)
        if verb == "D" and phase_type != "M":
            return Order(DISBAND, kind=k, loc=loc, text=text)
        if verb == "B" and phase_type == "A":
            return Order(BUILD, kind=k, loc=loc, text=text)
        return None
    if verb == "-" and phase_type == "M" and (n == 4 or n == 5):
        dest = locs.get(t[3])
        if dest is None or (n == 5 and t[4] != "VIA"):
            return None
        return Order(MOVE, kind=k, loc=loc, target=dest, via=n == 5, text=text)
    if verb == "R" and phase_type == "R" and n == 4:
        dest = locs.get(t[3])
        return None if dest is None else Order(RETREAT, kind=k, loc=loc, target=dest, text=text)
    if (verb == "S" or verb == "C") and phase_type == "M" and (n == 5 or n == 7):
        k2, loc2 = kinds.get(t[3]), locs.get(t[4])
        if k2 is None or loc2 is None:
            return None
        target = None
        if n == 7:
            target = locs.get(t[6])
            if t[5] != "-" or target is None:
                return None
        elif verb == "C":
            return None
        return Order(SUPPORT if verb == "S" else CONVOY, kind=k, loc=loc, target=target,
                     aux_kind=k2, aux_loc=loc2, text=text)
    return None
