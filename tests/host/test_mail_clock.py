"""Deadlines at a time of day in a time zone (issue 31): "movement phases end at 20:00
Europe/Paris, at least N hours after they begin", correct across a change of summer time."""

from __future__ import annotations

from datetime import datetime

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

from polydip.host.notify_clock import next_time  # noqa: E402
from polydip.host.notify_models import GameClockRow  # noqa: E402
from polydip.host.service import now_utc  # noqa: E402


def test_the_time_of_day_follows_the_zone_across_summer_time():
    # Paris goes to summer time (UTC+2) on Sunday 29 March 2026 at 02:00 local
    before = next_time(datetime(2026, 3, 27, 12), "20:00", "Europe/Paris", 24)
    after = next_time(datetime(2026, 3, 28, 12), "20:00", "Europe/Paris", 24)
    assert before == datetime(2026, 3, 28, 19, 0)  # 20:00 CET
    assert after == datetime(2026, 3, 29, 18, 0)  # 20:00 CEST: the clock moved, not the hour
    # and back to winter time on 25 October 2026
    assert next_time(datetime(2026, 10, 24, 12), "20:00", "Europe/Paris", 24) == datetime(
        2026, 10, 25, 19, 0)
    # not yet N hours away today: the day after
    assert next_time(datetime(2026, 1, 5, 18), "20:00", "Europe/Paris", 2) == datetime(
        2026, 1, 6, 19, 0)
    assert next_time(datetime(2026, 1, 5, 18), "20:00", "Europe/Paris", 0) == datetime(
        2026, 1, 5, 19, 0)
    # a time the clocks skip (02:30 on 29 March) falls an hour later on the wall clock
    assert next_time(datetime(2026, 3, 29, 0), "02:30", "Europe/Paris", 0) == datetime(
        2026, 3, 29, 1, 30)


def _deadline(client, gm: str) -> datetime:
    return datetime.fromisoformat(client.get(f"/api/gm/{gm}").json()["deadline"].rstrip("Z"))


def test_a_game_with_a_clock_ends_its_movement_phases_at_that_time(client):
    clock = {"at": "20:00", "zone": "America/New_York", "min_hours": 24, "phases": "M"}
    r = client.post("/api/games", json={"variant": "standard", "clock": clock,
                                        "retreat_minutes": 30})
    assert r.status_code == 201, r.text
    gm = r.json()["gm_token"]
    first = _deadline(client, gm)
    assert first == next_time(now_utc(), "20:00", "America/New_York", 24).replace(second=0)
    assert (first - now_utc()).total_seconds() >= 24 * 3600 - 5
    with client.app.state.ctx.db.read() as s:
        assert s.get(GameClockRow, r.json()["game"]).zone == "America/New_York"
    # the page says it in the zone and in UTC
    page = client.get(f"/play/{r.json()['players']['France'].rsplit('/', 1)[1]}").text
    assert "America/New_York" in page and first.strftime("%H:%M UTC") in page


@pytest.mark.parametrize("clock, word", [
    ({"at": "25:00", "zone": "UTC"}, "at"),
    ({"at": "20:00", "zone": "Mars/Olympus"}, "zone"),
    ({"at": "20:00", "zone": "../../etc/passwd"}, "zone"),
    ({"at": "20:00", "zone": "localtime"}, "zone"),
    ({"at": "20:00", "min_hours": -1}, "min_hours"),
    ({"at": "20:00", "phases": "X"}, "phases")])
def test_a_bad_clock_is_refused_with_a_message(client, clock, word):
    r = client.post("/api/games", json={"variant": "standard", "clock": clock})
    assert r.status_code in (400, 422) and word in r.text
    r = client.post("/new", data={"variant": "standard", **{
        "clock_" + k: v for k, v in {"min_hours": 12, **clock}.items()}})
    assert r.status_code in (400, 422), r.text


def test_processing_across_the_change_to_summer_time_keeps_the_local_hour(client):
    clock = {"at": "20:00", "zone": "Europe/Paris", "min_hours": 12, "phases": "MRA"}
    r = client.post("/api/games", json={"variant": "standard", "clock": clock})
    gm = r.json()["gm_token"]
    host = client.app.state.host
    # processed at the deadline on Saturday 27 March 2027, 19:00 UTC (20:00 CET): the next
    # phase ends on Sunday at 20:00 CEST, which is 18:00 UTC (summer time began at 02:00)
    assert host.process_due(datetime(2027, 3, 27, 19, 0)) == [r.json()["game"]]
    assert _deadline(client, gm) == datetime(2027, 3, 28, 18, 0)
    assert host.process_due(datetime(2027, 3, 28, 18, 0)) == [r.json()["game"]]
    assert _deadline(client, gm) == datetime(2027, 3, 29, 18, 0)  # a day later, 20:00 CEST
