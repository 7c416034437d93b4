"""The order-line corpus (issue 27, "Lines that vanish today"): lines as players type them on
the five built-in variants, each with the reading it must give. A line is read as an order
(its canonical text, Order.format), read as a heading naming a power, reported with a problem
code (game/message.py PROBLEM_CODES), or ignored as prose; never silently ignored when it is
meant as an order.

The corpus lives in tests/data/order_corpus/*.toml: each file names a variant, optionally the
position the lines are read in (as the one-shot contract writes one), and groups of lines, each
group read for a power named before it (as a message's heading would), or for none:

    [[group]]
    power = "Chile"
    lines = [
      ["F Peru Basin - East Pacific Rise (AT Chile)", "F PBS - EPR AT CHILE"],
      ["Hello GM", "prose"],
      ["A Lima - Xyz", "reported:unknown_place"],
      ["CHILE 1891A (March-June)", "heading:Chile"],
    ]

Run as a script it prints the figures for the issue's note (read as meant, read otherwise,
reported, silently ignored), and it runs on older code too (LineProblem without a code):

    PYTHONPATH=src python tests/orders/test_order_corpus.py
"""

from __future__ import annotations

import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from polydip.game.game import Game
from polydip.game.message import read_message

CORPUS = Path(__file__).parents[1] / "data" / "order_corpus"


_CACHE: dict[str, Game] = {}


def _spec(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def _game(path: Path) -> Game:
    """The game a corpus file's lines are read in (made once per file)."""
    key = str(path)
    if key not in _CACHE:
        spec = _spec(path)
        g = Game.new(spec["variant"])
        if "position" in spec:
            from polydip.game.positions import build_position

            g.position = build_position(g.map, spec["position"])
        _CACHE[key] = g
    return _CACHE[key]


def cases() -> list[tuple[Path, str | None, str, str]]:
    """(file, power, line, expected reading) for every line of the corpus."""
    out = []
    for path in sorted(CORPUS.glob("*.toml")):
        spec = _spec(path)
        for group in spec.get("group", []):
            for text, expected in group["lines"]:
                out.append((path, group.get("power"), text, expected))
    return out


def reading(path: Path, power: str | None, text: str) -> str:
    """What the reader makes of `text` said after a heading naming `power` (or none): the
    order(s) read ("Texas: A ELP H" when the line names another power), "reported:CODE",
    "heading:POWER" or "prose"."""
    g = _game(path)
    m = g.map
    default = m.find_power(power) if power else None
    msg = read_message(m, g.position, text, default)
    if msg.orders:
        return " | ".join(("" if o.power == default else f"{m.powers[o.power]}: ")
                          + o.order.format(m) for o in msg.orders)
    if msg.problems:  # (older code had no codes: "?")
        return "reported:" + (getattr(msg.problems[0], "code", "") or "?")
    heads = msg.powers[1:] if default is not None else msg.powers
    if heads:
        return "heading:" + m.powers[heads[-1]]
    return "prose"


ALL = cases()


def test_the_corpus_is_large_and_covers_every_variant() -> None:
    variants = Counter(_spec(p)["variant"] for p, *_ in ALL)
    assert len(ALL) >= 300
    assert set(variants) == {"standard", "wita", "lad1890", "twentieth_century",
                             "war_in_north_america"}


@pytest.mark.parametrize(("path", "power", "text", "expected"), ALL,
                         ids=[f"{p.stem}:{t}" for p, _w, t, _e in ALL])
def test_a_line_reads_as_the_player_meant(path: Path, power: str | None, text: str,
                                          expected: str) -> None:
    assert reading(path, power, text) == expected


def figures() -> Counter:
    """How the corpus reads: read as meant / read otherwise / reported / ignored as prose /
    silently ignored (a line meant as an order, or reported, that was ignored)."""
    out: Counter = Counter()
    for path, power, text, expected in ALL:
        got = reading(path, power, text)
        if got == "prose":
            out["ignored as prose" if expected == "prose" else "silently ignored"] += 1
        elif got.startswith("reported:"):
            out["reported" if expected.startswith("reported:") else
                "reported (meant as read)" if expected != "prose" else "reported (prose)"] += 1
        elif got == expected:
            out["read as meant"] += 1
        else:
            out["read otherwise"] += 1
    return out


if __name__ == "__main__":
    f = figures()
    print(f"{len(ALL)} lines")
    for k in ("read as meant", "read otherwise", "reported", "reported (meant as read)",
              "reported (prose)", "ignored as prose", "silently ignored"):
        print(f"  {k}: {f[k]}")
    sys.exit(0)
