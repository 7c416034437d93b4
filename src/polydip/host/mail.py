"""Sending the mail host/notify.py queued, through the SMTP server the operator names
(`polydip serve --smtp URL --mail-from ADDR`).

URLs: `smtp://host:port` (plain, port 25), `smtp+starttls://user:pass@host:587` (STARTTLS,
then login), `smtps://user:pass@host:465` (TLS from the start). The password is kept by the
`Smtp` object alone: never in its repr, a log line or an error message (every text shown is
scrubbed of it).

The sender is a task of the app (`Mailer.run`): every tick it queues the deadline warnings
and digests that are due, then sends the outbox's due mails one by one in a worker thread,
outside any request. A mail is claimed (its next try moved ahead) before it is sent, so two
servers never send it both; a failed send is tried again after 1, 2, 4 ... minutes (at most
an hour apart) and given up after 8 tries; a mail still unsent after two days is dropped. A
server that dies between sending and marking a mail sent sends it again once it restarts:
the outbox is at least once, the key makes it at most once otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import smtplib
import ssl
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import formataddr, make_msgid
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from sqlalchemy import select
from starlette.concurrency import run_in_threadpool

from polydip.errors import PolydipError
from polydip.host import notify
from polydip.host.models import GameRow
from polydip.host.notify import message_sent
from polydip.host.notify_models import GM, MailAddressRow, MailOutboxRow

if TYPE_CHECKING:
    from polydip.game.game import Game
    from polydip.host.service import Host
    from polydip.host.work import Budget

log = logging.getLogger("polydip.host")
__all__ = ["Mailer", "Smtp", "SmtpError", "message_sent", "parse_smtp"]  # message_sent: press
SCHEMES = {"smtp": 25, "smtp+starttls": 587, "smtps": 465}
MAX_TRIES = 8
MAX_AGE = timedelta(days=2)
CLAIM = timedelta(minutes=5)  # a claimed mail is another server's for this long


class SmtpError(PolydipError):
    status = 400


@dataclass(repr=False)
class Smtp:
    """Where mail goes: scheme, host, port and login (the password never shown)."""

    scheme: str
    host: str
    port: int
    user: str | None = None
    password: str | None = field(default=None, repr=False)
    mail_from: str = "polydip@localhost"

    def __repr__(self) -> str:
        return f"Smtp({self.where()})"

    def where(self) -> str:
        """The server as a log line may show it."""
        who = f"{self.user}@" if self.user else ""
        return f"{self.scheme}://{who}{self.host}:{self.port}"

    def secrets(self) -> list[str]:
        return [x for x in (self.password,) if x]

    def scrub(self, text: str) -> str:
        for secret in self.secrets():
            text = text.replace(secret, "***")
        return text


def parse_smtp(url: str, mail_from: str | None = None) -> Smtp:
    """The SMTP server of a `--smtp` URL; a bad one is refused with a message that does not
    hold its password."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
        password = unquote(parts.password) if parts.password is not None else None
    except ValueError:
        raise SmtpError("--smtp: not a URL like smtp+starttls://user:password@host:587 "
                        "(the port is a number)") from None
    scheme = parts.scheme.lower()
    if scheme not in SCHEMES:
        raise SmtpError(f"--smtp: the URL starts with smtp://, smtp+starttls:// or smtps:// "
                        f"(got {scheme[:20]!r})")
    if not parts.hostname:
        raise SmtpError("--smtp: the URL names no host (smtp://host:port)")
    if parts.path not in ("", "/") or parts.query:
        raise SmtpError("--smtp: the URL is scheme://[user:password@]host[:port], nothing "
                        "after the port")
    sender = (mail_from or f"polydip@{parts.hostname}").strip()
    if not notify.ADDRESS.match(sender):
        raise SmtpError(f"--mail-from: not an e-mail address ({sender[:80]!r})")
    return Smtp(scheme, parts.hostname, port or SCHEMES[scheme],
                unquote(parts.username) if parts.username else None, password, sender)


def map_png(game: Game, phase: str) -> bytes:
    """The board of processed phase `phase` as PNG (run in a budgeted child process)."""
    from polydip.render import picture_svg, svg_to_png

    return svg_to_png(picture_svg(game, phase), 900)


@dataclass
class Letter:
    """An outbox row and its address, read out of their transaction."""

    row_id: int
    kind: str
    subject: str
    body: str
    address_id: int
    address: str
    power: int
    site: str
    link: str


@dataclass
class Outgoing:
    """A mail ready to send, with the outbox row it came from."""

    row_id: int
    to: str
    message: EmailMessage


class Mailer:
    """The sending side: one per app, run as a task while the app runs."""

    def __init__(self, smtp: Smtp, host: Host, data_dir: str | Path,
                 budget: Budget | None = None, digest_minutes: float = 10.0) -> None:
        self.smtp = smtp
        self.host = host
        self.db = host.db
        self.key = notify.mail_key(data_dir)
        self.budget = budget
        self.digest_delay = timedelta(minutes=digest_minutes)
        self._maps: dict[str, bytes] = {}
        self.batch = 50  # mails claimed (and sent over one connection) at a time

    # ---- the loop --------------------------------------------------------------------------

    async def run(self, tick: float) -> None:
        """Every `tick` seconds, while the app runs: queue what is due, send what is queued."""
        while True:
            await asyncio.sleep(tick)
            try:
                await self.tick()
            except Exception as exc:  # the next tick tries again; one line, no address
                log.error("mail: %s", self.smtp.scrub(f"{type(exc).__name__}: {exc}")[:300])

    async def tick(self, now: datetime | None = None) -> int:
        """Queue the due warnings and digests, then send every due mail; how many went."""
        now = now or notify.now_utc()
        await run_in_threadpool(self.queue_due, now)
        sent = 0
        now = max(now, notify.now_utc())  # (what was queued just now is due too)
        while batch := await run_in_threadpool(self.claim, now):  # (a failure: later)
            letters = []
            for claimed in batch:
                try:
                    letters.append(await self.compose(claimed))
                except Exception as exc:  # this mail cannot be made: the others still go
                    await run_in_threadpool(self._give_up, claimed, exc)
            sent += await run_in_threadpool(self.deliver, [x for x in letters if x], now)
        return sent

    def queue_due(self, now: datetime) -> None:
        with self.db.read() as s:  # nobody to mail: no write transaction (SQLite's lock)
            if s.scalar(select(MailAddressRow.id).where(
                    MailAddressRow.unsubscribed.is_(False)).limit(1)) is None:
                return
        with self.db.transaction() as s:
            notify.warnings_due(s, now, self._to_order)
            notify.digests_due(s, now, self.digest_delay)

    def _to_order(self, s: Any, g: GameRow) -> set[int]:
        return set(self.host.game(s, g).powers_to_order())

    def claim(self, now: datetime) -> list[int]:
        """The due mails' ids, each moved ahead by CLAIM (no other server takes them)."""
        with self.db.transaction() as s:
            stmt = (select(MailOutboxRow).where(MailOutboxRow.state == "queued",
                                                MailOutboxRow.next_try <= now)
                    .order_by(MailOutboxRow.id).limit(self.batch))
            if self.db.locks_rows:
                stmt = stmt.with_for_update(skip_locked=True)
            ids = []
            for row in s.scalars(stmt):
                if now - row.created > MAX_AGE:
                    row.state, row.error = "skipped", "too old: not sent within two days"
                    continue
                row.next_try = now + CLAIM
                ids.append(row.id)
            return ids

    # ---- one mail --------------------------------------------------------------------------

    async def compose(self, row_id: int) -> Outgoing | None:
        """The mail of outbox row `row_id`: its links and report filled in, its map drawn."""
        found = await run_in_threadpool(self._load, row_id)
        if found is None:
            return None
        letter, report, attach = found
        png = None
        if attach is not None:
            game, phase, uid = attach
            png = self._maps.get(uid)
            if png is None:
                try:
                    png = await self._draw(game, phase)
                except Exception as exc:  # the mail goes without its map
                    log.warning("mail: the map of %s was not drawn: %s", phase,
                                type(exc).__name__)
                if png is not None:
                    self._maps = {uid: png}  # one map at a time: mails of a phase go together
        return Outgoing(letter.row_id, letter.address, self._message(letter, report, png))

    async def _draw(self, game: Game, phase: str) -> bytes:
        if self.budget is not None:
            png: bytes = await self.budget.run("the map is too large to draw for a mail",
                                               map_png, game, phase)
            return png
        return await run_in_threadpool(map_png, game, phase)

    def _load(self, row_id: int) -> tuple[Letter, str, tuple[Game, str, str] | None] | None:
        from polydip.host.views import phase_report

        with self.db.read() as s:
            row = s.get(MailOutboxRow, row_id)
            address = s.get(MailAddressRow, row.address_id) if row is not None else None
            if row is None or address is None or row.state != "queued" or address.unsubscribed:
                return None
            report, attach = "", None
            if row.attach:
                g = s.get(GameRow, row.attach["game"])
                seqs = [q for q in row.attach.get("seqs", []) if g is not None and q < g.seq]
                if g is not None and seqs:
                    report = "\n\n".join(phase_report(self.host, s, g, q) for q in seqs)
                    game = self.host.game(s, g, seqs[-1] + 1)
                    attach = (game, game.history[seqs[-1]].position.phase.name,
                              self.host.phase_uid(s, g, seqs[-1] + 1))
            return Letter(row.id, row.kind, row.subject, row.body, address.id, address.address,
                          address.power, address.site, address.link), report, attach

    def _message(self, row: Letter, report: str, png: bytes | None) -> EmailMessage:
        site = row.site.rstrip("/")
        token = notify.unseal(self.key, row.link) if row.link else None
        where = "gm" if row.power == GM else "play"
        link = (f"{site}/{where}/{token}" if token else
                "(your link changed: open the game with the link the GM gave you)")
        signed = notify.unsubscribe_token(self.key, row.address_id)
        unsubscribe = f"{site}/mail/unsubscribe/{signed}"
        body = (row.body.replace("{report}", report).replace("{link}", link)
                + f"\n--\nNo more mail from this game: {unsubscribe}\n")
        msg = EmailMessage()
        msg["From"] = formataddr(("polydip", self.smtp.mail_from))
        msg["To"] = row.address
        msg["Subject"] = row.subject.replace("\n", " ").replace("\r", " ")
        msg["Message-ID"] = make_msgid(domain=self.smtp.mail_from.rpartition("@")[2])
        msg["List-Unsubscribe"] = f"<{unsubscribe}>"
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(body)
        if png is not None:
            msg.add_attachment(png, maintype="image", subtype="png", filename="map.png")
        return msg

    def deliver(self, letters: list[Outgoing], now: datetime) -> int:
        """Send mails over one connection (a new one after a failure); how many went."""
        server: smtplib.SMTP | None = None
        sent = 0
        try:
            for out in letters:
                error = None
                try:
                    server = server or self._connect()
                    server.send_message(out.message, from_addr=self.smtp.mail_from,
                                        to_addrs=[out.to])
                except (smtplib.SMTPException, OSError, ValueError) as exc:
                    error = self.smtp.scrub(f"{type(exc).__name__}: {exc}")[:500]
                    if server is not None:
                        server.close()
                    server = None
                sent += self._mark(out, error, now)
        finally:
            if server is not None:
                with contextlib.suppress(smtplib.SMTPException, OSError):
                    server.quit()
        return sent

    def _give_up(self, row_id: int, exc: Exception) -> None:
        reason = self.smtp.scrub(f"{type(exc).__name__}: {exc}".splitlines()[0])[:300]
        log.error("mail %s could not be made: %s", row_id, reason)
        with self.db.transaction() as s:
            row = s.get(MailOutboxRow, row_id)
            if row is not None:
                row.state, row.error = "failed", reason

    def _mark(self, out: Outgoing, error: str | None, now: datetime) -> int:
        """A mail sent, or its failure noted with when to try again."""
        with self.db.transaction() as s:
            row = s.get(MailOutboxRow, out.row_id)
            if row is None:
                return 0
            row.attempts += 1
            if error is None:
                row.state, row.error = "sent", None
                return 1
            row.error = error
            if row.attempts >= MAX_TRIES:
                row.state = "failed"
            else:
                row.next_try = now + min(timedelta(minutes=2 ** (row.attempts - 1)),
                                         timedelta(hours=1))
            log.warning("mail %s (%s) to %s: try %s failed: %s", row.id, row.kind,
                        self.smtp.where(), row.attempts, error)
            return 0

    def _connect(self) -> smtplib.SMTP:
        t = self.smtp
        server: smtplib.SMTP
        if t.scheme == "smtps":
            server = smtplib.SMTP_SSL(t.host, t.port, timeout=30,
                                      context=ssl.create_default_context())
        else:
            server = smtplib.SMTP(t.host, t.port, timeout=30)
        try:
            if t.scheme == "smtp+starttls":
                server.starttls(context=ssl.create_default_context())
            if t.user:
                server.login(t.user, t.password or "")
        except BaseException:
            server.close()
            raise
        return server
