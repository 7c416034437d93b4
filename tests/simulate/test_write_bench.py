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


def test_the_write_bench_counts_through_callgrind(tmp_path):
    """--callgrind runs its four children (set-up, play, writing, gzip) under valgrind and
    reports the differences a phase; a stand-in valgrind on the PATH runs each child and
    reports a count by its mode. Without valgrind it says what to install (no traceback)."""
    from support.bench_scripts import run_script, says_what_to_install, write_stand_in

    # (the stand-in's counts by child: set-up 1,000, then 6,000 to play, 2,000 to write and
    # 600 to gzip)
    write_stand_in(tmp_path, """#!{python}
import subprocess, sys
args = [a for a in sys.argv[1:] if not a.startswith("--tool=") and not a.startswith("--callgrind")]
r = subprocess.run(args)
if r.returncode:
    sys.exit(r.returncode)
n = dict(setup=1000, play=7000, line=9000, shard=9600)[args[args.index("--child") + 1]]
print(f"==1== Collected : {{n}}", file=sys.stderr)
""")
    r = run_script("simulate_write.py", tmp_path, "--callgrind", "--games", "1",
                   "--max-year", "1901")
    assert r.returncode == 0, r.stderr[-2000:]
    line = next(x for x in r.stdout.splitlines() if x.startswith("standard, 1 games to 1901"))
    phases = int(line.split(": ")[1].split()[0])
    assert phases > 0
    # the differences of the stand-in's counts, a phase
    assert f"play {6000 / phases:,.0f} instructions, write {2000 / phases:,.0f}, " \
           f"gzip {600 / phases:,.0f}" in line
    assert "writing share: 25.0% of play + write" in r.stdout
    bare = tmp_path / "none"
    bare.mkdir()
    assert says_what_to_install(run_script("simulate_write.py", bare, "--callgrind"))
