"""bench/env_count.py (issue 32 item 4): the env's steps against the fast path's counted in
instructions. valgrind is not run here (minutes): a stand-in on PATH runs the command it is
given and reports a count that grows with the steps the child played, so the script's
children, their step counts and its arithmetic are exercised; without valgrind it says what
to install. Figures are not checked (speed is measured by running the script, never a
test)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.bench_scripts import run_script, says_what_to_install, write_stand_in

# runs the command after valgrind's options, passes its output on and reports a count:
# 1,000 without --_run; with it 1,000 + 5,000 a step the child printed, three times that for
# the env's children
STAND_IN = """#!{python}
import subprocess, sys
args = [a for a in sys.argv[1:] if not a.startswith("--tool=") and not a.startswith("--callgrind")]
r = subprocess.run(args, capture_output=True, text=True)
sys.stdout.write(r.stdout)
if r.returncode:
    sys.stderr.write(r.stderr)
    sys.exit(r.returncode)
steps = sum(int(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("steps "))
n = 1000 + 5000 * steps
if "env" in args:
    n *= 3
print(f"==1== Collected : {{n}}", file=sys.stderr)
"""


def run(path_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_script("env_count.py", path_dir, *args)


def test_without_valgrind_it_says_what_to_install(tmp_path: Path) -> None:
    assert says_what_to_install(run(tmp_path, "--games", "1"))


@pytest.mark.parametrize("args", [["--games", "0"], ["--phases", "0"]])
def test_no_games_is_refused(tmp_path: Path, args: list[str]) -> None:
    r = run(tmp_path, *args)
    assert r.returncode == 2
    assert "--games and --phases must be at least 1" in r.stderr
    assert "Traceback" not in r.stderr


def _stand_in(tmp_path: Path) -> None:
    write_stand_in(tmp_path, STAND_IN)


def test_an_unknown_variant_is_named(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    _stand_in(tmp_path)
    r = run(tmp_path, "--variant", "nowhere")
    assert r.returncode == 2
    assert "no variant named 'nowhere'" in r.stderr and "Traceback" not in r.stderr


def test_counts_both_loops_per_step_of_the_same_games(tmp_path: Path) -> None:
    pytest.importorskip("pettingzoo", reason="the rl extra is not installed")
    _stand_in(tmp_path)
    r = run(tmp_path, "--games", "1", "--phases", "3")
    assert r.returncode == 0, r.stderr
    assert "1 random standard games of 3 phases at most" in r.stderr
    assert r.stdout.splitlines()[0].startswith("standard, 3 steps;")
    lines = {line.split()[0]: line.split() for line in r.stdout.splitlines()[1:]}
    # (the stand-in's count per step: 5,000 for the fast path, 15,000 for the env: its
    # baseline is tripled too, and cancels out)
    assert lines["fast"][2] == "5,000"
    assert lines["env"][1] == "15,000"
    assert lines["ratio"][1] == "3.00x"
