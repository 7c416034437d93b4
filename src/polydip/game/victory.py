"""When a game ends, and who wins: the variant's [victory] table (or a preset of it chosen
with the game option `victory`), read against the position and the history."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from polydip.adjudication.adjustments import centers_per_power
from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.state import Position
from polydip.variants.calendar import phase_cycle
from polydip.variants.model import Variant, Victory


def victory_in_force(variant: Variant, options: dict[str, Any]) -> Victory:
    """The victory condition in force: the variant's, or the preset the options name."""
    v = variant.victory
    name = options.get("victory", "default")
    if name == "default":
        return v
    if name not in v.presets:
        known = ", ".join(["default", *v.presets])
        raise PolydipError(f"option victory: {variant.name} has no preset {name!r} "
                           f"(choose from {known})")
    return replace(v, **v.presets[name], presets={})


def center_counts(m: Map, owners: list[int]) -> list[int]:
    """Centers per power, counted by value where the variant gives centers values (a capital
    worth 2 counts twice); neutral powers count none."""
    return centers_per_power(m, owners)


def game_end(m: Map, vic: Victory, pos: Position, history: list[Any],
             counts: list[int] | None = None) -> tuple[str, list[int]] | None:
    """("won" | "drawn", the winners or the powers sharing the draw), or None while the game
    goes on. `history` is the list of processed phases (game/record.PhaseRecord).

    A power owning `vic.centers` centers (counted by value: a capital worth 2 counts twice)
    wins when no other owns more; powers tied for the
    most share the victory — unless `more_than_others`, where the winner must own more than
    any other power and a tie at the top plays on. Neutral powers neither win nor share a
    draw; a power left alone on the board wins."""
    if counts is None:
        counts = center_counts(m, pos.owners)
    best = 0  # (centers are never negative; max(counts, default=0) is a generic call compiled)
    for c in counts:
        if c > best:
            best = c
    check_now = pos.phase.type != "R"
    if vic.check == "start_of_season":
        check_now = pos.phase.season == vic.check_season and pos.phase.type == "M"
    # (the lists of leaders and of powers holding centers are made only when a rule reads
    # them: this is asked after every phase)
    if check_now and best >= vic.centers:
        leaders = [p for p, c in enumerate(counts) if c == best]
        if len(leaders) == 1 or not vic.more_than_others:
            return "won", leaders
    if counts.count(0) >= len(counts) - 1:  # (two powers with centers: not one left alone)
        alive = _alive(m, pos, [p for p, c in enumerate(counts) if c > 0])
        if len(alive) == 1:
            return "won", sorted(alive)
    if vic.last_year is not None and pos.phase.year > vic.last_year:
        leaders = [p for p, c in enumerate(counts) if c == best]
        if vic.last_year_result == "most_centers" and len(leaders) == 1:
            return "won", leaders
        return "drawn", sorted(_alive(m, pos, [p for p, c in enumerate(counts) if c > 0]))
    if vic.no_change_years is not None and history:
        if pos.phase.year - _last_center_change_year(m, history) > vic.no_change_years:
            return "drawn", sorted(_alive(m, pos, [p for p, c in enumerate(counts) if c > 0]))
    return None


def _alive(m: Map, pos: Position, holders: list[int]) -> set[int]:
    """The powers still in the game: with a unit (neutral powers aside) or with centers
    (`holders`, counted so)."""
    neutral = m.power_neutral
    alive = {u.power for u in pos.units if not neutral[u.power]}
    alive.update(holders)
    return alive


def survivors(m: Map, pos: Position) -> list[int]:
    """The powers still in the game: with a unit or a center (neutral powers aside)."""
    alive = {u.power for u in pos.units} | {o for o in pos.owners if o >= 0}
    return sorted(p for p in alive if not m.power_neutral[p])


def draw_shares(m: Map, vic: Victory, pos: Position, powers: list[int] | None) -> list[int]:
    """The powers sharing a draw declared now: those named (default: every survivor). A
    variant whose draws are voted by all players (`draw = "all"`, Latin American
    Diplomacy's "A unanimous vote for a draw is made by all players") shares every draw
    among all survivors, and a draw naming fewer is refused."""
    alive = survivors(m, pos)
    if powers is None:
        return alive
    named = sorted(set(powers))
    if vic.draw == "all" and named != alive:
        missing = ", ".join(m.powers[p] for p in alive if p not in named) or "none"
        raise PolydipError(f"{m.variant.title or m.variant.name}: a draw is voted by all "
                           f"players and shared by every surviving power (left out: "
                           f"{missing}); name them all or none")
    return named


def _last_center_change_year(m: Map, history: list[Any]) -> int:
    for i in range(len(history) - 1, -1, -1):
        rec = history[i]
        if rec.outcome.center_changes:
            return int(rec.position.phase.year)
    # no change yet: count from the first year whose centers could change, which is the
    # next one for a game that starts after its year's update (in Winter, say)
    start = history[0].position.phase
    cal = m.variant.calendar
    cycle = phase_cycle(cal)
    update = max(i for i, (s, t) in enumerate(cycle)
                 if s == cal.centers_change_after and t != "A")
    return start.year if cycle.index((start.season, start.type)) > update else start.year - 1
