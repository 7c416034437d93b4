"""Write a Variant as a polydip variant file (TOML, docs/variant-format.md).

`parse_variant(variant_to_toml(v))` gives back a Variant equal to `v` in every field the file
format holds (not `path`, `text`, or the keys edges were declared under). The TOML is written
by hand: the structure is small and fixed, and a hand-written file can keep the layout of
docs/variant-format.md (one table per province, edges grouped by kind, notes as a block),
which a generic TOML writer would not.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import MISSING, Field, fields
from typing import Any

from polydip.variants.model import (
    DEFAULT_CALENDAR,
    DEFAULT_EDGE_KINDS,
    DEFAULT_TERRAINS,
    DEFAULT_UNIT_KINDS,
    UnitKind,
    UnitKindTable,
    Variant,
)

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
# power keys written even when they hold the loader's default, for a reader's sake
_POWER_ALWAYS = {"name", "letter", "adjective", "color", "homes", "units"}


def _is_default(f: Field, val: Any) -> bool:
    if f.default is not MISSING:
        return val == f.default
    if f.default_factory is not MISSING:
        return val == f.default_factory()
    return False


def variant_to_toml(v: Variant) -> str:
    """The text of a variant file that loads back to `v`."""
    out: list[str] = []
    w = out.append
    w(f"# {v.title or v.name}: a polydip variant file (docs/variant-format.md).")
    w("")
    _write_meta(v, w)
    _write_kinds(v, w)
    _write_powers(v, w)
    _write_provinces(v, w)
    _write_edges(v, w)
    _write_calendar(v, w)
    _write_victory(v, w)
    _write_options_rules(v, w)
    return "\n".join(out) + "\n"


def _write_meta(v: Variant, w: Callable[[str], None]) -> None:
    """The [variant] table."""
    w("[variant]")
    w(f"name = {_str(v.name)}")
    if v.title:
        w(f"title = {_str(v.title)}")
    w(f"version = {_str(v.version)}")
    if v.designer:
        w(f"designer = {_str(v.designer)}")
    if v.source:
        w(f"source = {_str(v.source)}")
    w(f"coords = {_str(v.coords)}")
    for k in ("supply_centers", "provinces"):
        if k in v.declared:
            w(f"{k} = {v.declared[k]}")
    if v.notes:
        w(f"notes = {_multiline(v.notes)}")


def _write_kinds(v: Variant, w: Callable[[str], None]) -> None:
    """[unit_kinds], [terrains], [edge_kinds] where they differ from the defaults; [coasts]."""
    kinds = {k: _unit_kind_table(u) for k, u in v.unit_kinds.items()}
    if kinds != {k: _unit_kind_table_default(d) for k, d in DEFAULT_UNIT_KINDS.items()}:
        w("")
        w("[unit_kinds]")
        for k, t in kinds.items():
            w(f"{_key(k)} = {_value(t)}")
    terrains = {k: {"occupy": sorted(t.occupy), "convoy": t.convoy} for k, t in v.terrains.items()}
    default_terrains = {k: {"occupy": sorted(t["occupy"]), "convoy": bool(t.get("convoy"))}
                        for k, t in DEFAULT_TERRAINS.items()}
    if terrains != default_terrains:
        w("")
        w("[terrains]")
        for k, t in terrains.items():
            w(f"{_key(k)} = {_value(t)}")
    edge_kinds = {k: {"units": sorted(e.units)} for k, e in v.edge_kinds.items()}
    if edge_kinds != {k: {"units": sorted(e["units"])} for k, e in DEFAULT_EDGE_KINDS.items()}:
        w("")
        w("[edge_kinds]")
        for k, t in edge_kinds.items():
            w(f"{_key(k)} = {_value(t)}")

    if v.coasts:
        w("")
        w("[coasts]")
        for k, c in v.coasts.items():
            coast: dict[str, Any] = {"name": c.name}
            if c.aliases:
                coast["aliases"] = list(c.aliases)
            w(f"{_key(k)} = {_value(coast)}")


def _write_powers(v: Variant, w: Callable[[str], None]) -> None:
    """One [[powers]] table a power, without the keys that hold the loader's default."""
    for power in v.powers:
        w("")
        w("[[powers]]")
        for f in fields(power):
            val = getattr(power, f.name)
            if f.name == "centers" and list(val) == list(power.homes):
                continue  # the loader's default
            if f.name not in _POWER_ALWAYS and _is_default(f, val):
                continue
            w(f"{_key(f.name)} = {_value(list(val) if isinstance(val, tuple) else val)}")


def _write_provinces(v: Variant, w: Callable[[str], None]) -> None:
    """One [provinces.X] table a province."""
    for abbr, p in v.provinces.items():
        w("")
        w(f"[provinces.{_key(abbr)}]")
        w(f"name = {_str(p.name)}")
        w(f"terrain = {_str(p.terrain)}")
        if p.supply_center == "center":
            w("supply_center = true")
        elif p.supply_center:
            w(f"supply_center = {_str(p.supply_center)}")
        if p.center_value != 1:
            w(f"center_value = {p.center_value}")
        if p.coast_names:
            w(f"coasts = {_value({c: p.coast_names[c] for c in p.coasts})}")
        elif p.coasts:
            w(f"coasts = {_value(list(p.coasts))}")
        if p.coast_aliases:
            w(f"coast_aliases = {_value({c: list(a) for c, a in p.coast_aliases.items()})}")
        if p.aliases:
            w(f"aliases = {_value(list(p.aliases))}")
        if p.tags:
            w(f"tags = {_value(list(p.tags))}")
        if p.coords is not None:
            w(f"coords = {_value(list(p.coords))}")
        if p.coast_coords:
            w(f"coast_coords = {_value({c: list(xy) for c, xy in p.coast_coords.items()})}")


def _write_edges(v: Variant, w: Callable[[str], None]) -> None:
    """[edges]: grouped by kind, wrapped at 96 columns."""
    by_kind: dict[str, list[str]] = {}
    for e in v.edges:
        by_kind.setdefault(e.kind, []).append(f"{e.a}-{e.b}")
    if by_kind:
        w("")
        w("[edges]")
        for kind, lst in by_kind.items():
            w(f"{_key(kind)} = [")
            line = "  "
            for item in lst:
                piece = _str(item) + ","
                if len(line) + len(piece) + 1 > 96 and line.strip():
                    w(line.rstrip())
                    line = "  "
                line += piece + " "
            if line.strip():
                w(line.rstrip())
            w("]")


def _write_calendar(v: Variant, w: Callable[[str], None]) -> None:
    """[calendar], where it differs from the default."""
    cal = v.calendar
    seasons = [{"name": s.name, "abbr": s.abbr, "phases": list(s.phases),
                **({"title": s.title} if s.title else {}),
                **({"combined": True} if s.combined else {})} for s in cal.seasons]
    if (cal.start, cal.centers_change_after, seasons) != (
            DEFAULT_CALENDAR["start"], DEFAULT_CALENDAR["centers_change_after"],
            DEFAULT_CALENDAR["seasons"]):
        w("")
        w("[calendar]")
        w(f"start = {_str(cal.start)}")
        w(f"centers_change_after = {_str(cal.centers_change_after)}")
        w("seasons = [")
        for s in seasons:
            w(f"  {_value(s)},")
        w("]")


def _write_victory(v: Variant, w: Callable[[str], None]) -> None:
    """[victory] and its presets."""
    w("")
    w("[victory]")
    for f in fields(v.victory):
        val = getattr(v.victory, f.name)
        if f.name == "presets" or (f.name != "centers" and _is_default(f, val)):
            continue
        w(f"{_key(f.name)} = {_value(val)}")
    for name, tbl in v.victory.presets.items():
        w("")
        w(f"[victory.presets.{_key(name)}]")
        for k, val in tbl.items():
            w(f"{_key(k)} = {_value(val)}")


def _write_options_rules(v: Variant, w: Callable[[str], None]) -> None:
    """[options] and one [rules.NAME] table a rule."""
    if v.options:
        w("")
        w("[options]")
        for k, val in v.options.items():
            w(f"{_key(k)} = {_value(val)}")
    for name, params in v.rules.items():
        w("")
        w(f"[rules.{_key(name)}]")
        for k, val in params.items():
            w(f"{_key(k)} = {_value(val)}")


def _unit_kind_table(u: UnitKind) -> dict[str, Any]:
    t: dict[str, Any] = {"name": u.name}
    for flag in ("coastal", "convoyed", "convoys"):
        if getattr(u, flag):
            t[flag] = True
    return t


def _unit_kind_table_default(d: UnitKindTable) -> dict[str, Any]:
    return _unit_kind_table(UnitKind("", d["name"], d.get("coastal", False),
                                     d.get("convoyed", False), d.get("convoys", False)))


# ---- TOML values ------------------------------------------------------------------------

def _key(k: str) -> str:
    return k if _BARE_KEY.match(k) else _str(k)


def _str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ch == "\r":
            out.append("\\r")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _multiline(s: str) -> str:
    """A multi-line basic string; the newline after the opening quotes is not part of it."""
    body = []
    for ch in s:
        o = ord(ch)
        if ch == '"':
            body.append('\\"')
        elif ch == "\\":
            body.append("\\\\")
        elif ch in "\n\t":
            body.append(ch)
        elif ch == "\r":
            body.append("\\r")
        elif o < 0x20 or o == 0x7F:
            body.append(f"\\u{o:04x}")
        else:
            body.append(ch)
    return '"""\n' + "".join(body) + '"""'


def _value(val: Any) -> str:
    if isinstance(val, bool):
        return "true" if val else "false"
    if isinstance(val, int):
        return str(val)
    if isinstance(val, float):
        if math.isnan(val):
            return "nan"
        if math.isinf(val):
            return "inf" if val > 0 else "-inf"
        return repr(val)
    if isinstance(val, str):
        return _str(val)
    if isinstance(val, (list, tuple)):
        return "[" + ", ".join(_value(x) for x in val) + "]"
    if isinstance(val, dict):
        if not val:
            return "{}"
        return "{ " + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in val.items()) + " }"
    raise TypeError(f"cannot write {type(val).__name__} {val!r} as TOML")
