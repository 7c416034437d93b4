"""Exceptions polydip raises at its edges; each carries a message meant for a person."""

from __future__ import annotations

import difflib
import operator
from collections.abc import Iterable
from typing import Any, Literal

# what is wrong with a line of orders, for programs and tests: a closed set (game/message.py
# PROBLEM_CODES says what each means; a Literal, a plain string at run time); "" for none
ProblemCode = Literal[
    "unknown_place", "unknown_power", "bad_coast", "unknown_word", "incomplete",
    "wrong_phase", "not_an_order", "no_power", "no_unit", "not_own_unit", "neutral_power",
    "adjustment_refused", "retreat_refused", "order_refused", "unknown_passage",
    "permission_refused", "quoted", "",
]


class PolydipError(Exception):
    """Base class: a problem with the user's input, reported without a traceback."""


class VariantError(PolydipError):
    """A variant file that cannot be loaded; names the key (and line when known)."""


class OrderError(PolydipError):
    """An order that cannot be read or does not fit the position. `code` names the problem
    for programs and tests ("unknown_place", "bad_coast", "unknown_power", "unknown_word",
    "incomplete", "wrong_phase"; "" when not given)."""

    def __init__(self, message: str, order: str = "", code: ProblemCode = "") -> None:
        super().__init__(message)
        self.order = order
        self.code = code

    def __str__(self) -> str:
        msg = self.args[0]
        return f"{self.order!r}: {msg}" if self.order else msg


class GameFileError(PolydipError):
    """A game file that cannot be read or written."""


class NotSupportedError(PolydipError):
    """A feature polydip does not implement yet; says so rather than guessing."""


def did_you_mean(word: str, candidates: Iterable[str], n: int = 3) -> str:
    """Return ' (did you mean X or Y?)' for the closest candidates, or ''."""
    pool = {c.lower(): c for c in candidates}
    close = difflib.get_close_matches(word.lower(), list(pool), n=n, cutoff=0.6)
    if not close:
        return ""
    names = [pool[c] for c in close]
    shown = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    return f" (did you mean {shown}?)"


def int_given(x: Any) -> int | None:
    """`x` as an int when it is one (numpy's ints too), None when it is not: a float, a
    string, a bool (an int to Python, never a code or an index a user meant) or anything
    else. What the API's checks of codes, indices and actions share."""
    if isinstance(x, bool):
        return None
    try:
        return operator.index(x)
    except TypeError:
        return None
