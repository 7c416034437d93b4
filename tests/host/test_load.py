"""The load test of bench/host_load.py: many games, every power submitting and
re-submitting at once through `polydip serve` on the loopback interface; no order lost or
crossed, no 5xx. A short run by default; POLYDIP_LOAD=1 runs the README's (50 games, 60 s).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the host's tests need: pip install "
                    "'polydip[host,host-test]'")
pytestmark = [pytest.mark.host, pytest.mark.slow]

_PATH = Path(__file__).resolve().parents[2] / "bench" / "host_load.py"


def _load_module():
    spec = importlib.util.spec_from_file_location("host_load", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_concurrent_players_lose_nothing_and_get_no_server_error():
    full = os.environ.get("POLYDIP_LOAD") == "1"
    games, seconds = (50, 60.0) if full else (4, 5.0)
    result = _load_module().run(games=games, seconds=seconds, pause=0.5 if not full else 2.0)
    assert result["players"] == 7 * games
    assert result["submissions"] > result["players"]  # every player got through, and more
    assert result["errors"] == 0, result["first_errors"]
    assert result["server_errors"] == 0
