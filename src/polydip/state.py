"""The position: units, dislodged units, center owners, phase — in map ids.

State is keyed by unit, not by province: "one unit per province" is the standard stacking
rule, not an assumption of the data.
"""

from __future__ import annotations

import json
import sys
from array import array
from collections.abc import Sequence
from hashlib import blake2b
from typing import TYPE_CHECKING, Any, ClassVar, Literal

if TYPE_CHECKING:  # annotations only: this data module imports nothing of polydip
    from polydip.geography.map import Map

# a phase's type: "M" movement, "R" retreats, "A" adjustments (a Literal: plain strings at run
# time, in the JSON formats and in compiled code alike)
PhaseType = Literal["M", "R", "A"]


class Record:
    """Base of a plain class whose value is its fields (`_fields`, in the order its
    __init__ takes them), such as what a phase's adjudication returns: compared by value,
    unhashable (its fields are mutable), printed and pickled field by field. Written once
    for the plain classes that replaced dataclasses (compiled, a dataclass keeps the
    interpreted methods the dataclasses module writes)."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple:
        return tuple([getattr(self, f) for f in self._fields])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._values() == other._values()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self._values() != other._values()

    __hash__ = None  # type: ignore[assignment]  # (a mutable value)

    def __repr__(self) -> str:
        return (f"{type(self).__name__}("
                + ", ".join(f"{f}={getattr(self, f)!r}" for f in self._fields) + ")")

    def __reduce__(self) -> tuple:
        return (type(self), self._values())


class Phase:
    """A phase: year, season abbreviation ("S"), type ("M" movement, "R" retreats, "A"
    adjustments), and its name ("S1901M").

    A value: compared and hashed by (year, season, type), immutable by convention (never
    change one: the calendar makes one object per phase and every position shares it). A
    plain class, not a frozen dataclass: compiled, a dataclass is still constructed and
    compared through the interpreted methods the dataclasses module writes."""

    __slots__ = ("name", "season", "type", "year")

    def __init__(self, year: int, season: str, type: PhaseType) -> None:
        self.year = year
        self.season = season  # season abbreviation, e.g. "S"
        self.type: PhaseType = type
        self.name = f"{season}{year}{type}"  # e.g. "S1901M"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return (self.year == other.year and self.season == other.season
                and self.type == other.type)

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Phase):
            return NotImplemented
        return not (self.year == other.year and self.season == other.season
                    and self.type == other.type)

    def __hash__(self) -> int:
        return hash((self.year, self.season, self.type))

    def __repr__(self) -> str:
        return f"Phase(year={self.year!r}, season={self.season!r}, type={self.type!r})"

    def __str__(self) -> str:
        return self.name

    def __reduce__(self) -> tuple:
        return (Phase, (self.year, self.season, self.type))


class Unit:
    """A unit: power, kind and location, in map ids.

    A value: compared, ordered and hashed as the tuple (power, kind, loc), immutable by
    convention (never change one: units are shared between positions and kept per map by
    UnitCache; make a new one, e.g. with `but`). A plain class, not a frozen dataclass:
    compiled, a dataclass is still constructed and compared through the interpreted methods
    the dataclasses module writes (1.5-5k instructions each)."""

    __slots__ = ("kind", "loc", "power")

    def __init__(self, power: int, kind: int, loc: int) -> None:
        self.power = power
        self.kind = kind
        self.loc = loc

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return self.loc == other.loc and self.power == other.power and self.kind == other.kind

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Unit):
            return NotImplemented
        return not (self.loc == other.loc and self.power == other.power
                    and self.kind == other.kind)

    def __lt__(self, other: Unit) -> bool:
        return (self.power, self.kind, self.loc) < (other.power, other.kind, other.loc)

    def __le__(self, other: Unit) -> bool:
        return (self.power, self.kind, self.loc) <= (other.power, other.kind, other.loc)

    def __gt__(self, other: Unit) -> bool:
        return (self.power, self.kind, self.loc) > (other.power, other.kind, other.loc)

    def __ge__(self, other: Unit) -> bool:
        return (self.power, self.kind, self.loc) >= (other.power, other.kind, other.loc)

    def __hash__(self) -> int:
        return hash((self.power, self.kind, self.loc))

    def __repr__(self) -> str:
        return f"Unit(power={self.power!r}, kind={self.kind!r}, loc={self.loc!r})"

    def __reduce__(self) -> tuple:
        return (Unit, (self.power, self.kind, self.loc))

    def but(self, power: int | None = None, kind: int | None = None,
            loc: int | None = None) -> Unit:
        """A copy with some fields changed (as dataclasses.replace)."""
        return Unit(self.power if power is None else power, self.kind if kind is None else kind,
                    self.loc if loc is None else loc)


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
    """The UnitCache of a map (kept in its caches)."""
    got = m.caches.units
    if got is None:
        got = m.caches.units = UnitCache(len(m.powers), len(m.kinds), len(m.loc_name))
    return got


def unit_index(m: Map, units: Sequence[Unit | Dislodged]
               ) -> tuple[list[int], dict[int, list[int]]]:
    """A unit in each province (its index in `units`, -1: none), and the provinces holding
    more than one (open spaces) with all of theirs. The last few made are kept, by units
    list: order entry asks again for each power's orders, and processing for all of them,
    on the same units (checked to be equal units — the very objects, as a rule, which a
    list comparison passes at C speed — so a list changed in place is indexed afresh)."""
    kept = m.caches.unit_index
    got = kept.get(id(units))
    if got is not None and got[0] == (units if isinstance(units, list) else list(units)):
        return got[1], got[2]
    loc_prov = m.loc_prov
    first = [-1] * m.n_prov
    several: dict[int, list[int]] = {}
    for i, u in enumerate(units):
        p = loc_prov[u.loc]
        if first[p] < 0:
            first[p] = i
        else:
            several.setdefault(p, [first[p]]).append(i)
    if len(kept) >= 8:
        kept.clear()
    # (a copy of the units: it keeps them alive, so an entry for a list since freed, whose
    # id a new list may take, matches it only when the new list holds the same units, which
    # index the same)
    kept[id(units)] = (list(units), first, several)
    return first, several


class Dislodged:
    """A dislodged unit: power, kind, location; the province the dislodging unit came from
    (`attacker`, -1: unknown), whether it came by convoy (`convoyed`), and the locations the
    unit may retreat to (`retreats`).

    A value: compared and hashed by all six fields, immutable by convention (never change
    one; make a new one, e.g. with `but`). A plain class, not a frozen dataclass (see Unit)."""

    __slots__ = ("attacker", "convoyed", "kind", "loc", "power", "retreats")

    def __init__(self, power: int, kind: int, loc: int, attacker: int = -1,
                 convoyed: bool = False, retreats: tuple[int, ...] = ()) -> None:
        self.power = power
        self.kind = kind
        self.loc = loc
        self.attacker = attacker  # province the dislodging unit came from (-1: unknown)
        self.convoyed = convoyed  # the dislodging unit came by convoy
        self.retreats = retreats  # locations it may retreat to

    def _key(self) -> tuple[int, int, int, int, bool, tuple[int, ...]]:
        return (self.power, self.kind, self.loc, self.attacker, self.convoyed, self.retreats)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dislodged):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Dislodged):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Dislodged(power={self.power!r}, kind={self.kind!r}, loc={self.loc!r}, "
                f"attacker={self.attacker!r}, convoyed={self.convoyed!r}, "
                f"retreats={self.retreats!r})")

    def __reduce__(self) -> tuple:
        return (Dislodged, self._key())

    def but(self, retreats: tuple[int, ...] | None = None, kind: int | None = None) -> Dislodged:
        """A copy with its retreats or kind changed (as dataclasses.replace)."""
        return Dislodged(self.power, self.kind if kind is None else kind, self.loc,
                         self.attacker, self.convoyed,
                         self.retreats if retreats is None else retreats)


class Position:
    """A position. The positions of successive phases share what a phase did not change
    (the owners of centers, say): to change a position, give it new lists rather than
    changing its lists in place, or work on `copy()`.

    Compared by value like a dataclass (`==`: every field, units in their order), hashed
    by `key()` (a stable hash that ignores the order of units: equal positions hash equal),
    but a plain class: compiled, a dataclass is still constructed through the interpreted
    __init__ the dataclasses module writes (about 4,700 instructions, for a position made
    every phase)."""

    __slots__ = ("contested", "dislodged", "extra", "homes", "owners", "phase", "units",
                 "year_start_owners")

    def __init__(self, phase: Phase, units: list[Unit], owners: list[int],
                 dislodged: list[Dislodged] | None = None,
                 contested: frozenset[int] = frozenset(),
                 homes: list[tuple[int, ...]] | None = None,
                 year_start_owners: list[int] | None = None,
                 extra: dict | None = None) -> None:
        self.phase = phase
        self.units = units
        self.owners = owners  # per province: owning power index, -1 for none
        self.dislodged: list[Dislodged] = [] if dislodged is None else dislodged
        self.contested = contested  # provinces left empty by a standoff
        self.homes: list[tuple[int, ...]] = [] if homes is None else homes  # per power
        # center owners when the current year began (for "build on any center owned at the
        # beginning of the year"); None = same as `owners`
        self.year_start_owners = year_start_owners
        # data rule modules keep between phases (JSON-serialisable), keyed by rule name
        self.extra: dict = {} if extra is None else extra

    def _key(self) -> tuple:
        return (self.phase, self.units, self.owners, self.dislodged, self.contested,
                self.homes, self.year_start_owners, self.extra)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() != other._key()

    def __hash__(self) -> int:
        """By `key()` (equal positions hash equal, in every process). Hashed as it is
        now: a position used as a dict or set key must not be changed afterwards (the
        engine changes only the position it is making, before it returns it)."""
        return int.from_bytes(self.key()[:8], "little", signed=True)

    def key(self) -> bytes:
        """A stable hash of the position (16 bytes of BLAKE2b): the same for equal
        positions in every process, run and platform (no salted `hash()`), different for
        different ones but by a 2**-128 chance. It covers the phase (year, season, type),
        the units as a multiset (their order in `units` does not count), the dislodged
        units as a multiset (with attacker, convoy flag and retreats), the center owners,
        the contested provinces, the home centers, the owners at the year's start (None
        counts as `owners`) and the rule state in `extra` (as sorted JSON). Not the map:
        compare keys of one map's positions."""
        ph = self.phase
        units = sorted([(u.power << 42) | (u.kind << 21) | u.loc for u in self.units])
        head = [ph.year, len(units), len(self.dislodged), len(self.owners),
                len(self.contested), len(self.homes)]
        ys = self.year_start_owners
        parts = [head, units, self.owners, self.owners if ys is None else ys,
                 sorted(self.contested)]
        if self.dislodged:
            dis: list[int] = []
            for pw, kd, lc, at, cv, rts in sorted([
                    (d.power, d.kind, d.loc, d.attacker, int(d.convoyed),
                     tuple(sorted(d.retreats))) for d in self.dislodged]):
                dis += (pw, kd, lc, at, cv, len(rts))
                dis += rts
            parts.append(dis)
        if self.homes:
            parts.append([len(hs) for hs in self.homes])
            parts.append([x for hs in self.homes for x in hs])
        h = blake2b(f"{ph.season}|{ph.type}|".encode(), digest_size=16)
        swap = sys.byteorder != "little"
        for part in parts:
            packed = array("q", part)
            if swap:
                packed.byteswap()
            h.update(packed.tobytes())
        if self.extra:
            h.update(json.dumps(self.extra, sort_keys=True, separators=(",", ":"),
                                default=repr).encode())
        return h.digest()

    def __reduce__(self) -> tuple:
        # (compiled, a native class has no default pickling of its own attributes)
        return (Position, (self.phase, self.units, self.owners, self.dislodged,
                           self.contested, self.homes, self.year_start_owners, self.extra))

    def __repr__(self) -> str:
        return (f"Position(phase={self.phase!r}, units={self.units!r}, owners={self.owners!r}, "
                f"dislodged={self.dislodged!r}, contested={self.contested!r}, "
                f"homes={self.homes!r}, year_start_owners={self.year_start_owners!r}, "
                f"extra={self.extra!r})")

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


def _deep(v: Any) -> Any:  # JSON-like values
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deep(x) for x in v]
    return v
