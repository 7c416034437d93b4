"""Importers of other tools' variant files (DPjudge .map, Parlance .cfg) and the TOML writer.

Small hand-written files under tests/data/importers/ pin the formats down (a two-coast
province, an impassable space, a PORT, army-only and fleet-only adjacencies, includes, and
malformed files for the error messages). When the `diplomacy` package is installed, each of
its 14 shipped maps must import, pass `variant check`, agree with the package's own reading of
the file unit kind by unit kind, and play a few years of random orders. The same is done for
Parterre's .cfg files when POLYDIP_PARTERRE names a folder of them (they are not on PyPI as a
dependency polydip can install: `pip download --no-deps parterre`, unpack, and point
POLYDIP_PARTERRE at parterre/data; POLYDIP_PARLANCE may name parlance/data, which holds the
standard.cfg two Parterre variants take as their base).
"""

from __future__ import annotations

import copy
import dataclasses
import os
import random
from pathlib import Path

import pytest

from polydip.check import check_variant
from polydip.errors import NotSupportedError, VariantError
from polydip.game.game import Game
from polydip.geography.map import Map
from polydip.oneshot import adjudicate_request
from polydip.play import random_orders
from polydip.variants.importers import import_variant
from polydip.variants.loader import load_variant, parse_variant
from polydip.variants.model import EdgeKind, Power, Season, Terrain, UnitKind, Victory
from polydip.variants.writer import variant_to_toml

DATA = Path(__file__).parents[2] / "data" / "importers"

# Defects of shipped source files that the importer repairs, with the note it leaves. `variant
# check` reports no problem for any shipped file once imported; a file that needed one would
# be listed in CHECK_PROBLEMS with the reason.
SOURCE_DEFECTS = {
    "modern.cfg": ("lists Iceland and Ireland as their own army neighbours ('ICE=AMY ICE', a "
                   "way to make an island count as land); the adjacency is left out",
                   "own neighbours"),
}
CHECK_PROBLEMS: dict[str, list[str]] = {}


def edges(v) -> set[tuple[str, str, str]]:
    return {(e.kind, *sorted((e.a, e.b))) for e in v.edges}


def same_variant(a, b) -> None:
    """Equal in everything a variant file holds (not path/text, nor where edges were read,
    nor the map compiled from it)."""
    da, db = (_plain(a), _plain(b))
    for d in (da, db):
        d.pop("path")
        d.pop("text")
        d["edges"] = sorted((e["kind"], e["a"], e["b"]) for e in d["edges"])
    assert da == db


def _plain(v) -> dict:
    """The variant's fields as plain data, without the map compiled from it."""
    saved, v.compiled = v.compiled, None
    try:
        return dataclasses.asdict(v)
    finally:
        v.compiled = saved


def play_random(v, years: int = 3, seed: int = 7) -> Game:
    g = Game.new(v)
    rng = random.Random(seed)
    first = g.position.phase.year
    while not g.is_over and g.position.phase.year < first + years:
        for p, lst in random_orders(g.map, g.position, rng).items():
            if not g.map.power_neutral[p]:
                assert g.set_orders(p, lst) == [], (g.phase, lst)
        g.process()
    return g


def can_move(m: Map, kind: str, a: str, b: str) -> bool:
    k = m.kind_index[kind]
    la, lb = m.loc_index[a], m.loc_index[b]
    return m.occupy[k][la] and lb in m.adj_set[k][la]


# ---- the tiny DPjudge map -----------------------------------------------------------------

TINY_EDGES = {
    ("land", "HIL", "MID"), ("land", "HIL", "SUD"), ("land", "MID", "NOR"),
    ("land", "MID", "SUD"),
    ("sea", "EAS", "MID/EC"), ("sea", "EAS", "NOR"), ("sea", "EAS", "SUD"), ("sea", "EAS", "WES"),
    ("sea", "HIL", "WES"), ("sea", "ISL", "SUD"), ("sea", "ISL", "WES"),
    ("sea", "MID/EC", "NOR"), ("sea", "MID/EC", "SUD"), ("sea", "MID/WC", "NOR"),
    ("sea", "MID/WC", "SUD"), ("sea", "MID/WC", "WES"), ("sea", "NOR", "WES"),
    ("sea", "SUD", "WES"),
}


def test_tiny_map_imports_places_terrains_and_coasts() -> None:
    v = import_variant(DATA / "tiny.map")
    assert v.name == "tiny"
    terr = {a: p.terrain for a, p in v.provinces.items()}
    assert terr == {"NOR": "coast", "MID": "coast", "SUD": "coast", "HIL": "coast",
                    "ISL": "port", "WES": "sea", "EAS": "sea", "PEA": "impassable"}
    assert v.provinces["MID"].coasts == ["EC", "WC"]
    assert v.provinces["MID"].name == "Midland"
    assert v.provinces["NOR"].aliases == ["nordland city"]  # '+' is a space
    assert v.provinces["PEA"].name == "The Peak"
    assert v.terrains["impassable"].occupy == frozenset()
    assert v.terrains["port"].occupy == {"A", "F"} and v.terrains["port"].convoy
    assert {a for a, p in v.provinces.items() if p.supply_center} == {"NOR", "SUD", "HIL", "ISL"}
    assert edges(v) == TINY_EDGES  # nothing touches the impassable peak
    assert check_variant(v) == []


def test_tiny_map_powers_start_and_victory() -> None:
    v = import_variant(DATA / "tiny.map")
    north, south = v.powers
    assert (north.name, north.letter, north.adjective) == ("North", "N", "Northern")
    assert (south.name, south.letter, south.adjective) == ("South", "Z", "Southern")  # (:Z)
    assert north.units == ["F NOR"] and south.units == ["A SUD"]
    assert north.homes == north.centers == ["NOR"]
    assert v.calendar.start == "S1901M"
    assert v.victory.centers == 3  # VICTORY 3
    assert "tiny.map" in v.notes and "PEA" in v.notes


def test_case_of_an_adjacency_entry_says_which_units_cross() -> None:
    """diplomacy.engine.map.Map.abut_list: 'An adjacency that is lowercase (e.g. 'bur') can
    only be used by an army. An adjacency that starts with a capital letter (e.g. 'Bal') can
    only be used by a fleet. An adjacency that is uppercase can be used by both.'"""
    m = Map(import_variant(DATA / "tiny.map"))
    assert can_move(m, "A", "SUD", "HIL") and not can_move(m, "F", "SUD", "HIL")  # 'hil'
    assert can_move(m, "F", "SUD", "ISL") and not can_move(m, "A", "SUD", "ISL")  # 'Isl'
    assert can_move(m, "F", "NOR", "MID/WC") and can_move(m, "A", "NOR", "MID")
    assert not can_move(m, "F", "SUD", "PEA") and not can_move(m, "A", "HIL", "PEA")


def test_map_include_replaces_units_and_maps_a_rule() -> None:
    v = import_variant(DATA / "tiny_variant.map")  # MAP tiny.map, RULE BUILD_ANY, UNITS
    assert v.name == "tiny_variant"
    assert edges(v) == TINY_EDGES
    assert v.power("South").units == ["F SUD"]
    assert v.power("North").units == ["F NOR"]
    assert v.rules == {"build_sites": {"policy": "owned"}}
    assert "tiny_variant.map, tiny.map" in v.notes and "BUILD_ANY" in v.notes
    assert check_variant(v) == []


def test_tiny_map_plays() -> None:
    g = play_random(import_variant(DATA / "tiny.map"), years=5)
    assert g.history


# ---- the tiny Parlance variant --------------------------------------------------------------

def test_tiny_cfg_reads_the_same_geography_as_the_tiny_map() -> None:
    v = import_variant(DATA / "tiny.cfg")
    assert (v.name, v.title, v.designer) == ("tiny", "Tiny", "the polydip tests")
    assert edges(v) == TINY_EDGES
    assert v.provinces["MID"].coasts == ["EC", "WC"]
    assert v.provinces["ISL"].terrain == "coast"  # 'ISL=AMY, FLT ...': an island
    assert v.provinces["HIL"].terrain == "coast"
    assert v.provinces["WES"].terrain == "sea" and v.provinces["WES"].name == "West Sea"
    assert [(p.name, p.adjective, p.units) for p in v.powers] == [
        ("North", "Northern", ["F NOR"]), ("South", "Southern", ["A SUD"])]
    # no [ownership]: Parlance gives each power the centers its units stand on
    assert [p.centers for p in v.powers] == [["NOR"], ["SUD"]]
    assert check_variant(v) == []
    play_random(v, years=5)


def test_cfg_base_takes_the_sections_the_file_leaves_out() -> None:
    v = import_variant(DATA / "tiny_variant.cfg")  # base=tiny, its own [positions] and start
    assert v.name == "tiny_fleet"
    assert v.calendar.start == "F1910M"  # start=FAL 1910
    assert edges(v) == TINY_EDGES
    assert v.power("South").units == ["F SUD"]
    assert v.power("South").centers == ["SUD"]
    assert "[borders] from tiny.cfg" in v.notes
    assert check_variant(v) == []


# ---- malformed files: file, line, problem, suggestion ----------------------------------------

def test_malformed_map_names_file_line_and_fix() -> None:
    with pytest.raises(VariantError) as exc:
        import_variant(DATA / "bad.map")
    msg = str(exc.value)
    assert "bad.map:9:" in msg and "'WATR'" in msg and "did you mean WATER?" in msg


def test_malformed_cfg_names_file_line_and_fix() -> None:
    with pytest.raises(VariantError) as exc:
        import_variant(DATA / "bad.cfg")
    msg = str(exc.value)
    assert "bad.cfg:9:" in msg and "[bordrs]" in msg and "did you mean borders?" in msg


MAP_HEAD = "NORTH (NORTHERN) NOR\nF NOR\nSOUTH SUD\nA SUD\nNordland = nor\nSudland = sud\n"


@pytest.mark.parametrize(("text", "line", "words"), [
    (MAP_HEAD + "COAST NOR ABUTS SUD\nCOAST SUD ABUTS WES\nWATER WES ABUTS SUD\n", 7,
     ["one-way army adjacency NOR -> SUD", "add NOR"]),
    (MAP_HEAD + "COAST NOR ABUTS SUX\nCOAST SUD ABUTS NOR\n", 7,
     ["unknown place 'SUX'", "did you mean SUD?"]),
    ("A PAR\n", 1, ["before any power line"]),
    ("USE nowhere.map\n", 1, ["included file 'nowhere.map' not found"]),
    ("BEGIN SPRANG 1901 MOVEMENT\n", 1, ["unknown season", "SPRING"]),
    ("VICTORY many\n", 1, ["VICTORY takes numbers", "VICTORY 18"]),
    (MAP_HEAD + "COAST NOR ABUTS SUD\nCOAST SUD ABUTS NOR\nEAST ESS\n", 9,
     ["unknown province 'ESS'"]),
    (MAP_HEAD + "Nordland = sud\n", 7, ["'Nordland'", "already used for NOR at"]),
])
def test_map_errors(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    f = tmp_path / "m.map"
    f.write_text(text)
    with pytest.raises(VariantError) as exc:
        import_variant(f)
    msg = str(exc.value)
    assert f"m.map:{line}:" in msg, msg
    for w in words:
        assert w in msg, msg


CFG_HEAD = ("[variant]\nname=t\n[homes]\nNTH=NOR\nUNO=SUD\n[positions]\nNTH=FLT NOR\n"
            "[borders]\n")


@pytest.mark.parametrize(("text", "line", "words"), [
    ("name=x\n", 1, ["outside any section", "[variant]"]),
    ("[variant]\nname\n", 2, ["has no '='", "KEY=value"]),
    ("[variant]\nnmae=x\n", 2, ["unknown [variant] key 'nmae'", "did you mean name?"]),
    ("[variant]\nstart=SPRING 1901\n[borders]\nNOR=AMY\n[homes]\nA=NOR\n", 2,
     ["start='SPRING 1901' is not a turn", "SPR 1901"]),
    ("[variant]\nbase=elsewhere\n", 2,
     ["base variant 'elsewhere' not found", "--search-path DIR", "POLYDIP_VARIANT_PATH"]),
    (CFG_HEAD + "NOR=AMY SUD, FLT SUD\nSUD=FLT NOR\n", 9,
     ["one-way army adjacency NOR -> SUD"]),
    (CFG_HEAD + "NOR=AMY, FLT (SUD NXS)\nSUD=FLT NOR\n", 9, ["unknown coast 'NXS'", "NCS"]),
    (CFG_HEAD + "NOR=AMY, FLT SUD\nSUD=FLT NOR, ARMY NOR\n", 10,
     ["does not start with AMY or FLT", "AMY"]),
    (CFG_HEAD + "NOR=AMY, FLT SOD\nSUD=FLT NOR\n", 9, ["unknown province 'SOD'",
                                                       "did you mean SUD?"]),
    (CFG_HEAD.replace("NTH=FLT NOR", "NTH=FLT NOR\nSTH=AMY SUD") + "NOR=AMY, FLT SUD\n"
     "SUD=FLT NOR\n", 8, ["[positions] names power STH, which has no [homes] line"]),
])
def test_cfg_errors(tmp_path: Path, text: str, line: int, words: list[str]) -> None:
    f = tmp_path / "v.cfg"
    f.write_text(text)
    with pytest.raises(VariantError) as exc:
        import_variant(f)
    msg = str(exc.value)
    assert f"v.cfg:{line}:" in msg, msg
    for w in words:
        assert w in msg, msg


@pytest.mark.parametrize(("name", "text", "words"), [
    ("m.map", "RULE HOLD_WIN\n", ["m.map:1:", "RULE HOLD_WIN", "BUILD_ANY"]),
    ("m.map", "VICTORY 18 17 16\n", ["changes from year to year"]),
    ("m.map", "COAST NOR ABUTS R:AEG\n", ["special adjacency restrictions (R:AEG)"]),
    ("m.map", "NORTH NOR *SUD\n", ["partisan"]),
    ("m.map", "RESERVES 2\n", ["reserve units"]),
    ("m.map", "FLOW SPRING:MOVEMENT WINTER:ADJUSTMENTS\n", ["FLOW"]),
    ("m.map", "NORTH NOR\nW NOR\n", ["wings"]),
    ("v.cfg", "[variant]\njudge=chaos\n", ["v.cfg:2:", "judge 'chaos'"]),
    ("v.map.txt", "", ["cannot import .txt", ".map", ".cfg"]),
])
def test_what_polydip_cannot_represent_is_named(tmp_path: Path, name: str, text: str,
                                                words: list[str]) -> None:
    f = tmp_path / name
    f.write_text(text)
    with pytest.raises(NotSupportedError) as exc:
        import_variant(f)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def test_missing_file() -> None:
    with pytest.raises(VariantError, match="no such file"):
        import_variant(DATA / "nowhere.map")


def test_a_place_listed_as_its_own_neighbour_is_left_out_with_a_note(tmp_path: Path) -> None:
    f = tmp_path / "v.cfg"
    f.write_text(CFG_HEAD + "NOR=AMY NOR, FLT SUD\nSUD=FLT NOR\n")
    v = import_variant(f)
    assert edges(v) == {("sea", "NOR", "SUD")}
    assert "own neighbours" in v.notes and "v.cfg:9" in v.notes


def test_dpjudge_dummy_power_becomes_neutral(tmp_path: Path) -> None:
    f = tmp_path / "m.map"
    f.write_text(MAP_HEAD + "REBELS (REBEL:X) HIL\nDUMMY\nA HIL\nHills = hil\n"
                 "COAST NOR ABUTS SUD\nCOAST SUD ABUTS NOR hil\nLAND HIL ABUTS SUD\n")
    v = import_variant(f)
    assert [p.neutral for p in v.powers] == [False, False, True]
    assert "DUMMY" in v.notes
    assert check_variant(v) == []
    # a dummy's units hold: the neutral_units rule refuses orders for them
    assert "neutral_units" in v.rules
    g = Game.new(v)
    assert "always holds" in g.set_orders(g.map.powers[2], ["A HIL - SUD"])[0]


# ---- DPjudge's Imperial: ownership restrictions and HOME_BUILDS ----------------------------
# tests/data/importers/imperial/ holds DPjudge's Imperial map files as they are (map data,
# used as facts): imperial.map with the .politics, .locations, .geography and .military it USEs.

IMPERIAL = DATA / "imperial" / "imperial.map"


def test_imperial_imports_as_is_and_checks() -> None:
    v = import_variant(IMPERIAL)
    assert check_variant(v) == []
    assert len(v.provinces) == 356
    assert sum(1 for p in v.provinces.values() if p.supply_center) == 172
    assert len(v.powers) == 13
    assert v.calendar.start == "S1861M" and v.victory.centers == 84


def test_an_ownership_restriction_becomes_a_controlled_passage() -> None:
    """DPjudge map syntax: "BLA ABUTS AEG(CON,SMY) indicates that a unit in the Black Sea is
    adjacent to the Aegean Sea if and only if the power that owns the unit also owns both
    Constantinople and Smyrna"; Imperial's rules: "The player that owns Constantinople (and
    only that player) may move a fleet directly from the Black Sea to the Aegean Sea, or
    vice-versa." imperial.geography lists AEG ... BLA(CON) and BLA ... AEG(CON)."""
    v = import_variant(IMPERIAL)
    assert v.rules["controlled_passages"] == {"passage": [
        {"name": "AEG-BLA (owner of CON)", "edges": ["AEG-BLA"], "controllers": ["CON"]}]}
    assert "imperial.geography:211" in v.notes and "imperial.geography:249" in v.notes
    path = str(IMPERIAL)
    for fleet, to in (("F BLA", "AEG"), ("F AEG", "BLA")):
        order = f"{fleet} - {to}"
        russian = {"variant": path, "phase": "S1861M", "units": {"Russia": [fleet]},
                   "orders": {"Russia": [order]}}
        assert adjudicate_request(russian)["results"] == {order: ["void"]}  # Turkey owns CON
        russian["centers"] = {"Russia": ["CON"]}
        assert adjudicate_request(russian)["units"] == {"Russia": [f"F {to}"]}
        turkish = {"variant": path, "phase": "S1861M", "units": {"Turkey": [fleet]},
                   "orders": {"Turkey": [order]}}
        assert adjudicate_request(turkish)["units"] == {"Turkey": [f"F {to}"]}
    # nor may another power's fleet support across it
    req = {"variant": path, "phase": "S1861M", "centers": {"Turkey": ["CON"]},
           "units": {"Russia": ["F BLA", "F GRE"], "Turkey": ["F AEG"]},
           "orders": {"Russia": ["F GRE - AEG", "F BLA S F GRE - AEG"]}}
    out = adjudicate_request(req)
    assert out["results"]["F BLA S F GRE - AEG"] == ["void"]
    assert out["results"]["F GRE - AEG"] == ["bounce"]


def test_home_builds_allows_any_owned_home_center() -> None:
    """DPjudge's rule HOME_BUILDS (imperial.map: RULE HOME_BUILDS): "players may build in any
    owned center that was an original home center for any of the powers in the game"."""
    v = import_variant(IMPERIAL)
    assert v.rules["build_sites"] == {"policy": "any_home"}
    req = {"variant": str(IMPERIAL), "phase": "W1861A",
           "centers": {"Britain": ["LON", "EDI", "PAR", "DEN"]}, "units": {"Britain": []},
           "orders": {"Britain": ["A PAR B", "F DEN B", "F LON B"]}}
    out = adjudicate_request(req)
    # Paris (a French home) and London are build sites; Denmark (neutral) is not
    assert out["results"]["A PAR B"] == [] and out["results"]["F LON B"] == []
    assert out["results"]["F DEN B"] == ["void"]


@pytest.mark.parametrize(("text", "words"), [
    ("WATER WES ABUTS EAS(SUD)\nWATER EAS ABUTS WES\n",
     ["differs by direction", "WES -> EAS(SUD)", "EAS lists WES without a restriction"]),
    ("WATER WES ABUTS EAS(SUD)\nWATER EAS ABUTS WES(NOR)\n", ["differs by direction"]),
])
def test_an_ownership_restriction_one_way_only_is_named(tmp_path: Path, text: str,
                                                         words: list[str]) -> None:
    f = tmp_path / "m.map"
    f.write_text(MAP_HEAD + "COAST NOR ABUTS WES EAS\nCOAST SUD ABUTS WES EAS\n"
                 "West Sea = wes\nEast Sea = eas\n" + text.replace("ABUTS WES", "ABUTS NOR SUD WES")
                 .replace("ABUTS EAS", "ABUTS NOR SUD EAS"))
    with pytest.raises(NotSupportedError) as exc:
        import_variant(f)
    for w in words:
        assert w in str(exc.value), str(exc.value)


def test_an_ownership_restriction_names_supply_centers(tmp_path: Path) -> None:
    f = tmp_path / "m.map"
    f.write_text(MAP_HEAD + "COAST NOR ABUTS WES EAS\nCOAST SUD ABUTS WES EAS\n"
                 "West Sea = wes\nEast Sea = eas\nWATER WES ABUTS NOR SUD EAS(WES)\n"
                 "WATER EAS ABUTS NOR SUD WES(WES)\n")
    with pytest.raises(VariantError, match=r"m.map:12: EAS -> WES\(WES\): WES is not a supply "
                       "center"):
        import_variant(f)


def test_imperial_plays() -> None:
    g = play_random(import_variant(IMPERIAL), years=4)
    assert g.position.phase.year >= 1864


# ---- the writer -----------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["standard", "tiny.map", "tiny_variant.map", "tiny.cfg",
                                    "imperial/imperial.map"])
def test_writer_round_trip(source: str) -> None:
    v = load_variant(source) if source == "standard" else import_variant(DATA / source)
    text = variant_to_toml(v)
    back = parse_variant(text, "written.toml")
    same_variant(v, back)
    assert check_variant(back) == check_variant(v)


def test_writer_round_trip_of_every_feature() -> None:
    v = copy.deepcopy(load_variant("standard"))  # loaded variants are shared: copy to change
    v.title = 'Quotes " and \\ backslash\tand ünïcode'
    v.notes = 'Line one\nline "two" with """ triple quotes\\\nand a trailing quote"'
    v.unit_kinds["R"] = UnitKind("R", "river flotilla", coastal=False)
    v.terrains["river"] = Terrain("river", frozenset({"A", "R"}), convoy=False)
    v.terrains["channel"] = Terrain("channel", frozenset({"F"}), convoy=False)
    v.edge_kinds["canal"] = EdgeKind("canal", frozenset({"F", "R"}))
    v.provinces["BUR"].supply_center = "capital"
    v.powers.append(Power("Swiss", "S", "Swiss", "#ffffff", [], ["A TYR"], [], neutral=True))
    v.calendar.seasons = [Season("Spring", "S", ("movement", "retreats")),
                          Season("Summer", "U", ("movement",)),
                          Season("Fall", "F", ("movement", "retreats", "adjustments"))]
    v.calendar.start = "U1901M"
    v.calendar.centers_change_after = "F"
    v.victory = Victory(centers=20, last_year=1950, last_year_result="most_centers",
                        more_than_others=True, no_change_years=5,
                        presets={"short": {"last_year": 1910}})
    v.options = {"convoy_paradox": "1982", "nested": {"a": [1, 2.5, True]}}
    v.rules = {"build_sites": {"policy": "owned"}, "neutral_units": {}}
    v.declared = {"supply_centers": 34}
    same_variant(v, parse_variant(variant_to_toml(v)))


# ---- the diplomacy package's maps -----------------------------------------------------------

def _diplomacy_maps() -> list:
    try:
        import diplomacy
    except ImportError:
        return [pytest.param(None, marks=pytest.mark.skip(reason="diplomacy not installed"))]
    return sorted((Path(diplomacy.__file__).parent / "maps").glob("*.map"))


@pytest.mark.parametrize("path", _diplomacy_maps(), ids=lambda p: getattr(p, "name", "none"))
def test_diplomacy_package_map(path: Path) -> None:
    dmap = pytest.importorskip("diplomacy.engine.map")
    v = import_variant(path)
    assert [str(p) for p in check_variant(v)] == CHECK_PROBLEMS.get(path.name, [])
    # the package's own reading of the file: places, centers, powers, and every move
    dm = dmap.Map(str(path), use_cache=False)
    assert not dm.error
    locs = [loc.upper() for loc in dm.locs]
    assert {loc.split("/")[0] for loc in locs} == set(v.provinces)
    assert set(dm.scs) == {a for a, p in v.provinces.items() if p.supply_center}
    mine = {}
    for pw in v.powers:
        key = pw.name.upper().replace("-", "").replace(" ", "")
        mine[key] = (sorted(pw.homes), sorted(pw.centers), sorted(pw.units))
    theirs = {p: (sorted(dm.homes[p]), sorted(dm.centers[p]), sorted(dm.units.get(p, [])))
              for p in dm.powers}
    assert mine == theirs
    m = Map(v)
    for kind in "AF":
        k = m.kind_index[kind]
        for a in locs:
            la = m.loc_index[a]
            ours = {m.loc_name[b] for b in m.adj[k][la]} if m.occupy[k][la] else set()
            cands = _abut_candidates(dm, a)
            theirs_ = {b for b in cands if dm.abuts(kind, a, "-", b)}
            assert ours == theirs_, (kind, a)
    same_variant(v, parse_variant(variant_to_toml(v)))
    play_random(v, years=3)


def _abut_candidates(dm, loc: str) -> set[str]:
    """Every place `loc` could abut: the entries of its list, their provinces and coasts."""
    out = set()
    for entry in dm.abut_list(loc):
        prov = entry.upper().split("/")[0]
        out |= {entry.upper(), prov, *dm.find_coasts(prov)}
    return out


# ---- Parterre's variants (when a folder of them is given) -----------------------------------

def _parterre_files() -> list:
    folder = os.environ.get("POLYDIP_PARTERRE")
    if not folder or not Path(folder).is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(
            reason="set POLYDIP_PARTERRE to a folder of Parterre .cfg files"))]
    return sorted(Path(folder).glob("*.cfg"))


@pytest.mark.parametrize("path", _parterre_files(), ids=lambda p: getattr(p, "name", "none"))
def test_parterre_variant(path: Path, capsys) -> None:
    """With Parlance's data folder in POLYDIP_VARIANT_PATH (or Parlance installed), every
    Parterre variant imports and checks, also from the command line (issue 18)."""
    try:
        v = import_variant(path)
    except VariantError as exc:
        if "base variant" in str(exc):
            pytest.skip("needs Parlance's standard.cfg: put parlance/data in "
                        "POLYDIP_VARIANT_PATH")
        raise
    from polydip.cli.main import main

    code = main(["variant", "check", str(path)])
    out = capsys.readouterr().out
    assert code == (1 if CHECK_PROBLEMS.get(path.name) else 0), out
    assert [str(p) for p in check_variant(v)] == CHECK_PROBLEMS.get(path.name, [])
    if path.name in SOURCE_DEFECTS:
        assert SOURCE_DEFECTS[path.name][1] in v.notes
    same_variant(v, parse_variant(variant_to_toml(v)))
    play_random(v, years=3)
