"""Retreat phase: each dislodged unit retreats to one of its allowed places or is disbanded.

Two units retreating to the same province are both disbanded (not in an open space, which
has no stacking limit); a unit without a (valid) retreat order is disbanded.
"""

from __future__ import annotations

from typing import ClassVar, Final

from polydip.adjudication.legality import Closed, retreat_locs
from polydip.geography.map import Map
from polydip.orders.model import DISBAND, RETREAT, Order
from polydip.state import Dislodged, Record, Unit, unit_cache

BOUNCE: Final = "bounce"
VOID: Final = "void"
DISBANDED: Final = "disband"


class RetreatResult(Record):
    """What a retreat phase did. A plain class rather than a dataclass (compiled, a
    dataclass is still made through the interpreted __init__ the dataclasses module
    writes); compared by value, unhashable, like the dataclass it was (state.Record)."""

    __slots__ = ("origins", "results", "units")
    _fields: ClassVar[tuple[str, ...]] = ("units", "results", "origins")

    def __init__(self, units: list[Unit], results: list[list[str]], origins: list[int]) -> None:
        self.units = units  # the units that retreated (to be added to the board)
        self.results = results  # per dislodged unit
        self.origins = origins  # for each unit that retreated, its index among the dislodged

    def moved(self, dislodged: list[Dislodged]) -> list[tuple[Unit, Unit, bool]]:
        """(unit before, unit after, False) for each retreat that succeeded."""
        return [(Unit(d.power, d.kind, d.loc), u, False)
                for u, d in zip(self.units, (dislodged[i] for i in self.origins), strict=True)]


def resolve_retreats(m: Map, dislodged: list[Dislodged],
                     orders: list[Order | None]) -> RetreatResult:
    n = len(dislodged)
    dest = [-1] * n
    results: list[list[str]] = [[] for _ in range(n)]
    for i, d in enumerate(dislodged):
        o = orders[i]
        if o is None or o.type == DISBAND:
            continue
        if o.type != RETREAT or o.target is None:
            results[i].append(VOID)
            continue
        t = _retreat_loc(m, d, o.target)
        if t < 0:
            results[i].append(VOID)
        else:
            dest[i] = t
    count: dict[int, int] = {}
    for t in dest:
        if t >= 0:
            p = m.loc_prov[t]
            count[p] = count.get(p, 0) + 1
    moved, origins = [], []
    for i, t in enumerate(dest):
        if t < 0:
            if DISBANDED not in results[i]:
                results[i].append(DISBANDED)
            continue
        if count[m.loc_prov[t]] > 1 and not m.open_space[m.loc_prov[t]]:
            results[i] += [BOUNCE, DISBANDED]
            continue
        d = dislodged[i]
        moved.append(unit_cache(m).unit(d.power, d.kind, t))
        origins.append(i)
    return RetreatResult(moved, results, origins)


def _retreat_loc(m: Map, d: Dislodged, target: int) -> int:
    """The allowed retreat location an order names, or -1 (coast omitted when only one fits)."""
    if target in d.retreats:
        return target
    tprov = m.loc_prov[target]
    matches = [r for r in d.retreats if m.loc_prov[r] == tprov]
    if target == tprov and len(matches) == 1:
        return matches[0]
    if not m.kind_coastal[d.kind] and matches:
        return matches[0]
    return -1


def retreat_target(m: Map, d: Dislodged, target: int) -> int:
    """The location a retreat order to `target` takes the dislodged unit `d` to, or -1 when
    it may not go there (the check the retreat phase makes, asked when the order is given)."""
    return _retreat_loc(m, d, target)


def retreat_options(m: Map, kind: int, loc: int, occupied: set[int] | list[bool],
                    contested: frozenset[int] | set[int], blocked: int, power: int = -1,
                    closed: Closed | None = None) -> tuple[int, ...]:
    """Where a unit dislodged from `loc` may go: where it could move (not across a border no
    unit retreats across, not through a passage closed to its `power`), empty, not left
    empty by a standoff, and not the province its attacker came from (`blocked`, -1 for
    none)."""
    prov = m.loc_prov
    return tuple(
        d for d in retreat_locs(m, kind, loc, power, closed)
        if not _in(occupied, prov[d]) and prov[d] not in contested and prov[d] != blocked
    )


def _in(occupied: set[int] | list[bool], p: int) -> bool:
    return p in occupied if isinstance(occupied, set) else occupied[p]
