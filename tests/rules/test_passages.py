"""The GM's workflow for passage permissions (rules/controlled_passages.py), issue 27:
The Twentieth Century's straits and canals, seed 003: "Owning players may also allow other
players to send fleets through." The GM grants, withdraws and lists them by the names
players use; a bad option value is refused when the game is made or loaded, never at
processing."""

from __future__ import annotations

import json

import pytest

from polydip.cli.main import main
from polydip.errors import PolydipError
from polydip.game.game import Game


def italy_in_the_aegean() -> Game:
    """Italy's fleet in the Aegean Sea, next to the Suez passage (Cairo, Britain's)."""
    g = Game.new("twentieth_century")
    m = g.map
    aeg = m.loc_index["AEG"]
    mine = [u for u in g.position.units if u.power == g.power("Italy") and m.kinds[u.kind] == "F"]
    g.position.units = [u for u in g.position.units if u is not mine[0]]
    g.position.units.append(type(mine[0])(mine[0].power, mine[0].kind, aeg))
    return g


def test_a_permission_is_granted_by_the_names_players_use() -> None:
    """Seed 003: "the Britain player may also allow Italy F(Aegean Sea) to Red Sea"."""
    g = italy_in_the_aegean()
    assert "F AEG - RSE" not in g.legal_orders("Italy")["F AEG"]
    assert g.permit("the Suez Canal", ["italy"]) == ["Italy"]
    assert g.options["passage_permissions"] == {"Cairo": {"Britain": ["Italy"]}}
    assert "F AEG - RSE" in g.legal_orders("Italy")["F AEG"]
    g.set_orders("Italy", ["F AEG - RSE"])
    g.process()
    assert any(g.map.loc_name[u.loc] == "RSE" for u in g.position.units
               if u.power == g.power("Italy"))


def test_a_permission_is_withdrawn() -> None:
    g = italy_in_the_aegean()
    g.permit("Suez", ["Italy", "France"])
    assert g.permit("Cairo", ["Italy"], allow=False) == ["France"]
    assert "F AEG - RSE" not in g.legal_orders("Italy")["F AEG"]
    g.permit("Cairo", ["France"], allow=False)
    assert g.options["passage_permissions"] == {}


def test_passages_are_listed_with_their_controller_and_permissions() -> None:
    g = Game.new("twentieth_century")
    g.permit("Bosporus", ["USSR"])
    rows = {p["name"]: p for p in g.passages()}
    assert set(rows) == {"Bremen", "Ankara", "Cairo", "Panama"}
    assert rows["Ankara"]["controller"] == "Turkey"
    assert rows["Ankara"]["permissions"] == {"Turkey": ["USSR"]}
    assert "Suez Canal" in rows["Cairo"]["aliases"]


@pytest.mark.parametrize("value, words", [
    ({"Cairo": {"Britain": ["Itly"]}}, ["Itly", "did you mean Italy"]),
    ({"Cairo": {"Britian": ["Italy"]}}, ["Britian", "did you mean Britain"]),
    ({"Cairo": {"Britain": "Italy"}}, ["a list of powers", '["Italy"]']),
    ({"Gibraltar": {"Britain": ["Italy"]}}, ["no passage 'Gibraltar'", "Cairo"]),
    (["Cairo"], ["not a dict"]),
    ({"Cairo": ["Italy"]}, ["a table of controlling power"]),
])
def test_a_bad_permission_option_is_refused_when_the_game_is_made(value, words) -> None:
    with pytest.raises(PolydipError) as err:
        Game.new("twentieth_century", {"passage_permissions": value})
    for w in words:
        assert w in str(err.value)


def test_a_permission_option_is_written_under_canonical_names() -> None:
    g = Game.new("twentieth_century", {"passage_permissions": {"Suez": {"britain": ["italy"]}}})
    assert g.options["passage_permissions"] == {"Cairo": {"Britain": ["Italy"]}}


def test_a_variant_without_passages_refuses_the_option() -> None:
    with pytest.raises(PolydipError, match="controlled_passages"):
        Game.new("standard", {"passage_permissions": {"Suez": {"England": ["France"]}}})
    Game.new("standard", {"passage_permissions": {}})  # the default is no change


def test_a_game_file_with_a_bad_permission_says_so_on_load(tmp_path) -> None:
    """Before: a misspelled power was accepted by `new`, then every `process` and `show
    --legal` failed with "internal error: KeyError"."""
    path = tmp_path / "g.json"
    Game.new("twentieth_century").save(path)
    data = json.loads(path.read_text())
    data["options"]["passage_permissions"] = {"Cairo": {"Britain": ["Itly"]}}
    path.write_text(json.dumps(data))
    with pytest.raises(PolydipError, match="Itly"):
        Game.load(path)


def test_the_gm_command_grants_lists_and_withdraws(tmp_path, capsys) -> None:
    path = str(tmp_path / "g.json")
    assert main(["new", "twentieth_century", path]) == 0
    assert main(["passages", path, "allow", "Suez Canal", "Italy", "France"]) == 0
    assert "Cairo: Britain lets through France, Italy" in capsys.readouterr().out
    assert Game.load(path).options["passage_permissions"] == {
        "Cairo": {"Britain": ["France", "Italy"]}}
    assert main(["passages", path, "revoke", "suez", "France"]) == 0
    assert main(["passages", path]) == 0
    out = capsys.readouterr().out
    assert "Cairo (Suez, Suez Canal): controlled by Britain" in out
    assert "Britain lets through Italy" in out
    # a typo is an error that names it, and changes nothing
    assert main(["passages", path, "allow", "Suez", "Itly"]) != 0
    assert "did you mean Italy" in capsys.readouterr().err
    assert Game.load(path).options["passage_permissions"] == {"Cairo": {"Britain": ["Italy"]}}


def test_the_gm_may_record_a_permission_for_a_named_controller(tmp_path) -> None:
    g = Game.new("twentieth_century")
    assert g.permit("Panama Canal", ["Britain"], controller="Mexico") == ["Britain"]
    # recorded for Mexico; the USA controls Panama now, so Britain is not let through yet
    assert g.options["passage_permissions"] == {"Panama": {"Mexico": ["Britain"]}}


# ---- permissions in a pasted message -----------------------------------------------------

def _orders(path: str, text: str, tmp_path) -> int:
    msg = tmp_path / "msg.txt"
    msg.write_text(text)
    return main(["orders", path, "--file", str(msg)])


def test_a_message_line_grants_a_permission(tmp_path, capsys) -> None:
    """Issue 27: 'read "Britain allows Italy through Cairo" lines in a message'."""
    path = str(tmp_path / "g.json")
    assert main(["new", "twentieth_century", path]) == 0
    text = ("Britain:\nF London H\nWe allow Italy through the Suez Canal\n"
            "Turkey lets USSR pass the Straits.\nBest wishes, see you in Paris\n")
    assert _orders(path, text, tmp_path) == 0
    out = capsys.readouterr().out
    assert "Passage permission: Cairo: Britain lets through Italy." in out
    assert Game.load(path).options["passage_permissions"] == {
        "Cairo": {"Britain": ["Italy"]}, "Ankara": {"Turkey": ["USSR"]}}
    assert Game.load(path).orders  # the order on the line before is kept too
    assert _orders(path, "Britain no longer allows Italy through Suez\n", tmp_path) == 0
    assert Game.load(path).options["passage_permissions"] == {"Ankara": {"Turkey": ["USSR"]}}


def test_a_permission_line_with_an_unknown_name_is_reported(tmp_path, capsys) -> None:
    from polydip.game.message import read_message

    g = Game.new("twentieth_century")
    msg = read_message(g.map, g.position, "Britain allows Itly through Suez\n"
                       "Britain allows Italy through Gibraltar\n"
                       "I will allow you to take Munich\n")
    assert [(p.line, p.code) for p in msg.problems] == [(1, "unknown_power"),
                                                         (2, "unknown_passage")]
    assert "Italy" in msg.problems[0].suggestion
    assert msg.ignored == [3] and msg.permissions == []  # prose stays prose


def test_permission_words_are_prose_on_a_map_without_passages() -> None:
    from polydip.game.message import read_message

    g = Game.new("standard")
    msg = read_message(g.map, g.position, "England allows France through the Channel\n")
    assert msg.permissions == [] and msg.problems == [] and msg.ignored == [1]
