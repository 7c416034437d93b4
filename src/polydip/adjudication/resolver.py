"""A guess-and-check resolver for order decisions, generic over orders (DATC 5.F).

A subclass supplies `adjudicate(n)` — the condition of order n, reading other orders only
through `resolve` — and `backup(cycle)`, called when a cycle of decisions has no or two
consistent resolutions. Nothing here knows what a move or a support is.

It follows Kruijswijk's guess algorithm, with one change that handles Pandin's paradox
(DATC 5.D) without a special case: instead of counting recursion hits, every provisional
result remembers the set of guesses it was computed from. An order is the ancestor of a
cycle exactly when its own result depends on no guess but its own; only then are both
guesses tried. Orders whose result merely *reads* a cycle (Belgium in Pandin's paradox) are
provisional too, but they are not members of the cycle handed to the backup rule: members
are the orders on the recursion path that closed the cycle.
"""

from __future__ import annotations

from typing import Final

_EMPTY: Final[frozenset[int]] = frozenset()
# no guesses read yet, typed as the attributes are: a decision starts from it (a plain None
# would let a type checker take `_deps` for None after the decision, which reads them)
_FRESH: Final[set[int] | None] = None


class Resolver:
    __slots__ = ("_deps", "_hits", "_prov_deps", "_prov_hits", "_resolution", "_resolved",
                 "_visited")

    def __init__(self, n: int) -> None:
        self._resolved = [False] * n
        self._resolution = [False] * n
        self._visited = [False] * n
        # provisional results: order -> guesses it depends on / guesses it is on a cycle with
        self._prov_deps: dict[int, frozenset[int]] = {}
        self._prov_hits: dict[int, frozenset[int]] = {}
        self._deps: set[int] | None = None  # guesses read by the decision being adjudicated
        self._hits: set[int] | None = None  # guesses reached along the recursion path

    def adjudicate(self, n: int) -> bool:  # pragma: no cover - abstract
        raise NotImplementedError

    def backup(self, cycle: list[int]) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def settle(self, n: int, value: bool) -> None:
        """Fix the resolution of order n (used by backup rules)."""
        self._resolution[n] = value
        self._resolved[n] = True

    def resolve(self, n: int) -> bool:
        if self._resolved[n]:
            return self._resolution[n]
        deps = self._prov_deps.get(n) if self._prov_deps else None
        if deps is not None:  # a provisional result: depends on the guesses it was made from
            if self._deps is None:
                self._deps = set()
            self._deps |= deps
            return self._resolution[n]
        if self._visited[n]:  # we are inside n's own adjudication: use its guess
            if self._deps is None:
                self._deps = set()
            if self._hits is None:
                self._hits = set()
            self._deps.add(n)
            self._hits.add(n)
            return self._resolution[n]

        # (sets are made only when a cycle is met: most decisions never see one)
        outer_deps, outer_hits = self._deps, self._hits
        self._visited[n] = True
        self._deps = self._hits = _FRESH  # (start the decision afresh)
        self._resolution[n] = False
        first = self.adjudicate(n)
        my_deps, my_hits = self._deps, self._hits

        if not my_deps:
            self._visited[n] = False
            self._resolution[n] = first
            self._resolved[n] = True
            self._deps, self._hits = outer_deps, outer_hits
            return first
        my_hits = my_hits or set()
        if my_deps == {n}:
            # n is the ancestor of the cycle: try the other guess
            members = self._drop_dependents(n)
            self._resolution[n] = True
            self._forget_guesses()
            second = self.adjudicate(n)
            members |= self._drop_dependents(n)
            if first == second:
                return self._finish(n, first, outer_deps, outer_hits)
            cycle = [n, *sorted(members - {n})]
            before = sum(self._resolved)
            self.backup(cycle)
            self._drop_dependents(n)
            self._visited[n] = False
            self._deps, self._hits = outer_deps, outer_hits
            if sum(self._resolved) == before:  # a backup rule that settles nothing
                self.settle(n, first)
                return first
            return self.resolve(n)
        # n's result depends on an ancestor's guess: keep it provisional
        self._visited[n] = False
        others = frozenset(my_deps - {n})
        self._prov_deps[n] = others
        self._prov_hits[n] = frozenset(my_hits - {n})
        self._resolution[n] = first
        outer_deps = (outer_deps or set()) | others
        outer_hits = (outer_hits or set()) | (my_hits - {n})
        self._deps, self._hits = outer_deps, outer_hits
        return first

    def _forget_guesses(self) -> None:
        """Start a decision afresh. (A method of its own, so that a type checker does not
        take the attributes for None in the caller after the decision was adjudicated.)"""
        self._deps = self._hits = None

    def _finish(self, n: int, value: bool, outer_deps: set[int] | None,
                outer_hits: set[int] | None) -> bool:
        self._visited[n] = False
        self._resolution[n] = value
        self._resolved[n] = True
        self._deps, self._hits = outer_deps, outer_hits
        return value

    def _drop_dependents(self, n: int) -> set[int]:
        """Forget provisional results made from n's guess; return those on n's cycle."""
        members = set()
        for o in [o for o, d in self._prov_deps.items() if n in d]:
            if n in self._prov_hits[o]:
                members.add(o)
            del self._prov_deps[o]
            del self._prov_hits[o]
        return members
