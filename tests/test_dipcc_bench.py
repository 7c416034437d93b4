"""bench/dipcc_bench.py (issue 33): the side-by-side run against dipcc reports every loop and
the per-call figures, builds dipcc once per source tree, and answers bad input with a clear
error. dipcc itself is not built here (minutes of C++): a stand-in driver prints what the real
one prints. Figures are not checked (speed is measured by running the script, never a test)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "dipcc_bench.py"
CALLS = {t: {"phases": 2, "legal_s": 2e-4, "choose_s": 2e-5, "set_orders_s": 2e-5,
             "process_s": 1e-4} for t in "MRA"}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True,
                          timeout=300)


def fake_driver(tmp_path: Path, body: str) -> Path:
    exe = tmp_path / "dipcc_random_games"
    exe.write_text(f"#!{sys.executable}\nimport json, sys\n{body}\n")
    exe.chmod(0o755)
    return exe


def load_module():
    spec = importlib.util.spec_from_file_location("dipcc_bench", BENCH)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_reports_the_three_loops_and_each_call(tmp_path: Path) -> None:
    exe = fake_driver(tmp_path, (
        "calls = sys.argv[sys.argv.index('--mode') + 1] == 'calls'\n"
        f"out = {{'phases': 6, 'cpu_s': 0.002}}\n"
        f"if calls: out['calls'] = {json.dumps(CALLS)}\n"
        "print(json.dumps(out))"))
    r = run("--dipcc-driver", str(exe), "--games", "1", "--until-year", "1903",
            "--rounds", "1")
    assert r.returncode == 0, r.stderr[-2000:]
    out = r.stdout
    assert "dipcc native loop" in out and "dipcc GameState loop" in out
    assert "polydip integer fast path" in out
    assert "polydip string API" in out
    # the stand-in plays 3,000 phases/s: dipcc's row is the 1.00x the others are set against
    dipcc_row = next(line for line in out.splitlines() if line.startswith("dipcc native"))
    assert "3,000" in dipcc_row and "1.00x" in dipcc_row
    # 1e-4 s for two phases of each type: dipcc's process() is 50 µs
    assert "dipcc 50.0 µs" in out


def test_polydip_side_alone_plays_to_the_year(tmp_path: Path) -> None:
    mod = load_module()
    fast = mod.fast_loop(2, 1, 1903)
    timed = mod.string_loop(2, 1, 1903, calls=True)
    # two games of 1901 and 1902: at least the four movement phases of each
    assert fast["phases"] >= 8 and timed["phases"] >= 8
    assert timed["calls"]["M"]["phases"] == 8
    assert sum(c["phases"] for c in timed["calls"].values()) == timed["phases"]
    # the same seed plays the same game
    assert mod.string_loop(2, 1, 1903, calls=False)["phases"] == timed["phases"]


def test_not_a_dipcc_tree_is_a_clear_error(tmp_path: Path) -> None:
    r = run("--dipcc-src", str(tmp_path), "--rounds", "1")
    assert r.returncode == 2
    assert "is not a dipcc source tree" in r.stderr and "Traceback" not in r.stderr


def test_a_failing_driver_is_a_clear_error(tmp_path: Path) -> None:
    exe = fake_driver(tmp_path, "sys.exit('boom')")
    r = run("--dipcc-driver", str(exe), "--games", "1", "--until-year", "1902", "--rounds", "1")
    assert r.returncode == 2 and "boom" in r.stderr and "Traceback" not in r.stderr
    r = run("--dipcc-driver", str(tmp_path / "missing"), "--rounds", "1")
    assert r.returncode == 2 and "not an executable" in r.stderr


@pytest.mark.parametrize("args", [["--until-year", "1800"], ["--games", "0"],
                                  ["--rounds", "0"], []])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    r = run("--skip-dipcc", *args) if args else run()
    assert r.returncode == 2 and "Traceback" not in r.stderr


def test_builds_once_per_source_tree(tmp_path: Path, monkeypatch) -> None:
    mod = load_module()
    src = tmp_path / "cicero" / "dipcc"
    (src / "dipcc" / "cc").mkdir(parents=True)
    (src / "dipcc" / "cc" / "game.cc").write_text("// engine\n")
    out = tmp_path / "build" / f"dipcc-{mod.source_key(src.resolve())}"
    out.mkdir(parents=True)
    (out / mod.DRIVER).write_text("built before")
    # a build would need cmake: with none on the path the cached driver must be used
    monkeypatch.setattr(mod.shutil, "which", lambda name: None)
    assert mod.build_driver(tmp_path / "cicero", tmp_path / "build", False, sys.stderr) \
        == out / mod.DRIVER
    # a changed source is another key: it would build, and says what is missing
    (src / "dipcc" / "cc" / "game.cc").write_text("// engine, changed\n")
    with pytest.raises(mod.BenchError, match="cmake not found"):
        mod.build_driver(src, tmp_path / "build", False, sys.stderr)


def test_instruction_counts_per_phase_by_difference(tmp_path: Path) -> None:
    """--instructions runs each loop under valgrind once and twice as long and reports the
    difference per phase against dipcc's (a stand-in valgrind on the PATH counts 1,000
    instructions a phase of its command's JSON line)."""
    exe = fake_driver(tmp_path, (
        "games = int(sys.argv[sys.argv.index('--games') + 1])\n"
        "print(json.dumps({'phases': 5 * games, 'cpu_s': 0.001}))"))
    fake = tmp_path / "bin" / "valgrind"
    fake.parent.mkdir()
    fake.write_text(
        f"#!{sys.executable}\nimport json, subprocess, sys\n"
        "cmd = [a for a in sys.argv[1:] if not a.startswith('--callgrind') and "
        "not a.startswith('--tool')]\n"
        "out = subprocess.run(cmd, capture_output=True, text=True).stdout\n"
        "phases = json.loads(out.splitlines()[-1])['phases']\n"
        "print(out, end='')\n"
        "per = 2000 if 'dipcc' in cmd[0] else 1000\n"
        "print(f'==1== Collected : {100 + per * phases}', file=sys.stderr)\n")
    fake.chmod(0o755)
    env = {**__import__("os").environ, "PATH": f"{fake.parent}:/usr/bin:/bin"}
    r = subprocess.run([sys.executable, str(BENCH), "--dipcc-driver", str(exe), "--instructions",
                        "--games", "1", "--until-year", "1902"],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 0, r.stderr[-2000:]
    rows = {line.split("  ")[0]: line for line in r.stdout.splitlines()}
    fast = next(v for k, v in rows.items() if k.startswith("polydip integer fast path"))
    assert "1,000" in fast and "2.00x" in fast  # dipcc's 2,000 a phase against 1,000
    assert any(k.startswith("dipcc native loop") and "2,000" in v for k, v in rows.items())


def test_instruction_counts_need_valgrind(tmp_path: Path) -> None:
    env = {**__import__("os").environ, "PATH": str(tmp_path)}
    r = subprocess.run([sys.executable, str(BENCH), "--skip-dipcc", "--instructions"],
                       capture_output=True, text=True, timeout=300, env=env)
    assert r.returncode == 2 and "needs valgrind" in r.stderr
