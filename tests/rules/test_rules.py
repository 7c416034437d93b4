"""Rule modules, on small maps written for the purpose; each test quotes the rule it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from polydip.adjudication.adjustments import adjustment_counts
from polydip.errors import PolydipError, VariantError
from polydip.game.game import Game
from polydip.state import Unit
from polydip.variants.loader import parse_variant

TINY = (Path(__file__).parents[1] / "variants" / "tiny.toml").read_text()


def tiny(extra: str = "", **replace: str) -> Game:
    text = TINY
    for old, new in replace.items():
        text = text.replace(old, new)
    return Game.new(parse_variant(text + "\n" + extra, "tiny.toml"))


def units(g: Game) -> set[str]:
    return {f"{g.map.powers[u.power]} {g.map.unit_str(u.kind, u.loc)}" for u in g.position.units}


def play_year(g: Game, spring: dict[str, list[str]], fall: dict[str, list[str]]) -> None:
    for orders in (spring, fall):
        for p, lst in orders.items():
            assert g.set_orders(p, lst) == []
        g.process()


# ---- build sites -------------------------------------------------------------------------

CHAOS = '[rules.build_sites]\npolicy = "owned_at_year_start"\n'
NO_WIN = {"centers = 4": "centers = 9"}


def test_standard_builds_only_on_home_centers() -> None:
    g = tiny(**NO_WIN)
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
    assert g.phase == "W1901A"
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Red")
    assert set(g.legal_orders("Red")) == {"A1", "A2"}  # vacant homes only, not N1/N2
    # refused when given, with the reason and the sites (issue 8, item 5)
    assert g.set_orders("Red", ["A N1 B"]) == [
        "'A N1 B': North is occupied (build sites: A1, A2)"]
    assert g.orders == {}
    # the adjudicator judges the same way when the order reaches it anyway
    from polydip.adjudication.adjustments import resolve_adjustments
    from polydip.orders.parser import parse_order

    m = g.map
    built = resolve_adjustments(m, g.position, [[parse_order(m, "A N1 B", "A")]])
    assert built.results[g.power("Red")][0][1] == ["void"]
    assert len(built.units) == len(g.position.units)


def test_chaos_builds_on_any_center_owned_at_the_beginning_of_the_year() -> None:
    """Seed 000 (War in the Americas): "units may be built on any supply center owned by a
    power at the beginning of the year, as in the Chaos variant"."""
    g = tiny(CHAOS, **NO_WIN)
    # 1901: Red takes N1 and N2; they were not Red's when 1901 began
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
    assert g.phase == "W1901A"
    assert set(g.legal_orders("Red")) == {"A1", "A2"}
    g.set_orders("Red", ["A A2 B"])
    g.process()
    # 1902: N1 and N2 were Red's when 1902 began: once vacated, Red may build there
    play_year(g, {"Red": ["F N2 - S", "A A2 - A1", "A N1 - A2"]}, {})
    assert g.phase == "W1902A"
    assert set(g.legal_orders("Red")) == {"N1", "N2"}
    assert g.set_orders("Red", ["Build A North"]) == []
    g.process()
    assert "Red A N1" in units(g)


def test_owned_policy_and_bad_policy() -> None:
    g = tiny('[rules.build_sites]\npolicy = "owned"\n', **NO_WIN)
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {"Red": ["A N1 - A2"]})
    # N1 was left before the fall ended, so it is not Red's; N2 is, and occupied
    assert g.position.owners[g.map.prov_index["N1"]] == -1
    assert set(g.legal_orders("Red")) == {"A1"}
    with pytest.raises(VariantError, match="policy = 'anywhere' is not one of"):
        tiny('[rules.build_sites]\npolicy = "anywhere"\n')
    with pytest.raises(VariantError, match="unknown rule"):
        tiny('[rules.build_site]\npolicy = "owned"\n')


def test_any_home_policy_builds_on_owned_home_centers_of_any_power() -> None:
    """DPjudge's rule HOME_BUILDS (Imperial): "players may build in any owned center that was
    an original home center for any of the powers in the game"."""
    g = tiny('[rules.build_sites]\npolicy = "any_home"\n', **NO_WIN)
    # Red takes Blue's home B1 (its fleet out of the way) and the neutral N2
    play_year(g, {"Red": ["F A1 - N2", "A A2 - N1"], "Blue": ["F B1 - S"]},
              {"Red": ["F N2 - B1", "A N1 - N2"]})
    assert g.phase == "W1901A"
    owners = g.position.owners
    assert owners[g.map.prov_index["B1"]] == owners[g.map.prov_index["N2"]] == g.power("Red")
    g.position.units = [u for u in g.position.units if u.power != g.power("Red")]
    # B1 (Blue's home) and Red's own homes are build sites; N2, owned but neutral, is not
    assert set(g.legal_orders("Red")) == {"A1", "A2", "B1"}


# ---- victory -----------------------------------------------------------------------------

def test_victory_at_n_centers_after_the_fall() -> None:
    g = tiny()
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
    assert g.status == "won" and g.winners == [g.power("Red")]  # 4 of 6


def test_victory_preset_more_than_any_other() -> None:
    """Seed 000 (issue 4): PlayDiplomacy's "24 centers and more than any other power" as a
    named alternative to the default victory condition: with it, a tie for the most centers
    wins nothing; without it, the powers tied at the top share the victory."""
    extra = ("[victory.presets.strict]\ncenters = 2\nmore_than_others = true\n"
             "[victory.presets.shared]\ncenters = 2\n")
    tie = {'homes = ["B1"]': 'homes = ["B1"]\ncenters = ["B1", "N2"]'}  # Red 2, Blue 2
    for option, start, result, winners in (
            ("default", {}, "active", []),  # 9 centers needed
            ("strict", {}, "won", ["Red"]),  # Red 2 centers, Blue 1
            ("shared", {}, "won", ["Red"]),
            ("strict", tie, "active", []),
            ("shared", tie, "won", ["Red", "Blue"])):
        g = tiny(extra, **NO_WIN, **start)
        g.options["victory"] = option
        g.process()  # checked after each phase
        assert (g.status, [g.map.powers[p] for p in g.winners]) == (result, winners), option
    with pytest.raises(PolydipError, match="no preset 'nosuch'"):
        Game.new(parse_variant(TINY), {"victory": "nosuch"})


def test_game_ends_when_no_center_changed_hands_for_n_years() -> None:
    """Seed 004 (War in North America): "Das Spiel endet ebenfalls, wenn innerhalb von vier
    Jahren kein Versorgungszentrum den Besitzer gewechselt hat." (the game also ends when no
    supply center has changed owner within four years)."""
    g = tiny("", **{"centers = 4": "centers = 6\nno_change_years = 2"})
    for _ in range(2):
        assert g.status == "active"
        play_year(g, {}, {})
    assert g.phase == "S1903M"
    assert g.status == "drawn"
    assert g.winners == [g.power("Red"), g.power("Blue")]


def test_no_change_years_count_from_the_first_year_centers_can_change() -> None:
    """Seed 004: "Das Spiel beginnt im Winter 1859" and ends "wenn innerhalb von vier Jahren
    kein Versorgungszentrum den Besitzer gewechselt hat": a game starting after its year's
    center update counts its years from the next one (1860 and 1861 here, not 1859)."""
    text = (TINY.replace('units = ["F A1", "A A2"]', 'units = ["A A2"]')
            + '\n[calendar]\nstart = "W1859A"\n')
    g = Game.new(parse_variant(text.replace("centers = 4", "centers = 6\nno_change_years = 2")))
    assert g.phase == "W1859A"
    while g.status == "active":
        g.process()
    assert g.phase == "S1862M"  # after the falls of 1860 and 1861
    assert g.status == "drawn"


def test_game_ends_after_the_last_year() -> None:
    """Seed 001 (Latin American Diplomacy): the game ends "after 1917D" — a last year."""
    g = tiny("", **{"centers = 4": "centers = 6\nlast_year = 1902\nlast_year_result = "
                    '"most_centers"'})
    play_year(g, {"Red": ["A A2 - N1"]}, {})
    while g.status == "active":
        assert g.position.phase.year <= 1902
        g.process()
    assert g.phase == "S1903M"
    assert g.status == "won" and g.winners == [g.power("Red")]  # 3 centers against 1


def test_victory_at_the_beginning_of_a_season() -> None:
    """Seed 003 (The Twentieth Century): victory "at the beginning of a Fall turn"."""
    g = tiny("", **{"centers = 4": 'centers = 4\ncheck = "start_of_season"\ncheck_season = "F"'})
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
    assert g.status == "active"  # 4 centers after the fall update, but not yet checked
    g.process() if g.phase.startswith("W") else None
    assert g.phase == "S1902M"
    g.process()
    assert g.phase == "F1902M"
    assert g.status == "won"


# ---- neutral units and events ------------------------------------------------------------

NEUTRAL = """
[[powers]]
name = "Neutral"
letter = "N"
neutral = true
units = ["A N1"]
centers = ["N1"]

[rules.neutral_units]
"""


def tiny_file(tmp_path, extra: str = "", **replace: str) -> str:
    text = TINY
    for old, new in replace.items():
        text = text.replace(old, new)
    path = tmp_path / "tiny.toml"
    path.write_text(text + "\n" + extra)
    return str(path)


def adjudicate(variant: str, **req):
    from polydip.oneshot import adjudicate_request

    out = adjudicate_request({"variant": variant, **req})
    assert "error" not in out, out
    return out


def test_neutral_units_always_hold(tmp_path) -> None:
    """Seed 004: "Die Einheiten der neutralen Staaten bekommen immer Haltebefehle" (the
    neutral units always receive hold orders)."""
    v = tiny_file(tmp_path, NEUTRAL)
    out = adjudicate(v, units={"Neutral": ["A N1"]}, orders={"Neutral": ["A N1 - A2"]})
    assert out["units"]["Neutral"] == ["A N1"]
    assert "always hold" in out["errors"][0]


def test_neutral_units_may_be_supported_in_hold(tmp_path) -> None:
    """Seed 004: "Sie können von anderen Nationen beim Halten unterstützt werden" (other
    nations may support them in holding)."""
    v = tiny_file(tmp_path, NEUTRAL)
    units = {"Neutral": ["A N1"], "Red": ["A A2", "F A1"], "Blue": ["A B1"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1"]})
    assert out["results"]["A A2 - N1"] == ["bounce"]
    units["Red"].append("A N2")
    attack = {"Red": ["A A2 - N1", "A N2 S A A2 - N1"]}
    assert "Neutral" not in adjudicate(v, units=units, orders=attack)["units"]
    out = adjudicate(v, units=units, orders={**attack, "Blue": ["A B1 S A N1"]})
    assert out["units"]["Neutral"] == ["A N1"]


def test_dislodged_neutral_units_are_disbanded(tmp_path) -> None:
    """Seed 004: "ziehen sich die neutralen Armeen nicht zurück, sie werden in Folge eines
    erfolgreichen Angriffs aufgelöst" (neutral armies do not retreat; a successful attack
    disbands them)."""
    v = tiny_file(tmp_path, NEUTRAL)
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A N2"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    # no retreat anywhere: destroyed at once, and no retreat phase (issue 17)
    assert out["dislodged"] == {} and out["next_phase"] == "F1901M"
    assert out["destroyed"] == {"Neutral": [{"unit": "A N1", "from": "A2"}]}
    assert "Neutral" not in out["units"]
    # with the option keep_empty_retreats the retreat phase is kept; the unit is disbanded there
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A N2 S A A2 - N1"]},
                     options={"keep_empty_retreats": True})
    assert out["dislodged"] == {"Neutral": [{"unit": "A N1", "from": "A2", "retreats": []}]}
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]})
    assert "Neutral" not in nxt["units"]


WILD = {  # a province without a center next to N1
    "[edges]": '[provinces.W1]\nname = "Wilds"\nterrain = "land"\n\n[edges]',
    'land = ["A1-A2",': 'land = ["N1-W1", "A1-A2",',
    "supply_centers = 6\nprovinces = 6": "supply_centers = 6\nprovinces = 7",
}


def test_the_alaskan_army_retreats_to_a_free_center(tmp_path) -> None:
    """Seed 004: "Die Armee in Alaska (Ala) versucht sich in ein freies VZ zurückzuziehen,
    sobald sie aus Alaska vertrieben wird. Ist ein Rückzug nicht möglich, so wird die Armee
    aufgelöst." (dislodged, it retreats to a free center; if it cannot, it is disbanded)."""
    v = tiny_file(tmp_path, NEUTRAL + 'retreat_to_free_center = ["N1"]\n', **WILD)
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A N2"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    # B1 is a free center; W1 is free but no center; A2 is where the attack came from
    assert out["dislodged"]["Neutral"][0]["retreats"] == ["B1"]
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]})
    assert nxt["units"]["Neutral"] == ["A B1"]  # ordered by nobody: it goes by itself
    # orders for it are refused: it goes where the rule says
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]},
                     orders={"Neutral": ["A N1 R W1"]})
    assert nxt["units"]["Neutral"] == ["A B1"] and "always holds" in nxt["errors"][0]
    # two free centers (B1, N2): the first in alphabetical order
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A W1"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A W1 S A A2 - N1"]})
    assert out["dislodged"]["Neutral"][0]["retreats"] == ["B1", "N2"]
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]})
    assert nxt["units"]["Neutral"] == ["A B1"]
    # only N2 free: it goes there, and the result names that retreat (not an earlier one)
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A W1"], "Blue": ["F B1"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A W1 S A A2 - N1"]})
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]})
    assert nxt["units"]["Neutral"] == ["A N2"] and nxt["results"] == {"A N1 R N2": []}
    # no free center: disbanded
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A N2"], "Blue": ["F B1"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    assert out["destroyed"] == {"Neutral": [{"unit": "A N1", "from": "A2"}]}


def test_neutral_powers_neither_build_nor_remove() -> None:
    """Seed 004: the neutral armies hold and are disbanded when dislodged; a power without a
    player has nobody to build or remove units (the module's reading)."""
    text = (TINY.replace("centers = 4", "centers = 9")
            + NEUTRAL.replace('centers = ["N1"]', 'centers = ["N1", "N2"]'))
    g = Game.new(parse_variant(text))
    neutral = g.power("Neutral")
    assert adjustment_counts(g.map, g.position)[neutral] == 0  # 2 centers, 1 unit
    play_year(g, {}, {})
    assert g.phase == "S1902M"  # nobody had anything to adjust: no winter
    g.position.units = [u for u in g.position.units if u.power != neutral]
    g.position.owners[g.map.prov_index["N1"]] = -1
    g.position.owners[g.map.prov_index["N2"]] = -1
    g.position.units.append(Unit(neutral, g.map.kind_index["A"], g.map.prov_index["N2"]))
    g.position.units.append(Unit(neutral, g.map.kind_index["A"], g.map.prov_index["N1"]))
    assert adjustment_counts(g.map, g.position)[neutral] == 0  # 0 centers, 2 units


def test_random_orders_leave_neutral_units_alone(tmp_path) -> None:
    """Seed 004: neutral units "bekommen immer Haltebefehle" (always hold): the random player
    (demos, benchmarks, random-game tests) gives them no order, though it may support them."""
    import random

    from polydip.play import random_orders

    g = Game.new(parse_variant(TINY + NEUTRAL))
    neutral = g.power("Neutral")
    supported = False
    for seed in range(40):
        orders = random_orders(g.map, g.position, random.Random(seed))
        assert neutral not in orders
        supported |= any(o.endswith("S A N1") for lst in orders.values() for o in lst)
        for p, lst in orders.items():
            assert g.set_orders(p, lst) == []
    assert supported


def test_an_unconquered_province_joins_a_power(tmp_path) -> None:
    """Seed 004: "Wurde das russische Alaska (Ala) bis zum Winter 1867 nicht erobert, so
    schließt sich dieses Gebiet automatisch den Vereinigten Staaten von Amerika an. Die
    neutrale Armee in Alaska steht dann unter der Flagge der Vereinigten Staaten!"."""
    event = ('[[rules.events.join]]\nat = "W1902"\nprovince = "N1"\nfrom = "Neutral"\n'
             'to = "Blue"\n')
    g = Game.new(parse_variant(TINY + NEUTRAL + event))
    play_year(g, {}, {})
    assert "Neutral A N1" in units(g)
    play_year(g, {}, {})
    assert g.phase == "S1903M"
    assert "Blue A N1" in units(g)
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Blue")
    # conquered before the date: it does not join
    text = TINY.replace('"F A1"', '"A A1"').replace("centers = 4", "centers = 9")
    g = Game.new(parse_variant(text + NEUTRAL + event))
    play_year(g, {"Red": ["A A1 - N2"]}, {"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    assert g.phase == "W1901A"  # the neutral army is destroyed: no retreat phase
    while g.position.phase.year < 1903:
        g.process()
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Red")
    assert "Red A N1" in units(g)
    assert any("does not join" in line for line in g.position.extra["log"])


# ---- controlled passages -----------------------------------------------------------------

STRAIT_MAP = {
    'sea = ["S-A1", "S-N2", "S-B1", "A1-N2", "N2-B1"]':
    'sea = ["S-A1", "S-N2", "S-B1", "A1-N2", "N2-B1", "S-T", "T-B1"]',
    "[edges]": '[provinces.T]\nname = "Far Sea"\nterrain = "sea"\n\n[edges]',
    "supply_centers = 6\nprovinces = 6": "supply_centers = 6\nprovinces = 7",
}


def strait(tmp_path, controllers: str = '["N2"]', exempt: str = "[]") -> str:
    rule = (f'[[rules.controlled_passages.passage]]\nname = "Strait"\nedges = ["S-T"]\n'
            f"controllers = {controllers}\nexempt = {exempt}\n")
    return tiny_file(tmp_path, rule, **STRAIT_MAP)


def test_a_strait_is_closed_while_nobody_controls_it(tmp_path) -> None:
    """Seed 002: "You can't move sea units through a canal or narrow strait that is
    controlled by a neutral territory"."""
    v = strait(tmp_path)
    out = adjudicate(v, units={"Red": ["F S"]}, centers={"Red": ["A1", "A2"]},
                     orders={"Red": ["F S - T"]})
    assert out["results"] == {"F S - T": ["void"]}


def test_the_controller_passes_and_may_permit_others(tmp_path) -> None:
    """Seed 002: "control of the land territories surrounding these features gives the
    controlling power and its allies the ability to travel through them"; seed 003:
    "Owning players may also allow other players to send fleets through"."""
    v = strait(tmp_path)
    centers = {"Red": ["A1", "A2", "N2"], "Blue": ["B1"]}
    out = adjudicate(v, units={"Red": ["F S"]}, centers=centers, orders={"Red": ["F S - T"]})
    assert out["units"] == {"Red": ["F T"]}
    blue = {"units": {"Blue": ["F S"]}, "centers": centers, "orders": {"Blue": ["F S - T"]}}
    assert adjudicate(v, **blue)["results"] == {"F S - T": ["void"]}
    allowed = adjudicate(v, **blue, options={"passage_permissions": {"Strait": {"Red": ["Blue"]}}})
    assert allowed["units"] == {"Blue": ["F T"]}


def test_a_strait_split_between_two_powers_is_closed_to_all(tmp_path) -> None:
    """Seed 002: "If one side controls one territory and the other controls the other, the
    canal or strait is closed to all sea units." — to the power holding either side,
    whichever it is."""
    v = strait(tmp_path, controllers='["N2", "B1"]')
    for split in ({"Red": ["A1", "A2", "N2"], "Blue": ["B1"]},
                  {"Red": ["A1", "A2", "B1"], "Blue": ["N2"]}):
        for power in ("Red", "Blue"):
            out = adjudicate(v, units={power: ["F S"]}, centers=split,
                             orders={power: ["F S - T"]})
            assert out["results"] == {"F S - T": ["void"]}, (split, power)
    # the power holding both sides passes, the other does not
    for owner, other in (("Red", "Blue"), ("Blue", "Red")):
        both = {owner: ["N2", "B1"], other: ["A1", "A2"]}
        assert adjudicate(v, units={owner: ["F S"]}, centers=both,
                          orders={owner: ["F S - T"]})["units"] == {owner: ["F T"]}
        assert adjudicate(v, units={other: ["F S"]}, centers=both,
                          orders={other: ["F S - T"]})["results"] == {"F S - T": ["void"]}
    # a closed strait cannot carry support either
    split = {"Red": ["A1", "A2", "N2"], "Blue": ["B1"]}
    units = {"Red": ["F S", "F B1"], "Blue": ["F T"]}
    out = adjudicate(v, units=units, centers=split, orders={"Red": ["F B1 - T", "F S S F B1 - T"]})
    assert out["results"]["F S S F B1 - T"] == ["void"]


GEO = (Path(__file__).parents[1] / "variants" / "geo.toml").read_text()


def geo_strait(tmp_path, edges: str, controllers: str) -> str:
    path = tmp_path / "geo.toml"
    path.write_text(GEO + f'\n[[rules.controlled_passages.passage]]\nname = "Duo Strait"\n'
                    f"edges = {edges}\ncontrollers = {controllers}\n")
    return str(path)


def test_a_passage_from_a_coast_and_a_province_controlled_by_a_unit(tmp_path) -> None:
    """Seed 002: "control of the land territories surrounding these features gives the
    controlling power ... the ability to travel through them"; a territory without a center
    is controlled by the power whose unit stands in it (the module's reading). The passage
    leaves from a coast (DUO/NC) of a two-coast province."""
    v = geo_strait(tmp_path, '["DUO/NC-W"]', '["ISL"]')
    move = {"Blue": ["F DUO/NC - W"]}
    # Blue's army stands in Isle: Blue controls the passage
    out = adjudicate(v, units={"Blue": ["F DUO/NC", "A ISL"]}, orders=move)
    assert out["results"]["F DUO/NC - W"] == [] and "F W" in out["units"]["Blue"]
    # Red's army stands there, or nobody's: closed to Blue's fleet on the north coast
    for units in ({"Blue": ["F DUO/NC"], "Red": ["A ISL"]}, {"Blue": ["F DUO/NC"]}):
        out = adjudicate(v, units=units, orders=move)
        assert out["results"]["F DUO/NC - W"] == ["void"], units
    # the other coast is not part of the passage
    out = adjudicate(v, units={"Blue": ["F DUO/SC"], "Red": ["A ISL"]},
                     orders={"Blue": ["F DUO/SC - BOX"]})
    assert out["results"]["F DUO/SC - BOX"] == []
    # and the legal orders agree
    g = Game.new(parse_variant(Path(v).read_text(), v))
    assert "F DUO/NC - W" not in g.legal_orders("Blue")["F DUO/NC"]


def test_no_retreat_through_a_closed_passage(tmp_path) -> None:
    """Seed 002: "You can't move sea units through a canal or narrow strait that is
    controlled by a neutral territory" — a retreat is a move, and may not go through it
    either."""
    v = strait(tmp_path)
    units = {"Red": ["F S", "A A1"], "Blue": ["F B1", "F N2"]}
    attack = {"Blue": ["F B1 - S", "F N2 S F B1 - S"]}
    for centers, retreats in (({"Red": ["A1", "A2"], "Blue": ["B1"]}, []),
                              ({"Red": ["A1", "A2", "N2"], "Blue": ["B1"]}, ["T"])):
        out = adjudicate(v, units=units, centers=centers, orders=attack)
        if not retreats:  # nowhere to go: destroyed at once
            assert out["destroyed"] == {"Red": [{"unit": "F S", "from": "B1"}]}
            assert out["dislodged"] == {}
        else:
            assert out["dislodged"]["Red"] == [{"unit": "F S", "from": "B1",
                                                "retreats": retreats}]
        # the retreat phase, given as a request of its own, agrees
        nxt = adjudicate(v, phase="S1901R", units=out["units"], centers=centers,
                         dislodged={"Red": [{"unit": "F S", "from": "B1"}]},
                         orders={"Red": ["F S R T"]})
        assert nxt["results"]["F S R T"] == ([] if retreats else ["void", "disband"])


def test_exempt_unit_kinds_pass_regardless(tmp_path) -> None:
    """Seed 002: "Exception: Submarines of any power may pass through the Strait of
    Gibraltar regardless of which power controls it."."""
    v = strait(tmp_path, exempt='["F"]')
    out = adjudicate(v, units={"Blue": ["F S"]}, orders={"Blue": ["F S - T"]})
    assert out["units"] == {"Blue": ["F T"]}
    # another kind exempt: fleets are still held back
    (tmp_path / "armies").mkdir()
    v = strait(tmp_path / "armies", exempt='["A"]')
    out = adjudicate(v, units={"Blue": ["F S"]}, orders={"Blue": ["F S - T"]})
    assert out["results"] == {"F S - T": ["void"]}


def test_control_counts_from_the_start_of_the_turn(tmp_path) -> None:
    """Seed 002: "If your side ... controlled a canal or narrow strait at the start of your
    turn, you may move sea units through it (you can't use it in the same turn that you
    capture it)"."""
    g = Game.new(parse_variant(Path(strait(tmp_path)).read_text()))
    g.set_orders("Red", ["F A1 - N2"])
    g.process()
    g.set_orders("Red", ["F N2 - S"])
    g.process()  # N2 changes owner at the end of this fall
    assert g.position.owners[g.map.prov_index["N2"]] == -1  # left before the fall ended
    g = Game.new(parse_variant(Path(strait(tmp_path)).read_text()))
    g.set_orders("Red", ["F A1 - N2"])
    g.process()
    g.process()  # Red holds N2 through the fall: it owns N2 from now on
    assert g.position.owners[g.map.prov_index["N2"]] == g.power("Red")
    if g.phase.startswith("W"):
        g.process()
    g.set_orders("Red", ["F N2 - S"])
    g.process()
    g.set_orders("Red", ["F S - T"])
    out = g.process()
    assert [r.result for r in out.results if r.text == "F S - T"] == [[]]
    assert "Red F T" in units(g)


def test_legal_orders_leave_out_closed_passages(tmp_path) -> None:
    g = Game.new(parse_variant(Path(strait(tmp_path)).read_text()))
    g.set_orders("Red", ["F A1 - S"])
    g.process()
    assert "F S - T" not in g.legal_orders("Red")["F S"]
    assert "F S - B1" in g.legal_orders("Red")["F S"]
    g.options["passage_permissions"] = {}
    g.position.owners[g.map.prov_index["N2"]] = g.power("Red")
    assert "F S - T" in g.legal_orders("Red")["F S"]


# ---- open spaces (Cape Horn) -------------------------------------------------------------

OPEN = '[rules.open_spaces]\nprovinces = ["S"]\n'


def test_an_open_space_holds_any_number_of_units_and_nobody_bounces(tmp_path) -> None:
    """Seed 004 (Cape Horn): "Es gibt kein Limit der einziehenden Flotten, es kann auch kein
    Bounce entstehen. Verfeindete Flotten können in diesem Gebiet stehen"."""
    v = tiny_file(tmp_path, OPEN)
    out = adjudicate(v, units={"Red": ["F A1"], "Blue": ["F B1"]},
                     orders={"Red": ["F A1 - S"], "Blue": ["F B1 - S"]})
    assert out["units"] == {"Red": ["F S"], "Blue": ["F S"]}
    assert out["contested"] == []


def test_nothing_is_dislodged_from_an_open_space(tmp_path) -> None:
    """Seed 004: "man kann keine Flotte aus Cape Horn vertreiben" (no fleet can be driven out
    of Cape Horn)."""
    v = tiny_file(tmp_path, OPEN)
    out = adjudicate(v, units={"Red": ["F A1", "F N2"], "Blue": ["F S"]},
                     orders={"Red": ["F A1 - S", "F N2 S F A1 - S"]})
    assert out["dislodged"] == {}
    assert sorted(out["units"]["Red"]) == ["F N2", "F S"] and out["units"]["Blue"] == ["F S"]


def test_an_oncoming_fleet_does_not_keep_a_fleet_out(tmp_path) -> None:
    """Seed 004: "Flotten können nicht am Einzug in Cape Horn gehindert werden, auch nicht
    durch entgegen kommende Flotten."."""
    v = tiny_file(tmp_path, OPEN)
    out = adjudicate(v, units={"Red": ["F S"], "Blue": ["F B1"]},
                     orders={"Red": ["F S - B1"], "Blue": ["F B1 - S"]})
    assert out["units"] == {"Red": ["F B1"], "Blue": ["F S"]}


def test_fleets_leaving_an_open_space_may_be_supported(tmp_path) -> None:
    """Seed 004: "Flotten können beim Auszug der Flotten in den Atlantik und in der Pazifik
    unterstützt werden."."""
    v = tiny_file(tmp_path, OPEN)
    units = {"Red": ["F S", "F A1"], "Blue": ["F S", "F N2"]}
    orders = {"Red": ["F S - N2", "F A1 S F S - N2"], "Blue": ["F N2 H"]}
    out = adjudicate(v, units=units, orders=orders)
    assert out["dislodged"] == {"Blue": [{"unit": "F N2", "from": "S", "retreats": ["B1"]}]}
    assert sorted(out["units"]["Red"]) == ["F A1", "F N2"]
    # an open space is never full: a dislodged unit may retreat into it
    out = adjudicate(v, units={"Red": ["F A1", "F S"], "Blue": ["F N2", "F B1"]},
                     orders={"Red": ["F A1 - N2", "F S S F A1 - N2"]})
    assert out["dislodged"]["Blue"][0]["retreats"] == ["S"]


def test_armies_may_be_convoyed_through_an_open_space(tmp_path) -> None:
    """Seed 004: "Armeen können über Cape Horn transportiert werden" — and since "man kann
    keine Flotte aus Cape Horn vertreiben", an attack on the space does not disrupt the
    convoy."""
    v = tiny_file(tmp_path, OPEN)
    out = adjudicate(v, units={"Red": ["A A1", "F S"], "Blue": ["F S"]},
                     orders={"Red": ["A A1 - B1", "F S C A A1 - B1"]})
    assert "A B1" in out["units"]["Red"]
    # a fleet entering the space, even with support, neither dislodges nor disrupts
    out = adjudicate(v, units={"Red": ["A A1", "F S"], "Blue": ["F N2", "F B1"]},
                     orders={"Red": ["A A1 - B1", "F S C A A1 - B1"],
                             "Blue": ["F N2 - S", "F B1 - S"]})
    assert out["results"]["F S C A A1 - B1"] == [] and out["dislodged"] == {}
    assert sorted(out["units"]["Red"]) == ["A B1", "F S"]


def test_support_from_an_open_space_is_neither_cut_nor_lost(tmp_path) -> None:
    """Seed 004: "Es gibt kein Limit der einziehenden Flotten ... man kann keine Flotte aus
    Cape Horn vertreiben": a fleet entering the space meets nobody, so it cuts no support
    given from there, and the supporting fleet is not dislodged."""
    v = tiny_file(tmp_path, OPEN)
    units = {"Red": ["F A1", "F S"], "Blue": ["F N2", "F B1"]}
    orders = {"Red": ["F A1 - N2", "F S S F A1 - N2"], "Blue": ["F B1 - S"]}
    out = adjudicate(v, units=units, orders=orders)
    assert out["results"]["F S S F A1 - N2"] == []
    assert out["dislodged"] == {"Blue": [{"unit": "F N2", "from": "A1",
                                          "retreats": ["B1", "S"]}]}


# ---- a home gained by capture ------------------------------------------------------------

def test_the_first_captured_center_becomes_the_only_fleet_home() -> None:
    """Seed 004: "Um Flotten aufbauen zu können, muss die Indianer Föderation (Native
    Federation) Boston oder California erobern. Das erstbesetzte VZ wird zum Heimat-VZ. Nur
    in diesem VZ können Flotten gebaut werden."."""
    rule = '[rules.capture_home]\npower = "Red"\ncandidates = ["N2", "B1"]\nkind = "F"\n'
    text = TINY.replace('"F A1"', '"A A1"').replace("centers = 4", "centers = 9")
    g = Game.new(parse_variant(text + rule))
    play_year(g, {"Red": ["A A1 - N2", "A A2 - N1"]}, {})
    assert g.phase == "W1901A"
    legal = g.legal_orders("Red")
    assert "F N2 B" not in legal.get("N2", [])  # occupied anyway; A1 and A2 are free
    assert legal["A1"] == ["A A1 B", "WAIVE"]  # no fleet outside the captured home
    problems = g.set_orders("Red", ["F A1 B", "A A2 B"])
    assert problems == ["'F A1 B': the variant's rules allow no fleet in Alpha One now"]
    out = g.process()
    assert [r.result for r in out.results if r.text == "A A2 B"] == [[]]
    assert g.position.extra["capture_home"] == {"Red": "N2"}
    assert g.map.prov_index["N2"] in g.position.homes[g.power("Red")]
    play_year(g, {"Red": ["A N2 - A1"]}, {})
    assert g.phase == "W1902A"
    assert "F N2 B" in g.legal_orders("Red")["N2"]
    g.set_orders("Red", ["Build F Neutral Port"])
    g.process()
    assert "Red F N2" in units(g)


def test_two_candidates_taken_in_one_year_the_first_listed_becomes_home() -> None:
    """Seed 004: "Das erstbesetzte VZ wird zum Heimat-VZ" — both taken in the same year:
    the first listed (the module's reading)."""
    text = TINY.replace('"F A1"', '"A A1"').replace("centers = 4", "centers = 9")
    for candidates, home in ((["N2", "N1"], "N2"), (["N1", "N2"], "N1")):
        rule = (f'[rules.capture_home]\npower = "Red"\ncandidates = {candidates!r}\n'
                'kind = "F"\n').replace("'", '"')
        g = Game.new(parse_variant(text + rule))
        play_year(g, {"Red": ["A A1 - N2", "A A2 - N1"]}, {})
        assert g.position.extra["capture_home"] == {"Red": home}
        assert g.map.prov_index[home] in g.position.homes[g.power("Red")]


# ---- calendars ---------------------------------------------------------------------------

LAD_CALENDAR = """
[calendar]
start = "D1889A"
centers_change_after = "D"
seasons = [
  { name = "March-June", abbr = "A", phases = ["movement"] },
  { name = "June-September", abbr = "B", phases = ["retreats"] },
  { name = "September-December", abbr = "C", phases = ["movement"] },
  { name = "December-March", abbr = "D", phases = ["retreats", "adjustments"] },
]
"""


def test_a_four_phase_calendar_starting_with_a_build_phase() -> None:
    """Seed 001 (Latin American Diplomacy): "A: First Movement Phase (March-June), B: First
    Retreat Phase (June-September), C: Second Movement Phase (September-December), D: Second
    Retreat (/Build/Disband) Phase (December-March)", and "The first turn of the game will
    be a Phase D turn, a build turn"."""
    text = TINY.replace('units = ["F A1", "A A2"]', 'units = ["A A2"]') + LAD_CALENDAR
    g = Game.new(parse_variant(text.replace("centers = 4", "centers = 9")))
    assert g.phase == "D1889A"
    assert set(g.legal_orders("Red")) == {"A1"}  # one build due on the vacant home
    g.set_orders("Red", ["Build F A1"])
    g.process()
    assert g.phase == "A1890M"
    g.set_orders("Red", ["A A2 - N1"])
    g.process()
    assert g.phase == "C1890M"  # no retreat: B is skipped
    assert g.position.owners[g.map.prov_index["N1"]] == -1
    g.process()
    assert g.phase == "D1890A"  # centers changed after the second movement: a build due
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Red")


def test_a_game_starting_in_winter() -> None:
    """Seed 004 (War in North America): "Das Spiel beginnt im Winter 1859, die erste
    Spielphase ist Frühjahr 1860." (the game begins in Winter 1859; the first phase played
    is Spring 1860)."""
    text = TINY.replace('start = "S1901M"', "") + '\n[calendar]\nstart = "W1859A"\n'
    g = Game.new(parse_variant(text.replace("centers = 4", "centers = 9")))
    assert g.phase == "W1859A"
    g.process()
    assert g.phase == "S1860M"


def test_a_home_center_held_by_another_party_at_the_start() -> None:
    """Seed 004: "New York City (Nyc) ist ein Heimat-VZ der Vereinigten Staaten von Amerika,
    wird bei Spielstart aber aufgrund ziviler Unruhen von Aufständlern beherrscht. Das VZ muss
    erst zurückerobert werden, um in diesem Gebiet Aufbauten vornehmen zu können." (a home
    center held by rebels at the start must be retaken before builds there) — data only:
    the center is among the power's homes but owned by a neutral power."""
    text = (TINY.replace('homes = ["A1", "A2"]', 'homes = ["A1", "A2", "N1"]')
            .replace('units = ["F A1", "A A2"]', 'units = ["A A1", "A A2"]')
            .replace("centers = 4", "centers = 9")
            .replace('centers = ["A1", "A2"]', "") + NEUTRAL)
    g = Game.new(parse_variant(text))
    red, n1 = g.power("Red"), g.map.prov_index["N1"]
    assert n1 in g.position.homes[red]
    assert g.position.owners[n1] == g.power("Neutral")
    play_year(g, {"Red": ["A A1 - N2"]}, {"Red": ["A N2 - A1"]})
    assert g.phase == "S1902M"  # nothing to build while the rebels hold N1
    play_year(g, {"Red": ["A A1 - N2"]}, {"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    # the rebels are destroyed (neutral units do not retreat): no retreat phase
    assert g.position.owners[n1] == red
    assert g.phase == "W1902A"
    assert set(g.legal_orders("Red")) == {"A1", "A2"}  # N1 is Red's home again (occupied)


# ---- the hooks -----------------------------------------------------------------------------

def test_every_hook_is_called_and_every_hook_named_exists() -> None:
    """A hook a rule may implement is called by the engine (outside rules/), and the hooks a
    rule module's documentation names exist."""
    import re

    import polydip
    from polydip.rules.hookspec import HOOKS

    hooks = list(HOOKS)
    src = Path(polydip.__file__).parent
    engine = "\n".join(p.read_text() for p in src.rglob("*.py")  # (tables: the table hooks)
                       if "rules" not in p.parts or p.name == "tables.py")
    for hook in hooks:
        assert re.search(rf"rules\.{hook}\b", engine), f"hook {hook} is never called"
    for p in (src / "rules").glob("*.py"):
        for named in re.findall(r"the `(\w+)` hook", p.read_text()):
            assert named in hooks, f"{p.name} names a hook {named!r} that does not exist"


# ---- parameters --------------------------------------------------------------------------

PASSAGE = ('[[rules.controlled_passages.passage]]\nname = "P"\nedges = ["S-A1"]\n'
           'controllers = ["N2"]\n')


@pytest.mark.parametrize("rule, message", [
    ('[rules.build_sites]\nmode = "home"\n',
     "[rules.build_sites] unknown parameter(s) mode; this rule takes policy"),
    ('[rules.build_sites]\npolicy = "anywhere"\n',
     "[rules.build_sites] policy = 'anywhere' is not one of"),
    ('[rules.capture_home]\npower = "Green"\ncandidates = ["N2"]\n',
     "[rules.capture_home] unknown power 'Green' (powers: Red, Blue)"),
    ('[rules.capture_home]\npower = "Red"\ncandidates = ["S"]\n',
     "[rules.capture_home] 'S' is not a supply center"),
    ('[rules.capture_home]\npower = "Red"\ncandidates = ["ZZ"]\n',
     "[rules.capture_home] 'ZZ' is not a supply center"),
    ('[rules.capture_home]\npower = "Red"\ncandidates = ["N2"]\nkind = "Z"\n',
     "[rules.capture_home] kind = 'Z' is not one of 'A', 'F'"),
    ('[rules.controlled_passages]\npassage = ["S-A1"]\n',
     "[rules.controlled_passages] passage = ['S-A1']: a list of tables"),
    (PASSAGE.replace('controllers = ["N2"]\n', ""),
     "[rules.controlled_passages.passage[0]] needs name, edges and controllers"),
    (PASSAGE + 'colour = "red"\n',
     "[rules.controlled_passages.passage[0]] unknown key(s) ['colour']"),
    (PASSAGE.replace('"S-A1"', '"S-A1-N2"'),
     "[rules.controlled_passages.passage[0]] edge 'S-A1-N2' is not declared under [edges]"),
    (PASSAGE.replace("S-A1", "A1-B1"),
     "[rules.controlled_passages.passage[0]] edge 'A1-B1' is not declared under [edges]"),
    (PASSAGE.replace('["N2"]', '["ZZ"]'),
     "[rules.controlled_passages.passage[0]] unknown province 'ZZ'"),
    (PASSAGE + 'exempt = ["Z"]\n',
     "[rules.controlled_passages.passage[0]] exempt = ['Z']: a list of unit kinds (A, F)"),
    ('[[rules.events.join]]\nat = "W1867"\nprovince = "N1"\nfrom = "Red"\n',
     "[rules.events.join[0]] needs at, province, from and to"),
    ('[[rules.events.join]]\nat = "1867"\nprovince = "N1"\nfrom = "Red"\nto = "Blue"\n',
     "[rules.events.join[0]] at = '1867': write season and year, like W1867"),
    ('[[rules.events.join]]\nat = "X1867"\nprovince = "N1"\nfrom = "Red"\nto = "Blue"\n',
     "[rules.events.join[0]] at = 'X1867': write season and year"),
    ('[[rules.events.join]]\nat = "W1867"\nprovince = "N1"\nfrom = "Red"\nto = "Green"\n',
     "[rules.events.join[0]] unknown power 'Green'"),
    ('[[rules.events.join]]\nat = "W1867"\nprovince = "N1"\nfrom = "Green"\nto = "Red"\n',
     "[rules.events.join[0]] unknown power 'Green'"),
    ('[[rules.events.join]]\nat = "W1867"\nprovince = "ZZ"\nfrom = "Red"\nto = "Blue"\n',
     "[rules.events.join[0]] unknown province 'ZZ'"),
    (NEUTRAL + 'retreat_to_free_center = ["ZZ"]\n',
     "[rules.neutral_units] unknown province 'ZZ'"),
    ("[rules.neutral_units]\n", "[rules.neutral_units] no power has neutral = true"),
    ('[rules.no_swap]\npairs = ["A1"]\n', "[rules.no_swap] 'A1': write two provinces"),
    ('[rules.no_swap]\npairs = ["A1-ZZ"]\n', "[rules.no_swap] 'A1-ZZ': write two provinces"),
    ('[rules.no_swap]\npairs = ["ZZ-A1"]\n', "[rules.no_swap] 'ZZ-A1': write two provinces"),
    ('[rules.open_spaces]\nprovinces = ["ZZ"]\n', "[rules.open_spaces] unknown province 'ZZ'"),
    ('[rules.no_swap]\npairs = ["A1-N2-B1"]\n', "[rules.no_swap] 'A1-N2-B1': write two"),
    ("[rules.open_space]\n", "[rules.open_space] unknown rule (did you mean open_spaces?)"),
    ('[rules.capture_home]\ncandidates = ["N2"]\n',
     "[rules.capture_home] needs power = a power"),
    *[(f"[rules.{name}]\ncolour = 1\n", f"[rules.{name}] unknown parameter(s) colour; "
       f"this rule takes {takes}")
      for name, takes in (("build_sites", "policy"), ("capture_home", "power, candidates"),
                          ("controlled_passages", "passage"), ("events", "join"),
                          ("neutral_units", "retreat_to_free_center"), ("no_swap", "pairs"),
                          ("open_spaces", "provinces"))],
])
def test_a_rule_with_wrong_parameters_is_an_error_naming_the_file_and_key(
        rule: str, message: str) -> None:
    with pytest.raises(VariantError) as exc:
        Game.new(parse_variant(TINY + "\n" + rule, "tiny.toml"))
    assert str(exc.value).startswith("tiny.toml: ") and message in str(exc.value)


def test_rules_without_parameters_change_nothing() -> None:
    """Each rule module, switched on with nothing to do, plays like the standard rules."""
    for rule in ("[rules.events]\n", "[rules.no_swap]\n", "[rules.open_spaces]\n",
                 "[rules.controlled_passages]\n", "[rules.build_sites]\n",
                 '[rules.capture_home]\npower = "Blue"\n'):
        g = tiny(rule, **NO_WIN)
        play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
        assert g.phase == "W1901A", rule
        assert g.legal_orders("Red") == {"A1": ["A A1 B", "F A1 B", "WAIVE"],
                                         "A2": ["A A2 B", "WAIVE"]}, rule


def test_every_rule_module_is_known_and_a_bare_rule_changes_nothing() -> None:
    """Every module in rules/ registers its rule; the hooks of the base class are the
    standard rules ("nothing to change")."""
    import polydip.rules as rules_pkg
    from polydip.rules import known_rules
    from polydip.rules.base import Rule

    files = ({p.stem for p in Path(rules_pkg.__file__).parent.glob("*.py")}
             - {"__init__", *rules_pkg.INFRASTRUCTURE})
    assert set(known_rules()) == files
    bare = Rule({}, parse_variant(TINY), "rules.bare")
    assert (bare.build_sites(None, None, 0),
            bare.before_phase(None, None, None), bare.unit_holds(None, None, None),
            bare.retreat(None, None, None), bare.retreat_orders(None, None),
            bare.blocked(None, None, {}), bare.open_spaces(), bare.no_swap_pairs(),
            bare.centers_changed(None, None), bare.may_build(None, None, 0, 0, 0)) == (
        None, [], False, None, {}, {}, set(), set(), None, None)


def test_capture_home_defaults_and_a_candidate_already_home(tmp_path) -> None:
    """Seed 004: "Nur in diesem VZ können Flotten gebaut werden" — `kind` is the fleet when
    not given; before any capture the power builds no fleet at all; a candidate the power
    already holds as a home becomes the capture home without being listed twice."""
    text = TINY.replace('"F A1"', '"A A1"').replace("centers = 4", "centers = 9")
    g = Game.new(parse_variant(text + '[rules.capture_home]\npower = "Red"\n'
                                      'candidates = ["B1"]\n'))
    play_year(g, {"Red": ["A A1 - N2"]}, {"Red": ["A N2 - A1"]})  # N2 gained, not a candidate
    assert "capture_home" not in g.position.extra or not g.position.extra["capture_home"]
    play_year(g, {"Red": ["A A2 - N1"]}, {})
    assert g.phase == "W1902A"
    assert g.legal_orders("Red")["A2"] == ["A A2 B", "WAIVE"]  # no fleet before a capture
    g = Game.new(parse_variant(text + '[rules.capture_home]\npower = "Red"\n'
                                      'candidates = ["A1"]\n'))
    play_year(g, {"Red": ["A A1 - N2"]}, {})
    red, a1 = g.power("Red"), g.map.prov_index["A1"]
    assert g.position.extra["capture_home"] == {"Red": "A1"}
    assert g.position.homes[red].count(a1) == 1
    assert g.legal_orders("Red")["A1"] == ["A A1 B", "F A1 B", "WAIVE"]
    # a winter position given on its own, before any capture: no fleet built
    path = tmp_path / "capture.toml"
    path.write_text(text + '[rules.capture_home]\npower = "Red"\ncandidates = ["N2"]\n')
    out = adjudicate(str(path), phase="W1901A", units={"Blue": ["F B1"]},
                     centers={"Red": ["A1", "A2"], "Blue": ["B1"]},
                     orders={"Red": ["F A1 B", "A A2 B"]})
    assert out["results"] == {"F A1 B": ["void"], "A A2 B": []}


EVENTS_MAP = {**WILD,
              'homes = ["B1"]': 'homes = ["B1"]\ncenters = ["B1", "N2"]',
              'units = ["F B1"]': 'units = ["F B1"]\n\n[[powers]]\nname = "Neutral"\n'
              'letter = "N"\nneutral = true\nunits = ["A N1", "A W1"]\ncenters = ["N1"]'}


def test_events_fire_on_their_date_each_on_its_own() -> None:
    """Seed 004: "Wurde das russische Alaska (Ala) bis zum Winter 1867 nicht erobert, so
    schließt sich dieses Gebiet automatisch den Vereinigten Staaten von Amerika an. Die
    neutrale Armee in Alaska steht dann unter der Flagge der Vereinigten Staaten!" — several
    joins, listed in any order; a province without a center joins with its army; one no
    longer held does not join, and the others still do; only the units in the province
    change sides."""
    joins = "".join(f'[[rules.events.join]]\nat = "{at}"\nprovince = "{prov}"\n'
                    f'from = "Neutral"\nto = "Blue"\n'
                    for at, prov in (("W1903", "N1"), ("W1902", "N2"), ("W1902", "W1")))
    text = TINY.replace("centers = 4", "centers = 9")
    for old, new in EVENTS_MAP.items():
        text = text.replace(old, new)
    g = Game.new(parse_variant(text + "[rules.neutral_units]\n" + joins))
    for _ in range(2):
        play_year(g, {}, {})
    assert g.phase == "S1903M"
    # W1902: N2 is Blue's, not the neutral power's: it does not join; W1 (no center) does,
    # with its army; the neutral army in N1 stays neutral until W1903
    assert g.position.extra["log"] == ["W1902A: N2 was conquered: it does not join Blue",
                                       "W1902A: W1 joins Blue"]
    assert {"Blue A W1", "Neutral A N1"} <= units(g)
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Neutral")
    play_year(g, {}, {})
    assert {"Blue A W1", "Blue A N1"} <= units(g)
    assert g.position.owners[g.map.prov_index["N1"]] == g.power("Blue")


def test_the_rule_set_calls_each_hook_of_every_rule_that_has_it() -> None:
    """RuleSet hands each hook to the rules that implement it, with the map and the
    position; events of several rules add up; the first rule with an answer decides build
    sites and permissions; retreats pass through every rule."""
    from polydip.rules.base import Rule, RuleSet

    calls: list[tuple] = []

    class Recorder(Rule):
        def before_phase(self, m, pos, phase):
            return [f"{self.key} {m} {pos} {phase}"]

        def unit_holds(self, m, pos, unit):
            calls.append(("unit_holds", self.key, m, pos, unit))
            return self.key == "second"

        def retreat(self, m, pos, d):
            return f"{d}+{self.key}:{m}:{pos}"

        def centers_changed(self, m, pos):
            calls.append(("centers_changed", self.key, m, pos))

    v = parse_variant(TINY)
    rs = RuleSet([Recorder({}, v, "first"), Rule({}, v, "bare"), Recorder({}, v, "second")])
    rs.centers_changed("m", "pos")
    assert calls == [("centers_changed", "first", "m", "pos"),
                     ("centers_changed", "second", "m", "pos")]
    assert rs.before_phase("m", "pos", "W1901A") == ["first m pos W1901A",
                                                     "second m pos W1901A"]
    calls.clear()
    assert rs.implements("unit_holds") and rs.unit_holds("m", "pos", "unit") is True
    assert calls[-1] == ("unit_holds", "second", "m", "pos", "unit")
    assert rs.retreat("m", "pos", "d") == "d+first:m:pos+second:m:pos"
    assert not RuleSet([Rule({}, v, "bare")]).implements("unit_holds")


@pytest.mark.parametrize("policy, sites", [
    ("home", ["A1", "A2"]),  # vacant owned homes
    ("owned", ["A1", "A2", "N1", "N2"]),  # any vacant center owned now
    ("owned_at_year_start", ["A1", "A2", "N2"]),  # owned now and when the year began
])
def test_build_site_policies_on_a_given_position(tmp_path, policy: str, sites) -> None:
    """Seed 000 (War in the Americas): "units may be built on any supply center owned by a
    power at the beginning of the year" — against the standard home centers and any owned
    center, on a winter position given with the centers owned when the year began."""
    v = tiny_file(tmp_path, f'[rules.build_sites]\npolicy = "{policy}"\n',
                  **{"centers = 4": "centers = 9"})
    req = {"phase": "W1901A", "units": {"Red": [], "Blue": ["F B1"]},
           "centers": {"Red": ["A1", "A2", "N1", "N2"], "Blue": ["B1"]},
           "year_start_centers": {"Red": ["A1", "A2", "N2"], "Blue": ["B1", "N1"]},
           "orders": {"Red": [f"A {s} B" for s in ("A1", "A2", "N1", "N2")]}}
    out = adjudicate(v, **req)
    built = sorted(u.split()[1] for u in out["units"].get("Red", []))
    assert built == sites
    # without year_start_centers, the year began with the centers owned now
    out = adjudicate(v, **{k: w for k, w in req.items() if k != "year_start_centers"})
    built = sorted(u.split()[1] for u in out["units"].get("Red", []))
    assert built == (["A1", "A2"] if policy == "home" else ["A1", "A2", "N1", "N2"])


def test_the_first_free_center_is_the_first_by_name_not_by_place_in_the_file(tmp_path) -> None:
    """Seed 004: "Die Armee in Alaska (Ala) versucht sich in ein freies VZ zurückzuziehen" —
    which one, when several are free, the rule does not say: the first in alphabetical
    order (the module's reading), whatever order the file declares them in."""
    extra = {"[edges]": '[provinces.A0]\nname = "Aleph"\nterrain = "land"\nsupply_center = true'
                        '\n\n[edges]',
             'land = ["A1-A2",': 'land = ["N1-A0", "A1-A2",',
             "supply_centers = 6\nprovinces = 6": "supply_centers = 7\nprovinces = 7"}
    v = tiny_file(tmp_path, NEUTRAL + 'retreat_to_free_center = ["N1"]\n', **extra)
    units = {"Neutral": ["A N1"], "Red": ["A A2", "A N2"]}
    out = adjudicate(v, units=units, orders={"Red": ["A A2 - N1", "A N2 S A A2 - N1"]})
    assert sorted(out["dislodged"]["Neutral"][0]["retreats"]) == ["A0", "B1"]
    nxt = adjudicate(v, phase=out["next_phase"], units=out["units"],
                     dislodged={"Neutral": [{"unit": "A N1", "from": "A2"}]})
    assert nxt["units"]["Neutral"] == ["A A0"]
    assert nxt["results"] == {"A N1 R A0": []}
