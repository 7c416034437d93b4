"""The one-shot adjudication contract: one JSON request in, one JSON outcome out.

Request keys: variant (default "standard"), phase, units, dislodged, contested, centers,
homes, orders, options. See docs/adjudicate.md for the full description.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from polydip.errors import PolydipError
from polydip.game.engine import parse_orders, process
from polydip.game.positions import build_position, power_lists
from polydip.geography.map import Map, compile_map
from polydip.notation import parse_unit, power_index
from polydip.options import check_options
from polydip.state import Position
from polydip.variants.loader import load_variant

_VARIANTS: dict[str, Map] = {}


class RequestError(PolydipError):
    """A request that does not describe a position polydip can adjudicate."""


def get_map(name: str) -> Map:
    m = _VARIANTS.get(name)
    if m is None:
        m = compile_map(load_variant(name))
        _VARIANTS[name] = m
    return m


def adjudicate_request(req: Any) -> dict[str, Any]:
    """Adjudicate one request; return the outcome (or {"error": ...})."""
    try:
        if not isinstance(req, dict):
            raise RequestError("a request is a JSON object")
        unknown = set(req) - {"variant", "phase", "units", "dislodged", "contested", "centers",
                              "homes", "orders", "options", "id", "year_start_centers",
                              "extra"}
        if unknown:
            raise RequestError(f"unknown request key(s): {', '.join(sorted(unknown))}")
        m = get_map(str(req.get("variant", "standard")))
        options = dict(m.variant.options)
        opts = req.get("options") or {}
        if not isinstance(opts, dict):
            raise RequestError("'options' must be an object")
        options.update(opts)
        check_options(options)
        pos = build_position(m, req, options)
        typed: dict[int, list[str]] = {}
        for pname, lst in power_lists(req, "orders").items():
            p = power_index(m, pname)
            if not all(isinstance(t, str) for t in lst):
                raise RequestError(f"orders.{pname}: orders are strings")
            typed.setdefault(p, []).extend(lst)
        parsed, errors = parse_orders(m, pos.phase, typed)
        out = process(m, pos, parsed, options)
        res = outcome_json(m, out.position, out.results, errors + out.errors, pos.phase.name,
                           req.get("id"))
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


def outcome_json(m: Map, pos: Position, results, errors, phase: str, rid: Any = None
                 ) -> dict[str, Any]:
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
        "centers": centers,
        "next_phase": pos.phase.name,
        "errors": [f"{m.powers[p]}: {msg}" for p, msg in errors],
    })
    return out


def run_lines(lines: Iterable[str]) -> Iterator[dict[str, Any]]:
    """JSON Lines in → one outcome per non-blank line, in order."""
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as exc:
            yield {"error": f"line {n}: not valid JSON: {exc.msg} (column {exc.colno})"}
            continue
        yield adjudicate_request(req)


# parse_unit, power_index and build_position live in polydip.notation and
# polydip.game.positions; they stay importable from here for older callers
__all__ = ["RequestError", "adjudicate_request", "build_position", "get_map", "outcome_json",
           "parse_unit", "power_index", "run_lines"]
