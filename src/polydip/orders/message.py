"""Orders from a pasted message: several powers' orders in one text, as players send them.

A power is named on a line of its own ("England:", "FRANCE", "**Germany**", "Orders for
Italy", "Russia (Spring 1901)"), and the orders below it are that power's; or a line carries
both ("Germany: A Munich - Ruhr"). Blank lines and `#` comments are skipped. Every other
line that cannot be read — greetings, signatures, "Orders for Spring 1901:", typos — is
reported with its line number, the reason and a suggestion, and never stops the others from
being read: a GM pastes the whole e-mail and fixes only what is reported.

Orders are checked against the position as far as reading goes (the unit exists and belongs
to the power that gave the order); whether a move is legal is the adjudicator's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from polydip.errors import OrderError, PolydipError, did_you_mean
from polydip.game.engine import MOVEMENT_TYPES, bind_to_units
from polydip.geography.map import Map
from polydip.orders.model import BUILD, DISBAND, RETREAT, WAIVE, Order
from polydip.orders.parser import parse_order
from polydip.state import Position

_BULLET = re.compile(r"^\s*(?:[-*•·>]|\d+[.)])\s+")
_DID_YOU_MEAN = re.compile(r"\s*\(did you mean ([^)]*)\?\)")
_FILLER = {"orders", "order", "for", "of", "the", "s", "from", "by"}
_PHASE_WORDS = {"movement", "moves", "move", "retreat", "retreats", "adjustment",
                "adjustments", "build", "builds", "winter", "spring", "summer", "fall",
                "autumn", "phase", "turn", "season", "year"}
_EXAMPLES = {
    "M": "write orders like 'A PAR - BUR', 'A MAR S A PAR - BUR' or 'F NTH C A LON - NWY'",
    "R": "write retreats like 'A PAR R BUR' or 'A PAR D'",
    "A": "write adjustments like 'Build A PAR', 'Remove F KIE' or 'WAIVE'",
}


@dataclass(slots=True)
class LineProblem:
    """A line of the message that was not taken as an order (or a power name)."""

    line: int  # 1-based line number in the message
    text: str
    reason: str
    suggestion: str = ""
    power: int = -1  # the power the line was read for, when known

    def __str__(self) -> str:
        s = f"line {self.line}: {self.text!r}: {self.reason}"
        return s + (f" ({self.suggestion})" if self.suggestion else "")


@dataclass(slots=True)
class MessageOrder:
    line: int
    power: int
    text: str  # the order as typed (bullets and power prefix removed)
    order: Order


@dataclass(slots=True)
class Message:
    """What a message said: orders by power (in message order), problems, notes."""

    orders: list[MessageOrder] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # e.g. an order replaced within the message
    powers: list[int] = field(default_factory=list)  # powers named, in order of appearance
    last_power: int | None = None  # the power the message ended with (for what follows)

    def by_power(self) -> dict[int, list[MessageOrder]]:
        out: dict[int, list[MessageOrder]] = {}
        for o in self.orders:
            out.setdefault(o.power, []).append(o)
        return out


def read_message(m: Map, pos: Position, text: str, default_power: int | None = None
                 ) -> Message:
    """Read a message of orders for the phase of `pos` (see the module docstring)."""
    reader = _Reader(m, pos)
    current = default_power
    msg = Message()
    if default_power is not None:
        msg.powers.append(default_power)
    for n, raw in enumerate(text.splitlines(), 1):
        for part in _split(raw):
            current = reader.line(msg, n, part, current)
    reader.drop_replaced(msg)
    msg.last_power = current
    return msg


def merge(first: Message, second: Message) -> Message:
    """Two messages read one after the other (e.g. arguments, then a file)."""
    out = Message(first.orders + second.orders, first.problems + second.problems,
                  first.notes + second.notes, first.powers + second.powers,
                  second.last_power)
    return out


def apply_message(game, msg: Message, replace_all: bool = False, add: bool = False
                  ) -> list[LineProblem]:
    """Give the game the orders read from `msg`; return problems the game found (if any).

    A new order for a unit replaces the unit's earlier one (Game.set_orders); with
    `replace_all` a power named in the message loses all its earlier orders first; with
    `add` orders are appended as they are.
    """
    found: list[LineProblem] = []
    for power, lst in msg.by_power().items():
        if replace_all:
            game.clear_orders(power)
        problems = game.set_orders(power, [o.text for o in lst], replace=not add)
        for p in problems:
            line = next((o for o in lst if repr(o.text) in p), None)
            found.append(LineProblem(line.line if line else 0, line.text if line else "",
                                     p, "", power))
    if replace_all:
        for power in msg.powers:
            if power not in msg.by_power():
                game.clear_orders(power)
    return found


class _Reader:
    def __init__(self, m: Map, pos: Position) -> None:
        self.m = m
        self.pos = pos
        self.phase = pos.phase.type
        names: dict[str, int] = {}
        for i, p in enumerate(m.variant.powers):
            for n in (p.name, p.adjective):
                if n:
                    names[_words_key(n)] = i
        self.power_names = names
        self.seasons = {s.name.lower() for s in m.variant.calendar.seasons}

    # -- one line --------------------------------------------------------------------------

    def line(self, msg: Message, n: int, raw: str, current: int | None) -> int | None:
        text = _BULLET.sub("", raw).strip().strip("*_").strip()
        if not text or text.startswith(("#", "//")):
            return current
        header = self.header(text.rstrip(":").strip())
        if header is not None:
            msg.powers.append(header)
            return header
        if text.endswith(":") and not self._starts_like_order(text):
            # a heading that is not a power: what follows belongs to no known power
            close = did_you_mean(text.rstrip(":").split()[0] if text.rstrip(":").split()
                                 else text, self.m.powers)
            powers = ", ".join(self.m.powers)
            msg.problems.append(LineProblem(
                n, text, "not a power name or an order",
                close.strip()[1:-1] if close else f"the powers are {powers}"))
            return None if close else current
        if ":" in text:
            left, right = text.split(":", 1)
            p = self.header(left.strip().strip("*_").strip())
            if p is not None:
                msg.powers.append(p)
                if right.strip():
                    self.order(msg, n, right.strip().strip("*_").strip(), p, text)
                return p
        self.order(msg, n, text, current, text)
        return current

    def header(self, text: str) -> int | None:
        """The power a header line names ("England", "French orders", "Orders for Italy")."""
        words = [w for w in re.split(r"[\s:,()\[\]'’*_]+", text.lower()) if w]
        if not words or len(words) > 8:
            return None
        words = [w for w in words if w not in _FILLER]
        for k in range(len(words), 0, -1):
            p = self.power_names.get(" ".join(words[:k]))
            if p is not None:
                rest = words[k:]
                if all(w in _FILLER or w in _PHASE_WORDS or w in self.seasons
                       or re.fullmatch(r"[a-z]?\d+[a-z]?", w) for w in rest):
                    return p
                return None
        return None

    def order(self, msg: Message, n: int, text: str, power: int | None, line: str) -> None:
        text = text.rstrip(".;").strip()
        try:
            o = parse_order(self.m, text, self.phase)
        except OrderError as exc:
            msg.problems.append(self._unreadable(n, text, line, exc, power))
            return
        if power is None:
            msg.problems.append(LineProblem(
                n, line, "no power named before this order", self._whose(o, text)))
            return
        problem = self.check(o, power)
        if problem:
            reason, suggestion = problem
            msg.problems.append(LineProblem(n, line, reason, suggestion, power))
            return
        msg.orders.append(MessageOrder(n, power, text, o))

    def _unreadable(self, n: int, text: str, line: str, exc: OrderError, power: int | None
                    ) -> LineProblem:
        reason = exc.args[0]
        suggestion = ""
        mm = _DID_YOU_MEAN.search(reason)
        if mm:
            suggestion = f"did you mean {mm.group(1)}?"
            reason = _DID_YOU_MEAN.sub("", reason)
        first = text.split(None, 1)[0].strip(":,") if text.split() else ""
        if not self._starts_like_order(text) and (reason.startswith("unknown") or
                                     reason.startswith("unexpected")):
            reason = "not an order or a power name"
            close = did_you_mean(first, [p.name for p in self.m.variant.powers])
            if close:
                suggestion = close.strip()[1:-1]
            else:
                suggestion = (_EXAMPLES.get(self.phase, "")
                              + "; name the power on a line of its own before its orders")
        elif not suggestion:
            suggestion = _EXAMPLES.get(self.phase, "")
        return LineProblem(n, line, reason, suggestion, -1 if power is None else power)

    def _starts_like_order(self, text: str) -> bool:
        first = text.split(None, 1)[0].strip(":,").lower() if text.split() else ""
        return bool(first) and (
            first in {k.lower() for k in self.m.kinds}
            or first in {k.lower() for k in self.m.kind_names}
            or first in {"build", "remove", "disband", "waive", "b", "d"})

    def _whose(self, o: Order, text: str) -> str:
        m = self.m
        if o.loc >= 0:
            prov = m.loc_prov[o.loc]
            units = self.pos.dislodged if self.phase == "R" else self.pos.units
            for u in units:
                if m.loc_prov[u.loc] == prov:
                    return f"the unit there is {m.powers[u.power]}'s: write " \
                           f"'{m.powers[u.power]}: {text}'"
        return "put the power's name on a line before its orders, or write 'France: ...'"

    def check(self, o: Order, power: int) -> tuple[str, str] | None:
        """Does the order fit the position (unit there, the power's own, the phase's kind)?"""
        m, pos = self.m, self.pos
        if self.phase in ("M", "R"):
            units = pos.units if self.phase == "M" else pos.dislodged
            allowed = MOVEMENT_TYPES if self.phase == "M" else (RETREAT, DISBAND)
            _bound, errors = bind_to_units(m, units, {power: [o]}, allowed)
            if errors:
                reason = errors[0][1].split(": ", 1)[-1]
                if "belongs to" in reason:
                    return reason, (f"put it under {reason.rsplit(' ', 1)[-1]}, or check "
                                    "the province")
                if reason.startswith("no unit"):
                    mine = sorted(m.unit_str(u.kind, u.loc) for u in units if u.power == power)
                    what = "dislodged units" if self.phase == "R" else "units"
                    return reason, (f"{m.powers[power]}'s {what}: {', '.join(mine)}" if mine
                                    else f"{m.powers[power]} has no {what} to order")
                return reason, _EXAMPLES[self.phase]
            return None
        if o.type not in (BUILD, DISBAND, WAIVE):
            return "not an order for an adjustment phase", _EXAMPLES["A"]
        if o.type == BUILD and o.kind is None:
            kinds = " or ".join(m.kinds)
            return "say what to build", f"'Build {m.kinds[0]} {m.loc_name[o.loc]}' ({kinds})"
        return None

    def drop_replaced(self, msg: Message) -> None:
        """A later order for the same unit in the same message replaces the earlier one."""
        m = self.m
        last: dict[tuple[int, int], MessageOrder] = {}
        for o in msg.orders:
            if o.order.type == WAIVE or (self.phase == "A" and o.order.type == BUILD):
                continue
            key = (o.power, m.loc_prov[o.order.loc])
            if key in last:
                msg.notes.append(f"line {o.line}: {o.text!r} replaces line "
                                 f"{last[key].line}: {last[key].text!r}")
            last[key] = o
        keep = {id(o) for o in last.values()}
        msg.orders = [o for o in msg.orders
                      if id(o) in keep or o.order.type == WAIVE
                      or (self.phase == "A" and o.order.type == BUILD)]


def _split(raw: str) -> list[str]:
    """Several orders on one line, separated by ';'."""
    parts = [p for p in raw.split(";")]
    return parts if len(parts) > 1 else [raw]


def _words_key(name: str) -> str:
    return " ".join(w for w in re.split(r"[\s:,()'’]+", name.lower()) if w)


def read_power(m: Map, name: str) -> int:
    """A power by name, adjective or letter (for --power)."""
    key = _words_key(name)
    for i, p in enumerate(m.variant.powers):
        if key in (_words_key(p.name), _words_key(p.adjective or ""), p.letter.lower()):
            return i
    raise PolydipError(f"unknown power {name!r}" + did_you_mean(name, m.powers))
