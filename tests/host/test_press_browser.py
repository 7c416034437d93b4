"""Press in a real browser (issue 31's "Done when"): two players of a WITA game exchange
messages, each in their own browser context, through `polydip serve` (the server and
browser fixtures of test_browser.py); a message appears on its reader's open page without a
reload; a third power's page shows neither message.

Set POLYDIP_SCREENSHOTS=DIR to keep the screenshot (docs/images/host-press.png).
"""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright: pip "
                    "install 'polydip[host-test]'")
pytestmark = [pytest.mark.host, pytest.mark.slow]

from tests.host.test_browser import browser, create_game, server  # noqa: E402, F401


def _player(chromium, link: str):
    ctx = chromium.new_context(viewport={"width": 1300, "height": 1000})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    page.goto(link)
    return ctx, page


def test_two_players_exchange_press_in_a_wita_game(browser, server, tmp_path):  # noqa: F811
    gm_ctx = browser.new_context()
    gm_page = gm_ctx.new_page()
    _gm, links = create_game(gm_page, server, "wita")
    gm_ctx.close()
    brazil_ctx, brazil = _player(browser, links["Brazil"])
    argentina_ctx, argentina = _player(browser, links["Argentina"])
    try:
        brazil.check("#press-to input[value='Argentina']")
        brazil.fill("#press-text", "Uruguay stays neutral? <b>yes</b>")
        brazil.click("#press-send")
        brazil.wait_for_url("**#press")
        assert "Uruguay stays neutral? <b>yes</b>" in brazil.inner_text("#press-messages")

        # no reload: Argentina's open page shows the message by itself (press.js asks for
        # its own messages every 10 s), saying so
        argentina.wait_for_selector("#press-new", timeout=25_000)
        first = argentina.locator(".press-message").first
        assert first.locator(".press-sender").inner_text() == "Brazil"
        assert first.locator(".press-text").inner_text() == "Uruguay stays neutral? <b>yes</b>"
        argentina.check("#press-to input[value='Brazil']")
        argentina.fill("#press-text", "Agreed. And Paraguay?")
        argentina.click("#press-send")
        argentina.wait_for_url("**#press")

        brazil.reload()
        texts = brazil.locator(".press-text").all_inner_texts()
        assert texts == ["Agreed. And Paraguay?", "Uruguay stays neutral? <b>yes</b>"]
        brazil.locator("#press").screenshot(path=str(tmp_path / "host-press.png"))
        keep = os.environ.get("POLYDIP_SCREENSHOTS")
        if keep:
            shutil.copy(tmp_path / "host-press.png", keep)

        chile_ctx, chile = _player(browser, links["Chile"])
        try:
            chile.wait_for_timeout(11_000)  # a poll of its own messages went by: none
            assert chile.locator(".press-message").count() == 0
            assert chile.locator("#press-new").count() == 0
            assert "Paraguay" not in chile.content()
        finally:
            chile_ctx.close()
    finally:
        brazil_ctx.close()
        argentina_ctx.close()
