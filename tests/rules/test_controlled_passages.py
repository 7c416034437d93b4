"""rules/controlled_passages.py's hooks, asked directly of the rule set of the tiny test map:
a strait on the sea edge S|B1, controlled by the center N2."""

from __future__ import annotations

import pytest
from support.positions import move_key, position, variant_map

from polydip.adjudication import reasons as R
from polydip.errors import PolydipError

RULE = ('[[rules.controlled_passages.passage]]\nname = "Strait"\naliases = ["The Narrows"]\n'
        'edges = ["S-B1"]\ncontrollers = ["N2"]\n')


@pytest.fixture
def m():
    return variant_map("tiny", RULE)


def test_a_passage_nobody_controls_is_closed_to_all(m) -> None:
    """Seed 002: "If one side controls one territory and the other controls the other, the
    canal or strait is closed to all sea units" (here: nobody owns N2)."""
    pos = position(m, "Blue: F B1")
    assert m.rules.passage_controllers(m, pos) == {"Strait": -1}
    shut = m.rules.blocked(m, pos, {})
    assert set(shut) == {0, 1} and move_key(m, "F B1 - S") in shut[1]
    why = m.rules.explain(m, pos, "blocked", (1, *move_key(m, "F B1 - S")))
    assert why is not None and why.code == R.PASSAGE_CLOSED


def test_a_passage_is_open_to_its_controller_and_the_powers_it_permits(m) -> None:
    """Seed 003: "The owner of these provinces may send fleets to neighboring sea zones ...
    Owning players may also allow other players to send fleets through"."""
    pos = position(m, "Blue: F B1", centers="Red: N2, A1, A2; Blue: B1")
    assert m.rules.passage_controllers(m, pos) == {"Strait": 0}
    assert set(m.rules.blocked(m, pos, {})) == {1}
    options = m.rules.check_options(m, {"passage_permissions": {"the narrows": {"red": ["BLUE"]}}})
    assert options == {"passage_permissions": {"Strait": {"Red": ["Blue"]}}}
    assert m.rules.blocked(m, pos, options) == {}


def test_a_bad_permission_is_refused_with_its_words(m) -> None:
    with pytest.raises(PolydipError, match="unknown power 'Green'"):
        m.rules.check_options(m, {"passage_permissions": {"Strait": {"Green": ["Red"]}}})
    with pytest.raises(PolydipError, match="no passage 'Gate'"):
        m.rules.check_options(m, {"passage_permissions": {"Gate": {"Red": ["Blue"]}}})
    with pytest.raises(PolydipError, match="a list of powers"):
        m.rules.check_options(m, {"passage_permissions": {"Strait": {"Red": "Blue"}}})


def test_a_change_of_control_is_an_event(m) -> None:
    before = position(m, "", phase="F1901M")
    after = position(m, "", phase="W1901A", centers="Red: N2")
    [event] = m.rules.events(m, before, after)
    assert event.code == R.PASSAGE_OPENED
    assert m.rules.passage("the narrows") == "Strait"
