"""Live pages: what a page shows of its game that changes while it is open, read cheaply
from the database, and the streams that carry it to open pages (server-sent events).

A game's *live state* is public: its phase (and phase id), status, deadline, whether it is
paused, which powers have ordered and which are ready (never what they ordered), and a
counter of other events (`notify`: a message arrived, ...). Its `version` is a digest of all
that, so a page compares one string.

Notifications go through the database, never process memory: each server process has one
`Hub`, whose single task reads the live state of every game some page of that process
watches, in a few queries a second (`POLL_SECONDS`), and wakes the streams whose game
changed. So a phase processed by another `--workers` process, a request served by another
process, or a message written by anyone reaches every open page within about a second.

Bounds: `PER_CLIENT` open streams per client address and `TOTAL` per process (beyond them a
stream is refused with 429 and the page polls the version instead); each stream ends after
`STREAM_SECONDS` (the browser reconnects by itself, its link checked again: a replaced
player's page stops following the game).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
from collections.abc import AsyncGenerator, Collection, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import DateTime, ForeignKey, Integer, String, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, load_only, mapped_column
from starlette.concurrency import run_in_threadpool

from polydip.host.db import Database
from polydip.host.models import Base, GameRow, OrderRow, PowerRow
from polydip.host.service import HostError, now_utc, phase_id

POLL_SECONDS = 1.0  # how often a process reads the live state of the games it streams
PING_SECONDS = 15.0  # a comment line on a quiet stream (proxies close idle connections)
STREAM_SECONDS = 300.0  # a stream's life; the browser reconnects (its link checked again)
RETRY_MS = 2000  # how long the browser waits before reconnecting
PER_CLIENT = 8  # open streams of one client address, in one process
TOTAL = 1000  # open streams of one process
KINDS = ("message", "orders", "deadline", "phase", "player", "other")


class LiveRow(Base):
    """A game's counter of events that the other tables do not show (`notify`)."""

    __tablename__ = "live_versions"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"),
                                         primary_key=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    kind: Mapped[str] = mapped_column(String(20), default="")  # the last event's kind
    updated: Mapped[datetime] = mapped_column(DateTime)


class TooManyStreams(HostError):
    status = 429


def notify(s: Session, game_id: int, kind: str) -> None:
    """Tell the open pages of game `game_id` that something of `kind` (one of KINDS, e.g.
    "message") changed: call it inside the transaction that makes the change; the pages
    see it once that transaction commits. Changes to the phase, deadline, orders and ready
    flags need no call (they are read from their own rows)."""
    if kind not in KINDS:
        raise ValueError(f"live.notify: kind {kind!r} is not one of {', '.join(KINDS)}")
    now = now_utc()
    done = s.execute(update(LiveRow).where(LiveRow.game_id == game_id)
                     .values(version=LiveRow.version + 1, kind=kind, updated=now))
    if getattr(done, "rowcount", 0):
        return
    try:  # the game's first event: its row, made once
        with s.begin_nested():
            s.add(LiveRow(game_id=game_id, version=1, kind=kind, updated=now))
    except IntegrityError:  # made meanwhile by another transaction (PostgreSQL): count on
        s.execute(update(LiveRow).where(LiveRow.game_id == game_id)
                  .values(version=LiveRow.version + 1, kind=kind, updated=now))


def live_states(s: Session, game_ids: Collection[int]) -> dict[int, dict[str, Any]]:
    """The live state of each game of `game_ids` that exists (four queries in all)."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    games = s.scalars(select(GameRow).where(GameRow.id.in_(ids)).options(load_only(
        GameRow.id, GameRow.phase, GameRow.seq, GameRow.phase_key, GameRow.status,
        GameRow.deadline, GameRow.paused))).all()
    marks: dict[tuple[int, int], tuple[bool, bool]] = {
        (gid, power): (bool(lines), bool(ready)) for gid, power, lines, ready in s.execute(
            select(OrderRow.game_id, OrderRow.power, OrderRow.lines, OrderRow.ready)
            .join(GameRow, (GameRow.id == OrderRow.game_id) & (GameRow.seq == OrderRow.seq))
            .where(OrderRow.game_id.in_(ids)))}
    powers: dict[int, list[dict[str, Any]]] = {}
    for gid, power, name, cd in s.execute(
            select(PowerRow.game_id, PowerRow.power, PowerRow.name, PowerRow.civil_disorder)
            .where(PowerRow.game_id.in_(ids)).order_by(PowerRow.game_id, PowerRow.power)):
        ordered, ready = marks.get((gid, power), (False, False))
        powers.setdefault(gid, []).append({"name": name, "ordered": ordered, "ready": ready,
                                           "civil_disorder": bool(cd)})
    events = {gid: (version, kind) for gid, version, kind in s.execute(
        select(LiveRow.game_id, LiveRow.version, LiveRow.kind)
        .where(LiveRow.game_id.in_(ids)))}
    out = {}
    for g in games:
        events_seen, kind = events.get(g.id, (0, ""))
        state: dict[str, Any] = {
            "game": g.id, "phase": g.phase, "phase_id": phase_id(g), "seq": g.seq,
            "status": g.status, "paused": bool(g.paused),
            "deadline": g.deadline.isoformat(timespec="seconds") + "Z" if g.deadline else None,
            "powers": powers.get(g.id, []), "events": events_seen, "event_kind": kind}
        state["version"] = hashlib.sha256(json.dumps(state, sort_keys=True).encode()
                                          ).hexdigest()[:16]
        out[g.id] = state
    return out


def with_time_left(state: dict[str, Any]) -> dict[str, Any]:
    """The state as sent: with the seconds left before the deadline, counted now (a page
    counts down from them, whatever its own clock says)."""
    left = None
    if state["deadline"]:
        end = datetime.fromisoformat(state["deadline"].rstrip("Z"))
        left = max(0, int((end - now_utc()).total_seconds()))
    return {**state, "seconds_left": left}


def sse(state: dict[str, Any]) -> str:
    """One server-sent event of a live state."""
    return (f"event: state\nid: {state['version']}\n"
            f"data: {json.dumps(with_time_left(state), separators=(',', ':'))}\n\n")


@dataclass
class _Watched:
    state: dict[str, Any]
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    streams: int = 0


class Hub:
    """One process's open streams, and the one task that reads their games' live state."""

    def __init__(self, db: Database, poll: float = POLL_SECONDS,
                 per_client: int = PER_CLIENT, total: int = TOTAL) -> None:
        self.db, self.poll, self.per_client, self.total = db, poll, per_client, total
        self.games: dict[int, _Watched] = {}
        self.clients: dict[str, int] = {}
        self._task: asyncio.Task[None] | None = None

    @property
    def open_streams(self) -> int:
        return sum(self.clients.values())

    def _read(self, ids: Collection[int]) -> dict[int, dict[str, Any]]:
        with self.db.read() as s:
            return live_states(s, ids)

    @contextlib.contextmanager
    def _slot(self, client: str) -> Iterator[None]:
        """One stream of `client` counted while it is open; refused beyond the bounds."""
        if self.clients.get(client, 0) >= self.per_client:
            raise TooManyStreams(f"this address has {self.per_client} live pages open "
                                 "already; close some (this page checks for changes now "
                                 "and then instead)")
        if self.open_streams >= self.total:
            raise TooManyStreams(f"the server follows {self.total} live pages already; "
                                 "this page checks for changes now and then instead")
        self.clients[client] = self.clients.get(client, 0) + 1
        try:
            yield
        finally:
            self.clients[client] -= 1
            if not self.clients[client]:
                del self.clients[client]

    async def open(self, client: str, game_id: int) -> Stream:
        """The events of one stream. A refusal (too many streams, no such game) is raised
        here, before any answer is sent; the stream's generator is started here too, so
        that its slot is given back however it ends (even if never read further)."""
        slot = self._slot(client)
        slot.__enter__()
        try:
            first = (await run_in_threadpool(self._read, [game_id])).get(game_id)
            if first is None:
                raise HostError("no such game")
        except BaseException:
            slot.__exit__(None, None, None)
            raise
        events = self._events(slot, game_id, first)
        head = await events.__anext__()  # inside its try: its finally gives the slot back
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._watch())
        return Stream(head, events)

    async def _events(self, slot: contextlib.AbstractContextManager[None], game_id: int,
                      first: dict[str, Any]) -> AsyncGenerator[str, None]:
        loop = asyncio.get_running_loop()
        end = loop.time() + STREAM_SECONDS
        watched = self.games.setdefault(game_id, _Watched(first))
        if watched.state["version"] != first["version"]:  # read just now: the newer
            watched.state = first
            old, watched.changed = watched.changed, asyncio.Event()
            old.set()
        watched.streams += 1
        try:
            yield f"retry: {RETRY_MS}\n\n" + sse(first)
            sent = first["version"]
            while (left := end - loop.time()) > 0:
                if watched.state["version"] != sent:
                    sent = watched.state["version"]
                    yield sse(watched.state)
                    continue
                try:
                    await asyncio.wait_for(watched.changed.wait(), min(PING_SECONDS, left))
                except TimeoutError:
                    yield ": ping\n\n"
        finally:
            watched.streams -= 1
            if not watched.streams and self.games.get(game_id) is watched:
                del self.games[game_id]
            slot.__exit__(None, None, None)

    async def _watch(self) -> None:
        """Every `poll` seconds, while any stream is open: the live state of the watched
        games, and a wake-up for the streams of those that changed."""
        while self.games:
            await asyncio.sleep(self.poll)
            try:
                states = await run_in_threadpool(self._read, list(self.games))
            except Exception:  # the database away: the streams wait, the pages say live
                continue
            for gid, state in states.items():
                watched = self.games.get(gid)
                if watched is not None and state["version"] != watched.state["version"]:
                    watched.state = state
                    old, watched.changed = watched.changed, asyncio.Event()
                    old.set()


class Stream:
    """One open stream's chunks, an async iterator: its first chunk, read when it was
    opened, then the rest. `aclose()` gives its place back, whether it was read or not (an
    answer that failed before its body was sent); a stream dropped unread gives it back
    when collected."""

    def __init__(self, head: str, rest: AsyncGenerator[str, None]) -> None:
        self._head: str | None = head
        self._rest = rest

    def __aiter__(self) -> Stream:
        return self

    async def __anext__(self) -> str:
        if self._head is not None:
            head, self._head = self._head, None
            return head
        return await self._rest.__anext__()

    async def aclose(self) -> None:
        await self._rest.aclose()
