"""War in North America (the `war_in_north_america` built-in variant) on its real map: the
seed's powers, homes, units and neutrals, the Winter 1859 start, every rule of the seed and
every adjacency it states or denies, an opening year, and random games played to their end.

Each scenario test quotes the sentence of the seed (seeds/004_5ecf9dbf24864b02.txt, the German
Ludomaniacs rules page) that it checks, as written, with an English gloss. The map is
reconstructed (the seed has none); its decisions are listed, numbered, in the notes of
src/polydip/variants/data/war_in_north_america.toml, and tests of a decision name its number.
"""

from __future__ import annotations

import random
import re

import pytest
from scenario import Scenario

from polydip.check import check_variant
from polydip.compile import compile_map
from polydip.game.game import Game
from polydip.geography.map import normalize_name
from polydip.oneshot import adjudicate_request, parse_unit
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

V = "war_in_north_america"

# "STARTAUFSTELLUNG", the seed's table (its unit and place spellings, "Souix" included)
SEED_START = {
    "Canada": (["F Montreal (sc)", "F Toronto(sc)", "A Winnipeg"],
               ["Montreal", "Toronto", "Winnipeg"]),
    "Confederate States": (["A Richmond", "F Savannah", "A Jackson"],
                           ["Richmond", "Savannah", "Jackson"]),
    "Native Federation": (["A Apache", "A Comanche", "A Souix"], ["Apache", "Comanche", "Souix"]),
    "Mexico": (["A Guadalajara", "A Tampico", "F Mexico City (wc)"],
               ["Guadalajara", "Tampico", "Mexico City"]),
    "Texas": (["A El Paso", "A San Antonio", "A Galveston"],
              ["El Paso", "San Antonio", "Galveston"]),
    "United States": ([], ["New York City", "Cincinnati", "Chicago", "Philadelphia"]),
}
# "VZ-Kontrolle bei Partiestart: Boston (kein Heimat-VZ) Cincannati Chicago Philadelphia
# California (kein Heimat-VZ)" (centers controlled at the start; Boston and California are not
# home centers)
SEED_USA_CENTERS = ["Boston", "Cincannati", "Chicago", "Philadelphia", "California"]
# "Neutrale Staaten: A Alaska (russisch), A Newfoundland (britisch), A Cuba (spanisch)"
SEED_NEUTRALS = {"Russia": "Alaska", "Britain": "Newfoundland", "Spain": "Cuba"}
# every place the seed names, as it writes it, with its abbreviation where it gives one
SEED_PLACES = {
    "New York City": "NYC", "Nyc": "NYC", "Alaska": "ALA", "Ala": "ALA", "Boston": "BOS",
    "California": "CAL", "Cincinnati": "CIN", "Cincannati": "CIN", "Chicago": "CHI",
    "Philadelphia": "PHI", "Montreal": "MON", "Toronto": "TOR", "Tor": "TOR",
    "Winnipeg": "WIN", "Richmond": "RIC", "Savannah": "SAV", "Jackson": "JAC", "Apache": "APA",
    "Comanche": "COM", "Souix": "SOU", "Guadalajara": "GDL", "Tampico": "TAM",
    "Mexico City": "MEX", "El Paso": "ELP", "San Antonio": "SAN", "Galveston": "GAL",
    "Newfoundland": "NFL", "Cuba": "CUB", "Arctic Ocean": "ARC", "Arktischer Ozean": "ARC",
    "Greenland": "GRE", "Grönland": "GRE", "South America": "SAM", "Südmaerika": "SAM",
    "Cape Horn": "CHO", "Atlantik": "ATL", "Pazifik": "PAC", "Great Lake": "GRL",
    "GrL": "GRL", "Gulf of St. Lawrence": "GOS", "GoS": "GOS", "Upstate": "UPS", "Ups": "UPS",
    "Florida": "FLA", "Nicaragua": "NIC", "Honduras": "HON",
}


_SCENARIO = Scenario(V, "S1861M", "Canada")
adjudicate, move, path = _SCENARIO.adjudicate, _SCENARIO.move, _SCENARIO.path


def units_of(g: Game) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {p: set() for p in g.map.powers}
    for u in g.position.units:
        out[g.map.powers[u.power]].add(g.map.unit_str(u.kind, u.loc))
    return out


def centers_of(g: Game, power: str) -> set[str]:
    return {g.map.prov_abbr[c] for c in g.position.centers_of(g.power(power))}


def play(g: Game, orders: dict[str, list[str]]) -> dict[str, list[str]]:
    """Give the orders, process the phase (and any retreat phase nobody orders); return the
    result of each order."""
    for power, lst in orders.items():
        assert g.set_orders(power, lst) == [], (power, lst)
    out = g.process()
    assert out.errors == []
    results = {r.text: r.result for r in out.results}
    while g.position.phase.type == "R" and not g.powers_to_order():
        g.process()
    return results


def place(g: Game, phase: Phase, units: dict[str, list[str]]) -> None:
    """Set the game's phase and units (the centers stay as they are)."""
    g.position.phase = phase
    g.position.units = []
    for power, lst in units.items():
        for text in lst:
            k, loc = parse_unit(g.map, text)
            g.position.units.append(Unit(g.power(power), k, loc))


# ---- the variant file and the seed's tables ---------------------------------------------

def test_variant_file_checks_clean() -> None:
    v = load_variant(V)
    assert check_variant(v) == []
    assert (v.title, v.designer) == ("War in North America", "S. William Nesbitt II")
    assert v.declared == {"supply_centers": 34, "provinces": 110}
    assert "THE MAP IN THIS FILE IS RECONSTRUCTED" in v.text
    assert re.search(r"^18\. ", v.notes, re.M)  # the decisions are numbered


def test_every_place_the_seed_names_is_on_the_map() -> None:
    """Every name and abbreviation the seed uses reads as a place, spelt as the seed spells it
    (and its German names: "Arktischer Ozean", "Grönland", "Südmaerika")."""
    m = compile_map(load_variant(V))
    for name, abbr in SEED_PLACES.items():
        assert m.names[normalize_name(name)] == m.prov_index[abbr], name
    # the usual spellings too, with and without accents
    for name, abbr in (("Sioux", "SOU"), ("Gronland", "GRE"), ("Südamerika", "SAM"),
                       ("Sudamerika", "SAM"), ("Montréal", "MON"), ("Kap Hoorn", "CHO"),
                       ("Neufundland", "NFL"), ("Kuba", "CUB"), ("Kalifornien", "CAL")):
        assert m.names[normalize_name(name)] == m.prov_index[abbr], name


def test_powers_homes_and_starting_units_are_the_seeds() -> None:
    """"STARTAUFSTELLUNG": six powers with their home centers and units; the United States'
    row lists home centers and no units."""
    g = Game.new(V)
    m = g.map
    have = units_of(g)
    for power, (units, homes) in SEED_START.items():
        p = g.power(power)
        want = {m.unit_str(*parse_unit(m, u)) for u in units}
        assert have[power] == want, power
        assert {m.prov_abbr[h] for h in g.position.homes[p]} == {
            m.prov_abbr[m.names[normalize_name(h)]] for h in homes}, power
    # the seed's "(sc)" is the south coast; "(wc)" is Mexico City's Pacific coast
    assert {"F MON/SC", "F TOR/SC"} <= have["Canada"] and "F MEX/WC" in have["Mexico"]
    assert [m.powers[p] for p in range(len(m.powers)) if not m.power_neutral[p]] == list(
        SEED_START)


def test_the_united_states_controls_five_centers_and_not_new_york() -> None:
    """"VZ-Kontrolle bei Partiestart: Boston (kein Heimat-VZ), Cincannati, Chicago,
    Philadelphia, California (kein Heimat-VZ)" (centers controlled at the start, Boston and
    California not home centers); "New York City (Nyc) ist ein Heimat-VZ der Vereinigten
    Staaten von Amerika, wird bei Spielstart aber aufgrund ziviler Unruhen von Aufständlern
    beherrscht." (NYC is a US home center, held by rebels at the start)."""
    g = Game.new(V)
    m = g.map
    usa = g.power("United States")
    assert centers_of(g, "United States") == {
        m.prov_abbr[m.names[normalize_name(c)]] for c in SEED_USA_CENTERS}
    homes = {m.prov_abbr[h] for h in g.position.homes[usa]}
    assert homes == {"NYC", "CIN", "CHI", "PHI"}
    assert "BOS" not in homes and "CAL" not in homes
    rebels = g.power("Rebels")
    assert m.power_neutral[rebels] and centers_of(g, "Rebels") == {"NYC"}
    assert units_of(g)["Rebels"] == set()  # the seed lists no rebel unit (decision 13)


def test_the_neutrals_and_their_armies() -> None:
    """"A Alaska (russisch), A Newfoundland (britisch), A Cuba (spanisch)": three neutral
    centers, each with its army."""
    g = Game.new(V)
    for power, place_name in SEED_NEUTRALS.items():
        abbr = SEED_PLACES[place_name]
        assert g.map.power_neutral[g.power(power)]
        assert centers_of(g, power) == {abbr}
        assert units_of(g)[power] == {f"A {abbr}"}


def test_34_centers_and_the_three_powers_per_region() -> None:
    """Decision 2: the seed's 24 centers and ten unowned ones; 18 is a bare majority."""
    g = Game.new(V)
    m = g.map
    assert len(m.sc_list) == 34
    owned = {m.prov_abbr[c] for c in m.sc_list if g.position.owners[c] >= 0}
    named = {SEED_PLACES[n] for n in SEED_PLACES} & {m.prov_abbr[c] for c in m.sc_list}
    assert owned == named and len(named) == 24
    unowned = {m.prov_abbr[c] for c in m.sc_list} - owned
    assert unowned == {"QUE", "HAL", "BCO", "UTA", "STL", "TEN", "NOR", "MTY", "GUA", "HIS"}
    assert g.variant.victory.centers == 18 == 34 // 2 + 1


# ---- the start: Winter 1859 ---------------------------------------------------------------

def test_the_game_starts_in_winter_1859_and_plays_from_spring_1860() -> None:
    """"Das Spiel beginnt im Winter 1859, die erste Spielphase ist Frühjahr 1860. Gespielt
    wird in den standardüblichen Phasen." (the game begins in Winter 1859, the first phase
    played is Spring 1860; the standard phases are played)."""
    g = Game.new(V)
    assert g.phase == "W1859A"
    assert [g.map.powers[p] for p in g.powers_to_order()] == ["United States"]
    g.process()
    assert g.phase == "S1860M"
    seasons = [(s.abbr, s.phases) for s in g.variant.calendar.seasons]
    assert seasons == [("S", ("movement", "retreats")), ("F", ("movement", "retreats")),
                       ("W", ("adjustments",))]


def test_the_united_states_builds_on_its_vacant_home_centers_in_winter_1859() -> None:
    """The United States starts with centers and no units ("Starteinheiten" lists none): in
    Winter 1859 it builds on the home centers it owns - Cincinnati, Chicago, Philadelphia - not
    in New York City (held by the rebels) nor in Boston and California (not homes); three of
    the five builds it is due."""
    g = Game.new(V)
    assert set(g.legal_orders("United States")) == {"CIN", "CHI", "PHI"}
    assert "F PHI/EC B" in g.legal_orders("United States")["PHI"]
    assert "F PHI/NC B" in g.legal_orders("United States")["PHI"]
    assert "F CIN B" in g.legal_orders("United States")["CIN"]  # on Lake Erie (Great Lake)
    orders = ["Build A Cincinnati", "Build F Philadelphia (ec)", "Build A Chicago",
              "Build A New York City", "Build F Boston"]
    refused = g.set_orders("United States", orders)
    assert len(refused) == 2
    assert "New York City belongs to Rebels" in refused[0] and "Boston is not" in refused[1]
    g.process()
    assert units_of(g)["United States"] == {"A CIN", "F PHI/EC", "A CHI"}
    # judged on processing too (a one-shot request): void
    out = adjudicate({"United States": []}, {"United States": ["Build A NYC", "Build F BOS"]},
                     phase="W1859A", centers={"United States": SEED_USA_CENTERS[:1]
                                              + ["CIN", "CHI", "PHI", "CAL"]},
                     homes={"United States": ["NYC", "CIN", "CHI", "PHI"]})
    assert out["results"] == {"A NYC B": ["void"], "F BOS B": ["void"]}
    assert len(centers_of(g, "United States")) == 5


def test_new_york_city_must_be_retaken_before_the_usa_builds_there() -> None:
    """"Das VZ muss erst zurückerobert werden, um in diesem Gebiet Aufbauten vornehmen zu
    können." (the center must first be retaken before builds can be made there). The rebels
    have no unit (decision 13): an army that stays through a Fall takes it."""
    g = Game.new(V)
    play(g, {"United States": ["Build A CIN", "Build A PHI", "Build A CHI"]})
    play(g, {"United States": ["A PHI - NYC"]})
    play(g, {})
    assert g.phase == "W1860A"
    assert g.position.owners[g.map.prov_index["NYC"]] == g.power("United States")
    assert set(g.legal_orders("United States")) == {"PHI"}  # NYC is occupied
    play(g, {"United States": ["Build F PHI/NC"]})
    play(g, {"United States": ["A NYC - BOS"]})
    play(g, {})
    assert g.phase == "W1861A"
    assert "NYC" in g.legal_orders("United States")  # a home again, vacant, owned
    play(g, {"United States": ["Build F New York City"]})
    assert "F NYC" in units_of(g)["United States"]


# ---- the neutrals -------------------------------------------------------------------------

def test_neutral_armies_always_hold() -> None:
    """"Die Einheiten der neutralen Staaten bekommen immer Haltebefehle: A Alaska H, A
    Newfoundland H und A Cuba H." (the neutral units always get hold orders)."""
    g = Game.new(V)
    for power, province in SEED_NEUTRALS.items():
        unit = f"A {SEED_PLACES[province]}"
        assert power not in {g.map.powers[p] for p in g.powers_to_order()}
        out = adjudicate_request({"variant": V, "phase": "S1860M", "units": {power: [unit]},
                                  "orders": {power: [f"{unit} - LAB"]}})
        assert "always hold" in out["errors"][0]
        assert out["units"][power] == [unit]


def test_neutral_armies_must_be_destroyed_and_may_be_supported() -> None:
    """"Sie müssen vernichtet werden, um ein VZ einnehmen zu können. Sie können von anderen
    Nationen beim Halten unterstützt werden." (they must be destroyed to take the center;
    other nations may support them in holding)."""
    alone = adjudicate({"Spain": ["A CUB"], "Confederate States": ["A FLA"]},
                       {"Confederate States": ["A FLA - CUB"]})
    assert alone["results"]["A FLA - CUB"] == ["bounce"]
    units = {"Spain": ["A CUB"], "Confederate States": ["A FLA", "F SOF"],
             "Mexico": ["F YCH"]}
    attack = {"Confederate States": ["A FLA - CUB", "F SOF S A FLA - CUB"]}
    out = adjudicate(units, attack)
    assert out["units"]["Confederate States"] == ["A CUB", "F SOF"]
    assert "Spain" not in out["units"]
    held = adjudicate(units, {**attack, "Mexico": ["F YCH S A CUB"]})
    assert held["units"]["Spain"] == ["A CUB"]
    assert held["results"]["A FLA - CUB"] == ["bounce"]


def test_newfoundland_and_cuba_armies_are_disbanded_not_retreated() -> None:
    """"Mit Ausnahme der Armee in Alaska, ziehen sich die neutralen Armeen nicht zurück, sie
    werden in Folge eines erfolgreichen Angriffs aufgelöst." (except for the army in Alaska,
    neutral armies do not retreat: a successful attack disbands them)."""
    g = Game.new(V)
    place(g, Phase(1861, "S", "M"), {"Canada": ["A LAB", "F GOS"], "Britain": ["A NFL"],
                                     "Confederate States": ["A FLA", "F SOF"],
                                     "Spain": ["A CUB"]})
    res = play(g, {"Canada": ["A LAB - NFL", "F GOS S A LAB - NFL"],
                   "Confederate States": ["A FLA - CUB", "F SOF S A FLA - CUB"]})
    assert res["A LAB - NFL"] == [] and res["A FLA - CUB"] == []
    assert g.phase == "F1861M"  # no retreat phase: nothing for anyone to order
    have = units_of(g)
    assert have["Britain"] == set() and have["Spain"] == set()
    assert "A NFL" in have["Canada"] and "A CUB" in have["Confederate States"]


def test_the_alaskan_army_retreats_to_a_free_center() -> None:
    """"Die Armee in Alaska (Ala) versucht sich in ein freies VZ zurückzuziehen, sobald sie aus
    Alaska vertrieben wird. Ist ein Rückzug nicht möglich, so wird die Armee aufgelöst." (the
    army in Alaska tries to retreat to a free center once driven out; if it cannot, it is
    disbanded). British Columbia is the only center next to Alaska (decision 14)."""
    units = {"Russia": ["A ALA"], "Canada": ["A NWT", "F GOA"]}
    orders = {"Canada": ["A NWT - ALA", "F GOA S A NWT - ALA"]}
    out = adjudicate(units, orders)
    assert out["dislodged"] == {"Russia": [{"unit": "A ALA", "from": "NWT", "retreats": ["BCO"]}]}
    nxt = adjudicate(out["units"], {}, phase=out["next_phase"],
                     dislodged={"Russia": [{"unit": "A ALA", "from": "NWT"}]})
    assert nxt["units"]["Russia"] == ["A BCO"]  # nobody orders it: it goes by itself
    # British Columbia occupied: no free center, the army is disbanded
    out = adjudicate({**units, "Canada": ["A NWT", "F GOA", "A BCO"]}, orders)
    assert out["destroyed"] == {"Russia": [{"unit": "A ALA", "from": "NWT"}]}
    # in a game: the army retreats, holds there and takes the center after the Fall
    g = Game.new(V)
    place(g, Phase(1861, "F", "M"), {"Russia": ["A ALA"], "Canada": ["A NWT", "F GOA"]})
    play(g, orders)
    assert units_of(g)["Russia"] == {"A BCO"}
    assert centers_of(g, "Russia") == {"BCO"} and centers_of(g, "Canada") >= {"ALA"}


def test_alaska_joins_the_united_states_in_winter_1867() -> None:
    """"Wurde das russische Alaska (Ala) bis zum Winter 1867 nicht erobert, so schließt sich
    dieses Gebiet automatisch den Vereinigten Staaten von Amerika an. Die neutrale Armee in
    Alaska steht dann unter der Flagge der Vereinigten Staaten!" (if Russian Alaska has not
    been conquered by Winter 1867 it joins the United States; its army then flies the American
    flag)."""
    g = Game.new(V)
    place(g, Phase(1866, "F", "M"), {"Russia": ["A ALA"], "Canada": ["A WIN"]})
    play(g, {})
    assert g.phase == "W1866A"
    assert centers_of(g, "Russia") == {"ALA"}  # not yet
    while g.position.phase.season != "W" or g.position.phase.year < 1867:
        g.process()
    assert g.phase == "W1867A"
    assert "ALA" in centers_of(g, "United States") and centers_of(g, "Russia") == set()
    assert units_of(g)["United States"] == {"A ALA"}
    assert "W1867A: ALA joins United States" in g.position.extra["log"]


def test_a_conquered_alaska_does_not_join() -> None:
    """"Wurde das russische Alaska (Ala) bis zum Winter 1867 nicht erobert ..." - conquered
    before, it stays with its conqueror; the retreated Russian army stays Russian."""
    g = Game.new(V)
    place(g, Phase(1866, "F", "M"), {"Russia": ["A ALA"], "Canada": ["A NWT", "F GOA"]})
    play(g, {"Canada": ["A NWT - ALA", "F GOA S A NWT - ALA"]})
    while g.position.phase.year < 1868:
        g.process()
    assert "ALA" in centers_of(g, "Canada")
    assert units_of(g)["Russia"] == {"A BCO"}
    assert any("ALA was conquered" in line for line in g.position.extra["log"])


# ---- the Native Federation's fleets ---------------------------------------------------------

def test_the_native_federation_builds_fleets_only_in_the_first_of_boston_or_california() -> None:
    """"Um Flotten aufbauen zu können, muss die Indianer Föderation (Native Federation) Boston
    oder California erobern. Das erstbesetzte VZ wird zum Heimat-VZ. Nur in diesem VZ können
    Flotten gebaut werden." (to build fleets the Native Federation must conquer Boston or
    California; the first one taken becomes a home center; fleets can only be built there)."""
    g = Game.new(V)
    assert not any(g.map.occupy[g.map.kind_index["F"]][g.map.prov_index[h]]
                   for h in ("APA", "COM", "SOU"))  # no home of theirs has a coast
    g.process()
    play(g, {"Native Federation": ["A APA - CAL", "A COM - NMX"]})
    play(g, {"Native Federation": ["A NMX - UTA"]})
    assert g.phase == "W1860A"
    assert g.position.extra["capture_home"] == {"Native Federation": "CAL"}
    legal = g.legal_orders("Native Federation")
    assert set(legal) == {"APA", "COM"}  # California is occupied
    assert all(not o.startswith("F") for lst in legal.values() for o in lst)
    play(g, {"Native Federation": ["Build A APA", "Build A COM"]})
    # 1861: the army leaves California, another takes St. Louis: one more build is due
    play(g, {"Native Federation": ["A CAL - ORE", "A UTA - SHO", "A SOU - NEB"]})
    play(g, {"Native Federation": ["A NEB - STL"]})
    assert g.phase == "W1861A"
    legal = g.legal_orders("Native Federation")
    assert "F CAL B" in legal["CAL"] and "A CAL B" in legal["CAL"]  # a home for armies too
    play(g, {"Native Federation": ["Build F California"]})
    assert "F CAL" in units_of(g)["Native Federation"]
    # taking Boston afterwards gives no second fleet home
    place(g, Phase(1862, "F", "M"), {"Native Federation": ["A BOS"]})
    play(g, {})
    assert "BOS" in centers_of(g, "Native Federation")
    assert g.position.extra["capture_home"] == {"Native Federation": "CAL"}
    assert g.phase == "W1862A"
    assert "F BOS B" not in g.legal_orders("Native Federation").get("BOS", [])


def test_boston_and_california_taken_in_the_same_fall() -> None:
    """"Das erstbesetzte VZ wird zum Heimat-VZ": both taken in the same Fall, Boston (named
    first by the seed) is the fleet home (decision 16)."""
    g = Game.new(V)
    place(g, Phase(1862, "F", "M"), {"Native Federation": ["A BOS", "A CAL"]})
    play(g, {})
    assert g.position.extra["capture_home"] == {"Native Federation": "BOS"}


# ---- land bridges -------------------------------------------------------------------------

BRIDGES = [("LAB", "NFL"), ("HAL", "NFL"), ("FLA", "CUB"), ("YUC", "CUB")]


@pytest.mark.parametrize("a,b", BRIDGES)
def test_land_bridges_carry_armies_and_fleets(a: str, b: str) -> None:
    """"Die roten Balken auf der Karte stellen Landbrücken dar und können von Armeen und
    Flotten gleichermaßen genutzt werden." (the red bars are land bridges, used by armies and
    fleets alike). Where they are is decision 8."""
    for kind in ("A", "F"):
        assert move(f"{kind} {a}", b) == f"{kind} {b}"
        assert move(f"{kind} {b}", a) == f"{kind} {a}"


@pytest.mark.parametrize("a,b", BRIDGES)
def test_no_swap_across_a_land_bridge(a: str, b: str) -> None:
    """"Ein Platzwechsel mit der jeweils gegenüber liegenden Einheit ist nicht möglich." (a
    unit cannot swap places with the unit opposite)."""
    out = adjudicate({"Canada": [f"A {a}"], "Mexico": [f"A {b}"]},
                     {"Canada": [f"A {a} - {b}"], "Mexico": [f"A {b} - {a}"]})
    assert out["units"] == {"Canada": [f"A {a}"], "Mexico": [f"A {b}"]}


def test_no_swap_across_a_land_bridge_by_convoy() -> None:
    """"Ein Platzwechsel ... ist nicht möglich": not by convoy either (Florida - Cuba, with a
    fleet in the Straits of Florida carrying the army)."""
    units = {"Confederate States": ["A FLA", "F SOF"], "Mexico": ["A CUB"]}
    out = adjudicate(units, {"Confederate States": ["A FLA - CUB via convoy",
                                                    "F SOF C A FLA - CUB"],
                             "Mexico": ["A CUB - FLA"]})
    assert out["units"]["Confederate States"] == ["A FLA", "F SOF"]
    assert out["units"]["Mexico"] == ["A CUB"]
    # elsewhere a convoy still carries an army past one coming the other way (DATC 6.G)
    units = {"Confederate States": ["A SAV", "F GEB"], "Mexico": ["A FLA"]}
    out = adjudicate(units, {"Confederate States": ["A SAV - FLA via convoy",
                                                    "F GEB C A SAV - FLA"],
                             "Mexico": ["A FLA - SAV"]})
    assert out["units"] == {"Confederate States": ["A FLA", "F GEB"], "Mexico": ["A SAV"]}


def test_islands_without_a_bridge_are_reached_by_sea() -> None:
    """Decision 8: Hispaniola, Jamaica and the Bahamas have no land bridge."""
    m = compile_map(load_variant(V))
    army = m.kind_index["A"]
    for island in ("HIS", "JAM", "BAH"):
        assert m.adj[army][m.prov_index[island]] == ()
    out = adjudicate({"Confederate States": ["A FLA", "F GEB", "F SAR", "F ATL"]},
                     {"Confederate States": ["A FLA - HIS", "F GEB C A FLA - HIS",
                                             "F SAR C A FLA - HIS", "F ATL C A FLA - HIS"]})
    assert "A HIS" in out["units"]["Confederate States"]


# ---- impassable areas ---------------------------------------------------------------------

def test_arctic_ocean_greenland_and_south_america_cannot_be_entered() -> None:
    """"Die Gebiete Arctic Ocean (Arktischer Ozean), Greenland (Grönland) und South America
    (Südmaerika) können nicht betreten werden." (these areas cannot be entered)."""
    m = compile_map(load_variant(V))
    for abbr in ("ARC", "GRE", "SAM"):
        i = m.prov_index[abbr]
        assert m.prov_neighbours[i] == set(), abbr
        assert not any(m.occupy[k][i] for k in range(len(m.kinds))), abbr
    for unit, dest in (("A ALA", "ARC"), ("F BER", "ARC"), ("F LAS", "GRE"),
                       ("A NIC", "SAM"), ("F CAR", "SAM"), ("F PAC", "South America")):
        out = adjudicate({"Canada": [unit]}, {"Canada": [f"{unit} - {dest}"]})
        assert out["units"]["Canada"] == [unit], (unit, dest)
    out = adjudicate_request({"variant": V, "phase": "S1861M", "units": {"Canada": ["A GRE"]}})
    assert "cannot stand in Greenland" in out["error"]


def test_the_arctic_closes_the_northwest_passage() -> None:
    """Decision 11: with the Arctic Ocean impassable, Alaska has no north coast and no fleet
    passes north of the continent."""
    assert path("F BER", "ALA", "GOA") == "F GOA"
    assert move("F ALA", "NWT") == "F ALA"
    assert move("F HUB", "NWT") == "F HUB"


# ---- Cape Horn ---------------------------------------------------------------------------

def test_only_fleets_enter_cape_horn_and_it_joins_the_atlantic_and_the_pacific() -> None:
    """"Der Einzug in das Gebiet Cape Horn ist nur Flotten vorbehalten." (only fleets may
    enter Cape Horn); fleets leave it "in den Atlantik und in der Pazifik" (into the Atlantic
    and the Pacific, decision 10)."""
    m = compile_map(load_variant(V))
    cho = m.prov_index["CHO"]
    assert not m.occupy[m.kind_index["A"]][cho]
    assert {m.prov_abbr[p] for p in m.prov_neighbours[cho]} == {"ATL", "PAC"}
    assert path("F PAC", "CHO", "ATL", "CAR") == "F CAR"
    assert path("F HIS", "ATL", "CHO", "PAC", "MEX/WC") == "F MEX/WC"


def test_no_panama_canal_cape_horn_is_the_only_way_between_the_oceans() -> None:
    """"Bekannterweise gab es im Jahre 1859 noch keinen Panamakanal. In Folge dessen mussten
    die Flotten den langen und beschwerlichen Weg um Südamerika schiffen." (there was no
    Panama canal in 1859, so fleets had to sail the long way round South America)."""
    m = compile_map(load_variant(V))
    fleet = m.kind_index["F"]
    cho = m.prov_index["CHO"]
    seen = {m.loc_index["GOM"]}
    todo = list(seen)
    while todo:
        loc = todo.pop()
        for nxt in m.adj[fleet][loc]:
            if nxt not in seen and m.loc_prov[nxt] != cho:
                seen.add(nxt)
                todo.append(nxt)
    pacific = {m.loc_name[x] for x in seen} & {"PAC", "GOF", "NIC/WC", "HON/SC", "MEX/WC",
                                                 "GCA", "NPO", "BER", "ALA", "CAL"}
    assert pacific == set()
    assert "NIC/EC" in {m.loc_name[x] for x in seen} and "HUB" in {m.loc_name[x] for x in seen}


def test_any_number_of_fleets_enter_cape_horn_without_bouncing() -> None:
    """"Es gibt kein Limit der einziehenden Flotten, es kann auch kein Bounce entstehen.
    Verfeindete Flotten können in diesem Gebiet stehen" (no limit on fleets entering, no
    bounce; hostile fleets may stand there together)."""
    out = adjudicate({"Mexico": ["F PAC"], "Confederate States": ["F ATL"],
                      "Canada": ["F CHO"]},
                     {"Mexico": ["F PAC - CHO"], "Confederate States": ["F ATL - CHO"],
                      "Canada": ["F CHO H"]})
    assert out["units"] == {"Mexico": ["F CHO"], "Confederate States": ["F CHO"],
                            "Canada": ["F CHO"]}
    assert out["results"]["F PAC - CHO"] == [] and out["results"]["F ATL - CHO"] == []
    # and they may be ordered there, each power its own fleet
    nxt = adjudicate(out["units"], {"Mexico": ["F CHO - ATL"], "Canada": ["F CHO - PAC"]},
                     phase=out["next_phase"])
    assert nxt["units"] == {"Mexico": ["F ATL"], "Confederate States": ["F CHO"],
                            "Canada": ["F PAC"]}


def test_no_fleet_is_driven_out_of_cape_horn() -> None:
    """"man kann keine Flotte aus Cape Horn vertreiben" (no fleet can be driven out of Cape
    Horn)."""
    out = adjudicate({"Mexico": ["F PAC", "F GOF"], "Canada": ["F CHO"]},
                     {"Mexico": ["F PAC - CHO", "F GOF S F PAC - CHO"]})
    assert out["dislodged"] == {}
    assert out["units"] == {"Mexico": ["F CHO", "F GOF"], "Canada": ["F CHO"]}


def test_an_oncoming_fleet_does_not_keep_a_fleet_out_of_cape_horn() -> None:
    """"Flotten können nicht am Einzug in Cape Horn gehindert werden, auch nicht durch entgegen
    kommende Flotten." (fleets cannot be kept from entering, not even by fleets coming the
    other way)."""
    out = adjudicate({"Mexico": ["F PAC"], "Canada": ["F CHO"]},
                     {"Mexico": ["F PAC - CHO"], "Canada": ["F CHO - PAC"]})
    assert out["units"] == {"Mexico": ["F CHO"], "Canada": ["F PAC"]}


def test_fleets_leaving_cape_horn_may_be_supported() -> None:
    """"Flotten können beim Auszug der Flotten in den Atlantik und in der Pazifik unterstützt
    werden." (fleets leaving into the Atlantic or the Pacific may be supported)."""
    out = adjudicate({"Mexico": ["F CHO", "F HIS"], "Canada": ["F ATL"]},
                     {"Mexico": ["F CHO - ATL", "F HIS S F CHO - ATL"]})
    assert out["units"]["Mexico"] == ["F ATL", "F HIS"]
    assert out["dislodged"]["Canada"][0]["unit"] == "F ATL"
    out = adjudicate({"Mexico": ["F CHO", "F GOF"], "Canada": ["F PAC"]},
                     {"Mexico": ["F CHO - PAC", "F GOF S F CHO - PAC"]})
    assert out["dislodged"]["Canada"][0]["unit"] == "F PAC"
    # without support the fleet leaving bounces like any other
    out = adjudicate({"Mexico": ["F CHO"], "Canada": ["F PAC"]}, {"Mexico": ["F CHO - PAC"]})
    assert out["results"]["F CHO - PAC"] == ["bounce"]


def test_armies_are_convoyed_round_cape_horn() -> None:
    """"Armeen können über Cape Horn transportiert werden, soweit an anderer Stelle der Convoy
    nicht unterbrochen wird. Es gelten die allgemeinen Regelungen des Convoy." (armies may be
    convoyed through Cape Horn unless the convoy is broken elsewhere; the usual convoy rules
    apply)."""
    units = {"Mexico": ["A GDL", "F PAC", "F CHO", "F ATL"]}
    convoy = ["A GDL - HIS", "F PAC C A GDL - HIS", "F CHO C A GDL - HIS",
              "F ATL C A GDL - HIS"]
    out = adjudicate(units, {"Mexico": convoy})
    assert "A HIS" in out["units"]["Mexico"]
    # broken elsewhere: the fleet in the Atlantic is dislodged, the army stays home
    units["Confederate States"] = ["F SAR", "F WIP"]
    out = adjudicate(units, {"Mexico": convoy,
                             "Confederate States": ["F SAR - ATL", "F WIP S F SAR - ATL"]})
    assert "A GDL" in out["units"]["Mexico"]
    assert out["results"]["A GDL - HIS"] == ["no convoy"]
    # an enemy fleet also in Cape Horn does not break the convoy
    units = {"Mexico": ["A GDL", "F PAC", "F CHO", "F ATL"], "Canada": ["F CHO"]}
    out = adjudicate(units, {"Mexico": convoy, "Canada": ["F CHO H"]})
    assert "A HIS" in out["units"]["Mexico"]


# ---- Niagara Falls -----------------------------------------------------------------------

def test_no_move_between_the_great_lake_and_the_gulf_of_st_lawrence() -> None:
    """"Flotten können die Niagarafälle nicht ohne weiteres passieren. Kein direktes ziehen von
    Great Lake (GrL) nach Gulf of St. Lawrence (GoS) und umgekehrt möglich." (fleets cannot
    simply pass Niagara Falls: no direct move GrL - GoS, nor back)."""
    assert move("F GRL", "GOS") == "F GRL"
    assert move("F GOS", "GRL") == "F GOS"
    for army_or_fleet in ("A", "F"):
        assert not _adjacent(army_or_fleet, "GRL", "GOS")


def _adjacent(kind: str, a: str, b: str) -> bool:
    m = compile_map(load_variant(V))
    k = m.kind_index[kind]
    locs_a = (m.prov_index[a], *m.prov_coast_locs[m.prov_index[a]])
    return any(m.prov_index[b] in m.reach_prov[k][loc] for loc in locs_a)


def test_fleets_pass_niagara_through_toronto_or_upstate() -> None:
    """"Ein Ausweichen auf die Gebiete Toronto (Tor) oder Upstate (Ups) ist hier nötig, um auf
    die jeweils andere Seite der Niagarafälle gelangen zu können." (a detour through Toronto or
    Upstate is needed to reach the other side of the falls). Toronto's south coast and Upstate
    each touch both waters (decision 3)."""
    assert path("F GRL", "TOR/SC", "GOS") == "F GOS"
    assert path("F GOS", "TOR/SC", "GRL") == "F GRL"
    assert path("F GRL", "UPS", "GOS") == "F GOS"
    assert path("F GOS", "UPS", "GRL") == "F GRL"
    # the starting fleet in Toronto (south coast) reaches both
    assert move("F TOR/SC", "GRL") == "F GRL"
    assert move("F TOR/SC", "GOS") == "F GOS"


def test_toronto_and_upstate_share_no_border() -> None:
    """"Die Gebiete Toronto (Tor) und Upstate (Ups) haben keine gemeinsame Grenze!" (Toronto
    and Upstate have no common border)."""
    for kind in ("A", "F"):
        assert not _adjacent(kind, "TOR", "UPS") and not _adjacent(kind, "UPS", "TOR")
    assert move("A TOR", "UPS") == "A TOR"
    assert move("F TOR/SC", "UPS") == "F TOR/SC"
    assert move("A UPS", "TOR") == "A UPS"
    # no support across either: Toronto cannot help an attack on Upstate
    out = adjudicate({"Canada": ["F GOS", "A TOR"], "United States": ["A UPS"]},
                     {"Canada": ["F GOS - UPS", "A TOR S F GOS - UPS"]})
    assert out["results"]["A TOR S F GOS - UPS"] == ["void"]
    assert out["results"]["F GOS - UPS"] == ["bounce"]


def test_the_lakes_connecting_rivers_are_no_borders() -> None:
    """Decision 5: like Toronto and Upstate (Niagara), Toronto and Michigan (Detroit and St.
    Clair rivers) and Algoma and Michigan (St. Marys River) share no border."""
    for a, b in (("TOR", "MIC"), ("ALG", "MIC")):
        for kind in ("A", "F"):
            assert not _adjacent(kind, a, b), (kind, a, b)
    assert move("A UPS", "MON") == "A MON"
    assert move("A ALG", "MIN") == "A MIN"


# ---- coasts ------------------------------------------------------------------------------

TWO_COASTS = {"TOR": ("NC", "SC"), "MON": ("NC", "SC"), "PHI": ("EC", "NC"),
              "NIC": ("EC", "WC"), "HON": ("NC", "SC"), "MEX": ("EC", "WC")}
# per province: a sea only the first coast touches, and one only the second touches
COAST_SEAS = {"TOR": ("HUB", "GRL"), "MON": ("HUB", "GOS"), "PHI": ("NYB", "GRL"),
              "NIC": ("CAR", "PAC"), "HON": ("CAR", "GOF"), "MEX": ("BOC", "PAC")}


def test_the_two_coast_provinces_are_the_seeds() -> None:
    """"Florida ist nur eine Küste. Toronto und Montreal haben zwei Küsten (Nord und Süd).
    Philadelphia hat zwei Küsten (Ost und Nord). Nicaragua, Honduras und Mexico City haben zwei
    Küsten (Atlantic und Pacific)." (Florida is one coast; Toronto and Montreal have north and
    south coasts; Philadelphia east and north; Nicaragua, Honduras and Mexico City Atlantic and
    Pacific - named by compass here, decision 6)."""
    v = load_variant(V)
    have = {a: tuple(p.coasts) for a, p in v.provinces.items() if p.coasts}
    assert have == TWO_COASTS
    assert not v.provinces["FLA"].coasts


@pytest.mark.parametrize("prov", sorted(TWO_COASTS))
def test_a_fleet_sails_from_the_coast_it_stands_on(prov: str) -> None:
    """Two coasts: a fleet on one coast reaches only the waters of that coast (the Atlantic
    coasts reach the Atlantic side, the Pacific coasts the Pacific)."""
    _SCENARIO.sails_from_its_coast(prov, TWO_COASTS[prov], COAST_SEAS[prov])


def test_a_fleet_entering_a_two_coast_province_names_its_coast() -> None:
    """"Beim Einzug einer Flotte in ein Gebiet mit mehr als einer Küste, wird die Angabe der
    jeweiligen Küste benötigt." (a fleet entering a province with more than one coast must name
    the coast): a build there without a coast is void; with it, it stands."""
    out = adjudicate({"Canada": []}, {"Canada": ["Build F Montreal", "Build F Toronto (nc)"]},
                     phase="W1861A", centers={"Canada": ["MON", "TOR", "WIN"]})
    assert out["results"]["F MON B"] == ["void"]
    assert out["units"]["Canada"] == ["F TOR/NC"]
    # on the map, no water touches both coasts of one province: a move names at most the
    # coast it can reach, and may leave it out
    assert move("F PAC", "Mexico City") == "F MEX/WC"
    assert move("F BOC", "Mexico City (ec)", power="Mexico") == "F MEX/EC"


def test_florida_has_one_coast_that_fleets_pass_along() -> None:
    """"Florida ist nur eine Küste." (Florida is one coast): a fleet enters from the Atlantic
    and leaves into the Gulf (decision 7)."""
    assert path("F GEB", "FLA", "APB") == "F APB"
    assert path("F APB", "FLA", "SOF", "GEB") == "F GEB"


# ---- victory -----------------------------------------------------------------------------

def _game_with_centers(texas: int, phase: Phase) -> Game:
    """A game in `phase` where Texas owns `texas` centers (not Monterrey) and has an army in
    San Antonio, next to the empty Monterrey."""
    g = Game.new(V)
    m = g.map
    pool = [c for c in m.sc_list if m.prov_abbr[c] not in ("MTY", "SAN")]
    g.position.owners = [-1] * m.n_prov
    g.position.owners[m.prov_index["SAN"]] = g.power("Texas")
    for c in pool[:texas - 1]:
        g.position.owners[c] = g.power("Texas")
    for c in pool[texas - 1:]:
        g.position.owners[c] = g.power("Canada")
    place(g, phase, {"Texas": ["A SAN"], "Canada": ["A SAS"]})
    return g


def test_victory_at_18_centers_at_the_end_of_a_fall_turn() -> None:
    """"Siegbedingung: Das Spiel endet sobald es einer Nation gelungen ist 18
    Versorgungszentren am Ende einer Herbstphase zu halten." (victory: the game ends as soon
    as a nation holds 18 supply centers at the end of a Fall phase)."""
    g = _game_with_centers(17, Phase(1864, "S", "M"))
    play(g, {"Texas": ["A SAN - MTY"]})
    assert g.status == "active"  # in Monterrey after the Spring: not yet its center
    play(g, {"Texas": ["A MTY H"]})
    assert g.status == "won" and g.winners == [g.power("Texas")]
    assert len(centers_of(g, "Texas")) == 18
    g = _game_with_centers(16, Phase(1864, "F", "M"))
    play(g, {"Texas": ["A SAN - MTY"]})
    assert g.status == "active"  # 17 are not enough


def test_the_game_ends_when_no_center_changed_hands_for_four_years() -> None:
    """"Das Spiel endet ebenfalls, wenn innerhalb von vier Jahren kein Versorgungszentrum den
    Besitzer gewechselt hat." (the game also ends when no center has changed owner within four
    years). From the Winter 1859 start, the four years are 1860-1863 (decision 17)."""
    g = Game.new(V)
    while not g.is_over:
        g.process()
    assert g.phase == "S1864M" and g.status == "drawn"
    assert [g.map.powers[p] for p in g.winners] == list(SEED_START)  # no neutral shares it
    # a change in Fall 1861 starts the count again: 1862-1865
    g = Game.new(V)
    while g.phase != "F1861M":
        g.process()
    play(g, {"Texas": ["A SAN - MTY"]})
    assert "MTY" in centers_of(g, "Texas") and g.phase == "W1861A"
    while not g.is_over:
        g.process()
    assert g.phase == "S1866M" and g.status == "drawn"


# ---- an opening year ----------------------------------------------------------------------

OPENING = {
    "W1859A": {"United States": ["Build A Cincinnati", "Build A Chicago",
                                 "Build F Philadelphia (ec)"]},
    "S1860M": {
        "Canada": ["F Montreal (sc) - Quebec", "F Toronto (sc) - Gulf of St. Lawrence",
                   "A Winnipeg - Saskatchewan"],
        "Confederate States": ["A Jackson - New Orleans", "A Richmond - Nashville",
                               "F Savannah - Georgia Bight"],
        "Native Federation": ["A Apache - California", "A Comanche - New Mexico",
                              "A Souix - Nebraska"],
        "Mexico": ["A Tampico - Monterrey", "A Guadalajara - San Luis Potosi",
                   "F Mexico City (wc) - Oaxaca"],
        "Texas": ["A San Antonio - Monterrey", "A El Paso - Chihuahua",
                  "A Galveston - New Orleans"],
        "United States": ["F Philadelphia (ec) - New York City", "A Chicago - St. Louis",
                          "A Cincinnati - Kentucky"],
    },
    "F1860M": {
        "Canada": ["F QUE H", "F GOS - HAL", "A SAS - BCO"],
        "Confederate States": ["A JAC - NOR", "A TEN H", "F GEB - FLA"],
        "Native Federation": ["A CAL H", "A NMX - UTA", "A NEB - IOW"],
        "Mexico": ["A SLP - MTY", "A TAM S A SLP - MTY", "F OAX - CHP"],
        "Texas": ["A SAN - MTY", "A CHH H", "A GAL H"],
        "United States": ["F NYC H", "A STL H", "A KEN H"],
    },
}
CENTERS_1860 = {
    "Canada": {"MON", "TOR", "WIN", "QUE", "HAL", "BCO"},
    "Confederate States": {"RIC", "SAV", "JAC", "TEN", "NOR"},
    "Native Federation": {"APA", "COM", "SOU", "CAL", "UTA"},
    "Mexico": {"GDL", "TAM", "MEX", "MTY"},
    "Texas": {"ELP", "SAN", "GAL"},
    "United States": {"BOS", "CIN", "CHI", "PHI", "NYC", "STL"},
    "Russia": {"ALA"}, "Britain": {"NFL"}, "Spain": {"CUB"}, "Rebels": set(),
}
BUILDS_1860 = {
    "Canada": ["Build F Montreal (nc)", "Build A Toronto", "Build A Winnipeg"],
    "Confederate States": ["Build F Savannah", "Build A Richmond"],
    "Native Federation": ["Build A Apache", "Build A Comanche"],
    "Mexico": ["Build F Mexico City (ec)"],
    "United States": ["Build A Cincinnati", "Build A Chicago", "Build F Philadelphia (nc)"],
}


def test_an_opening_year_for_all_six_powers() -> None:
    """1860 with typical openings: Canada to Quebec, Halifax and British Columbia; the
    Confederates to Nashville and New Orleans (after a bounce with Texas); the Native
    Federation to California (its fleet home) and Utah; Mexico takes Monterrey from Texas with
    support; the United States retakes New York City and takes St. Louis."""
    g = Game.new(V)
    for phase, orders in OPENING.items():
        assert g.phase == phase
        res = play(g, orders)
        if phase == "S1860M":
            assert res["A JAC - NOR"] == ["bounce"] and res["A GAL - NOR"] == ["bounce"]
            assert res["A TAM - MTY"] == ["bounce"] and res["A SAN - MTY"] == ["bounce"]
            assert res["F PHI/EC - NYC"] == []  # the rebels have no unit
    assert res["A SLP - MTY"] == [] and res["A SAN - MTY"] == ["bounce"]
    assert g.phase == "W1860A"
    for power, centers in CENTERS_1860.items():
        assert centers_of(g, power) == centers, power
    assert sum(len(c) for c in CENTERS_1860.values()) == 32  # Guatemala, Hispaniola unowned
    assert g.position.extra["capture_home"] == {"Native Federation": "CAL"}
    res = play(g, BUILDS_1860)
    assert all(r == [] for r in res.values()), res
    assert g.phase == "S1861M"
    have = units_of(g)
    for power, centers in CENTERS_1860.items():
        if not g.map.power_neutral[g.power(power)]:
            assert len(have[power]) == len(centers), power
    assert {"F MON/NC", "F QUE", "F HAL", "A BCO"} <= have["Canada"]
    assert "F MEX/EC" in have["Mexico"] and "F CHP" in have["Mexico"]


# ---- random play and drawing --------------------------------------------------------------

def test_random_games_play_to_a_result() -> None:
    """Random but coherent orders for every power, from Winter 1859 to a victory or the
    four-year end, without an order error (bounded: a few hundred phases)."""
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        g = Game.new(V)
        for _ in range(600):
            if g.is_over:
                break
            for p, lst in random_orders(g.map, g.position, rng).items():
                assert g.set_orders(p, lst) == []
            assert g.process().errors == []
        assert g.status in ("won", "drawn"), (seed, g.phase)
        if g.status == "won":
            assert len(g.position.centers_of(g.winners[0])) >= 18
        assert not g.map.power_neutral[g.winners[0]]
        stack = [u.loc for u in g.position.units if g.map.prov_abbr[g.map.loc_prov[u.loc]] != "CHO"]
        assert len(set(stack)) == len(stack)  # one unit a province, except in Cape Horn


def test_the_schematic_board_draws_every_province() -> None:
    """The map draws (schematically, until its geographic board exists), with every province
    and every starting unit."""
    g = Game.new(V)
    g.process()
    svg = picture_svg(g)
    assert set(re.findall(r'data-province="([A-Z]+)"', svg)) == set(g.map.prov_abbr)
    assert len(re.findall(r'data-unit="', svg)) == len(g.position.units)


def test_points_are_north_american() -> None:
    """Coordinates are real latitude/longitude: every land province and sea of the board lies
    in North America and its waters (Cape Horn and South America at their real places)."""
    v = load_variant(V)
    assert v.coords == "latlon"
    for p in v.provinces.values():
        lat, lon = p.coords
        if p.abbr in ("CHO", "SAM", "GRE"):
            continue
        assert 5 <= lat <= 82 and -180 <= lon <= -45, p.abbr
    assert v.provinces["CHO"].coords[0] < -55  # the real cape is at 56 degrees south


def test_the_neutral_powers_are_drawn_and_shown_as_neutrals(capsys) -> None:
    """Issue 28.12: the four neutral powers (Russia, Britain, Spain, the Rebels) are drawn
    in greys, named neutral in the map's legend and in `polydip show`, never in a player's
    colour."""
    import tempfile
    from pathlib import Path

    from polydip.cli.main import main

    g = Game.new("war_in_north_america")
    svg = picture_svg(g)
    for name in ("Russia", "Britain", "Spain", "Rebels"):
        assert f"{name} (neutral)" in svg
    assert "Canada (neutral)" not in svg
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "g.json")
        g.save(path)
        assert main(["show", path]) == 0
    out = capsys.readouterr().out
    assert "Russia (neutral)" in out and "Mexico (neutral)" not in out
