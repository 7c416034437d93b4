"""Short positions for unit tests below `Game`: a compiled map, a Position written as lines
like "France: A Par, F Bre", and the orders of its units, so a test of one hook or one
decision reads in a few lines.

    m = variant_map("tiny", '[rules.open_spaces]\\nprovinces = ["S"]\\n')
    pos = position(m, "Red: F A1, A A2\\nBlue: F B1")
    mv = movement(m, pos, "F A1 - N2", "A A2 S F A1 - N2")

Positions are read by the engine's own reader (game/positions.py build_position, the one the
one-shot contract uses), so a unit, province or power is written as a player writes it.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from polydip.adjudication.decisions import Movement
from polydip.compile import compile_variant
from polydip.game.positions import build_position
from polydip.geography.map import Map
from polydip.notation import parse_unit
from polydip.orders.model import Order
from polydip.orders.parser import parse_order
from polydip.state import Position
from polydip.variants.loader import load_variant, parse_variant

VARIANTS = Path(__file__).resolve().parents[1] / "variants"  # tiny.toml, terrain.toml, geo.toml


@functools.cache
def variant_map(name: str, rules: str = "", **replace: str) -> Map:
    """The compiled map of a test map of tests/variants (`name`.toml) with `rules` (TOML
    tables such as "[rules.swamps]\\nprovinces = \\"swamp\\"") added and each `replace`
    key of its text replaced by the value, or of a shipped variant when no such file exists
    (then neither may be given). One map per arguments, made once per process: a test's
    fixture returns it with the default (function) scope, which costs nothing and keeps the
    test out of the xdist groups module-scoped fixtures make (tests/conftest.py)."""
    path = VARIANTS / f"{name}.toml"
    if not path.exists():
        assert not rules and not replace, "a shipped variant is used as it is"
        return compile_variant(load_variant(name))
    text = path.read_text()
    for old, new in replace.items():
        assert old in text, old
        text = text.replace(old, new)
    return compile_variant(parse_variant(text + "\n" + rules, f"{name}.toml"))


def power_lines(text: str) -> dict[str, list[str]]:
    """"France: A Par, F Bre" lines (or ';'-separated) as {"France": ["A Par", "F Bre"]}."""
    out: dict[str, list[str]] = {}
    for line in text.replace(";", "\n").splitlines():
        if not line.strip():
            continue
        power, sep, rest = line.partition(":")
        assert sep, f"write 'Power: A Xxx, F Yyy', not {line!r}"
        out.setdefault(power.strip(), []).extend(
            x.strip() for x in rest.split(",") if x.strip())
    return out


def position(m: Map, units: str = "", *, phase: str | None = None,
             centers: str | None = None, dislodged: str = "", year_start: str = "",
             extra: dict[str, Any] | None = None) -> Position:
    """The position with `units` ("Red: F A1, A A2" lines), in `phase` (default the
    variant's first), the centers owned as `centers` says ("Red: A1, N1" lines; default the
    variant's starting owners), `dislodged` units ("Red: A A1 from N2" lines: a retreat
    phase, their retreats worked out) and the owners when the year began (`year_start`)."""
    req: dict[str, Any] = {"units": power_lines(units)}
    if phase is not None:
        req["phase"] = phase
    if centers is not None:
        req["centers"] = power_lines(centers)
    if year_start:
        req["year_start_centers"] = power_lines(year_start)
    if dislodged:
        req["dislodged"] = {
            p: [dict(zip(("unit", "from"), (s.strip() for s in d.split(" from ")), strict=False))
                for d in lst]
            for p, lst in power_lines(dislodged).items()}
    if extra is not None:
        req["extra"] = extra
    return build_position(m, req)


def orders_of(m: Map, pos: Position, *lines: str) -> list[Order | None]:
    """The orders `lines` given to the units of `pos`, in the order of `pos.units` (None:
    no order); each line names its unit as it stands ("A Par - Bur")."""
    out: list[Order | None] = [None] * len(pos.units)
    for line in lines:
        o = parse_order(m, line, pos.phase.type)
        at = [i for i, u in enumerate(pos.units)
              if m.loc_prov[u.loc] == m.loc_prov[o.loc] and (o.kind is None or u.kind == o.kind)]
        assert len(at) == 1, f"no one unit of the position is ordered by {line!r}"
        out[at[0]] = o
    return out


def movement(m: Map, pos: Position, *lines: str, options: dict[str, Any] | None = None
             ) -> Movement:
    """The decisions of the movement phase of `pos` with `lines` ordered (the class the
    adjudicator picks for the map: adjudication/attacks.py's with attack spaces), nothing
    resolved yet: a test asks a decision and reads its answer."""
    from polydip.adjudication.attacks import AttackMovement

    cls = AttackMovement if m.tables.has_attack_spaces else Movement
    return cls(m, list(pos.units), orders_of(m, pos, *lines), options or {}, None, pos)


def unit(m: Map, pos: Position, text: str) -> int:
    """The index in `pos.units` of the unit written `text` ("A Par", "F StP/NC")."""
    kind, at = parse_unit(m, text)
    got = [i for i, u in enumerate(pos.units) if (u.kind, u.loc) == (kind, at)]
    assert len(got) == 1, f"no one unit {text!r} in the position"
    return got[0]


def loc(m: Map, name: str) -> int:
    """The location id of a location name as the map writes it ("STP/NC", "PAR")."""
    return m.loc_index[name]


def prov(m: Map, name: str) -> int:
    """The province id of a province abbreviation as the map writes it ("PAR")."""
    return m.prov_index[name]


def move_key(m: Map, text: str) -> tuple[int, int, int]:
    """A move as the rule tables key it, (kind, from location, to location), from
    "A A1 - B1"."""
    left, _, dest = text.partition(" - ")
    kind, at = parse_unit(m, left)
    return kind, at, m.loc_index[dest.strip().upper()]


def support_key(m: Map, unit_text: str, province: str) -> tuple[int, int, int]:
    """A support as the rule tables key it, (kind, location, province), from "A A0" and
    "A1": a unit of that kind there supporting into that province."""
    kind, at = parse_unit(m, unit_text)
    return kind, at, m.prov_index[province.upper()]
