"""Map pictures (issue 5, part 3): provinces at their coordinates colored by center owner,
supply centers, units on their coasts, dislodged units offset, orders as arrows with failed
ones marked; SVG written by polydip, PNG through CairoSVG; written atomically."""

from __future__ import annotations

import copy
import re

import pytest

from polydip.compile import compile_map
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.game.positions import build_position
from polydip.render import picture_svg, render_file
from polydip.render.geometry import fit_regions, inside, shared_borders, voronoi_cells
from polydip.variants.loader import builtin_names, load_variant


def _attrs(svg: str, cls: str, attr: str) -> list[str]:
    return re.findall(rf'<g class="{cls}[^"]*" {attr}="([^"]*)"', svg)


def test_every_builtin_variant_has_coordinates() -> None:
    for name in builtin_names():
        v = load_variant(name)
        missing = [p.abbr for p in v.provinces.values() if p.coords is None]
        assert not missing, f"{name}: no coords for {missing}"
        for p in v.provinces.values():
            assert set(p.coast_coords) == set(p.coasts), p.abbr
            if v.coords == "latlon":
                lat, lon = p.coords
                assert -90 <= lat <= 90 and -180 <= lon <= 180


def test_schematic_regions_keep_every_province_and_most_borders() -> None:
    """The schematic (for variants without a board): one region per province."""
    g = Game.new("standard")
    svg = picture_svg(g, board=False)
    m = g.map
    drawn = set(re.findall(r'data-province="([A-Z]+)"', svg))
    assert drawn == set(m.prov_abbr)
    geo = m.caches.layouts[("schematic", 1600)]
    for i in range(m.n_prov):
        assert inside(geo.site[i], geo.cells[i].points), m.prov_abbr[i]
    adjacent = set()
    for e in m.variant.edges:
        a, b = m.loc_prov[m.loc_index[e.a]], m.loc_prov[m.loc_index[e.b]]
        adjacent.add((min(a, b), max(a, b)))
    touching = set(shared_borders(geo.cells))
    wrong = touching - adjacent
    missing = adjacent - touching
    # one point per province cannot be exact; the fitted layout gets nearly all right
    assert len(wrong) + len(missing) <= 20, (wrong, missing)


def test_regions_are_voronoi_cells_without_weights() -> None:
    sites = [(0.0, 0.0), (10.0, 0.0), (5.0, 8.0)]
    cells = voronoi_cells(sites, [20.0] * 3, (-50, -50, 50, 50))
    assert all(inside(s, c.points) for s, c in zip(sites, cells, strict=True))
    assert set(shared_borders(cells)) == {(0, 1), (0, 2), (1, 2)}
    fitted = fit_regions(sites, {(0, 1), (1, 2)}, (-50, -50, 50, 50))
    assert fitted.wrong_borders + fitted.missing_borders <= 1


def test_initial_position_picture() -> None:
    g = Game.new("standard", name="test game")
    svg = picture_svg(g)
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    units = _attrs(svg, "unit", "data-unit")
    assert sorted(units) == sorted(g.map.unit_str(u.kind, u.loc) for u in g.position.units)
    assert "F STP/SC" in units
    # centers colored by owner, neutral ones white
    assert svg.count('class="center"') == 34
    assert re.search(r'data-province="PAR" data-owner="France"', svg)
    assert re.search(r'data-province="BEL" data-owner=""', svg)
    assert "Spring 1901 Movement (S1901M)" in svg and "test game" in svg
    for power in g.map.powers:
        assert power in svg  # the legend


def test_processed_phase_shows_orders_and_failures() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - BUR", "A MAR S A PAR - BUR", "F BRE H"])
    g.set_orders("Germany", ["A MUN - BUR", "F KIE - HOL"])
    g.set_orders("England", ["F LON - NTH", "A LVP - NWY VIA", "F EDI - NWG"])
    g.set_orders("Russia", ["F SEV - BLA"])
    g.set_orders("Turkey", ["F ANK - BLA"])
    g.process()
    svg = picture_svg(g, "S1901M")
    found = {text: cls for cls, text in re.findall(
        r'class="order ([a-z ]+)" data-order="([^"]*)"', svg)}
    assert found["A PAR - BUR"] == "move"  # supported: succeeds
    assert found["A MUN - BUR"] == "move failed"
    assert found["A MAR S A PAR - BUR"] == "support"
    assert found["F BRE H"] == "hold"
    assert found["F SEV - BLA"] == "move failed" and found["F ANK - BLA"] == "move failed"
    assert found["A LVP - NWY VIA"] == "move failed"
    assert svg.split('class="legend"')[0].count('class="fail-mark"') == 4
    # the current phase: the position after, no orders yet
    svg2 = picture_svg(g)
    assert 'data-unit="A BUR"' in svg2 and 'class="order ' not in svg2


def test_dislodged_units_retreats_builds_and_removals() -> None:
    g = Game.new("standard")
    g.position = build_position(g.map, {
        "phase": "F1901R", "units": {"Germany": ["A BUR", "A RUH"], "France": ["A PAR"]},
        "dislodged": {"France": [{"unit": "A BUR", "from": "MUN"}],
                      "Italy": [{"unit": "F TYS", "from": "ROM"}]},
        "centers": {"France": ["PAR"]}})
    g.set_orders("France", ["A BUR R GAS"])
    g.set_orders("Italy", ["F TYS D"])
    svg = picture_svg(g)
    assert re.search(r'class="unit dislodged" data-unit="A BUR" data-power="France"', svg)
    assert re.search(r'class="unit" data-unit="A BUR" data-power="Germany"', svg)
    assert re.search(r'class="order retreat" data-order="A BUR R GAS"', svg)
    assert re.search(r'class="order disband" data-order="F TYS D"', svg)
    g.process()
    assert 'class="badge cross"' in picture_svg(g, "F1901R")
    g.position = build_position(g.map, {
        "phase": "W1901A", "units": {"France": ["A BUR"], "Germany": ["A RUH", "A HOL"]},
        "centers": {"France": ["PAR", "BRE"], "Germany": ["MUN"]}})
    g.set_orders("France", ["Build F BRE"])
    g.set_orders("Germany", ["Remove A HOL"])
    svg = picture_svg(g)
    assert re.search(r'class="order build" data-order="F BRE B"', svg)
    assert re.search(r'class="order remove" data-order="A HOL D"', svg)
    assert 'class="badge plus"' in svg and 'class="badge cross"' in svg


def test_render_file_svg_and_errors(tmp_path) -> None:
    g = Game.new("standard")
    out = tmp_path / "map.svg"
    assert render_file(g, out) == "svg"
    assert out.read_text().startswith("<svg")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    with pytest.raises(PolydipError, match=r"\.svg or \.png"):
        render_file(g, tmp_path / "map.gif")
    with pytest.raises(PolydipError, match="no phase F1905M"):
        render_file(g, out, phase="F1905M")


def test_png_at_1600_pixels(tmp_path) -> None:
    pytest.importorskip("cairosvg")
    g = Game.new("standard")
    out = tmp_path / "map.png"
    assert render_file(g, out) == "png"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width = int.from_bytes(data[16:20], "big")
    assert width == 1600


def test_a_variant_without_coordinates_is_a_clear_error(tmp_path) -> None:
    v = copy.deepcopy(load_variant("standard"))  # loaded variants are shared: copy to change
    v.path = ""  # a variant from elsewhere: no board file beside it
    for p in v.provinces.values():
        p.coords = None
    m = compile_map(v)
    g = Game(v, m, Game.new(v).position)
    with pytest.raises(PolydipError, match="no coordinates for"):
        picture_svg(g)


def test_other_unit_kinds_are_drawn_with_their_letter() -> None:
    """An army is a circle, a fleet a ship; a kind a variant adds (a river flotilla, R) is a
    diamond with its own letter."""
    from pathlib import Path

    from polydip.render.svg import _unit_shape
    from polydip.variants.loader import parse_variant

    text = (Path(__file__).parents[1] / "variants" / "tiny.toml").read_text()
    text = text.replace("[[powers]]", '[unit_kinds]\nA = { name = "army", convoyed = true }\n'
                        'F = { name = "fleet", coastal = true, convoys = true }\n'
                        'R = { name = "river flotilla" }\n\n[[powers]]', 1)
    m = compile_map(parse_variant(text, "kinds.toml"))
    army, fleet, flotilla = (_unit_shape(m, m.kind_index[k], 10, 10, 12, "#123456", "#000")
                             for k in ("A", "F", "R"))
    assert ">A<" in army and "<circle" in army and "<polygon" not in army
    assert ">F<" in fleet and fleet.count("<polygon") == 2  # hull and sail
    assert ">R<" in flotilla and flotilla.count("<polygon") == 1 and "<circle" not in flotilla
    # a diamond: four corners around the unit's place
    pts = re.search(r'points="([^"]*)"', flotilla).group(1).split()
    assert len(pts) == 4


def test_a_game_drawn_once_still_pickles() -> None:
    """The host draws maps in a child process it sends the game to; once a picture of the
    map was drawn in the server (its label placement cached with the map), the game must
    still pickle, and the copy draw the same picture."""
    import pickle

    from polydip.game.game import Game
    from polydip.render import picture_svg

    g = Game.new("standard")
    first = picture_svg(g)
    assert picture_svg(pickle.loads(pickle.dumps(g))) == first
