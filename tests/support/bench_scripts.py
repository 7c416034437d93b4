"""Running a script of bench/ that counts instructions under valgrind (legal_count.py,
process_count.py, env_count.py, simulate_write.py --callgrind) in its tests: with a
stand-in `valgrind` (a Python script written to a directory put first on PATH) or with none
at all, so that the script's children, its arithmetic and its messages are exercised in
seconds. Figures are never checked."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent.parent / "bench"


def run_script(name: str, path_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """bench/`name` run with `path_dir` (and this Python's directory) alone on PATH: a
    `valgrind` written there stands in for the real one, none means none is installed."""
    env = {**os.environ, "PATH": f"{path_dir}{os.pathsep}{Path(sys.executable).parent}"}
    return subprocess.run([sys.executable, str(BENCH / name), *args], capture_output=True,
                          text=True, timeout=600, env=env)


def write_stand_in(path_dir: Path, source: str) -> None:
    """Put an executable `valgrind` in `path_dir`: `source` with `{python}` filled in."""
    fake = path_dir / "valgrind"
    fake.write_text(source.format(python=sys.executable))
    fake.chmod(0o755)


def says_what_to_install(r: subprocess.CompletedProcess[str]) -> bool:
    """Whether a run without valgrind failed with the message that names it."""
    return (r.returncode == 2 and "needs valgrind" in r.stderr
            and "apt-get install valgrind" in r.stderr and "Traceback" not in r.stderr)


# the stand-in of the scripts that count recorded phases (legal_count.py, process_count.py):
# runs the command after valgrind's options and reports a count: 1,000 without --_run,
# 1,000 + 3 x (the positions' file size) with it, twice that for the package's children;
# each command it ran is added as a line to `calls.log` beside it
PHASES_STAND_IN = """#!{python}
import os, subprocess, sys
args = [a for a in sys.argv[1:] if not a.startswith("--tool=") and not a.startswith("--callgrind")]
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "calls.log"), "a") as log:
    print(" ".join(args[1:]), file=log)
r = subprocess.run(args)
if r.returncode:
    sys.exit(r.returncode)
size = os.path.getsize(args[args.index("--_phases") + 1])
n = 1000 + (3 * size if "--_run" in args else 0)
if "diplomacy" in args:
    n *= 2
print(f"==1== Collected : {{n}}", file=sys.stderr)
"""

