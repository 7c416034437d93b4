"""A position written as JSON, in the shape of a one-shot request, and read back.

{"phase": "F1901R", "units": {"France": ["A PAR", "F STP/SC"]},
 "dislodged": {"Germany": [{"unit": "A MUN", "from": "BUR", "convoyed": false}]},
 "contested": ["SIL"], "centers": {...}, "homes": {...}, "year_start_centers": {...},
 "extra": {...}}

One-shot requests (polydip.oneshot), saved games (game/files.py) and the diplomacy package's
files (game/dipjson.py) all describe positions this way. A dislodged unit's retreat places
are worked out from the position, as the adjudicator works them out.
"""

from __future__ import annotations

from typing import Any, Final

from polydip.adjudication.legality import closed_passages
from polydip.adjudication.retreats import retreat_options
from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.notation import parse_province, parse_unit, power_index
from polydip.state import Dislodged, Phase, Position, Unit, unit_cache
from polydip.variants.calendar import parse_phase


class PositionError(PolydipError):
    """A position description that does not describe a position polydip can play."""


class TooLarge(PositionError):
    """A list or text beyond the limits build_position was given (the caller names them)."""


# What a text already read means, per map: units, provinces, powers and phases recur in
# every request, and reading one through the notation's name matching is slow. Only texts
# read without an error are kept, a bounded number of each.
_KEEP: Final = 20_000


def _memo(m: Map, what: str) -> dict:
    """The map's cache of texts read as `what` (MapCaches.texts), emptied when full."""
    got = m.caches.texts.get(what)
    if got is None or len(got) > _KEEP:
        got = m.caches.texts[what] = {}
    return got


def _remember(memo: dict, text: str, value: Any) -> Any:
    """`value` kept in `memo` under `text`, and returned (the read_* functions below)."""
    memo[text] = value
    return value


def read_unit(m: Map, text: Any) -> tuple[int, int]:
    """parse_unit, remembered per map."""
    if type(text) is not str:
        return parse_unit(m, text)
    memo = _memo(m, "unit_text")
    got = memo.get(text)
    if got is None:
        got = _canonical_unit(m, text)
        got = _remember(memo, text, got if got is not None else parse_unit(m, text))
    return got


def _canonical_unit(m: Map, text: str) -> tuple[int, int] | None:
    """parse_unit's answer for a unit written as Map.unit_str writes it ("A PAR", "F STP/SC"),
    read by the map's indexes of kinds and locations; None for any other text, and for a
    unit parse_unit refuses (a coast left out, a kind where it cannot stand)."""
    cut = text.find(" ")
    if cut < 0:
        return None
    k = m.kind_index.get(text[:cut])
    loc = m.loc_index.get(text[cut + 1:])
    if k is None or loc is None:
        return None
    where = m.unit_loc(k, loc)
    if where < 0 or not m.occupy[k][where]:
        return None
    return k, where


def read_province(m: Map, text: Any, what: str) -> int:
    """parse_province, remembered per map."""
    if type(text) is not str:
        return parse_province(m, text, what)
    memo = _memo(m, "province_text")
    got = memo.get(text)
    return got if got is not None else _remember(memo, text, parse_province(m, text, what))


def read_power(m: Map, name: Any) -> int:
    """power_index, remembered per map."""
    if type(name) is not str:
        return power_index(m, name)
    memo = _memo(m, "power_text")
    got = memo.get(name)
    return got if got is not None else _remember(memo, name, power_index(m, name))


def read_phase(m: Map, text: str) -> Phase:
    """parse_phase of the map's calendar, remembered per map."""
    memo = _memo(m, "phase_text")
    got = memo.get(text)
    if got is None:
        got = memo[text] = parse_phase(m.variant.calendar, text)
    return got


def power_lists(req: dict, key: str) -> dict:
    """req[key], checked to be an object of power → list (absent or null: empty)."""
    val = req.get(key, {})
    if val is None:
        return {}
    if not isinstance(val, dict):
        raise PositionError(f"{key!r} must be an object of power → list")
    for k, v in val.items():
        if not isinstance(v, list):
            raise PositionError(f"{key}.{k} must be a list")
    return val


def build_position(m: Map, req: dict, options: dict | None = None,
                   limits: tuple[int, int] | None = None) -> Position:
    """The Position a request (or a saved position) describes. With `limits` (characters
    of a text, entries of a list or object) its power → list fields (units, centers, homes,
    year_start_centers) are refused beyond them (TooLarge) before they are read: the
    one-shot contract checks a request's size that way, field by field as it reads it."""
    cal = m.variant.calendar
    phase = read_phase(m, str(req.get("phase", cal.start)))
    units = _read_units(m, check_limits(power_lists(req, "units"), limits))
    if "centers" in req and req["centers"] is not None:
        owners = _read_owners(m, check_limits(power_lists(req, "centers"), limits),
                              "centers")
    else:
        owners = [-1] * m.n_prov
        for i, pw in enumerate(m.variant.powers):
            for c in pw.centers:
                owners[m.prov_index[c]] = i
    homes = list(m.homes)
    raw_homes = req.get("homes")
    if raw_homes and raw_homes != _own_homes(m):  # (the variant's own: nothing to read)
        lists = _memo(m, "province_lists")
        for pname, lst in check_limits(power_lists(req, "homes"), limits).items():
            homes[read_power(m, pname)] = _read_provinces(
                m, lists, lst, "homes", pname)
    raw_contested = req.get("contested") or []
    if not isinstance(raw_contested, list):
        raise PositionError("'contested' must be a list of provinces")
    contested = frozenset(read_province(m, c, "contested") for c in raw_contested)
    dislodged = _read_dislodged(m, req)  # their retreats are worked out below
    if phase.type != "R" and dislodged:
        raise PositionError(f"dislodged units are given for a retreat phase, not {phase.name}")
    year_start = None
    if req.get("year_start_centers"):
        year_start = _read_owners(m, check_limits(power_lists(req, "year_start_centers"),
                                                  limits), "year_start_centers")
    extra = req.get("extra") or {}
    if not isinstance(extra, dict):
        raise PositionError("'extra' must be an object")
    pos = Position(phase, units, owners, dislodged, contested, homes, year_start, dict(extra))
    if dislodged:
        pos.dislodged = retreats(m, pos, options or {})
    return pos


def _read_dislodged(m: Map, req: dict) -> list[Dislodged]:
    """The request's dislodged units: "A PAR", or {"unit": "A PAR", "from": "BUR",
    "convoyed": true}."""
    dislodged: list[Dislodged] = []
    for pname, lst in power_lists(req, "dislodged").items():
        p = read_power(m, pname)
        for d in lst:
            if isinstance(d, str):
                d = {"unit": d}
            if not isinstance(d, dict) or "unit" not in d:
                raise PositionError(f"dislodged.{pname}: each entry is "
                                    "{\"unit\": \"A PAR\", \"from\": \"BUR\"}")
            k, loc = read_unit(m, d["unit"])
            if d.get("from") is not None and not isinstance(d["from"], str):
                raise PositionError(f"dislodged.{pname}: 'from' is the attacker's province")
            attacker = (read_province(m, d["from"], f"dislodged.{pname}") if d.get("from")
                        else -1)
            dislodged.append(Dislodged(p, k, loc, attacker, bool(d.get("convoyed", False))))
    return dislodged


def _own_homes(m: Map) -> dict[str, list[str]]:
    """The variant's home centers written as a request writes them (position_to_json)."""
    got = m.caches.own_homes
    if got is None:
        got = m.caches.own_homes = {m.powers[p]: [m.prov_abbr[c] for c in h]
                                     for p, h in enumerate(m.homes)}
    return got


def check_limits(lists: dict, limits: tuple[int, int] | None) -> dict:
    """`lists` (power → list, as power_lists gives it), after refusing (TooLarge) an object,
    a list, a power name or a text in a list beyond `limits` (characters of a text,
    entries). An entry that is not a text is left to the reader, which refuses it."""
    if limits is None:
        return lists
    longest, most = limits
    if len(lists) > most:
        raise TooLarge("beyond the limits: an object of too many entries")
    checked: dict[Any, list[Any]] = lists  # (power_lists checked them to be lists)
    for k, lst in checked.items():
        if len(lst) > most or (isinstance(k, str) and len(k) > longest):
            raise TooLarge("beyond the limits: a list of too many entries or a long name")
        for t in lst:
            if isinstance(t, str) and len(t) > longest:
                raise TooLarge("beyond the limits: a text of too many characters")
    return lists


def _read_units(m: Map, lists: dict[Any, list[Any]]) -> list[Unit]:
    """The units of a request's "units" (power → unit texts). A text read before for the
    same power is the same Unit object (units are immutable values)."""
    units: list[Unit] = []
    if not lists:
        return units
    known_units: dict[int, dict[str, Unit]] = _memo(m, "unit_objects")  # power → text → Unit
    seen: list[Any] = [None] * m.n_prov  # the text of the unit read in each province
    loc_prov, open_space = m.loc_prov, m.tables.open_space
    cache = unit_cache(m)
    for pname, lst in lists.items():
        p = read_power(m, pname)
        known = known_units.get(p)
        if known is None:
            known = known_units[p] = {}
        for t in lst:
            unit: Unit | None = known.get(t) if type(t) is str else None
            if unit is None:
                k, loc = read_unit(m, t)
                unit = cache.unit(p, k, loc)
                if type(t) is str and len(known) < _KEEP:
                    known[t] = unit
            prov = loc_prov[unit.loc]
            if seen[prov] is not None and not open_space[prov]:
                raise PositionError(f"two units in {m.prov_abbr[prov]}: {seen[prov]} and {t}")
            seen[prov] = t
            units.append(unit)
    return units


def _read_owners(m: Map, lists: dict[Any, list[Any]], key: str) -> list[int]:
    """Center owners per province (-1: none) from power → center texts ("centers", each
    checked to be a supply center, or "year_start_centers"): a later power listing a center
    takes it."""
    owners = [-1] * m.n_prov
    memo: dict[tuple, tuple[int, ...]] = _memo(m, f"{key} lists")
    for pname, lst in lists.items():
        p = read_power(m, pname)
        for prov in _read_provinces(m, memo, lst, key, pname, key == "centers"):
            owners[prov] = p
    return owners


def _read_provinces(m: Map, memo: dict, lst: list, key: str, pname: Any,
                    centers: bool = False) -> tuple[int, ...]:
    """The provinces a list of texts names (with `centers`, each refused unless it is a
    supply center), remembered in `memo` by the texts when they are all strings."""
    try:
        got = memo.get(tuple(lst))
    except TypeError:  # an entry that cannot be a key: read it for the error
        got = None
    if got is None:
        where = f"{key}.{pname}"
        out = []
        for c in lst:
            prov = read_province(m, c, where)
            if centers and not m.is_sc[prov]:
                raise PositionError(f"{where}: {m.prov_abbr[prov]} is not a supply center")
            out.append(prov)
        got = tuple(out)
        if all(type(c) is str for c in lst):
            memo[tuple(lst)] = got
    return got


def retreats(m: Map, pos: Position, options: dict) -> list[Dislodged]:
    """The dislodged units of `pos` with the places they may retreat to, as the adjudicator
    gives them. Passages a rule closes are read from this board (the units after the
    movement), the adjudicator reads them at the start of the movement phase: the two differ
    only when a unit moved into or out of a passage's controlling province."""
    occupied = {m.loc_prov[u.loc] for u in pos.units
                if not m.tables.open_space[m.loc_prov[u.loc]]}  # an open space is never full
    closed = closed_passages(m, pos, options)
    to_origin = options.get("retreat_to_convoy_origin", True)
    out = []
    for d in pos.dislodged:
        blocked = -1 if d.convoyed and to_origin else d.attacker
        where = retreat_options(m, d.kind, d.loc, occupied, pos.contested, blocked, d.power,
                                closed)
        d = Dislodged(d.power, d.kind, d.loc, d.attacker, d.convoyed, where)
        out.append(m.rules.retreat(m, pos, d))
    return out


def position_to_json(m: Map, pos: Position) -> dict[str, Any]:
    """The position in the shape build_position reads."""
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(m.powers[u.power], []).append(m.unit_str(u.kind, u.loc))
    dislodged: dict[str, list[dict[str, Any]]] = {}
    for d in pos.dislodged:
        e: dict[str, Any] = {"unit": m.unit_str(d.kind, d.loc)}
        if d.attacker >= 0:
            e["from"] = m.prov_abbr[d.attacker]
        if d.convoyed:
            e["convoyed"] = True
        dislodged.setdefault(m.powers[d.power], []).append(e)
    centers = {m.powers[p]: [m.prov_abbr[c] for c in pos.centers_of(p)]
               for p in range(len(m.powers))}
    homes = {m.powers[p]: [m.prov_abbr[c] for c in h] for p, h in enumerate(pos.homes)}
    out: dict[str, Any] = {"phase": pos.phase.name, "units": units, "centers": centers,
                           "homes": homes}
    if dislodged:
        out["dislodged"] = dislodged
    if pos.contested:
        out["contested"] = sorted(m.prov_abbr[p] for p in pos.contested)
    if pos.year_start_owners is not None and pos.year_start_owners != pos.owners:
        out["year_start_centers"] = {
            m.powers[p]: [m.prov_abbr[c] for c, o in enumerate(pos.year_start_owners) if o == p]
            for p in range(len(m.powers))}
    if pos.extra:
        out["extra"] = pos.extra
    return out
