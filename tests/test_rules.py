"""Rule modules, on small maps written for the purpose; each test quotes the rule it checks."""

from __future__ import annotations

from pathlib import Path

import pytest

from polydip.errors import PolydipError, VariantError
from polydip.game.game import Game
from polydip.variants.loader import parse_variant

TINY = (Path(__file__).parent / "variants" / "tiny.toml").read_text()


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
    assert g.set_orders("Red", ["A N1 B"]) == []  # accepted as an order, judged on processing
    out = g.process()
    assert [r.result for r in out.results if r.text == "A N1 B"] == [["void"]]


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


# ---- victory -----------------------------------------------------------------------------

def test_victory_at_n_centers_after_the_fall() -> None:
    g = tiny()
    play_year(g, {"Red": ["A A2 - N1", "F A1 - N2"]}, {})
    assert g.status == "won" and g.winners == [g.power("Red")]  # 4 of 6


def test_victory_preset_more_than_any_other() -> None:
    """Seed 000 (issue 4): PlayDiplomacy's "24 centers and more than any other power" as a
    named alternative to the default victory condition."""
    extra = "[victory.presets.strict]\ncenters = 3\nmore_than_others = true\n"
    for option, result in (("default", "active"), ("strict", "won")):
        g = tiny(extra, **NO_WIN)
        g.options["victory"] = option
        play_year(g, {"Red": ["A A2 - N1"], "Blue": ["F B1 - N2"]}, {})
        assert g.status == result  # Red 3 centers, Blue 2
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
