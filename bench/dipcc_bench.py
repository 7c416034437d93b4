#!/usr/bin/env python
"""polydip against dipcc (the C++ engine of facebookresearch/diplomacy_cicero) in one run.

    python bench/dipcc_bench.py --dipcc-src PATH [--games N] [--seed S] [--until-year Y]
                                [--rounds R] [--build-dir DIR] [--rebuild]
    python bench/dipcc_bench.py --skip-dipcc ...        # polydip's side alone
    python bench/dipcc_bench.py --dipcc-src PATH --instructions   # valgrind counts instead

PATH is a diplomacy_cicero checkout or its `dipcc` folder. The script builds dipcc's engine
without its torch parts, and a small C++ driver of polydip's (bench/dipcc/), once, with CMake,
into a cache folder keyed by the sources (it fetches nothing). Then, in R rounds, it
alternates: dipcc's native loop (the C++ driver: dipcc's own legal orders, a random choice,
set_orders, process), polydip's integer fast path (polydip.fast.FastGame), polydip's string-API
loop (legal_orders, set_orders, process), and a pass of each engine timing every call;
also dipcc's leanest path, Order objects straight into GameState::process (no strings, no
game history). Random
standard games until the year --until-year (or the game's end), the same random player on both
sides (bench/README.md, "dipcc side by side"), CPU time of the process. Prints a table.
With --instructions, each loop's instructions a phase instead (valgrind's callgrind): the
same figure on a loaded machine as on a quiet one, where CPU times move by a third.
"""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from callgrind import CountError, count_command  # noqa: E402

DRIVER_DIR = HERE / "dipcc"
DRIVER = "dipcc_random_games"


class BenchError(Exception):
    """A problem the user can fix (bad path, missing tool, failed build): printed, exit 2."""


# ---- building dipcc ---------------------------------------------------------------------

def dipcc_folder(src: Path) -> Path:
    """The folder holding dipcc/cc/game.cc: the path itself or its `dipcc` subfolder."""
    for cand in (src, src / "dipcc"):
        if (cand / "dipcc" / "cc" / "game.cc").is_file():
            return cand.resolve()
    raise BenchError(f"{src} is not a dipcc source tree: no dipcc/cc/game.cc under it or "
                     f"under {src / 'dipcc'} (give a diplomacy_cicero checkout or its "
                     "dipcc folder)")


def source_key(dipcc: Path) -> str:
    """A hash of everything the build reads: dipcc's engine sources, the driver, the
    CMakeLists and the Python the engine's headers come from."""
    h = hashlib.sha256()
    files = sorted((dipcc / "dipcc").glob("cc/**/*")) + sorted((dipcc / "dipcc").glob("pybind/*"))
    files += [DRIVER_DIR / "CMakeLists.txt", DRIVER_DIR / "random_games.cc"]
    for f in files:
        if f.is_file():
            h.update(str(f.relative_to(f.parents[1])).encode())
            h.update(f.read_bytes())
    h.update(sys.version.encode())
    return h.hexdigest()[:16]


def default_build_root() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    return Path(xdg) / "polydip-dipcc-bench" if xdg else HERE / ".build"


def build_driver(src: Path, build_root: Path, rebuild: bool, err) -> Path:
    """The driver's executable, built once per source key (minutes on 2 cores)."""
    dipcc = dipcc_folder(src)
    out = build_root / f"dipcc-{source_key(dipcc)}"
    exe = out / DRIVER
    if exe.is_file() and not rebuild:
        return exe
    if shutil.which("cmake") is None:
        raise BenchError("cmake not found (Debian: apt-get install cmake libgoogle-glog-dev "
                         "pybind11-dev python3-dev)")
    out.mkdir(parents=True, exist_ok=True)
    log = out / "build.log"
    print(f"building dipcc from {dipcc} into {out} (once; log: {log})", file=err, flush=True)
    with log.open("w") as fh:
        for cmd in (["cmake", "-S", str(DRIVER_DIR), "-B", str(out), f"-DDIPCC_SRC={dipcc}",
                     "-DCMAKE_BUILD_TYPE=Release",
                     f"-DPython3_ROOT_DIR={sys.base_prefix}"],
                    ["cmake", "--build", str(out), "-j", str(os.cpu_count() or 1)]):
            r = subprocess.run(cmd, stdout=fh, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                tail = log.read_text(errors="replace").splitlines()[-15:]
                raise BenchError("building dipcc failed (" + " ".join(cmd[:2]) + "); the end "
                                 f"of {log}:\n" + "\n".join(tail))
    if not exe.is_file():
        raise BenchError(f"the build finished but {exe} is missing (see {log})")
    return exe


def run_driver(exe: Path, games: int, seed: int, until: int, mode: str) -> dict[str, Any]:
    r = subprocess.run([str(exe), "--seed", str(seed), "--games", str(games),
                        "--until-year", str(until), "--mode", mode],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise BenchError(f"{exe} failed (status {r.returncode}): {r.stderr.strip()[-800:]}")
    try:
        data = json.loads(r.stdout)
    except json.JSONDecodeError:
        raise BenchError(f"{exe} printed no JSON: {r.stdout[-300:]!r}") from None
    if not isinstance(data, dict) or "phases" not in data or "cpu_s" not in data:
        raise BenchError(f"{exe} printed an unexpected result: {r.stdout[-300:]!r}")
    return data


# ---- instruction counts (valgrind), for a loaded machine ---------------------------------

def collected(cmd: list[str]) -> tuple[int, int]:
    """(instructions, phases) of one command under callgrind: the instructions valgrind
    counted in the whole process, the phases its JSON line reports."""
    if shutil.which("valgrind") is None:
        raise BenchError("--instructions needs valgrind (Debian: apt-get install valgrind)")
    try:
        count, out = count_command(cmd, cmd[0])
    except CountError as exc:
        raise BenchError(str(exc)) from None
    try:
        return count, int(json.loads(out.splitlines()[-1])["phases"])
    except (IndexError, ValueError, KeyError, TypeError):
        raise BenchError(f"no phases from {cmd[0]}: {out[-300:]!r}") from None


def instructions(exe: Path | None, games: int, seed: int, until: int) -> dict[str, float]:
    """Instructions a phase of each loop, by difference: polydip's loops run their games
    once and twice in one process (so the counted pass has warm caches, as every pass but
    a process's first), dipcc's driver plays `games` and 2 x `games` games (it keeps no
    cache); start-up and the first pass cancel out."""
    out: dict[str, float] = {}
    me = [sys.executable, str(Path(__file__).resolve())]
    for key in ("fast", "string"):
        one = collected([*me, "--_count", key, "--_passes", "1", *_args(games, seed, until)])
        two = collected([*me, "--_count", key, "--_passes", "2", *_args(games, seed, until)])
        out[key] = (two[0] - one[0]) / (two[1] - one[1])
    if exe is not None:
        one = collected([str(exe), "--mode", "loop", *_args(games, seed, until)])
        two = collected([str(exe), "--mode", "loop", *_args(2 * games, seed, until)])
        out["dipcc"] = (two[0] - one[0]) / (two[1] - one[1])
    return out


def _args(games: int, seed: int, until: int) -> list[str]:
    return ["--games", str(games), "--seed", str(seed), "--until-year", str(until)]


def _count(loop: str, passes: int, games: int, seed: int, until: int) -> None:
    """The child of `instructions`: run one loop `passes` times, print the phases."""
    phases = 0
    for _ in range(passes):
        run = fast_loop(games, seed, until) if loop == "fast" else string_loop(
            games, seed, until, calls=False)
        phases += run["phases"]
    print(json.dumps({"phases": phases}))


# ---- polydip's side ---------------------------------------------------------------------

def polydip_build() -> str:
    import polydip

    return "compiled (mypyc)" if polydip.compiled() else "pure Python"


def fast_loop(games: int, seed: int, until: int) -> dict[str, Any]:
    """The integer fast path: per item (a unit; in an adjustment phase one build or removal
    owed) a uniform choice among its legal codes (builds: every build of the power and
    WAIVE), then step."""
    from polydip.fast import FastGame

    base = FastGame.new("standard")
    phases = 0
    c0 = time.process_time()
    for g in range(games):
        choice = random.Random(seed + g).choice
        fg = FastGame(base.m, base.position, base.options)
        while not fg.is_over and fg.position.phase.year < until:
            fg.step([choice(c) if c else -1 for c in fg.legal()])
            phases += 1
    return {"phases": phases, "cpu_s": time.process_time() - c0}


def string_loop(games: int, seed: int, until: int, calls: bool) -> dict[str, Any]:
    """The string API: legal_orders of all powers, the same random player as the fast path
    on the order strings, set_orders for each power, process(). With `calls`, each call is
    timed by the thread's CPU time (garbage collection off during the pass, as timeit)."""
    from polydip.adjudication.adjustments import adjustment_counts
    from polydip.adjudication.legal import legal_orders
    from polydip.game.game import Game, initial_position

    base = Game.new("standard")
    m = base.map
    clock = time.thread_time
    sums: dict[str, dict[str, float]] = {t: {"phases": 0, "legal_s": 0.0, "choose_s": 0.0,
                                             "set_orders_s": 0.0, "process_s": 0.0}
                                         for t in "MRA"}
    phases = 0
    if calls:
        gc.collect()
        gc.disable()
    try:
        c0 = time.process_time()
        for g in range(games):
            rng = random.Random(seed + g)
            choice = rng.choice
            game = Game(base.variant, m, initial_position(m), dict(base.options))
            while not game.is_over and game.position.phase.year < until:
                pos = game.position
                typ = pos.phase.type
                t0 = clock() if calls else 0.0
                if typ != "A":
                    legal = legal_orders(m, pos)
                    t1 = clock() if calls else 0.0
                    units = pos.units if typ == "M" else pos.dislodged
                    owner = {m.unit_str(u.kind, u.loc): u.power for u in units}
                    chosen: dict[int, list[str]] = {}
                    for unit, lst in legal.items():
                        if lst:
                            chosen.setdefault(owner[unit], []).append(choice(lst))
                else:
                    counts = adjustment_counts(m, pos)
                    per_power = {p: legal_orders(m, pos, p) for p, d in enumerate(counts) if d}
                    t1 = clock() if calls else 0.0
                    chosen = {}
                    for p, lists in per_power.items():
                        opts = [o for lst in lists.values() for o in lst if o != "WAIVE"]
                        if not opts:
                            continue
                        if counts[p] > 0:
                            opts.append("WAIVE")
                        chosen[p] = [choice(opts) for _ in range(abs(counts[p]))]
                t2 = clock() if calls else 0.0
                for p, orders in chosen.items():
                    game.set_orders(p, orders)
                t3 = clock() if calls else 0.0
                game.process()
                phases += 1
                if calls:
                    t4 = clock()
                    s = sums[typ]
                    s["phases"] += 1
                    s["legal_s"] += t1 - t0
                    s["choose_s"] += t2 - t1
                    s["set_orders_s"] += t3 - t2
                    s["process_s"] += t4 - t3
        cpu = time.process_time() - c0
    finally:
        if calls:
            gc.enable()
    out: dict[str, Any] = {"phases": phases, "cpu_s": cpu}
    if calls:
        out["calls"] = sums
    return out


# ---- the report -------------------------------------------------------------------------

def rate(run: dict[str, Any]) -> float:
    return run["phases"] / run["cpu_s"] if run["cpu_s"] > 0 else float("inf")


def per_call_us(run: dict[str, Any], key: str, types: str = "MRA") -> float:
    calls = run["calls"]
    n = sum(calls[t]["phases"] for t in types)
    return sum(calls[t][key] for t in types) / n * 1e6 if n else float("nan")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--dipcc-src", type=Path,
                     help="a diplomacy_cicero checkout, or its dipcc folder (built once)")
    src.add_argument("--dipcc-driver", type=Path,
                     help="a driver built before (the dipcc_random_games executable)")
    src.add_argument("--skip-dipcc", action="store_true", help="polydip's side alone")
    src.add_argument("--_count", choices=("fast", "string"), help=argparse.SUPPRESS)
    ap.add_argument("--_passes", type=int, default=1, help=argparse.SUPPRESS)
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions a phase with valgrind instead of timing (steady "
                         "on a loaded machine; minutes)")
    ap.add_argument("--games", type=int, default=10, help="random games per run (default 10)")
    ap.add_argument("--seed", type=int, default=1,
                    help="seed of the first game (game i uses seed S+i; default 1)")
    ap.add_argument("--until-year", type=int, default=1930,
                    help="a game stops when its phase reaches this year (default 1930)")
    ap.add_argument("--rounds", type=int, default=3,
                    help="alternating rounds of every run (default 3)")
    ap.add_argument("--build-dir", type=Path, default=None,
                    help="where builds are kept (default $XDG_CACHE_HOME/polydip-dipcc-bench, "
                         "else bench/.build)")
    ap.add_argument("--rebuild", action="store_true", help="build again even if cached")
    args = ap.parse_args(argv)
    for name in ("games", "rounds"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    if not 1902 <= args.until_year <= 3000:
        ap.error("--until-year must be between 1902 and 3000")
    if args._count:
        _count(args._count, args._passes, args.games, args.seed, args.until_year)
        return 0
    err = sys.stderr
    try:
        exe: Path | None = None
        if args.dipcc_src is not None:
            exe = build_driver(args.dipcc_src, args.build_dir or default_build_root(),
                               args.rebuild, err)
        elif args.dipcc_driver is not None:
            exe = args.dipcc_driver
            if not (exe.is_file() and os.access(exe, os.X_OK)):
                raise BenchError(f"{exe} is not an executable file")
        if args.instructions:
            print("counting instructions with valgrind (minutes)...", file=err, flush=True)
            report_instructions(args, instructions(exe, args.games, args.seed,
                                                   args.until_year))
            return 0
        runs: dict[str, list[dict[str, Any]]] = {k: [] for k in
                                                 ("dipcc", "dipcc_state", "fast", "string",
                                                  "dipcc_calls", "string_calls")}
        g, s, y = args.games, args.seed, args.until_year
        for r in range(args.rounds):
            print(f"round {r + 1}/{args.rounds}", file=err, flush=True)
            if exe is not None:
                runs["dipcc"].append(run_driver(exe, g, s, y, "loop"))
                runs["dipcc_state"].append(run_driver(exe, g, s, y, "state"))
            runs["fast"].append(fast_loop(g, s, y))
            runs["string"].append(string_loop(g, s, y, calls=False))
            if exe is not None:
                runs["dipcc_calls"].append(run_driver(exe, g, s, y, "calls"))
            runs["string_calls"].append(string_loop(g, s, y, calls=True))
    except BenchError as e:
        print(f"error: {e}", file=err)
        return 2
    report(args, runs, exe)
    return 0


def report_instructions(args: argparse.Namespace, counts: dict[str, float]) -> None:
    print(f"polydip build: {polydip_build()}; Python {sys.version.split()[0]}")
    print(f"{args.games} random standard games from seed {args.seed}, until "
          f"{args.until_year}; instructions a phase (valgrind callgrind, a warm pass)")
    base = counts.get("dipcc")
    for label, key in (("dipcc native loop (C++, Game API, strings)", "dipcc"),
                       ("polydip integer fast path (FastGame)", "fast"),
                       ("polydip string API (legal, set_orders, process)", "string")):
        if key in counts:
            vs = f"{base / counts[key]:.2f}x" if base else "-"
            print(f"{label:<50} {counts[key]:>12,.0f} {vs:>8}")


def report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]],
           exe: Path | None) -> None:
    print(f"polydip build: {polydip_build()}; Python {sys.version.split()[0]}; "
          f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.2f}")
    print(f"{args.games} random standard games per run from seed {args.seed}, until "
          f"{args.until_year}; {args.rounds} alternating rounds; CPU time of the process")
    print()
    base = statistics.median(rate(x) for x in runs["dipcc"]) if runs["dipcc"] else None
    lean = (statistics.median(rate(x) for x in runs["dipcc_state"]) if runs["dipcc_state"]
            else None)
    print(f"{'random-game loop':<50} {'phases':>7} {'phases/s median':>16} "
          f"{'(min-max)':>17} {'vs dipcc':>9} {'vs state':>9}")
    rows = [("dipcc native loop (C++, Game API, strings)", "dipcc"),
            ("dipcc GameState loop (C++, Order objects)", "dipcc_state"),
            ("polydip integer fast path (FastGame)", "fast"),
            ("polydip string API (legal, set_orders, process)", "string")]
    for label, key in rows:
        if not runs[key]:
            continue
        rates = [rate(x) for x in runs[key]]
        med = statistics.median(rates)
        vs = f"{med / base:.2f}x" if base else "-"
        vs_lean = f"{med / lean:.2f}x" if lean else "-"
        print(f"{label:<50} {runs[key][0]['phases']:>7,} {med:>16,.0f} "
              f"{min(rates):>8,.0f}-{max(rates):<8,.0f} {vs:>9} {vs_lean:>9}")
    print()
    print("per phase, mean µs of CPU time (median of the rounds), every position new:")
    print(f"{'':<22} {'legal orders':>13} {'random choice':>14} {'set_orders':>11} "
          f"{'process()':>10} {'process() M':>12}")
    for label, key in (("dipcc", "dipcc_calls"), ("polydip string API", "string_calls")):
        if not runs[key]:
            continue
        vals = [statistics.median(per_call_us(x, k) for x in runs[key])
                for k in ("legal_s", "choose_s", "set_orders_s", "process_s")]
        mov = statistics.median(per_call_us(x, "process_s", "M") for x in runs[key])
        print(f"{label:<22} {vals[0]:>13.1f} {vals[1]:>14.1f} {vals[2]:>11.1f} "
              f"{vals[3]:>10.1f} {mov:>12.1f}")
    if runs["dipcc_calls"] and runs["string_calls"]:
        d = statistics.median(per_call_us(x, "process_s") for x in runs["dipcc_calls"])
        p = statistics.median(per_call_us(x, "process_s") for x in runs["string_calls"])
        print(f"process() of a new position: polydip {p:.1f} µs, dipcc {d:.1f} µs "
              f"({d / p:.2f}x)")
    if exe is not None:
        print(f"dipcc driver: {exe}")


if __name__ == "__main__":
    sys.exit(main())
