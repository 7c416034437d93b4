"""The host's tables (SQLAlchemy 2): games, their powers, phases, orders, draw votes.

A phase row keeps its own phase: the position it began with and what the phase before it
did (host/records.py); the game as any phase began is its rows 0..seq put together, so any
phase can be shown, drawn, downloaded or stepped back to, and a row's size does not grow
with the game. Orders are rows of
their own, one per power per phase, so players ordering at the same moment touch different
rows. Tokens are never stored: a power's and the GM's link carry a random token, and the
table keeps its SHA-256.
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
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    variant: Mapped[str] = mapped_column(String(200))  # built-in name, or the uploaded title
    variant_text: Mapped[str | None] = mapped_column(Text, nullable=True)  # an uploaded file
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    gm_token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    status: Mapped[str] = mapped_column(String(20), default="active")  # active | won | drawn
    seq: Mapped[int] = mapped_column(Integer, default=0)  # phases processed so far
    phase: Mapped[str] = mapped_column(String(20))
    deadline: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)  # UTC
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    paused_left: Mapped[float] = mapped_column(Float, default=0.0)  # seconds left at pause
    movement_minutes: Mapped[float] = mapped_column(Float)
    retreat_minutes: Mapped[float] = mapped_column(Float)
    adjustment_minutes: Mapped[float] = mapped_column(Float)
    nmr_limit: Mapped[int] = mapped_column(Integer, default=0)  # 0: never civil disorder
    created: Mapped[datetime] = mapped_column(DateTime)
    # new each time a phase is reached (processing, undo): requests name the phase they were
    # made for with "<phase>-<seq>-<phase_key>" (Host.phase_id), so a stale one is refused
    phase_key: Mapped[str] = mapped_column(String(32), default="", server_default="")
    # why processing this game failed last (shown to its GM); None when it did not
    failure: Mapped[str | None] = mapped_column(Text, nullable=True)
    # the pending orders of phases an undo stepped back over, pending again when processing
    # reaches that phase (Game.undone): [{"after": seq, "phase": name, "orders": {power
    # index: lines}}]
    undone: Mapped[list[Any]] = mapped_column(JSON, default=list, server_default="[]")


class PowerRow(Base):
    __tablename__ = "powers"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[int] = mapped_column(Integer)  # index in the variant's powers
    name: Mapped[str] = mapped_column(String(100))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    generation: Mapped[int] = mapped_column(Integer, default=0)  # +1 per replaced player
    missed: Mapped[int] = mapped_column(Integer, default=0)  # movement phases missed in a row
    civil_disorder: Mapped[bool] = mapped_column(Boolean, default=False)


class PhaseRow(Base):
    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(20))
    uid: Mapped[str] = mapped_column(String(32), unique=True)  # names this version (caches)
    record: Mapped[str] = mapped_column(Text)  # JSON: this phase's record (host/records.py)
    # each power's [missed, civil_disorder] before this phase was reached (undo restores them)
    powers_before: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created: Mapped[datetime] = mapped_column(DateTime)


class OrderRow(Base):
    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("game_id", "seq", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    power: Mapped[int] = mapped_column(Integer)
    lines: Mapped[list[str]] = mapped_column(JSON, default=list)  # as kept by Game.set_orders
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    updated: Mapped[datetime] = mapped_column(DateTime)


class DrawVoteRow(Base):
    __tablename__ = "draw_votes"
    __table_args__ = (UniqueConstraint("game_id", "power"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    power: Mapped[int] = mapped_column(Integer)
    vote: Mapped[bool] = mapped_column(Boolean, default=False)
