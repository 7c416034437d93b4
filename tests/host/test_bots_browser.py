"""The GM page's bot control in chromium (issue 31): the GM hands a power to a bot with the
page's form, and the page then says who plays it, with the bot's orders given and ready.

Set POLYDIP_SCREENSHOTS=DIR to keep the screenshot (docs/images/host-bots.png)."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytest.importorskip("playwright.sync_api", reason="the browser tests need "
                    "playwright: pip install 'polydip[host-test]'")
pytestmark = [pytest.mark.host, pytest.mark.slow]

from tests.host.test_browser import browser, page, server  # noqa: E402, F401 (fixtures)


def test_the_gm_hands_a_power_to_a_bot_from_the_page(page, server, tmp_path):  # noqa: F811
    req = urllib.request.Request(server + "/api/games", method="POST",
                                 data=json.dumps({"variant": "standard",
                                                  "bots": {"Turkey": "bot"}}).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        gm = json.loads(r.read())["gm_url"]
    page.goto(gm)
    row = page.locator("#bots tr[data-power='Italy']")
    row.locator("select[name=player]").select_option("random")
    row.locator("button").click()
    page.wait_for_load_state()
    assert "a bot plays it: random" in page.inner_text("#bots tr[data-power='Italy']")
    assert "a bot plays it: bot" in page.inner_text("#bots tr[data-power='Turkey']")
    pending = page.inner_text("#pending")
    assert "Italy" in pending and "ready" in pending
    page.locator("#bots").scroll_into_view_if_needed()
    shot = tmp_path / "host-bots.png"
    page.locator("#bots").screenshot(path=str(shot))
    keep = os.environ.get("POLYDIP_SCREENSHOTS")
    if keep:
        shutil.copy(shot, os.path.join(keep, "host-bots.png"))
    # and back to a player: the row offers the bot again
    row.locator("button").click()
    page.wait_for_load_state()
    assert "hand to bot" in page.inner_text("#bots tr[data-power='Italy']")
