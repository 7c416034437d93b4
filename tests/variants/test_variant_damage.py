"""A damaged variant file gives a VariantError naming the problem, never a traceback."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from polydip.check import check_variant
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.variants.loader import parse_variant

STANDARD = (Path(__file__).parents[2] / "src" / "polydip" / "variants" / "data"
            / "standard.toml").read_text()
JUNK = ['"x"', "1", "true", "[]", "{}", '"PAR-XXX"', '"A XXX"', '["A"]', '"F STP"', "-5",
        '"S1901R"', "[1, 2]", "{ NC = 3 }", "[[1]]"]


def test_random_damage_never_crashes() -> None:
    rng = random.Random(8)
    lines = STANDARD.splitlines()
    for _ in range(400):
        damaged = list(lines)
        for _ in range(rng.randint(1, 3)):
            j = rng.randrange(len(damaged))
            r = rng.random()
            if r < 0.3:
                del damaged[j]
            elif r < 0.6 and "=" in damaged[j]:
                damaged[j] = damaged[j].split("=")[0] + "= " + rng.choice(JUNK)
            else:
                damaged.insert(j, damaged[rng.randrange(len(damaged))])
        try:
            v = parse_variant("\n".join(damaged), "damaged.toml")
            check_variant(v)
            g = Game.new(v)
            g.legal_orders()
            g.process()
        except PolydipError:
            pass


@pytest.mark.parametrize(("old", "new", "message"), [
    ("coords = [43.00, 15.50]", 'coords = "Adriatic"', "two numbers"),
    ('terrain = "land"', 'terrain = "lnad"', "did you mean land"),
    ("[victory]", "[victroy]", "unknown section"),
])
def test_damage_is_named(old: str, new: str, message: str) -> None:
    assert old in STANDARD
    with pytest.raises(PolydipError, match=message):
        parse_variant(STANDARD.replace(old, new, 1), "damaged.toml")
