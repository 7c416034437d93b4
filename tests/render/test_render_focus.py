"""Where the host's map opens (render/focus.py): the box around a power's units, or its
centers, in fractions of the picture render_svg draws (issue 29, the host)."""

from __future__ import annotations

import re

import pytest

from polydip.game.game import Game
from polydip.render import picture_svg
from polydip.render.focus import power_focus


def _units_at(svg: str, power: str) -> list[tuple[float, float]]:
    return [tuple(map(float, m.group(1).split(",")))
            for m in re.finditer(r'<g class="unit[^"]*"[^>]*data-power="' + re.escape(power)
                                 + r'"[^>]*data-at="([^"]+)"', svg)]


@pytest.mark.parametrize("variant, power", [("standard", "Turkey"), ("standard", "England"),
                                            ("wita", "Peru"), ("twentieth_century", "Japan")])
def test_the_box_holds_every_unit_where_the_picture_draws_it(variant, power):
    game = Game.new(variant)
    f = power_focus(game, game.map.powers.index(power))
    svg = picture_svg(game)
    width, height = (float(re.search(rf'<svg[^>]* {a}="([0-9.]+)"', svg).group(1))
                     for a in ("width", "height"))
    assert (f.width, f.height) == (width, height)
    x0, y0, x1, y1 = f.box
    at = _units_at(svg, power)
    assert at and all(x0 <= x / width <= x1 and y0 <= y / height <= y1 for x, y in at)
    # a view of the power, not of the whole board
    assert x1 - x0 < 0.5 and y1 - y0 < 0.5


def test_a_power_without_units_gets_its_centers_and_one_with_neither_none():
    game = Game.new("standard")
    m, pos = game.map, game.position
    turkey = m.powers.index("Turkey")
    with_units = power_focus(game, turkey)
    pos.units = [u for u in pos.units if u.power != turkey]
    centers = power_focus(game, turkey)
    assert centers is not None  # Ankara, Constantinople, Smyrna: about where the units were
    cx = (centers.box[0] + centers.box[2]) / 2
    assert with_units.box[0] <= cx <= with_units.box[2]
    pos.owners = [-1 if o == turkey else o for o in pos.owners]
    assert power_focus(game, turkey) is None


def test_no_box_on_a_map_without_a_board(tmp_path):
    """A schematic is laid out anew by region fitting, too costly for a page view."""
    from importlib import resources

    text = (resources.files("polydip.variants") / "data" / "standard.toml").read_text()
    (tmp_path / "mine.toml").write_text(text)
    game = Game.new(str(tmp_path / "mine.toml"))
    assert power_focus(game, 0) is None


@pytest.mark.parametrize("variant", ["standard", "twentieth_century"])
def test_unit_places_are_where_the_picture_draws_the_units(variant):
    """render.svg.unit_places: the public way to ask where units are drawn (focus uses it)."""
    from polydip.render.board import load_board
    from polydip.render.svg import WIDTH, map_geo, unit_places

    game = Game.new(variant)
    m, pos = game.map, game.position
    geo = map_geo(m, load_board(m.variant), WIDTH)
    places = unit_places(m, geo, pos)
    assert len(places.units) == len(pos.units) and places.dislodged == ()
    svg = picture_svg(game)
    for i, power in enumerate(m.powers):
        drawn = sorted(_units_at(svg, power))
        ours = sorted(places.of_power(pos, i))
        assert len(drawn) == len(ours)
        # the same places, but for a unit nudged beside its center's marker
        assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) <= 2 * geo.unit_r
                   for a, b in zip(drawn, ours, strict=True))
