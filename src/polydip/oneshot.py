"""The one-shot adjudication contract: one JSON request in, one JSON outcome out.

Request keys: variant (default "standard"), phase, units, dislodged, contested, centers,
homes, orders, options. See docs/adjudicate.md for the full description.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, Final

from polydip.adjudication.legality import Closed, closed_passages
from polydip.adjudication.reasons import Reason
from polydip.adjudication.retreats import why_no_retreat
from polydip.compile import compile_map
from polydip.errors import PolydipError, did_you_mean
from polydip.game.engine import OrderResult, Rows, parse_orders, process
from polydip.game.positions import build_position, check_limits, power_lists, read_power
from polydip.geography.map import Map
from polydip.notation import parse_unit, power_index
from polydip.options import check_options
from polydip.state import Dislodged, Position
from polydip.variants.loader import builtin_names, load_variant
from polydip.variants.search import find_named

# Limits of one request (documented in docs/adjudicate.md): a line beyond them gets an error
# line of its own, like any other bad request.
# (Final: the compiled build reads them as constants, not from the module's dictionary)
MAX_LINE: Final = 1_000_000  # characters of one JSON line
MAX_STRING: Final = 1_000  # characters of any name, unit or order string
MAX_ITEMS: Final = 10_000  # entries of any list or object
MAX_DEPTH: Final = 32  # nesting of objects and lists (the 'extra' data of rule modules included)

_VARIANTS: dict[tuple[str, bool], Map] = {}


class RequestError(PolydipError):
    """A request that does not describe a position polydip can adjudicate."""


def get_map(name: str, variant_files: bool = True) -> Map:
    """The compiled map of a built-in variant, or of a variant file when `variant_files`
    allows reading files by path (a service for other people turns that off)."""
    key = (name, variant_files)  # (a file named like a built-in variant is not one)
    m = _VARIANTS.get(key)
    if m is not None:
        return m
    if name.lower() not in builtin_names():
        if not variant_files:
            raise RequestError(
                f"unknown variant {name[:60]!r}: this service reads no variant files (it "
                f"runs with --no-variant-files); built-in variants: "
                f"{', '.join(builtin_names())}")
        if not _is_file(name) and find_named(name) is None:
            raise RequestError(
                f"unknown variant {name[:60]!r}: not a built-in variant, not a readable "
                f"variant file, nor a variant file of that name on the variant search path; "
                f"built-in variants: {', '.join(builtin_names())}"
                + did_you_mean(name[:60], builtin_names()))
    # without variant files, the loader's sandbox: a built-in name is read from polydip's
    # own data, never from a file of that name in the current folder
    m = compile_map(load_variant(name, sandbox=not variant_files))
    if len(_VARIANTS) > 64:
        _VARIANTS.clear()
    _VARIANTS[key] = m
    return m


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL byte, ...
        return False


def check_size(value: Any, where: str = "request", depth: int = 0) -> None:
    """Refuse a request beyond the documented limits, before anything reads it."""
    if _within(value, depth):
        return  # the common case, checked without naming every field on the way
    _check_size(value, where, depth)


def _within(value: Any, depth: int) -> bool:
    """Is the value within the limits? (check_size's test, without the error message)"""
    if depth > MAX_DEPTH:
        return False
    if isinstance(value, str):
        return len(value) <= MAX_STRING
    if isinstance(value, dict):
        if len(value) > MAX_ITEMS or (value and depth >= MAX_DEPTH):
            return False  # too many entries, or entries nested too deep
        for k in value:
            if isinstance(k, str) and len(k) > MAX_STRING:
                return False
        return _items_within(list(value.values()), depth)
    if isinstance(value, list):
        if len(value) > MAX_ITEMS or (value and depth >= MAX_DEPTH):
            return False
        return _items_within(value, depth)
    return True


def _items_within(items: list[Any], depth: int) -> bool:
    """Are the entries of a list or object at `depth` within the limits?"""
    for v in items:
        if isinstance(v, str):
            if len(v) > MAX_STRING:
                return False
        elif isinstance(v, (dict, list)) and not _within(v, depth + 1):
            return False
    return True


def _check_size(value: Any, where: str, depth: int) -> None:
    """check_size's walk that names the field beyond a limit."""
    if depth > MAX_DEPTH:
        raise RequestError(f"{where}: nested more than {MAX_DEPTH} levels deep")
    if isinstance(value, str):
        if len(value) > MAX_STRING:
            raise RequestError(f"{where}: a string of {len(value):,} characters (at most "
                               f"{MAX_STRING:,})")
    elif isinstance(value, (dict, list)):
        if len(value) > MAX_ITEMS:
            raise RequestError(f"{where}: {len(value):,} entries (at most {MAX_ITEMS:,})")
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for k, v in items:
            if isinstance(k, str) and len(k) > MAX_STRING:
                raise RequestError(f"{where}: a key of {len(k):,} characters")
            _check_size(v, f"{where}.{str(k)[:40]}", depth + 1)


def adjudicate_request(req: Any, variant_files: bool = True) -> dict[str, Any]:
    """Adjudicate one request; return the outcome (or {"error": ...}). With
    `variant_files=False` a request may only name built-in variants."""
    try:
        if not isinstance(req, dict):
            raise RequestError("a request is a JSON object")
        try:
            return _adjudicate(req, variant_files)
        except Exception:
            # a request beyond a limit gets that error, whatever else is wrong with it:
            # _adjudicate checks the limits field by field as it reads, check_size names
            # the first field beyond one
            check_size(req)
            raise
    except PolydipError as exc:
        res: dict[str, Any] = {"error": str(exc)}
    except Exception as exc:  # a bug: report it on this request's line, keep the batch going
        res = {"error": f"internal error (a bug in polydip, please report it): "
                        f"{exc.__class__.__name__}: {exc}"}
    if isinstance(req, dict) and "id" in req:
        res["id"] = req["id"]
    return res


_KEYS: Final = frozenset({"variant", "phase", "units", "dislodged", "contested", "centers",
                          "homes", "orders", "options", "id", "year_start_centers", "extra"})
# the keys whose values are checked against the limits whole (the power → list fields are
# checked list by list where they are read)
_CHECKED_WHOLE: Final = ("phase", "contested", "dislodged", "extra", "options", "id")
_LIMITS: Final = (MAX_STRING, MAX_ITEMS)


def _adjudicate(req: dict, variant_files: bool) -> dict[str, Any]:
    """adjudicate_request's work; refuses a request beyond the limits (with some error)
    before it reads the field beyond them, and never returns an outcome for one."""
    unknown = set(req) - _KEYS
    if unknown:
        raise RequestError(f"unknown request key(s): {', '.join(sorted(unknown))}")
    for key in _CHECKED_WHOLE:
        if key in req and not _within(req[key], 1):
            raise RequestError(f"{key}: beyond the limits")
    variant = req.get("variant", "standard")
    if not isinstance(variant, str):
        raise RequestError(f"'variant' is a name or a file path, not {variant!r}")
    if len(variant) > MAX_STRING:
        raise RequestError("variant: beyond the limits")
    m = get_map(variant, variant_files)
    options = dict(m.variant.options)
    opts = req.get("options") or {}
    if not isinstance(opts, dict):
        raise RequestError("'options' must be an object")
    if opts:
        options.update(opts)
        options = check_options(options, m)
    elif not m.caches.options_checked:  # (the variant's own, checked once per map)
        check_options(options, m)
        m.caches.options_checked = True
    pos = build_position(m, req, options, _LIMITS)
    typed: dict[int, list[str]] = {}
    for pname, lst in check_limits(power_lists(req, "orders"), _LIMITS).items():
        p = read_power(m, pname)
        for t in lst:
            if not isinstance(t, str):
                raise RequestError(f"orders.{pname}: orders are strings")
        got = typed.get(p)  # (the request's list itself: parse_orders only reads it)
        typed[p] = lst if got is None else got + lst
    parsed, errors = parse_orders(m, pos.phase, typed)
    out = process(m, pos, parsed, options)
    done = outcome_json(m, out.position, out.result_texts(), errors + out.errors,
                        pos.phase.name, req.get("id"), out.destroyed, out.reason_texts(),
                        out.events, out.standoffs)
    done["contested"] = sorted(m.prov_abbr[p] for p in out.standoffs)
    if done["no_retreat"]:  # (why, with the passages closed as the phase began)
        nxt = out.position
        done["no_retreat"] = _no_retreat(
            m, [*out.destroyed, *(d for d in nxt.dislodged if not d.retreats)], nxt,
            out.standoffs, pos, closed_passages(m, pos, options), out.routed)
    return done


def outcome_json(m: Map, pos: Position, results: Any, errors: Any, phase: str,
                 rid: Any = None, destroyed: Sequence[Dislodged] = (),
                 reasons: dict[str, Reason] | None = None, events: Sequence[Reason] = (),
                 standoffs: frozenset[int] = frozenset()) -> dict[str, Any]:
    """The outcome of a phase as the contract writes it. `results`: the phase's results
    (PhaseOutcome.results), the same as (power, text, words) rows (PhaseOutcome.rows) or as
    text → words (PhaseOutcome.result_texts); `reasons`: order text → why its result is not
    success (PhaseOutcome.reason_texts); `events`: what the rules did on their own;
    `standoffs`: the phase's (why a destroyed unit could not retreat)."""
    units: dict[str, list[str]] = {}
    powers = m.powers
    texts = _unit_texts(m)
    n_loc = len(m.loc_name)
    for u in pos.units:
        i = u.kind * n_loc + u.loc
        text = texts.get(i)
        if text is None:
            text = texts[i] = m.unit_str(u.kind, u.loc)
        lst = units.get(powers[u.power])
        if lst is None:
            units[powers[u.power]] = [text]
        else:
            lst.append(text)
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in pos.dislodged:
        entry: dict[str, Any] = {
            "unit": m.unit_str(d.kind, d.loc),
            "from": m.prov_abbr[d.attacker] if d.attacker >= 0 else None,
            "retreats": [m.loc_name[r] for r in d.retreats],
        }
        if d.convoyed:
            entry["convoyed"] = True
        dislodged.setdefault(powers[d.power], []).append(entry)
    # each power's centers, listed in the map's order of provinces, the powers in theirs
    per_power: list[list[str] | None] = [None] * len(powers)
    abbr = m.prov_abbr
    for p, o in enumerate(pos.owners):
        if o >= 0:
            mine = per_power[o]
            if mine is None:
                per_power[o] = [abbr[p]]
            else:
                mine.append(abbr[p])
    centers: dict[str, list[str]] = {}
    for power, got in enumerate(per_power):
        if got is not None:
            centers[powers[power]] = got
    out: dict[str, Any] = {}
    if rid is not None:
        out["id"] = rid
    out["phase"] = phase
    out["results"] = _results(results)
    out["reasons"] = {t: r.as_json() for t, r in (reasons or {}).items()}
    out["units"] = units
    out["dislodged"] = dislodged
    out["contested"] = sorted(abbr[p] for p in pos.contested)
    out["destroyed"] = _destroyed(m, destroyed)
    out["no_retreat"] = _no_retreat(m, [*destroyed, *(d for d in pos.dislodged
                                                     if not d.retreats)], pos, standoffs)
    out["centers"] = centers
    out["next_phase"] = pos.phase.name
    out["errors"] = [f"{powers[p]}: {msg}" for p, msg in errors]
    out["events"] = [e.as_json() for e in events]
    if pos.extra:  # what rule modules remember for the next phase, to pass back in
        out["extra"] = pos.extra
    return out


def _results(results: Any) -> dict[str, list[str]]:
    """Order text → result words, from OrderResult objects, (power, text, words) rows or
    already so (PhaseOutcome.result_texts)."""
    if isinstance(results, dict):
        return results
    if results and isinstance(results[0], OrderResult):
        return {r.text: r.result for r in results}
    rows: Rows = results  # (typed: the compiled build unpacks the tuples without iterating)
    return {t: w for _, t, w in rows}


def _unit_texts(m: Map) -> dict[int, str]:
    """Map.unit_str per kind * locations + location, remembered per map (a bounded table)."""
    return m.caches.unit_strings


def _destroyed(m: Map, destroyed: Sequence[Dislodged]) -> dict[str, list[dict[str, Any]]]:
    """Units dislodged with nowhere to retreat, destroyed at once (no retreat phase)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for d in destroyed:
        out.setdefault(m.powers[d.power], []).append(
            {"unit": m.unit_str(d.kind, d.loc),
             "from": m.prov_abbr[d.attacker] if d.attacker >= 0 else None})
    return out


def _no_retreat(m: Map, units: Sequence[Dislodged], after: Position,
                standoffs: frozenset[int], before: Position | None = None,
                closed: Closed | None = None, routed: Sequence[Dislodged] = ()
                ) -> dict[str, dict[str, str]]:
    """Dislodged unit → why it has nowhere to retreat (reason code and words); `before`
    and `closed`: the phase's position and the passages closed in it, when known."""
    if not units:
        return {}
    contested = standoffs or after.contested
    return {m.unit_str(d.kind, d.loc):
            why_no_retreat(m, before or after, d, after.units, contested, closed,
                           routed).as_json()
            for d in units}


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
        req = _loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"line {n}: not valid JSON: {exc.msg} (column {exc.colno})"}
    except RecursionError:
        return {"error": f"line {n}: JSON nested too deep (at most {MAX_DEPTH} levels)"}
    return adjudicate_request(req, variant_files)


# the documented half of json.loads: the value at a place and where it ends (the decoder
# reads it with its C scanner where there is one), without the white-space search around it
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = json.JSONDecoder().raw_decode


def _loads(line: str) -> Any:
    """json.loads(line): a line holding one object, as a request line does, read by the
    decoder's raw_decode directly; anything else (and any error) through json.loads itself,
    for its value or its exception."""
    if line[:1] == "{":
        try:
            got, end = _SCAN(line, 0)
        except Exception:  # (json.loads gives the error with its own message)
            pass
        else:
            if end == len(line) or not line[end:].strip(" \t\n\r"):  # (JSON's white space)
                return got
    return json.loads(line)


# parse_unit, power_index and build_position live in polydip.notation and
# polydip.game.positions; they stay importable from here for older callers
__all__ = ["RequestError", "adjudicate_request", "build_position", "check_size", "get_map",
           "outcome_json", "parse_unit", "power_index", "read_line", "run_lines"]
