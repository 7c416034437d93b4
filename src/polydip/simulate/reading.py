"""Reading saved games out of a simulation: its directory, a shard, JSON Lines or one
game's JSON; one game by its id or seed (`polydip show DIR --game 42`)."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from polydip.errors import PolydipError


def read_games(paths: list[str]) -> Iterator[dict[str, Any]]:
    """The saved games in files or simulate directories: shards (.jsonl.gz), JSON Lines,
    or one game's JSON."""
    for name in paths:
        p = Path(name)
        if p.is_dir():
            shards = sorted(p.glob("games-*.jsonl.gz"))
            if not shards:
                raise PolydipError(f"{p}: no shards (games-*.jsonl.gz) in this directory")
            for s in shards:
                yield from _lines(s)
        elif p.is_file():
            if p.name.endswith((".gz", ".jsonl")):
                yield from _lines(p)
            else:
                yield _json(p, p.read_bytes())
        else:
            raise PolydipError(f"{p}: no such file or directory")


def _lines(p: Path) -> Iterator[dict[str, Any]]:
    try:
        opener = gzip.open if p.name.endswith(".gz") else open
        with opener(p, "rb") as f:
            for n, line in enumerate(f, 1):
                if line.strip():
                    yield _json(p, line, n)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise PolydipError(f"{p}: cannot read ({exc})") from None


def _json(p: Path, data: bytes, line: int | None = None) -> dict[str, Any]:
    where = f"{p} line {line}" if line else str(p)
    try:
        out = json.loads(data)
    except ValueError as exc:
        raise PolydipError(f"{where}: not JSON ({exc})") from None
    if not isinstance(out, dict) or "phases" not in out:
        raise PolydipError(f"{where}: not a saved game (no 'phases')")
    return out



_SEED = re.compile(r"-?\d+")


def _seed_of(game_id: str) -> int | None:
    """The seed ending a game's id: polydip-standard-42 → 42, polydip-standard--1 → -1."""
    found = re.search(r"-(-?\d+)$", game_id)
    return int(found.group(1)) if found else None


def find_game(path: str, which: str) -> dict[str, Any]:
    """The saved game `which` (its id, e.g. polydip-standard-42, or its seed, 42) in a
    simulation directory or a file of games."""
    p = Path(path)
    files: list[str] = [path]
    if p.is_dir():
        files = _shards_holding(p, which) or [str(p)]
    seen = 0
    for saved in read_games(files):
        seen += 1
        gid = str(saved.get("id", ""))
        if gid == which or (_SEED.fullmatch(which) and _seed_of(gid) == int(which)):
            return saved
    raise PolydipError(f"{path}: no game {which!r} among its {seen} games (give a game's id, "
                       "e.g. polydip-standard-42, or its seed, 42)")


def is_games_file(path: str) -> bool:
    """A simulation directory or a file of several games (shards, JSON Lines)."""
    p = Path(path)
    return p.is_dir() or p.name.endswith((".jsonl", ".jsonl.gz", ".gz"))


def _shards_holding(d: Path, which: str) -> list[str]:
    """The shard that holds seed `which`, by the directory's manifest (none: look in all)."""
    n = int(which) if _SEED.fullmatch(which) else _seed_of(which)
    if n is None:
        return []
    try:
        manifest = json.loads((d / "manifest.json").read_text())
        for s in manifest["shards"]:
            if s["first_seed"] <= n < s["first_seed"] + s["games"]:
                return [str(d / Path(s["file"]).name)]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    return []
