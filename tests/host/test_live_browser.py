"""Live pages in a real browser (Debian chromium through Playwright): a player's page shows
who has ordered, follows a moved deadline, says "processing" when the countdown reaches
zero, and shows the new phase by itself when the GM processes it — the test never reloads
it. A form made for a phase that is gone reloads the new phase instead of posting.

Set POLYDIP_SCREENSHOTS=DIR to keep the screenshot (docs/images holds the doc's)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need "
                               "playwright: pip install 'polydip[host-test]'")
pytestmark = [pytest.mark.host, pytest.mark.slow]

from tests.host.test_browser import CHROMIUM, _free_port  # noqa: E402


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`polydip serve` whose deadline task never runs in the test's time (--tick 3600): a
    deadline passes and the page waits, "processing", until the GM processes the phase."""
    data = tmp_path_factory.mktemp("live")
    port = _free_port()
    with open(data / "serve.log", "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "polydip.cli.main", "serve", "--host", "127.0.0.1",
             "--port", str(port), "--data", str(data), "--tick", "3600"],
            stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):
            try:
                with urllib.request.urlopen(url + "/", timeout=1):
                    break
            except OSError:
                assert proc.poll() is None, (data / "serve.log").read_text()[-2000:]
                time.sleep(0.1)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def page():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"browser tests skipped: no {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        p = b.new_context(viewport={"width": 1300, "height": 900}).new_page()
        p.set_default_timeout(30_000)
        yield p
        b.close()


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _text_is(page, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => { const e = document.querySelector(s); "
                           "return e && e.textContent.includes(t); }", arg=[selector, text])


def test_a_players_page_follows_the_game_by_itself(page, server, tmp_path):
    d = _post(server + "/api/games", {"variant": "standard", "name": "Live",
                                      "movement_minutes": 600})
    gm, links = d["gm_token"], d["players"]
    token = {p: u.rsplit("/", 1)[1] for p, u in links.items()}
    api = f"{server}/api/gm/{gm}"
    page.goto(links["England"])
    _text_is(page, "#live-state", "live")
    _text_is(page, "[data-power=France] .mark", "\u2013")  # (none yet)
    loaded = page.evaluate("performance.timeOrigin")  # the page's load, to see reloads

    # France orders, Italy is ready: shown in place, never what they ordered
    phase = _post(f"{server}/api/play/{token['France']}/orders",
                  {"text": "A PAR - BUR", "phase": json.loads(urllib.request.urlopen(
                      api).read())["phase_id"]})["phase_id"]
    _post(f"{server}/api/play/{token['Italy']}/ready", {"ready": True, "phase": phase})
    _text_is(page, "[data-power=France] .mark", "ordered")
    _text_is(page, "[data-power=Italy] .mark", "ready")
    assert "updated" in page.inner_text("#live-updated")
    assert "BUR" not in page.inner_text("#live")
    if os.environ.get("POLYDIP_SCREENSHOTS"):
        shot = tmp_path / "host-live.png"
        page.locator("section.status").screenshot(path=str(shot))
        shutil.copy(shot, Path(os.environ["POLYDIP_SCREENSHOTS"]) / "host-live.png")

    # the deadline moved to 3 s from now: the countdown follows it, then says processing
    _post(f"{api}/deadline", {"minutes_from_now": 0.05, "phase": phase})
    _text_is(page, "#live-updated", "the deadline moved")
    _text_is(page, "#deadline", "processing")
    assert page.inner_text("#live-state") == "processing"

    # the GM processes the phase: the page shows the new one by itself, and says so
    new = _post(f"{api}/process", {"phase": phase})
    _text_is(page, "#phase", "Fall 1901")
    _text_is(page, "#live-updated", "the game is now at F1901M")
    _text_is(page, "#live-state", "live")
    assert page.evaluate("performance.timeOrigin") != loaded  # (the page reloaded itself)
    _text_is(page, "[data-power=France] .mark", "\u2013")  # (none yet)

    # orders typed and not sent when the phase goes: kept on the page, and the form
    # reloads the new phase instead of posting to the gone one
    page.fill("#orders-text", "F LON - NTH")
    _post(f"{api}/process", {"phase": new["phase_id"]})
    _text_is(page, "#live-updated", "what you typed here was not sent")
    assert page.input_value("#orders-text") == "F LON - NTH"
    page.click("#submit-orders")
    page.wait_for_load_state()
    _text_is(page, "#live-updated", "the game is now at")
    assert "(F1901M)" not in page.inner_text("p.phase")
    orders = json.loads(urllib.request.urlopen(f"{server}/api/play/{token['England']}").read())
    assert orders["orders"] == []  # nothing was posted


def test_the_gm_page_and_a_past_phase_follow_the_game(page, server):
    """The GM's page shows a power's new orders by itself (it reloads: its table holds the
    pending orders); a past phase's page stays, says the game moved on and links to it."""
    d = _post(server + "/api/games", {"variant": "standard", "movement_minutes": 600})
    gm, france = d["gm_token"], d["players"]["France"].rsplit("/", 1)[1]
    api = f"{server}/api/gm/{gm}"
    phase = json.loads(urllib.request.urlopen(api).read())["phase_id"]
    phase = _post(f"{api}/process", {"phase": phase})["phase_id"]
    page.goto(f"{server}/gm/{gm}")
    _text_is(page, "#live-state", "live")
    _post(f"{server}/api/play/{france}/orders", {"text": "A PAR - BUR", "phase": phase})
    _text_is(page, "#pending", "A PAR - BUR")
    _text_is(page, "#live-updated", "orders or readiness changed")

    page.goto(f"{server}/gm/{gm}/phase/0")
    _text_is(page, "#live-state", "live")
    _post(f"{api}/process", {"phase": phase})
    _text_is(page, "#live-updated", "the game is now at")
    assert page.is_visible("#live-reload")
    assert "(S1901M)" in page.inner_text("h1")  # the past phase stays on the page
    page.click("#live-reload")
    page.wait_for_url(f"{server}/gm/{gm}")


def test_without_event_source_the_page_polls(page, server):
    """A browser without EventSource (or whose stream is refused) checks live.json every
    5 s instead, and says so."""
    d = _post(server + "/api/games", {"variant": "standard", "movement_minutes": 600})
    gm, italy = d["gm_token"], d["players"]["Italy"]
    page.add_init_script("delete window.EventSource;")
    page.goto(italy)
    _text_is(page, "#live-state", "live (checking every 5 s)")
    phase = json.loads(urllib.request.urlopen(f"{server}/api/gm/{gm}").read())["phase_id"]
    _post(f"{server}/api/gm/{gm}/process", {"phase": phase})
    _text_is(page, "#phase", "Fall 1901")
    _text_is(page, "#live-updated", "the game is now at F1901M")
