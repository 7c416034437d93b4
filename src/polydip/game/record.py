"""The data of a game: variant, options, position, pending orders, processed phases, status.

Game (game/game.py) adds what one does with a game — give orders, process, undo; the file
formats (game/files.py, game/dipjson.py) read and write this data without needing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from polydip.game.engine import PhaseOutcome
from polydip.game.press import Message
from polydip.geography.map import Map
from polydip.state import Position, Record
from polydip.variants.model import Variant


class PhaseRecord(Record):
    """A processed phase: the position it started from, what was ordered, what happened.

    A plain class rather than a dataclass (compiled, a dataclass is still made through the
    interpreted __init__ the dataclasses module writes, once per phase processed); compared
    by value, unhashable, like the dataclass it was."""

    __slots__ = ("orders", "outcome", "position")
    _fields: ClassVar[tuple[str, ...]] = ("position", "orders", "outcome")

    def __init__(self, position: Position, orders: dict[int, list[str]],
                 outcome: PhaseOutcome) -> None:
        self.position = position
        self.orders = orders
        self.outcome = outcome


@dataclass(slots=True)
class GameRecord:
    variant: Variant
    map: Map
    position: Position
    options: dict[str, Any] = field(default_factory=dict)
    orders: dict[int, list[str]] = field(default_factory=dict)  # pending, as typed
    history: list[PhaseRecord] = field(default_factory=list)
    status: str = "active"  # active | won | drawn
    winners: list[int] = field(default_factory=list)
    name: str = ""
    # pending orders of phases stepped back over by undo, to be pending again when the game
    # reaches them anew: (phases processed when it was current, phase name, orders), the
    # latest undo last
    undone: list[tuple[int, str, dict[int, list[str]]]] = field(default_factory=list)
    # press: the messages powers sent, in the order sent (game/press.py)
    messages: list[Message] = field(default_factory=list)
