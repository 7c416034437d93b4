"""The one-shot adjudication contract: one JSON request in, one JSON outcome out.

Request keys: variant (default "standard"), phase, units, dislodged, contested, centers,
homes, orders, options. See docs/adjudicate.md for the full description.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from polydip.errors import PolydipError, did_you_mean
from polydip.game.calendar import parse_phase
from polydip.game.engine import parse_orders, process
from polydip.geography.map import Map, compile_map
from polydip.options import check_options
from polydip.state import Dislodged, Position, Unit
from polydip.variants.loader import builtin_names, load_variant

# Limits of one request (documented in docs/adjudicate.md): a line beyond them gets an error
# line of its own, like any other bad request.
MAX_LINE = 1_000_000  # characters of one JSON line
MAX_STRING = 1_000  # characters of any name, unit or order string
MAX_ITEMS = 10_000  # entries of any list or object
MAX_DEPTH = 32  # nesting of objects and lists (the 'extra' data of rule modules included)

_VARIANTS: dict[str, Map] = {}


class RequestError(PolydipError):
    """A request that does not describe a position polydip can adjudicate."""


def get_map(name: str, variant_files: bool = True) -> Map:
    """The compiled map of a built-in variant, or of a variant file when `variant_files`
    allows reading files by path (a service for other people turns that off)."""
    m = _VARIANTS.get(name)
    if m is not None:
        return m
    if name.lower() not in builtin_names():
        if not variant_files:
            raise RequestError(
                f"unknown variant {name[:60]!r}: this service reads no variant files (it "
                f"runs with --no-variant-files); built-in variants: "
                f"{', '.join(builtin_names())}")
        if not _is_file(name):
            raise RequestError(
                f"unknown variant {name[:60]!r}: not a built-in variant and not a readable "
                f"variant file; built-in variants: {', '.join(builtin_names())}"
                + did_you_mean(name, builtin_names()))
    m = compile_map(load_variant(name))
    if len(_VARIANTS) > 64:
        _VARIANTS.clear()
    _VARIANTS[name] = m
    return m


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte, ...
        return False


def check_size(value: Any, where: str = "request", depth: int = 0) -> None:
    """Refuse a request beyond the documented limits, before anything reads it."""
    if depth > MAX_DEPTH:
        raise RequestError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise RequestError(f"{where}: a string of {len(value):,} characters (at most "
                               f"{MAX_STRING:,})")
    elif isinstance(value, dict | list):
        if len(value) > MAX_ITEMS:
            raise RequestError(f"{where}: {len(value):,} entries (at most {MAX_ITEMS:,})")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            if isinstance(k, str) and len(k) > MAX_STRING:
                raise RequestError(f"{where}: a key of {len(k):,} characters")
            check_size(v, f"{where}.{str(k)[:40]}", depth + 1)


def power_index(m: Map, name: Any) -> int:
    if not isinstance(name, str):
        raise RequestError(f"a power name must be a string, not {name!r}")
    got = m.find_power(name)
    if got is not None:
        return got
    raise RequestError(f"unknown power {name!r}" + did_you_mean(name, m.powers))


def parse_unit(m: Map, text: Any) -> tuple[int, int]:
    """'A PAR' / 'F STP/SC' / 'Fleet St Petersburg (sc)' → (kind, location)."""
    if not isinstance(text, str) or not text.strip():
        raise RequestError(f"a unit is written like \"A PAR\", not {text!r}")
    parts = text.strip().split(None, 1)
    if len(parts) != 2:
        raise RequestError(f"unit {text!r}: write the kind and the place, like \"A PAR\"")
    word, place = parts
    kind = None
    for k, letter in enumerate(m.kinds):
        if word.upper() == letter or word.lower() == m.kind_names[k]:
            kind = k
    if kind is None:
        raise RequestError(f"unit {text!r}: unknown unit kind {word!r} "
                           f"(kinds: {', '.join(m.kinds)})")
    place = place.replace("(", "/").replace(")", "").strip()
    try:
        loc = m.loc_of(place)
    except KeyError:
        raise RequestError(f"unit {text!r}: unknown place {place!r}"
                           + did_you_mean(place.split("/")[0], m.prov_abbr + m.prov_name)
                           ) from None
    where = m.unit_loc(kind, loc)
    if where < 0:
        coasts = ", ".join(m.loc_name[c] for c in m.prov_coast_locs[m.loc_prov[loc]])
        raise RequestError(f"unit {text!r}: say which coast ({coasts})")
    if not m.occupy[kind][where]:
        kind_name = m.kind_names[kind]
        raise RequestError(f"unit {text!r}: {'an' if kind_name[0] in 'aeiou' else 'a'} "
                           f"{kind_name} cannot stand in "
                           f"{m.prov_name[m.loc_prov[where]]}")
    return kind, where


def _prov(m: Map, text: Any, what: str) -> int:
    if not isinstance(text, str):
        raise RequestError(f"{what}: a province is a string, not {text!r}")
    try:
        return m.loc_prov[m.loc_of(text)]
    except KeyError:
        raise RequestError(f"{what}: unknown province {text!r}"
                           + did_you_mean(text, m.prov_abbr + m.prov_name)) from None


def _mapping(req: dict, key: str) -> dict:
    val = req.get(key, {})
    if val is None:
        return {}
    if not isinstance(val, dict):
        raise RequestError(f"{key!r} must be an object of power → list")
    for k, v in val.items():
        if not isinstance(v, list):
            raise RequestError(f"{key}.{k} must be a list")
    return val


def build_position(m: Map, req: dict, options: dict | None = None) -> Position:
    cal = m.variant.calendar
    phase = parse_phase(cal, str(req.get("phase", cal.start)))
    units: list[Unit] = []
    seen: dict[int, str] = {}
    for pname, lst in _mapping(req, "units").items():
        p = power_index(m, pname)
        for t in lst:
            k, loc = parse_unit(m, t)
            prov = m.loc_prov[loc]
            if prov in seen and not m.open_space[prov]:
                raise RequestError(f"two units in {m.prov_abbr[prov]}: {seen[prov]} and {t}")
            seen[prov] = t
            units.append(Unit(p, k, loc))
    owners = [-1] * m.n_prov
    if "centers" in req and req["centers"] is not None:
        for pname, lst in _mapping(req, "centers").items():
            p = power_index(m, pname)
            for c in lst:
                prov = _prov(m, c, f"centers.{pname}")
                if not m.is_sc[prov]:
                    raise RequestError(
                        f"centers.{pname}: {m.prov_abbr[prov]} is not a supply center")
                owners[prov] = p
    else:
        for i, pw in enumerate(m.variant.powers):
            for c in pw.centers:
                owners[m.prov_index[c]] = i
    homes = [tuple(h) for h in m.homes]
    if req.get("homes"):
        for pname, lst in _mapping(req, "homes").items():
            homes[power_index(m, pname)] = tuple(_prov(m, c, f"homes.{pname}") for c in lst)
    raw_contested = req.get("contested") or []
    if not isinstance(raw_contested, list):
        raise RequestError("'contested' must be a list of provinces")
    contested = frozenset(_prov(m, c, "contested") for c in raw_contested)
    occupied = {m.loc_prov[u.loc] for u in units}
    from polydip.adjudication.retreats import retreat_options

    dislodged: list[Dislodged] = []
    for pname, lst in _mapping(req, "dislodged").items():
        p = power_index(m, pname)
        for d in lst:
            if isinstance(d, str):
                d = {"unit": d}
            if not isinstance(d, dict) or "unit" not in d:
                raise RequestError(f"dislodged.{pname}: each entry is "
                                   "{\"unit\": \"A PAR\", \"from\": \"BUR\"}")
            k, loc = parse_unit(m, d["unit"])
            if d.get("from") is not None and not isinstance(d["from"], str):
                raise RequestError(f"dislodged.{pname}: 'from' is the attacker's province")
            attacker = _prov(m, d["from"], f"dislodged.{pname}") if d.get("from") else -1
            convoyed = bool(d.get("convoyed", False))
            to_origin = (options or {}).get("retreat_to_convoy_origin", True)
            blocked = -1 if convoyed and to_origin else attacker
            where = retreat_options(m, k, loc, occupied, contested, blocked)
            dislodged.append(Dislodged(p, k, loc, attacker, convoyed, where))
    if phase.type != "R" and dislodged:
        raise RequestError(f"dislodged units are given for a retreat phase, not {phase.name}")
    year_start = None
    if req.get("year_start_centers"):
        year_start = [-1] * m.n_prov
        for pname, lst in _mapping(req, "year_start_centers").items():
            p = power_index(m, pname)
            for c in lst:
                year_start[_prov(m, c, f"year_start_centers.{pname}")] = p
    extra = req.get("extra") or {}
    if not isinstance(extra, dict):
        raise RequestError("'extra' must be an object")
    pos = Position(phase, units, owners, dislodged, contested, homes, year_start, dict(extra))
    if m.rules and dislodged:
        pos.dislodged = [m.rules.retreat(m, pos, d) for d in dislodged]
    return pos


def adjudicate_request(req: Any, variant_files: bool = True) -> dict[str, Any]:
    """Adjudicate one request; return the outcome (or {"error": ...}). With
    `variant_files=False` a request may only name built-in variants."""
    try:
        if not isinstance(req, dict):
            raise RequestError("a request is a JSON object")
        check_size(req)
        unknown = set(req) - {"variant", "phase", "units", "dislodged", "contested", "centers",
                              "homes", "orders", "options", "id", "year_start_centers",
                              "extra"}
        if unknown:
            raise RequestError(f"unknown request key(s): {', '.join(sorted(unknown))}")
        variant = req.get("variant", "standard")
        if not isinstance(variant, str):
            raise RequestError(f"'variant' is a name or a file path, not {variant!r}")
        m = get_map(variant, variant_files)
        options = dict(m.variant.options)
        opts = req.get("options") or {}
        if not isinstance(opts, dict):
            raise RequestError("'options' must be an object")
        options.update(opts)
        check_options(options)
        pos = build_position(m, req, options)
        typed: dict[int, list[str]] = {}
        for pname, lst in _mapping(req, "orders").items():
            p = power_index(m, pname)
            if not all(isinstance(t, str) for t in lst):
                raise RequestError(f"orders.{pname}: orders are strings")
            typed.setdefault(p, []).extend(lst)
        parsed, errors = parse_orders(m, pos.phase, typed)
        out = process(m, pos, parsed, options)
        res = outcome_json(m, out.position, out.results, errors + out.errors, pos.phase.name,
                           req.get("id"), out.destroyed)
        res["contested"] = sorted(m.prov_abbr[p] for p in out.standoffs)
        return res
    except PolydipError as exc:
        res: dict[str, Any] = {"error": str(exc)}
    except Exception as exc:  # a bug: report it on this request's line, keep the batch going
        res = {"error": f"internal error (a bug in polydip, please report it): "
                        f"{exc.__class__.__name__}: {exc}"}
    if isinstance(req, dict) and "id" in req:
        res["id"] = req["id"]
    return res


def outcome_json(m: Map, pos: Position, results, errors, phase: str, rid: Any = None,
                 destroyed: list[Dislodged] = ()) -> dict[str, Any]:
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(m.powers[u.power], []).append(m.unit_str(u.kind, u.loc))
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in pos.dislodged:
        entry: dict[str, Any] = {
            "unit": m.unit_str(d.kind, d.loc),
            "from": m.prov_abbr[d.attacker] if d.attacker >= 0 else None,
            "retreats": [m.loc_name[r] for r in d.retreats],
        }
        if d.convoyed:
            entry["convoyed"] = True
        dislodged.setdefault(m.powers[d.power], []).append(entry)
    centers: dict[str, list[str]] = {}
    for power in range(len(m.powers)):
        mine = [m.prov_abbr[p] for p, o in enumerate(pos.owners) if o == power]
        if mine:
            centers[m.powers[power]] = mine
    out: dict[str, Any] = {}
    if rid is not None:
        out["id"] = rid
    out.update({
        "phase": phase,
        "results": {r.text: r.result for r in results},
        "units": units,
        "dislodged": dislodged,
        "contested": sorted(m.prov_abbr[p] for p in pos.contested),
        "destroyed": _destroyed(m, destroyed),
        "centers": centers,
        "next_phase": pos.phase.name,
        "errors": [f"{m.powers[p]}: {msg}" for p, msg in errors],
    })
    return out


def _destroyed(m: Map, destroyed: list[Dislodged]) -> dict[str, list[dict[str, Any]]]:
    """Units dislodged with nowhere to retreat, destroyed at once (no retreat phase)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for d in destroyed:
        out.setdefault(m.powers[d.power], []).append(
            {"unit": m.unit_str(d.kind, d.loc),
             "from": m.prov_abbr[d.attacker] if d.attacker >= 0 else None})
    return out


def run_lines(lines: Iterable[str], variant_files: bool = True) -> Iterator[dict[str, Any]]:
    """JSON Lines in → exactly one outcome per line, in order, whatever the line holds: an
    empty line, bad JSON, JSON nested too deep or a line too long gets an error line, and
    the batch goes on."""
    for n, line in enumerate(lines, 1):
        yield read_line(line, n, variant_files)


def read_line(line: str, n: int, variant_files: bool = True) -> dict[str, Any]:
    if len(line) > MAX_LINE:
        return {"error": f"line {n}: {len(line):,} characters; a request line has at most "
                         f"{MAX_LINE:,}"}
    if not line.strip():
        return {"error": f"line {n}: empty; write one JSON request per line"}
    try:
        req = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"line {n}: not valid JSON: {exc.msg} (column {exc.colno})"}
    except RecursionError:
        return {"error": f"line {n}: JSON nested too deep (at most {MAX_DEPTH} levels)"}
    return adjudicate_request(req, variant_files)
