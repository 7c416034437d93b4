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


def test_serve_refuses_a_bad_work_budget(capsys):
    assert main(["serve", "--work-seconds", "0"]) == 1
    assert "--work-seconds" in capsys.readouterr().err


def test_the_secrets_may_come_from_the_environment(monkeypatch):
    """--create-secret and --db (with its password) on the command line show in the process
    list; the environment variables do not."""
    import argparse

    from polydip.cli import serve

    monkeypatch.setenv("POLYDIP_CREATE_SECRET", "from-env")
    monkeypatch.setenv("POLYDIP_DB", "postgresql+psycopg://u:pw@h/db")
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    assert parser.parse_args(["serve"]).create_secret == "from-env"
    assert parser.parse_args(["serve"]).db == "postgresql+psycopg://u:pw@h/db"
    assert parser.parse_args(["serve", "--create-secret", "x"]).create_secret == "x"
    monkeypatch.delenv("POLYDIP_CREATE_SECRET")
    parser = argparse.ArgumentParser()
    serve.register(parser.add_subparsers())
    assert parser.parse_args(["serve"]).create_secret is None
