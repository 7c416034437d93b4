"""Deadlines at a time of day in a time zone: "20:00 Europe/Paris, at least 24 hours away".

A game created with a clock (GameClockRow) ends the phases of the kinds it names at the
first time its zone's wall clock shows `at` that is at least `min_hours` after the phase
began; the other phases keep their minutes. The date is counted in the zone (zoneinfo), so a
deadline stays at 20:00 local across a change of summer time: the phase is an hour shorter
or longer that week. A time the clocks skip (02:30 the night they go forward) is read with
the offset before the jump (it falls an hour later on the wall clock).
"""

from __future__ import annotations

import functools
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, available_timezones

from sqlalchemy.orm import Session, object_session

from polydip.errors import PolydipError
from polydip.host.models import GameRow
from polydip.host.notify_models import GameClockRow

HHMM = re.compile(r"^([01]\d|2[0-3]):([0-5]\d)$")
KINDS = ("M", "MRA")


class ClockError(PolydipError):
    status = 400


def check_clock(clock: dict[str, Any]) -> dict[str, Any]:
    """The clock a GM asked for, checked: {"at": "HH:MM", "zone": IANA name, "min_hours":
    0 to 336, "phases": "M" (movement phases only) or "MRA" (every phase)}."""
    at = str(clock.get("at") or "").strip()
    if not HHMM.match(at):
        raise ClockError(f"a deadline's time of day is HH:MM, 00:00 to 23:59 (got {at[:20]!r})")
    zone = str(clock.get("zone") or "UTC").strip()
    if zone not in _zones():  # the IANA names only: no file of the server's ("localtime")
        raise ClockError(f"no time zone named {zone[:64]!r}: name one like Europe/Paris, "
                         "America/New_York or UTC")
    try:
        hours = float(clock.get("min_hours", 12) or 0)
    except (TypeError, ValueError):
        raise ClockError("min_hours: a number of hours, 0 to 336") from None
    if not 0 <= hours <= 336:
        raise ClockError(f"min_hours: 0 to 336 hours (got {hours})")
    phases = str(clock.get("phases") or "M").upper()
    if phases not in KINDS:
        raise ClockError("phases: 'M' (movement phases) or 'MRA' (every phase)")
    return {"at": at, "zone": zone, "min_hours": hours, "phases": phases}


@functools.cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) - {"localtime", "posixrules", "Factory"}


def next_time(now: datetime, at: str, zone: str, min_hours: float) -> datetime:
    """The first moment at least `min_hours` after `now` (UTC, as stored: no zone) at which
    the clocks of `zone` show `at`; UTC without a zone."""
    tz = ZoneInfo(zone)
    earliest = now.replace(tzinfo=UTC) + timedelta(hours=min_hours)
    hh, mm = (int(x) for x in at.split(":"))
    day: date = earliest.astimezone(tz).date()
    while True:
        when = datetime.combine(day, time(hh, mm), tzinfo=tz).astimezone(UTC)
        if when >= earliest:
            return when.replace(tzinfo=None)
        day += timedelta(days=1)


def clock_of(s: Session, game_id: int) -> GameClockRow | None:
    return s.get(GameClockRow, game_id)


def set_clock(s: Session, game_id: int, clock: dict[str, Any]) -> None:
    """Give a new game its clock (checked by check_clock)."""
    s.add(GameClockRow(game_id=game_id, **clock))
    s.flush()


def clock_deadline(g: GameRow, phase_type: str, now: datetime) -> datetime | None:
    """The deadline the game's clock sets for a phase of kind `phase_type` begun at `now`;
    None when the game has no clock or the clock is not for this kind."""
    s = object_session(g)
    clock = clock_of(s, g.id) if s is not None else None
    if clock is None or phase_type not in clock.phases:
        return None
    return next_time(now, clock.at, clock.zone, clock.min_hours)


def describe(clock: GameClockRow, deadline: datetime | None) -> dict[str, str]:
    """What a page says of the clock: the rule, and the deadline in the zone and in UTC."""
    which = "movement phases" if clock.phases == "M" else "every phase"
    out = {"rule": f"{which} end at {clock.at} {clock.zone}, at least "
                   f"{clock.min_hours:g} h after they begin", "zone": clock.zone}
    if deadline is not None:
        utc = deadline.replace(tzinfo=UTC)
        local = utc.astimezone(ZoneInfo(clock.zone))
        out["local"] = local.strftime("%a %d %b %Y %H:%M %Z")
        out["utc"] = utc.strftime("%a %d %b %Y %H:%M UTC")
    return out
