"""The position: units, dislodged units, center owners, phase — in map ids.

State is keyed by unit, not by province: "one unit per province" is the standard stacking
rule, not an assumption of the data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # annotations only: this data module imports nothing of polydip
    from polydip.geography.map import Map


@dataclass(frozen=True, slots=True)
class Phase:
    year: int
    season: str  # season abbreviation, e.g. "S"
    type: str  # "M" movement, "R" retreats, "A" adjustments
    name: str = field(init=False, compare=False, repr=False)  # e.g. "S1901M"

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", f"{self.season}{self.year}{self.type}")

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True, order=True)
class Unit:
    power: int
    kind: int
    loc: int


class UnitCache:
    """The Unit objects of one map by (power, kind, location), each made once: units are
    immutable values, and a phase's outcome makes one per unit that moved."""

    __slots__ = ("kinds", "locs", "units")

    def __init__(self, powers: int, kinds: int, locs: int) -> None:
        self.kinds = kinds
        self.locs = locs
        self.units: list[Unit | None] = [None] * (powers * kinds * locs)

    def unit(self, power: int, kind: int, loc: int) -> Unit:
        if loc < 0 or loc >= self.locs or kind < 0 or kind >= self.kinds or power < 0:
            return Unit(power, kind, loc)  # (not a place of the map: not kept)
        i = (power * self.kinds + kind) * self.locs + loc
        u = self.units[i]
        if u is None:
            u = Unit(power, kind, loc)
            self.units[i] = u
        return u


def unit_cache(m: Map) -> UnitCache:
    """The UnitCache of a map."""
    got = _UNIT_CACHES.get(id(m))
    if got is None or got[0] is not m:
        if len(_UNIT_CACHES) > 64:
            _UNIT_CACHES.clear()
        got = (m, UnitCache(len(m.powers), len(m.kinds), len(m.loc_name)))
        _UNIT_CACHES[id(m)] = got
    return got[1]


_UNIT_CACHES: dict[int, tuple[object, UnitCache]] = {}


@dataclass(frozen=True, slots=True)
class Dislodged:
    power: int
    kind: int
    loc: int
    attacker: int = -1  # province the dislodging unit came from (-1: unknown)
    convoyed: bool = False  # the dislodging unit came by convoy
    retreats: tuple[int, ...] = ()  # locations it may retreat to


@dataclass(slots=True)
class Position:
    """A position. The positions of successive phases share what a phase did not change
    (the owners of centers, say): to change a position, give it new lists rather than
    changing its lists in place, or work on `copy()`."""

    phase: Phase
    units: list[Unit]
    owners: list[int]  # per province: owning power index, -1 for none
    dislodged: list[Dislodged] = field(default_factory=list)
    contested: frozenset[int] = frozenset()  # provinces left empty by a standoff
    homes: list[tuple[int, ...]] = field(default_factory=list)  # per power
    # center owners when the current year began (for "build on any center owned at the
    # beginning of the year"); None = same as `owners`
    year_start_owners: list[int] | None = None
    # data rule modules keep between phases (JSON-serialisable), keyed by rule name
    extra: dict = field(default_factory=dict)

    def copy(self) -> Position:
        return Position(self.phase, list(self.units), list(self.owners), list(self.dislodged),
                        self.contested, list(self.homes),
                        None if self.year_start_owners is None else list(self.year_start_owners),
                        {k: _deep(v) for k, v in self.extra.items()})

    def centers_of(self, power: int) -> list[int]:
        return [p for p, o in enumerate(self.owners) if o == power]

    def occupant(self, m: Map, prov: int) -> int:
        """Index of a unit in province `prov`, or -1."""
        for i, u in enumerate(self.units):
            if m.loc_prov[u.loc] == prov:
                return i
        return -1


def _deep(v):  # JSON-like values
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deep(x) for x in v]
    return v
