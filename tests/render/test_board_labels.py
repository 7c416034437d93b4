"""Boards players can read in their densest regions (issue 29): measured from the SVG
(render.audit), names and center markers placed off units and off each other, inside the
board (render.placement), orders across a wraparound seam drawn the short way."""

from __future__ import annotations

import pytest

from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.render import picture_svg
from polydip.render.audit import audit_svg, audit_variant, targets_missed
from polydip.variants.loader import load_variant

BOARDS = ["standard", "wita", "lad1890", "war_in_north_america", "twentieth_century"]

# a province (a 100 px square), a unit, names and a center marker, as polydip draws them
_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<path class="province" data-province="AAA" d="M0 0 100 0 100 100 0 100Z"/>
<path class="province" data-province="BBB" d="M100 0 200 0 200 100 100 100Z"/>
<g class="units"><g class="unit" data-unit="A AAA" data-power="P" data-at="50,50">
<circle cx="50" cy="50" r="10" fill="#ff0000"/></g></g>
<g class="labels">
<text x="50" y="54" font-size="12" text-anchor="middle" fill="#000">Aaaaaa</text>
<text x="150" y="30" font-size="12" text-anchor="middle" fill="#000">Bbbbbb</text>
<text x="160" y="32" font-size="12" text-anchor="middle" fill="#000">Cccccc</text>
<text x="195" y="80" font-size="12" text-anchor="middle" fill="#000">Edge</text>
<g class="center" data-center="AAA"><circle cx="120" cy="50" r="5" fill="#fff"/></g>
</g></svg>"""


def test_the_audit_counts_what_hides_a_unit() -> None:
    """A name over a unit, two names over each other, a name past the board's edge and a
    center marker in the next province: each counted, by name."""
    a = audit_svg(_SVG)
    assert a.units_covered == ["A AAA"]
    assert sorted(a.label_overlaps) == ["Bbbbbb", "Cccccc"]
    assert a.clipped == ["Edge"]
    assert a.markers_outside == ["AAA"]
    assert a.units_outside == []
    assert len(targets_missed(a)) == 4


_ORDERS_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="400" height="200">
<path class="province" data-province="AAA" d="M0 0 100 0 100 100 0 100Z"/>
<path class="province" data-province="BBB" d="M100 0 200 0 200 100 100 100Z"/>
<g class="orders">
<g class="order move" data-order="A AAA - BBB"><path d="M60 50 Q 90 50 120 50"/></g>
<g class="order support" data-order="A BBB S A AAA"><line x1="150" y1="80" x2="190" y2="80"/>
<line x1="150" y1="80" x2="190" y2="80"/></g>
<g class="order build" data-order="A BBB"><g class="badge plus">
<line x1="150" y1="20" x2="160" y2="20"/></g></g>
</g>
<g class="labels">
<text x="90" y="54" font-size="12" text-anchor="middle" fill="#000">Aaaaaa</text>
<text x="155" y="24" font-size="12" text-anchor="middle" fill="#000">B</text>
</g></svg>"""


def test_the_audit_counts_orders_under_names() -> None:
    """A move's shaft under a name is counted; a support's line in the clear and a build's
    badge (no line) are not."""
    a = audit_svg(_ORDERS_SVG)
    assert a.orders == 2
    assert a.orders_covered == ["A AAA - BBB"]
    assert any("orders covered by names" in t for t in targets_missed(a))


def test_the_audit_refuses_what_is_no_board_picture() -> None:
    with pytest.raises(PolydipError, match="not an SVG"):
        audit_svg("<svg")
    with pytest.raises(PolydipError, match="no provinces"):
        audit_svg('<svg xmlns="http://www.w3.org/2000/svg"/>')


@pytest.mark.parametrize(("name", "seed"), [(name, 3) for name in BOARDS]
                         + [("twentieth_century", 1)])  # a fleet at the seam's edge
def test_no_unit_hidden_at_the_start_and_in_random_phases(name: str, seed: int) -> None:
    """The start and two phases of a seeded random game: no name or marker covers a unit
    or an order's line, markers and units inside their own provinces, at most 2% of names
    overlapping, nothing clipped, no order drawn the long way across a seam (before names
    kept off the orders: 18 of The Twentieth Century's 71 orders of S1933M covered). (Before
    placement: 163 units covered on these boards, the standard map's Liverpool army under
    "LVP".)"""
    figures = audit_variant(load_variant(name), phases=2, seed=seed)
    for phase, a in figures:
        assert a.units > 0
        assert targets_missed(a) == [], (phase, a.line())


def test_a_support_across_the_seam_goes_the_short_way() -> None:
    """The Twentieth Century: F FIJ S F HAW - ECO. Hawaii is at the left edge, Fiji and
    the East Coast at the right; the support's line ends at the middle of the supported
    move, found the short way through the seam, never across the whole map."""
    g = Game.new("twentieth_century")
    assert g.set_orders("USA", ["F HAW - ECO"]) == []
    assert g.set_orders("France", ["F FIJ S F HAW - ECO"]) == []
    a = audit_svg(picture_svg(g))
    assert a.seam_long == []
    svg = picture_svg(g)
    group = svg.split('data-order="F FIJ S F HAW - ECO"')[1].split("</g>")[0]
    assert group.count("<line") == 4  # two lines (outline and colour) at each edge


def test_placement_is_deterministic() -> None:
    """Two games of one variant draw the same picture, names and markers alike."""
    assert picture_svg(Game.new("lad1890")) == picture_svg(Game.new("lad1890"))


def test_a_name_moves_off_a_unit_and_back() -> None:
    """The standard map: Liverpool's army was drawn under "LVP"; placement moves the name
    off it, and a picture with no unit there draws the name where the board puts it."""
    g = Game.new("standard")
    a = audit_svg(picture_svg(g))
    assert "A LVP" not in a.units_covered
    assert a.markers_outside == []


def test_a_unit_dislodged_at_the_edge_is_drawn_on_the_board() -> None:
    """The Twentieth Century: Kamchatka lies at the right edge; its army, dislodged by
    Japan's fleets, was drawn past it. It stays on the board, nothing clipped."""
    from polydip.oneshot import build_position

    g = Game.new("twentieth_century")
    g.position = build_position(g.map, {
        "phase": "S1933M", "units": {"USSR": ["A KAM"], "Japan": ["F OKH", "F KUR"]},
        "centers": {}})
    assert g.set_orders("Japan", ["F OKH - KAM", "F KUR S F OKH - KAM"]) == []
    assert g.set_orders("USSR", ["A KAM H"]) == []
    g.process()
    svg = picture_svg(g)
    assert 'class="unit dislodged" data-unit="A KAM"' in svg
    assert audit_svg(svg).clipped == []


@pytest.mark.parametrize("name", BOARDS)
def test_short_names_are_placed_too(name: str) -> None:
    """`--names short`: the codes are placed by the same rules."""
    a = audit_svg(picture_svg(Game.new(name), names="short"))
    assert targets_missed(a) == [], a.line()


def test_lake_ontario_is_named_on_the_gulf_of_st_lawrence() -> None:
    """War in North America, decision 3: the Gulf of St. Lawrence "reaches up the St.
    Lawrence to Lake Ontario, so that Niagara Falls lies between them"; the lake is named
    inside the Gulf's province (board names), clear of the other names and of the units."""
    import re

    from polydip.render.audit import inside, path_rings

    game = Game.new("war_in_north_america")
    svg = picture_svg(game)
    d = re.search(r'<path class="province" data-province="GOS"[^>]* d="([^"]+)"', svg)
    group = re.search(r'<g class="feature" data-province="GOS">(.*?)</g>', svg, re.S)
    assert d and group
    texts = re.findall(r'<text x="([0-9.]+)" y="([0-9.]+)"[^>]*>([^<]*)</text>', group[1])
    assert {t for _x, _y, t in texts} == {"Lake Ontario"}
    x, y = float(texts[-1][0]), float(texts[-1][1])
    assert inside((x, y - 3), path_rings(d.group(1)))
    a = audit_svg(svg)
    assert "Lake Ontario" not in a.label_overlaps and targets_missed(a) == []


def test_a_board_name_of_another_kind_is_refused(tmp_path) -> None:
    import json

    from polydip.render.board import board_path, read_board

    src = board_path(load_variant("war_in_north_america"))
    data = json.loads(src.read_text())
    data["names"] = [{"province": "GOS", "text": "Lake Ontario"}]  # no "at"
    bad = tmp_path / "bad.board.json"
    bad.write_text(json.dumps(data))
    with pytest.raises(PolydipError, match="not a valid board file"):
        read_board(bad)


def test_a_dislodged_army_is_drawn_clear_of_the_fleet_that_took_its_place() -> None:
    """The standard map, Spring 1902 of a GM's game: the Russian army dislodged from
    Rumania by the Turkish fleet was drawn pressed against the fleet's hull (the board's
    dislodged place is nearer than a hull is wide). It now stands apart."""
    from polydip.oneshot import build_position

    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "S1902M", "units": {"Russia": ["A RUM"], "Turkey": ["F BLA", "A BUL"]},
        "centers": {}})
    assert g.set_orders("Turkey", ["F BLA - RUM", "A BUL S F BLA - RUM"]) == []
    g.process()
    a = audit_svg(picture_svg(g))
    assert a.dislodged_touching == [] and a.units_touching == []
    assert targets_missed(a) == [], a.line()


@pytest.mark.parametrize("name", BOARDS)
def test_no_dislodged_unit_touches_the_unit_in_its_place(name: str) -> None:
    """Every location of every board, with the widest symbol that may stand there and a
    unit dislodged from its province: the two symbols keep apart (render.audit.GAP)."""
    from polydip.render.audit import GAP, overlap
    from polydip.render.board import load_board
    from polydip.render.placement import symbol_box
    from polydip.render.svg import map_geo, unit_places, unit_symbol
    from polydip.state import Dislodged, Unit

    g = Game.new(name)
    m = g.map
    geo = map_geo(m, load_board(m.variant))
    r = geo.unit_r
    wide = {"fleet": 0, "other": 1, "army": 2}
    touching = []
    for loc in range(len(m.loc_prov)):
        kinds = sorted((k for k in range(len(m.kinds)) if m.occupy[k][loc]),
                       key=lambda k: wide[unit_symbol(m, k)])
        if not kinds:
            continue
        pos = g.position.copy()
        pos.units = [Unit(0, kinds[0], loc)]
        pos.dislodged = [Dislodged(1, kinds[0], loc)]
        at = unit_places(m, geo, pos)
        shape = unit_symbol(m, kinds[0])
        unit = symbol_box(*at.units[0], r, shape)
        out = symbol_box(*at.dislodged[0], r * 0.85, shape)
        if min(overlap(unit, out)) > -GAP:
            touching.append(m.loc_name[loc])
    assert touching == []


@pytest.mark.parametrize("name", BOARDS)
def test_a_build_badge_stays_on_the_board(name: str) -> None:
    """The badge drawn beside a unit built or removed (up and right of it) stays inside the
    board at every location: The Twentieth Century's builds at New Zealand, Fiji and
    Kamchatka, on the right edge, had theirs cut by the frame."""
    from polydip.render.board import load_board
    from polydip.render.boardsvg import BADGE_AT, BADGE_R
    from polydip.render.svg import map_geo

    m = Game.new(name).map
    geo = map_geo(m, load_board(m.variant))
    r, width = geo.unit_r, geo.board.width * geo.scale
    cut = []
    for loc, (x, y) in enumerate(geo.loc):
        bx, by = x + BADGE_AT[0] * r, y + BADGE_AT[1] * r
        if bx + BADGE_R > width or by - BADGE_R < geo.top:
            cut.append(m.loc_name[loc])
    assert cut == []


def _order_points(svg: str) -> dict[str, list[tuple[float, float]]]:
    """Per order drawn with a line, the points along it (render.audit's reading)."""
    import xml.etree.ElementTree as ET

    from polydip.render.audit import NS, _order_line

    root = ET.fromstring(svg)
    return {g.get("data-order", ""): _order_line(g) for g in root.iter(NS + "g")
            if "order" in (g.get("class") or "").split() and g.get("data-order")}


def test_two_supports_in_a_line_are_drawn_apart() -> None:
    """War in North America, a GM's spring: Canada's fleet in Montreal supports
    Newfoundland's army (neutral Britain's) and its fleet in Toronto supports Montreal's to
    the Gulf of St. Lawrence. Toronto, Montreal and Newfoundland lie almost in a line: the
    two supports were drawn as one line. The later one now bends: the middle half of its
    line keeps 6 px off the other (their ends may meet: both end near Montreal)."""
    import math

    from polydip.oneshot import build_position

    g = Game.new("war_in_north_america")
    g.position = build_position(g.map, {
        "phase": "S1860M",
        "units": {"Britain": ["A NFL"], "Canada": ["F MON/SC", "F TOR/SC"]},
        "centers": {}})
    assert g.set_orders("Canada", ["F MON/SC S A NFL", "F TOR/SC S F MON - GOS"]) == []
    lines = _order_points(picture_svg(g))
    a, b = lines["F MON/SC S A NFL"], lines["F TOR/SC S F MON - GOS"]
    middle = b[len(b) // 4: 3 * len(b) // 4]
    on_a = [p for p in middle if any(math.dist(p, q) < 6 for q in a)]
    assert on_a == [], f"{len(on_a)} of {len(middle)} points on the other line"


@pytest.mark.parametrize("unit", ["A PAN", "F PAN/SC"])
def test_a_rule_tag_keeps_off_the_unit_and_the_center_marker(unit: str) -> None:
    """Latin American Diplomacy 1890, a GM's 1892: the tag of the Panama canal's progress
    ("canal 2/4") was drawn below left of Panamá's unit, under a fleet's hull, and
    Panamá's home-center marker sat on it. The tag now stands under the unit, and the
    names and markers keep off it as they keep off units."""
    import xml.etree.ElementTree as ET

    from polydip.oneshot import build_position
    from polydip.render.audit import NS, _shape_box, overlap

    g = Game.new("lad1890")
    g.position = build_position(g.map, {
        "phase": "A1892M", "units": {"Colombia": [unit, "F GMO"]},
        "extra": {"canals": {"PAN": 2}}})
    svg = picture_svg(g)
    root = ET.fromstring(svg)
    tag = next(g for g in root.iter(NS + "g") if g.get("data-marker") == "PAN")
    assert "canal 2/4" in "".join(tag.itertext())
    rect = next(tag.iter(NS + "rect"))
    x, y = float(rect.get("x")), float(rect.get("y"))
    box = (x, y, x + float(rect.get("width")), y + float(rect.get("height")))
    others = [(g.get("data-unit") or g.get("data-center"), _shape_box(g))
              for g in root.iter(NS + "g") if g.get("data-unit") or g.get("data-center")]
    touching = [name for name, b in others if b and min(overlap(box, b)) > 0]
    assert touching == []
    assert targets_missed(audit_svg(svg)) == []
