"""`polydip serve` from the command line: without the host extra the core CLI still works
and says what to install."""

from __future__ import annotations

import sys

from polydip.cli.main import main


def test_serve_without_the_host_extra_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # as if not installed
    assert main(["serve", "--port", "8999"]) == 1
    err = capsys.readouterr().err
    assert "pip install 'polydip[host]'" in err and "Traceback" not in err
    assert main(["variant", "list"]) == 0  # the rest of the command line is unaffected


def test_serve_refuses_a_bad_port(capsys):
    assert main(["serve", "--port", "0"]) == 1
    assert "--port 0" in capsys.readouterr().err
