"""Commands on a game file: new, orders, process, show, render, undo, convert."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from polydip.cli.common import (
    add_names_option,
    add_search_path_option,
    names_for,
    parse_options,
    phase_title,
)
from polydip.errors import PolydipError


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
    s.add_argument("--phase", help="a past phase, e.g. F1901M: its position and report")
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
    r.add_argument("--phase", help="a processed phase, e.g. S1901M (default: the current one)")
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


def cmd_show(args: argparse.Namespace) -> int:
    from polydip.game.game import Game

    g = Game.load(args.gamefile)
    m = g.map
    if args.history:
        from polydip.report import history_lines

        print(f"{g.variant.title} — {len(g.history)} processed phase(s)")
        for line in history_lines(g):
            print(line)
        return 0
    pos, orders, rec = g.position, g.orders, None
    if args.phase:
        want = args.phase.strip().upper()
        rec = next((r for r in g.history if r.position.phase.name == want), None)
        if rec is None and want != g.phase:
            done = ", ".join(r.position.phase.name for r in g.history) or "none"
            raise PolydipError(f"no phase {args.phase} in this game (processed: {done}; "
                               f"current: {g.phase})")
        if rec is not None:
            pos, orders = rec.position, rec.orders
    names = names_for(args, m)
    if rec is not None and args.format != "text":
        from polydip.report import build_report, format_report

        final = rec is g.history[-1]
        print(format_report(build_report(g, rec, final=final, names=names), args.format))
        return 0
    from polydip.adjudication.adjustments import adjustment_counts
    from polydip.game.calendar import season_name
    from polydip.orders.describe import place, unit
    from polydip.report import pending_lines

    print(f"{g.variant.title} — {season_name(g.variant.calendar, pos.phase)} ({pos.phase.name})"
          + ("" if g.status == "active" else f" — game {g.status}"))
    due = adjustment_counts(m, pos) if pos.phase.type == "A" and rec is None else None
    for power in range(len(m.powers)):
        units = [unit(m, u.kind, u.loc, names) for u in pos.units if u.power == power]
        centers = pos.centers_of(power)
        if not units and not centers:
            continue
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
        if orders.get(power) and rec is None:
            print("    orders: " + "; ".join(pending_lines(g, power, names)))
    if rec is None:  # what the rules keep on the board: canal progress, anchor markers
        for line in m.rules.report_lines(m, pos):  # (a past phase: its report)
            print(f"  {line}")
    if rec is not None:
        from polydip.report import build_report, format_report

        print(format_report(build_report(g, rec, final=rec is g.history[-1], names=names),
                            "text"))
    if args.legal:
        print(f"Legal orders ({pos.phase.name}), as they may be typed:")
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
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from polydip.game.game import Game
    from polydip.render import phase_view, render_file

    g = Game.load(args.gamefile)
    view = phase_view(g, args.phase)  # checks the phase before anything is written
    phase = view.position.phase.name
    out = args.output or f"{Path(args.gamefile).with_suffix('').name}-{phase}.svg"
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

    g = load_game(args.infile)
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
    print(f"Wrote {args.outfile}: {what}, {n} phase{'' if n == 1 else 's'} "
          f"({done} processed and the current one, {g.phase}).")
    return 0
