"""What the layers above a Map work out from it once and keep on it: `Map.caches`.

A map is immutable once compiled, so anything derived from it alone (where a move goes, the
convoy geometry of a set of fleets, the text of an order, a picture's layout) may be kept for
the map's lifetime. Each cache is one typed field of `MapCaches`, filled lazily by the module
named in its comment; one that grows with what players type or with positions is bounded
(emptied when full: the next calls fill it again), and `clear()` empties them all (the
benchmarks start cold with it). The caches live on the map, so they go when the map goes.

Compiled with the map (docs/speed.md): a field is read as a C attribute in the hot loops.
Types of the layers above appear only in annotations (`if TYPE_CHECKING:`), and a field's
outer type is a plain container, so the compiled class checks nothing of theirs at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from polydip.state import UnitCache

if TYPE_CHECKING:
    from polydip.adjudication.convoy import BlockTree, FleetGeometry
    from polydip.adjudication.legal import ArmyConvoys
    from polydip.orders.model import Order
    from polydip.state import Dislodged, Unit

# the bound of a cache keyed by texts players type, or by positions: emptied past it
TEXTS: Final = 20_000
# the bound of the pictures' layouts, kept per width (and name style)
LAYOUTS: Final = 16


class MapCaches:
    """The caches of one map: one field each, filled by the module its comment names."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        """Empty every cache (each is filled again as it is asked)."""
        # -- state.py --
        # the Unit objects of the map, each made once (unit_cache)
        self.units: UnitCache | None = None
        # units list id -> (a copy of its units, first unit per province, provinces with
        # several): unit_index's last few answers; at most 8
        self.unit_index: dict[int, tuple[list[Unit | Dislodged], list[int],
                                         dict[int, list[int]]]] = {}
        # -- adjudication/ --
        # center owners (per province) -> centers per power, by value
        # (adjustments.centers_per_power); at most 2,048
        self.center_counts: dict[tuple[int, ...], list[int]] = {}
        # (kind, location, target) -> (destination location or -1, over an edge):
        # legality.move_target and the movement validator; finite (the map's locations)
        self.move_target: dict[tuple[int, int, int | None], tuple[int, bool]] = {}
        # fleet provinces -> their convoy geometry (convoy.geometry); at most 4,096
        self.fleet_geometry: dict[frozenset[int], FleetGeometry] = {}
        # connected fleet provinces (bit mask) -> block-cut tree (convoy.block_tree);
        # at most 20,000
        self.block_trees: dict[int, BlockTree] = {}
        # (component, fleets next to the origin or the destination) -> the fleets on some
        # route (convoy._component_routes); at most 200,000
        self.convoy_routes: dict[tuple[int, int], int] = {}
        # (fleets, fleets next to origin, next to destination, origin degree) -> the fleets
        # every route needs (convoy._necessary_kept); at most 200,000
        self.convoy_necessary: dict[tuple[int, int, int, int], int] = {}
        # (origin, destination, fleets on its routes but one) -> whether they convoy an army
        # from one to the other (legal.ArmyConvoys.route_without); at most 200,000
        self.convoy_without: dict[tuple[int, int, int], bool] = {}
        # (army, fleets, ...) -> what an army may do by convoy (legal.py); at most 10,000
        self.army_convoys: dict[tuple[int, int, int], ArmyConvoys] = {}
        # (supporter slot, army index, destinations) -> the codes of the supports of the
        # army's moves there (legal.ArmyConvoys.supports); at most 200,000
        self.convoyed_supports: dict[tuple[int, int, int], tuple[int, ...]] = {}
        # -- rules/ --
        # (rule key, table name) -> a table a rule works out from the map alone
        self.rule_tables: dict[tuple[str, str], Any] = {}
        # -- orders/ --
        # phase type -> order text -> the order read (canonical.order_memo); each at most
        # canonical._KEEP texts
        self.orders: dict[str, dict[str, Order]] = {}
        # order text -> (order, its description) (canonical.described_orders); bounded there
        self.described_orders: dict[str, tuple[Order, str]] = {}
        # the examples of how orders are written on this map (examples._examples)
        self.order_examples: tuple[dict[str, str], dict[str, str]] | None = None
        # -- game/ --
        # kind * locations + location -> "A PAR H" (engine._hold_texts); finite
        self.described_holds: dict[int, str] = {}
        # texts of a position request read per map (positions.read_unit, read_province,
        # read_power, read_phase, ...): kind of text -> text -> what it reads as; each at most
        # TEXTS entries
        self.texts: dict[str, dict[Any, Any]] = {}
        # the variant's home centers as a request writes them (positions._own_homes)
        self.own_homes: dict[str, list[str]] | None = None
        # -- oneshot.py --
        # whether the variant's own options were checked (once per map)
        self.options_checked: bool = False
        # kind * locations + location -> Map.unit_str (oneshot._unit_texts); finite
        self.unit_strings: dict[int, str] = {}
        # -- render/ --
        # ("board" or "schematic", width) -> the picture's layout (svg.map_geo); at most
        # LAYOUTS
        self.layouts: dict[tuple[str, float], Any] = {}
        # (what, width, ...) -> the provinces' outlines and label placers of one width
        # (placement.shapes, placement.placer); at most LAYOUTS
        self.placement: dict[tuple[Any, ...], Any] = {}
        # the powers' colours and marks (svg._power_styles)
        self.power_styles: tuple[list[str], list[str]] | None = None
        # with a board or not -> the legend's key items flowed into rows (svg._key_layout)
        self.key_layouts: dict[bool, list[tuple[str, float, int]]] = {}
        # the named passages' lines of the legend (svg._passage_lines)
        self.passage_lines: list[str] | None = None
        # the province classes drawn by a pattern (boardsvg.board_terrain)
        self.terrain: list[tuple[str, bool, list[int]]] | None = None
        # per power with a territory, its outline (boardsvg.territory_lines)
        self.territory: list[Any] | None = None
        # an off-map box's links to its neighbours (boardsvg.box_links)
        self.box_links: list[Any] | None = None


# entries of a per-map memo of the adjudication's searches before it is emptied (room)
MEMO_LIMIT = 200_000


def room(cache: dict, bound: int) -> dict:
    """`cache`, emptied first when it holds `bound` entries or more (the caller adds one)."""
    if len(cache) >= bound:
        cache.clear()
    return cache
