"""Running a simulation job: in this process, on a process pool, or on a Ray cluster.

Whatever runs them, shards are played in pieces of a few games (`play_piece`, shards.py)
cut from the job alone (seeds, player, options), so the output does not depend on how many
workers there are or where they run, and no worker idles while another plays a whole shard.
Finished shards are recorded in DIR/manifest.json as they are written; a rerun of the same
job skips the shards the manifest lists whose file is present and unchanged.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from polydip import __version__
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.simulate.players import load_player, seat_powers
from polydip.simulate.shards import (
    Job,
    PieceResult,
    ShardResult,
    join_pieces,
    pieces,
    play_piece,
    play_shard,
    sha256_file,
    shard_name,
    write_atomic,
)
from polydip.variants.loader import load_variant

MANIFEST = "manifest.json"
FORMAT = "polydip-simulation/1"
# what must match for a rerun to continue a directory's job
_JOB_KEYS = ("variant", "options", "seed", "games", "player", "max_year", "shard_size")

# called with (games finished, their phases) and resumed=True for the shards a rerun skips
Progress = Callable[..., None]


def check_job(job: Job) -> Job:
    """Fail early, with a clear message, on a job that cannot run: unknown variant, bad
    options, unknown player, impossible counts. Returns the job with max_year filled in."""
    if job.games < 1:
        raise PolydipError(f"--games must be at least 1 (got {job.games})")
    if job.shard_size < 1:
        raise PolydipError(f"the shard size must be at least 1 (got {job.shard_size})")
    v = load_variant(job.variant)
    options = {**{k: val for k, val in PACKAGE_READINGS.items() if k not in v.options},
               **job.options}
    game = Game.new(v, options)
    player = load_player(job.player)
    seat_powers(game.map, getattr(player, "powers", []))  # a seat list's powers exist
    max_year = job.max_year
    if max_year is None:
        max_year = game.position.phase.year + DEFAULT_YEARS - 1
    if max_year < game.position.phase.year:
        raise PolydipError(f"--max-year {max_year} is before the game starts "
                           f"({game.position.phase.name})")
    return Job(job.variant, options, job.seed, job.games, job.player, max_year,
               job.shard_size)


# The games are written in the diplomacy package's format, so they are played by the
# package's readings where polydip's default differs, unless the job says otherwise: an
# army ordered "VIA" to a neighbour no fleet convoys moves over land (DATC v2.4, 6.G.8), as
# in the package. `polydip replay` checks a run against the package (docs/simulate.md).
PACKAGE_READINGS: dict[str, str] = {"adjacent_convoy": "fallback"}


DEFAULT_YEARS = 30  # without --max-year a game stops after its 30th year (1930 in standard)


def simulate(job: Job, out: str | Path, workers: int = 1, ray_address: str | None = None,
             progress: Progress | None = None) -> dict[str, Any]:
    """Play the job's games into DIR `out` (shards and manifest.json); returns the manifest."""
    job = check_job(job)
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PolydipError(f"--out {out}: not a directory")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PolydipError(f"--out {out}: cannot make the directory ({exc.strerror or exc}); "
                           "give a folder you may write to") from None
    manifest = _open_manifest(out, job)
    done = {s["index"] for s in manifest["shards"]}
    todo = [k for k in range(job.n_shards) if k not in done]
    if progress is not None and done:
        progress(sum(s["games"] for s in manifest["shards"]),
                 sum(s["phases"] for s in manifest["shards"]), resumed=True)
    if ray_address is not None:
        results: Iterable[ShardResult] = _run_ray(job, todo, ray_address, progress)
    elif workers > 1 and len(todo) > 1:
        results = _run_pool(job, todo, workers, progress)
    else:
        results = _run_here(job, todo, progress)
    for r in results:
        path = out / shard_name(r.index)
        write_atomic(path, r.data)
        manifest["shards"].append({
            "index": r.index,
            "file": path.name,
            "first_seed": job.seed + job.shard_games(r.index).start,
            "games": r.games,
            "phases": r.phases,
            "statuses": r.statuses,
            "bytes": len(r.data),
            "sha256": sha256_file(path),
        })
        _save_manifest(out, manifest, job)
    return _save_manifest(out, manifest, job)


# ---- the manifest -----------------------------------------------------------------------


def _job_fields(job: Job) -> dict[str, Any]:
    return {"variant": job.variant, "options": job.options, "seed": job.seed,
            "games": job.games, "player": job.player, "max_year": job.max_year,
            "shard_size": job.shard_size}


def _seats_key(player: Any) -> Any:
    """A seat list as compared on a rerun: the powers' names in any case and spacing
    ("usa=bot, ussr=coherent,random" is "USA=bot,USSR=coherent,random"); the players' own
    names (module:function) as written."""
    if not isinstance(player, str) or "=" not in player:
        return player
    parts = []
    for part in player.split(","):
        power, eq, who = part.strip().partition("=")
        parts.append(f"{power.strip().lower()}{eq}{who.strip()}")
    return ",".join(parts)


def _open_manifest(out: Path, job: Job) -> dict[str, Any]:
    """The directory's manifest, with the shards still valid; a new one for a new dir."""
    path = out / MANIFEST
    fields = _job_fields(job)
    if not path.exists():
        stray = sorted(p.name for p in out.glob("games-*.jsonl.gz"))
        if stray:
            raise PolydipError(f"--out {out} holds shards ({stray[0]}, ...) but no "
                               f"{MANIFEST}: use an empty directory")
        return {**fields, "shards": []}
    try:
        old = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise PolydipError(f"{path}: cannot read ({exc}); use another --out") from None
    if not isinstance(old, dict) or old.get("format") != FORMAT:
        raise PolydipError(f"{path} is not a polydip simulation manifest")
    for key in _JOB_KEYS:
        if old.get(key) != fields[key] and not (
                key == "player" and _seats_key(old.get(key)) == _seats_key(fields[key])):
            raise PolydipError(
                f"--out {out} holds another simulation ({key} {old.get(key)!r}, this one "
                f"{fields[key]!r}): use another directory, or rerun with the same settings "
                "to continue it")
    kept = []
    for s in old.get("shards", []):
        f = out / s["file"]
        if f.is_file() and sha256_file(f) == s["sha256"]:
            kept.append(s)
    return {**fields, "shards": kept}


def _save_manifest(out: Path, manifest: dict[str, Any], job: Job) -> dict[str, Any]:
    shards = sorted(manifest["shards"], key=lambda s: s["index"])
    statuses: dict[str, int] = {}
    for s in shards:
        for k, n in s["statuses"].items():
            statuses[k] = statuses.get(k, 0) + n
    data = {
        "format": FORMAT,
        "polydip": __version__,
        **_job_fields(job),
        "variant_name": load_variant(job.variant).name,
        "seeds": [job.seed, job.seed + job.games - 1],
        "complete": len(shards) == job.n_shards,
        "counts": {"games": sum(s["games"] for s in shards),
                   "phases": sum(s["phases"] for s in shards),
                   "shards": len(shards), **dict(sorted(statuses.items()))},
        "shards": shards,
    }
    manifest["shards"] = shards
    write_atomic(out / MANIFEST, (json.dumps(data, indent=1) + "\n").encode())
    return data


# ---- where shards are played ------------------------------------------------------------


def _run_here(job: Job, todo: list[int], progress: Progress | None) -> Iterator[ShardResult]:
    def one(phases: int) -> None:
        if progress is not None:
            progress(1, phases)

    for k in todo:
        yield play_shard(job, k, one)


def _pool_task(job: Job, k: int, part: int, q: Any) -> PieceResult:
    return play_piece(job, k, part, q.put)


def _run_pool(job: Job, todo: list[int], workers: int, progress: Progress | None
              ) -> Iterator[ShardResult]:
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")  # a worker inherits nothing of this process
    with ctx.Manager() as manager, ProcessPoolExecutor(workers, mp_context=ctx) as pool:
        q = manager.Queue()
        pending: set[Future[PieceResult]] = {
            pool.submit(_pool_task, job, k, part, q)
            for k in todo for part in range(len(pieces(job, k)))}
        shards = _Assembly(job)
        # shards are written in the order they are complete; their bytes do not depend on it
        while pending:
            finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            _drain(q, progress)
            for f in finished:
                yield from shards.add(f.result())
        _drain(q, progress)


class _Assembly:
    """Pieces in, shards out as soon as all their pieces are in."""

    def __init__(self, job: Job) -> None:
        self.job = job
        self.parts: dict[int, list[PieceResult]] = {}

    def add(self, r: PieceResult) -> Iterator[ShardResult]:
        got = self.parts.setdefault(r.shard, [])
        got.append(r)
        if len(got) == len(pieces(self.job, r.shard)):
            del self.parts[r.shard]
            yield join_pieces(r.shard, got)


def _drain(q: Any, progress: Progress | None) -> None:
    while True:
        try:
            phases = q.get_nowait()
        except queue.Empty:
            return
        if progress is not None:
            progress(1, phases)


def _run_ray(job: Job, todo: list[int], address: str, progress: Progress | None
             ) -> Iterator[ShardResult]:
    try:
        import ray
    except ImportError:
        raise PolydipError("--ray needs Ray: pip install 'polydip[ray]'") from None
    if not ray.is_initialized():
        _check_reachable(address)
        try:
            ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
            raise PolydipError(f"--ray {address}: cannot join the cluster ({exc})") from None
    task = ray.remote(max_retries=2)(play_piece)
    pending = [task.remote(job, k, part) for k in todo for part in range(len(pieces(job, k)))]
    shards = _Assembly(job)
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            r: PieceResult = ray.get(ref)
            if progress is not None:
                progress(r.games, r.phases)
            yield from shards.add(r)


def _check_reachable(address: str) -> None:
    """Ray waits minutes for a head that is not there: look first (host:port addresses)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # 'auto' or a ray:// client address: Ray finds or checks it itself
    try:
        socket.create_connection((host, int(port)), timeout=10).close()
    except OSError as exc:
        raise PolydipError(f"--ray {address}: cannot join the cluster (nothing answers "
                           f"there: {exc.strerror or exc}); start it with `ray start --head` "
                           "(docs/simulate.md)") from None
