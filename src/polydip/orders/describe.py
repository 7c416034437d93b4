"""Orders and places in words a player reads: full province names with their codes.

Codes such as BGR/BGU or SDC/SDO are easy to confuse on a big map, so reports and order
confirmations can name places in full: "Army Toronto (TOR): move to Montreal (MON)".
`names="short"` gives the diplomacy notation instead ("A TOR - MON").
"""

from __future__ import annotations

from typing import assert_never

from polydip.errors import OrderError
from polydip.geography.map import Map
from polydip.names import possessive
from polydip.orders.attack import attack_prose
from polydip.orders.model import BUILD, CONVOY, DISBAND, HOLD, MOVE, RETREAT, SUPPORT, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.state import PhaseType

NAMES = ("full", "short")
FULL_NAMES_ABOVE = 80  # variants with more provinces than this read better with full names


def default_names(m: Map) -> str:
    return "full" if m.n_prov > FULL_NAMES_ABOVE else "short"


def place(m: Map, loc: int | None, names: str = "full") -> str:
    """'Toronto (TOR)', 'St Petersburg (STP/SC)'; just the code with names="short"."""
    if loc is None or loc < 0:
        return "?"
    if names == "short":
        return m.loc_name[loc]
    return f"{m.prov_name[m.loc_prov[loc]]} ({m.loc_name[loc]})"


def unit(m: Map, kind: int | None, loc: int, names: str = "full") -> str:
    """'Army Toronto (TOR)'; 'A TOR' with names="short"."""
    if names == "short":
        return f"{m.kinds[kind]} {m.loc_name[loc]}" if kind is not None else m.loc_name[loc]
    what = m.kind_names[kind].capitalize() + " " if kind is not None else ""
    return what + place(m, loc, names)


def describe(m: Map, o: Order, names: str = "full", kind: int | None = None,
             loc: int | None = None) -> str:
    """The order as understood. `kind`/`loc` name the ordered unit as it really stands (the
    writer may have left out its kind or coast)."""
    k = o.kind if kind is None else kind
    at = o.loc if loc is None else loc
    if names == "short":
        return o.format(m, unit(m, k, at, "short") if k is not None else None)
    if o.type == WAIVE:
        return "waive a build"
    if o.type == BUILD:
        if o.act == "canal":
            return f"build the canal of {place(m, o.loc)}"
        return f"build {unit(m, k, at)}"
    me = unit(m, k, at)
    if o.act and o.type in (HOLD, MOVE):
        return _act_prose(m, o, me, k)
    if o.type == HOLD:
        if o.at >= 0:
            return f"{me}: attack {possessive(m.powers[o.at])} units where it stands"
        return f"{me}: hold"
    if o.type == MOVE:
        via = " by convoy" if o.via else ""
        return f"{me}: move to {place(m, o.target)}{via}{attack_prose(m, o.at)}"
    if o.type == RETREAT:
        return f"{me}: retreat to {place(m, o.target)}"
    if o.type == DISBAND:
        return f"{me}: disband"
    other = unit(m, o.aux_kind, o.aux_loc if o.aux_loc is not None else -1)
    if o.type == SUPPORT:
        return _support_prose(m, o, me, other)
    if o.type != CONVOY:  # every order type is told above (mypy checks it: OrderType)
        assert_never(o.type)
    return f"{me}: convoy {other} to {place(m, o.target)}"


# what a rule's act (an order's extra word) does, in words
_ACTS = {"convert": "become a fleet", "capture": "capture the anchor marker",
         "release": "release its anchor marker", "sink": "sink the additional ships"}


def _act_prose(m: Map, o: Order, me: str, k: int | None) -> str:
    """A hold or a move with a rule's act (`A ATL CONVERT`, `F X - Y CAPTURE`...)."""
    act = _ACTS.get(o.act, o.act)
    if o.type == HOLD and o.act == "convert" and k is not None \
            and "flotilla" not in m.kind_names[k]:
        return f"{me}: become a river flotilla"  # a fleet converting in place
    if o.type == HOLD:
        return f"{me}: {act}"
    return f"{me}: move to {place(m, o.target)} and {act}"


def _support_prose(m: Map, o: Order, me: str, other: str) -> str:
    if o.target is None:
        if o.at >= 0:
            return f"{me}: support {other} in its attack on {possessive(m.powers[o.at])} units"
        return f"{me}: support {other} to hold"
    return f"{me}: support {other} to {place(m, o.target)}{attack_prose(m, o.at)}"


def describe_text(m: Map, text: str, phase_type: PhaseType, names: str = "full") -> str:
    """An order written in the diplomacy notation (as results keep them), in words;
    `phase_type` is M, R or A (an "A PAR D" is a disband in R, a removal in A)."""
    if names == "short":
        return text
    try:
        o = parse_order(m, text, phase_type)
    except OrderError:
        return text  # shown as it is
    if phase_type == "A" and o.type == DISBAND:
        return f"remove {unit(m, o.kind, o.loc)}"
    return describe(m, o, names)
