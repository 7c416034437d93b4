"""Live pages (host/live.py): a game's live state — who has ordered and who is ready, never
what; the deadline; an event counter — and its stream of server-sent events, which carries a
phase processed or a deadline moved by another server process (through the database)."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from tests.host.test_api import Table  # noqa: E402


def _live(client, token: str, gm: bool = False) -> dict:
    r = client.get(f"/api/{'gm' if gm else 'play'}/{token}/live.json")
    assert r.status_code == 200, r.text
    return r.json()


def test_who_ordered_and_who_is_ready_never_what(client):
    t = Table(client, movement_minutes=60)
    before = _live(client, t.tokens["England"])
    assert before["phase_id"] == t.pid() and 3590 <= before["seconds_left"] <= 3600
    t.order("France", "A PAR - BUR\nF BRE - MAO")
    t.ready("England")
    seen = _live(client, t.tokens["England"])
    marks = {p["name"]: (p["ordered"], p["ready"]) for p in seen["powers"]}
    assert marks["France"] == (True, False) and marks["England"] == (False, True)
    assert marks["Italy"] == (False, False)
    assert seen["version"] != before["version"]
    text = json.dumps(seen)
    assert "PAR" not in text and "BUR" not in text and "MAO" not in text
    assert _live(client, t.gm, gm=True)["powers"] == seen["powers"]
    t.process()  # a new phase: nobody has ordered in it yet
    after = _live(client, t.tokens["France"])
    assert after["phase"] == "F1901M" and not any(p["ordered"] for p in after["powers"])


def test_a_moved_deadline_changes_the_version(client):
    t = Table(client, movement_minutes=60)
    before = _live(client, t.tokens["Italy"])
    r = client.post(f"/api/gm/{t.gm}/deadline", json={"extend_minutes": 30, "phase": t.pid()})
    assert r.status_code == 200, r.text
    after = _live(client, t.tokens["Italy"])
    assert after["version"] != before["version"] and after["seconds_left"] > 5000


def test_notify_tells_the_pages_of_an_event(client):
    """What other parts of the host call (press: a message arrived)."""
    from polydip.host import live

    t = Table(client)
    gid = client.get(f"/api/gm/{t.gm}").json()["game"]
    before = _live(client, t.tokens["Italy"])
    assert before["events"] == 0
    db = client.app.state.ctx.db
    for _ in range(2):
        with db.transaction() as s:
            live.notify(s, gid, "message")
    after = _live(client, t.tokens["Italy"])
    assert (after["events"], after["event_kind"]) == (2, "message")
    assert after["version"] != before["version"]
    with pytest.raises(ValueError, match="not one of"), db.transaction() as s:
        live.notify(s, gid, "gossip")


def test_a_link_that_works_no_more_gets_404(client):
    t = Table(client)
    assert client.get("/api/play/nosuchtoken1/live.json").status_code == 404
    assert client.get("/api/play/nosuchtoken1/live").status_code == 404
    assert client.get("/api/gm/nosuchtoken1/live").status_code == 404
    pid = t.pid()
    old = t.tokens["Italy"]
    assert client.post(f"/api/gm/{t.gm}/replace", json={"power": "Italy", "phase": pid}
                       ).status_code == 200
    assert client.get(f"/api/play/{old}/live.json").status_code == 404


def test_streams_are_bounded_per_client_and_in_all(tmp_path):
    """Beyond the bounds a stream is refused (429, and the page polls instead); a stream
    closed gives its place back."""
    from polydip.host import live
    from polydip.host.db import Database, migrate
    from polydip.host.service import Host

    db = Database(f"sqlite:///{tmp_path / 'polydip.db'}")
    migrate(db.engine)
    gid, _gm = Host(db, tmp_path).create_game("standard")

    async def scenario() -> None:
        hub = live.Hub(db, poll=0.05, per_client=2, total=3)
        a1 = await hub.open("10.0.0.1", gid)
        a2 = await hub.open("10.0.0.1", gid)
        with pytest.raises(live.TooManyStreams) as refused:
            await hub.open("10.0.0.1", gid)
        assert refused.value.status == 429
        b1 = await hub.open("10.0.0.2", gid)
        with pytest.raises(live.TooManyStreams, match="follows 3 live pages"):
            await hub.open("10.0.0.3", gid)
        first = await a1.__anext__()
        assert first.startswith("retry: ") and "event: state" in first
        await a1.aclose()
        assert hub.open_streams == 2
        a3 = await hub.open("10.0.0.1", gid)  # its place is free again
        assert hub.open_streams == 3
        for stream in (a2, b1, a3):
            await stream.aclose()
        assert hub.open_streams == 0 and not hub.games
        with pytest.raises(live.HostError, match="no such game"):
            await hub.open("10.0.0.4", gid + 1000)
        assert hub.open_streams == 0  # (a refusal keeps no place)

    asyncio.run(scenario())
    db.dispose()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _serve(url: str, data: Path, log: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    with open(log, "w") as out:  # (the child keeps its own copy of the file)
        proc = subprocess.Popen(
            [sys.executable, "-m", "polydip.cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--data", str(data), "--tick", "3600", "--db", url],
            stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    for _ in range(1200):
        try:
            with urllib.request.urlopen(base + "/api/variants", timeout=1):
                return proc, base
        except OSError:
            assert proc.poll() is None, log.read_text()[-2000:]
            time.sleep(0.1)
    raise AssertionError("polydip serve did not start within 120 s")


def _stop(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def test_the_stream_sends_a_phase_processed_by_another_server(pg_cluster, tmp_path):
    """A page's stream on one server process; the GM processes the phase and moves the
    deadline through another (one database): the stream sends each change."""
    from tests.host.conftest import _new_pg_database

    url = _new_pg_database(pg_cluster)
    a, base_a = _serve(url, tmp_path, tmp_path / "a.log")
    try:
        b, base_b = _serve(url, tmp_path, tmp_path / "b.log")
        try:
            d = _post(f"{base_b}/api/games", {"variant": "standard"})
            gm, italy = d["gm_token"], d["players"]["Italy"].rsplit("/", 1)[1]
            with urllib.request.urlopen(f"{base_a}/api/play/{italy}/live", timeout=30) as r:
                assert r.status == 200
                assert r.headers["content-type"].startswith("text/event-stream")
                events = _events(line.decode().rstrip("\n") for line in r)
                first = next(events)
                assert first["phase"] == "S1901M"
                got = _post(f"{base_b}/api/gm/{gm}/process", {"phase": first["phase_id"]})
                processed = next(events)
                assert processed["phase"] == "F1901M"
                assert processed["phase_id"] == got["phase_id"]
                _post(f"{base_b}/api/gm/{gm}/deadline",
                      {"minutes_from_now": 5, "phase": processed["phase_id"]})
                moved = next(events)
                assert moved["deadline"] != processed["deadline"]
                assert 200 <= moved["seconds_left"] <= 300
        finally:
            _stop(b)
    finally:
        _stop(a)


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _events(lines):
    """The data of each `state` event of a stream of lines."""
    kind = None
    for line in lines:
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: ") and kind == "state":
            yield json.loads(line[6:])


def test_two_first_notifications_at_once_both_count(pg_cluster, tmp_path):
    """Two transactions notify a game's first event at the same time (PostgreSQL): the
    second waits for the first's row, then counts on it; no error, two events."""
    import threading

    from polydip.host import live
    from polydip.host.db import Database, migrate
    from polydip.host.service import Host
    from tests.host.conftest import _new_pg_database

    db = Database(_new_pg_database(pg_cluster))
    migrate(db.engine)
    gid, _gm = Host(db, tmp_path).create_game("standard")
    failed: list[BaseException] = []

    def second() -> None:
        try:
            with db.transaction() as s:
                live.notify(s, gid, "message")
        except BaseException as exc:  # reported below
            failed.append(exc)

    with db.transaction() as s:
        live.notify(s, gid, "message")
        s.flush()
        t = threading.Thread(target=second)
        t.start()
        time.sleep(1.0)  # the second now waits on the first's new row
    t.join(30)
    assert not failed and not t.is_alive()
    with db.read() as s:
        assert live.live_states(s, [gid])[gid]["events"] == 2
    db.dispose()


def test_public_press_is_announced_live_and_private_press_is_not(client):
    """A public message changes every page's live state ("a new message"); a private one
    changes nobody's: the live state is shared by all the game's pages, so announcing it
    would tell every power that two others are talking."""
    t = Table(client, movement_minutes=60)
    before = _live(client, t.tokens["Italy"])

    def send(to):
        r = client.post(f"/api/play/{t.tokens['England']}/press",
                        json={"to": to, "text": "hello", "phase": t.pid()})
        assert r.status_code == 201, r.text

    send("France")
    assert _live(client, t.tokens["Italy"])["version"] == before["version"]
    send("GLOBAL")
    after = _live(client, t.tokens["Italy"])
    assert after["version"] != before["version"] and after["event_kind"] == "message"
