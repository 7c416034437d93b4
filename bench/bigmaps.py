#!/usr/bin/env python
"""Benchmark polydip against the `diplomacy` package (1.1.2) on two big imported maps.

    python bench/bigmaps.py [--phases N] [--seed S] [--maps world,known_world_901]
                            [--skip-diplomacy] [--crowded-armies 10,30,all]
                            [--crowded-timeout T] [--diplomacy-cold-cache] [--profile]

The maps are the diplomacy package's own map files: polydip imports them from their path
(`Game.new(".../diplomacy/maps/world.map")`, the DPjudge importer), the diplomacy package
loads them by name (`diplomacy.Game(map_name="world")`).

1. Lock-step games. For each map, N random phases (seeded): at each phase polydip's
   `legal_orders` and diplomacy's `get_all_possible_orders` (cold: its per-position caches
   cleared first) are timed on the same position, polydip's `polydip.play.random_orders`
   picks orders, the same order strings go to both engines, and each engine's `process()` is
   timed (time.perf_counter, garbage collection off during the timed call, as in
   bench/bench.py). The positions after the phase are compared (power names mapped:
   'Frozen-Antarctica' is FROZENANTARCTICA in the diplomacy package) and the diplomacy game
   is then re-synchronised from polydip's position, so both engines always start a phase from
   the same position.
2. First game: polydip `Game.new(path)` + first `legal_orders`, and diplomacy
   `Game(map_name=...)`, in this process and in a fresh interpreter (import included). The
   diplomacy package needs a convoy-path table per map: it reads it at import from
   `convoy_paths_cache.pkl` (in the package, and ~/.cache/diplomacy/) and builds it the first
   time a map that is in neither is loaded (minutes), writing it to ~/.cache/diplomacy/.
   `--diplomacy-cold-cache` times that build in a child process whose HOME is an empty
   temporary directory (your own cache is neither read nor touched).
3. Crowded seas: a position on world.map with a fleet on every sea province and armies on
   coasts (all of them, or a seeded sample), given a movement phase with many convoys (built
   directly: each chosen army gets a chain of fleets to a random coast). Each engine's
   `legal_orders` / `get_all_possible_orders` and `set_orders` + `process()` are timed in a
   child process with a time limit (`--crowded-timeout`).

Progress on stderr (rich), results on stdout. Needs the optional extra `bench`
(pip install -e '.[bench]'): the map files come with the diplomacy package.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import pickle
import random
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import set_clock, timed

MAPS = ("world", "known_world_901")
TYPES = {"M": "movement", "R": "retreat", "A": "adjustment"}
TARGET = 20.0  # process() per phase, polydip at least this many times faster
CROWDED_LIMIT_MS = 1000.0  # "well under a second"


# Conventions of the import, not DATC questions: polydip imports a DPjudge DUMMY power as a
# neutral power, whose units always hold and which neither builds nor removes (the importer's
# notes say so); the diplomacy package orders such a power in civil disorder.
CONVENTIONS = {
    "neutral-adjustment": "the diplomacy package stops in an adjustment phase where only the "
                          "neutral (DUMMY) power could build, and waives its builds; polydip "
                          "skips that phase (neutral powers never adjust): same position after",
    "neutral-removes": "the neutral (DUMMY) power has more units than centers: the diplomacy "
                       "package removes units in civil disorder, polydip keeps them",
    "neutral-disbands": "a dislodged unit of the neutral (DUMMY) power is disbanded at once "
                        "by polydip (rule neutral_units), while the diplomacy package gives "
                        "it a retreat phase and then disbands it in civil disorder",
}


# ---- helpers shared by the main process and the workers ---------------------------------

def diplomacy_maps_dir() -> Path | None:
    """The diplomacy package's maps directory, found without importing the package (its
    import loads every cached convoy table, which we time separately)."""
    spec = importlib.util.find_spec("diplomacy")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "maps"


def map_path(name: str) -> Path:
    d = diplomacy_maps_dir()
    if d is None:
        raise SystemExit("the diplomacy package is not installed")
    return d / f"{name}.map"


def norm_power(name: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", name.upper())


def dip_power_names(m, dg) -> list[str]:
    """polydip power index → the diplomacy game's power name."""
    by_norm = {norm_power(p): p for p in dg.powers}
    return [by_norm[norm_power(p)] for p in m.powers]


def dip_phase_to_polydip(phase: str) -> str:
    """'S0901M' → 'S901M' (the diplomacy package pads years to four digits)."""
    if phase in ("FORMING", "COMPLETED") or len(phase) < 3:
        return phase
    return f"{phase[0]}{int(phase[1:-1])}{phase[-1]}"


# ---- the crowded-seas position --------------------------------------------------------------

def crowded_position(g, n_armies: int | None, seed: int):
    """polydip's starting position of `g` with a fleet on every sea province and armies on
    `n_armies` coastal provinces (all when None); powers drawn at random (neutrals left out).
    Returns the position and the list of army provinces."""
    from polydip.state import Unit

    m = g.map
    rng = random.Random(seed)
    army, fleet = m.kind_index["A"], m.kind_index["F"]
    powers = [i for i in range(len(m.powers)) if not m.power_neutral[i]]
    seas = [p for p in range(m.n_prov) if m.convoy_prov[p] and m.occupy[fleet][p]]
    coasts = [p for p in range(m.n_prov)
              if not m.convoy_prov[p] and m.convoy_touch[p] and m.occupy[army][p]]
    if n_armies is not None and n_armies < len(coasts):
        coasts = sorted(rng.sample(coasts, n_armies))
    units = [Unit(rng.choice(powers), fleet, p) for p in seas]
    units += [Unit(rng.choice(powers), army, p) for p in coasts]
    pos = g.position.copy()
    pos.units = units
    pos.dislodged = []
    return pos, coasts


def crowded_orders(m, pos, seed: int, convoy_rate: float = 0.6) -> dict[int, list[str]]:
    """Orders with many convoys: each army, with probability `convoy_rate`, goes by convoy to
    a random coast it cannot reach over land, along a shortest chain of fleets not yet
    convoying (each fleet on it gets the convoy order); the other armies hold or move over
    land at random; the free fleets hold (60 %) or move at random (some into the seas of
    convoying fleets)."""
    rng = random.Random(seed + 1)
    army = m.kind_index["A"]
    at = {m.loc_prov[u.loc]: u for u in pos.units}
    fleets = {m.loc_prov[u.loc] for u in pos.units if m.kind_convoys[u.kind]
              and m.convoy_prov[m.loc_prov[u.loc]]}
    armies = [u for u in pos.units if u.kind == army]
    rng.shuffle(armies)
    orders: dict[int, list[str]] = defaultdict(list)
    used: set[int] = set()
    for a in armies:
        ap = m.loc_prov[a.loc]
        us = m.unit_str(a.kind, a.loc)
        done = False
        if rng.random() < convoy_rate:
            # breadth-first search over free fleets from the army's province
            prev: dict[int, int] = {}
            frontier = [s for s in m.convoy_touch[ap] if s in fleets and s not in used]
            for s in frontier:
                prev[s] = -1
            order_seen = list(frontier)
            while frontier:
                nxt = []
                for s in frontier:
                    for q in m.convoy_touch[s]:
                        if q in fleets and q not in used and q not in prev:
                            prev[q] = s
                            nxt.append(q)
                            order_seen.append(q)
                frontier = nxt
            dests = sorted({q for s in order_seen for q in m.convoy_shore[s]
                            if q != ap and m.occupy[army][q]
                            and q not in m.reach_prov[army][ap]})
            if dests:
                dest = rng.choice(dests)
                # the nearest fleet next to dest, and its chain back to the army
                last = next(s for s in order_seen if dest in m.convoy_shore[s])
                chain = []
                while last != -1:
                    chain.append(last)
                    last = prev[last]
                for s in chain:
                    f = at[s]
                    orders[f.power].append(
                        f"{m.unit_str(f.kind, f.loc)} C {us} - {m.prov_abbr[dest]}")
                    used.add(s)
                orders[a.power].append(f"{us} - {m.prov_abbr[dest]} VIA")
                done = True
        if not done:
            moves = [d for d in m.adj[a.kind][a.loc] if m.occupy[a.kind][d]]
            if moves and rng.random() < 0.5:
                orders[a.power].append(f"{us} - {m.loc_name[rng.choice(moves)]}")
            else:
                orders[a.power].append(f"{us} H")
    for s in sorted(fleets - used):
        f = at[s]
        us = m.unit_str(f.kind, f.loc)
        moves = [d for d in m.adj[f.kind][f.loc] if m.occupy[f.kind][d]]
        if moves and rng.random() < 0.4:
            orders[f.power].append(f"{us} - {m.loc_name[rng.choice(moves)]}")
        else:
            orders[f.power].append(f"{us} H")
    return dict(orders)


def polydip_units_text(g, names: list[str] | None = None) -> dict[str, list[str]]:
    m = g.map
    out: dict[str, list[str]] = {}
    for u in g.position.units:
        key = names[u.power] if names else norm_power(m.powers[u.power])
        out.setdefault(key, []).append(m.unit_str(u.kind, u.loc))
    return {k: sorted(v) for k, v in sorted(out.items())}


def dislodged_text(g) -> list[str]:
    m = g.map
    return sorted(f"{norm_power(m.powers[d.power])} {m.unit_str(d.kind, d.loc)}"
                  for d in g.position.dislodged)


# ---- workers (run in a child process: fresh interpreter, time limit) -----------------------

def emit(**kw) -> None:
    print(json.dumps(kw), flush=True)


def worker_first_polydip(name: str) -> None:
    t0 = time.perf_counter()
    from polydip.adjudication.legal import legal_orders
    from polydip.game.game import Game

    t1 = time.perf_counter()
    g = Game.new(str(map_path(name)))
    t2 = time.perf_counter()
    legal_orders(g.map, g.position)
    t3 = time.perf_counter()
    emit(import_ms=(t1 - t0) * 1e3, new_ms=(t2 - t1) * 1e3, legal_ms=(t3 - t2) * 1e3)


def worker_first_diplomacy(name: str) -> None:
    import contextlib
    import io

    t0 = time.perf_counter()
    import diplomacy

    t1 = time.perf_counter()
    buf = io.StringIO()  # the convoy-cache build prints a banner and a tqdm bar
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        dg = diplomacy.Game(map_name=name)
    t2 = time.perf_counter()
    dg.get_all_possible_orders()
    t3 = time.perf_counter()
    ext = Path(os.path.expanduser("~")) / ".cache" / "diplomacy" / "convoy_paths_cache.pkl"
    emit(import_ms=(t1 - t0) * 1e3, game_ms=(t2 - t1) * 1e3, legal_ms=(t3 - t2) * 1e3,
         built="Generating convoy paths" in buf.getvalue(),
         cache_file=str(ext), cache_bytes=ext.stat().st_size if ext.exists() else 0)


def worker_crowded(engine: str, name: str, n_armies: int | None, seed: int) -> None:
    from polydip.adjudication.legal import legal_orders
    from polydip.game.game import Game

    g = Game.new(str(map_path(name)))
    m = g.map
    pos, _coasts = crowded_position(g, n_armies, seed)
    orders = crowded_orders(m, pos, seed)
    n_conv = sum(1 for lst in orders.values() for o in lst if " C " in o)
    n_via = sum(1 for lst in orders.values() for o in lst if o.endswith(" VIA"))
    g.position = pos
    emit(what="position", units=len(pos.units),
         fleets=sum(1 for u in pos.units if u.kind == m.kind_index["F"]),
         armies=sum(1 for u in pos.units if u.kind == m.kind_index["A"]),
         convoy_orders=n_conv, convoyed_armies=n_via)
    if engine == "polydip":
        def give():
            for p, lst in orders.items():
                g.set_orders(p, lst)

        set_s = timed(give)
        proc_s = timed(g.process)
        moved = sum(1 for u in g.position.units if m.kind_index["A"] == u.kind
                    and u not in pos.units)
        emit(what="process", set_orders_ms=set_s * 1e3, process_ms=proc_s * 1e3,
             armies_moved=moved, units=polydip_units_text(g), dislodged=dislodged_text(g),
             phase=g.position.phase.name)
        out: dict[str, Any] = {}
        legal_s = timed(lambda: out.setdefault("legal", legal_orders(m, pos)))
        lo = out["legal"]
        emit(what="legal", legal_ms=legal_s * 1e3, orders=sum(map(len, lo.values())),
             convoys=sum(1 for lst in lo.values() for o in lst if " C " in o),
             via=sum(1 for lst in lo.values() for o in lst if o.endswith(" VIA")))
        emit(what="legal_again", legal_ms=timed(lambda: legal_orders(m, pos)) * 1e3)
    else:
        import diplomacy
        from common import resync_diplomacy_any

        dg = diplomacy.Game(map_name=name)
        names = dip_power_names(m, dg)
        resync_diplomacy_any(m, pos, dg, names)
        errors: list[str] = []

        def give():
            dg.error = []
            for p, lst in orders.items():
                dg.set_orders(names[p], lst)
            errors.extend(dg.error)

        set_s = timed(give)
        proc_s = timed(dg.process)
        units = {norm_power(p.name): sorted(p.units) for p in dg.powers.values() if p.units}
        disl = sorted(f"{norm_power(p.name)} {u}" for p in dg.powers.values()
                      for u in p.retreats)
        emit(what="process", set_orders_ms=set_s * 1e3, process_ms=proc_s * 1e3,
             refused=errors, units=dict(sorted(units.items())), dislodged=disl,
             phase=dip_phase_to_polydip(dg.get_current_phase()))
        resync_diplomacy_any(m, pos, dg, names)
        out = {}
        legal_s = timed(lambda: out.setdefault("legal", dg.get_all_possible_orders()),
                        dg.clear_cache)
        lo = out["legal"]
        emit(what="legal", legal_ms=legal_s * 1e3,
             orders=sum(len(v) for v in lo.values()),
             convoys=sum(1 for v in lo.values() for o in v if " C " in o),
             via=sum(1 for v in lo.values() for o in v if o.endswith(" VIA")))


def run_worker(args: list[str], timeout: float, env: dict | None = None
               ) -> tuple[list[dict], bool, float, str]:
    """Run this script as a worker; return its JSON lines, whether it timed out, the wall
    time, and its stderr tail."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", *args]
    t0 = time.perf_counter()
    try:
        cp = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
        out, err, timed_out = cp.stdout, cp.stderr, False
        if cp.returncode != 0:
            err = f"exit status {cp.returncode}: {err}"
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout or ""
        out = out.decode() if isinstance(out, bytes) else out
        err, timed_out = "", True
    wall = time.perf_counter() - t0
    lines = []
    for line in out.splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            lines.append(json.loads(line))
    return lines, timed_out, wall, (err or "")[-2000:]


# ---- lock-step games ---------------------------------------------------------------------

class MapRun:
    """One random game on one map: polydip and (unless skipped) the diplomacy package,
    started from the same position at every phase."""

    def __init__(self, name: str, seed: int, with_dip: bool) -> None:
        from polydip.adjudication.legal import legal_orders
        from polydip.game.game import Game

        self.name = name
        self.path = map_path(name)
        self.rng = random.Random(seed)
        self.first: dict[str, float] = {}
        holder: dict[str, Any] = {}
        self.first["poly_new_ms"] = timed(
            lambda: holder.setdefault("g", Game.new(str(self.path)))) * 1e3
        self.g = holder["g"]
        self.first["poly_legal_ms"] = timed(
            lambda: legal_orders(self.g.map, self.g.position)) * 1e3
        self.dg = None
        self.names: list[str] = []
        if with_dip:
            import diplomacy

            self.first["dip_game_ms"] = timed(
                lambda: holder.setdefault("dg", diplomacy.Game(map_name=name))) * 1e3
            self.dg = holder["dg"]
            self.names = dip_power_names(self.g.map, self.dg)
        from common import Stats

        self.stats = Stats()  # in ms
        self.phases = self.agreed = self.refused = 0
        self.known: dict[str, int] = defaultdict(int)
        self.unexplained: list[str] = []
        self.convoy_orders = 0
        self.refused_kinds: dict[str, int] = {}
        self.refused_examples: list[str] = []

    def add(self, ptype: str, key: str, seconds: float) -> None:
        self.stats.add(ptype, key, seconds * 1e3)

    def mean(self, ptype: str | None, key: str) -> float:
        return self.stats.mean(ptype, key)

    def count(self, ptype: str | None, key: str) -> int:
        return self.stats.count(ptype, key)

    def orders_for(self, pos, legal: dict[str, list[str]]) -> dict[int, list[str]]:
        """polydip.play.random_orders, neutral powers' units holding (polydip refuses orders
        for a neutral power's units, which always hold; the diplomacy package's dummy power
        holds when given none). Supports of a neutral unit are then supports of a hold."""
        from polydip.play import random_orders

        m = self.g.map
        neutral = {m.unit_str(u.kind, u.loc) for u in pos.units if m.power_neutral[u.power]}
        if neutral and pos.phase.type == "M":
            legal = {k: ([f"{k} H"] if k in neutral else v) for k, v in legal.items()}
        orders = random_orders(m, pos, self.rng, legal=legal)
        return {p: lst for p, lst in orders.items() if not m.power_neutral[p] and lst}

    def step(self, prof=None) -> None:
        from common import dip_orders, resync_diplomacy_any

        from polydip.adjudication.legal import legal_orders

        g, dg, m = self.g, self.dg, self.g.map
        pos0 = g.position
        ptype = pos0.phase.type
        out: dict[str, Any] = {}

        def poly_legal():
            out["legal"] = legal_orders(m, pos0)

        if prof is not None:
            prof["legal_orders()"].enable()
        self.add(ptype, "poly_legal", timed(poly_legal))
        if prof is not None:
            prof["legal_orders()"].disable()
        if dg is not None:
            self.add(ptype, "dip_legal", timed(dg.get_all_possible_orders, dg.clear_cache))
            dg.build_caches()

        orders = self.orders_for(pos0, out["legal"])
        self.convoy_orders += sum(1 for lst in orders.values() for o in lst if " C " in o)

        def poly_set():
            for p, lst in orders.items():
                g.set_orders(p, lst)

        self.add(ptype, "poly_set", timed(poly_set))
        refused: list[str] = []
        if dg is not None:
            to_dip = dip_orders(m, pos0, orders)

            def dip_set():
                dg.error = []
                for p, lst in to_dip.items():
                    dg.set_orders(self.names[p], lst)
                refused.extend(dg.error)

            self.add(ptype, "dip_set", timed(dip_set))
        if prof is not None:
            prof["Game.process()"].enable()
        self.add(ptype, "poly_proc", timed(g.process))
        if prof is not None:
            prof["Game.process()"].disable()
        if dg is not None:
            self.add(ptype, "dip_proc", timed(dg.process))
        self.phases += 1
        if dg is None:
            return
        after = g.position
        self.refused += len(refused)
        for r in refused:
            r = str(r)
            kind = r.split(":")[0].strip()
            self.refused_kinds[kind] = self.refused_kinds.get(kind, 0) + 1
            if len(self.refused_examples) < 3:
                self.refused_examples.append(f"{pos0.phase.name}: {r}")
        known, text = self.check(pos0, after, orders, refused)
        for k in known:
            self.known[k] += 1
        if text:
            self.unexplained.append(text)
        elif not known:
            self.agreed += 1
        if not g.is_over:
            resync_diplomacy_any(m, g.position, dg, self.names)

    # -- comparison -----------------------------------------------------------------------

    def dip_snapshot(self, dg):
        """The diplomacy game in common.Snapshot's normal form, with polydip's power names
        (upper case) and phase names, so common's filters apply."""
        from common import snapshot_diplomacy

        s = snapshot_diplomacy(dg)
        back = {dn: pn.upper() for pn, dn in zip(self.g.map.powers, self.names, strict=True)}
        s.units = {back[k]: v for k, v in s.units.items()}
        s.centers = {back[k]: v for k, v in s.centers.items()}
        s.dislodged = {back[k]: v for k, v in s.dislodged.items()}
        s.phase = dip_phase_to_polydip(s.phase)
        return s

    def compare(self, g, after, dg, conventions: list[str] | None = None):
        """polydip's snapshot, diplomacy's raw one, the same with the convoy-retreat
        deviation filtered out, and notes. When the diplomacy package stops in an adjustment
        phase that polydip skipped because only a neutral power (a DPjudge DUMMY) has
        something to adjust, that phase is processed with no orders (the diplomacy package
        orders it in civil disorder) and its key goes to `conventions`."""
        from common import filter_convoy_retreats, snapshot_polydip

        poly = snapshot_polydip(g)
        raw = self.dip_snapshot(dg)
        dip, notes = filter_convoy_retreats(g.map, after, raw)
        if notes and raw.phase.endswith("R") and not dip.dislodged and not any(
                d.retreats for d in after.dislodged):
            dg.process()
            raw = self.dip_snapshot(dg)
            dip, more = filter_convoy_retreats(g.map, after, raw)
            notes += more
        m = g.map
        nu = {n.upper() for n, x in zip(m.powers, m.power_neutral, strict=True) if x}
        if (nu and any(dip.dislodged.get(k) for k in nu)
                and not any(poly.dislodged.get(k) for k in nu)):
            # the neutral power's dislodged units: disbanded at once by polydip's rule
            if conventions is not None:
                conventions.append("neutral-disbands")
            if not poly.phase.endswith("R") and not any(
                    v for k, v in dip.dislodged.items() if k not in nu):
                dg.process()  # the package's retreat phase, no orders: civil disorder
                raw = self.dip_snapshot(dg)
                dip, more = filter_convoy_retreats(g.map, after, raw)
                notes += more
            else:
                dip.dislodged = {k: v for k, v in dip.dislodged.items() if k not in nu}
        if raw.phase.endswith("A") and not poly.phase.endswith("A") and any(m.power_neutral):
            from polydip.adjudication.adjustments import adjustment_counts

            counts = adjustment_counts(m, g.position)
            neutral = {self.names[i] for i, n in enumerate(m.power_neutral) if n}
            uneven = {p.name for p in dg.powers.values() if len(p.units) != len(p.centers)}
            if uneven and uneven <= neutral and not any(counts):
                before = {p.name: len(p.units) for p in dg.powers.values()}
                dg.process()
                raw = self.dip_snapshot(dg)
                dip, more = filter_convoy_retreats(g.map, after, raw)
                notes += more
                lost = {p.name: before[p.name] - len(p.units) for p in dg.powers.values()
                        if len(p.units) != before[p.name]}
                if conventions is not None:
                    conventions.append("neutral-removes" if lost else "neutral-adjustment")
                    if lost:  # only the neutral power's units may differ then
                        nu = {n.upper() for n, x in zip(m.powers, m.power_neutral, strict=True)
                              if x}
                        if all(dip.units.get(k) == poly.units.get(k)
                               for k in set(dip.units) | set(poly.units) if k not in nu):
                            dip.units = {k: v for k, v in dip.units.items() if k not in nu}
                            dip.units.update({k: v for k, v in poly.units.items() if k in nu})
        return poly, raw, dip, notes

    def rerun_dip(self, pos0, orders, patches=()):
        import diplomacy
        from common import _patched_class, dip_orders, resync_diplomacy_any

        cls = _patched_class(tuple(sorted(patches))) if patches else diplomacy.Game
        dg = cls(map_name=self.name)
        resync_diplomacy_any(self.g.map, pos0, dg, self.names)
        for p, lst in dip_orders(self.g.map, pos0, orders).items():
            dg.set_orders(self.names[p], lst)
        dg.error = []
        dg.process()
        return dg

    def explain(self, after, pos0, orders, poly, raw):
        """common.explain, the diplomacy package re-run on this map (names mapped)."""
        from common import explain

        return explain(self.g, after, pos0, orders, poly, raw, rerun_dip=self.rerun_dip,
                       compare_fn=lambda g, aft, dg: self.compare(g, aft, dg))

    def check(self, pos0, after, orders, refused) -> tuple[list[str], str]:
        g, dg = self.g, self.dg
        known: list[str] = []
        conventions: list[str] = []
        poly, raw, dip, notes = self.compare(g, after, dg, conventions)
        if notes:
            known.append("convoy-retreat-occupied")
        known += conventions
        diffs = poly.differences(dip)
        if not diffs:
            return known, ""
        combo = self.explain(after, pos0, orders, poly, raw)
        if combo is not None:
            return known + [k for k in combo if k not in known], ""
        return known, self.describe(pos0, orders, refused, poly, raw, diffs)

    def describe(self, pos0, orders, refused, poly, dip, diffs) -> str:
        m = self.g.map
        lines = [f"{self.name}, phase {pos0.phase.name}: the engines disagree on "
                 f"{', '.join(diffs)}"]
        if "phase" in diffs:
            lines.append(f"  next phase: polydip {poly.phase} | diplomacy {dip.phase}")
            pos = self.g.position
            uneven = [f"{m.powers[i]}{' (neutral)' if m.power_neutral[i] else ''} "
                      f"{sum(1 for u in pos.units if u.power == i)} units / "
                      f"{len(pos.centers_of(i))} centers" for i in range(len(m.powers))
                      if sum(1 for u in pos.units if u.power == i) != len(pos.centers_of(i))]
            lines.append(f"  powers with units != centers after the phase: "
                         f"{'; '.join(uneven) or '-'}")
        provs: set[str] = set()
        for name in ("units", "centers", "dislodged"):
            a, b = getattr(poly, name), getattr(dip, name)
            for power in sorted(set(a) | set(b)):
                x = a.get(power, {} if name == "dislodged" else [])
                y = b.get(power, {} if name == "dislodged" else [])
                if x == y:
                    continue
                if name == "dislodged":
                    only_a = {u: r for u, r in x.items() if y.get(u) != r}
                    only_b = {u: r for u, r in y.items() if x.get(u) != r}
                    provs |= {u.split()[1][:3] for u in [*only_a, *only_b]}
                else:
                    only_a = [u for u in x if u not in y]
                    only_b = [u for u in y if u not in x]
                    provs |= {u.split()[-1][:3] for u in [*only_a, *only_b]}
                lines.append(f"  {name} of {power}: polydip {only_a or '-'} | "
                             f"diplomacy {only_b or '-'}")
        involved = []
        for p, lst in sorted(orders.items()):
            for o in lst:
                if any(w[:3] in provs for w in o.split()):
                    involved.append(f"{m.powers[p]}: {o}")
        owner = {m.loc_prov[u.loc]: u for u in pos0.units}
        around = sorted({f"{m.powers[owner[m.prov_index[q]].power]} "
                         f"{m.unit_str(owner[m.prov_index[q]].kind, owner[m.prov_index[q]].loc)}"
                         for q in provs if q in m.prov_index and m.prov_index[q] in owner})
        lines.append(f"  units before on those provinces: {'; '.join(around) or '-'}")
        lines.append(f"  orders naming them: {'; '.join(involved) or '-'}")
        if refused:
            lines.append(f"  refused by diplomacy: {'; '.join(refused)}")
        return "\n".join(lines)


# ---- reporting ---------------------------------------------------------------------------

def diplomacy_cache_status(name: str) -> str:
    """Where the diplomacy package finds this map's convoy table on disk (if anywhere)."""
    path = map_path(name)
    md5 = hashlib.md5(path.read_bytes()).hexdigest()
    internal = path.parent / "convoy_paths_cache.pkl"
    external = Path(os.path.expanduser("~")) / ".cache" / "diplomacy" / "convoy_paths_cache.pkl"
    for where in (internal, external):
        if where.exists():
            try:
                with open(where, "rb") as f:
                    if md5 in pickle.load(f):
                        return f"on disk: {where} ({where.stat().st_size / 1e6:.1f} MB)"
            except Exception:
                pass
    return "not on disk: the first diplomacy.Game on this map builds it (minutes)"


def polydip_fingerprint() -> str:
    """A short hash of polydip's source files (the figures belong to one version of src/)."""
    spec = importlib.util.find_spec("polydip")
    root = Path(next(iter(spec.submodule_search_locations))) if spec else None
    if root is None:
        return "?"
    h = hashlib.sha1()
    for f in sorted(root.rglob("*.py")):
        h.update(str(f.relative_to(root)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def fmt_ms(v: float) -> str:
    if v != v:  # NaN
        return "-"
    return f"{v:,.2f}" if v < 100 else f"{v:,.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, default=30, help="random phases per map (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--maps", default=",".join(MAPS),
                    help=f"comma-separated map names (default {','.join(MAPS)})")
    ap.add_argument("--skip-diplomacy", action="store_true", help="time polydip only")
    ap.add_argument("--crowded-map", default="world",
                    help="map of the crowded-seas check (default world; 'none' to skip)")
    ap.add_argument("--crowded-armies", default="10,30,all",
                    help="armies on coasts in the crowded-seas positions, comma-separated "
                         "('all': every coastal province; default 10,30,all)")
    ap.add_argument("--crowded-timeout", type=float, default=120.0,
                    help="seconds allowed to each crowded-seas child process (default 120)")
    ap.add_argument("--diplomacy-cold-cache", action="store_true",
                    help="also time the diplomacy package's convoy-cache build (child process "
                         "with an empty temporary HOME; minutes per map)")
    ap.add_argument("--profile", action="store_true",
                    help="cProfile polydip's process() and legal_orders() in the lock-step games")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time the lock-step calls by the wall clock (default) or by the CPU "
                         "time of the thread (steadier on a busy shared machine)")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    set_clock(args.clock)

    if args.worker:
        kind, *rest = args.worker
        if kind == "first-polydip":
            worker_first_polydip(rest[0])
        elif kind == "first-diplomacy":
            worker_first_diplomacy(rest[0])
        elif kind == "crowded":
            engine, name, n, seed = rest
            worker_crowded(engine, name, None if n == "all" else int(n), int(seed))
        return 0

    if diplomacy_maps_dir() is None:
        print("bench/bigmaps.py needs the `diplomacy` package (the optional extra 'bench'), "
              "which holds the map files:\n    pip install -e '.[bench]'", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    out = Console(width=max(Console().width, 150))
    err = Console(stderr=True)
    with_dip = not args.skip_diplomacy
    maps = [x.strip() for x in args.maps.split(",") if x.strip()]
    for name in maps:
        if not map_path(name).exists():
            err.print(f"no map {map_path(name)}")
            return 2
    t_start = time.perf_counter()

    # ---- first game, fresh interpreter (before this process imports either engine) --------
    fresh: dict[str, dict[str, Any]] = {}
    cold: dict[str, dict[str, Any]] = {}
    status = {name: diplomacy_cache_status(name) for name in maps} if with_dip else {}
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=err) as progress:
        jobs = [("first-polydip", n) for n in maps]
        if with_dip:
            jobs += [("first-diplomacy", n) for n in maps]
            if args.diplomacy_cold_cache:
                jobs += [("cold", n) for n in maps]
        task = progress.add_task("first game, fresh interpreter", total=len(jobs))
        for kind, name in jobs:
            progress.update(task, description=f"first game ({kind}, {name})")
            if kind == "cold":
                with tempfile.TemporaryDirectory(prefix="bigmaps-home-") as home:
                    env = dict(os.environ, HOME=home)
                    lines, to, wall, e = run_worker(["first-diplomacy", name], 3600, env)
                    cold[name] = dict(lines[-1] if lines else {}, timed_out=to, wall=wall,
                                      err=e)
            else:
                lines, to, wall, e = run_worker([kind, name], 600)
                fresh[f"{kind}:{name}"] = dict(lines[-1] if lines else {}, timed_out=to,
                                               wall=wall, err=e)
            progress.advance(task)

        # ---- lock-step games --------------------------------------------------------------
        prof = None
        if args.profile:
            import cProfile

            prof = {"Game.process()": cProfile.Profile(), "legal_orders()": cProfile.Profile()}
        t_imp = time.perf_counter()
        import polydip.adjudication.legal
        import polydip.game.game  # noqa: F401
        poly_import = time.perf_counter() - t_imp
        dip_import = None
        if with_dip:
            t_imp = time.perf_counter()
            import diplomacy  # noqa: F401
            dip_import = time.perf_counter() - t_imp
        runs: list[MapRun] = []
        task = progress.add_task("phases", total=len(maps) * args.phases)
        for i, name in enumerate(maps):
            progress.update(task, description=f"{name}: first game")
            run = MapRun(name, args.seed + i, with_dip)
            runs.append(run)
            progress.update(task, description=f"{name} (seed {args.seed + i})")
            done = 0
            while done < args.phases and not run.g.is_over:
                run.step(prof)
                done += 1
                progress.advance(task)
            progress.advance(task, args.phases - done)

        # ---- crowded seas -------------------------------------------------------------------
        crowded: list[dict[str, Any]] = []
        if args.crowded_map != "none":
            sizes = [s.strip() for s in args.crowded_armies.split(",") if s.strip()]
            engines = ["polydip"] + (["diplomacy"] if with_dip else [])
            task = progress.add_task("crowded seas", total=len(sizes) * len(engines))
            for size in sizes:
                for engine in engines:
                    progress.update(task, description=f"crowded seas: {engine}, "
                                                      f"{size} armies")
                    lines, to, wall, e = run_worker(
                        ["crowded", engine, args.crowded_map, size, str(args.seed)],
                        args.crowded_timeout)
                    res: dict[str, Any] = {"engine": engine, "size": size, "timed_out": to,
                                           "wall": wall, "err": e}
                    for line in lines:
                        res[line.pop("what")] = line
                    crowded.append(res)
                    progress.advance(task)
    elapsed = time.perf_counter() - t_start

    # ---- report -------------------------------------------------------------------------
    def ratio(a: float, b: float) -> str:
        return f"{b / a:.1f}x" if a > 0 and b == b else "-"

    who = "polydip vs diplomacy" if with_dip else "polydip"
    table = Table(title=f"{who} on big maps: mean ms per phase, first call on "
                        f"each position ({args.phases} phases per map, seed {args.seed})")
    cols = ["map", "phase type", "phases", "process() polydip", "process() diplomacy",
            "ratio", "legal orders polydip", "legal orders diplomacy (cold)", "ratio",
            "set_orders polydip", "set_orders diplomacy"]
    keep = [i for i, c in enumerate(cols) if with_dip or ("diplomacy" not in c and c != "ratio")]
    cols = [cols[i] for i in keep]
    for c in cols:
        if c in ("map", "phase type"):
            table.add_column(c, justify="left", no_wrap=True)
        else:
            table.add_column(c, justify="right")
    for run in runs:
        first_row = True
        for key, tname in [*TYPES.items(), (None, "all")]:
            n = run.count(key, "poly_proc")
            if not n:
                continue
            pp, dp = run.mean(key, "poly_proc"), run.mean(key, "dip_proc")
            pl, dl = run.mean(key, "poly_legal"), run.mean(key, "dip_legal")
            row = [run.name if first_row else "", tname, str(n), fmt_ms(pp), fmt_ms(dp),
                   ratio(pp, dp), fmt_ms(pl), fmt_ms(dl), ratio(pl, dl),
                   fmt_ms(run.mean(key, "poly_set")), fmt_ms(run.mean(key, "dip_set"))]
            table.add_row(*[row[i] for i in keep])
            first_row = False
    out.print(table)
    for run in runs:
        pp, dp = run.mean(None, "poly_proc"), run.mean(None, "dip_proc")
        pl, dl = run.mean(None, "poly_legal"), run.mean(None, "dip_legal")
        m = run.g.map
        def worst(key: str, run=run) -> str:
            vals = [v for row in run.stats.rows.values() for v in row.get(key, [])]
            return fmt_ms(max(vals)) if vals else "-"

        line = (f"{run.name}: {len(m.powers)} powers, {m.n_prov} provinces, "
                f"{len(run.g.position.units)} units at the end ({run.g.position.phase.name}); "
                f"process(): polydip {fmt_ms(pp)} ms/phase (slowest {worst('poly_proc')})")
        if with_dip:
            r = dp / pp
            line += (f", diplomacy {fmt_ms(dp)} ms/phase (slowest {worst('dip_proc')}), "
                     f"{r:.1f}x faster (target {TARGET:.0f}x: "
                     f"{'met' if r >= TARGET else 'NOT met'}); legal orders: polydip "
                     f"{fmt_ms(pl)} ms (slowest {worst('poly_legal')}), diplomacy {fmt_ms(dl)} "
                     f"ms cold (slowest {worst('dip_legal')}), {dl / pl:.1f}x")
        else:
            line += f"; legal orders: polydip {fmt_ms(pl)} ms (slowest {worst('poly_legal')})"
        out.print(line, highlight=False)

    # first game
    ft = Table(title="first game on the map, ms")
    for c in ("map", "polydip Game.new", "polydip first legal_orders",
              "polydip fresh interpreter: import + new + legal", "diplomacy Game(map_name)",
              "diplomacy fresh interpreter: import + Game + legal"):
        ft.add_column(c, justify="left" if c == "map" else "right")
    for run in runs:
        fp = fresh.get(f"first-polydip:{run.name}", {})
        fd = fresh.get(f"first-diplomacy:{run.name}", {})
        fpt = (f"{fp['import_ms']:,.0f} + {fp['new_ms']:,.0f} + {fp['legal_ms']:,.0f}"
               if "new_ms" in fp else "-")
        fdt = (f"{fd['import_ms']:,.0f} + {fd['game_ms']:,.0f} + {fd['legal_ms']:,.0f}"
               if "game_ms" in fd else "-")
        ft.add_row(run.name, fmt_ms(run.first["poly_new_ms"]), fmt_ms(run.first["poly_legal_ms"]),
                   fpt, fmt_ms(run.first.get("dip_game_ms", float("nan"))), fdt)
    out.print(ft)
    out.print(f"in this process: import polydip {poly_import * 1e3:,.0f} ms"
              + (f", import diplomacy {dip_import * 1e3:,.0f} ms (it loads every cached convoy "
                 "table at import)" if dip_import is not None else ""), highlight=False)
    for name, st in status.items():
        out.print(f"diplomacy convoy-path table for {name}: {st}", highlight=False)
    for name, c in cold.items():
        if c.get("timed_out"):
            out.print(f"diplomacy, empty cache, {name}: not done in an hour", highlight=False)
        elif "game_ms" in c:
            out.print(f"diplomacy, empty cache (fresh HOME), {name}: import "
                      f"{c['import_ms'] / 1e3:.1f} s, Game(map_name) {c['game_ms'] / 1e3:.1f} s "
                      f"(convoy table built: {c['built']}; written to "
                      f"~/.cache/diplomacy/convoy_paths_cache.pkl, "
                      f"{c['cache_bytes'] / 1e6:.1f} MB), first legal {c['legal_ms']:,.0f} ms",
                      highlight=False)
        else:
            out.print(f"diplomacy, empty cache, {name}: failed: {c.get('err')}", markup=False)

    # crowded seas
    if crowded:
        ct = Table(title=f"crowded seas on {args.crowded_map}: a fleet on every sea, armies on "
                         f"coasts, one movement phase with constructed convoys (fresh child "
                         f"process each, limit {args.crowded_timeout:.0f} s), ms")
        for c in ("armies", "engine", "units", "convoy orders (armies)", "set_orders",
                  "process()", "legal orders (first call)", "legal orders listed (convoys)",
                  "legal again"):
            ct.add_column(c, justify="left" if c in ("engine",) else "right")
        for r in crowded:
            pos = r.get("position", {})
            pr = r.get("process", {})
            lg = r.get("legal", {})
            la = r.get("legal_again", {})
            limit = f"> {args.crowded_timeout:.0f} s (stopped)" if r["timed_out"] else (
                "failed" if r["err"] else "-")
            ct.add_row(str(pos.get("armies", r["size"])), r["engine"], str(pos.get("units", "")),
                       f"{pos.get('convoy_orders', '')} ({pos.get('convoyed_armies', '')})",
                       fmt_ms(pr["set_orders_ms"]) if pr else limit,
                       fmt_ms(pr["process_ms"]) if pr else limit,
                       fmt_ms(lg["legal_ms"]) if lg else limit,
                       f"{lg['orders']:,} ({lg['convoys']:,})" if lg else "-",
                       fmt_ms(la["legal_ms"]) if la else ("-" if r["engine"] != "polydip"
                                                          else limit))
        out.print(ct)
        by_size: dict[str, dict[str, dict]] = defaultdict(dict)
        for r in crowded:
            by_size[r["size"]][r["engine"]] = r
            if r["err"] and not r["timed_out"]:
                out.print(f"crowded {r['engine']} {r['size']}: {r['err']}", markup=False)
        for size, rs in by_size.items():
            pp = rs.get("polydip", {}).get("process")
            dp = rs.get("diplomacy", {}).get("process")
            if pp and dp:
                same = pp["units"] == dp["units"] and pp["dislodged"] == dp["dislodged"]
                out.print(f"crowded seas, {size} armies: after the phase the engines "
                          f"{'agree' if same else 'DISAGREE'} (units and dislodged units)",
                          highlight=False)
                if not same:
                    for pw in sorted(set(pp["units"]) | set(dp["units"])):
                        a, b = pp["units"].get(pw, []), dp["units"].get(pw, [])
                        if a != b:
                            out.print(f"  {pw}: polydip {sorted(set(a) - set(b))} | diplomacy "
                                      f"{sorted(set(b) - set(a))}", markup=False)
                    if pp["dislodged"] != dp["dislodged"]:
                        out.print(f"  dislodged: polydip {pp['dislodged']} | diplomacy "
                                  f"{dp['dislodged']}", markup=False)
        worst = [r["legal"]["legal_ms"] for r in crowded if r["engine"] == "polydip"
                 and "legal" in r]
        stopped = [r for r in crowded if r["engine"] == "polydip" and "legal" not in r]
        procs = [r["process"]["process_ms"] for r in crowded if r["engine"] == "polydip"
                 and "process" in r]
        fast = not stopped and worst and max(worst) < CROWDED_LIMIT_MS and procs and max(
            procs) < CROWDED_LIMIT_MS
        out.print(f"crowded seas, polydip: process() at most {fmt_ms(max(procs or [0]))} ms, "
                  f"legal_orders at most "
                  f"{fmt_ms(max(worst)) if worst else '-'} ms"
                  + (f", {len(stopped)} run(s) stopped at {args.crowded_timeout:.0f} s"
                     if stopped else "")
                  + f" (under {CROWDED_LIMIT_MS / 1e3:.0f} s: {'met' if fast else 'NOT met'})",
                  highlight=False)

    if with_dip:
        from common import KNOWN_DEVIATIONS

        for run in runs:
            kn = ", ".join(f"{k} ({KNOWN_DEVIATIONS[k].datc}) {v}" if k in KNOWN_DEVIATIONS
                           else f"{k} (import convention) {v}"
                           for k, v in sorted(run.known.items()))
            out.print(f"lock-step check, {run.name}: {run.agreed}/{run.phases} phases agreed "
                      f"outright; known deviations: {kn or 'none'}; {len(run.unexplained)} "
                      f"unexplained; {run.refused} orders refused by diplomacy; "
                      f"{run.convoy_orders} convoy orders given", highlight=False)
            if run.refused:
                kinds = ", ".join(f"{k} {v}" for k, v in sorted(run.refused_kinds.items()))
                out.print(f"  refused by diplomacy: {kinds}; e.g. "
                          f"{'; '.join(run.refused_examples)}", markup=False, highlight=False)
            for k in sorted(run.known):
                if k in CONVENTIONS:
                    out.print(f"  {k}: {CONVENTIONS[k]}", highlight=False)
            for text in run.unexplained:
                out.print(text, markup=False, highlight=False)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    out.print(f"total {elapsed:.1f} s; polydip source fingerprint {polydip_fingerprint()}"
              + (f"; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}" if load else ""),
              highlight=False)
    if prof is not None:
        from bench import print_profile

        out.print("\n(--profile: the lock-step timings above include cProfile's overhead)")
        for pname, p in prof.items():
            print_profile(out, pname, p, top=25)
    return 0


if __name__ == "__main__":
    sys.exit(main())
