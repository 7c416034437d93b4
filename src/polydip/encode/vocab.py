"""DipNet's order vocabulary: every order a standard-map model may output, by a fixed index.

DipNet (Paquette et al. 2019, section 4.2) predicts each unit's order from a vocabulary of a
fixed size built from the map by rules (diplomacy/research's `get_order_vocabulary`, kept by
SearchBot and Cicero). `Vocabulary(m)` builds it from polydip's map by the same rules:

  category  orders                                                        polydip family
  H         every unit placement holding                                  HOLD
  D         every placement disbanding                                    DISBAND
  B         a build of every placement in a supply center's province      BUILD
  -         every move over an edge                                       MOVE
  R         every retreat over an edge                                    RETREAT
  SH        a support to hold of every placement next to the supporter    SUPPORT_HOLD
  S-        a support of every move over an edge, by a unit next to the   SUPPORT_MOVE
            target, from another province (the target without its coast)
  -k Sk Ck  for k = 1..4 fleets: the moves by convoy whose shortest       VIA, SUPPORT_
            routes take k fleets, their supports (by units next to the    CONVOYED (or
            target not on the route, from another province than the       SUPPORT_MOVE),
            army's) and the convoys of each fleet on such a route         CONVOY

A route is a chain of water provinces from the army's coast to its destination; a route
counts when no other route of the same trip is a subset of it (the reference keeps a chain
unless a chain it found earlier is a subset of it) and it takes at most four fleets (the
reference leaves longer convoys out). An order is kept in the first category that has
it; each category is sorted by the ordered unit's location, then by the order's text.
Texts are the `diplomacy` package's notation (`F STP/SC - BOT`, `A BRE - LON VIA`).

Other maps of armies and fleets get their own vocabulary by the same rules (War in North
America, WITA, The Twentieth Century); other unit kinds are refused.

The mapping both ways to the map's order codes is two arrays: `codes[i]` the order code of
vocabulary entry i, `index_of(code)` the entry of a code (-1: not in the vocabulary).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from polydip.errors import PolydipError
from polydip.geography.map import Map
from polydip.orders.table import OrderTable, order_table
from polydip.state import Position

# DipNet's vocabulary opens with these tokens (the reference's ids 0..11), then the orders
DIPNET_TOKENS: tuple[str, ...] = (
    "<PAD>", "<GO>", "<EOS>", "<DRAW>", "<AUSTRIA>", "<ENGLAND>", "<FRANCE>", "<GERMANY>",
    "<ITALY>", "<RUSSIA>", "<TURKEY>", "WAIVE")
MAX_FLEETS = 4  # convoys with longer routes are left out, as in the reference
CATEGORIES: tuple[str, ...] = ("H", "D", "B", "-", "R", "SH", "S-",
                               *[f"{c}{k}" for k in range(1, MAX_FLEETS + 1)
                                 for c in ("-", "S", "C")])


class Vocabulary:
    """The order vocabulary of a map by DipNet's rules (see the module docstring).

    `texts[i]`, `codes[i]` (int64 array), `categories[i]`; `index(text)`, `index_of(code)`
    (a code -> index array over the whole order table, int32, -1 for codes outside it);
    `size`. `dipnet_id(i)` is entry i's id in DipNet's own numbering (its 12 tokens first)."""

    def __init__(self, m: Map) -> None:
        if len(m.kinds) != 2 or set(m.kinds) != {"A", "F"}:
            raise PolydipError(f"DipNet's order vocabulary knows armies and fleets; "
                               f"{m.variant.name} has {', '.join(m.kinds)}")
        self.m = m
        self.table: OrderTable = order_table(m)
        found: dict[str, list[tuple[str, str, int]]] = {c: [] for c in CATEGORIES}
        for cat, text, code in _entries(m, self.table):
            found[cat].append((text.split()[1], text, code))
        seen: set[str] = set()
        texts: list[str] = []
        codes: list[int] = []
        cats: list[str] = []
        for cat in CATEGORIES:
            for _loc, text, code in sorted(set(found[cat])):
                if text not in seen:
                    seen.add(text)
                    texts.append(text)
                    codes.append(code)
                    cats.append(cat)
        self.texts = texts
        self.categories = cats
        self.codes = np.array(codes, dtype=np.int64)
        self.size = len(texts)
        self._by_text = {t: i for i, t in enumerate(texts)}
        self._by_code = np.full(self.table.size, -1, dtype=np.int32)
        self._by_code[self.codes] = np.arange(self.size, dtype=np.int32)

    def index(self, text: str) -> int:
        """The entry of an order written in the package's notation (-1: none). A support of
        a move to a coast is read without the coast, as the reference reads it."""
        got = self._by_text.get(text, -1)
        words = text.split()
        if got < 0 and len(words) == 7 and words[2] == "S" and "/" in words[6]:
            got = self._by_text.get(" ".join([*words[:6], words[6].split("/")[0]]), -1)
        return got

    def index_of(self, code: int) -> int:
        """The entry of an order code of the map (-1: an order outside the vocabulary)."""
        if not 0 <= code < self.table.size:
            raise PolydipError(f"order code {code} is not in this map's table "
                               f"(0..{self.table.size - 1})")
        return int(self._by_code[code])

    def indices_of(self, codes: np.ndarray) -> np.ndarray:
        """`index_of` of many codes at once (an int array; -1 stays -1)."""
        codes = np.asarray(codes)
        if codes.size and (codes.max() >= self.table.size or codes.min() < -1):
            raise PolydipError(f"order codes outside this map's table (0..{self.table.size - 1})")
        out = self._by_code[np.maximum(codes, 0)]
        return np.where(codes < 0, -1, out)

    def code(self, i: int) -> int:
        """The order code of entry i."""
        if not 0 <= i < self.size:
            raise PolydipError(f"vocabulary entry {i} does not exist (0..{self.size - 1})")
        return int(self.codes[i])

    def unit_codes(self, pos: Position, texts: Iterable[str]) -> list[int]:
        """The order codes of `texts` (orders in the package's notation, as datasets of the
        `diplomacy` package hold them), one per unit of `pos` (-1: a unit given none): what
        `DipNetEncoder.prev_orders` and `FastGame.step` take."""
        out = [-1] * len(pos.units)
        where: dict[tuple[int, int], list[int]] = {}
        for j, u in enumerate(pos.units):
            where.setdefault((u.kind, u.loc), []).append(j)
        orders = self.table.orders
        for text in texts:
            i = self.index(text)
            if i < 0:
                raise PolydipError(f"{text!r} is not in the order vocabulary")
            code = int(self.codes[i])
            o = orders[code]
            free = [j for j in where.get((o.kind or 0, o.loc), []) if out[j] < 0]
            if o.kind is None or not free:
                raise PolydipError(f"{text!r}: no unit of the position left to give it to")
            out[free[0]] = code
        return out

    @staticmethod
    def dipnet_id(i: int) -> int:
        """Entry i's id in DipNet's numbering (its tokens first)."""
        return i + len(DIPNET_TOKENS)

    def dipnet_id_of(self, code: int) -> int:
        """The id in DipNet's numbering of an order code: WAIVE is its token 11, the
        orders follow the tokens (-1: an order outside the vocabulary)."""
        if code == self.table.waive:
            return DIPNET_TOKENS.index("WAIVE")
        i = self.index_of(code)
        return -1 if i < 0 else self.dipnet_id(i)


def _entries(m: Map, t: OrderTable) -> Iterator[tuple[str, str, int]]:
    """(category, text, code) of every order the rules make (repeats allowed)."""
    st, names = t.slot_text, m.loc_name
    for s, (k, loc) in enumerate(t.slots):
        yield "H", f"{st[s]} H", t.hold + s
        yield "D", f"{st[s]} D", t.disband + s
        if m.is_sc[m.loc_prov[loc]]:
            yield "B", f"{st[s]} B", t.build + s
        for d in m.move_locs[k][loc]:
            yield "-", f"{st[s]} - {names[d]}", t.move_code(s, d)
            yield "R", f"{st[s]} R {names[d]}", t.retreat_code(s, d)
    for j, (s, u) in enumerate(t.sh_items):
        yield "SH", f"{st[s]} S {st[u]}", t.support_hold + j
    for j, (s, u, q) in enumerate(t.sm_items):
        if t.slot_prov[s] != t.slot_prov[u]:
            yield "S-", f"{st[s]} S {st[u]} - {m.prov_abbr[q]}", t.support_move + j
    yield from _convoy_entries(m, t)


def _convoy_entries(m: Map, t: OrderTable) -> Iterator[tuple[str, str, int]]:
    """The moves by convoy, their supports and the convoys, by the fleets their routes
    take (see the module docstring)."""
    st, abbr = t.slot_text, m.prov_abbr
    army = m.army
    supporters: dict[int, list[int]] = {}  # province -> the slots that may support into it
    for s, (k, loc) in enumerate(t.slots):
        for q in m.tables.support_reach[k][loc]:
            supporters.setdefault(q, []).append(s)
    for (start, dest), routes in sorted(convoy_routes(m).items()):
        a = t.slot_of[army][start]
        k = min(len(r) for r in routes)
        yield f"-{k}", f"{st[a]} - {abbr[dest]} VIA", t.via_code(a, dest)
        for route in routes:
            n = len(route)
            for w in route:
                f = t.slot_of[1 - army][w]
                if f >= 0:
                    yield f"C{n}", f"F {abbr[w]} C {st[a]} - {abbr[dest]}", \
                        t.convoy_code(f, a, dest)
            for s in supporters.get(dest, ()):
                p = t.slot_prov[s]
                if p != start and p not in route:
                    yield f"S{n}", f"{st[s]} S {st[a]} - {abbr[dest]}", t.support_code(s, a, dest)


def convoy_routes(m: Map, max_fleets: int = MAX_FLEETS
                  ) -> dict[tuple[int, int], list[frozenset[int]]]:
    """(army's province, destination) -> the routes of up to `max_fleets` water provinces
    an army may be convoyed along, each a set no other route of the trip is a subset of."""
    army = m.army
    shores = [p for p in range(m.n_prov) if m.occupy[army][p] and m.convoy_touch[p]]
    found: dict[tuple[int, int], set[frozenset[int]]] = {}

    def walk(start: int, chain: list[int]) -> None:
        here = frozenset(chain)
        for d in m.convoy_shore[chain[-1]]:
            if d != start:
                found.setdefault((start, d), set()).add(here)
        if len(chain) < max_fleets:
            for w in m.convoy_touch[chain[-1]]:
                if w not in here:
                    walk(start, [*chain, w])

    for s in shores:
        for w in m.convoy_touch[s]:
            walk(s, [w])
    out: dict[tuple[int, int], list[frozenset[int]]] = {}
    for trip, routes in found.items():
        out[trip] = sorted((r for r in routes if not any(o < r for o in routes)),
                           key=lambda r: (len(r), sorted(r)))
    return out


_VOCABS: dict[int, tuple[Map, Vocabulary]] = {}


def vocabulary(m: Map) -> Vocabulary:
    """The Vocabulary of a map (made once per map)."""
    got = _VOCABS.get(id(m))
    if got is None or got[0] is not m:
        got = (m, Vocabulary(m))
        _VOCABS[id(m)] = got
    return got[1]
