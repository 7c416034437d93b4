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

from typing import Any

from polydip.compile import compile_map
from polydip.errors import GameFileError, PolydipError
from polydip.game.dipjson_write import (  # the writer, re-exported: callers import it from here
    ALL_RESULTS,
    CIVIL_DISORDER,
    MAP_NAME,
    OK,
    OPTIONS_KEY,
    RULES,
    WriteMemo,
    diplomacy_line,
    game_to_diplomacy,
    map_name_of,
)
from polydip.game.engine import OrderResult, PhaseOutcome, next_phase
from polydip.game.positions import build_position
from polydip.game.press import Message, PressError, read_recipients, read_sender
from polydip.game.record import GameRecord, PhaseRecord
from polydip.game.victory import game_end, victory_in_force
from polydip.geography.map import Map
from polydip.notation import parse_province, parse_unit, power_index
from polydip.options import check_options, defaults
from polydip.orders.model import MOVE, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.state import Dislodged, Phase, PhaseType, Position
from polydip.variants.calendar import following, parse_phase
from polydip.variants.loader import builtin_names, load_variant
from polydip.variants.model import Variant
from polydip.variants.search import HOW_TO_ADD, find_named

__all__ = ["ALL_RESULTS", "CIVIL_DISORDER", "MAP_NAME", "OK", "OPTIONS_KEY", "RULES",
           "WriteMemo", "diplomacy_line", "game_to_diplomacy", "is_diplomacy_game",
           "map_name_of", "record_from_diplomacy", "variant_for_map"]


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
