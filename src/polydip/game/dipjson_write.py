"""Writing the `diplomacy` package's saved-game JSON, for every variant: the export half of
game/dipjson.py, which describes the format and reads it back (and re-exports what is
here). A module of its own so that the compiled build compiles it (setup.py: the writer
of `polydip simulate`'s games) while the reader, whose refusals of any JSON must stay
clear messages, stays interpreted.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.reasons import ResultWord
from polydip.game.engine import MOVEMENT_TYPES, bind_to_units, parse_orders
from polydip.game.jsonbytes import compact, holds_float
from polydip.game.press import GLOBAL, Message
from polydip.game.record import GameRecord
from polydip.geography.map import Map
from polydip.options import defaults
from polydip.orders.model import BUILD, DISBAND, RETREAT, WAIVE, Order
from polydip.state import Dislodged, Phase, Position, Unit
from polydip.variants.loader import builtin_names
from polydip.variants.model import Variant

MAP_NAME = "standard"
RULES = ["NO_PRESS", "POWER_CHOICE"]  # what the package writes for a default game
OK = ""  # the package's "OK" result, written in adjustment phases
CIVIL_DISORDER: ResultWord = "civil disorder"  # polydip's word for a removal it chose itself
ALL_RESULTS = "polydip_results"  # a phase's results with their powers (_all_results)
OPTIONS_KEY = "polydip_options"  # polydip's rule options, where not the variant's (options.md)


class WriteMemo:
    """What the writer worked out, kept across the games of one map: an order's text in
    the package's notation (by its line and the units it names), a result's key (by its
    text), each unit's text, and the parts of a phase's state that many phases share (the
    centers of an owner list, the homes, the empty retreats, builds and civil disorder).
    Bounded: cleared when it grows past LIMIT entries.

    A state written with a memo holds those shared parts as one object each: the saved game
    is for encoding (json.dumps, diplomacy_line), not for changing in place."""

    LIMIT = 200_000
    __slots__ = ("bound", "centers", "civil", "homes", "influence", "keys", "last", "last_homes",
                 "map", "map_name", "names", "no_builds", "no_retreats", "orders", "phase_names",
                 "texts")

    def __init__(self, m: Map) -> None:
        self.map = m
        self.orders: dict[tuple[str, str, int, int, str | None, int], str] = {}
        self.keys: dict[str, str] = {}
        # a bound order's text by the order's id (the orders of the map's order table are
        # the same objects in every phase): (order, its unit's kind and place, the place
        # and kind of the unit it names or -1, text)
        self.bound: dict[int, tuple[Order, int, int, int, int, str]] = {}
        # texts[kind][loc]: the unit's text, None until asked for
        self.texts: list[list[str | None]] = [[None] * len(m.loc_name) for _ in m.kinds]
        self.names = [p.upper() for p in m.powers]
        self.map_name: str | None = None  # map_name_of the map's variant, once asked
        self.centers: dict[tuple[int, ...], dict[str, list[str]]] = {}  # by owners
        # the last owner list written and its centers (the list kept: its identity is its own)
        self.last: tuple[list[int] | None, dict[str, list[str]]] = (None, {})
        self.last_homes: tuple[list[tuple[int, ...]] | None, dict[str, list[str]]] = (None, {})
        # the influence written last (a game's, until it changes)
        self.influence: dict[str, list[str]] | None = None
        self.phase_names: dict[str, str] = {}  # a phase's name → as the package writes it
        self.homes: dict[tuple[tuple[int, ...], ...], dict[str, list[str]]] = {}
        self.civil: dict[str, int] = dict.fromkeys(self.names, 0)
        self.no_builds: dict[str, dict[str, Any]] = {
            n: {"count": 0, "homes": []} for n in self.names}
        self.no_retreats: dict[str, dict[str, list[str]]] = {n: {} for n in self.names}

    def unit(self, kind: int, loc: int) -> str:
        got = self.texts[kind][loc]
        if got is None:
            got = self.texts[kind][loc] = self.map.unit_str(kind, loc)
        return got

    def trim(self) -> None:
        if (len(self.orders) + len(self.keys) + len(self.centers) + len(self.homes)
                + len(self.bound) > self.LIMIT):
            self.orders.clear()
            self.bound.clear()
            self.keys.clear()
            self.centers.clear()
            self.homes.clear()
            self.last = (None, {})
            self.last_homes = (None, {})
            self.phase_names.clear()


def map_name_of(v: Variant) -> str:
    """The "map" a saved game names its variant by: a built-in variant's name, else the name of
    the file the variant was read from without its suffix — how variant_for_map finds it on
    the search path when the file declares another name (`name = "My Variant"` in
    my_variant.toml) — else the variant's name."""
    if v.name.lower() in builtin_names() or not v.path:
        return v.name
    return Path(v.path).stem


def game_to_diplomacy(game: GameRecord, *, stamp: int | None = None,
                      map_name: str | None = None, memo: WriteMemo | None = None
                      ) -> dict[str, Any]:
    """The game as the `diplomacy` package's saved game (a dict ready for json.dumps).

    `stamp`: the first phase's timestamp (default: now, in microseconds, as the package
    writes; a fixed one makes the output reproducible). `map_name`: the map name to write
    (default: map_name_of the variant, which record_from_diplomacy looks up). `memo`: what
    was worked out for earlier games of the same map (a writer of many games keeps one);
    with it, phases share the parts of their states that are the same (WriteMemo)."""
    m = game.map
    # with a memo from the caller (a writer of many games), movement phases are written from
    # what the adjudication bound to each unit rather than by reading the orders again, and
    # the parts of states that many phases share are written once
    by_units = memo is not None and memo.map is m
    if memo is None or memo.map is not m:
        memo = WriteMemo(m)
    map_name = _map_name(game, memo, map_name)
    if stamp is None:
        stamp = int(time.time() * 1_000_000)
    phases = list(_phases(game, stamp, map_name, memo, by_units))
    _messages_out(game, phases)
    game_id = game.name or "polydip"
    out: dict[str, Any] = {"id": game_id, "map": map_name, "rules": list(RULES),
                           "phases": phases}
    changed = _changed_options(game)
    if changed:  # the rule options the game was played with, where not the variant's own
        out[OPTIONS_KEY] = changed
    return out


def _map_name(game: GameRecord, memo: WriteMemo, map_name: str | None) -> str:
    """The map name to write: `map_name`, else map_name_of the variant (once a memo)."""
    if map_name is None:
        if memo.map_name is None:
            memo.map_name = map_name_of(game.variant)
        map_name = memo.map_name
    return map_name


def _changed_options(game: GameRecord) -> dict[str, Any]:
    """The rule options the game was played with, where not the variant's own."""
    usual = defaults()
    usual.update(game.variant.options)
    return {k: val for k, val in game.options.items() if usual.get(k, _UNSET) != val}


def _phases(game: GameRecord, stamp: int, map_name: str, memo: WriteMemo, by_units: bool
            ) -> Iterator[dict[str, Any]]:
    """The saved game's phases one after the other, without their messages: the
    processed phases, then the phase in play or COMPLETED (a draw: both). Each is made
    when asked for, so that a writer can encode it and let it go (diplomacy_line)."""
    m = game.map
    # (owner and home lists are compared by identity within one game)
    memo.last, memo.last_homes = (None, {}), (None, {})
    memo.influence = None
    game_id = game.name or "polydip"
    base = {"game_id": game_id, "map": map_name, "rules": list(RULES)}
    first = game.history[0].position if game.history else game.position
    influence = _initial_influence(m, first)
    firsts: dict[int, list[int]] = {}  # year → the owners in its first phase in the file
    for p in [r.position for r in game.history] + [game.position]:
        firsts.setdefault(p.phase.year, p.owners)
    yield from _history_out(game, influence, base, stamp, firsts, memo, by_units)
    pos = game.position
    current: dict[str, Any] = {
        "name": _name(pos.phase),
        "state": _state(m, pos, influence, base, stamp + len(game.history), firsts, memo),
        "orders": _orders_out(m, pos, game.orders, full=False, memo=memo),
        "results": {},
        "messages": [],
    }
    if game.status != "active" and game.history:
        # the package ends a game with a phase named COMPLETED; a draw is declared without
        # processing the phase in play, which stays in the history with no results
        if game.status == "drawn":
            current["orders"] = {k: v or [] for k, v in current["orders"].items()}
            yield current
        done = _state(m, pos, influence, base, stamp + len(game.history) + 1, firsts, memo)
        done["name"] = "COMPLETED"
        yield {"name": "COMPLETED", "state": done, "orders": dict.fromkeys(done["units"]),
               "results": {}, "messages": []}
    else:
        yield current


def _history_out(game: GameRecord, influence: list[list[int]], base: dict[str, Any],
                 stamp: int, firsts: dict[int, list[int]], memo: WriteMemo, by_units: bool
                 ) -> Iterator[dict[str, Any]]:
    """The processed phases, each with its orders and results; `influence` advanced.
    `by_units`: movement phases from what the adjudication bound to each unit, states
    sharing what they share (a memo of the caller's)."""
    m = memo.map
    state_of = _shared_state if by_units else _state
    holder = _holders(m, influence)
    for i, rec in enumerate(game.history):
        state = state_of(m, rec.position, influence, base, stamp + i, firsts, memo)
        by_unit = rec.outcome.unit_results() if by_units else None
        if by_unit is not None:  # keyed by unit: no order text to write
            results, twice = _unit_results_out(by_unit, memo)
            orders = _bound_orders_out(m, rec.position, rec.orders, by_unit, memo)
        else:
            results, keys = _results_out(m, rec.position, rec.outcome.rows(), memo)
            twice = "WAIVE" in keys or len(set(keys)) != len(keys)
            orders = _orders_out(m, rec.position, rec.orders, full=True, memo=memo)
        phase = {
            "name": state["name"],
            "state": state,
            "orders": orders,
            "results": results,
            "messages": [],
        }
        if twice:
            phase[ALL_RESULTS] = _all_results(m, rec.outcome.rows())
        # (the influence advanced before the phase is encoded: its state holds none of it)
        if _advance_influence(m, rec.position.phase, influence, rec.outcome.position,
                              holder):
            memo.influence = None
        yield phase


_UNSET = object()


def diplomacy_line(game: GameRecord, *, stamp: int | None = None,
                   memo: WriteMemo | None = None) -> bytes:
    """The game's saved game (game_to_diplomacy) as one line of compact JSON: the bytes of
    `json.dumps(saved, separators=(",", ":")).encode()`, whether orjson writes them or not
    (game/jsonbytes.py)."""
    if memo is None or memo.map is not game.map or game.messages:
        saved = game_to_diplomacy(game, stamp=stamp, memo=memo)
        return compact(saved, floats=_may_hold_floats(game))
    # a writer of many games: each phase encoded as it is made (the same bytes as the
    # whole saved game's) and let go, so that no game's tree of dicts outlives its phase
    # and wakes the cyclic collector (about a tenth of the writing's instructions)
    floats = _may_hold_floats(game)
    map_name = _map_name(game, memo, None)
    if stamp is None:
        stamp = int(time.time() * 1_000_000)
    head = compact({"id": game.name or "polydip", "map": map_name, "rules": RULES}, False)
    parts = [head[:-1], b',"phases":[',
             b",".join([compact(p, floats)
                        for p in _phases(game, stamp, map_name, memo, True)]), b"]"]
    changed = _changed_options(game)
    if changed:
        parts += [b',"', OPTIONS_KEY.encode(), b'":', compact(changed)]
    parts.append(b"}")
    return b"".join(parts)


def _may_hold_floats(game: GameRecord) -> bool:
    """Could the saved game hold a float? Only where its data comes from outside polydip's
    writer: rule options, rule modules' data in positions, messages."""
    if holds_float(game.options) or game.messages:
        return True
    return any(rec.position.extra and holds_float(rec.position.extra)
               for rec in game.history) or bool(game.position.extra
                                                 and holds_float(game.position.extra))


def _messages_out(game: GameRecord, phases: list[dict[str, Any]]) -> None:
    """Each message into the "messages" of the phase it was sent in (one to each recipient
    when several; times unique), one whose phase is not in the file into the last phase."""
    if not game.messages:
        return
    where: dict[str, int] = {}
    names = [rec.position.phase.name for rec in game.history] + [game.position.phase.name]
    for i, name in enumerate(names[:len(phases)]):
        where.setdefault(name, i)
    for msg, entry in package_messages(game.map, game.messages):
        i = where.get(msg.phase, len(phases) - 1)
        entry["phase"] = phases[i]["name"]
        phases[i]["messages"].append(entry)


def package_messages(m: Map, messages: Sequence[Message]
                     ) -> list[tuple[Message, dict[str, Any]]]:
    """Each message's entries in the package's "messages", with the message: one to each
    recipient when several (GLOBAL: to all), powers' names in upper case, times unique and
    increasing; "phase" is left empty for the caller (the package's name of the phase)."""
    out: list[tuple[Message, dict[str, Any]]] = []
    last = 0
    for msg in messages:
        sender = msg.sender if msg.sender not in m.powers else msg.sender.upper()
        targets = [GLOBAL] if msg.is_global else [
            r if r not in m.powers else r.upper() for r in msg.recipients]
        for r in targets:
            last = max(msg.time, last + 1)
            out.append((msg, {"sender": sender, "recipient": r, "time_sent": last,
                              "phase": "", "message": msg.text}))
    return out


def _name(phase: Phase) -> str:
    """The phase's name as the package writes it, the year in four digits ("S0001M" in
    ancmed, which begins in year 1)."""
    return f"{phase.season}{phase.year:04d}{phase.type}"


def _initial_influence(m: Map, pos: Position) -> list[list[int]]:
    """Per power, the provinces where it last had a unit (the package's "influence")."""
    inf: list[list[int]] = [[] for _ in m.powers]
    for u in pos.units:
        p = m.loc_prov[u.loc]
        if p not in inf[u.power]:
            inf[u.power].append(p)
    return inf


def _holders(m: Map, inf: list[list[int]]) -> list[int] | None:
    """The power whose influence holds each province (-1: none), for _advance_influence;
    None where a province is held twice (several powers' units in one place at the start)
    or units may share a space."""
    if m.tables.has_open_spaces:
        return None
    holder = [-1] * m.n_prov
    for power, lst in enumerate(inf):
        for p in lst:
            if holder[p] >= 0:
                return None
            holder[p] = power
    return holder


def _advance_influence(m: Map, done: Phase, inf: list[list[int]], after: Position,
                       holder: list[int] | None = None) -> bool:
    """Units that moved or retreated claim their province (builds do not, as in the package).
    Whether a province changed hands. `holder`: _holders of `inf`, kept up to date (each
    province in one power's influence at most: a unit's claim is looked up, not searched)."""
    if done.type == "A":
        return False
    changed = False
    loc_prov = m.loc_prov
    if holder is not None:
        for u in after.units:
            p = loc_prov[u.loc]
            was = holder[p]
            if was != u.power:
                if was >= 0:
                    inf[was].remove(p)
                inf[u.power].append(p)
                holder[p] = u.power
                changed = True
        return changed
    shared = m.tables.has_open_spaces  # several powers' units may stand in one province
    units = sorted(after.units, key=_power_of) if shared else after.units  # the file's order
    for u in units:
        p = loc_prov[u.loc]
        if p in inf[u.power]:
            continue
        claimer = u.power
        if shared:  # a power still there keeps it, whatever the order of the units
            there = {x.power for x in units if loc_prov[x.loc] == p}
            if any(p in inf[q] for q in there):
                continue
            claimer = min(there)
        for lst in inf:
            if p in lst:
                lst.remove(p)
        inf[claimer].append(p)
        changed = True
    return changed


def _power_of(u: Unit) -> int:
    return u.power


def _state(m: Map, pos: Position, influence: list[list[int]], base: dict[str, Any],
           stamp: int, firsts: dict[int, list[int]], memo: WriteMemo | None = None
           ) -> dict[str, Any]:
    memo = memo if memo is not None and memo.map is m else WriteMemo(m)
    unit = memo.unit
    names = [p.upper() for p in m.powers]
    units: dict[str, list[str]] = {n: [] for n in names}
    retreats: dict[str, dict[str, list[str]]] = {n: {} for n in names}
    for u in pos.units:
        units[names[u.power]].append(unit(u.kind, u.loc))
    for d in pos.dislodged:
        text = unit(d.kind, d.loc)
        units[names[d.power]].append("*" + text)
        retreats[names[d.power]][text] = [m.loc_name[r] for r in d.retreats]
    builds = (_builds(m, pos, names) if pos.phase.type == "A"
              else {n: {"count": 0, "homes": []} for n in names})
    abbr = m.prov_abbr
    homes = pos.homes or list(m.homes)
    return {
        "timestamp": stamp,
        "note": "",
        "name": _name(pos.phase),
        "units": units,
        "retreats": retreats,
        "centers": _centers(m, pos.owners, names),
        "homes": {n: [abbr[h] for h in homes[p]] for p, n in enumerate(names)},
        "influence": {n: [abbr[c] for c in influence[p]] for p, n in enumerate(names)},
        "civil_disorder": dict.fromkeys(names, 0),
        "builds": builds,
        **base,
        "rules": list(base["rules"]),
        **_polydip_state(m, pos, firsts[pos.phase.year]),
    }


def _shared_state(m: Map, pos: Position, influence: list[list[int]], base: dict[str, Any],
                  stamp: int, firsts: dict[int, list[int]], memo: WriteMemo
                  ) -> dict[str, Any]:
    """_state, for a writer of many games: the parts that many phases share are the memo's
    (one object each, written again as they are), the units' texts come from its table."""
    names = memo.names
    texts = memo.texts
    lists: list[list[str]] = [[] for _ in names]  # each power's units
    for u in pos.units:
        text = texts[u.kind][u.loc]
        lists[u.power].append(text if text is not None else memo.unit(u.kind, u.loc))
    retreats = memo.no_retreats
    if pos.dislodged:
        retreats = {n: {} for n in names}
        loc_name = m.loc_name
        for d in pos.dislodged:
            text = memo.unit(d.kind, d.loc)
            lists[d.power].append("*" + text)
            retreats[names[d.power]][text] = [loc_name[r] for r in d.retreats]
    builds = memo.no_builds if pos.phase.type != "A" else _builds(m, pos, names)
    # a position shares its owner list with the one before when no center changed hands
    last_owners, centers = memo.last
    if pos.owners is not last_owners:
        owners = tuple(pos.owners)
        got = memo.centers.get(owners)
        if got is None:
            got = memo.centers[owners] = _centers(m, pos.owners, names)
        centers = got
        memo.last = (pos.owners, got)
    homes = _shared_homes(m, pos, memo)
    name = memo.phase_names.get(pos.phase.name)
    if name is None:
        name = memo.phase_names[pos.phase.name] = _name(pos.phase)
    state = {
        "timestamp": stamp,
        "note": "",
        "name": name,
        "units": dict(zip(names, lists, strict=True)),
        "retreats": retreats,
        "centers": centers,
        "homes": homes,
        "influence": _shared_influence(m, influence, memo),
        "civil_disorder": memo.civil,
        "builds": builds,
        "game_id": base["game_id"],
        "map": base["map"],
        "rules": base["rules"],
    }
    first = firsts[pos.phase.year]
    if (pos.extra or pos.phase.type == "R"
            or (pos.year_start_owners is not None and pos.year_start_owners is not first)):
        state.update(_polydip_state(m, pos, first))
    return state


def _shared_influence(m: Map, influence: list[list[int]], memo: WriteMemo
                      ) -> dict[str, list[str]]:
    """The influence written, the memo's until _advance_influence changes it."""
    got = memo.influence
    if got is None:
        abbr = m.prov_abbr
        got = memo.influence = {n: [abbr[c] for c in influence[p]]
                                for p, n in enumerate(memo.names)}
    return got


def _shared_homes(m: Map, pos: Position, memo: WriteMemo) -> dict[str, list[str]]:
    """The homes of the position, the memo's for the homes of the one before."""
    homes = pos.homes or m.homes
    last_homes, got = memo.last_homes
    if homes is last_homes:
        return got
    key = tuple(homes)
    found = memo.homes.get(key)
    if found is None:
        abbr = m.prov_abbr
        found = memo.homes[key] = {n: [abbr[h] for h in key[p]]
                                   for p, n in enumerate(memo.names)}
    memo.last_homes = (homes, found)
    return found


def _builds(m: Map, pos: Position, names: list[str]) -> dict[str, dict[str, Any]]:
    """An adjustment phase's builds (count, and the sites of a power that builds) per power."""
    builds: dict[str, dict[str, Any]] = {n: {"count": 0, "homes": []} for n in names}
    for p, delta in enumerate(adjustment_counts(m, pos)):
        b = builds[names[p]]
        b["count"] = delta
        if delta > 0:
            sites = build_sites(m, pos, p)
            b["count"] = min(len(sites), delta)
            b["homes"] = [m.prov_abbr[s] for s in sites]
    return builds


def _centers(m: Map, owners: list[int], names: list[str]) -> dict[str, list[str]]:
    """The supply centers each power owns."""
    centers: list[list[str]] = [[] for _ in names]
    abbr = m.prov_abbr
    n_powers = len(names)
    for prov, owner in enumerate(owners):
        if 0 <= owner < n_powers:
            centers[owner].append(abbr[prov])
    return dict(zip(names, centers, strict=True))


def _polydip_state(m: Map, pos: Position, first: list[int]) -> dict[str, Any]:
    """What polydip's position holds beyond the package's state, under keys the package
    ignores: the center owners when the year began (build rules read them; written only
    where they are not the owners of the year's first phase in the file, `first`, which the
    reader takes otherwise), the data rule modules keep (LAD's anchor markers and canals,
    ...), the provinces a standoff left empty."""
    out: dict[str, Any] = {}
    start = pos.year_start_owners
    if start is not None and start != first:
        out["year_start_centers"] = {
            name.upper(): [m.prov_abbr[c] for c, o in enumerate(start) if o == p]
            for p, name in enumerate(m.powers)}
    if pos.extra:
        out["extra"] = pos.extra
    if pos.phase.type == "R" and pos.contested:
        # the provinces a standoff left empty, which no unit may retreat to: rules of polydip's
        # variants (oceans, open spaces, weak crossings) decide standoffs the package's
        # results cannot show
        out["contested"] = sorted(m.prov_abbr[p] for p in pos.contested)
    return out


def _unit_text(m: Map, pos: Position, kind: int | None, loc: int | None,
               board: dict[int, list[Unit | Dislodged]] | None = None) -> str:
    """A unit named by an order, with its kind and coast taken from the board when left out.
    `board`: the units by province (_board), when the caller has it."""
    if loc is None or loc < 0:
        return "?"
    prov = m.loc_prov[loc]
    there = board.get(prov, ()) if board is not None else _board(m, pos).get(prov, ())
    for u in there:
        if kind is None or u.kind == kind:
            return m.unit_str(u.kind, u.loc)
    if kind is None:
        return m.loc_name[loc]
    return m.unit_str(kind, loc)


def _board(m: Map, pos: Position) -> dict[int, list[Unit | Dislodged]]:
    """The units and then the dislodged units of each province, in the position's order."""
    out: dict[int, list[Unit | Dislodged]] = {}
    loc_prov = m.loc_prov
    for u in pos.units:
        out.setdefault(loc_prov[u.loc], []).append(u)
    for d in pos.dislodged:
        out.setdefault(loc_prov[d.loc], []).append(d)
    return out


def _order_text(m: Map, pos: Position, unit: Unit | Dislodged, o: Order, n: int = 0,
                board: dict[int, list[Unit | Dislodged]] | None = None,
                memo: WriteMemo | None = None) -> str:
    """An order bound to `unit`, in the package's notation, every unit named in full; `n`:
    the unit's number among its power's units of its kind in a shared space (an ocean's
    fleets, orders/stacked.py), written after it so the order binds to it when read back.
    The text depends on the order's line and kind, the unit, the unit it names and `n`
    alone, so `memo` keeps it by those."""
    other = (_unit_text(m, pos, o.aux_kind, o.aux_loc, board)
             if o.aux_loc is not None else None)
    if memo is None:
        return o.format(m, m.unit_str(unit.kind, unit.loc) + (f" #{n}" if n else ""), other)
    key = (o.text, o.type, unit.kind, unit.loc, other, n)
    got = memo.orders.get(key)
    if got is None:
        got = memo.orders[key] = o.format(
            m, memo.unit(unit.kind, unit.loc) + (f" #{n}" if n else ""), other)
    return got


def _orders_out(m: Map, pos: Position, orders: dict[int, list[str]], full: bool,
                memo: WriteMemo | None = None) -> dict[str, list[str] | None]:
    """Typed orders → the package's notation; orders that do not fit the position are left
    out, as the package would have refused them. `full`: a list for every power (history);
    otherwise null for a power that gave no order (the current phase)."""
    names = [p.upper() for p in m.powers]
    out: dict[str, list[str] | None] = {n: ([] if full else None) for n in names}
    if not orders:  # (the phase in play of a simulated game: nothing to read)
        return out
    parsed, _ = parse_orders(m, pos.phase, orders)
    board = _board(m, pos)
    if pos.phase.type in ("M", "R"):
        units: Sequence[Unit | Dislodged] = (pos.units if pos.phase.type == "M"
                                             else pos.dislodged)
        allowed = MOVEMENT_TYPES if pos.phase.type == "M" else (RETREAT, DISBAND)
        bound, _ = bind_to_units(m, units, parsed, allowed)
        numbers = _numbers(m, units) if m.tables.has_open_spaces else [0] * len(units)
        for u, bound_order, n in zip(units, bound, numbers, strict=True):
            if bound_order is not None:
                given = out[names[u.power]]
                if given is None:
                    given = out[names[u.power]] = []
                given.append(_order_text(m, pos, u, bound_order, n, board, memo))
    else:
        for p, power_orders in parsed.items():
            texts: list[str] = []
            for o in power_orders:
                if o.type == BUILD and o.act:  # a build of something else (LAD's canals)
                    texts.append(o.format(m))
                elif o.type == BUILD and o.kind is not None:
                    texts.append(f"{m.unit_str(o.kind, o.loc)} B")
                elif o.type == DISBAND:
                    texts.append(f"{_unit_text(m, pos, o.kind, o.loc, board)} D")
                elif o.type == WAIVE:
                    texts.append("WAIVE")
            out[names[p]] = texts
    for p, lst in orders.items():  # a power that ordered nothing readable still gave orders
        if out[names[p]] is None and lst is not None:
            out[names[p]] = []
    if memo is not None:
        memo.trim()
    return out


def _numbers(m: Map, units: Sequence[Unit | Dislodged]) -> list[int]:
    """orders/stacked.number_of of every unit, in one pass: its number among its power's
    units of its kind in its province (1, 2, ...), 0 when it is the only one there."""
    loc_prov = m.loc_prov
    keys = [(u.power, u.kind, loc_prov[u.loc]) for u in units]
    total: dict[tuple[int, int, int], int] = {}
    for k in keys:
        total[k] = total.get(k, 0) + 1
    seen: dict[tuple[int, int, int], int] = {}
    out = []
    for k in keys:
        if total[k] > 1:
            seen[k] = seen.get(k, 0) + 1
            out.append(seen[k])
        else:
            out.append(0)
    return out


Rows = Sequence[tuple[int, str, Sequence[str]]]


def _results_out(m: Map, pos: Position, rows: Rows, memo: WriteMemo | None = None
                 ) -> tuple[dict[str, list[str]], list[str]]:
    """The results keyed by unit, as the package keeps them, and the key of each."""
    out: dict[str, list[str]] = {}
    keys = []
    kinds = m.kinds
    known = memo.keys if memo is not None else {}
    board: dict[int, list[Unit | Dislodged]] | None = None
    adjust = pos.phase.type == "A"
    for _power, text, result in rows:
        key = known.get(text)
        if key is None:
            words = text.split()
            if words[:1] == ["WAIVE"]:
                key = "WAIVE"
            elif words and words[0] in kinds and len(words) > 1:
                key = " ".join(words[:2])
            else:  # "PAR D": a removal that left the unit's kind out (the board says which)
                if board is None:
                    board = _board(m, pos)
                try:
                    key = _unit_text(m, pos, None, m.loc_of(words[0]), board)
                except (KeyError, IndexError):
                    key = text
                keys.append(key)
                if key not in out:
                    out[key] = _result_words(result, adjust)
                continue
            known[text] = key
        keys.append(key)
        if key not in out:  # (a second order under the same key: see _all_results)
            out[key] = _result_words(result, adjust)
    return out, keys


def _unit_results_out(by_unit: list[tuple[Unit, Order | None, list[str]]], memo: WriteMemo
                      ) -> tuple[dict[str, list[str]], bool]:
    """_results_out for a movement phase's results per unit: the same keys, each the unit
    as its order's text begins; and whether a key came twice (see _all_results)."""
    out: dict[str, list[str]] = {}
    texts = memo.texts
    for u, _order, result in by_unit:
        key = texts[u.kind][u.loc]
        if key is None:
            key = memo.unit(u.kind, u.loc)
        # the outcome's own list, unless there is a word to leave out; the first of a key
        if result and CIVIL_DISORDER in result:
            result = _result_words(result, False)
        out.setdefault(key, result)
    return out, len(out) != len(by_unit)


def _bound_orders_out(m: Map, pos: Position, orders: dict[int, list[str]],
                      by_unit: list[tuple[Unit, Order | None, list[str]]], memo: WriteMemo
                      ) -> dict[str, list[str] | None]:
    """_orders_out of a movement phase (full) from the orders the adjudication bound to
    the units, instead of reading and binding the typed orders again: each unit's order,
    when its power typed it (an order a rule gave a unit on its own is not written)."""
    if m.tables.has_open_spaces:
        return _bound_orders_shared(m, pos, orders, by_unit, memo)
    names = memo.names
    lists: list[list[str]] = [[] for _ in names]
    typed: list[set[str] | None] = [None] * len(names)  # each power's orders as typed
    # the unit of each province (one at most, outside open spaces), made when an order
    # names a unit: what _unit_text finds on the board
    at: dict[int, Unit] | None = None
    loc_prov = m.loc_prov
    known = memo.bound
    for u, o, _result in by_unit:
        if o is None:
            continue
        p = u.power
        mine = typed[p]
        if mine is None:
            mine = typed[p] = set(orders.get(p, ()))
        if o.text not in mine:
            continue
        aux = o.aux_loc
        x: Unit | None = None  # the unit the order names, as on the board
        if aux is not None and aux >= 0:
            if at is None:
                at = {loc_prov[y.loc]: y for y in pos.units}
            x = at.get(loc_prov[aux])
        # the text is the order's, its unit's and the named unit's (the entry keeps the
        # order itself: its id stays its own)
        hit = known.get(id(o))
        if (hit is not None and hit[0] is o and hit[1] == u.kind and hit[2] == u.loc
                and (hit[3] == x.loc and hit[4] == x.kind if x is not None
                     else hit[3] == -1)):
            lists[p].append(hit[5])
            continue
        other: str | None = None
        if aux is not None and aux >= 0:
            if x is not None and (o.aux_kind is None or x.kind == o.aux_kind):
                other = memo.unit(x.kind, x.loc)
            elif o.aux_kind is None:
                other = m.loc_name[aux]
            else:
                other = memo.unit(o.aux_kind, aux)
        elif aux is not None:
            other = "?"
        got = o.format(m, memo.unit(u.kind, u.loc), other)
        known[id(o)] = ((o, u.kind, u.loc, x.loc, x.kind, got) if x is not None
                        else (o, u.kind, u.loc, -1, -1, got))
        lists[p].append(got)
    return dict(zip(names, lists, strict=True))


def _bound_orders_shared(m: Map, pos: Position, orders: dict[int, list[str]],
                         by_unit: list[tuple[Unit, Order | None, list[str]]],
                         memo: WriteMemo) -> dict[str, list[str] | None]:
    """_bound_orders_out where units may share a space (open spaces): their orders carry
    the unit's number, and an order names the first unit of its kind in the province as
    _unit_text finds it."""
    names = memo.names
    out: dict[str, list[str] | None] = {n: [] for n in names}
    board = _board(m, pos)
    numbers = _numbers(m, [x[0] for x in by_unit])
    empty: list[str] = []
    for i, (u, o, _result) in enumerate(by_unit):
        if o is None or o.text not in orders.get(u.power, empty):
            continue
        given = out[names[u.power]]
        assert given is not None  # (numbered when one of several, as in general)
        given.append(_order_text(m, pos, u, o, numbers[i], board, memo))
    return out


def _result_words(result: Sequence[str], adjust: bool) -> list[str]:
    res = [w for w in result if w != CIVIL_DISORDER]
    if adjust and not res:
        res = [OK]
    return res


def _all_results(m: Map, rows: Rows) -> list[list[Any]]:
    """Every result as [POWER, order, words], for a phase whose results keyed by unit cannot
    say whose each is: waived builds, several units of one kind in one place (open spaces,
    LAD's oceans), builds spent on a canal more than once."""
    return [[m.powers[power].upper(), text, list(result)] for power, text, result in rows]
