"""What the player's page needs to enter orders by clicking the map (static/mapclick.js):
where each of the power's units is drawn, its legal orders (the picker's very choices, in
notation and in full names) with the provinces each names and the points its line joins,
and, per unit, the order it holds now.

The choices are the picker's (views.numbered_choices): a click only fills the picker's form,
which is submitted as before — the server stays the only judge of an order. Only the
power's own units and choices are here; the page of one link never carries another's.
The places are those of the picture the host serves (render/svg.py, the same layout), so
no new drawing is needed: the shapes to click on are the SVG's own
`.province[data-province]`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from polydip.errors import OrderError, PolydipError
from polydip.game.engine import parse_orders
from polydip.game.game import Game
from polydip.geography.map import Map
from polydip.orders.describe import describe, describe_text, place, unit
from polydip.orders.model import BUILD, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.orders.stacked import numbered, unit_label
from polydip.render.board import load_board
from polydip.render.svg import WIDTH, map_geo, unit_places
from polydip.state import Dislodged, PhaseType, Unit

Point = tuple[float, float]


def _xy(p: Point) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]


def _prov(m: Map, loc: int | None) -> str | None:
    return None if loc is None or loc < 0 else m.prov_abbr[m.loc_prov[loc]]


def _units_of(game: Game) -> Sequence[Unit | Dislodged]:
    """The units a phase orders: the dislodged ones in a retreat phase, else the units."""
    pos = game.position
    return pos.dislodged if pos.phase.type == "R" else pos.units


def _which(m: Map, units: Sequence[Unit | Dislodged], power: int, o: Order,
           taken: set[int]) -> int:
    """The index in `units` of the unit order `o` is for (its number, or the first of the
    power's units in its province not yet given an order), or -1."""
    prov = m.loc_prov[o.loc] if o.loc >= 0 else -1
    if prov < 0:
        return -1
    if o.unit:
        return numbered(m, units, power, o.kind, prov, o.unit)
    for j, u in enumerate(units):
        if (u.power == power and m.loc_prov[u.loc] == prov and j not in taken
                and (o.kind is None or u.kind == o.kind)):
            return j
    return -1


def unit_orders(game: Game, power: int) -> list[dict[str, Any]]:
    """Each unit `power` orders this phase (movement: its units; retreat: its dislodged
    ones), in full names, with the order it holds now in full names (None: no order, it
    holds or, dislodged, is disbanded); [] in an adjustment phase (its builds or removals
    are counted by views.adjustment_due)."""
    m, pos = game.map, game.position
    if pos.phase.type not in ("M", "R"):
        return []
    units = _units_of(game)
    try:
        parsed = parse_orders(m, pos.phase, {power: list(game.orders.get(power, []))})[0]
    except PolydipError:  # orders the host took are readable; a stored oddity shows none
        parsed = {}
    current: dict[int, str] = {}
    for o in parsed.get(power, []):
        if o.type in (BUILD, WAIVE):  # a build ordered with the retreats (LAD's D): no unit's
            continue
        j = _which(m, units, power, o, set(current))
        if j >= 0 and j not in current:
            u = units[j]
            said = describe(m, o, "full", kind=u.kind, loc=u.loc)
            plain = unit(m, u.kind, u.loc)  # named with its number, as the list names it
            current[j] = (_unit_name(m, units, j) + said[len(plain):]
                          if said.startswith(plain) else said)
    return [{"unit": unit_label(m, units, j), "name": _unit_name(m, units, j),
             "order": current.get(j)}
            for j, u in enumerate(units) if u.power == power]


def _unit_name(m: Map, units: Sequence[Unit | Dislodged], j: int) -> str:
    """'Fleet Peru Basin (PBS) #2': the unit in full names, its number when it shares its
    space with others of its power and kind."""
    u = units[j]
    label = unit_label(m, units, j)
    number = label[label.index("#"):] if "#" in label else ""
    return unit(m, u.kind, u.loc) + (" " + number if number else "")


def map_orders(game: Game, power: int, choices: dict[str, list[str]]
               ) -> dict[str, Any] | None:
    """What static/mapclick.js needs for `power` in the current phase: the picture's size,
    the unit symbols' radius, per picker key its unit (full name, where it is drawn: None
    for a build site's choices) and choices (text: the picker's option; full: in words;
    type: the order's letter; to: the province it moves, retreats, builds or supports
    to; aux: the province of the unit it supports or convoys; line: the points its line
    joins), and the full names of the provinces named. None when there is nothing to
    order or the variant has no board (the schematic's layout is too costly for a page
    view: the picker stays)."""
    m, pos = game.map, game.position
    if not choices:
        return None
    try:
        drawn = load_board(m.variant)
        if drawn is None:
            return None
        geo = map_geo(m, drawn, WIDTH)
        places = unit_places(m, geo, pos)
    except PolydipError:
        return None
    typ = pos.phase.type
    units = _units_of(game)
    drawn_at = places.dislodged if typ == "R" else places.units
    every = [(m.loc_prov[u.loc], xy) for u, xy in zip(pos.units, places.units, strict=True)]

    def where_unit(loc: int) -> Point:  # the supported or convoyed unit, else its place
        prov = m.loc_prov[loc]
        return next((xy for p, xy in every if p == prov), geo.loc[loc])

    out_units: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for key, texts in choices.items():
        at: Point | None = None
        name = key
        listed: list[dict[str, Any]] = []
        for text in texts:
            try:
                o = parse_order(m, text, typ)
            except OrderError:  # a variant's own order the reader does not take alone
                listed.append({"text": text, "full": text, "type": "", "to": None,
                               "aux": None, "line": []})
                continue
            j = -1 if o.type == BUILD else _which(m, units, power, o, set())
            if o.type == BUILD and name == key:  # a build site's choices
                name = "Builds in " + place(m, o.loc)
            if at is None and j >= 0:
                at = drawn_at[j]
                name = _unit_name(m, units, j)
            listed.append(_choice(m, geo.loc, o, text, typ, at, where_unit, names))
        out_units.append({"key": key, "name": name, "at": _xy(at) if at else None,
                          "prov": next((c["from"] for c in listed if c.get("from")), None),
                          "choices": listed})
    return {"width": WIDTH, "r": round(geo.unit_r, 1), "phase_type": typ,
            "units": out_units, "names": names}


def _choice(m: Map, geo_loc: Sequence[Point], o: Order, text: str, typ: PhaseType,
            at: Point | None, where_unit: Callable[[int], Point], names: dict[str, str]
            ) -> dict[str, Any]:
    """One choice of the picker, with the provinces it names and the points of its line
    (`geo_loc`: where each location is in the picture)."""
    frm = _prov(m, o.loc)
    to = _prov(m, o.target) if o.target is not None else None
    aux = _prov(m, o.aux_loc)
    if o.type == BUILD:
        to, frm = frm, None
    line: list[list[float]] = []
    if at is not None:
        line.append(_xy(at))
    if aux is not None and o.aux_loc is not None:
        line.append(_xy(where_unit(o.aux_loc)))
    if o.target is not None:
        line.append(_xy(geo_loc[o.target]))
    elif o.type == BUILD:
        line.append(_xy(geo_loc[o.loc]))
    for loc in (o.loc, o.target, o.aux_loc):
        if loc is not None and loc >= 0:
            names[m.prov_abbr[m.loc_prov[loc]]] = m.prov_name[m.loc_prov[loc]]
    return {"text": text, "full": describe_text(m, text, typ), "type": o.type, "from": frm,
            "to": to, "aux": aux, "line": line}
