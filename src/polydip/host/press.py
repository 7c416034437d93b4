"""Press in the host: powers send messages to one power, several, or all (public), under the
game's press rule, and each link reads only what it may.

The rules (chosen at creation, PressRow): `full` (any messages), `public` (public messages
only), `none` (gunboat: no messages), `rulebook` (none during retreat and adjustment phases).
`anonymous`: players' names are never kept (power names only); `gm_reads_press`: the GM reads
private messages too (otherwise public ones only). A power reads the messages it sent, those
addressed to it and public ones — never another's private messages.

A message is kept with the phase it was sent in (its seq and name) and goes into the game's
exports (host/press_rows.game_messages, game/press.py). Limits: MAX_TEXT characters a
message, RATE messages per power per RATE_SECONDS (429 beyond). Like every player request, a
message names the phase it was written in (phase_id): one written for a phase that is gone
is refused (Stale, 409), one sent after the deadline too (Late).

Listeners: `on_message(callback)` registers a function called with a PressEvent after each
message is stored (committed), e.g. to mail a digest; a listener that raises is logged and
does not undo the message nor stop the other listeners.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, get_args

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from polydip.game.press import GLOBAL, MAX_TEXT, PressError, make_message
from polydip.host.db import Database
from polydip.host.live import notify
from polydip.host.models import GameRow
from polydip.host.notify import message_sent
from polydip.host.press_rows import (
    MessageRow,
    PlayerNameRow,
    PressRow,
    message_rows,
    settings_json,
)
from polydip.host.service import Conflict, Host, HostError, now_utc, phase_id

log = logging.getLogger("polydip.host")

PressRule = Literal["full", "public", "none", "rulebook"]  # the schema's `press` too
RULES: tuple[str, ...] = get_args(PressRule)
RATE = 20  # messages a power may send ...
RATE_SECONDS = 60  # ... in this many seconds
MAX_NAME = 60  # characters of a player's name


class PressClosed(Conflict):
    """The game's press rule does not allow this message now (409)."""


class RateLimited(HostError):
    status = 429


@dataclass(frozen=True, slots=True)
class PressEvent:
    """A message just stored: what a listener is told. `readers`: the powers it addresses
    (every other power for a public one), by name."""

    game_id: int
    seq: int
    phase: str
    sender: str
    readers: tuple[str, ...]
    public: bool
    time: int
    text: str


Listener = Callable[[PressEvent], None]
listeners: list[Listener] = []


def on_message(callback: Listener) -> Listener:
    """Call `callback(event)` after each message is stored; returns it (a decorator too)."""
    listeners.append(callback)
    return callback


def _notify(event: PressEvent) -> None:
    for callback in list(listeners):
        try:
            callback(event)
        except Exception:  # a listener's failure is its own: the message stays sent
            log.exception("game %s: a press listener failed", event.game_id)


# ---- settings -----------------------------------------------------------------------------

def take_settings(fields: dict[str, Any]) -> dict[str, Any]:
    """The press settings of a creation's fields, removed from them (the rest go to
    Host.create_game); checked, so that a bad one is refused before the game is made."""
    rule = fields.pop("press", None) or "full"
    anonymous = fields.pop("anonymous", False)
    gm_reads = fields.pop("gm_reads_press", False)
    if rule not in RULES:
        raise HostError(f"press: one of {', '.join(RULES)} (got {str(rule)[:20]!r})")
    return {"rule": rule, "anonymous": bool(anonymous), "gm_reads": bool(gm_reads)}


def configure(db: Database, game_id: int, rule: str = "full", anonymous: bool = False,
              gm_reads: bool = False) -> None:
    """Record a new game's press settings (take_settings)."""
    with db.transaction() as s:
        row = s.get(PressRow, game_id)
        if row is None:
            row = PressRow(game_id=game_id)
            s.add(row)
        row.rule, row.anonymous, row.gm_reads = rule, anonymous, gm_reads


def settings_of(s: Session, g: GameRow) -> PressRow | None:
    return s.get(PressRow, g.id)


def closed_because(row: PressRow | None, phase_type: str, public: bool) -> str | None:
    """Why the press rule refuses a message now (None: it may be sent)."""
    rule = row.rule if row else "full"
    if rule == "none":
        return "this is a gunboat game: no press"
    if rule == "rulebook" and phase_type in ("R", "A"):
        return ("rulebook press: no messages during retreat and adjustment phases; "
                "write again when the next movement phase begins")
    if rule == "public" and not public:
        return "this game has public press only: send to all powers"
    return None


# ---- sending -------------------------------------------------------------------------------

def send(host: Host, token: str, to: str | list[str], text: str, *, phase: str
         ) -> dict[str, Any]:
    """A power's message to `to` (GLOBAL, a power or a list of powers, named as players type
    them), written for phase `phase` (its id). Returns the message as its sender reads it."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise HostError(f"a message is at most {MAX_TEXT:,} characters")
    with host._player_request(token, phase) as (s, g, p):  # (the lock every player request takes)
        game = host.game(s, g)
        m = game.map
        last = s.scalar(select(func.max(MessageRow.time)).where(MessageRow.game_id == g.id))
        try:
            msg = make_message(m, g.phase, m.powers[p.power], to, text, last or 0)
        except PressError as exc:
            raise HostError(str(exc)) from None
        why = closed_because(settings_of(s, g), game.position.phase.type, msg.is_global)
        if why:
            raise PressClosed(why)
        seated = {r.power for r in host.powers(s, g)}
        idx = [] if msg.is_global else [m.powers.index(r) for r in msg.recipients]
        nobody = [m.powers[i] for i in idx if i not in seated]
        if nobody:
            raise HostError(f"{', '.join(nobody)} has no player (a neutral power)")
        now = now_utc()
        recent = s.scalar(select(func.count()).select_from(MessageRow).where(
            MessageRow.game_id == g.id, MessageRow.sender == p.power,
            MessageRow.created > now - timedelta(seconds=RATE_SECONDS)))
        if (recent or 0) >= RATE:
            raise RateLimited(f"at most {RATE} messages in {RATE_SECONDS} seconds: wait a "
                              "little and send it again")
        row = MessageRow(game_id=g.id, seq=g.seq, phase=g.phase, sender=p.power,
                         public=msg.is_global, recipients=idx, time=msg.time, text=msg.text,
                         created=now)
        s.add(row)
        s.flush()
        readers = tuple(m.powers[i] for i in (sorted(seated) if msg.is_global else idx)
                        if i != p.power)
        event = PressEvent(g.id, g.seq, g.phase, m.powers[p.power], readers, msg.is_global,
                           msg.time, msg.text)
        # the readers' mail digests, queued in the message's own transaction (host/notify.py)
        message_sent(s, g.id, g.phase, p.power, [m.powers.index(r) for r in readers])
        if msg.is_global:  # open pages say "a new message" (live.py); a private one is not
            notify(s, g.id, "message")  # announced: every page of the game would learn of it
        answer = _message_json(row, m.powers, {})
    _notify(event)
    return answer


def set_name(host: Host, token: str, name: str) -> str:
    """The name a player gives for their power ("" removes it); refused in an anonymous
    game, which keeps no player names."""
    name = " ".join(name.split())
    if len(name) > MAX_NAME:
        raise HostError(f"a name is at most {MAX_NAME} characters")
    if any(not c.isprintable() for c in name):
        raise HostError("a name holds printable characters only")
    with host.db.transaction() as s:
        g, p = host.player(s, token, lock=True)
        row = settings_of(s, g)
        if row is not None and row.anonymous:
            raise Conflict("this game is anonymous: players are known by their powers only, "
                           "and no name is kept")
        old = s.scalars(select(PlayerNameRow).where(PlayerNameRow.game_id == g.id,
                                                    PlayerNameRow.power == p.power)).first()
        if not name:
            if old is not None:
                s.delete(old)
            return ""
        if old is None:
            s.add(PlayerNameRow(game_id=g.id, power=p.power, name=name))
        else:
            old.name = name
        return name


# ---- reading -------------------------------------------------------------------------------

def _names(s: Session, g: GameRow, row: PressRow | None) -> dict[int, str]:
    if row is not None and row.anonymous:
        return {}
    return {r.power: r.name for r in s.scalars(
        select(PlayerNameRow).where(PlayerNameRow.game_id == g.id))}


def _message_json(r: MessageRow, powers: list[str], names: dict[int, str]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "id": r.id, "seq": r.seq, "phase": r.phase, "sender": powers[r.sender],
        "recipients": GLOBAL if r.public else [powers[i] for i in r.recipients],
        "time": r.time, "text": r.text}
    if r.sender in names:
        out["sender_player"] = names[r.sender]
    return out


def readable(r: MessageRow, power: int | None, gm_reads: bool) -> bool:
    """Whether a link reads the message: a power (`power`) what it sent, what addresses it
    and public messages; the GM (None) public ones, private ones too with `gm_reads`."""
    if r.public:
        return True
    if power is None:
        return gm_reads
    return r.sender == power or power in r.recipients


def press_view(host: Host, s: Session, g: GameRow, power: int | None,
               seq: int | None = None) -> dict[str, Any]:
    """What a link may see of the game's press (`power` None: the GM's): its settings,
    whether it may send now (and why not), the powers it may write to, and the messages it
    reads (of phase `seq` if given), in the order sent."""
    row = settings_of(s, g)
    game = host.game(s, g)
    m = game.map
    gm_reads = bool(row and row.gm_reads)
    names = _names(s, g, row)
    msgs = [_message_json(r, m.powers, names) for r in message_rows(s, g.id)
            if readable(r, power, gm_reads) and (seq is None or r.seq == seq)]
    view: dict[str, Any] = {**settings_json(row), "phase": g.phase, "phase_id": phase_id(g),
                            "messages": msgs}
    if power is not None:
        seated = sorted(r.power for r in host.powers(s, g))
        view["power"] = m.powers[power]
        view["player"] = names.get(power)
        view["others"] = [m.powers[i] for i in seated if i != power]
        why = ("the game is over" if g.status != "active"
               else closed_because(row, game.position.phase.type, False))
        public_why = (why if g.status != "active"
                      else closed_because(row, game.position.phase.type, True))
        view["may_send"] = public_why is None
        view["private_allowed"] = why is None
        view["closed"] = public_why
    else:
        view["reads_private"] = gm_reads
    view["phases"] = _by_phase(msgs)
    return view


def _by_phase(msgs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages in groups of one phase each, in the order sent."""
    out: list[dict[str, Any]] = []
    for x in msgs:
        if not out or (out[-1]["seq"], out[-1]["phase"]) != (x["seq"], x["phase"]):
            out.append({"seq": x["seq"], "phase": x["phase"], "messages": []})
        out[-1]["messages"].append(x)
    return out
