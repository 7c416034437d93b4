"""Players for simulation: a function that chooses one order code per item of a phase.

A player is any callable `player(game, rng) -> list[int]`: `game` is the FastGame in play
(`game.legal()`, `game.items()`, `game.table`, `game.position`, `game.m`), `rng` the
game's own `random.Random` (seeded from the game's seed: a player that draws all its
randomness from it keeps the simulation reproducible). It returns one code per item, -1 for
no order (docs/fastpath.md). Named players: `random`, `hold`, `coherent`, `bot`
(simulate/bot.py); any other name `module:function` is imported. A seat list
`POWER=NAME,...,NAME` gives the named powers their own player and the others the last, bare
name (`FRANCE=bot,random`: France is the bot, every other power random).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Any

from polydip.errors import PolydipError
from polydip.orders.model import HOLD, MOVE, RETREAT, SUPPORT
from polydip.simulate.bot import bot_player

Player = Callable[[Any, random.Random], list[int]]


def random_player(game: Any, rng: random.Random) -> list[int]:
    """A legal order chosen uniformly for each unit; in an adjustment phase, distinct builds
    (a build site is used once) and distinct removals."""
    if game.phase_type == "A":
        return _adjustments(game, rng, sensible=False)
    return [rng.choice(codes) if codes else -1 for codes in game.legal()]


def hold_player(game: Any, rng: random.Random) -> list[int]:
    """Every unit holds (no order); dislodged units are disbanded, builds are waived and
    removals left to civil disorder."""
    return [-1] * len(game.items())


def coherent_player(game: Any, rng: random.Random) -> list[int]:
    """A random player that plays as one side: it never moves onto, or supports a move onto,
    a province its own units hold or are moving to; its supports back its own units' orders
    (a support of a move only when the move is ordered); two of its units never retreat to
    the same place; it builds at distinct sites and removes units off centers first. It does
    not convoy."""
    typ = game.phase_type
    if typ == "A":
        return _adjustments(game, rng, sensible=True)
    if typ == "R":
        return _retreats(game, rng)
    return _movement(game, rng)


def _movement(game: Any, rng: random.Random) -> list[int]:
    m, t, pos = game.m, game.table, game.position
    legal, items = game.legal(), game.items()
    orders = t.orders
    loc_prov = m.loc_prov
    codes = [-1] * len(items)
    by_power: dict[int, list[int]] = {}
    for k, (p, _i) in enumerate(items):
        if legal[k]:
            by_power.setdefault(p, []).append(k)
    for ks in by_power.values():
        rng.shuffle(ks)
        held = {loc_prov[pos.units[items[k][1]].loc] for k in ks}  # own units' provinces
        claimed: set[int] = set()  # provinces own units will stand in
        goal: dict[int, int] = {}  # province a unit stands in → province it will stand in
        # first the units that move or hold: a move goes to no province an own unit holds
        # or is going to (own units are never attacked nor bounced against each other)
        for k in ks:
            here = loc_prov[pos.units[items[k][1]].loc]
            moves = [c for c in legal[k] if orders[c].type == MOVE and not orders[c].via
                     and loc_prov[orders[c].target] not in held
                     and loc_prov[orders[c].target] not in claimed]
            if moves and rng.random() < 0.6:
                c = rng.choice(moves)
                codes[k] = c
                goal[here] = loc_prov[orders[c].target]
                claimed.add(goal[here])
            else:
                goal[here] = here
                claimed.add(here)
        # then about a third of the holding units support an own unit's order instead
        for k in ks:
            here = loc_prov[pos.units[items[k][1]].loc]
            if codes[k] >= 0 or rng.random() >= 0.35:
                continue
            backing = []
            for c in legal[k]:
                o = orders[c]
                if o.type != SUPPORT:
                    continue
                them = loc_prov[o.aux_loc] if o.aux_loc is not None else -1
                if them == here or them not in held or them not in goal:
                    continue
                to = loc_prov[o.target] if o.target is not None else them
                if goal[them] == to and (o.target is None or goal[them] != them):
                    backing.append(c)
            if backing:
                codes[k] = rng.choice(backing)
            else:
                holds = [c for c in legal[k] if orders[c].type == HOLD]
                codes[k] = holds[0] if holds else -1
        for k in ks:  # a unit left without an order holds explicitly
            if codes[k] < 0:
                holds = [c for c in legal[k] if orders[c].type == HOLD]
                codes[k] = holds[0] if holds else -1
    return codes


def _retreats(game: Any, rng: random.Random) -> list[int]:
    orders, loc_prov = game.table.orders, game.m.loc_prov
    codes = []
    taken: dict[int, set[int]] = {}
    for (p, _i), legal in zip(game.items(), game.legal(), strict=True):
        mine = taken.setdefault(p, set())
        places = [c for c in legal if orders[c].type == RETREAT
                  and loc_prov[orders[c].target] not in mine]
        if places:
            c = rng.choice(places)
            mine.add(loc_prov[orders[c].target])
            codes.append(c)
        else:
            codes.append(-1)  # disbanded
    return codes


def _adjustments(game: Any, rng: random.Random, sensible: bool) -> list[int]:
    """Builds at distinct sites (a waive only when none is left), removals of distinct units
    (sensible: units off supply centers first)."""
    t, m = game.table, game.m
    orders = t.orders
    codes = []
    used: dict[int, set[int]] = {}  # per power: provinces built at or units removed
    for (p, _i), legal in zip(game.items(), game.legal(), strict=True):
        mine = used.setdefault(p, set())
        free = [c for c in legal if c != t.waive and m.loc_prov[orders[c].loc] not in mine]
        if not free:
            codes.append(t.waive if t.waive in legal else -1)
            continue
        if sensible and orders[free[0]].type != "B":
            off = [c for c in free if not m.is_sc[m.loc_prov[orders[c].loc]]]
            free = off or free
        c = rng.choice(free)
        mine.add(m.loc_prov[orders[c].loc])
        codes.append(c)
    return codes


PLAYERS: dict[str, Player] = {
    "random": random_player,
    "hold": hold_player,
    "coherent": coherent_player,
    "bot": bot_player,
}


def load_player(name: str) -> Player:
    """A named player, `module:function` imported, or a seat list (`FRANCE=bot,random`)."""
    if "=" in name:
        return _seats(name)
    if name in PLAYERS:
        return PLAYERS[name]
    if ":" not in name:
        raise PolydipError(f"unknown player {name!r}: use one of {', '.join(PLAYERS)} or "
                           "module:function")
    mod_name, _, fn_name = name.partition(":")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as exc:
        raise PolydipError(f"player {name!r}: cannot import {mod_name!r} ({exc})") from None
    fn = getattr(mod, fn_name, None)
    if not callable(fn):
        raise PolydipError(f"player {name!r}: {mod_name!r} has no function {fn_name!r}")
    return fn


class _Seat:
    """A game as one player of a seat list sees it: the items of other powers have no legal
    orders, so the player leaves them alone (and draws nothing from the rng for them)."""

    __slots__ = ("_items", "_legal", "m", "phase_type", "position", "table")

    def __init__(self, game: Any, powers: set[int] | None, others: set[int]) -> None:
        self.m, self.table, self.position = game.m, game.table, game.position
        self.phase_type = game.phase_type
        self._items = game.items()
        self._legal = [codes if (p in powers if powers is not None else p not in others)
                       else [] for (p, _i), codes in zip(self._items, game.legal(), strict=True)]

    def items(self) -> list[tuple[int, int]]:
        return self._items

    def legal(self) -> list[list[int]]:
        return self._legal


def _seats(spec: str) -> Player:
    """A player per power: `POWER=NAME,...` and one bare NAME for every other power."""
    named: list[tuple[str, Player]] = []
    rest: Player | None = None
    for part in spec.split(","):
        part = part.strip()
        power, eq, who = part.partition("=")
        if not eq:
            if rest is not None or not part:
                raise PolydipError(f"player {spec!r}: give one player for the other powers "
                                   "(e.g. FRANCE=bot,random)")
            rest = load_player(part)
            continue
        if not power.strip() or not who.strip() or "=" in who:
            raise PolydipError(f"player {spec!r}: {part!r} is not POWER=PLAYER")
        named.append((power.strip(), load_player(who.strip())))
    if rest is None:
        raise PolydipError(f"player {spec!r}: end with the player of the other powers "
                           "(e.g. FRANCE=bot,random)")
    other = rest

    def seats(game: Any, rng: random.Random) -> list[int]:
        players = seat_powers(game.m, [n for n, _ in named])
        codes = [-1] * len(game.items())
        mine: set[int] = set()
        for (_n, player), p in zip(named, players, strict=True):
            mine.add(p)
            _merge(codes, player(_Seat(game, {p}, set()), rng))
        _merge(codes, other(_Seat(game, None, mine), rng))
        return codes

    seats.powers = [n for n, _ in named]  # type: ignore[attr-defined]
    seats.spec = spec  # type: ignore[attr-defined]  # (named so in a player's errors)
    return seats


def play_for(player: Player, game: Any, power: int, rng: random.Random) -> list[int]:
    """The codes `player` chooses for `power`'s items alone (-1 for every other item): what
    a bot seat of the host orders. The player sees the position and its own legal orders,
    nothing of another power's orders."""
    codes = [-1] * len(game.items())
    _merge(codes, player(_Seat(game, {power}, set()), rng))
    return codes


def _merge(codes: list[int], more: list[int]) -> None:
    for k, c in enumerate(more):
        if c >= 0:
            codes[k] = c


def seat_powers(m: Any, names: list[str]) -> list[int]:
    """The power indices of the names a seat list gives (any name or adjective of a power);
    a clear error for a name the map has not, or a power named twice."""
    found: list[int] = []
    for n in names:
        p = m.find_power(n)
        if p is None:
            raise PolydipError(f"player: {m.variant.name} has no power {n!r} (powers: "
                               f"{', '.join(m.powers)})")
        if p in found:
            raise PolydipError(f"player: {m.powers[p]} is given two players")
        found.append(p)
    return found
