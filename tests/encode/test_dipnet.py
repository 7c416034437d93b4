"""DipNet's board (81 x 35) and previous orders (81 x 40), on positions worked out by hand.

Each expected feature is read off the position in the test: who stands where, which centers
each power owns, which coast a fleet is on (Paquette et al. 2019, section 4.1 and figure 2;
docs/encoding.md gives each feature's source)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from polydip.encode.dipnet import BOARD_FEATURES, LOCS, ORDER_FEATURES, dipnet_encoder
from polydip.encode.vocab import vocabulary
from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.state import Dislodged, Phase, Position, Unit


@pytest.fixture(scope="module")
def fg() -> FastGame:
    return FastGame.new("standard")


def features(arr: np.ndarray, loc: str, names: tuple[str, ...]) -> set[str]:
    """The features set at a location (by DipNet's location name)."""
    return {names[j] for j in np.nonzero(arr[LOCS.index(loc)])[0]}


def unit(fg: FastGame, power: str, text: str) -> Unit:
    m = fg.m
    kind, place = text.split()
    return Unit(m.power_of(power), m.kind_index[kind], m.loc_of(place))


def test_the_shape_and_the_feature_counts_are_dipnets(fg: FastGame) -> None:
    board = dipnet_encoder(fg.m).board(fg.position)
    assert board.shape == (81, 35) and board.dtype == np.float32
    assert len(LOCS) == 81 and len(set(LOCS)) == 81
    assert len(BOARD_FEATURES) == 35 and len(ORDER_FEATURES) == 40
    # DipNet's order: Yorkshire first, the coasts of Bulgaria last
    assert LOCS[:3] == ("YOR", "EDI", "LON") and LOCS[-2:] == ("CON", "BUL/SC")


def test_the_standard_start(fg: FastGame) -> None:
    b = dipnet_encoder(fg.m).board(fg.position)
    none = {"dislodged_none", "dislodged_power_none"}
    # Paris: a French army, inland, a French center
    assert features(b, "PAR", BOARD_FEATURES) == {"unit_A", "unit_FRA", "land",
                                                  "center_FRA"} | none
    # Brest: a French fleet on a coastal province
    assert features(b, "BRE", BOARD_FEATURES) == {"unit_F", "unit_FRA", "coast",
                                                  "center_FRA"} | none
    # St Petersburg's fleet is on the south coast: the coast and the province show it, the
    # north coast is empty; all three rows carry Russia's center
    for loc in ("STP/SC", "STP"):
        assert features(b, loc, BOARD_FEATURES) == {"unit_F", "unit_RUS", "coast",
                                                    "center_RUS"} | none
    assert features(b, "STP/NC", BOARD_FEATURES) == {"unit_none", "unit_power_none", "coast",
                                                     "center_RUS"} | none
    # Burgundy: nobody, land, no center (no center feature at all); the North Sea is water
    assert features(b, "BUR", BOARD_FEATURES) == {"unit_none", "unit_power_none",
                                                  "land"} | none
    assert features(b, "NTH", BOARD_FEATURES) == {"unit_none", "unit_power_none",
                                                  "water"} | none
    # Belgium: a neutral center, nobody's
    assert features(b, "BEL", BOARD_FEATURES) == {"unit_none", "unit_power_none", "coast",
                                                  "center_none"} | none
    # 13 armies (two a power, England one), 9 fleets (England two, the others one; Russia
    # two, St Petersburg's counted on its coast and on the province)
    assert b[:, BOARD_FEATURES.index("unit_A")].sum() == 13
    assert b[:, BOARD_FEATURES.index("unit_F")].sum() == 9 + 1
    assert b[:, BOARD_FEATURES.index("buildable")].sum() == 0
    assert b[:, BOARD_FEATURES.index("removable")].sum() == 0


def test_a_dislodged_fleet_on_a_coast(fg: FastGame) -> None:
    m = fg.m
    base = fg.position
    italy, spa_sc = m.power_of("Italy"), m.loc_of("SPA/SC")
    units = [u for u in base.units if m.unit_str(u.kind, u.loc) != "A MAR"]
    units.append(unit(fg, "France", "A SPA"))
    pos = Position(Phase(1901, "F", "R"), units, list(base.owners),
                   [Dislodged(italy, m.kind_index["F"], spa_sc, attacker=m.loc_of("MAR"),
                              retreats=(m.loc_of("WES"),))])
    b = dipnet_encoder(m).board(pos)
    for loc in ("SPA/SC", "SPA"):
        got = features(b, loc, BOARD_FEATURES)
        assert {"dislodged_F", "dislodged_ITA"} <= got
        assert not {"dislodged_none", "dislodged_power_none", "dislodged_A"} & got
    # the French army now in Spain shows on the province row, not on the coasts
    assert {"unit_A", "unit_FRA"} <= features(b, "SPA", BOARD_FEATURES)
    got = features(b, "SPA/NC", BOARD_FEATURES)
    assert {"unit_none", "dislodged_none", "dislodged_power_none"} <= got
    assert features(b, "MAR", BOARD_FEATURES) >= {"unit_none", "unit_power_none"}
    assert b[:, BOARD_FEATURES.index("dislodged_F")].sum() == 2


def test_a_build_phase_marks_buildable_sites_and_removable_units(fg: FastGame) -> None:
    m = fg.m
    base = fg.position
    owners = list(base.owners)
    owners[m.loc_of("SPA")] = m.power_of("France")  # France: 4 centers, 3 units -> 1 build
    owners[m.loc_of("NAP")] = m.power_of("Austria")  # Italy: 2 centers, 3 units -> 1 removal
    moved = {"A PAR": "A PIC", "F STP/SC": "F BOT", "F NAP": "F ION"}
    units = []
    for u in base.units:
        text = m.unit_str(u.kind, u.loc)
        units.append(unit(fg, m.powers[u.power], moved[text]) if text in moved else u)
    # (Austria: 4 centers, 3 units -> 1 build; Russia: 4 centers, 4 units, St Petersburg empty)
    pos = Position(Phase(1901, "W", "A"), units, owners)
    b = dipnet_encoder(m).board(pos)
    buildable = {LOCS[i] for i in np.nonzero(b[:, BOARD_FEATURES.index("buildable")])[0]}
    # France may build only in Paris (Brest and Marseilles are occupied); Austria in none of
    # its homes (all occupied); Russia builds nothing (no build due), though St Petersburg
    # is empty
    assert buildable == {"PAR"}
    removable = {LOCS[i] for i in np.nonzero(b[:, BOARD_FEATURES.index("removable")])[0]}
    assert removable == {"ION", "ROM", "VEN"}  # Italy's three units
    # Naples is now Austria's, Spain France's
    assert "center_AUS" in features(b, "NAP", BOARD_FEATURES)
    assert {"center_FRA"} <= features(b, "SPA/NC", BOARD_FEATURES)


def test_a_vacant_coastal_home_is_buildable_on_each_coast(fg: FastGame) -> None:
    m = fg.m
    base = fg.position
    owners = list(base.owners)
    owners[m.loc_of("NWY")] = m.power_of("Russia")  # Russia: 5 centers, 4 units -> 1 build
    units = [unit(fg, "Russia", "F NWY") if m.unit_str(u.kind, u.loc) == "F STP/SC" else u
             for u in base.units]
    b = dipnet_encoder(m).board(Position(Phase(1901, "W", "A"), units, owners))
    buildable = {LOCS[i] for i in np.nonzero(b[:, BOARD_FEATURES.index("buildable")])[0]}
    assert buildable == {"STP", "STP/NC", "STP/SC"}


def codes_of(fg: FastGame, pos: Position, orders: dict[str, str]) -> list[int]:
    """One code per unit of `pos` from a unit -> order mapping written in the package's
    notation (units without an order: -1)."""
    t, m = fg.table, fg.m
    by_text = {}
    for c in range(t.support_move + len(t.sm_items)):
        by_text[t.texts[c]] = c
    out = []
    for u in pos.units:
        text = orders.get(m.unit_str(u.kind, u.loc))
        if text is None:
            out.append(-1)
            continue
        s = t.slot(u.kind, u.loc)
        words = text.split()
        if words[2] == "C":
            a = t.slot(m.kind_index["A"], m.loc_of(words[4]))
            out.append(t.convoy_code(s, a, m.loc_of(words[6])))
        else:
            out.append(by_text[text])
    return out


def test_previous_orders_at_the_start(fg: FastGame) -> None:
    pos = fg.position
    orders = {
        "A PAR": "A PAR - BUR", "A MAR": "A MAR S A PAR - BUR", "F BRE": "F BRE H",
        "A VIE": "A VIE S A BUD", "F STP/SC": "F STP/SC - BOT",
        "A MUN": "A MUN S F KIE - BER", "F ANK": "F ANK S A SMY - CON",
    }
    o = dipnet_encoder(fg.m).prev_orders(pos, codes_of(fg, pos, orders))
    assert o.shape == (81, 40) and o.dtype == np.float32
    centers = {"PAR": "FRA", "MAR": "FRA", "BRE": "FRA", "VIE": "AUS", "STP": "RUS",
               "MUN": "GER", "ANK": "TUR", "STP/SC": "RUS", "STP/NC": "RUS", "BUD": "AUS"}

    def got(loc: str) -> set[str]:
        return features(o, loc, ORDER_FEATURES) - {f"center_{centers[loc]}"}

    # a move into an empty province that is no center: no destination power
    assert got("PAR") == {"unit_A", "issuer_FRA", "move", "source_none", "destination_none"}
    # a support of a French move: the source is France's (Paris has a French army)
    assert got("MAR") == {"unit_A", "issuer_FRA", "support", "source_FRA", "destination_none"}
    assert got("BRE") == {"unit_F", "issuer_FRA", "hold", "source_none", "destination_none"}
    # a support to hold: the source is the supported unit's power
    assert got("VIE") == {"unit_A", "issuer_AUS", "support", "source_AUS", "destination_none"}
    # a support into a province a German army holds: destination Germany
    assert got("MUN") == {"unit_A", "issuer_GER", "support", "source_GER", "destination_GER"}
    assert got("ANK") == {"unit_F", "issuer_TUR", "support", "source_TUR", "destination_TUR"}
    # the fleet on the south coast: the coast and the province, not the north coast
    for loc in ("STP/SC", "STP"):
        assert got(loc) == {"unit_F", "issuer_RUS", "move", "source_none", "destination_none"}
    assert got("STP/NC") == {"unit_none", "issuer_none", "order_none", "source_none",
                             "destination_none"}
    # Budapest's army was given no order: nothing but its center
    assert got("BUD") == {"unit_none", "issuer_none", "order_none", "source_none",
                          "destination_none"}
    assert "center_none" in features(o, "BEL", ORDER_FEATURES)
    assert not {f for f in features(o, "BUR", ORDER_FEATURES) if f.startswith("center")}


def test_orders_written_in_the_packages_notation(fg: FastGame) -> None:
    """Orders as a dataset of the diplomacy package holds them, to codes and the encoding."""
    pos = fg.position
    texts = ["A PAR - BUR", "A MAR S A PAR - BUR", "F STP/SC - BOT", "F ANK S A SMY - CON"]
    v = vocabulary(fg.m)
    codes = v.unit_codes(pos, texts)
    assert sorted(fg.table.texts[c] for c in codes if c >= 0) == sorted(texts)
    assert codes == codes_of(fg, pos, {t.split(" S ")[0].split(" - ")[0]: t for t in texts})
    enc = dipnet_encoder(fg.m)
    assert (enc.prev_orders(pos, codes) == enc.prev_orders(
        pos, codes_of(fg, pos, {"A PAR": "A PAR - BUR", "A MAR": "A MAR S A PAR - BUR",
                                "F STP/SC": "F STP/SC - BOT",
                                "F ANK": "F ANK S A SMY - CON"}))).all()
    with pytest.raises(PolydipError, match="not in the order vocabulary"):
        v.unit_codes(pos, ["A PAR - MOS"])
    with pytest.raises(PolydipError, match="no unit of the position left"):
        v.unit_codes(pos, ["A BUR - PAR"])
    with pytest.raises(PolydipError, match="no unit of the position left"):
        v.unit_codes(pos, ["A PAR - BUR", "A PAR H"])


def test_previous_orders_a_convoy(fg: FastGame) -> None:
    m = fg.m
    pos = Position(Phase(1902, "S", "M"),
                   [unit(fg, "England", "A YOR"), unit(fg, "England", "F NTH"),
                    unit(fg, "Russia", "A NWY")], list(fg.position.owners))
    orders = {"A YOR": "A YOR - NWY VIA", "F NTH": "F NTH C A YOR - NWY"}
    t = fg.table
    codes = [t.via_code(t.slot(0, m.loc_of("YOR")), m.loc_of("NWY")),
             t.convoy_code(t.slot(1, m.loc_of("NTH")), t.slot(0, m.loc_of("YOR")),
                           m.loc_of("NWY")), -1]
    assert [t.texts[c] for c in codes[:2]] == [orders["A YOR"], orders["F NTH"]]
    o = dipnet_encoder(m).prev_orders(pos, codes)
    # the move by convoy is a move; its destination holds a Russian army
    assert features(o, "YOR", ORDER_FEATURES) == {"unit_A", "issuer_ENG", "move",
                                                  "source_none", "destination_RUS"}
    assert features(o, "NTH", ORDER_FEATURES) == {"unit_F", "issuer_ENG", "convoy",
                                                  "source_ENG", "destination_RUS"}


def test_bad_input_is_refused_with_a_clear_error(fg: FastGame) -> None:
    enc = dipnet_encoder(fg.m)
    pos = fg.position
    with pytest.raises(PolydipError, match="3 order codes for 22 units"):
        enc.prev_orders(pos, [0, 0, 0])
    with pytest.raises(PolydipError, match="not in this map's table"):
        enc.prev_orders(pos, [10**9] * len(pos.units))
    with pytest.raises(PolydipError, match="not an order of a movement phase"):
        enc.prev_orders(pos, [fg.table.disband] + [-1] * (len(pos.units) - 1))
    with pytest.raises(PolydipError, match="not an order of the unit A BUD"):
        enc.prev_orders(pos, [fg.table.hold + 5] + [-1] * (len(pos.units) - 1))
    retreats = Position(Phase(1901, "F", "R"), pos.units, pos.owners)
    with pytest.raises(PolydipError, match="not one"):
        enc.prev_orders(retreats, [-1] * len(pos.units))
    with pytest.raises(PolydipError, match="standard map only"):
        dipnet_encoder(FastGame.new("wita").m)


def test_dipnets_adjacency_in_its_row_order(fg: FastGame) -> None:
    adj = dipnet_encoder(fg.m).adjacency()
    assert adj.shape == (81, 81) and adj.dtype == np.uint8 and (adj == adj.T).all()

    def a(x: str, y: str) -> int:
        return int(adj[LOCS.index(x), LOCS.index(y)])

    assert a("YOR", "EDI") == 1 and a("PAR", "BUR") == 1 and a("PAR", "MUN") == 0
    assert a("STP/NC", "STP") == 1 and a("STP/SC", "BOT") == 1 and a("STP/NC", "BOT") == 0
    assert a("NTH", "NTH") == 0


def test_random_games_against_the_packages_map() -> None:
    """DipNet's board of random standard games, against features worked out here from the
    units as the `diplomacy` package writes them ("F STP/SC") and its map's area types and
    centers: [R]'s rules applied to another source of the same facts."""
    dip = pytest.importorskip("diplomacy")

    dm = dip.Map()
    fg = FastGame.new("standard")
    m = fg.m
    enc = dipnet_encoder(m)
    rng = random.Random(5)
    col = {f: i for i, f in enumerate(BOARD_FEATURES)}
    area = {"LAND": "land", "WATER": "water", "COAST": "coast"}
    for _ in range(25):
        pos = fg.position
        want = np.zeros((81, 35), dtype=np.float32)
        for i, loc in enumerate(LOCS):
            want[i, col[area[dm.area_type(loc)]]] = 1
        for group, units in (("unit", pos.units), ("dislodged", pos.dislodged)):
            for u in units:
                kind, place = m.unit_str(u.kind, u.loc).split()
                power = m.powers[u.power].upper()[:3]
                for loc in {place, place[:3]}:
                    want[LOCS.index(loc), col[f"{group}_{kind}"]] = 1
                    want[LOCS.index(loc), col[f"{group}_{power}"]] = 1
        for group, none, power_none in (("unit", "unit_none", "unit_power_none"),
                                        ("dislodged", "dislodged_none",
                                         "dislodged_power_none")):
            empty = want[:, [col[f"{group}_A"], col[f"{group}_F"]]].sum(axis=1) == 0
            want[empty, col[none]] = 1
            want[empty, col[power_none]] = 1
        for sc in dm.scs:
            owner = pos.owners[m.loc_of(sc)]
            name = "center_none" if owner < 0 else f"center_{m.powers[owner].upper()[:3]}"
            for i, loc in enumerate(LOCS):
                if loc[:3] == sc:
                    want[i, col[name]] = 1
        got = enc.board(pos)
        # (build and removal flags apart: the package's map has no position to read them)
        got[:, [col["buildable"], col["removable"]]] = 0
        assert (got == want).all(), (pos.phase, [
            (LOCS[i], BOARD_FEATURES[j]) for i, j in zip(*np.nonzero(got != want), strict=True)])
        fg.step([rng.choice(c) if c else -1 for c in fg.legal()])
