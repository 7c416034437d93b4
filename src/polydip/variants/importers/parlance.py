"""Import a Parlance / Parterre variant file (`.cfg`).

The format, as `parlance.gameboard.Variant.parse` reads it: INI-like sections of
`KEY=value` lines (`#` starts a comment line), names are DAIDE tokens:

    [variant]     name=, description=, judge=standard, start=SPR 1901, base=OTHER
    [powers]      AUS=Austria,Austrian                      power token = name, adjective
    [provinces]   ADR=Adriatic Sea                          province token = full name
    [homes]       AUS=BUD,TRI,VIE   UNO=BEL,...             home centers (UNO: neutral ones);
                                                            every province listed is a center
    [ownership]   AUS=BUD,TRI,VIE   UNO=...                 centers owned at the start
    [positions]   RUS=AMY MOS,FLT STP SCS                   starting units
    [borders]     SPA=AMY GAS POR, (FLT NCS) GAS MAO POR, (FLT SCS) GOL MAO ...
                  STP=AMY ..., FLT ... (SPA NCS) ...        destinations with a coast in brackets

A province's terrain follows from its [borders] line as in Parlance: no AMY part = sea; AMY
and FLT parts = coast (an island is `AMY` with no neighbours plus FLT); AMY only = inland.
`base=OTHER` takes every section this file leaves out from OTHER.cfg (looked for beside the
file, then in the search path; Parlance ships `standard.cfg` in parlance/data/).
Without [ownership], each power owns the centers its starting units stand on (Parlance's rule).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from polydip.errors import VariantError, did_you_mean
from polydip.variants import untrusted as bounds
from polydip.variants.importers._common import (
    Draft,
    DraftPower,
    DraftProvince,
    Ref,
    build_variant,
    fail,
    header_comments,
    unsupported,
    variant_name,
)
from polydip.variants.model import Variant
from polydip.variants.search import HOW_TO_ADD

SECTIONS = ("variant", "powers", "provinces", "homes", "ownership", "positions", "borders")
VARIANT_KEYS = ("name", "base", "mapname", "description", "judge", "start")
COASTS = {"NCS": "NC", "SCS": "SC", "ECS": "EC", "WCS": "WC",
          "NEC": "NE", "NWC": "NW", "SEC": "SE", "SWC": "SW"}
UNIT_TOKENS = {"AMY": "A", "FLT": "F"}
START = {"SPR": ("S", "M"), "SUM": ("S", "R"), "FAL": ("F", "M"), "AUT": ("F", "R"),
         "WIN": ("W", "A")}
_TOKENS = re.compile(r"\(|\)|[^\s()]+")


@dataclass(slots=True)
class _Cfg:
    """One .cfg file as read: section -> key -> (value, ref), in file order."""

    path: Path
    shown: str
    lines: list[str]
    sections: dict[str, dict[str, tuple[str, Ref]]] = field(default_factory=dict)
    section_ref: dict[str, Ref] = field(default_factory=dict)


def import_cfg(path: str | Path, search_path: Sequence[str | Path] | None = None
               ) -> Variant:
    """Read a Parlance/Parterre `.cfg` variant file (and its base) into a Variant."""
    p = Path(path)
    if not p.is_file():
        raise VariantError(f"{p}: no such file")
    search = [Path(s) for s in search_path or []]
    return build_variant(_Builder(p, search).draft())


def import_cfg_text(text: str, shown: str, untrusted: bool = True) -> Variant:
    """A Parlance variant from its text alone, `shown` its file name in messages.
    `untrusted` (someone else's file): `base=` (another file) is refused, and the size is
    bounded while it is read (polydip.variants.untrusted)."""
    builder = _Builder(Path(shown), [], untrusted=untrusted)
    builder.chain = [_parse(text, Path(shown), shown, untrusted)]
    return build_variant(builder.draft())


def _read(path: Path, shown: str) -> _Cfg:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        text = path.read_text(encoding="latin-1")
    except OSError as exc:
        raise VariantError(f"{shown}: cannot read: {exc}") from exc
    return _parse(text, path, shown)


def _parse(text: str, path: Path, shown: str, untrusted: bool = False) -> _Cfg:
    cfg = _Cfg(path, shown, text.splitlines())
    section: str | None = None
    said = 0  # lines that say something (bounded when untrusted)
    for lineno, raw in enumerate(cfg.lines, 1):
        ref = Ref(shown, lineno)
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        said += 1
        if untrusted and said > bounds.MAX_LINES:
            raise fail(ref, f"more than {bounds.MAX_LINES:,} lines; an uploaded variant file "
                       "has at most that many")
        if untrusted and len(line.split()) > bounds.MAX_WORDS:
            raise fail(ref, f"more than {bounds.MAX_WORDS:,} words on one line")
        if line.startswith("["):
            if not line.endswith("]"):
                raise fail(ref, f"section heading {line!r} has no closing ']'")
            section = line[1:-1].strip().lower()
            if section not in SECTIONS:
                raise fail(ref, f"unknown section [{section}]" + did_you_mean(section, SECTIONS),
                           "sections are " + ", ".join(f"[{s}]" for s in SECTIONS))
            if section in cfg.sections:
                raise fail(ref, f"section [{section}] appears twice (first at "
                           f"{cfg.section_ref[section]})", "merge the two")
            cfg.sections[section] = {}
            cfg.section_ref[section] = ref
            continue
        if section is None:
            raise fail(ref, f"{line!r} is outside any section", "start with [variant]")
        if "=" not in line:
            raise fail(ref, f"{line!r} has no '='", "write KEY=value")
        key, value = (s.strip() for s in line.split("=", 1))
        if not key:
            raise fail(ref, "no key before '='", "write KEY=value")
        if section != "variant":
            key = key.upper()
        if key in cfg.sections[section]:
            raise fail(ref, f"{key} appears twice in [{section}] (first at "
                       f"{cfg.sections[section][key][1]})")
        cfg.sections[section][key] = (value, ref)
    return cfg


def _items(value: str) -> list[str]:
    return [s.strip() for s in value.split(",") if s.strip()]


# a section's lines: key -> (value, where)
Section = dict[str, tuple[str, Ref]]


def _terrain_of(prov: str, lst: list[tuple[str, str, list, Ref]],
                ref: Ref) -> tuple[str, list[str]]:
    """A province's terrain and coasts, from its [borders] parts: no AMY part, sea; AMY and
    FLT parts, coast; AMY only, land."""
    kinds = [(u, c) for u, c, _, _ in lst]
    coasts = [c for u, c in kinds if c]
    has_army = ("A", "") in kinds
    has_fleet = ("F", "") in kinds
    if coasts and has_fleet:
        raise fail(ref, f"{prov} has both a plain FLT part and coast parts",
                   "give a province with coasts only (FLT XCS) parts")
    if not has_army and coasts:
        raise fail(ref, f"{prov} has coasts but no AMY part",
                   "a province with coasts is land: add an AMY part")
    if has_army and (has_fleet or coasts):
        terrain = "coast"
    elif has_army:
        terrain = "land"
    elif has_fleet:
        terrain = "sea"
    else:
        raise fail(ref, f"{prov} has neither an AMY nor a FLT part")
    return terrain, coasts


class _Builder:
    def __init__(self, top: Path, search: list[Path], untrusted: bool = False) -> None:
        self.top = top
        self.search = search
        self.untrusted = untrusted  # read from its text alone: no base file
        self.chain: list[_Cfg] = []  # the file, then its base, then the base's base...

    def _load_chain(self) -> None:
        if self.untrusted:  # (import_cfg_text read the one file of the chain)
            cfg = self.chain[0]
        else:
            cfg = _read(self.top, str(self.top))
            self.chain = [cfg]
        seen = set() if self.untrusted else {self.top.resolve()}
        while True:
            var = cfg.sections.get("variant", {})
            for key, (_, ref) in var.items():
                if key not in VARIANT_KEYS:
                    raise fail(ref, f"unknown [variant] key {key!r}"
                               + did_you_mean(key, VARIANT_KEYS),
                               "keys are " + ", ".join(VARIANT_KEYS))
            if "judge" in var and var["judge"][0].lower() != "standard":
                raise unsupported(var["judge"][1], f"the Parlance judge {var['judge'][0]!r}",
                                  "only judge=standard is")
            if "base" not in var:
                return
            base, ref = var["base"]
            if self.untrusted:
                raise fail(ref, "base= includes another file; a variant file from someone "
                           "else (an upload) cannot include files",
                           "copy the sections it takes from the base into this file")
            dirs = [cfg.path.parent, *self.search]
            found = next((d / f"{base}.cfg" for d in dirs if (d / f"{base}.cfg").is_file()),
                         None)
            if found is None:
                raise fail(ref, f"base variant {base!r} not found (looked for {base}.cfg in "
                           f"{', '.join(str(d) for d in dirs)})",
                           HOW_TO_ADD)
            if found.resolve() in seen:
                raise fail(ref, f"base variant {base!r} leads back to itself")
            seen.add(found.resolve())
            shown = str(found) if found.parent != cfg.path.parent else str(
                cfg.path.parent / found.name) if str(cfg.path.parent) != "." else found.name
            cfg = _read(found, shown)
            self.chain.append(cfg)

    def _section(self, name: str) -> tuple[dict[str, tuple[str, Ref]], _Cfg | None]:
        """A section from the first file of the chain that has it (Parlance's base rule)."""
        for cfg in self.chain:
            sec = cfg.sections.get(name)
            if sec:
                return sec, cfg
        return {}, None

    def draft(self) -> Draft:
        self._load_chain()
        top = self.chain[0]
        var = top.sections.get("variant", {})
        name = var["name"][0] if "name" in var else self.top.stem
        d = Draft(path=str(self.top), name=variant_name(name))
        d.title = var["description"][0] if "description" in var else name
        notes = self._draft_header(d)
        self._draft_start(d)
        specs = self._draft_provinces(d, top)
        self._draft_adjacency(d, specs)
        owned, derived_from = self._draft_powers(d, top)
        d.notes = notes + self._draft_notes(top, owned, derived_from)
        return d

    def _draft_header(self, d: Draft) -> list[str]:
        """The designer and the source from the file's header comments; the first notes."""
        header = header_comments(self.chain[0].lines)
        for h in header:
            m = re.match(r"Designed by (.+)", h)
            if m:
                who = re.split(r",? (?:in \d|and introduced|based on)", m.group(1))[0]
                d.designer = who.strip().rstrip(",").strip()
        d.source = (f"imported from {self.top.name} (Parlance/Parterre variant file)"
                    + "".join(f"; {h}" for h in header if h.startswith("http")))
        files = [c.path.name for c in self.chain]
        notes = [f"Imported from the Parlance variant file {self.top.name} by polydip's "
                 f"importer (files read: {', '.join(files)})."]
        if header:
            notes.append("Header of the source file:\n" + "\n".join(header))
        return notes

    def _draft_start(self, d: Draft) -> None:
        """The start phase (`start=SPR 1901`), from the file or its base."""
        start = next((c.sections["variant"]["start"] for c in self.chain
                      if "start" in c.sections.get("variant", {})), None)
        if start:
            value, ref = start
            parts = value.split()
            if len(parts) != 2 or parts[0].upper() not in START or not parts[1].lstrip(
                    "-").isdigit():
                raise fail(ref, f"start={value!r} is not a turn",
                           "write e.g. 'start=SPR 1901' (seasons SPR SUM FAL AUT WIN)")
            season, typ = START[parts[0].upper()]
            d.start = f"{season}{int(parts[1])}{typ}"

    def _draft_provinces(self, d: Draft,
                         top: _Cfg) -> dict[str, list[tuple[str, str, list, Ref]]]:
        """The provinces, their terrain following from their [borders] parts; answers each
        province's parts (unit kind, coast, neighbours, where)."""
        borders, _ = self._section("borders")
        if not borders:
            raise fail(top.shown, "no [borders] section (in the file or its base)",
                       "list each province's neighbours under [borders]")
        names, _ = self._section("provinces")
        specs: dict[str, list[tuple[str, str, list, Ref]]] = {}
        for prov, (value, ref) in borders.items():
            if not re.fullmatch(r"[A-Z0-9]+", prov):
                raise fail(ref, f"invalid province token {prov!r}",
                           "a province token is letters and digits")
            specs[prov] = self._parse_borders(prov, value, ref)
        for prov, (_, ref) in names.items():
            if prov not in borders:
                raise fail(ref, f"[provinces] names {prov}, which has no [borders] line"
                           + did_you_mean(prov, borders))
        for prov, lst in specs.items():
            ref = borders[prov][1]
            terrain, coasts = _terrain_of(prov, lst, ref)
            pname = names[prov][0] if prov in names and names[prov][0] else prov
            d.provinces[prov] = DraftProvince(abbr=prov, ref=ref, terrain=terrain, name=pname,
                                              coasts=coasts)
        return specs

    def _draft_adjacency(self, d: Draft,
                         specs: dict[str, list[tuple[str, str, list, Ref]]]) -> None:
        """The army and fleet edges of the [borders] parts."""
        for prov, lst in specs.items():
            for unit, coast, dests, ref in lst:
                here = f"{prov}/{coast}" if coast else prov
                for dest in dests:
                    self._known(d, dest, ref)
                    if unit == "A":
                        if "/" in dest:
                            raise fail(ref, f"army neighbour {dest} of {prov} names a coast",
                                       "armies move between provinces: drop the coast")
                        d.army.setdefault((here, dest), ref)
                    else:
                        coasts = [] if "/" in dest else d.provinces[dest].coasts
                        if coasts:
                            raise fail(ref, f"fleet neighbour {dest} of {here} has coasts "
                                       f"({', '.join(coasts)}): name one",
                                       f"write ({dest} {_daide_coast(coasts[0])})")
                        d.fleet.setdefault((here, dest), ref)

    def _draft_powers(self, d: Draft, top: _Cfg
                      ) -> tuple[dict[str, list[str]], str | None]:
        """Powers, homes, ownership, positions; answers who owns what at the start and the
        file the ownership was derived from (None: [ownership] says it)."""
        powers, _ = self._section("powers")
        homes, _ = self._section("homes")
        ownership, _ = self._section("ownership")
        positions, _ = self._section("positions")
        if not homes:
            raise fail(top.shown, "no [homes] section (in the file or its base)",
                       "list each power's home centers, and UNO's neutral ones, under [homes]")
        self._check_power_sections(d, homes, ownership, positions)
        all_homes = [c for value, _ in homes.values() for c in _items(value)]
        for c in all_homes:
            d.provinces[c].supply_center = True
        units: dict[str, list[str]] = {}
        for key, (value, ref) in positions.items():
            if key == "UNO":
                raise unsupported(ref, "neutral starting units (UNO in [positions])")
            units[key] = [self._unit(item, ref, d) for item in _items(value)]
        owned, derived_from = self._ownership(d)
        for key, lst in owned.items():
            for c in lst:
                if not d.provinces[c].supply_center:
                    ref = ownership[key][1] if key in ownership else d.provinces[c].ref
                    raise fail(ref, f"{key} owns {c} at the start, but {c} is not a supply "
                               "center", "list it under [homes] (UNO for a neutral center)")
        order = [k for k in powers if k in homes] + [k for k in homes if k not in powers]
        for key in order:
            if key == "UNO":
                continue
            value, ref = homes[key]
            pname, adj = key, ""
            if key in powers:
                pv = powers[key][0]
                if pv:
                    bits = [s.strip() for s in pv.split(",", 1)]
                    pname = bits[0] or key
                    adj = bits[1] if len(bits) > 1 else pname
            d.powers.append(DraftPower(key=key, name=pname, ref=ref, adjective=adj,
                                       homes=_items(value), units=units.get(key, []),
                                       centers=owned.get(key, [])))
        for key, (_, ref) in powers.items():
            if key != "UNO" and key not in homes:
                raise fail(ref, f"[powers] names {key}, which has no [homes] line",
                           "give it home centers under [homes] or remove it")
        return owned, derived_from

    def _check_power_sections(self, d: Draft, homes: Section, ownership: Section,
                              positions: Section) -> None:
        """Every power named in [homes], [ownership], [positions] has a [homes] line, and
        every province they name exists."""
        for sec, cfgname in ((homes, "homes"), (ownership, "ownership"), (positions, "positions")):
            for key, (value, ref) in sec.items():
                if key != "UNO" and key not in homes:
                    raise fail(ref, f"[{cfgname}] names power {key}, which has no [homes] line"
                               + did_you_mean(key, homes))
                if cfgname != "positions":
                    for c in _items(value):
                        if c not in d.provinces:
                            raise fail(ref, f"unknown province {c!r} in [{cfgname}] {key}"
                                       + did_you_mean(c, d.provinces))

    def _draft_notes(self, top: _Cfg, owned: dict[str, list[str]],
                     derived_from: str | None) -> list[str]:
        """How the import read the file, for the variant's notes."""
        notes: list[str] = []
        notes.append("Province terrains follow from the [borders] lines (no AMY part: sea; "
                     "AMY and FLT parts: coast; AMY only: land), supply centers from [homes], "
                     "as Parlance reads them.")
        if derived_from is not None:
            notes.append(f"{derived_from} has no [ownership]: each power owns the home centers "
                         "its starting units stand on, as Parlance decides.")
        if not owned:
            notes.append("No [ownership] and nothing to derive it from: no power owns a "
                         "center at the start (as in Parlance).")
        if len(self.chain) > 1:
            took = [f"[{s}] from {cfg.path.name}" for s in SECTIONS[1:]
                    for cfg in [self._section(s)[1]] if cfg is not None and cfg is not top]
            if took:
                notes.append("Taken from the base variant: " + ", ".join(took) + ".")
        notes.append("No coordinates: Parlance variant files have none (the renderer needs "
                     "'coords' for every province to draw it).")
        return notes

    # ---- helpers ---------------------------------------------------------------------------

    def _ownership(self, d: Draft) -> tuple[dict[str, list[str]], str | None]:
        """Owners at the start: Parlance takes [ownership] from the first file of the chain
        that has it, or derives it (in that file) from the file's own [positions] and [homes]."""
        for cfg in self.chain:
            sec = cfg.sections
            if sec.get("ownership"):
                return {k: _items(v) for k, (v, _) in sec["ownership"].items()}, None
            if sec.get("positions") and sec.get("homes"):
                free = {c for v, _ in sec["homes"].values() for c in _items(v)}
                owned: dict[str, list[str]] = {}
                for key, (value, ref) in sec["positions"].items():
                    mine = []
                    for item in _items(value):
                        prov = self._unit(item, ref, d).split()[1].split("/")[0]
                        if prov in free:
                            free.discard(prov)
                            mine.append(prov)
                    owned[key] = sorted(mine)
                return owned, cfg.path.name
        return {}, None

    def _known(self, d: Draft, loc: str, ref: Ref) -> None:
        prov, _, coast = loc.partition("/")
        if prov not in d.provinces:
            raise fail(ref, f"unknown province {prov!r}" + did_you_mean(prov, d.provinces),
                       "each neighbour needs its own [borders] line")
        if coast and coast not in d.provinces[prov].coasts:
            have = ", ".join(_daide_coast(c) for c in d.provinces[prov].coasts) or "none"
            raise fail(ref, f"{prov} has no coast {_daide_coast(coast)} (it has {have})")

    def _parse_borders(self, prov: str, value: str, ref: Ref) -> list[tuple[str, str, list, Ref]]:
        out: list[tuple[str, str, list, Ref]] = []
        seen = set()
        for spec in value.split(","):
            toks = _TOKENS.findall(spec)
            if not toks:
                continue
            if toks[0] == "(":
                if len(toks) < 4 or toks[3] != ")" or toks[1] not in UNIT_TOKENS:
                    raise fail(ref, f"{prov}: {spec.strip()!r} does not start with a unit "
                               "and a coast", "write '(FLT NCS) ...'")
                unit, coast = UNIT_TOKENS[toks[1]], self._coast(toks[2], ref)
                rest = toks[4:]
            elif toks[0] in UNIT_TOKENS:
                unit, coast, rest = UNIT_TOKENS[toks[0]], "", toks[1:]
            else:
                raise fail(ref, f"{prov}: {spec.strip()!r} does not start with AMY or FLT"
                           + did_you_mean(toks[0], UNIT_TOKENS),
                           "write 'AMY x y z, FLT a b c'")
            if (unit, coast) in seen:
                raise fail(ref, f"{prov}: two {toks[0]} parts"
                           + (f" for coast {coast}" if coast else ""))
            seen.add((unit, coast))
            dests = []
            i = 0
            while i < len(rest):
                t = rest[i]
                if t == "(":
                    if i + 3 >= len(rest) or rest[i + 3] != ")" or "(" in rest[i + 1:i + 3]:
                        raise fail(ref, f"{prov}: {spec.strip()!r}: a bracket holds a "
                                   "province and a coast", "write (PRO NCS)")
                    dests.append(f"{rest[i + 1]}/{self._coast(rest[i + 2], ref)}")
                    i += 4
                elif t == ")":
                    raise fail(ref, f"{prov}: unbalanced ')' in {spec.strip()!r}")
                else:
                    dests.append(t)
                    i += 1
            out.append((unit, coast, dests, ref))
        return out

    def _coast(self, tok: str, ref: Ref) -> str:
        if tok not in COASTS:
            raise fail(ref, f"unknown coast {tok!r}" + did_you_mean(tok, COASTS),
                       "coasts are " + ", ".join(COASTS))
        return COASTS[tok]

    def _unit(self, item: str, ref: Ref, d: Draft) -> str:
        toks = item.split()
        if len(toks) not in (2, 3) or toks[0] not in UNIT_TOKENS:
            raise fail(ref, f"{item!r} is not a unit", "write 'AMY PAR' or 'FLT STP SCS'")
        loc = toks[1]
        if len(toks) == 3:
            loc += "/" + self._coast(toks[2], ref)
        self._known(d, loc, ref)
        return f"{UNIT_TOKENS[toks[0]]} {loc}"


def _daide_coast(coast: str) -> str:
    return next((k for k, v in COASTS.items() if v == coast), coast)
