"""Order: what one typed order means, in map location ids (not yet bound to a unit)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, Literal

if TYPE_CHECKING:  # annotations only: this data module imports nothing of polydip
    from polydip.geography.map import Map

# order types (Final: compiled modules use the values, not a look-up in this module's dict;
# OrderType, a Literal, is a plain string at run time, in compiled code as in the formats)
OrderType = Literal["H", "-", "S", "C", "R", "D", "B", "W"]
# what an order does besides its move or hold (Order.act): with anchor markers (rules/anchors.py)
# or a canal build (rules/canals.py); "" for nothing
OrderAct = Literal["", "convert", "capture", "release", "sink", "canal"]
HOLD: Final = "H"
MOVE: Final = "-"
SUPPORT: Final = "S"
CONVOY: Final = "C"
RETREAT: Final = "R"
DISBAND: Final = "D"
BUILD: Final = "B"
WAIVE: Final = "W"


class Order:
    """A parsed order. An order is a value: never change one (the same object is shared by
    every game that reads its text, and by the map's order table). It is compared and hashed
    by value, like a dataclass, but written as a plain class: a frozen dataclass costs three
    times as much to construct (each field set through object.__setattr__), and once
    compiled a dataclass is still made through the interpreted __init__ the dataclasses
    module writes (about 5,000 instructions, against a few hundred for a native one), most of
    reading a new order string.

    `kind`/`aux_kind` are unit-kind indices or None when the writer left the type out.
    `loc` is the location the writer named (a province id, or a coast id when a coast was
    written). For SUPPORT, `target` is None for a support to hold. For BUILD, `loc` is where
    to build. `via` is the "via convoy" tag of a move. `at` is the power an attack order
    names (orders/attack.py: "F MAO - EAO AT BRAZIL", "F PBS AT PERU"; on a support, the
    attack it supports), -1 for none. `act` is what a unit does with anchor markers besides
    its move or hold (rules/anchors.py: "convert", "capture", "release", "sink"), "" for
    nothing. `unit` picks one of the ordering power's units in a space that holds several
    of them ("F Peru Basin #2": the power's second fleet there, orders/stacked.py), 0 for
    none named.
    """

    __slots__ = ("act", "at", "aux_kind", "aux_loc", "kind", "loc", "target", "text", "type",
                 "unit", "via")

    def __init__(self, type: OrderType, kind: int | None = None, loc: int = -1,
                 target: int | None = None, aux_kind: int | None = None,
                 aux_loc: int | None = None, via: bool = False, text: str = "", at: int = -1,
                 act: OrderAct = "", unit: int = 0) -> None:
        self.type: OrderType = type
        self.kind = kind
        self.loc = loc
        self.target = target
        self.aux_kind = aux_kind
        self.aux_loc = aux_loc
        self.via = via
        self.text = text
        self.at = at
        self.act: OrderAct = act
        self.unit = unit

    def _key(self) -> tuple:
        return (self.type, self.kind, self.loc, self.target, self.aux_kind, self.aux_loc,
                self.via, self.text, self.at, self.act, self.unit)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Order):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Order):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Order(type={self.type!r}, kind={self.kind!r}, loc={self.loc!r}, "
                f"target={self.target!r}, aux_kind={self.aux_kind!r}, "
                f"aux_loc={self.aux_loc!r}, via={self.via!r}, text={self.text!r}, "
                f"at={self.at!r}, act={self.act!r}, unit={self.unit!r})")

    def but(self, **changes: object) -> Order:
        """A copy with some fields changed (as dataclasses.replace)."""
        fields = {name: getattr(self, name) for name in _FIELDS}
        fields.update(changes)
        return Order(**fields)

    def format(self, m: Map, unit: str | None = None, other: str | None = None) -> str:
        """The order in the `diplomacy` notation: "A PAR - BUR", "F NTH C A LON - BEL".
        `unit` / `other` name the ordered and the supported or convoyed unit as they really
        stand (kind and coast), instead of as the order wrote them."""
        if self.type == WAIVE:
            return "WAIVE"
        unit = unit or _unit(m, self.kind, self.loc)
        at = f" AT {m.powers[self.at].upper()}" if self.at >= 0 else ""
        act = f" {self.act.upper()}" if self.act else ""
        if self.type == HOLD:
            return f"{unit}{at}{act}" if at or act else f"{unit} H"
        target = m.loc_name[self.target] if self.target is not None else "?"
        if self.type == MOVE:
            return f"{unit} - {target}" + (" VIA" if self.via else "") + at + act
        if self.type == RETREAT:
            return f"{unit} R {target}"
        if self.type == DISBAND:
            return f"{unit} D"
        if self.type == BUILD:
            return f"BUILD {m.loc_name[self.loc]} CANAL" if self.act == "canal" else f"{unit} B"
        other = other or _unit(m, self.aux_kind, self.aux_loc)
        if self.type == SUPPORT:
            if self.target is None:
                return f"{unit} S {other}{at}"
            return f"{unit} S {other} - {target}{at}"
        return f"{unit} C {other} - {target}"


_FIELDS = ("type", "kind", "loc", "target", "aux_kind", "aux_loc", "via", "text", "at", "act",
           "unit")


def _unit(m: Map, kind: int | None, loc: int | None) -> str:
    name = m.loc_name[loc] if loc is not None and loc >= 0 else "?"
    return f"{m.kinds[kind]} {name}" if kind is not None else name
