#!/usr/bin/env python
"""Deadlines under load: are orders sent after the deadline refused, and how late is each
phase processed? On the loopback interface only.

    python bench/host_deadlines.py [--games 10] [--minutes 0.25] [--seconds 30] [--db URL]

Starts `polydip serve` (bench/host_load.py's Server: SQLite in a temporary folder unless
--db names another database), creates the games with a movement deadline of --minutes, and
runs one client thread per power sending random legal orders for the first phase, naming
it, every 0-0.5 s, across the deadline, for --seconds. Counted from the time each request
was sent and each game's deadline: orders sent after the deadline that were taken for the
phase ("late_accepted", 0 expected) or refused with 409 ("late_refused"), and how long after
its deadline each game's first phase was processed (read from the database when it is
SQLite). Needs the host extras: pip install -e '.[host,host-test]'.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

_spec = importlib.util.spec_from_file_location("host_load", Path(__file__).with_name(
    "host_load.py"))
host_load = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(host_load)


def _now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def run(games: int = 10, minutes: float = 0.25, seconds: float = 30.0, db: str | None = None,
        seed: int = 1) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="polydip-deadlines-") as tmp:
        server = host_load.Server(Path(tmp), db)
        try:
            sent = _load(server.url, games, minutes, seconds, seed)
        finally:
            server.stop()
        deadlines, processed = {}, {}
        if db is None:  # the exact times, from the database the server wrote
            con = sqlite3.connect(Path(tmp) / "polydip.db")
            deadlines = {gid: datetime.fromisoformat(c) + timedelta(minutes=minutes)
                         for gid, c in con.execute("SELECT id, created FROM games")}
            processed = {gid: datetime.fromisoformat(c) for gid, c in con.execute(
                "SELECT game_id, created FROM phases WHERE seq = 1")}
            con.close()
    counts = {"late_accepted": 0, "late_refused": 0, "on_time_accepted": 0, "other": 0}
    for when, gid, status, phase in sent:
        deadline = deadlines.get(gid)
        if deadline is None:
            continue
        if when > deadline:
            key = ("late_accepted" if status == 200 and phase == "S1901M" else
                   "late_refused" if status == 409 else "other")
        else:
            key = "on_time_accepted" if status == 200 else "other"
        counts[key] += 1
    lag = sorted((processed[g] - deadlines[g]).total_seconds() for g in processed)
    return {"games": games, "requests": len(sent), **counts, "processed": len(lag),
            "lateness_s_median": round(lag[len(lag) // 2], 2) if lag else None,
            "lateness_s_max": round(lag[-1], 2) if lag else None}


def _load(url: str, games: int, minutes: float, seconds: float, seed: int
          ) -> list[tuple[datetime, int, int, str | None]]:
    call = host_load._call
    players = []
    for _ in range(games):
        status, d = call(url + "/api/games", {"variant": "standard",
                                              "movement_minutes": minutes})
        if status != 201:
            raise RuntimeError(f"creating a game: {status} {d}")
        state = call(f"{url}/api/gm/{d['gm_token']}")[1]
        for link in d["players"].values():
            token = link.rsplit("/", 1)[1]
            mine = call(f"{url}/api/play/{token}")[1]
            players.append((token, mine["legal_orders"], state.get("phase_id", ""),
                            state["game"]))  # no phase_id: a server before it had one
    sent: list[tuple[datetime, int, int, str | None]] = []
    lock = threading.Lock()
    end = time.monotonic() + seconds

    def player(i: int, token: str, legal: dict[str, list[str]], phase: str, gid: int) -> None:
        rnd = random.Random(seed * 100_003 + i)
        while time.monotonic() < end:
            text = "\n".join(rnd.choice(choices) for choices in legal.values())
            when = _now()
            status, body = call(f"{url}/api/play/{token}/orders",
                                {"text": text, "phase": phase})
            with lock:
                sent.append((when, gid, status,
                             body.get("phase") if isinstance(body, dict) else None))
            time.sleep(rnd.uniform(0, 0.5))

    threads = [threading.Thread(target=player, args=(i, *p)) for i, p in enumerate(players)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--minutes", type=float, default=0.25, help="the movement deadline")
    ap.add_argument("--seconds", type=float, default=30.0, help="how long players send")
    ap.add_argument("--db", help="a database URL (default: SQLite in a temporary folder; "
                    "lateness is measured on SQLite only)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    result = run(args.games, args.minutes, args.seconds, args.db, args.seed)
    print(json.dumps(result, indent=1))
    return 1 if result["late_accepted"] else 0


if __name__ == "__main__":
    sys.exit(main())
