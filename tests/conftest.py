"""Shared test fixtures.

`known_deviations` collects notes that belong in the test run's summary rather than in a
warning: the differential test records there the phases it skipped for the `diplomacy`
package's known deviations from the DATC (pytest prints them at the end of the run).
"""

from __future__ import annotations

import gc
import warnings

import pytest

_NOTES: list[str] = []


@pytest.fixture
def known_deviations() -> list[str]:
    return _NOTES


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


def pytest_terminal_summary(terminalreporter) -> None:
    if _NOTES:
        terminalreporter.section("phases skipped for known deviations of the diplomacy package")
        for line in _NOTES:
            terminalreporter.write_line(line)
