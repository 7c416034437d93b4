"""The `polydip` command: one entry point for game masters, tools and researchers."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

from polydip.errors import PolydipError

EXIT_USAGE, EXIT_ERROR, EXIT_BUG = 2, 1, 3


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args) or 0)
    except PolydipError as exc:
        print(f"polydip: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("polydip: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so plainly, traceback only on request
        if os.environ.get("POLYDIP_DEBUG"):
            raise
        print(f"polydip: internal error: {exc.__class__.__name__}: {exc}\n"
              "This is a bug in polydip; set POLYDIP_DEBUG=1 to see the traceback.",
              file=sys.stderr)
        return EXIT_BUG


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="polydip",
        description="Adjudicate and host Diplomacy games on any map variant.",
    )
    sub = p.add_subparsers(title="commands", metavar="COMMAND")

    a = sub.add_parser("adjudicate", help="adjudicate JSON request(s): one object or JSON Lines",
                       description="Read one JSON request, or JSON Lines (one request per "
                       "line), from FILE or standard input; write one JSON outcome per line.")
    a.add_argument("file", nargs="?", help="request file (default: standard input)")
    a.set_defaults(func=cmd_adjudicate)

    d = sub.add_parser("demo", help="play a short random game and print every phase")
    d.add_argument("--variant", default="standard")
    d.add_argument("--years", type=int, default=2, help="years to play (default 2)")
    d.add_argument("--seed", type=int, default=1)
    d.add_argument("--save", metavar="GAMEFILE", help="also save the game")
    d.add_argument("--map", metavar="FILE", help="where to draw the final map (.png or .svg; "
                   "default: polydip-demo.png in the system's temporary folder)")
    d.set_defaults(func=cmd_demo)

    n = sub.add_parser("new", help="start a game of VARIANT and save it to GAMEFILE")
    n.add_argument("variant", help="a built-in variant name or a variant file")
    n.add_argument("gamefile")
    n.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule option, e.g. convoy_paradox=1982 (repeatable)")
    n.add_argument("--force", action="store_true", help="overwrite an existing file")
    n.set_defaults(func=cmd_new)

    o = sub.add_parser(
        "orders", help="give orders for the current phase (one power's, or a whole message)",
        description="Give orders for the current phase. Each argument is one line of a "
        "message: a power's name on its own line, then that power's orders, or "
        "'Power: order' lines; --file reads a pasted message (e-mail, forum post). Lines "
        "that cannot be read are reported with the reason and a suggestion; the others are "
        "kept. A new order for a unit replaces its earlier one until the phase is processed.")
    o.add_argument("gamefile")
    o.add_argument("lines", nargs="*", metavar="LINE",
                   help="a power name, then its orders: France 'A PAR - BUR' 'F BRE - MAO'")
    o.add_argument("--file", help="read a message from a file ('-' = standard input)")
    o.add_argument("--add", action="store_true", help="add to the powers' orders instead of "
                   "replacing orders for the same units")
    o.add_argument("--replace-all", action="store_true", help="a power named in the message "
                   "loses all its earlier orders for this phase first")
    o.add_argument("--clear", metavar="POWER", action="append", default=[],
                   help="clear a power's orders (repeatable; 'all' for every power)")
    o.set_defaults(func=cmd_orders)

    pr = sub.add_parser("process", help="adjudicate the current phase, print the report, advance")
    pr.add_argument("gamefile")
    pr.add_argument("--format", choices=["text", "markdown", "json"], default="text",
                    help="report format (default text)")
    pr.add_argument("--map", metavar="FILE", help="also draw the adjudicated phase to FILE "
                    "(.svg or .png)")
    pr.set_defaults(func=cmd_process)

    s = sub.add_parser("show", help="show a game's position (current or a past phase)")
    s.add_argument("gamefile")
    s.add_argument("--phase", help="a past phase, e.g. F1901M: its position and report")
    s.add_argument("--history", action="store_true", help="list the processed phases")
    s.add_argument("--legal", action="store_true", help="list the legal orders")
    s.add_argument("--format", choices=["text", "markdown", "json"], default="text",
                   help="format of a past phase's report (default text)")
    s.set_defaults(func=cmd_show)

    r = sub.add_parser("render", help="draw the map of a phase as SVG or PNG",
                       description="Draw the position of a phase with its orders: a processed "
                       "phase shows its orders with their results (failed ones marked); the "
                       "current phase shows the orders given so far.")
    r.add_argument("gamefile")
    r.add_argument("--phase", help="a processed phase, e.g. S1901M (default: the current one)")
    r.add_argument("-o", "--output", metavar="FILE",
                   help="map.svg or map.png (default: GAMEFILE's name and the phase, .svg)")
    r.add_argument("--width", type=int, default=1600, help="PNG width in pixels (default 1600)")
    r.add_argument("--names", choices=["full", "short"], help="province labels: full names or "
                   "abbreviations (default: full names on maps of more than 80 provinces)")
    r.set_defaults(func=cmd_render)

    u = sub.add_parser("undo", help="step back one processed phase (its orders become "
                       "pending again)")
    u.add_argument("gamefile")
    u.set_defaults(func=cmd_undo)

    c = sub.add_parser("convert", help="convert between polydip and diplomacy game JSON")
    c.add_argument("infile")
    c.add_argument("outfile")
    c.add_argument("--to", choices=["polydip", "diplomacy"], default="polydip")
    c.set_defaults(func=cmd_convert)

    v = sub.add_parser("variant", help="list, show or check variants")
    vs = v.add_subparsers(title="variant commands", metavar="ACTION")
    vl = vs.add_parser("list", help="list built-in variants")
    vl.set_defaults(func=cmd_variant_list)
    vsh = vs.add_parser("show", help="describe a variant")
    vsh.add_argument("name", help="a built-in variant name or a variant file")
    vsh.add_argument("--json", action="store_true", help="machine-readable output")
    vsh.set_defaults(func=cmd_variant_show)
    vi = vs.add_parser("import", help="convert a DPjudge .map or Parlance .cfg file to TOML")
    vi.add_argument("file", help="the .map or .cfg file")
    vi.add_argument("-o", "--output", help="write the TOML here (default: standard output)")
    vi.add_argument("--search", action="append", default=[], metavar="DIR",
                    help="folder to look in for files the source includes (repeatable)")
    vi.set_defaults(func=cmd_variant_import)
    vc = vs.add_parser("check", help="check a variant file and report every problem")
    vc.add_argument("name")
    vc.add_argument("--board", action="store_true", help="also check the variant's board "
                    "against its map and print the figures (docs/boards.md)")
    vc.set_defaults(func=cmd_variant_check)
    v.set_defaults(func=lambda a: (v.print_help(), EXIT_USAGE)[1])
    return p


# ---- adjudicate -----------------------------------------------------------------------------

def cmd_adjudicate(args: argparse.Namespace) -> int:
    from polydip.oneshot import adjudicate_request, run_lines

    if args.file and args.file != "-":
        try:
            text = Path(args.file).read_text(encoding="utf-8")
        except OSError as exc:
            raise PolydipError(f"{args.file}: cannot read: {exc.strerror or exc}") from exc
        lines = text.splitlines()
    else:
        text = None
        lines = sys.stdin
    # a single pretty-printed JSON object is also accepted
    if text is not None and text.lstrip().startswith("{") and "\n" in text.strip():
        try:
            req = json.loads(text)
        except json.JSONDecodeError:
            req = None
        if isinstance(req, dict):
            _emit(adjudicate_request(req))
            return 0
    failed = False
    for out in run_lines(lines):
        failed |= "error" in out
        _emit(out)
    return 0 if not failed else EXIT_ERROR


def _emit(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


# ---- games ----------------------------------------------------------------------------------

def _parse_options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise PolydipError(f"option {item!r}: write KEY=VALUE")
        k, val = item.split("=", 1)
        out[k.strip()] = {"true": True, "false": False}.get(val.strip().lower(), val.strip())
    return out


def cmd_new(args: argparse.Namespace) -> int:
    from polydip.game.game import Game

    if Path(args.gamefile).exists() and not args.force:
        raise PolydipError(f"{args.gamefile} exists; use --force to overwrite it")
    g = Game.new(args.variant, _parse_options(args.option), name=Path(args.gamefile).stem)
    g.save(args.gamefile)
    print(f"New {g.variant.title} game in {args.gamefile}; the first phase is "
          f"{_phase_title(g)}.")
    return 0


def _phase_title(g) -> str:
    from polydip.game.calendar import season_name

    return f"{season_name(g.variant.calendar, g.position.phase)} ({g.phase})"


def cmd_orders(args: argparse.Namespace) -> int:
    from polydip.game.game import Game
    from polydip.orders.message import apply_message, merge, read_message

    g = Game.load(args.gamefile)
    if g.is_over:
        raise PolydipError(f"the game is over ({g.status})")
    for name in args.clear:
        g.clear_orders(None if name.lower() == "all" else name)
    if not args.lines and not args.file and not args.clear:
        raise PolydipError("no orders given (pass them as arguments or with --file)")
    msg = read_message(g.map, g.position, "\n".join(args.lines))
    if args.file:  # its lines are numbered as in the file; a power named before carries on
        msg = merge(msg, read_message(g.map, g.position, _read_text(args.file),
                                      msg.last_power))
    problems = msg.problems + apply_message(g, msg, replace_all=args.replace_all, add=args.add)
    g.save(args.gamefile)
    m = g.map
    for note in msg.notes:
        print(f"note: {note}")
    shown = sorted(set(msg.powers) | {o.power for o in msg.orders}
                   | {g.power(n) for n in args.clear if n.lower() != "all"})
    for power in shown:
        kept = g.orders.get(power, [])
        print(f"{m.powers[power]} orders for {g.phase} ({len(kept)}):")
        for t in kept:
            print(f"  {t}")
    waiting = _waiting(g)
    if waiting:
        print("Still to order: " + "; ".join(waiting))
    else:
        print(f"Every power has ordered: run 'polydip process {args.gamefile}'.")
    if problems:
        print(f"{len(problems)} line(s) not taken:", file=sys.stderr)
        for pr in sorted(problems, key=lambda p: p.line):
            where = f"line {pr.line}: " if pr.line else ""
            print(f"  {where}{pr.text}\n      {pr.reason}"
                  + (f"; {pr.suggestion}" if pr.suggestion else ""), file=sys.stderr)
    return EXIT_ERROR if problems else 0


def _read_text(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PolydipError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PolydipError(f"{name}: cannot read: {exc}") from exc


def _waiting(g) -> list[str]:
    """Powers with units (or adjustments) still without orders, and which."""
    from polydip.adjudication.adjustments import adjustment_counts
    from polydip.game.engine import MOVEMENT_TYPES, bind_to_units, parse_orders

    m, pos = g.map, g.position
    out = []
    ptype = pos.phase.type
    parsed, _ = parse_orders(m, pos.phase, g.orders)
    if ptype in ("M", "R"):
        units = pos.units if ptype == "M" else pos.dislodged
        allowed = MOVEMENT_TYPES if ptype == "M" else ("R", "D")
        bound, _ = bind_to_units(m, units, parsed, allowed)
        for power in g.powers_to_order():
            missing = [m.unit_str(u.kind, u.loc) for u, o in zip(units, bound, strict=True)
                       if u.power == power and o is None]
            if missing:
                out.append(f"{m.powers[power]} ({', '.join(missing)})")
    else:
        counts = adjustment_counts(m, pos)
        for power in g.powers_to_order():
            given = len(parsed.get(power, []))
            need = abs(counts[power])
            if given < need:
                what = "builds" if counts[power] > 0 else "removals"
                out.append(f"{m.powers[power]} ({given} of {need} {what})")
    return out


def cmd_process(args: argparse.Namespace) -> int:
    from polydip.game.game import Game
    from polydip.report import build_report, format_report

    g = Game.load(args.gamefile)
    g.process()
    g.save(args.gamefile)
    print(format_report(build_report(g, g.history[-1], final=True), args.format))
    if args.map:
        from polydip.render import render_file

        render_file(g, args.map, phase=g.history[-1].position.phase.name)
        print(f"Map of {g.history[-1].position.phase.name} written to {args.map}",
              file=sys.stderr if args.format == "json" else sys.stdout)
    return 0


def _print_outcome(g) -> None:
    from polydip.report import build_report, format_report

    print(format_report(build_report(g, g.history[-1], final=True), "text"))


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
    if rec is not None and args.format != "text":
        from polydip.report import build_report, format_report

        final = rec is g.history[-1]
        print(format_report(build_report(g, rec, final=final), args.format))
        return 0
    from polydip.game.calendar import season_name

    print(f"{g.variant.title} — {season_name(g.variant.calendar, pos.phase)} ({pos.phase.name})"
          + ("" if g.status == "active" else f" — game {g.status}"))
    for power in range(len(m.powers)):
        units = [m.unit_str(u.kind, u.loc) for u in pos.units if u.power == power]
        centers = [m.prov_abbr[c] for c in pos.centers_of(power)]
        if not units and not centers:
            continue
        print(f"  {m.powers[power]} ({len(centers)} centers, {len(units)} units): "
              f"{', '.join(units) or '-'}")
        for d in pos.dislodged:
            if d.power == power:
                rs = ", ".join(m.loc_name[x] for x in d.retreats) or "none"
                print(f"    dislodged {m.unit_str(d.kind, d.loc)} (retreats: {rs})")
        if orders.get(power):
            print(f"    orders: {'; '.join(orders[power])}")
    if rec is not None:
        from polydip.report import build_report, format_report

        print(format_report(build_report(g, rec, final=rec is g.history[-1]), "text"))
    if args.legal:
        for unit, lst in g.legal_orders().items():
            print(f"  {unit}: {', '.join(lst)}")
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
    from polydip.game.game import Game

    g = Game.load(args.gamefile)
    rec = g.undo()
    g.save(args.gamefile)
    n = sum(len(x) for x in g.orders.values())
    print(f"Undid {rec.position.phase.name}: back to {_phase_title(g)}; its {n} order(s) are "
          "pending again (change them with 'polydip orders', then process).")
    return 0


def cmd_convert(args: argparse.Namespace) -> int:
    from polydip.game.dipjson import game_to_diplomacy
    from polydip.game.files import load_game, write_atomic

    g = load_game(args.infile)
    if args.to == "diplomacy":
        write_atomic(args.outfile, json.dumps(game_to_diplomacy(g)) + "\n")
    else:
        g.save(args.outfile)
    print(f"wrote {args.outfile} ({args.to} format, {len(g.history)} phases)")
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    import tempfile

    from polydip.game.game import Game
    from polydip.play import random_orders

    g = Game.new(args.variant, name="demo")
    rng = random.Random(args.seed)
    end_year = g.position.phase.year + args.years
    print(f"A random game of {g.variant.title} (seed {args.seed}), {args.years} year(s).\n")
    while not g.is_over and g.position.phase.year < end_year:
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        g.process()
        _print_outcome(g)
        print()
    if args.save:
        g.save(args.save)
        print(f"Saved the game to {args.save}.")
    from polydip.render import render_file

    target = args.map or str(Path(tempfile.gettempdir()) / "polydip-demo.png")
    try:
        render_file(g, target)
    except PolydipError as exc:
        if args.map or not target.endswith(".png"):
            raise
        target = target[:-4] + ".svg"  # no PNG support here: SVG needs nothing
        print(f"({exc}; drawing SVG instead)")
        render_file(g, target)
    print(f"The final map ({_phase_title(g)}) is in {target}")
    return 0


# ---- variants -------------------------------------------------------------------------------

def cmd_variant_list(args: argparse.Namespace) -> int:
    from polydip.variants.loader import builtin_names, load_variant

    for name in builtin_names():
        v = load_variant(name)
        n_sc = sum(1 for p in v.provinces.values() if p.supply_center)
        print(f"{name:16} {v.title} — {len(v.powers)} powers, {len(v.provinces)} provinces, "
              f"{n_sc} centers")
    return 0


def variant_summary(v) -> dict[str, Any]:
    from polydip.geography.map import compile_map

    m = compile_map(v)
    provinces = []
    for i, (abbr, p) in enumerate(v.provinces.items()):
        provinces.append({
            "abbr": abbr,
            "name": p.name,
            "terrain": p.terrain,
            "supply_center": p.supply_center is not None,
            "coasts": list(p.coasts),
            "army": any(m.occupy[k][i] for k in range(len(m.kinds)) if not m.kind_coastal[k]),
            "fleet": any(m.occupy[k][loc] for k in range(len(m.kinds)) if m.kind_coastal[k]
                         for loc in (i, *m.prov_coast_locs[i])),
        })
    return {
        "name": v.name,
        "title": v.title,
        "version": v.version,
        "provinces": provinces,
        "powers": [{"name": p.name, "letter": p.letter, "color": p.color, "homes": p.homes}
                   for p in v.powers],
        "units": {p.name: list(p.units) for p in v.powers},
        "centers": {p.name: list(p.centers) for p in v.powers},
        "victory": {"centers": v.victory.centers, "last_year": v.victory.last_year},
        "calendar": {"start": v.calendar.start,
                     "seasons": [{"name": s.name, "abbr": s.abbr, "phases": list(s.phases)}
                                 for s in v.calendar.seasons]},
        "rules": v.rules,
        "options": v.options,
    }


def cmd_variant_show(args: argparse.Namespace) -> int:
    from polydip.variants.loader import load_variant

    v = load_variant(args.name)
    info = variant_summary(v)
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    n_sc = sum(1 for p in info["provinces"] if p["supply_center"])
    print(f"{v.title} ({v.name}, version {v.version})")
    if v.designer:
        print(f"  designer: {v.designer}")
    if v.source:
        print(f"  source:   {v.source}")
    print(f"  {len(info['provinces'])} provinces, {n_sc} supply centers; "
          f"victory at {v.victory.centers} centers; starts {v.calendar.start}")
    for p in v.powers:
        print(f"  {p.name} ({p.letter}): homes {', '.join(p.homes)}; units {', '.join(p.units)}")
    if v.rules:
        print(f"  rules: {', '.join(v.rules)}")
    return 0


def cmd_variant_import(args: argparse.Namespace) -> int:
    from polydip.game.files import write_atomic
    from polydip.variants.check import check_variant
    from polydip.variants.importers import import_variant
    from polydip.variants.writer import variant_to_toml

    v = import_variant(args.file, search_path=args.search or None)
    text = variant_to_toml(v)
    if args.output:
        write_atomic(args.output, text)
        problems = check_variant(v)
        print(f"wrote {args.output}: {v.title} — {len(v.provinces)} provinces, "
              f"{len(v.powers)} powers" + (f"; {len(problems)} problem(s): run "
                                           f"'polydip variant check {args.output}'"
                                           if problems else ""))
    else:
        sys.stdout.write(text)
    return 0


def cmd_variant_check(args: argparse.Namespace) -> int:
    from polydip.variants.check import check_variant
    from polydip.variants.loader import load_variant

    v = load_variant(args.name)
    problems = check_variant(v)
    where = v.path
    board_ok = True
    if args.board:
        from polydip.variants.check import board_report

        board_ok, text = board_report(v)
        print(text)
    if not problems:
        n_sc = sum(1 for p in v.provinces.values() if p.supply_center)
        print(f"{where}: OK — {len(v.provinces)} provinces, {len(v.edges)} edges, "
              f"{n_sc} centers, {len(v.powers)} powers")
        return 0 if board_ok else EXIT_ERROR
    for pr in problems:
        print(f"{where}: {pr}")
    print(f"{len(problems)} problem(s) found")
    return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
