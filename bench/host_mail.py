#!/usr/bin/env python
"""Notifications under load: how long the mail task's tick takes with nothing due, and how
fast it sends warnings and results (with the map) to a local SMTP server. Loopback only.

    python bench/host_mail.py [--games 20]

Builds the app in-process on SQLite in a temporary folder with `--smtp` pointing at an
aiosmtpd server it starts, creates --games standard games with a 90-minute movement deadline
and an address for each of their 7 powers, then times: ten ticks with nothing due; the tick
31 minutes on (every power's 1-hour warning); the tick after every game was processed (each
address's results with the map, and the GM's "processed" mail). Needs the host extras:
pip install -e '.[host,host-test]'.
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import time
from datetime import timedelta


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    args = ap.parse_args()

    from aiosmtpd.controller import Controller
    from fastapi.testclient import TestClient

    from polydip.host import notify
    from polydip.host.app import create_app

    received = []

    class Inbox:
        async def handle_DATA(self, server, session, envelope):
            received.append(len(envelope.content))
            return "250 OK"

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    smtp = Controller(Inbox(), hostname="127.0.0.1", port=port)
    smtp.start()
    tmp = tempfile.mkdtemp(prefix="polydip-mail-")
    app = create_app(f"sqlite:///{tmp}/polydip.db", tmp, tick_seconds=3600,
                     smtp=f"smtp://127.0.0.1:{port}")
    with TestClient(app) as c:
        mailer = c.app.state.mailer

        def tick(later: timedelta = timedelta(0)) -> tuple[int, float]:
            t = time.perf_counter()
            n = c.portal.call(mailer.tick, notify.now_utc() + later)
            return n, time.perf_counter() - t

        games = []
        for _ in range(args.games):
            r = c.post("/api/games", json={"variant": "standard", "movement_minutes": 90})
            gm, players = r.json()["gm_token"], r.json()["players"]
            for power, url in players.items():
                c.post(url.split("testserver", 1)[1] + "/mail",
                       data={"address": f"{power.lower()}@example.org",
                             "kinds": list(notify.KINDS), "warn_hours": "24, 1"})
            games.append(gm)
        idle = [tick()[1] for _ in range(10)]
        print(f"{args.games} games x 7 addresses, nothing due: "
              f"{1000 * sum(idle) / len(idle):.1f} ms a tick")
        n, dt = tick(timedelta(minutes=31))
        print(f"deadline warnings: {n} mails in {dt:.2f} s ({n / dt:.1f} a second)")
        for gm in games:
            pid = c.get(f"/api/gm/{gm}").json()["phase_id"]
            c.post(f"/api/gm/{gm}/process", json={"phase": pid})
        n, dt = tick()
        print(f"results with the map and the GM's action: {n} mails in {dt:.2f} s "
              f"({n / dt:.1f} a second; {args.games} maps drawn)")
    smtp.stop()


if __name__ == "__main__":
    main()
