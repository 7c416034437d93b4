"""The standard map's board and previous-orders encodings as DipNet defines them.

Paquette et al., "No-Press Diplomacy: Modeling Multi-Agent Gameplay" (NeurIPS 2019), section
4.1 and figure 2: a board is 81 locations (the 75 provinces and the 6 named coasts) in a fixed
order (`LOCS`), each with 35 features (`BOARD_FEATURES`); the orders of the last movement
phase are the same 81 locations with 40 features (`ORDER_FEATURES`). Every later model of the
field (SearchBot, DORA, Cicero: dipcc's `encode_board_state` input version 1) reads these.
docs/encoding.md gives each feature with its source and the readings taken where the paper
is silent (they follow the reference code, diplomacy/research's `state_space.py`, and dipcc's
`encoding_v1.cc`).

Arrays are float32, shape (81, 35) and (81, 40), made without an object per order: a
`DipNetEncoder` works out once per map what does not change (rows of each location, area
types) and each call writes a copy of that template with one numpy assignment per kind of
feature.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.encode._check import ORDER_TYPES, check_position, given_orders
from polydip.encode.graph import adjacency
from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.orders.table import OrderTable, order_table
from polydip.state import Position

# DipNet's location order (diplomacy/research STANDARD_TOPO_LOCS; dipcc's `Loc` enum)
LOCS: tuple[str, ...] = (
    "YOR", "EDI", "LON", "LVP", "NTH", "WAL", "CLY", "NWG", "ENG", "IRI", "NAO", "BEL", "DEN",
    "HEL", "HOL", "NWY", "SKA", "BAR", "BRE", "MAO", "PIC", "BUR", "RUH", "BAL", "KIE", "SWE",
    "FIN", "STP", "STP/NC", "GAS", "PAR", "NAF", "POR", "SPA", "SPA/NC", "SPA/SC", "WES", "MAR",
    "MUN", "BER", "BOT", "LVN", "PRU", "STP/SC", "MOS", "TUN", "LYO", "TYS", "PIE", "BOH", "SIL",
    "TYR", "WAR", "SEV", "UKR", "ION", "TUS", "NAP", "ROM", "VEN", "GAL", "VIE", "TRI", "ARM",
    "BLA", "RUM", "ADR", "AEG", "ALB", "APU", "EAS", "GRE", "BUD", "SER", "ANK", "SMY", "SYR",
    "BUL", "BUL/EC", "CON", "BUL/SC")
# the powers in DipNet's order (alphabetical)
POWERS: tuple[str, ...] = ("AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA",
                           "TURKEY")
_P = [p[:3] for p in POWERS]

BOARD_FEATURES: tuple[str, ...] = (
    "unit_A", "unit_F", "unit_none",
    *[f"unit_{p}" for p in _P], "unit_power_none",
    "buildable", "removable",
    "dislodged_A", "dislodged_F", "dislodged_none",
    *[f"dislodged_{p}" for p in _P], "dislodged_power_none",
    "land", "water", "coast",
    *[f"center_{p}" for p in _P], "center_none")
ORDER_FEATURES: tuple[str, ...] = (
    "unit_A", "unit_F", "unit_none",
    *[f"issuer_{p}" for p in _P], "issuer_none",
    "hold", "move", "support", "convoy", "order_none",
    *[f"source_{p}" for p in _P], "source_none",
    *[f"destination_{p}" for p in _P], "destination_none",
    *[f"center_{p}" for p in _P], "center_none")

# first column of each group (board)
B_UNIT, B_POWER, B_BUILD, B_REMOVE, B_DIS, B_DIS_POWER, B_AREA, B_CENTER = 0, 3, 11, 12, 13, 16, \
    24, 27
# (previous orders)
O_UNIT, O_ISSUER, O_TYPE, O_SOURCE, O_DEST, O_CENTER = 0, 3, 11, 16, 24, 32
NONE_POWER = 7  # (the "none" column after the seven powers)
# the "none" columns a unit (dislodged unit, order) clears on its rows
_UNIT_NONES = np.array([B_UNIT + 2, B_POWER + NONE_POWER], np.int64)
_DISLODGED_NONES = np.array([B_DIS + 2, B_DIS_POWER + NONE_POWER], np.int64)
_ORDER_NONES = np.array([O_UNIT + 2, O_ISSUER + NONE_POWER, O_TYPE + 4, O_SOURCE + NONE_POWER,
                         O_DEST + NONE_POWER], np.int64)


def _ix(values: list[int]) -> np.ndarray:
    """A list of indices as an array (np.fromiter: twice as fast as np.asarray on a list)."""
    return np.fromiter(values, np.int64, len(values))


class DipNetEncoder:
    """DipNet's encodings of the standard map's positions (see the module docstring).

    `board(pos)` -> (81, 35) float32; `prev_orders(pos, codes)` -> (81, 40) float32, where
    `pos` is the movement phase the orders were given in and `codes[i]` the order code of
    `pos.units[i]` (-1: none), as `FastGame.step` takes them. `rows[loc]` is the row of a
    polydip location, `power_col[power]` a polydip power's index among `POWERS`."""

    def __init__(self, m: Map) -> None:
        self.m = m
        self.table: OrderTable = order_table(m)
        self.rows = _rows(m)
        n_loc = m.n_loc
        # the rows a unit on each location marks: its own, and its province's for a coast
        self.marks: list[tuple[int, ...]] = [
            (self.rows[loc],) if loc < m.n_prov
            else (self.rows[loc], self.rows[m.loc_prov[loc]]) for loc in range(n_loc)]
        self.prov_rows: list[tuple[int, ...]] = [
            (self.rows[p], *(self.rows[c] for c in m.prov_coast_locs[p]))
            for p in range(m.n_prov)]
        self.power_col = _powers(m)
        self.kind_col = _kinds(m)
        self.board_template = self._board_template()
        # the rows of each center's province and that province (owner features); a power's
        # column by its polydip index, the last entry (index -1) for none
        self.center_rows = np.array([r for p in m.sc_list for r in self.prov_rows[p]], np.int64)
        self.center_provs = np.array([p for p in m.sc_list for _r in self.prov_rows[p]],
                                     np.int64)
        self.power_of = np.array([*self.power_col, NONE_POWER], np.int64)
        self.orders_template = np.zeros((81, len(ORDER_FEATURES)), dtype=np.float32)
        self.orders_template[:, [O_UNIT + 2, O_ISSUER + 7, O_TYPE + 4, O_SOURCE + 7,
                                 O_DEST + 7]] = 1

    def _board_template(self) -> np.ndarray:
        """What every board has: no unit and no dislodged unit anywhere, the area types."""
        m = self.m
        out = np.zeros((81, len(BOARD_FEATURES)), dtype=np.float32)
        out[:, [B_UNIT + 2, B_POWER + 7, B_DIS + 2, B_DIS_POWER + 7]] = 1
        army, fleet = m.kind_index["A"], m.kind_index["F"]
        for loc in range(m.n_loc):
            p = m.loc_prov[loc]
            armies = m.occupy[army][p]
            fleets = any(m.occupy[fleet][c] for c in (p, *m.prov_coast_locs[p]))
            area = 2 if armies and fleets else (0 if armies else 1)  # coast, land, water
            out[self.rows[loc], B_AREA + area] = 1
        return out

    def adjacency(self) -> np.ndarray:
        """DipNet's (81, 81) uint8 adjacency in its row order: a move of an army or a fleet,
        or a coast and its province ([R] `get_adjacency_matrix`; graph.adjacency)."""
        order = np.argsort(np.array(self.rows))
        return adjacency(self.m)[np.ix_(order, order)]

    def _centers(self, pos: Position, flat: np.ndarray, first: int, width: int) -> None:
        """The center-owner features (from column `first`): every row of a center's
        province, the owner's column or "none"; nothing for other provinces."""
        owners = self.power_of[_ix(pos.owners)[self.center_provs]]
        flat[self.center_rows * width + first + owners] = 1

    def board(self, pos: Position) -> np.ndarray:
        """The (81, 35) board of `pos` (float32)."""
        check_position(self.m, pos)
        m, width = self.m, len(BOARD_FEATURES)
        out = self.board_template.copy()
        flat = out.reshape(-1)
        on: list[int] = []
        rows: list[int] = []
        col, kcol = self.power_col, self.kind_col
        counts = adjustment_counts(m, pos) if pos.phase.type == "A" else None
        for u in pos.units:
            removable = counts is not None and counts[u.power] < 0
            for r in self.marks[u.loc]:
                base = r * width
                on += (base + kcol[u.kind], base + B_POWER + col[u.power])
                rows.append(r)
                if removable:
                    on.append(base + B_REMOVE)
        out[_ix(rows)[:, None], _UNIT_NONES] = 0
        rows = []
        for d in pos.dislodged:
            for r in self.marks[d.loc]:
                base = r * width
                on += (base + B_DIS + kcol[d.kind], base + B_DIS_POWER + col[d.power])
                rows.append(r)
        if rows:
            out[_ix(rows)[:, None], _DISLODGED_NONES] = 0
        if counts is not None:
            for power, n in enumerate(counts):
                if n > 0:
                    for p in build_sites(m, pos, power):
                        on.extend(r * width + B_BUILD for r in self.prov_rows[p])
        flat[_ix(on)] = 1
        self._centers(pos, flat, B_CENTER, width)
        return out

    def prev_orders(self, pos: Position, codes: Sequence[int]) -> np.ndarray:
        """The (81, 40) encoding of the orders `codes` (one per unit of `pos`, -1: none)
        given in the movement phase `pos`."""
        check_position(self.m, pos)
        if pos.phase.type != "M":
            raise PolydipError(f"previous orders are those of a movement phase; {pos.phase} is "
                               "not one")
        if len(codes) != len(pos.units):
            raise PolydipError(f"{len(codes)} order codes for {len(pos.units)} units")
        width, m = len(ORDER_FEATURES), self.m
        out = self.orders_template.copy()
        flat = out.reshape(-1)
        holder = self._holders(pos)
        col = self.power_col
        on: list[int] = []
        rows: list[int] = []
        for o, u, kind, source, dest in given_orders(m, self.table, pos, codes, ORDER_TYPES,
                                                      holder, NONE_POWER):
            for r in self.marks[o.loc]:
                base = r * width
                on += (base + self.kind_col[u.kind], base + O_ISSUER + col[u.power],
                       base + O_TYPE + kind, base + O_SOURCE + source, base + O_DEST + dest)
                rows.append(r)
        out[_ix(rows)[:, None], _ORDER_NONES] = 0
        flat[_ix(on)] = 1
        self._centers(pos, flat, O_CENTER, width)
        return out

    def _holders(self, pos: Position) -> list[int]:
        """Per province, DipNet's "owner" of it (a column): the power of a unit there, else
        the owner of its center, else none."""
        col, loc_prov = self.power_col, self.m.loc_prov
        out = [NONE_POWER if o < 0 else col[o] for o in pos.owners]
        for u in pos.units:
            out[loc_prov[u.loc]] = col[u.power]
        return out


def _rows(m: Map) -> list[int]:
    """Per polydip location, its row in DipNet's order (a clear error on another map)."""
    rows = [-1] * m.n_loc
    index = {name: i for i, name in enumerate(LOCS)}
    for loc, name in enumerate(m.loc_name):
        r = index.get(name.upper())
        if r is None:
            raise PolydipError(
                f"DipNet's encoding is defined for the standard map only ({m.variant.name} has "
                f"{name}); polydip.encode.BoardEncoder encodes any variant")
        rows[loc] = r
    if m.n_loc != len(LOCS):
        raise PolydipError(f"DipNet's encoding is defined for the standard map's {len(LOCS)} "
                           f"locations; {m.variant.name} has {m.n_loc}")
    return rows


def _powers(m: Map) -> list[int]:
    cols = []
    for name in m.powers:
        if name.upper() not in POWERS:
            raise PolydipError(f"DipNet's encoding is defined for the standard map's powers; "
                               f"{m.variant.name} has {name}")
        cols.append(POWERS.index(name.upper()))
    return cols


def _kinds(m: Map) -> list[int]:
    if sorted(m.kinds) != ["A", "F"]:
        raise PolydipError(f"DipNet's encoding knows armies and fleets; {m.variant.name} has "
                           f"{', '.join(m.kinds)}")
    return [0 if k == "A" else 1 for k in m.kinds]


_ENCODERS: dict[int, tuple[Map, DipNetEncoder]] = {}


def dipnet_encoder(m: Map) -> DipNetEncoder:
    """The DipNetEncoder of a map (made once per map)."""
    got = _ENCODERS.get(id(m))
    if got is None or got[0] is not m:
        got = (m, DipNetEncoder(m))
        _ENCODERS[id(m)] = got
    return got[1]
