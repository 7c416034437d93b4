#!/usr/bin/env python
"""Load test of the game host: many games, every power submitting and re-submitting orders
at once, on the loopback interface only.

    python bench/host_load.py [--games 50] [--seconds 60] [--pause 0.5] [--db URL]
                              [--workers N | --compare-workers 1,2] [--pg]

Starts `polydip serve` on 127.0.0.1 and a free port (SQLite in a temporary folder unless
--db names another database), creates the games through the API, then runs one client
thread per power of every game (50 standard games: 350 players). Each player, in a loop
until the time is up, sends a random set of its legal orders (one per unit) and waits a
random time up to --pause seconds. Checked: each answer holds exactly the orders sent (no
order lost or crossed with another power's), the orders each power holds at the end are
its last submission, and no answer is a 5xx. Prints the submissions made, the errors and
the latency of a submission (median, p95, max). Needs the host extras:
pip install -e '.[host,host-test]'.

`--workers N` runs `polydip serve --workers N` (PostgreSQL only); `--compare-workers 1,2`
runs the same load once per count (each on a new database with --pg) and prints each; `--pg`
starts a throwaway PostgreSQL cluster (initdb/pg_ctl on a Unix socket in a temporary folder,
stopped at the end) instead of naming one with --db. Bounded: at most 500 games, 600 s a
run and 8 workers.
"""

from __future__ import annotations

import argparse
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _call(url: str, body: Any | None = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"content-type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=120) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


class Server:
    """`polydip serve` in a child process, stopped by its pid."""

    def __init__(self, data: Path, db: str | None, workers: int = 1) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = open(data / "serve.log", "w")  # noqa: SIM115 - closed in stop()
        cmd = [sys.executable, "-m", "polydip.cli.main", "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--data", str(data), "--tick", "5",
               "--workers", str(workers)]
        if db:
            cmd += ["--db", db]
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        for _ in range(600):
            try:
                with urllib.request.urlopen(self.url + "/api/variants", timeout=1):
                    return
            except OSError:
                if self.proc.poll() is not None:
                    raise RuntimeError("polydip serve stopped: "
                                       + (data / "serve.log").read_text()[-2000:]) from None
                time.sleep(0.1)
        self.stop()
        raise RuntimeError("polydip serve did not start within 60 s")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def run(games: int = 50, seconds: float = 60.0, pause: float = 0.5, db: str | None = None,
        seed: int = 1, workers: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="polydip-load-") as tmp:
        server = Server(Path(tmp), db, workers)
        try:
            return {"workers": workers, **_load(server.url, games, seconds, pause, seed)}
        finally:
            server.stop()


class Cluster:
    """A throwaway PostgreSQL cluster (as tests/host/conftest.py starts one): initdb and
    pg_ctl on a Unix socket in a temporary folder, run as the postgres user under root."""

    def __init__(self) -> None:
        import glob
        import os
        import shutil

        found = shutil.which("pg_ctl")
        dirs = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not found and not dirs:
            raise RuntimeError("--pg needs PostgreSQL's initdb and pg_ctl")
        self.bin = Path(found).parent if found else Path(dirs[-1])
        self.base = Path(tempfile.mkdtemp(prefix="polydip-bench-pg-"))
        self.root = os.geteuid() == 0
        if self.root:
            shutil.chown(self.base, "postgres")
        self.data = self.base / "data"
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.base / "log"), "-w", "-o",
                  f"-k {self.base} -c listen_addresses='' -c max_connections=400", "start")
        self.count = 0

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bin / tool), *args]
        if self.root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        subprocess.run(cmd, check=True, capture_output=True)

    def new_database(self) -> str:
        import psycopg

        self.count += 1
        name = f"load{self.count}"
        with psycopg.connect(host=str(self.base), user="postgres", dbname="postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return f"postgresql+psycopg://postgres@/{name}?host={self.base}"

    def stop(self) -> None:
        import shutil

        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "stop")
        shutil.rmtree(self.base, ignore_errors=True)


def _load(url: str, games: int, seconds: float, pause: float, seed: int) -> dict[str, Any]:
    players = []  # (token, legal orders per unit, the phase's id)
    for _ in range(games):
        status, d = _call(url + "/api/games", {"variant": "standard",
                                               "movement_minutes": 24 * 60})
        if status != 201:
            raise RuntimeError(f"creating a game: {status} {d}")
        for link in d["players"].values():
            token = link.rsplit("/", 1)[1]
            _s, state = _call(f"{url}/api/play/{token}")
            players.append((token, state["legal_orders"], state["phase_id"]))
    latencies: list[float] = []
    errors: list[str] = []
    last: dict[str, list[str]] = {}
    lock = threading.Lock()
    end = time.monotonic() + seconds
    start = threading.Barrier(len(players))

    def player(i: int, token: str, legal: dict[str, list[str]], phase: str) -> None:
        rnd = random.Random(seed * 100_003 + i)
        start.wait()
        while time.monotonic() < end:
            orders = [rnd.choice(choices) for choices in legal.values()]
            t0 = time.perf_counter()
            status, body = _call(f"{url}/api/play/{token}/orders",
                                 {"text": "\n".join(orders), "phase": phase})
            dt = time.perf_counter() - t0
            with lock:
                if status != 200:
                    errors.append(f"{status}: {str(body)[:200]}")
                    continue
                latencies.append(dt)
                if body["orders"] != orders:
                    errors.append(f"sent {orders}, held {body['orders']}")
                last[token] = orders
            time.sleep(rnd.uniform(0, pause))

    threads = [threading.Thread(target=player, args=(i, t, lg, ph)) for i, (t, lg, ph)
               in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for token, _legal, _phase in players:  # what each power holds at the end is its last submission
        status, state = _call(f"{url}/api/play/{token}")
        if status != 200:
            errors.append(f"{status} reading a power's state")
        elif state["orders"] != last.get(token, []):
            errors.append(f"lost: held {state['orders']}, last sent {last.get(token)}")
    latencies.sort()
    n = len(latencies)
    return {
        "games": games, "players": len(players), "seconds": seconds,
        "submissions": n, "per_second": round(n / seconds, 1),
        "errors": len(errors), "first_errors": errors[:5],
        "server_errors": sum(1 for e in errors if e[:1] == "5"),
        "median_ms": round(statistics.median(latencies) * 1000, 1) if n else None,
        "p95_ms": round(latencies[int(n * 0.95) - 1] * 1000, 1) if n else None,
        "max_ms": round(latencies[-1] * 1000, 1) if n else None,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--pause", type=float, default=0.5,
                    help="each player waits up to this many seconds between submissions")
    ap.add_argument("--db", help="a database URL (default: SQLite in a temporary folder)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1,
                    help="server processes (more than 1 needs PostgreSQL: --db or --pg)")
    ap.add_argument("--compare-workers", metavar="N,M",
                    help="one run per worker count, e.g. 1,2 (each on a new database with --pg)")
    ap.add_argument("--pg", action="store_true",
                    help="a throwaway PostgreSQL cluster instead of --db")
    args = ap.parse_args(argv)
    try:
        counts = ([int(x) for x in args.compare_workers.split(",")] if args.compare_workers
                  else [args.workers])
    except ValueError:
        ap.error("--compare-workers: worker counts separated by commas, e.g. 1,2")
    if not 1 <= args.games <= 500 or not 0 < args.seconds <= 600:
        ap.error("--games 1 to 500, --seconds up to 600")
    if not all(1 <= n <= 8 for n in counts) or len(counts) > 4:
        ap.error("1 to 8 workers a run, at most 4 runs")
    if max(counts) > 1 and not (args.pg or (args.db or "").startswith("postgresql")):
        ap.error("more than one worker needs PostgreSQL: --pg or --db postgresql+psycopg://...")
    cluster = Cluster() if args.pg else None
    results = []
    try:
        for n in counts:
            db = cluster.new_database() if cluster else args.db
            results.append(run(args.games, args.seconds, args.pause, db, args.seed, n))
            print(json.dumps(results[-1], indent=1), flush=True)
    finally:
        if cluster:
            cluster.stop()
    return 1 if any(r["errors"] for r in results) else 0


if __name__ == "__main__":
    sys.exit(main())
