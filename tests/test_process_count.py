"""bench/process_count.py (issue 33): process(), or with --loop the whole string loop, of
both engines counted in instructions on the same recorded phases. valgrind is not run here
(minutes): a stand-in on PATH runs each child it is given and reports a count that grows with
the work the child did, so the recording, both engines' children (which replay the phases)
and the arithmetic are exercised; without valgrind it says what to install. Figures are not
checked (speed is measured by running the script, never a test)."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
from support.bench_scripts import (
    PHASES_STAND_IN,
    run_script,
    says_what_to_install,
    write_stand_in,
)

run = functools.partial(run_script, "process_count.py")  # (path_dir, *args)


def rows(out: str) -> dict[str, list[str]]:
    return {line.split()[0]: line.split() for line in out.splitlines()[1:]}


def test_without_valgrind_it_says_what_to_install(tmp_path: Path) -> None:
    assert says_what_to_install(run(tmp_path, "--games", "1"))
    assert says_what_to_install(run(tmp_path, "--games", "1", "--loop"))


def test_no_phases_is_refused(tmp_path: Path) -> None:
    r = run(tmp_path, "--phases", "0")
    assert r.returncode == 2
    assert "--games and --phases must be at least 1" in r.stderr
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("loop", [False, True])
def test_counts_both_engines_on_the_recorded_phases(tmp_path: Path, loop: bool) -> None:
    pytest.importorskip("diplomacy")
    write_stand_in(tmp_path, PHASES_STAND_IN)
    r = run(tmp_path, "--games", "1", "--phases", "3", *(["--loop"] if loop else []))
    assert r.returncode == 0, r.stderr
    assert "3 phases of 1 random standard games from seed 1" in r.stderr
    got = rows(r.stdout)
    polydip = int(got["polydip"][1].replace(",", ""))
    package = int(got["diplomacy"][1].replace(",", ""))
    assert package == 2 * polydip > 0  # (the stand-in counts the package's work twice)
    assert got["ratio"][1] == "2.00x"
    header = r.stdout.splitlines()[0]
    assert header.startswith("the string loop" if loop else "process()"), header
    # each engine's child counted with its calls and without them, each told the mode
    calls = (tmp_path / "calls.log").read_text().splitlines()
    assert len(calls) == 4
    engines = [c.split()[c.split().index("--_child") + 1] for c in calls]
    assert sorted(zip(["--_run" in c for c in calls], engines, strict=True)) == [
        (False, "diplomacy"), (False, "polydip"), (True, "diplomacy"), (True, "polydip")]
    assert all(("--loop" in c) == loop for c in calls)
