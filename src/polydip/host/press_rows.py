"""The tables of press (host/press.py): the messages powers send, each game's press settings,
and the names players give (never kept in an anonymous game).

Kept apart from models.py (same Base, created by migration 0005) so that the game service
(exports) can read a game's messages without importing the press service.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
    select,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from polydip.game.press import GLOBAL, Message
from polydip.host.models import Base


class MessageRow(Base):
    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # the phase it was sent in (PhaseRow.seq)
    phase: Mapped[str] = mapped_column(String(20))  # that phase's name
    sender: Mapped[int] = mapped_column(Integer)  # a power's index
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    recipients: Mapped[list[int]] = mapped_column(JSON, default=list)  # power indices
    time: Mapped[int] = mapped_column(BigInteger)  # microseconds since the epoch, unique
    text: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)

    def to_message(self, powers: list[str]) -> Message:
        """The game layer's record of it (power names as the variant spells them)."""
        to: str | tuple[str, ...] = GLOBAL if self.public else tuple(
            powers[i] for i in self.recipients)
        return Message(self.phase, powers[self.sender], to, self.time, self.text)


class PressRow(Base):
    """A game's press settings, chosen at creation; a game without a row has full press,
    not anonymous, its GM reading only public messages."""

    __tablename__ = "press_settings"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    rule: Mapped[str] = mapped_column(String(20), default="full")
    anonymous: Mapped[bool] = mapped_column(Boolean, default=False)
    gm_reads: Mapped[bool] = mapped_column(Boolean, default=False)


class PlayerNameRow(Base):
    """The name a player gives for their power (shown beside it in a game that is not
    anonymous)."""

    __tablename__ = "player_names"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))


def message_rows(s: Session, game_id: int) -> list[MessageRow]:
    """A game's messages, in the order sent."""
    return list(s.scalars(select(MessageRow).where(MessageRow.game_id == game_id)
                          .order_by(MessageRow.time, MessageRow.id)))


def exported_messages(s: Session, game_id: int, powers: list[str]) -> list[Message]:
    """The game's messages its GM reads, as the game layer keeps them (Game.messages), for
    the game's downloads: public ones, and private ones only in a game created with
    gm_reads_press."""
    row = s.get(PressRow, game_id)
    gm_reads = bool(row and row.gm_reads)
    return [r.to_message(powers) for r in message_rows(s, game_id) if r.public or gm_reads]


def settings_json(row: PressRow | None) -> dict[str, Any]:
    return {"rule": row.rule if row else "full", "anonymous": bool(row and row.anonymous),
            "gm_reads_press": bool(row and row.gm_reads)}
