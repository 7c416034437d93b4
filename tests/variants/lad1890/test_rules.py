"""Latin American Diplomacy 1890: the rules of part 1 on the real map.

Every example of the seed's terrain rules (its section 5: mountains, the Greater and Chilean
Andes, rainforests, swamps, deserts, the Falklands) and of its centers and builds (capitals,
the 1890D builds, builds off the centers in years ending 0 or 5, Antofagasta, outposts,
neutral centers), and its calendar and end of game, each quoting the sentence it checks
(seed 001, "Latin American Diplomacy" by Michael Zmolek). The island, convoy, glacier and
lake examples of section 5 are map facts, tested in tests/variants/lad1890/test_map.py.
Examples that
need river flotillas or oceans (part 2) are played here with armies where the rule they
illustrate is a part-1 rule, and say so.
"""

from __future__ import annotations

import random

import pytest

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.compile import compile_map
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.play import random_orders
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

V = load_variant("lad1890")
M = compile_map(V)


def adjudicate(phase: str = "C1891M", **req):
    out = adjudicate_request({"variant": "lad1890", "phase": phase, **req})
    assert "error" not in out, out
    return out


def game_at(phase: str, units: dict[str, list[str]], centers: dict[str, list[str]] | None = None
            ) -> Game:
    """A lad1890 game set to `phase` with these units (and centers: default, the start's)."""
    g = Game.new(V)
    m, pos = g.map, g.position
    season, year, typ = phase[0], int(phase[1:5]), phase[5]
    pos.phase = Phase(year, season, typ)
    pos.units = []
    for power, lst in units.items():
        for text in lst:
            kind, place = text.split(" ", 1)
            loc = m.unit_loc(m.kind_index[kind], m.loc_of(place))
            pos.units.append(Unit(g.power(power), m.kind_index[kind], loc))
    if centers is not None:
        pos.owners = [-1] * m.n_prov
        for power, lst in centers.items():
            for c in lst:
                pos.owners[m.prov_index[c]] = g.power(power)
    pos.year_start_owners = list(pos.owners)
    return g


def sites(g: Game, power: str) -> set[str]:
    return {M.prov_abbr[p] for p in build_sites(M, g.position, g.power(power))}


# ---- 5.C mountains ------------------------------------------------------------------------

MOUNTAIN_PROVINCES = ["MEX", "BRQ", "AYA", "COC", "POT", "CDO", "JUJ"]


@pytest.mark.parametrize("prov", MOUNTAIN_PROVINCES)
def test_a_unit_in_a_mountain_province_offers_no_support(prov: str) -> None:
    """"These provinces are: MEXICO CITY, BARQUISIMETO, AYACUCHO, COCHABAMBA, POTOSI,
    CORDILLERA DOMEYKO and JUJUY" — "NO UNIT LOCATED IN ONE OF THESE PROVINCES MAY OFFER
    SUPPORT to any other unit." Whatever stands around it, none of its orders is a support;
    a support it is ordered to give is void."""
    p = M.prov_index[prov]
    around = sorted(M.prov_abbr[q] for q in M.reach_prov[M.army][p])
    units = {"Peru": [f"A {prov}"], "Chile": [f"A {q}" for q in around]}
    g = game_at("A1891M", units)
    mine = g.legal_orders("Peru")[f"A {prov}"]
    assert mine[0] == f"A {prov} H" and not [o for o in mine if " S " in o]
    out = adjudicate(units=units, orders={"Peru": [f"A {prov} S A {around[0]}"]})
    assert out["results"][f"A {prov} S A {around[0]}"] == ["void"]
    # it may still be supported (from a neighbour outside the mountain provinces)
    helper = next(q for q in around if q not in MOUNTAIN_PROVINCES)
    out = adjudicate(units=units, orders={"Chile": [f"A {helper} S A {prov}"]})
    assert out["results"][f"A {helper} S A {prov}"] == []


def test_la_paz_and_puno_are_not_mountain_provinces() -> None:
    """"[N.B.: LA PAZ and PUNO border on Lago Titicaca, and thus each have one border that is
    not mountainous, so the above rule does not apply to them.]\""""
    out = adjudicate(units={"Bolivia": ["A LPZ", "A COC", "A PUN"]},
                     orders={"Bolivia": ["A LPZ S A COC", "A PUN S A LPZ"]})
    assert out["results"]["A LPZ S A COC"] == [] and out["results"]["A PUN S A LPZ"] == []


def test_the_greater_andes_crossing_counts_only_its_supports() -> None:
    """"THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting
    units count towards an attack. Example: Bolivian A Ayacucho to Lima; Supported by A
    Huanuco and A San Martin. Peruvian A Lima Holds; Supported by A Ancash. The attack fails
    *Conflict of Equal Forces* (2 v 2). However, if Peru has no A Ancash (or other support),
    the attack succeeds.\""""
    bolivia = {"Bolivia": ["A AYA", "A HUA", "A SMT"]}
    orders = {"Bolivia": ["A AYA - LIM", "A HUA S A AYA - LIM", "A SMT S A AYA - LIM"],
              "Peru": ["A LIM H", "A ANC S A LIM"]}
    out = adjudicate(units={**bolivia, "Peru": ["A LIM", "A ANC"]}, orders=orders)
    assert out["results"]["A AYA - LIM"] == ["bounce"]
    assert out["units"]["Peru"] == ["A LIM", "A ANC"]
    out = adjudicate(units={**bolivia, "Peru": ["A LIM"]},
                     orders={**orders, "Peru": ["A LIM H"]})
    assert out["results"]["A AYA - LIM"] == []
    assert out["dislodged"]["Peru"][0]["unit"] == "A LIM"
    # one support only would not do (1 v 1), where the same attack from Ancash would (2 v 1)
    out = adjudicate(units={"Bolivia": ["A AYA", "A HUA"], "Peru": ["A LIM"]},
                     orders={"Bolivia": ["A AYA - LIM", "A HUA S A AYA - LIM"]})
    assert out["results"]["A AYA - LIM"] == ["bounce"]
    out = adjudicate(units={"Bolivia": ["A ANC", "A HUA"], "Peru": ["A LIM"]},
                     orders={"Bolivia": ["A ANC - LIM", "A HUA S A ANC - LIM"]})
    assert out["results"]["A ANC - LIM"] == []


# the Chilean Andes examples, all in "the first movement phase (A Phase: March-June)"
EXAMPLE_1 = {
    "units": {"Chile": ["A ATA", "F PTT"], "Argentina": ["A SJU", "A LRI", "A COQ"]},
    "orders": {"Chile": ["A ATA H", "F PTT S A ATA"],
               "Argentina": ["A SJU - ATA", "A LRI S A SJU - ATA", "A COQ S A SJU - ATA"]},
}


def test_chilean_andes_example_1() -> None:
    """"Example 1: note how all both the above rules (5.C.iii and iv) apply: It is the first
    movement phase (A Phase: March-June)… Chile: A Atacama Holds with support ordered from F
    Punta Tetas. Argentina: A San Juan to Atacama with support from A La Rio Ja and A
    Coquimbo. The Argentinian A from San Juan manages to get across the border (Rule
    5.C.iv), but: *CEF* (2 v 2) (Rule 5.C.iii), so the attack fails.\""""
    out = adjudicate("A1891M", **EXAMPLE_1)
    assert out["results"]["A SJU - ATA"] == ["bounce"]
    assert out["results"]["F PTT S A ATA"] == []
    assert out["units"]["Chile"] == ["A ATA", "F PTT"]


def test_chilean_andes_example_2() -> None:
    """"Example 2: In Example 1, if the Argentinian A from San Juan had no support in
    crossing, and the Chilean A Atacama was ordered to support, say, an A in Cordillera
    Domeyko, then the support for A Cordillera Domeyko would not be cut as the A San Juan
    would not make it across the mountains." (In the C phase it would be.)"""
    req = {"units": {"Chile": ["A ATA", "A CDO"], "Argentina": ["A SJU"]},
           "orders": {"Chile": ["A ATA S A CDO"], "Argentina": ["A SJU - ATA"]}}
    out = adjudicate("A1891M", **req)
    assert out["results"]["A ATA S A CDO"] == [] and out["results"]["A SJU - ATA"] == [
        "bounce"]
    assert adjudicate("C1891M", **req)["results"]["A ATA S A CDO"] == ["cut"]


def test_chilean_andes_example_3() -> None:
    """"Example 3: Now let us add: Chilean A Antofagasta Hold; British F Chile Trench to
    Punta Tetas. The Argentinian attack now succeeds *CSF* (2 v 1) (since Support from Punta
    Tetas is cut), and what is more, the Chilean army must be disbanded, as it cannot
    retreat to the only open province (Catamarca) since that lies over a mountainous border
    (Rule 5.C.i).\""""
    units = {**EXAMPLE_1["units"], "Britain": ["F CTR"]}
    units["Chile"] = [*units["Chile"], "A ANT", "A CDO"]
    orders = {**EXAMPLE_1["orders"], "Britain": ["F CTR - PTT"]}
    orders["Chile"] = [*orders["Chile"], "A ANT H", "A CDO H"]
    out = adjudicate("A1891M", units=units, orders=orders)
    assert out["results"]["A SJU - ATA"] == []
    assert out["results"]["F PTT S A ATA"] == ["cut"]
    assert out["dislodged"] == {}  # no retreat phase: nowhere to go
    assert out["destroyed"]["Chile"] == [{"unit": "A ATA", "from": "SJU"}]
    assert out["next_phase"] == "C1891M"
    # the same position with a retreat over the mountains ordered: refused
    nxt = adjudicate("B1891R", units=out["units"],
                     dislodged={"Chile": [{"unit": "A ATA", "from": "SJU"}]},
                     orders={"Chile": ["A ATA R CAT"]})
    assert nxt["results"]["A ATA R CAT"] == ["void", "disband"]


def test_chilean_andes_example_4() -> None:
    """"Example 4: Now change the A Cordillera Domeyko to a Bolivian A which Supports
    Argentinas A San Juan to Atacama. The support order is invalid (Rule 5.C.ii) and so
    Argentinas attack still only succeeds if BRI F Chile Trench cuts support from Punta
    Tetas.\""""
    units = {**EXAMPLE_1["units"], "Bolivia": ["A CDO"]}
    orders = {**EXAMPLE_1["orders"], "Bolivia": ["A CDO S A SJU - ATA"]}
    out = adjudicate("A1891M", units=units, orders=orders)
    assert out["results"]["A CDO S A SJU - ATA"] == ["void"]
    assert out["results"]["A SJU - ATA"] == ["bounce"]
    out = adjudicate("A1891M", units={**units, "Britain": ["F CTR"]},
                     orders={**orders, "Britain": ["F CTR - PTT"]})
    assert out["results"]["A SJU - ATA"] == []


@pytest.mark.parametrize(("option", "crosses"), [("ordered", True), ("given", False)])
def test_a_chilean_andes_crossing_whose_support_is_cut(option: str, crosses: bool) -> None:
    """"NO ARMY MAY CROSS this mountainous border UNLESS SUPPORTED by another unit": is an
    army whose only support is cut "supported"? By default yes (a support was ordered), so it
    crosses and cuts Atacama's support; with the option supported_crossing = "given" no,
    and "the A San Juan would not make it across the mountains" (example 2)."""
    out = adjudicate("A1891M", options={"supported_crossing": option},
                     units={"Argentina": ["A SJU", "A LRI"], "Chile": ["A ATA", "A CDO", "A CAT"]},
                     orders={"Argentina": ["A SJU - ATA", "A LRI S A SJU - ATA"],
                             "Chile": ["A ATA S A CDO", "A CAT - LRI"]})
    assert out["results"]["A LRI S A SJU - ATA"] == ["cut"]
    assert out["results"]["A ATA S A CDO"] == (["cut"] if crosses else [])


def test_the_chilean_andes_limit_armies_in_the_a_phase_only() -> None:
    """"During the FIRST MOVEMENT PHASE (A Phase: March-June) of any year, NO ARMY MAY CROSS
    this mountainous border UNLESS SUPPORTED": in the C phase an unsupported army crosses
    into an empty province (its own strength is 0, but nobody opposes it); in the A phase
    it does not."""
    req = {"units": {"Argentina": ["A SJU"]}, "orders": {"Argentina": ["A SJU - ATA"]}}
    assert adjudicate("A1891M", **req)["results"]["A SJU - ATA"] == ["bounce"]
    assert adjudicate("C1891M", **req)["results"]["A SJU - ATA"] == []
    # a Greater Andes border outside the Chilean Andes: no A-phase limit
    req = {"units": {"Bolivia": ["A POT"]}, "orders": {"Bolivia": ["A POT - TAR"]}}
    assert adjudicate("A1891M", **req)["results"]["A POT - TAR"] == []


def test_no_unit_retreats_across_a_mountain_border_in_b_or_d() -> None:
    """"NO UNIT MAY RETREAT ACROSS A MOUNTAINOUS BORDER ON ANY RETREAT PHASE (B or D
    Phases)." Arequipa's army, dislodged from Lima in a C phase, retreats in D to Tarapacá
    but never to Ayacucho, Cuzco or Puno over the Andes."""
    out = adjudicate("C1891M", units={"Chile": ["A ARE"], "Peru": ["A LIM", "F NAZ"]},
                     orders={"Peru": ["A LIM - ARE", "F NAZ S A LIM - ARE"]})
    assert out["next_phase"] == "D1891R"
    assert out["dislodged"]["Chile"] == [{"unit": "A ARE", "from": "LIM", "retreats": ["TAR"]}]
    assert {"AYA", "CUZ", "PUN"} <= {M.prov_abbr[q] for q in M.reach_prov[M.army][
        M.prov_index["ARE"]]}


# ---- 5.D rainforests ----------------------------------------------------------------------

def test_the_peru_manaus_example() -> None:
    """"Example: First Movement Phase (A Phase): Peru: A Cuiaba to Para; R Rondonia to
    Amazonas. Second Movement Phase (C Phase): Peru: A Para to Manaus, supported by R
    Amazonas. The support order is valid, but not the movement order; hence Para does not
    move. If Peru wants to take Manaus, it can order R Amazonas to Manaus, but A Para cannot
    support the move (Rule 5.D.1)." (The flotilla comes with part 2: here an army stands in
    Amazonas, already there in the A phase.)"""
    a = adjudicate("A1891M", units={"Peru": ["A CUI", "A AMZ"]},
                   orders={"Peru": ["A CUI - PRA"]})
    assert a["units"]["Peru"] == ["A PRA", "A AMZ"]
    assert a["extra"] == {"rainforests": {"A PRA": "CUI"}}  # where it came from
    c = adjudicate(units=a["units"], extra=a["extra"], orders={"Peru": ["A PRA - MAN"]})
    assert c["results"]["A PRA - MAN"] == ["void"]
    assert "A PRA" in c["units"]["Peru"]  # Para does not move
    c = adjudicate(units=a["units"], extra=a["extra"],
                   orders={"Peru": ["A AMZ - MAN", "A PRA S A AMZ - MAN"]})
    assert c["results"] == {"A AMZ - MAN": [], "A PRA S A AMZ - MAN": ["void"]}
    # the way back is open
    c = adjudicate(units=a["units"], extra=a["extra"], orders={"Peru": ["A PRA - CUI"]})
    assert c["results"]["A PRA - CUI"] == [] and "extra" not in c


def test_an_army_that_entered_a_rainforest_may_next_only_go_back_then_is_free() -> None:
    """"ONCE AN ARMY HAS ENTERED such a province, IT MAY NOT MOVE ON THE SUCCEEDING TURN,
    EXCEPT TO THE PROVINCE FROM WHICH IT ENTERED." The legal orders say so, over a C phase,
    a D phase and into the next A phase; the turn after, it moves freely."""
    g = game_at("C1891M", {"Peru": ["A HUA"]})
    g.set_orders("Peru", ["A HUA - LOR"])
    g.process()
    assert g.position.extra["rainforests"] == {"A LOR": "HUA"}
    while g.position.phase.type != "M":
        g.process()
    assert g.phase == "A1892M"
    moves = [o for o in g.legal_orders("Peru")["A LOR"] if " - " in o]
    assert moves == ["A LOR - HUA"]
    assert g.set_orders("Peru", ["A LOR H"]) == []
    g.process()
    moves = [o for o in g.legal_orders("Peru")["A LOR"] if " - " in o]
    assert len(moves) == len(M.move_locs[M.army][M.prov_index["LOR"]]) > 1


@pytest.mark.parametrize(("supporter", "target"), [("A MAN", "RBR"), ("A LOR", "CUZ"),
                                                   ("A CUZ", "LOR"), ("A GUY", "PRA")])
def test_no_army_supports_across_a_rainforest_border(supporter: str, target: str) -> None:
    """"NO ARMY MAY SUPPORT ORDER SUPPORT ACROSS A RAINFOREST BORDER" — into the province
    across the border, to hold or to move there."""
    here = supporter.split()[1]
    units = {"Brazil": [supporter, f"A {target}"]}
    out = adjudicate(units=units, orders={"Brazil": [f"{supporter} S A {target}"]})
    assert out["results"][f"{supporter} S A {target}"] == ["void"]
    assert M.prov_index[target] in M.reach_prov[M.army][M.prov_index[here]]


# ---- 5.E swamps and 5.I deserts -----------------------------------------------------------

def test_a_swamp_army_gives_no_support_nor_is_supported_to_hold() -> None:
    """"There are three swampy provinces on the Latin American Diplomacy Map: FORMOSA,
    BOQUERON and SAN PEDRO. NO ARMY located in one of these provinces MAY OFFER SUPPORT TO
    ANOTHER UNIT, OR BE SUPPORTED TO HOLD in that province by another unit (i.e. the defense
    strength of such an army cannot exceed one)." "an army may be supported to move OUT of
    the swampy province, even to another swampy province.\""""
    out = adjudicate(units={"Argentina": ["A FOR", "A ASU", "A SPE"]},
                     orders={"Argentina": ["A FOR S A ASU", "A ASU S A FOR", "A SPE S A ASU"]})
    assert out["results"] == {"A FOR S A ASU": ["void"], "A ASU S A FOR": ["void"],
                              "A SPE S A ASU": ["void"]}
    out = adjudicate(units={"Argentina": ["A FOR", "A ASU"], "Bolivia": ["A BOQ"]},
                     orders={"Argentina": ["A FOR - BOQ", "A ASU S A FOR - BOQ"]})
    assert out["results"]["A ASU S A FOR - BOQ"] == []
    assert out["results"]["A FOR - BOQ"] == []  # 2 v 1: out of one swamp into another
    # a swamp army holds with strength one against any support
    out = adjudicate(units={"Argentina": ["A FOR", "A SAL"], "Bolivia": ["A BOQ"]},
                     orders={"Argentina": ["A SAL S A FOR"], "Bolivia": ["A BOQ - FOR"]})
    assert out["results"]["A SAL S A FOR"] == ["void"]
    assert out["results"]["A BOQ - FOR"] == ["bounce"]  # 1 v 1 still bounces


def test_no_support_from_one_desert_into_or_holding_in_the_next() -> None:
    """"There are three desert provinces, all adjacent and all part of Chile ...
    ANTOFAGASTA, ATACAMA and TARAPACA." "NO UNIT IN ONE DESERT PROVINCE MAY SUPPORT ANOTHER
    UNIT INTO, OR TO HOLD IN AN ADJACENT DESERT PROVINCE. Note that this means that a unit in
    a desert province may support a unit in an adjacent desert province to move into a
    non-desert province.\""""
    out = adjudicate(units={"Chile": ["A ANT", "A ATA", "A TAR", "A CDO"]},
                     orders={"Chile": ["A ANT S A ATA", "A ATA S A CDO - ANT",
                                       "A TAR S A ANT", "A CDO H"]})
    assert out["results"]["A ANT S A ATA"] == ["void"]
    assert out["results"]["A ATA S A CDO - ANT"] == ["void"]
    assert out["results"]["A TAR S A ANT"] == ["void"]
    out = adjudicate(units={"Chile": ["A ANT", "A TAR", "F PTT"]},
                     orders={"Chile": ["A TAR - CDO", "A ANT S A TAR - CDO", "F PTT S A ANT"]})
    assert out["results"] == {"A TAR - CDO": [], "A ANT S A TAR - CDO": [],
                              "F PTT S A ANT": []}


# ---- 5.J.3.i the Falklands ----------------------------------------------------------------

def test_the_falklands_crossing_needs_a_vacant_sound() -> None:
    """"Due to the close proximity of WEST FALKLAND and EAST FALKLAND, a Fleet, River
    Flotilla or Army may move from one to the other in one turn, without having to enter
    FALKLAND SOUND, except when FALKLAND SOUND is occupied by any unit." "Note: A F in
    Falkland Sound could convoy an army from East Falkand to West Falkland or vice-versa.\""""
    assert adjudicate(units={"Britain": ["A EFA"]}, orders={"Britain": ["A EFA - WFA"]})[
        "results"]["A EFA - WFA"] == []
    assert adjudicate(units={"Britain": ["F EFA"]}, orders={"Britain": ["F EFA - WFA"]})[
        "results"]["F EFA - WFA"] == []
    out = adjudicate(units={"Britain": ["A EFA"], "Argentina": ["F FSO"]},
                     orders={"Britain": ["A EFA - WFA"]})
    assert out["results"]["A EFA - WFA"] == ["void"]
    out = adjudicate(units={"Britain": ["A EFA", "F FSO"]},
                     orders={"Britain": ["A EFA - WFA VIA", "F FSO C A EFA - WFA"]})
    assert out["units"]["Britain"] == ["A WFA", "F FSO"]


def test_only_a_fleet_supports_across_the_falklands() -> None:
    """"In addition, so long as FALKLAND SOUND is vacant, a unit in either Falkland island
    may be supported by a FLEET (but not an Army or River Flotilla) in the other Falkland
    island.\""""
    out = adjudicate(units={"Britain": ["F WFA", "A EFA"]},
                     orders={"Britain": ["F WFA S A EFA", "A EFA S F WFA"]})
    assert out["results"]["F WFA S A EFA"] == []
    assert out["results"]["A EFA S F WFA"] == ["void"]
    out = adjudicate(units={"Britain": ["F WFA", "A EFA"], "Argentina": ["F FSO"]},
                     orders={"Britain": ["F WFA S A EFA"]})
    assert out["results"]["F WFA S A EFA"] == ["void"]


# ---- 7.A capitals and the builds off the centers ------------------------------------------

LATIN = ["Argentina", "Bolivia", "Brazil", "Chile", "Colombia", "Mexico", "Peru", "Venezuela"]
IMPERIAL = ["Britain", "France", "Spain", "United States"]


def test_1890d_the_capital_powers_build_their_second_unit_anywhere_in_their_territory() -> None:
    """"Control of a capital center allows for two builds." "The first turn of the game will
    be a Phase D turn ... On this turn, those powers with Capital Centers showing on the map
    may build a unit on any space which belongs to their power, including Island Provinces.
    Example: 1890D: Chile orders B F Islas San Felix. Peru orders: Build R Loreto, (and so
    on)." (Flotillas come with part 2: Peru builds an army in Loreto.)"""
    g = Game.new(V)
    assert g.phase == "D1890A"
    counts = adjustment_counts(g.map, g.position)
    assert {p: counts[g.power(p)] for p in LATIN + IMPERIAL} == {
        **dict.fromkeys(LATIN, 1), **dict.fromkeys(IMPERIAL, 0)}
    assert sorted(g.map.powers[p] for p in g.powers_to_order()) == LATIN
    assert "ISF" in sites(g, "Chile") and "LOR" in sites(g, "Peru")
    assert sites(g, "Bolivia") == {"POT", "TRJ", "SCZ", "BEN", "ACR"}  # its vacant territory
    assert g.set_orders("Chile", ["B F Islas San Felix"]) == []
    assert g.set_orders("Peru", ["Build A Loreto"]) == []
    assert g.set_orders("Argentina", ["B A Uruguay"]) == [
        "'B A Uruguay': Uruguay is neutral (build sites: CAT, CHU, CRR, ERI, FOR, JUJ, LRI, "
        "MEN, NEU, PAM, RNE, SAL, SCT, SDE, SFE, SJU, TDF)"]
    g.process()
    assert g.phase == "A1891M"
    built = {(g.map.powers[u.power], g.map.unit_str(u.kind, u.loc)) for u in g.position.units}
    assert ("Chile", "F ISF") in built and ("Peru", "A LOR") in built
    assert len(g.position.units) == 43 + 2


def test_only_one_build_on_the_capital_itself() -> None:
    """"Control of a capital center allows for two builds. Only one build may be made on the
    Capital Center itself, however.\""""
    g = game_at("D1891A", {"Argentina": ["A TUC"]}, {"Argentina": ["BUE", "TUC", "CBA"]})
    assert adjustment_counts(g.map, g.position)[g.power("Argentina")] == 4 - 1
    # the second build on the capital is refused when it is given (issue 27) ...
    [problem] = g.set_orders("Argentina", ["A BUE B", "F BUE B", "A CBA B"])
    assert problem.startswith("'F BUE B': a second build in Buenos Aires")
    assert g.orders[g.power("Argentina")] == ["A BUE B", "A CBA B"]
    # ... and the adjudication voids it when it gets there all the same (a saved game)
    g.orders[g.power("Argentina")] = ["A BUE B", "F BUE B", "A CBA B"]
    out = g.process()
    results = {r.text: r.result for r in out.results if r.power == g.power("Argentina")}
    assert results == {"A BUE B": [], "F BUE B": ["void"], "A CBA B": []}
    assert len([u for u in g.position.units if u.power == g.power("Argentina")]) == 3


def test_1895d_britain_builds_in_british_honduras() -> None:
    """"After this, on D Phases in years ending in -5 and -0, All powers who continue to
    control their capital centres will be allowed to make ONE build earned on any province
    which they occupied at the beginning of the game ... This INCLUDES the imperial powers
    ... Example 1: It is 1895D, Britain has a build due, Britain orders: B A British
    Honduras. Result: Order is Valid.\""""
    britain = ["A GUY", "F BHM", "F JAM", "F TRI"]
    centers = {"Britain": ["GUY", "BHM", "JAM", "TRI", "EFA", "BAR"]}
    g = game_at("D1895A", {"Britain": britain, "Spain": ["F EFA"]}, centers)
    assert adjustment_counts(g.map, g.position)[g.power("Britain")] == 2
    assert {"BHO", "BAR", "WFA", "UBA", "LBA", "VIR", "BER"} <= sites(g, "Britain")
    assert g.set_orders("Britain", ["B A British Honduras", "B F Barbados"]) == []
    g.process()
    built = {g.map.unit_str(u.kind, u.loc) for u in g.position.units}
    assert "A BHO" in built and "F BAR" not in built  # ONE build off the centers
    # 1896: no build off the centers
    g = game_at("D1896A", {"Britain": britain, "Spain": ["F EFA"]}, centers)
    assert sites(g, "Britain") == set()


def test_1895d_venezuela_without_caracas_builds_only_on_its_centers() -> None:
    """"Example 2: It is 1895D, Caracas is occupied by Spain. Venezuela orders B R AMAZONAS
    DE VENEZUELA. The order is invalid." (With an army: flotillas come in part 2.)"""
    centers = {"Venezuela": ["BRQ", "MCB", "CUR"], "Spain": ["CCS"]}
    g = game_at("D1895A", {"Spain": ["A CCS"], "Venezuela": ["A APU"]}, centers)
    assert adjustment_counts(g.map, g.position)[g.power("Venezuela")] == 2
    assert sites(g, "Venezuela") == {"BRQ", "MCB"}
    assert g.set_orders("Venezuela", ["B A Amazonas de Venezuela"]) == [
        "'B A Amazonas de Venezuela': Amazonas de Venezuela is not a supply center (build "
        "sites: BRQ, MCB)"]
    # holding Caracas, the same order is valid
    g = game_at("D1895A", {"Venezuela": ["A CCS", "A APU"]}, {"Venezuela": ["CCS", "BRQ",
                                                                          "MCB", "CUR"]})
    assert g.set_orders("Venezuela", ["B A Amazonas de Venezuela"]) == []


def test_a_site_off_the_centers_must_be_vacant_and_not_a_lost_center() -> None:
    """"unless: a) it is presently occupied by any unit; or b) it is a province with a supply
    center that is no longer under the control of that power.\""""
    centers = {"Mexico": ["MEX", "SLP", "MER", "GUA", "HON"], "United States": ["GDL"]}
    g = game_at("D1900A", {"Mexico": ["A SON"], "United States": ["A HOU"]}, centers)
    got = sites(g, "Mexico")
    assert "SON" not in got and "GDL" not in got  # occupied; a lost center
    assert {"MEX", "SLP", "MER", "BAJ", "CHH"} <= got
    assert not {"GUA", "HON"} & got  # neutral centers are never built on


# ---- 7.B Antofagasta, 7.C outposts, neutral centers ---------------------------------------

def test_bolivia_recapturing_antofagasta_makes_it_a_home_center() -> None:
    """"ANTOFAGASTA begins the game as Chile's home center ... Thus if [Bolivia] can reclaim
    Antofagasta, in this game it can use Antofagasta as a Home Center, and thus build a
    fleet to put out to sea." (The seed writes "Brazil"; Bolivia is meant.)"""
    g = game_at("C1891M", {"Bolivia": ["A TAR"]})
    bolivia = g.power("Bolivia")
    g.set_orders("Bolivia", ["A TAR - ANT"])
    g.process()
    assert g.position.owners[M.prov_index["ANT"]] == bolivia
    assert M.prov_index["ANT"] in g.position.homes[bolivia]
    assert g.position.extra["capture_home"] == {"Bolivia": "ANT"}
    while g.phase != "C1892M":
        if g.phase == "A1892M":
            g.set_orders("Bolivia", ["A ANT - TAR"])
        g.process()
    g.process()
    assert g.phase == "D1892A"
    assert "ANT" in sites(g, "Bolivia")
    assert g.set_orders("Bolivia", ["B F Antofagasta"]) == []
    # Chile's home it stays: Chile building there when it holds it again is not the question


def test_outposts_are_built_on_in_years_ending_0_or_5_while_nobody_else_holds_them() -> None:
    """"when a power has an open Outpost Center on a D Phase in a year ending in -5 or -0,
    that power may build on it SO LONG AS NO OTHER POWER CONTROLS IT (see Rule 7.A.ii
    above)." Manaus is Brazil's outpost."""
    brazil = {"Brazil": ["RIO", "REC", "BAH", "SAO"]}
    g = game_at("D1895A", {"Brazil": ["A REC"]}, brazil)
    assert "MAN" in sites(g, "Brazil")
    g = game_at("D1897A", {"Brazil": ["A REC"]}, brazil)
    assert "MAN" not in sites(g, "Brazil")
    g = game_at("D1895A", {"Brazil": ["A REC"]}, {**brazil, "Peru": ["MAN"]})
    assert "MAN" not in sites(g, "Brazil")


def test_dutch_and_portuguese_outposts_and_neutral_centers_are_never_built_on() -> None:
    """"four of the nine Outpost Centres on the map, for the purposes of this game, function
    identical to Neutral Centers, and cannot be built on." "Neutral Centers can never be
    built on." Every power owning every one of them, vacant, in 1900D: never a site."""
    never = [p.abbr for p in V.provinces.values()
             if p.supply_center == "neutral" or (p.supply_center == "outpost" and not any(
                 p.abbr in pw.territory for pw in V.powers))]
    assert len(never) == 11 + 4
    for power in LATIN + IMPERIAL:
        g = game_at("D1900A", {}, {power: never})
        assert not set(never) & sites(g, power), power


# ---- victory, the end, draws, the calendar's names -----------------------------------------

def test_victory_at_36_of_71_counting_capitals_twice() -> None:
    """"One player gains control of a majority of supply centres (36 of 71)": 34 provinces
    with two capitals are 36; 35 provinces without one are not."""
    others = [M.prov_abbr[p] for p in M.sc_list if M.sc_kind[p] != "capital"]
    peru = {"Peru": ["A LIM"]}  # somebody else is still in the game
    g = game_at("C1891M", peru, {"Brazil": ["BUE", "RIO", *others[:32]], "Peru": ["LIM"]})
    g.process()
    assert g.status == "won" and g.winners == [g.power("Brazil")]
    g = game_at("C1891M", peru, {"Brazil": others[:35], "Peru": ["LIM"]})
    g.process()
    assert g.status == "active"


def test_the_game_ends_after_1917d_as_a_draw_of_all_survivors() -> None:
    """"C. After the 27th year or 54th turn ends (1917D)" and "A. A unanimous vote for a draw
    is made by all players" — a draw includes every surviving power; one leaving a power out
    is refused."""
    g = game_at("C1917M", {"Peru": ["A LIM"], "Chile": ["A STG"]})
    g.process()  # to D1917A: the others have builds
    assert g.phase == "D1917A" and g.status == "active"
    g.process()
    assert g.status == "drawn"
    assert {g.map.powers[p] for p in g.winners} >= {"Peru", "Chile", "Britain"}
    g = Game.new(V)
    with pytest.raises(PolydipError, match="a draw is voted by all players"):
        g.declare_draw(["Peru", "Chile"])
    g.declare_draw()
    assert len(g.winners) == 12


def test_phases_are_written_as_the_seed_writes_them() -> None:
    """"thus 1891 will follow the rotations: 1891A, 1891B, 1891C, 1891D (or 1891 D-1, 1891
    D-2)": D-1 is the retreats, D-2 the builds (polydip always plays D as these two steps)."""
    for typed, phase in (("1891A", "A1891M"), ("1891B", "B1891R"), ("1891C", "C1891M"),
                         ("1891D", "D1891R"), ("1891 D-1", "D1891R"), ("1891 D-2", "D1891A")):
        assert adjudicate(typed)["phase"] == phase


@pytest.mark.parametrize(("seed", "options"), [
    (3, {}), (4, {"supported_crossing": "given", "crossing_strength": "attack"})])
def test_random_games_with_the_rules_play_to_1917d(seed: int, options: dict) -> None:
    g = Game.new(V, options)
    rng = random.Random(seed)
    remembered = 0
    while not g.is_over:
        for p, lst in random_orders(g.map, g.position, rng).items():
            assert g.set_orders(p, lst) == [], (g.phase, lst)
        remembered += "rainforests" in g.position.extra
        g.process()
    assert g.position.phase.year == 1918 and g.status == "drawn"
    assert remembered > 0  # the rainforest rule was in play


def test_the_report_counts_capitals_twice_and_builds_off_the_centers_once() -> None:
    """The GM's report: Argentina's capital counts 2 ("eight Capital Centers supporting 16
    units"), and Britain, two builds due in 1895 with no free home center, has room for the
    ONE build off the centers only."""
    from polydip.report import build_report, format_report

    centers = {"Britain": ["GUY", "BHM", "JAM", "TRI", "EFA", "BAR", "SUR"],
               "Argentina": ["BUE", "TUC", "CBA"], "Spain": ["HAB"]}
    g = game_at("C1895M", {"Britain": ["A GUY", "F BHM", "F JAM", "F TRI"], "Spain": ["F FSO"],
                           "Argentina": ["A TUC", "A CBA", "F BUE"]}, centers)
    g.set_orders("Spain", ["F FSO - EFA"])
    g.process()
    text = format_report(build_report(g, g.history[-1]))
    assert ("Argentina: 4 centers, 3 units — builds 1 (build sites: JUJ, SAL, CAT, SDE, LRI, "
            "SJU, MEN, SFE, FOR, CRR, ERI, PAM, NEU, RNE, CHU, SCT, TDF)") in text
    assert ("Britain: 6 centers, 4 units — builds 1 (build sites: WFA, BHO, BAR, BER, UBA, "
            "LBA, VIR); 1 more allowed but no room") in text
    assert "Supply centers: Argentina 4, Britain 6, Spain 2" in text
    # with a free home center too, both builds fit, one of them off the centers
    g = game_at("C1895M", {"Britain": ["A GUY", "F BHM", "F JAM"], "Spain": ["F FSO"]},
                {**centers, "Britain": [*centers["Britain"], "CUR"]})
    g.set_orders("Spain", ["F FSO - EFA"])
    g.process()
    text = format_report(build_report(g, g.history[-1]))
    assert ("Britain: 7 centers, 3 units — builds 2 (build sites: TRI, WFA, BHO, BAR, BER, "
            "UBA, LBA, VIR); at most 1 off the centers (WFA, BHO, BAR, BER, UBA, LBA, VIR); "
            "2 more allowed but no room") in text


def test_polydip_new_starts_at_1890d_with_the_capital_builds(tmp_path, capsys) -> None:
    """`polydip new lad1890` then `polydip show`: the first phase is 1890D, each capital
    counts 2, and the eight powers with a capital have one build each."""
    from polydip.cli.main import main

    path = str(tmp_path / "g.json")
    assert main(["new", "lad1890", path]) == 0
    assert main(["show", path]) == 0
    out = capsys.readouterr().out
    # the rules text's words for its phases: "D: Second Retreat (/Build/Disband) Phase
    # (December-March)" (issue 28.5)
    assert "1890 D Phase (December-March) Adjustments (D1890A)" in out
    assert "  Argentina (4 centers, 3 units) — builds 1" in out
    assert "  Britain (5 centers, 5 units):" in out
    assert out.count(" — builds 1") == 8
