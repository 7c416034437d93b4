"""Press in the environment: agents send messages between steps (docs/env.md, "Messages").

`DiplomacyEnv.send(sender, recipients, text)` records a message of the current phase (the
checks and the Message record are polydip.game.press's, as for Game.add_message); the step
that plays the phase hands each agent, in `infos[agent]["messages"]`, the messages of that
phase it may read (Message.addresses) and did not write. A message is text, not an array:
it stays out of the observation (and its gymnasium space). Sending is a call of its own, not
part of the action, so that PettingZoo's `step(actions)` and the MultiDiscrete action space
stay what they are and a policy that sends nothing pays nothing.

The press rule (`press=`): "full" (to any agents or to all), "public" (to all only), "none"
(no messages). Limits: `max_message_length` characters a message (at most the package's
MAX_TEXT), `max_messages` messages an agent sends a phase. A refused message raises a
PressError whose `code` says why (press_closed, too_many, too_long, unknown_power,
bad_recipients, empty_text, bad_text).
"""

from __future__ import annotations

from typing import Any

from polydip.game.dipjson_write import package_messages
from polydip.game.press import GLOBAL, MAX_TEXT, Message, PressError, make_message
from polydip.geography.map import Map

PRESS_RULES = ("full", "public", "none")
MAX_MESSAGES = 20  # messages an agent may send a phase, by default
NO_MESSAGES: tuple[dict[str, Any], ...] = ()


class EnvPress:
    """The messages of one environment's game: what was sent, the rule and the limits.

    `agents`: agent name -> the power's name as the variant spells it (the Message records
    keep the variant's spelling, as Game.messages does; what an agent reads names agents)."""

    def __init__(self, m: Map, agents: dict[str, str], rule: str = "full",
                 max_length: int = MAX_TEXT, max_messages: int = MAX_MESSAGES) -> None:
        if rule not in PRESS_RULES:
            raise ValueError(f"press {rule!r}: use one of {', '.join(PRESS_RULES)}")
        for name, val, top in (("max_message_length", max_length, MAX_TEXT),
                               ("max_messages", max_messages, None)):
            if (not isinstance(val, int) or isinstance(val, bool) or val < 1
                    or (top is not None and val > top)):
                most = f" of at most {top:,}" if top is not None else ""
                raise ValueError(f"{name} must be a positive integer{most} (got {val!r})")
        self.m, self.rule = m, rule
        self.max_length, self.max_messages = max_length, max_messages
        self._name = agents  # agent -> variant's name
        self._agent = {v: a for a, v in agents.items()}  # variant's name -> agent
        self.messages: list[Message] = []
        self._phases: dict[str, str] = {}  # polydip's phase name -> the package's
        self.reset()

    def reset(self) -> None:
        self.messages = []
        self._phases = {}
        self._first = 0  # the current phase's first message in `messages`
        self._sent: dict[str, int] = {}  # per agent, messages sent this phase
        self.waiting = False  # a message was sent this phase (read by the step)

    def send(self, phase: str, package_phase: str, live: list[str], sender: Any,
             recipients: Any, text: Any) -> Message:
        """Record a message of `phase` from the agent `sender` to `recipients` (GLOBAL, an
        agent, or a list of agents), or raise a PressError."""
        if self.rule == "none":
            raise PressError("this environment has no press (press='none')", "press_closed")
        who = self._agent_name(sender, "sender")
        if who not in live:
            raise PressError(f"sender {who}: it has left the game", "press_closed")
        if isinstance(recipients, str) and recipients.strip().upper() == GLOBAL:
            to: str | list[str] = GLOBAL
        else:
            named = [recipients] if isinstance(recipients, str) else recipients
            if not isinstance(named, list | tuple) or not named:
                raise PressError("recipients: GLOBAL, an agent or a non-empty list of agents",
                                 "bad_recipients")
            gone = [a for a in map(lambda r: self._agent_name(r, "recipient"), named)
                    if a not in live]
            if gone:
                raise PressError(f"recipient {gone[0]}: it has left the game",
                                 "bad_recipients")
            to = [self._name[r] for r in named]
            if self.rule == "public":
                raise PressError("this environment has public press only (press='public'): "
                                 "send to GLOBAL", "press_closed")
        if isinstance(text, str) and len(text) > self.max_length:
            raise PressError(f"a message is at most {self.max_length:,} characters here "
                             f"({len(text):,} given)", "too_long")
        if self._sent.get(who, 0) >= self.max_messages:
            raise PressError(f"{who} has sent {self.max_messages} messages this phase, the "
                             "most it may (max_messages)", "too_many")
        last = self.messages[-1].time if self.messages else 0
        msg = make_message(self.m, phase, self._name[who], to, text, last)
        self.messages.append(msg)
        self._sent[who] = self._sent.get(who, 0) + 1
        self._phases[phase] = package_phase
        self.waiting = True
        return msg

    def _agent_name(self, name: Any, what: str) -> str:
        if isinstance(name, str) and name in self._name:
            return name
        shown = repr(name) if isinstance(name, str) and len(name) <= 40 else \
            type(name).__name__
        raise PressError(f"{what} {shown}: not an agent ({', '.join(self._name)})",
                         "unknown_power")

    def end_phase(self) -> list[Message]:
        """The messages of the phase being played (and start the next phase's count)."""
        sent = self.messages[self._first:]
        self._first = len(self.messages)
        self._sent = {}
        self.waiting = False
        return sent

    def inboxes(self, sent: list[Message], readers: list[str]
                ) -> dict[str, tuple[dict[str, Any], ...]]:
        """Per reader (an agent), the messages of `sent` it may read and did not write, as
        agents see them: sender, recipients (GLOBAL or a tuple of agents), phase, time, text."""
        out: dict[str, tuple[dict[str, Any], ...]] = {}
        agent = self._agent
        for a in readers:
            me = self._name[a]
            out[a] = tuple(
                {"sender": agent.get(x.sender, x.sender),
                 "recipients": GLOBAL if x.is_global else tuple(
                     agent.get(r, r) for r in x.recipients),
                 "phase": x.phase, "time": x.time, "text": x.text}
                for x in sent if x.sender != me and x.addresses(me))
        return out

    def package_json(self) -> list[dict[str, Any]]:
        """The messages as the `diplomacy` package's saved game lists them in its phases'
        "messages" (as polydip's export writes them, game/dipjson.py): sender, recipient
        (GLOBAL or one power; a message to several powers is one message to each), time_sent
        (microseconds, unique and increasing), phase (the package's name), message."""
        out: list[dict[str, Any]] = []
        for msg, entry in package_messages(self.m, self.messages):
            entry["phase"] = self._phases.get(msg.phase, msg.phase)
            out.append(entry)
        return out
