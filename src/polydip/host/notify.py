"""What the host mails, queued in the database (host/notify_models.py); host/mail.py sends it.

Every function here runs inside the caller's transaction and only writes rows: a request or
a phase's processing never waits for a mail server. Each mail has a key that is unique in
the outbox, so a mail is queued once however often its cause is seen (two servers, two
ticks). A mail's body holds `{link}`, `{unsubscribe}` and `{report}` where the sender puts
the holder's own link, the unsubscribe link and the phase's results.

Addresses are private: no page but their holder's shows one, no export or log holds one.
The holder's own link is kept sealed with the server's mail key (a file in the data folder,
never in the database), so a copy of the database gives no link.

The press engineer's hook: `message_sent(session, game_id, phase, sender, recipients)` inside
the transaction that stores a message queues it for the recipients' next digest.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import math
import re
import secrets
import uuid
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from polydip.errors import PolydipError
from polydip.host.models import GameRow, OrderRow, PhaseRow, PowerRow
from polydip.host.notify_models import GM, MailAddressRow, MailOutboxRow, MailPressRow

KINDS = ("warning", "result", "press", "gm")
GM_KINDS = ("warning", "result")  # the GM reads no private press, and makes the GM's actions
DEFAULT_WARN_HOURS = [24.0, 1.0]
ADDRESS = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@"
                     r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                     r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$")


class MailError(PolydipError):
    status = 400


def now_utc() -> datetime:
    from datetime import UTC

    return datetime.now(UTC).replace(tzinfo=None)


# ---- the server's mail key: sealed links, signed unsubscribe links -----------------------------


def mail_key(data_dir: str | Path) -> bytes:
    """The server's mail key (DATA/mail.key, made on first use, readable by its owner only)."""
    path = Path(data_dir) / "mail.key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            with open(path, "x", encoding="ascii", opener=_private) as f:
                f.write(secrets.token_hex(32))
        except FileExistsError:  # another server made it meanwhile
            pass
    return bytes.fromhex(path.read_text(encoding="ascii").strip())


def _private(path: str, flags: int) -> int:
    import os

    return os.open(path, flags, 0o600)


def _stream(key: bytes, nonce: bytes, n: int) -> bytes:
    out = b""
    counter = 0
    while len(out) < n:
        out += hmac.digest(key, b"seal" + nonce + counter.to_bytes(4, "big"), "sha256")
        counter += 1
    return out[:n]


def seal(key: bytes, text: str) -> str:
    """`text` encrypted and authenticated with `key` (HMAC-SHA256 as a stream and a MAC)."""
    nonce = secrets.token_bytes(16)
    plain = text.encode()
    body = bytes(a ^ b for a, b in zip(plain, _stream(key, nonce, len(plain)), strict=True))
    tag = hmac.digest(key, b"tag" + nonce + body, "sha256")[:16]
    return base64.urlsafe_b64encode(nonce + body + tag).decode()


def unseal(key: bytes, sealed: str) -> str | None:
    """The text `seal` sealed; None when it is not one of this key's."""
    try:
        raw = base64.urlsafe_b64decode(sealed.encode())
    except ValueError:
        return None
    if len(raw) < 32:
        return None
    nonce, body, tag = raw[:16], raw[16:-16], raw[-16:]
    if not hmac.compare_digest(tag, hmac.digest(key, b"tag" + nonce + body, "sha256")[:16]):
        return None
    return bytes(a ^ b for a, b in zip(body, _stream(key, nonce, len(body)), strict=True)
                 ).decode(errors="replace")


def unsubscribe_token(key: bytes, address_id: int) -> str:
    """The signed token of an address's unsubscribe link (no login needed to use it)."""
    mac = hmac.new(key, f"unsubscribe:{address_id}".encode(), hashlib.sha256).hexdigest()
    return f"{address_id}-{mac[:32]}"


def address_of_token(key: bytes, token: str) -> int | None:
    """The address id an unsubscribe token is for; None when its signature is wrong."""
    head, _, _ = token.partition("-")
    if not head.isdigit() or len(head) > 12:
        return None
    return int(head) if hmac.compare_digest(token, unsubscribe_token(key, int(head))) else None


# ---- addresses ------------------------------------------------------------------------------


def check_settings(address: str, kinds: Iterable[str], warn_hours: str, gm: bool
                   ) -> tuple[str, list[str], list[float]]:
    """An address, its kinds of mail and its warning hours ("24, 1"), checked."""
    address = address.strip()
    if len(address) > 254 or not ADDRESS.match(address):
        raise MailError("that is not an e-mail address (name@example.org)")
    allowed = GM_KINDS if gm else KINDS
    chosen = [k for k in dict.fromkeys(kinds) if k]
    wrong = [k for k in chosen if k not in allowed]
    if wrong:
        raise MailError(f"no kind of mail named {wrong[0][:20]!r}: choose among "
                        f"{', '.join(allowed)}")
    hours: list[float] = []
    for part in (warn_hours or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        try:
            h = float(part.strip().removesuffix("h").strip())
        except ValueError:
            raise MailError(f"warning hours: numbers of hours before the deadline, like "
                            f"'24, 1' (got {part.strip()[:20]!r})") from None
        if not 0 < h <= 336:
            raise MailError(f"a warning is more than 0 and at most 336 hours ahead (got {h:g})")
        hours.append(h)
    if len(hours) > 5:
        raise MailError("at most 5 warnings before a deadline")
    return address, chosen, sorted(set(hours), reverse=True)


def address_row(s: Session, game_id: int, power: int) -> MailAddressRow | None:
    return s.scalars(select(MailAddressRow).where(MailAddressRow.game_id == game_id,
                                                  MailAddressRow.power == power)).first()


def set_address(s: Session, game_id: int, power: int, address: str, kinds: list[str],
                warn_hours: list[float], link: str, site: str) -> MailAddressRow:
    """The power's (or the GM's) address and choices, replacing any earlier; subscribed."""
    row = address_row(s, game_id, power)
    if row is None:
        row = MailAddressRow(game_id=game_id, power=power, created=now_utc())
        s.add(row)
    elif row.address != address:  # a new address: nothing queued for the old one goes out
        _drop_queued(s, row.id)
    row.address, row.kinds, row.warn_hours = address, kinds, warn_hours
    row.link, row.site, row.unsubscribed = link, site[:300], False
    s.flush()
    return row


def remove_address(s: Session, game_id: int, power: int) -> None:
    row = address_row(s, game_id, power)
    if row is not None:
        s.delete(row)
        s.flush()


def unsubscribe(s: Session, address_id: int) -> MailAddressRow | None:
    row = s.get(MailAddressRow, address_id)
    if row is not None:
        row.unsubscribed = True
        _drop_queued(s, row.id)
        s.execute(delete(MailPressRow).where(MailPressRow.address_id == row.id))
    return row


def _drop_queued(s: Session, address_id: int) -> None:
    s.execute(update(MailOutboxRow).where(MailOutboxRow.address_id == address_id,
                                          MailOutboxRow.state == "queued")
              .values(state="skipped"))


def _subscribed(s: Session, game_id: int, kind: str,
                powers: Iterable[int] | None = None) -> list[MailAddressRow]:
    stmt = select(MailAddressRow).where(MailAddressRow.game_id == game_id,
                                        MailAddressRow.unsubscribed.is_(False))
    if powers is not None:
        stmt = stmt.where(MailAddressRow.power.in_(list(powers)))
    return [r for r in s.scalars(stmt.order_by(MailAddressRow.power)) if kind in r.kinds]


def queue(s: Session, row: MailAddressRow, key: str, kind: str, subject: str, body: str,
          attach: dict[str, Any] | None = None, state: str = "queued") -> bool:
    """One mail to `row`'s address, unless a mail of this key was queued before."""
    key = key[:200]
    if s.scalar(select(MailOutboxRow.id).where(MailOutboxRow.key == key)) is not None:
        return False
    now = now_utc()
    try:  # another server may queue the same key at the same moment: one of them wins
        with s.begin_nested():
            s.add(MailOutboxRow(key=key, address_id=row.id, kind=kind, subject=subject[:300],
                                body=body, attach=attach, state=state, attempts=0,
                                next_try=now, created=now))
    except IntegrityError:
        return False
    return True


def _game_line(g: GameRow) -> str:
    return f"Game {g.name!r} (#{g.id})"


def _deadline_line(g: GameRow) -> str:
    if g.status != "active":
        return f"The game is over ({g.status})."
    if g.paused or g.deadline is None:
        return "The game is paused."
    return f"Deadline: {g.deadline.isoformat(timespec='minutes')} UTC."


# ---- the causes: a phase processed, the GM's actions, press ---------------------------------


def phase_processed(s: Session, g: GameRow, first_seq: int) -> None:
    """Phases first_seq .. g.seq - 1 were just processed: their results to each address
    that wants them, with the map (drawn when the mail is sent)."""
    seqs = list(range(first_seq, g.seq))
    for row in _subscribed(s, g.id, "result"):
        queue(s, row, f"result:{row.id}:{g.seq}:{g.phase_key}", "result",
              f"{g.name}: results, now {g.phase}",
              f"{_game_line(g)}: phase processed, the game is now at {g.phase}.\n"
              f"{_deadline_line(g)}\n\n{{report}}\n\nYour link: {{link}}\n",
              attach={"game": g.id, "seqs": seqs})


def gm_action(s: Session, g: GameRow, what: str) -> None:
    """The GM did `what` ("paused the game"): told to every player that wants it."""
    one = uuid.uuid4().hex[:12]
    for row in _subscribed(s, g.id, "gm"):
        if row.power == GM:
            continue
        queue(s, row, f"gm:{row.id}:{one}", "gm", f"{g.name}: the GM {what}",
              f"{_game_line(g)}: the GM {what}.\nPhase: {g.phase}. {_deadline_line(g)}\n\n"
              "Your link: {link}\n")


def player_replaced(s: Session, g: GameRow, power: int, name: str) -> None:
    """The GM gave `power` a new player: the old player's address goes (it is not the new
    player's), the others are told."""
    remove_address(s, g.id, power)
    gm_action(s, g, f"gave {name} a new player")


def links_rotated(s: Session, g: GameRow) -> None:
    """Every link changed: the sealed ones are dropped (each holder's page seals it again)."""
    s.execute(update(MailAddressRow).where(MailAddressRow.game_id == g.id).values(link=""))


def message_sent(s: Session, game_id: int, phase: str, sender: str | int,
                 recipients: Iterable[int | str]) -> int:
    """A message from `sender` (a power's name or index) to `recipients` (powers' names or
    indices) was stored in phase `phase`: queued for each recipient's next digest. Call it
    inside the transaction that stores the message. Returns how many addresses it goes to."""
    powers = {p.power: p.name for p in s.scalars(select(PowerRow).where(
        PowerRow.game_id == game_id))}
    by_name = {n.lower(): i for i, n in powers.items()}
    ids = {r if isinstance(r, int) else by_name.get(str(r).lower(), -2) for r in recipients}
    who = powers.get(sender, str(sender)) if isinstance(sender, int) else str(sender)
    ids.discard(sender if isinstance(sender, int) else by_name.get(who.lower(), -2))
    now = now_utc()
    rows = _subscribed(s, game_id, "press", ids - {GM})
    for row in rows:
        s.add(MailPressRow(address_id=row.id, phase=phase[:20], sender=who[:100], created=now))
    s.flush()
    return len(rows)


# ---- what the sender's tick queues: warnings and digests -----------------------------------


def warnings_due(s: Session, now: datetime, to_order: Callable[[Session, GameRow], set[int]]
                 ) -> int:
    """A warning to each address whose chosen time before its game's deadline has come
    (one mail when several come at once: the nearest); not to a power that has nothing to
    order or is ready, and not `h` hours ahead when the phase lasts no more than `h` hours
    (a 24 h warning of a 24 h phase says nothing). `to_order`: the powers that order in the
    game's phase."""
    rows = s.execute(select(MailAddressRow, GameRow).join(
        GameRow, GameRow.id == MailAddressRow.game_id).where(
        MailAddressRow.unsubscribed.is_(False), GameRow.status == "active",
        GameRow.paused.is_(False), GameRow.deadline.is_not(None), GameRow.deadline > now,
        GameRow.deadline <= now + timedelta(hours=336))).all()
    sent = 0
    ordering: dict[int, set[int]] = {}
    began: dict[int, datetime] = {}
    for row, g in rows:
        assert g.deadline is not None
        if g.id not in began:
            began[g.id] = s.scalar(select(PhaseRow.created).where(
                PhaseRow.game_id == g.id, PhaseRow.seq == g.seq)) or now
        left, length = g.deadline - now, g.deadline - began[g.id]
        crossed = [h for h in row.warn_hours
                   if left <= timedelta(hours=h) < length]
        if "warning" not in row.kinds or not crossed:
            continue
        base = f"warn:{row.id}:{g.phase}-{g.seq}-{g.phase_key}:{g.deadline.isoformat()}"
        nearest = min(crossed)
        if s.scalar(select(MailOutboxRow.id).where(
                MailOutboxRow.key == f"{base}:{nearest:g}"[:200])) is not None:
            continue
        if row.power != GM:
            if g.id not in ordering:
                ordering[g.id] = to_order(s, g)
            ready = s.scalar(select(OrderRow.ready).where(
                OrderRow.game_id == g.id, OrderRow.seq == g.seq, OrderRow.power == row.power))
            skip = row.power not in ordering[g.id] or bool(ready)
        else:
            skip = False
        for h in crossed:
            hours, minutes = divmod(math.ceil(left.total_seconds() / 60), 60)
            sent += queue(s, row, f"{base}:{h:g}", "warning",
                          f"{g.name}: {hours} h {minutes:02d} min left for {g.phase}",
                          f"{_game_line(g)}: {hours} h {minutes:02d} min left before the "
                          f"deadline of {g.phase}.\n{_deadline_line(g)}\n\n"
                          "Your link: {link}\n",
                          state="queued" if h == nearest and not skip else "skipped")
    return sent


def digests_due(s: Session, now: datetime, delay: timedelta) -> int:
    """One digest to each address whose oldest untold message is `delay` old: who wrote how
    many messages (never their text), with the link to read them."""
    oldest = s.execute(select(MailPressRow.address_id, MailPressRow.created)
                       .order_by(MailPressRow.created)).all()
    due = list(dict.fromkeys(a for a, created in oldest if created <= now - delay))
    queued = 0
    for address_id in due:
        row = s.get(MailAddressRow, address_id)
        press = list(s.scalars(select(MailPressRow).where(MailPressRow.address_id == address_id)
                               .order_by(MailPressRow.id)))
        if row is None or not press:
            continue
        g = s.get(GameRow, row.game_id)
        counts: dict[tuple[str, str], int] = {}
        for m in press:
            counts[m.phase, m.sender] = counts.get((m.phase, m.sender), 0) + 1
        lines = [f"  {phase}: {n} from {sender}" for (phase, sender), n in counts.items()]
        total = len(press)
        name = g.name if g is not None else f"game {row.game_id}"
        queued += queue(s, row, f"press:{row.id}:{press[-1].id}", "press",
                        f"{name}: {total} new message{'' if total == 1 else 's'}",
                        f"Game {name!r} (#{row.game_id}): {total} new "
                        f"message{'' if total == 1 else 's'} for you:\n" + "\n".join(lines)
                        + "\n\nRead them on your page: {link}\n")
        s.execute(delete(MailPressRow).where(MailPressRow.address_id == address_id,
                                             MailPressRow.id <= press[-1].id))
    return queued
