"""`polydip variant ...`: list, show, import and check variants."""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from polydip.cli.common import EXIT_ERROR, EXIT_USAGE, add_search_path_option

if TYPE_CHECKING:  # annotations only
    from polydip.geography.map import Map
    from polydip.variants.model import Power, Variant


def register(sub: argparse._SubParsersAction) -> None:
    v = sub.add_parser("variant", help="list, show, check or import variants")
    vs = v.add_subparsers(title="variant commands", metavar="ACTION")
    vl = vs.add_parser("list", help="list built-in variants")
    vl.set_defaults(func=cmd_variant_list)
    vsh = vs.add_parser("show", help="describe a variant: its powers and a table of its "
                        "provinces")
    vsh.add_argument("name", help="a built-in variant name or a variant file")
    vsh.add_argument("--json", action="store_true", help="machine-readable output, with "
                     "each province's neighbours per unit kind")
    add_search_path_option(vsh)
    vsh.set_defaults(func=cmd_variant_show)
    vi = vs.add_parser("import", help="convert a DPjudge .map or Parlance .cfg file to TOML")
    vi.add_argument("file", help="the .map or .cfg file")
    vi.add_argument("-o", "--output", help="write the TOML here (default: standard output)")
    add_search_path_option(vi, "--search")
    vi.set_defaults(func=cmd_variant_import)
    vc = vs.add_parser("check", help="check a variant file and report every problem")
    vc.add_argument("name", help="a built-in variant name or a variant file")
    vc.add_argument("--board", action="store_true", help="also check the variant's board "
                    "against its map and print the figures (docs/boards.md)")
    add_search_path_option(vc)
    vc.set_defaults(func=cmd_variant_check)
    v.set_defaults(func=lambda a: (v.print_help(), EXIT_USAGE)[1])


def cmd_variant_list(args: argparse.Namespace) -> int:
    from polydip.variants.loader import builtin_names, load_variant

    names = builtin_names()
    width = max(len(n) for n in names) + 2
    for name in names:
        v = load_variant(name)
        players = sum(1 for p in v.powers if not p.neutral)
        neutral = len(v.powers) - players
        print(f"{name:{width}}{v.title} — {players} powers"
              + (f" (and {neutral} neutral)" if neutral else "")
              + f", {len(v.provinces)} provinces, {centers_text(v)}")
    from polydip.variants.search import named_files

    found = {n: p for n, p in named_files().items() if n.lower() not in names}
    if found:  # (loaded by name too: read when used, not here)
        print("\nVariant files on the search path (by name, e.g. `polydip new "
              f"{next(iter(found))} game.json`; the folders: POLYDIP_VARIANT_PATH, "
              "--search-path, the diplomacy package's maps):")
        by_folder: dict[Path, list[str]] = {}
        for n, p in found.items():
            by_folder.setdefault(p.parent, []).append(n)
        for folder, ns in by_folder.items():
            print(f"  {folder}: {', '.join(ns)}")
    return 0


def variant_summary(v: Variant) -> dict[str, Any]:
    from polydip.compile import compile_map

    m = compile_map(v)
    provinces = []
    home_of, territory_of = _holders(v)
    borders: dict[str, dict[str, list[str]]] = {}
    for e in v.edges:  # border kinds, both ways (rule borders: mountain, rainforest, ...)
        a, b = e.a.split("/")[0], e.b.split("/")[0]
        borders.setdefault(a, {}).setdefault(e.kind, []).append(e.b)
        borders.setdefault(b, {}).setdefault(e.kind, []).append(e.a)
    for i, (abbr, p) in enumerate(v.provinces.items()):
        provinces.append({
            "abbr": abbr,
            "name": p.name,
            "terrain": p.terrain,
            "classes": list(p.tags),
            "supply_center": p.supply_center is not None,
            "center_kind": p.supply_center,
            "center_value": p.center_value if p.supply_center else 0,
            "home_of": home_of.get(abbr),
            "territory_of": territory_of.get(abbr),
            "coasts": list(p.coasts),
            "borders": {k: sorted(set(x)) for k, x in sorted(borders.get(abbr, {}).items())},
            "army": any(m.occupy[k][i] for k in range(len(m.kinds)) if not m.kind_coastal[k]),
            "fleet": any(m.occupy[k][loc] for k in range(len(m.kinds)) if m.kind_coastal[k]
                         for loc in (i, *m.prov_coast_locs[i])),
            "neighbours": _neighbours(m, i),
        })
    return {
        "name": v.name,
        "title": v.title,
        "version": v.version,
        "provinces": provinces,
        "powers": [{"name": p.name, "letter": p.letter, "color": p.color, "homes": p.homes,
                    "capitals": _capitals(v, p), "territory": list(p.territory),
                    "neutral": p.neutral, "aliases": list(p.aliases)}
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


def _holders(v: Variant) -> tuple[dict[str, str], dict[str, str]]:
    """Province -> the power whose home center it is; province -> the power whose starting
    territory it is."""
    home_of = {h: p.name for p in v.powers for h in p.homes}
    territory_of = {t: p.name for p in v.powers for t in p.territory}
    return home_of, territory_of


def _capitals(v: Variant, power: Power) -> list[str]:
    return [h for h in power.homes if v.provinces[h].supply_center == "capital"]


def centers_text(v: Variant) -> str:
    """'34 centers'; '63 centers (71 by value)' where capitals count twice."""
    n = sum(1 for p in v.provinces.values() if p.supply_center)
    total = v.center_total()
    return f"{n} centers" + (f" ({total} by value)" if total != n else "")


def _neighbours(m: Map, prov: int) -> dict[str, list[str]]:
    """Per unit kind letter, the places a unit of that kind standing in `prov` may move to
    (for a unit kind on coasts: from any coast; the coast is named in the place)."""
    out = {}
    for k, letter in enumerate(m.kinds):
        locs = (prov, *m.prov_coast_locs[prov])
        dests = sorted({m.loc_name[d] for loc in locs if m.occupy[k][loc] for d in m.adj[k][loc]})
        if dests:
            out[letter] = dests
    return out


def cmd_variant_show(args: argparse.Namespace) -> int:
    from polydip.variants.loader import load_variant

    v = load_variant(args.name)
    info = variant_summary(v)
    if args.json:
        print(json.dumps(info, indent=1))
        return 0
    print(f"{v.title} ({v.name}, version {v.version})")
    if v.designer:
        print(f"  designer: {v.designer}")
    if v.source:
        print(f"  source:   {v.source}")
    print(f"  {len(info['provinces'])} provinces, {centers_text(v)}; "
          f"victory at {v.victory.centers} centers; starts {v.calendar.start}")
    for p in v.powers:
        also = f" (also {', '.join(p.aliases)})" if p.aliases else ""
        caps = _capitals(v, p)
        what = [f"capital {', '.join(caps)} (counts {v.provinces[caps[0]].center_value})"
                if caps else "",
                f"homes {', '.join(p.homes)}" if p.homes else "",
                f"centers {', '.join(p.centers)}" if p.centers != p.homes else "",
                f"units {', '.join(p.units)}" if p.units else "no units"]
        print(f"  {p.name} ({p.letter}){' (neutral)' if p.neutral else ''}{also}: "
              + "; ".join(w for w in what if w))
    if v.rules:
        print(f"  rules: {', '.join(v.rules)}")
    _province_table(v)
    return 0


def _province_table(v: Variant) -> None:
    """Every province: code, name, terrain and the classes rules use (mountain, rainforest,
    ...), supply center (its kind, whose home, its value), whose territory, coasts."""
    from rich.console import Console
    from rich.table import Table

    home_of, territory_of = _holders(v)
    show_territory = bool(territory_of)
    table = Table(box=None, pad_edge=False, show_edge=False, header_style="bold")
    cols = ["code", "name", "terrain", "center", *(["territory"] if show_territory else []),
            "coasts", "also called"]
    for col in cols:
        table.add_column(col, overflow="fold")
    for abbr, p in sorted(v.provinces.items()):
        center = ""
        kind = p.supply_center
        if kind:
            value = f" ({p.center_value})" if p.center_value != 1 else ""
            if abbr in home_of:
                center = (f"capital of {home_of[abbr]}" if kind == "capital"
                          else f"home of {home_of[abbr]}") + value
            else:
                center = ("center" if kind in ("center", "home") else kind) + value
        tags = [t for t in p.tags if t != p.terrain]
        terrain = p.terrain + (f" ({', '.join(tags)})" if tags else "")
        row = [abbr, p.name, terrain, center]
        if show_territory:
            row.append(territory_of.get(abbr, ""))
        table.add_row(*row, " ".join(p.coasts), ", ".join(p.aliases))
    print()
    Console(width=shutil.get_terminal_size((140, 24)).columns).print(table)


def cmd_variant_import(args: argparse.Namespace) -> int:
    from polydip.check import check_variant
    from polydip.game.files import write_atomic
    from polydip.variants.importers import import_variant
    from polydip.variants.writer import variant_to_toml

    v = import_variant(args.file)
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
    from polydip.check import check_variant
    from polydip.variants.loader import load_variant

    v = load_variant(args.name)
    problems = check_variant(v)
    where = v.path
    board_ok = True
    if args.board:
        from polydip.check import board_report

        board_ok, text = board_report(v)
        print(text)
    if not problems:
        print(f"{where}: OK — {len(v.provinces)} provinces, {len(v.edges)} edges, "
              f"{centers_text(v)}, {len(v.powers)} powers")
        return 0 if board_ok else EXIT_ERROR
    for pr in problems:
        print(f"{where}: {pr}")
    print(f"{len(problems)} problem(s) found")
    return EXIT_ERROR
