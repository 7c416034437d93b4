"""Press in the game's data (game/press.py): messages added with checks, kept in game files and
in the `diplomacy` package's saved-game JSON both ways (issue 31 "Press", issue 32 item 2)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from polydip.cli.main import main
from polydip.errors import GameFileError
from polydip.game.dipjson import game_to_diplomacy
from polydip.game.files import game_from_json, game_to_json
from polydip.game.game import Game
from polydip.game.press import GLOBAL, MAX_TEXT, PressError


def test_messages_are_kept_in_order_with_their_phase_and_unique_times() -> None:
    g = Game.new("standard")
    a = g.add_message("france", "England", "Channel is yours", sent=5)
    b = g.add_message("England", ["FRANCE", "germany"], "deal", sent=5)  # same time asked
    c = g.add_message("Turkey", "global", "peace to all")
    assert [x.text for x in g.messages] == ["Channel is yours", "deal", "peace to all"]
    assert (a.sender, a.recipients, a.phase) == ("France", ("England",), "S1901M")
    assert b.recipients == ("France", "Germany") and b.time > a.time
    assert c.is_global and c.time > b.time


@pytest.mark.parametrize(("sender", "to", "text", "code"), [
    ("Atlantis", "France", "hi", "unknown_power"),
    ("France", "Narnia", "hi", "unknown_power"),
    ("France", [], "hi", "bad_recipients"),
    ("France", "France", "hi", "bad_recipients"),
    ("France", "England", "   ", "empty_text"),
    ("France", "England", "x" * (MAX_TEXT + 1), "too_long"),
    ("France", "England", "a\x00b", "bad_text"),
    ("France", "y" * 10_000, "hi", "unknown_power"),
])
def test_a_bad_message_is_refused_with_a_code(sender, to, text, code) -> None:
    g = Game.new("standard")
    with pytest.raises(PressError) as exc:
        g.add_message(sender, to, text)
    assert exc.value.code == code
    assert g.messages == []


def test_a_power_reads_what_it_sent_what_addresses_it_and_public_messages() -> None:
    g = Game.new("standard")
    g.add_message("France", "England", "private")
    g.add_message("Germany", ["Russia", "Austria"], "eastern deal")
    g.add_message("Italy", GLOBAL, "public")
    assert [x.text for x in g.messages_for("England")] == ["private", "public"]
    assert [x.text for x in g.messages_for("Turkey")] == ["public"]
    assert [x.text for x in g.messages_for("Austria")] == ["eastern deal", "public"]
    assert [x.text for x in g.messages_for("France", "F1901M")] == []


def test_game_file_keeps_messages_and_older_files_still_read() -> None:
    g = Game.new("wita")
    g.add_message("Brazil", "Argentina", "olá")
    g.process()
    g.add_message("United States", GLOBAL, "Monroe")
    data = game_to_json(g)
    back = game_from_json(json.loads(json.dumps(data)))
    assert back.messages == g.messages
    del data["messages"]
    assert game_from_json(data).messages == []
    data["messages"] = [{"phase": "S1845M", "sender": "Narnia", "recipients": "GLOBAL",
                         "time": 1, "text": "x"}]
    with pytest.raises(GameFileError, match="Narnia"):
        game_from_json(data)


def _package_game_with_press():
    diplomacy = pytest.importorskip("diplomacy")
    from diplomacy.engine.message import Message as PMessage
    pg = diplomacy.Game()
    pg.add_message(PMessage(sender="FRANCE", recipient="ENGLAND", message="hi",
                            phase=pg.current_short_phase))
    pg.add_message(PMessage(sender="RUSSIA", recipient="GLOBAL", message="to all",
                            phase=pg.current_short_phase))
    pg.process()
    pg.add_message(PMessage(sender="ENGLAND", recipient="FRANCE", message="<b>yes</b>",
                            phase=pg.current_short_phase))
    return pg


def _package_messages(pg) -> list[tuple]:
    out = [(m.phase, m.sender, m.recipient, m.message, m.time_sent)
           for phase in pg.message_history for m in pg.message_history[phase].values()]
    return out + [(m.phase, m.sender, m.recipient, m.message, m.time_sent)
                  for m in pg.messages.values()]


def test_package_game_with_press_converts_there_and_back(tmp_path: Path) -> None:
    from diplomacy.utils.export import from_saved_game_format, to_saved_game_format
    pg = _package_game_with_press()
    before = _package_messages(pg)
    assert len(before) == 3
    src = tmp_path / "pkg.json"
    src.write_text(json.dumps(to_saved_game_format(pg)))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["convert", str(src), str(tmp_path / "g.json"), "--to", "polydip"]) == 0
    assert "3 messages" in out.getvalue()
    g = Game.load(tmp_path / "g.json")
    assert [(x.phase, x.sender, x.recipients, x.text) for x in g.messages] == [
        ("S1901M", "France", ("England",), "hi"), ("S1901M", "Russia", GLOBAL, "to all"),
        ("F1901M", "England", ("France",), "<b>yes</b>")]
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["convert", str(tmp_path / "g.json"), str(tmp_path / "back.json"),
                     "--to", "diplomacy"]) == 0
    again = from_saved_game_format(json.loads((tmp_path / "back.json").read_text()))
    assert _package_messages(again) == before


def test_a_message_to_several_powers_is_one_package_message_to_each() -> None:
    g = Game.new("standard")
    g.add_message("Germany", ["Russia", "Austria"], "eastern deal", sent=100)
    g.add_message("Italy", GLOBAL, "public", sent=100)
    msgs = game_to_diplomacy(g, stamp=0)["phases"][-1]["messages"]
    assert [(x["sender"], x["recipient"], x["time_sent"]) for x in msgs] == [
        ("GERMANY", "AUSTRIA", 100), ("GERMANY", "RUSSIA", 101), ("ITALY", "GLOBAL", 102)]


def test_a_malformed_package_message_is_a_clear_error() -> None:
    g = Game.new("standard")
    data = game_to_diplomacy(g, stamp=0)
    data["phases"][0]["messages"] = [{"sender": "FRANCE", "recipient": "MORDOR",
                                      "time_sent": 1, "message": "x"}]
    with pytest.raises(GameFileError, match=r"messages\[0\].*MORDOR"):
        Game.from_diplomacy(data)
    data["phases"][0]["messages"] = [{"sender": "FRANCE", "recipient": "GLOBAL",
                                      "time_sent": "soon", "message": "x"}]
    with pytest.raises(GameFileError, match="time_sent"):
        Game.from_diplomacy(data)
