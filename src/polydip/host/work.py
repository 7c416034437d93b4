"""Costly work under a budget: drawing a board and creating a game from an uploaded variant
run in a child process with a CPU-time limit, outside any database transaction of the
server.

Drawing costs more than linearly in provinces (a 2,000-province upload: about 30 s of CPU);
done in the server it held the GIL, and under the SQLite writer lock every game's requests
and deadlines. A child process is drawn from a fork server that has the engine imported
already (a few milliseconds to start), gets `cpu_seconds` of CPU (RLIMIT_CPU) and a wall-clock
limit, and is killed when the server stops; at most `workers` children run at once, the
other requests wait their turn without holding a thread.
"""

from __future__ import annotations

import math
import multiprocessing
import resource
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread

from polydip.errors import PolydipError
from polydip.host.service import HostError

if TYPE_CHECKING:
    from polydip.game.game import Game

CPU_SECONDS = 10.0  # default budget of one drawing or one upload's creation
PRELOAD = ["polydip.host.work", "polydip.render", "polydip.game.game", "polydip.host.service"]


class TooCostly(HostError):
    """The work went over its budget (the map is too large to draw on this server)."""

    status = 503


class Stopping(HostError):
    status = 503


class Budget:
    """Runs functions in budgeted child processes; `close()` kills those running."""

    def __init__(self, cpu_seconds: float = CPU_SECONDS, workers: int = 2) -> None:
        self.cpu_seconds = cpu_seconds
        self.wall_seconds = 4 * cpu_seconds + 10  # the 2 cores are shared: CPU < wall time
        self.limiter = anyio.CapacityLimiter(workers)
        self._running: set[BaseProcess] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._ctx = multiprocessing.get_context("forkserver")
        self._ctx.set_forkserver_preload(PRELOAD)

    async def run(self, what: str, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a child; its result, or its refusal raised again here (a
        PolydipError's message and status). `what` names the work in the over-budget
        message ("this map is too large to draw here")."""
        return await anyio.to_thread.run_sync(self._run, what, fn, args, limiter=self.limiter)

    def _run(self, what: str, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        mine, theirs = self._ctx.Pipe(duplex=False)
        child = self._ctx.Process(target=_child, args=(theirs, self.cpu_seconds, fn, args),
                                  daemon=True)
        with self._lock:
            if self._closed:
                raise Stopping("the server is stopping: try again in a moment")
            child.start()
            self._running.add(child)
        theirs.close()
        try:
            if not mine.poll(self.wall_seconds):
                raise TooCostly(f"{what}: more than {self.wall_seconds:.0f} s of work")
            try:
                outcome = mine.recv()
            except EOFError:  # the child died: out of CPU time, or killed at shutdown
                child.join(1)
                if self._closed:
                    raise Stopping("the server is stopping: try again in a moment") from None
                raise TooCostly(f"{what}: more than {self.cpu_seconds:.0f} s of work"
                                ) from None
        finally:
            mine.close()
            if child.is_alive():
                child.kill()
            child.join(5)
            with self._lock:
                self._running.discard(child)
        kind, value = outcome
        if kind == "ok":
            return value
        if kind == "failed":
            raise RuntimeError(f"{what}: the work failed in its process ({value})")
        status, message = value
        error = HostError(message)
        error.status = status
        raise error

    def close(self) -> None:
        """Kill the children at work (the server is stopping); refuse new work."""
        with self._lock:
            self._closed = True
            running = list(self._running)
        for child in running:
            if child.is_alive():
                child.kill()


def _child(conn: Connection, cpu_seconds: float, fn: Callable[..., Any], args: tuple[Any, ...]
           ) -> None:
    limit = max(1, math.ceil(cpu_seconds))
    resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))  # SIGXCPU, then SIGKILL
    try:
        outcome: tuple[str, Any] = ("ok", fn(*args))
    except PolydipError as exc:
        outcome = ("refused", (getattr(exc, "status", 400), str(exc)))
    except Exception as exc:
        from polydip.host.edge import refusal

        known = refusal(exc)
        outcome = ("refused", known) if known else ("failed", type(exc).__name__)
    conn.send(outcome)
    conn.close()


# ---- the work ---------------------------------------------------------------------------------


def draw(game: Game, phase: str | None) -> str:
    """The board of `game` as SVG (at `phase`, a processed phase's name, or the current)."""
    from polydip.render import picture_svg

    return picture_svg(game, phase)


def create_upload(db_url: str, data_dir: str, fields: dict[str, Any]) -> tuple[int, str]:
    """A game from an uploaded variant, created whole by this child (loading and checking
    the file, then the rows): its id and the GM's token."""
    from polydip.host.db import Database
    from polydip.host.service import Host

    db = Database(db_url)
    try:
        return Host(db, data_dir).create_game(**fields)
    finally:
        db.dispose()
