"""`polydip variant ...`: list, show, import and check variants."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from polydip.cli.common import (
    EXIT_ERROR,
    EXIT_USAGE,
)


def register(sub: argparse._SubParsersAction) -> None:
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
    vc.set_defaults(func=cmd_variant_check)
    v.set_defaults(func=lambda a: (v.print_help(), EXIT_USAGE)[1])


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
    if not problems:
        n_sc = sum(1 for p in v.provinces.values() if p.supply_center)
        print(f"{where}: OK — {len(v.provinces)} provinces, {len(v.edges)} edges, "
              f"{n_sc} centers, {len(v.powers)} powers")
        return 0
    for pr in problems:
        print(f"{where}: {pr}")
    print(f"{len(problems)} problem(s) found")
    return EXIT_ERROR
