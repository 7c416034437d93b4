"""Running a script of bench/ that counts instructions under valgrind (legal_count.py,
env_count.py) in its tests: with a stand-in `valgrind` (a Python script written to a
directory put first on PATH) or with none at all, so that the script's children, its
arithmetic and its messages are exercised in seconds. Figures are never checked."""

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
