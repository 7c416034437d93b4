#!/usr/bin/env python
"""Benchmark polydip against the `diplomacy` package (1.1.2) on random standard games.

    python bench/bench.py [--games N] [--seed S] [--phases P] [--repeat R]
                          [--shared-map [--warmup W]] [--profile]

Both engines are played in lock-step (bench/common.py): at each phase polydip's random orders
(polydip.play.random_orders) are given to both as the same strings, each engine processes the
phase, and the positions are compared (known deviations of the diplomacy package are
re-synchronised; see bench/README.md). Timed (--clock), on the same position:

* adjudication: polydip `Game.process()` (parse the order strings, adjudicate, next phase)
  against diplomacy `Game.process()`; for movement phases also polydip's raw adjudication,
  `resolve_movement` on the parsed orders, timed inside that `process()` call; and order
  entry plus adjudication (`set_orders` for every power, then `process()`);
* legal orders: polydip `legal_orders(map, position)` against diplomacy
  `Game.get_all_possible_orders()` cold (its per-position caches cleared first).

The phases and orders are recorded, and the headline table times each engine again in its
own loop over them, each position new to it, polydip's caches emptied first (as a program
simulating games runs; the one-shot contract in a loop of its own, as a service answering
requests runs). The lock-step ("interleaved") table times the first call of each on each
position with the other engine's work in between, which empties the CPU caches (the package's
game copies for the hot table come right before polydip's process()); the "hot" table gives
the fastest of --repeat more calls on the same position. Garbage collection is off during a
timed call, as timeit does. Tables give the mean over phases, in µs. Needs the optional extra
`bench`: pip install -e '.[bench]'.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import (
    KNOWN_DEVIATIONS,
    LockStep,
    Stats,
    clear_polydip_caches,
    dip_orders,
    diplomacy_available,
    give_orders,
    safe_random_orders,
    set_clock,
    timed,
)

from polydip.adjudication.legal import legal_orders
from polydip.game.positions import position_to_json
from polydip.oneshot import run_lines
from polydip.state import Position

TYPES = {"M": "movement", "R": "retreat", "A": "adjustment"}
TARGET_ADJ, TARGET_LEGAL, TARGET_LOOP, TARGET_ONESHOT = 20.0, 10.0, 20.0, 10.0


def prof_on(prof, name: str):
    return prof[name].enable if prof is not None else None


def prof_off(prof, name: str):
    return prof[name].disable if prof is not None else None


HISTORIES = ("order_history", "message_history", "state_history", "result_history")


def clone_diplomacy(dg):
    """A copy of a diplomacy game that process() can run on, made quickly: Game.__deepcopy__
    would copy the phase histories, whose keys hold the whole map (0.5 s a copy), so the copy
    gets empty histories (process() only appends to them). The caches are rebuilt on the copy
    because deepcopy duplicates the Power objects held in _unit_owner_cache and the engine
    compares owners with `is`."""
    from diplomacy.utils.sorted_dict import SortedDict

    saved = {k: getattr(dg, k) for k in HISTORIES}
    try:
        for k, v in saved.items():
            setattr(dg, k, SortedDict(v.key_type, v.val_type))
        c = copy.deepcopy(dg)
    finally:
        for k, v in saved.items():
            setattr(dg, k, v)
    c.build_caches()
    return c


def best_us(samples: list[float]) -> float:
    """The fastest of the repeats, in µs (the usual timeit practice)."""
    return min(samples) * 1e6


class RawTimer:
    """Times polydip's resolve_movement as Game.process() calls it (the call inside
    polydip.game.engine.process), so the raw adjudication is measured in the same call. In
    the compiled build the engine calls the function directly, not through its module's
    attribute, so nothing is measured there (docs/speed.md)."""

    def __init__(self) -> None:
        import polydip.game.engine as engine

        self.engine = engine
        self.inner = getattr(engine, "resolve_movement", None)
        self.last = 0.0

    def __enter__(self) -> RawTimer:
        inner = self.inner

        import common

        def wrapper(*a, **k):
            clock = common.CLOCK
            t0 = clock()
            try:
                return inner(*a, **k)
            finally:
                self.last = clock() - t0

        self.last = 0.0
        if inner is not None:
            self.engine.resolve_movement = wrapper
        return self

    def __exit__(self, *exc) -> None:
        if self.inner is not None:
            self.engine.resolve_movement = self.inner


def bench_phase(ls: LockStep, stats: Stats, repeat: int, prof=None, record=None):
    """Time one phase. The first call of each measurement on the position is the main
    figure (what a program playing the game pays); `repeat` more calls on the same position,
    fastest kept, give the 'hot' figure (caches the first call filled)."""
    g, m = ls.g, ls.g.map
    pos0 = g.position
    ptype = pos0.phase.type
    dg = ls.dg
    out: dict[str, object] = {}

    def poly_legal():
        out["legal"] = legal_orders(m, pos0)

    # ---- legal orders on the position --------------------------------------------------
    # diplomacy cold: its per-position caches cleared first (warm: as process() left them)
    stats.add(ptype, "poly_legal", timed(poly_legal, prof_on(prof, "legal_orders()"),
                                         prof_off(prof, "legal_orders()")) * 1e6)
    stats.add(ptype, "dip_legal", timed(dg.get_all_possible_orders, dg.clear_cache) * 1e6)
    dg.build_caches()
    if repeat:
        stats.add(ptype, "hot_poly_legal", best_us([timed(poly_legal) for _ in range(repeat)]))
        stats.add(ptype, "hot_dip_legal", best_us(
            [timed(dg.get_all_possible_orders, dg.clear_cache) for _ in range(repeat)]))
        dg.build_caches()
        stats.add(ptype, "hot_dip_legal_warm", best_us(
            [timed(dg.get_all_possible_orders) for _ in range(repeat)]))

    # ---- orders, given to both engines -------------------------------------------------
    orders = safe_random_orders(m, pos0, ls.rng, legal=out["legal"])
    to_dip = dip_orders(m, pos0, orders)

    def poly_set():
        for p, lst in orders.items():
            g.set_orders(p, lst)

    def dip_set():
        for p, lst in to_dip.items():
            dg.set_orders(m.powers[p].upper(), lst)

    if record is not None:  # for the own loops: the same phase, before any orders are given
        line = None
        if ptype == "M":
            line = json.dumps({**position_to_json(m, pos0),
                               "orders": {m.powers[p]: lst for p, lst in orders.items()}})
        record.append(Phase(ptype, pos0.copy(), {p: list(v) for p, v in orders.items()},
                            {m.powers[p].upper(): lst for p, lst in to_dip.items()},
                            clone_diplomacy(dg), line))
    stats.add(ptype, "poly_set", timed(poly_set) * 1e6)
    stats.add(ptype, "dip_set", timed(dip_set) * 1e6)
    if repeat:
        stats.add(ptype, "hot_poly_set", best_us([timed(poly_set) for _ in range(repeat)]))
        stats.add(ptype, "hot_dip_set", best_us([timed(dip_set) for _ in range(repeat)]))
    refused = give_orders(g, dg, orders, to_dip)

    # ---- the one-shot contract on the same phase: a JSON line in, a JSON line out -------
    if ptype == "M":
        line = json.dumps({**position_to_json(m, pos0),
                           "orders": {m.powers[p]: lst for p, lst in orders.items()}})

        def oneshot() -> None:
            for res in run_lines([line]):
                json.dumps(res)

        stats.add(ptype, "poly_oneshot", timed(oneshot) * 1e6)

    # ---- the phase: polydip Game.process() vs diplomacy Game.process() -----------------
    clones = [clone_diplomacy(dg) for _ in range(repeat)]
    with RawTimer() as raw:
        stats.add(ptype, "poly_proc", timed(g.process, prof_on(prof, "Game.process()"),
                                            prof_off(prof, "Game.process()")) * 1e6)
        if ptype == "M" and raw.last:
            stats.add(ptype, "poly_raw", raw.last * 1e6)
        if repeat:
            samples, raws = [], []
            for _ in range(repeat):
                samples.append(timed(g.process, g.undo))
                raws.append(raw.last)
            stats.add(ptype, "hot_poly_proc", best_us(samples))
            if ptype == "M" and raws[0]:
                stats.add(ptype, "hot_poly_raw", best_us(raws))
    stats.add(ptype, "dip_proc", timed(dg.process) * 1e6)
    if repeat:
        stats.add(ptype, "hot_dip_proc", best_us([timed(c.process) for c in clones]))

    return ls.check(pos0, orders, refused)


@dataclass
class Phase:
    """One recorded phase, before either engine was given its orders: what the own loops
    replay."""

    type: str
    position: Position
    orders: dict[int, list[str]]  # polydip's order strings per power index
    dip_orders: dict[str, list[str]]  # the same orders as the package reads them, by power
    dip_game: Any  # a copy of the diplomacy game at this phase, no orders given yet
    oneshot_line: str | None  # movement phases: the one-shot request of this phase


def own_loops(record: list[Phase], stats: Stats) -> None:
    """Time each engine on the recorded phases in its own loop, each position new to it — as
    a program simulating games runs it — polydip's caches emptied first: per phase the legal
    orders, `set_orders` for every power and `process()`. Then polydip's one-shot contract on
    the movement phases, in a loop of its own (caches emptied again), as a service answering
    requests runs it."""
    from polydip.game.game import Game

    clear_polydip_caches()
    for ph in record:  # polydip
        g = Game.new("standard")
        g.position = ph.position.copy()
        stats.add(ph.type, "own_poly_legal", timed(lambda g=g: legal_orders(g.map, g.position))
                  * 1e6)
        stats.add(ph.type, "own_poly_set", timed(
            lambda g=g, o=ph.orders: [g.set_orders(p, lst) for p, lst in o.items()]) * 1e6)
        stats.add(ph.type, "own_poly_proc", timed(g.process) * 1e6)
    for ph in record:  # diplomacy
        dg = ph.dip_game
        stats.add(ph.type, "own_dip_legal", timed(dg.get_all_possible_orders, dg.clear_cache)
                  * 1e6)
        dg.build_caches()
        stats.add(ph.type, "own_dip_set", timed(
            lambda dg=dg, o=ph.dip_orders: [dg.set_orders(p, lst) for p, lst in o.items()])
            * 1e6)
        stats.add(ph.type, "own_dip_proc", timed(dg.process) * 1e6)
    clear_polydip_caches()
    for ph in record:  # polydip's one-shot contract
        if ph.oneshot_line is not None:
            stats.add(ph.type, "own_poly_oneshot", timed(
                lambda line=ph.oneshot_line: [json.dumps(r) for r in run_lines([line])]) * 1e6)


def print_profile(out, name: str, prof, top: int = 18) -> None:
    """polydip's functions by own time (tottime) and time including callees (cumtime), in %
    of the profiled total."""
    import pstats

    st = pstats.Stats(prof)
    total = st.total_tt or 1.0
    rows = []
    for (path, line, func), (_cc, nc, tt, ct, _callers) in st.stats.items():
        where = f"{Path(path).name}:{line}({func})" if line else func
        rows.append((tt, ct, nc, where))
    out.print(f"\ncProfile of polydip {name}, first call on each position: "
              f"{total * 1e3:.0f} ms in all (profiler overhead included)",
              markup=False, highlight=False)
    out.print(f"{'own %':>6} {'incl. %':>8} {'calls':>8}  function", markup=False)
    for tt, ct, nc, where in sorted(rows, reverse=True)[:top]:
        out.print(f"{100 * tt / total:6.1f} {100 * ct / total:8.1f} {nc:8d}  {where}",
                  markup=False, highlight=False)


def warm_polydip(games: int, phases: int, err) -> None:
    """Play `games` random games with polydip alone on the shared map (seeds from 10,000)."""
    from common import base_game
    from rich.progress import Progress

    from polydip.game.game import Game, initial_position

    base = base_game()
    with Progress(console=err, transient=True) as progress:
        task = progress.add_task("warm-up (polydip only)", total=games)
        for i in range(games):
            rng = random.Random(10_000 + i)
            g = Game(base.variant, base.map, initial_position(base.map), dict(base.options))
            for _ in range(phases):
                if g.is_over:
                    break
                for p, lst in safe_random_orders(g.map, g.position, rng).items():
                    g.set_orders(p, lst)
                g.process()
            progress.advance(task)


def fast_loop(games: int, phases: int, seed: int) -> tuple[int, float, float]:
    """The integer fast path's random-game loop (polydip.fast): legal codes of every item, a
    random code each, step. Returns (phases, wall seconds, CPU seconds)."""
    from polydip.fast import FastGame

    base = FastGame.new("standard")
    done = 0
    t0, c0 = time.perf_counter(), time.process_time()
    for i in range(games):
        rng = random.Random(seed + i)
        choice = rng.choice
        fg = FastGame(base.m, base.position, base.options)
        for _ in range(phases):
            if fg.is_over:
                break
            fg.step([choice(c) if c else -1 for c in fg.legal()])
            done += 1
    return done, time.perf_counter() - t0, time.process_time() - c0


MEMORY = """
import random, resource, sys, tracemalloc
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
if sys.argv[1] == "polydip":
    from polydip.game.game import Game
    from polydip.play import random_orders
    def new():
        return Game.new("standard")
    def play(g, rng):
        for _ in range(int(sys.argv[2])):
            for p, lst in random_orders(g.map, g.position, rng).items():
                g.set_orders(p, lst)
            g.process()
else:
    import diplomacy
    def new():
        return diplomacy.Game()
    def play(g, rng):
        for _ in range(int(sys.argv[2])):
            for power, locs in g.get_orderable_locations().items():
                poss = g.get_all_possible_orders()
                g.set_orders(power, [rng.choice(poss[l]) for l in locs if poss[l]])
            g.process()
rng = random.Random(1)
g = new(); play(g, rng)
one = rss()
tracemalloc.start()
more = [new() for _ in range(20)]
for x in more:
    play(x, rng)
per_game = tracemalloc.get_traced_memory()[0] / 20 / 1024 / 1024
print(f"{one:.1f} {per_game:.2f}")
"""


def memory(engine: str, phases: int) -> tuple[float, float]:
    """(MB of a process holding one game played `phases` phases, MB per additional game
    played as far, history included) for 'polydip' or 'diplomacy', in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", MEMORY, engine, str(phases)],
                         capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), float(out[1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=10, help="random games to play (default 10)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the first game (default 1)")
    ap.add_argument("--phases", type=int, default=40,
                    help="phases per game at most (default 40, about 9 game years)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="extra calls per measurement on the same position, fastest kept, "
                         "for the 'hot' table (default 3; 0: none)")
    ap.add_argument("--shared-map", action="store_true",
                    help="all polydip games share one compiled map (Game.new now does so "
                         "too; kept to compare with older runs)")
    ap.add_argument("--warmup", type=int, default=0,
                    help="with --shared-map: play this many polydip-only games first, "
                         "untimed, to fill polydip's caches (default 0)")
    ap.add_argument("--no-own-loops", "--no-replay", dest="replay", action="store_false",
                    help="skip the own loops (each engine timed on the recorded phases in its "
                         "own loop, polydip's caches emptied first: the headline figures)")
    ap.add_argument("--fast-games", type=int, default=50,
                    help="games of the integer fast path's loop (default 50; 0: skip)")
    ap.add_argument("--memory", action="store_true",
                    help="also measure the memory of a live game (two fresh interpreters)")
    ap.add_argument("--profile", action="store_true",
                    help="also profile polydip's process() and legal_orders() (cProfile)")
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="time each call by the wall clock (default) or by the CPU time of "
                         "the thread (steadier on a busy shared machine)")
    args = ap.parse_args(argv)
    set_clock(args.clock)

    if not diplomacy_available():
        print("bench/bench.py needs the `diplomacy` package (the optional extra 'bench'):\n"
              "    pip install -e '.[bench]'      # installs diplomacy==1.1.2", file=sys.stderr)
        return 2
    from importlib.metadata import version as dist_version

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    version = dist_version("diplomacy")
    out = Console(width=max(Console().width, 124))
    err = Console(stderr=True)
    if version != "1.1.2":
        err.print(f"[yellow]warning: diplomacy {version} installed; the bench expects 1.1.2")

    prof = None
    if args.profile:
        import cProfile

        prof = {"Game.process()": cProfile.Profile(), "legal_orders()": cProfile.Profile()}

    if args.warmup:
        if not args.shared_map:
            err.print("--warmup needs --shared-map (Game.new compiles a new map per game, "
                      "whose caches start empty)")
            return 2
        warm_polydip(args.warmup, args.phases, err)

    stats = Stats()
    record: list | None = [] if args.replay else None
    phases = agreed = resynced = 0
    known: dict[str, int] = defaultdict(int)
    unexplained: list[str] = []
    refused = 0
    t_start = time.perf_counter()
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=err, transient=False) as progress:
        task = progress.add_task("phases", total=args.games * args.phases)
        for game in range(args.games):
            seed = args.seed + game
            ls = LockStep(seed, shared_map=args.shared_map)
            progress.update(task, description=f"game {game + 1}/{args.games} (seed {seed})")
            done = 0
            while done < args.phases and not ls.over:
                rep = bench_phase(ls, stats, args.repeat, prof, record)
                phases += 1
                done += 1
                refused += len(rep.refused)
                for k in rep.known:
                    known[k] += 1
                if rep.disagreement:
                    unexplained.append(rep.disagreement)
                elif not rep.known:
                    agreed += 1
                resynced += rep.resynced
                progress.advance(task)
            progress.advance(task, args.phases - done)
    if record:
        err.print(f"timing each engine in its own loop on the {len(record)} phases ...")
        own_loops(record, stats)
    elapsed = time.perf_counter() - t_start

    def ratio(a: float, b: float) -> str:
        return f"{b / a:.1f}x" if a > 0 else "-"

    def make_table(title: str, prefix: str) -> Table:
        table = Table(title=title)
        for name in ("phase type", "phases", "process() polydip", "process() diplomacy",
                     "ratio", "set_orders + process() polydip",
                     "set_orders + process() diplomacy", "ratio", "legal orders polydip",
                     "legal orders diplomacy (cold)", "ratio"):
            if name == "phase type":
                table.add_column(name, no_wrap=True, min_width=10)
            else:
                table.add_column(name, justify="right")
        for key, name in [*TYPES.items(), (None, "all")]:
            n = stats.count(key, prefix + "poly_proc")
            if not n:
                continue
            pp, dp = stats.mean(key, prefix + "poly_proc"), stats.mean(key, prefix + "dip_proc")
            pe = pp + stats.mean(key, prefix + "poly_set")
            de = dp + stats.mean(key, prefix + "dip_set")
            pl = stats.mean(key, prefix + "poly_legal")
            dl = stats.mean(key, prefix + "dip_legal")
            table.add_row(name, str(n), f"{pp:,.0f}", f"{dp:,.0f}", ratio(pp, dp),
                          f"{pe:,.0f}", f"{de:,.0f}", ratio(pe, de),
                          f"{pl:,.0f}", f"{dl:,.0f}", ratio(pl, dl))
        return table

    where = (f"{phases} phases, {args.games} games from seed {args.seed}"
             + (", polydip map shared by the games" if args.shared_map else ""))

    def verdict(r: float, target: float | None) -> str:
        if target is None:
            return ""
        return f" (target {target:.0f}x: {'met' if r >= target else 'NOT met'})"

    def summary(prefix: str, targets: bool) -> None:
        """The whole-run means of one kind of measurement ('own_': each engine in its own
        loop; '': interleaved, first call; 'hot_': hot), against the targets of issue 14."""
        pp, dp = stats.mean(None, prefix + "poly_proc"), stats.mean(None, prefix + "dip_proc")
        pl, dl = stats.mean(None, prefix + "poly_legal"), stats.mean(None, prefix + "dip_legal")
        ps, ds = stats.mean(None, prefix + "poly_set"), stats.mean(None, prefix + "dip_set")
        out.print(f"  process(): polydip {pp:,.0f} µs/phase, diplomacy {dp:,.0f}, "
                  f"{dp / pp:.1f}x{verdict(dp / pp, TARGET_ADJ if targets else None)}")
        out.print(f"  legal orders: polydip {pl:,.0f} µs/phase, diplomacy {dl:,.0f} (cold), "
                  f"{dl / pl:.1f}x{verdict(dl / pl, TARGET_LEGAL if targets else None)}")
        out.print(f"  set_orders (every power): polydip {ps:,.0f} µs/phase, diplomacy "
                  f"{ds:,.0f}, {ds / ps:.1f}x")
        lp, ld = pl + ps + pp, dl + ds + dp
        out.print(f"  random-game loop through the string API (legal orders, set_orders, "
                  f"process()): polydip {lp:,.0f} µs/phase, diplomacy {ld:,.0f}, "
                  f"{ld / lp:.1f}x{verdict(ld / lp, TARGET_LOOP if targets else None)}")
        if stats.count("M", prefix + "poly_oneshot"):
            po, dpm = stats.mean("M", prefix + "poly_oneshot"), stats.mean("M", prefix + "dip_proc")
            out.print(f"  one-shot contract (JSON line in, outcome JSON out; movement phases) "
                      f"vs diplomacy process(): polydip {po:,.0f} µs/phase, diplomacy "
                      f"{dpm:,.0f}, {dpm / po:.1f}x"
                      f"{verdict(dpm / po, TARGET_ONESHOT if targets else None)}")

    if stats.count(None, "own_poly_proc"):
        out.print(make_table(f"polydip vs diplomacy {version}, each engine in its own loop on "
                             f"the same positions, each new to it, polydip's caches emptied "
                             f"first: mean µs per phase ({where})", "own_"))
    out.print(make_table(f"interleaved: both engines in lock-step, first call on each position "
                         f"(the other engine's work in between): mean µs per phase ({where})",
                         ""))
    if args.repeat:
        out.print(make_table(f"hot: the fastest of {args.repeat} more calls on each position "
                             "(caches filled by the first call)", "hot_"))
    out.print(f"{args.clock} clock")
    if stats.count(None, "own_poly_proc"):
        out.print("each engine in its own loop, every position new to it (the figures of "
                  "issue 14):")
        summary("own_", targets=True)
    out.print("interleaved, first call on each position:")
    summary("", targets=False)
    raw, dpm = stats.mean("M", "poly_raw"), stats.mean("M", "dip_proc")
    if raw == raw:  # (not measured in the compiled build: see RawTimer)
        out.print(f"  raw movement adjudication (resolve_movement inside process()): polydip "
                  f"{raw:,.0f} µs/phase vs diplomacy process() {dpm:,.0f} µs/phase, "
                  f"{dpm / raw:.1f}x")
    if args.repeat:
        hpp, hdp = stats.mean(None, "hot_poly_proc"), stats.mean(None, "hot_dip_proc")
        hpl, hdl = stats.mean(None, "hot_poly_legal"), stats.mean(None, "hot_dip_legal")
        hraw, hdpm = stats.mean("M", "hot_poly_raw"), stats.mean("M", "hot_dip_proc")
        hdw = stats.mean(None, "hot_dip_legal_warm")
        hraw_s = (f"raw movement {hraw:,.0f} vs {hdpm:,.0f} µs/phase, {hdpm / hraw:.1f}x; "
                  if hraw == hraw else "")
        out.print(f"hot (fastest of {args.repeat} more calls on the same position): "
                  f"process() {hpp:,.0f} vs {hdp:,.0f} µs/phase, {hdp / hpp:.1f}x; "
                  f"{hraw_s}legal orders {hpl:,.0f} vs {hdl:,.0f} µs/phase cold ({hdw:,.0f} warm), "
                  f"{hdl / hpl:.1f}x cold, {hdw / hpl:.1f}x warm")
    if args.fast_games:
        runs = [fast_loop(args.fast_games, 100, args.seed) for _ in range(3)]
        rates = sorted(n / wall for n, wall, _cpu in runs)
        cpu = sorted(n / c for n, _wall, c in runs)
        out.print(f"integer fast path (polydip.fast, {runs[0][0]:,} phases of random codes, "
                  f"3 runs): {statistics.median(rates):,.0f} phases/s wall (spread "
                  f"{rates[0]:,.0f}-{rates[-1]:,.0f}), {statistics.median(cpu):,.0f} "
                  f"phases/s CPU time (target 10,000: "
                  f"{'met' if statistics.median(rates) >= 10_000 else 'NOT met'})")
    if args.memory:
        for engine in ("polydip", "diplomacy"):
            one, more = memory(engine, 20)
            out.print(f"memory, {engine}: a process holding one game (20 phases played): "
                      f"{one:.0f} MB; each more game: {more:.2f} MB")
    import polydip

    out.print(f"polydip build: {'compiled (mypyc)' if polydip.compiled() else 'pure Python'}")
    kn = ", ".join(f"{k} ({KNOWN_DEVIATIONS[k].datc}) {v}" for k, v in sorted(known.items()))
    out.print(f"lock-step check: {agreed}/{phases} phases agreed outright; known deviations of "
              f"the diplomacy package: {kn or 'none'}; {len(unexplained)} unexplained; "
              f"{resynced} resyncs; {refused} orders refused by diplomacy")
    for text in unexplained:
        out.print(text, markup=False, highlight=False)
        out.print()
    out.print(f"total {elapsed:.1f} s")

    if prof is not None:
        out.print("\n(--profile: the first-call timings above include cProfile's overhead)")
        for name, p in prof.items():
            print_profile(out, name, p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
