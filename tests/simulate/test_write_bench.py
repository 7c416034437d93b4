"""bench/simulate_write.py runs end to end and reports what issue 32 item 6 is judged by: a
phase's play, writing and gzip, and the writing share (bench/README.md). Figures are not
checked (speed is measured by running the script, never by a test)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "simulate_write.py"


def test_the_write_bench_reports_the_writing_share():
    src = str(Path(__file__).resolve().parents[2] / "src")
    run = subprocess.run(
        [sys.executable, str(BENCH), "--games", "1", "--repeat", "1",
         "--variants", "standard", "wita"],
        capture_output=True, text=True, timeout=300, env={**os.environ, "PYTHONPATH": src})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.startswith("build: ")
    # (ten years of each variant by default)
    for variant in ("standard, 1 games to 1910", "wita, 1 games to 1854"):
        assert variant in run.stdout
    assert run.stdout.count("writing share: ") == 2 and "with gzip" in run.stdout
