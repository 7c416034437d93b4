"""The tables of notifications and time-of-day deadlines (migration 0006), beside the game's
own (models.py): nothing here is exported with a game or shown on another power's page.

- `game_clocks`: a game whose deadlines fall at a time of day in a time zone.
- `mail_addresses`: one e-mail address per power (or the GM, power -1) of a game, what it
  wants mailed, and its own link kept encrypted (host/notify.py) so that a mail can carry it.
- `mail_outbox`: every mail to send, once (`key` is unique), retried with backoff.
- `mail_press`: messages not yet told in a digest.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from polydip.host.models import Base

GM = -1  # the `power` of the GM's address


class GameClockRow(Base):
    __tablename__ = "game_clocks"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    at: Mapped[str] = mapped_column(String(5))  # "HH:MM" local time
    zone: Mapped[str] = mapped_column(String(64))  # an IANA zone, e.g. Europe/Paris
    min_hours: Mapped[float] = mapped_column(Float)  # the deadline is at least this far away
    phases: Mapped[str] = mapped_column(String(3))  # the phase kinds it applies to: "M", "MRA"


class MailAddressRow(Base):
    __tablename__ = "mail_addresses"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[int] = mapped_column(Integer)  # index in the variant's powers; GM: -1
    address: Mapped[str] = mapped_column(String(254))
    kinds: Mapped[list[str]] = mapped_column(JSON, default=list)  # warning result press gm
    warn_hours: Mapped[list[float]] = mapped_column(JSON, default=list)
    link: Mapped[str] = mapped_column(Text)  # the holder's own token, encrypted
    site: Mapped[str] = mapped_column(String(300))  # the server's URL the address came from
    unsubscribed: Mapped[bool] = mapped_column(Boolean, default=False)
    created: Mapped[datetime] = mapped_column(DateTime)


class MailOutboxRow(Base):
    __tablename__ = "mail_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)  # one mail per key, ever
    address_id: Mapped[int] = mapped_column(
        ForeignKey("mail_addresses.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)  # {link} and {unsubscribe} filled at sending
    attach: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # the map
    state: Mapped[str] = mapped_column(String(10), default="queued")  # queued sent skipped
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_try: Mapped[datetime] = mapped_column(DateTime, index=True)
    created: Mapped[datetime] = mapped_column(DateTime)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)  # the last failure


class MailPressRow(Base):
    __tablename__ = "mail_press"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    address_id: Mapped[int] = mapped_column(
        ForeignKey("mail_addresses.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(20))
    sender: Mapped[str] = mapped_column(String(100))
    created: Mapped[datetime] = mapped_column(DateTime)
