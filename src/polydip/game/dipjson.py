"""Read and write the `diplomacy` package's saved-game JSON, for every variant.

The format is that of `diplomacy.utils.export.to_saved_game_format`:

    {"id": ..., "map": "standard", "rules": [...],
     "phases": [{"name": "S1901M",
                 "state": {"name", "units", "retreats", "centers", "homes", "influence",
                           "civil_disorder", "builds", "note", "timestamp", "game_id",
                           "map", "rules"},
                 "orders": {"FRANCE": ["A PAR - BUR", ...], ...},
                 "results": {"A PAR": ["bounce"], ...},
                 "messages": []}, ...]}

One entry per processed phase, then the current phase (no results; orders of a power are
null when not given yet). Units are "A PAR" / "F STP/SC"; in a retreat phase a dislodged unit
is written "*A PAR" among the units and its retreat places are under "retreats". Results are
keyed by unit ("WAIVE" for a waived build) and hold the package's result words; an empty
string is its "OK". Phase names carry the year in four digits, as the package writes them.

"map" names the variant: a built-in one, or NAME.toml / .map / .cfg on the variant search
path, which ends with the package's own maps (variant_for_map). A variant's own unit kinds
and orders are written as polydip writes them ("R SFE - BUE CONVERT", "F CCU - SSE AT
FRANCE", "BUILD PAN CANAL"). What the package's format has no place for travels under keys
the package ignores: "polydip_options" (the game's rule options, where not the variant's),
per phase "polydip_results" (every result with its power, where results keyed by unit cannot
say whose each is), and in a phase's state "year_start_centers" (where not the owners of the
year's first phase in the file), "extra" (rule modules' data: anchor markers, canals) and
"contested" (a retreat phase's standoffs).

Press travels both ways: each phase's "messages" holds the messages sent in it, as the
package writes them ({"sender", "recipient", "time_sent", "phase", "message"}, the recipient
"GLOBAL" or one power); a polydip message to several powers is written as one message to
each (the package has no other way), their times made unique by adding microseconds, and
reads back as that many messages. The package's "SYSTEM" sender and "OBSERVER" /
"OMNISCIENT" recipients are kept as read (game/press.py).

What the package keeps and polydip does not (zobrist hash, timestamps, notes) is
dropped on import; what polydip keeps and the package does not (order errors, a dislodged
unit's attacker) is dropped on export, and rebuilt on import where the package's data allows:
the attacker of a dislodged unit and, in a file the package wrote, the provinces left empty
by a standoff are read from the previous movement phase's orders and results.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.reasons import ResultWord
from polydip.compile import compile_map
from polydip.errors import GameFileError, PolydipError
from polydip.game.engine import (
    MOVEMENT_TYPES,
    OrderResult,
    PhaseOutcome,
    bind_to_units,
    next_phase,
    parse_orders,
)
from polydip.game.jsonbytes import compact, holds_float
from polydip.game.positions import build_position
from polydip.game.press import GLOBAL, Message, PressError, read_recipients, read_sender
from polydip.game.record import GameRecord, PhaseRecord
from polydip.game.victory import game_end, victory_in_force
from polydip.geography.map import Map
from polydip.notation import parse_province, parse_unit, power_index
from polydip.options import check_options, defaults
from polydip.orders.model import BUILD, DISBAND, MOVE, RETREAT, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.orders.stacked import number_of
from polydip.state import Dislodged, Phase, PhaseType, Position, Unit
from polydip.variants.calendar import following, parse_phase
from polydip.variants.loader import builtin_names, load_variant
from polydip.variants.model import Variant
from polydip.variants.search import HOW_TO_ADD, find_named

MAP_NAME = "standard"
RULES = ["NO_PRESS", "POWER_CHOICE"]  # what the package writes for a default game
OK = ""  # the package's "OK" result, written in adjustment phases
CIVIL_DISORDER: ResultWord = "civil disorder"  # polydip's word for a removal it chose itself
ALL_RESULTS = "polydip_results"  # a phase's results with their powers (_all_results)
OPTIONS_KEY = "polydip_options"  # polydip's rule options, where not the variant's (options.md)


# ---- export ---------------------------------------------------------------------------------


class WriteMemo:
    """What the writer worked out, kept across the games of one map: an order's text in
    the package's notation (by its line and the units it names), a result's key (by its
    text), each unit's text, and the parts of a phase's state that many phases share (the
    centers of an owner list, the homes, the empty retreats, builds and civil disorder).
    Bounded: cleared when it grows past LIMIT entries.

    A state written with a memo holds those shared parts as one object each: the saved game
    is for encoding (json.dumps, diplomacy_line), not for changing in place."""

    LIMIT = 200_000
    __slots__ = ("bound", "centers", "civil", "homes", "keys", "map", "map_name", "names",
                 "no_builds", "no_retreats", "orders", "texts")

    def __init__(self, m: Map) -> None:
        self.map = m
        self.orders: dict[tuple[str, str, int, int, str | None, int], str] = {}
        self.keys: dict[str, str] = {}
        # a bound order's text by the order's id (the orders of the map's order table are
        # the same objects in every phase): (order, unit kind, unit place, other unit, text)
        self.bound: dict[int, tuple[Order, int, int, str | None, str]] = {}
        # texts[kind][loc]: the unit's text, None until asked for
        self.texts: list[list[str | None]] = [[None] * len(m.loc_name) for _ in m.kinds]
        self.names = [p.upper() for p in m.powers]
        self.map_name: str | None = None  # map_name_of the map's variant, once asked
        self.centers: dict[tuple[int, ...], dict[str, list[str]]] = {}  # by owners
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
    v = game.variant
    m = game.map
    # with a memo from the caller (a writer of many games), movement phases are written from
    # what the adjudication bound to each unit rather than by reading the orders again, and
    # the parts of states that many phases share are written once
    by_units = memo is not None and memo.map is m
    if memo is None or memo.map is not m:
        memo = WriteMemo(m)
    if map_name is None:
        if memo.map_name is None:
            memo.map_name = map_name_of(v)
        map_name = memo.map_name
    game_id = game.name or "polydip"
    base = {"game_id": game_id, "map": map_name, "rules": list(RULES)}
    if stamp is None:
        stamp = int(time.time() * 1_000_000)
    first = game.history[0].position if game.history else game.position
    influence = _initial_influence(m, first)
    firsts: dict[int, list[int]] = {}  # year → the owners in its first phase in the file
    for p in [r.position for r in game.history] + [game.position]:
        firsts.setdefault(p.phase.year, p.owners)
    phases: list[dict[str, Any]] = []
    state_of = _shared_state if by_units else _state
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
        phases.append({
            "name": state["name"],
            "state": state,
            "orders": orders,
            "results": results,
            "messages": [],
        })
        if twice:
            phases[-1][ALL_RESULTS] = _all_results(m, rec.outcome.rows())
        _advance_influence(m, rec.position.phase, influence, rec.outcome.position)
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
            phases.append(current)
        done = _state(m, pos, influence, base, stamp + len(game.history) + 1, firsts, memo)
        done["name"] = "COMPLETED"
        phases.append({"name": "COMPLETED", "state": done,
                       "orders": dict.fromkeys(done["units"]), "results": {},
                       "messages": []})
    else:
        phases.append(current)
    _messages_out(game, phases)
    out: dict[str, Any] = {"id": game_id, "map": map_name, "rules": list(RULES),
                           "phases": phases}
    usual = defaults()
    usual.update(v.options)
    changed = {k: val for k, val in game.options.items() if usual.get(k, _UNSET) != val}
    if changed:  # the rule options the game was played with, where not the variant's own
        out[OPTIONS_KEY] = changed
    return out


_UNSET = object()


def diplomacy_line(game: GameRecord, *, stamp: int | None = None,
                   memo: WriteMemo | None = None) -> bytes:
    """The game's saved game (game_to_diplomacy) as one line of compact JSON: the bytes of
    `json.dumps(saved, separators=(",", ":")).encode()`, whether orjson writes them or not
    (game/jsonbytes.py)."""
    saved = game_to_diplomacy(game, stamp=stamp, memo=memo)
    return compact(saved, floats=_may_hold_floats(game))


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
    m = game.map
    where: dict[str, int] = {}
    names = [rec.position.phase.name for rec in game.history] + [game.position.phase.name]
    for i, name in enumerate(names[:len(phases)]):
        where.setdefault(name, i)
    last = 0
    for msg in game.messages:
        i = where.get(msg.phase, len(phases) - 1)
        sender = msg.sender if msg.sender not in m.powers else msg.sender.upper()
        targets = [GLOBAL] if msg.is_global else [
            r if r not in m.powers else r.upper() for r in msg.recipients]
        for r in targets:
            last = max(msg.time, last + 1)
            phases[i]["messages"].append({"sender": sender, "recipient": r,
                                          "time_sent": last, "phase": phases[i]["name"],
                                          "message": msg.text})


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


def _advance_influence(m: Map, done: Phase, inf: list[list[int]], after: Position) -> None:
    """Units that moved or retreated claim their province (builds do not, as in the package)."""
    if done.type == "A":
        return
    shared = m.tables.has_open_spaces  # several powers' units may stand in one province
    loc_prov = m.loc_prov
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
    units: dict[str, list[str]] = {n: [] for n in names}
    for u in pos.units:
        text = texts[u.kind][u.loc]
        units[names[u.power]].append(text if text is not None else memo.unit(u.kind, u.loc))
    retreats = memo.no_retreats
    if pos.dislodged:
        retreats = {n: {} for n in names}
        loc_name = m.loc_name
        for d in pos.dislodged:
            text = memo.unit(d.kind, d.loc)
            units[names[d.power]].append("*" + text)
            retreats[names[d.power]][text] = [loc_name[r] for r in d.retreats]
    builds = memo.no_builds if pos.phase.type != "A" else _builds(m, pos, names)
    owners = tuple(pos.owners)
    centers = memo.centers.get(owners)
    if centers is None:
        centers = memo.centers[owners] = _centers(m, pos.owners, names)
    homes_key = tuple(pos.homes or m.homes)
    homes = memo.homes.get(homes_key)
    abbr = m.prov_abbr
    if homes is None:
        homes = memo.homes[homes_key] = {n: [abbr[h] for h in homes_key[p]]
                                         for p, n in enumerate(names)}
    name = _name(pos.phase)
    return {
        "timestamp": stamp,
        "note": "",
        "name": name,
        "units": units,
        "retreats": retreats,
        "centers": centers,
        "homes": homes,
        "influence": {n: [abbr[c] for c in influence[p]] for p, n in enumerate(names)},
        "civil_disorder": memo.civil,
        "builds": builds,
        **base,
        **_polydip_state(m, pos, firsts[pos.phase.year]),
    }


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
    parsed, _ = parse_orders(m, pos.phase, orders)
    board = _board(m, pos)
    if pos.phase.type in ("M", "R"):
        units: Sequence[Unit | Dislodged] = (pos.units if pos.phase.type == "M"
                                             else pos.dislodged)
        allowed = MOVEMENT_TYPES if pos.phase.type == "M" else (RETREAT, DISBAND)
        bound, _ = bind_to_units(m, units, parsed, allowed)
        stacked = m.tables.has_open_spaces
        for i, (u, bound_order) in enumerate(zip(units, bound, strict=True)):
            if bound_order is not None:
                given = out[names[u.power]]
                if given is None:
                    given = out[names[u.power]] = []
                given.append(_order_text(m, pos, u, bound_order,
                                         number_of(m, units, i) if stacked else 0,
                                         board, memo))
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
        if key not in out:  # the outcome's own list, unless there is a word to leave out
            out[key] = result if CIVIL_DISORDER not in result else _result_words(result, False)
    return out, len(out) != len(by_unit)


def _bound_orders_out(m: Map, pos: Position, orders: dict[int, list[str]],
                      by_unit: list[tuple[Unit, Order | None, list[str]]], memo: WriteMemo
                      ) -> dict[str, list[str] | None]:
    """_orders_out of a movement phase (full) from the orders the adjudication bound to
    the units, instead of reading and binding the typed orders again: each unit's order,
    when its power typed it (an order a rule gave a unit on its own is not written)."""
    if m.tables.has_open_spaces:  # (orders of units sharing a space carry their number)
        return _orders_out(m, pos, orders, full=True, memo=memo)
    names = memo.names
    out: dict[str, list[str] | None] = {n: [] for n in names}
    # the unit of each province (one at most, outside open spaces), made when an order
    # names a unit: what _unit_text finds on the board
    at: dict[int, Unit] | None = None
    loc_prov = m.loc_prov
    known = memo.bound
    empty: list[str] = []
    for u, o, _result in by_unit:
        if o is None or o.text not in orders.get(u.power, empty):
            continue
        other: str | None = None
        aux = o.aux_loc
        if aux is not None and aux >= 0:
            if at is None:
                at = {loc_prov[x.loc]: x for x in pos.units}
            x = at.get(loc_prov[aux])
            if x is not None and (o.aux_kind is None or x.kind == o.aux_kind):
                other = memo.unit(x.kind, x.loc)
            elif o.aux_kind is None:
                other = m.loc_name[aux]
            else:
                other = memo.unit(o.aux_kind, aux)
        elif aux is not None:
            other = "?"
        hit = known.get(id(o))  # (the order itself kept in the entry: its id stays its own)
        if (hit is not None and hit[0] is o and hit[1] == u.kind and hit[2] == u.loc
                and hit[3] == other):
            got = hit[4]
        else:
            got = o.format(m, memo.unit(u.kind, u.loc), other)
            known[id(o)] = (o, u.kind, u.loc, other, got)
        given = out[names[u.power]]
        assert given is not None
        given.append(got)
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


# ---- import ---------------------------------------------------------------------------------


def is_diplomacy_game(data: Any) -> bool:
    """Is this JSON content the package's saved game (rather than a polydip game file)?"""
    return isinstance(data, dict) and "phases" in data and "format" not in data


def variant_for_map(map_name: str, where: str = "game") -> Variant:
    """The variant a saved game's "map" names: a built-in variant (standard, wita, lad1890,
    ...), else NAME.toml, NAME.map or NAME.cfg in a folder of the variant search path
    (polydip.variants.search, which ends with the diplomacy package's own maps when that
    package is installed)."""
    if map_name.lower() in builtin_names():
        return load_variant(map_name.lower())
    path = find_named(map_name)
    if path is None:
        raise GameFileError(
            f"{where}: map {map_name[:80]!r} is neither a built-in variant ("
            f"{', '.join(builtin_names())}) nor a file {map_name[:80]}.toml, .map or .cfg in "
            f"the variant search path: {HOW_TO_ADD}")
    try:
        return load_variant(path)
    except PolydipError as exc:
        raise type(exc)(f"{where}: map {map_name!r} ({path}): {exc}") from None


def record_from_diplomacy(data: dict[str, Any], where: str = "game",
                          variant: Variant | None = None) -> GameRecord:
    """The game the package's saved game holds (a dict, as json.loads gives it); Game.load
    and Game.from_diplomacy make it a Game. The file's "map" names the variant
    (variant_for_map); `variant` gives it instead (the file's map name is not checked)."""
    if not isinstance(data, dict) or "phases" not in data:
        raise GameFileError(f"{where}: not a diplomacy saved game (an object with \"phases\")")
    map_name = data.get("map", MAP_NAME)
    if not isinstance(map_name, str) or not map_name:
        raise GameFileError(f"{where}: \"map\" must be a map name such as \"standard\"")
    phases = data["phases"]
    if not isinstance(phases, list) or not phases:
        raise GameFileError(f"{where}: \"phases\" must be a non-empty list of phases")
    if variant is None:
        variant = variant_for_map(map_name, where)
    try:
        return _read_game(data, phases, variant, compile_map(variant), where)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise GameFileError(f"{where}: malformed diplomacy saved game "
                            f"({exc.__class__.__name__}: {exc})") from exc


def _read_game(data: dict[str, Any], phases: list[Any], variant: Variant, m: Map, where: str
               ) -> GameRecord:
    reader = _Reader(m, where, data.get("map", MAP_NAME))

    raw = [reader.phase(i, ph) for i, ph in enumerate(phases)]
    completed = raw[-1].name == "COMPLETED"
    if completed:
        if len(raw) < 2:
            raise GameFileError(f"{where}: phases[0] (COMPLETED): a completed game needs the "
                                "phases before its end")
        if not raw[-2].results:
            # ended (drawn) before its last phase was processed: that phase is the current one
            raw.pop()

    positions: list[Position] = []
    for i, ph in enumerate(raw):
        if ph.name == "COMPLETED":
            positions.append(reader.completed_position(ph, raw[i - 1], positions[i - 1]))
        else:
            positions.append(reader.position(ph, raw[i - 1] if i else None,
                                             positions[i - 1] if i else None))

    firsts: dict[int, list[int]] = {}  # the center owners when each year began: as in its
    for ph, pos in zip(raw, positions, strict=True):  # first phase, unless the file says
        first = firsts.setdefault(pos.phase.year, pos.owners)
        if ph.year_start is None and first is not pos.owners and first != pos.owners:
            pos.year_start_owners = list(first)

    options = defaults()
    options.update(variant.options)
    played = data.get(OPTIONS_KEY) or {}
    if not isinstance(played, dict):
        raise GameFileError(f"{where}: {OPTIONS_KEY}: an object of option → value, not "
                            f"{_kind(played)}")
    options.update(played)
    try:
        options = check_options(options, m)
        victory_in_force(variant, options)
    except PolydipError as exc:
        raise GameFileError(f"{where}: {OPTIONS_KEY}: {exc}") from None
    cur = raw[-1]
    pending = {p: lst for p, lst in cur.orders.items() if lst is not None}
    game = GameRecord(variant, m, positions[-1], options, pending,
                name=str(data.get("id") or ""))
    for i, ph in enumerate(raw[:-1]):
        pos, nxt = positions[i], positions[i + 1]
        changes = [(p, a, b) for p, (a, b) in enumerate(zip(pos.owners, nxt.owners, strict=True))
                   if a != b and b >= 0]
        results = reader.results(ph, pos, positions[i - 1] if i else None)
        outcome = PhaseOutcome(pos.phase, nxt, results, [], changes)
        orders = {p: list(lst) for p, lst in ph.orders.items() if lst}  # [] = no orders
        game.history.append(PhaseRecord(pos, orders, outcome))
    game.messages = _messages_in(m, phases, raw, positions, where)
    end = game_end(m, victory_in_force(variant, options), game.position, game.history)
    if end is not None:
        game.status, game.winners = end
    if completed and game.status == "active":
        game.status = "drawn"
        game.winners = [p for p in range(len(m.powers)) if game.position.centers_of(p)]
    return game


def _messages_in(m: Map, phases: list[Any], raw: list[_Phase], positions: list[Position],
                 where: str) -> list[Message]:
    """Every phase's "messages", each kept with the phase it is listed under (polydip's name
    of it; "COMPLETED" after the end)."""
    out: list[Message] = []
    last = 0
    for i, ph in enumerate(phases):
        msgs = ph.get("messages") or []
        w = f"{where}: phases[{i}].messages"
        if not isinstance(msgs, list):
            raise GameFileError(f"{w}: a list of messages, not {_kind(msgs)}")
        name = ("COMPLETED" if i >= len(raw) or raw[i].name == "COMPLETED"
                else positions[i].phase.name)
        for j, x in enumerate(msgs):
            wj = f"{w}[{j}]"
            if not isinstance(x, dict):
                raise GameFileError(f"{wj}: a message is an object, not {_kind(x)}")
            text, t = x.get("message"), x.get("time_sent")
            if not isinstance(text, str):
                raise GameFileError(f"{wj}: \"message\": the text, a string")
            if t is None:
                t = last + 1
            if not isinstance(t, int) or isinstance(t, bool):
                raise GameFileError(f"{wj}: \"time_sent\": microseconds, a whole number")
            try:
                msg = Message(name, read_sender(m, x.get("sender"), wj),
                              read_recipients(m, x.get("recipient"), wj), t, text)
            except PressError as exc:
                raise GameFileError(str(exc)) from None
            last = max(last, t)
            out.append(msg)
    return out


# a move of a movement phase: (source province, destination province, written "via
# convoy", could go by land, result words)
_Move = tuple[int, int, bool, bool, list[str]]


class _Phase:
    """One phase of the file, checked for shape (not yet a polydip Position)."""

    __slots__ = ("all_results", "centers", "contested", "dislodged", "extra", "homes",
                 "index", "name", "orders", "results", "retreats", "units", "where",
                 "year_start")

    def __init__(self) -> None:
        self.index = 0
        self.name = ""
        self.where = ""
        self.units: dict[int, list[str]] = {}
        self.dislodged: dict[int, list[str]] = {}
        self.retreats: dict[int, dict[str, list[str]]] = {}
        self.centers: dict[int, list[str]] | None = None
        self.homes: dict[int, list[str]] | None = None
        self.orders: dict[int, list[str] | None] = {}
        self.results: dict[str, list[str]] = {}
        self.all_results: list[tuple[int, str, list[str]]] | None = None
        self.year_start: dict[int, list[str]] | None = None
        self.contested: list[str] | None = None
        self.extra: dict[str, Any] | None = None


class _Reader:
    def __init__(self, m: Map, where: str, map_name: str) -> None:
        self.m = m
        self.where = where
        self.map_name = map_name

    # -- shape ---------------------------------------------------------------------------

    def fail(self, where: str, msg: str) -> GameFileError:
        return GameFileError(f"{where}: {msg}")

    def power(self, w: str, name: Any) -> int:
        try:
            return power_index(self.m, name)
        except PolydipError as exc:
            raise self.fail(w, str(exc)) from None

    def str_lists(self, w: str, val: Any, key: str, nullable: bool = False
                  ) -> dict[int, Any]:
        if not isinstance(val, dict):
            raise self.fail(w, f"{key}: an object of power → list, not {_kind(val)}")
        out: dict[int, Any] = {}
        for k, lst in val.items():
            if lst is None and nullable:
                out[self.power(f"{w}: {key}", k)] = None
                continue
            if not isinstance(lst, list) or not all(isinstance(x, str) for x in lst):
                raise self.fail(w, f"{key}.{k}: a list of strings, not {_kind(lst)}")
            out[self.power(f"{w}: {key}", k)] = list(lst)
        return out

    def phase(self, i: int, ph: Any) -> _Phase:
        w0 = f"{self.where}: phases[{i}]"
        if not isinstance(ph, dict):
            raise self.fail(w0, f"a phase is an object, not {_kind(ph)}")
        state = ph.get("state")
        name = ph.get("name")
        if name is None and isinstance(state, dict):
            name = state.get("name")
        if not isinstance(name, str) or not name:
            raise self.fail(w0, "\"name\" missing (a phase name like S1901M)")
        w = f"{w0} ({name})"
        if not isinstance(state, dict):
            raise self.fail(w, f"\"state\" missing or not an object ({_kind(state)})")
        smap = state.get("map", self.map_name)
        if smap != self.map_name:
            raise GameFileError(f"{w}: state.map {smap!r} is not the game's map "
                                f"{self.map_name!r}")
        out = _Phase()
        out.index, out.name, out.where = i, name, w
        self._phase_state(w, state, out)
        out.orders = self.str_lists(w, ph.get("orders") or {}, "orders", nullable=True)
        self._phase_results(w, ph, out)
        return out

    def _phase_state(self, w: str, state: dict[str, Any], out: _Phase) -> None:
        """A phase's `state`: units (dislodged ones starred), centers, homes, the centers
        at the year's start, contested provinces, the rules' data, retreat places."""
        if "units" not in state:
            raise self.fail(w, "state.units missing")
        for p, lst in self.str_lists(w, state["units"], "state.units").items():
            out.units[p] = [u for u in lst if not u.startswith("*")]
            out.dislodged[p] = [u[1:] for u in lst if u.startswith("*")]
        if state.get("centers") is not None:
            out.centers = self.str_lists(w, state["centers"], "state.centers")
        if state.get("homes") is not None:
            out.homes = self.str_lists(w, state["homes"], "state.homes")
        if state.get("year_start_centers") is not None:
            out.year_start = self.str_lists(w, state["year_start_centers"],
                                            "state.year_start_centers")
        if state.get("contested") is not None:
            c = state["contested"]
            if not isinstance(c, list) or not all(isinstance(x, str) for x in c):
                raise self.fail(w, f"state.contested: a list of provinces, not {_kind(c)}")
            out.contested = list(c)
        if state.get("extra") is not None:
            if not isinstance(state["extra"], dict):
                raise self.fail(w, f"state.extra: an object of rule name → data, not "
                                   f"{_kind(state['extra'])}")
            out.extra = state["extra"]
        rets = state.get("retreats") or {}
        if not isinstance(rets, dict):
            raise self.fail(w, f"state.retreats: an object of power → {{unit: [places]}}, "
                               f"not {_kind(rets)}")
        for k, val in rets.items():
            p = self.power(f"{w}: state.retreats", k)
            if not isinstance(val, dict) or not all(
                    isinstance(x, list) and all(isinstance(y, str) for y in x)
                    for x in val.values()):
                raise self.fail(w, f"state.retreats.{k}: an object of unit → list of places")
            out.retreats[p] = {str(u).lstrip("*"): list(x) for u, x in val.items()}

    def _phase_results(self, w: str, ph: dict[str, Any], out: _Phase) -> None:
        """A phase's results: by unit, and (as polydip writes them) every order's."""
        res = ph.get("results") or {}
        if not isinstance(res, dict):
            raise self.fail(w, f"results: an object of unit → list of result words, "
                               f"not {_kind(res)}")
        for k, val in res.items():
            if isinstance(val, str):
                val = [val]
            if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
                raise self.fail(w, f"results.{k}: a list of result words, not {_kind(val)}")
            out.results[str(k)] = [x for x in val if x != OK]
        every = ph.get(ALL_RESULTS)
        if every is not None:
            out.all_results = []
            for j, r in enumerate(every if isinstance(every, list) else [None]):
                if not (isinstance(r, list) and len(r) == 3 and isinstance(r[1], str)
                        and isinstance(r[2], list) and all(isinstance(x, str) for x in r[2])):
                    raise self.fail(w, f"{ALL_RESULTS}[{j}]: [power, order, [result words]]")
                out.all_results.append((self.power(f"{w}: {ALL_RESULTS}[{j}]", r[0]), r[1],
                                        list(r[2])))

    # -- positions -------------------------------------------------------------------------

    def _request(self, ph: _Phase, phase_name: str) -> dict[str, Any]:
        m = self.m
        req: dict[str, Any] = {
            "phase": phase_name,
            "units": {m.powers[p]: lst for p, lst in ph.units.items()},
        }
        if ph.centers is not None:
            req["centers"] = {m.powers[p]: lst for p, lst in ph.centers.items()}
        if ph.homes is not None:
            homes = [list(m.prov_abbr[h] for h in hs) for hs in m.homes]
            for p, lst in ph.homes.items():
                homes[p] = lst
            req["homes"] = {m.powers[p]: lst for p, lst in enumerate(homes)}
        if ph.year_start is not None:
            req["year_start_centers"] = {m.powers[p]: lst for p, lst in ph.year_start.items()}
        if ph.extra is not None:
            req["extra"] = ph.extra
        return req

    def _build(self, ph: _Phase, req: dict[str, Any]) -> Position:
        try:
            return build_position(self.m, req)
        except PolydipError as exc:
            raise self.fail(ph.where, f"state: {exc}") from None

    def position(self, ph: _Phase, prev: _Phase | None, prev_pos: Position | None
                 ) -> Position:
        m = self.m
        req = self._request(ph, ph.name)
        try:
            phase = parse_phase(m.variant.calendar, ph.name)
        except PolydipError as exc:
            raise self.fail(ph.where, f"name: {exc}") from None
        has_dislodged = any(ph.dislodged.values())
        if phase.type != "R" or not has_dislodged:
            if has_dislodged:
                raise self.fail(ph.where, "state.units: dislodged units (\"*A PAR\") outside a "
                                          "retreat phase")
            return self._build(ph, req)
        # a retreat phase: who dislodged whom, and which provinces a standoff left empty,
        # come from the movement phase just before
        moves: list[_Move] = []
        if (prev is not None and prev_pos is not None and prev_pos.phase.type == "M"
                and _retreats_after(m, prev_pos.phase) == phase):
            moves = self._moves(prev, prev_pos)
        occupied = set()
        for lst in ph.units.values():
            for t in lst:
                loc = self._loc_of_unit(ph, t)
                occupied.add(m.loc_prov[loc])
        contested = self._contested(ph, moves, occupied)
        req["contested"] = sorted(m.prov_abbr[d] for d in contested)
        req["dislodged"], unknown = self._dislodged(ph, moves, occupied, contested)
        pos = self._build(ph, req)
        if unknown:
            pos.dislodged = self._listed_retreats(ph, pos, unknown)
        return pos

    def _contested(self, ph: _Phase, moves: list[_Move], occupied: set[int]) -> set[int]:
        """The provinces a standoff left empty: where two or more moves bounced; a unit
        beaten in a head-to-head battle does not count (it has no strength left to prevent
        others). The file's own list, where polydip wrote one."""
        m = self.m
        won = {(s, d) for s, d, _, _, words in moves if not words}
        bounced: dict[int, int] = {}
        for s, d, _, _, words in moves:
            if "bounce" in words and "void" not in words and (d, s) not in won:
                bounced[d] = bounced.get(d, 0) + 1
        contested = {d for d, n in bounced.items() if n >= 2 and d not in occupied}
        if ph.contested is not None:  # as polydip wrote it
            try:
                contested = {parse_province(m, x, "state.contested") for x in ph.contested}
            except PolydipError as exc:
                raise self.fail(ph.where, str(exc)) from None
        return contested

    def _dislodged(self, ph: _Phase, moves: list[_Move], occupied: set[int],
                   contested: set[int]
                   ) -> tuple[dict[str, list[dict[str, Any]]], list[tuple[int, int]]]:
        """The dislodged units as a position request lists them (with the province the
        attacker came from, and whether by convoy), and those with no attacker found."""
        m = self.m
        dislodged: dict[str, list[dict[str, Any]]] = {}
        unknown: list[tuple[int, int]] = []  # (power, location) with no attacker found
        for p, lst in ph.dislodged.items():
            for t in lst:
                loc = self._loc_of_unit(ph, t)
                prov = m.loc_prov[loc]
                entry: dict[str, Any] = {"unit": t}
                by = [mv for mv in moves if mv[1] == prov and not mv[4]]
                if by:
                    src, _, via, by_land, _ = by[0]
                    listed = ph.retreats.get(p, {}).get(t)
                    if not by_land:
                        convoyed = True
                    elif listed is not None and src not in occupied and src not in contested:
                        # the package decides whether a "via" move next door went by land or
                        # by sea: only after a convoy may the unit retreat where it came from
                        convoyed = m.prov_abbr[src] in {x.split("/")[0] for x in listed}
                    else:
                        convoyed = via
                    entry["from"] = m.prov_abbr[src]
                    if convoyed:
                        entry["convoyed"] = True
                else:
                    unknown.append((p, loc))
                dislodged.setdefault(m.powers[p], []).append(entry)
        return dislodged, unknown

    def _listed_retreats(self, ph: _Phase, pos: Position,
                         unknown: list[tuple[int, int]]) -> list[Dislodged]:
        """No movement phase to read the attacker from: trust the file's retreat places
        (without them, polydip's guess stands: any empty neighbour not left by a standoff)."""
        m = self.m
        fixed: list[Dislodged] = []
        for d in pos.dislodged:
            t = m.unit_str(d.kind, d.loc)
            listed = ph.retreats.get(d.power, {}).get(t)
            if d.attacker < 0 and (d.power, d.loc) in unknown and listed is not None:
                locs = []
                for x in listed:
                    try:
                        locs.append(m.unit_loc(d.kind, m.loc_of(x)))
                    except KeyError:
                        raise self.fail(ph.where, f"state.retreats.{m.powers[d.power]}"
                                                  f".{t}: unknown place {x!r}") from None
                d = Dislodged(d.power, d.kind, d.loc, -1, False,
                              tuple(x for x in locs if x >= 0))
            fixed.append(d)
        return fixed

    def completed_position(self, ph: _Phase, prev: _Phase, prev_pos: Position) -> Position:
        """The board after the last processed phase of a finished game: its phase is the one
        polydip would play next."""
        req = self._request(ph, prev_pos.phase.name if prev_pos.phase.type != "R"
                            else f"{prev_pos.phase.season}{prev_pos.phase.year}M")
        pos = self._build(ph, req)
        pos.phase = next_phase(self.m, pos, prev_pos.phase, [])
        return pos

    def _loc_of_unit(self, ph: _Phase, text: str) -> int:
        try:
            return parse_unit(self.m, text)[1]
        except PolydipError as exc:
            raise self.fail(ph.where, f"state.units: {exc}") from None

    def _moves(self, ph: _Phase, pos: Position) -> list[_Move]:
        """(source province, destination province, written "via convoy", could go by land,
        result words) of each move ordered in a movement phase."""
        m = self.m
        out = []
        for lst in ph.orders.values():
            for text in lst or []:
                try:
                    o = parse_order(m, text, "M")
                except PolydipError:
                    continue
                if o.type != MOVE or o.target is None:  # (a move always has its target)
                    continue
                src, dst = m.loc_prov[o.loc], m.loc_prov[o.target]
                key = self._result_key(pos, o)
                words = ph.results.get(key, [])
                unit = next((u for u in pos.units if m.loc_prov[u.loc] == src), None)
                by_land = unit is not None and dst in m.reach_prov[unit.kind][unit.loc]
                out.append((src, dst, o.via, by_land, words))
        return out

    def _result_key(self, pos: Position, o: Order) -> str:
        m = self.m
        prov = m.loc_prov[o.loc]
        for u in pos.units:
            if m.loc_prov[u.loc] == prov:
                return m.unit_str(u.kind, u.loc)
        return o.text.split(" - ")[0].strip().upper()

    # -- results ---------------------------------------------------------------------------

    def results(self, ph: _Phase, pos: Position, prev: Position | None
                ) -> list[OrderResult]:
        """The file's results (keyed by unit) as polydip's list of (power, order, words).

        In a retreat phase the package also reports the units it destroyed at once for
        having nowhere to go (they are not on its board any more): their owner is read from
        the phase before."""
        m = self.m
        if ph.all_results is not None:
            return [OrderResult(p, t, list(w)) for p, t, w in ph.all_results]
        typ = pos.phase.type
        by_prov, by_unit = self._orders_by_place(ph, typ)
        board = pos.dislodged if typ == "R" else pos.units
        owner = {m.loc_prov[u.loc]: u.power for u in board}
        if typ == "R" and prev is not None:
            for u in prev.units:
                owner.setdefault(m.loc_prov[u.loc], u.power)
        out = []
        for key, words in ph.results.items():
            if key.upper() == "WAIVE":
                continue  # the package does not say whose waive it was
            try:
                kind, loc = parse_unit(m, key)
            except PolydipError as exc:
                acts = self._act_results(ph, typ, key)
                if acts is None:
                    raise self.fail(ph.where, f"results: {exc}") from None
                out.extend(acts)
                continue
            prov = m.loc_prov[loc]
            unit = m.unit_str(kind, loc)
            if (prov, kind) in by_unit:
                power, text = by_unit[(prov, kind)]
            elif prov in by_prov:
                power, text = by_prov[prov]
            elif prov in owner:
                power = owner[prov]
                text = f"{unit} H" if typ == "M" else f"{unit} D"
                if typ == "A":
                    words = [CIVIL_DISORDER]  # removed by the package, not ordered
            else:
                raise self.fail(ph.where, f"results.{key}: no such unit and no order for it")
            out.append(OrderResult(power, text, list(words)))
        return out

    def _orders_by_place(self, ph: _Phase, typ: PhaseType
                         ) -> tuple[dict[int, tuple[int, str]],
                                    dict[tuple[int, int], tuple[int, str]]]:
        """The phase's orders, as (power, order text): by province (the first), and by
        province and unit kind (units of two kinds may share an open space)."""
        m = self.m
        by_prov: dict[int, tuple[int, str]] = {}
        by_unit: dict[tuple[int, int], tuple[int, str]] = {}
        for p, lst in ph.orders.items():
            for text in lst or []:
                try:
                    o = parse_order(m, text, typ)
                except PolydipError:
                    continue
                if o.type == WAIVE or o.loc < 0:
                    continue
                by_prov.setdefault(m.loc_prov[o.loc], (p, text))
                if o.kind is not None:
                    by_unit[(m.loc_prov[o.loc], o.kind)] = (p, text)
        return by_prov, by_unit

    def _act_results(self, ph: _Phase, typ: PhaseType, key: str) -> list[OrderResult] | None:
        """The result of an order of no unit that polydip's variants add (LAD's "BUILD PAN
        CANAL"), keyed by the order, for each power that gave it (None: `key` is no such
        order)."""
        m = self.m
        try:
            o = parse_order(m, key, typ)
        except PolydipError:
            return None
        if not o.act or o.kind is not None:
            return None
        text = o.format(m)
        out = []
        for p, lst in ph.orders.items():
            for t in lst or []:
                try:
                    if parse_order(m, t, typ).format(m) == text:
                        out.append(OrderResult(p, t, list(ph.results[key])))
                except PolydipError:
                    continue
        return out


def _retreats_after(m: Map, done: Phase) -> Phase:
    """The retreat phase after movement phase `done`: in the same season (Spring Retreats),
    or the next season's where the calendar gives retreats a season of their own (LAD)."""
    after = following(m.variant.calendar, done)
    return after if after.type == "R" else Phase(done.year, done.season, "R")


def _kind(val: Any) -> str:
    if val is None:
        return "null"
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            int: "a number", float: "a number"}.get(type(val), type(val).__name__)
