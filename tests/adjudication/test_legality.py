"""The legal-order list and the adjudicator agree, on random positions of every variant.

For a movement phase, `legal_orders` lists the orders a player may give (DATC 4.E.1); the
adjudicator marks an order "void" when it is not one of them. The two must say the same:
- every listed order, given in a position where its partner does what it needs (the
  supported unit moves there, the convoyed army goes by convoy and every fleet that may
  convoys it), is accepted: bound to its unit and not void;
- every order the adjudicator accepts — a move of any unit to any place (with or without
  "via convoy", for a kind that may be convoyed), a support of any unit holding or making
  any move it may make, a convoy of any army to any place it may go — is listed.
Orders are compared by what they mean: the unit, where a move ends (its coast), whether it
goes by convoy (a move listed as "A X - Y VIA" is the same as "A X - Y" when Y is not next
to X), and the unit and province a support or convoy names.

Positions are drawn by hypothesis from every shipped variant (discovered, not listed here)
and from the test maps with the rule modules that change what is legal: passages closed by
control (on coasts, over land and sea edges), open spaces, neutral units that always hold,
and the terrain rules (supports forbidden from or across some provinces and borders, moves
that need support, armies that may only go back where they came from — positions on maps
with that rule remember a random origin for some of them).
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polydip.adjudication.legal import legal_orders
from polydip.adjudication.legality import closed_passages, coastless_target, move_target
from polydip.adjudication.movement import resolve_movement
from polydip.compile import compile_map
from polydip.game.engine import MOVEMENT_TYPES, bind_to_units
from polydip.geography.map import Map
from polydip.orders.model import CONVOY, HOLD, MOVE, SUPPORT, Order
from polydip.orders.parser import parse_order
from polydip.state import Phase, Position, Unit
from polydip.variants.loader import builtin_names, load_variant, parse_variant

HERE = Path(__file__).parents[1] / "variants"
TINY_RULES = """
[[powers]]
name = "Neutral"
letter = "N"
neutral = true
units = ["A N1"]
centers = ["N1"]

[rules.neutral_units]

[rules.open_spaces]
provinces = ["S"]

[[rules.controlled_passages.passage]]
name = "Strait"
edges = ["S-T"]
controllers = ["N2", "B1"]
"""
TINY_STRAIT = {
    'sea = ["S-A1", "S-N2", "S-B1", "A1-N2", "N2-B1"]':
    'sea = ["S-A1", "S-N2", "S-B1", "A1-N2", "N2-B1", "S-T", "T-B1"]',
    "[edges]": '[provinces.T]\nname = "Far Sea"\nterrain = "sea"\n\n[edges]',
    "supply_centers = 6\nprovinces = 6": "supply_centers = 6\nprovinces = 7",
}
GEO_RULES = """
[[rules.controlled_passages.passage]]
name = "Duo Strait"
edges = ["DUO/NC-W", "W-E"]
controllers = ["ISL"]

[[rules.controlled_passages.passage]]
name = "Xland Pass"
edges = ["XLD-RV1"]
controllers = ["CAN", "RV2"]
exempt = ["F"]
"""


TERRAIN_RULES = """
[rules.mountains]
provinces = "mountain"
borders = "mountain"
no_support_across = ["F"]

[rules.weak_crossings]
borders = "pass"

[rules.supported_crossings]
borders = "ridge"
seasons = ["S"]

[rules.rainforests]
borders = "rainforest"
no_support_across = ["A"]
provinces = "rainforest"
way_back_only = ["A"]

[rules.swamps]
provinces = "swamp"
kinds = ["A"]

[rules.deserts]
provinces = "desert"

[[rules.vacant_crossings.crossing]]
edges = ["I1-I2"]
while_vacant = "ISEA"
support_kinds = ["F"]
"""


def _tiny() -> str:
    text = (HERE / "tiny.toml").read_text()
    for old, new in TINY_STRAIT.items():
        text = text.replace(old, new)
    return text + TINY_RULES


MAPS: dict[str, Map] = {}


def get_map(name: str) -> Map:
    if name not in MAPS:
        if name == "tiny+rules":
            v = parse_variant(_tiny(), "tiny+rules.toml")
        elif name == "geo+passages":
            v = parse_variant((HERE / "geo.toml").read_text() + GEO_RULES, "geo+passages.toml")
        elif name == "terrain+rules":
            v = parse_variant((HERE / "terrain.toml").read_text() + TERRAIN_RULES,
                              "terrain+rules.toml")
        else:
            v = load_variant(name)
        MAPS[name] = compile_map(v)
    return MAPS[name]


VARIANTS = [*builtin_names(), "tiny+rules", "geo+passages", "terrain+rules"]


MAX_UNITS = 40


def random_position(m: Map, rng: random.Random, density: float) -> Position:
    """Units on random places (one per province; in an open space, one per power and
    several powers) — on a big map, the MAX_UNITS nearest a random province —, random center
    owners, a movement phase (on a map with canals, half the time all of them open)."""
    cal = m.variant.calendar
    season = next(s.abbr for s in cal.seasons if "movement" in s.phases)
    placements: dict[int, list[tuple[int, int]]] = {}
    for k in range(len(m.kinds)):
        for loc in range(m.n_loc):
            if m.occupy[k][loc]:
                placements.setdefault(m.loc_prov[loc], []).append((k, loc))
    units = []
    for prov, places in placements.items():
        if rng.random() >= density:
            continue
        powers = list(range(len(m.powers)))
        rng.shuffle(powers)
        for p in powers[: rng.choice((1, 2, 3)) if m.tables.open_space[prov] else 1]:
            k, loc = rng.choice(places)
            units.append(Unit(p, k, loc))
    if len(units) > MAX_UNITS:  # big maps: a region's worth of units keeps the test quick
        start = rng.randrange(m.n_prov)
        dist = m.distances([start])
        units.sort(key=lambda u: (dist[m.loc_prov[u.loc]] < 0, dist[m.loc_prov[u.loc]]))
        units = units[:MAX_UNITS]
    owners = [rng.choice([-1, *range(len(m.powers))]) if m.is_sc[i] else -1
              for i in range(m.n_prov)]
    extra = way_back(m, units, rng) if "rainforests" in m.variant.rules else {}
    if "canals" in m.variant.rules and rng.random() < 0.5:  # open canals: porous provinces
        extra["canals"] = {"open": {c["province"]: 1901
                                    for c in m.variant.rules["canals"]["canals"]}}
    return Position(Phase(1901, season, "M"), units, owners, [], frozenset(),
                    [tuple(h) for h in m.homes], None, extra)


def way_back(m: Map, units: list[Unit], rng: random.Random) -> dict:
    """rules/rainforests.py's memory: half the armies in a rainforest province entered it
    from a random neighbour."""
    forest = {a for a, p in m.variant.provinces.items() if "rainforest" in p.tags}
    came = {}
    for u in units:
        p = m.loc_prov[u.loc]
        if m.prov_abbr[p] in forest and m.kinds[u.kind] == "A" and rng.random() < 0.5:
            came[m.unit_str(u.kind, u.loc)] = m.prov_abbr[rng.choice(
                sorted(m.prov_neighbours[p]))]
    return {"rainforests": came} if came else {}


class Judge:
    """Gives orders to some units of a position (the others hold) and says which the
    adjudicator accepts: bound to their unit (not refused) and not void."""

    def __init__(self, m: Map, pos: Position, options: dict) -> None:
        self.m, self.pos, self.options = m, pos, options
        self.closed = closed_passages(m, pos, options)

    def accepted(self, orders: dict[int, Order]) -> set[int]:
        units = self.pos.units
        by_power: dict[int, list[Order]] = {}
        for i, o in orders.items():
            by_power.setdefault(units[i].power, []).append(o)
        bound, _ = bind_to_units(self.m, units, by_power, MOVEMENT_TYPES, pos=self.pos)
        # as the engine does: the units as they move (a fleet going up a river, anchors)
        moving = self.m.rules.moving_kinds(self.m, self.pos, bound) or units
        results = resolve_movement(self.m, moving, bound, self.options, self.closed,
                                   self.pos).results
        return {i for i, o in orders.items() if bound[i] is o and "void" not in results[i]}


def meaning(m: Map, u: Unit, o: Order, judge: Judge) -> tuple:
    """What an order means, to compare a listed order with an accepted one (a move naming no
    coast where a coast is still meant - a porous province, the only coast open to the
    unit's power - ends on that coast)."""
    if o.type == MOVE:
        dest, adjacent = move_target(m, u.kind, u.loc, o.target)
        if dest < 0:
            dest = coastless_target(m, u.kind, u.loc, o.target, u.power, judge.closed,
                                    judge.pos)
            adjacent = dest >= 0
        return ("-", dest, o.via or not adjacent)
    other = (o.aux_kind, m.loc_prov[o.aux_loc])
    target = None if o.target is None else m.loc_prov[o.target]
    return (o.type, other, target)


def accepted_orders(m: Map, pos: Position, judge: Judge) -> tuple[set[tuple], list[dict]]:
    """The meanings of every move, support and convoy the adjudicator accepts, as
    (unit index, meaning); and per unit its accepted moves (destination → {by convoy or
    not})."""
    units = pos.units
    out: set[tuple] = set()
    moves: list[dict[int, set[bool]]] = [{} for _ in units]
    for t in range(m.n_loc):
        for via in (False, True):
            orders = {i: Order(MOVE, u.kind, u.loc, t, via=via) for i, u in enumerate(units)
                      if m.loc_prov[t] != m.loc_prov[u.loc]
                      and (not via or m.kind_convoyed[u.kind])}
            for i in judge.accepted(orders):
                key = meaning(m, units[i], orders[i], judge)
                out.add((i, key))
                moves[i].setdefault(key[1], set()).add(key[2])
    for v, uv in enumerate(units):
        # supports: v holds, or makes each move it may make; everybody else supports it
        for dest in [None, *moves[v]]:
            ctx: dict[int, Order] = {}
            if dest is not None:
                ctx[v] = Order(MOVE, uv.kind, uv.loc, dest, via=False not in moves[v][dest])
            target = None if dest is None else m.loc_prov[dest]
            orders = {i: Order(SUPPORT, u.kind, u.loc, target, uv.kind, uv.loc)
                      for i, u in enumerate(units) if i != v}
            for i in judge.accepted({**orders, **ctx}) - {v}:
                out.add((i, meaning(m, units[i], orders[i], judge)))
        # convoys: v goes by convoy to each place it may go by convoy; everybody convoys it
        for dest, ways in moves[v].items():
            if True not in ways:
                continue
            ctx = {v: Order(MOVE, uv.kind, uv.loc, dest, via=True)}
            orders = {i: Order(CONVOY, u.kind, u.loc, m.loc_prov[dest], uv.kind, uv.loc)
                      for i, u in enumerate(units) if i != v}
            for i in judge.accepted({**orders, **ctx}) - {v}:
                out.add((i, meaning(m, units[i], orders[i], judge)))
    return out, moves


def listed_orders(m: Map, pos: Position, options: dict) -> list[tuple[int, str, Order]]:
    """(unit index, text, parsed order) of every listed order but holds."""
    index = {(u.power, m.unit_str(u.kind, u.loc)): i for i, u in enumerate(pos.units)}
    out = []
    for p in range(len(m.powers)):
        for unit, lst in legal_orders(m, pos, p, options).items():
            for text in lst:
                o = parse_order(m, text, "M")
                if o.type != HOLD:
                    out.append((index[(p, unit)], text, o))
    return out


def disagreements(m: Map, pos: Position, options: dict) -> list[str]:
    units = pos.units
    judge = Judge(m, pos, options)
    accepted, moves = accepted_orders(m, pos, judge)
    listed = listed_orders(m, pos, options)
    problems = []
    # every listed order is accepted where its partner does what it needs
    rounds: dict[tuple, dict[int, Order]] = {}
    texts: dict[tuple, dict[int, str]] = {}
    per_unit: dict[int, int] = {}
    for i, text, o in listed:
        if o.type == MOVE:
            n = per_unit[i] = per_unit.get(i, -1) + 1
            key: tuple = ("move", n)
            ctx: dict[int, Order] = {}
        else:
            ap = m.loc_prov[o.aux_loc]
            tp = None if o.target is None else m.loc_prov[o.target]
            # the unit named (in an open space, the one of that kind that may go there)
            named = [j for j, u in enumerate(units)
                     if m.loc_prov[u.loc] == ap and u.kind == o.aux_kind and j != i]
            a = next((j for j in named if tp is None
                      or any(m.loc_prov[d] == tp for d in moves[j])), named[0] if named else -1)
            key = (o.type, a, tp)
            ctx = {}
            if a >= 0 and tp is not None:
                ua = units[a]
                dests = [d for d, ways in moves[a].items() if m.loc_prov[d] == tp
                         and (o.type == SUPPORT or True in ways)]
                if dests:
                    via = o.type == CONVOY or False not in moves[a][dests[0]]
                    ctx = {a: Order(MOVE, ua.kind, ua.loc, dests[0], via=via)}
        rounds.setdefault(key, {}).update(ctx)
        rounds[key][i] = o
        texts.setdefault(key, {})[i] = text
    for key, orders in rounds.items():
        ok = judge.accepted(orders)
        for i, text in texts[key].items():
            if i not in ok:
                problems.append(f"listed but not accepted: {text} ({m.powers[units[i].power]})")
    # every accepted order is listed
    listed_meanings = {(i, meaning(m, units[i], o, judge)) for i, _, o in listed}
    for i, mean in sorted(accepted - listed_meanings, key=str):
        u = units[i]
        problems.append(f"accepted but not listed: {m.unit_str(u.kind, u.loc)} "
                        f"({m.powers[u.power]}) {mean}")
    return problems


# the same examples on every run (CI must not flake); to search further:
#   POLYDIP_LEGALITY_EXAMPLES=200 POLYDIP_LEGALITY_RANDOM=1 pytest \
#       tests/adjudication/test_legality.py
EXAMPLES = int(os.environ.get("POLYDIP_LEGALITY_EXAMPLES", "6"))
RANDOM = os.environ.get("POLYDIP_LEGALITY_RANDOM") == "1"


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=EXAMPLES, deadline=None, derandomize=not RANDOM)
@given(seed=st.integers(0, 2**32 - 1), density=st.sampled_from([0.2, 0.4, 0.65]))
def test_legal_orders_are_what_the_adjudicator_accepts(variant: str, seed: int,
                                                       density: float) -> None:
    m = get_map(variant)
    pos = random_position(m, random.Random(seed), density)
    options = dict(m.variant.options)
    assert disagreements(m, pos, options) == []


def test_the_comparison_sees_a_disagreement() -> None:
    """The test above can fail: a lister that forgets a move, or lists one too many."""
    import polydip.adjudication.legal as legal

    m = get_map("standard")
    pos = random_position(m, random.Random(3), 0.45)
    real = legal.legal_orders

    def forgetful(m, pos, power=None, options=None):
        out = real(m, pos, power, options)
        return {u: [o for o in lst if not o.endswith(" - BUR")] for u, lst in out.items()}

    def generous(m, pos, power=None, options=None):
        out = real(m, pos, power, options)
        return {u: [*lst, f"{u} - MOS"] for u, lst in out.items()}

    for fake, words in ((forgetful, "accepted but not listed"),
                        (generous, "listed but not accepted")):
        globals()["legal_orders"] = fake
        try:
            problems = disagreements(m, pos, {})
        finally:
            globals()["legal_orders"] = real
        assert any(p.startswith(words) for p in problems), fake.__name__


# ---- the caches of legal orders (adjudication/legal.py) ----------------------------------

def related_positions(m: Map, rng: random.Random, n: int) -> list[Position]:
    """A random position and n others made from it by taking a few units away: armies
    stay on their places while the fleets around them change, so what legal orders keep
    per army and fleet component (`ArmyConvoys`) is met again in other positions."""
    base = random_position(m, rng, 0.6)
    out = [base]
    for _ in range(n):
        keep = [u for u in base.units if rng.random() > 0.25]
        out.append(Position(base.phase, keep, base.owners, [], frozenset(), base.homes,
                            None, base.extra))
    return out


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", [1, 2])
def test_cached_legal_orders_are_those_made_afresh(variant: str, seed: int) -> None:
    """Listing a position after others (the convoy options of each army kept per map by
    its fleet components, the texts of those orders) gives the same lists, in the same
    order, as listing it with every cache emptied; and the lists read from the order
    table's texts begin with the texts of the codes the integer fast path gets (orders
    beyond the table, `variant_orders`, come after them)."""
    from polydip.adjudication.legal import movement_codes
    from polydip.orders.table import order_table

    m = get_map(variant)
    options = dict(m.variant.options)
    positions = related_positions(m, random.Random(seed), 12)
    m.caches.clear()
    kept = [legal_orders(m, pos, options=options) for pos in positions]
    t = order_table(m)
    for pos, got in zip(positions, kept, strict=True):
        m.caches.clear()
        assert legal_orders(m, pos, options=options) == got
        codes = movement_codes(m, pos, options, t)
        by_unit = {m.unit_str(u.kind, u.loc): [t.texts[c] for c in cs]
                   for u, cs in zip(pos.units, codes, strict=True) if cs is not None}
        assert {u: got[u][:len(lst)] for u, lst in by_unit.items()} == by_unit
