"""Variant files that include others (issue 18): the folders searched for what they include.

Parterre's `fleet_rome.cfg` and `shift_around.cfg` build on Parlance's `standard.cfg`
(`base=standard`). Here the small `tiny_variant.cfg` builds on `tiny.cfg` the same way: the
included file is found through `--search-path`, through POLYDIP_VARIANT_PATH, and in the
`data/` folder of an installed `parlance` package; without any of them the error names those
three fixes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from polydip.cli.main import main

DATA = Path(__file__).parents[1] / "data" / "importers"


@pytest.fixture
def apart(tmp_path) -> tuple[Path, Path]:
    """tiny_variant.cfg in one folder, the tiny.cfg it builds on in another."""
    here, there = tmp_path / "variants", tmp_path / "bases"
    here.mkdir()
    there.mkdir()
    shutil.copy(DATA / "tiny_variant.cfg", here)
    shutil.copy(DATA / "tiny.cfg", there)
    return here / "tiny_variant.cfg", there


def check(capsys, *argv: str) -> tuple[int, str]:
    code = main(["variant", "check", *argv])
    out, err = capsys.readouterr()
    return code, out + err


def test_without_a_search_path_the_error_names_the_fixes(apart, capsys, monkeypatch) -> None:
    monkeypatch.delenv("POLYDIP_VARIANT_PATH", raising=False)
    code, text = check(capsys, str(apart[0]))
    assert code == 1
    assert "base variant 'tiny' not found" in text
    assert "--search-path DIR" in text and "POLYDIP_VARIANT_PATH" in text


def test_the_search_path_option(apart, capsys, monkeypatch) -> None:
    monkeypatch.delenv("POLYDIP_VARIANT_PATH", raising=False)
    code, text = check(capsys, str(apart[0]), "--search-path", str(apart[1]))
    assert code == 0 and "OK" in text
    game = apart[0].parent / "g.json"
    code = main(["new", str(apart[0]), str(game), "--search-path", str(apart[1])])
    assert code == 0 and game.exists()


def test_the_environment_variable(apart, capsys, monkeypatch) -> None:
    monkeypatch.setenv("POLYDIP_VARIANT_PATH", os.pathsep.join(["/nowhere", str(apart[1])]))
    code, text = check(capsys, str(apart[0]))
    assert code == 0 and "OK" in text
    # games of such a variant keep working in later commands (the file is loaded again)
    game = apart[0].parent / "g.json"
    assert main(["new", str(apart[0]), str(game)]) == 0
    assert main(["show", str(game)]) == 0


def test_an_installed_parlance_is_searched_last(apart, tmp_path) -> None:
    """A `parlance` package on the path: its data/ folder is searched, without importing it
    (the package here raises if imported, as old Parlance code may on this Python)."""
    pkg = tmp_path / "site" / "parlance"
    (pkg / "data").mkdir(parents=True)
    (pkg / "__init__.py").write_text("raise ImportError('Parlance must not be imported')\n")
    shutil.copy(apart[1] / "tiny.cfg", pkg / "data")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    env.pop("POLYDIP_VARIANT_PATH", None)
    res = subprocess.run([sys.executable, "-m", "polydip.cli.main", "variant", "check",
                          str(apart[0])], capture_output=True, text=True, env=env, timeout=60)
    assert res.returncode == 0, res.stderr
    assert "OK" in res.stdout


def test_a_variant_file_on_the_search_path_loads_by_its_name(apart, capsys, monkeypatch):
    """`polydip new tiny_variant ...`, `FastGame.new("tiny_variant")`: a name that is not a
    built-in variant is the file NAME.toml/.map/.cfg on the search path, as a saved game's
    map name is; `variant list` shows those files; an unknown name says where it looked."""
    from polydip.fast import FastGame

    monkeypatch.setenv("POLYDIP_VARIANT_PATH",
                       os.pathsep.join([str(apart[0].parent), str(apart[1])]))
    game = apart[0].parent / "g.json"
    assert main(["new", "tiny_variant", str(game)]) == 0 and game.exists()
    assert FastGame.new("tiny_variant").m.variant.path == str(apart[0])
    assert main(["variant", "list"]) == 0
    out = capsys.readouterr().out
    assert f"{apart[0].parent}: tiny_variant" in out and f"{apart[1]}: tiny" in out
    assert main(["new", "no_such_variant_x", str(apart[0].parent / "h.json")]) == 1
    err = capsys.readouterr().err
    assert "no variant named 'no_such_variant_x'" in err and "search path" in err
