"""Latin American Diplomacy 1890, part 2: the river flotilla R, a third unit kind.

Every example of the seed's rule 6 (the river flotilla: movement, deep water, islands,
changing banks, support) and of the other rules that name flotillas (5.D, 5.E, 5.G, 5.H,
5.J, 7.A), each quoting the sentence it checks (seed 001, "Latin American Diplomacy" by
Michael Zmolek). Fleets turning into flotillas, anchor markers and canals are not supported
yet (see README).
"""

from __future__ import annotations

import random

import pytest
from scenario import Scenario

from polydip.compile import compile_map
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.report import build_report, format_report
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

V = load_variant("lad1890")
M = compile_map(V)
A, F, R = (M.kind_index[k] for k in "AFR")


adjudicate = Scenario("lad1890", "A1891M", "Brazil").adjudicate


def legal_of(units: dict, power: str) -> dict[str, list[str]]:
    """The legal orders of `power` in an A phase with these units."""
    g = Game.new(V)
    g.position.phase = Phase(1891, "A", "M")
    g.position.units = [Unit(g.power(p), M.kind_index[u[0]], M.loc_of(u[2:]))
                        for p, lst in units.items() for u in lst]
    return g.legal_orders(power)


def may_stand(kind: int, prov: str) -> bool:
    p = M.prov_index[prov]
    return any(M.occupy[kind][x] for x in (p, *M.prov_coast_locs[p]))


# ---- 6.B movement -----------------------------------------------------------------------------

def test_a_flotilla_must_travel_along_rivers_when_on_land() -> None:
    """"A River Flotilla must travel along river routes when on land. Example: R Guyana
    [rib] to Para. Result: The order is invalid; Para has no river border with Guayana."
    Along the Rio Branco it goes."""
    out = adjudicate({"Britain": ["R GUY/RB"]}, {"Britain": ["R Guyana [rib] to Para"]})
    assert out["results"] == {"R GUY/RB - PRA": ["void"]}
    out = adjudicate({"Britain": ["R GUY/RB"]}, {"Britain": ["R Guyana [rib] to Rio Branco"]})
    assert out["units"] == {"Britain": ["R RBR"]}


def test_fleets_do_not_travel_along_rivers() -> None:
    """"FLEETS MAY NOT TRAVEL ALONG RIVERS in this variant [they may, however, occupy
    lakes]." A fleet on Guyana's sea coast does not sail up the Rio Branco."""
    out = adjudicate({"Britain": ["F GUY/SC"]}, {"Britain": ["F GUY - RBR"]})
    assert out["results"] == {"F GUY/SC - RBR": ["void"]}
    assert may_stand(F, "LTI") and may_stand(F, "LNI")


def test_a_flotilla_stands_only_on_land_with_a_river() -> None:
    """"they MAY NOT OCCUPY ANY COASTAL PROVINCE OR UPLAND PROVINCE WHICH DOES NOT HAVE A
    RIVER COURSING THROUGH IT, OR which DOES NOT BORDER A RIVER." Veracruz and Lima have no
    river; the flotilla in the Bahía de Campeche cannot land there."""
    assert not may_stand(R, "VER") and not may_stand(R, "LIM")
    assert may_stand(R, "GUY") and may_stand(R, "LOR") and may_stand(R, "BEL")
    out = adjudicate({"Mexico": ["R BCA"]}, {"Mexico": ["R BCA - VER"]})
    assert out["results"] == {"R BCA - VER": ["void"]}


def test_rondonia_to_amazonas_needs_no_bank() -> None:
    """"R Rondonia to Amazonas" (5.D's example): the flotilla can reach one bank only, so
    no designation is needed."""
    out = adjudicate({"Peru": ["R RON"]}, {"Peru": ["R Rondonia to Amazonas"]})
    assert out["units"] == {"Peru": ["R AMZ/NB"]}


def test_flotillas_in_deep_water_are_weak_the_falkland_current_example() -> None:
    """"when a River Flotilla enters any Sea Province which is not directly adjacent to a
    Coastal Province, or ANY OCean Province, it cannot support another unit, and has an
    attack strength of zero. It can be supported to hold or to move into such a province,
    however, and in such a case its attack strength equals the number of supporting units.
    Example: Argentina: R Falkland Current Hold; F West Falkland S R Falkland Current Hold.
    Brazil: F Argentine Basin to Falkland Current; F Falkland Sound S F Argentine Basin to
    Falkland Current. Result: *CSF* (2 v 1). The R must retreat\""""
    out = adjudicate(
        {"Argentina": ["R FCU", "F WFA"], "Brazil": ["F ARB", "F FSO"]},
        {"Argentina": ["R Falkland Current Hold", "F West Falkland S R Falkland Current"],
         "Brazil": ["F Argentine Basin to Falkland Current",
                    "F Falkland Sound S F Argentine Basin to Falkland Current"]})
    assert out["results"]["F ARB - FCU"] == []
    [d] = out["dislodged"]["Argentina"]
    assert d["unit"] == "R FCU" and d["retreats"]
    # supported once it holds at 1: an unsupported attack bounces
    out = adjudicate({"Argentina": ["R FCU", "F WFA"], "Brazil": ["F ARB"]},
                     {"Argentina": ["F WFA S R FCU"], "Brazil": ["F ARB - FCU"]})
    assert out["results"]["F ARB - FCU"] == ["bounce"]
    # unsupported it holds at 0: a lone fleet drives it out
    out = adjudicate({"Argentina": ["R FCU"], "Brazil": ["F ARB"]},
                     {"Brazil": ["F ARB - FCU"]})
    assert [d["unit"] for d in out["dislodged"]["Argentina"]] == ["R FCU"]


def test_a_flotilla_in_deep_water_gives_no_support_and_attacks_at_zero() -> None:
    """The same sentence: in the Falkland Current (no coastal province next to it) or an
    ocean the flotilla's support is void, and its move there is stopped by a lone fleet;
    in the Golfo San Jorge, a sea on the coast, it is a unit like any other."""
    out = adjudicate({"Argentina": ["R FCU", "F WFA"]}, {"Argentina": ["R FCU S F WFA"]})
    assert out["results"]["R FCU S F WFA"] == ["void"]
    out = adjudicate({"Argentina": ["R GSJ"], "Brazil": ["F ARB"]},
                     {"Argentina": ["R GSJ - FCU"], "Brazil": ["F ARB - FCU"]})
    assert out["results"]["F ARB - FCU"] == [] and out["results"]["R GSJ - FCU"] == ["bounce"]
    out = adjudicate({"Argentina": ["R FCU", "R GSJ"], "Chile": ["F BGR"]},
                     {"Argentina": ["R GSJ S R FCU - BGR", "R FCU - BGR"]})
    assert out["results"]["R FCU - BGR"] == ["bounce"]  # moving out it is strength 1 again
    assert out["results"]["R GSJ S R FCU - BGR"] == ["void"]  # (BGR is a sea: see 6.E)


def test_flotillas_occupy_islands_but_not_the_coastal_islands() -> None:
    """"River Flotillas may occupy Island Provinces. [This does not include: JAMAICA, ISLA
    WELLINGTON, MAGALLANES SUR or TIERRA DEL FUEGO, which are all technically COASTAL
    PROVINCES.]\""""
    assert may_stand(R, "WFA") and may_stand(R, "MRJ") and may_stand(R, "GAL")
    for prov in ("JAM", "ISW", "MGS", "TDF"):
        assert not may_stand(R, prov), prov


def test_no_flotilla_on_the_glacier_and_flotillas_on_lakes() -> None:
    """"NO FLEET OR RIVER FLOTILLA may enter a glacial province." "Lake Provinces are
    playable with both Fleets and River Flotillas (but not Armies, of course).\""""
    assert not may_stand(R, "GRL") and not may_stand(F, "GRL")
    assert may_stand(R, "LTI") and may_stand(R, "LNI") and not may_stand(A, "LTI")


def test_flotillas_cross_the_falklands_and_between_san_pedro_and_tarija() -> None:
    """"a Fleet, River Flotilla or Army may move from one to the other in one turn, without
    having to enter FALKLAND SOUND" (5.J.3.i); "Any Army or River Flotilla may move between
    SAN PEDRO and TARIJA" (5.J.5)."""
    out = adjudicate({"Argentina": ["R WFA"]}, {"Argentina": ["R WFA - EFA"]})
    assert out["units"] == {"Argentina": ["R EFA"]}
    out = adjudicate({"Bolivia": ["R SPE/WB"]}, {"Bolivia": ["R San Pedro [wb] - Tarija"]})
    assert out["units"] == {"Bolivia": ["R TRJ"]}


# ---- 6.B.iv changing banks ------------------------------------------------------------------

@pytest.mark.parametrize(("unit", "order", "after"), [
    ("R LPZ/RB", "R La Paz[rib] to La Paz [ls]", "R LPZ/LS"),
    ("R CUI/EB", "R Cuiaba [eb] to Cuiaba [sb]", "R CUI/SB"),
    ("R GUY/RB", "R Guyana [rib] to [sec]", "R GUY/SC"),
])
def test_a_flotilla_crosses_to_another_bank_of_its_province(unit: str, order: str,
                                                            after: str) -> None:
    """"River Flotillas may be ordered to cross from one sea coast/river bank/lake shore to
    another. This equals one turn. Here are some examples of valid orders: R La Paz[rib] to
    La Paz [ls] / R Cuiaba [eb] to Cuiaba [sb] / R Guyana [rib] to [sec]\""""
    power = "Bolivia" if "LPZ" in unit else "Brazil"
    out = adjudicate({power: [unit]}, {power: [order]})
    assert out["units"] == {power: [after]}
    assert list(out["results"].values()) == [[]]


def test_a_bank_change_is_supported_as_a_hold_and_may_be_dislodged() -> None:
    """"Such moves may be supported, and such a support order will be understood as a
    support order to Hold." Supported, the flotilla holds against a supported attack (2 v
    2); unsupported it is dislodged and never reaches the other bank."""
    units = {"Britain": ["R GUY/RB", "A MON"], "Venezuela": ["A RBR", "A BOL"]}
    attack = ["A RBR - GUY", "A BOL S A RBR - GUY"]
    out = adjudicate(units, {"Britain": ["R GUY/RB - GUY/SC", "A MON S R GUY/RB - GUY/SC"],
                             "Venezuela": attack})
    assert out["results"]["A MON S R GUY/RB - GUY/SC"] == []
    assert out["results"]["A RBR - GUY"] == ["bounce"]
    assert "R GUY/SC" in out["units"]["Britain"]
    out = adjudicate(units, {"Britain": ["R GUY/RB - GUY/SC"], "Venezuela": attack})
    assert out["results"]["R GUY/RB - GUY/SC"] == ["dislodged"]
    assert out["units"]["Britain"] == ["A MON"]


def test_a_fleet_does_not_change_coasts() -> None:
    """"a FLEET may not be ordered to move from one coast/bank/shore to another. Example: F
    Guyana [sec] to Guyana [rib] Result: Invalid order.\""""
    out = adjudicate({"Britain": ["F GUY/SC"]}, {"Britain": ["F Guyana [sec] to Guyana [rib]"]})
    assert out["results"] == {"F GUY/SC - GUY/RB": ["void"]}


# ---- 6.E support ------------------------------------------------------------------------------

def test_napo_supports_pastaza_across_the_rainforest() -> None:
    """"River Flotillas are not restricted by Rainforest Borders, however, and can order
    support across Rainforest Borders, EVEN to provinces where they cannot travel ...
    Example: R Napo S A Pastaza. Result: Order is valid.\""""
    out = adjudicate({"Peru": ["R NAP", "A PAS"], "Colombia": ["A QUI", "A GYE"]},
                     {"Peru": ["R Napo S A Pastaza"],
                      "Colombia": ["A QUI - PAS", "A GYE S A QUI - PAS"]})
    assert out["results"]["R NAP S A PAS"] == []
    assert out["results"]["A QUI - PAS"] == ["bounce"]  # 2 v 2


def test_beni_may_not_support_across_the_mountains() -> None:
    """"with the exception that they CANNOT order support across mountain borders ...
    Example: R Beni S A Santa Cruz to Cochabamba. Result: Order is Invalid *IO*.\""""
    out = adjudicate({"Bolivia": ["R BEN", "A SCZ"]},
                     {"Bolivia": ["R Beni S A Santa Cruz to Cochabamba", "A SCZ - COC"]})
    assert out["results"]["R BEN S A SCZ - COC"] == ["void"]


def test_flotillas_support_nothing_in_seas_or_oceans() -> None:
    """"River Flotillas may not offer support to any unit in a Sea Province or Ocean
    Province." "R's occupying Island Provinces may not support units in adjacent Sea or
    Ocean Provinces\""""
    out = adjudicate({"Argentina": ["R WFA", "F FSO"]}, {"Argentina": ["R WFA S F FSO"]})
    assert out["results"]["R WFA S F FSO"] == ["void"]
    out = adjudicate({"Britain": ["R GUY/SC", "F GBS"]}, {"Britain": ["R GUY S F GBS"]})
    assert out["results"]["R GUY/SC S F GBS"] == ["void"]


def test_flotillas_support_into_coastal_provinces_without_rivers() -> None:
    """"This rule does not prevent a River Flotilla from supporting another unit to hold
    or move into such a Coastal Province, which it may do." (6.B.ii; "As noted in Rule
    6.B.ii, R's may support units to hold, move into or move out of Coastal Provinces
    which have no river borders", 6.E.) The flotilla on Guyana's river bank supports the
    army in Surinam, a coastal province without a river, to hold and to move there."""
    assert not may_stand(R, "SUR")
    out = adjudicate({"Britain": ["R GUY/RB", "A SUR"]}, {"Britain": ["R GUY S A SUR"]})
    assert out["results"]["R GUY/RB S A SUR"] == []
    out = adjudicate({"Britain": ["R GUY/RB", "A PRA"], "France": ["A SUR"]},
                     {"Britain": ["R GUY S A PRA - SUR", "A PRA - SUR"]})
    assert out["results"]["A PRA - SUR"] == [] and out["dislodged"]


def test_fleets_never_support_into_upland_provinces() -> None:
    """"A Fleet may NEVER support a unit or a move into any Upland Province." Bolivia's
    fleet on Lago Titicaca may not support its army in Puno."""
    units = {"Bolivia": ["F LTI", "A PUN", "A LPZ"]}
    out = adjudicate(units, {"Bolivia": ["F LTI S A PUN"]})
    assert out["results"]["F LTI S A PUN"] == ["void"]
    out = adjudicate(units, {"Bolivia": ["F LTI S A LPZ - PUN", "A LPZ - PUN"]})
    assert out["results"]["F LTI S A LPZ - PUN"] == ["void"]
    assert "F LTI H" in legal_of(units, "Bolivia")["F LTI"]
    assert not [o for o in legal_of(units, "Bolivia")["F LTI"] if " S " in o]


def test_swamps_do_not_limit_flotillas() -> None:
    """"Note that: 1) no restrictions apply to River Flotillas" (5.E): a flotilla in a swamp
    supports, and is supported to hold."""
    out = adjudicate({"Bolivia": ["R FOR", "R BOQ"]},
                     {"Bolivia": ["R FOR S R BOQ", "R BOQ S R FOR"]})
    assert out["results"] == {"R FOR S R BOQ": [], "R BOQ S R FOR": []}


def test_the_peru_manaus_example_with_its_flotilla() -> None:
    """"Example: First Movement Phase (A Phase): Peru: A Cuiaba to Para; R Rondonia to
    Amazonas. Second Movement Phase (C Phase): Peru: A Para to Manaus, supported by R
    Amazonas. The support order is valid, but not the movement order; hence Para does not
    move. If Peru wants to take Manaus, it can order R Amazonas to Manaus, but A Para cannot
    support the move (Rule 5.D.1).\""""
    a = adjudicate({"Peru": ["A CUI", "R RON"]},
                   {"Peru": ["A Cuiaba to Para", "R Rondonia to Amazonas"]})
    assert sorted(a["units"]["Peru"]) == ["A PRA", "R AMZ/NB"]
    c = adjudicate(a["units"], {"Peru": ["A PRA - MAN", "R AMZ S A PRA - MAN"]},
                   phase="C1891M", extra=a["extra"])
    assert c["results"]["A PRA - MAN"] == ["void"]
    c = adjudicate(a["units"], {"Peru": ["R AMZ - MAN", "A PRA S R AMZ - MAN"]},
                   phase="C1891M", extra=a["extra"])
    assert c["results"] == {"R AMZ/NB - MAN": [], "A PRA S R AMZ - MAN": ["void"]}


# ---- builds, random games ------------------------------------------------------------------

def test_peru_builds_a_flotilla_in_loreto_in_1890d() -> None:
    """"Example: 1890D: Chile orders B F Islas San Felix. Peru orders: Build R Loreto, (and
    so on)." A flotilla is built where it may stand: not on Lima, a coastal center without a
    river ("A River Flotilla may be built on any Home or Capital Supply Center which is a
    coastal province, island province, or any province which has a river bank or lake
    shore" is read with 6.B.ii: it stands only where a river runs)."""
    g = Game.new(V)
    sites = g.legal_orders("Peru")
    assert "R LOR B" in sites["LOR"]
    assert not [o for o in sites.get("LIM", []) if o.startswith("R ")]
    assert g.set_orders("Peru", ["Build R Loreto"]) == []
    g.process()
    assert Unit(g.power("Peru"), R, M.loc_of("LOR")) in g.position.units


@pytest.mark.parametrize("seed", [2, 9])
def test_random_games_with_flotillas_play_to_1917d(seed: int) -> None:
    """Random games build flotillas, sail them up the rivers and into the sea, send fleets
    up rivers (leaving anchor markers), and play to the end without an error."""
    g = Game.new(V)
    rng = random.Random(seed)
    flotilla_moves = anchored = 0
    while not g.is_over:
        for p, lst in random_orders(g.map, g.position, rng).items():
            flotilla_moves += sum(o.startswith("R ") and " - " in o for o in lst)
            assert g.set_orders(p, lst) == [], (g.phase, lst)
        g.process()
        anchored += "anchors" in g.position.extra
    assert g.position.phase.year == 1918
    assert flotilla_moves > 20 and anchored > 0


def test_a_position_with_a_flotilla_is_saved_and_read_back(tmp_path) -> None:
    g = Game.new(V)
    g.position.phase = Phase(1891, "A", "M")
    g.position.units = [Unit(g.power("Brazil"), R, M.loc_of("CUI/EB"))]
    g.save(tmp_path / "g.json")
    back = Game.load(tmp_path / "g.json")
    assert back.position.units == g.position.units


# ---- 6.C-D fleets and flotillas, anchor markers -----------------------------------------------

def test_a_fleet_going_up_a_river_becomes_a_flotilla_and_leaves_its_ships() -> None:
    """"once ordered to proceed to an inland province by way of a river, a Fleet
    AUTOMATICALLY becomes a River Flotilla. The GM will leave an Anchor Marker where the
    Fleet left behind its large ships (in the Coastal Province). Example: F Amapa to Para
    [becomes R, Anchor Marker left in Amapa].\""""
    out = adjudicate({"Brazil": ["F AMP"]}, {"Brazil": ["F Amapa to Para"]})
    assert out["results"] == {"F AMP - PRA": []}
    assert out["units"] == {"Brazil": ["R PRA"]}
    assert out["extra"] == {"anchors": {"AMP": 1}}


def test_a_fleet_that_fails_to_go_up_the_river_stays_a_fleet() -> None:
    """Bounced on its way up (the move is a flotilla's, strength 1), the fleet stays where
    it was, a fleet, and leaves no marker."""
    out = adjudicate({"Brazil": ["F AMP"], "France": ["R MRJ"]},
                     {"Brazil": ["F AMP - PRA"], "France": ["R MRJ - PRA"]})
    assert out["results"]["F AMP - PRA"] == ["bounce"]
    assert out["units"]["Brazil"] == ["F AMP"] and "extra" not in out


def test_a_fleet_converts_in_place_at_the_cost_of_a_turn_and_back() -> None:
    """Issue 28.3, 6.C note 1: "a Fleet may be ordered to convert into a River Flotilla at any
    time, but this costs one turn". It holds, becomes a flotilla and leaves its ships as an
    anchor marker where it stands; a flotilla on that marker takes the ships back ("A River
    Flotilla which moves into a Coastal Province where an Anchor Marker has been left may
    convert into a Fleet by capturing the ships"), again for a turn."""
    out = adjudicate({"Britain": ["F GUY/SC"]}, {"Britain": ["F Guyana convert"]})
    assert out["results"] == {"F GUY/SC CONVERT": []}
    assert out["units"] == {"Britain": ["R GUY/SC"]}
    assert out["extra"] == {"anchors": {"GUY/SC": 1}}
    assert [e["code"] for e in out["events"]] == ["anchor_made"]
    back = adjudicate({"Britain": ["R GUY/SC"]}, {"Britain": ["R GUY CONVERT"]},
                      extra=out["extra"])
    assert back["units"] == {"Britain": ["F GUY/SC"]} and "extra" not in back
    # dislodged while converting: no conversion, no marker
    hit = adjudicate({"Britain": ["F GUY/SC"], "France": ["A SUR", "A MON"]},
                     {"Britain": ["F GUY CONVERT"],
                      "France": ["A SUR - GUY", "A MON S A SUR - GUY"]})
    assert hit["dislodged"]["Britain"][0]["unit"] == "F GUY/SC" and "extra" not in hit


def test_a_conversion_in_place_is_refused_where_it_cannot_be() -> None:
    """A flotilla cannot stand on Jamaica (a coastal province without a river: "MAY NOT
    OCCUPY ANY COASTAL PROVINCE ... WHICH DOES NOT HAVE A RIVER"), and a flotilla with no
    ships where it stands cannot become a fleet: both refused when given, with why."""
    for units, order in (({"Britain": ["F JAM"]}, "F JAM CONVERT"),
                         ({"Britain": ["R GUY/SC"]}, "R GUY CONVERT")):
        out = adjudicate_request({"variant": "lad1890", "phase": "A1891M", "units": units,
                                  "orders": {"Britain": [order]}})
        assert len(out["errors"]) == 1 and order in out["errors"][0]
        assert out["units"] == units


def test_conversions_in_place_are_listed_and_reported_by_a_game() -> None:
    g = Game.new("lad1890")
    g.process()  # the 1890D builds waived
    britain = g.power("Britain")
    assert "F TRI CONVERT" in g.legal_orders(britain)["F TRI"]
    assert "F JAM CONVERT" not in g.legal_orders(britain)["F JAM"]
    assert g.set_orders(britain, ["F Trinidad convert"]) == []
    g.process()
    rec = g.history[-1]
    text = format_report(build_report(g, rec), "text")
    assert "TRI" in text and "anchor marker is left" in text
    assert any(u.power == britain and g.map.kinds[u.kind] == "R" for u in g.position.units)
    assert "R TRI CONVERT" in g.legal_orders(britain)["R TRI"]
    assert 'data-unit="R TRI' in picture_svg(g) or "R TRI" in picture_svg(g)


def test_a_flotilla_entering_from_the_markers_coast_converts_at_once() -> None:
    """"If the River Flotilla enters the Coastal Province from the same coast as the one
    where the Anchor Marker was left, then it may move into the Coastal Province and convert
    into a Fleet on the same Movement Phase. For example: (Anchor Marker left at Guyana
    [sec]): R Trinidad & Tobago to Guyana[sec], convert to Fleet.\""""
    out = adjudicate({"Britain": ["R TRI"]},
                     {"Britain": ["R Trinidad & Tobago to Guyana[sec], convert to Fleet"]},
                     extra={"anchors": {"GUY/SC": 1}})
    assert out["units"] == {"Britain": ["F GUY/SC"]} and "extra" not in out


def test_a_flotilla_on_the_other_bank_first_crosses_then_converts() -> None:
    """"But the River Flotilla must first change banks/coasts if the Anchor Marker is not
    on the same bank/coast/shore as that from which it enters. Example: Fall: R Rio Branco
    to Guyana [rib]; Spring: R Guyana [rib] to Guyana [sec], convert to Fleet." The command
    given must make it clear: without "convert" the flotilla stays one."""
    extra = {"anchors": {"GUY/SC": 1}}
    fall = adjudicate({"Britain": ["R RBR"]},
                      {"Britain": ["R Rio Branco to Guyana [rib], convert to fleet"]},
                      extra=extra)
    assert fall["units"] == {"Britain": ["R GUY/RB"]} and fall["extra"] == extra
    spring = adjudicate(fall["units"],
                        {"Britain": ["R Guyana [rib] to Guyana [sec], convert to Fleet"]},
                        phase="A1892M", extra=fall["extra"])
    assert spring["units"] == {"Britain": ["F GUY/SC"]} and "extra" not in spring
    plain = adjudicate(fall["units"], {"Britain": ["R Guyana [rib] to Guyana [sec]"]},
                       phase="A1892M", extra=fall["extra"])
    assert plain["units"] == {"Britain": ["R GUY/SC"]} and plain["extra"] == extra


def test_markers_belong_to_no_power() -> None:
    """"Anchor Markers are never identified with a particular power, and thus the anchor
    marker (the ships) captured by a River Flotilla need not be ones left by that same
    power": Brazil's ships in Amapá make a French flotilla a fleet."""
    left = adjudicate({"Brazil": ["F AMP"]}, {"Brazil": ["F AMP - PRA"]})
    out = adjudicate({"France": ["R MRJ"]}, {"France": ["R MRJ - AMP convert to fleet"]},
                     phase="C1891M", extra=left["extra"])
    assert out["units"] == {"France": ["F AMP"]} and "extra" not in out


def test_a_fleet_captures_carries_releases_and_sinks_a_marker() -> None:
    """"To capture an Anchor Marker, a Fleet moving into a Coastal Province where an Anchor
    Marker is located must order capture ships ... This can be ordered on the same turn.
    Then the Fleet may take the additional ships with it wherever it goes ... until the Fleet
    is in a Coastal Province and orders Release Anchor Marker, leaving the anchor marker in
    that province." "TO DESTROY AN ANCHOR MARKER a fleet which has captured, or is in the
    same Coastal Province as the Anchor Marker may be ordered to: Sink Additional Ships\""""
    a = adjudicate({"Spain": ["F GBS"]}, {"Spain": ["F GBS - GUY capture ships"]},
                   extra={"anchors": {"GUY/SC": 1}})
    assert a["extra"] == {"ships": {"F GUY/SC": 1}}
    c = adjudicate(a["units"], {"Spain": ["F GUY - TRI"]}, phase="C1891M", extra=a["extra"])
    assert c["units"] == {"Spain": ["F TRI"]} and c["extra"] == {"ships": {"F TRI": 1}}
    at_sea = adjudicate({"Spain": ["F GBS"]}, {"Spain": ["F GBS release anchor marker"]},
                        extra={"ships": {"F GBS": 1}})  # not in a coastal province
    assert at_sea["extra"] == {"ships": {"F GBS": 1}}
    r = adjudicate({"Spain": ["F SUR"]}, {"Spain": ["F Surinam Release Anchor Marker"]},
                   extra={"ships": {"F SUR": 1}})
    assert r["extra"] == {"anchors": {"SUR": 1}}
    s = adjudicate({"Spain": ["F SUR"]}, {"Spain": ["F SUR sink additional ships"]},
                   extra=r["extra"])
    assert "extra" not in s
    s = adjudicate({"Spain": ["F SUR"]}, {"Spain": ["F SUR disband anchor marker"]},
                   extra={"ships": {"F SUR": 1}})
    assert "extra" not in s


def test_one_marker_at_a_time_and_only_fleets_sink_them() -> None:
    """"A fleet may not capture more than one anchor marker at a time." "Armies and River
    Flotillas may not destroy anchor markers." Sinking "costs one turn, i.e. it cannot be
    given on a turn when the Fleet is moving\""""
    out = adjudicate({"Spain": ["F GBS"]}, {"Spain": ["F GBS - GUY capture"]},
                     extra={"anchors": {"GUY/SC": 1}, "ships": {"F GBS": 1}})
    assert out["extra"] == {"anchors": {"GUY/SC": 1}, "ships": {"F GUY/SC": 1}}
    for unit, order in (("A GUY", "A GUY sink additional ships"),
                        ("R GUY/RB", "R GUY sink additional ships"),
                        ("F GUY/SC", "F GUY - GBS sink additional ships")):
        power = "Britain"
        out = adjudicate_request({"variant": "lad1890", "phase": "A1891M",
                                  "units": {power: [unit]}, "orders": {power: [order]},
                                  "extra": {"anchors": {"GUY/SC": 1}}})
        [error] = out["errors"]
        assert "sink" in error and out["extra"] == {"anchors": {"GUY/SC": 1}}


def test_a_carried_marker_goes_with_its_fleet_into_a_retreat() -> None:
    """The ships travel with the fleet "wherever it goes": dislodged, it keeps them."""
    out = adjudicate({"Spain": ["F GUY/SC"], "Britain": ["F GBS", "F TRI"]},
                     {"Britain": ["F GBS - GUY", "F TRI S F GBS - GUY"]},
                     extra={"ships": {"F GUY/SC": 1}})
    [d] = out["dislodged"]["Spain"]
    assert out["extra"] == {"ships": {"F GUY/SC": 1}}
    back = adjudicate_request({"variant": "lad1890", "phase": "B1891R", "units": out["units"],
                               "dislodged": {"Spain": [{"unit": "F GUY/SC", "from": "GBS"}]},
                               "orders": {"Spain": [f"F GUY/SC R {d['retreats'][0]}"]},
                               "extra": out["extra"]})
    assert back["extra"] == {"ships": {f"F {d['retreats'][0]}": 1}}


def test_legal_orders_list_the_anchor_orders() -> None:
    """Up-river moves, capture, release, sink and convert are among a unit's legal orders
    where they apply."""
    g = Game.new(V)
    g.position.phase = Phase(1891, "A", "M")
    g.position.units = [Unit(g.power("Brazil"), F, M.loc_of("AMP")),
                        Unit(g.power("Spain"), F, M.loc_of("GBS")),
                        Unit(g.power("France"), R, M.loc_of("MRJ"))]
    g.position.extra = {"anchors": {"GUY/SC": 1, "AMP": 1}}
    brazil = g.legal_orders("Brazil")["F AMP"]
    assert "F AMP - PRA" in brazil and "F AMP SINK" in brazil and "F AMP CAPTURE" in brazil
    assert "F GBS - GUY/SC CAPTURE" in g.legal_orders("Spain")["F GBS"]
    assert "R MRJ - AMP CONVERT" in g.legal_orders("France")["R MRJ"]


def test_the_report_and_the_map_show_the_markers() -> None:
    g = Game.new(V)
    g.position.phase = Phase(1891, "A", "M")
    g.position.units = [Unit(g.power("Brazil"), F, M.loc_of("AMP"))]
    assert g.set_orders("Brazil", ["F Amapa to Para"]) == []
    g.process()
    text = format_report(build_report(g, g.history[-1]))
    assert "Anchor markers: AMP" in text
    assert 'data-marker="AMP"' in picture_svg(g)
