"""The benchmark script runs end to end and reports the figures issue 14 is judged by: each
engine in its own loop (process(), legal orders, set_orders, the string-API loop, the one-shot
contract), the interleaved lock-step figures and the lock-step agreement (bench/README.md).
Figures are not checked (speed is measured by running bench/bench.py, never by a test)."""

from __future__ import annotations

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
