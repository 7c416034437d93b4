"""The rule tables of a compiled map: what a variant's rules change in stacking, supports,
strengths and retreats, asked of the rules once (the hooks of kind "table", rules/hookspec.py) and
kept as plain lists, sets and dicts indexed by map ids, as the adjudicator reads them in its
hot loops (`m.tables.support_reach[kind][loc]`). Without such rules each table is the
geography's own (`support_base` is `Map.reach_prov`, `retreat_locs` is `Map.move_locs`), so
the standard game reads the very lists it read before. Built by polydip.compile; the Map
holds geography only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.rules.base import RuleSet


class RuleTables:
    """The tables one variant's rules make of its map (immutable after construction)."""

    def __init__(self, m: Map, rules: RuleSet) -> None:
        # the map's tables while they are made: a rule's table hook reads those made before
        # it (support_limits' more supports are in the support_base no_support reads)
        m.tables = self
        attacks = rules.attack_spaces()
        opens = rules.open_spaces() | attacks
        # provinces with no stacking limit, where units never bounce (rules/open_spaces.py)
        self.open_space: list[bool] = [a in opens for a in m.prov_abbr]
        self.has_open_spaces = bool(opens)
        # open spaces where units meet only through attack orders, and the margin by which
        # an attack there disbands the unit it beats (rules/oceans.py)
        self.attack_space: list[bool] = [a in attacks for a in m.prov_abbr]
        self.has_attack_spaces = bool(attacks)
        self.rout_margin: int | None = rules.rout_margin()
        # province pairs across which units never swap, even by convoy (rules/no_swap.py)
        self.no_swap: frozenset[tuple[int, int]] = frozenset(
            (m.prov_index[x], m.prov_index[y])
            for a, b in rules.no_swap_pairs() for x, y in ((a, b), (b, a)))
        self._supports(m, rules)
        self._strengths(m, rules)
        # where a dislodged unit of kind k on loc may retreat, before occupation
        self.retreat_locs: list[list[tuple[int, ...]]] = m.move_locs
        no_retreat = rules.no_retreat(m)
        if no_retreat:
            self.retreat_locs = [
                [tuple(d for d in dests if (k, loc, d) not in no_retreat)
                 for loc, dests in enumerate(per_kind)]
                for k, per_kind in enumerate(m.move_locs)]
        # units a rule allows to move only to some provinces now (rules.move_limits)
        self.has_move_limits = rules.implements("move_limits")

    def _supports(self, m: Map, rules: RuleSet) -> None:
        # provinces a unit of kind k on loc could support into: where it moves, and where a
        # rule lets it support without moving there (rules.more_support)
        self.support_base: list[list[frozenset[int]]] = m.reach_prov
        more = rules.more_support(m)
        if more:
            extra: dict[tuple[int, int], set[int]] = {}
            for k, loc, q in more:
                extra.setdefault((k, loc), set()).add(q)
            self.support_base = [
                [reach | extra[(k, loc)] if (k, loc) in extra else reach
                 for loc, reach in enumerate(per_kind)]
                for k, per_kind in enumerate(m.reach_prov)]
        # provinces a unit of kind k on loc may support into (a subset of support_base)
        self.support_reach: list[list[frozenset[int]]] = self.support_base
        no_support = rules.no_support(m)
        if no_support:
            self.support_reach = [
                [frozenset(q for q in reach if (k, loc, q) not in no_support)
                 for loc, reach in enumerate(per_kind)]
                for k, per_kind in enumerate(self.support_base)]
        # (kind, province): a unit of that kind there may not be supported to hold
        self.no_hold_support: frozenset[tuple[int, int]] = frozenset(rules.no_hold_support(m))
        # (kind, coast) -> the other coasts of its province a unit of that kind may move to
        self.coast_change: dict[tuple[int, int], tuple[int, ...]] = {}
        for k, a, b in sorted(rules.coast_changes(m)):
            self.coast_change[(k, a)] = (*self.coast_change.get((k, a), ()), b)

    def _strengths(self, m: Map, rules: RuleSet) -> None:
        # (kind, province) -> strength before supports of a unit staying there, when not 1
        self.hold_strength: dict[tuple[int, int], int] = {
            key: v for key, v in rules.hold_strength(m).items() if v != 1}
        # (kind, from loc, to loc) -> strength of the move before supports, when not 1
        self.move_strength: dict[tuple[int, int, int], int] = {
            key: v for key, v in rules.move_strength(m).items() if v != 1}
        # season -> moves that fail unless supported (and then cut nothing)
        self.needs_support: dict[str, frozenset[tuple[int, int, int]]] = {
            s: frozenset(moves) for s, moves in rules.needs_support(m).items() if moves}
