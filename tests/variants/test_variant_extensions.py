"""Format features a variant may use: coast words of its own, centers worth more than one,
province tags, border markers no unit crosses, a power's starting territory, retreats in a
season of their own. Each is tested on a small map written here."""

from __future__ import annotations

import pytest

from polydip.check import check_variant
from polydip.compile import compile_map
from polydip.errors import VariantError
from polydip.oneshot import adjudicate_request
from polydip.orders.parser import parse_order
from polydip.variants.loader import load_variant, parse_variant
from polydip.variants.writer import variant_to_toml

# A river province RIV with two banks, a delta DEL with a sea coast and a river bank, a
# five-bank junction JUN, the sea SEA; Gold's capital CAP counts 2.
RIVERS = """
[variant]
name = "rivers"
supply_centers = 4

[edge_kinds]
land = { units = ["A"] }
sea = { units = ["F"] }
river = { units = [] }
mountain = { units = [] }

[coasts]
NB = { name = "north bank" }
SB = { name = "south bank" }
NWB = { name = "north-west bank" }
NEB = { name = "north-east bank" }
EB = { name = "east bank", aliases = ["levante"] }

[[powers]]
name = "Gold"
homes = ["CAP", "DEL"]
units = ["A CAP", "F DEL/SC"]
territory = ["CAP", "DEL", "RIV"]

[[powers]]
name = "Blue"
homes = ["JUN"]
units = ["A JUN"]

[provinces.CAP]
name = "Capital"
terrain = "land"
supply_center = "capital"
center_value = 2
tags = ["upland", "mountain"]

[provinces.RIV]
name = "River"
terrain = "land"
coasts = ["NB", "SB"]

[provinces.DEL]
name = "Delta"
terrain = "coast"
supply_center = "home"
coasts = { SC = "sea coast", RB = "river bank" }

[provinces.JUN]
name = "Junction"
terrain = "land"
supply_center = "home"
coasts = ["NWB", "NEB", "EB", "WC"]

[provinces.SEA]
name = "Sea"
terrain = "sea"

[edges]
land = ["CAP-RIV", "RIV-DEL", "RIV-JUN", "CAP-JUN"]
sea = ["SEA-DEL/SC"]
river = ["RIV/NB-DEL/RB", "RIV/SB-JUN/NWB", "JUN/NEB-DEL/RB", "JUN/EB-RIV/SB", "JUN/WC-RIV/NB"]
mountain = ["CAP-RIV", "CAP-JUN"]
"""


def rivers():
    return parse_variant(RIVERS, "rivers.toml")


def test_the_small_map_passes_the_checker() -> None:
    assert check_variant(rivers()) == []


@pytest.mark.parametrize(("prov", "typed", "coast"), [
    ("RIV", "nb", "NB"), ("RIV", "NB", "NB"), ("RIV", "n", "NB"), ("RIV", "north", "NB"),
    ("RIV", "north bank", "NB"), ("RIV", "(north bank)", "NB"), ("RIV", "[nb]", "NB"),
    ("RIV", "North Bank", "NB"), ("RIV", "north b", "NB"), ("RIV", "s", "SB"),
    ("DEL", "sc", "SC"), ("DEL", "sea coast", "SC"), ("DEL", "sec", "SC"), ("DEL", "s", "SC"),
    ("DEL", "rb", "RB"), ("DEL", "rib", "RB"), ("DEL", "river", "RB"), ("DEL", "[rib]", "RB"),
    ("JUN", "nwb", "NWB"), ("JUN", "north-west bank", "NWB"), ("JUN", "northwest bank", "NWB"),
    ("JUN", "nw", "NWB"), ("JUN", "ne", "NEB"), ("JUN", "eb", "EB"), ("JUN", "levante", "EB"),
    ("JUN", "e", "EB"), ("JUN", "west coast", "WC"), ("JUN", "wcs", "WC"),
])
def test_any_intelligible_designation_reads(prov: str, typed: str, coast: str) -> None:
    """Seed 001: "ANY DESIGNATION WHICH IS INTELLIGIBLE IS ACCEPTABLE" — the abbreviation,
    the name, an alias, or any shortening of the name's words in order."""
    m = compile_map(rivers())
    assert m.loc_name[m.coast_loc(m.prov_index[prov], typed)] == f"{prov}/{coast}"


@pytest.mark.parametrize(("prov", "typed"), [
    ("JUN", "n"),  # north-west or north-east bank?
    ("JUN", "nb"),  # no north bank here
    ("RIV", "bank"),  # not a shortening: it must start with the first word
    ("RIV", "sc"),
    ("DEL", "x"),
])
def test_an_unclear_designation_is_refused(prov: str, typed: str) -> None:
    m = compile_map(rivers())
    with pytest.raises(KeyError):
        m.coast_loc(m.prov_index[prov], typed)


@pytest.mark.parametrize("text", [
    "F Delta [sc] - Sea", "F Delta (sea coast) - Sea", "F Delta sc - Sea", "F DEL/SC - SEA",
    "F Delta/sea coast - Sea", "F Delta [sec] - Sea", "F Delta(sec) - Sea", "F Delta/sec - Sea",
])
def test_orders_read_coasts_in_brackets_slashes_or_bare(text: str) -> None:
    m = compile_map(rivers())
    assert parse_order(m, text).format(m) == "F DEL/SC - SEA"


def test_a_bare_word_that_only_shortens_a_coast_is_no_coast() -> None:
    """"s" after a province is the support keyword, even where it would shorten "sea coast"."""
    m = compile_map(rivers())
    assert parse_order(m, "F Delta sc S A Capital").format(m) == "F DEL/SC S A CAP"
    assert parse_order(m, "A River S A Capital").format(m) == "A RIV S A CAP"


def test_the_standard_coast_words_still_read() -> None:
    m = compile_map(load_variant("standard"))
    stp = m.prov_index["STP"]
    for typed in ("nc", "NC", "north coast", "north", "n", "ncs", "(nc)", "north c"):
        assert m.loc_name[m.coast_loc(stp, typed)] == "STP/NC", typed
    for text in ("F StP/nc - Bar", "F St Petersburg (north coast) - Barents Sea", "F stp nc - bar",
                 "F St Petersburg north coast - Barents Sea", "F stp [nc] - bar"):
        assert parse_order(m, text).format(m) == "F STP/NC - BAR", text


def test_centers_count_by_value() -> None:
    """Seed 001: "a total of eight Capital Centers supporting 16 units" — a center may be worth
    more than one; the declared count and the default victory count by value."""
    v = rivers()
    assert v.provinces["CAP"].center_value == 2
    assert v.center_total() == 4
    assert v.victory.centers == 3  # more than half of 4
    assert compile_map(v).sc_value[compile_map(v).prov_index["CAP"]] == 2
    wrong = parse_variant(RIVERS.replace("supply_centers = 4", "supply_centers = 3"), "x.toml")
    assert "declares 3 supply centers, the map has 4 (counted by value)" in str(
        check_variant(wrong))


def test_a_value_belongs_to_a_center() -> None:
    bad = RIVERS.replace('name = "Sea"', 'name = "Sea"\ncenter_value = 2')
    with pytest.raises(VariantError, match="only a supply center has a value"):
        parse_variant(bad, "x.toml")
    with pytest.raises(VariantError, match="must be 1 or more"):
        parse_variant(RIVERS.replace("center_value = 2", "center_value = 0"), "x.toml")


def test_a_border_marker_makes_nothing_adjacent(tmp_path) -> None:
    """An edge kind no unit crosses (a river before river flotillas exist, a mountain border)
    is kept for rule modules, and moves no unit."""
    v = rivers()
    m = compile_map(v)
    assert {e.kind for e in v.edges if e.a == "JUN/WC"} == {"river"}
    assert m.prov_index["DEL"] not in m.prov_neighbours[m.prov_index["JUN"]]
    path = tmp_path / "rivers.toml"
    path.write_text(RIVERS)
    out = adjudicate_request({"variant": str(path), "units": {"Blue": ["A JUN"]},
                              "orders": {"Blue": ["A JUN - DEL"]}})
    assert out["results"] == {"A JUN - DEL": ["void"]}
    # a mountain border lies on a land border: the army crosses it as before
    out = adjudicate_request({"variant": str(path), "units": {"Blue": ["A JUN"]},
                              "orders": {"Blue": ["A JUN - CAP"]}})
    assert out["units"] == {"Blue": ["A CAP"]}


def test_tags_and_territory_are_kept() -> None:
    v = rivers()
    assert v.provinces["CAP"].tags == ["upland", "mountain"]
    assert v.power("Gold").territory == ["CAP", "DEL", "RIV"]
    bad = parse_variant(RIVERS.replace('"DEL", "RIV"]', '"DEL", "XXX"]'), "x.toml")
    assert "unknown province 'XXX' in territory" in str(check_variant(bad))


def test_the_writer_keeps_the_new_fields() -> None:
    v = rivers()
    back = parse_variant(variant_to_toml(v), "written.toml")
    assert back.coasts == v.coasts
    assert back.provinces["DEL"].coast_names == {"SC": "sea coast", "RB": "river bank"}
    assert back.provinces["CAP"].center_value == 2
    assert back.provinces["CAP"].tags == ["upland", "mountain"]
    assert back.power("Gold").territory == v.power("Gold").territory
    assert check_variant(back) == []
