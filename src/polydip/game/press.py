"""Press: the messages powers send each other during a game, as part of the game's data.

A Message is plain data: the phase it was sent in (polydip's phase name, "S1901M"), the
sender (a power's name as the variant spells it), the recipients (GLOBAL: every power; or a
tuple of power names), the time it was sent (an integer of microseconds since the epoch, as
the `diplomacy` package keeps it; unique and increasing within a game) and the text.

Files written by other tools may hold the package's special names: a message from "SYSTEM",
or to "OBSERVER" / "OMNISCIENT". They are kept as read (SPECIAL_SENDERS,
SPECIAL_RECIPIENTS) so that a converted game loses nothing; `make_message` (what
Game.add_message calls) accepts powers only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.notation import power_index

GLOBAL = "GLOBAL"
SPECIAL_SENDERS = frozenset({"SYSTEM"})
SPECIAL_RECIPIENTS = frozenset({"OBSERVER", "OMNISCIENT"})
MAX_TEXT = 4000  # characters; a longer message is refused

# why a message is refused, for programs and tests (a closed set, typed)
PressCode = Literal["unknown_power", "empty_text", "too_long", "bad_text", "bad_recipients",
                    "bad_time", "bad_message", "press_closed", "too_many"]


class PressError(PolydipError):
    """A message that cannot be sent or read: its reason `code` (unknown_power, empty_text,
    too_long, bad_text, bad_recipients, bad_time, bad_message; press_closed: the press rule
    does not allow it, too_many: past a limit of messages) beside the words."""

    def __init__(self, message: str, code: PressCode) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Message:
    phase: str
    sender: str
    recipients: str | tuple[str, ...]  # GLOBAL or power names, in the variant's spelling
    time: int  # microseconds since the epoch
    text: str

    @property
    def is_global(self) -> bool:
        return self.recipients == GLOBAL

    def addresses(self, power: str) -> bool:
        """Whether `power` (a name as the variant spells it) may read the message: it sent
        it, it is public, or it is among the recipients."""
        return self.sender == power or self.is_global or power in self.recipients

    def as_json(self) -> dict[str, Any]:
        return {"phase": self.phase, "sender": self.sender,
                "recipients": self.recipients if self.is_global else list(self.recipients),
                "time": self.time, "text": self.text}


def now_micros() -> int:
    return time.time_ns() // 1000


def check_text(text: Any) -> str:
    if not isinstance(text, str) or not text.strip():
        raise PressError("a message needs some text", "empty_text")
    if "\x00" in text:
        raise PressError("a message cannot hold a NUL character", "bad_text")
    if len(text) > MAX_TEXT:
        raise PressError(f"a message is at most {MAX_TEXT:,} characters ({len(text):,} given)",
                         "too_long")
    return text


def _power_name(m: Map, name: Any, what: str) -> str:
    if not isinstance(name, str):
        raise PressError(f"{what}: a power's name, not {type(name).__name__}", "unknown_power")
    if len(name) > 100:
        raise PressError(f"{what}: no power has a name of {len(name):,} characters",
                         "unknown_power")
    try:
        return m.powers[power_index(m, name)]
    except PolydipError as exc:
        raise PressError(f"{what}: {exc}", "unknown_power") from None


def check_recipients(m: Map, sender: str, recipients: Any) -> str | tuple[str, ...]:
    """GLOBAL, or the recipients as power names in the variant's spelling, each once, in the
    map's order (names read as players type them: "france", "UK")."""
    if isinstance(recipients, str):
        if recipients.strip().upper() == GLOBAL:
            return GLOBAL
        recipients = [recipients]
    if not isinstance(recipients, list | tuple) or not recipients:
        raise PressError("recipients: GLOBAL or a non-empty list of powers", "bad_recipients")
    names = {_power_name(m, r, "recipient") for r in recipients}
    names.discard(sender)
    if not names:
        raise PressError("a power cannot send a message to itself only", "bad_recipients")
    return tuple(p for p in m.powers if p in names)


def make_message(m: Map, phase: str, sender: Any, recipients: Any, text: Any,
                 after: int = 0, sent: int | None = None) -> Message:
    """A message from a power of the map, its names checked (PressError with a code);
    `after`: the time of the game's last message (the new one's time is later)."""
    who = _power_name(m, sender, "sender")
    to = check_recipients(m, who, recipients)
    body = check_text(text)
    if sent is not None and (not isinstance(sent, int) or isinstance(sent, bool) or sent < 0):
        raise PressError("time: microseconds since the epoch, a whole number", "bad_time")
    t = max(now_micros() if sent is None else sent, after + 1)
    return Message(phase, who, to, t, body)


def message_from_json(m: Map, data: Any, where: str) -> Message:
    """A message of a polydip game file (Message.as_json); the package's special names are
    read as they are."""
    if not isinstance(data, dict):
        raise PressError(f"{where}: a message is an object", "bad_message")
    t = data.get("time")
    if not isinstance(t, int) or isinstance(t, bool):
        raise PressError(f"{where}: time: a whole number of microseconds", "bad_time")
    phase = data.get("phase")
    if not isinstance(phase, str):
        raise PressError(f"{where}: phase: a phase name", "bad_message")
    text = data.get("text")
    if not isinstance(text, str):
        raise PressError(f"{where}: text: a string", "bad_message")
    return Message(phase, read_sender(m, data.get("sender"), where),
                   read_recipients(m, data.get("recipients"), where), t, text)


def read_sender(m: Map, name: Any, where: str) -> str:
    if isinstance(name, str) and name.upper() in SPECIAL_SENDERS:
        return name.upper()
    return _power_name(m, name, f"{where}: sender")


def read_recipients(m: Map, val: Any, where: str) -> str | tuple[str, ...]:
    if isinstance(val, str):
        val = [val]
    if not isinstance(val, list) or not val:
        raise PressError(f"{where}: recipients: GLOBAL or a list of powers", "bad_recipients")
    if len(val) == 1 and isinstance(val[0], str) and val[0].upper() == GLOBAL:
        return GLOBAL
    out = []
    for r in val:
        if isinstance(r, str) and r.upper() in SPECIAL_RECIPIENTS:
            out.append(r.upper())
        else:
            out.append(_power_name(m, r, f"{where}: recipient"))
    return tuple(out)
