"""What a phase row keeps: its own phase, not the whole game again.

Row 0 keeps the game's header (format, version, name, variant) and the first position; row
k > 0 keeps what phase k-1 did ("before": its orders, results, errors, center changes, units
destroyed) and the position phase k began with. Each row also keeps the rule options in
force and, once the game ended, its status and winners (a draw or a passage permission
rewrites the current row only). So a row's size follows what its phase changed, and the
game as phase `seq` began is the rows 0..seq put back together as the game file
(game/files.py) they were cut from.
"""

from __future__ import annotations

import itertools
from typing import Any

from polydip.errors import GameFileError
from polydip.game.files import game_header, phase_json, position_json
from polydip.game.record import GameRecord


def phase_record(game: GameRecord, seq: int) -> dict[str, Any]:
    """The record of row `seq` for `game`, whose current phase is that row's phase."""
    m = game.map
    if len(game.history) != seq:
        raise ValueError(f"phase row {seq} of a game with {len(game.history)} phases")
    rec: dict[str, Any] = {"position": position_json(m, game.position),
                           "options": game.options}
    if seq == 0:
        rec["game"] = game_header(game)
    else:
        before = phase_json(m, game.history[-1])
        del before["position"]  # row seq-1 holds it
        rec["before"] = before
    if game.status != "active" or game.winners:
        rec["status"] = game.status
        rec["winners"] = [m.powers[p] for p in game.winners]
    return rec


def game_file_of(records: list[dict[str, Any]], where: str) -> dict[str, Any]:
    """The game file (as game_to_json writes it) of the game as the last of `records` —
    rows 0, 1, ... in order — began; pending orders are rows of their own, not in it."""
    try:
        first, last = records[0], records[-1]
        history = [{"position": rec["position"], **nxt["before"]}
                   for rec, nxt in itertools.pairwise(records)]
        return {**first["game"], "options": last["options"],
                "status": last.get("status", "active"), "winners": last.get("winners", []),
                "history": history, "current": {"position": last["position"], "orders": {}}}
    except (KeyError, IndexError, TypeError) as exc:
        raise GameFileError(f"{where}: damaged phase rows ({exc.__class__.__name__}: {exc})"
                            ) from exc
