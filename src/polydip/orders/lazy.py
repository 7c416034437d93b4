"""A dict whose values are made on first use (the order table's objects and texts).

Kept in a module of its own, never compiled: the compiled build cannot subclass dict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Lazy(dict):
    """key -> value, made by `make(key)` on first use (a plain dict lookup after that)."""

    def __init__(self, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self.make = make

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.make(key)
        return value
