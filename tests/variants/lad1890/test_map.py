"""Latin American Diplomacy 1890: the reconstructed map against the seed rules text.

Each stated border or non-border, and each border an example of the rules needs, is a test
quoting its sentence (seed 001, "Latin American Diplomacy" by Michael Zmolek). The rules that
use terrain, borders and centers come with the variant's rule modules; here the map's data is
checked: classes, coasts and banks, centers, starting units, calendar.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from polydip.check import check_variant
from polydip.compile import compile_map
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.orders.parser import parse_order
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.variants.loader import load_variant

V = load_variant("lad1890")
M = compile_map(V)
A, F = M.kind_index["A"], M.kind_index["F"]


def locs(p: str) -> list[int]:
    i = M.prov_index[p.split("/")[0]]
    if "/" in p:
        return [M.loc_index[p]]
    return [i, *M.prov_coast_locs[i]]


def army(a: str, b: str) -> bool:
    """An army may move from a to b."""
    return M.prov_index[b] in M.adj_set[A][M.prov_index[a]]


def fleet(a: str, b: str) -> bool:
    """A fleet may move from (a coast of) a to (a coast of) b."""
    return any(y in M.adj_set[F][x] and M.occupy[F][x] and M.occupy[F][y]
               for x in locs(a) for y in locs(b))


def edge(kind: str, a: str, b: str) -> bool:
    """The map has an edge of this kind between the two places (a province matches any of
    its coasts)."""
    def match(end: str, want: str) -> bool:
        return end == want or ("/" not in want and end.split("/")[0] == want)
    return any(e.kind == kind and ((match(e.a, a) and match(e.b, b))
                                   or (match(e.a, b) and match(e.b, a))) for e in V.edges)


def neighbours(p: str) -> set[str]:
    """Every province p borders, by any edge (markers included)."""
    out = set()
    for e in V.edges:
        x, y = e.a.split("/")[0], e.b.split("/")[0]
        if x == p:
            out.add(y)
        elif y == p:
            out.add(x)
    return out


def tagged(tag: str) -> set[str]:
    return {a for a, p in V.provinces.items() if tag in p.tags}


def adjudicate(**req):
    out = adjudicate_request({"variant": "lad1890", **req})
    assert "error" not in out, out
    return out


# ---- the file ---------------------------------------------------------------------------

def test_the_variant_passes_the_checker() -> None:
    assert check_variant(V) == []


def test_the_header_says_the_map_is_reconstructed_and_numbers_its_decisions() -> None:
    assert "RECONSTRUCTED, NOT PUBLISHED" in V.text
    numbers = [int(line.split(".")[0]) for line in V.notes.splitlines()
               if line[:3].strip().rstrip(".").isdigit() and line[:4].strip().endswith(".")]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 30


# ---- counts -----------------------------------------------------------------------------

def test_71_centers_on_63_provinces() -> None:
    """"Eight powers in the game have Capital Centers. There are thus a total of eight Capital
    Centers supporting 16 units." "There are a total of thirty-five Home Centers" "four of
    the nine Outpost Centres" "There are a total of eleven Neutral Centers" "This brings the
    total number of SCs to 71.\""""
    kinds = Counter(p.supply_center for p in V.provinces.values() if p.supply_center)
    assert kinds == {"capital": 8, "home": 35, "outpost": 9, "neutral": 11}
    values = Counter((p.supply_center, p.center_value) for p in V.provinces.values()
                     if p.supply_center)
    assert values[("capital", 2)] == 8 and sum(n for (k, _), n in values.items()) == 63
    assert V.center_total() == 71 and V.declared["supply_centers"] == 71
    assert V.victory.centers == 36  # "a majority of supply centres (36 of 71)"


def test_capitals_belong_to_the_eight_latin_american_powers() -> None:
    """"The imperial powers: Britain, France, Spain and the United States, do not have Capital
    Centers." "Bolivia begins this game with a Capital Center on Lago Titicaca"; Spain taking
    Caracas stops Venezuela's builds (rule 7.A.ii, example 2)."""
    capital = {p.name: [h for h in p.homes if V.provinces[h].supply_center == "capital"]
               for p in V.powers}
    assert capital == {
        "Argentina": ["BUE"], "Bolivia": ["LPZ"], "Brazil": ["RIO"], "Britain": [],
        "Chile": ["STG"], "Colombia": ["BOG"], "France": [], "Mexico": ["MEX"],
        "Peru": ["LIM"], "Spain": [], "United States": [], "Venezuela": ["CCS"]}
    assert edge("lake", "LTI", "LPZ/LS")


def test_outposts_of_inactive_powers_belong_to_no_territory() -> None:
    """"four of the nine Outpost Centres on the map, for the purposes of this game, function
    identical to Neutral Centers" (Holland and Portugal are not in the game)."""
    outposts = {a for a, p in V.provinces.items() if p.supply_center == "outpost"}
    held = {t for p in V.powers for t in p.territory}
    assert len(outposts - held) == 4
    assert {"SCX", "SUR", "CVI"} <= outposts - held  # the seed's Dutch St. Croix


def test_guatemala_honduras_neutral_panama_antofagasta_home() -> None:
    """"GUATEMALA: a land province and neutral supply center." "HONDURAS: a land province and
    neutral supply center." "PANAMA: a land province and home supply center." "ANTOFAGASTA
    begins the game as Chile's home center.\""""
    assert V.provinces["GUA"].supply_center == V.provinces["HON"].supply_center == "neutral"
    assert V.provinces["PAN"].supply_center == "home" and "PAN" in V.power("Colombia").homes
    assert "ANT" in V.power("Chile").homes


def test_territory_holds_the_build_examples() -> None:
    """"1890D: Chile orders B F Islas San Felix. Peru orders: Build R Loreto"; "It is 1895D,
    Britain has a build due, Britain orders: B A British Honduras. Result: Order is Valid";
    "Venezuela orders B R AMAZONAS DE VENEZUELA\""""
    for power, prov in (("Chile", "ISF"), ("Peru", "LOR"), ("Britain", "BHO"),
                        ("Venezuela", "AVE")):
        assert prov in V.power(power).territory
    every = [t for p in V.powers for t in p.territory]
    assert len(every) == len(set(every))  # nobody holds a province twice
    for p in V.powers:
        assert set(p.homes) <= set(p.territory)


SEED_UNITS = {
    "Argentina": "A Tucuman, A Cordoba, F Buenos Aires",
    "Brazil": "A Rio de Janeiro, A Recife, F Bahia, F Sao Paulo",
    "Britain": "A Guyana, F The Bahamas, F Jamaica, F Trinidad & Tobago, F East Falkland",
    "Bolivia": "A La Paz, A Cochabamba, A Chiquisaca",
    "Chile": "A Santiago, A Antofagasta, F Concepcion",
    "Colombia": "A Bogota, A Medellin, F Panama",
    "France": "A French Guiana, F Martinique, F Guadalupe, F Dakar",
    "Mexico": "A Mexico City, A Guadalajara, A San Luis Potosi, F Merida",
    "Peru": "A Lima, A Cuzco, F Trujillo",
    "Spain": "A Habana, F Santiago de Cuba, F Puerto Rico, F Canary Islands",
    "United States": "A Atlanta, A Houston, F Jacksonville, F New Orleans",
    "Venezuela": "A Caracas, A Barquisimeto, F Maracaibo",
}


def test_a_new_game_starts_in_1890d_with_the_seeds_units() -> None:
    """"The first turn of the game will be a Phase D turn, a build turn, specifically, 1980D"
    (1890D); "PRIOR to 1890D, the following units will start in the following positions"
    (the seed's list, in its own spelling)."""
    g = Game.new(V)
    assert g.position.phase.name == "D1890A"
    for power, listed in SEED_UNITS.items():
        want = set()
        for unit in listed.split(", "):
            kind, place = unit.split(" ", 1)
            want.add((kind, M.loc_prov[M.loc_of(place)]))
        p = M.power_of(power)
        have = {(M.kinds[u.kind], M.loc_prov[u.loc]) for u in g.position.units if u.power == p}
        assert have == want, power
        assert {M.prov_abbr[c] for c in g.position.centers_of(p)} == set(V.power(power).homes)
    assert len(g.position.units) == 43


def test_the_calendar_runs_a_b_c_d_and_ends_after_1917() -> None:
    """"A: First Movement Phase (March-June) B: First Retreat Phase (June-September) C: Second
    Movement Phase (September-December) D: Second Retreat (/Build/Disband) Phase" and the
    game ends "After the 27th year or 54th turn ends (1917D)\""""
    out = adjudicate(phase="A1891M", units={"Peru": ["A LIM", "A ANC"], "Chile": ["A ARE"]},
                     orders={"Peru": ["A ANC - LIM"], "Chile": ["A ARE - LIM"]})
    assert out["next_phase"] == "C1891M"
    # (not over the Andes, and with a support from outside the mountain provinces)
    attack = {"units": {"Peru": ["A LIM", "F NAZ"], "Chile": ["A ARE"]},
              "orders": {"Peru": ["A LIM - ARE", "F NAZ S A LIM - ARE"]}}
    out = adjudicate(phase="A1891M", **attack)
    assert out["next_phase"] == "B1891R"  # the dislodged army retreats in phase B
    assert out["dislodged"]["Chile"][0]["unit"] == "A ARE"
    assert adjudicate(phase="C1891M", **attack)["next_phase"] == "D1891R"
    assert V.victory.last_year == 1917


# ---- classes ----------------------------------------------------------------------------

@pytest.mark.parametrize(("tag", "names", "sentence"), [
    ("mountain", "MEXICO CITY, BARQUISIMETO, AYACUCHO, COCHABAMBA, POTOSI, CORDILLERA DOMEYKO "
     "and JUJUY", "Seven provinces on the Latin American Diplomacy Map have borders which are "
     "entirely mountainous"),
    ("rainforest", "VICHADA, VAUPES, AMAZONAS DE VENEZUELA, RIO BRANCO, CAHUINARI, TIGRE, "
     "LORETO, ACRE, AMAZONAS, JAPURA, MANAUS, PARA and CAMPO GRANDE",
     "13 provinces on the Latin American Diplomacy Map have borders which are solidly green"),
    ("swamp", "FORMOSA, BOQUERON and SAN PEDRO", "three swampy provinces"),
    ("desert", "ANTOFAGASTA, ATACAMA and TARAPACA", "three desert provinces"),
    ("glacier", "GRAHAM LAND", "one glacial province"),
    ("lake", "LAGO DE NICARAGUA, and LAGO TITICACA", "two Lake Provinces"),
    ("no_water_barrier", "JAMAICA and ISLA WELLINGTON", "two Islands without water barriers"),
])
def test_the_seed_names_every_province_of_a_class(tag: str, names: str, sentence: str) -> None:
    provs = {M.prov_abbr[M.loc_prov[M.loc_of(n.strip())]]
             for n in names.replace(" and ", ", ").replace(", ,", ",").split(",") if n.strip()}
    assert tagged(tag) == provs, sentence


def test_every_land_province_is_coastal_or_upland() -> None:
    """"Every land province is either a Coastal Province (CP) or an Upland Province (UP). Thus
    an MP is also an UP." A province with a coast a fleet may stand on is coastal."""
    land = {a for a, p in V.provinces.items() if p.terrain in ("land", "river_land", "glacier")}
    assert tagged("coastal") | tagged("upland") == land
    assert not tagged("coastal") & tagged("upland")
    assert tagged("mountain") <= tagged("upland")
    for a in land - {"GRL"}:
        can_float = any(M.occupy[F][x] for x in locs(a))
        assert can_float == (a in tagged("coastal") or a in ("PUN", "LPZ")), a


def test_guadalajara_is_coastal_on_the_middle_america_trench() -> None:
    """"GUADALAJARA ... is to be played, however, as a Coastal Province, as it touches MIDDLE
    AMERICA TRENCH. MEXICO may build a F in GUADALAJARA.\""""
    assert "coastal" in V.provinces["GDL"].tags
    assert fleet("GDL", "MAT") and M.occupy[F][M.prov_index["GDL"]]


def test_oceans_and_seas_of_the_examples() -> None:
    """"both fleets sail happily in the same province" (Equatorial Atlantic Ocean); two
    British fleets in Bermuda Triangle; four fleets in Peru Basin; the East Pacific Rise
    bounce; "TRISTAN DA CUNHA GROUP and SALA-Y-GOMEZ ... treated as simply sea provinces";
    Falkland Current: a flotilla there fights without AT and has no strength of its own (a sea
    touching no coastal province)."""
    for o in ("EAO", "MAO", "BMT", "SSE", "PBS", "EPR"):
        assert V.provinces[o].terrain == "ocean" and "ocean" in V.provinces[o].tags, o
    for s in ("TDC", "SYG", "FCU", "LMA", "LPA"):
        assert V.provinces[s].terrain == "sea", s
    assert not neighbours("FCU") & tagged("coastal")


def test_islands_with_a_water_barrier_convoy_and_armies_cannot_walk_there() -> None:
    """"Armies, however, can only reach islands by being convoyed to them." "Example:
    Britain: A Guyana to Barbados; F Trinidad and Tobago C A Guyana to Barbados. Result: the
    move is valid and succeeds.\""""
    assert V.terrains["island"].convoy and not V.terrains["land"].convoy
    assert not army("GUY", "BAR") and not army("GUY", "TRI")
    out = adjudicate(phase="A1891M", units={"Britain": ["A GUY", "F TRI"]},
                     orders={"Britain": ["A GUY - BAR", "F TRI C A GUY - BAR"]})
    assert out["units"] == {"Britain": ["A BAR", "F TRI"]}


def test_an_army_is_convoyed_from_surinam_to_trinidad_by_the_guiana_basin() -> None:
    """"Thus an army can be convoyed from Surinam to Trinidad & Tobago by a Fleet in Guiana
    Basin.\""""
    out = adjudicate(phase="A1891M", units={"Britain": ["A SUR", "F GBS"]},
                     orders={"Britain": ["A SUR - TRI", "F GBS C A SUR - TRI"]})
    assert out["units"] == {"Britain": ["A TRI", "F GBS"]}


def test_jamaica_and_hispaniola_cannot_be_convoyed_through() -> None:
    """"Such Islands which are or are made up of Coastal Provinces can not be convoyed
    through." "A Magdalena to Santiago de Cuba; F South Caribbean Sea C, F Jamaica C, F
    Windward Passage C ... South Caribbean Sea and Windward Passage ... are [connected]\""""
    assert not M.convoy_prov[M.prov_index["JAM"]] and not M.convoy_prov[M.prov_index["HAI"]]
    assert fleet("SCS", "WPA") and fleet("MAG", "SCS") and fleet("WPA", "SCU")
    assert fleet("JAM", "SCS") and fleet("JAM", "WPA") and fleet("HAI", "WPA")
    out = adjudicate(phase="A1891M", units={"Venezuela": ["A MAG", "F SCS", "F WPA", "F JAM"]},
                     orders={"Venezuela": ["A MAG - SCU", "F SCS C A MAG - SCU",
                                           "F WPA C A MAG - SCU", "F JAM C A MAG - SCU"]})
    assert ("A SCU" in out["units"]["Venezuela"]
            and out["results"]["F JAM C A MAG - SCU"] == ["void"])


def test_graham_land_takes_armies_not_fleets_and_the_ice_shelf_nobody() -> None:
    """"NO FLEET OR RIVER FLOTILLA may enter a glacial province." "LARSEN ICE SHELF ... forms a
    division between GRAHAM LAND and WEDDELL SEA so that the two provinces are not to be
    considered adjacent. ICE SHELVES are impassable by any unit.\""""
    assert not M.occupy[F][M.prov_index["GRL"]] and M.occupy[A][M.prov_index["GRL"]]
    assert "WED" not in neighbours("GRL") and not neighbours("LIS")
    assert not any(M.occupy[k][M.prov_index["LIS"]] for k in range(len(M.kinds)))
    out = adjudicate(phase="A1891M", units={"Chile": ["F DRP"]}, orders={"Chile": ["F DRP - GRL"]})
    assert out["units"] == {"Chile": ["F DRP"]}
    out = adjudicate(phase="A1891M", units={"Chile": ["A TDF", "F DRP"]},
                     orders={"Chile": ["A TDF - GRL", "F DRP C A TDF - GRL"]})
    assert out["units"] == {"Chile": ["A GRL", "F DRP"]}


def test_lakes_take_fleets_only_and_bolivia_may_float_on_titicaca() -> None:
    """"Lake Provinces are playable with both Fleets and River Flotillas (but not Armies, of
    course). Bolivia has the option of building a F La Paz [ls].\""""
    for lake in ("LNI", "LTI"):
        assert M.occupy[F][M.prov_index[lake]] and not M.occupy[A][M.prov_index[lake]]
    assert M.occupy[F][M.loc_index["LPZ/LS"]] and not M.occupy[F][M.loc_index["LPZ/RB"]]
    out = adjudicate(phase="A1891M", units={"Bolivia": ["F LPZ/LS"]},
                     orders={"Bolivia": ["F La Paz [ls] - Lago Titicaca"]})
    assert out["units"] == {"Bolivia": ["F LTI"]}


# ---- coasts, banks and shores -------------------------------------------------------------

COASTS = {
    # "Six of these provinces have simply a North Bank [nb] and a South Bank [sb]"
    "VIC": ["NB", "SB"], "MET": ["NB", "SB"], "AVE": ["NB", "SB"], "AMZ": ["NB", "SB"],
    "TIG": ["NB", "SB"], "JAP": ["NB", "SB"],
    # "Four of these provinces have an East Bank [eb] and a West Bank [wb]"
    "CRR": ["EB", "WB"], "SPE": ["EB", "WB"], "CGR": ["EB", "WB"], "GOI": ["EB", "WB"],
    # "VAUPES has three banks ... Cuiaba has five banks"
    "VAU": ["NB", "CB", "SB"], "CUI": ["WB", "NWB", "NEB", "EB", "SB"],
    # "the designations Sea Coast [sc] and River Bank [rb] will be adequate"
    "MIS": ["SC", "RB"], "CCS": ["SC", "RB"], "GUR": ["SC", "RB"], "GUY": ["SC", "RB"],
    "MAR": ["SC", "RB"], "SAO": ["SC", "RB"], "PRN": ["SC", "RB"], "STC": ["SC", "RB"],
    "RGS": ["SC", "RB"],
    # "Six provinces on the map have more than one SEA COAST"
    "CMG": ["NC", "SC"], "CRI": ["NC", "SC"], "GUA": ["NC", "SC"], "HON": ["NC", "SC"],
    "PAN": ["NC", "SC"], "SCL": ["NC", "SC"],
    # "LA PAZ has a Lake Shore [ls] and a River Bank [rb]." "Len and Miskito Coast each have
    # both a Lake Shore [ls] and a Sea Coast [sc]."
    "LPZ": ["LS", "RB"], "LEO": ["LS", "SC"], "MSK": ["LS", "SC"],
}


def test_exactly_the_listed_provinces_have_coasts_banks_or_shores() -> None:
    """"There are, in all, twenty-nine provinces with multiple sea coasts, river banks, or
    lake shores" (the lists that follow name thirty). "Provinces like Amazonas, Para,
    Asuncion, Entre Rios, or Boqueron do not require coastal (bank) designations"."""
    have = {a: sorted(p.coasts) for a, p in V.provinces.items() if p.coasts}
    assert have == {a: sorted(c) for a, c in COASTS.items()}
    for porous in ("PRA", "ASU", "ERI", "BOQ"):
        assert not V.provinces[porous].coasts  # its rivers meet inside it or on its border
        assert sum(e.kind == "river" for e in V.edges if porous in (e.a, e.b)) >= 3


@pytest.mark.parametrize(("prov", "coast", "waters", "sentence"), [
    ("CMG", "NC", {"BBK"}, "North Coast [nc] opens to Bahama Bank."),
    ("CMG", "SC", {"JAR"}, "South Coast [sc] opens to Jardines."),
    ("CRI", "NC", {"BPG", "GMO"}, "North Coast [nc] opens to Baha Punta Gorda and Golfo De Los "
     "Misquitos."),
    ("CRI", "SC", {"GFO", "CRD", "GCH"}, "South Coast [sc] opens to Golfo De Fonseca, Cocos "
     "Ridge and Golfo De Chiriqu."),
    ("GUA", "NC", {"GHO"}, "North Coast [nc] opens to Gulf of Honduras."),
    ("GUA", "SC", {"GTE", "GBA"}, "South Coast [sc] opens to Golfo De tehuantepec and "
     "Guatemala Basin."),
    ("HON", "NC", {"GHO", "WCS", "IPS"}, "North Coast [nc] opens to Gulf of Honduras, West "
     "Caribbean Sea and Islas de Providence y San Andrs."),
    ("HON", "SC", {"GFO"}, "South Coast [sc] opens to Golfo De Fonseca."),
    ("PAN", "NC", {"GMO", "GDA"}, "North Coast [nc] opens onto Golfo de los Mosquitos and Golfo "
     "del Darien."),
    ("PAN", "SC", {"GCH", "GPA"}, "South Coast [sc] opens to Golfo de Chiriqu and Golfo de "
     "Panama."),
    ("SCL", "NC", {"FLC", "BBK"}, "North Coast [nc] opens to Florida Channel and Bahama Bank."),
    ("SCL", "SC", {"IJU", "JAR"}, "South Coast [sc] opens to Islas Juvenes and Jardines."),
    ("LEO", "SC", {"GFO"}, "the section through Lon, connecting Golfo de Fonseca with Lago de "
     "Nicaragua"),
    ("MSK", "SC", {"BPG", "IPS"}, "the section through Miskito Coast, connecting Baha Punta "
     "Gorda with Lago de Nicaragua"),
    ("LEO", "LS", {"LNI"}, "Len and Miskito Coast each have both a Lake Shore [ls]"),
    ("MSK", "LS", {"LNI"}, "Len and Miskito Coast each have both a Lake Shore [ls]"),
])
def test_each_sea_coast_opens_to_its_waters(prov, coast, waters, sentence) -> None:
    """(Before any canal is built: a canal's edges, closed until then, are left out; they
    are tests/variants/lad1890/test_canals.py's.)"""
    loc = M.loc_index[f"{prov}/{coast}"]
    canal = {frozenset((e.a, e.b)) for e in V.edges if e.kind == "canal"}
    water = {M.prov_abbr[M.loc_prov[x]] for x in M.adj_set[F][loc]
             if V.provinces[M.prov_abbr[M.loc_prov[x]]].terrain in ("sea", "ocean", "lake")
             and frozenset((M.loc_name[loc], M.loc_name[x])) not in canal}
    assert water == waters, sentence


@pytest.mark.parametrize(("typed", "loc"), [
    ("Cuiaba [nwb]", "CUI/NWB"), ("Vaupes [nb]", "VAU/NB"), ("La Paz[rib]", "LPZ/RB"),
    ("La Paz [ls]", "LPZ/LS"), ("Cuiaba [eb]", "CUI/EB"), ("Cuiaba [sb]", "CUI/SB"),
    ("Guyana [sec]", "GUY/SC"), ("Guyana [rib]", "GUY/RB"), ("Guyana[sec]", "GUY/SC"),
    ("Vaupés (north bank)", "VAU/NB"), ("Vaupes cb", "VAU/CB"), ("Cuiabá/north-west bank",
                                                                 "CUI/NWB"),
    ("Cuiaba (northeast bank)", "CUI/NEB"), ("Camaguey nc", "CMG/NC"),
    ("Mississippi (sea coast)", "MIS/SC"), ("Mississippi sc", "MIS/SC"),
    ("Leon [ls]", "LEO/LS"), ("Miskito Coast (sc)", "MSK/SC"), ("Costa Rica (south coast)",
                                                                "CRI/SC"),
])
def test_the_seeds_designations_read(typed: str, loc: str) -> None:
    """"Designations preferred by the GM are given below, but ANY DESIGNATION WHICH IS
    INTELLIGIBLE IS ACCEPTABLE." (the seed's own: "R Para to Cuiaba [nwb]", "R Meta to
    Vaupes [nb]", "R La Paz[rib] to La Paz [ls]", "R Cuiaba [eb] to Cuiaba [sb]", "R Guyana
    [rib] to [sec]")"""
    order = parse_order(M, f"A {typed} H")
    assert M.loc_name[order.loc] == loc


def test_panamas_fleet_starts_on_the_north_coast() -> None:
    """The seed writes "F Panama"; a fleet in a two-coast province stands on one of them."""
    assert "F PAN/NC" in V.power("Colombia").units


# ---- stated borders and non-borders --------------------------------------------------------

@pytest.mark.parametrize(("a", "b"), [
    ("VER", "CHP"), ("TAB", "OAX"), ("CDO", "CAT"), ("SAL", "ATA"), ("STG", "SJU"),
    ("COQ", "MEN"), ("CCS", "BOL"), ("GUR", "APU"),
])
def test_non_traversable_corners(a: str, b: str) -> None:
    """"No unit may move between the following sets of provinces, as they do not border one
    another: VERA CRUZ to CHIAPAS, TOBASCO to OAXACA, CORDILLERA DOMEYKO to CATAMARCA, SALTA
    to ATACAMA, SANTIAGO to SAN JUAN, COQUIMBO to MENDOZA, CARACAS to BOLIVAR DE VENEZUELA,
    GUARICO to APURE. Also, no unit may make the reverse move\""""
    assert b not in neighbours(a) and a not in neighbours(b)
    # the corner is a point where four provinces meet: each of the two touches both others
    common = {x for x in neighbours(a) & neighbours(b)
              if V.provinces[x].terrain in ("land", "river_land")}
    assert len(common) >= 2


def test_guadalajara_borders_san_luis_potosi_so_zacatecas_not_guanajuato() -> None:
    """"GUADALAJARA DOES border SAN LUIS POTOSI, and thus ZACATECAS does NOT border
    GUAGAJUATO.\""""
    assert army("GDL", "SLP") and army("SLP", "GDL")
    assert "GTO" not in neighbours("ZAC")


def test_buenos_aires_does_not_border_uruguay() -> None:
    """"BUENOS ARIES does NOT border on URUGUAY.\""""
    assert "URU" not in neighbours("BUE")


def test_maracaibo_is_not_on_the_golfo_de_venezuela() -> None:
    """"MARACAIBO does not border GOLFO DE VENEZUELA." "GOLFO DE VENEZUELA does not border
    MARACAIBO, but DOES border SOUTH CARIBBEAN SEA.\""""
    assert "GDV" not in neighbours("MCB")
    assert fleet("GDV", "SCS")
    assert fleet("MCB", "LMA")  # Venezuela's "F Maracaibo" is on Lago de Maracaibo


@pytest.mark.parametrize(("a", "b", "sentence"), [
    ("TRI", "GUR", "Any army may cross freely between TRINIDAD & TOBAGO and GUARICO or "
     "MONAGAS."),
    ("TRI", "MON", "Any army may cross freely between TRINIDAD & TOBAGO and GUARICO or "
     "MONAGAS."),
    ("MRJ", "PRA", "Any army may cross freely between ISLA DE MARAJO and its three "
     "neighbouring provinces: PARA, AMAPA, and BELEM"),
    ("MRJ", "AMP", "... PARA, AMAPA, and BELEM"),
    ("MRJ", "BEL", "... PARA, AMAPA, and BELEM"),
    ("ISW", "AIS", "Any army may cross freely betwee ISLA WELLINGTON and AISEN and between "
     "ISLA WELLINGTON and PUERTO ARENAS."),
    ("ISW", "PTA", "... and between ISLA WELLINGTON and PUERTO ARENAS."),
    ("MGS", "TDF", "MAGALLANES SUR and TIERRA DEL FUEGO are clearly connected by land, and so "
     "any army may freely cross between them."),
    ("SMB", "SCX", "any unit, including armies, may cross freely from ST. MAARTEN & ST. "
     "BARTHELEMY to ST. CROIX."),
    ("WFA", "EFA", "a Fleet, River Flotilla or Army may move from one to the other in one "
     "turn, without having to enter FALKLAND SOUND"),
    ("SPE", "TRJ", "Any Army or River Flotilla may move between SAN PEDRO and TARIJA."),
])
def test_where_armies_may_cross_water(a: str, b: str, sentence: str) -> None:
    assert army(a, b) and army(b, a), sentence


def test_the_marajo_crossings_are_its_only_land_neighbours() -> None:
    """"its three neighbouring provinces: PARA, AMAPA, and BELEM\""""
    assert {b for b in neighbours("MRJ") if V.provinces[b].terrain in ("land", "river_land")} == {
        "PRA", "AMP", "BEL"}


def test_the_falklands_crossing_is_marked_for_its_condition() -> None:
    """"... except when FALKLAND SOUND is occupied by any unit" (a rule module of the next
    phase checks the condition; the crossing has its own edge kind for it). "A F in Falkland
    Sound could convoy an army from East Falkand to West Falkland or vice-versa.\""""
    assert edge("falkland", "WFA", "EFA") and fleet("WFA", "EFA")
    assert fleet("FSO", "WFA") and fleet("FSO", "EFA")
    assert M.convoy_prov[M.prov_index["FSO"]]


def test_st_maarten_borders_exactly_st_croix_and_two_island_groups() -> None:
    """"The other two provinces bordering ST. MAARTEN & ST. BARTHELEMY are UPPER BRITISH
    ANTILLES, and the VIRGIN ISLANDS (these two are NOT connected to ST. MAARTEN & ST.
    BARTHELEMY by land).\""""
    assert neighbours("SMB") == {"SCX", "UBA", "VIR"}
    assert not army("SMB", "UBA") and not army("SMB", "VIR")
    assert fleet("SMB", "UBA") and fleet("SMB", "VIR")


def test_isla_wellington_and_punta_arenas_borders() -> None:
    """"ISLA WELLINGTON ... borders on AISEN, GOLFO DE PENAS, PUNTA ARENAS, and CHILE RISE."
    "PUNTA ARENAS is a COASTAL PROVINCE which includes islands that stretch out into but are
    not part of ESTRECHO DE MAGALLANES and CHILE RISE. It borders 4 other provinces: AISEN,
    ISLA WELLINGTON, SANTA CRUZ, and BAHIA GRANDE." "[AISEN] borders on CHILE RISE and ISLA
    WELLINGTON\""""
    assert neighbours("ISW") == {"AIS", "GPE", "PTA", "CHR"}
    assert neighbours("PTA") == {"AIS", "ISW", "SCT", "BGR"}
    assert {"CHR", "ISW"} <= neighbours("AIS")
    assert edge("greater_andes", "AIS", "SCT")  # the Santa Cruz of "AISEN/SANTA CRUZ"


# ---- borders the examples need ------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "how", "sentence"), [
    ("AYA", "LIM", "army", "Bolivian A Ayacucho to Lima; Supported by A Huanuco and A San "
     "Martin. Peruvian A Lima Holds; Supported by A Ancash."),
    ("HUA", "LIM", "army", "Supported by A Huanuco"),
    ("SMT", "LIM", "army", "Supported by ... A San Martin"),
    ("ANC", "LIM", "army", "Supported by A Ancash"),
    ("SJU", "ATA", "army", "Argentina: A San Juan to Atacama with support from A La Rio Ja "
     "and A Coquimbo."),
    ("LRI", "ATA", "army", "with support from A La Rio Ja"),
    ("COQ", "ATA", "army", "and A Coquimbo"),
    ("PTT", "ATA", "fleet", "Chile: A Atacama Holds with support ordered from F Punta Tetas."),
    ("CDO", "ATA", "army", "the Chilean A Atacama was ordered to support, say, an A in "
     "Cordillera Domeyko"),
    ("ANT", "ATA", "army", "Chilean A Antofagasta Hold"),
    ("CTR", "PTT", "fleet", "British F Chile Trench to Punta Tetas"),
    ("CAT", "ATA", "army", "it cannot retreat to the only open province (Catamarca)"),
    ("CUI", "PRA", "army", "Peru: A Cuiaba to Para; R Rondonia to Amazonas."),
    ("PRA", "MAN", "army", "Peru: A Para to Manaus, supported by R Amazonas."),
    ("AMZ", "MAN", "army", "it can order R Amazonas to Manaus"),
    ("NAP", "PAS", "army", "Example: R Napo S A Pastaza. Result: Order is valid."),
    ("SCZ", "COC", "army", "Example: R Beni S A Santa Cruz to Cochabamba."),
    ("BEN", "COC", "army", "R Beni S A Santa Cruz to Cochabamba. Result: Order is Invalid"),
    ("MAG", "SCS", "fleet", "Venezuela: A Magdalena to Santiago de Cuba; F South Caribbean Sea"
     " C"),
    ("SCU", "WPA", "fleet", "F Windward Passage C"),
    ("HAI", "WPA", "fleet", "F Haiti Convoy A Dominican Republic to Windward Passage"),
    ("HAI", "DOM", "army", "Hispaniola is comprised of HAITI and the DOMINICAN REPUBLIC"),
    ("GBS", "SUR", "fleet", "an army can be convoyed from Surinam to Trinidad & Tobago by a "
     "Fleet in Guiana Basin"),
    ("GBS", "TRI", "fleet", "by a Fleet in Guiana Basin"),
    ("GUY", "TRI", "fleet", "Britain: A Guyana to Barbados; F Trinidad and Tobago C"),
    ("TRI", "BAR", "fleet", "F Trinidad and Tobago C A Guyana to Barbados"),
    ("TRI", "GUY/SC", "fleet", "R Trinidad & Tobago to Guyana[sec], convert to Fleet."),
    ("GUY", "PRA", "army", "R Guyana [rib] to Para. Result: The order is invalid; Para has no "
     "river border with Guayana."),
    ("EAO", "MAO", "fleet", "France: F Middle Atlantic Ocean to Equatorial Atlantic Ocean."),
    ("EAO", "CVI", "fleet", "Brazil: F Equatorial Atlantic Ocean S F Middle Atlantic Ocean to "
     "Cape Verde Islands"),
    ("MAO", "CVI", "fleet", "F Middle Atlantic Ocean to Cape Verde"),
    ("GBS", "EAO", "fleet", "F Middle Atlantic Ocean to Equatorial Atlantic Ocean AT Brazil, "
     "supported by F Guiana Basin."),
    ("BMT", "SSE", "fleet", "Britain: F Bermuda Triangle to Sargasso Sea East AT Spain, "
     "supported by F Bermuda Islands"),
    ("BER", "SSE", "fleet", "supported by F Bermuda Islands"),
    ("GAL", "EPR", "fleet", "Colombia orders: F Galapagos Island to East Pacific Rise At Peru"),
    ("MAT", "EPR", "fleet", "Mexico Orders F Middle America Trench to East Pacific Rise AT "
     "Peru"),
    ("PTR", "EPR", "fleet", "Peru orders: F Peru Trench to East Pacific Rise."),
    ("WFA", "FCU", "fleet", "Argentina: R Falkland Current Hold; F West Falkland S R Falkland "
     "Current Hold."),
    ("ARB", "FCU", "fleet", "Brazil: F Argentine Basin to Falkland Current"),
    ("FSO", "FCU", "fleet", "F Falkland Sound S F Argentine Basin to Falkland Current."),
    ("LTI", "PUN", "fleet", "LA PAZ and PUNO border on Lago Titicaca"),
    ("GDV", "SCS", "fleet", "GOLFO DE VENEZUELA ... DOES border SOUTH CARIBBEAN SEA."),
])
def test_borders_the_examples_need(a: str, b: str, how: str, sentence: str) -> None:
    assert (army(a, b) and army(b, a)) if how == "army" else (fleet(a, b) and fleet(b, a)), \
        sentence


def test_atacamas_only_open_retreat_is_over_the_andes() -> None:
    """Rule 5.C.iv example 3: "the Chilean army must be disbanded, as it cannot retreat to
    the only open province (Catamarca) since that lies over a mountainous border" — with San
    Juan (the attacker), La Rioja, Coquimbo, Cordillera Domeyko and Antofagasta occupied, every
    other land neighbour of Atacama is taken."""
    land = {b for b in neighbours("ATA") if army("ATA", b)}
    assert land == {"SJU", "LRI", "COQ", "CDO", "ANT", "CAT"}
    assert edge("mountain", "ATA", "CAT")


def test_the_three_deserts_are_adjacent() -> None:
    """"There are three desert provinces, all adjacent and all part of Chile ... ANTOFAGASTA,
    ATACAMA and TARAPACA" — a chain: Antofagasta borders both (see the test above for why
    Tarapacá does not border Atacama)."""
    assert army("ANT", "TAR") and army("ANT", "ATA")
    assert {"ANT", "ATA", "TAR"} <= set(V.power("Chile").territory)


def test_rivers_of_the_examples() -> None:
    """"Brazil: R Para to Cuiaba [nwb]; or Colombia: R Meta to Vaupes [nb]." "The South Bank
    of AMAZONAS (de Brazil) borders only on CUIABA; the Nort Bank includes all the rest of the
    river borders" "F Amapa to Para [becomes R]" "R Rio Branco to Guyana [rib]" "R Rondonia
    to Amazonas" "R Amazonas to Manaus" "Any Army or River Flotilla may move between SAN PEDRO
    and TARIJA." "R Guyana [rib] to Para. Result: The order is invalid\""""
    for a, b in (("PRA", "CUI/NWB"), ("MET", "VAU/NB"), ("AMP", "PRA"), ("RBR", "GUY/RB"),
                 ("RON", "AMZ"), ("AMZ", "MAN"), ("SPE", "TRJ")):
        assert edge("river", a, b), (a, b)
    assert not edge("river", "GUY", "PRA")
    south = [e for e in V.edges if e.kind == "river" and "AMZ/SB" in (e.a, e.b)]
    assert {e.b if e.a == "AMZ/SB" else e.a for e in south} == {"CUI/NWB"}
    # every bank and shore is on a river, a lake or a sea
    for loc in M.loc_name[M.n_prov:]:
        assert any(loc in (e.a, e.b) for e in V.edges if e.kind in ("river", "lake", "sea")), loc


def test_rivers_run_through_flotilla_country_only() -> None:
    """"A River Flotilla may NOT enter these provinces [Magallanes Sur, Tierra del Fuego]" and
    may not occupy a land province "WHICH DOES NOT HAVE A RIVER COURSING THROUGH IT"."""
    on_river = {e.a.split("/")[0] for e in V.edges if e.kind == "river"} | {
        e.b.split("/")[0] for e in V.edges if e.kind == "river"}
    assert not on_river & {"MGS", "TDF", "JAM", "ISW", "GRL"}
    for rf in tagged("rainforest"):
        assert rf in on_river, rf  # "the unit for getting around in the rainforests"


# ---- border classes --------------------------------------------------------------------

def test_mountain_provinces_have_only_mountainous_borders() -> None:
    """"MOUNTAIN PROVINCES (MP), i.e. PROVINCES WITH ONLY MOUNTAINOUS BORDERS" "[N.B.: LA PAZ
    and PUNO border on Lago Titicaca, and thus each have one border that is not mountainous]\""""
    for p in tagged("mountain") | {"LPZ", "PUN"}:
        for b in neighbours(p):
            if army(p, b):
                assert edge("mountain", p, b), (p, b)
    for p in ("LPZ", "PUN"):
        assert "LTI" in neighbours(p) and not edge("mountain", p, "LTI")


def test_the_greater_andes_run_from_piura_cajamarca_to_aisen_santa_cruz() -> None:
    """"GREATER ANDES: This is the mountainous border starting from the Peruvian border of
    PIURA/CAJAMARCA running south to Chilean/Argentinean border of AISEN/SANTA CRUZ. (N.B.
    this includes the CHILEAN ANDES)." "CHILEAN ANDES: This border, part of the Greater Andes,
    runs south from the border between ATACAMA and CATAMARCA to the border of AISEN/SANTA
    CRUZ.\""""
    ga = {tuple(sorted((e.a, e.b))) for e in V.edges if e.kind == "greater_andes"}
    ca = {tuple(sorted((e.a, e.b))) for e in V.edges if e.kind == "chilean_andes"}
    mountain = {tuple(sorted((e.a, e.b))) for e in V.edges if e.kind == "mountain"}
    assert ca < ga <= mountain
    assert {("CAJ", "PIU"), ("AIS", "SCT"), ("AYA", "LIM")} <= ga
    assert {("ATA", "CAT"), ("AIS", "SCT"), ("ATA", "SJU")} <= ca
    assert ("ANT", "ATA") not in ga  # within Chile
    # one line: its borders form a chain of provinces from Piura to Aisén
    west = {a for pair in ga for a in pair} & tagged("coastal")
    assert {"PIU", "LIM", "ATA", "AIS"} <= west


def test_rainforest_borders() -> None:
    """"RAINFOREST PROVINCES (RF), i.e. PROVINCES WITH ONLY RAINFOREST BORDERS" and "R Napo S
    A Pastaza" supports "across Rainforest Borders\""""
    for p in tagged("rainforest"):
        for b in neighbours(p):
            if army(p, b):
                assert edge("rainforest", p, b), (p, b)
    assert edge("rainforest", "NAP", "PAS")


def test_canal_provinces() -> None:
    """"canals can be built in Panama, or Nicaragua (Miskito Coat and Lon)\""""
    assert tagged("canal") == {"PAN", "MSK", "LEO"}


# ---- whole games -----------------------------------------------------------------------

def test_the_schematic_map_draws_the_start() -> None:
    svg = picture_svg(Game.new(V))
    assert svg.count("data-province=") == M.n_prov
    assert svg.count("data-unit=") == 43


@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_under_standard_rules_play_to_the_end(seed: int) -> None:
    g = Game.new(V)
    rng = random.Random(seed)
    seen = set()
    while not g.is_over:
        for p, lst in random_orders(g.map, g.position, rng).items():
            assert g.set_orders(p, lst) == [], (g.phase, lst)
        seen.add(g.position.phase.season + g.position.phase.type)
        g.process()
    assert g.position.phase.year == 1918
    assert {"DA", "AM", "CM"} <= seen
