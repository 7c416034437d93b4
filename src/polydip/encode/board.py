"""DipNet's board and previous-orders encodings generalised to any variant.

One row per location of the map in polydip's own order (`m.loc_name`: the provinces, then one
row per named coast), so a coast's row is the place a fleet on it stands and its province's
row shows the fleet too, as in DipNet. The features are DipNet's groups with the variant's
unit kinds and powers in place of armies, fleets and the seven powers, and planes for what
the standard map lacks: how many units share a space (Latin American Diplomacy's oceans, War
in North America's Chihuahua), the terrain, who may stand where, open and attack spaces,
center values, home centers, neutral units, and the state rules keep (canal progress, anchor
markers). `BoardEncoder(m).features` names them for the map; planes of a rule the map does
not have are left out. docs/encoding.md lists every feature.

Arrays are float32: `board(pos)` (n_loc, len(features)); `orders(pos, codes)`
(n_loc, len(order_features)); `phase(pos)` a small vector (phase type, season, year).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.encode._check import ORDER_TYPES, check_position, given_orders
from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.orders.table import OrderTable, order_table
from polydip.state import Position
from polydip.variants.calendar import parse_phase


def _key(text: str) -> str:
    return text.lower().replace(" ", "_")


def _ix(values: list[int]) -> np.ndarray:
    """A list of indices as an array (np.fromiter: twice as fast as np.asarray on a list)."""
    return np.fromiter(values, np.int64, len(values))


class BoardEncoder:
    """Planes of any variant's positions (see the module docstring). `col[name]` is a
    feature's column; `rows_of[loc]` the rows a unit on `loc` marks (its own; a coast's
    province too)."""

    def __init__(self, m: Map) -> None:
        self.m = m
        self.table: OrderTable = order_table(m)
        self.n_rows = m.n_loc
        self.marks: list[tuple[int, ...]] = [
            (loc,) if loc < m.n_prov else (loc, m.loc_prov[loc]) for loc in range(m.n_loc)]
        self.prov_rows: list[tuple[int, ...]] = [(p, *m.prov_coast_locs[p])
                                                 for p in range(m.n_prov)]
        kinds = [_key(n) for n in m.kind_names]
        powers = [_key(p) for p in m.powers]
        self.terrains = sorted({m.prov_terrain[p] for p in range(m.n_prov)})
        names = [*(f"unit_{k}" for k in kinds), "unit_none",
                 *(f"unit_{p}" for p in powers), "unit_power_none", "units",
                 "buildable", "removable",
                 *(f"dislodged_{k}" for k in kinds), "dislodged_none",
                 *(f"dislodged_{p}" for p in powers), "dislodged_power_none", "contested",
                 "land", "water", "coast", "impassable", "coast_location",
                 *(f"terrain_{_key(t)}" for t in self.terrains),
                 *(f"may_stand_{k}" for k in kinds), "open_space", "attack_space",
                 "center", "center_value", *(f"center_{p}" for p in powers), "center_none",
                 *(f"home_{p}" for p in powers)]
        self.rule_planes = _rule_planes(m)
        if any(m.power_neutral):
            names.append("unit_neutral")
        names += [name for name, _fill in self.rule_planes]
        if len(set(names)) != len(names):  # (a power named like a unit kind or terrain)
            twice = sorted({n for n in names if names.count(n) > 1})
            raise PolydipError(f"{m.variant.name}: feature names repeat ({', '.join(twice)}); "
                               "rename the power, unit kind or terrain")
        self.features: tuple[str, ...] = tuple(names)
        self.col = {n: i for i, n in enumerate(names)}
        self.template = self._template()
        col = self.col
        self._unit_nones = np.array([col["unit_none"], col["unit_power_none"]], np.int64)
        self._dislodged_nones = np.array([col["dislodged_none"], col["dislodged_power_none"]],
                                         np.int64)
        # the first column of the unit kind, unit power, dislodged kind and power groups
        self._firsts = (col[f"unit_{kinds[0]}"], col[f"unit_{powers[0]}"],
                        col[f"dislodged_{kinds[0]}"], col[f"dislodged_{powers[0]}"])
        # the rows of each center's province, and that province, for the owner planes
        self.center_rows = np.array([r for p in m.sc_list for r in self.prov_rows[p]], np.int64)
        self.center_provs = np.array([p for p in m.sc_list for _r in self.prov_rows[p]],
                                     np.int64)
        self._homes: dict[tuple, np.ndarray] = {}  # home centers -> their flat indices
        self.order_features: tuple[str, ...] = (
            *(f"unit_{k}" for k in kinds), "unit_none",
            *(f"issuer_{p}" for p in powers), "issuer_none",
            "hold", "move", "support", "convoy", "order_none",
            *(f"source_{p}" for p in powers), "source_none",
            *(f"destination_{p}" for p in powers), "destination_none")
        self.order_col = {n: i for i, n in enumerate(self.order_features)}
        cal = m.variant.calendar
        self.seasons: list[str] = [s.abbr for s in cal.seasons]  # (phase(): in calendar order)
        self.first_year = parse_phase(cal, cal.start).year
        oc = self.order_col
        self._order_nones = np.array([oc["unit_none"], oc["issuer_none"], oc["order_none"],
                                      oc["source_none"], oc["destination_none"]], np.int64)
        self.order_template = np.zeros((self.n_rows, len(self.order_features)), np.float32)
        self.order_template[:, self._order_nones] = 1
        # the first column of the kind, issuer, order type, source and destination groups
        self._order_firsts = (0, oc[f"issuer_{powers[0]}"], oc["hold"], oc[f"source_{powers[0]}"],
                              oc[f"destination_{powers[0]}"])

    def _template(self) -> np.ndarray:
        """What does not change: no units, the terrain, who may stand where, the centers."""
        m, col = self.m, self.col
        out = np.zeros((self.n_rows, len(self.features)), dtype=np.float32)
        out[:, [col["unit_none"], col["unit_power_none"], col["dislodged_none"],
                col["dislodged_power_none"]]] = 1
        coastal = [k for k in range(len(m.kinds)) if m.kind_coastal[k]]
        inland = [k for k in range(len(m.kinds)) if not m.kind_coastal[k]]
        for loc in range(m.n_loc):
            p = m.loc_prov[loc]
            places = self.prov_rows[p]
            land = any(m.occupy[k][p] for k in inland)
            sea = any(m.occupy[k][c] for k in coastal for c in places)
            area = ("coast" if land and sea else "land" if land else "water" if sea
                    else "impassable")
            out[loc, col[area]] = 1
            out[loc, col[f"terrain_{_key(m.prov_terrain[p])}"]] = 1
            out[loc, col["coast_location"]] = loc >= m.n_prov
            for k, name in enumerate(m.kind_names):
                out[loc, col[f"may_stand_{_key(name)}"]] = m.occupy[k][loc]
            out[loc, col["open_space"]] = m.tables.open_space[p]
            out[loc, col["attack_space"]] = m.tables.attack_space[p]
            if m.is_sc[p]:
                out[loc, col["center"]] = 1
                out[loc, col["center_value"]] = m.sc_value[p]
        return out

    def board(self, pos: Position) -> np.ndarray:
        """The (n_loc, len(features)) planes of `pos` (float32)."""
        check_position(self.m, pos)
        m, col = self.m, self.col
        width = len(self.features)
        out = self.template.copy()
        flat = out.reshape(-1)
        on: list[int] = []
        rows: list[int] = []
        counts: dict[int, int] = {}
        unit0, power0, dis0, dpower0 = self._firsts
        neutral = col.get("unit_neutral", -1)
        for u in pos.units:
            for r in self.marks[u.loc]:
                base = r * width
                on += (base + unit0 + u.kind, base + power0 + u.power)
                rows.append(r)
                counts[r] = counts.get(r, 0) + 1
                if neutral >= 0 and m.power_neutral[u.power]:
                    on.append(base + neutral)
        out[_ix(rows)[:, None], self._unit_nones] = 0
        rows = []
        for d in pos.dislodged:
            for r in self.marks[d.loc]:
                base = r * width
                on += (base + dis0 + d.kind, base + dpower0 + d.power)
                rows.append(r)
        if rows:
            out[_ix(rows)[:, None], self._dislodged_nones] = 0
        for p in pos.contested:
            on.extend(r * width + col["contested"] for r in self.prov_rows[p])
        if pos.phase.type == "A":
            self._adjustments(pos, on)
        flat[_ix(on)] = 1
        self._centers(pos, flat)
        units = col["units"]
        for r, n in counts.items():
            flat[r * width + units] = n
        for _name, fill in self.rule_planes:
            fill(self, pos, out)
        return out

    def _adjustments(self, pos: Position, on: list[int]) -> None:
        """Buildable sites (every row of the province) and removable units."""
        m, width, col = self.m, len(self.features), self.col
        counts = adjustment_counts(m, pos)
        for power, n in enumerate(counts):
            if n > 0:
                for p in build_sites(m, pos, power):
                    on.extend(r * width + col["buildable"] for r in self.prov_rows[p])
        for u in pos.units:
            if counts[u.power] < 0:
                on.extend(r * width + col["removable"] for r in self.marks[u.loc])

    def _centers(self, pos: Position, flat: np.ndarray) -> None:
        """Center owners (every row of a center's province) and home centers."""
        m, width, col = self.m, len(self.features), self.col
        owners = _ix(pos.owners)[self.center_provs]
        first, none = col[f"center_{_key(m.powers[0])}"], col["center_none"]
        flat[self.center_rows * width + np.where(owners < 0, none, first + owners)] = 1
        homes = tuple(pos.homes or m.homes)
        got = self._homes.get(homes)
        if got is None:
            home0 = col[f"home_{_key(m.powers[0])}"]
            got = np.array([r * width + home0 + power for power, hs in enumerate(homes)
                            for p in hs for r in self.prov_rows[p]], dtype=np.int64)
            if len(self._homes) > 64:
                self._homes.clear()
            self._homes[homes] = got
        flat[got] = 1

    def orders(self, pos: Position, codes: Sequence[int]) -> np.ndarray:
        """The (n_loc, len(order_features)) planes of the orders `codes` (one per unit of
        the movement phase `pos`, -1: none), DipNet's previous orders on this map: a
        unit's row (and its province's) with its kind, power, order type, the power of
        the unit or center at the order's source and at its destination."""
        check_position(self.m, pos)
        if pos.phase.type != "M":
            raise PolydipError(f"orders are encoded for a movement phase; {pos.phase} is not "
                               "one")
        if len(codes) != len(pos.units):
            raise PolydipError(f"{len(codes)} order codes for {len(pos.units)} units")
        m, width = self.m, len(self.order_features)
        out = self.order_template.copy()
        flat = out.reshape(-1)
        n_powers = len(m.powers)
        holder = [n_powers if o < 0 else o for o in pos.owners]  # (n_powers: none)
        for u in pos.units:
            holder[m.loc_prov[u.loc]] = u.power
        kind0, issuer0, type0, source0, dest0 = self._order_firsts
        on: list[int] = []
        rows: list[int] = []
        for o, u, kind, source, dest in given_orders(m, self.table, pos, codes, ORDER_TYPES,
                                                      holder, n_powers):
            for r in self.marks[o.loc]:
                base = r * width
                on += (base + kind0 + u.kind, base + issuer0 + u.power, base + type0 + kind,
                       base + source0 + source, base + dest0 + dest)
                rows.append(r)
        out[_ix(rows)[:, None], self._order_nones] = 0
        flat[_ix(on)] = 1
        return out

    def phase(self, pos: Position) -> np.ndarray:
        """The phase as a vector: its type (M, R, A) one-hot, its season among the
        variant's seasons one-hot, and the years since the variant's first."""
        seasons = self.seasons
        out = np.zeros(3 + len(seasons) + 1, dtype=np.float32)
        out["MRA".index(pos.phase.type)] = 1
        if pos.phase.season in seasons:
            out[3 + seasons.index(pos.phase.season)] = 1
        out[-1] = pos.phase.year - self.first_year
        return out


RuleFill = Callable[[BoardEncoder, Position, np.ndarray], None]


def _rule_planes(m: Map) -> list[tuple[str, RuleFill]]:
    """The planes of the state the map's rules keep, each with what fills it."""
    out: list[tuple[str, RuleFill]] = []
    names = {r.name: r for r in m.rules.rules}
    canals: Any = names.get("canals")
    if canals is not None:
        cost = {m.prov_index[p]: c[0] for p, c in canals.canals.items()}
        out.append(("canal_progress", _canal_progress(cost)))
        out.append(("canal_open", _canal_open(list(cost))))
    if "anchors" in names:
        out.append(("anchor_markers", _anchor_markers))
    return out


def _canal_progress(cost: dict[int, int]) -> RuleFill:
    def fill(enc: BoardEncoder, pos: Position, out: np.ndarray) -> None:
        state = pos.extra.get("canals", {})
        c = enc.col["canal_progress"]
        for p, n in cost.items():
            spent = state.get(enc.m.prov_abbr[p], 0)
            for r in enc.prov_rows[p]:
                out[r, c] = min(spent / n, 1.0)
    return fill


def _canal_open(provinces: list[int]) -> RuleFill:
    def fill(enc: BoardEncoder, pos: Position, out: np.ndarray) -> None:
        opens = pos.extra.get("canals", {}).get("open", {})
        c = enc.col["canal_open"]
        for p in provinces:
            year = opens.get(enc.m.prov_abbr[p])
            if year is not None and year <= pos.phase.year:
                out[list(enc.prov_rows[p]), c] = 1
    return fill


def _anchor_markers(enc: BoardEncoder, pos: Position, out: np.ndarray) -> None:
    c = enc.col["anchor_markers"]
    for place, n in pos.extra.get("anchors", {}).items():
        loc = enc.m.loc_index.get(place)
        if loc is not None:
            out[loc, c] = n


_ENCODERS: dict[int, tuple[Map, BoardEncoder]] = {}


def board_encoder(m: Map) -> BoardEncoder:
    """The BoardEncoder of a map (made once per map)."""
    got = _ENCODERS.get(id(m))
    if got is None or got[0] is not m:
        got = (m, BoardEncoder(m))
        _ENCODERS[id(m)] = got
    return got[1]
