"""The encoding generalised to any variant (polydip/encode/board.py) and the map as a graph
(polydip/encode/graph.py), on positions worked out by hand: a stacked ocean and a river
flotilla in Latin American Diplomacy, neutral units and Cape Horn in War in North America."""

from __future__ import annotations

import random

import numpy as np
import pytest

from polydip.encode.board import BoardEncoder, board_encoder
from polydip.encode.dipnet import LOCS, dipnet_encoder
from polydip.encode.graph import adjacency, edge_index, edge_types
from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.geography.map import Map
from polydip.state import Phase, Position, Unit


def game(variant: str) -> FastGame:
    return FastGame.new(variant)


def unit(m: Map, power: str, text: str) -> Unit:
    kind, place = text.split()
    return Unit(m.power_of(power), m.kind_index[kind], m.loc_of(place))


def on(enc: BoardEncoder, arr: np.ndarray, place: str) -> set[str]:
    return {enc.features[j] for j in np.nonzero(arr[enc.m.loc_of(place)])[0]}


def test_the_standard_start_in_the_general_planes() -> None:
    fg = game("standard")
    enc = board_encoder(fg.m)
    b = enc.board(fg.position)
    assert b.shape == (81, len(enc.features)) and b.dtype == np.float32
    assert {"unit_army", "unit_france", "land", "terrain_land", "center", "center_france",
            "home_france", "may_stand_army"} <= on(enc, b, "PAR")
    assert b[fg.m.loc_of("PAR"), enc.col["units"]] == 1
    # the fleet on St Petersburg's south coast: its coast row and the province's
    for place in ("STP/SC", "STP"):
        assert {"unit_fleet", "unit_russia", "home_russia"} <= on(enc, b, place)
    assert {"unit_none", "coast_location", "may_stand_fleet"} <= on(enc, b, "STP/NC")
    assert "may_stand_army" not in on(enc, b, "STP/NC")
    assert {"water", "terrain_sea", "unit_none"} <= on(enc, b, "NTH")
    # no rule planes on the standard map, no neutral powers
    assert not [f for f in enc.features if f.startswith(("canal", "anchor", "unit_neutral"))]
    assert enc.phase(fg.position).tolist() == [1, 0, 0, 1, 0, 0, 0]  # M, spring, 1901


def test_a_stacked_ocean_and_a_river_flotilla() -> None:
    m = game("lad1890").m
    enc = board_encoder(m)
    units = [unit(m, "Brazil", "F MAO"), unit(m, "Argentina", "F MAO"),
             unit(m, "Argentina", "F MAO"), unit(m, "Brazil", "R NOR")]
    pos = Position(Phase(1891, "A", "M"), units, [-1] * m.n_prov)
    b = enc.board(pos)
    mao = on(enc, b, "MAO")
    # three fleets of two powers share the ocean: both powers marked, and the count
    assert {"unit_fleet", "unit_brazil", "unit_argentina", "open_space", "attack_space",
            "terrain_ocean", "water"} <= mao
    assert "unit_none" not in mao and "unit_river_flotilla" not in mao
    assert b[m.loc_of("MAO"), enc.col["units"]] == 3
    nor = on(enc, b, "NOR")
    assert {"unit_river_flotilla", "unit_brazil", "terrain_river_land",
            "may_stand_river_flotilla", "may_stand_army"} <= nor
    assert b[m.loc_of("NOR"), enc.col["units"]] == 1
    assert b[:, enc.col["units"]].sum() == 4


def test_canal_progress_and_anchor_markers_are_planes() -> None:
    m = game("lad1890").m
    enc = board_encoder(m)
    pan = [m.loc_of(p) for p in ("PAN", "PAN/NC", "PAN/SC")]
    pos = Position(Phase(1891, "A", "M"), [], [-1] * m.n_prov,
                   extra={"canals": {"PAN": 2}, "anchors": {"GUY/RB": 1}})
    b = enc.board(pos)
    # two of Panama's four builds spent, on each row of the province; not open
    assert b[pan, enc.col["canal_progress"]].tolist() == [0.5, 0.5, 0.5]
    assert b[:, enc.col["canal_progress"]].sum() == 1.5
    assert b[:, enc.col["canal_open"]].sum() == 0
    assert b[m.loc_of("GUY/RB"), enc.col["anchor_markers"]] == 1
    # complete in 1891, the canal is open from 1892
    done = {"canals": {"PAN": 4, "open": {"PAN": 1892}}}
    closed = enc.board(Position(Phase(1891, "D", "A"), [], [-1] * m.n_prov, extra=done))
    opened = enc.board(Position(Phase(1892, "A", "M"), [], [-1] * m.n_prov, extra=done))
    assert closed[pan, enc.col["canal_open"]].tolist() == [0, 0, 0]
    assert opened[pan, enc.col["canal_open"]].tolist() == [1, 1, 1]
    assert opened[pan, enc.col["canal_progress"]].tolist() == [1, 1, 1]


def test_neutral_units_home_centers_and_cape_horn() -> None:
    fg = game("war_in_north_america")
    m = fg.m
    enc = board_encoder(m)
    b = enc.board(fg.position)
    # Russia is a neutral power in War in North America: its army in Alaska
    assert {"unit_army", "unit_russia", "unit_neutral", "center_russia"} <= on(enc, b, "ALA")
    # New York City: a home of the United States whose center the (neutral) Rebels hold at
    # the start, with no unit there; Philadelphia a home the United States owns
    assert {"home_united_states", "center", "center_rebels", "unit_none"} <= on(enc, b, "NYC")
    assert {"home_united_states", "center_united_states"} <= on(enc, b, "PHI")
    stacked = Position(fg.position.phase, [unit(m, "Britain", "F CHO"),
                                           unit(m, "Spain", "F CHO")], fg.position.owners)
    b = enc.board(stacked)
    assert {"open_space", "unit_britain", "unit_spain", "unit_neutral"} <= on(enc, b, "CHO")
    assert b[m.loc_of("CHO"), enc.col["units"]] == 2


def test_the_general_orders_read_like_dipnets() -> None:
    fg = game("standard")
    m, t = fg.m, fg.table
    enc = board_encoder(m)
    pos = fg.position
    par, mar = t.slot(0, m.loc_of("PAR")), t.slot(0, m.loc_of("MAR"))
    codes = [-1] * len(pos.units)
    for i, u in enumerate(pos.units):
        if u.loc == m.loc_of("MAR"):
            codes[i] = t.support_code(mar, par, m.loc_of("BUR"))
    o = enc.orders(pos, codes)
    got = {enc.order_features[j] for j in np.nonzero(o[m.loc_of("MAR")])[0]}
    assert got == {"unit_army", "issuer_france", "support", "source_france",
                   "destination_none"}
    d = dipnet_encoder(m).prev_orders(pos, codes)
    assert d[LOCS.index("MAR")].sum() == o[m.loc_of("MAR")].sum() + 1  # (+ center owner)
    with pytest.raises(PolydipError, match="not one"):
        enc.orders(Position(Phase(1901, "W", "A"), pos.units, pos.owners), codes)


def test_the_map_as_a_graph() -> None:
    m = game("standard").m
    a, f = m.kind_index["A"], m.kind_index["F"]
    armies = edge_index(m, "A")
    assert armies.shape[0] == 2 and armies.dtype == np.int64
    pairs = set(zip(*armies.tolist(), strict=True))
    assert (m.loc_of("PAR"), m.loc_of("BUR")) in pairs
    assert (m.loc_of("BUR"), m.loc_of("PAR")) in pairs
    assert not any(m.loc_of("NTH") in p for p in pairs)
    fleets = set(zip(*edge_index(m, f).tolist(), strict=True))
    assert (m.loc_of("STP/SC"), m.loc_of("BOT")) in fleets
    assert (m.loc_of("STP/NC"), m.loc_of("BOT")) not in fleets
    adj = adjacency(m)
    assert adj.shape == (81, 81) and adj.dtype == np.uint8
    assert adj[m.loc_of("STP/NC"), m.loc_of("STP")] == 1  # a coast and its province
    assert adjacency(m, [a], coasts=False)[m.loc_of("STP/NC"), m.loc_of("STP")] == 0
    assert (adj == adj.T).all()
    e, kinds, names = edge_types(m)
    assert e.shape[1] == kinds.shape[0] and set(names) >= {"land", "sea"}
    with pytest.raises(PolydipError, match="unknown unit kind 'R'"):
        edge_index(m, "R")


def test_lad_graph_has_one_edge_list_per_kind_and_typed_edges() -> None:
    m = game("lad1890").m
    river = m.kind_index["R"]
    flotillas = edge_index(m, river)
    assert flotillas.shape[1] > 0
    e, kinds, names = edge_types(m)
    assert "river" in names and "canal" in names
    canal = names.index("canal")
    canal_places = {m.loc_name[x] for x in e[:, kinds == canal].ravel()}
    assert "PAN/NC" in canal_places and "PAN/SC" in canal_places


@pytest.mark.parametrize("variant", ["standard", "lad1890", "war_in_north_america", "wita",
                                     "twentieth_century"])
def test_random_games_keep_the_planes_consistent(variant: str) -> None:
    """Along a random game: one area type per row; a row shows no unit exactly when it
    counts none; the unit count is the units on the row (a coast's unit counted on its
    province's row too); the orders mark one row per order given (two on a coast)."""
    fg = game(variant)
    m = fg.m
    enc = board_encoder(m)
    rng = random.Random(7)
    area = [enc.col[a] for a in ("land", "water", "coast", "impassable")]
    for _ in range(12):
        pos = fg.position
        b = enc.board(pos)
        assert (b[:, area].sum(axis=1) == 1).all()
        count = b[:, enc.col["units"]]
        assert ((count == 0) == (b[:, enc.col["unit_none"]] == 1)).all()
        assert count.sum() == sum(len(enc.marks[u.loc]) for u in pos.units)
        legal = fg.legal()
        codes = [rng.choice(c) if c else -1 for c in legal]
        if pos.phase.type == "M":
            o = enc.orders(pos, codes)
            given = [i for i, c in enumerate(codes) if c >= 0]
            marked = sum(len(enc.marks[fg.table.orders[codes[i]].loc]) for i in given)
            # (several orders on one open space share its row)
            assert (o[:, enc.order_col["order_none"]] == 0).sum() <= marked
            assert (o[:, enc.order_col["order_none"]] == 0).sum() >= min(1, marked)
        fg.step(codes)


def test_a_position_of_another_map_is_refused() -> None:
    std, wita = game("standard"), game("wita")
    with pytest.raises(PolydipError, match="another map"):
        board_encoder(std.m).board(wita.position)
    with pytest.raises(PolydipError, match="another map"):
        dipnet_encoder(std.m).board(wita.position)
    bad = Position(std.position.phase, [Unit(0, 0, 500)], std.position.owners)
    with pytest.raises(PolydipError, match="not one of standard's"):
        board_encoder(std.m).board(bad)
    with pytest.raises(PolydipError, match="not one of standard's"):
        dipnet_encoder(std.m).prev_orders(bad, [-1])
