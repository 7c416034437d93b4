"""Shared test fixtures.

`known_deviations` collects notes that belong in the test run's summary rather than in a
warning: the differential test records there the phases it skipped for the `diplomacy`
package's known deviations from the DATC (pytest prints them at the end of the run).

The suite runs in parallel (`python3 -m pytest -n auto`, pytest-xdist with `--dist loadgroup`
from pyproject's addopts). A test that uses a module-scoped fixture (a Ray cluster, a browser,
a `polydip serve` process) is put in its file's xdist group, so those tests run on one worker
and the fixture starts once, not once per worker; everything else is spread test by test.
Session-scoped fixtures (the host's PostgreSQL cluster) start once per worker, each in its own
temporary folder. Nothing is written into the working tree: hypothesis keeps its files (the
example database, its caches) in a temporary folder of each process, removed at the end
(the property tests are derandomized, so a saved example adds nothing).
"""

from __future__ import annotations

import gc
import shutil
import tempfile
import warnings

import pytest

pytest_plugins = ["pytester"]  # test_parallel.py runs a small suite of its own

_NOTES: list[str] = []


@pytest.fixture(autouse=True)
def _no_render_memo(monkeypatch: pytest.MonkeyPatch) -> None:
    """`polydip render` keeps what a board's first picture works out in ~/.cache
    (render/memo.py): not from the suite (tests/render/test_render_memo.py points it at a
    temporary folder). `polydip render` also turns the memo on for the rest of its process:
    each test starts with it off again (a test that undoes its monkeypatch must not find it
    on and pointing at the home folder)."""
    monkeypatch.setenv("POLYDIP_CACHE_DIR", "off")
    from polydip.render import memo

    memo.enable(False)


@pytest.fixture(autouse=True)
def _terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The width the commands draw their tables at (shutil.get_terminal_size, for rich) is
    the same in every test: 140 columns, what a run with its output piped gets. Without it a
    test sees the width of the terminal pytest runs in, or 80 on an xdist worker, where
    `variant show`'s table wraps its cells."""
    monkeypatch.setenv("COLUMNS", "140")


@pytest.fixture
def known_deviations() -> list[str]:
    return _NOTES


_HYPOTHESIS_HOME: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    try:
        from hypothesis.configuration import set_hypothesis_home_dir
    except ImportError:
        return
    _HYPOTHESIS_HOME.append(tempfile.mkdtemp(prefix="polydip-hypothesis-"))
    set_hypothesis_home_dir(_HYPOTHESIS_HOME[-1])


def pytest_unconfigure(config: pytest.Config) -> None:
    while _HYPOTHESIS_HOME:
        shutil.rmtree(_HYPOTHESIS_HOME.pop(), ignore_errors=True)


def pytest_sessionstart(session) -> None:
    """The `diplomacy` package (the benchmark extra) leaves its convoy cache file open when
    it is imported; the run turns warnings into errors, so it is imported here once, with
    that one leak collected quietly, before any test."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            import diplomacy  # noqa: F401
        except ImportError:
            return
        gc.collect()


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        if any(defs[-1].scope == "module" for name, defs in info.name2fixturedefs.items()
               if defs and name in item.fixturenames):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def pytest_terminal_summary(terminalreporter) -> None:
    if _NOTES:
        terminalreporter.section("phases skipped for known deviations of the diplomacy package")
        for line in _NOTES:
            terminalreporter.write_line(line)
