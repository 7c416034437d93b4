"""The arena for agents that read and write words: scripted agents stand in for models
(issue 32 item 7). They order in loose notation, talk to each other, make mistakes and read
the reader's feedback; a program agent speaks JSON Lines."""

from __future__ import annotations

import json
import sys
import textwrap

import pytest

from polydip.arena import Arena, RandomAgent, observation, observation_text
from polydip.cli.main import main
from polydip.errors import PolydipError


class Talker:
    """Round 1: greets a neighbour, orders with a typo; round 2: reads the feedback and
    sends what the reader suggested, or its orders again without the bad line."""

    def __init__(self, to: str, typo: str | None) -> None:
        self.to, self.typo, self.seen = to, typo, []

    def __call__(self, obs):
        self.seen.append(obs)
        legal = obs["legal_orders"]
        good = [lst[0] for _u, lst in sorted(legal.items()) if lst]
        if obs["round"] == 1:
            lines = good + ([self.typo] if self.typo and obs["phase_kind"] == "movement"
                            else [])
            return {"orders": "\n".join(lines),
                    "messages": [{"to": self.to, "text": f"{obs['power']} greets you in "
                                  f"{obs['phase']}"}]}
        return {"orders": good}


def test_two_agents_talk_order_and_read_feedback_on_wita():
    brazil, argentina = Talker("Argentina", "A Bahai - Rio"), Talker("Brazil", None)
    arena = Arena("wita", {"Brazil": brazil, "Argentina": argentina}, rounds=2,
                  max_year=1845)
    result = arena.run()
    g = result.game
    assert result.phases >= 2 and not result.failures
    # press: each one's message of round 1 is in the other's round 2 observation
    first = [o for o in argentina.seen if o["phase"] == "S1845M"]
    assert [x["text"] for x in first[1]["messages"]] == ["Brazil greets you in S1845M"]
    assert first[0]["messages"] == []  # (nothing sent yet)
    assert all(x["from"] != "Argentina" for x in first[1]["messages"])
    assert {m.sender for m in g.messages} == {"Brazil", "Argentina"}
    # feedback: Brazil's typo reported with its line and code, the good orders taken
    fb = next(o for o in brazil.seen if o["phase"] == "S1845M" and o["round"] == 2)["feedback"]
    assert [p["text"] for p in fb["not_taken"]] == ["A Bahai - Rio"]
    assert fb["not_taken"][0]["code"] and fb["not_taken"][0]["line"] == len(fb["taken"]) + 1
    # the last answer of a phase stands: the orders processed are round 2's
    first_phase = g.history[0]
    assert first_phase.orders[g.power("Brazil")] == fb["taken"]
    # results come back in the next phase's observation
    nxt = next(o for o in brazil.seen if o["phase"] != "S1845M")
    assert set(nxt["last_results"]) == set(first_phase.orders[g.power("Brazil")])


def test_lad_agents_order_stacked_oceans_and_an_agent_for_another_power_is_refused():
    def meddler(obs):
        """Peru also orders one of Chile's armies (its abbreviation from the board)."""
        chile = next(b for b in obs["board"] if b["power"] == "Chile")
        army = next(u for u in chile["units"] if u.startswith("Army"))
        other = f"Chile: A {army.rsplit('(', 1)[1].rstrip(')')} H"
        mine = [lst[0] for lst in obs["legal_orders"].values() if lst][:1]
        return {"orders": [other, *mine] if obs["phase_kind"] == "movement" else mine}

    arena = Arena("lad1890", {"Peru": meddler, "Brazil": RandomAgent(3)}, rounds=1,
                  max_year=1891)
    result = arena.run()
    refused = [p for f in result.feedback if f["power"] == "Peru" for p in f["not_taken"]]
    assert refused and all(p["code"] == "not_own_unit" for p in refused)
    chile = result.game.power("Chile")
    assert all(not rec.orders.get(chile) for rec in result.game.history)  # (Chile holds)


def test_a_failing_agent_is_recorded_and_the_game_goes_on():
    def broken(obs):
        raise RuntimeError("model timed out")

    result = Arena("standard", {"France": broken, "England": lambda obs: "A LON H"},
                   max_year=1901, rounds=1).run()
    errors = {(f["power"], f["error"].split(":")[0]) for f in result.failures}
    assert ("France", "RuntimeError") in errors and ("England", "answered str, not an object")\
        in {(f["power"], f["error"]) for f in result.failures}
    assert result.phases >= 2


def test_a_list_of_orders_with_items_that_are_not_text_keeps_its_good_lines():
    def sloppy(obs):
        return {"orders": ["A PAR-BUR", 5, None, "F BRE - MAO"]}

    arena = Arena("standard", {"France": sloppy}, max_year=1901, rounds=1)
    result = arena.run()
    fb = next(f for f in result.feedback if f["power"] == "France" and f["phase"] == "S1901M")
    assert fb["taken"] == ["A PAR-BUR", "F BRE - MAO"]  # (the good lines are not lost)
    assert [(p["line"], p["text"], p["code"]) for p in fb["not_taken"]] == [
        (2, "5", "not_an_order"), (3, "None", "not_an_order")]


def test_bad_arena_settings_are_clear_errors():
    with pytest.raises(PolydipError, match="rounds"):
        Arena("standard", rounds=0)
    with pytest.raises(PolydipError, match="neutral"):
        Arena("war_in_north_america", {"Rebels": RandomAgent()})
    with pytest.raises(PolydipError, match="max_year 1800 is before the game starts"):
        Arena("standard", max_year=1800)


def test_a_message_without_to_is_refused_and_a_misspelled_key_is_said():
    """A message with no "to" went to every power: a private word made public. It is
    refused, saying why; an answer's key the arena does not read ("order") is named in the
    feedback's notes, not ignored in silence."""
    def careless(obs):
        return {"order": "A PAR - BUR",
                "messages": [{"text": "just between us"}, {"to": "England", "text": "hi"}]}

    result = Arena("standard", {"France": careless}, max_year=1901, rounds=1).run()
    fb = next(f for f in result.feedback if f["power"] == "France" and f["phase"] == "S1901M")
    assert fb["messages_sent"] == 1 and "names no \"to\"" in fb["messages_refused"][0]
    assert any("not read: 'order'" in n and "orders" in n for n in fb["notes"])
    assert result.game.messages  # (one a phase, to England alone)
    assert {(x.sender, x.recipients) for x in result.game.messages} == {
        ("France", ("England",))}


def test_the_observation_in_words_names_what_an_agent_needs():
    arena = Arena("standard")
    obs = observation(arena.game, arena.game.power("France"), [], None, 1, 2)
    text = observation_text(obs)
    assert "You are France" in text and "Army Paris (PAR)" in text
    assert "A PAR - BUR" in text and json.dumps(obs)  # plain JSON data


AGENT = textwrap.dedent("""
    import sys
    from polydip.arena.jsonl import serve
    def agent(obs):
        legal = obs["legal_orders"]
        return {"orders": [lst[-1] for lst in legal.values() if lst],
                "messages": [{"to": "all", "text": "hello from " + obs["power"]}]}
    serve(agent)
""")


def test_a_program_agent_plays_over_json_lines(tmp_path, capsys):
    script = tmp_path / "agent.py"
    script.write_text(AGENT)
    out = tmp_path / "g.json"
    code = main(["arena", "--variant", "wita", "--agent", f"Peru={sys.executable} {script}",
                 "--default", "random", "--max-year", "1845", "--rounds", "1",
                 "-o", str(out)])
    assert code == 0
    printed = capsys.readouterr()
    assert "agent failed" not in printed.err
    saved = json.loads(out.read_text())
    assert any(m["text"] == "hello from Peru" for m in saved["messages"])


def test_a_program_that_exits_or_is_missing_fails_its_turns_only(tmp_path, capsys):
    code = main(["arena", "--agent", f"France={sys.executable} -c pass", "--max-year",
                 "1901", "--rounds", "1", "--timeout", "5"])
    err = capsys.readouterr().err
    assert code == 0 and "France: agent failed" in err
    # its status once it has one, in polydip's words (no exception class, no "None")
    assert "agent failed: agent France: has exited (status 0) without answering" in err
    assert "status None" not in err and "PolydipError" not in err
    assert main(["arena", "--agent", "France=/nonexistent/agent", "--max-year", "1901"]) == 0
    assert "cannot start" in capsys.readouterr().err
    assert main(["arena", "--agent", "France"]) == 1
