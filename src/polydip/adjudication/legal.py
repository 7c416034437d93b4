"""Legal orders of a position: as codes of the map's order table (orders/table.py), and as
order strings in the diplomacy package's notation built from them.

"Legal" follows DATC 4.E.1: an order that could be valid given the units on the board —
convoys and convoyed moves need a chain of fleets on the board, a support of a convoyed move
must not need the supporting fleet itself (6.D.31), a convoying fleet must be necessary for
some route (6.G.19). The checks are those the adjudicator applies
(adjudication/legality.py): every order listed here is accepted by it, and every order it
accepts is listed (tests/adjudication/test_legality.py checks both on random positions of
every variant).
Units a rule holds (neutral units) have no orders; passages a rule closes are left out, and
so are moves a rule forbids a unit now (`move_limits`) and supports the map's rules forbid
(RuleTables.support_reach, RuleTables.no_hold_support).

Speed: what depends only on the map is in the order table — a unit's hold and moves, and for
each pair of unit slots the supports one may give the other, as codes and as texts — so a
position costs a lookup per pair of neighbouring units (the string lists are extended with
the table's texts, `movement_texts`), and the convoys. What an army may do by convoy depends
only on its slot and the fleet components next to it (`ArmyConvoys`, kept per map under
that key, so positions whose fleets changed elsewhere reuse it; answered from the convoy
geometry, adjudication/convoy.py). Rules that close passages or limit moves for a turn
take a slower path per unit (`_special_unit`); the standard game never does.

Orders that exist only where a rule adds them — attacks in attack spaces (orders/attack.py),
a move to another coast of the unit's own province (`RuleTables.coast_change`), what a rule adds
for a unit (`more_orders`: anchor markers), supports between units of different kinds
sharing an open space, and adjustment orders in place of builds (`more_adjustments`: canal
building) — are not in the order table: the string lists get them from `variant_orders`
and the adjustment branch; the integer fast path does not list them (docs/fastpath.md).
The exception is an act in place the table holds (family ACT: a fleet's or flotilla's
CONVERT where it stands): movement codes list it where the rule's `more_orders` does
(`_add_acts`).
"""

from __future__ import annotations

from polydip.adjudication.adjustments import adjustment_counts, build_sites
from polydip.adjudication.convoy import (
    FleetGeometry,
    bits,
    geometry,
    route_exists_mask,
    routes_and_necessary,
)
from polydip.adjudication.legality import (
    Closed,
    Limits,
    closed_passages,
    convoy_seas,
    limited,
    may_support_hold,
    move_limits,
    move_locs,
    support_reach,
)
from polydip.geography.cache import MEMO_LIMIT, room
from polydip.geography.map import Map
from polydip.orders.attack import attack_orders, rivals, space_supports
from polydip.orders.table import OrderTable, order_table
from polydip.state import Position, Unit


def legal_orders(m: Map, pos: Position, power: int | None = None,
                 options: dict | None = None) -> dict[str, list[str]]:
    """Unit (or build site) → list of legal orders, for one power or all."""
    t = order_table(m)
    texts = t.texts
    out: dict[str, list[str]] = {}
    typ = pos.phase.type
    if typ == "M":
        slot_text, slot_of = t.slot_text, t.slot_of
        # (one list per unit; indexed, not zipped: the compiled build calls zip(strict=)
        # as a Python builtin)
        units = pos.units
        lists = movement_texts(m, pos, options, t)
        for i in range(len(units)):
            u, lst = units[i], lists[i]
            if lst is not None and (power is None or u.power == power):
                out[slot_text[slot_of[u.kind][u.loc]]] = lst
        if has_variant_orders(m):
            variant_orders(m, pos, power, options, out)
    elif typ == "R":
        dislodged = pos.dislodged
        per_unit = retreat_codes(m, pos, t)
        for i in range(len(dislodged)):
            d, codes = dislodged[i], per_unit[i]
            if power is None or d.power == power:
                out[t.slot_text[t.slot_of[d.kind][d.loc]]] = [texts[c] for c in codes]
    else:
        _adjustment_texts(m, pos, power, t, out)
    return out


def _adjustment_texts(m: Map, pos: Position, power: int | None, t: OrderTable,
                      out: dict[str, list[str]]) -> None:
    """An adjustment phase's legal orders: builds at each site of a power that builds,
    disbands of each unit of one that removes, and what the rules add (a canal build)."""
    texts = t.texts
    counts = adjustment_counts(m, pos)
    rules = m.rules
    for pw in range(len(m.powers)) if power is None else [power]:
        if counts[pw] > 0:
            for prov, codes in build_codes(m, pos, pw, t):
                out[m.prov_abbr[prov]] = [texts[c] for c in codes]
        elif counts[pw] < 0:
            for u in pos.units:
                if u.power == pw:
                    s = t.slot_of[u.kind][u.loc]
                    out[t.slot_text[s]] = [texts[t.disband + s]]
        if counts[pw] > 0:  # in place of a build (a canal build)
            for place, lst in rules.more_adjustments(m, pos, pw).items():
                have = out.setdefault(place, [])
                have.extend(x for x in lst if x not in have)


def has_variant_orders(m: Map) -> bool:
    """Whether the map has movement orders beyond its order table (see the module doc)."""
    return bool(m.tables.has_attack_spaces or m.tables.coast_change or _mixed_open_spaces(m)
                or m.rules.implements("more_orders"))


def _mixed_open_spaces(m: Map) -> bool:
    """Whether units of two kinds may share an open space (LAD's oceans: fleets and
    flotillas), the only case where open spaces add orders beyond the table; War in North
    America's Cape Horn holds fleets alone, so its legal orders skip the extra pass."""
    if not m.tables.has_open_spaces:
        return False
    kinds = range(len(m.kinds))
    return any(sum(1 for k in kinds if m.occupy[k][p]) > 1
               for p in range(m.n_prov) if m.tables.open_space[p])


def variant_orders(m: Map, pos: Position, power: int | None, options: dict | None,
                    out: dict[str, list[str]]) -> None:
    """Add to `out` the movement orders of the module doc's list."""
    closed = closed_passages(m, pos, options or {})
    limits = move_limits(m, pos)
    holds = m.rules.unit_holds
    free = [u for u in pos.units if not holds(m, pos, u)]
    near = rivals(m, pos.units) if m.tables.has_attack_spaces else {}
    for u in free:
        if power is not None and u.power != power:
            continue
        k, loc = u.kind, u.loc
        p = m.loc_prov[loc]
        us = m.unit_str(k, loc)
        extra: list[str] = []
        extra += m.rules.more_orders(m, pos, u, us)
        if m.tables.coast_change and (k, loc) in m.tables.coast_change:
            extra += [f"{us} - {m.loc_name[c]}" for c in m.tables.coast_change[(k, loc)]]
        if m.tables.open_space[p]:  # units of other kinds on the same place
            mine = support_reach(m, k, loc, u.power, closed)
            for v in free:
                if v is not u and v.loc == loc and v.kind != k:
                    them = m.unit_str(v.kind, v.loc)
                    extra += [f"{us} S {them} - {m.prov_abbr[q]}"
                              for q in sorted(_moves_into(m, v, closed, limits) & mine)
                              if q != p]
        if m.tables.has_attack_spaces:
            dests = [d for d in move_locs(m, k, loc, u.power, closed)
                     if not limited(limits, u.power, k, loc, m.loc_prov[d])]
            extra += attack_orders(m, u, us, dests, near)
            if m.tables.attack_space[p]:
                extra += space_supports(m, u, us, free,
                                        lambda v: _moves_into(m, v, closed, limits),
                                        lambda kind, prov: may_support_hold(m, kind, prov))
        if extra:
            have = out.setdefault(us, [])
            seen = set(have)
            for o in extra:
                if o not in seen:
                    seen.add(o)
                    have.append(o)


class _Turn:
    """What a movement position's legal orders depend on beyond the map: the passages
    closed and the moves limited now, the units' slots, the units a rule holds."""

    __slots__ = ("closed", "held", "held_slots", "limits", "slots")

    def __init__(self, m: Map, t: OrderTable, pos: Position, options: dict | None) -> None:
        self.closed: Closed = closed_passages(m, pos, options or {})
        self.limits: Limits = move_limits(m, pos)
        units = pos.units
        slot_of = t.slot_of
        self.slots: list[int] = [slot_of[u.kind][u.loc] for u in units]
        # units a rule holds: no orders of their own, supported only in holding, never
        # convoyed (None: the rules hold none)
        self.held: list[bool] | None = None
        if m.rules.implements("unit_holds"):
            self.held = [m.rules.unit_holds(m, pos, u) for u in units]
        self.held_slots: set[int] = set()
        held, slots = self.held, self.slots
        if held is not None and any(held):
            self.held_slots = ({s for s, h in zip(slots, held, strict=True) if h}
                               - {s for s, h in zip(slots, held, strict=True) if not h})

    def plain(self, m: Map) -> bool:
        """Whether every unit's orders but its convoys are read from the order table as
        they are: nothing closed or limited now, no unit held, no open space."""
        return not (self.closed or self.limits or self.held_slots or m.tables.has_open_spaces)


def movement_codes(m: Map, pos: Position, options: dict | None = None,
                   t: OrderTable | None = None) -> list[list[int] | None]:
    """Per unit of `pos.units`, the codes of its legal orders (None: a unit a rule holds,
    which takes no orders)."""
    if t is None:
        t = order_table(m)
    turn = _Turn(m, t, pos, options)
    closed, limits, held, held_slots = turn.closed, turn.limits, turn.held, turn.held_slots
    slots = turn.slots
    units = pos.units
    out: list[list[int] | None] = []
    pair, hold_and_moves, sh_legal = t.pair, t.hold_and_moves, t.sh_legal
    partner_items = t.partner_items
    stacked = m.tables.has_open_spaces
    by_slot: dict[int, list[int]] | None = None  # (for _special_unit, made on first use)
    reach_of: dict[int, frozenset[int]] = {}
    # per slot: 0 empty, 1 a unit taking orders, 2 only units a rule holds
    occupied = _occupancy(t, slots, held_slots)
    for i in range(len(units)):
        if held is not None and held[i]:
            out.append(None)
            continue
        s = slots[i]
        if closed or limits:  # the supports a unit may give depend on where its partners
            # may go now
            if by_slot is None:
                by_slot, reach_of = _movers(t, units, held), {}
            out.append(_special_unit(m, t, pos, i, s, closed, limits, held_slots, by_slot,
                                     reach_of))
            continue
        codes = list(hold_and_moves[s])
        for p, supports in partner_items[s]:
            here = occupied[p]
            if here == 1:
                codes.extend(supports)
            elif here == 2:
                c = sh_legal[s].get(p)
                if c is not None:
                    codes.append(c)
        mine = pair[s]
        if stacked and s in mine:
            # in an open space, another unit of the same kind stands on the same place
            if any(slots[j] == s and j != i and not (held and held[j])
                   for j in range(len(units))):
                codes.extend(c for c in mine[s] if c >= t.support_move)
        out.append(codes)
    seas = convoy_seas(m, units, pos)
    if seas:
        _add_convoys(m, t, pos, slots, held, closed, limits, seas, out)
    if t.act_items:
        _add_acts(m, t, pos, out)
    return out


def _add_acts(m: Map, t: OrderTable, pos: Position, out: list[list[int] | None]) -> None:
    """Add to each unit's codes the acts in place of the table's ACT family (anchor markers'
    CONVERT) that the map's rules list for it now (`more_orders`)."""
    act_code, slot_of = t.act_code, t.slot_of
    for i, u in enumerate(pos.units):
        codes = out[i]
        if codes is None:
            continue
        s = slot_of[u.kind][u.loc]
        for x in m.rules.more_orders(m, pos, u, t.slot_text[s]):
            head, _, act = x.rpartition(" ")
            c = act_code.get((s, act.lower()), -1) if head == t.slot_text[s] else -1
            if c >= 0 and c not in codes:
                codes.append(c)


def movement_texts(m: Map, pos: Position, options: dict | None, t: OrderTable
                   ) -> list[list[str] | None]:
    """movement_codes as order strings. Where the order table's lists serve as they are
    (`_Turn.plain`), a unit's hold, moves and supports are read from its lists of texts
    (no code is looked up) and only the convoys' codes are turned into strings."""
    turn = _Turn(m, t, pos, options)
    texts = t.texts
    if not turn.plain(m):
        return [None if codes is None else [texts[c] for c in codes]
                for codes in movement_codes(m, pos, options, t)]
    held, slots = turn.held, turn.slots
    units = pos.units
    partner_text_items, hm_texts = t.partner_text_items, t.hold_and_moves_texts
    occupied = _occupancy(t, slots, turn.held_slots)
    out: list[list[str] | None] = []
    for i in range(len(units)):
        if held is not None and held[i]:
            out.append(None)
            continue
        s = slots[i]
        lst = list(hm_texts[s])
        for p, supports in partner_text_items[s]:
            if occupied[p]:
                lst.extend(supports)
        out.append(lst)
    seas = convoy_seas(m, units, pos)
    if seas:
        _add_convoys(m, t, pos, slots, held, turn.closed, turn.limits, seas, None, out)
    return out


def _occupancy(t: OrderTable, slots: list[int], held_slots: set[int]) -> list[int]:
    """Per slot of the table: 0 no unit, 1 a unit taking orders, 2 only units a rule
    holds (supported in holding only)."""
    occupied = [0] * t.n_slots
    for s in slots:
        occupied[s] = 1
    for s in held_slots:
        occupied[s] = 2
    return occupied


def _movers(t: OrderTable, units: list[Unit], held: list[bool] | None
            ) -> dict[int, list[int]]:
    """The units taking orders, by slot (several on one slot in an open space)."""
    by_slot: dict[int, list[int]] = {}
    slot_of = t.slot_of
    for j, v in enumerate(units):
        if not (held and held[j]):
            by_slot.setdefault(slot_of[v.kind][v.loc], []).append(j)
    return by_slot


def _special_unit(m: Map, t: OrderTable, pos: Position, i: int, s: int, closed: Closed,
                  limits: Limits, held_slots: set[int], by_slot: dict[int, list[int]],
                  reach_of: dict[int, frozenset[int]]) -> list[int]:
    """The orders of a unit where a rule closes passages (rules/controlled_passages.py) or
    lets units move only to some provinces now (`move_limits`): its moves, and supports into
    where both it and the supported unit may go now.

    Only the slots the order table pairs with this unit's (`partners`, and its own in an
    open space) can be supported at all: closed passages and limits only take supports
    away. `by_slot`: the units taking orders by slot (_movers); `reach_of`: where each unit
    may move now, filled as it is first needed (shared by every unit of the phase)."""
    units = pos.units
    u = units[i]
    k, loc = u.kind, u.loc
    loc_prov = m.loc_prov
    codes = [s] + [t.move_code(s, d) for d in move_locs(m, k, loc, u.power, closed)
                   if not limited(limits, u.power, k, loc, loc_prov[d])]
    mine = support_reach(m, k, loc, u.power, closed)
    own = loc_prov[loc]
    sm_code = t.sm_code()
    open_here = m.tables.open_space[own]
    candidates = (held_slots | by_slot.keys()) & (t.partners[s] | {s} if open_here
                                                   else t.partners[s])
    for p in sorted(candidates):
        others = [j for j in by_slot.get(p, ()) if j != i]
        if p == s and not others:
            continue
        pk, ploc = t.slots[p]
        vp = loc_prov[ploc]
        if vp in mine and vp != own and may_support_hold(m, pk, vp):
            codes.append(t.sh_code[s][p])
        if p in held_slots:
            continue
        theirs: set[int] = set()
        for j in others:
            r = reach_of.get(j)
            if r is None:
                r = reach_of[j] = _moves_into(m, units[j], closed, limits)
            theirs |= r
        for q in sorted(theirs & mine):
            if q != own and q != vp:
                codes.append(sm_code[(s, p, q)])
    return codes


def _moves_into(m: Map, v: Unit, closed: Closed, limits: Limits) -> frozenset[int]:
    """The provinces unit `v` may move into over an edge now."""
    if closed and closed.get(v.power):
        reach = frozenset(m.loc_prov[d] for d in move_locs(m, v.kind, v.loc, v.power, closed))
    else:
        reach = m.reach_prov[v.kind][v.loc]
    allowed = limits.get((v.power, v.kind, v.loc)) if limits else None
    return reach if allowed is None else reach & allowed


def _add_convoys(m: Map, t: OrderTable, pos: Position, slots: list[int],
                 held: list[bool] | None, closed: Closed, limits: Limits,
                 seas: frozenset[int], out: list[list[int] | None] | None,
                 tout: list[list[str] | None] | None = None) -> None:
    """Convoyed moves ("VIA"), supports of moves only a convoy makes, and convoys: their
    codes added to each unit's list in `out`, or their texts to `tout` (then `out` is
    None).

    What an army may do by convoy depends only on its slot and on the fleets of the
    components next to it (`ArmyConvoys`): that is kept per map, so a new position costs a
    lookup per army next to a fleet, and list extensions."""
    g = geometry(m, seas)
    armies, fleet_at = _convoyable(m, t, pos, slots, held, limits, g)
    if not armies:
        return
    for i, e in armies:  # the moves via convoy
        if tout is not None:
            lst = tout[i]
            assert lst is not None  # (a unit taking orders; inline: a call a unit counts)
            lst.extend(e.via_texts(t))
        else:
            got = out[i] if out is not None else None
            assert got is not None
            got.extend(e.via)
    # the supports of the moves no army could make without a convoy, not only by a convoy
    # through the supporter (DATC 6.D.31)
    if not closed and not m.tables.has_open_spaces:
        _add_convoyed_supports_by_army(m, t, slots, held, armies, out, tout)
    else:
        into = _convoy_only_moves(m, pos, armies, closed)
        if into:
            _add_convoyed_supports(m, t, pos, slots, held, closed, g.fmask, into, out, tout)
    # convoys: a fleet necessary for some route of the army (DATC 4.E.1, 6.G.19)
    _add_fleet_convoys(t, slots, armies, fleet_at, out, tout)


def _convoyable(m: Map, t: OrderTable, pos: Position, slots: list[int],
                held: list[bool] | None, limits: Limits, g: FleetGeometry
                ) -> tuple[list[tuple[int, ArmyConvoys]], dict[int, list[int]]]:
    """The armies that may be convoyed: (unit index, what it may do by convoy); the fleets
    that may convoy, by province."""
    fmask = g.fmask
    loc_prov = m.loc_prov
    touch = m.convoy_touch_mask
    comp_mask, comp_shore = g.comp_mask, g.comp_shore
    cache: dict[tuple[int, int, int], ArmyConvoys] = m.caches.army_convoys
    units = pos.units
    army_index, fleet_index = t.army_index, t.fleet_index
    armies: list[tuple[int, ArmyConvoys]] = []
    fleet_at: dict[int, list[int]] = {}
    for i in range(len(units)):
        if held and held[i]:
            continue
        s = slots[i]
        if fleet_index[s] >= 0:
            fp = t.slot_prov[s]
            here = fleet_at.get(fp)
            if here is None:
                fleet_at[fp] = [i]
            else:
                here.append(i)
        if army_index[s] < 0:
            continue
        u = units[i]
        k = u.kind
        o = loc_prov[u.loc]
        near = touch[o] & fmask
        if not near:
            continue
        comp = shore = 0
        for c in range(len(comp_mask)):
            if near & comp_mask[c]:
                comp |= comp_mask[c]
                shore |= comp_shore[c]
        # (the fleets standing in its province or on a shore it could reach change which
        # search finds the routes: kept apart)
        key = (s, comp, fmask & (shore | 1 << o))
        e = cache.get(key)
        if e is None:
            if len(cache) > 10_000:  # bound the memory of long simulations (a few KB each)
                cache.clear()
            e = cache[key] = _army_convoys(m, t, g, s, o, comp)
        if not e.dests:
            continue
        if limits and (u.power, k, u.loc) in limits:
            # (a passage closed to it is no bar: a convoy does not cross it)
            keep = [j for j, q in enumerate(e.dests) if not limited(limits, u.power, k, u.loc, q)]
            if not keep:
                continue
            e = ArmyConvoys(t, s, o, comp, [e.dests[j] for j in keep],
                            [e.nec[j] for j in keep], [e.routes[j] for j in keep])
        armies.append((i, e))
    return armies, fleet_at


def _convoy_only_moves(m: Map, pos: Position, armies: list[tuple[int, ArmyConvoys]],
                       closed: Closed) -> dict[int, list[ArmyConvoys]]:
    """The moves via convoy that no army could make without a convoy: destination -> the
    convoys of the armies that may make them."""
    units = pos.units
    into: dict[int, list[ArmyConvoys]] = {}
    for i, e in armies:
        if closed:  # a move over an edge closed to it now could only be made by convoy
            direct = _moves_into(m, units[i], closed, {})
            far = tuple([q for q in e.dests if q not in direct])
        else:
            far = e.far
        for q in far:
            there = into.get(q)
            if there is None:
                into[q] = [e]
            else:
                there.append(e)
    return into


def _add_convoyed_supports(m: Map, t: OrderTable, pos: Position, slots: list[int],
                           held: list[bool] | None, closed: Closed, fmask: int,
                           into: dict[int, list[ArmyConvoys]],
                           out: list[list[int] | None] | None,
                           tout: list[list[str] | None] | None) -> None:
    """Supports of the moves only a convoy makes, by every unit that may support there."""
    units = pos.units
    loc_prov = m.loc_prov
    into_mask = 0
    for q in into:
        into_mask |= 1 << q
    sc_mask, sc_base, n_prov = t.sc_mask, t.sc_base, m.n_prov
    for i in range(len(units)):
        s = slots[i]
        targets = sc_mask[s] & into_mask
        if not targets or (held and held[i]):
            continue
        codes: list[int] = []
        u = units[i]
        p = loc_prov[u.loc]
        on_route = fmask >> p & 1  # a fleet that may be on the routes
        mine = support_reach(m, u.kind, u.loc, u.power, closed) if closed else None
        bases = sc_base[s]
        while targets:
            low = targets & -targets
            targets ^= low
            q = low.bit_length() - 1
            if mine is not None and q not in mine:
                continue
            base = bases[q]
            if not on_route:
                codes.extend([base + e.a for e in into[q] if e.origin != p])
                continue
            wkey = q * n_prov + p
            for e in into[q]:
                if e.origin != p:
                    w = e.without
                    ok = w.get(wkey) if w is not None else None
                    if ok is None:
                        ok = e.route_without(m, q, p)
                    if ok:
                        codes.append(base + e.a)
        if not codes:
            continue
        if tout is not None:
            _texts_of(tout, i).extend([t.sc_text(c) for c in codes])
        else:
            _codes_of(out, i).extend(codes)


def _add_convoyed_supports_by_army(m: Map, t: OrderTable, slots: list[int],
                                   held: list[bool] | None,
                                   armies: list[tuple[int, ArmyConvoys]],
                                   out: list[list[int] | None] | None,
                                   tout: list[list[str] | None] | None) -> None:
    """_add_convoyed_supports where no passage is closed and a slot holds one unit at most:
    which slot may support which of an army's convoyed moves depends only on the army's
    ArmyConvoys (kept with it per map): a position costs, per army, a look at each slot
    that could support one of them (`ArmyConvoys.supporters`) and a list extension per
    unit there (`supports`, made when a unit first stands there)."""
    unit_at = [-1] * t.n_slots
    for i in range(len(slots)):
        if not (held and held[i]):
            unit_at[slots[i]] = i
    for _i, e in armies:
        sups = e.supporters
        for j in range(len(sups)):
            i = unit_at[sups[j]]
            if i < 0:
                continue
            if tout is not None:
                kept = e.support_texts
                texts = kept[j] if kept is not None else None
                if texts is None:
                    texts = e.support_text_list(m, t, j)
                if texts:
                    lst = tout[i]
                    assert lst is not None  # (inline: a call a unit counts)
                    lst.extend(texts)
            else:
                made = e.support_codes
                codes = made[j] if made is not None else None
                if codes is None:
                    codes = e.supports(m, t, j)
                if codes:
                    got = out[i] if out is not None else None
                    assert got is not None
                    got.extend(codes)


def _add_fleet_convoys(t: OrderTable, slots: list[int], armies: list[tuple[int, ArmyConvoys]],
                       fleet_at: dict[int, list[int]], out: list[list[int] | None] | None,
                       tout: list[list[str] | None] | None) -> None:
    """Each fleet's convoys of the armies it is necessary to some route of."""
    for _i, e in armies:
        for fp, _dests in e.by_fleet:
            for f in fleet_at.get(fp, ()):
                if tout is not None:
                    lst = tout[f]
                    assert lst is not None  # (inline: a call a fleet counts)
                    lst.extend(e.convoy_texts(t, slots[f]))
                else:
                    got = out[f] if out is not None else None
                    assert got is not None
                    got.extend(e.convoy_codes(t, slots[f]))


def _codes_of(out: list[list[int] | None] | None, i: int) -> list[int]:
    """The list of unit i (one that takes orders) in `_add_convoys`'s codes."""
    assert out is not None
    got = out[i]
    assert got is not None
    return got


def _texts_of(out: list[list[str] | None], i: int) -> list[str]:
    """The list of unit i (one that takes orders) in `_add_convoys`'s texts."""
    got = out[i]
    assert got is not None
    return got


class ArmyConvoys:
    """What an army in one slot may do by convoy with one set of fleet components next to
    it (`comp`, a province bit mask): where it may be convoyed (`dests`, their VIA codes,
    those it could not reach over an edge), which fleets are necessary for each route
    (`nec`; `by_fleet`: per fleet province, the destination indices it may convoy the army
    to), and whether a route avoids a given fleet (`route_without`, kept as asked)."""

    __slots__ = ("_convoy_codes", "_convoy_texts", "_via_texts",
                 "a", "army", "by_fleet", "comp", "dests", "far", "far_set", "nec",
                 "on_routes", "origin", "routes", "support_codes", "support_texts",
                 "supporters", "via", "without")

    def __init__(self, t: OrderTable, army: int, origin: int, comp: int, dests: list[int],
                 nec: list[int], routes: list[int]) -> None:
        m = t.m
        self.army = army
        self.a = t.army_index[army]  # its index among the army slots
        self.origin = origin
        self.comp = comp
        self.dests = dests
        self.nec = nec
        self.routes = routes  # per destination, the fleets on some route (FleetGeometry)
        dest_index = t.dest_index
        base = t.via + t.army_index[army] * t.n_dest
        self.via = [base + dest_index[q] for q in dests]
        k, loc = t.slots[army]
        direct = m.reach_prov[k][loc]
        far: list[int] = []
        self.on_routes: dict[int, int] = {}
        fleets: dict[int, list[int]] = {}
        for j in range(len(dests)):
            q = dests[j]
            if q not in direct:
                far.append(q)
                self.on_routes[q] = routes[j]
            n = nec[j]
            if not n:
                continue
            d = dest_index[q]
            if n & (n - 1):  # several fleets
                for f in bits(n):
                    got = fleets.get(f)
                    if got is None:
                        fleets[f] = [d]
                    else:
                        got.append(d)
            else:  # (most: a single fleet every route needs)
                f = n.bit_length() - 1
                got = fleets.get(f)
                if got is None:
                    fleets[f] = [d]
                else:
                    got.append(d)
        self.by_fleet: list[tuple[int, list[int]]] = sorted(fleets.items())
        self.without: dict[int, bool] | None = None  # (made as first asked, as below)
        # the moves only a convoy makes: who may support them (the slots that may support a
        # move into one of them, but those of its own province, lowest first), and by slot
        # the codes and texts of those supports (`supports`: made as first asked)
        # (a tuple of ints, which the cyclic collector stops walking; no int mask: masks
        # past 30 provinces cost an allocation per operation)
        self.far: tuple[int, ...] = tuple(far)
        self.far_set = frozenset(far)
        supporters: set[int] = set()
        into = t.sc_into_slots
        for q in far:
            supporters.update(into[q])
        supporters.difference_update(t.prov_slots[origin])
        self.supporters = sorted(supporters)
        # (lists beside `supporters`, None until asked: no dictionary, and fewer objects for
        # the cyclic collector to walk in a long simulation; the texts' list made when the
        # texts are first asked)
        self.support_codes: list[tuple[int, ...] | None] | None = None
        self.support_texts: list[tuple[str, ...] | None] | None = None
        self._via_texts: list[str] | None = None
        self._convoy_texts: dict[int, list[str]] | None = None
        self._convoy_codes: dict[int, list[int]] | None = None

    def via_texts(self, t: OrderTable) -> list[str]:
        """The texts of `via` (made once; each kept per code in the table's texts, made
        there as `t.text` would, without its family lookup)."""
        got = self._via_texts
        if got is None:
            texts = t.texts  # (kept per code: the same move comes with other fleets)
            got = []
            dests = self.dests
            for j in range(len(dests)):
                c = self.via[j]
                x = texts.get(c)
                if x is None:
                    x = texts[c] = t.via_text(self.army, dests[j])
                got.append(x)
            self._via_texts = got
        return got

    def _fleet_dests(self, t: OrderTable, fleet: int) -> list[int]:
        """The destination indexes the fleet in slot `fleet` may convoy this army to."""
        fp = t.slot_prov[fleet]
        for p, dests in self.by_fleet:
            if p == fp:
                return dests
        return []

    def convoy_codes(self, t: OrderTable, fleet: int) -> list[int]:
        """The codes of the convoys of this army by the fleet in slot `fleet` (made once
        per fleet slot)."""
        kept = self._convoy_codes
        if kept is None:
            kept = self._convoy_codes = {}
        got = kept.get(fleet)
        if got is None:
            base = t.convoy + (t.fleet_index[fleet] * t.n_army + self.a) * t.n_dest
            got = kept[fleet] = [base + d for d in self._fleet_dests(t, fleet)]
        return got

    def convoy_texts(self, t: OrderTable, fleet: int) -> list[str]:
        """The texts of the convoys of this army by the fleet in slot `fleet` (made once
        per fleet slot; each kept per code in the table's texts, as `via_texts`)."""
        kept = self._convoy_texts
        if kept is None:
            kept = self._convoy_texts = {}
        got = kept.get(fleet)
        if got is None:
            texts = t.texts  # (kept per code: the same convoy comes with other fleets)
            base = t.convoy + (t.fleet_index[fleet] * t.n_army + self.a) * t.n_dest
            provs = t.dest_provs
            got = []
            for d in self._fleet_dests(t, fleet):
                c = base + d
                x = texts.get(c)
                if x is None:
                    x = texts[c] = t.convoy_text(fleet, self.army, provs[d])
                got.append(x)
            kept[fleet] = got
        return got

    def supports(self, m: Map, t: OrderTable, j: int) -> tuple[int, ...]:
        """The codes of the supports a unit in slot `supporters[j]` may give to this army's
        moves that only a convoy makes, destinations lowest first: all but those a fleet
        every route there needs would give (DATC 6.D.31). Kept in `support_codes`; the
        tuple itself is the map's, per slot, army and destinations (the same supports come
        with many fleet configurations; tuples of ints and strings, which the cyclic
        collector stops walking)."""
        kept = self.support_codes
        if kept is None:
            kept = self.support_codes = [None] * len(self.supporters)
        codes = kept[j] = _support_codes(m, t, self._support_key(m, t, self.supporters[j]))
        return codes

    def support_text_list(self, m: Map, t: OrderTable, j: int) -> tuple[str, ...]:
        """The texts of `supports` (kept in `support_texts`), made from the destinations
        straight: no codes tuple and no memo of the map's (each text is the table's, made
        once per code; a text list is asked once per army's convoys and supporter slot, so
        a memo keyed by the destinations cost more than it saved). The provinces the slot
        may support into (`sc_provs`, a few) are each looked up in `far_set`: no set or
        sorted list is made per call."""
        s = self.supporters[j]
        p = t.slot_prov[s]
        far = self.far_set
        a = self.a
        made = t.sc_texts
        bases = t.sc_base[s]
        got: list[str] = []
        on_route = self.comp >> p & 1  # a fleet that may be on the routes (none other is)
        for q in t.sc_provs[s]:
            if q not in far:
                continue
            if on_route:
                on = self.on_routes[q]
                if on >> p & 1:  # (route_without's quick answers first)
                    if on == 1 << p or not self._route_avoiding(m, q, on, p):
                        continue
                elif not on:
                    continue
            c = bases[q] + a
            x = made.get(c)
            got.append(x if x is not None else t.sc_text(c))
        texts = tuple(got)
        kept = self.support_texts
        if kept is None:
            kept = self.support_texts = [None] * len(self.supporters)
        kept[j] = texts
        return texts

    def _support_key(self, m: Map, t: OrderTable, s: int) -> tuple[int, int, int]:
        """(slot, army index, destinations): what slot s's supports of this army's convoyed
        moves depend on (the destinations it may support into, but those a route needs it
        for, as a province mask)."""
        qs = 0
        for q in t.sc_base[s].keys() & self.far:
            qs |= 1 << q
        p = t.slot_prov[s]
        if self.comp >> p & 1:  # a fleet that may be on the routes (none other is)
            qs = self._not_needing(m, qs, p)
        return (s, self.a, qs)

    def _not_needing(self, m: Map, qs: int, p: int) -> int:
        """The destinations of `qs` (a mask of `far` ones) that some route reaches without
        the fleet in province p (route_without, its quick answers read inline)."""
        keep = 0
        on_routes = self.on_routes
        while qs:
            low = qs & -qs
            qs ^= low
            q = low.bit_length() - 1
            on = on_routes[q]
            if not on >> p & 1:  # not on any route: a route avoids it, if there is one
                if on:
                    keep |= low
            elif on != 1 << p and self.route_without(m, q, p):
                keep |= low
        return keep

    def route_without(self, m: Map, dest: int, p: int) -> bool:
        """Could the fleets convoy the army to `dest` without the fleet in province p?
        (FleetGeometry.route_without: only the fleets of `comp` can be on a route.)"""
        key = dest * m.n_prov + p  # (read inline by _add_convoys)
        kept = self.without
        if kept is None:
            kept = self.without = {}
        got = kept.get(key)
        if got is None:
            on = self.on_routes.get(dest)
            if on is None:
                on = self.routes[self.dests.index(dest)]
            if not on >> p & 1:  # not on any route: a route avoids it, if there is one
                got = on != 0
            elif on == 1 << p:  # the only fleet on any route
                got = False
            else:
                got = self._route_avoiding(m, dest, on, p)
            kept[key] = got
        return got

    def _route_avoiding(self, m: Map, dest: int, on: int, p: int) -> bool:
        """route_without where p is one of several fleets on the routes (`on`) to dest.
        A route without p holds a simple one, whose fleets are all on routes: the search
        walks those alone, and its answer is kept per map under them (convoy_without), for
        every fleet configuration with the same routes to dest."""
        origin = self.origin
        usable = on & ~(1 << p | 1 << origin | 1 << dest)
        memo = m.caches.convoy_without
        wkey = (origin, dest, usable)
        found = memo.get(wkey)
        if found is None:
            found = room(memo, MEMO_LIMIT)[wkey] = route_exists_mask(m, origin, dest, usable)
        return found


def _support_codes(m: Map, t: OrderTable, key: tuple[int, int, int]) -> tuple[int, ...]:
    """The codes of the supports `ArmyConvoys._support_key` names (slot, army index,
    destinations), kept per map."""
    memo = m.caches.convoyed_supports
    codes = memo.get(key)
    if codes is None:  # (finite, but subsets of destinations add up: bounded)
        s, a, qs = key
        bases = t.sc_base[s]
        codes = room(memo, MEMO_LIMIT)[key] = tuple([bases[q] + a for q in bits(qs)])
    return codes


def _army_convoys(m: Map, t: OrderTable, g: FleetGeometry, army: int, origin: int,
                  comp: int) -> ArmyConvoys:
    k = t.slots[army][0]
    dests = bits(g.reach(origin) & m.occupy_mask[k])
    routes, nec = routes_and_necessary(m, origin, dests, g)
    return ArmyConvoys(t, army, origin, comp, dests, nec, routes)


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
    rules = m.rules
    build_at = t.build_at
    out = []
    for prov in build_sites(m, pos, power):
        codes: list[int] = []
        for k, cs in build_at[prov]:
            if rules.may_build(m, pos, power, k, prov) is False:
                continue
            codes.extend(cs)
        codes.append(t.waive)
        out.append((prov, codes))
    return out
