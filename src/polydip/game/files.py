"""The native game file: JSON, versioned, written atomically and durably (write_atomic).

{"format": "polydip-game", "version": 1, "variant": {"name", "version", "source"},
 "options": {...}, "status": "active", "winners": [...],
 "history": [{"position": {...}, "orders": {...}, "results": [...], "errors": [...],
              "center_changes": [...]}],
 "current": {"position": {...}, "orders": {...}},
 "messages": [{"phase", "sender", "recipients": "GLOBAL" or [powers], "time", "text"}]}

"messages" (press, game/press.py) is written only when the game has some; a file without
it reads as a game with none.

A position is written in the shape of a one-shot request (phase, units, dislodged,
contested, centers, homes, year_start_centers), so any saved phase can be fed to `polydip
adjudicate`; unlike a request's, the owners when the year began are written wherever the
position knows them, also where they are the owners now, so a game reads back as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from polydip.adjudication.reasons import Reason
from polydip.compile import compile_map
from polydip.errors import GameFileError, PolydipError
from polydip.game.engine import OrderResult, PhaseOutcome
from polydip.game.positions import build_position, position_to_json
from polydip.game.press import message_from_json
from polydip.game.record import GameRecord, PhaseRecord
from polydip.game.victory import victory_in_force
from polydip.geography.map import Map
from polydip.notation import parse_unit, power_index
from polydip.options import check_options
from polydip.state import Dislodged, Position
from polydip.variants.loader import load_variant

FORMAT = "polydip-game"
VERSION = 1


def position_from_json(m: Map, data: Any, where: str) -> Position:
    if not isinstance(data, dict):
        raise GameFileError(f"{where}: a position is an object")
    try:
        return build_position(m, data)
    except PolydipError as exc:
        raise GameFileError(f"{where}: {exc}") from exc


def _orders_json(m: Map, orders: dict[int, list[str]]) -> dict[str, list[str]]:
    return {m.powers[p]: list(lst) for p, lst in sorted(orders.items())}


def _orders_from(m: Map, data: Any, where: str) -> dict[int, list[str]]:
    if not isinstance(data, dict):
        raise GameFileError(f"{where}: orders are an object of power → list")
    out = {}
    for k, v in data.items():
        try:
            p = power_index(m, k)
        except PolydipError as exc:
            raise GameFileError(f"{where}: {exc}") from exc
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise GameFileError(f"{where}.{k}: a list of order strings")
        out[p] = list(v)
    return out


def _destroyed_from(m: Map, data: Any, where: str) -> list[Dislodged]:
    """Units destroyed without a retreat phase, as position_to_json writes dislodged units."""
    out = []
    for pname, lst in data.items():
        p = power_index(m, pname)
        for d in lst:
            kind, loc = parse_unit(m, d["unit"])
            att = m.prov_index.get(str(d.get("from") or ""), -1)
            out.append(Dislodged(p, kind, loc, att, bool(d.get("convoyed"))))
    return out


def _reason_from(data: Any) -> Reason | None:
    """A reason as game_to_json writes it ({"code", "text"}), None when absent or not one."""
    if isinstance(data, dict) and isinstance(data.get("code"), str):
        return Reason(data["code"], str(data.get("text", "")))
    return None


def position_json(m: Map, pos: Position) -> dict[str, Any]:
    """A position as the game file keeps it: as a one-shot request, and with the owners
    when the year began even where they are the owners now (a request leaves them out then;
    the file keeps them so that a game reads back exactly as it was written)."""
    out = position_to_json(m, pos)
    if pos.year_start_owners is not None and "year_start_centers" not in out:
        out["year_start_centers"] = {p: list(lst) for p, lst in out["centers"].items()}
    return out


def phase_json(m: Map, rec: PhaseRecord) -> dict[str, Any]:
    """One entry of the file's "history": a processed phase's position, orders, results."""
    o = rec.outcome
    results = []
    for r, why in zip(o.results, o.reasons(), strict=True):
        entry: dict[str, Any] = {"power": m.powers[r.power], "order": r.text,
                                 "result": r.result}
        if why is not None:  # why it did not succeed (adjudication/reasons.py)
            entry["reason"] = why.as_json()
        results.append(entry)
    out: dict[str, Any] = {
        "position": position_json(m, rec.position),
        "orders": _orders_json(m, rec.orders),
        "results": results,
        "errors": [{"power": m.powers[p], "message": msg} for p, msg in o.errors],
        "center_changes": [[m.prov_abbr[p], m.powers[a] if a >= 0 else None, m.powers[b]]
                           for p, a, b in o.center_changes],
    }
    if o.events:  # what the rules did on their own
        out["events"] = [e.as_json() for e in o.events]
    if o.destroyed:  # dislodged with nowhere to retreat: destroyed without a retreat phase
        out["destroyed"] = position_to_json(
            m, Position(o.phase, [], [], o.destroyed))["dislodged"]
    if o.routed:  # of those, the units beaten by a rout margin (LAD's oceans)
        out["routed"] = position_to_json(
            m, Position(o.phase, [], [], o.routed))["dislodged"]
    return out


def game_header(game: GameRecord) -> dict[str, Any]:
    """What the file says of the game before its phases: format, version, name, variant."""
    v = game.variant
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": game.name,
        "variant": {"name": v.name, "version": v.version,
                    **({"path": os.path.abspath(v.path)} if v.path and not v.path.startswith("<")
                       else {})},
    }


def game_to_json(game: GameRecord) -> dict[str, Any]:
    m = game.map
    return {
        **game_header(game),
        "options": game.options,
        "status": game.status,
        "winners": [m.powers[p] for p in game.winners],
        "history": [phase_json(m, rec) for rec in game.history],
        "current": {"position": position_json(m, game.position),
                    "orders": _orders_json(m, game.orders),
                    # pending orders of phases stepped back over (Game.undo)
                    **({"undone": [{"after": n, "phase": name,
                                    "orders": _orders_json(m, orders)}
                                   for n, name, orders in game.undone]}
                       if game.undone else {})},
        **({"messages": [x.as_json() for x in game.messages]} if game.messages else {}),
    }


def game_from_json(data: Any, where: str = "game") -> GameRecord:
    """The game a polydip game file holds (json.loads of it); `where` names it in errors."""
    try:
        return _game_from_json(data, where)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise GameFileError(f"{where}: malformed game file ({exc.__class__.__name__}: {exc})"
                            ) from exc


def _game_from_json(data: Any, where: str) -> GameRecord:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise GameFileError(f"{where}: not a polydip game file (no \"format\": \"{FORMAT}\")")
    ver = data.get("version")
    if ver != VERSION:
        raise GameFileError(f"{where}: game file version {ver!r}; this polydip reads "
                            f"version {VERSION}")
    vinfo = data.get("variant") or {}
    if not isinstance(vinfo, dict):
        raise GameFileError(f"{where}: 'variant' must be an object with the variant's name")
    name = vinfo.get("path") or vinfo.get("name")
    if not isinstance(name, str):
        raise GameFileError(f"{where}: variant name missing")
    try:
        variant = load_variant(name)
    except PolydipError as exc:
        raise GameFileError(f"{where}: {exc}") from exc
    if str(vinfo.get("version", variant.version)) != variant.version:
        raise GameFileError(
            f"{where}: saved with {variant.name} version {vinfo.get('version')}, but the "
            f"installed variant is version {variant.version}")
    m = compile_map(variant)
    cur = data.get("current")
    if not isinstance(cur, dict):
        raise GameFileError(f"{where}: 'current' missing")
    options = data.get("options") or {}
    if not isinstance(options, dict):
        raise GameFileError(f"{where}: 'options' must be an object")
    game = GameRecord(variant, m, position_from_json(m, cur.get("position"), f"{where}: current"),
                dict(options), _orders_from(m, cur.get("orders", {}),
                                                              f"{where}: current.orders"),
                name=str(data.get("name", "")))
    try:
        game.options = check_options(game.options, m)
        victory_in_force(variant, game.options)  # validates the 'victory' option
        for i, h in enumerate(data.get("history") or []):
            w = f"{where}: history[{i}]"
            pos = position_from_json(m, h.get("position"), w)
            results = [OrderResult(power_index(m, r["power"]), r["order"], list(r["result"]))
                       for r in h.get("results", [])]
            errors = [(power_index(m, e["power"]), e["message"]) for e in h.get("errors", [])]
            changes = [(m.prov_index[c[0]], power_index(m, c[1]) if c[1] else -1,
                        power_index(m, c[2])) for c in h.get("center_changes", [])]
            nxt = (position_from_json(m, data["history"][i + 1]["position"], w)
                   if i + 1 < len(data["history"]) else game.position)
            outcome = PhaseOutcome(pos.phase, nxt, results, errors, changes)
            outcome.destroyed = _destroyed_from(m, h.get("destroyed") or {}, f"{w}.destroyed")
            outcome.routed = _destroyed_from(m, h.get("routed") or {}, f"{w}.routed")
            why = [_reason_from(r.get("reason")) for r in h.get("results", [])]
            outcome._why = why
            outcome.fired = [x for x in map(_reason_from, h.get("events") or []) if x]
            outcome._events = outcome.fired
            game.history.append(PhaseRecord(pos, _orders_from(m, h.get("orders", {}), w),
                                            outcome))
        for i, u in enumerate(cur.get("undone") or []):
            w = f"{where}: current.undone[{i}]"
            if not isinstance(u, dict) or not isinstance(u.get("after"), int) \
                    or not isinstance(u.get("phase"), str):
                raise GameFileError(f"{w}: an object with 'after' (a number), 'phase' and "
                                    "'orders'")
            game.undone.append((u["after"], u["phase"], _orders_from(m, u.get("orders", {}),
                                                                      w)))
        msgs = data.get("messages") or []
        if not isinstance(msgs, list):
            raise GameFileError(f"{where}: 'messages' must be a list of messages")
        game.messages = [message_from_json(m, x, f"{where}: messages[{i}]")
                         for i, x in enumerate(msgs)]
        game.status = str(data.get("status", "active"))
        game.winners = [power_index(m, w) for w in data.get("winners", [])]
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise GameFileError(f"{where}: malformed game file ({exc.__class__.__name__}: {exc})"
                            ) from exc
    except PolydipError as exc:
        raise GameFileError(f"{where}: {exc}") from exc
    return game


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Write `text` (or bytes) to `path` so that the file is either the old one or the new
    one, and the new one is on the disk when this returns.

    The text goes to a hidden temporary file beside `path`, which is flushed to the disk
    (fsync), renamed over `path`, and the folder is flushed too, so that the rename itself
    survives a power loss. The temporary file never outlives the call: it is removed on any
    exception, on Ctrl-C, and on SIGTERM or SIGHUP when the program had left them at their
    default (the signal is then delivered again once the file is removed, so the program
    still ends as it would have).

    The new file keeps the old one's permissions; a new file gets the usual ones (0666 less
    the umask, e.g. 0644), not the 0600 of a private temporary file.
    """
    path = Path(path)
    directory = path.parent if str(path.parent) else Path(".")
    try:
        mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = None
    data = text.encode("utf-8") if isinstance(text, str) else text
    with _removing_on_signals():
        tmp: Path | None = None
        try:
            for attempt in range(100):
                candidate = directory / f".{path.name}.{os.getpid()}.{attempt}.tmp"
                try:
                    fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
                except FileExistsError:
                    continue
                tmp = candidate
                break
            else:  # pragma: no cover - a hundred stale temporary files
                raise OSError(f"cannot create a temporary file beside {path}")
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if mode is not None:
                os.chmod(tmp, mode)
            os.replace(tmp, path)
            tmp = None
        except BaseException:
            if tmp is not None:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise
    _fsync_folder(directory)


class _Killed(BaseException):
    """A terminating signal arrived while a file was being written."""


# the signals whose default action ends the program at once, without Python's cleanup
_TERMINATING = tuple(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n))


@contextlib.contextmanager
def _removing_on_signals() -> Iterator[None]:
    """While the block runs, SIGTERM and SIGHUP (where left at their default, in the main
    thread) raise instead of ending the program at once, so that the block can clean up;
    once it has, the signal is delivered again and ends the program as it would have.
    (Ctrl-C already raises KeyboardInterrupt.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    killed: list[int] = []
    armed = [True]  # raise only inside the block, never while the handlers are restored

    def handler(signum: int, _frame: Any) -> None:
        killed.append(signum)
        if armed:
            armed.clear()
            raise _Killed(signum)

    previous = {sig: signal.signal(sig, handler) for sig in _TERMINATING
                if signal.getsignal(sig) is signal.SIG_DFL}
    try:
        yield
    finally:
        armed.clear()
        for sig, old in previous.items():
            signal.signal(sig, old)
        if killed:  # restored to the default: the program ends as the signal meant
            os.kill(os.getpid(), killed[0])


def _fsync_folder(directory: Path) -> None:
    """Flush a folder's entries (a rename in it) to the disk; a no-op where folders cannot
    be opened (Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - Windows
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that cannot flush a folder
        pass
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: str | Path) -> Iterator[None]:
    """Hold the exclusive lock of a game file: every command that changes the file holds it
    for its whole read-modify-write, so concurrent commands (seven players' orders handled
    at once) run one after the other and none is lost. The lock is a hidden file beside
    the game file (".game.json.lock"), locked with the operating system's advisory lock."""
    path = Path(path)
    lock_path = path.parent / f".{path.name}.lock"
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666)
    except OSError as exc:
        raise GameFileError(f"{path}: cannot lock: {exc.strerror or exc}") from exc
    try:
        _lock(fd)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


if sys.platform == "win32":  # pragma: no cover - Windows
    import msvcrt

    def _lock(fd: int) -> None:
        while True:
            try:
                msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
                return
            except OSError:
                continue
else:
    import fcntl

    def _lock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_EX)


def save_game(game: GameRecord, path: str | Path) -> None:
    try:
        write_atomic(path, json.dumps(game_to_json(game), indent=1) + "\n")
    except OSError as exc:
        raise GameFileError(f"{path}: cannot write: {exc.strerror or exc}") from exc


def read_json(path: str | Path) -> Any:
    """The JSON content of a game file (polydip's, or the diplomacy package's)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise GameFileError(f"{path}: no such game file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise GameFileError(f"{path}: cannot read: {exc}") from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameFileError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg})") from exc
