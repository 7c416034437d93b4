"""Orders on the map (issue 31), in chromium: a player clicks a unit, then a province or the
supported unit and its destination; the order is drawn on the map at once and fills the
picker's form, which sends it as before (the order is then held, read back through the
API). On a 390 px phone the same is done by taps, on War in the Americas. The picker stays
for the keyboard. The adjustment page counts the builds due.

Set POLYDIP_SCREENSHOTS=DIR to keep the screenshots (docs/images holds docs/host.md's).
"""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")

from tests.host import test_browser as tb
from tests.host.test_browser import create_game, map_drawn

server = tb.server  # the fixtures: a server of this module's own, chromium
browser = tb.browser
pytestmark = [pytest.mark.host, pytest.mark.slow]


def api_state(server: str, link: str) -> dict:
    token = link.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server}/api/play/{token}", timeout=30) as r:
        return json.loads(r.read())


def keep(tmp: Path, name: str) -> None:
    where = os.environ.get("POLYDIP_SCREENSHOTS")
    if where:
        shutil.copy(tmp / name, Path(where) / name)


def overlay_ready(page) -> None:
    """The map drawn and the overlay's province shapes copied from it."""
    map_drawn(page)
    page.wait_for_function("() => document.querySelectorAll('#map-overlay .mc-prov').length"
                           " > 10")


def click_at(page, what: str, tap: bool = False) -> None:
    """Click (or tap) the overlay's unit ring or province `what` at its centre, scrolled
    into the map frame's view first."""
    loc = page.locator(f"#map-overlay {what}").first
    # the map on screen first: on a phone the page's sections above it push it down
    page.locator("#map-frame").scroll_into_view_if_needed()
    page.evaluate("""(sel) => { const e = document.querySelector(sel),
        f = document.getElementById('map-frame'), b = e.getBoundingClientRect(),
        fb = f.getBoundingClientRect();
        f.scrollLeft += (b.left + b.width / 2) - (fb.left + fb.width / 2);
        f.scrollTop += (b.top + b.height / 2) - (fb.top + fb.height / 2); }""",
                  f"#map-overlay {what}")
    box = loc.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    if what.startswith(".mc-prov"):  # a province's centre may be a hole: use a point in it
        pt = page.evaluate("""(sel) => { const e = document.querySelector(sel);
            const b = e.getBBox(), m = e.getScreenCTM(), s = e.ownerSVGElement;
            for (let i = 0; i <= 8; i++) for (let j = 0; j <= 8; j++) {
              const p = s.createSVGPoint();
              p.x = b.x + b.width * (0.5 + (i % 2 ? 1 : -1) * Math.ceil(i / 2) / 10);
              p.y = b.y + b.height * (0.5 + (j % 2 ? 1 : -1) * Math.ceil(j / 2) / 10);
              if (e.isPointInFill(p)) { const q = p.matrixTransform(m);
                const top = document.elementFromPoint(q.x, q.y);
                if (top === e) return [q.x, q.y]; } }
            return null; }""", f"#map-overlay {what}")
        assert pt, f"no free point of {what} on screen"
        x, y = pt
    if tap:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)


def test_a_move_and_a_support_by_clicks(browser, server, tmp_path):
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        _gm, links = create_game(page, server, "standard")
        link = links["France"]
        page.goto(link)
        assert "Army Paris (PAR): no order" in page.inner_text("#unit-orders")
        overlay_ready(page)
        # A PAR, then Burgundy: offered in full names, drawn, set in the picker
        click_at(page, ".mc-unit[data-key='A PAR']")
        offered = page.inner_text("#mapclick-choices")
        assert "Army Paris (PAR): move to Burgundy (BUR)" in offered
        assert offered.count("\n") + 1 == len(api_state(server, link)["legal_orders"]["A PAR"])
        click_at(page, ".mc-prov[data-province='BUR']")
        assert page.input_value("select[data-unit='A PAR']") == "A PAR - BUR"
        assert page.locator("#map-overlay .mc-order[data-order='A PAR - BUR']").count() == 1
        # F BRE supports A MAR to Gascony: unit, "Support", the supported unit, destination
        click_at(page, ".mc-unit[data-key='F BRE']")
        page.click("#mapclick-panel button[data-type='S']")
        click_at(page, ".mc-unit[data-key='A MAR']")
        assert page.input_value("select[data-unit='F BRE']") == ""  # where to, first
        assert page.locator("#map-overlay .mc-target[data-province='GAS']").count() == 1
        click_at(page, ".mc-prov[data-province='GAS']")
        assert page.input_value("select[data-unit='F BRE']") == "F BRE S A MAR - GAS"
        assert page.locator("#map-overlay .mc-order").count() == 2
        page.screenshot(path=str(tmp_path / "host-map-orders.png"))
        with page.expect_navigation():
            page.click("#mapclick-send")
        held = api_state(server, link)["orders"]
        assert sorted(held) == ["A PAR - BUR", "F BRE S A MAR - GAS"]
        units = page.inner_text("#unit-orders")
        assert "Army Paris (PAR): move to Burgundy (BUR)" in units
        assert "Fleet Brest (BRE): support Army Marseilles (MAR) to Gascony (GAS)" in units
        assert "Army Marseilles (MAR): no order" in units
        # the map the server draws shows them (its orders' data-order)
        token = link.rsplit("/", 1)[1]
        with urllib.request.urlopen(f"{server}/api/play/{token}/map.svg", timeout=30) as r:
            svg = r.read().decode()
        assert 'data-order="A PAR - BUR"' in svg and 'data-order="F BRE S A MAR - GAS"' in svg
        keep(tmp_path, "host-map-orders.png")
    finally:
        ctx.close()


def test_the_picker_stays_for_the_keyboard(browser, server):
    """The same choices without a pointer: the picker, by keys; its pick is drawn too."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        _gm, links = create_game(page, server, "standard")
        page.goto(links["Germany"])
        overlay_ready(page)
        page.focus("select[data-unit='A MUN']")
        for _ in range(3):
            page.keyboard.press("ArrowDown")
        chosen = page.input_value("select[data-unit='A MUN']")
        assert chosen.startswith("A MUN")
        page.wait_for_selector(f"#map-overlay .mc-order[data-order='{chosen}']")
        page.focus("#submit-picks")
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert api_state(server, links["Germany"])["orders"] == [chosen]
    finally:
        ctx.close()


def test_taps_on_a_phone_in_the_americas(browser, server, tmp_path):
    """A 390 px touch screen: a tap on Peru's army in Cuzco, a tap on Loreto, "Add the
    picked orders"; the map still pans."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=2)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        _gm, links = create_game(page, server, "wita")
        link = links["Peru"]
        page.goto(link)
        overlay_ready(page)
        want = "Army Cuzco (CUZ): move to Loreto (LOR)"
        click_at(page, ".mc-unit[data-key='A CUZ']", tap=True)
        # (a tap's click comes after the touch events: wait for it, on a loaded machine)
        page.wait_for_function("(t) => document.getElementById('mapclick-choices')"
                               ".innerText.includes(t)", arg=want, timeout=15_000)
        page.evaluate("document.getElementById('map-frame').scrollIntoView()")
        page.screenshot(path=str(tmp_path / "host-phone-map-orders.png"))
        click_at(page, ".mc-prov[data-province='LOR']", tap=True)
        page.wait_for_function("() => document.querySelector(\"select[data-unit='A CUZ']\")"
                               ".value === 'A CUZ - LOR'", timeout=15_000)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        with page.expect_navigation():
            page.locator("#mapclick-send").tap()
        assert api_state(server, link)["orders"] == ["A CUZ - LOR"]
        pan = page.evaluate("""() => { const f = document.getElementById('map-frame');
            const x = f.scrollLeft; f.scrollLeft = x > 100 ? x - 100 : x + 100;
            return [f.scrollWidth > f.clientWidth, f.scrollLeft !== x]; }""")
        assert pan == [True, True]
        keep(tmp_path, "host-phone-map-orders.png")
    finally:
        ctx.close()


def _api(server: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(server + path, method="POST", data=json.dumps(body).encode(),
                                 headers={"content-type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def test_a_build_by_clicking_its_site(browser, server, tmp_path):
    """The adjustment page says how many builds are due; a click on a build site offers its
    builds, and the one chosen is sent."""
    game = _api(server, "/api/games", {"variant": "standard"})
    gm, links = game["gm_token"], game["players"]
    token = links["Russia"].rsplit("/", 1)[1]

    def process() -> None:
        _api(server, f"/api/gm/{gm}/process", {"phase": api_state(server, links["Russia"])
                                               ["phase_id"]})

    process()
    _api(server, f"/api/play/{token}/orders",
         {"text": "F SEV - RUM", "phase": api_state(server, links["Russia"])["phase_id"]})
    process()
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(links["Russia"])
        assert "(W1901A)" in page.inner_text("p.phase")
        assert "You have 1 build; your orders give 0." in page.inner_text("#due")
        overlay_ready(page)
        click_at(page, ".mc-prov[data-province='SEV']")
        assert page.inner_text("#mapclick-choices").splitlines() == [
            "build Army Sevastopol (SEV)", "build Fleet Sevastopol (SEV)"]
        page.click("#mapclick-choices button[data-order='F SEV B']")
        assert page.locator("#map-overlay .mc-order[data-order='F SEV B']").count() == 1
        with page.expect_navigation():
            page.click("#mapclick-send")
        assert api_state(server, links["Russia"])["orders"] == ["F SEV B"]
        assert "your orders give 1" in page.inner_text("#due")
    finally:
        ctx.close()


def test_a_retreat_by_clicks(browser, server):
    """The retreat page names the dislodged unit and where it may go; a click on it, then on
    Ruhr, retreats it there."""
    game = _api(server, "/api/games", {"variant": "standard"})
    gm, links = game["gm_token"], game["players"]
    tokens = {p: link.rsplit("/", 1)[1] for p, link in links.items()}

    def pid() -> str:
        return api_state(server, links["Germany"])["phase_id"]

    def order(power: str, text: str) -> None:
        _api(server, f"/api/play/{tokens[power]}/orders", {"text": text, "phase": pid()})

    order("Italy", "A VEN - TYR")
    order("Austria", "A VIE - BOH")
    _api(server, f"/api/gm/{gm}/process", {"phase": pid()})
    order("Italy", "A TYR - MUN")
    order("Austria", "A BOH S A TYR - MUN")
    _api(server, f"/api/gm/{gm}/process", {"phase": pid()})
    ctx = browser.new_context(viewport={"width": 1366, "height": 900})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(links["Germany"])
        dislodged = page.inner_text("#dislodged")
        assert "Army Munich (MUN), dislodged by the attack from Tyrolia (TYR)" in dislodged
        assert "Ruhr (RUH)" in dislodged
        assert "Army Munich (MUN): no order" in page.inner_text("#unit-orders")
        overlay_ready(page)
        click_at(page, ".mc-unit[data-key='A MUN']")
        assert "Army Munich (MUN): retreat to Ruhr (RUH)" in page.inner_text("#mapclick-choices")
        click_at(page, ".mc-prov[data-province='RUH']")
        assert page.input_value("select[data-unit='A MUN']") == "A MUN R RUH"
        with page.expect_navigation():
            page.click("#mapclick-send")
        assert api_state(server, links["Germany"])["orders"] == ["A MUN R RUH"]
        assert "Army Munich (MUN): retreat to Ruhr (RUH)" in page.inner_text("#unit-orders")
    finally:
        ctx.close()
