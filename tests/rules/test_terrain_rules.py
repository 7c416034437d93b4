"""The terrain and build rule modules on a small map written for them (tests/variants/
terrain.toml), apart from any variant: mountains, weak and supported crossings, rainforests,
swamps, deserts, vacant crossings, territory builds, centers worth more than one. Each test
quotes the rule text the module was written for (seed 001, Latin American Diplomacy); the
same rules on the real map are tests/variants/lad1890/test_rules.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from polydip.adjudication.adjustments import adjustment_counts
from polydip.compile import compile_map
from polydip.errors import VariantError
from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.rules.base import Rule
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant, parse_variant

TERRAIN = (Path(__file__).parents[1] / "variants" / "terrain.toml").read_text()

MOUNTAINS = '[rules.mountains]\nprovinces = "mountain"\nborders = "mountain"\n'
WEAK = '[rules.weak_crossings]\nborders = "pass"\n'
RIDGE = '[rules.supported_crossings]\nborders = "ridge"\nseasons = ["S"]\nkinds = ["A"]\n'
FOREST = ('[rules.rainforests]\nborders = "rainforest"\nno_support_across = ["A"]\n'
          'provinces = "rainforest"\nway_back_only = ["A"]\n')
SWAMPS = '[rules.swamps]\nprovinces = "swamp"\nkinds = ["A"]\n'
DESERTS = '[rules.deserts]\nprovinces = "desert"\n'
FORD = ('[[rules.vacant_crossings.crossing]]\nedges = ["I1-I2"]\nwhile_vacant = "ISEA"\n'
        'support_kinds = ["F"]\n')
BUILDS = ('[rules.territory_builds]\nfirst_phase = true\nyears_ending = [0, 5]\n'
          'per_phase = 1\n')


def write(tmp_path, *rules: str, name: str = "terrain") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(TERRAIN + "\n" + "\n".join(rules))
    return str(path)


def adjudicate(variant: str, **req):
    out = adjudicate_request({"variant": variant, "phase": "S1905M", **req})
    assert "error" not in out, out
    return out


def game(*rules: str) -> Game:
    return Game.new(parse_variant(TERRAIN + "\n" + "\n".join(rules), "terrain.toml"))


# ---- mountains -----------------------------------------------------------------------------

def test_a_unit_in_a_mountain_province_gives_no_support(tmp_path) -> None:
    """"NO UNIT LOCATED IN ONE OF THESE PROVINCES MAY OFFER SUPPORT to any other unit." (It
    may still be supported itself, and move.)"""
    units = {"Red": ["A A0", "A A1", "A B0"]}
    orders = {"Red": ["A A0 S A A1", "A B0 S A A0"]}
    plain = adjudicate(write(tmp_path, name="plain"), units=units, orders=orders)
    assert plain["results"]["A A0 S A A1"] == []
    out = adjudicate(write(tmp_path, MOUNTAINS), units=units, orders=orders)
    assert out["results"]["A A0 S A A1"] == ["void"]
    assert out["results"]["A B0 S A A0"] == []
    g = game(MOUNTAINS)
    m = g.map
    g.position.phase = Phase(1905, "S", "M")
    g.position.units = [Unit(0, m.kind_index["A"], m.prov_index[p]) for p in ("A0", "A1")]
    assert g.legal_orders("Red") == {"A A0": ["A A0 H", "A A0 - A1", "A A0 - B0"],
                                     "A A1": ["A A1 H", "A A1 - A0", "A A1 - A2", "A A1 - B1",
                                              "A A1 S A A0"]}


def test_no_unit_retreats_across_a_mountain_border(tmp_path) -> None:
    """"NO UNIT MAY RETREAT ACROSS A MOUNTAINOUS BORDER ON ANY RETREAT PHASE": Highland's
    only empty neighbour lies over the mountains, so its army is destroyed."""
    req = {"units": {"Red": ["A A2"], "Blue": ["A A3", "A A1"]},
           "orders": {"Blue": ["A A3 - A2", "A A1 S A A3 - A2"]}}
    plain = adjudicate(write(tmp_path, name="plain"), **req)
    assert plain["dislodged"]["Red"] == [{"unit": "A A2", "from": "A3", "retreats": ["B2"]}]
    out = adjudicate(write(tmp_path, MOUNTAINS), **req)
    assert out["dislodged"] == {}
    assert out["destroyed"]["Red"] == [{"unit": "A A2", "from": "A3"}]


def test_some_kinds_may_not_support_across_a_mountain_border(tmp_path) -> None:
    """"no River Flotilla may order support across a mountainous border" (here for armies:
    the kinds are a parameter); supports along other borders are untouched."""
    req = {"units": {"Red": ["A A2", "A B1"]},
           "orders": {"Red": ["A B1 - B2", "A A2 S A B1 - B2"]}}
    assert adjudicate(write(tmp_path, MOUNTAINS, name="m"), **req)["results"][
        "A A2 S A B1 - B2"] == []
    rule = MOUNTAINS + 'no_support_across = ["A"]\n'
    out = adjudicate(write(tmp_path, rule), **req)
    assert out["results"]["A A2 S A B1 - B2"] == ["void"]
    assert out["results"]["A B1 - B2"] == []


# ---- weak crossings ------------------------------------------------------------------------

def test_a_weak_crossing_counts_only_its_supports(tmp_path) -> None:
    """"THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the supporting
    units count towards an attack." The seed's example: "Bolivian A Ayacucho to Lima;
    Supported by A Huanuco and A San Martin. Peruvian A Lima Holds; Supported by A Ancash.
    The attack fails ... (2 v 2). However, if Peru has no A Ancash (or other support), the
    attack succeeds." Here Capital crosses the pass into Valley."""
    v = write(tmp_path, WEAK)
    one = {"Red": ["A A1 - B1", "A B0 S A A1 - B1"]}
    two = {"Red": [*one["Red"], "A C1 S A A1 - B1"]}
    red = ["A A1", "A B0", "A C1"]
    out = adjudicate(v, units={"Red": red, "Blue": ["A B1"]}, orders=one)
    assert out["results"]["A A1 - B1"] == ["bounce"]  # 1 v 1
    out = adjudicate(v, units={"Red": red, "Blue": ["A B1", "A B2"]},
                     orders={**two, "Blue": ["A B2 S A B1"]})
    assert out["results"]["A A1 - B1"] == ["bounce"]  # 2 v 2
    out = adjudicate(v, units={"Red": red, "Blue": ["A B1"]}, orders=two)
    assert out["results"]["A A1 - B1"] == [] and "Blue" in out["dislodged"]  # 2 v 1
    # without the rule one support is enough
    plain = adjudicate(write(tmp_path, name="plain"), units={"Red": red, "Blue": ["A B1"]},
                       orders=one)
    assert plain["results"]["A A1 - B1"] == []


def test_a_weak_crossing_still_enters_an_empty_or_emptied_province(tmp_path) -> None:
    """Strength 0 matters in a conflict only: nobody holding or entering Valley, the
    unsupported crossing succeeds (the Chilean Andes rule, which forbids it only in the A
    phase, says so)."""
    v = write(tmp_path, WEAK)
    assert adjudicate(v, units={"Red": ["A A1"]}, orders={"Red": ["A A1 - B1"]})[
        "results"]["A A1 - B1"] == []
    out = adjudicate(v, units={"Red": ["A A1"], "Blue": ["A B1"]},
                     orders={"Red": ["A A1 - B1"], "Blue": ["A B1 - B0"]})
    assert out["results"] == {"A A1 - B1": [], "A B1 - B0": []}


@pytest.mark.parametrize(("option", "blue"), [("move", []), ("attack", ["bounce"])])
def test_the_weak_crossings_prevent_strength_follows_the_option(tmp_path, option, blue
                                                                ) -> None:
    """Option crossing_strength: "move" (default) weakens the whole move, so an unsupported
    crossing keeps nobody out of the province it aims at; "attack" reads the seed's words
    literally (only the attack strength), and the two moves bounce."""
    out = adjudicate(write(tmp_path, WEAK), units={"Red": ["A A1"], "Blue": ["A C1"]},
                     orders={"Red": ["A A1 - B1"], "Blue": ["A C1 - B1"]},
                     options={"crossing_strength": option})
    assert out["results"]["A A1 - B1"] == ["bounce"]
    assert out["results"]["A C1 - B1"] == blue


def test_a_weak_crossing_defends_with_its_supports_only(tmp_path) -> None:
    """In a head-to-head battle over the pass both sides cross it: the unsupported side's
    defence is nothing ("move"), or 1 ("attack")."""
    req = {"units": {"Red": ["A A1", "A B0"], "Blue": ["A B1"]},
           "orders": {"Red": ["A A1 - B1", "A B0 S A A1 - B1"], "Blue": ["A B1 - A1"]}}
    out = adjudicate(write(tmp_path, WEAK), **req)
    assert out["results"]["A A1 - B1"] == []
    assert out["results"]["A B1 - A1"] == ["bounce", "dislodged"]
    out = adjudicate(write(tmp_path, WEAK, name="lit"), **req,
                     options={"crossing_strength": "attack"})
    assert out["results"]["A A1 - B1"] == ["bounce"]
    assert out["results"]["A B1 - A1"] == ["bounce"]


# ---- supported crossings -------------------------------------------------------------------

def test_an_unsupported_crossing_fails_in_its_season_and_cuts_nothing(tmp_path) -> None:
    """"During the FIRST MOVEMENT PHASE ... NO ARMY MAY CROSS this mountainous border UNLESS
    SUPPORTED by another unit." Example 2: "the support for A Cordillera Domeyko would not
    be cut as the A San Juan would not make it across the mountains." In the fall the same
    crossing cuts."""
    v = write(tmp_path, RIDGE)
    req = {"units": {"Red": ["A A3"], "Blue": ["A B3", "A C3"]},
           "orders": {"Red": ["A A3 - B3"], "Blue": ["A B3 S A C3"]}}
    spring = adjudicate(v, **req)
    assert spring["results"] == {"A A3 - B3": ["bounce"], "A B3 S A C3": [], "A C3 H": []}
    fall = adjudicate(v, **{**req, "phase": "F1905M"})
    assert fall["results"]["A B3 S A C3"] == ["cut"]
    # an unsupported crossing into an empty province fails too, and keeps nobody out
    out = adjudicate(v, units={"Red": ["A A3"], "Blue": ["A C3"]},
                     orders={"Red": ["A A3 - B3"], "Blue": ["A C3 - B3"]})
    assert out["results"] == {"A A3 - B3": ["bounce"], "A C3 - B3": []}


def test_a_supported_crossing_goes_ahead(tmp_path) -> None:
    """Example 1: "The Argentinian A from San Juan manages to get across the border (Rule
    5.C.iv)" — it has support; whether it wins is the ordinary strength count."""
    out = adjudicate(write(tmp_path, RIDGE), units={"Red": ["A A3", "A B2"],
                                                    "Blue": ["A B3", "A C3"]},
                     orders={"Red": ["A A3 - B3", "A B2 S A A3 - B3"],
                             "Blue": ["A B3 S A C3"]})
    assert out["results"]["A B3 S A C3"] == ["dislodged"]
    assert out["results"]["A A3 - B3"] == []


@pytest.mark.parametrize(("option", "cut"), [("ordered", ["cut"]), ("given", [])])
def test_a_crossing_whose_support_is_cut_follows_the_option(tmp_path, option, cut) -> None:
    """"UNLESS SUPPORTED": with a support ordered but cut, the army crosses (and cuts) under
    "ordered", the default; under "given" it is unsupported and does not cross."""
    out = adjudicate(write(tmp_path, RIDGE), options={"supported_crossing": option},
                     units={"Red": ["A A3", "A B2"], "Blue": ["A B3", "A C3", "A C2"]},
                     orders={"Red": ["A A3 - B3", "A B2 S A A3 - B3"],
                             "Blue": ["A B3 S A C3", "A C2 - B2"]})
    assert out["results"]["A B2 S A A3 - B3"] == ["cut"]
    assert out["results"]["A A3 - B3"] == ["bounce"]
    assert out["results"]["A B3 S A C3"] == cut


def test_a_ridge_only_limits_the_kinds_and_seasons_named(tmp_path) -> None:
    out = adjudicate(write(tmp_path, RIDGE.replace('["A"]', '["F"]')),
                     units={"Red": ["A A3"]}, orders={"Red": ["A A3 - B3"]})
    assert out["results"]["A A3 - B3"] == []
    with pytest.raises(VariantError, match=r"seasons = \['X'\]"):
        game(RIDGE.replace('["S"]', '["X"]'))


# ---- rainforests ---------------------------------------------------------------------------

def test_no_army_supports_across_a_rainforest_border(tmp_path) -> None:
    """"NO ARMY MAY SUPPORT ORDER SUPPORT ACROSS A RAINFOREST BORDER." (Valley|Jungle is
    one; Highland|Jungle is not.)"""
    req = {"units": {"Red": ["A A2", "A B1", "A C2"]},
           "orders": {"Red": ["A A2 - B2", "A B1 S A A2 - B2", "A C2 S A A2 - B2"]}}
    out = adjudicate(write(tmp_path, FOREST), **req)
    assert out["results"]["A B1 S A A2 - B2"] == ["void"]
    assert out["results"]["A C2 S A A2 - B2"] == ["void"]
    plain = adjudicate(write(tmp_path, name="plain"), **req)
    assert plain["results"]["A B1 S A A2 - B2"] == []


def test_an_army_that_entered_a_rainforest_may_next_move_only_back() -> None:
    """"ONCE AN ARMY HAS ENTERED such a province, IT MAY NOT MOVE ON THE SUCCEEDING TURN,
    EXCEPT TO THE PROVINCE FROM WHICH IT ENTERED." The next turn after that it is free."""
    g = game(FOREST)
    g.process()  # W1904A: no builds
    assert g.phase == "S1905M"
    assert g.set_orders("Red", ["A A2 - B2"]) == []
    g.process()
    assert g.position.extra["rainforests"] == {"A B2": "A2"}
    assert [o for o in g.legal_orders("Red")["A B2"] if " - " in o] == ["A B2 - A2"]
    g.set_orders("Red", ["A B2 - B3", "A A1 S A A2"])  # a support is not limited
    out = g.process()
    assert {r.text: r.result for r in out.results}["A B2 - B3"] == ["void"]
    assert "rainforests" not in g.position.extra  # it stayed a turn: free again
    g.process()  # W1905A
    moves = [o for o in g.legal_orders("Red")["A B2"] if " - " in o]
    assert moves == ["A B2 - A2", "A B2 - B1", "A B2 - B3", "A B2 - C2"]


def test_the_way_back_is_remembered_across_saves_and_requests(tmp_path) -> None:
    """The memory is position data: a saved game keeps it, a one-shot request gives it back
    as `extra` and takes it in the next request."""
    v = write(tmp_path, FOREST)
    g = Game.new(v)
    g.process()
    g.set_orders("Red", ["A A2 - B2"])
    g.process()
    path = tmp_path / "g.json"
    g.save(path)
    again = Game.load(path)
    assert again.legal_orders("Red")["A B2"] == ["A B2 H", "A B2 - A2"]
    out = adjudicate(v, units={"Red": ["A A2"]}, orders={"Red": ["A A2 - B2"]})
    assert out["extra"] == {"rainforests": {"A B2": "A2"}}
    nxt = adjudicate(v, phase="F1905M", units=out["units"], extra=out["extra"],
                     orders={"Red": ["A B2 - C2"]})
    assert nxt["results"]["A B2 - C2"] == ["void"]


def test_rainforest_memory_retreats_builds_and_kinds(tmp_path) -> None:
    """A unit that retreats into a rainforest province entered it (from where it was
    dislodged); a unit built there did not; a kind not named moves freely."""
    v = write(tmp_path, FOREST)
    out = adjudicate(v, phase="S1905R", units={"Blue": ["A A3"]},
                     dislodged={"Red": [{"unit": "A A2", "from": "A1"}]},
                     orders={"Red": ["A A2 R B2"]})
    assert out["extra"] == {"rainforests": {"A B2": "A2"}}
    g = game(FOREST, BUILDS)  # the first phase builds anywhere in the territory
    assert g.set_orders("Red", ["A B2 B"]) == []
    g.process()
    assert "rainforests" not in g.position.extra
    assert len([o for o in g.legal_orders("Red")["A B2"] if " - " in o]) == 4
    out = adjudicate(write(tmp_path, FOREST.replace('way_back_only = ["A"]',
                                                   'way_back_only = ["F"]'), name="f"),
                     units={"Red": ["A A2"]}, orders={"Red": ["A A2 - B2"]})
    assert "extra" not in out


# ---- swamps and deserts --------------------------------------------------------------------

def test_an_army_in_a_swamp_gives_no_support_and_holds_unsupported(tmp_path) -> None:
    """"NO ARMY located in one of these provinces MAY OFFER SUPPORT TO ANOTHER UNIT, OR BE
    SUPPORTED TO HOLD in that province ... an army may be supported to move OUT of the
    swampy province"; "no restrictions apply to River Flotillas" (here: fleets)."""
    v = write(tmp_path, SWAMPS)
    out = adjudicate(v, units={"Red": ["A C1", "A C0", "A B1"]},
                     orders={"Red": ["A C1 S A C0", "A B1 S A C1"]})
    assert out["results"]["A C1 S A C0"] == ["void"]
    assert out["results"]["A B1 S A C1"] == ["void"]
    out = adjudicate(v, units={"Red": ["A C1", "A B2"]},
                     orders={"Red": ["A C1 - C2", "A B2 S A C1 - C2"]})
    assert out["results"]["A B2 S A C1 - C2"] == []
    out = adjudicate(v, units={"Red": ["F C1", "F SEA"]},
                     orders={"Red": ["F C1 S F SEA", "F SEA S F C1"]})
    assert out["results"] == {"F C1 S F SEA": [], "F SEA S F C1": []}


def test_no_support_from_a_desert_into_or_to_hold_in_an_adjacent_desert(tmp_path) -> None:
    """"NO UNIT IN ONE DESERT PROVINCE MAY SUPPORT ANOTHER UNIT INTO, OR TO HOLD IN AN
    ADJACENT DESERT PROVINCE. Note that this means that a unit in a desert province may
    support a unit in an adjacent desert province to move into a non-desert province.\""""
    v = write(tmp_path, DESERTS)
    out = adjudicate(v, units={"Red": ["A C2", "A C3", "A B2"]},
                     orders={"Red": ["A C2 S A C3", "A C3 S A B2 - C2", "A B2 H"]})
    assert out["results"]["A C2 S A C3"] == ["void"]
    assert out["results"]["A C3 S A B2 - C2"] == ["void"]
    out = adjudicate(v, units={"Red": ["F C2", "F C3", "F SEA"]},
                     orders={"Red": ["F C2 - SEA", "F C3 S F C2 - SEA", "F SEA S F C3"]})
    assert out["results"]["F C3 S F C2 - SEA"] == []  # out into a province not desert
    assert out["results"]["F SEA S F C3"] == []  # from outside the desert


# ---- vacant crossings ----------------------------------------------------------------------

def test_a_crossing_closes_while_its_sound_is_occupied(tmp_path) -> None:
    """The Falklands: "a Fleet, River Flotilla or Army may move from one to the other in
    one turn, without having to enter FALKLAND SOUND, except when FALKLAND SOUND is occupied
    by any unit"; "A F in Falkland Sound could convoy an army from East Falkand to West
    Falkland or vice-versa.\""""
    v = write(tmp_path, FORD)
    out = adjudicate(v, units={"Red": ["A I1"]}, orders={"Red": ["A I1 - I2"]})
    assert out["results"]["A I1 - I2"] == []
    out = adjudicate(v, units={"Red": ["A I1"], "Blue": ["F ISEA"]},
                     orders={"Red": ["A I1 - I2"]})
    assert out["results"]["A I1 - I2"] == ["void"]
    out = adjudicate(v, units={"Red": ["A I1", "F ISEA"]},
                     orders={"Red": ["A I1 - I2 VIA", "F ISEA C A I1 - I2"]})
    assert out["results"]["A I1 - I2 VIA"] == []


def test_only_fleets_support_across_the_crossing(tmp_path) -> None:
    """"so long as FALKLAND SOUND is vacant, a unit in either Falkland island may be
    supported by a FLEET (but not an Army or River Flotilla) in the other Falkland
    island.\""""
    v = write(tmp_path, FORD)
    out = adjudicate(v, units={"Red": ["A I1", "F I2"], "Blue": ["A B0"]},
                     orders={"Red": ["A I1 S F I2", "F I2 S A I1"]})
    assert out["results"] == {"A I1 S F I2": ["void"], "F I2 S A I1": [], "A B0 H": []}
    out = adjudicate(v, units={"Red": ["A I1", "F I2"], "Blue": ["F ISEA"]},
                     orders={"Red": ["F I2 S A I1"]})
    assert out["results"]["F I2 S A I1"] == ["void"]


# ---- centers and builds --------------------------------------------------------------------

def test_a_center_worth_two_counts_twice_for_builds_and_victory() -> None:
    """"Control of a capital center allows for two builds. Only one build may be made on the
    Capital Center itself"; victory counts "a majority of supply centres (36 of 71)", the
    capitals counting 2 each."""
    g = game()
    m, pos = g.map, g.position
    red = g.power("Red")
    assert adjustment_counts(m, pos)[red] == 3 - 2
    pos.owners[m.prov_index["A3"]] = red
    pos.owners[m.prov_index["B1"]] = red
    pos.owners[m.prov_index["I1"]] = red  # 2 + 1 + 1 + 1 + 1 = 6 by value, 5 centers
    g.position.phase = Phase(1905, "F", "M")
    g.process()
    assert g.status == "won" and g.winners == [red]


def test_in_the_first_phase_powers_with_a_capital_build_anywhere_in_their_territory() -> None:
    """"The first turn of the game will be a Phase D turn ... those powers with Capital
    Centers showing on the map may build a unit on any space which belongs to their power,
    including Island Provinces." Blue has no capital: its usual sites only."""
    g = game(BUILDS)
    assert g.phase == "W1904A"
    assert set(g.legal_orders("Red")) == {"A3", "B1", "B2"}
    assert g.set_orders("Red", ["A B2 B"]) == []
    g.process()
    assert any(g.map.unit_str(u.kind, u.loc) == "A B2" for u in g.position.units)
    plain = game()
    assert plain.legal_orders("Red") == {}  # the capital's second unit has nowhere to go


def territory_year(year: int, owners: dict[str, str], units: dict[str, list[str]]) -> Game:
    """A game of the terrain map in the adjustment phase of `year`, with these owners and
    units."""
    g = game(BUILDS)
    m, pos = g.map, g.position
    pos.phase = Phase(year, "W", "A")
    pos.owners = [-1] * m.n_prov
    for prov, power in owners.items():
        pos.owners[m.prov_index[prov]] = g.power(power)
    pos.units = [Unit(g.power(power), m.kind_index[u.split()[0]], m.prov_index[u.split()[1]])
                 for power, lst in units.items() for u in lst]
    return g


def test_in_years_ending_0_or_5_one_build_may_go_on_the_territory() -> None:
    """"on D Phases in years ending in -5 and -0, All powers who continue to control their
    capital centres will be allowed to make ONE build earned on any province which they
    occupied at the beginning of the game unless: a) it is presently occupied by any unit;
    or b) it is a province with a supply center that is no longer under the control of that
    power." Outposts: "that power may build on it SO LONG AS NO OTHER POWER CONTROLS IT"."""
    red_centers = {"A1": "Red", "A2": "Red", "C0": "Blue"}
    g = territory_year(1905, red_centers, {"Red": ["A B1"], "Blue": ["A C0"]})
    assert adjustment_counts(g.map, g.position)[g.power("Red")] == 2
    assert set(g.legal_orders("Red")) == {"A1", "A2", "A3", "B2"}  # not B1: occupied
    assert g.set_orders("Red", ["A A3 B", "A B2 B"]) == []  # each alone is a site
    g.process()
    built = {g.map.unit_str(u.kind, u.loc) for u in g.position.units}
    assert "A A3" in built and "A B2" not in built  # only ONE build off the centers
    # 1906: no year for it
    assert set(territory_year(1906, red_centers, {"Red": ["A B1"]}).legal_orders("Red")) == {
        "A1", "A2"}
    # 1910, the outpost taken by Blue: no longer a site
    g = territory_year(1910, {**red_centers, "A3": "Blue"}, {"Red": ["A B1"]})
    assert set(g.legal_orders("Red")) == {"A1", "A2", "B2"}


def test_a_power_that_lost_its_capital_builds_only_on_its_centers() -> None:
    """"All powers who continue to control their capital centres"; the imperial powers'
    "capitals are not on the map, thus meaning they can never lose their capital centers in
    this game, these powers will never lose the ability" (Blue has no capital)."""
    g = territory_year(1905, {"A1": "Blue", "A2": "Red", "C0": "Blue", "I1": "Blue"},
                       {"Blue": ["A A1"]})
    assert set(g.legal_orders("Red")) == {"A2"}
    assert set(g.legal_orders("Blue")) == {"C0", "B0", "I1"}


def test_territory_builds_check_their_parameters() -> None:
    with pytest.raises(VariantError, match=r"years_ending = \[10\]"):
        game(BUILDS.replace("[0, 5]", "[10]"))
    with pytest.raises(VariantError, match=r"\[rules.mountains\] provinces = 'volcano'"):
        game('[rules.mountains]\nprovinces = "volcano"\n')
    with pytest.raises(VariantError, match=r"borders = 'cliff' is not an edge kind"):
        game('[rules.weak_crossings]\nborders = "cliff"\n')
    with pytest.raises(VariantError, match=r"no_support_across = \['Z'\]"):
        game('[rules.rainforests]\nno_support_across = ["Z"]\n')
    with pytest.raises(VariantError, match=r"edge 'I1-C0' is not declared"):
        game(FORD.replace("I1-I2", "I1-C0"))


def test_bare_terrain_rules_change_nothing() -> None:
    """Switched on without parameters, these modules play like the standard rules; the
    base class's new hooks say "nothing to change"."""
    plain = compile_map(parse_variant(TERRAIN, "terrain.toml"))
    for rule in ("[rules.mountains]\n", "[rules.rainforests]\n", "[rules.territory_builds]\n",
                 "[rules.vacant_crossings]\n"):
        m = game(rule).map
        assert m.tables.support_reach == plain.tables.support_reach, rule
        assert m.tables.retreat_locs == plain.tables.retreat_locs, rule
        t = m.tables
        assert not t.move_strength and not t.needs_support and not t.no_hold_support
        assert game(rule).legal_orders("Red") == {}, rule
    bare = Rule({}, parse_variant(TERRAIN), "rules.bare")
    assert (bare.extra_build_sites(None, None, 0), bare.after_phase(None, None, None, []),
            bare.move_limits(None, None), bare.no_support(None), bare.no_hold_support(None),
            bare.move_strength(None), bare.needs_support(None), bare.no_retreat(None)) == (
        [], None, {}, set(), set(), {}, {}, set())


def test_the_standard_map_keeps_its_own_tables() -> None:
    """Without such rules the map's rule tables are its standard tables themselves (the
    adjudicator reads the same lists), and no center is worth more than one."""
    m = compile_map(load_variant("standard"))
    assert m.tables.support_reach is m.reach_prov and m.tables.retreat_locs is m.move_locs
    assert not m.has_center_values and not m.tables.has_move_limits


def test_a_convoyed_army_goes_back_the_way_it_came(tmp_path) -> None:
    """An army convoyed into a rainforest province entered it from the convoy's origin: it
    may next move only back there, by convoy again (here Marsh is a coastal rainforest)."""
    text = TERRAIN.replace('name = "Marsh"\nterrain = "coast"\ntags = ["swamp"]',
                           'name = "Marsh"\nterrain = "coast"\ntags = ["rainforest"]')
    path = tmp_path / "coastal_forest.toml"
    path.write_text(text + "\n" + FOREST)
    out = adjudicate(str(path), units={"Red": ["A C3", "F SEA"]},
                     orders={"Red": ["A C3 - C1 VIA", "F SEA C A C3 - C1"]})
    assert out["extra"] == {"rainforests": {"A C1": "C3"}}
    req = {"phase": "F1905M", "units": out["units"], "extra": out["extra"]}
    back = adjudicate(str(path), **req, orders={"Red": ["A C1 - C3 VIA", "F SEA C A C1 - C3"]})
    assert back["results"]["A C1 - C3 VIA"] == []
    other = adjudicate(str(path), **req, orders={"Red": ["A C1 - C0"]})
    assert other["results"]["A C1 - C0"] == ["void"]


CIRCLE = """
[variant]
name = "circle"
[edge_kinds]
land = { units = ["A"] }
ridge = { units = [] }
[[powers]]
name = "Red"
homes = []
units = []
[[powers]]
name = "Blue"
homes = []
units = []
[provinces.P]
name = "Pe"
terrain = "land"
[provinces.Q]
name = "Qu"
terrain = "land"
[provinces.T]
name = "Te"
terrain = "land"
[provinces.R]
name = "Ar"
terrain = "land"
[edges]
land = ["P-Q", "Q-T", "T-R"]
ridge = ["P-Q", "R-T"]
[victory]
centers = 1
[rules.supported_crossings]
borders = "ridge"
"""


def test_two_crossings_cutting_each_others_support_under_given(tmp_path) -> None:
    """Under supported_crossing = "given", two crossings whose supports each stand where the
    other crossing goes form a paradox (each support stands exactly when the other is cut):
    the resolver's backup rule settles it, both supports failing; nothing crashes."""
    path = tmp_path / "circle.toml"
    path.write_text(CIRCLE)
    out = adjudicate_request({
        "variant": str(path), "phase": "S1901M", "options": {"supported_crossing": "given"},
        "units": {"Red": ["A P", "A T"], "Blue": ["A R", "A Q"]},
        "orders": {"Red": ["A P - Q", "A T S A P - Q"], "Blue": ["A R - T", "A Q S A R - T"]}})
    assert out["results"] == {"A P - Q": ["bounce"], "A T S A P - Q": ["cut"],
                              "A R - T": ["bounce"], "A Q S A R - T": ["cut"]}
