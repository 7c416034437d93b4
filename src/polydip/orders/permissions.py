"""Passage permissions written in a message, as players write them (issue 27):

    Britain allows Italy through Cairo
    Britain permits Italy and France through the Suez Canal
    UK lets USSR pass the Straits
    Britain no longer allows Italy through Suez / Britain revokes Italy's passage through Suez

On a map with controlled passages (rules/controlled_passages.py), such a line is read as the
controlling power's permission (the power named first, else the power whose orders the line
stands among, else whoever controls the passage now); a passage or a power the map does not
know is reported with a suggestion. On other maps these words are prose.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polydip.errors import PolydipError, ProblemCode, did_you_mean
from polydip.geography.map import Map

_ALLOW = r"(?:allows?|permits?|lets|grants?|opens?\s+(?:passage\s+)?to)"
_REVOKE = (r"(?:no\s+longer\s+(?:allows?|permits?|lets)|revokes?|withdraws?|denies|"
           r"forbids?|closes?\s+(?:passage\s+)?to)")
_THROUGH = (r"(?:to\s+)?(?:pass|sail|go|move)(?:\s+(?:through|via|thru|across))?"
            r"|through|via|thru|across")
_LINE = re.compile(
    rf"^(?:(?P<ctrl>[\w .’'-]+?)\s+)?(?P<verb>{_REVOKE}|{_ALLOW})\s+(?P<powers>.+?)"
    rf"(?:'s|’s)?(?:\s+passage)?\s+(?:{_THROUGH})\s+(?P<passage>(?:the\s+)?[\w .’'-]+?)"
    r"\s*[.!]?$", re.IGNORECASE)
# words before the verb that name the power whose orders the line stands among
_SPEAKER = {"we", "i", "hereby", "will", "shall", "also", "now", "do", "herewith"}
_SPLIT = re.compile(r"\s*(?:,|\band\b|&|\+)\s*", re.IGNORECASE)


@dataclass(slots=True)
class Permission:
    """A permission line: `controller` (-1: the power controlling the passage now) lets
    `powers` through `passage` (`allow`) or no longer does."""

    line: int
    text: str
    passage: str
    powers: list[int]
    controller: int
    allow: bool


class PermissionError_(PolydipError):
    """A line that reads as a permission but names what the map does not know."""

    code: ProblemCode = "unknown_passage"


def read_permission(m: Map, n: int, text: str, current: int | None) -> Permission | None:
    """The permission a line gives, None when it is not one (or the map has no passages);
    a PermissionError_ (with a suggestion) when it names an unknown passage or power."""
    names = m.rules.passage_names()
    if not names:
        return None
    got = _LINE.match(text.strip())
    if got is None:
        return None
    allow = re.match(_REVOKE, got.group("verb"), re.IGNORECASE) is None
    powers: list[int] = []
    unknown = ""
    for word in _SPLIT.split(got.group("powers").strip()):
        p = m.find_power(word) if word else None
        if p is None and word:
            unknown = unknown or word
        elif p is not None:
            powers.append(p)
    try:
        passage = m.rules.passage(got.group("passage"))
    except PolydipError as exc:
        if unknown or not powers:  # neither the powers nor the passage: prose
            return None
        raise PermissionError_(str(exc)) from None
    if unknown or not powers:
        err = PermissionError_(f"unknown power {unknown!r}" + did_you_mean(unknown, m.powers))
        err.code = "unknown_power"
        raise err
    controller = current if current is not None else -1
    ctrl_text = (got.group("ctrl") or "").strip()
    if all(w in _SPEAKER for w in ctrl_text.lower().split()):
        ctrl_text = ""  # "We allow ...", "I hereby permit ...": the power speaking
    if ctrl_text:
        found = m.find_power(ctrl_text)
        if found is None:
            err = PermissionError_(f"unknown power {ctrl_text!r}"
                                   + did_you_mean(ctrl_text, m.powers))
            err.code = "unknown_power"
            raise err
        controller = found
    return Permission(n, text, passage, powers, controller, allow)
