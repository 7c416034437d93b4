"""Shards: the games of a job cut into files of a fixed number of games.

Shard k holds games k*size .. k*size+size-1 of the job (seeds seed+k*size ...), one saved
game a line, gzip-compressed with no file name and mtime 0 in the header so that the same
games give the same bytes. A shard is written to a temporary file and renamed into place: a
file named like a shard is always complete.

A shard is played in pieces of at most PIECE_GAMES games, each one gzip member; the shard
is its pieces' members one after the other (a gzip file may hold several: every reader of
gzip reads them as one stream). Workers take pieces, not shards, so that none stands idle
while another plays the last shard; the pieces are cut by the job alone, so the bytes do
not depend on where or by how many workers they were played.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polydip.compile import compile_map
from polydip.game.dipjson import WriteMemo
from polydip.geography.map import Map
from polydip.simulate.games import play_game
from polydip.simulate.players import load_player
from polydip.variants.loader import load_variant

# zlib's level 3: on saved games it costs what level 1 costs (~105,000 instructions a
# standard phase, against 230,000 at zlib's default 6) for shards 20% smaller than level 1's
# and 35% larger than level 6's (294 / 372 / 218 bytes a phase; bench/README.md)
COMPRESS_LEVEL = 3


@dataclass(frozen=True, slots=True)
class Job:
    """What to simulate; the same Job gives the same shards wherever they are played."""

    variant: str  # a built-in variant's name or a variant file's path
    options: dict[str, Any]
    seed: int
    games: int
    player: str
    max_year: int | None
    shard_size: int

    @property
    def n_shards(self) -> int:
        return (self.games + self.shard_size - 1) // self.shard_size

    def shard_games(self, k: int) -> range:
        """The game numbers (0-based) shard k holds; game i plays seed + i."""
        return range(k * self.shard_size, min(self.games, (k + 1) * self.shard_size))


def shard_name(k: int) -> str:
    return f"games-{k:05d}.jsonl.gz"


@dataclass(slots=True)
class ShardResult:
    index: int
    data: bytes  # the gzip file's bytes
    games: int
    phases: int
    statuses: dict[str, int]  # won / drawn / year_limit → games


PIECE_GAMES = 10  # games a worker plays as one task


def pieces(job: Job, k: int) -> list[range]:
    """The game numbers of each piece of shard k, in order."""
    games = job.shard_games(k)
    return [range(a, min(games.stop, a + PIECE_GAMES))
            for a in range(games.start, games.stop, PIECE_GAMES)]


@dataclass(slots=True)
class PieceResult:
    shard: int
    part: int  # its place among the shard's pieces
    data: bytes  # one gzip member
    games: int
    phases: int
    statuses: dict[str, int]


def play_piece(job: Job, k: int, part: int, progress: Any = None) -> PieceResult:
    """Play piece `part` of shard k. `progress`, if given, is called with the phases of
    each game as it finishes."""
    variant = load_variant(job.variant)
    player = load_player(job.player)
    buf = io.BytesIO()
    phases = 0
    statuses: dict[str, int] = {}
    games = pieces(job, k)[part]
    memo = write_memo(compile_map(variant))  # what the games of the process share
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0,
                       compresslevel=COMPRESS_LEVEL) as gz:
        for i in games:
            r = play_game(variant, job.options, job.seed + i, player, job.max_year, memo)
            gz.write(r.line + b"\n")
            phases += r.phases
            statuses[r.status] = statuses.get(r.status, 0) + 1
            if progress is not None:
                progress(r.phases)
    return PieceResult(k, part, buf.getvalue(), len(games), phases, statuses)


_MEMO: list[WriteMemo] = []  # the writer's memo of this process's last map


def write_memo(m: Map) -> WriteMemo:
    """The writer's memo of map `m`, kept by the process across the pieces it plays (a
    worker plays many): texts worked out once a process, not once a piece. It changes no
    byte of the output."""
    if not _MEMO or _MEMO[0].map is not m:
        _MEMO[:] = [WriteMemo(m)]
    return _MEMO[0]


def join_pieces(k: int, parts: list[PieceResult]) -> ShardResult:
    """Shard k from all its pieces (in any order)."""
    parts = sorted(parts, key=lambda r: r.part)
    statuses: dict[str, int] = {}
    for r in parts:
        for s, n in r.statuses.items():
            statuses[s] = statuses.get(s, 0) + n
    return ShardResult(k, b"".join(r.data for r in parts), sum(r.games for r in parts),
                       sum(r.phases for r in parts), dict(sorted(statuses.items())))


def play_shard(job: Job, k: int, progress: Any = None) -> ShardResult:
    """Play the games of shard k here and return the shard's bytes."""
    return join_pieces(k, [play_piece(job, k, part, progress)
                           for part in range(len(pieces(job, k)))])


def write_atomic(path: Path, data: bytes) -> None:
    """Write a file so that it is either absent or complete (temporary file + rename)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
