"""Drawing a phase on a board (issue 9): units stand inside their own province, a dislodged
unit beside its own, one element per province with data-province, names full or short."""

from __future__ import annotations

import html
import itertools
import math
import re
import time

import pytest

from polydip.game.game import Game
from polydip.oneshot import build_position
from polydip.render import picture_svg
from polydip.render.audit import inside, path_rings
from polydip.render.board import load_board
from polydip.variants.loader import builtin_names


def _dist_to(pt, rings) -> float:
    best = float("inf")
    for ring in rings:
        for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1], strict=True):
            dx, dy = x1 - x0, y1 - y0
            n2 = dx * dx + dy * dy or 1e-9
            t = max(0.0, min(1.0, ((pt[0] - x0) * dx + (pt[1] - y0) * dy) / n2))
            best = min(best, ((pt[0] - x0 - t * dx) ** 2 + (pt[1] - y0 - t * dy) ** 2) ** .5)
    return best


def _provinces(svg: str) -> dict[str, list]:
    return {a: path_rings(d) for a, d in re.findall(
        r'<path class="province" data-province="([A-Z0-9_]+)"[^>]* d="([^"]*)"', svg)}


def _units(svg: str, cls: str = "unit") -> list[tuple[str, tuple[float, float]]]:
    out = []
    for unit, x, y in re.findall(rf'<g class="{cls}" data-unit="([^"]+)" data-power="[^"]*" '
                                 r'data-at="([-\d.]+),([-\d.]+)"', svg):
        out.append((unit, (float(x), float(y))))
    return out


def _check_units_inside(svg: str, game) -> None:
    provs = _provinces(svg)
    assert set(provs) == set(game.map.prov_abbr)  # one element per province
    units = _units(svg)
    assert units
    for unit, at in units:
        prov = unit.split()[1].split("/")[0]
        assert inside(at, provs[prov]), f"{unit} drawn at {at} is not inside {prov}"
    for unit, at in _units(svg, "unit dislodged"):
        prov = unit.split()[1].split("/")[0]
        # inside its own province, or just beside it: never nearer another province
        assert inside(at, provs[prov]) or _dist_to(at, provs[prov]) < 25, unit


def test_a_wita_year_on_the_board() -> None:
    """Moves, a supported attack that dislodges, a convoy, the retreat and builds: every
    unit is drawn inside its province (its coast for fleets), the dislodged one beside its
    own province."""
    g = Game.new("wita")
    g.position = build_position(g.map, {
        "phase": "S1845M",
        "units": {"Mexico": ["A NLE", "A NME", "F GOM", "A VER", "F CHP/SC"],
                  "United States": ["A TEX", "A NOR", "F NYC"],
                  "Colombia": ["F CLI/NC", "A BOG"], "Great Britain": ["F TRI", "A MON"]},
        "centers": {"Mexico": ["MEX", "VER", "GDL"], "United States": ["WAS", "NYC", "NOR"],
                    "Colombia": ["BOG", "CRT", "CLI"]}})
    g.set_orders("Mexico", ["A NLE - TEX", "A NME S A NLE - TEX", "F GOM C A VER - YUC",
                            "A VER - YUC VIA", "F CHP/SC - GOT"])
    g.set_orders("United States", ["A TEX H", "A NOR - FLO", "F NYC - NYB"])
    g.set_orders("Colombia", ["F CLI/NC - GOU", "A BOG - CRT"])
    g.set_orders("Great Britain", ["F TRI - DEL", "A MON - TOR"])
    g.process()
    svg = picture_svg(g, "S1845M")
    found = {text: cls for cls, text in
             re.findall(r'class="order ([a-z ]+)" data-order="([^"]*)"', svg)}
    assert found["A NME S A NLE - TEX"] == "support"
    assert found["F GOM C A VER - YUC"] == "convoy"
    assert found["A VER - YUC VIA"] == "move"
    _check_units_inside(svg, g)
    # the retreat phase: A TEX was dislodged; it retreats
    assert g.position.phase.name == "S1845R"
    g.set_orders("United States", ["A TEX R KAN"])
    svg = picture_svg(g)
    assert re.search(r'class="unit dislodged" data-unit="A TEX"', svg)
    assert re.search(r'class="order retreat" data-order="A TEX R KAN"', svg)
    _check_units_inside(svg, g)
    g.process()
    _check_units_inside(picture_svg(g, "S1845R"), g)
    # builds
    g.position = build_position(g.map, {
        "phase": "W1845A", "units": {"Mexico": ["A TEX", "A YUC"]},
        "centers": {"Mexico": ["MEX", "VER", "GDL", "TEX", "YUC"]}})
    g.set_orders("Mexico", ["Build F VER", "Build A MEX", "Build A GDL"])
    svg = picture_svg(g)
    assert len(re.findall(r'class="order build"', svg)) == 3
    _check_units_inside(svg, g)


def test_full_names_by_default_on_big_maps() -> None:
    g = Game.new("wita")
    assert ">Northwest<" in picture_svg(g) or ">Northwest Territories<" in picture_svg(g)
    assert ">NWT<" in picture_svg(g, names="short")
    s = picture_svg(Game.new("standard"))
    assert ">PAR<" in s and ">Paris<" not in s
    assert ">Paris<" in picture_svg(Game.new("standard"), names="full")


def test_home_centers_are_marked() -> None:
    svg = picture_svg(Game.new("standard"))
    homes = re.findall(r'class="center" data-center="([A-Z]+)" data-home=', svg)
    assert sorted(homes) == sorted(h for p in Game.new("standard").variant.powers
                                   for h in p.homes)


@pytest.mark.parametrize("name", builtin_names())
def test_every_power_has_a_colour_of_its_own(name: str) -> None:
    """Issue 9: no power close to the sea's colour; issue 29: every two powers differ by
    ΔE00 20 for normal vision and as protanopes and deuteranopes see them, or carry
    different marks (patterns), shown on their provinces, units and legend swatches."""
    from polydip.render.colors import (
        SEA,
        SEA_MIN,
        difference,
        differences,
        mix,
        power_colors,
        power_marks,
    )

    every = Game.new(name).variant.powers
    drawn = power_colors([p.color or "#888888" for p in every], [p.neutral for p in every])
    marks = power_marks(drawn)
    assert len(set(zip(drawn, marks, strict=True))) == len(every)
    for c in drawn:
        assert difference(mix(c, "#ffffff", 0.42), SEA) >= SEA_MIN
    # issue 28.12: neutral powers in greys, never in a player's colour
    for p, c in zip(every, drawn, strict=True):
        assert (len(set(c[1:].lower()[i:i + 2] for i in (0, 2, 4))) == 1) == p.neutral, p.name
    for i, a in enumerate(drawn):
        for j in range(i):
            alike = min(differences(a, drawn[j])) < 20
            assert not alike or marks[i] != marks[j], (every[i].name, every[j].name)
    players = [c for p, c in zip(every, drawn, strict=True) if not p.neutral]
    assert all(differences(a, b)[0] >= 20 for i, a in enumerate(players) for b in players[:i])
    # the marks are drawn: the legend's swatch and every unit of a marked power use them
    svg = picture_svg(Game.new(name))
    legend = dict(re.findall(r'fill="url\(#mark-unit-(\d+)\)" stroke="#1e1e1e" '
                             r'stroke-width="1.5" data-mark="([a-z]+)"', svg))
    assert legend == {str(p): mk for p, mk in enumerate(marks) if mk}
    for p, mk in enumerate(marks):
        assert (f'id="mark-fill-{p}"' in svg) == bool(mk)
        assert (f'id="mark-unit-{p}"' in svg) == bool(mk)


def test_ciede2000_reproduces_the_published_test_data() -> None:
    """Sharma, Wu and Dalal (2005), "The CIEDE2000 color-difference formula: implementation
    notes, supplementary test data, and mathematical observations", Table 1 (rows 1-3, 7-8,
    17-20, 25, 33-34: the hue wrap, the achromatic pair and the blue region's rotation)."""
    from polydip.render.colors import ciede2000

    rows = [((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
            ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
            ((50.0, 2.8361, -74.0200), (50.0, 0.0, -82.7485), 3.4412),
            ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
            ((50.0, -1.0, 2.0), (50.0, 0.0, 0.0), 2.3669),
            ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
            ((50.0, 2.5, 0.0), (61.0, -5.0, 29.0), 22.8977),
            ((50.0, 2.5, 0.0), (56.0, -27.0, -3.0), 31.9030),
            ((50.0, 2.5, 0.0), (58.0, 24.0, 15.0), 19.4535),
            ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
            ((90.8027, -2.0831, 1.4410), (91.1528, -1.6435, 0.0447), 1.4441),
            ((90.9257, -0.5406, -0.9208), (88.6381, -0.8985, -0.7239), 1.5381)]
    for a, b, want in rows:
        assert ciede2000(a, b) == pytest.approx(want, abs=1e-4)
        assert ciede2000(b, a) == pytest.approx(want, abs=1e-4)


def test_powers_alike_get_different_marks_and_others_none() -> None:
    from polydip.render.colors import power_marks

    # two blues alike in every vision, a yellow unlike both
    marks = power_marks(["#3377ee", "#3378ee", "#ddbb11"])
    assert marks[0] != marks[1] and marks[2] == ""
    assert power_marks(["#3377ee", "#ddbb11"]) == ["", ""]


@pytest.mark.parametrize("name", ["standard", "wita", "war_in_north_america", "lad1890"])
def test_render_time(name: str) -> None:
    g = Game.new(name)
    load_board(g.variant)
    picture_svg(g)  # the board's outlines are built once per map
    t = time.process_time()  # CPU time: the machine's other work (a parallel run) adds none
    picture_svg(g)
    assert time.process_time() - t < 0.2


def test_the_legend_counts_centers_by_value_as_the_report_does() -> None:
    """LAD 1890: "capitals count 2 for victory and adjustments" — the legend's count is the
    one the report and the adjustments use, not the number of provinces."""
    g = Game.new("lad1890")
    m = g.map
    argentina = m.powers.index("Argentina")
    owned = g.position.centers_of(argentina)
    by_value = sum(m.sc_value[c] for c in owned)
    assert by_value > len(owned)  # Buenos Aires, a capital, counts twice
    assert f">{by_value} centers · " in picture_svg(g).split('class="legend"')[1].split(
        ">Argentina<")[1]


# every built-in variant that has a board
BOARD_VARIANTS = ["standard", "wita", "war_in_north_america", "lad1890",
                  "twentieth_century"]


@pytest.mark.parametrize("name", BOARD_VARIANTS)
def test_a_unit_in_every_location_is_drawn_inside_its_province(name: str) -> None:
    """A position with a unit in every location a unit may stand (a fleet on each named
    coast) and, in each open space (no stacking limit, as Cape Horn), a unit of every
    power: each unit is drawn inside its own province, none on top of another."""
    from polydip.state import Unit

    g = Game.new(name)
    m = g.map
    units = []
    for loc in range(m.n_loc):
        kinds = [k for k in range(len(m.kinds)) if m.occupy[k][loc]]
        if kinds:
            units.append(Unit(0, kinds[0], loc))
    for p in range(m.n_prov):
        if m.tables.open_space[p]:
            kind = next(u.kind for u in units if u.loc == p)
            units += [Unit(q, kind, p) for q in range(1, len(m.powers))]
    g.position.units = units
    svg = picture_svg(g)
    _check_units_inside(svg, g)
    drawn = _units(svg)
    assert len(drawn) == len(units)
    for p in range(m.n_prov):  # the units of an open space stand apart
        if m.tables.open_space[p]:
            pts = [at for unit, at in drawn if unit.split()[1] == m.prov_abbr[p]]
            assert len(pts) == len(m.powers)
            assert min(math.dist(a, b) for a, b in itertools.combinations(pts, 2)) >= 18


@pytest.mark.parametrize("name", BOARD_VARIANTS)
def test_random_phases_draw_every_unit_inside_its_province(name: str) -> None:
    """Four phases of random orders (moves, supports, retreats, builds): every unit of every
    phase drawn is inside its province."""
    import random

    from polydip.play import random_orders

    g = Game.new(name)
    rng = random.Random(5)
    for _ in range(4):
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
        _check_units_inside(picture_svg(g, g.history[-1].position.phase.name), g)


# the seed's six wraparound seas ("The map is a cylinder")
WRAPAROUND_SEAS = ["BSE", "WST", "WPA", "ECO", "SWP", "APA"]


def test_a_board_that_wraps_shows_its_seas_continuing_across_the_edges() -> None:
    """The Twentieth Century: the wraparound seas "connect both ends of the map" (seed 003):
    each is drawn at both the left and the right edge, with a marker at each edge saying it
    continues, and its name at the edge away from its label."""
    svg = picture_svg(Game.new("twentieth_century"))
    assert '<g class="seam">' in svg
    marks = set(re.findall(r'class="seam-mark" data-province="(\w+)" data-side="(\w+)"',
                           svg))
    for sea in WRAPAROUND_SEAS:
        assert {(sea, "left"), (sea, "right")} <= marks, sea
    names = re.findall(r'class="seam-mark" data-province="(\w+)" data-side="\w+">'
                       r'\s*<path[^>]*/>\s*<text[^>]*>([^<]+)</text>', svg)
    named = {abbr for abbr, _ in names}
    assert set(WRAPAROUND_SEAS) <= named


def _text_boxes(svg: str) -> list[tuple[float, float, float, float]]:
    """The boxes the texts of an SVG picture cover (about 0.6 em a character, an em tall)."""
    out = []
    for x, y, size, anchor, text in re.findall(
            r'<text x="([\d.]+)" y="([\d.]+)" font-size="([\d.]+)"[^>]*text-anchor="(\w+)"'
            r'(?![^>]*stroke=)[^>]*>([^<]+)</text>', svg):
        x, y, size = float(x), float(y), float(size)
        w = len(text) * size * 0.6
        x0 = {"start": x, "middle": x - w / 2, "end": x - w}[anchor]
        out.append((x0, y - size * 0.75, x0 + w, y + size * 0.2))
    return out


def test_the_names_at_the_seam_cover_no_province_name() -> None:
    """A wraparound sea's name at the edge of the map is set where it covers no province's
    name (the West Pacific's beside Hawaii's, the Westerlies' beside San Francisco's)."""
    svg = picture_svg(Game.new("twentieth_century"))
    seam = svg[svg.index('<g class="seam">'):]
    seam = seam[:seam.index("</g>\n</g>")]
    labels = svg[svg.index('<g class="labels">'):]
    named = _text_boxes(seam)
    assert len(named) >= len(WRAPAROUND_SEAS)
    for a0, b0, a1, b1 in named:
        for c0, d0, c1, d1 in _text_boxes(labels):
            assert min(a1, c1) <= max(a0, c0) or min(b1, d1) <= max(b0, d0), (
                (a0, b0, a1, b1), (c0, d0, c1, d1))


def test_a_flat_board_has_no_seam() -> None:
    """A board that does not wrap (the standard map) draws no seam and no edge markers."""
    svg = picture_svg(Game.new("standard"))
    assert 'class="seam' not in svg


def test_a_move_across_the_seam_goes_the_short_way() -> None:
    """The Twentieth Century's wraparound seas: "A Fleet may move or convoy from one side of
    the map to the other in these sea zones" (seed 003). F Hawaii - Westerlies, from Hawaii at
    the left edge, is drawn as two arrows through the seam, each crossing one edge, never as
    one line across the whole map."""
    g = Game.new("twentieth_century")
    assert g.set_orders("USA", ["F HAW - WST"]) == []
    svg = picture_svg(g)
    group = svg.split('data-order="F HAW - WST"')[1].split("</g>")[0]
    paths = re.findall(r'<path d="M ([\d.-]+) [\d.-]+ Q [\d.-]+ [\d.-]+ ([\d.-]+) [\d.-]+"',
                       group)
    width = 1600
    shafts = {(float(a), float(b)) for a, b in paths}
    assert len(shafts) == 2
    assert all(abs(b - a) < width / 2 for a, b in shafts)
    assert any(min(a, b) < 0 for a, b in shafts) and any(max(a, b) > width for a, b in shafts)


def test_the_rules_terrain_classes_are_drawn_by_pattern_with_a_legend_entry() -> None:
    """Issue 29: LAD's oceans (where AT orders apply) are drawn apart from its seas; its
    mountain, rainforest, swamp, desert and glacier provinces carry a pattern each, and the
    legend shows each; War in North America's open space (Cape Horn) likewise; the standard
    map, whose rules name no class, has none."""
    g = Game.new("lad1890")
    svg = picture_svg(g)
    drawn = {c: f for c, _d, f in re.findall(
        r'data-terrain="([a-z ]+)" d="([^"]*)" fill="url\(#(terrain-[a-z-]+)\)', svg)}
    assert set(drawn) == {"mountain", "rainforest", "swamp", "desert", "glacier", "ocean"}
    for cls, ident in drawn.items():
        assert f'<pattern id="{ident}"' in svg
        assert f">{cls} province<" in svg  # its legend entry
    # every ocean province, and no sea, in the ocean class: as many outlines as oceans
    ocean_d = re.search(r'data-terrain="ocean" d="([^"]*)"', svg).group(1)
    oceans = [a for a, p in g.variant.provinces.items() if "ocean" in p.tags]
    assert ocean_d.count("M") == sum(
        re.search(rf'data-province="{a}"[^>]* d="([^"]*)"', svg).group(1).count("M")
        for a in oceans)
    wina = picture_svg(Game.new("war_in_north_america"))
    assert 'data-terrain="open space"' in wina and ">open space<" in wina
    assert "data-terrain" not in picture_svg(Game.new("standard"))


def test_every_province_has_its_full_name_as_a_tooltip() -> None:
    """Issue 29: The Twentieth Century draws many provinces by code only; each province's
    outline carries a <title> with its full name."""
    g = Game.new("twentieth_century")
    svg = picture_svg(g)
    titles = dict(re.findall(r'data-province="([A-Z0-9_]+)"[^>]*>\s*<title>([^<]*) \(', svg))
    assert {a: html.unescape(t) for a, t in titles.items()} == {
        a: p.name for a, p in g.variant.provinces.items()}


def test_capitals_and_territories_are_drawn() -> None:
    """Issue 29, LAD 1890: capitals (worth 2) have a marker of their own, and each power's
    territory (its provinces at the start: where it may build in 1890 D) is outlined in its
    colour; the legend shows both. The standard map has neither."""
    g = Game.new("lad1890")
    svg = picture_svg(g)
    marked = set(re.findall(r'data-center="([A-Z]+)"[^>]*>(?:\s*<circle[^>]*>)*\s*'
                            r'<polygon class="capital"', svg))
    assert marked == {a for a, p in g.variant.provinces.items()
                      if p.supply_center == "capital"}
    outlined = re.findall(r'class="territory" data-power="([^"]+)" d="(M[^"]+)"', svg)
    assert sorted(p for p, _d in outlined) == sorted(p.name for p in g.variant.powers
                                                     if p.territory)
    assert ">capital<" in svg and ">territory<" in svg
    plain = picture_svg(Game.new("standard"))
    assert 'class="capital"' not in plain and 'class="territory"' not in plain


def test_an_off_map_box_shows_its_links() -> None:
    """Issue 29: War in North America's Cape Horn, drawn in a box off the map, "borders two
    seas, the Atlantic Ocean and the Pacific Ocean": a link to each is drawn."""
    svg = picture_svg(Game.new("war_in_north_america"))
    assert sorted(re.findall(r'class="border link box-link" data-link="([A-Z-]+)"', svg)) == [
        "CHO-ATL", "CHO-PAC"]
    assert "box-link" not in picture_svg(Game.new("lad1890"))


def test_provinces_drawn_by_code_are_listed_with_their_names() -> None:
    """Issue 29: The Twentieth Century draws the provinces whose names do not fit by code
    only; the legend lists each such code with its name. With short names asked for, every
    province is a code and no list is drawn."""
    g = Game.new("twentieth_century")
    svg = picture_svg(g)
    key = re.search(r'<g class="code-key">(.*?)</g>\n</g>', svg, re.S)
    assert key is not None
    listed = re.findall(r'<g class="code" data-code="([A-Z0-9_]+)">', key.group(1))
    board = load_board(g.variant)
    assert listed == sorted(a for a in g.variant.provinces if board.anchors[a].get("short_label"))
    assert len(listed) >= 60
    for a in listed[:5]:
        assert f">{html.escape(g.variant.provinces[a].name, quote=True)}<" in key.group(1)
    assert 'class="code-key"' not in picture_svg(g, names="short")
    assert 'class="code-key"' not in picture_svg(Game.new("standard"))


def test_the_passages_the_rules_name_are_named_on_the_board() -> None:
    """Issue 29: The Twentieth Century's controlled passages ("Kiel Canal", the Bosporus,
    Suez, the Panama Canal) carry their name on their link (a tooltip) and in the legend,
    with the seas they join."""
    svg = picture_svg(Game.new("twentieth_century"))
    link = re.search(r'data-link="BAL-HEL">\s*<title>([^<]*)</title>', svg)
    assert link is not None and link.group(1) == "Kiel Canal"
    legend = re.search(r'<g class="passages">(.*?)</g>', svg, re.S)
    assert legend is not None
    for words in ("Kiel Canal: Baltic Sea – Helgoland Bight", "Bosporus: Aegean Sea – Black Sea",
                  "Suez: Aegean Sea – Red Sea", "Panama Canal: Gulf of Panama"):
        assert words in legend.group(1)
    assert 'class="passages"' not in picture_svg(Game.new("standard"))


def test_the_schematic_legend_shows_only_what_it_draws() -> None:
    """The schematic map (no board) draws no terrain pattern, capital star or territory line:
    its legend has no entry for them, even after the board of the same game was drawn."""
    g = Game.new("lad1890")
    assert ">ocean province<" in picture_svg(g)
    plain = picture_svg(g, board=False)
    for entry in (">ocean province<", ">capital<", ">territory<"):
        assert entry not in plain
