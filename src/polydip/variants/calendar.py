"""Phase names and the phase cycle of a variant's calendar."""

from __future__ import annotations

import re
from typing import Final

from polydip.errors import PolydipError
from polydip.state import Phase, PhaseType
from polydip.variants.model import PHASE_TYPES, Calendar

_PHASE = re.compile(r"^\s*([A-Za-z]+?)\s*(\d+)\s*([A-Za-z])\s*$")
_LONG = re.compile(r"^\s*([A-Za-z]+)\s+(\d+)\s*,?\s*([A-Za-z]+)?\s*$")
# year first, then the season and which of its phases: "1891A", "1891 D-1", "1891D2"
_YEAR_FIRST = re.compile(r"^\s*(\d+)\s*([A-Za-z]+?)\s*-?\s*(\d)?\s*$")
_TYPE_WORDS: Final[dict[str, PhaseType]] = {
    "movement": "M", "moves": "M", "retreat": "R", "retreats": "R",
    "adjustment": "A", "adjustments": "A", "builds": "A", "build": "A"}


def parse_phase(cal: Calendar, text: str) -> Phase:
    """'S1901M', 's1901m', 'Spring 1901 Movement', 'Spring 1901, Movement' → Phase; also
    year first with the season's phase by number, as Latin American Diplomacy writes its
    phases: '1891A' (the season's first phase), '1891 D-1', '1891D2' (its second)."""
    y = _YEAR_FIRST.match(text)
    if y:
        return _year_first(cal, text, int(y.group(1)), y.group(2).upper(), int(y.group(3) or 1))
    m = _PHASE.match(text)
    if m:
        season, year, letter = m.group(1).upper(), int(m.group(2)), m.group(3).upper()
    else:
        m = _LONG.match(text)
        if not m:
            raise PolydipError(f"cannot read phase {text!r}; write it like S1901M")
        season_word, year = m.group(1).lower(), int(m.group(2))
        season = next((s.abbr for s in cal.seasons if s.name.lower() == season_word), "")
        if not season:
            raise PolydipError(f"unknown season {m.group(1)!r} in phase {text!r}")
        words = (m.group(3) or "").lower()
        letter = _TYPE_WORDS.get(words, "")
        if not letter:
            s = next(s for s in cal.seasons if s.abbr == season)
            letter = PHASE_TYPES[s.phases[0]]
    seasons = {s.abbr.upper(): s for s in cal.seasons}
    if season not in seasons:
        known = ", ".join(s.abbr for s in cal.seasons)
        raise PolydipError(f"unknown season {season!r} in phase {text!r} (seasons: {known})")
    allowed: dict[str, PhaseType] = {PHASE_TYPES[p]: PHASE_TYPES[p]
                                     for p in seasons[season].phases}
    typ = allowed.get(letter)
    if typ is None:
        raise PolydipError(f"phase {text!r}: season {season} has no {letter} phase (it has "
                           f"{', '.join(allowed)})")
    return Phase(year, seasons[season].abbr, typ)


def _year_first(cal: Calendar, text: str, year: int, season: str, n: int) -> Phase:
    seasons = {s.abbr.upper(): s for s in cal.seasons}
    if season not in seasons:
        known = ", ".join(s.abbr for s in cal.seasons)
        raise PolydipError(f"unknown season {season!r} in phase {text!r} (seasons: {known})")
    s = seasons[season]
    if not 1 <= n <= len(s.phases):
        raise PolydipError(f"phase {text!r}: season {s.abbr} has {len(s.phases)} phase(s)")
    return Phase(year, s.abbr, PHASE_TYPES[s.phases[n - 1]])


def phase_cycle(cal: Calendar) -> list[tuple[str, PhaseType]]:
    """[(season abbr, type letter), ...] for one year."""
    return list(_cycle(cal)[0])


def _cycle(cal: Calendar
           ) -> tuple[tuple[tuple[str, PhaseType], ...], dict[tuple[str, str], int]]:
    """The phase cycle of a calendar and each phase's index in it, computed once per
    calendar (a calendar is not changed once its variant is loaded)."""
    got = _CYCLES.get(id(cal))
    if got is None or got[0] is not cal:
        cyc = tuple((s.abbr, PHASE_TYPES[p]) for s in cal.seasons for p in s.phases)
        got = (cal, cyc, {x: i for i, x in enumerate(cyc)})
        _CYCLES[id(cal)] = got
    return got[1], got[2]


_CYCLES: Final[dict[int, tuple[Calendar, tuple[tuple[str, PhaseType], ...],
                            dict[tuple[str, str], int]]]] = {}


def following(cal: Calendar, phase: Phase) -> Phase:
    """The phase after `phase` in the cycle (no skipping)."""
    cyc, index = _cycle(cal)
    i = index[(phase.season, phase.type)]
    if i + 1 < len(cyc):
        s, t = cyc[i + 1]
        return make_phase(phase.year, s, t)
    s, t = cyc[0]
    return make_phase(phase.year + 1, s, t)


def make_phase(year: int, season: str, typ: PhaseType) -> Phase:
    """Phase(year, season, typ), one object per phase (phases are immutable)."""
    key = (year, season, typ)
    got = _PHASES.get(key)
    if got is None:
        if len(_PHASES) > 100_000:
            _PHASES.clear()
        got = _PHASES[key] = Phase(year, season, typ)
    return got


_PHASES: Final[dict[tuple[int, str, str], Phase]] = {}


def is_last_of_season(cal: Calendar, phase: Phase) -> bool:
    cyc, index = _cycle(cal)
    i = index[(phase.season, phase.type)]
    return i + 1 == len(cyc) or cyc[i + 1][0] != phase.season


def season_name(cal: Calendar, phase: Phase) -> str:
    s = next(s for s in cal.seasons if s.abbr == phase.season)
    t = {"M": "Movement", "R": "Retreats", "A": "Adjustments"}[phase.type]
    if s.title:  # as the rules text names it: "1891 A Phase (March-June) Movement"
        return f"{phase.year} {s.title} {t}"
    return f"{s.name} {phase.year} {t}"
