"""Replaying saved games in the `diplomacy` package, to say which reach the same positions.

`polydip simulate` writes the package's saved-game format, and researchers replay those
games in the package (its `Game.set_orders` and `process`, phase by phase). A game replays
when, before every phase, the package's phase name and units are the saved ones. Where it
does not, `replay` names the first phase whose adjudication differs and, when the
difference is one the package is known to get wrong, which (`KNOWN_BUGS`).

One difference is of representation only and is not counted: the package removes at once a
dislodged unit with nowhere to retreat; the saved game keeps it, with no retreat, until the
retreat phase.

Needs the `diplomacy` package (`pip install 'polydip[bench]'`).
"""

from __future__ import annotations

import contextlib
import io
from dataclasses import dataclass, field
from typing import Any

from polydip.errors import PolydipError

# code → what the package does wrong; the DATC case that shows the right result
KNOWN_BUGS: dict[str, str] = {
    "via_own_support": (
        "a move ordered 'VIA' (by convoy) dislodges a unit with the help of a support from "
        "that unit's own power; such a support never helps dislodge its own power's unit "
        "(DATC 6.D.12; the package gets it right when the move is not marked VIA)"),
}


@dataclass(slots=True)
class Replay:
    """One game replayed: `diverged` is None when every phase matched."""

    game_id: str
    phases: int  # the phases compared
    diverged: str | None = None  # the phase whose adjudication differs
    package_phase: str | None = None  # the phase the package reached after it
    saved_phase: str | None = None  # the phase the saved game reached after it
    differences: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    cause: str | None = None  # a KNOWN_BUGS code, or None when not explained

    @property
    def same(self) -> bool:
        return self.diverged is None

    def describe(self) -> str:
        if self.diverged is None:
            return f"{self.game_id}: replays ({self.phases} phases)"
        parts = []
        for power, (only_pkg, only_saved) in sorted(self.differences.items()):
            if only_pkg:
                parts.append(f"{power} package {', '.join(only_pkg)}")
            if only_saved:
                parts.append(f"{power} saved {', '.join(only_saved)}")
        why = (f"known package bug {self.cause}: {KNOWN_BUGS[self.cause]}" if self.cause
               else "not explained: please report it")
        where = (f"differs from the start ({self.saved_phase})" if self.phases == 0
                 else f"differs after {self.diverged}")
        return (f"{self.game_id}: {where} (package {self.package_phase},"
                f" saved {self.saved_phase}; {'; '.join(parts) or 'same units'}); {why}")


def replay(saved: dict[str, Any]) -> Replay:
    """Replay one saved game (the package's format, as `polydip simulate` writes it)."""
    try:
        from diplomacy import Game
    except ImportError:
        raise PolydipError("replaying in the diplomacy package needs it installed: "
                           "pip install 'polydip[bench]'") from None
    try:
        if not _package_has_map(saved["map"]):
            # (the package would make an empty map of it, and every game would differ)
            raise PolydipError(
                f"the diplomacy package has no map {str(saved['map'])[:60]!r}: it cannot "
                "replay games of this variant (it plays the maps of its diplomacy/maps "
                "folder, standard and other classic maps; polydip's own variants are not "
                "among them)")
        game = Game(map_name=saved["map"], rules=saved.get("rules", []))
        phases = saved["phases"]
    except (KeyError, TypeError, ValueError) as exc:
        raise PolydipError(f"not a saved game of the diplomacy package ({exc})") from None
    gid = str(saved.get("id", "?"))
    compared = 0
    for i, ph in enumerate(phases):
        if ph["name"] == "COMPLETED":
            break
        state = game.get_state()
        mine, theirs = _units(ph["state"], drop_stranded=True), _units(state, drop_stranded=False)
        if game.get_current_phase() != ph["name"] or mine != theirs:
            before = phases[i - 1] if i else ph
            return Replay(gid, compared, before["name"], game.get_current_phase(), ph["name"],
                          _differences(theirs, mine), _cause(before, theirs, mine))
        compared += 1
        if i == len(phases) - 1:
            break
        for power, orders in (ph.get("orders") or {}).items():
            game.set_orders(power, orders or [])
        with contextlib.redirect_stdout(io.StringIO()):  # the package prints cleared errors
            game.process()
    return Replay(gid, compared)


def _package_has_map(name: Any) -> bool:
    """Whether the diplomacy package has a map of this name (a file of its maps folder, or
    a .map file's path, as its Game reads them)."""
    import os

    import diplomacy

    if not isinstance(name, str) or not name:
        raise TypeError(f"'map' must be a map's name, not {name!r}"[:120])
    folder = os.path.join(os.path.dirname(diplomacy.__file__), "maps")
    return os.path.isfile(os.path.join(folder, f"{name}.map")) or (
        name.endswith(".map") and os.path.isfile(name))


def _units(state: dict[str, Any], drop_stranded: bool) -> dict[str, list[str]]:
    """Each power's units; with drop_stranded, a dislodged unit with no retreat is left out
    (the package has already removed it)."""
    out: dict[str, list[str]] = {}
    retreats = state.get("retreats") or {}
    for power, units in (state.get("units") or {}).items():
        keep = [u for u in units
                if not (drop_stranded and u.startswith("*")
                        and not (retreats.get(power) or {}).get(u[1:]))]
        if keep:
            out[power] = sorted(keep)
    return out


def _differences(theirs: dict[str, list[str]], mine: dict[str, list[str]]
                 ) -> dict[str, tuple[list[str], list[str]]]:
    out = {}
    for power in sorted(set(theirs) | set(mine)):
        a, b = set(theirs.get(power, [])), set(mine.get(power, []))
        if a != b:
            out[power] = (sorted(a - b), sorted(b - a))
    return out


def _cause(phase: dict[str, Any], theirs: dict[str, list[str]],
           mine: dict[str, list[str]]) -> str | None:
    """The known bug that explains the package dislodging a unit the saved game did not."""
    dislodged = {u[1:].split()[1][:3]: power for power, units in theirs.items()
                 for u in units if u.startswith("*")}
    orders = [(power, o.split()) for power, os_ in (phase.get("orders") or {}).items()
              for o in os_ or []]
    for prov, victim in dislodged.items():
        for _p, w in orders:
            if len(w) >= 5 and w[2] == "-" and w[3][:3] == prov and w[-1] == "VIA":
                src = w[1][:3]
                for power, s in orders:
                    if power == victim and len(s) >= 7 and s[2] == "S" and s[5] == "-" \
                            and s[4][:3] == src and s[6][:3] == prov:
                        return "via_own_support"
    return None
