"""`polydip variant check`: find every problem of a variant file, each named by its key/line."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from polydip.errors import PolydipError, did_you_mean
from polydip.geography.map import Map, normalize_name
from polydip.notation import parse_unit
from polydip.variants.model import Variant


@dataclass(frozen=True, slots=True)
class Problem:
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}[{self.key}] {self.message}"


def check_variant(v: Variant) -> list[Problem]:
    problems: list[Problem] = []

    def add(key: str, msg: str, needle: str = "") -> None:
        problems.append(Problem(key, msg, v.line_of(needle) if needle else None))

    provs = v.provinces
    # names and aliases are unique
    seen: dict[str, str] = {}
    for abbr, p in provs.items():
        for n in dict.fromkeys([p.abbr, p.name, *p.aliases]):
            key = normalize_name(n)
            if key in seen and seen[key] != abbr:
                add(f"provinces.{abbr}", f"name or alias {n!r} is also used by {seen[key]}",
                    f"[provinces.{abbr}]")
            seen.setdefault(key, abbr)
    # edges: places exist, no duplicates, coasts named where needed
    locs = set(provs)
    for abbr, p in provs.items():
        locs.update(f"{abbr}/{c}" for c in p.coasts)
    pairs: Counter = Counter()
    for e in v.edges:
        for end in (e.a, e.b):
            if end not in locs:
                prov = end.split("/")[0]
                hint = ""
                if prov in provs and "/" in end:
                    hint = f" ({prov} has coasts {', '.join(provs[prov].coasts) or 'none'})"
                elif prov not in provs:
                    hint = did_you_mean(prov, provs)
                add(e.key, f"unknown place {end!r}{hint}", f"{e.a}-{e.b}")
        if e.a == e.b:
            add(e.key, f"edge from {e.a} to itself", f"{e.a}-{e.b}")
        pairs[(e.kind, *sorted((e.a, e.b)))] += 1
        kinds = v.edge_kinds[e.kind].units
        for end in (e.a, e.b):
            prov = end.split("/")[0]
            if prov in provs and provs[prov].coasts and "/" not in end and any(
                    v.unit_kinds[k].coastal for k in kinds):
                add(e.key, f"{prov} has coasts {', '.join(provs[prov].coasts)}: a {e.kind} "
                    f"edge must name one ({prov}/{provs[prov].coasts[0]})", f"{e.a}-{e.b}")
            if prov in provs and kinds:  # (an edge kind no unit crosses marks a border)
                occupy = v.terrains[provs[prov].terrain].occupy
                # a convoying kind's edge to land it cannot enter (a glacier's shore) is
                # where convoyed units land: it is meaningful
                shore = any(v.unit_kinds[k].convoys for k in kinds) and any(
                    v.unit_kinds[k].convoyed for k in occupy if k in v.unit_kinds)
                if not occupy & kinds and not shore:
                    add(e.key, f"{e.kind} edge touches {prov}, where no unit that crosses "
                        f"{e.kind} edges ({', '.join(sorted(kinds))}) may stand",
                        f"{e.a}-{e.b}")
    for (kind, a, b), n in pairs.items():
        if n > 1:
            add(f"edges.{kind}", f"edge {a}-{b} is listed {n} times", f"{a}-{b}")
    # every coast is reachable by some edge
    used = {e.a for e in v.edges} | {e.b for e in v.edges}
    for abbr, p in provs.items():
        for c in p.coasts:
            if f"{abbr}/{c}" not in used:
                add(f"provinces.{abbr}.coasts", f"coast {abbr}/{c} has no edge: no fleet can "
                    "reach it", f"[provinces.{abbr}]")
        if v.terrains[p.terrain].occupy and not any(
                abbr in (e.a.split("/")[0], e.b.split("/")[0]) for e in v.edges):
            add(f"provinces.{abbr}", "province has no edges", f"[provinces.{abbr}]")
    # powers: homes, units, centers
    letters = Counter(p.letter for p in v.powers)
    for p in v.powers:
        key = f"powers.{p.name}"
        if letters[p.letter] > 1:
            add(key, f"letter {p.letter!r} is used by more than one power", f'"{p.name}"')
        if not p.homes and not p.neutral:
            add(key, "power has no home center", f'"{p.name}"')
        for what in ("homes", "centers"):
            for h in getattr(p, what):
                if what == "centers" and h in p.homes:
                    continue  # reported once, as a home
                if h not in provs:
                    add(f"{key}.{what}", f"unknown province {h!r}" + did_you_mean(h, provs),
                        f'"{h}"')
                elif not provs[h].supply_center:
                    add(f"{key}.{what}", f"{h} is not a supply center", f'"{p.name}"')
        for t in p.territory:
            if t not in provs:
                add(f"{key}.territory", f"unknown province {t!r} in territory"
                    + did_you_mean(t, provs), f'"{t}"')
    owners = Counter(c for p in v.powers for c in p.centers)
    for c, n in owners.items():
        if n > 1:
            add("powers", f"center {c} is owned by {n} powers at the start")
    # starting units stand on legal places (compile the map to use its rules)
    try:
        # compile what is sound (the problems above are reported already)
        powers = [replace(p, homes=[h for h in p.homes if h in provs],
                          centers=[c for c in p.centers if c in provs]) for p in v.powers]
        m = Map(replace(v, edges=[e for e in v.edges if e.a in locs and e.b in locs],
                        powers=powers))
        taken: dict[int, str] = {}
        for p in v.powers:
            for t in p.units:
                try:
                    _, loc = parse_unit(m, t)
                except PolydipError as exc:
                    add(f"powers.{p.name}.units", str(exc), t)
                    continue
                prov = m.loc_prov[loc]
                if prov in taken:
                    add(f"powers.{p.name}.units", f"{t}: {m.prov_abbr[prov]} already holds "
                        f"{taken[prov]}", t)
                taken[prov] = t
    except PolydipError as exc:
        add("edges", str(exc))
    # victory is reachable (centers count by their value: a capital worth 2 counts twice)
    n_sc = v.center_total()
    if v.victory.centers > n_sc:
        add("victory.centers", f"{v.victory.centers} centers needed but the map has {n_sc}")
    if "supply_centers" in v.declared and v.declared["supply_centers"] != n_sc:
        add("variant.supply_centers",
            f"declares {v.declared['supply_centers']} supply centers, the map has {n_sc}"
            + (" (counted by value)" if any(p.center_value != 1 for p in provs.values())
               else ""), "supply_centers")
    if "provinces" in v.declared and v.declared["provinces"] != len(provs):
        add("variant.provinces",
            f"declares {v.declared['provinces']} provinces, the map has {len(provs)}",
            "provinces =")
    seasons = {s.abbr for s in v.calendar.seasons}
    if v.calendar.centers_change_after not in seasons:
        add("calendar.centers_change_after", f"unknown season {v.calendar.centers_change_after!r}")
    return problems
