"""Every text that reaches a picture is escaped (issue 26, finding 2): a variant, a game or an
order whose names hold markup (`Fr"/><script>...`) or XML's own characters ("Austria &
Hungary") draws a well-formed SVG with the names as text, never as markup. Names go in
through a loaded Variant, mutated, for every built-in board and for the schematic."""

from __future__ import annotations

import ast
import copy
import dataclasses
import random
import re
from pathlib import Path

import pytest

from polydip.game.game import Game
from polydip.render import picture_svg, svg_to_png
from polydip.render.colors import COLOR, power_colors
from polydip.render.draw import css_class, element, esc
from polydip.variants.loader import load_variant, parse_variant

try:  # parse what a stranger wrote with the hardened parser when it is installed
    from defusedxml.ElementTree import fromstring
except ImportError:  # pragma: no cover - the standard library's parser is enough here
    from xml.etree.ElementTree import fromstring

SVG_NS = "{http://www.w3.org/2000/svg}"
ATTACK = 'Fr"/><script>alert(1)</script><g a="'
HOSTILE = [
    ATTACK,
    "<img src=x onerror=alert(2)>",
    "' onload='alert(3)' x='",
    "javascript:alert(4)",
    "]]><!-- <![CDATA[ &amp; &#x3c;",
    "tab\tnew\nline\rnul\x00bell\x07\ufffe",
    '<svg onload="alert(5)">',
]
AUSTRIA = "Austria & Hungary"
BOARDS = ["standard", "wita", "lad1890", "twentieth_century", "war_in_north_america"]
HERE = Path(__file__).parents[1]


def _hostile(i: int) -> str:
    return f"{HOSTILE[i % len(HOSTILE)]} {i}"


def _poison(v):
    """A copy of variant `v` with markup in every name the pictures draw or tag: the
    powers' names, adjectives, letters, colours and aliases, the provinces' names, aliases
    and coast names, the unit kinds' names, the seasons' names and the title."""
    v = copy.deepcopy(v)
    v.title = _hostile(0) + " title"
    renamed = {}
    for i, p in enumerate(v.powers):
        renamed[p.name] = AUSTRIA if i == 0 else _hostile(i - 1)
        p.name = renamed[p.name]
        p.adjective = _hostile(i + 1) + " adj"
        p.aliases = [_hostile(i + 2) + " alias"]
        if i == 1:
            p.color = '"/><script>alert(6)</script>'
        if i == 2:
            p.color = "javascript:alert(7)"
    for i, prov in enumerate(v.provinces.values()):
        prov.name = _hostile(i) + " province"
        prov.aliases = [_hostile(i + 3) + " alias"]
        prov.coast_names = {c: _hostile(i + 4) + " coast" for c in prov.coasts}
    v.unit_kinds = {k: dataclasses.replace(u, name=u.name if u.name in ("army", "fleet")
                                           else _hostile(2) + " kind")
                    for k, u in v.unit_kinds.items()}
    v.calendar.seasons = [dataclasses.replace(s, name=_hostile(k) + " season")
                          for k, s in enumerate(v.calendar.seasons)]
    v.rules = _rename(v.rules, renamed)  # the powers a rule names (Bolivia's capture home)
    return v


def _rename(obj, names: dict[str, str]):
    if isinstance(obj, str):
        return names.get(obj, obj)
    if isinstance(obj, list):
        return [_rename(x, names) for x in obj]
    if isinstance(obj, dict):
        return {_rename(k, names): _rename(x, names) for k, x in obj.items()}
    return obj


def _play(g: Game, phases: int, seed: int = 1) -> None:
    """A few phases of random legal orders, then orders given for the current one."""
    rnd = random.Random(seed)
    for step in range(phases + 1):
        for p in g.powers_to_order():
            g.set_orders(p, [rnd.choice(c) for c in g.legal_orders(p).values() if c])
        if step < phases:
            g.process()


def _check(svg: str) -> list:
    """The picture parses as XML and holds no script: no script or foreignObject element,
    no event attribute (on...), no link, no javascript: outside the data- attributes that
    carry a name as text. Returns its elements."""
    root = fromstring(svg)
    elements = list(root.iter())
    for e in elements:
        tag = e.tag.replace(SVG_NS, "").lower()
        assert tag not in ("script", "foreignobject", "a", "iframe", "image", "use"), tag
        assert e.tag.startswith(SVG_NS), e.tag  # nothing outside the SVG namespace
        for name, value in e.attrib.items():
            name = name.lower()
            assert not name.startswith("on"), name
            assert "href" not in name, name
            if not name.startswith("data-"):
                assert "javascript:" not in value.lower(), (name, value)
    return elements


def _texts(elements) -> set[str]:
    return {"".join(e.itertext()) for e in elements if e.tag == SVG_NS + "text"}


def _data(elements, attr: str) -> set[str]:
    return {e.get(attr) for e in elements if e.get(attr) is not None}


@pytest.mark.parametrize("name", BOARDS)
def test_every_board_draws_hostile_names_as_text(name: str) -> None:
    v = _poison(load_variant(name))
    g = Game.new(v, name=_hostile(5) + " game")
    _play(g, 3)
    seen_powers: set[str] = set()
    for phase in [None] + [rec.position.phase.name for rec in g.history]:
        svg = picture_svg(g, phase)
        assert "<script" not in svg
        elements = _check(svg)
        texts = _texts(elements)
        seen_powers |= _data(elements, "data-power")
        assert any(AUSTRIA in t for t in texts)  # the legend names the power, as text
        # the game's name in the title bar, characters XML cannot hold replaced
        assert "tab\tnew\nline\rnul\ufffdbell\ufffd\ufffd 5 game" in texts
        title = "".join(next(e for e in elements if e.tag == SVG_NS + "title").itertext())
        assert title.startswith(v.title)
    # the names come back whole from the attributes that tag units and orders
    assert AUSTRIA in seen_powers
    assert any(p.startswith(ATTACK) for p in seen_powers)


KIND = '<b>" onmouseover="x'
COAST = 'N"<C'


def test_the_schematic_draws_hostile_names_as_text() -> None:
    """A variant without a board (the geography test map, given coordinates) with markup in
    every name, in an edge kind (drawn as a class name and in the legend's key) and in a
    coast's abbreviation (drawn in unit and order tags)."""
    text = (HERE / "variants" / "geo.toml").read_text()
    text = text.replace("bridge", '"<b>\\" onmouseover=\\"x"')
    text = text.replace('"NC"', '"N\\"<C"').replace("/NC", '/N\\"<C')
    v = _poison(parse_variant(text, "geo.toml"))
    v.coords = "xy"
    for k, prov in enumerate(v.provinces.values()):
        prov.coords = (100.0 * (k % 4), 100.0 * (k // 4))
        prov.coast_coords = {c: (100.0 * (k % 4) + 20 * n, 100.0 * (k // 4) + 20)
                             for n, c in enumerate(prov.coasts)}
    g = Game.new(v, name=AUSTRIA + " " + ATTACK)
    assert f"F DUO/{COAST}" in g.legal_orders(1)  # the coast is in unit names
    _play(g, 4)
    seen: set[str] = set()
    for phase in [None] + [rec.position.phase.name for rec in g.history]:
        svg = picture_svg(g, phase)
        elements = _check(svg)
        for e in elements:
            for cls in (e.get("class") or "").split():
                assert cls == css_class(cls), cls  # every class name is one plain word
        texts = _texts(elements)
        assert any(AUSTRIA in t for t in texts)
        assert any(ATTACK in t for t in texts)
        assert any(KIND in t for t in texts)  # the legend's key names the edge kind
        seen |= _data(elements, "data-unit") | _data(elements, "data-order")
    assert any(COAST in u for u in seen)
    assert "Austria &amp; Hungary" in svg


def test_standard_board_schematic_too() -> None:
    """The standard game drawn as the schematic (board=False) with hostile names."""
    g = Game.new(_poison(load_variant("standard")), name=ATTACK)
    _play(g, 2)
    elements = _check(picture_svg(g, board=False))
    assert AUSTRIA in _data(elements, "data-power") | _data(elements, "data-owner")


def test_austria_and_hungary_draws_to_png() -> None:
    v = copy.deepcopy(load_variant("standard"))
    v.powers[0].name = AUSTRIA
    png = svg_to_png(picture_svg(Game.new(v)), 400)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000


def test_esc_and_the_element_writer() -> None:
    assert esc('a & b < c > d " e \' f') == "a &amp; b &lt; c &gt; d &quot; e &#39; f"
    assert esc("plain text, é ü 日本") == "plain text, é ü 日本"
    # characters XML cannot hold, even as a reference, become U+FFFD; tab, newline and
    # carriage return stay (as references, so an attribute keeps them)
    assert esc("a\x00b\x1fc\ufffed\ud800") == "a\ufffdb\ufffdc\ufffdd\ufffd"
    assert esc("a\tb\nc\rd") == "a&#9;b&#10;c&#13;d"
    out = element("text", "<b>&", x=1.25, y=3, class_="a b", data_power='x" onload="y',
                  fill=None)
    assert out == ('<text x="1.2" y="3" class="a b" data-power="x&quot; onload=&quot;y">'
                   "&lt;b&gt;&amp;</text>")
    assert fromstring(out.replace("<text", '<text xmlns="http://www.w3.org/2000/svg"', 1)
                      ).get("data-power") == 'x" onload="y'
    with pytest.raises(TypeError):
        element("g", flag=True)  # neither text, a number nor coordinates
    assert css_class('Greater Andes"><x') == "greater-andes-x"
    assert css_class("rainforest") == "rainforest"


def test_no_markup_is_built_outside_the_writer() -> None:
    """The renderer's modules write no tag or attribute of their own, by an f-string, a %
    format or a literal: markup is built by render.draw's element, start and Svg, which
    escape. (Docstrings may show markup.)"""
    render = Path(__file__).parents[2] / "src" / "polydip" / "render"
    tag = re.compile(r"</?[a-zA-Z]+(?:[\s/>]|$)|=\"|='")
    found = []
    for path in sorted(render.glob("*.py")):
        if path.name == "draw.py":
            continue
        tree = ast.parse(path.read_text())
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                      and isinstance(n.body[0], ast.Expr)
                      and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docstrings and tag.search(node.value)):
                found.append(f"{path.name}:{node.lineno}: {node.value[:40]!r}")
    assert not found, found


def test_a_colour_that_is_no_colour_is_drawn_grey() -> None:
    """A power's colour goes into fill attributes: only #rgb, #rrggbb or a colour's name is
    drawn as given; anything else counts as grey (which sends the powers to the palette
    when it looks like the sea), even when it starts like a colour."""
    good = ["#11d", "#ddbb11", "#773311"]
    assert power_colors(good) == good
    for bad in ['#ee3311"/><script>', "#ee3311;x:url(javascript:alert(1))", "#ee33110",
                "url(javascript:alert(1))"]:
        drawn = power_colors(["#3377ee", bad])
        assert bad not in drawn and all(COLOR.fullmatch(c) for c in drawn)
