"""Anchor markers: a fleet that goes up a river becomes a flotilla and leaves its ships behind;
the ships (markers, of no power) are captured, carried, released or sunk.

Latin American Diplomacy (seed 001, rules 6.C-D): "once ordered to proceed to an inland
province by way of a river, a Fleet AUTOMATICALLY becomes a River Flotilla. The GM will leave
an Anchor Marker where the Fleet left behind its large ships" ("F Amapa to Para [becomes R,
Anchor Marker left in Amapa]"). "A River Flotilla which moves into a Coastal Province where an
Anchor Marker has been left may convert into a Fleet by capturing the ships" - entering from
the marker's own coast ("R Trinidad & Tobago to Guyana[sec], convert to Fleet"; "R Guyana
[rib] to Guyana [sec], convert to Fleet"); "The command given must make it clear". "a Fleet
moving into a Coastal Province where an Anchor Marker is located must order capture ships
... the Anchor Marker symbol will travel with that Fleet ... until the Fleet is in a Coastal
Province and orders Release Anchor Marker"; "A fleet may not capture more than one anchor
marker at a time." "TO DESTROY AN ANCHOR MARKER a fleet which has captured, or is in the same
Coastal Province as the Anchor Marker may be ordered to: Sink Additional Ships ... The order
costs one turn". "Armies and River Flotillas may not destroy anchor markers."

[rules.anchors]
fleet = "F"
flotilla = "R"
coast = "coastal"          # tag of the provinces where a fleet releases a marker

The orders (Order.act, orders/parser.py): "F AMP - PRA" (a move only a flotilla could make:
the fleet moves as a flotilla and, if it gets there, stays one, leaving a marker on the place
it left); "F GUY CONVERT" (6.C note 1: "a Fleet may be ordered to convert into a River
Flotilla at any time, but this costs one turn": it holds and, not dislodged, is a flotilla
after the phase, its ships left as a marker where it stands) and "R GUY CONVERT" (a flotilla
standing on a marker takes the ships and is a fleet again, costing the turn too);
"R TRI - GUY/SC CONVERT"; "F GBS - GUY CAPTURE" (or holding: "F GUY CAPTURE");
"F GUY RELEASE"; "F GUY SINK". The markers are Position.extra["anchors"] (place -> how many)
and the fleets carrying one Position.extra["ships"] (fleet -> 1), saved with games and carried
by one-shot requests as "extra". Readings where the seed is silent: a fleet that fails to go
up the river stays a fleet (dislodged on the way, it retreats as a fleet where a fleet may);
a fleet carrying a marker that goes up a river leaves both sets of ships; a carrying fleet
that is disbanded loses the marker with it; a flotilla converts only on the place it enters
(or the coast it crosses to), in the phase it gets there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.adjudication import reasons as R
from polydip.orders.model import HOLD, MOVE
from polydip.rules.base import Rule, register
from polydip.rules.params import Param
from polydip.state import Dislodged, Unit

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.orders.model import Order
    from polydip.state import Position
    from polydip.variants.model import Variant

ACTS = ("convert", "capture", "release", "sink")


@register
class Anchors(Rule):
    name = "anchors"
    summary = (
        "a fleet ordered up a river (a move only a flotilla could make) moves as a flotilla "
        "and, arriving, stays one, leaving an anchor marker where it was; a flotilla entering "
        "a marker's place with `CONVERT` becomes a fleet; `F GUY CONVERT` turns a fleet into "
        "a flotilla in place (it holds; its ships stay as a marker), `R GUY CONVERT` on a "
        "marker turns it back (each costs the turn); fleets `CAPTURE` a marker (one at a "
        "time) and carry it, `RELEASE` it in a coastal province, `SINK` it (costs the turn). "
        "Markers are `Position.extra[\"anchors\"]` (place → count), carried ones "
        "`Position.extra[\"ships\"]` (Latin American Diplomacy 6.C–D)"
    )
    parameters = (
        Param("fleet", "string", "the unit kind that leaves ships behind", default="F",
              refers="unit_kind"),
        Param("flotilla", "string", "the unit kind it becomes", default="R",
              refers="unit_kind"),
        Param("coast", "string", "tag of the provinces where a fleet may release a marker",
              default="coastal", refers="tag"),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.letters = [self.param("fleet"), self.param("flotilla")]
        self.coast = self.param("coast")

    def _kinds(self, m: Map) -> tuple[int, int]:
        return m.kind_index[self.letters[0]], m.kind_index[self.letters[1]]

    # ---- which orders, and how the units move --------------------------------------------

    def _up_river(self, m: Map, unit: Unit | Dislodged, target: int | None) -> bool:
        """A move of a fleet that only a flotilla on its place could make."""
        f, r = self._kinds(m)
        if unit.kind != f or target is None or not m.occupy[r][unit.loc]:
            return False
        p = m.loc_prov[target]
        return p not in m.reach_prov[f][unit.loc] and p in m.reach_prov[r][unit.loc]

    def refuse(self, m: Map, unit: Unit | Dislodged, order: Order,
               pos: Position | None = None) -> str | None:
        if not order.act:
            return None
        f, r = self._kinds(m)
        fleet, flotilla = m.kind_names[f], m.kind_names[r]
        if order.act == "convert" and order.type == HOLD:
            # in place, costing the turn: a fleet becomes a flotilla where one may stand,
            # leaving its ships; a flotilla on an anchor marker takes them (see after_orders)
            if unit.kind == f and not m.occupy[r][unit.loc]:
                return f"a {flotilla} cannot stand in {m.loc_name[unit.loc]}"
            if unit.kind == r and not m.occupy[f][unit.loc]:
                return f"a {fleet} cannot stand in {m.loc_name[unit.loc]}"
            if unit.kind == r and pos is not None and \
                    not pos.extra.get("anchors", {}).get(m.loc_name[unit.loc]):
                return (f"no anchor marker in {m.loc_name[unit.loc]}: a {flotilla} becomes a "
                        f"{fleet} only by taking the ships left there")
            if unit.kind not in (f, r):
                return f"only a {fleet} or a {flotilla} converts"
        elif order.act == "convert" and (unit.kind != r or order.type != MOVE):
            return f"only a {flotilla} moving to an anchor marker converts into a {fleet}"
        if order.act == "capture" and (unit.kind != f or order.type not in (MOVE, HOLD)):
            return f"only a {fleet} captures an anchor marker"
        if order.act in ("release", "sink") and (unit.kind != f or order.type != HOLD):
            return (f"only a {fleet} that does not move may {order.act} an anchor marker "
                    "(it costs the turn)")
        if order.act == "capture" and self._up_river(m, unit, order.target):
            return f"a {fleet} going up a river cannot capture an anchor marker"
        return None

    def moving_kinds(self, m: Map, pos: Position, orders: list[Order | None]
                     ) -> list[Unit] | None:
        """The units as they move: a fleet ordered up a river moves as a flotilla."""
        r = self._kinds(m)[1]
        out: list[Unit] | None = None
        for i, (u, o) in enumerate(zip(pos.units, orders, strict=True)):
            if o is not None and o.type == MOVE and self._up_river(m, u, o.target):
                if out is None:
                    out = list(pos.units)
                out[i] = Unit(u.power, r, u.loc)
        return out

    # ---- what the phase did to the markers ----------------------------------------------

    def after_orders(self, m: Map, before: Position, after: Position, units: list[Unit],
                     orders: list[Order | None], finals: list[Unit | None]) -> None:
        f, r = self._kinds(m)
        name = m.loc_name
        markers: dict[str, int] = dict(after.extra.get("anchors", {}))
        ships: dict[str, int] = dict(after.extra.get("ships", {}))
        new = list(after.units)

        def swap(old: Unit, to: Unit) -> None:
            new[new.index(old)] = to

        for orig, u, o, fin in zip(before.units, units, orders, finals, strict=True):
            carrying = ships.pop(m.unit_str(f, orig.loc), 0) if orig.kind == f else 0
            if orig.kind == f and u.kind == r:  # it went up a river, or tried to
                if fin is not None and fin.loc != orig.loc:
                    markers[name[orig.loc]] = markers.get(name[orig.loc], 0) + 1 + carrying
                    carrying = 0
                    continue
                if fin is not None:
                    swap(fin, orig)  # it stayed: still a fleet
                    fin = orig
                else:
                    self._fleet_again(m, after, orig)
            if fin is None:  # dislodged: its marker goes with it into the retreat
                if carrying:
                    ships[m.unit_str(f, orig.loc)] = carrying
                continue
            fin, carrying = self._act(m, markers, new, o, orig, fin, carrying)
            if carrying and fin.kind == f:
                ships[m.unit_str(f, fin.loc)] = carrying
        after.units = new
        self._store(after, markers, ships)

    def _act(self, m: Map, markers: dict[str, int], new: list[Unit], o: Order | None, orig: Unit,
             fin: Unit, carrying: int) -> tuple[Unit, int]:
        """Carry out unit `orig`'s act in place (convert, capture, release, sink), now it
        stands as `fin` carrying `carrying` ships: it updates `markers` and `new` (the units
        after the phase), and gives the unit and what it carries after the act."""
        f, r = self._kinds(m)
        act = o.act if o is not None else ""
        here = m.loc_name[fin.loc]
        if act == "convert" and o is not None and o.type == HOLD and fin.loc == orig.loc:
            # "a Fleet may be ordered to convert into a River Flotilla at any time, but
            # this costs one turn": it leaves its ships (and any it carries) here; a
            # flotilla standing on ships takes them and is a fleet again
            if fin.kind == f and m.occupy[r][fin.loc]:
                markers[here] = markers.get(here, 0) + 1 + carrying
                new[new.index(fin)] = Unit(fin.power, r, fin.loc)
                return fin, 0
            if fin.kind == r and markers.get(here) and m.occupy[f][fin.loc]:
                markers[here] -= 1
                new[new.index(fin)] = Unit(fin.power, f, fin.loc)
                fin = Unit(fin.power, f, fin.loc)
        elif act == "convert" and fin.kind == r and fin.loc != orig.loc and markers.get(here):
            markers[here] -= 1
            new[new.index(fin)] = Unit(fin.power, f, fin.loc)
            fin = Unit(fin.power, f, fin.loc)
        elif act == "capture" and fin.kind == f and not carrying and markers.get(here):
            markers[here] -= 1
            carrying = 1
        elif (act == "release" and carrying and fin.loc == orig.loc
              and self._coastal(m, fin.loc)):
            markers[here] = markers.get(here, 0) + carrying
            carrying = 0
        elif act == "sink" and fin.loc == orig.loc:
            if carrying:
                carrying = 0
            elif markers.get(here):
                markers[here] -= 1
        return fin, carrying

    def _fleet_again(self, m: Map, after: Position, orig: Unit) -> None:
        """A fleet dislodged on its way up a river: it retreats as a fleet."""
        f, r = self._kinds(m)
        for j, d in enumerate(after.dislodged):
            if (d.power, d.kind, d.loc) == (orig.power, r, orig.loc):
                fleet_moves = set(m.move_locs[f][orig.loc])
                after.dislodged[j] = Dislodged(d.power, f, d.loc, d.attacker, d.convoyed,
                                               tuple(x for x in d.retreats if x in fleet_moves))
                return

    def after_phase(self, m: Map, before: Position, after: Position,
                    moved: list[tuple[Unit, Unit, bool]]) -> None:
        """Retreats and adjustments: carried markers go with their fleets, and are lost with
        a fleet that is no more."""
        ships = after.extra.get("ships")
        if not ships or before.phase.type == "M":
            return
        f = self._kinds(m)[0]
        ships = dict(ships)
        for old, new, _ in moved:
            key = m.unit_str(old.kind, old.loc)
            if old.kind == f and key in ships:
                ships[m.unit_str(new.kind, new.loc)] = ships.pop(key)
        here = {m.unit_str(u.kind, u.loc) for u in after.units if u.kind == f}
        here |= {m.unit_str(d.kind, d.loc) for d in after.dislodged if d.kind == f}
        self._store(after, dict(after.extra.get("anchors", {})),
                    {k: v for k, v in ships.items() if k in here})

    def _coastal(self, m: Map, loc: int) -> bool:
        return self.coast in m.variant.provinces[m.prov_abbr[m.loc_prov[loc]]].tags

    @staticmethod
    def _store(after: Position, markers: dict[str, int], ships: dict[str, int]) -> None:
        for key, val in (("anchors", markers), ("ships", ships)):
            val = {k: n for k, n in sorted(val.items()) if n > 0}
            if val:
                after.extra[key] = val
            else:
                after.extra.pop(key, None)

    # ---- orders listed, and what players see ----------------------------------------------

    def more_orders(self, m: Map, pos: Position, unit: Unit, us: str) -> list[str]:
        f, r = self._kinds(m)
        markers = pos.extra.get("anchors", {})
        carrying = m.unit_str(unit.kind, unit.loc) in pos.extra.get("ships", {})
        out = []
        if unit.kind == f:
            # up a river: the moves only a flotilla on its place could make
            if m.occupy[r][unit.loc]:
                out += [f"{us} - {m.loc_name[d]}" for d in m.move_locs[r][unit.loc]
                        if self._up_river(m, unit, d)]
                out.append(f"{us} CONVERT")  # into a flotilla in place, costing the turn
            if carrying:
                if self._coastal(m, unit.loc):
                    out.append(f"{us} RELEASE")
                out.append(f"{us} SINK")
            elif markers:
                if markers.get(m.loc_name[unit.loc]):
                    out += [f"{us} CAPTURE", f"{us} SINK"]
                out += [f"{us} - {m.loc_name[d]} CAPTURE" for d in m.move_locs[f][unit.loc]
                        if markers.get(m.loc_name[d])]
        elif unit.kind == r and markers:
            if markers.get(m.loc_name[unit.loc]) and m.occupy[f][unit.loc]:
                out.append(f"{us} CONVERT")  # takes the ships it stands on: a fleet again
            dests = [*m.move_locs[r][unit.loc], *m.tables.coast_change.get((r, unit.loc), ())]
            out += [f"{us} - {m.loc_name[d]} CONVERT" for d in dests
                    if markers.get(m.loc_name[d]) and m.occupy[f][d]]
        return out

    def place_acts(self, m: Map) -> list[tuple[int, int, str]]:
        """The acts in place the order table holds (orders/table.py, family ACT): a fleet's
        or flotilla's CONVERT wherever the other kind may stand too. Whether a unit may
        convert now (a flotilla needs ships to take) is `more_orders`' to say."""
        f, r = self._kinds(m)
        return [(k, loc, "convert") for loc in range(m.n_loc)
                if m.occupy[f][loc] and m.occupy[r][loc] for k in (f, r)]

    def events(self, m: Map, before: Position, after: Position) -> list[R.Reason]:
        """Markers made, captured, released or sunk: read from the markers on the coasts and
        the ones fleets carry, before and after the phase."""
        was, now = before.extra.get("anchors", {}), after.extra.get("anchors", {})
        carried = (sum(after.extra.get("ships", {}).values())
                   - sum(before.extra.get("ships", {}).values()))
        out = []
        for loc in sorted(set(was) | set(now)):
            delta = now.get(loc, 0) - was.get(loc, 0)
            for _ in range(abs(delta)):
                if delta > 0 and carried < 0:
                    carried += 1
                    out.append(R.reason(R.ANCHOR_RELEASED, f"a fleet leaves its anchor marker "
                                                           f"in {loc}"))
                elif delta > 0:
                    out.append(R.reason(R.ANCHOR_MADE, f"an anchor marker is left in {loc} by "
                                                       "a fleet becoming a river flotilla"))
                elif carried > 0:
                    carried -= 1
                    out.append(R.reason(R.ANCHOR_CAPTURED, f"a fleet takes the anchor marker "
                                                           f"in {loc} aboard"))
                else:
                    out.append(R.reason(R.ANCHOR_SUNK, f"the anchor marker in {loc} is used "
                                                       "or sunk"))
        out += [R.reason(R.ANCHOR_SUNK, "an anchor marker a fleet carried is sunk or lost")
                ] * max(0, -carried)
        return out

    def report_lines(self, m: Map, pos: Position) -> list[str]:
        markers = pos.extra.get("anchors", {})
        ships = pos.extra.get("ships", {})
        out = []
        if markers:
            out.append("Anchor markers: " + ", ".join(
                f"{loc}" + (f" x{n}" if n > 1 else "") for loc, n in markers.items()))
        if ships:
            out.append("Fleets carrying an anchor marker: " + ", ".join(ships))
        return out

    def markers(self, m: Map, pos: Position) -> list[tuple[int, str]]:
        out = []
        for loc, n in pos.extra.get("anchors", {}).items():
            if loc in m.loc_index:
                out.append((m.loc_index[loc], "⚓" + (str(n) if n > 1 else "")))
        return out
