"""Retreat phase: each dislodged unit retreats to one of its allowed places or is disbanded.

Two units retreating to the same province are both disbanded (not in an open space, which
has no stacking limit); a unit without a (valid) retreat order is disbanded.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from polydip.adjudication import reasons as R
from polydip.adjudication.legality import Closed, _why_no_target, move_target, retreat_locs, shut
from polydip.geography.map import Map
from polydip.orders.model import DISBAND, RETREAT, Order
from polydip.state import Dislodged, Position, Record, Unit, unit_cache

BOUNCE: Final = "bounce"
VOID: Final = "void"
DISBANDED: Final = "disband"
# province -> the moves over passages a rule opened into it (RuleSet.porous)
Porous = dict[int, set[tuple[int, int]]]


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


def resolve_retreats(m: Map, dislodged: list[Dislodged], orders: list[Order | None],
                     porous: Porous | None = None) -> RetreatResult:
    """`porous`: the rules' porous provinces now (RuleSet.porous), a retreat to one naming
    no coast takes a coast (None: none)."""
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
        t = _retreat_loc(m, d, o.target, porous)
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
        if count[m.loc_prov[t]] > 1 and not m.tables.open_space[m.loc_prov[t]]:
            results[i] += [BOUNCE, DISBANDED]
            continue
        d = dislodged[i]
        moved.append(unit_cache(m).unit(d.power, d.kind, t))
        origins.append(i)
    return RetreatResult(moved, results, origins)


def _retreat_loc(m: Map, d: Dislodged, target: int, porous: Porous | None = None) -> int:
    """The allowed retreat location an order names, or -1 (coast omitted when only one fits,
    or into a porous province: the coast reached over an edge the rule did not open first,
    else the lowest)."""
    if target in d.retreats:
        return target
    tprov = m.loc_prov[target]
    matches = [r for r in d.retreats if m.loc_prov[r] == tprov]
    if target == tprov and len(matches) == 1:
        return matches[0]
    if target == tprov and matches and porous and tprov in porous:
        opened = porous[tprov]
        return min(matches, key=lambda c: ((d.loc, c) in opened, c))
    if not m.kind_coastal[d.kind] and matches:
        return matches[0]
    return -1


def retreat_target(m: Map, d: Dislodged, target: int, porous: Porous | None = None) -> int:
    """The location a retreat order to `target` takes the dislodged unit `d` to, or -1 when
    it may not go there (the check the retreat phase makes, asked when the order is given)."""
    return _retreat_loc(m, d, target, porous)


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


# ---- why (asked by reports only) -------------------------------------------------------------

def retreat_reasons(m: Map, pos: Position, orders: list[Order | None], rr: RetreatResult,
                    closed: Closed | None = None) -> list[R.Reason | None]:
    """Per dislodged unit of `pos` (a retreat phase): why its retreat did not succeed, None
    when it did (or it was ordered to disband)."""
    out: list[R.Reason | None] = []
    for d, o, words in zip(pos.dislodged, orders, rr.results, strict=True):
        if not words or (o is not None and o.type == DISBAND):
            out.append(None)
        elif words[0] == VOID:
            out.append(R.reason(R.WRONG_PHASE) if o is None or o.type != RETREAT
                       or o.target is None else
                       why_retreat_to(m, pos, d, o.target, pos.contested, closed))
        elif words[0] == BOUNCE:
            t = m.loc_prov[o.target] if o is not None and o.target is not None else -1
            out.append(R.reason(R.RETREAT_CLASH, f"another unit retreated to {m.prov_name[t]}"
                                                 " too: both are disbanded" if t >= 0 else ""))
        elif not d.retreats:
            out.append(why_no_retreat(m, pos, d, pos.units, pos.contested, closed))
        else:
            out.append(R.reason(R.NOT_ORDERED))
    return out


def why_retreat_to(m: Map, pos: Position, d: Dislodged, target: int,
                   contested: frozenset[int] | set[int], closed: Closed | None = None
                   ) -> R.Reason:
    """Why the dislodged unit `d` may not retreat to `target`."""
    tprov = m.loc_prov[target]
    there = m.prov_name[tprov]
    if not m.tables.open_space[tprov] and any(m.loc_prov[u.loc] == tprov for u in pos.units):
        return R.reason(R.RETREAT_OCCUPIED, f"{there} is occupied")
    if tprov == d.attacker:
        return R.reason(R.RETREAT_ATTACKER, f"the attack came from {there}")
    if tprov in contested:
        return R.reason(R.RETREAT_STANDOFF, f"{there} was left empty by a standoff")
    dest, adjacent = move_target(m, d.kind, d.loc, target)
    if dest < 0:
        return _why_no_target(m, d.kind, d.loc, target)
    if not adjacent:
        return R.reason(R.NOT_ADJACENT, f"{there} is not next to "
                                        f"{m.prov_name[m.loc_prov[d.loc]]} (no convoy in a "
                                        "retreat)")
    return _refused_retreat(m, pos, d, dest, closed)


def _refused_retreat(m: Map, pos: Position, d: Dislodged, dest: int, closed: Closed | None
                     ) -> R.Reason:
    """Why a retreat over an edge to `dest`, to a free province, is refused: a rule."""
    rules = m.rules
    if dest not in m.tables.retreat_locs[d.kind][d.loc]:
        got = rules.explain(m, pos, "no_retreat", (d.kind, d.loc, dest))
        if got is not None:
            return got
    if closed and shut(closed, d.power, d.kind, d.loc, dest):
        got = rules.explain(m, pos, "blocked", (d.power, d.kind, d.loc, dest))
        return got or R.reason(R.PASSAGE_CLOSED)
    if closed is None:  # (the passages not given: as `pos` has them)
        got = rules.explain(m, pos, "blocked", (d.power, d.kind, d.loc, dest))
        if got is not None:
            return got
    got = rules.explain(m, pos, "unit_holds", (d,))
    return R.reason(R.NEUTRAL_DISBANDS) if got is not None else R.reason(R.RULE_FORBIDS)


def why_no_retreat(m: Map, pos: Position, d: Dislodged, units: list[Unit],
                   contested: frozenset[int] | set[int], closed: Closed | None = None,
                   routed: Sequence[Dislodged] = ()) -> R.Reason:
    """Why the dislodged unit `d` has nowhere to retreat: what stops it at each place it
    could move to. `units`: the units on the board, `contested`: the standoffs, `routed`:
    the units beaten by a rule's rout margin (PhaseOutcome.routed), which may not retreat."""
    for r in routed:
        if r.power == d.power and r.kind == d.kind and r.loc == d.loc:
            return R.reason(R.ROUTED, f"beaten in {m.prov_name[m.loc_prov[d.loc]]} by an "
                                      f"attack {m.tables.rout_margin} or more stronger, it may not "
                                      "retreat")
    if m.rules.explain(m, pos, "unit_holds", (d,)) is not None:
        return R.reason(R.NEUTRAL_DISBANDS)
    occupied = {m.loc_prov[u.loc] for u in units}
    why = []
    for dest in m.move_locs[d.kind][d.loc]:
        p = m.loc_prov[dest]
        if p in occupied and not m.tables.open_space[p]:
            why.append(f"{m.prov_abbr[p]} occupied")
        elif p == d.attacker:
            why.append(f"{m.prov_abbr[p]} the attacker's origin")
        elif p in contested:
            why.append(f"{m.prov_abbr[p]} a standoff")
        else:
            got = _refused_retreat(m, pos, d, dest, closed)
            why.append(f"{m.prov_abbr[p]}: {got.words}")
    return R.reason(R.NO_RETREAT, "nowhere to go: " + ("; ".join(why) if why else
                                                        "it could move nowhere"))
