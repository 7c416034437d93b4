"""`names.suggest`, the "did you mean" of every misspelled name: its shortcuts (difflib's
cheap upper bounds tried first, answers kept per word) give exactly the names the plain
scoring gives."""

from __future__ import annotations

import difflib
import random

import pytest

from polydip.game.game import Game
from polydip.names import name_key, suggest


def plain_suggest(typed: str, names: list[str], n: int = 4) -> list[str]:
    """The scoring as written down: every name compared letter by letter, its whole key and
    each of its words of four letters or more."""
    key = name_key(typed)
    if not key:
        return []
    typed_words = [w for w in key.split() if len(w) >= 4]
    letters = len(key.replace(" ", ""))
    scored: dict[str, float] = {}
    for name in names:
        k = name_key(name)
        score = difflib.SequenceMatcher(None, key, k).ratio()
        for w in k.split():
            if len(w) >= 4:
                for tw in typed_words:
                    near = difflib.SequenceMatcher(None, tw, w).ratio()
                    score = max(score, near * (len(tw) / letters) ** 0.5 - 0.02)
        if score >= 0.72 and score > scored.get(name, 0):
            scored[name] = score
    best = sorted(scored, key=lambda x: (-scored[x], x))
    if not best:
        return []
    return [b for b in best if scored[b] >= scored[best[0]] - 0.12][:n]


def typos(rng: random.Random, name: str) -> str:
    w = list(name)
    for _ in range(rng.randint(0, 3)):
        i = rng.randrange(len(w))
        op = rng.random()
        if op < 0.3:
            w[i] = rng.choice("abcdefghijklmnopqrstuvwxyz")
        elif op < 0.6:
            del w[i]
        else:
            w.insert(i, rng.choice("aeiou "))
        w = w or ["x"]
    return "".join(w)


@pytest.mark.parametrize("variant", ["standard", "wita", "lad1890"])
def test_suggestions_are_those_of_the_plain_scoring(variant):
    m = Game.new(variant).map
    names = m.prov_name + [a for p in m.variant.provinces.values() for a in p.aliases]
    rng = random.Random(7)
    found = 0
    for _ in range(30):
        typed = typos(rng, rng.choice(names))
        for pool in (names, names + m.prov_abbr):
            got = suggest(typed, pool)
            assert got == plain_suggest(typed, pool), typed
            found += bool(got)
    assert found > 25  # (the typos are close enough to be recognised, mostly)


def test_a_word_of_the_name_is_enough():
    """'Carribean' finds the places whose names hold 'Caribbean'."""
    m = Game.new("wita").map
    got = suggest("Carribean", m.prov_name)
    assert got and all("Caribbean" in g for g in got)
    assert suggest("Carribean", m.prov_name) == got  # (kept: the same answer again)
    assert suggest("", m.prov_name) == [] and suggest("zzzzqqqq", m.prov_name) == []
