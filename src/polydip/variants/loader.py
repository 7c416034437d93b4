"""Read a variant TOML file into a Variant, naming the key of every structural problem.

Two modes. The default reads what the user names: a built-in variant, or a file by path,
which may include others (`.map`/`.cfg`) found through the search path. The untrusted mode
(`load_variant(..., sandbox=True)`, `load_variant_text(text, filename)`, and every file in a
folder given to `untrusted_folder`) is for files from other people, such as the host's
uploads: the file is read from its own text only, includes nothing, consults no search path,
names only its own file name in errors, and is bounded before any work
(polydip.variants.untrusted).
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path, PurePath
from typing import Any

from polydip.errors import VariantError, did_you_mean
from polydip.variants import untrusted as bounds
from polydip.variants.model import (
    DEFAULT_CALENDAR,
    DEFAULT_EDGE_KINDS,
    DEFAULT_TERRAINS,
    DEFAULT_UNIT_KINDS,
    PHASE_TYPES,
    Calendar,
    CoastName,
    Edge,
    EdgeKind,
    PhaseKind,
    Power,
    Province,
    Season,
    Terrain,
    UnitKind,
    Variant,
    Victory,
)
from polydip.variants.search import find_named
from polydip.variants.search import search_path as search

# a phase kind read as text → the same word, typed as a kind (PHASE_TYPES' keys)
_PHASE_KINDS: dict[str, PhaseKind] = {k: k for k in PHASE_TYPES}


def builtin_names() -> list[str]:
    """Names of the variants shipped with polydip."""
    data = resources.files("polydip.variants") / "data"
    return sorted(p.name[:-5] for p in data.iterdir() if p.name.endswith(".toml"))


def builtin_text(name: str) -> str:
    """The variant file of a built-in variant (a name of builtin_names()), as shipped."""
    res = resources.files("polydip.variants") / "data" / f"{name.lower()}.toml"
    return res.read_text(encoding="utf-8")


_LOADED: dict[tuple[str | int | bool, ...], Variant] = {}
UPLOAD_PREFIX = "<upload>/"  # an untrusted variant's path: no folder of the server
# folders whose files are always read in untrusted mode (the host's uploads)
_UNTRUSTED: list[Path] = []


def untrusted_folder(folder: str | Path) -> None:
    """Read every variant file in `folder` in untrusted mode, whoever loads it by path (a
    game file names an upload by its path; reloading it must not follow an include)."""
    p = Path(folder).resolve()
    if p not in _UNTRUSTED:
        _UNTRUSTED.append(p)


def _in_untrusted_folder(path: Path) -> bool:
    if not _UNTRUSTED:
        return False
    try:
        parent = path.resolve().parent
    except (OSError, ValueError):
        return False
    return any(parent == f or f in parent.parents for f in _UNTRUSTED)


def load_variant(name_or_path: str | Path,
                 search_path: list[str | Path] | None = None, *,
                 sandbox: bool = False) -> Variant:
    """Load a built-in variant by name, or a variant file by path.

    `search_path`: folders where the files a `.map`/`.cfg` variant includes are looked for
    (besides the command line's, POLYDIP_VARIANT_PATH and Parlance's data: see
    polydip.variants.search).

    `sandbox`: untrusted mode (also for any file of an `untrusted_folder`). A name without a
    suffix is a built-in variant, read from polydip's own data and never from a file of that
    name; a path is read alone, as `load_variant_text(..., untrusted=True)` reads it: no
    include, no search path, bounded, and errors that name the file's base name only.

    The same file gives the same Variant object while it is unchanged, so its compiled map
    (and the caches the engine keeps per map) serve every game of that variant. Treat the
    returned Variant as read-only.
    """
    path = Path(str(name_or_path))
    if sandbox and path.suffix == "":
        return load_builtin(str(name_or_path))
    try:
        st = path.stat() if path.is_file() else None
    except (OSError, ValueError):
        st = None
    sandbox = sandbox or (st is not None and _in_untrusted_folder(path))
    key: tuple[str | int | bool, ...] = ((str(path.resolve()), st.st_mtime_ns, st.st_size)
                                         if st else (str(name_or_path),))
    key += (sandbox,)
    if st and not sandbox and path.suffix.lower() in (".map", ".cfg"):  # what it includes
        key += tuple(str(p) for p in search(search_path))  # may come from any search folder
    v = _LOADED.get(key)
    if v is None:
        v = _load_untrusted(path) if sandbox else _load_variant(name_or_path, search_path)
        if len(_LOADED) > 64:
            _LOADED.clear()
        _LOADED[key] = v
    return v


def _no_variant(name: str) -> str:
    """What to say of a name that is no built-in variant."""
    names = builtin_names()
    return (f"no variant named {name[:80]!r}" + did_you_mean(name[:80], names)
            + f"; built-in variants: {', '.join(names)}")


def load_builtin(name: str) -> Variant:
    """A variant shipped with polydip, by name; reads no file but polydip's own data."""
    if name.lower() not in builtin_names():
        raise VariantError(_no_variant(name))
    key = ("<built-in>", name.lower())
    v = _LOADED.get(key)
    if v is None:
        v = parse_variant(builtin_text(name), f"<built-in {name.lower()}>")
        _LOADED[key] = v
    return v


def load_variant_text(text: str, filename: str, *, untrusted: bool = True,
                      path: str | None = None) -> Variant:
    """A variant from the text of a file named `filename` (its suffix says the format:
    `.map` DPjudge, `.cfg` Parlance, anything else TOML).

    `untrusted` (the default): the text is someone else's, such as an upload. It is
    checked against the limits of polydip.variants.untrusted before it is parsed; it may
    include no other file (`USE`, `MAP`, `base=` are refused); errors name `filename`'s
    base name and the line, nothing of the server. Its Variant's path is
    `<upload>/NAME`: messages of later stages (rule modules, map checks) name the file
    that way, and a game file records no path for it (the host keeps the text itself).
    `path`: a path to record instead.
    """
    shown = bounds.shown_name(filename) if untrusted else filename
    suffix = PurePath(shown).suffix.lower()
    if untrusted:
        bounds.check_text(text, shown)
    if suffix in (".map", ".cfg"):  # (the importers are imported only when used: a game of
        # a polydip variant, as `polydip render` loads, never needs them)
        from polydip.variants.importers.dpjudge import import_map_text
        from polydip.variants.importers.parlance import import_cfg_text

        read = import_map_text if suffix == ".map" else import_cfg_text
        v = read(text, shown, untrusted=untrusted)
        check_bounds(v, shown, untrusted)
    else:
        v = parse_variant(text, shown, untrusted=untrusted)
    if path is not None:
        v.path = path
    elif untrusted:
        v.path = f"{UPLOAD_PREFIX}{shown}"
    return v


def check_bounds(v: Variant, shown: str, untrusted: bool) -> None:
    """An untrusted variant's counts and phase names within the limits; every name free of
    control characters (in any mode)."""
    if untrusted:
        bounds.check_counts([
            ("provinces", len(v.provinces), bounds.MAX_PROVINCES),
            ("edges", len(v.edges), bounds.MAX_EDGES),
            ("powers", len(v.powers), bounds.MAX_POWERS),
            ("starting units", sum(len(p.units) for p in v.powers), bounds.MAX_UNITS),
        ], shown)
        # a phase's name (season abbreviation, year, phase letter) is short: it is stored
        # and shown everywhere
        for i, season in enumerate(v.calendar.seasons):
            if len(season.abbr) > bounds.MAX_SEASON_ABBR:
                raise VariantError(f"{shown}: [calendar.seasons[{i}].abbr] at most "
                                   f"{bounds.MAX_SEASON_ABBR} characters (a phase is named "
                                   "like S1901M)")
        if len(v.calendar.start) > bounds.MAX_START:
            raise VariantError(f"{shown}: [calendar.start] at most {bounds.MAX_START} "
                               "characters (a phase is named like S1901M)")
    names: list[tuple[str, str]] = [("variant.name", v.name)]  # (a title is free text)
    for abbr, p in v.provinces.items():
        key = f"provinces.{abbr[:20]}"
        names += [(key, abbr), (f"{key}.name", p.name)]
        names += [(f"{key}.aliases", a) for a in p.aliases]
        names += [(f"{key}.coasts", c) for c in [*p.coasts, *p.coast_names.values()]]
    for c in v.coasts.values():
        names += [(f"coasts.{c.abbr[:20]}", n) for n in (c.abbr, c.name, *c.aliases)]
    for i, pw in enumerate(v.powers):
        key = f"powers[{i}]"
        names += [(f"{key}.name", pw.name), (f"{key}.letter", pw.letter),
                  (f"{key}.adjective", pw.adjective), (f"{key}.color", pw.color)]
        names += [(f"{key}.aliases", a) for a in pw.aliases]
        names += [(f"{key}.units", u) for u in pw.units]
    for key, name in names:
        problem = bounds.name_problem(name, untrusted)
        if problem:
            where = v.line_of(name[:200]) if v.text and name.strip() else None
            raise VariantError(f"{shown}{f':{where}' if where else ''}: [{key}] {problem}")


def _load_untrusted(path: Path) -> Variant:
    """A variant file read in untrusted mode (its base name is all that errors show)."""
    shown = bounds.shown_name(path.name)
    try:
        size = path.stat().st_size
        if size > 4 * bounds.MAX_TEXT:  # (UTF-8 takes at most 4 bytes a character)
            raise VariantError(f"{shown}: {size:,} bytes; an uploaded variant file has at "
                               f"most {bounds.MAX_TEXT:,} characters")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise VariantError(f"{shown}: cannot read the variant file") from None
    return load_variant_text(text, shown, untrusted=True)


def _load_variant(name_or_path: str | Path, search_path: list[str | Path] | None) -> Variant:
    text_name = str(name_or_path)
    path = Path(text_name)
    if path.suffix == "" and not _is_file(path):
        if text_name.lower() in builtin_names():
            return load_builtin(text_name)
        # a variant file NAME.toml/.map/.cfg on the search path (the diplomacy package's
        # maps, POLYDIP_VARIANT_PATH, --search-path), as a saved game's map name is found
        found = find_named(text_name, search_path)
        if found is None:
            raise VariantError(f"{_no_variant(text_name)}; nor is there a file "
                               f"{text_name[:80]}.toml, .map or .cfg on the variant search "
                               "path (`polydip variant list` shows what it finds)")
        return _load_variant(found, search_path)
    if not _is_file(path):
        raise VariantError(f"{text_name[:80]}: no such variant file")
    if path.suffix.lower() in (".map", ".cfg"):
        from polydip.variants.importers import import_variant

        v = import_variant(path, search_path)
        check_bounds(v, str(path), False)
        return v
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise VariantError(f"{path}: cannot read: {exc}") from exc
    return parse_variant(text, str(path))


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte
        return False


def parse_variant(text: str, path: str = "<string>", untrusted: bool = False) -> Variant:
    """A variant from TOML text; `path` names it in errors. `untrusted`: checked against the
    limits of polydip.variants.untrusted (nesting is limited in any mode: tomllib would
    exhaust Python's stack)."""
    bounds.check_toml_depth(text, path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise VariantError(f"{path}: not valid TOML: {exc}") from exc
    except RecursionError:  # (nesting the depth check did not see)
        raise VariantError(f"{path}: nested too deep") from None
    bounds.check_tree(data, path, untrusted)
    v = _Reader(data, text, path).read()
    check_bounds(v, path, untrusted)
    return v


class _Reader:
    def __init__(self, data: dict[str, Any], text: str, path: str) -> None:
        self.data = data
        self.text = text
        self.path = path

    def fail(self, key: str, msg: str, needle: str = "") -> VariantError:
        line = None
        if needle:
            for i, ln in enumerate(self.text.splitlines(), 1):
                if needle in ln:
                    line = i
                    break
        where = f"{self.path}:{line}" if line else self.path
        return VariantError(f"{where}: [{key}] {msg}")

    def table(self, obj: Any, key: str) -> dict[str, Any]:
        if not isinstance(obj, dict):
            raise self.fail(key, f"must be a table, not {type(obj).__name__}")
        return obj

    def get(self, tbl: dict[str, Any], name: str, typ: type | tuple[type, ...], key: str,
            default: Any = ...) -> Any:
        if name not in tbl:
            if default is ...:
                raise self.fail(key, f"missing required key {name!r}")
            return default
        val = tbl[name]
        if not isinstance(val, typ) or (typ is int and isinstance(val, bool)):
            tname = typ.__name__ if isinstance(typ, type) else "/".join(t.__name__ for t in typ)
            raise self.fail(f"{key}.{name}", f"must be {tname}, not {type(val).__name__}")
        return val

    def point(self, val: Any, key: str) -> tuple[float, float] | None:
        if val is None:
            return None
        if (not isinstance(val, list) or len(val) != 2
                or not all(isinstance(x, int | float) and not isinstance(x, bool) for x in val)):
            raise self.fail(key, f"must be two numbers, like [48.85, 2.35], not {val!r}")
        return (float(val[0]), float(val[1]))

    def strlist(self, tbl: dict[str, Any], name: str, key: str, default: Any = ...) -> list[str]:
        val = self.get(tbl, name, list, key, default)
        for i, item in enumerate(val):
            if not isinstance(item, str):
                raise self.fail(f"{key}.{name}[{i}]", "must be a string")
        return list(val)

    def victory(self, vic: dict[str, Any], key: str, base: Victory) -> Victory:
        known = {"centers", "last_year", "last_year_result", "more_than_others", "check",
                 "check_season", "no_change_years", "draw", "presets"}
        for k in vic:
            if k not in known:
                raise self.fail(f"{key}.{k}", "unknown key" + did_you_mean(k, known))
        v = Victory(
            centers=self.get(vic, "centers", int, key, base.centers),
            last_year=self.get(vic, "last_year", int, key, base.last_year),
            last_year_result=self.get(vic, "last_year_result", str, key, base.last_year_result),
            more_than_others=self.get(vic, "more_than_others", bool, key,
                                      base.more_than_others),
            check=self.get(vic, "check", str, key, base.check),
            check_season=self.get(vic, "check_season", str, key, base.check_season),
            no_change_years=self.get(vic, "no_change_years", int, key, base.no_change_years),
            draw=self.get(vic, "draw", str, key, base.draw),
        )
        if v.check not in ("after_update", "start_of_season"):
            raise self.fail(f"{key}.check", "must be \"after_update\" or \"start_of_season\"")
        if v.last_year_result not in ("draw", "most_centers"):
            raise self.fail(f"{key}.last_year_result", "must be \"draw\" or \"most_centers\"")
        if v.draw not in ("any", "all"):
            raise self.fail(f"{key}.draw", "must be \"any\" or \"all\"")
        return v

    def read(self) -> Variant:
        d = self.data
        known = {"variant", "unit_kinds", "terrains", "edge_kinds", "coasts", "powers",
                 "provinces", "edges", "calendar", "victory", "options", "rules"}
        for k in d:
            if k not in known:
                raise self.fail(k, "unknown section" + did_you_mean(k, known), f"{k}")
        meta = self.table(self.get(d, "variant", dict, "variant"), "variant")
        unit_kinds = self.unit_kinds(d)
        terrains = self.terrains(d, unit_kinds)
        edge_kinds = self.edge_kinds(d, unit_kinds)
        coasts = self.coasts(d)
        provinces: dict[str, Province] = {}
        for abbr, v in self.table(self.get(d, "provinces", dict, "provinces"), "provinces").items():
            provinces[abbr] = self.province(abbr, v, terrains)
        powers = [self.power(i, v) for i, v in enumerate(self.get(d, "powers", list, "powers"))]
        edges = self.edges(d, edge_kinds)
        calendar = self.calendar(d)
        vic = self.table(d.get("victory", {}), "victory")
        n_sc = sum(p.center_value for p in provinces.values() if p.supply_center)
        victory = self.victory(vic, "victory", Victory(n_sc // 2 + 1))
        presets = self.table(vic.get("presets", {}), "victory.presets")
        for name, tbl in presets.items():
            self.victory(self.table(tbl, f"victory.presets.{name}"),
                         f"victory.presets.{name}", victory)  # validate
            victory.presets[name] = dict(tbl)

        return Variant(
            name=self.get(meta, "name", str, "variant"),
            title=self.get(meta, "title", str, "variant", meta.get("name", "")),
            version=str(meta.get("version", "1")),
            designer=self.get(meta, "designer", str, "variant", ""),
            source=self.get(meta, "source", str, "variant", ""),
            notes=self.get(meta, "notes", str, "variant", ""),
            coords=self.get(meta, "coords", str, "variant", "latlon"),
            unit_kinds=unit_kinds,
            terrains=terrains,
            edge_kinds=edge_kinds,
            powers=powers,
            provinces=provinces,
            edges=edges,
            calendar=calendar,
            victory=victory,
            options=dict(self.table(d.get("options", {}), "options")),
            rules={k: dict(self.table(v, f"rules.{k}"))
                   for k, v in self.table(d.get("rules", {}), "rules").items()},
            declared={k: meta[k] for k in ("supply_centers", "provinces")
                      if isinstance(meta.get(k), int)},
            path=self.path,
            text=self.text,
            coasts=coasts,
        )

    def unit_kinds(self, d: dict[str, Any]) -> dict[str, UnitKind]:
        unit_kinds = {
            letter: UnitKind(letter, self.get(self.table(v, f"unit_kinds.{letter}"), "name", str,
                                              f"unit_kinds.{letter}"),
                             bool(v.get("coastal", False)), bool(v.get("convoyed", False)),
                             bool(v.get("convoys", False)))
            for letter, v in self.table(d.get("unit_kinds", DEFAULT_UNIT_KINDS),
                                        "unit_kinds").items()
        }
        for letter in unit_kinds:
            if len(letter) != 1 or not letter.isupper():
                raise self.fail(f"unit_kinds.{letter}", "a unit kind is one upper-case letter")
        return unit_kinds

    def terrains(self, d: dict[str, Any], unit_kinds: dict[str, UnitKind]) -> dict[str, Terrain]:
        terrains = {}
        for name, v in self.table(d.get("terrains", DEFAULT_TERRAINS), "terrains").items():
            v = self.table(v, f"terrains.{name}")
            occ = self.strlist(v, "occupy", f"terrains.{name}")
            for u in occ:
                if u not in unit_kinds:
                    raise self.fail(f"terrains.{name}.occupy", f"unknown unit kind {u!r}")
            convoy = bool(v.get("convoy", "A" not in occ and "F" in occ))
            terrains[name] = Terrain(name, frozenset(occ), convoy)
        return terrains

    def edge_kinds(self, d: dict[str, Any],
                   unit_kinds: dict[str, UnitKind]) -> dict[str, EdgeKind]:
        edge_kinds = {}
        for name, v in self.table(d.get("edge_kinds", DEFAULT_EDGE_KINDS), "edge_kinds").items():
            v = self.table(v, f"edge_kinds.{name}")
            units = self.strlist(v, "units", f"edge_kinds.{name}")
            for u in units:
                if u not in unit_kinds:
                    raise self.fail(f"edge_kinds.{name}.units", f"unknown unit kind {u!r}")
            edge_kinds[name] = EdgeKind(name, frozenset(units))
        return edge_kinds

    def coasts(self, d: dict[str, Any]) -> dict[str, CoastName]:
        coasts: dict[str, CoastName] = {}  # DEFAULT_COASTS apply where this is silent
        for abbr, v in self.table(d.get("coasts", {}), "coasts").items():
            key = f"coasts.{abbr}"
            v = self.table(v, key)
            for k in v:
                if k not in ("name", "aliases"):
                    raise self.fail(f"{key}.{k}", "unknown key" + did_you_mean(k, ["name",
                                                                                   "aliases"]))
            if not abbr.isalnum() or abbr.upper() != abbr:
                raise self.fail(key, "a coast abbreviation is upper-case letters and digits")
            coasts[abbr] = CoastName(abbr, self.get(v, "name", str, key),
                                     tuple(self.strlist(v, "aliases", key, [])))
        return coasts

    def province(self, abbr: str, v: Any, terrains: dict[str, Terrain]) -> Province:
        key = f"provinces.{abbr}"
        v = self.table(v, key)
        if not abbr.replace("_", "").isalnum() or abbr.upper() != abbr:
            raise self.fail(key, "a province abbreviation is upper-case letters and digits",
                            f"[{key}]")
        terrain = self.get(v, "terrain", str, key)
        if terrain not in terrains:
            raise self.fail(f"{key}.terrain", f"unknown terrain {terrain!r}"
                            + did_you_mean(terrain, terrains), f"[{key}]")
        sc_kind = self.center_kind(v, key)
        value = self.get(v, "center_value", int, key, 1)
        if value < 1:
            raise self.fail(f"{key}.center_value", "must be 1 or more", f"[{key}]")
        if value != 1 and sc_kind is None:
            raise self.fail(f"{key}.center_value", "only a supply center has a value",
                            f"[{key}]")
        coast_list, coast_names = self.province_coasts(v, key)
        coast_aliases: dict[str, list[str]] = {}
        said = self.table(v.get("coast_aliases", {}), f"{key}.coast_aliases")
        for c in said:
            if c.upper() not in coast_list:
                raise self.fail(f"{key}.coast_aliases.{c}", "not one of the province's "
                                "coasts" + did_you_mean(c, coast_list), f"[{key}]")
            coast_aliases[c.upper()] = self.strlist(said, c, f"{key}.coast_aliases")
        coords = self.point(v.get("coords"), f"{key}.coords")
        coast_coords: dict[str, tuple[float, float]] = {}
        for c, raw in self.table(v.get("coast_coords", {}), f"{key}.coast_coords").items():
            xy = self.point(raw, f"{key}.coast_coords.{c}")
            if xy is not None:  # (TOML has no null: always a point)
                coast_coords[c] = xy
        return Province(
            abbr=abbr,
            name=self.get(v, "name", str, key),
            terrain=terrain,
            supply_center=sc_kind,
            center_value=value,
            coasts=coast_list,
            coast_names=coast_names,
            coast_aliases=coast_aliases,
            aliases=self.strlist(v, "aliases", key, []),
            tags=self.strlist(v, "tags", key, []),
            coords=coords,
            coast_coords=coast_coords,
        )

    def center_kind(self, v: dict[str, Any], key: str) -> str | None:
        """A province's `supply_center`: true ("center"), false (None) or a kind's name."""
        sc = v.get("supply_center", False)
        if sc is True:
            return "center"
        if sc is False:
            return None
        if isinstance(sc, str):
            return sc
        raise self.fail(f"{key}.supply_center", "must be true, false or a kind name")

    def province_coasts(self, v: dict[str, Any], key: str) -> tuple[list[str], dict[str, str]]:
        """A province's coasts, as a list of abbreviations or a table naming each."""
        raw_coasts = v.get("coasts", [])
        coast_names: dict[str, str] = {}
        if not isinstance(raw_coasts, dict):
            return [c.upper() for c in self.strlist(v, "coasts", key, [])], coast_names
        # the table form names this province's coasts in its own words
        for c, name in raw_coasts.items():
            if not isinstance(name, str):
                raise self.fail(f"{key}.coasts.{c}", "must be the coast's name, like "
                                "\"sea coast\"", f"[{key}]")
            coast_names[c.upper()] = name
        return list(coast_names), coast_names

    def power(self, i: int, v: Any) -> Power:
        key = f"powers[{i}]"
        v = self.table(v, key)
        name = self.get(v, "name", str, key)
        if not name.strip():
            raise self.fail(f"{key}.name", "a power's name is empty")
        key = f"powers.{name}"
        homes = self.strlist(v, "homes", key, [])
        return Power(
            name=name,
            letter=self.get(v, "letter", str, key, name[0].upper()),
            adjective=self.get(v, "adjective", str, key, name),
            color=self.get(v, "color", str, key, "#888888"),
            homes=homes,
            units=self.strlist(v, "units", key, []),
            centers=self.strlist(v, "centers", key, list(homes)),
            neutral=self.get(v, "neutral", bool, key, False),
            aliases=self.strlist(v, "aliases", key, []),
            territory=self.strlist(v, "territory", key, []),
        )

    def edges(self, d: dict[str, Any], edge_kinds: dict[str, EdgeKind]) -> list[Edge]:
        edges = []
        for kind, lst in self.table(d.get("edges", {}), "edges").items():
            if kind not in edge_kinds:
                raise self.fail(f"edges.{kind}", "unknown edge kind" + did_you_mean(kind,
                                edge_kinds) + "; declare it under [edge_kinds]", f"{kind} =")
            if not isinstance(lst, list):
                raise self.fail(f"edges.{kind}", "must be a list of \"X-Y\" strings")
            for j, e in enumerate(lst):
                ekey = f"edges.{kind}[{j}]"
                if not isinstance(e, str) or e.count("-") != 1:
                    raise self.fail(ekey, f"{e!r} is not an edge; write \"ABC-XYZ\"", str(e))
                a, b = (s.strip().upper() for s in e.split("-"))
                edges.append(Edge(kind, a, b, ekey))
        return edges

    def calendar(self, d: dict[str, Any]) -> Calendar:
        cal = self.table(d.get("calendar", DEFAULT_CALENDAR), "calendar")
        season_list = self.get(cal, "seasons", list, "calendar", DEFAULT_CALENDAR["seasons"])
        if not season_list:
            raise self.fail("calendar.seasons", "a year has at least one season")
        seasons = [self.season(i, s) for i, s in enumerate(season_list)]
        return Calendar(
            start=self.get(cal, "start", str, "calendar", "S1901M"),
            seasons=seasons,
            centers_change_after=self.get(
                cal, "centers_change_after", str, "calendar",
                seasons[-2].abbr if len(seasons) > 1 else seasons[0].abbr),
        )

    def season(self, i: int, s: Any) -> Season:
        key = f"calendar.seasons[{i}]"
        s = self.table(s, key)
        phases = self.strlist(s, "phases", key)
        for ph in phases:
            if ph not in PHASE_TYPES:
                raise self.fail(f"{key}.phases", f"unknown phase {ph!r}"
                                + did_you_mean(ph, PHASE_TYPES))
        combined = self.get(s, "combined", bool, key, False)
        if combined and phases != ["retreats", "adjustments"]:
            raise self.fail(f"{key}.combined", "only a season whose phases are "
                            "[\"retreats\", \"adjustments\"] orders them together")
        return Season(self.get(s, "name", str, key), self.get(s, "abbr", str, key),
                      tuple(_PHASE_KINDS[ph] for ph in phases), self.get(s, "title", str, key, ""),
                      combined)
