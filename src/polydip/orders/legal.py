"""Legal orders of a position: as codes of the map's order table (orders/table.py), and as
order strings in the diplomacy package's notation built from them.

"Legal" follows DATC 4.E.1: an order that could be valid given the units on the board —
convoys and convoyed moves need a chain of fleets on the board, a support of a convoyed move
must not need the supporting fleet itself (6.D.31), a convoying fleet must be necessary for
some route (6.G.19). The checks are those the adjudicator applies
(adjudication/legality.py): every order listed here is accepted by it, and every order it
accepts is listed (tests/test_legality.py checks both on random positions of every variant).
Units a rule holds (neutral units) have no orders; passages a rule closes are left out.

Speed: what depends only on the map is in the order table — a unit's hold and moves, and for
each pair of unit slots the supports one may give the other — so a position costs a lookup
per pair of neighbouring units, and the convoys, answered from one convoy geometry per set of
fleets on the board (adjudication/convoy.py).
"""

from __future__ import annotations

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.convoy import bits, geometry, necessary_mask
from polydip.adjudication.legality import (
    Closed,
    closed_passages,
    convoy_seas,
    move_locs,
    shut,
    support_reach,
)
from polydip.geography.map import Map
from polydip.orders.table import OrderTable, order_table
from polydip.state import Position


def legal_orders(m: Map, pos: Position, power: int | None = None,
                 options: dict | None = None) -> dict[str, list[str]]:
    """Unit (or build site) → list of legal orders, for one power or all."""
    t = order_table(m)
    texts = t.texts
    out: dict[str, list[str]] = {}
    typ = pos.phase.type
    if typ == "M":
        units = pos.units
        for u, codes in zip(units, movement_codes(m, pos, options, t), strict=True):
            if codes is not None and (power is None or u.power == power):
                out[t.slot_text[t.slot_of[u.kind][u.loc]]] = [texts[c] for c in codes]
    elif typ == "R":
        for d, codes in zip(pos.dislodged, retreat_codes(m, pos, t), strict=True):
            if power is None or d.power == power:
                out[t.slot_text[t.slot_of[d.kind][d.loc]]] = [texts[c] for c in codes]
    else:
        counts = adjustment_counts(m, pos)
        for pw in range(len(m.powers)) if power is None else [power]:
            if counts[pw] > 0:
                for prov, codes in build_codes(m, pos, pw, t):
                    out[m.prov_abbr[prov]] = [texts[c] for c in codes]
            elif counts[pw] < 0:
                for u in pos.units:
                    if u.power == pw:
                        s = t.slot_of[u.kind][u.loc]
                        out[t.slot_text[s]] = [texts[t.disband + s]]
    return out


def movement_codes(m: Map, pos: Position, options: dict | None = None,
                   t: OrderTable | None = None) -> list[list[int] | None]:
    """Per unit of `pos.units`, the codes of its legal orders (None: a unit a rule holds,
    which takes no orders)."""
    if t is None:
        t = order_table(m)
    closed = closed_passages(m, pos, options or {})
    units = pos.units
    slot_of = t.slot_of
    slots = [slot_of[u.kind][u.loc] for u in units]
    holds = m.rules.unit_holds if m.rules and m.rules.has_holds else None
    # units a rule holds: no orders of their own, supported only in holding, never convoyed
    held = [holds(m, pos, u) for u in units] if holds is not None else None
    placed = set(slots)
    held_slots: set[int] = set()
    if held is not None and any(held):
        held_slots = ({s for s, h in zip(slots, held, strict=True) if h}
                      - {s for s, h in zip(slots, held, strict=True) if not h})
    out: list[list[int] | None] = []
    pair, partners, hold_and_moves = t.pair, t.partners, t.hold_and_moves
    stacked = m.has_open_spaces
    for i in range(len(units)):
        if held is not None and held[i]:
            out.append(None)
            continue
        s = slots[i]
        if closed:  # the supports a unit may give depend on where its partners may go
            out.append(_closed_unit(m, t, pos, i, s, closed, held_slots, held))
            continue
        codes = list(hold_and_moves[s])
        mine = pair[s]
        for p in partners[s] & placed:
            if p in held_slots:
                c = t.sh_code[s].get(p)
                if c is not None:
                    codes.append(c)
            else:
                codes.extend(mine[p])
        if stacked and s in mine:
            # in an open space, another unit of the same kind stands on the same place
            if any(slots[j] == s and j != i and not (held and held[j])
                   for j in range(len(units))):
                codes.extend(c for c in mine[s] if c >= t.support_move)
        out.append(codes)
    seas = convoy_seas(m, units, pos)
    if seas:
        _add_convoys(m, t, pos, slots, held, closed, seas, out)
    return out


def _closed_unit(m: Map, t: OrderTable, pos: Position, i: int, s: int, closed: Closed,
                 held_slots: set[int], held: list[bool] | None) -> list[int]:
    """The orders of a unit where a rule closes passages (rules/controlled_passages.py): its
    moves, and supports into where both it and the supported unit may go now."""
    u = pos.units[i]
    k, loc = u.kind, u.loc
    codes = [s] + [t.move_code(s, d) for d in move_locs(m, k, loc, u.power, closed)]
    mine = support_reach(m, k, loc, u.power, closed)
    own = m.loc_prov[loc]
    # the partners, one unit per slot; of the ordered unit's own slot (an open space), one
    # that takes orders
    at = {t.slot_of[v.kind][v.loc]: v for j, v in enumerate(pos.units)
          if j != i and not (v.kind == k and v.loc == loc and held and held[j])}
    for p in sorted(at):
        v = at[p]
        vp = m.loc_prov[v.loc]
        if p == s and not m.open_space[own]:
            continue
        if vp in mine and vp != own:
            codes.append(t.sh_code[s][p])
        if p in held_slots:
            continue
        theirs = support_reach(m, v.kind, v.loc, v.power, closed)
        for q in sorted(theirs & mine):
            if q != own and q != vp:
                codes.append(t.sm_code[(s, p, q)])
    return codes


def _add_convoys(m: Map, t: OrderTable, pos: Position, slots: list[int],
                 held: list[bool] | None, closed: Closed, seas: frozenset[int],
                 out: list[list[int] | None]) -> None:
    """Convoyed moves ("VIA"), supports of moves only a convoy makes, and convoys."""
    g = geometry(m, seas)
    loc_prov = m.loc_prov
    units = pos.units
    # armies that may be convoyed: (unit index, province, destinations)
    armies: list[tuple[int, int, list[int]]] = []
    for i, u in enumerate(units):
        k = u.kind
        p = loc_prov[u.loc]
        if not m.kind_convoyed[k] or (held and held[i]):
            continue
        reach = g.reach(p) & m.occupy_mask[k]
        if not reach:
            continue
        dests = bits(reach)
        if closed and closed.get(u.power):
            dests = [q for q in dests if not shut(closed, u.power, k, p, q)]
        if dests:
            armies.append((i, p, dests))
    if not armies:
        return
    # moves there that no army could make without a convoy: destination -> (army, origin)
    into: dict[int, list[tuple[int, int]]] = {}
    via, n_dest, army_index, dest_index = t.via, t.n_dest, t.army_index, t.dest_index
    n_army = t.n_army
    for i, p, dests in armies:
        a = slots[i]
        codes = out[i]
        base = via + army_index[a] * n_dest
        if codes is not None:
            codes.extend([base + dest_index[q] for q in dests])
        direct = m.reach_prov[units[i].kind][units[i].loc]
        for q in dests:
            if q not in direct:
                into.setdefault(q, []).append((a, p))
    # supports of those moves, not only by a convoy through the supporter (DATC 6.D.31)
    if into:
        for i, u in enumerate(units):
            codes = out[i]
            if codes is None:
                continue
            s = slots[i]
            p = loc_prov[u.loc]
            if closed and closed.get(u.power):
                mine = support_reach(m, u.kind, u.loc, u.power, closed)
            else:
                mine = m.reach_prov[u.kind][u.loc]
            targets = t.reach_list[s]
            for r in range(len(targets)):
                q = targets[r]
                if q in into and q != p and q in mine:
                    base = t.support_convoyed + (t.sr_off[s] + r) * n_army
                    for a, ap in into[q]:
                        if ap != p and g.route_without(ap, q, p):
                            codes.append(base + army_index[a])
    # convoys: a fleet necessary for some route of the army (DATC 4.E.1, 6.G.19)
    fleet_at: dict[int, list[int]] = {}
    fleets = 0
    for i, u in enumerate(units):
        p = loc_prov[u.loc]
        if out[i] is not None and m.kind_convoys[u.kind] and p in seas:
            fleet_at.setdefault(p, []).append(i)
            fleets |= 1 << p
    if not fleets:
        return
    convoy, fleet_index = t.convoy, t.fleet_index
    for i, p, dests in armies:
        a = army_index[slots[i]]
        for q in dests:
            nec = necessary_mask(m, p, q, seas, g) & fleets
            while nec:
                low = nec & -nec
                nec ^= low
                for f in fleet_at[low.bit_length() - 1]:
                    code = convoy + (fleet_index[slots[f]] * n_army + a) * n_dest + dest_index[q]
                    out[f].append(code)  # type: ignore[union-attr]


def retreat_codes(m: Map, pos: Position, t: OrderTable | None = None) -> list[list[int]]:
    """Per dislodged unit, the codes of its legal orders: its retreats, then disband."""
    if t is None:
        t = order_table(m)
    out = []
    for d in pos.dislodged:
        s = t.slot_of[d.kind][d.loc]
        out.append([t.retreat_code(s, r) for r in d.retreats] + [t.disband + s])
    return out


def build_codes(m: Map, pos: Position, power: int, t: OrderTable | None = None
                ) -> list[tuple[int, list[int]]]:
    """(build site, codes of the builds there and WAIVE) for a power that may build."""
    if t is None:
        t = order_table(m)
    out = []
    for prov in build_sites(m, pos, power):
        codes = []
        for k in range(len(m.kinds)):
            if m.rules and not m.rules.may_build(m, pos, power, k, prov):
                continue
            if m.kind_coastal[k] and m.prov_coast_locs[prov]:
                locs = [c for c in m.prov_coast_locs[prov] if m.occupy[k][c]]
            else:
                locs = [prov] if m.occupy[k][prov] else []
            codes += [t.build + t.slot_of[k][c] for c in locs]
        out.append((prov, [*codes, t.waive]))
    return out
