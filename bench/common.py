"""Shared helpers for driving polydip and the `diplomacy` package side by side.

Used by bench/bench.py and tests/adjudication/test_differential.py. Both engines are played
in lock-step:
polydip's position is the reference, polydip's random orders are given to both engines as the
same strings, and after each phase the two positions are compared through one normal form
(`snapshot_polydip` / `snapshot_diplomacy`): units, dislodged units with the places each may
retreat to, center owners and the next phase.

When they disagree, the disagreement is checked against the table of known deviations of the
diplomacy package (`KNOWN_DEVIATIONS`, where polydip follows DATC v3.1): the phase is re-run
so that only that deviation is removed — polydip with its rule option set to the diplomacy
package's choice, orders rewritten in a form that means the same under the DATC (polydip's
result must not change), or the diplomacy package with its faulty lines fixed
(`DIPLOMACY_PATCHES`) — and the engines must then agree (`explain`). Such a disagreement is
reported as that known deviation; the diplomacy game is then re-synchronised from polydip's
position (`resync_diplomacy`) and the game goes on. Anything else is an unexplained
disagreement, reported with the phase, the orders and both positions.

The `diplomacy` package is an optional extra (`pip install -e '.[bench]'`); this module
imports it only inside the functions that need it.
"""

from __future__ import annotations

import functools
import gc
import itertools
import random
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from polydip.adjudication.legal import legal_orders
from polydip.game.game import Game, initial_position
from polydip.geography.map import Map
from polydip.play import random_orders
from polydip.state import Position


def diplomacy_available() -> bool:
    try:
        import diplomacy  # noqa: F401
    except ImportError:
        return False
    return True


def new_diplomacy_game(patches: tuple[str, ...] = ()):
    """A standard diplomacy.Game; with `patches`, one whose code has the named known
    deviations fixed (see DIPLOMACY_PATCHES), to check that a disagreement is that deviation."""
    from diplomacy import Game as DipGame

    if patches:
        return _patched_class(tuple(sorted(patches)))()
    return DipGame()


# Source fixes of the diplomacy package (1.1.2), by deviation key: method, old text, new text.
DIPLOMACY_PATCHES: dict[str, tuple[str, str, str]] = {
    "h2h-own-support-defend": (
        "_bounce",
        """                    if our_strength or my_strength <= his_strength:
                        self._boing(unit)
                    if our_strength or his_strength <= my_strength:
                        self._boing(swap)""",
        """                    if our_strength or my_strength <= self.supports[swap][0]:
                        self._boing(unit)
                    if our_strength or his_strength <= self.supports[unit][0]:
                        self._boing(swap)"""),
}

_PATCHED: dict[tuple[str, ...], type] = {}


def _patched_class(keys: tuple[str, ...]) -> type:
    cls = _PATCHED.get(keys)
    if cls is None:
        import inspect
        import sys
        import textwrap

        from diplomacy import Game as DipGame

        body: dict[str, Any] = {"__slots__": ()}
        for key in keys:
            name, old, new = DIPLOMACY_PATCHES[key]
            src = textwrap.dedent(inspect.getsource(getattr(DipGame, name)))
            fixed = _replace_once(src, old, new)
            ns: dict[str, Any] = {}
            exec(compile(fixed, f"<patched {name}>", "exec"),
                 vars(sys.modules[DipGame.__module__]), ns)
            body[name] = ns[name]
        cls = type("PatchedDiplomacyGame", (DipGame,), body)
        _PATCHED[keys] = cls
    return cls


def _replace_once(src: str, old: str, new: str) -> str:
    """Replace `old` (compared line by line, ignoring indentation) in `src` by `new`,
    re-indented like the text it replaces."""
    lines, olds = src.splitlines(), old.strip("\n").splitlines()
    news = new.strip("\n").splitlines()
    for i in range(len(lines) - len(olds) + 1):
        if all(lines[i + j].strip() == olds[j].strip() for j in range(len(olds))):
            base = len(lines[i]) - len(lines[i].lstrip())
            obase = len(olds[0]) - len(olds[0].lstrip())
            repl = [" " * base + n[obase:] if n.strip() else n for n in news]
            return "\n".join(lines[:i] + repl + lines[i + len(olds):]) + "\n"
    raise RuntimeError("diplomacy package source not as expected (is it 1.1.2?)")


# ---- known deviations of the diplomacy package (DATC v3.1) ------------------------------

@dataclass(frozen=True)
class Deviation:
    key: str
    datc: str  # DATC v3.1 case(s)
    what: str  # what the diplomacy package does, and what the DATC says


KNOWN_DEVIATIONS: dict[str, Deviation] = {d.key: d for d in (
    Deviation(
        "via-fallback", "4.A.3, 6.G.8",
        "A move ordered 'via convoy' to an adjacent province, with no fleet convoying it, "
        "goes over land in the diplomacy package (it drops the VIA when no convoy path exists: "
        "DATC v2.4's 'fallback' preference). DATC v3.1 (2023 rulebook) prefers no fallback: "
        "the army does not move. Explained when polydip with adjacent_convoy='fallback' "
        "gives the diplomacy package's result."),
    Deviation(
        "via-self-dislodge", "6.D.12 (6.D.10, 6.E.3) with a convoyed attack",
        "Support given by a power to a foreign move against one of its own units must not "
        "help dislodge that unit. The diplomacy package forgets this when the supported move "
        "is written with 'VIA': Game._resolve_moves (step 2) finds the attacked unit with "
        "self._occupant(coord[-1]) and coord[-1] is the word 'VIA', so the support is counted "
        "and the own unit is dislodged. Explained when the diplomacy package gives polydip's "
        "result once 'VIA' is dropped from moves that can only go by convoy (the same order)."),
    Deviation(
        "own-support-disrupts-convoy", "6.F.4 with 6.D.12",
        "A convoy is disrupted only when a convoying fleet is dislodged (6.F.4); support from "
        "the fleet's own power does not count for dislodging it (6.D.12). The diplomacy "
        "package's Game._check_disruptions compares the attack strength including such "
        "support with the fleet's strength, so it disrupts the convoy (and the army fails) "
        "although the fleet stays. Explained when the diplomacy package gives polydip's "
        "result once those supports (useless for dislodging) are replaced by holds, the "
        "attacked province having no other attacker (polydip's result unchanged)."),
    Deviation(
        "h2h-own-support-defend", "6.E.3 with 6.E.12 (defend strength, DATC 5.B)",
        "In a head-to-head battle the defend strength of a unit is 1 + all its supports, "
        "including those given by the power it attacks: such a support cannot help dislodge "
        "that power's unit (6.E.3) but counts for everything else (6.E.12). The diplomacy "
        "package's Game._bounce (step 6) compares both attacks after removing those "
        "supports from both sides (`his_strength = supports - len(no_help)` used as the "
        "defence), so with such supports on both sides one unit is dislodged where neither "
        "should be. Explained when the diplomacy package with that comparison fixed (attack "
        "strength against the full defend strength) gives polydip's result."),
    Deviation(
        "convoy-retreat-occupied", "6.H.11, 6.H.12 (and 6.H.6)",
        "A unit dislodged by a convoyed army may retreat to the army's starting province "
        "(6.H.11/6.H.12), but never to an occupied province or one left empty by a standoff "
        "(6.H.6). In Game._move_results the diplomacy package writes "
        "`not combat and where != attacker_site or is_moving_via_convoy(attacker)`, so when "
        "the attacker was convoyed every adjacent place is offered, occupied ones included "
        "(its retreat-order check refuses occupied places later, not standoff ones). Treated "
        "as equal when the extra places are all occupied or contested."),
)}

# Not a DATC question, a convention: in a retreat phase where some dislodged units may retreat
# and others may not, the diplomacy package disbands those with no retreat at once, while
# polydip keeps them in the phase, where their only order is to disband. (A retreat phase in
# which no unit may retreat is skipped by both.) The normal form leaves out dislodged units
# with no retreat, and their disband orders are not given to the diplomacy package.
NO_RETREAT_CONVENTION = ("the diplomacy package disbands at once a dislodged unit with no "
                         "retreat, also in a retreat phase where other units may retreat")


# ---- normal form -----------------------------------------------------------------------

@dataclass
class Snapshot:
    """One engine's position in a shared normal form (all strings upper case, sorted)."""

    phase: str
    units: dict[str, list[str]]  # power → ["A PAR", "F STP/SC", ...]
    dislodged: dict[str, dict[str, list[str]]]  # power → unit → allowed retreat places
    centers: dict[str, list[str]]  # power → owned centers

    def differences(self, other: Snapshot) -> list[str]:
        return [k for k in ("phase", "units", "dislodged", "centers")
                if getattr(self, k) != getattr(other, k)]

    def as_text(self) -> str:
        lines = [f"phase {self.phase}"]
        for p in sorted(set(self.units) | set(self.centers) | set(self.dislodged)):
            lines.append(f"  {p}: {', '.join(self.units.get(p, []))}")
            if self.dislodged.get(p):
                lines.append("    dislodged: " + "; ".join(
                    f"{u} -> {','.join(r) or '(none)'}" for u, r in self.dislodged[p].items()))
            lines.append(f"    centers: {' '.join(self.centers.get(p, []))}")
        return "\n".join(lines)


def snapshot_polydip(g: Game) -> Snapshot:
    m, pos = g.map, g.position
    units: dict[str, list[str]] = {}
    for u in pos.units:
        units.setdefault(m.powers[u.power].upper(), []).append(m.unit_str(u.kind, u.loc))
    disl: dict[str, dict[str, list[str]]] = {}
    for d in pos.dislodged:
        if d.retreats:  # see NO_RETREAT_CONVENTION
            disl.setdefault(m.powers[d.power].upper(), {})[m.unit_str(d.kind, d.loc)] = sorted(
                m.loc_name[r] for r in d.retreats)
    centers: dict[str, list[str]] = {}
    for prov, o in enumerate(pos.owners):
        if o >= 0:
            centers.setdefault(m.powers[o].upper(), []).append(m.prov_abbr[prov])
    phase = pos.phase.name if not g.is_over else "COMPLETED"
    return Snapshot(phase, _sorted(units), disl, _sorted(centers))


def snapshot_diplomacy(dg) -> Snapshot:
    units = {p.name: list(p.units) for p in dg.powers.values() if p.units}
    disl = {p.name: {u: sorted(r) for u, r in p.retreats.items() if r}
            for p in dg.powers.values() if any(p.retreats.values())}
    centers = {p.name: list(p.centers) for p in dg.powers.values() if p.centers}
    return Snapshot(dg.get_current_phase(), _sorted(units), disl, _sorted(centers))


def _sorted(d: dict[str, list[str]]) -> dict[str, list[str]]:
    return {k: sorted(v) for k, v in sorted(d.items()) if v}


def filter_convoy_retreats(m: Map, pos: Position, dip: Snapshot) -> tuple[Snapshot, list[str]]:
    """Apply the 'convoy-retreat-occupied' deviation: drop, from the retreats the diplomacy
    package offers a unit dislodged by a convoyed army, the places polydip leaves out because
    they are occupied or contested. `pos` is polydip's position right after the movement
    phase. Return the filtered snapshot and what was dropped."""
    occupied = {u.split()[1][:3] for lst in dip.units.values() for u in lst}
    contested = {m.prov_abbr[p] for p in pos.contested}
    poly = {(m.powers[d.power].upper(), m.unit_str(d.kind, d.loc)): d for d in pos.dislodged}
    notes: list[str] = []
    out: dict[str, dict[str, list[str]]] = {}
    for power, units in dip.dislodged.items():
        for unit, places in units.items():
            d = poly.get((power, unit))
            if d is not None and d.convoyed:
                mine = {m.loc_name[r] for r in d.retreats}
                extra = [p for p in places if p not in mine]
                if extra and all(p[:3] in occupied or p[:3] in contested for p in extra):
                    notes.append(f"{unit} (dislodged by a convoyed army): diplomacy also offers "
                                 f"{', '.join(extra)}")
                    places = [p for p in places if p in mine]
            if places:
                out.setdefault(power, {})[unit] = places
    return Snapshot(dip.phase, dip.units, out, dip.centers), notes


# ---- driving ---------------------------------------------------------------------------

def safe_random_orders(m: Map, pos: Position, rng: random.Random,
                       legal: dict[str, list[str]] | None = None) -> dict[int, list[str]]:
    """polydip.play.random_orders, guarded against a crash it had in adjustment phases: it took
    every legal-order key containing '/' for a build site, so the key of a unit on a coast
    (e.g. 'F SPA/SC', of a power that must disband) reached m.prov_index and raised KeyError.
    Build-site keys never contain a space and unit keys always do, so only build sites are
    passed on (the disband branch does not read `legal`). play.py now filters the same way,
    so the orders are the same either way."""
    if legal is None:
        legal = legal_orders(m, pos)
    if pos.phase.type == "A":
        legal = {k: v for k, v in legal.items() if " " not in k}
    return random_orders(m, pos, rng, legal=legal)


def give_orders(g: Game, dg, orders: dict[int, list[str]],
                to_dip: dict[int, list[str]] | None = None) -> list[str]:
    """The same order strings to both engines (`to_dip`, when given, to the diplomacy
    package); return the problems either engine reported."""
    problems: list[str] = []
    dg.error = []
    for p, lst in orders.items():
        for msg in g.set_orders(p, lst):
            problems.append(f"polydip {g.map.powers[p]}: {msg}")
    for p, lst in (orders if to_dip is None else to_dip).items():
        dg.set_orders(g.map.powers[p].upper(), lst)
    problems += [f"diplomacy: {e}" for e in dg.error]
    dg.error = []
    return problems


def resync_diplomacy(m: Map, pos: Position, dg) -> None:
    """Make the diplomacy game's state the polydip position (units, dislodged units with their
    retreats, centers, phase), e.g. after a known deviation made the two engines diverge."""
    resync_diplomacy_any(m, pos, dg, [p.upper() for p in m.powers])


def resync_diplomacy_any(m: Map, pos: Position, dg, names: list[str] | None = None) -> None:
    """`resync_diplomacy` for any map: `names[i]` is the diplomacy game's name of polydip's
    power i. The diplomacy package drops what is not a letter or digit from power names
    ('Frozen-Antarctica' is FROZENANTARCTICA), so the default matches names that way;
    `resync_diplomacy` (standard map) upper-cases them only. Unit, location and province
    names are the same in both engines for maps imported from the diplomacy package's files
    (coasts too: 'F STP/SC'); the phase name is read by the diplomacy package whatever the
    year's width ('S901M')."""
    import re

    if names is None:
        by_norm = {re.sub(r"[^A-Z0-9]", "", p.upper()): p for p in dg.powers}
        names = [by_norm[re.sub(r"[^A-Z0-9]", "", p.upper())] for p in m.powers]
    dg.clear_orders()
    dg.set_current_phase(pos.phase.name)
    # leftovers of the last movement phase that the retreat phase reads (a retreating unit
    # listed in `popped` is disbanded)
    dg.popped, dg.dislodged = [], {}
    for p in dg.powers.values():
        p.units, p.retreats, p.centers, p.influence = [], {}, [], []
        p.adjust, p.civil_disorder = [], 0
    for u in pos.units:
        p = dg.powers[names[u.power]]
        p.units.append(m.unit_str(u.kind, u.loc))
        p.influence.append(m.prov_abbr[m.loc_prov[u.loc]])
    for d in pos.dislodged:
        if d.retreats:
            dg.powers[names[d.power]].retreats[m.unit_str(d.kind, d.loc)] = [
                m.loc_name[r] for r in d.retreats]
    for prov, o in enumerate(pos.owners):
        if o >= 0:
            dg.powers[names[o]].centers.append(m.prov_abbr[prov])
    dg.rebuild_hash()
    dg.build_caches()


# ---- re-running one phase (to test an explanation) ------------------------------------

def rerun_polydip(g: Game, pos0: Position, orders: dict[int, list[str]],
                  options: dict[str, Any] | None = None) -> tuple[Game, Position]:
    """Process pos0 with `orders` (and `options`) in a new polydip game; return the game and
    its position right after the phase."""
    g2 = Game(g.variant, g.map, pos0, dict(options if options is not None else g.options))
    for p, lst in orders.items():
        g2.set_orders(p, lst)
    g2.process()
    return g2, g2.position


def rerun_diplomacy(g: Game, pos0: Position, orders: dict[int, list[str]],
                    patches: tuple[str, ...] = ()):
    dg = new_diplomacy_game(patches)
    resync_diplomacy(g.map, pos0, dg)
    for p, lst in dip_orders(g.map, pos0, orders).items():
        dg.set_orders(g.map.powers[p].upper(), lst)
    dg.error = []
    dg.process()
    return dg


def compare(g: Game, after: Position, dg) -> tuple[Snapshot, Snapshot, Snapshot, list[str]]:
    """polydip's snapshot, the diplomacy package's raw snapshot, the same with the
    'convoy-retreat-occupied' deviation filtered out, and notes on what was filtered.

    When that filter leaves the diplomacy package in a retreat phase where no unit can
    retreat (polydip disbanded them at once), the diplomacy phase is processed with no
    orders, so every such unit is disbanded there too."""
    raw = snapshot_diplomacy(dg)
    dip, notes = filter_convoy_retreats(g.map, after, raw)
    if notes and raw.phase.endswith("R") and not dip.dislodged and not any(
            d.retreats for d in after.dislodged):
        dg.process()
        raw = snapshot_diplomacy(dg)
        dip, more = filter_convoy_retreats(g.map, after, raw)
        notes += more
    return snapshot_polydip(g), raw, dip, notes


def dip_orders(m: Map, pos0: Position, orders: dict[int, list[str]]) -> dict[int, list[str]]:
    """The orders given to the diplomacy package: the same, minus the disband orders polydip's
    random orders give to dislodged units that cannot retreat (the diplomacy package has
    already disbanded them, NO_RETREAT_CONVENTION)."""
    if pos0.phase.type != "R":
        return orders
    gone = {f"{m.unit_str(d.kind, d.loc)} D" for d in pos0.dislodged if not d.retreats}
    return {p: [o for o in lst if o not in gone] for p, lst in orders.items()}


def strip_needless_via(m: Map, orders: dict[int, list[str]]) -> dict[int, list[str]]:
    """Drop ' VIA' from a move that goes by convoy without it: to a province the army cannot
    reach over land, or with a fleet of its own power ordered to convoy it (DATC 4.A.3, 2023
    rulebook). The same order, written so that the diplomacy package's step 2 reads it."""
    army = m.army
    convoys = {(p, o.split(" C ", 1)[1]) for p, lst in orders.items() for o in lst if " C " in o}
    out = {}
    for p, lst in orders.items():
        new = []
        for o in lst:
            if o.endswith(" VIA"):
                parts = o.split()
                src, dst = m.loc_of(parts[1]), m.loc_of(parts[3])
                if (m.loc_prov[dst] not in m.reach_prov[army][m.loc_prov[src]]
                        or (p, o[:-4]) in convoys):
                    o = o[:-4]
            new.append(o)
        out[p] = new
    return out


def hold_own_attack_supports(m: Map, pos: Position, orders: dict[int, list[str]]
                             ) -> dict[int, list[str]]:
    """Replace by a hold each support a power gives to a foreign move against its own unit.
    Such a support cannot help dislodge (6.D.12) but still counts for other purposes (6.E.12),
    so the caller checks that polydip's outcome does not change."""
    owner = {m.loc_prov[u.loc]: u.power for u in pos.units}
    out = {}
    for p, lst in orders.items():
        new = []
        for o in lst:
            w = o.split()
            if len(w) >= 7 and w[2] == "S" and w[5] == "-":
                target = w[6][:3]
                if owner.get(m.prov_index[target]) == p:
                    o = f"{w[0]} {w[1]} H"
            new.append(o)
        out[p] = new
    return out


def explain(g: Game, g_after: Position, pos0: Position, orders: dict[int, list[str]],
            poly: Snapshot, raw_dip: Snapshot, rerun_dip=None, compare_fn=None
            ) -> list[str] | None:
    """The smallest set of known deviations that accounts for the disagreement, or None.

    For each candidate set the phase is re-run: polydip with the diplomacy package's rule
    choice (via-fallback), both engines with orders rewritten in a form that means the same
    under the DATC (via-self-dislodge, own-support-disrupts-convoy; polydip's result must not
    change), the diplomacy package with its faulty lines fixed (h2h-own-support-defend); the
    two must then agree. `rerun_dip(pos0, orders, patches)` and `compare_fn(g, after, dg)`
    default to the standard map's; bench/bigmaps.py passes its own for other maps.
    """
    m = g.map
    if rerun_dip is None:
        def rerun_dip(pos0, o, patches):
            return rerun_diplomacy(g, pos0, o, patches)
    compare_fn = compare_fn or compare
    if pos0.phase.type != "M":
        return None
    keys = ["via-fallback", "via-self-dislodge", "own-support-disrupts-convoy",
            "h2h-own-support-defend"]
    for n in range(1, len(keys) + 1):
        for combo in itertools.combinations(keys, n):
            o = orders
            if "via-self-dislodge" in combo:
                o = strip_needless_via(m, o)
            if "own-support-disrupts-convoy" in combo:
                o = hold_own_attack_supports(m, pos0, o)
            if o == orders and o is not orders:
                continue  # the rewrite changes nothing: not this deviation
            if o is not orders and snapshot_polydip(rerun_polydip(g, pos0, o)[0]).differences(poly):
                continue  # the rewrite changed polydip's result: not a neutral rewrite
            if "via-fallback" in combo:
                tg, after = rerun_polydip(g, pos0, o, dict(g.options, adjacent_convoy="fallback"))
            else:
                tg, after = g, g_after
            patches = tuple(k for k in combo if k in DIPLOMACY_PATCHES)
            if o is orders and tg is g and not patches:
                continue  # nothing re-run: compared already
            if o is orders and not patches:
                got, notes = filter_convoy_retreats(g.map, after, raw_dip)
            else:
                _, _, got, notes = compare_fn(tg, after, rerun_dip(pos0, o, patches))
            if not snapshot_polydip(tg).differences(got):
                return list(combo) + (["convoy-retreat-occupied"] if notes else [])
    return None


@dataclass
class PhaseReport:
    phase: str  # the phase processed
    orders: dict[int, list[str]]
    refused: list[str]  # orders an engine refused
    known: list[str] = field(default_factory=list)  # keys of KNOWN_DEVIATIONS that applied
    notes: list[str] = field(default_factory=list)
    disagreement: str = ""  # readable text when unexplained, else ""
    resynced: bool = False


@functools.lru_cache(maxsize=1)
def base_game() -> Game:
    return Game.new("standard")


def clear_polydip_caches() -> None:
    """Empty every cache polydip keeps between calls (parsed orders, the order table and
    per-map memo tables, convoy geometry), so a replay starts as cold as a new process."""
    import polydip.game.engine as engine
    import polydip.orders.parser as parser
    import polydip.orders.table as table

    parser._parse_cached.cache_clear()
    engine._DESCRIBED.clear()
    table.order_table.cache_clear()
    base_game().map.caches.clear()


class LockStep:
    """One random standard game played by polydip and the diplomacy package together."""

    def __init__(self, seed: int, options: dict[str, Any] | None = None,
                 shared_map: bool = False) -> None:
        self.rng = random.Random(seed)
        if shared_map:  # one compiled map for every game (Game.new compiles one per game)
            base = base_game()
            opts = dict(base.options, **(options or {}))
            self.g = Game(base.variant, base.map, initial_position(base.map), opts)
        else:
            self.g = Game.new("standard", options=options)
        self.dg = new_diplomacy_game()
        self.seed = seed

    @property
    def over(self) -> bool:
        return self.g.is_over or self.dg.get_current_phase() == "COMPLETED"

    def random_orders(self, legal: dict[str, list[str]] | None = None) -> dict[int, list[str]]:
        return safe_random_orders(self.g.map, self.g.position, self.rng, legal)

    def check(self, pos0: Position, orders: dict[int, list[str]], refused: list[str]
              ) -> PhaseReport:
        """After both engines processed the phase from pos0: compare, explain, resync."""
        g, dg = self.g, self.dg
        after = g.position
        rep = PhaseReport(pos0.phase.name, orders, refused)
        poly, raw, dip, notes = compare(g, after, dg)
        if notes:
            rep.known.append("convoy-retreat-occupied")
            rep.notes += notes
        diffs = poly.differences(dip)
        if diffs:
            combo = explain(g, after, pos0, orders, poly, raw)
            if combo is None:
                rep.disagreement = self.describe(pos0, orders, refused, poly, raw, diffs)
            else:
                rep.known += [k for k in combo if k not in rep.known]
        if (diffs or poly.differences(raw)) and not g.is_over:
            resync_diplomacy(g.map, g.position, dg)
            rep.resynced = True
        return rep

    def step(self) -> PhaseReport:
        orders = self.random_orders()
        pos0 = self.g.position
        refused = give_orders(self.g, self.dg, orders,
                              dip_orders(self.g.map, pos0, orders))
        self.g.process()
        self.dg.process()
        return self.check(pos0, orders, refused)

    def describe(self, pos0: Position, orders: dict[int, list[str]], refused: list[str],
                 poly: Snapshot, dip: Snapshot, diffs: list[str]) -> str:
        m = self.g.map
        before = Game(self.g.variant, m, pos0, self.g.options)
        lines = [f"seed {self.seed}, phase {pos0.phase.name}: the engines disagree on "
                 f"{', '.join(diffs)}", "orders:"]
        for p, lst in sorted(orders.items()):
            lines.append(f"  {m.powers[p]}: {'; '.join(lst)}")
        if refused:
            lines.append("refused: " + "; ".join(refused))
        lines.append("differences (polydip | diplomacy):")
        if "phase" in diffs:
            lines.append(f"  next phase: {poly.phase} | {dip.phase}")
        for name in ("units", "centers", "dislodged"):
            a, b = getattr(poly, name), getattr(dip, name)
            for power in sorted(set(a) | set(b)):
                x, y = a.get(power, {} if name == "dislodged" else []), b.get(
                    power, {} if name == "dislodged" else [])
                if x == y:
                    continue
                if name == "dislodged":
                    only_a = {u: r for u, r in x.items() if y.get(u) != r}
                    only_b = {u: r for u, r in y.items() if x.get(u) != r}
                else:
                    only_a = [u for u in x if u not in y]
                    only_b = [u for u in y if u not in x]
                lines.append(f"  {name} of {power}: {only_a or '-'} | {only_b or '-'}")
        lines += ["position before:", snapshot_polydip(before).as_text(),
                  "polydip after:", poly.as_text(), "diplomacy after:", dip.as_text()]
        return "\n".join(lines)


class Stats:
    """Timings by phase type and measurement key."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))

    def add(self, ptype: str, key: str, us: float) -> None:
        self.rows[ptype][key].append(us)

    def mean(self, ptype: str | None, key: str) -> float:
        if ptype is None:
            vals = [v for row in self.rows.values() for v in row.get(key, [])]
        else:
            vals = self.rows[ptype].get(key, [])
        return statistics.fmean(vals) if vals else float("nan")

    def count(self, ptype: str | None, key: str) -> int:
        if ptype is None:
            return sum(len(row.get(key, [])) for row in self.rows.values())
        return len(self.rows[ptype].get(key, []))


# the clock of `timed`: wall time (the default), or with bench.py --clock cpu the CPU time
# of the calling thread, which a busy shared machine disturbs far less (a call preempted by
# another process is not charged for the wait)
CLOCK: Callable[[], float] = time.perf_counter


def set_clock(name: str) -> None:
    global CLOCK
    CLOCK = time.thread_time if name == "cpu" else time.perf_counter


def timed(fn: Callable[[], object], setup: Callable[[], object] | None = None,
          after: Callable[[], object] | None = None) -> float:
    """Seconds taken by one call of fn (GC off during the call); setup runs untimed first,
    `after` right after the call (before the clock is read: for the profiler only)."""
    if setup is not None:
        setup()
    enabled = gc.isenabled()
    gc.disable()
    try:
        clock = CLOCK
        t0 = clock()
        fn()
        if after is not None:
            after()
        t1 = clock()
    finally:
        if enabled:
            gc.enable()
    return t1 - t0
