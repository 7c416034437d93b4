"""The order table of a map: every order that can exist on it, each with a stable integer code.

Bots, simulations and RL environments speak in these codes (polydip.fast): an action is an
index into the table, the legal orders of a unit are a list of codes, and `table.orders[c]`
is the order object the adjudicator reads (`table.texts[c]` its text in the diplomacy
package's notation). The codes depend only on the map, never on the position or on the order
in which they were first used, so they are the same in every process and every game of a
variant: they can be stored, learned and replayed.

A unit placement ("slot") is a unit kind on a location it may stand on: `A PAR`, `F STP/SC`.
Codes come in families, one block after the other:

  family           code                                           order
  HOLD             hold + s                                       "A PAR H"
  MOVE             move + move_off[s] + j                         "A PAR - BUR" (j-th move)
  SUPPORT_HOLD     support_hold + sh_off[s] + j                   "A PAR S A BUR"
  SUPPORT_MOVE     support_move + j (enumerated, see below)       "A PAR S A MAR - BUR"
  DISBAND          disband + s                                    "A PAR D"
  BUILD            build + s                                      "A PAR B"
  WAIVE            waive                                          "WAIVE"
  ACT              act + j (enumerated, see below)                "F GUY CONVERT"
  RETREAT          retreat + s * n_loc + loc                      "A PAR R BUR"
  VIA              via + a * n_dest + q                           "A BRE - LON VIA"
  CONVOY           convoy + (f * n_army + a) * n_dest + q         "F ENG C A BRE - LON"
  SUPPORT_CONVOYED support_convoyed + (sr_off[s] + r) * n_army + a "F NTH S A BRE - LON"

where s is the ordered unit's slot, a an army slot that may be convoyed (`army_slots`), f a
slot that may convoy (`fleet_slots`), q a province an army may be landed in (`dest_provs`)
and r the index of the target among the provinces the supporter may support into (sorted;
RuleTables.support_base). SUPPORT_MOVE lists, per supporter, every (supported slot, target) where
the supported unit could move to the target over an edge and the supporter may support there;
SUPPORT_CONVOYED is a support of a move that only a convoy could make. ACT lists the acts in
place a rule of the map names (`act_items`: slot and act; Latin American Diplomacy's anchor
markers: "F GUY CONVERT", a fleet becoming a river flotilla where it stands, "R GUY CONVERT"
back; rules/anchors.py `place_acts`); maps without such a rule have none, so their codes are
the same with or without the family. The first four families, DISBAND, BUILD, WAIVE and ACT
are enumerated when the table is built; the others are computed
(their order objects are made when first asked for), so the table of a world-sized map costs
no more than its enumerated part. `size` is the number of codes.

A computed family holds every combination of its parts, also those no position makes legal
(a retreat to a place that is not adjacent, a convoy by a fleet far from any route); legal
orders never list them. One such combination says the same as an enumerated order: a
SUPPORT_CONVOYED code of a move that could also be made over an edge reads like the
SUPPORT_MOVE code, which is the one legal orders list and `support_code` gives.

Several units of one slot (an open space holding two fleets of the same kind) have the same
codes: a code names what an order says, and the order binds to a unit as a typed one does.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from functools import lru_cache

from polydip.geography.map import Map
from polydip.orders.lazy import Lazy
from polydip.orders.model import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    RETREAT,
    SUPPORT,
    WAIVE,
    Order,
    OrderAct,
)

FAMILIES = ("HOLD", "MOVE", "SUPPORT_HOLD", "SUPPORT_MOVE", "DISBAND", "BUILD", "WAIVE", "ACT",
            "RETREAT", "VIA", "CONVOY", "SUPPORT_CONVOYED")


class OrderTable:
    """Every order of a map, by code (see the module docstring)."""

    # filled by __init__'s steps (declared here, typed, for the compiled class)
    slots: list[tuple[int, int]]
    n_slots: int
    slot_of: list[list[int]]
    slot_prov: list[int]
    slot_text: list[str]
    reach_list: list[tuple[int, ...]]
    support_list: list[tuple[int, ...]]
    hold: int
    move: int
    move_off: list[int]
    move_items: list[tuple[int, int]]  # (slot, destination location)
    hold_and_moves: list[tuple[int, ...]]
    support_hold: int
    sh_items: list[tuple[int, int]]  # (supporter, supported)
    sh_code: list[dict[int, int]]  # per supporter: supported slot -> code
    support_move: int
    sm_items: list[tuple[int, int, int]]  # (supporter, supported, target)
    pair: list[dict[int, tuple[int, ...]]]
    disband: int
    build: int
    waive: int
    build_at: list[list[tuple[int, tuple[int, ...]]]]
    act: int
    retreat: int
    army_slots: list[int]
    army_index: list[int]
    fleet_slots: list[int]
    fleet_index: list[int]
    dest_provs: list[int]
    dest_index: list[int]
    n_army: int
    n_dest: int
    via: int
    convoy: int
    support_convoyed: int
    sr_off: list[int]
    sr_items: list[tuple[int, int]]  # (supporter, target province)
    size: int
    sc_mask: list[int]
    sc_base: list[dict[int, int]]
    sc_into_slots: list[tuple[int, ...]]
    sc_provs: list[tuple[int, ...]]  # the keys of sc_base[s], lowest first
    prov_slots: list[tuple[int, ...]]

    def __init__(self, m: Map) -> None:
        self.m = m
        # ---- slots -------------------------------------------------------------------
        in_prov, reach, sbase = self._slots(m)
        # ---- enumerated families ---------------------------------------------------------
        self._holds_and_moves(m)
        self._supports_to_hold(sbase, in_prov)
        self._supports_to_move(m, sbase, reach)
        self._sm_code: dict[tuple[int, int, int], int] | None = None
        # per supporter: supported slot -> the code of the support to hold the map's rules
        # allow (`pair` likewise holds only the supports they allow)
        self.sh_legal: list[dict[int, int]] = self.sh_code
        if m.tables.support_reach is not m.reach_prov or m.tables.no_hold_support:
            self._forbid_supports(m)
        self.partners: list[frozenset[int]] = [frozenset(p) - {s}
                                               for s, p in enumerate(self.pair)]
        # the partners in slot order with the codes alongside (sorted items of `pair`, less
        # the slot itself): legal orders walk them against the phase's occupied slots (no
        # set or dict is made or read per unit, no lookup per partner)
        self.partner_items: list[list[tuple[int, tuple[int, ...]]]] = []
        for s, pr in enumerate(self.pair):
            items = sorted(pr.items())
            if s in pr:  # (an open space: supports between units on one place)
                items.remove((s, pr[s]))
            self.partner_items.append(items)
        self.disband = self.support_move + len(self.sm_items)
        self.build = self.disband + self.n_slots
        self.waive = self.build + self.n_slots
        self._builds(m)
        self.act = self.waive + 1
        self.act_items: list[tuple[int, OrderAct]] = []  # (slot, act)
        self.act_code: dict[tuple[int, str], int] = {}
        self._place_acts(m)
        # ---- computed families -----------------------------------------------------------
        self.retreat = self.act + len(self.act_items)
        self._convoy_indexes(m)
        self._computed_bases(m)
        self._bases = [self.hold, self.move, self.support_hold, self.support_move,
                       self.disband, self.build, self.waive, self.act, self.retreat, self.via,
                       self.convoy, self.support_convoyed]
        self._supports_of_convoyed(m)
        # code -> Order, code -> text: made on first use, a dict lookup after that; the
        # texts of the enumerated families are made now (strings only: a few ms)
        self.orders: dict[int, Order] = Lazy(self._make)
        # the order objects of the enumerated families by code, as they are first made:
        # `order(code)` reads them without a dict lookup (the fast path's hot read)
        self.made: list[Order | None] = [None] * self.retreat
        self.texts: dict[int, str] = Lazy(self.text)
        self.sc_texts: dict[int, str] = {}  # SUPPORT_CONVOYED code -> text (sc_text)
        texts = self._enumerated_texts()
        self.texts.update(texts)
        # the same lists as texts (legal orders read them where nothing changes them now)
        # (map over the dictionary's own lookup: no comprehension run per pair of slots,
        # a few thousand on the standard map)
        text_of = texts.__getitem__
        self.hold_and_moves_texts: list[tuple[str, ...]] = [
            tuple(map(text_of, codes)) for codes in self.hold_and_moves]
        self.partner_text_items: list[list[tuple[int, tuple[str, ...]]]] = [
            [(p, tuple(map(text_of, codes))) for p, codes in items]
            for items in self.partner_items]

    def _slots(self, m: Map) -> tuple[dict[int, list[int]], list[frozenset[int]],
                                      list[frozenset[int]]]:
        """The slots (a kind on a location it may stand on), and what the families below
        read of them: the slots in each province, the provinces each reaches, and those
        each may support into."""
        nk = len(m.kinds)
        self.slots = [
            (k, loc) for k in range(nk) for loc in range(m.n_loc) if m.occupy[k][loc]]
        self.n_slots = len(self.slots)
        self.slot_of = [[-1] * m.n_loc for _ in range(nk)]
        for s, (k, loc) in enumerate(self.slots):
            self.slot_of[k][loc] = s
        self.slot_prov = [m.loc_prov[loc] for _k, loc in self.slots]
        self.slot_text = [m.unit_str(k, loc) for k, loc in self.slots]
        in_prov: dict[int, list[int]] = {}
        for s, p in enumerate(self.slot_prov):
            in_prov.setdefault(p, []).append(s)
        self.prov_slots = [tuple(in_prov.get(p, ())) for p in range(m.n_prov)]  # lowest first
        reach = [m.reach_prov[k][loc] for k, loc in self.slots]
        self.reach_list = [tuple(sorted(r)) for r in reach]
        # where a slot may support into: where it moves, and where a rule lets it support
        # without moving there (RuleTables.support_base: a river flotilla beside a land province)
        sbase = [m.tables.support_base[k][loc] for k, loc in self.slots]
        self.support_list = [tuple(sorted(r)) for r in sbase]
        return in_prov, reach, sbase

    def _holds_and_moves(self, m: Map) -> None:
        """The HOLD family (one code a slot) and the MOVE family."""
        self.hold = 0
        self.move = self.n_slots
        self.move_off = []
        self.move_items = []
        for s, (k, loc) in enumerate(self.slots):
            self.move_off.append(len(self.move_items))
            self.move_items.extend((s, d) for d in m.move_locs[k][loc])
        # the codes of a slot's hold and moves, in the order of m.move_locs
        self.hold_and_moves = [
            (s, *range(self.move + self.move_off[s],
                       self.move + self.move_off[s] + len(m.move_locs[k][loc])))
            for s, (k, loc) in enumerate(self.slots)]

    def _supports_to_hold(self, sbase: list[frozenset[int]],
                          in_prov: dict[int, list[int]]) -> None:
        """The SUPPORT_HOLD family: a slot supports any slot in a province it may support
        into."""
        self.support_hold = self.move + len(self.move_items)
        self.sh_items = []
        self.sh_code = []
        items, base = self.sh_items, self.support_hold
        for s in range(self.n_slots):
            held: dict[int, int] = {}
            for q in sorted(sbase[s]):
                for t in in_prov.get(q, ()):
                    held[t] = base + len(items)
                    items.append((s, t))
            self.sh_code.append(held)

    def _supports_to_move(self, m: Map, sbase: list[frozenset[int]],
                          reach: list[frozenset[int]]) -> None:
        """The SUPPORT_MOVE family, and `pair`: per supporter, supported slot -> the codes
        of its supports (hold first, then the moves by target province); slots with none
        are left out."""
        self.support_move = self.support_hold + len(self.sh_items)
        self.sm_items = []
        self.pair = []
        sm_items, slot_prov, open_space = self.sm_items, self.slot_prov, m.tables.open_space
        # (slots and provinces walked as sorted lists and sets of small ints: masks of 120
        # slots cost an allocation per operation)
        # the slots in each province or next to it
        in_prov = self.prov_slots
        around: dict[int, tuple[int, ...]] = {}
        for q in set().union(*sbase) if sbase else ():
            got = list(in_prov[q])
            for q2 in m.prov_neighbours[q]:
                got.extend(in_prov[q2])
            around[q] = tuple(got)
        sm_base = self.support_move
        # per slot, the provinces it moves to but its own (where a supported move may go)
        goes = [r - {p} if p in r else r for r, p in zip(reach, slot_prov, strict=True)]
        for s in range(self.n_slots):
            own = slot_prov[s]
            mine = sbase[s]
            mine_list = sorted(q for q in mine if q != own)
            near: set[int] = set()
            for q in mine:
                near.update(around[q])
            if not open_space[own]:
                near.discard(s)
            held_s = self.sh_code[s]
            pairs: dict[int, tuple[int, ...]] = {}
            c = sm_base + len(sm_items)
            for t in sorted(near):
                rt = goes[t]
                h = held_s.get(t)
                codes = [] if h is None else [h]
                for q in mine_list:
                    if q in rt:
                        codes.append(c)
                        c += 1
                        sm_items.append((s, t, q))
                if codes:
                    pairs[t] = tuple(codes)
            self.pair.append(pairs)

    def _builds(self, m: Map) -> None:
        """`build_at`: per province, (kind, the BUILD codes of that kind there: its coasts
        for a kind that stands on coasts, else the province), kinds with none left out."""
        self.build_at = []
        for prov in range(m.n_prov):
            kinds: list[tuple[int, tuple[int, ...]]] = []
            for k in range(len(m.kinds)):
                if m.kind_coastal[k] and m.prov_coast_locs[prov]:
                    locs = [c for c in m.prov_coast_locs[prov] if m.occupy[k][c]]
                else:
                    locs = [prov] if m.occupy[k][prov] else []
                if locs:
                    kinds.append((k, tuple(self.build + self.slot_of[k][c] for c in locs)))
            self.build_at.append(kinds)

    def _convoy_indexes(self, m: Map) -> None:
        """The armies that may be convoyed, the fleets that may convoy and the provinces a
        convoy may land in, each numbered (the computed families' codes are read from
        these numbers)."""
        n, loc_prov = self.n_slots, m.loc_prov
        self.army_slots = [s for s, (k, loc) in enumerate(self.slots)
                           if m.kind_convoyed[k] and m.convoy_touch[loc_prov[loc]]]
        self.army_index = [-1] * n
        for i, s in enumerate(self.army_slots):
            self.army_index[s] = i
        self.fleet_slots = [s for s, (k, loc) in enumerate(self.slots)
                            if m.kind_convoys[k] and m.convoy_prov[loc_prov[loc]]]
        self.fleet_index = [-1] * n
        for i, s in enumerate(self.fleet_slots):
            self.fleet_index[s] = i
        self.dest_provs = sorted({q for shore in m.convoy_shore for q in shore})
        self.dest_index = [-1] * m.n_prov
        for i, q in enumerate(self.dest_provs):
            self.dest_index[q] = i
        self.n_army, self.n_dest = len(self.army_slots), len(self.dest_provs)

    def _computed_bases(self, m: Map) -> None:
        """The bases of the computed families (RETREAT, VIA, CONVOY, SUPPORT_CONVOYED) and
        the table's size."""
        n, na, nq = self.n_slots, self.n_army, self.n_dest
        self.via = self.retreat + n * m.n_loc
        self.convoy = self.via + na * nq
        self.support_convoyed = self.convoy + len(self.fleet_slots) * na * nq
        self.sr_off = []
        self.sr_items = []
        for s in range(n):
            self.sr_off.append(len(self.sr_items))
            self.sr_items.extend((s, q) for q in self.support_list[s])
        self.size = self.support_convoyed + len(self.sr_items) * na

    def _supports_of_convoyed(self, m: Map) -> None:
        """Per slot: the provinces it may support a move into that it is not in (a bit
        mask), and for each the base of its SUPPORT_CONVOYED codes (+ army index): legal
        orders read the supports of convoyed moves from them."""
        n, na = self.n_slots, self.n_army
        self.sc_mask = [0] * n
        self.sc_base = [{} for _ in range(n)]
        # per province: the slots that may support a move into it, lowest first (sr_items
        # come in slot order)
        into_slots: list[list[int]] = [[] for _ in range(m.n_prov)]
        for sr, (s, q) in enumerate(self.sr_items):
            k, loc = self.slots[s]
            if q != self.slot_prov[s] and q in m.tables.support_reach[k][loc]:
                self.sc_mask[s] |= 1 << q
                self.sc_base[s][q] = self.support_convoyed + sr * na
                into_slots[q].append(s)
        self.sc_into_slots = [tuple(slots) for slots in into_slots]
        self.sc_provs = [tuple(sorted(bases)) for bases in self.sc_base]

    def _place_acts(self, m: Map) -> None:
        """Fill the ACT family: the acts in place the map's rules name, by slot (a rule
        with a `place_acts(m)` method giving (kind, location, act) triples; rules/anchors.py).
        Whether a unit may do one now is the rule's to say (legal orders ask it)."""
        found: set[tuple[int, OrderAct]] = set()
        for rule in m.rules.rules:
            acts = getattr(rule, "place_acts", None)
            if acts is None:
                continue
            for k, loc, act in acts(m):
                s = self.slot_of[k][loc]
                if s >= 0:
                    found.add((s, act))
        for item in sorted(found):
            self.act_code[item] = self.act + len(self.act_items)
            self.act_items.append(item)

    def _forbid_supports(self, m: Map) -> None:
        """Leave out of `pair` the supports the map's rules forbid for good (no support
        into some provinces, RuleTables.support_reach; no support to hold of some units,
        RuleTables.no_hold_support). Their codes stay in the table, as any order that can be
        written does; legal orders never list them, and the adjudicator voids them."""
        self.sh_legal = []
        for s, (k, loc) in enumerate(self.slots):
            sreach = m.tables.support_reach[k][loc]
            self.sh_legal.append({
                t: c for t, c in self.sh_code[s].items()
                if self.slot_prov[t] in sreach
                and (self.slots[t][0], self.slot_prov[t]) not in m.tables.no_hold_support})
            kept: dict[int, tuple[int, ...]] = {}
            for t, codes in self.pair[s].items():
                ok = tuple(c for c in codes
                           if (c < self.support_move and t in self.sh_legal[s])
                           or (c >= self.support_move
                               and self.sm_items[c - self.support_move][2] in sreach))
                if ok:
                    kept[t] = ok
            self.pair[s] = kept

    # ---- encoding ------------------------------------------------------------------------

    def sm_code(self) -> dict[tuple[int, int, int], int]:
        """(supporter, supported, target province) -> SUPPORT_MOVE code (made on first use)."""
        got = self._sm_code
        if got is None:
            base = self.support_move
            got = self._sm_code = {item: base + j for j, item in enumerate(self.sm_items)}
        return got

    def slot(self, kind: int, loc: int) -> int:
        return self.slot_of[kind][loc]

    def move_code(self, s: int, dest: int) -> int:
        """The code of slot s moving over an edge to location `dest` (-1: not a move)."""
        k, loc = self.slots[s]
        try:
            j = self.m.move_locs[k][loc].index(dest)
        except ValueError:
            return -1
        return self.move + self.move_off[s] + j

    def retreat_code(self, s: int, dest: int) -> int:
        return self.retreat + s * self.m.n_loc + dest

    def via_code(self, a: int, q: int) -> int:
        """Army slot a moving by convoy to province q."""
        return self.via + self.army_index[a] * self.n_dest + self.dest_index[q]

    def convoy_code(self, f: int, a: int, q: int) -> int:
        """Fleet slot f convoying army slot a to province q."""
        return (self.convoy + (self.fleet_index[f] * self.n_army + self.army_index[a])
                * self.n_dest + self.dest_index[q])

    def support_convoyed_code(self, s: int, a: int, q: int) -> int:
        """Slot s supporting army slot a's convoyed move to province q (q where s may
        support into: RuleTables.support_base)."""
        r = self.support_list[s].index(q)
        return (self.support_convoyed + (self.sr_off[s] + r) * self.n_army
                + self.army_index[a])

    def support_code(self, s: int, t: int, q: int) -> int:
        """Slot s supporting slot t to hold (q = -1) or to move to province q, whichever
        family it belongs to (-1: no such order on this map)."""
        if q < 0:
            return self.sh_code[s].get(t, -1)
        code = self.sm_code().get((s, t, q), -1)
        if (code < 0 and self.army_index[t] >= 0 and q in self.support_list[s]
                and q != self.slot_prov[s] and q != self.slot_prov[t]):
            code = self.support_convoyed_code(s, t, q)
        return code

    # ---- decoding ------------------------------------------------------------------------

    def family(self, code: int) -> str:
        if not 0 <= code < self.size:
            raise IndexError(f"order code {code} is not in this map's table (0..{self.size - 1})")
        return FAMILIES[bisect_right(self._bases, code) - 1]

    def order(self, code: int) -> Order:
        """`orders[code]`, faster for the enumerated families (holds, moves, supports,
        disbands, builds, acts)."""
        if 0 <= code < len(self.made):
            got = self.made[code]
            if got is None:
                got = self.made[code] = self.orders[code]
            return got
        return self.orders[code]

    def _make(self, code: int) -> Order:
        m = self.m
        fam = self.family(code)
        slots = self.slots
        text = self.texts[code]
        if fam == "HOLD":
            k, loc = slots[code]
            return Order(HOLD, kind=k, loc=loc, text=text)
        if fam == "MOVE":
            s, d = self.move_items[code - self.move]
            k, loc = slots[s]
            return Order(MOVE, kind=k, loc=loc, target=d, text=text)
        if fam == "SUPPORT_HOLD":
            s, t = self.sh_items[code - self.support_hold]
            return _support(slots[s], slots[t], None, text)
        if fam == "SUPPORT_MOVE":
            s, t, q = self.sm_items[code - self.support_move]
            return _support(slots[s], slots[t], q, text)
        if fam == "DISBAND":
            k, loc = slots[code - self.disband]
            return Order(DISBAND, kind=k, loc=loc, text=text)
        if fam == "BUILD":
            k, loc = slots[code - self.build]
            return Order(BUILD, kind=k, loc=loc, text=text)
        if fam == "WAIVE":
            return Order(WAIVE, text=text)
        if fam == "ACT":
            s, act = self.act_items[code - self.act]
            k, loc = slots[s]
            return Order(HOLD, kind=k, loc=loc, act=act, text=text)
        if fam == "RETREAT":
            s, d = divmod(code - self.retreat, m.n_loc)
            k, loc = slots[s]
            return Order(RETREAT, kind=k, loc=loc, target=d, text=text)
        if fam == "VIA":
            a, q = divmod(code - self.via, self.n_dest)
            k, loc = slots[self.army_slots[a]]
            return Order(MOVE, kind=k, loc=loc, target=self.dest_provs[q], via=True, text=text)
        if fam == "CONVOY":
            fa, q = divmod(code - self.convoy, self.n_dest)
            f, a = divmod(fa, self.n_army)
            (k, loc), (k2, loc2) = slots[self.fleet_slots[f]], slots[self.army_slots[a]]
            return Order(CONVOY, kind=k, loc=loc, target=self.dest_provs[q], aux_kind=k2,
                         aux_loc=loc2, text=text)
        sr, a = divmod(code - self.support_convoyed, self.n_army)
        s, q = self.sr_items[sr]
        return _support(slots[s], slots[self.army_slots[a]], q, text)

    def text(self, code: int) -> str:
        """The text of a code, made without its order object (`orders[code].text`)."""
        m = self.m
        fam = self.family(code)
        st = self.slot_text
        if fam == "HOLD":
            return f"{st[code]} H"
        if fam == "MOVE":
            s, d = self.move_items[code - self.move]
            return f"{st[s]} - {m.loc_name[d]}"
        if fam == "SUPPORT_HOLD":
            s, t = self.sh_items[code - self.support_hold]
            return f"{st[s]} S {st[t]}"
        if fam == "SUPPORT_MOVE":
            s, t, q = self.sm_items[code - self.support_move]
            return f"{st[s]} S {st[t]} - {m.prov_abbr[q]}"
        if fam == "DISBAND":
            return f"{st[code - self.disband]} D"
        if fam == "BUILD":
            return f"{st[code - self.build]} B"
        if fam == "WAIVE":
            return "WAIVE"
        if fam == "ACT":
            s, act = self.act_items[code - self.act]
            return f"{st[s]} {act.upper()}"
        if fam == "RETREAT":
            s, d = divmod(code - self.retreat, m.n_loc)
            return f"{st[s]} R {m.loc_name[d]}"
        if fam == "VIA":
            a, q = divmod(code - self.via, self.n_dest)
            return self.via_text(self.army_slots[a], self.dest_provs[q])
        if fam == "CONVOY":
            fa, q = divmod(code - self.convoy, self.n_dest)
            f, a = divmod(fa, self.n_army)
            return self.convoy_text(self.fleet_slots[f], self.army_slots[a], self.dest_provs[q])
        sr, a = divmod(code - self.support_convoyed, self.n_army)
        s, q = self.sr_items[sr]
        return f"{st[s]} S {st[self.army_slots[a]]} - {m.prov_abbr[q]}"

    def sc_text(self, code: int) -> str:
        """`texts[code]` of a SUPPORT_CONVOYED code, made on first use and kept (without
        the lazy dictionary's call back into Python and the family lookup of `text`: legal
        orders list these texts for every new position with convoys)."""
        made = self.sc_texts  # (a plain dict: the lazy one is slower to read compiled)
        got = made.get(code)
        if got is None:
            sr, a = divmod(code - self.support_convoyed, self.n_army)
            s, q = self.sr_items[sr]
            st = self.slot_text
            got = made[code] = f"{st[s]} S {st[self.army_slots[a]]} - {self.m.prov_abbr[q]}"
        return got

    def via_text(self, a: int, q: int) -> str:
        """The text of army slot a moving by convoy to province q (`via_code`)."""
        return f"{self.slot_text[a]} - {self.m.prov_abbr[q]} VIA"

    def convoy_text(self, f: int, a: int, q: int) -> str:
        """The text of fleet slot f convoying army slot a to province q (`convoy_code`)."""
        return f"{self.slot_text[f]} C {self.slot_text[a]} - {self.m.prov_abbr[q]}"

    def _enumerated_texts(self) -> dict[int, str]:
        """code -> text of every code of the enumerated families (see the module doc)."""
        m = self.m
        st, loc_name, abbr = self.slot_text, m.loc_name, m.prov_abbr
        out: dict[int, str] = {}
        for s in range(self.n_slots):
            out[self.hold + s] = f"{st[s]} H"
            out[self.disband + s] = f"{st[s]} D"
            out[self.build + s] = f"{st[s]} B"
        for j, (s, d) in enumerate(self.move_items):
            out[self.move + j] = f"{st[s]} - {loc_name[d]}"
        for j, (s, t) in enumerate(self.sh_items):
            out[self.support_hold + j] = f"{st[s]} S {st[t]}"
        for j, (s, t, q) in enumerate(self.sm_items):
            out[self.support_move + j] = f"{st[s]} S {st[t]} - {abbr[q]}"
        out[self.waive] = "WAIVE"
        for j, (s, act) in enumerate(self.act_items):
            out[self.act + j] = f"{st[s]} {act.upper()}"
        return out


def _support(us: tuple[int, int], them: tuple[int, int], q: int | None, text: str) -> Order:
    return Order(SUPPORT, kind=us[0], loc=us[1], target=q, aux_kind=them[0], aux_loc=them[1],
                 text=text)


def _mask(provinces: Iterable[int]) -> int:
    """A set of provinces as a bit mask."""
    out = 0
    for p in provinces:
        out |= 1 << p
    return out


@lru_cache(maxsize=64)
def order_table(m: Map) -> OrderTable:
    """The order table of a map (built once per map)."""
    return OrderTable(m)
