"""The arena's loop: each phase, a few rounds in which every power's agent sees the board
and answers with orders and messages; then the phase is processed (docs/arena.md).

Orders are read as a GM reads a player's e-mail (game/message.py): any notation, full
names, typos reported line by line. What the reader took and what it did not (with the
reason, a suggestion and a problem code) is the agent's feedback in its next round; the
orders of an agent's last answer in a phase stand. A message an agent sends in a round is
in its recipients' next observation. An agent that fails (raises, answers something that
is not an answer) is recorded and its power keeps the orders it had; the game goes on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from polydip.arena.observe import observation
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.game.message import LineProblem, apply_message, read_message
from polydip.game.press import GLOBAL, Message
from polydip.variants.model import Variant

# an agent: observation (observe.py) -> answer {"orders": text or lines, "messages":
# [{"to": power, powers or "all", "text": ...}]}; None: no change
ANSWER_KEYS = ("orders", "messages")
Agent = Callable[[dict[str, Any]], "dict[str, Any] | None"]


@dataclass(slots=True)
class ArenaResult:
    game: Game
    phases: int
    status: str  # won | drawn | year_limit
    failures: list[dict[str, Any]] = field(default_factory=list)  # agents that failed
    feedback: list[dict[str, Any]] = field(default_factory=list)  # every answer's feedback


class Arena:
    """A game of `variant` played by `agents` (power name → agent; powers without one get
    `default`, holding by default). `rounds`: answers each agent gives per phase (messages
    of one round are read in the next); `press`: whether agents may write to each other."""

    def __init__(self, variant: str | Variant = "standard",
                 agents: dict[str, Agent] | None = None, default: Agent | None = None,
                 rounds: int = 2, max_year: int | None = None, press: bool = True,
                 options: dict[str, Any] | None = None, name: str = "arena") -> None:
        if rounds < 1:
            raise PolydipError(f"rounds must be at least 1 (got {rounds})")
        self.game = Game.new(variant, options or {}, name=name)
        m = self.game.map
        self.agents: dict[int, Agent] = {}
        for who, agent in (agents or {}).items():
            p = self.game.power(who)
            if m.power_neutral[p]:
                raise PolydipError(f"{m.powers[p]} is a neutral power: it plays by the rules, "
                                   "not by an agent")
            self.agents[p] = agent
        from polydip.arena.agents import HoldAgent

        self.default: Agent = default or HoldAgent()
        self.rounds = rounds
        self.press = press
        start = self.game.position.phase.year
        if max_year is not None and max_year < start:
            raise PolydipError(f"max_year {max_year} is before the game starts ({start})")
        self.max_year = max_year if max_year is not None else start + 9
        self._read: dict[int, int] = {}  # power -> messages of the game it has been shown
        self._results: dict[int, dict[str, list[str]]] = {}
        self.result = ArenaResult(self.game, 0, "active")

    def agent_of(self, power: int) -> Agent:
        return self.agents.get(power, self.default)

    def players(self) -> list[int]:
        """The powers that take part this phase: not neutral, with units or centers."""
        m, pos = self.game.map, self.game.position
        alive = {u.power for u in pos.units} | {d.power for d in pos.dislodged} | \
            {o for o in pos.owners if o >= 0}
        return [p for p in range(len(m.powers)) if p in alive and not m.power_neutral[p]]

    def run(self, progress: Callable[[str], None] | None = None) -> ArenaResult:
        g = self.game
        while not g.is_over and g.position.phase.year <= self.max_year:
            if progress is not None:
                progress(g.phase)
            self.play_phase()
        self.result.status = g.status if g.is_over else "year_limit"
        return self.result

    def play_phase(self) -> None:
        g = self.game
        feedback: dict[int, dict[str, Any] | None] = {}
        for r in range(1, self.rounds + 1):
            for p in self.players():
                obs = observation(g, p, self._inbox(p), feedback.get(p), r, self.rounds,
                                  self._results.get(p))
                answer = self._ask(p, obs)
                if answer is None:
                    continue
                got = feedback[p] = self._orders(p, answer.get("orders"))
                self._messages(p, answer.get("messages") or [], got)
                unknown = [k for k in answer if k not in ANSWER_KEYS]
                if unknown:  # ("order" for "orders": said, not silently nothing)
                    got["notes"].append(
                        f"not read: {', '.join(repr(str(k))[:40] for k in unknown[:5])}; an "
                        f"answer holds {' and '.join(ANSWER_KEYS)}")
                self.result.feedback.append({"phase": g.phase, "round": r,
                                             "power": g.map.powers[p], **got})
        ordered = {p: list(g.orders.get(p, [])) for p in self.players()}
        outcome = g.process()
        self.result.phases += 1
        words = {t: list(w) for _, t, w in outcome.rows()}
        self._results = {p: {t: words.get(t, []) for t in lines}
                         for p, lines in ordered.items()}

    # ---- one agent's turn -------------------------------------------------------------

    def _inbox(self, power: int) -> list[Message]:
        """The messages to `power` (from others) it has not been shown yet."""
        name = self.game.map.powers[power]
        mine = [x for x in self.game.messages_for(name) if x.sender != name]
        seen = self._read.get(power, 0)
        self._read[power] = len(mine)
        return mine[seen:]

    def _ask(self, power: int, obs: dict[str, Any]) -> dict[str, Any] | None:
        try:
            answer: Any = self.agent_of(power)(obs)
        except PolydipError as exc:  # (polydip's own words: a process agent's problem)
            self._fail(power, str(exc))
            return None
        except Exception as exc:  # an agent's bug must not stop the game: recorded
            self._fail(power, f"{exc.__class__.__name__}: {exc}")
            return None
        if answer is not None and not isinstance(answer, dict):
            self._fail(power, f"answered {type(answer).__name__}, not an object")
            return None
        return answer

    def _fail(self, power: int, why: str) -> None:
        self.result.failures.append({"phase": self.game.phase, "power":
                                     self.game.map.powers[power], "error": why})

    def _orders(self, power: int, orders: Any) -> dict[str, Any]:
        """Read an answer's orders for `power` (text, or a list of lines); replace its
        orders with those taken; the feedback: taken, not taken (line, text, reason,
        suggestion, code), notes."""
        g = self.game
        m = g.map
        if orders is None:
            return _feedback(g, power, [], [])
        bad: list[LineProblem] = []  # list items that are not text, each reported
        if isinstance(orders, list):
            lines = []
            for x in orders:
                if isinstance(x, str):
                    lines.extend(x.split("\n"))
                else:  # (an empty line in its place: the lines after keep their numbers)
                    lines.append("")
                    bad.append(LineProblem(len(lines), repr(x)[:80],
                                           "an order is a line of text", "", power,
                                           "not_an_order"))
            orders = "\n".join(lines)
        if not isinstance(orders, str):
            return _feedback(g, power, [LineProblem(0, repr(orders)[:80],
                                                    "orders must be text or a list of lines",
                                                    "", power, "not_an_order")], [])
        msg = read_message(m, g.position, orders, power, g.combined)
        problems = list(msg.problems) + bad
        mine = [o for o in msg.orders if o.power == power]
        for o in msg.orders:
            if o.power != power:
                problems.append(LineProblem(o.line, o.text, f"you order for {m.powers[power]} "
                                            "only", "", o.power, "not_own_unit"))
        msg.orders = mine
        msg.powers = [power]
        problems += apply_message(g, msg, replace_all=True)
        return _feedback(g, power, problems, msg.notes)

    def _messages(self, power: int, messages: Any, feedback: dict[str, Any]) -> None:
        g = self.game
        sent = feedback.setdefault("messages_sent", 0)
        refused: list[str] = feedback.setdefault("messages_refused", [])
        if not isinstance(messages, list):
            refused.append("messages must be a list of {to, text}")
            return
        for x in messages:
            if not self.press:
                refused.append("this arena has no press")
                break
            if not isinstance(x, dict) or not isinstance(x.get("text"), str) or "to" not in x:
                # (no "to": not sent to all, which would make a private message public)
                refused.append("a message is {\"to\": power(s) or \"all\", \"text\": ...}"
                               + (": it names no \"to\"" if isinstance(x, dict)
                                  and "to" not in x else ""))
                continue
            to = x["to"]
            to = GLOBAL if to in ("all", GLOBAL) else to
            try:
                g.add_message(g.map.powers[power], to, x["text"])
                sent += 1
            except PolydipError as exc:
                refused.append(str(exc))
        feedback["messages_sent"] = sent


def _feedback(g: Game, power: int, problems: list[LineProblem], notes: list[str]
              ) -> dict[str, Any]:
    return {"taken": list(g.orders.get(power, [])),
            "not_taken": [{"line": pr.line, "text": pr.text, "reason": pr.reason,
                           "suggestion": pr.suggestion, "code": pr.code}
                          for pr in sorted(problems, key=lambda pr: pr.line)],
            "notes": list(notes)}
