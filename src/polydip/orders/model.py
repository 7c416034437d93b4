"""Order: what one typed order means, in map location ids (not yet bound to a unit)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: this data module imports nothing of polydip
    from polydip.geography.map import Map

HOLD, MOVE, SUPPORT, CONVOY, RETREAT, DISBAND, BUILD, WAIVE = "H", "-", "S", "C", "R", "D", "B", "W"


@dataclass(slots=True, unsafe_hash=True)
class Order:
    """A parsed order. An order is a value: never change one (the same object is shared by
    every game that reads its text, and by the map's order table). It is not a frozen
    dataclass only because constructing one costs three times as much (each field set
    through object.__setattr__): parsing a new order string was mostly that.

    `kind`/`aux_kind` are unit-kind indices or None when the writer left the type out.
    `loc` is the location the writer named (a province id, or a coast id when a coast was
    written). For SUPPORT, `target` is None for a support to hold. For BUILD, `loc` is where
    to build. `via` is the "via convoy" tag of a move. `at` is the power an attack order
    names (orders/attack.py: "F MAO - EAO AT BRAZIL", "F PBS AT PERU"; on a support, the
    attack it supports), -1 for none. `act` is what a unit does with anchor markers besides
    its move or hold (rules/anchors.py: "convert", "capture", "release", "sink"), "" for
    nothing.
    """

    type: str
    kind: int | None = None
    loc: int = -1
    target: int | None = None
    aux_kind: int | None = None
    aux_loc: int | None = None
    via: bool = False
    text: str = ""
    at: int = -1
    act: str = ""

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


def _unit(m: Map, kind: int | None, loc: int | None) -> str:
    name = m.loc_name[loc] if loc is not None and loc >= 0 else "?"
    return f"{m.kinds[kind]} {name}" if kind is not None else name
