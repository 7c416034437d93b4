"""Commands on a game file: new, orders, process, show, render, undo, convert."""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from polydip.cli.common import (
    add_names_option,
    add_search_path_option,
    names_for,
    phase_title,
)
from polydip.errors import PolydipError
from polydip.options import parse_options

if TYPE_CHECKING:  # annotations only: the game is imported by each command, when it runs
    from polydip.game.game import Game
    from polydip.game.record import PhaseRecord
    from polydip.state import Position


def register(sub: argparse._SubParsersAction) -> None:
    n = sub.add_parser("new", help="start a game of VARIANT and save it to GAMEFILE")
    n.add_argument("variant", help="a built-in variant name or a variant file")
    add_search_path_option(n)
    n.add_argument("gamefile", help="the game file to write (JSON)")
    n.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule option, e.g. convoy_paradox=1982 (repeatable)")
    n.add_argument("--force", action="store_true", help="overwrite an existing file")
    n.set_defaults(func=cmd_new)

    s = sub.add_parser("show", help="show a game's position (current or a past phase)")
    s.add_argument("gamefile", help="the game file")
    s.add_argument("--phase", help="a past phase, e.g. F1901M (or as the rules text names it: "
                                   "1891A, '1891 D-1'): its position and report")
    s.add_argument("--game", metavar="ID", help=GAME_HELP)
    s.add_argument("--history", action="store_true", help="list the processed phases")
    s.add_argument("--legal", action="store_true", help="list the legal orders")
    s.add_argument("--format", choices=["text", "markdown", "json"], default="text",
                   help="format of a past phase's report (default text)")
    add_names_option(s, "how places are named")
    add_search_path_option(s)
    s.set_defaults(func=cmd_show)

    r = sub.add_parser("render", help="draw the map of a phase as SVG or PNG",
                       description="Draw the position of a phase with its orders: a processed "
                       "phase shows its orders with their results (failed ones marked); the "
                       "current phase shows the orders given so far.")
    r.add_argument("gamefile", help="the game file")
    r.add_argument("--phase", help="a processed phase, e.g. S1901M or 1891A (default: the "
                                   "current one)")
    r.add_argument("--game", metavar="ID", help=GAME_HELP)
    r.add_argument("-o", "--output", metavar="FILE",
                   help="map.svg or map.png (default: GAMEFILE's name and the phase, .svg)")
    r.add_argument("--width", type=int, default=1600, help="PNG width in pixels (default 1600)")
    add_names_option(r, "province labels on the map")
    add_search_path_option(r)
    r.set_defaults(func=cmd_render)

    u = sub.add_parser("undo", help="step back one processed phase (its orders become "
                       "pending again)")
    u.add_argument("gamefile", help="the game file")
    u.set_defaults(func=cmd_undo)

    c = sub.add_parser("convert", help="convert between polydip and diplomacy game JSON")
    c.add_argument("infile", help="a polydip game file or the diplomacy package's game JSON")
    c.add_argument("outfile", help="the file to write")
    c.add_argument("--game", metavar="ID", help=GAME_HELP.replace("GAMEFILE", "INFILE"))
    c.add_argument("--to", choices=["polydip", "diplomacy"], default="polydip",
                   help="the format to write: a polydip game file (default) or the diplomacy "
                   "package's saved-game JSON")
    add_search_path_option(c)
    c.set_defaults(func=cmd_convert)


def cmd_new(args: argparse.Namespace) -> int:
    from polydip.game.files import locked
    from polydip.game.game import Game

    g = Game.new(args.variant, parse_options(args.option), name=Path(args.gamefile).stem)
    with locked(args.gamefile):
        if Path(args.gamefile).exists() and not args.force:
            raise PolydipError(f"{args.gamefile} exists; use --force to overwrite it")
        g.save(args.gamefile)
    print(f"New {g.variant.title} game in {args.gamefile}; the first phase is "
          f"{phase_title(g)}.")
    return 0


GAME_HELP = ("a game of a simulation: GAMEFILE is then its directory, a shard or a JSON Lines "
             "file, and ID the game's id (polydip-standard-42) or seed (42)")


def _load(args: argparse.Namespace) -> Game:
    """The game of GAMEFILE, or with --game the one game of a simulation's games."""
    from polydip.game.game import Game

    return _load_path(args.gamefile, args.game, Game.load)


def _load_path(path: str, game: str | None, load: Callable[[str], Game]) -> Game:
    """The game of the file `path` (read by `load`), or with `game` (an id or seed) the one
    game of a simulation's directory, shard or JSON Lines file."""
    from polydip.game.game import Game

    if game is None:
        from polydip.simulate.reading import is_games_file

        if is_games_file(path):
            raise PolydipError(f"{path} holds many games: choose one with --game ID "
                               "(its id or seed)")
        return load(path)
    from polydip.simulate.reading import find_game

    return Game.from_diplomacy(find_game(path, game), game)


def cmd_show(args: argparse.Namespace) -> int:

    g = _load(args)
    if args.history:
        from polydip.report import history_lines

        print(f"{g.variant.title} — {len(g.history)} processed phase(s)")
        for line in history_lines(g):
            print(line)
        return 0
    rec = _shown_phase(g, args.phase)
    names = names_for(args, g.map)
    if rec is not None and args.format != "text":
        from polydip.report import build_report, format_report

        final = rec is g.history[-1]
        print(format_report(build_report(g, rec, final=final, names=names), args.format))
        return 0
    _print_board(g, rec, names)
    if rec is not None:
        from polydip.report import build_report, format_report

        print(format_report(build_report(g, rec, final=rec is g.history[-1], names=names),
                            "text"))
    if args.legal:
        _print_legal(g, (g.position if rec is None else rec.position).phase.name)
    return 0


_SEASON_OF_YEAR = re.compile(r"^\s*\d+\s*[A-Za-z]\s*$")  # "1891D": a season, no phase


def phase_named(g: Game, text: str) -> str:
    """The code of the game's phase `text` names: a code (`A1891M`), or a name as a rules
    text writes it (Latin American Diplomacy: `1891A`, `1891 D-1`, `1891 D-2`; `1891D`, a
    season of several phases, is the first of them the game had: its retreats, or its
    adjustments when nobody retreated). A name the game has no phase of is returned as
    given, for the caller to say so."""
    from polydip.variants.calendar import parse_phase

    want = text.strip().upper()
    had = [r.position.phase.name for r in g.history] + [g.phase]
    if want in had:
        return want
    try:
        p = parse_phase(g.map.variant.calendar, text.strip())
    except PolydipError:
        return want
    if p.name in had:
        return p.name
    if _SEASON_OF_YEAR.match(text):
        for r in [*g.history, None]:
            q = r.position.phase if r is not None else g.position.phase
            if (q.year, q.season) == (p.year, p.season):
                return q.name
    return want
def _shown_phase(g: Game, phase: str | None) -> PhaseRecord | None:
    """The processed phase `--phase` names (None: the current phase)."""
    if not phase:
        return None
    want = phase_named(g, phase)
    rec = next((r for r in g.history if r.position.phase.name == want), None)
    if rec is None and want != g.phase:
        done = ", ".join(r.position.phase.name for r in g.history) or "none"
        raise PolydipError(f"no phase {phase} in this game (processed: {done}; "
                           f"current: {g.phase})")
    return rec


def _print_board(g: Game, rec: PhaseRecord | None, names: str) -> None:
    """Each power's centers, units, dislodged units and (current phase) orders; what the
    rules keep on the board."""
    from polydip.adjudication.adjustments import adjustment_counts
    from polydip.variants.calendar import season_name

    m = g.map
    pos = g.position if rec is None else rec.position
    print(f"{g.variant.title} — {season_name(g.variant.calendar, pos.phase)} ({pos.phase.name})"
          + ("" if g.status == "active" else f" — game {g.status}"))
    due = adjustment_counts(m, pos) if pos.phase.type == "A" and rec is None else None
    for power in range(len(m.powers)):
        _print_power(g, pos, power, due, rec is None, names)
    if rec is None:  # what the rules keep on the board: canal progress, anchor markers
        for line in m.rules.report_lines(m, pos):  # anchor markers (a past phase: its report)
            print(f"  {line}")


def _print_power(g: Game, pos: Position, power: int, due: list[int] | None, current: bool,
                 names: str) -> None:
    from polydip.orders.describe import place, unit
    from polydip.report import pending_lines

    m = g.map
    units = [unit(m, u.kind, u.loc, names) for u in pos.units if u.power == power]
    centers = pos.centers_of(power)
    if not units and not centers:
        return
    worth = sum(m.sc_value[c] for c in centers)  # a capital worth 2 counts twice
    neutral = " (neutral)" if m.power_neutral[power] else ""
    head = f"  {m.powers[power]}{neutral} ({worth} centers, {len(units)} units)"
    if due and due[power]:
        head += f" — {'builds' if due[power] > 0 else 'removes'} {abs(due[power])}"
    if names == "full":
        print(head + ":" + "".join(f"\n      {u}" for u in units))
    else:
        print(f"{head}: {', '.join(units) or '-'}")
    for d in pos.dislodged:
        if d.power == power:
            rs = ", ".join(place(m, x, names) for x in d.retreats) or "none"
            print(f"    dislodged {unit(m, d.kind, d.loc, names)} (retreats: {rs})")
    if g.orders.get(power) and current:
        print("    orders: " + "; ".join(pending_lines(g, power, names)))


def _print_legal(g: Game, shown: str) -> None:
    """Every power's legal orders, as they may be typed, in lines at most 100 wide (under
    the name of the phase shown)."""
    m = g.map
    print(f"Legal orders ({shown}), as they may be typed:")
    for power, name in enumerate(m.powers):
        legal = g.legal_orders(power)
        if not legal:
            continue
        print(f"  {name}:")
        for where, lst in legal.items():
            line = f"    {where}: "
            for i, order in enumerate(lst):  # lines of whole orders, at most 100 wide
                text = order + ("," if i < len(lst) - 1 else "")
                if len(line) + len(text) > 100 and not line.endswith(": "):
                    print(line.rstrip())
                    line = " " * 6
                line += text + " "
            print(line.rstrip())


def cmd_render(args: argparse.Namespace) -> int:
    from polydip.render import memo, phase_view, render_file

    memo.enable()  # a GM's next picture of this board reads its layout from disk
    g = _load(args)
    if args.phase:
        args.phase = phase_named(g, args.phase)
    view = phase_view(g, args.phase)  # checks the phase before anything is written
    phase = view.position.phase.name
    stem = args.game if args.game else Path(args.gamefile).with_suffix('').name
    out = args.output or f"{stem}-{phase}.svg"
    if args.width < 200:
        raise PolydipError("--width: at least 200 pixels")
    render_file(g, out, phase=args.phase, width=args.width, names=args.names)
    what = "with its results" if view.processed else "with the orders given so far"
    n = len(view.orders)
    print(f"Drew {phase} ({n} order{'' if n == 1 else 's'}, {what}) to {out}")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from polydip.game.game import game_transaction

    with game_transaction(args.gamefile) as g:
        before, kept = g.phase, bool(g.orders)
        rec = g.undo()
    n = sum(len(x) for x in g.orders.values())
    print(f"Undid {rec.position.phase.name}: back to {phase_title(g)}; its {n} order(s) are "
          "pending again (change them with 'polydip orders', then process).")
    if kept:
        print(f"The orders pending for {before} are kept: they are pending again when the "
              "game reaches it.")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from polydip.game.dipjson import game_to_diplomacy
    from polydip.game.files import write_atomic
    from polydip.game.game import load_game

    g = _load_path(args.infile, args.game, load_game)
    done = len(g.history)
    if args.to == "diplomacy":
        data = game_to_diplomacy(g)
        write_atomic(args.outfile, json.dumps(data) + "\n")
        n = len(data.get("phases", []))
        what = "the diplomacy package's saved-game JSON"
    else:
        g.save(args.outfile)
        n = done + 1
        what = "a polydip game file"
    k = len(g.messages)
    print(f"Wrote {args.outfile}: {what}, {n} phase{'' if n == 1 else 's'} "
          f"({done} processed and the current one, {g.phase}), "
          f"{k} message{'' if k == 1 else 's'}.")
    return 0
