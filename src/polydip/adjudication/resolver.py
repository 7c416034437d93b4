"""Kruijswijk's guess algorithm (DATC 5.F, with the Pandin fix of 5.D), generic over orders.

A subclass supplies `adjudicate(n)` (the condition of order n, reading other orders only
through `resolve`) and `backup(cycle)` (what to do when a cycle has no or two consistent
resolutions). Nothing here knows what a move or a support is.
"""

from __future__ import annotations


class Resolver:
    __slots__ = ("_cycle", "_guess_based", "_hits", "_resolved", "_resolution", "_visited")

    def __init__(self, n: int) -> None:
        self._resolved = [False] * n
        self._resolution = [False] * n
        self._visited = [False] * n
        self._cycle: list[int] = []
        self._guess_based = False
        self._hits = 0

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
        cycle = self._cycle
        if n in cycle:
            self._guess_based = True
            return self._resolution[n]
        if self._visited[n]:
            cycle.append(n)
            self._guess_based = True
            self._hits += 1
            return self._resolution[n]

        self._visited[n] = True
        old_len = len(cycle)
        old_guess_based = self._guess_based
        self._guess_based = False
        old_hits = self._hits
        self._resolution[n] = False
        first = self.adjudicate(n)

        if not self._guess_based:
            self._guess_based = old_guess_based
            self._resolution[n] = first
            self._resolved[n] = True
            return first

        if n in cycle:
            self._hits -= 1
        if self._hits == old_hits:
            # n is the ancestor of the whole cycle: try the other guess
            del cycle[old_len:]
            self._resolution[n] = True
            second = self.adjudicate(n)
            if first == second:
                del cycle[old_len:]
                self._guess_based = old_guess_based
                self._resolution[n] = first
                self._resolved[n] = True
                return first
            members = cycle[old_len:]
            if n not in members:
                members.append(n)
            self.backup(members)
            del cycle[old_len:]
            self._guess_based = old_guess_based
            self._visited[n] = False
            return self.resolve(n)

        if n not in cycle:
            cycle.append(n)
        self._resolution[n] = first
        self._visited[n] = False
        return first
