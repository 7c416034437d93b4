"""What the importers share: a draft of the variant as read, and its conversion to a Variant.

Each importer reads its format into a `Draft`: provinces with a terrain, *directed*
adjacencies per unit kind (as the source files list them: each place lists its neighbours),
powers, the first phase and the victory condition, each fact with the file and line it came
from. `build_variant` then turns the draft into polydip's `Variant`: it checks that every
adjacency is listed both ways (polydip's edges are symmetric), that every place named exists,
gives each power a unique letter and a colour, and records in `notes` what was imported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from polydip.errors import NotSupportedError, VariantError, did_you_mean
from polydip.names import name_key as normalize_name
from polydip.variants.model import (
    DEFAULT_CALENDAR,
    DEFAULT_EDGE_KINDS,
    DEFAULT_UNIT_KINDS,
    Calendar,
    Edge,
    EdgeKind,
    Power,
    Province,
    Season,
    Terrain,
    UnitKind,
    Variant,
    Victory,
)

# terrains an importer may use; only those a variant uses are written into it
TERRAINS: dict[str, tuple[tuple[str, ...], bool]] = {
    "land": (("A",), False),
    "coast": (("A", "F"), False),
    "sea": (("F",), True),
    # a coastal province whose fleet may also convoy (DPjudge PORT)
    "port": (("A", "F"), True),
    # no unit may enter or stand (DPjudge SHUT, e.g. Switzerland)
    "impassable": ((), False),
}

# distinct colours for powers whose source gives none
PALETTE = [
    "#c48f85", "#2a4d9c", "#5ea7d6", "#8a6d50", "#3e9c3a", "#b9b9b9", "#d9c23b", "#9c3a8e",
    "#e07b39", "#3aa39a", "#7a5cc4", "#c43a3a", "#6b8e23", "#d4a5d9", "#4d4d4d", "#a3c4e0",
    "#8b4513", "#f0e68c", "#20b2aa", "#ff8c69",
]


@dataclass(frozen=True, slots=True)
class Ref:
    """Where a fact was read: file name (as shown to the user) and line number."""

    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


def fail(ref: Ref | str, problem: str, suggestion: str = "") -> VariantError:
    """A VariantError naming the file, the line and the problem (and what to do)."""
    msg = f"{ref}: {problem}"
    if suggestion:
        msg += f"; {suggestion}"
    return VariantError(msg)


def unsupported(ref: Ref | str, what: str, detail: str = "") -> NotSupportedError:
    msg = f"{ref}: {what} is not supported by polydip yet"
    if detail:
        msg += f" ({detail})"
    return NotSupportedError(msg)


@dataclass(slots=True)
class DraftProvince:
    abbr: str
    ref: Ref
    terrain: str = ""
    name: str = ""
    aliases: list[str] = field(default_factory=list)
    coasts: list[str] = field(default_factory=list)
    supply_center: bool = False
    coords: tuple[float, float] | None = None
    coast_coords: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(slots=True)
class DraftPower:
    key: str  # the source's identifier, for messages
    name: str
    ref: Ref
    adjective: str = ""
    letter: str = ""  # as the source gives it; "" = choose one
    color: str = ""
    homes: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)  # "A PAR", "F STP/SC"
    centers: list[str] = field(default_factory=list)
    neutral: bool = False  # played by nobody: its units hold


@dataclass(slots=True)
class Draft:
    path: str
    name: str
    title: str = ""
    designer: str = ""
    source: str = ""
    notes: list[str] = field(default_factory=list)
    provinces: dict[str, DraftProvince] = field(default_factory=dict)
    # directed adjacency as listed: (from, to) -> where it was listed
    army: dict[tuple[str, str], Ref] = field(default_factory=dict)  # province -> province
    fleet: dict[tuple[str, str], Ref] = field(default_factory=dict)  # location -> location
    powers: list[DraftPower] = field(default_factory=list)
    start: str = "S1901M"
    victory: int | None = None
    rules: dict[str, dict[str, Any]] = field(default_factory=dict)
    coords: str = "xy"
    # refs to point at for whole-variant facts (the victory line, the start line)
    refs: dict[str, Ref] = field(default_factory=dict)


def variant_name(stem: str) -> str:
    """A variant name from a file name: lower case letters, digits and underscores."""
    name = re.sub(r"[^a-z0-9_]+", "_", stem.lower()).strip("_")
    return name or "imported"


def _split_loc(loc: str) -> tuple[str, str]:
    prov, _, coast = loc.partition("/")
    return prov, coast


def build_variant(d: Draft) -> Variant:
    """Turn a draft into a Variant; raise VariantError for what the source gets wrong."""
    provs = d.provinces
    _check_adjacency(d)
    edges = _edges(d)
    powers = _powers(d)
    _unique_aliases(d)
    used_terrains = {p.terrain for p in provs.values()}
    terrains = {name: Terrain(name, frozenset(occ), convoy)
                for name, (occ, convoy) in TERRAINS.items()
                if name in used_terrains or name in ("land", "coast", "sea")}
    provinces = {
        abbr: Province(abbr=abbr, name=p.name or abbr, terrain=p.terrain,
                       supply_center="center" if p.supply_center else None,
                       coasts=list(p.coasts), aliases=list(p.aliases), coords=p.coords,
                       coast_coords=dict(p.coast_coords))
        for abbr, p in sorted(provs.items())
    }
    n_sc = sum(1 for p in provinces.values() if p.supply_center)
    victory = d.victory if d.victory is not None else n_sc // 2 + 1
    cal = DEFAULT_CALENDAR
    calendar = Calendar(start=d.start,
                        seasons=[Season(s["name"], s["abbr"], tuple(s["phases"]))
                                 for s in cal["seasons"]],
                        centers_change_after=cal["centers_change_after"])
    unit_kinds = {k: UnitKind(k, v["name"], bool(v.get("coastal")), bool(v.get("convoyed")),
                              bool(v.get("convoys")))
                  for k, v in DEFAULT_UNIT_KINDS.items()}
    edge_kinds = {k: EdgeKind(k, frozenset(v["units"])) for k, v in DEFAULT_EDGE_KINDS.items()}
    return Variant(
        name=d.name,
        title=d.title or d.name,
        version="1",
        designer=d.designer,
        source=d.source,
        notes="\n\n".join(d.notes),
        coords=d.coords,
        unit_kinds=unit_kinds,
        terrains=terrains,
        edge_kinds=edge_kinds,
        powers=powers,
        provinces=provinces,
        edges=edges,
        calendar=calendar,
        victory=Victory(centers=victory),
        options={},
        rules={k: dict(v) for k, v in d.rules.items()},
        path=d.path,
        text="",
    )


def _check_adjacency(d: Draft) -> None:
    """Places named by adjacencies exist; adjacencies are listed both ways."""
    provs = d.provinces
    locs = set(provs)
    for p in provs.values():
        locs.update(f"{p.abbr}/{c}" for c in p.coasts)

    def known(loc: str, ref: Ref) -> None:
        if loc in locs:
            return
        prov = _split_loc(loc)[0]
        if prov in provs:
            have = ", ".join(provs[prov].coasts) or "none"
            raise fail(ref, f"{loc} is not a place: {prov} has coasts {have}")
        raise fail(ref, f"unknown place {loc!r}" + did_you_mean(prov, provs),
                   "declare it (with its terrain) or correct the abbreviation")

    # a place listed as its own neighbour (modern.cfg: "ICE=AMY ICE", a way to mark an
    # island as land) adds nothing: no unit moves to where it stands. Left out, with a note.
    selfs: list[str] = []
    for table, kind in ((d.army, "army"), (d.fleet, "fleet")):
        for (a, b), ref in table.items():
            known(a, ref)
            known(b, ref)
            if a == b:
                selfs.append(f"{a} ({ref})")
                continue
            if (b, a) not in table:
                raise fail(ref, f"one-way {kind} adjacency {a} -> {b}: {b} does not list {a}",
                           f"polydip's edges go both ways: add {a} to the {kind} neighbours "
                           f"of {b}, or remove {b} from those of {a}")
    if selfs:
        d.notes.append("The source lists places as their own neighbours; these adjacencies "
                       "are left out (no unit moves to where it stands): "
                       + ", ".join(selfs) + ".")


def _edges(d: Draft) -> list[Edge]:
    """The army adjacencies as land edges, the fleet ones as sea edges, each pair once."""
    edges: list[Edge] = []
    for table, kind in ((d.army, "land"), (d.fleet, "sea")):
        seen: set[tuple[str, str]] = set()
        for (a, b), ref in sorted(table.items(), key=lambda kv: kv[0]):
            if a == b:
                continue
            pair = (a, b) if a < b else (b, a)
            if pair in seen:
                continue
            seen.add(pair)
            edges.append(Edge(kind, pair[0], pair[1], str(ref)))
    return edges


def _powers(d: Draft) -> list[Power]:
    """The powers, once every place they name is known to exist."""
    provs = d.provinces
    for pw in d.powers:
        for what, lst in (("home", pw.homes), ("center", pw.centers)):
            for c in lst:
                if c not in provs:
                    raise fail(pw.ref, f"{pw.key}: unknown {what} province {c!r}"
                               + did_you_mean(c, provs))
        for u in pw.units:
            loc = u.split(" ", 1)[1]
            if _split_loc(loc)[0] not in provs:
                raise fail(pw.ref, f"{pw.key}: unit {u!r} stands on an unknown province"
                           + did_you_mean(_split_loc(loc)[0], provs))
    letters = _assign_letters(d)
    colors = _assign_colors(d)
    powers = [Power(name=pw.name, letter=letters[i], adjective=pw.adjective or pw.name,
                    color=colors[i], homes=list(pw.homes), units=list(pw.units),
                    centers=list(pw.centers), neutral=pw.neutral)
              for i, pw in enumerate(d.powers)]
    return powers


def _unique_aliases(d: Draft) -> None:
    """Aliases unique across the variant, as polydip matches them: one that would read as
    another place is left out, with a note."""
    provs = d.provinces
    owner: dict[str, str] = {}
    for abbr in sorted(provs):
        p = provs[abbr]
        for n in (p.abbr, p.name):
            owner.setdefault(normalize_name(n), abbr)
    dropped: list[str] = []
    for abbr in sorted(provs):
        p = provs[abbr]
        keep = []
        for a in p.aliases:
            key = normalize_name(a)
            if not key:
                continue
            other = owner.get(key)
            if other is None:
                owner[key] = abbr
                keep.append(a)
            elif other == abbr:
                if a not in keep and key not in (normalize_name(p.abbr), normalize_name(p.name)):
                    keep.append(a)
            else:
                dropped.append(f"{a!r} ({abbr}; also names {other})")
        p.aliases = keep
    if dropped:
        d.notes.append("Aliases left out because polydip (which folds case and punctuation) "
                       "would read them as another place: " + ", ".join(dropped) + ".")


def _assign_letters(d: Draft) -> list[str]:
    """One unique upper-case letter per power: the source's, else one from its name."""
    letters = [""] * len(d.powers)
    taken: set[str] = set()
    for i, pw in enumerate(d.powers):
        if pw.letter:
            if pw.letter in taken:
                raise fail(pw.ref, f"power letter {pw.letter!r} of {pw.key} is used by another "
                           "power", "give each power its own letter")
            letters[i] = pw.letter
            taken.add(pw.letter)
    invented = []
    for i, pw in enumerate(d.powers):
        if letters[i]:
            continue
        cands = [c for c in pw.name.upper() if c.isalpha()]
        cands += [chr(c) for c in range(ord("A"), ord("Z") + 1)]
        letter = next((c for c in cands if c not in taken), "")
        if not letter:
            raise fail(pw.ref, "more than 26 powers: polydip gives each power one letter")
        if cands and letter != cands[0]:
            invented.append(f"{pw.name} = {letter}")
        letters[i] = letter
        taken.add(letter)
    if invented:
        d.notes.append("Power letters chosen because the first letter was taken: "
                       + ", ".join(invented) + ".")
    return letters


def _assign_colors(d: Draft) -> list[str]:
    used = {pw.color for pw in d.powers if pw.color}
    free = [c for c in PALETTE if c not in used]
    out = []
    for pw in d.powers:
        if pw.color:
            out.append(pw.color)
        else:
            out.append(free.pop(0) if free else "#888888")
    return out


def header_comments(lines: list[str]) -> list[str]:
    """The comment block at the top of a file (without the comment marks)."""
    out: list[str] = []
    for line in lines:
        s = line.strip()
        if not s:
            if out:
                break
            continue
        if not s.startswith("#"):
            break
        out.append(s.lstrip("#").strip())
    while out and not out[-1]:
        out.pop()
    return out
