"""The data of a game: variant, options, position, pending orders, processed phases, status.

Game (game/game.py) adds what one does with a game — give orders, process, undo; the file
formats (game/files.py, game/dipjson.py) read and write this data without needing it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from polydip.game.engine import PhaseOutcome
from polydip.geography.map import Map
from polydip.state import Position
from polydip.variants.model import Variant


@dataclass(slots=True)
class PhaseRecord:
    """A processed phase: the position it started from, what was ordered, what happened."""

    position: Position
    orders: dict[int, list[str]]
    outcome: PhaseOutcome


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
