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

from typing import Final

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
from polydip.state import PhaseType

# the orders read per phase type: how many texts a map keeps before starting afresh
_KEEP: Final = 1 << 16
# (Final copies: the compiled build reads these as constants, not from a module's dictionary)
_HOLD: Final = HOLD
_MOVE: Final = MOVE
_SUPPORT: Final = SUPPORT
_CONVOY: Final = CONVOY
_RETREAT: Final = RETREAT
_DISBAND: Final = DISBAND
_BUILD: Final = BUILD
_WAIVE: Final = WAIVE


def order_memo(m: Map, phase_type: PhaseType) -> dict[str, Order]:
    """The orders read on map `m` for phase type `phase_type`, by text (in `Map.caches`, so
    emptying a map's caches empties it too)."""
    got = m.caches.orders.get(phase_type)
    if got is None:
        got = m.caches.orders[phase_type] = {}
    return got


def known_order(memo: dict[str, Order], m: Map, text: str, phase_type: PhaseType,
                described: bool = True) -> Order | None:
    """The order `text` means: from `memo` (order_memo), or read in the canonical notation
    and kept there (new_order, which `described` is passed to); None when it is not written
    so (the general reader's turn)."""
    got = memo.get(text)
    return got if got is not None else new_order(memo, m, text, phase_type, described)


def new_order(memo: dict[str, Order], m: Map, text: str, phase_type: PhaseType,
              described: bool = True) -> Order | None:
    """known_order for a text not in `memo`. With `described` a text written exactly as
    Order.format writes its order is also kept as the order's description
    (described_orders), for the phase's results."""
    got, exact = _read(m, text, phase_type, described)
    if got is not None:
        keep_order(memo, text, got)
        if exact:  # the text is the order's own description: no need to write it
            keep_description(described_orders(m), text, got, text)
    return got


def keep_order(memo: dict[str, Order], text: str, order: Order) -> None:
    """Keep the order `text` was read as in `memo` (order_memo), which is emptied when full."""
    if len(memo) >= _KEEP:
        memo.clear()
    memo[text] = order


def described_orders(m: Map) -> dict[str, tuple[Order, str]]:
    """Per map: order text → (the order read from it, the order in diplomacy notation given
    to a unit of the kind and at the location the order names: Order.format). Filled by the
    canonical reader for texts written exactly so, and by game/engine.describe."""
    return m.caches.described_orders


def keep_description(texts: dict[str, tuple[Order, str]], text: str, order: Order,
                     described: str) -> None:
    """Keep `order` (read from `text`) and its description in `texts` (described_orders),
    which is emptied when full."""
    if len(texts) >= _KEEP:
        texts.clear()
    texts[text] = (order, described)


def read_canonical(m: Map, text: str, phase_type: PhaseType) -> Order | None:
    """The order `text` in the diplomacy package's notation; None for anything else."""
    return _read(m, text, phase_type, False)[0]


def _read(m: Map, text: str, phase_type: PhaseType, exact_wanted: bool  # noqa: C901 (a flat dispatch on the verb)
          ) -> tuple[Order | None, bool]:
    """read_canonical, and (when `exact_wanted`) whether `text` is exactly what Order.format
    writes for the order (single spaces, the map's own names of kinds and locations)."""
    t = text.split()
    n = len(t)
    if n == 1:
        return ((Order(_WAIVE, text=text), exact_wanted and text == "WAIVE") if t[0] == "WAIVE"
                else (None, False))
    if n < 3:
        return None, False
    kinds, locs = m.kind_index, m.loc_index
    k = kinds.get(t[0])
    loc = locs.get(t[1])
    if k is None or loc is None:
        return None, False
    names = m.loc_name
    exact = exact_wanted and m.kinds[k] == t[0] and names[loc] == t[1] and \
        text == " ".join(t)
    verb = t[2]
    if n == 3:
        if verb == "H" and phase_type == "M":
            return Order(_HOLD, kind=k, loc=loc, text=text), exact
        if verb == "D" and phase_type != "M":
            return Order(_DISBAND, kind=k, loc=loc, text=text), exact
        if verb == "B" and phase_type == "A":
            return Order(_BUILD, kind=k, loc=loc, text=text), exact
        return None, False
    if verb == "-" and phase_type == "M" and (n == 4 or n == 5):
        dest = locs.get(t[3])
        if dest is None or (n == 5 and t[4] != "VIA"):
            return None, False
        return (Order(_MOVE, kind=k, loc=loc, target=dest, via=n == 5, text=text),
                exact and names[dest] == t[3])
    if verb == "R" and phase_type == "R" and n == 4:
        dest = locs.get(t[3])
        if dest is None:
            return None, False
        return Order(_RETREAT, kind=k, loc=loc, target=dest, text=text), exact and \
            names[dest] == t[3]
    if (verb == "S" or verb == "C") and phase_type == "M" and (n == 5 or n == 7):
        k2, loc2 = kinds.get(t[3]), locs.get(t[4])
        if k2 is None or loc2 is None:
            return None, False
        exact = exact and m.kinds[k2] == t[3] and names[loc2] == t[4]
        target = None
        if n == 7:
            target = locs.get(t[6])
            if t[5] != "-" or target is None:
                return None, False
            exact = exact and names[target] == t[6]
        elif verb == "C":
            return None, False
        return Order(_SUPPORT if verb == "S" else _CONVOY, kind=k, loc=loc, target=target,
                     aux_kind=k2, aux_loc=loc2, text=text), exact
    return None, False

