"""Latin American Diplomacy 1890, part 2: oceans and attack (AT) orders on the real map.

Every example of the seed's rule 5.F.i (seed 001, "Latin American Diplomacy" by Michael
Zmolek), each quoting the sentence it checks, then the order's notations, its place in the
legal orders, the one-shot contract and the report, and random games with fleets attacking
in oceans. The rule module is rules/oceans.py; the decisions are adjudication/attacks.py's
(AttackMovement).
"""

from __future__ import annotations

import random
import re

import pytest
from scenario import Scenario

from polydip.compile import compile_map
from polydip.errors import OrderError
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.orders.describe import describe
from polydip.orders.parser import parse_order
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

V = load_variant("lad1890")
M = compile_map(V)


adjudicate = Scenario("lad1890", "A1891M", "Brazil").adjudicate


# ---- the seed's examples --------------------------------------------------------------------

def test_example_1_fleets_without_at_sail_happily_together() -> None:
    """"1) Brazil: F Equatorial Atlantic Ocean Holds; France: F Middle Atlantic Ocean to
    Equatorial Atlantic Ocean. Result: both fleets sail happily in the same province.\""""
    out = adjudicate({"Brazil": ["F EAO"], "France": ["F MAO"]},
                     {"Brazil": ["F Equatorial Atlantic Ocean Holds"],
                      "France": ["F Middle Atlantic Ocean to Equatorial Atlantic Ocean"]})
    assert out["results"] == {"F EAO H": [], "F MAO - EAO": []}
    assert out["units"] == {"Brazil": ["F EAO"], "France": ["F EAO"]}


def test_example_2_an_even_attack_bounces_and_cuts_the_support() -> None:
    """"2) Brazil: F Equatorial Atlantic Ocean S F Middle Atlantic Ocean to Cape Verde
    Islands; France: F Middle Atlantic Ocean to Equatorial Atlantic Ocean A Brazil. Result:
    *CEF* (1 v 1), France cuts Brazils support for F Middle Atlantic Ocean to Cape Verde."
    The fleet the support names is the one that attacks, so under the standard rules the
    support would be void (it names a move nobody makes); a second French fleet in the
    Middle Atlantic (an ocean holds any number) makes that move, and the support is cut.
    The seed's "A Brazil" is read as "AT Brazil"."""
    out = adjudicate({"Brazil": ["F EAO"], "France": ["F MAO", "F MAO"]},
                     {"Brazil": ["F EAO S F MAO - CVI"],
                      "France": ["F Middle Atlantic Ocean to Equatorial Atlantic Ocean A Brazil",
                                 "F MAO - CVI"]})
    assert out["results"]["F MAO - EAO AT BRAZIL"] == ["bounce"]  # 1 v 1
    assert out["results"]["F EAO S F MAO - CVI"] == ["cut"]
    assert out["results"]["F MAO - CVI"] == []
    assert out["units"] == {"Brazil": ["F EAO"], "France": ["F MAO", "F CVI"]}
    assert out["dislodged"] == {}


def test_example_2_as_written_the_attack_bounces() -> None:
    """Example 2 with the seed's units only: the French fleet's attack (1 v 1) bounces and
    both fleets stay where they are."""
    out = adjudicate({"Brazil": ["F EAO"], "France": ["F MAO"]},
                     {"Brazil": ["F EAO S F MAO - CVI"],
                      "France": ["F MAO - EAO AT Brazil"]})
    assert out["results"]["F MAO - EAO AT BRAZIL"] == ["bounce"]
    assert out["units"] == {"Brazil": ["F EAO"], "France": ["F MAO"]}


def test_example_3_a_supported_attack_dislodges_and_the_fleet_retreats() -> None:
    """"3) ... France: F Middle Atlantic Ocean to Equatorial Atlantic Ocean AT Brazil,
    supported by F Guiana Basin. Result: *CSF* (2 v 1), Brazils support for F Middle
    Atlantic Ocean to Cape Verde is not possible as F Equatorial Atlantic Ocean must retreat
    (with many options).\""""
    out = adjudicate({"Brazil": ["F EAO"], "France": ["F MAO", "F MAO", "F GBS"]},
                     {"Brazil": ["F EAO S F MAO - CVI"],
                      "France": ["F MAO - EAO AT Brazil", "F MAO - CVI",
                                 "F Guiana Basin S F MAO - EAO"]})
    assert out["results"]["F MAO - EAO AT BRAZIL"] == []
    assert out["results"]["F EAO S F MAO - CVI"] == ["dislodged"]
    [d] = out["dislodged"]["Brazil"]
    assert d["unit"] == "F EAO" and d["from"] == "MAO"
    # "with many options": every water and island next to it but the Middle Atlantic (where
    # the attack came from) and Cape Verde (the other French fleet entered it)
    assert set(d["retreats"]) == {"GGU", "AFN", "FNO", "BRB"}
    assert sorted(out["units"]["France"]) == ["F CVI", "F EAO", "F GBS"]


def test_bermuda_an_attack_three_stronger_disbands_the_fleet() -> None:
    """"So how do you force the disband of an opposing F in an Ocean? ... Your attack must
    have an attack strength 3 greater than the opposing powers fleet. Example: Britain: F
    Bermuda Triangle to Sargasso Sea East AT Spain, supported by F Bermuda Islands, F Bermuda
    Triangle AS WELL AS F Sargasso Sea East (!). Spain: F Sargasso Sea East Holds. Result:
    Spanish F is not allowed to retreat, and is disbanded." (4 v 1: two British fleets in
    the Bermuda Triangle, one of them supporting the other; a British fleet in the Sargasso
    Sea East supports the attack into its own ocean.)"""
    out = adjudicate(
        {"Britain": ["F BMT", "F BMT", "F BER", "F SSE"], "Spain": ["F SSE"]},
        {"Britain": ["F Bermuda Triangle to Sargasso Sea East AT Spain",
                     "F Bermuda Triangle S F Bermuda Triangle to Sargasso Sea East",
                     "F Bermuda Islands S F BMT - SSE", "F SSE S F BMT - SSE AT Spain"],
         "Spain": ["F Sargasso Sea East Holds"]})
    assert out["results"]["F BMT - SSE AT SPAIN"] == []
    assert out["results"]["F SSE H"] == ["dislodged"]
    assert out["dislodged"] == {}
    assert out["destroyed"] == {"Spain": [{"unit": "F SSE", "from": "BMT"}]}
    assert sorted(out["units"]["Britain"]) == ["F BER", "F BMT", "F SSE", "F SSE"]


def test_an_attack_two_stronger_still_lets_the_fleet_retreat() -> None:
    """The other side of "3 greater": at 3 v 1 the beaten ocean fleet retreats."""
    out = adjudicate(
        {"Britain": ["F BMT", "F BMT", "F BER"], "Spain": ["F SSE"]},
        {"Britain": ["F BMT - SSE AT Spain", "F BMT S F BMT - SSE", "F BER S F BMT - SSE"],
         "Spain": ["F SSE H"]})
    [d] = out["dislodged"]["Spain"]
    assert d["unit"] == "F SSE" and set(d["retreats"]) == {"BER", "CCU", "MAO"} - {"BER"}


def test_in_a_sea_even_a_four_to_one_defeat_leaves_a_retreat() -> None:
    """"NOTE that this rule does not apply to fleets in Sea Provinces; if a F in a Sea
    Province is on the losing side of a (4 vs. 1) or even a (5 v 1) *CSF*, etc. so long as it
    has somewhere to retreat, it may do so." (Guiana Basin is a sea.)"""
    out = adjudicate(
        {"France": ["F MAO", "F EAO", "F BAR", "F AFN"], "Spain": ["F GBS"]},
        {"France": ["F MAO - GBS", "F EAO S F MAO - GBS", "F BAR S F MAO - GBS",
                    "F AFN S F MAO - GBS"],
         "Spain": ["F GBS H"]})
    [d] = out["dislodged"]["Spain"]
    assert d["unit"] == "F GBS" and d["retreats"]
    assert out["destroyed"] == {}


def test_peru_basin_an_attack_without_moving_disbands_the_fleet() -> None:
    """"NOTE also that the attacking F does not have to be moving into the space to make
    the attack. Example: Chile: F Peru Basin AT Peru, Supported by: F Peru Basin, F Peru
    Basin, and F Peru Basin. Peru: F Peru Basin AT Chile. Result: Peruvian F Peru Basin must
    disband." Peru's attack on Chile does not cut the supports of the attack on Peru (a
    support is not cut by the unit it helps attack)."""
    out = adjudicate(
        {"Chile": ["F PBS"] * 4, "Peru": ["F PBS"]},
        {"Chile": ["F Peru Basin AT Peru"] + ["F Peru Basin S F Peru Basin AT Peru"] * 3,
         "Peru": ["F Peru Basin AT Chile"]})
    assert out["results"]["F PBS S F PBS AT PERU"] == []
    assert out["results"]["F PBS AT CHILE"] == ["dislodged"]
    assert out["destroyed"] == {"Peru": [{"unit": "F PBS", "from": "PBS"}]}
    assert out["units"] == {"Chile": ["F PBS"] * 4}


def test_an_unsupported_attack_without_moving_dislodges_nobody() -> None:
    """The Peru Basin example without its supports: 1 v 1, nothing happens."""
    out = adjudicate({"Chile": ["F PBS"], "Peru": ["F PBS"]},
                     {"Chile": ["F PBS AT Peru"], "Peru": ["F PBS AT Chile"]})
    assert out["dislodged"] == {} and out["destroyed"] == {}
    assert out["units"] == {"Chile": ["F PBS"], "Peru": ["F PBS"]}


@pytest.mark.parametrize(("mexico", "mexico_moves"), [
    ("F MAT - EPR AT Peru", False), ("F MAT - EPR", True)])
def test_galapagos_bounces_only_where_an_attack_is_ordered(mexico: str,
                                                          mexico_moves: bool) -> None:
    """"Finally here, bounces occur in Ocean Provinces the same as in other provinces, but
    only when an attack is ordered by one side or the other. Example: Colombia orders: F
    Galapagos Island to East Pacific Rise At Peru; Mexico Orders F Middle America Trench to
    East Pacific Rise AT Peru; Peru orders: F Peru Trench to East Pacific Rise. Result: all
    three fleets bounce. Note that if Mexico, for example, had not added AT Peru to the
    order, then the Mexican F would move to the East Pacific Rise.\""""
    out = adjudicate({"Colombia": ["F GAL"], "Mexico": ["F MAT"], "Peru": ["F PTR"]},
                     {"Colombia": ["F Galapagos Islands to East Pacific Rise At Peru"],
                      "Mexico": [mexico], "Peru": ["F Peru Trench to East Pacific Rise"]})
    assert out["results"]["F GAL - EPR AT PERU"] == ["bounce"]
    assert out["results"]["F PTR - EPR"] == ["bounce"]
    assert out["units"]["Mexico"] == (["F EPR"] if mexico_moves else ["F MAT"])
    assert out["units"]["Colombia"] == ["F GAL"] and out["units"]["Peru"] == ["F PTR"]


# ---- the rule's edges -----------------------------------------------------------------------

def test_an_attack_on_a_power_leaves_the_others_alone() -> None:
    """Only the power attacked meets the attack: a third power's fleet in the ocean is not
    touched, and a fleet of the attacker's own power is no target."""
    out = adjudicate({"France": ["F MAO", "F GBS"], "Brazil": ["F EAO"], "Spain": ["F EAO"]},
                     {"France": ["F MAO - EAO AT Brazil", "F GBS S F MAO - EAO"],
                      "Brazil": ["F EAO H"], "Spain": ["F EAO H"]})
    assert out["units"]["Spain"] == ["F EAO"] and "Brazil" not in out["units"]
    assert [d["unit"] for d in out["dislodged"]["Brazil"]] == ["F EAO"]


def test_a_fleet_that_leaves_the_ocean_escapes_the_attack() -> None:
    """An attack finds only the fleets that stay: one that sails out is not dislodged."""
    out = adjudicate({"France": ["F MAO", "F GBS"], "Brazil": ["F EAO"]},
                     {"France": ["F MAO - EAO AT Brazil", "F GBS S F MAO - EAO"],
                      "Brazil": ["F EAO - FNO"]})
    assert out["units"] == {"Brazil": ["F FNO"], "France": ["F EAO", "F GBS"]}
    assert out["dislodged"] == {}


def test_several_beaten_fleets_may_retreat_into_one_ocean() -> None:
    """Any number of fleets may enter an ocean, by retreat too: two fleets retreating into
    the same ocean both get there."""
    out = adjudicate_request({
        "variant": "lad1890", "phase": "B1891R", "units": {},
        "dislodged": {"Spain": [{"unit": "F GBS", "from": "FGU"}],
                      "Brazil": [{"unit": "F AFN", "from": "FGU"}]},
        "orders": {"Spain": ["F GBS R EAO"], "Brazil": ["F AFN R EAO"]}})
    assert out["units"] == {"Brazil": ["F EAO"], "Spain": ["F EAO"]}, out


@pytest.mark.parametrize("order", ["F MAO - GBS AT Brazil", "F GBS AT Brazil",
                                   "F MAO - EAO AT France"])
def test_an_attack_outside_an_ocean_or_on_its_own_power_is_void(order: str) -> None:
    """AT exists only in ocean provinces ("Special Rules must therefore govern the Ocean
    Provinces"; Guiana Basin is a sea), and a power does not attack itself: such an order
    is void (the unit holds)."""
    units = {"France": ["F GBS", "F MAO"], "Brazil": ["F EAO", "F BAR"]}
    out = adjudicate(units, {"France": [order]})
    [words] = [w for t, w in out["results"].items() if "AT" in t]
    assert words == ["void"]
    assert sorted(out["units"]["France"]) == ["F GBS", "F MAO"]


def test_attack_orders_are_refused_on_a_map_without_oceans() -> None:
    """A map without oceans has no attack orders: one is refused with the reason, never
    taken for a plain move."""
    out = adjudicate_request({"variant": "standard", "phase": "S1901M",
                              "units": {"France": ["F BRE"]},
                              "orders": {"France": ["F BRE - MAO AT England"]}})
    [error] = out["errors"]
    assert "F BRE - MAO AT England" in error and "attacks (AT)" in error
    assert out["units"] == {"France": ["F BRE"]}


# ---- notation, legal orders, contract --------------------------------------------------------

@pytest.mark.parametrize(("typed", "written"), [
    ("F MAO - EAO AT BRAZIL", "F MAO - EAO AT BRAZIL"),
    ("F Middle Atlantic Ocean -> Equatorial Atlantic Ocean at Brazil", "F MAO - EAO AT BRAZIL"),
    ("Fleet Middle Atlantic Ocean moves to Equatorial Atlantic Ocean attacks Brazil",
     "F MAO - EAO AT BRAZIL"),
    ("F mao-eao AT brazilian", "F MAO - EAO AT BRAZIL"),
    ("F MAO to EAO A Brazil", "F MAO - EAO AT BRAZIL"),
    ("F Peru Basin AT Peru", "F PBS AT PERU"),
    ("F PBS attacks United States", "F PBS AT UNITED STATES"),
    ("F PBS S F PBS AT Peru", "F PBS S F PBS AT PERU"),
    ("F BER S F BMT - SSE AT Spain", "F BER S F BMT - SSE AT SPAIN"),
    ("F BER supports F Bermuda Triangle to Sargasso Sea East", "F BER S F BMT - SSE"),
])
def test_attack_orders_read_in_every_notation_and_are_written_back(typed: str,
                                                                   written: str) -> None:
    o = parse_order(M, typed, "M")
    assert o.format(M) == written
    again = parse_order(M, o.format(M), "M")
    assert (again.type, again.loc, again.target, again.at) == (o.type, o.loc, o.target, o.at)


def test_an_at_without_a_power_is_a_clear_error() -> None:
    with pytest.raises(OrderError, match="not a power"):
        parse_order(M, "F MAO - EAO AT Atlantis", "M")
    with pytest.raises(OrderError, match="names the power"):
        parse_order(M, "F PBS AT", "M")


def test_attacks_are_described_in_words() -> None:
    assert describe(M, parse_order(M, "F MAO - EAO AT Brazil", "M")) == (
        "Fleet Middle Atlantic Ocean (MAO): move to Equatorial Atlantic Ocean (EAO), "
        "attacking Brazil's units")
    assert describe(M, parse_order(M, "F PBS AT Peru", "M")) == (
        "Fleet Peru Basin (PBS): attack Peru's units where it stands")


def test_legal_orders_list_the_attacks_and_supports_into_the_ocean() -> None:
    """The legal orders of a fleet next to or in an ocean include its attacks on each power
    with a unit there or next to it, and (in the ocean) its supports into the ocean."""
    g = Game.new(V)
    pos = g.position
    pos.phase = Phase(1891, "A", "M")
    F = M.kind_index["F"]
    pos.units = [Unit(g.power("Britain"), F, M.loc_of("BMT")),
                 Unit(g.power("Britain"), F, M.loc_of("SSE")),
                 Unit(g.power("Spain"), F, M.loc_of("SSE")),
                 Unit(g.power("France"), F, M.loc_of("CCU"))]
    brit = g.legal_orders("Britain")
    assert "F BMT - SSE AT SPAIN" in brit["F BMT"]
    assert "F BMT - SSE AT FRANCE" in brit["F BMT"]  # France's fleet is next to it
    assert "F SSE AT SPAIN" in brit["F SSE"]
    assert "F SSE S F BMT - SSE" in brit["F SSE"]
    assert "F SSE S F SSE" in brit["F SSE"]  # the Spanish fleet, to hold
    assert not [o for o in brit["F BMT"] if o.endswith("AT BRITAIN")]
    assert "F SSE AT BRITAIN" in g.legal_orders("Spain")["F SSE"]


@pytest.mark.parametrize("seed", [5, 11])
def test_random_games_with_fleets_attacking_in_oceans_play_to_1917d(seed: int) -> None:
    """Random games pick attacks among the legal orders; they play to the end without an
    error, their attacks adjudicated (some bounce)."""
    g = Game.new(V)
    rng = random.Random(seed)
    attacks, results = 0, []
    while not g.is_over:
        for p, lst in random_orders(g.map, g.position, rng).items():
            attacks += sum(" AT " in o for o in lst)
            assert g.set_orders(p, lst) == [], (g.phase, lst)
        out = g.process()
        results += [r.result for r in out.results if " AT " in r.text]
    assert g.position.phase.year == 1918
    assert attacks > 10 and len(results) == attacks
    assert ["bounce"] in results and [] in results


def test_the_map_shows_every_fleet_of_an_ocean_and_the_power_each_attack_names() -> None:
    """Drawn, the fleets sharing an ocean stand side by side (each its own place on the
    map), and an attack carries a tag naming the power it attacks."""
    g = Game.new(V)
    pos = g.position
    pos.phase = Phase(1891, "A", "M")
    F = M.kind_index["F"]
    pos.units = [Unit(g.power(p), F, M.loc_of(x)) for p, x in (
        ("Chile", "PBS"), ("Chile", "PBS"), ("Peru", "PBS"), ("Britain", "BMT"),
        ("Spain", "SSE"))]
    assert g.set_orders("Chile", ["F PBS AT Peru", "F PBS S F PBS AT Peru"]) == []
    assert g.set_orders("Britain", ["F BMT - SSE AT Spain"]) == []
    svg = picture_svg(g)
    spots = re.findall(r'data-unit="F PBS" data-power="\w+" data-at="([\d.,]+)"', svg)
    assert len(spots) == 3 and len(set(spots)) == 3
    assert ">AT Peru</text>" in svg and ">AT Spain</text>" in svg
    assert 'data-order="F PBS AT PERU"' in svg and 'data-order="F BMT - SSE AT SPAIN"' in svg


def test_a_fleet_routed_in_an_ocean_is_gone_from_the_retreat_phase_of_a_game() -> None:
    """Issue 28.1, the GM's path: "Spanish F is not allowed to retreat, and is disbanded."
    With another unit dislodged the game has a retreat phase; the routed fleet was listed
    in it, offered orders and reported NMR. It is destroyed at once, as the one-shot contract
    says, and takes no part in the retreat phase."""
    from polydip.game.positions import build_position
    from polydip.report import build_report, format_report

    g = Game.new("lad1890")
    g.position = build_position(g.map, {"phase": "A1891M", "units": {
        "Britain": ["F BMT", "F BMT", "F BER", "F SSE", "F BBK", "F SAB"],
        "Spain": ["F SSE", "F BHM"]}}, g.options, None)
    g.set_orders("Britain", ["F Bermuda Triangle to Sargasso Sea East AT Spain",
                             "F Bermuda Triangle S F Bermuda Triangle to Sargasso Sea East",
                             "F Bermuda Islands S F BMT - SSE", "F SSE S F BMT - SSE AT Spain",
                             "F BBK - BHM", "F SAB S F BBK - BHM"])
    g.set_orders("Spain", ["F Sargasso Sea East Holds", "F BHM H"])
    g.process()
    assert g.phase == "B1891R"
    assert [M.unit_str(d.kind, d.loc) for d in g.position.dislodged] == ["F BHM"]
    assert list(g.legal_orders("Spain")) == ["F BHM"]
    assert g.set_orders("Spain", ["F SSE R MAO"])  # refused: the fleet is gone
    import json

    report = json.loads(format_report(build_report(g, g.history[-1]), "json"))
    assert {d["unit"]: d["retreats"] for d in report["dislodged"]} == {
        "F BHM": ["BMT", "FLC"], "F SSE": []}  # [] = no retreat: destroyed
    g.set_orders("Spain", ["F BHM R BMT"])
    g.process()
    assert g.history[-1].orders == {g.power("Spain"): ["F BHM R BMT"]}
    assert "No orders from" not in format_report(build_report(g, g.history[-1]), "text")
