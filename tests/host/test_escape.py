"""Names from an uploaded variant reach the host's pages and map as text (issue 26, finding
2): a power named `Fr"/><script>...` gives no script element, no event attribute and no
javascript: link on any page, and its map parses as XML."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from importlib import resources

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = pytest.mark.host

try:
    from defusedxml.ElementTree import fromstring
except ImportError:  # pragma: no cover
    from xml.etree.ElementTree import fromstring

ATTACK = 'Fr"/><script>alert(1)</script><g a="'
AUSTRIA = "Austria & Hungary"
PARIS = "<img src=x onerror=alert(2)>"
GAME = "<script>alert(3)</script> & friends"


class Page(HTMLParser):
    """What of a page could run script: its script elements, event attributes and links."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.scripts: list[dict] = []
        self.events: list[tuple[str, str]] = []
        self.links: list[str] = []
        self.text: list[str] = []
        self.values: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs) -> None:
        a = dict(attrs)
        if tag == "script":
            self.scripts.append(a)
        for name, value in attrs:
            if name.startswith("on"):
                self.events.append((tag, name))
            if name in ("href", "src", "action", "formaction"):
                self.links.append(value or "")
            elif value:
                self.values.append(value)

    def handle_data(self, data) -> None:
        self.text.append(data)


def _check_page(html: str) -> Page:
    page = Page(html)
    # the host's own files (host.js, and the parts' own: live.js...), nothing inline
    assert {"src": "/static/host.js"} in page.scripts
    assert all(list(s) == ["src"] and re.fullmatch(r"/static/\w+\.js", s["src"])
               for s in page.scripts)
    assert not page.events
    assert not [u for u in page.links if u.strip().lower().startswith("javascript:")]
    return page


def _variant() -> str:
    text = (resources.files("polydip.variants") / "data" / "standard.toml").read_text()
    for old, new in (("Austria", AUSTRIA), ("France", ATTACK), ("Paris", PARIS)):
        text = text.replace(f'name = "{old}"', f"name = {json.dumps(new)}", 1)
    return text.replace('name = "standard"', 'name = "hostile"', 1)


def test_hostile_names_in_an_uploaded_variant_stay_text(client):
    r = client.post("/api/games", json={"variant": "mine.toml", "variant_text": _variant(),
                                        "name": GAME})
    assert r.status_code == 201, r.text
    d = r.json()
    gm = d["gm_token"]
    tokens = {k: v.rsplit("/", 1)[1] for k, v in d["players"].items()}
    assert set(tokens) >= {ATTACK, AUSTRIA}
    france = tokens[ATTACK]
    pid = client.get(f"/api/gm/{gm}").json()["phase_id"]
    r = client.post(f"/play/{france}/orders", data={"text": "A PAR - BUR\nF BRE - MAO",
                                                    "phase": pid})
    assert r.status_code == 200

    for url in (f"/play/{france}", f"/play/{tokens[AUSTRIA]}", f"/gm/{gm}"):
        r = client.get(url)
        assert r.status_code == 200, url
        page = _check_page(r.text)
        text = "".join(page.text)
        assert ATTACK in text and AUSTRIA in text and GAME in text, url  # shown, as text
        assert PARIS not in r.text  # the province's name, if shown, is escaped
    assert ATTACK in Page(client.get(f"/gm/{gm}").text).values  # and in attribute values

    for url in (f"/api/play/{france}/map.svg", f"/api/gm/{gm}/map.svg"):
        r = client.get(url)
        assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
        root = fromstring(r.text)
        tags = {e.tag.rsplit("}", 1)[-1].lower() for e in root.iter()}
        assert "script" not in tags and "foreignobject" not in tags
        assert not [n for e in root.iter() for n in e.attrib if n.lower().startswith("on")]
        powers = {e.get("data-power") for e in root.iter()}
        assert ATTACK in powers and AUSTRIA in powers

    # a processed phase: its page (with the report) and its map
    r = client.post(f"/api/gm/{gm}/process", json={"phase": pid})
    assert r.status_code == 200, r.text
    r = client.get(f"/play/{france}/phase/0")
    assert r.status_code == 200
    assert ATTACK in "".join(_check_page(r.text).text)
    r = client.get(f"/api/play/{france}/map.svg?seq=0")
    assert r.status_code == 200
    fromstring(r.text)


def test_the_error_page_has_no_inline_script(client):
    """The error page's "Back" link was a javascript: URL, which a Content-Security-Policy
    without inline script refuses; host.js goes back instead."""
    r = client.get("/play/" + "x" * 40)
    assert r.status_code == 404
    _check_page(r.text)
    r = client.post("/api/games", json={"variant": "standard"})
    gm = r.json()["gm_token"]
    r = client.post(f"/gm/{gm}", data={"action": '<i onclick="x">', "phase": "any"})
    assert r.status_code == 400
    page = _check_page(r.text)
    assert '<i onclick="x">' in "".join(page.text)  # the unknown action, quoted as text
