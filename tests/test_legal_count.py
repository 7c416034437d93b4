"""bench/legal_count.py (issue 33): legal orders of both engines counted in instructions on
the same recorded positions. valgrind is not run here (minutes): a stand-in on PATH runs the
command it is given and reports a count that grows with the work the child did, so the
script's recording, both engines' children and its arithmetic are exercised; without
valgrind it says what to install. Figures are not checked (speed is measured by running the
script, never a test)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from support.bench_scripts import (
    PHASES_STAND_IN,
    run_script,
    says_what_to_install,
    write_stand_in,
)


def run(path_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_script("legal_count.py", path_dir, *args)


def test_without_valgrind_it_says_what_to_install(tmp_path: Path) -> None:
    assert says_what_to_install(run(tmp_path, "--games", "1"))


def test_no_games_is_refused(tmp_path: Path) -> None:
    r = run(tmp_path, "--games", "0")
    assert r.returncode == 2
    assert "--games and --phases must be at least 1" in r.stderr
    assert "Traceback" not in r.stderr


def test_counts_both_engines_on_the_recorded_positions(tmp_path: Path) -> None:
    pytest.importorskip("diplomacy")
    write_stand_in(tmp_path, PHASES_STAND_IN)
    r = run(tmp_path, "--games", "1", "--phases", "3")
    assert r.returncode == 0, r.stderr
    assert "3 positions of 1 random standard games from seed 1" in r.stderr
    lines = {line.split()[0]: line.split() for line in r.stdout.splitlines()[1:]}
    polydip = int(lines["polydip"][1].replace(",", ""))
    package = int(lines["diplomacy"][1].replace(",", ""))
    # (the stand-in's count per position: 3 x the file's size / 3 positions, doubled for the
    # package's runs, whose difference is doubled too)
    assert package == 2 * polydip > 0
    assert lines["ratio"][1] == "2.00x"
    assert "order table built in the count" in r.stdout
    r = run(tmp_path, "--games", "1", "--phases", "2", "--table-built")
    assert r.returncode == 0, r.stderr
    assert "order table built first" in r.stdout
