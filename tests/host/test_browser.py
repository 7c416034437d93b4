"""The host in a real browser: `polydip serve` started on a free loopback port, Debian's
chromium driven by Playwright. A GM creates a game, every player orders from their own link
(the text box and the picker), the deadline passes or everyone is ready, the map and the
report show the result, a retreat and a build are entered — a standard year, then a year of
War in the Americas.

Set POLYDIP_SCREENSHOTS=DIR to keep the screenshots (docs/images holds the README's).
"""

from __future__ import annotations

import os
import shutil
import socket
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

CHROMIUM = os.environ.get("POLYDIP_CHROMIUM", "/usr/bin/chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`polydip serve` on 127.0.0.1 and a free port, deadlines checked every half second;
    stopped by its pid at the end."""
    data = tmp_path_factory.mktemp("host")
    port = _free_port()
    log = open(data / "serve.log", "w")  # noqa: SIM115 - closed after the server stops
    proc = subprocess.Popen(
        [sys.executable, "-m", "polydip.cli.main", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--data", str(data), "--tick", "0.5"],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(1200):  # 2 minutes: a loaded machine (a parallel run) starts it slowly
            try:
                with urllib.request.urlopen(url + "/", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                if proc.poll() is not None:
                    pytest.fail("polydip serve stopped: "
                                + (data / "serve.log").read_text()[-2000:])
                time.sleep(0.1)
        else:
            pytest.fail("polydip serve did not answer within 120 s")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.skip(f"browser tests skipped: no {CHROMIUM} (apt-get install chromium)")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1500, "height": 1000})
    p = ctx.new_page()
    p.set_default_timeout(30_000)
    yield p
    ctx.close()


def create_game(page, server: str, variant: str) -> tuple[str, dict[str, str]]:
    """The GM's page and each power's link, through the create form."""
    page.goto(server + "/")
    page.select_option("#variant", variant)
    page.fill("input[name=name]", f"Browser {variant}")
    page.fill("input[name=movement_minutes]", "600")
    page.click("#create")
    page.wait_for_url("**/gm/*")
    gm = page.url
    links = {el.get_attribute("data-power"): el.input_value()
             for el in page.query_selector_all("#links input[data-power]")}
    return gm, links


def type_orders(page, link: str, text: str) -> str:
    page.goto(link)
    page.fill("#orders-text", text)
    page.click("#submit-orders")
    return page.inner_text("#understood")


def pick(page, link: str, choices: dict[str, str]) -> str:
    page.goto(link)
    for unit, order in choices.items():
        page.select_option(f"select[data-unit='{unit}']", order)
    page.click("#submit-picks")
    return page.inner_text("#understood")


def ready(page, link: str) -> None:
    page.goto(link)
    if page.inner_text("#ready-state") != "ready":
        page.click("#ready")


def deadline_now(page, gm: str, phase: str) -> None:
    """The GM sets the deadline to now; the server's deadline check processes the phase."""
    page.goto(gm)
    page.fill("form:has(#set-deadline) input[name=minutes]", "0")
    page.click("#set-deadline")
    for _ in range(100):
        try:
            page.goto(gm)
        except Exception as exc:  # the live GM page reloading itself at the same moment
            # (Chromium reports the race either way: ours interrupted, or ours aborted)
            if not any(w in str(exc) for w in ("interrupted by another navigation",
                                               "net::ERR_ABORTED")):
                raise
            page.wait_for_load_state()
        if f"({phase})" not in page.inner_text("p.phase"):
            return
        time.sleep(0.2)
    pytest.fail(f"{phase} was not processed at its deadline")


def map_drawn(page) -> None:
    """Wait until the map picture has loaded and has a size (the SVG is valid)."""
    page.wait_for_function("() => { const i = document.getElementById('map'); "
                           "return i.complete && i.naturalWidth > 0; }")


def phase_of(page, link: str) -> str:
    page.goto(link)
    return page.inner_text("p.phase")


def test_a_standard_year_in_the_browser(page, server, tmp_path):
    gm, links = create_game(page, server, "standard")
    assert sorted(links) == ["Austria", "England", "France", "Germany", "Italy", "Russia",
                             "Turkey"]
    # Spring 1901: everyone orders, some typing, some picking; then all are ready
    seen = type_orders(page, links["Germany"], "A Munich - Burgundy\nF Kiel - Holand")
    assert "A MUN - BUR" in seen and "Army Munich (MUN): move to Burgundy (BUR)" in seen
    assert "did you mean Holland" in page.inner_text("#problems")
    assert "A MUN - BUR" in pick(page, links["Germany"], {"F KIE": "F KIE - HOL"}) \
        and "F KIE - HOL" in page.inner_text("#understood")
    assert "F LON - NTH" in pick(page, links["England"], {"F LON": "F LON - NTH",
                                                          "F EDI": "F EDI - NWG"})
    type_orders(page, links["France"], "A Paris - Picardy\nF Brest - Mid-Atlantic Ocean")
    type_orders(page, links["Italy"], "A Venice H")
    pick(page, links["Austria"], {"A VIE": "A VIE - GAL"})
    type_orders(page, links["Russia"], "F Sevastopol H")
    type_orders(page, links["Turkey"], "F Ankara - Black Sea")
    for p in links:
        ready(page, links[p])
    assert "(F1901M)" in phase_of(page, links["France"])
    # Fall 1901: France dislodges the German army in Burgundy; Russia takes Rumania;
    # the GM lets the deadline pass
    type_orders(page, links["France"], "A Picardy - Burgundy\nA Marseilles S A Picardy - "
                                       "Burgundy")
    pick(page, links["Russia"], {"F SEV": "F SEV - RUM"})
    type_orders(page, links["Germany"], "A Burgundy H")
    deadline_now(page, gm, "F1901M")
    assert "(F1901R)" in page.inner_text("p.phase")
    # the report and the map of the fall show the result
    page.goto(links["England"])
    page.click("text=Fall 1901 Movement (F1901M)")
    report = page.inner_text("#report")
    assert "A PIC - BUR" in report and "dislodged" in report
    map_drawn(page)
    shot_map = tmp_path / "host-map.png"
    page.screenshot(path=str(shot_map), full_page=True)
    # the retreat, picked; the build, typed
    page.goto(links["Germany"])
    assert "A BUR" in page.inner_text("#picker")
    pick(page, links["Germany"], {"A BUR": "A BUR R MUN"})
    ready(page, links["Germany"])
    assert "(W1901A)" in phase_of(page, links["Russia"])
    assert "F SEV B" in type_orders(page, links["Russia"], "Build F Sevastopol")
    deadline_now(page, gm, "W1901A")
    assert "(S1902M)" in page.inner_text("p.phase")
    page.goto(links["Russia"])
    powers = page.inner_text("table.powers")
    assert "Russia\t5\t5" in powers
    page.goto(links["Russia"])
    type_orders(page, links["Russia"], "F Rumania - Bulgaria\nA Warsaw - Galicia")
    map_drawn(page)
    shot_player = tmp_path / "host-player.png"
    page.screenshot(path=str(shot_player), full_page=False)
    for shot in (shot_map, shot_player):
        assert shot.stat().st_size > 50_000
    keep = os.environ.get("POLYDIP_SCREENSHOTS")
    if keep:
        for shot in (shot_map, shot_player):
            shutil.copy(shot, Path(keep) / shot.name)


def test_a_war_in_the_americas_year_in_the_browser(page, server):
    gm, links = create_game(page, server, "wita")
    assert len(links) == 10
    spring = {"Peru": "A Cuzco - Loreto", "Venezuela": "A Bolivar - Amazonia",
              "Brazil": "F Bahia - Para"}
    for p, text in spring.items():
        type_orders(page, links[p], text)
    # Mexico holds its first unit from the picker; the others send nothing (the readiness
    # of every power is the standard year's): the GM ends the phase
    page.goto(links["Mexico"])
    unit = page.get_attribute("#picker select", "data-unit")
    assert "hold" in pick(page, links["Mexico"], {unit: f"{unit} H"})
    deadline_now(page, gm, "S1845M")
    assert "(F1845M)" in page.inner_text("p.phase")
    fall = {"Peru": "A Loreto - Amazonia", "Brazil": "F Para S A Loreto - Amazonia",
            "Venezuela": "A Amazonia H"}
    for p, text in fall.items():
        understood = type_orders(page, links[p], text)
        assert "Amazonia" in understood  # full names on a map this size
    deadline_now(page, gm, "F1845M")
    assert "(F1845R)" in page.inner_text("p.phase")
    page.goto(links["Venezuela"])
    page.click("text=Fall 1845 Movement (F1845M)")
    assert "dislodged" in page.inner_text("#report")
    type_orders(page, links["Venezuela"], "A Amazonia R Bolivar")
    ready(page, links["Venezuela"])
    assert "(W1845A)" in phase_of(page, links["Peru"])
    assert "Cuzco" in type_orders(page, links["Peru"], "Build A Cuzco")
    ready(page, links["Peru"])
    assert "(S1846M)" in phase_of(page, links["Peru"])
    powers = page.inner_text("table.powers")
    assert any(line.startswith("Peru\t") and line.split("\t")[2] == "4"
               for line in powers.splitlines())


def test_hostile_names_run_no_script_in_the_browser(page, server):
    """Issue 26, finding 2: a power named `Fr"/><script>...` in an uploaded variant ran its
    script when a player opened the map at full size (in the host's origin, the secret link
    in the address), and 'Austria & Hungary' left the map blank. Now the map opened on its
    own and the player's page run no script, the map is drawn, the names read as written;
    the error page's Back link (host.js, no javascript: URL) goes back."""
    import json
    from importlib import resources

    text = (resources.files("polydip.variants") / "data" / "standard.toml").read_text()
    attack = 'Fr"/><script>alert(1)</script><g a="'
    for old, new in (("Austria", "Austria & Hungary"), ("France", attack)):
        text = text.replace(f'name = "{old}"', f"name = {json.dumps(new)}", 1)
    text = text.replace('name = "standard"', 'name = "hostile"', 1)  # (its own name)
    req = urllib.request.Request(
        server + "/api/games", method="POST", headers={"content-type": "application/json"},
        data=json.dumps({"variant": "mine.toml", "variant_text": text}).encode())
    with urllib.request.urlopen(req, timeout=30) as r:
        players = json.loads(r.read())["players"]
    link = players[attack]
    token = link.rsplit("/", 1)[1]
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    type_orders(page, link, "A PAR - BUR")
    map_drawn(page)
    page.goto(f"{server}/api/play/{token}/map.svg")  # "open full size"
    assert page.evaluate("document.documentElement.localName") == "svg"
    assert page.evaluate("document.getElementsByTagName('script').length") == 0
    legend = page.evaluate("Array.from(document.querySelectorAll('.legend text'))"
                           ".map(t => t.textContent)")
    assert "Austria & Hungary" in legend and attack in legend
    page.goto(link)
    page.goto(server + "/play/" + "x" * 43)
    page.click("a[data-back]")
    page.wait_for_url(link)
    assert dialogs == []


# ---- the map's view: opens on the player's units, kept across submits, usable on a phone ----

def units_in_view(page, server: str, link: str, power: str) -> tuple[int, int, bool]:
    """(units of `power` whose symbol centre is inside the map frame's visible part, units
    of `power`, whether the middle of their bounding box is), read from the SVG the page
    shows (its units' data-at, in picture pixels)."""
    token = link.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server}/api/play/{token}/map.svg", timeout=30) as r:
        svg = r.read().decode()
    import re

    width = float(re.search(r'<svg[^>]* width="([0-9.]+)"', svg).group(1))
    at = [tuple(map(float, m.group(1).split(",")))
          for m in re.finditer(r'<g class="unit[^"]*"[^>]*data-power="' + power
                               + r'"[^>]*data-at="([^"]+)"', svg)]
    view = page.evaluate("""() => { const f = document.getElementById('map-frame'),
        i = document.getElementById('map');
        return [f.scrollLeft, f.scrollTop, f.clientWidth, f.clientHeight, i.offsetWidth]; }""")
    left, top, w, h, img_w = view
    k = img_w / width
    def shown(x: float, y: float) -> bool:
        return left <= x * k <= left + w and top <= y * k <= top + h

    xs, ys = [x for x, _ in at], [y for _, y in at]
    middle = shown((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2) if at else False
    return sum(1 for x, y in at if shown(x, y)), len(at), middle


def map_view(page) -> dict:
    return page.evaluate("""() => { const f = document.getElementById('map-frame'),
        i = document.getElementById('map');
        return {width: i.style.width, left: f.scrollLeft, top: f.scrollTop}; }""")


def test_the_map_opens_on_the_players_units_and_keeps_its_view(browser, server, tmp_path):
    """Issue 29 (the host): the player's page opens with the map zoomed and scrolled onto the
    power's units; a zoom and a scroll survive a submit (the page reloads) and a new phase
    keeps the zoom and opens on the units again."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 768})
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        gm, links = create_game(page, server, "standard")
        page.goto(links["Turkey"])
        map_drawn(page)
        seen, total, _middle = units_in_view(page, server, links["Turkey"], "Turkey")
        assert total == 3 and seen == 3
        page.screenshot(path=str(tmp_path / "host-map-focus.png"))
        first = map_view(page)
        assert first["width"] != "100%" and (first["left"] > 0 or first["top"] > 0)
        page.click("#zoom-in")
        page.click("#zoom-in")
        page.evaluate("document.getElementById('map-frame').scrollLeft += 40")
        page.wait_for_timeout(400)  # the view is saved 150 ms after a scroll
        zoomed = map_view(page)
        assert float(zoomed["width"].rstrip("%")) > float(first["width"].rstrip("%"))
        type_orders(page, links["Turkey"], "F Ankara - Black Sea")
        map_drawn(page)
        after = map_view(page)
        assert after["width"] == zoomed["width"]
        assert abs(after["left"] - zoomed["left"]) <= 2 and abs(after["top"] - zoomed["top"]) <= 2
        # a new phase: the zoom is kept, the view opens on the units again
        for p in links:
            ready(page, links[p])
        page.goto(links["Turkey"])
        assert "(F1901M)" in page.inner_text("p.phase")
        map_drawn(page)
        assert map_view(page)["width"] == zoomed["width"]
        seen, total, middle = units_in_view(page, server, links["Turkey"], "Turkey")
        assert middle and seen >= 1 and total == 3  # zoomed in, not all three fit
        page.screenshot(path=str(tmp_path / "host-map-new-phase.png"))
        # the GM's map (no units of its own to open on) keeps its zoom across a reload too
        page.goto(gm)
        map_drawn(page)
        assert map_view(page)["width"] == "100%"
        page.click("#zoom-in")
        page.wait_for_timeout(200)
        page.reload()
        map_drawn(page)
        assert map_view(page)["width"] == "125%"
        keep = os.environ.get("POLYDIP_SCREENSHOTS")
        if keep:
            for name in ("host-map-focus.png", "host-map-new-phase.png"):
                shutil.copy(tmp_path / name, Path(keep))
    finally:
        ctx.close()


def test_the_players_page_on_a_phone(browser, server, tmp_path):
    """Issue 29: on a 390x844 phone the page fits the width (no sideways scrolling of the
    page), the zoom buttons are on screen, the map opens on the power's units with names
    at least 9 px high, and the frame pans."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                              has_touch=True, device_scale_factor=1)
    page = ctx.new_page()
    page.set_default_timeout(30_000)
    try:
        for variant, power in (("standard", "Turkey"), ("wita", "Peru")):
            _gm, links = create_game(page, server, variant)
            page.goto(links[power])
            map_drawn(page)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            assert page.evaluate("document.body.scrollWidth") <= 390
            for button in ("#zoom-in", "#zoom-out"):
                box = page.locator(button).bounding_box()
                assert page.is_visible(button) and box["x"] >= 0 and box["x"] + box["width"] <= 390
            label_px = float(page.get_attribute("#map", "data-label-px"))
            shown = page.evaluate("document.getElementById('map').offsetWidth") / 1600
            assert label_px * shown >= 9
            seen, total, middle = units_in_view(page, server, links[power], power)
            assert total >= 3 and seen >= 1 and middle
            # the frame pans: the rest of the board is a scroll (a finger's drag) away
            pan = page.evaluate("""() => { const f = document.getElementById('map-frame');
                const x = f.scrollLeft; f.scrollLeft = x > 100 ? x - 100 : x + 100;
                return [f.scrollWidth > f.clientWidth, f.scrollLeft !== x]; }""")
            assert pan == [True, True]
            page.screenshot(path=str(tmp_path / f"host-phone-{variant}.png"))
            keep = os.environ.get("POLYDIP_SCREENSHOTS")
            if keep:
                shutil.copy(tmp_path / f"host-phone-{variant}.png", Path(keep))
    finally:
        ctx.close()
