"""The benchmark script runs end to end and reports the figures issue 14 is judged by: each
engine in its own loop (process(), legal orders, set_orders, the string-API loop, the one-shot
contract), the interleaved lock-step figures and the lock-step agreement (bench/README.md).
Figures are not checked (speed is measured by running bench/bench.py, never by a test)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("diplomacy")

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench.py"


def test_bench_reports_own_loop_and_interleaved_figures() -> None:
    run = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--phases", "8", "--repeat", "1",
         "--fast-games", "0", "--clock", "cpu"],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    out = " ".join(run.stdout.split())  # rich wraps long lines
    own, interleaved = out.split("each engine in its own loop, every position new to it")[1].split(
        "interleaved, first call on each position:")
    for line in ("process(): polydip", "legal orders: polydip", "set_orders (every power)",
                 "random-game loop through the string API", "one-shot contract"):
        assert line in own and line in interleaved, line
    assert own.count("(target ") == 4  # process(), legal orders, the loop, the one-shot
    assert "0 unexplained" in out and "8 phases" in out


def test_counting_scripts_replay_the_recorded_phases(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/process_count.py and legal_count.py count children that replay phases recorded
    by bench/callgrind.py's random_phases: each phase's orders, played from its position,
    give the next phase's position, and each child runs on them in both engines."""
    import pickle

    from polydip.game.game import Game

    monkeypatch.syspath_prepend(str(BENCH.parent))
    from callgrind import random_phases

    path = tmp_path / "phases.pickle"
    assert random_phases(path, 1, 6, 3) == 6
    phases = pickle.loads(path.read_bytes())
    for (pos, orders, dip), (after, _, _) in itertools.pairwise(phases):
        g = Game.new("standard")
        g.position = pos.copy()
        for p, lst in orders.items():
            g.set_orders(p, lst)
        g.process()
        assert g.position == after
        assert set(dip) == set(orders)
    for script, extra in (("process_count.py", ["--loop"]), ("process_count.py", []),
                          ("legal_count.py", [])):
        for engine in ("polydip", "diplomacy"):
            run = subprocess.run(
                [sys.executable, str(BENCH.parent / script), "--_child", engine, "--_phases",
                 str(path), "--_run", *extra], capture_output=True, text=True, timeout=300)
            assert run.returncode == 0, (script, engine, run.stderr[-2000:])


def test_counts_read_instructions_or_estimated_cycles(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """bench/callgrind.py reads callgrind's totals: instructions, or with the cache
    simulation (--cache-sim) a cycle estimate, each first-level miss 10 cycles and each
    last-level miss 200 (a stand-in valgrind on the PATH prints the totals)."""
    fake = tmp_path / "valgrind"
    fake.write_text(
        f"#!{sys.executable}\nimport sys\n"
        "if '--cache-sim=yes' in sys.argv and '--LL=2097152,16,64' in sys.argv:\n"
        "    print('==1== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw', file=sys.stderr)\n"
        "    print('==1== Collected : 1000 400 300 1 2 3 0 1 1', file=sys.stderr)\n"
        "elif 'fail' in sys.argv:\n"
        "    sys.exit(1)\n"
        "else:\n"
        "    print('==1== Events    : Ir', file=sys.stderr)\n"
        "    print('==1== Collected : 1000', file=sys.stderr)\n"
        "print('child output')\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}:/usr/bin:/bin")
    monkeypatch.syspath_prepend(str(BENCH.parent))
    from callgrind import CountError, callgrind

    assert callgrind(["-c", "pass"], "a child") == (1000, "child output\n")
    assert callgrind(["-c", "pass"], "a child", cache_sim=True)[0] == 1000 + 10 * 6 + 200 * 2
    with pytest.raises(CountError, match="a failing child under valgrind failed"):
        callgrind(["fail"], "a failing child")
