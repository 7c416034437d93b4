"""Geography modules on a small map (tests/variants/geo.toml); each test quotes its rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from polydip.check import check_variant
from polydip.oneshot import adjudicate_request
from polydip.variants.loader import load_variant

GEO = str(Path(__file__).parents[1] / "variants" / "geo.toml")


def adjudicate(**req):
    out = adjudicate_request({"variant": GEO, **req})
    assert "error" not in out, out
    return out


def test_the_test_map_passes_the_checker() -> None:
    assert check_variant(load_variant(GEO)) == []


def test_a_canal_province_lets_fleets_through_like_kiel() -> None:
    """Seed 000: canals and waterways "all act like Kiel in Standard"."""
    out = adjudicate(units={"Red": ["F W"]}, orders={"Red": ["F W - CAN"]})
    assert out["units"] == {"Red": ["F CAN"]}
    out = adjudicate(units={"Red": ["F CAN"]}, orders={"Red": ["F CAN - E"]})
    assert out["units"] == {"Red": ["F E"]}
    out = adjudicate(units={"Red": ["A CAN"]}, orders={"Red": ["A CAN - XLD"]})
    assert out["units"] == {"Red": ["A XLD"]}  # armies walk through the canal province


def test_fleets_follow_a_navigable_river_through_land_provinces() -> None:
    """Seed 000: the Mississippi-Missouri "allows the passage of fleets from the Gulf of
    Mexico to the Western Great Lakes, passing through the provinces of New Orleans,
    Mississippi, ..." — a fleet moves along the river one province per move."""
    out = adjudicate(units={"Red": ["F E"]}, orders={"Red": ["F E - RV1"]})
    assert out["units"] == {"Red": ["F RV1"]}
    out = adjudicate(units={"Red": ["F RV1"]}, orders={"Red": ["F RV1 - RV2"]})
    assert out["units"] == {"Red": ["F RV2"]}
    # a river province is no sea: a fleet on the river cannot convoy
    out = adjudicate(units={"Red": ["F RV1", "A XLD"]},
                     orders={"Red": ["A XLD - RV2", "F RV1 C A XLD - RV2"]})
    assert out["results"]["F RV1 C A XLD - RV2"] == ["void"]


def test_a_land_bridge_carries_armies_and_fleets() -> None:
    """Seed 003: "Armies and Fleets may move from one province to the other connected by
    the land bridge."; seed 004: "Ein Platzwechsel mit der jeweils gegenüber liegenden
    Einheit ist nicht möglich" (no swapping with the unit opposite)."""
    assert adjudicate(units={"Red": ["A XLD"]}, orders={"Red": ["A XLD - ISL"]})[
        "units"] == {"Red": ["A ISL"]}
    assert adjudicate(units={"Red": ["F XLD"]}, orders={"Red": ["F XLD - ISL"]})[
        "units"] == {"Red": ["F ISL"]}
    out = adjudicate(units={"Red": ["A XLD"], "Blue": ["A ISL"]},
                     orders={"Red": ["A XLD - ISL"], "Blue": ["A ISL - XLD"]})
    assert out["units"] == {"Red": ["A XLD"], "Blue": ["A ISL"]}  # no swap


def test_impassable_spaces_cannot_be_entered() -> None:
    """Seed 002: "The Sahara Desert and Pripet Marshes are impassable and may not be moved
    into or through by any units."; seed 004: "Die Gebiete Arctic Ocean, Greenland und South
    America können nicht betreten werden."."""
    out = adjudicate(units={"Red": ["A XLD"]}, orders={"Red": ["A XLD - MTN"]})
    assert out["results"] == {"A XLD - MTN": ["void"]}
    out = adjudicate_request({"variant": GEO, "units": {"Red": ["A MTN"]}})
    assert "cannot stand" in out["error"]


def test_points_that_touch_are_not_adjacent() -> None:
    """Seed 002: "Spaces that meet only at a point ... are not adjacent to one another, as
    they do not share a common border." — no edge, no move."""
    out = adjudicate(units={"Red": ["F IS2"]}, orders={"Red": ["F IS2 - CAN"]})
    assert out["results"] == {"F IS2 - CAN": ["void"]}


def test_an_island_without_land_borders_is_reached_by_convoy() -> None:
    """Seed 002: "An island or island group is a single territory surrounded entirely by one
    or more sea zones."."""
    out = adjudicate(units={"Red": ["A XLD", "F W"]},
                     orders={"Red": ["A XLD - IS2", "F W C A XLD - IS2"]})
    assert "A IS2" in out["units"]["Red"]
    # with no fleet that could carry it the move is illegal (DATC 6.D.32)
    out = adjudicate(units={"Red": ["A XLD"]}, orders={"Red": ["A XLD - IS2"]})
    assert out["results"] == {"A XLD - IS2": ["void"]}


def test_fleets_in_an_island_box_cannot_convoy() -> None:
    """Issue 3: "island boxes whose fleets cannot convoy"."""
    out = adjudicate(units={"Red": ["A XLD", "F BOX"]},
                     orders={"Red": ["A XLD - ISL VIA", "F BOX C A XLD - ISL"]})
    assert out["results"]["F BOX C A XLD - ISL"] == ["void"]


def test_wraparound_seas_are_just_edges() -> None:
    """Seed 003: wraparound sea zones "connect both ends of the map. A Fleet may move or
    convoy from one side of the map to the other"."""
    out = adjudicate(units={"Red": ["F W"]}, orders={"Red": ["F W - E"]})
    assert out["units"] == {"Red": ["F E"]}


@pytest.mark.parametrize(("order", "where"), [
    ("F DUO/NC - W", "F W"),
    ("F DUO - W", "F W"),  # one coast can reach W: the coast may be left out (DATC 4.B.2)
])
def test_a_two_coast_province_moves_from_its_coast(order: str, where: str) -> None:
    out = adjudicate(units={"Blue": ["F DUO/NC"]}, orders={"Blue": [order]})
    assert out["units"] == {"Blue": [where]}


def test_a_fleet_on_one_coast_cannot_reach_the_other_coasts_seas() -> None:
    out = adjudicate(units={"Blue": ["F DUO/NC"]}, orders={"Blue": ["F DUO - BOX"]})
    assert out["results"] == {"F DUO/NC - BOX": ["void"]}


def test_no_swap_across_a_land_bridge_even_by_convoy(tmp_path) -> None:
    """Seed 004: "Ein Platzwechsel mit der jeweils gegenüber liegenden Einheit ist nicht
    möglich." (swapping places with the unit opposite is not possible) — by land the two
    units meet head to head anyway; [rules.no_swap] also stops a convoyed swap."""
    text = Path(GEO).read_text().replace('box = { occupy = ["F"], convoy = false }',
                                         'box = { occupy = ["F"] }')
    swap = {"units": {"Red": ["A XLD", "F BOX"], "Blue": ["A ISL"]},
            "orders": {"Red": ["A XLD - ISL VIA", "F BOX C A XLD - ISL"],
                       "Blue": ["A ISL - XLD"]}}
    plain = tmp_path / "plain.toml"
    plain.write_text(text)
    out = adjudicate_request({"variant": str(plain), **swap})
    assert out["units"] == {"Red": ["A ISL", "F BOX"], "Blue": ["A XLD"]}  # swapped
    bridge = tmp_path / "bridge.toml"
    bridge.write_text(text + '\n[rules.no_swap]\npairs = ["XLD-ISL"]\n')
    out = adjudicate_request({"variant": str(bridge), **swap})
    assert out["units"] == {"Red": ["A XLD", "F BOX"], "Blue": ["A ISL"]}  # they bounce


def test_a_provinces_coast_words_read_only_its_own_coasts() -> None:
    """Issue 27: `coast_aliases` names a coast in the rules text's words ("Build F Mexico
    City (Pacific)"); words for a coast the province does not have are refused at load."""
    from polydip.compile import compile_map
    from polydip.errors import VariantError
    from polydip.variants.loader import parse_variant

    data = Path(__file__).parents[2] / "src" / "polydip" / "variants" / "data"
    text = (data / "war_in_north_america.toml").read_text(encoding="utf-8")
    m = compile_map(parse_variant(text))
    mex = m.prov_index["MEX"]
    assert m.loc_name[m.coast_loc(mex, "Pacific")] == "MEX/WC"
    assert m.loc_name[m.coast_loc(mex, "(Atlantic coast)")] == "MEX/EC"
    bad = text.replace('coast_aliases = { EC = ["Atlantic", "Atlantic coast", "Gulf"',
                       'coast_aliases = { NC = ["Atlantic", "Atlantic coast", "Gulf"')
    assert bad != text
    with pytest.raises(VariantError, match=r"provinces\.MEX\.coast_aliases\.NC"):
        parse_variant(bad)
