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
    d.set_defaults(func=cmd_demo)

    n = sub.add_parser("new", help="start a game of VARIANT and save it to GAMEFILE")
    n.add_argument("variant", help="a built-in variant name or a variant file")
    n.add_argument("gamefile")
    n.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="rule option, e.g. convoy_paradox=1982 (repeatable)")
    n.add_argument("--force", action="store_true", help="overwrite an existing file")
    n.set_defaults(func=cmd_new)

    o = sub.add_parser("orders", help="give a power's orders for the current phase")
    o.add_argument("gamefile")
    o.add_argument("power")
    o.add_argument("orders", nargs="*", help="orders, each one argument: 'A PAR - BUR'")
    o.add_argument("--file", help="read orders from a file, one per line ('-' = stdin)")
    o.add_argument("--add", action="store_true", help="add to the power's orders instead of "
                   "replacing orders for the same units")
    o.set_defaults(func=cmd_orders)

    pr = sub.add_parser("process", help="adjudicate the current phase and advance")
    pr.add_argument("gamefile")
    pr.set_defaults(func=cmd_process)

    s = sub.add_parser("show", help="show a game's position (current or a past phase)")
    s.add_argument("gamefile")
    s.add_argument("--phase", help="a past phase, e.g. F1901M")
    s.add_argument("--legal", action="store_true", help="list the legal orders")
    s.set_defaults(func=cmd_show)

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
    vc = vs.add_parser("check", help="check a variant file and report every problem")
    vc.add_argument("name")
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

    g = Game.load(args.gamefile)
    orders = list(args.orders)
    if args.file:
        src = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
        orders += [ln.strip() for ln in src.splitlines() if ln.strip()
                   and not ln.strip().startswith("#")]
    if not orders:
        raise PolydipError("no orders given (pass them as arguments or with --file)")
    power = g.power(args.power)
    problems = g.set_orders(power, orders, replace=not args.add)
    g.save(args.gamefile)
    name = g.map.powers[power]
    for msg in problems:
        print(f"rejected: {msg}", file=sys.stderr)
    kept = g.orders.get(power, [])
    print(f"{name} orders for {g.phase} ({len(kept)}):")
    for t in kept:
        print(f"  {t}")
    return EXIT_ERROR if problems else 0


def cmd_process(args: argparse.Namespace) -> int:
    from polydip.game.game import Game

    g = Game.load(args.gamefile)
    out = g.process()
    g.save(args.gamefile)
    _print_outcome(g, out)
    return 0


def _print_outcome(g, out) -> None:
    m = g.map
    print(f"{out.phase.name}:")
    for power in range(len(m.powers)):
        lines = [r for r in out.results if r.power == power]
        errs = [msg for p, msg in out.errors if p == power]
        if not lines and not errs:
            continue
        print(f"  {m.powers[power]}:")
        for r in lines:
            res = f"  ({', '.join(r.result)})" if r.result else ""
            print(f"    {r.text}{res}")
        for e in errs:
            print(f"    rejected: {e}")
    for d in out.position.dislodged:
        where = ", ".join(m.loc_name[x] for x in d.retreats) or "none: it will be disbanded"
        print(f"  dislodged: {m.powers[d.power]} {m.unit_str(d.kind, d.loc)} — retreats: {where}")
    for prov, old, new in out.center_changes:
        was = m.powers[old] if old >= 0 else "neutral"
        print(f"  center: {m.prov_abbr[prov]} {was} → {m.powers[new]}")
    if g.is_over:
        print(f"Game over: {g.status} — {', '.join(m.powers[p] for p in g.winners)}")
    else:
        print(f"Next: {_phase_title(g)}")


def cmd_show(args: argparse.Namespace) -> int:
    from polydip.game.game import Game

    g = Game.load(args.gamefile)
    m = g.map
    pos, orders, outcome = g.position, g.orders, None
    if args.phase:
        want = args.phase.upper()
        rec = next((r for r in g.history if r.position.phase.name == want), None)
        if rec is None and want != g.phase:
            done = ", ".join(r.position.phase.name for r in g.history) or "none"
            raise PolydipError(f"no phase {args.phase} in this game (processed: {done}; "
                               f"current: {g.phase})")
        if rec is not None:
            pos, orders, outcome = rec.position, rec.orders, rec.outcome
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
    if outcome is not None:
        _print_outcome(g, outcome)
    if args.legal:
        for unit, lst in g.legal_orders().items():
            print(f"  {unit}: {', '.join(lst)}")
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
    from polydip.game.game import Game
    from polydip.play import random_orders

    g = Game.new(args.variant, name="demo")
    rng = random.Random(args.seed)
    end_year = g.position.phase.year + args.years
    print(f"A random game of {g.variant.title} (seed {args.seed}), {args.years} year(s).\n")
    while not g.is_over and g.position.phase.year < end_year:
        for p, lst in random_orders(g.map, g.position, rng).items():
            g.set_orders(p, lst)
        out = g.process()
        _print_outcome(g, out)
        print()
    if args.save:
        g.save(args.save)
        print(f"Saved the game to {args.save}.")
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


def cmd_variant_check(args: argparse.Namespace) -> int:
    from polydip.variants.check import check_variant
    from polydip.variants.loader import load_variant

    v = load_variant(args.name)
    problems = check_variant(v)
    where = v.path
    if not problems:
        n_sc = sum(1 for p in v.provinces.values() if p.supply_center)
        print(f"{where}: OK — {len(v.provinces)} provinces, {len(v.edges)} edges, "
              f"{n_sc} centers, {len(v.powers)} powers")
        return 0
    for pr in problems:
        print(f"{where}: {pr}")
    print(f"{len(problems)} problem(s) found")
    return EXIT_ERROR


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
