"""The attack order: a unit that attacks the units of one power in a space where units meet
only when one attacks another (Latin American Diplomacy's oceans, rules/oceans.py).

    F MAO - EAO AT BRAZIL      move into the space and attack Brazil's units there
    F PBS AT PERU              attack Peru's units in the space without moving
    F BER S F BMT - SSE AT SPAIN   a support that names the attack it supports (optional)

"AT", "attack" and "attacks" introduce the power, written as the variant names it (name,
adjective, alias or letter); the seed's "A Brazil" (its example 2) reads too. An attack is an
ordinary move or hold with `Order.at` set: written back with " AT POWER", described as
"attack Brazil's units", listed by the legal orders where the space has an attack rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from polydip.names import possessive

if TYPE_CHECKING:  # annotations only
    from polydip.geography.map import Map
    from polydip.state import Unit

KW_AT = {"at", "attack", "attacks"}


def read_power(m: Map, words: list[str], loose: bool = False) -> int:
    """The power that `words` (the rest of an order after its attack word) name, or -1.
    `loose`: the attack word was the seed's "A", so the words must name a power by name
    (not by a one-letter abbreviation)."""
    if not words or (loose and len(words) == 1 and len(words[0]) == 1):
        return -1
    got = m.find_power(" ".join(words))
    return -1 if got is None else got


def attack_words(m: Map, power: int) -> str:
    """' AT BRAZIL': the attack suffix of an order in the diplomacy notation."""
    return f" AT {m.powers[power].upper()}" if power >= 0 else ""


def attack_prose(m: Map, power: int) -> str:
    """", attacking Brazil's units": the suffix of an order described in words."""
    return f", attacking {possessive(m.powers[power])} units" if power >= 0 else ""


def rivals(m: Map, units: list) -> dict[int, list[int]]:
    """For each attack space (rules/oceans.py) a unit stands in or could move into, the
    powers with a unit there or next to it, in order: the powers an attack there may name
    in the legal orders."""
    space = m.tables.attack_space
    near: dict[int, set[int]] = {}
    for u in units:
        p = m.loc_prov[u.loc]
        if space[p]:
            near.setdefault(p, set()).add(u.power)
        for q in m.reach_prov[u.kind][u.loc]:
            if space[q]:
                near.setdefault(q, set()).add(u.power)
    return {p: sorted(s) for p, s in near.items()}


def attack_orders(m: Map, unit: Unit, us: str, dests: list[int],
                  near: dict[int, list[int]]) -> list[str]:
    """The attack orders of `unit` (written `us`): in its attack space against each rival
    power, and with each move in `dests` that enters an attack space."""
    power = unit.power
    out: list[str] = []
    here = m.loc_prov[unit.loc]
    if m.tables.attack_space[here]:
        out += [f"{us}{attack_words(m, q)}" for q in near.get(here, ()) if q != power]
    for d in dests:
        p = m.loc_prov[d]
        if m.tables.attack_space[p]:
            out += [f"{us} - {m.loc_name[d]}{attack_words(m, q)}"
                    for q in near.get(p, ()) if q != power]
    return out


def space_supports(m: Map, unit: Unit, us: str, units: list[Unit],
                   moves_into: Callable[[Unit], frozenset[int]],
                   may_hold: Callable[[int, int], bool]) -> list[str]:
    """Supports that `unit`, standing in an attack space, gives into its own space: to hold
    each other unit there (`may_hold(kind, province)`), and to each unit that may move in
    (`moves_into(unit)`: the provinces it may move to now)."""
    here = m.loc_prov[unit.loc]
    out = []
    for v in units:
        if v is unit:
            continue
        them = m.unit_str(v.kind, v.loc)
        if m.loc_prov[v.loc] == here:
            if may_hold(v.kind, here):
                out.append(f"{us} S {them}")
        elif here in moves_into(v):
            out.append(f"{us} S {them} - {m.prov_abbr[here]}")
    return out
