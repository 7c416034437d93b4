"""Read and write the `diplomacy` package's saved-game JSON (standard map)."""

from __future__ import annotations

from typing import Any

from polydip.errors import NotSupportedError


def game_to_diplomacy(game) -> dict[str, Any]:
    raise NotSupportedError("exporting to the diplomacy package's format is not supported yet")


def game_from_diplomacy(data: dict[str, Any], where: str = "game"):
    raise NotSupportedError(f"{where}: importing the diplomacy package's format is not "
                            "supported yet")
