"""War in the Americas (the `wita` built-in variant): the seed's tables, each of its six map notes,
its one rule change, the victory conditions and typical openings for all ten powers.

Each scenario test quotes the sentence of the WITA rules text (the seed,
seeds/000_d1fcd5bb087c2f30.txt) that it checks. The adjacency is reconstructed (the seed gives
none); the decisions are listed in the notes of src/polydip/variants/data/wita.toml.
"""

from __future__ import annotations

import random

import pytest
from scenario import Scenario

from polydip.check import check_variant
from polydip.compile import compile_map
from polydip.game.game import Game
from polydip.oneshot import parse_unit
from polydip.play import random_orders
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

# The seed's "Province List and Abreviations", verbatim (name | abbreviation | type | SC).
SEED_PROVINCES = """\
Acapulco | Aca | Land |
Aconcagua | Aco | Land |
Acre | Acr | Land |
Alaska | Ala | Land | SC
Amazonia | Ama | Channel | SC
Andes | And | Land |
Anegada Channel | ACH | Sea |
Antofagasta | Ant | Land | SC
Appalachian Bay | APP | Sea |
Araucan Gulf | AGU | Sea |
Araucania | Ara | Land |
Arequipa | Are | Land | SC
Artic Ocean | AO | Edge Sea |
Asuncion | Asu | Land | SC
Atacama | Ata | Land |
Atlanta | Atl | Land | SC
Bahama Islands | BIs | Land | SC
Bahia | Bah | Land | SC
Bahia Blanca | BBL | Sea |
Bahia Grande | BGR | Sea |
Baja California | Baj | Land |
Barquisimeto | Bar | Land | SC
Beni | Ben | Land |
Bering Sea | BER | Edge Sea |
Bermuda Triangle | BTR | Sea |
Bogota | Bog | Land | SC
Bolivar | Bol | Land |
British Guyana | BGu | Land | SC
Buenos Aires | BAs | Land | SC
Cajamarca | Caj | Land |
Cali | Cli | Land | SC
California | Cal | Land | SC
Camaguey | Cam | Land |
Caqueta | Caq | Land |
Caracas | Car | Land | SC
Cartagena | Crt | Land | SC
Cayenne | Cay | Land |
Central Pacific Ocean | CPO | Edge Sea |
Chaco Austral | CAu | Land |
Chaco Boreal | CBo | Land |
Chesapeake Bay | CHE | Sea |
Chiapas | Chp | Land |
Chicago | Chi | Channel | SC
Chihuahua | Chh | Land |
Chiriqui Gulf | CHG | Sea |
Coast of Brazil | COB | Sea |
Coast of Mexico | COM | Sea |
Coast of Peru | COP | Sea |
Corcovado Gulf | CGU | Sea |
Cordoba | Cor | Land | SC
Costa Rica | CRi | Land |
Cuzco | Cuz | Land | SC
Dakotas | Dak | Land |
Delta | Del | Channel |
Drake Pass | DRA | Edge Sea |
Dutch Guayana | DGu | Land | SC
East Caribbean Sea | ECS | Sea |
East Coast | ECO | Sea |
Easter Island | Eas | Land | SC
Eastern Great Lakes | EGL | Sea |
Ecuador | Ecu | Land | SC
El Salvador | ESa | Land |
Florida | Flo | Land |
Florida Strait | FST | Sea |
Galapagos Islands | Gal | Land | SC
Greenland | Gre | Land | SC
Guadalajara | Gdl | Land | SC
Guajira | Gjr | Land |
Guanabara Bay | GBA | Sea |
Guatemala | Gua | Land | SC
Guayanas Sea | GSE | Sea |
Gulf of Alaska | GOA | Sea |
Gulf of Campeche | GOC | Sea |
Gulf of Fonseca | GOF | Sea |
Gulf of Guayaquil | GOG | Sea |
Gulf of Honduras | GOH | Sea |
Gulf of Mexico | GOM | Sea |
Gulf of Panama | GOP | Sea |
Gulf of San Lorenzo | GOS | Sea |
Gulf of Santa Catarina | GSC | Sea |
Gulf of Tehuantepec | GOT | Sea |
Gulf of Uraba | GOU | Sea |
Gulf of Venezuela | GOV | Sea |
Haiti | Hai | Land | SC
Halifax | Hal | Land | SC
Havana | Hav | Land | SC
Hawaii | Haw | Land | SC
Honduras | Hon | Land |
Hudson Bay | HUD | Sea |
Humboldt Sea | HUM | Sea |
Jamaica | Jam | Land | SC
Kansas | Kan | Land |
Kentucky | Ken | Channel |
La Paz | LPa | Land | SC
Labrador Sea | LAB | Sea |
Lima | Lim | Land | SC
Loreto | Lor | Channel |
Magallanes | Mag | Channel |
Malvinas | Mal | Land | SC
Maracaibo | Mar | Land | SC
Marajo Bay | MBA | Sea |
Massachusets Gulf | MAS | Sea |
Mato Grosso | MGr | Land |
Mexico | Mex | Land | SC
Michigan | Mic | Channel |
Mid Atlantic Ocean | MAO | Edge Sea |
Mid Pacific Ocean | MPO | Sea |
Minas Gerais | MGe | Land | SC
Minnesota | Min | Channel |
Misiones | Mis | Land |
Mississippi | Msp | Channel |
Missouri | Mso | Channel |
Montreal | Mon | Channel | SC
Mosquito Bay | MOS | Sea |
New Caledonia | NCa | Land |
New England | NEn | Land |
New Mexico | NMe | Land |
New Orleans | NOr | Channel | SC
New York Bay | NYB | Sea |
New York City | NYC | Channel | SC
New York State | NYS | Channel |
Newfoundland | New | Land |
Nicaragua | Nic | Land | SC
North Atlantic Ocean | NAO | Edge Sea |
North Caribbean Sea | NCS | Sea |
North Pacific Ocean | NPO | Edge Sea |
Northwest Territories | NWT | Channel |
Nuevo Leon | NLe | Land |
Oaxaca | Oax | Land |
Ohio | Ohi | Land |
Ontario | Ont | Land |
Oregon | Ore | Land | SC
Orinoquia | Ori | Land |
Pampas | Pam | Land |
Panama | Pan | Channel | SC
Para | Par | Channel |
Paranagua Bay | PBA | Sea |
Patagonia | Pat | Land | SC
Porto Alegre | PAl | Land |
Potosi | Pot | Land |
Puerto Rico | PRi | Land | SC
Quebec | Que | Land |
Rio de Janeiro | RdJ | Land | SC
Rio de la Plata | RLP | Sea |
Rocky Mountains | RMo | Land |
Rupert’s Land | Rup | Land |
Santa Cruz | SCr | Land | SC
Santa Fe | SFe | Land | SC
Santaren Channel | SCH | Sea |
Santiago | San | Land | SC
Santiago de Cuba | SdC | Land | SC
Santo Domingo | SDo | Land | SC
Sao Paulo | SPa | Land | SC
Sargasso Sea | SAR | Sea |
Sea of Cortes | SOC | Sea |
Sierra Nevada | SNe | Land |
Sonora | Son | Land |
South Atlantic Ocean | SAO | Edge Sea |
South Pacific Ocean | SPO | Edge Sea |
Strait of Yucatan | SOY | Sea |
Tarapaca | Tar | Land |
Temuco | Tem | Land | SC
Texas | Tex | Land | SC
Tierra de Fuego | TdF | Land |
Toronto | Tor | Channel | SC
Trinidad | Tri | Channel | SC
Tucuman | Tuc | Land |
Uruguay | Uru | Land | SC
Valparaiso | Val | Land | SC
Veracruz | Ver | Land | SC
Virginia | Vir | Land |
Washington | Was | Land | SC
West Caribbean Sea | WCS | Sea |
West Indies | WIn | Channel |
Western Great Lakes | WGL | Sea |
Yucatan | Yuc | Land | SC
"""

# The seed's "Starting Positions", verbatim.
SEED_UNITS = {
    "Argentina": ["F Buenos Aires", "A Cordoba", "A Santa Fe"],
    "Brazil": ["F Rio de Janeiro", "A Sao Paulo", "A Minas Gerais", "F Bahia"],
    "Colombia": ["A Bogota", "A Cartagena", "F Cali (NC)"],
    "Mexico": ["A Mexico", "F Veracruz", "A Guadalajara"],
    "Great_Britain": ["A Montreal", "F Trinidad", "F Jamaica", "F Halifax", "F Malvinas"],
    "Chile": ["A Santiago", "F Temuco", "F Valparaiso"],
    "Peru": ["F Lima", "A Arequipa", "A Cuzco"],
    "Spain": ["F Havana", "F Puerto Rico", "F Santiago de Cuba"],
    "United_States": ["A Washington", "F New York", "A New Orleans", "A Atlanta"],
    "Venezuela": ["F Caracas", "A Maracaibo", "A Bolivar"],
}
SEED_LETTERS = {"Argentina": "A", "Brazil": "B", "Colombia": "C", "Mexico": "E",
                "Great_Britain": "G", "Chile": "H", "Peru": "P", "Spain": "S",
                "United_States": "U", "Venezuela": "V"}
TYPES = {"Land": "land", "Channel": "channel", "Sea": "sea", "Edge Sea": "edge_sea"}


def seed_rows() -> list[tuple[str, str, str, bool]]:
    rows = []
    for line in SEED_PROVINCES.splitlines():
        name, abbr, typ, sc = (c.strip() for c in line.split("|"))
        rows.append((name, abbr, typ, sc == "SC"))
    return rows


def power_name(seed_name: str) -> str:
    return seed_name.replace("_", " ")


_SCENARIO = Scenario("wita", "S1846M", "Spain")
adjudicate, move, path = _SCENARIO.adjudicate, _SCENARIO.move, _SCENARIO.path


# ---- the variant file ---------------------------------------------------------------------

def test_variant_file_checks_clean() -> None:
    v = load_variant("wita")
    assert check_variant(v) == []
    assert (v.name, v.title, v.designer) == ("wita", "War in the Americas", "Macario Reyes")
    assert v.declared == {"supply_centers": 61, "provinces": 176}


def test_province_table_is_the_seeds() -> None:
    """"Province List and Abreviations": all 176, with the seed's names, abbreviations, types
    and supply centers."""
    v = load_variant("wita")
    rows = seed_rows()
    assert len(rows) == 176 and len(v.provinces) == 176
    for name, abbr, typ, sc in rows:
        p = v.provinces[abbr.upper()]
        assert p.name == name
        assert p.terrain == TYPES[typ]
        assert (p.supply_center is not None) == sc, abbr
    assert {a.upper() for _, a, _, _ in rows} == set(v.provinces)


def test_seed_types_decide_who_may_stand_where() -> None:
    """Channel: armies and fleets; Sea and Edge Sea: fleets only; Land: armies, and fleets only
    on coastal land."""
    m = compile_map(load_variant("wita"))
    army, fleet = m.kinds.index("A"), m.kinds.index("F")
    for _, abbr, typ, _ in seed_rows():
        i = m.prov_index[abbr.upper()]
        f = any(m.occupy[fleet][loc] for loc in (i, *m.prov_coast_locs[i]))
        a = m.occupy[army][i]
        if typ == "Channel":
            assert a and f, abbr
        elif typ in ("Sea", "Edge Sea"):
            assert f and not a, abbr
        else:
            assert a, abbr
    # inland land keeps fleets out
    for inland in ("MEX", "KAN", "DAK", "BOL", "BAR", "SAN", "POT"):
        assert not m.occupy[fleet][m.prov_index[inland]], inland


def test_starting_units_are_the_seeds() -> None:
    """"Starting Positions": ten powers with the seed's letters, 34 units; "F New York" is New
    York City and "F Cali (NC)" is on Cali's north coast."""
    g = Game.new("wita")
    assert len(g.position.units) == 34
    for seed_name, units in SEED_UNITS.items():
        p = g.power(power_name(seed_name))
        assert g.map.power_letters[p] == SEED_LETTERS[seed_name]
        have = {g.map.unit_str(u.kind, u.loc) for u in g.position.units if u.power == p}
        want = set()
        for text in units:
            k, loc = parse_unit(g.map, text)
            want.add(g.map.unit_str(k, loc))
        assert have == want, seed_name
    assert "F NYC" in {g.map.unit_str(u.kind, u.loc) for u in g.position.units}
    assert "F CLI/NC" in {g.map.unit_str(u.kind, u.loc) for u in g.position.units}


def test_venezuela_reading_keeps_61_centers_and_the_seeds_units() -> None:
    """The seed starts Venezuela with "A Bolivar" but marks Barquisimeto, not Bolivar, as a
    supply center. Default reading: the units as listed, Barquisimeto Venezuela's third home."""
    v = load_variant("wita")
    ven = v.power("Venezuela")
    assert ven.units == ["F CAR", "A MAR", "A BOL"]
    assert sorted(ven.homes) == ["BAR", "CAR", "MAR"]
    assert v.provinces["BOL"].supply_center is None
    assert v.provinces["BAR"].supply_center is not None
    homes = [h for p in v.powers for h in p.homes]
    assert len(homes) == len(set(homes)) == 34
    for p in v.powers:  # every power starts with as many centers as units
        assert len(p.centers) == len(p.units), p.name
    # the army in Bolivar steps onto its center
    assert move("A BOL", "BAR", "Venezuela") == "A BAR"


# ---- note 1: canals and waterways ----------------------------------------------------------

def test_erie_canal() -> None:
    """Note 1: "New York City/New York State- the Erie Canal, allows passage from New York Bay
    to Eastern Great Lakes" (they all act like Kiel)."""
    assert path("F NYB", "NYC", "NYS", "EGL") == "F EGL"
    assert path("F EGL", "NYS", "NYC", "NYB") == "F NYB"
    assert move("F NYB", "NYS") == "F NYB"  # one province at a time: NYB does not touch NYS
    assert move("A NYC", "NYS") == "A NYS"  # armies pass through too, as through Kiel


def test_panama_canal() -> None:
    """Note 1: "Panama – the Panama Canal ... is used in the game to cross between the Atlantic
    and Pacific areas.\""""
    assert path("F GOU", "PAN", "GOP") == "F GOP"
    assert path("F CHG", "PAN", "MOS") == "F MOS"
    assert move("A CRI", "PAN", "Colombia") == "A PAN"
    assert move("F GOU", "GOP") == "F GOU"  # not without standing in Panama


def test_magallanes_strait() -> None:
    """Note 1: "Magallanes – Magallanes Strait, allows an extra passage between oceans at the
    bottom tip of South America.\""""
    assert path("F BGR", "MAG", "CGU") == "F CGU"
    assert path("F CGU", "MAG", "BGR") == "F BGR"
    assert path("F DRA", "MAG", "ARA") == "F ARA"


def test_montreal_st_lawrence() -> None:
    """Note 1: "Montreal – St-Lawrence waterway, allows passage from Gulf of St. Lawrence to the
    Eastern Great Lakes.\""""
    assert path("F GOS", "MON", "EGL") == "F EGL"
    assert path("F EGL", "MON", "GOS") == "F GOS"


def test_trinidad_fleets_cross_and_armies_walk() -> None:
    """Note 1: "Trinidad – ... movement of fleets is allowed from one side to the other, while
    armies can move through land from West Indies to Trinidad and from Trinidad to Delta.\""""
    assert path("F ECS", "TRI", "GSE") == "F GSE"
    assert path("F GSE", "TRI", "ECS") == "F ECS"
    assert path("A WIN", "TRI", "DEL") == "A DEL"
    assert path("A DEL", "TRI", "WIN") == "A WIN"
    assert move("A WIN", "DEL") == "A WIN"  # through Trinidad, not past it
    # West Indies is a channel too: fleets stand there
    assert path("F MAO", "WIN", "TRI") == "F TRI"


# ---- note 2: continuous coasts ---------------------------------------------------------------

@pytest.mark.parametrize("prov,one,other", [("TOR", "EGL", "WGL"), ("MIC", "WGL", "EGL"),
                                            ("DEL", "ECS", "GSE")])
def test_continuous_coasts(prov: str, one: str, other: str) -> None:
    """Note 2: "Movement by fleets is allowed along the coasts of Toronto, Michigan and Delta as
    if they were canals, like Denmark in the standard variant.\""""
    assert path(f"F {one}", prov, other) == f"F {other}"
    assert path(f"F {other}", prov, one) == f"F {one}"
    # a channel: armies stand there and walk on
    land = {"TOR": "MON", "MIC": "CHI", "DEL": "CAR"}[prov]
    assert move(f"A {prov}", land) == f"A {land}"


# ---- note 3: navigable rivers ----------------------------------------------------------------

def test_mississippi_missouri_four_moves_from_the_lakes_to_the_gulf() -> None:
    """Note 3: "a fleet can move from the Great Lakes to the Ocean or viceversa in 4 turns
    ordering WGL-Min (or WGL-Chi), Min-Mso (or Chi-Mso), Mso-NOr and NOr-GOM.\""""
    g = Game.new("wita")
    # the seed's four orders as a player types them, one per movement phase, on an empty board
    g.position.units = []
    k, loc = parse_unit(g.map, "F WGL")
    g.position.units.append(Unit(g.power("Great Britain"), k, loc))
    for order in ("F WGL - Min", "F Min - Mso", "F Mso - NOr", "F NOr - GOM"):
        assert g.set_orders("Great Britain", [order]) == []
        g.process()
        while g.position.phase.type != "M":
            g.process()
    fleets = {g.map.unit_str(u.kind, u.loc) for u in g.position.units
              if u.power == g.power("Great Britain")}
    assert fleets == {"F GOM"}
    # the alternatives the seed names, and the way back
    assert path("F WGL", "CHI", "MSO", "NOR", "GOM") == "F GOM"
    assert path("F GOM", "NOR", "MSO", "MIN", "WGL") == "F WGL"


def test_mississippi_missouri_passes_through_every_river_province() -> None:
    """Note 3: "passing through the provinces of New Orleans, Mississippi, Kentucky, Missouri,
    Chicago and Minnesota.\""""
    assert path("F GOM", "NOR", "MSP", "KEN", "CHI", "WGL") == "F WGL"
    assert path("F NOR", "MSP", "KEN", "MSO", "MIN") == "F MIN"
    assert path("F MSO", "CHI") == "F CHI"
    # the river is the only water there: no fleet leaves it for the plains or the coast
    for frm, to in (("MSO", "KAN"), ("MSO", "DAK"), ("KEN", "OHI"), ("MSP", "ATL"),
                    ("MSP", "GOM"), ("KEN", "VIR"), ("MIN", "DAK")):
        assert move(f"F {frm}", to) == f"F {frm}", (frm, to)
    # armies walk the river provinces as ordinary land
    assert path("A NOR", "MSP", "KEN", "MSO", "KAN") == "A KAN"


def test_amazonas() -> None:
    """Note 3: "The Amazonas. Which allows the passage of fleets through he provinces of Para,
    Amazonia and Loreto.\""""
    assert path("F MBA", "PAR", "AMA", "LOR") == "F LOR"
    assert path("F LOR", "AMA", "PAR", "GSE") == "F GSE"
    for frm, to in (("LOR", "CAJ"), ("AMA", "BOL"), ("AMA", "MGR"), ("LOR", "ECU")):
        assert move(f"F {frm}", to) == f"F {frm}", (frm, to)


# ---- note 4: two coasts -------------------------------------------------------------------

TWO_COASTS = {"CLI": ("NC", "WC"), "CRI": ("EC", "WC"), "NIC": ("EC", "WC"),
              "HON": ("NC", "SC"), "GUA": ("EC", "SC"), "CHP": ("NC", "SC"),
              "ONT": ("NC", "SC"), "WAS": ("NC", "EC")}
# for each province: a sea only the first coast touches, a sea only the second touches
COAST_SEAS = {"CLI": ("GOU", "GOP"), "CRI": ("MOS", "CHG"), "NIC": ("WCS", "GOF"),
              "HON": ("GOH", "GOF"), "GUA": ("GOH", "GOT"), "CHP": ("GOC", "GOT"),
              "ONT": ("HUD", "WGL"), "WAS": ("EGL", "CHE")}


def test_two_coast_provinces() -> None:
    """Note 4: "Provinces that have two coasts: Cali, Costa Rica, Nicaragua, Honduras,
    Guatemala, Chiapas, Ontario and Washington.\""""
    v = load_variant("wita")
    have = {a: tuple(p.coasts) for a, p in v.provinces.items() if p.coasts}
    assert have == TWO_COASTS
    assert not v.provinces["CAM"].coasts  # Camaguey had two coasts in version 4, not here


@pytest.mark.parametrize("prov", sorted(TWO_COASTS))
def test_a_fleet_sails_from_the_coast_it_stands_on(prov: str) -> None:
    """Note 4: a fleet on one coast reaches only the waters of that coast."""
    _SCENARIO.sails_from_its_coast(prov, TWO_COASTS[prov], COAST_SEAS[prov])


def test_cali_north_coast_start() -> None:
    """Starting positions: "F Cali (NC)" sails into the Caribbean, not the Pacific."""
    out = adjudicate({"Colombia": ["F Cali (NC)"]}, {"Colombia": ["F Cali (NC) - Gulf of Uraba"]},
                     phase="S1845M")
    assert out["units"]["Colombia"] == ["F GOU"]


# ---- note 5: Misiones ---------------------------------------------------------------------

def test_misiones_separates_buenos_aires_and_uruguay() -> None:
    """Note 5: "Misiones province in Argentina has access to the Rio de la Plata, therefore
    Buenos Aires and Uruguay are not adjacent by land.\""""
    assert move("A BAS", "URU", "Argentina") == "A BAS"
    assert move("A URU", "BAS", "Argentina") == "A URU"
    assert move("F BAS", "URU", "Argentina") == "F BAS"
    assert path("A BAS", "MIS", "URU", power="Argentina") == "A URU"
    assert path("F RLP", "MIS", "URU", power="Argentina") == "F URU"
    assert path("F BAS", "MIS", "RLP", power="Argentina") == "F RLP"


# ---- note 6 and the victory options ---------------------------------------------------------

def _game_with_centers(counts: dict[str, int], options: dict | None = None) -> Game:
    """A game in F1846M where each named power owns that many centers (none of them URU),
    and Brazil has an army in Porto Alegre, next to the neutral Uruguay."""
    g = Game.new("wita", options)
    m = g.map
    pool = [c for c in m.sc_list if m.prov_abbr[c] != "URU"]
    g.position.owners = [-1] * m.n_prov
    for power, n in counts.items():
        for _ in range(n):
            g.position.owners[pool.pop()] = g.power(power)
    k, loc = parse_unit(m, "A PAL")
    g.position.units = [Unit(g.power("Brazil"), k, loc)]
    g.position.phase = Phase(1846, "F", "M")
    return g


def test_61_centers_and_victory_at_31() -> None:
    """Note 6: "There are 61 supply centers, therefore victory is obtained by gaining control
    of 31 centers.\""""
    v = load_variant("wita")
    assert sum(1 for p in v.provinces.values() if p.supply_center) == 61
    assert v.victory.centers == 31
    g = _game_with_centers({"Brazil": 29, "Argentina": 20})
    g.set_orders("Brazil", ["A PAL - URU"])
    g.process()
    assert not g.is_over  # 30 centers
    g = _game_with_centers({"Brazil": 30, "Argentina": 30})
    g.set_orders("Brazil", ["A PAL - URU"])
    g.process()
    assert g.status == "won" and g.winners == [g.power("Brazil")]


def test_playdiplomacy_victory_option() -> None:
    """Options: PlayDiplomacy's "24 centers and more than any other power"."""
    g = _game_with_centers({"Brazil": 23, "Argentina": 24}, {"victory": "playdiplomacy"})
    g.set_orders("Brazil", ["A PAL - URU"])
    g.process()
    assert not g.is_over  # 24 each: Brazil is not ahead of Argentina
    g = _game_with_centers({"Brazil": 23, "Argentina": 23}, {"victory": "playdiplomacy"})
    g.set_orders("Brazil", ["A PAL - URU"])
    g.process()
    assert g.status == "won" and g.winners == [g.power("Brazil")]
    g = _game_with_centers({"Brazil": 23, "Argentina": 23})  # default: 31 needed
    g.set_orders("Brazil", ["A PAL - URU"])
    g.process()
    assert not g.is_over


# ---- the rule change: builds ----------------------------------------------------------------

def test_build_on_any_center_owned_at_the_beginning_of_the_year() -> None:
    """"units may be built on any supply center owned by a power at the beginning of the year,
    as in the Chaos variant.\""""
    out = adjudicate(
        {"Argentina": ["A COR"]},
        {"Argentina": ["Build A URU", "Build A ASU", "Build F BAS"]},
        phase="W1846A",
        centers={"Argentina": ["BAS", "COR", "SFE", "URU", "ASU"]},
        year_start_centers={"Argentina": ["BAS", "COR", "SFE", "URU"]},
    )
    assert out["results"]["A URU B"] == []  # not a home center, owned since the year began
    assert out["results"]["A ASU B"] == ["void"]  # taken this year
    assert out["results"]["F BAS B"] == []
    assert sorted(out["units"]["Argentina"]) == ["A COR", "A URU", "F BAS"]


def test_build_on_a_center_taken_last_year() -> None:
    """"units may be built on any supply center owned by a power at the beginning of the year":
    Uruguay, neutral until Argentina takes it in 1845, is a build site in the winter of 1846
    once vacated; Asuncion, taken in 1846, is not."""
    g = Game.new("wita")
    for orders in (["A SFE - MIS"], ["A MIS - URU"]):
        assert g.set_orders("Argentina", orders) == []
        g.process()
    assert g.phase == "W1845A"
    assert set(g.legal_orders("Argentina")) == {"SFE"}  # vacant; BAS, COR, URU are occupied
    assert g.set_orders("Argentina", ["Build A SFE"]) == []
    g.process()
    for orders in (["A URU - MIS", "A COR - CAU"], ["A MIS H", "A CAU - ASU"]):
        assert g.set_orders("Argentina", orders) == []
        g.process()
    assert g.phase == "W1846A"
    assert set(g.legal_orders("Argentina")) == {"COR", "URU"}  # not only the home center
    assert g.set_orders("Argentina", ["Build A URU"]) == []
    g.process()
    assert "A URU" in units_by_power(g)["Argentina"]


# ---- openings -----------------------------------------------------------------------------

OPENINGS = {
    "S1845M": {
        "Argentina": ["F BAS - BBL", "A SFE - MIS", "A COR - CAU"],
        "Brazil": ["F BAH - MBA", "A MGE - PAR", "A SPA - MGR", "F RDJ - PBA"],
        "Colombia": ["F CLI/NC - PAN", "A BOG - CAQ", "A CRT - GJR"],
        "Mexico": ["F VER - GOC", "A MEX - OAX", "A GDL - NLE"],
        "Great Britain": ["A MON - TOR", "F HAL - NAO", "F TRI - GSE", "F JAM - WCS",
                          "F MAL - SAO"],
        "Chile": ["A SAN - ATA", "F VAL - AGU", "F TEM - CGU"],
        "Peru": ["F LIM - COP", "A ARE - TAR", "A CUZ - LPA"],
        "Spain": ["F PRI - ECS", "F HAV - NCS", "F SDC - SCH"],
        "United States": ["A WAS - OHI", "A NOR - TEX", "A ATL - FLO", "F NYC - NYB"],
        "Venezuela": ["A BOL - BGU", "A MAR - GJR", "F CAR - DEL"],
    },
    "F1845M": {
        "Argentina": ["F BBL - PAT", "A MIS - URU", "A CAU - ASU"],
        "Brazil": ["F MBA H", "A PAR - DGU", "A MGR - SCR", "F PBA H"],
        "Colombia": ["F PAN H", "A CAQ - ECU", "A CRT H"],
        "Mexico": ["F GOC - YUC", "A OAX - CHP", "A NLE - TEX"],
        "Great Britain": ["A TOR H", "F NAO - GRE", "F GSE - BGU", "F WCS - NIC/EC",
                          "F SAO H"],
        "Chile": ["A ATA - ANT", "F AGU - EAS", "F CGU H"],
        "Peru": ["F COP - GOG", "A TAR - ANT", "A LPA H"],
        "Spain": ["F ECS - SDO", "F NCS - HAI", "F SCH - BIS"],
        "United States": ["A OHI - CHI", "A TEX H", "A FLO H", "F NYB H"],
        "Venezuela": ["A BGU H", "A MAR H", "F DEL - TRI"],
    },
}
AFTER_1845 = {
    "Argentina": {"F PAT", "A URU", "A ASU"},
    "Brazil": {"F MBA", "A DGU", "A SCR", "F PBA"},
    "Colombia": {"F PAN", "A ECU", "A CRT"},
    "Mexico": {"F YUC", "A CHP", "A NLE"},
    "Great Britain": {"A TOR", "F GRE", "F GSE", "F NIC/EC", "F SAO"},
    "Chile": {"A ATA", "F EAS", "F CGU"},
    "Peru": {"F GOG", "A TAR", "A LPA"},
    "Spain": {"F SDO", "F HAI", "F BIS"},
    "United States": {"A CHI", "A TEX", "A FLO", "F NYB"},
    "Venezuela": {"A BGU", "A MAR", "F TRI"},
}
CENTERS_1845 = {
    "Argentina": {"BAS", "COR", "SFE", "PAT", "URU", "ASU"},
    "Brazil": {"RDJ", "SPA", "MGE", "BAH", "DGU", "SCR"},
    "Colombia": {"BOG", "CRT", "CLI", "PAN", "ECU"},
    "Mexico": {"MEX", "VER", "GDL", "YUC"},
    "Great Britain": {"MON", "JAM", "HAL", "MAL", "TOR", "GRE", "NIC"},
    "Chile": {"SAN", "TEM", "VAL", "EAS"},
    "Peru": {"LIM", "ARE", "CUZ", "LPA"},
    "Spain": {"HAV", "PRI", "SDC", "SDO", "HAI", "BIS"},
    "United States": {"WAS", "NYC", "NOR", "ATL", "TEX", "CHI"},
    "Venezuela": {"CAR", "MAR", "BAR", "BGU", "TRI"},
}
BUILDS_1845 = {
    "Argentina": ["Build A BAS", "Build A COR", "Build A SFE"],
    "Brazil": ["Build F RDJ", "Build A SPA"],
    "Colombia": ["Build A BOG", "Build F CLI/WC"],
    "Mexico": ["Build F VER"],
    "Great Britain": ["Build A MON", "Build F HAL"],
    "Chile": ["Build A SAN"],
    "Peru": ["Build F LIM"],
    "Spain": ["Build F HAV", "Build F PRI", "Build F SDC"],
    "United States": ["Build A WAS", "Build F NYC"],
    "Venezuela": ["Build F CAR", "Build A BAR"],
}


def units_by_power(g: Game) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {p: set() for p in g.map.powers}
    for u in g.position.units:
        out[g.map.powers[u.power]].add(g.map.unit_str(u.kind, u.loc))
    return out


def test_opening_year_with_typical_openings_for_every_power() -> None:
    """The first year (1845) with typical openings: Argentina south and east, Brazil to the
    Guianas and the interior, Colombia to Panama and Ecuador, Mexico to Yucatan and Texas, Great
    Britain to Toronto, Greenland and Nicaragua, Chile to Easter Island and Antofagasta, Peru to
    La Paz and Antofagasta, Spain to Hispaniola and the Bahamas, the United States to Texas and
    Chicago, Venezuela to British Guyana and Trinidad."""
    g = Game.new("wita")
    for phase in ("S1845M", "F1845M"):
        assert g.phase == phase
        for power, orders in OPENINGS[phase].items():
            assert g.set_orders(power, orders) == [], (power, orders)
        out = g.process()
        assert out.errors == []
    res = {r.text: r.result for r in out.results}
    assert res["A NLE - TEX"] and res["A TAR - ANT"] and res["A ATA - ANT"]  # bounces
    assert res["F GSE - BGU"]  # the Venezuelan army holds British Guyana
    assert res["F DEL - TRI"] == []  # Trinidad left empty: Venezuela takes it
    assert g.phase == "W1845A"
    assert units_by_power(g) == AFTER_1845
    for power, centers in CENTERS_1845.items():
        mine = {g.map.prov_abbr[c] for c in g.position.centers_of(g.power(power))}
        assert mine == centers, power
    assert sum(len(c) for c in CENTERS_1845.values()) == 53
    for power, builds in BUILDS_1845.items():
        assert g.set_orders(power, builds) == [], power
    out = g.process()
    assert [r.text for r in out.results if r.result] == []  # every build succeeds
    assert g.phase == "S1846M"
    for power, units in units_by_power(g).items():
        assert len(units) == len(CENTERS_1845[power]), power
        built = {b.split(" ", 1)[1] for b in BUILDS_1845[power]}
        assert units == AFTER_1845[power] | built, power


def test_first_spring_bounces() -> None:
    """Opening conflicts: Colombia and Venezuela both open to Guajira and bounce."""
    g = Game.new("wita")
    g.set_orders("Colombia", ["A CRT - GJR"])
    g.set_orders("Venezuela", ["A MAR - GJR"])
    out = g.process()
    res = {r.text: r.result for r in out.results}
    assert res["A CRT - GJR"] == ["bounce"] and res["A MAR - GJR"] == ["bounce"]


# ---- random play ----------------------------------------------------------------------------

def test_random_games_play_without_errors() -> None:
    for seed in (1, 2):
        rng = random.Random(seed)
        g = Game.new("wita")
        while not g.is_over and g.position.phase.year < 1856:
            for p, lst in random_orders(g.map, g.position, rng).items():
                assert g.set_orders(p, lst) == []
            out = g.process()
            assert out.errors == []
        assert len({u.loc for u in g.position.units}) == len(g.position.units)
