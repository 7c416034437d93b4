"""The caches kept on a Map (geography/cache.py): typed fields, bounded where they grow, gone
with the map; and no table of maps outlives their variants."""

from __future__ import annotations

import copy
import gc
import pickle

from polydip.adjudication.legality import move_target
from polydip.compile import compile_map
from polydip.game.game import Game
from polydip.geography.cache import LAYOUTS, MapCaches, room
from polydip.geography.map import Map
from polydip.render.svg import map_geo
from polydip.state import unit_cache, unit_index
from polydip.variants.loader import load_variant


def live_maps() -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if type(o) is Map)


def test_a_map_goes_with_its_variant() -> None:
    """compile_map, the unit cache and the unit index keep nothing of a map once its variant
    is dropped (they used to keep every map in tables keyed by id)."""
    standard = load_variant("standard")
    units = Game.new("standard").position.units  # (the standard map: compiled once, kept)
    before = live_maps()
    for _ in range(5):
        v = copy.copy(standard)  # a variant object of its own, as a host's upload is
        m = compile_map(v)
        assert compile_map(v) is m  # compiled once per variant
        unit_cache(m).unit(0, 0, 0)
        unit_index(m, units)
        del v, m
    assert live_maps() <= before


def test_a_variant_pickles_without_its_map() -> None:
    v = copy.copy(load_variant("standard"))
    m = compile_map(v)
    again = pickle.loads(pickle.dumps(v))
    assert again == v and again.compiled is None
    assert pickle.loads(pickle.dumps(m)).variant == v  # a map pickles as its variant


def test_a_copied_variant_is_compiled_afresh() -> None:
    v = copy.copy(load_variant("standard"))
    m = compile_map(v)
    assert compile_map(copy.copy(v)) is not m


def test_layouts_are_kept_per_width_and_bounded() -> None:
    m = compile_map(copy.copy(load_variant("standard")))
    first = map_geo(m, None, 800)
    assert map_geo(m, None, 800) is first and list(m.caches.layouts) == [("schematic", 800)]
    for w in range(1, LAYOUTS):  # (stand-ins for layouts of other widths)
        m.caches.layouts["schematic", 800 + w] = first
    map_geo(m, None, 400)  # one width more than it keeps: it starts afresh
    assert list(m.caches.layouts) == [("schematic", 400)]


def test_room_empties_a_full_cache() -> None:
    d = {1: 1, 2: 2}
    assert room(d, 3) == {1: 1, 2: 2}
    assert room(d, 2) == {} and d == {}


def test_clear_empties_every_cache() -> None:
    m = compile_map(copy.copy(load_variant("standard")))
    move_target(m, 0, m.loc_index["PAR"], m.prov_index["BUR"])
    unit_cache(m)
    assert m.caches.move_target and m.caches.units is not None
    m.caches.clear()
    assert vars_of(m.caches) == vars_of(MapCaches())


def vars_of(c: MapCaches) -> dict:
    return {k: getattr(c, k) for k in dir(c) if not k.startswith("_")
            and not callable(getattr(c, k))}
