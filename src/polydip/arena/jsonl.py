"""Agents as programs: one JSON object a line on their standard input and output.

The arena writes `{"type": "observation", ...the observation..., "text": "...in words"}` and
reads one line back, the answer (`{"orders": ..., "messages": [...]}`, or `{}` for no
change); at the end it writes `{"type": "end", "status": ..., "centers": {...}}` and closes
the pipe. A program that does not answer within the timeout, exits, or writes something that
is not a JSON object fails that turn (the arena records it and its orders stand).

`serve(agent)` is the program's side, for agents written in Python:

    from polydip.arena.jsonl import serve
    serve(lambda obs: {"orders": ["A PAR - BUR"]})
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from polydip.arena.observe import observation_text
from polydip.errors import PolydipError

MAX_LINE = 1 << 20  # bytes of one answer


class ProcessAgent:
    """An agent run as a program (`command`, a list of words); started on first use."""

    def __init__(self, command: list[str], timeout: float = 60.0, name: str = "") -> None:
        if not command:
            raise PolydipError("an agent's command is empty")
        self.command, self.timeout, self.name = command, timeout, name or command[0]
        self.proc: subprocess.Popen[bytes] | None = None
        self._buf = b""

    def _start(self) -> subprocess.Popen[bytes]:
        if self.proc is None:
            try:
                self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=None)
            except OSError as exc:
                raise PolydipError(f"agent {self.name}: cannot start {self.command[0]!r} "
                                   f"({exc.strerror or exc})") from None
        return self.proc

    def __call__(self, obs: dict[str, Any]) -> dict[str, Any] | None:
        proc = self._start()
        self._send(proc, {"type": "observation", **obs, "text": observation_text(obs)})
        line = self._line(proc)
        try:
            answer = json.loads(line)
        except ValueError:
            raise PolydipError(f"agent {self.name}: not JSON: {line[:80]!r}") from None
        if not isinstance(answer, dict):
            raise PolydipError(f"agent {self.name}: answered {type(answer).__name__}, not an "
                               "object")
        return answer

    def _send(self, proc: subprocess.Popen[bytes], data: dict[str, Any]) -> None:
        assert proc.stdin is not None
        try:
            proc.stdin.write((json.dumps(data) + "\n").encode())
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise PolydipError(self._gone(proc)) from None

    def _gone(self, proc: subprocess.Popen[bytes]) -> str:
        """What to say of an agent whose pipe closed: its exit status once it has one (a
        process that closed its output is waited for a moment: its status is not known
        at once)."""
        try:
            status = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            return f"agent {self.name}: closed its standard output without answering"
        return f"agent {self.name}: has exited (status {status}) without answering"

    def _line(self, proc: subprocess.Popen[bytes]) -> str:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buf:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    raise PolydipError(f"agent {self.name}: no answer within "
                                       f"{self.timeout:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise PolydipError(self._gone(proc))
                self._buf += chunk
                if len(self._buf) > MAX_LINE:
                    raise PolydipError(f"agent {self.name}: an answer longer than "
                                       f"{MAX_LINE} bytes")
        line, _, self._buf = self._buf.partition(b"\n")
        return line.decode("utf-8", "replace")

    def close(self, end: dict[str, Any] | None = None) -> None:
        proc = self.proc
        if proc is None:
            return
        try:
            if end is not None and proc.poll() is None:
                self._send(proc, {"type": "end", **end})
            assert proc.stdin is not None
            proc.stdin.close()
            proc.wait(timeout=5)
        except (PolydipError, OSError, subprocess.TimeoutExpired):
            proc.kill()
            proc.wait()
        finally:
            for f in (proc.stdin, proc.stdout):
                if f is not None and not f.closed:
                    with contextlib.suppress(OSError):
                        f.close()
        self.proc = None


def serve(agent: Callable[[dict[str, Any]], dict[str, Any] | None],
          stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
    """Answer the arena's observations with `agent` until it says the game ended."""
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    for line in inp:
        data = json.loads(line)
        if data.get("type") == "end":
            return
        answer = agent(data) or {}
        out.write(json.dumps(answer) + "\n")
        out.flush()
