"""Playing one simulated game and writing it as the `diplomacy` package's saved game.

A game is played on the fast path (FastGame) by a player (simulate/players.py) whose only
source of randomness is `random.Random(seed)`: the same seed gives the same game in any
process. The game is written as `polydip convert --to diplomacy` writes it
(game/dipjson.py), with timestamps counted from 0 so that the bytes are reproducible.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.game.dipjson import WriteMemo, diplomacy_line
from polydip.game.game import Game
from polydip.game.record import PhaseRecord
from polydip.simulate.players import Player
from polydip.variants.model import Variant


@dataclass(slots=True)
class GameResult:
    """What the manifest counts of a game; `line` is its saved game, one line of JSON."""

    seed: int
    line: bytes
    phases: int
    status: str  # won | drawn | year_limit
    final_phase: str


def play(variant: Variant, options: dict[str, Any], seed: int, player: Player,
         max_year: int | None) -> Game:
    """Play one game from its seed until it ends or year `max_year` is over: the game with
    its history (each phase's position, the orders typed and the outcome)."""
    game = Game.new(variant, options, name=f"polydip-{variant.name}-{seed}")
    fg = FastGame.from_game(game)
    rng = random.Random(seed)
    table = fg.table
    history: list[PhaseRecord] = []
    while not fg.is_over:
        pos = fg.position
        if max_year is not None and pos.phase.year > max_year:
            break
        items = fg.items()
        try:
            codes = player(fg, rng)
        except Exception as exc:  # a player's own mistake, not polydip's: said as such
            raise _player_error(player, seed, pos.phase.name, _where_raised(exc)) from exc
        if not isinstance(codes, list) or len(codes) != len(items):
            raise _player_error(player, seed, pos.phase.name, (
                f"it returned {_count(codes)} for the {len(items)} items of the phase (a list "
                "of one order code per item of game.items(), -1 for no order)"))
        orders: dict[int, list[str]] = {}
        seen: set[tuple[int, int]] = set()
        try:
            for (p, _i), c in zip(items, codes, strict=True):
                if c >= 0 and (p, c) not in seen:  # a build chosen twice is carried out once
                    seen.add((p, c))
                    orders.setdefault(p, []).append(table.texts[c])
            outcome = fg.step(codes)
        except (PolydipError, TypeError, KeyError, IndexError) as exc:
            raise _player_error(player, seed, pos.phase.name, f"its orders: {exc}") from exc
        history.append(PhaseRecord(pos, orders, outcome))
    game.position, game.history = fg.position, history
    game.status, game.winners = fg.status, list(fg.winners)
    return game


def _player_error(player: Player, seed: int, phase: str, what: str) -> PolydipError:
    name = getattr(player, "spec", None) or (
        f"{getattr(player, '__module__', '?')}:{getattr(player, '__qualname__', '?')}")
    return PolydipError(f"the player {name} (game of seed {seed}, {phase}): {what}")


def _where_raised(exc: BaseException) -> str:
    """'KeyError: 'x' (mybots.py, line 3)': the exception and the last line it passed."""
    import traceback

    tb = traceback.extract_tb(exc.__traceback__)
    at = f" ({Path(tb[-1].filename).name}, line {tb[-1].lineno})" if tb else ""
    return f"it raised {type(exc).__name__}: {exc}{at}"


def _count(codes: object) -> str:
    if isinstance(codes, list):
        return f"{len(codes)} order codes"
    return f"a {type(codes).__name__}, not a list,"


def play_game(variant: Variant, options: dict[str, Any], seed: int, player: Player,
              max_year: int | None, memo: WriteMemo | None = None) -> GameResult:
    """Play one game (`play`) and write it. `memo`: the writer's texts of earlier games of
    the variant (kept by whoever plays several)."""
    game = play(variant, options, seed, player, max_year)
    line = write_game(game, memo)
    status = game.status if game.status != "active" else "year_limit"
    return GameResult(seed, line, len(game.history), status, game.position.phase.name)


def write_game(game: Game, memo: WriteMemo | None = None) -> bytes:
    """The game's saved game as one line of JSON, with timestamps counted from 0 and
    under the variant's name."""
    return diplomacy_line(game, stamp=0, memo=memo)
