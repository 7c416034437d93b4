"""Where a power's pieces are in the picture of the current phase, for a viewer that opens
the map on them (the host's player page zooms and scrolls there).

Cheap: the board's layout is worked out once per map (svg.map_geo, the one the picture is
drawn with) and the rest is a pass over the units; nothing is drawn.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from polydip.orders.describe import default_names
from polydip.render.board import load_board
from polydip.render.boardsvg import LABEL_FULL_SIZE, LABEL_SHORT_SIZE
from polydip.render.svg import WIDTH, map_geo, picture_height, unit_places

if TYPE_CHECKING:
    from polydip.game.game import Game

# around the pieces: room for a unit's symbol, its label and the first ring of neighbours
MARGIN_UNITS = 4.0  # unit radii


@dataclass(frozen=True, slots=True)
class Focus:
    width: float  # the picture's size, in its own pixels
    height: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1 as fractions of width / height
    label_px: float  # the font size of the province names, in the picture's pixels


def power_focus(game: Game, power: int, names: str | None = None) -> Focus | None:
    """The box, in fractions of the picture `render_svg` draws of the current phase, around
    `power`'s units (dislodged ones too) or, when it has none, its supply centers; None when
    it has neither, or the variant has no board (a schematic is laid out anew by the costly
    region fitting, which a page view must not pay for)."""
    m, pos = game.map, game.position
    drawn = load_board(m.variant)
    if drawn is None:
        return None
    geo = map_geo(m, drawn, WIDTH)
    full = (names or default_names(m)) == "full"
    pts = unit_places(m, geo, pos, full).of_power(pos, power)
    if not pts:  # (a province's id is also the id of its location without a coast)
        pts = [geo.loc[p] for p in sorted(pos.centers_of(power))]
    if not pts:
        return None
    height = picture_height(m, geo, full)
    pad = geo.unit_r * MARGIN_UNITS
    x0 = max(0.0, min(x for x, _ in pts) - pad)
    x1 = min(WIDTH, max(x for x, _ in pts) + pad)
    y0 = max(0.0, min(y for _, y in pts) - pad)
    y1 = min(height, max(y for _, y in pts) + pad)
    return Focus(WIDTH, height,
                 (round(x0 / WIDTH, 4), round(y0 / height, 4),
                  round(x1 / WIDTH, 4), round(y1 / height, 4)),
                 LABEL_FULL_SIZE if full else LABEL_SHORT_SIZE)
