"""The suite runs in parallel (pytest-xdist, tests/README.md): what `python3 -m pytest -n auto`
relies on, checked on a small suite of its own run with this folder's conftest.py."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("xdist", reason="the parallel run needs pytest-xdist (the dev extra)")

SHARED = '''
import os
import pytest

@pytest.fixture(scope="module")
def started():
    with open(os.environ["STARTS"], "a") as f:
        f.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")
    return os.environ.get("PYTEST_XDIST_WORKER", "main")

@pytest.mark.parametrize("n", range(6))
def test_shares(started, n):
    assert started == os.environ.get("PYTEST_XDIST_WORKER", "main")

@pytest.mark.parametrize("n", range(6))
def test_alone(n):
    pass
'''


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch) -> pytest.Pytester:
    pytester.makeconftest((Path(__file__).parent / "conftest.py").read_text())
    pytester.makepyfile(test_shared=SHARED)
    # the addopts of pyproject.toml, which a run from another folder does not read
    pytester.makeini("[pytest]\naddopts = -ra --dist loadgroup\n"
                     "filterwarnings =\n    error\n"
                     "    ignore:Benchmarks are automatically disabled because xdist\n")
    # only the plugins the run needs (the others, the host's browser and fuzzing among them,
    # take seconds to import in each worker)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    return pytester


PARALLEL = ("-p", "xdist.plugin", "-p", "no:cacheprovider", "-n", "2")


def test_a_module_fixture_starts_once_on_one_worker(suite, monkeypatch) -> None:
    """A module-scoped fixture (a Ray cluster, a browser, a server) started on every worker
    that runs one of its tests would start twice on two workers: its tests are grouped."""
    starts = suite.path / "starts.txt"
    monkeypatch.setenv("STARTS", str(starts))
    run = suite.runpytest_subprocess(*PARALLEL)
    run.assert_outcomes(passed=12)
    assert len(starts.read_text().split()) == 1


def test_no_test_run_still_fails(suite) -> None:
    """.ci/run counts on pytest's exit status 5 when no test ran, in parallel too."""
    run = suite.runpytest_subprocess(*PARALLEL[:-1], "1", "-k", "nothing")
    assert run.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_hypothesis_writes_nothing_into_the_working_tree() -> None:
    """Workers running at once share no file: hypothesis' folder (its example database and
    caches, `.hypothesis/` in the current folder by default) is a temporary one."""
    from hypothesis.configuration import storage_directory

    home = storage_directory("examples", intent_to_write=False).path.parent.resolve()
    root = Path(__file__).resolve().parent.parent
    assert home != root / ".hypothesis" and root not in home.parents


def test_every_test_sees_the_same_terminal_width() -> None:
    """The commands' tables are as wide as the terminal; on a worker (or in a narrow terminal)
    `variant show`'s rows wrapped and a test failed only in the parallel run."""
    import shutil

    assert shutil.get_terminal_size().columns == 140
