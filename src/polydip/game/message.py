"""Orders from a pasted message: several powers' orders in one text, as players send them.

A power is named on a line of its own ("England:", "FRANCE", "**Germany**", "Orders for
Italy", "Russia (Spring 1901)"), and the orders below it are that power's; or a line carries
both ("Germany: A Munich - Ruhr"). Blank lines and `#` comments are skipped. Every other
line that cannot be read — greetings, signatures, "Orders for Spring 1901:", typos — is
reported with its line number, the reason and a suggestion, and never stops the others from
being read: a GM pastes the whole e-mail and fixes only what is reported.

A line that starts like an order (a unit kind and a place-like word, "Build", "B F ..."), or
holds an order word or a dash between two place-like words ("PAR-BUR", "Paris supports
Burgundy"), is never ignored: it is read or reported, with a problem code (PROBLEM_CODES).
Only prose that names no order (greetings, signatures, "see you in Paris") is ignored.

Orders are checked against the position as far as reading goes (the unit exists and belongs
to the power that gave the order); whether a move is legal is the adjudicator's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from polydip.adjudication.adjustments import (
    adjustment_counts,
    adjustment_problem,
    build_sites,
)
from polydip.adjudication.legality import why_move
from polydip.adjudication.reasons import CANNOT_STAND, NOT_ADJACENT, SAME_PROVINCE
from polydip.errors import OrderError, PolydipError, ProblemCode, did_you_mean
from polydip.game.combined import combined_phase, is_adjustment
from polydip.game.engine import MOVEMENT_TYPES
from polydip.geography.map import Map
from polydip.names import name_key, or_list, possessive, suggest
from polydip.orders.examples import order_examples, phase_hint
from polydip.orders.model import BUILD, DISBAND, MOVE, RETREAT, WAIVE, Order
from polydip.orders.parser import KW_BUILD, parse_order, place_names
from polydip.orders.permissions import Permission, PermissionError_, read_permission
from polydip.state import Position

if TYPE_CHECKING:  # annotations only
    from polydip.game.game import Game

_BULLET = re.compile(r"^\s*(?:[-*•·]|\d+[.)])\s+")
# an e-mail reply's quotation marks ("> ", ">> "): what follows is another message's text
_QUOTED = re.compile(r"^\s*>[>\s]*")
_DECORATION = re.compile(r"^[-=*#_~+|<>\s]+|[-=*#_~+|<>\s]+$")
_ARROW = re.compile(r"->|=>|→|–|—")
_ADJUST_WORDS = {"build", "builds", "remove", "removes", "disband", "disbands", "waive"}
_ORDER_VERBS = {"-", "h", "hold", "holds", "s", "support", "supports", "c", "convoy",
                "convoys", "r", "retreat", "retreats", "move", "moves", "to", "attack",
                "attacks", "via", "d", "b"}
_DID_YOU_MEAN = re.compile(r"\s*\(did you mean ([^)]*)\?\)")
_FILLER = {"orders", "order", "for", "of", "the", "s", "from", "by"}
_PHASE_WORDS = {"movement", "moves", "move", "retreat", "retreats", "adjustment",
                "adjustments", "build", "builds", "winter", "spring", "summer", "fall",
                "autumn", "phase", "turn", "season", "year"}
# what LineProblem.code may be, and what it means (docs/gm-guide.md lists them too)
PROBLEM_CODES: dict[ProblemCode, str] = {
    "unknown_place": "a place name the map does not know",
    "unknown_power": "a power name the variant does not know (or an AT naming no power)",
    "bad_coast": "a coast the place does not have, or none where a build needs one",
    "unknown_word": "a word that is no order word where one is expected",
    "incomplete": "an order missing a part (a destination, the army convoyed)",
    "wrong_phase": "an order of another phase (a move in an adjustment phase)",
    "not_an_order": "a line that starts like an order but reads as none",
    "no_power": "an order before any power was named",
    "no_unit": "no unit (or dislodged unit) of the power where the order names one",
    "not_own_unit": "the unit there belongs to another power",
    "neutral_power": "a neutral power's units always hold",
    "adjustment_refused": "a build, removal or waive the position does not allow",
    "retreat_refused": "a retreat the dislodged unit cannot make",
    "order_refused": "an order the game refuses when it is given (a unit a rule holds)",
    "unknown_passage": "a passage permission naming a passage the map does not have",
    "permission_refused": "a passage permission that cannot be given (nobody controls the "
                          "passage, the game is over, or here only on the passages form)",
    "quoted": "an order in quoted text (a reply's '>' line), not read as an order",
}
# the code of an order the game refuses when it is given, by phase type
_REFUSED: dict[str, ProblemCode] = {"A": "adjustment_refused", "R": "retreat_refused"}
_STRONG_VERBS = {"-", "s", "c", "h", "r", "hold", "holds", "support", "supports", "convoy",
                 "convoys", "retreat", "retreats", "move", "moves", "attack", "attacks",
                 "at", "via"}
_ABBREVIATION = re.compile(r"^[A-Z]{2,4}$")


SHOWN_LINE = 300  # characters of a line quoted in a problem


def _cut(text: str, n: int) -> str:
    return text if len(text) <= n else f"{text[:n]}… ({len(text):,} characters)"


@dataclass(slots=True)
class LineProblem:
    """A line of the message that was not taken as an order (or a power name)."""

    line: int  # 1-based line number in the message
    text: str
    reason: str
    suggestion: str = ""
    power: int = -1  # the power the line was read for, when known
    code: ProblemCode = ""  # what is wrong, for programs and tests (PROBLEM_CODES)

    def __post_init__(self) -> None:
        # (a pasted line of 200,000 characters is quoted by its start, not echoed whole)
        self.text = _cut(self.text, SHOWN_LINE)
        self.reason = _cut(self.reason, 2 * SHOWN_LINE)

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
    ignored: list[int] = field(default_factory=list)  # lines that are plainly not orders
    # passage permissions ("Britain allows Italy through Cairo"), orders/permissions.py
    permissions: list[Permission] = field(default_factory=list)
    line_word: str = "line"  # what a line is called in the notes ("argument": command line's)

    def at(self, n: int) -> str:
        """Line n as the notes name it ("line 3", "argument 3")."""
        return f"{self.line_word} {n}"

    def by_power(self) -> dict[int, list[MessageOrder]]:
        out: dict[int, list[MessageOrder]] = {}
        for o in self.orders:
            out.setdefault(o.power, []).append(o)
        return out


def read_message(m: Map, pos: Position, text: str, default_power: int | None = None,
                 combined: bool = False, line_word: str = "line") -> Message:
    """Read a message of orders for the phase of `pos` (see the module docstring).
    `combined`: the phase is the retreat phase of a combined season (Game.combined), whose
    orders hold the adjustments that follow too (game/combined.py): each line is read for
    the phase it belongs to. `line_word`: what the notes call a line (Message.line_word)."""
    reader = _Reader(m, pos, combined)
    current = default_power
    msg = Message(line_word=line_word)
    if default_power is not None:
        msg.powers.append(default_power)
    for n, raw in enumerate(text.splitlines(), 1):
        # (a quoted line is one piece of another message, whatever it holds)
        parts = [raw] if _QUOTED.match(raw) else reader.supported_by(raw) or _split(raw)
        for part in parts:
            current = reader.line(msg, n, part, current)
    reader.drop_replaced(msg)
    msg.last_power = current
    return msg


def merge(first: Message, second: Message) -> Message:
    """Two messages read one after the other (e.g. arguments, then a file); the notes made
    later name lines as the second does."""
    return Message(first.orders + second.orders, first.problems + second.problems,
                   first.notes + second.notes, first.powers + second.powers,
                   second.last_power, first.ignored + second.ignored,
                   first.permissions + second.permissions, second.line_word)


def apply_permissions(game: Game, msg: Message) -> tuple[list[str], list[LineProblem]]:
    """Record the message's passage permissions in the game (Game.permit); returns what was
    recorded, in words, and the lines that could not be."""
    done: list[str] = []
    found: list[LineProblem] = []
    m = game.map
    for pm in msg.permissions:
        ctrl = m.powers[pm.controller] if pm.controller >= 0 else None
        try:
            now = game.permit(pm.passage, [m.powers[p] for p in pm.powers], ctrl, pm.allow)
        except PolydipError as exc:
            found.append(LineProblem(pm.line, pm.text, str(exc), "", pm.controller,
                                     "permission_refused"))
            continue
        who = ctrl or next(p["controller"] for p in game.passages() if p["name"] == pm.passage)
        done.append(f"{pm.passage}: {who} lets through {', '.join(now) or 'nobody else'}")
    return done, found


def apply_message(game: Game, msg: Message, replace_all: bool = False, add: bool = False
                  ) -> list[LineProblem]:
    """Give the game the orders read from `msg`; return problems the game found (if any).

    A new order for a unit replaces the unit's earlier one (Game.enter_orders), builds and
    removals accumulate (a build on a site replacing the earlier one there); with
    `replace_all` a power named in the message loses all its earlier orders first; with
    `add` orders are appended as they are. Each replaced order is noted in `msg.notes`.
    """
    found: list[LineProblem] = []
    refused_code = _REFUSED.get(game.position.phase.type, "order_refused")
    combined = combined_phase(game.map, game.position.phase, game.options)
    for power, lst in msg.by_power().items():
        if replace_all:
            game.clear_orders(power)
        entry = game.enter_orders(power, [o.text for o in lst], add=add)
        for old, j in entry.replaced:
            o = lst[j]
            if old != o.text:  # (the same order sent again replaces nothing worth a note)
                msg.notes.append(f"{msg.at(o.line)}: {o.text!r} replaces the earlier order "
                                 f"{old!r}")
        for j, why, hint in entry.refused:
            o = lst[j]
            head = f"{o.text!r}: "
            reason = why[len(head):] if why.startswith(head) else why
            if hint and reason.endswith(f"; {hint}"):
                reason = reason[:-len(hint) - 2]
            code = refused_code
            if combined and is_adjustment(game.map, game.position, power, o.order):
                code = _REFUSED["A"]  # (an adjustment kept for the phase that follows)
            found.append(LineProblem(o.line, o.text, reason, hint, power, code))
    if replace_all:
        for power in msg.powers:
            if power not in msg.by_power():
                game.clear_orders(power)
    return found


class _Reader:
    def __init__(self, m: Map, pos: Position, combined: bool = False) -> None:
        self.m = m
        self.pos = pos
        self.phase = pos.phase.type
        self.combined = combined and self.phase == "R"
        self.seasons = {s.name.lower() for s in m.variant.calendar.seasons}
        self.kind_words = ({k.lower() for k in m.kinds} | {k.lower() for k in m.kind_names})
        # each word a power is named by (name, adjective, aliases) → the power's name: a
        # suggestion names a power once, "Mexico", not "Mexico or México"
        self.power_of_word = {n: p.name for p in m.variant.powers
                              for n in (p.name, p.adjective, *p.aliases) if n}
        self.power_words = list(self.power_of_word)

    # -- one line --------------------------------------------------------------------------

    def line(self, msg: Message, n: int, raw: str, current: int | None) -> int | None:
        quote = _QUOTED.match(raw)
        if quote:
            self.quoted(msg, n, raw[quote.end():], current)
            return current
        text = _BULLET.sub("", raw).strip().strip("*_").strip()
        if not text:
            return current
        header = self.header(text)
        if header is not None and ":" in text and \
                self._starts_like_order(text.split(":", 1)[1].strip()):
            # "Argentina: A S A" is a power and an order, not a heading with a season
            # after it ("A" is also a season of some maps)
            header = None
        if text.startswith(("#", "//")) and header is None:
            return current  # a comment (a Markdown heading "## Spain" is a heading)
        if header is not None:
            msg.powers.append(header)
            return header
        if ":" in text:
            left, right = text.split(":", 1)
            p = self.header(left)
            if p is not None:
                msg.powers.append(p)
                if right.strip():
                    self.order(msg, n, right.strip().strip("*_").strip(), p, text)
                return p
        try:
            permission = read_permission(self.m, n, text, current)
        except PermissionError_ as exc:
            reason = str(exc)
            mm = _DID_YOU_MEAN.search(reason)
            msg.problems.append(LineProblem(
                n, text, _DID_YOU_MEAN.sub("", reason),
                f"did you mean {mm.group(1)}?" if mm else
                "write permissions like 'Britain allows Italy through Cairo'",
                current if current is not None else -1, exc.code))
            return current
        if permission is not None:
            msg.permissions.append(permission)
            return current
        prefixed = self.power_prefix(text)
        if prefixed is not None:
            msg.powers.append(prefixed[0])
            self.order(msg, n, prefixed[1], prefixed[0], text)
            return prefixed[0]
        if self.looks_like_order(text):
            self.order(msg, n, text, current, text)
            return current
        near = self.near_power(text)
        if near:
            msg.problems.append(LineProblem(n, text, "not a power name or an order",
                                            f"did you mean {near}?", code="unknown_power"))
            return None if text.rstrip().endswith(":") else current
        msg.ignored.append(n)  # a greeting, a signature, a remark: plainly not an order
        return current

    def supported_by(self, raw: str) -> list[str] | None:
        """The rules texts' one-line form of an order with its supports, "F Peru Basin AT
        Peru, Supported by: F Peru Basin, F Peru Basin, and F Peru Basin" or "Bolivian A
        Ayacucho to Lima; Supported by A Huanuco and A San Martin": the order, then one
        support order for each supporter ("F Peru Basin S F Peru Basin AT Peru", "A Huanuco
        S A Ayacucho to Lima"; a hold is supported as "S A Lima"). None when the line is not
        of that form."""
        m = _SUPPORTED_BY.match(raw)
        if m is None:
            return None
        order = m.group("order").strip()
        body = order.split(":", 1)[1].strip() if ":" in order else order
        prefixed = self.power_prefix(body)
        target = _HOLD_WORD.sub("", prefixed[1] if prefixed else body)
        supporters = [s.strip() for s in _LIST_SEP.split(m.group("by"))
                      if s.strip() and s.strip().lower() != "and"]
        return [order] + [f"{s} S {target}" for s in supporters]

    def power_prefix(self, text: str) -> tuple[int, str] | None:
        """An order after a power's name or adjective with no colon, as the rules texts
        write them ("Bolivian A Ayacucho to Lima", "France A Paris - Burgundy"): the power
        and the order."""
        words = text.split()
        if not words or words[0].lower() in self.kind_words \
                or words[0].lower() in _ADJUST_WORDS:
            return None
        for k in (3, 2, 1):
            if len(words) <= k:
                continue
            head = " ".join(words[:k])
            if head.endswith(("'s", "’s")):
                head = head[:-2]
            p = self.m.find_power(head) if len(head) > 1 else None
            if p is not None:
                rest = " ".join(words[k:])
                return (p, rest) if self.looks_like_order(rest) else None
        return None

    def quoted(self, msg: Message, n: int, rest: str, current: int | None) -> None:
        """A line of quoted text (an e-mail reply quotes the message it answers: the GM's
        results, another power's orders): never read as an order, since the player did not
        give it now; a quoted line that reads like an order is reported, so that a GM who
        meant it removes the '>', and other quoted text is ignored."""
        text = _BULLET.sub("", rest).strip().strip("*_").strip()
        if text and self.header(text) is None and self.looks_like_order(text):
            msg.problems.append(LineProblem(
                n, text, "quoted text (a line starting with '>') is not read as an order",
                "remove the '>' to give this order",
                current if current is not None else -1, "quoted"))
        else:
            msg.ignored.append(n)

    def header(self, text: str) -> int | None:
        """The power a heading names ("England", "-- Mexico --", "French orders", "Orders
        for Italy", "Mexico's orders:", "US:")."""
        text = _DECORATION.sub("", text).strip().rstrip(":").strip()
        words = [w for w in re.split(r"[\s:,()\[\]*_]+", text) if w]
        if not words or len(words) > 8:
            return None
        # as written ("Republic of Texas"), then without filler words ("Orders for Italy")
        for ws in (words, [w for w in words if _key(w) not in _FILLER]):
            for k in range(len(ws), 0, -1):
                head = " ".join(ws[:k])
                if head.endswith(("'s", "’s")):
                    head = head[:-2]
                p = self.m.find_power(head)
                if p is not None:
                    if self._heading_rest(p, ws[k:]):
                        return p
                    break
        return None

    def _heading_rest(self, p: int, words: list[str]) -> bool:
        """Whether the words after a power's name in a heading say only when or whose
        ("Spring 1901", "1891A (March-June)", "(GB)", "orders")."""
        for w in words:
            if self.m.find_power(w) == p:
                continue  # "Britain (GB)": the power's own other name
            for k in _key(w).split():
                if not (k in _FILLER or k in _PHASE_WORDS or k in self.seasons
                        or re.fullmatch(r"[a-z]?\d+[a-z]?", k)):
                    return False
        return True

    def looks_like_order(self, text: str) -> bool:
        """Does the line look like an order (so it is read, and reported when it cannot
        be)? An adjustment word ("Build", "B F ..."); a unit kind followed by a place (or a
        near miss of one), an abbreviation ("A XYZ") or an order word or dash later on
        ("A MGE-PAR"); or an order word or dash between two place-like words ("PAR-BUR",
        "Paris supports Burgundy")."""
        spaced = _ARROW.sub(" - ", text).replace("-", " - ")
        typed = [w for w in re.split(r"[\s,;:.!?()/\[\]]+", spaced) if w]
        words = [w.lower() for w in typed]
        if not words:
            return False
        m = self.m
        if words[0] in _ADJUST_WORDS:
            return True
        if words[0] in ("b", "d") and len(words) > 2 and words[1] in self.kind_words:
            return True  # "B F Islas San Felix" (the LAD rules text), "D A Lima"
        if words[0] in self.kind_words and len(words) > 1:
            return (self._place_at(words, 1, near=True)
                    or bool(_ABBREVIATION.match(typed[1]))
                    or any(self._verb(w, t) for w, t in zip(words[2:], typed[2:], strict=True)))
        if m.find_power(words[0]) is not None and len(words[0]) > 1 \
                and not _ABBREVIATION.match(typed[0]):
            return False  # "France - the usual orders": a heading, or talk about a power
        for i in range(1, len(words) - 1):
            if self._verb(words[i], typed[i]) and self._place_before(words, typed, i) \
                    and (self._place_at(words, i + 1) or _ABBREVIATION.match(typed[i + 1])
                         or words[i + 1] in self.kind_words):
                return True
        return False

    @staticmethod
    def _verb(word: str, typed: str) -> bool:
        """An order word: a dash, a full order word, or an order letter typed as a capital
        ("S", "H": a lower-case "s" or "h" in prose is no order)."""
        if len(word) == 1 and word != "-":
            return word in _STRONG_VERBS and typed.isupper()
        return word in _STRONG_VERBS

    def _place_before(self, words: list[str], typed: list[str], i: int) -> bool:
        """A place name (or an abbreviation) ends just before word `i`."""
        if _ABBREVIATION.match(typed[i - 1]):
            return True
        return any(i - n >= 0 and self.m.find_place(" ".join(words[i - n:i])) is not None
                   for n in (1, 2, 3))

    def _place_at(self, words: list[str], i: int, near: bool = False) -> bool:
        m = self.m
        for n in (3, 2, 1):
            run = words[i:i + n]
            if len(run) == n and m.find_place(" ".join(run)) is not None:
                return True
        return near and bool(suggest(" ".join(words[i:i + 2]), m.prov_name)
                             or suggest(words[i], m.prov_name))

    def near_power(self, text: str) -> str:
        """The power a heading-like line probably meant ("Frnace:"), or ''."""
        head = _DECORATION.sub("", text).strip().rstrip(":").split(":")[0].strip()
        # (a line ending in a colon is a heading: a power's long name has up to six words,
        # "Confederate States of America"; other prose of four words or more is a remark)
        if not head or len(head.split()) > (6 if text.rstrip().endswith(":") else 3):
            return ""
        names = list(dict.fromkeys(self.power_of_word[w]
                                   for w in suggest(head, self.power_words)))
        return or_list(names[:2]) if names else ""

    def order(self, msg: Message, n: int, text: str, power: int | None, line: str) -> None:
        text = text.rstrip(".;").strip()
        try:
            o = self._parse(text)
        except OrderError as exc:
            pieces = self._pieces(text)
            if pieces is None:
                msg.problems.append(self._unreadable(n, text, line, exc, power))
                return
            for piece in pieces:  # "A Paris - Burgundy, F Brest - Mid-Atlantic"
                self.order(msg, n, piece, power, line)
            return
        if power is None:
            msg.problems.append(LineProblem(
                n, line, "no power named before this order", self._whose(o, text),
                code="no_power"))
            return
        problem = self.check(o, power)
        if problem:
            reason, suggestion, code = problem
            msg.problems.append(LineProblem(n, line, reason, suggestion, power, code))
            return
        other = self.other_kind(o, power)
        if other:  # "A Merida - Guatemala" for the fleet there: its order, and said so
            msg.notes.append(f"{msg.at(n)}: {text!r}: the unit in "
                             f"{self.m.prov_name[self.m.loc_prov[o.loc]]} is {other}; taken "
                             "as its order")
        void = self.void_move(o, power, text)
        if void:  # taken as written (the adjudicator voids it), and said so now
            msg.notes.append(f"{msg.at(n)}: {text!r}: {void}")
        msg.orders.append(MessageOrder(n, power, text, o))

    def void_move(self, o: Order, power: int, text: str) -> str:
        """For a move that can only be void whatever else is ordered (to the unit's own
        province, or over no edge by a unit no convoy carries: "F Mérida - Yucatán" read as
        Mérida, whose alias Yucatán is), what the adjudicator will say and the places the
        typed destination may have meant; "" for any other order."""
        if self.phase != "M" or o.type != MOVE or o.target is None:
            return ""
        m, pos = self.m, self.pos
        here = m.loc_prov[o.loc]
        kinds = {u.kind for u in pos.units if u.power == power and m.loc_prov[u.loc] == here}
        if not kinds:
            return ""
        # (the unit that stands there: "A Brest" for the fleet there orders the fleet)
        kind = o.kind if o.kind in kinds else min(kinds)
        why = why_move(m, kind, o.loc, o.target, power, pos=pos)
        if why.code not in (SAME_PROVINCE, NOT_ADJACENT, CANNOT_STAND) or (
                why.code == NOT_ADJACENT and m.kind_convoyed[kind]):
            return ""  # (legal, or a question of this turn's convoys, passages, rules)
        typed = re.split(r"\s*(?:->|-|\bto\b|\bmoves?\b)\s*", text, flags=re.I)[-1]
        names = place_names(m)
        meant: list[str] = []
        for c in suggest(typed, names, 8):
            q = m.find_place(c)
            if q is None or m.loc_prov[q] == here or m.prov_name[m.loc_prov[q]] in meant:
                continue
            if why_move(m, kind, o.loc, q, power, pos=pos).code in (
                    SAME_PROVINCE, NOT_ADJACENT, CANNOT_STAND):
                continue
            meant.append(m.prov_name[m.loc_prov[q]])
        hint = f"; did you mean {or_list(meant)}?" if meant else ""
        return (f"taken as a move to {m.prov_name[m.loc_prov[o.target]]}: it will be void "
                f"({why.words}){hint}")

    def other_kind(self, o: Order, power: int) -> str:
        """The kind of the power's unit an order names with another kind ("A Merida" where
        the power has a fleet and no army): "a fleet"; "" when the kind fits or is left out
        (the order is that unit's all the same: the unit is named by its place)."""
        if o.kind is None or self.phase not in ("M", "R") or o.type in (BUILD, WAIVE):
            return ""
        m = self.m
        prov = m.loc_prov[o.loc]
        units = self.pos.units if self.phase == "M" else self.pos.dislodged
        kinds = {u.kind for u in units if u.power == power and m.loc_prov[u.loc] == prov}
        if not kinds or o.kind in kinds:
            return ""
        name = m.kind_names[min(kinds)].lower()
        return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"

    def _pieces(self, text: str) -> list[str] | None:
        """Several orders written on one line with commas, each starting like an order and
        one at least read ("A PAR - BUR, F BRE - MAO"; "Build A MAR, F BRE": the adjustment
        word carries over); None when the line is not that."""
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if len(parts) < 2:
            return None
        lead = parts[0].split()[0]
        if lead.lower() in _ADJUST_WORDS:
            parts = parts[:1] + [p if p.split()[0].lower() in _ADJUST_WORDS else f"{lead} {p}"
                                 for p in parts[1:]]
        if not all(self._starts_like_order(p) for p in parts):
            return None
        for p in parts:
            try:
                self._parse(p)
                return parts
            except OrderError:
                continue
        return None

    def _parse(self, text: str) -> Order:
        """The order a text says in this phase (in a combined retreat phase, an adjustment
        order too: game/combined.py)."""
        try:
            return parse_order(self.m, text, self.phase)
        except OrderError as exc:
            if not self.combined or exc.code != "wrong_phase":
                raise
            try:
                return parse_order(self.m, text, "A")
            except OrderError:
                raise exc from None

    def _unreadable(self, n: int, text: str, line: str, exc: OrderError, power: int | None
                    ) -> LineProblem:
        reason = exc.args[0]
        code = exc.code or "not_an_order"
        suggestion = ""
        hint = phase_hint(self.phase, self.m)
        if hint and hint in reason:  # (said once, as the suggestion below)
            reason = reason.replace(hint, "")
        mm = _DID_YOU_MEAN.search(reason)
        if mm:
            suggestion = f"did you mean {mm.group(1)}?"
            reason = _DID_YOU_MEAN.sub("", reason)
        first = text.split(None, 1)[0].strip(":,") if text.split() else ""
        if not self._starts_like_order(text) and (reason.startswith("unknown") or
                                     reason.startswith("unexpected")):
            reason = "not an order or a power name"
            code = "not_an_order"
            close = did_you_mean(first, [p.name for p in self.m.variant.powers])
            if close:
                suggestion = close.strip()[1:-1]
                code = "unknown_power"
            else:
                suggestion = (order_examples(self.phase, self.m)
                              + "; name the power on a line of its own before its orders")
        elif code == "bad_coast" and not suggestion:
            suggestion = "write one of the coasts named, or none where the place has one"
        elif (code == "unknown_place" and not suggestion and self.phase == "A"
              and power is not None and first.lower() in KW_BUILD):
            suggestion = self._adjustments(power)  # (where the power may build)
        elif not suggestion:
            suggestion = order_examples(self.phase, self.m)
        return LineProblem(n, line, reason, suggestion, -1 if power is None else power, code)

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
                    return f"the unit there is {possessive(m.powers[u.power])}: write " \
                           f"'{m.powers[u.power]}: {text}'"
        return ("put the power's name on a line before its orders, or write "
                f"'{m.powers[0]}: {text}'")

    def check(self, o: Order, power: int) -> tuple[str, str, ProblemCode] | None:
        """Does the order fit the position (unit there, the power's own, the phase's kind,
        a build where one can be made)?  (reason, suggestion, code) when it does not."""
        m, pos = self.m, self.pos
        if self.combined and is_adjustment(m, pos, power, o):
            return self._kept(o, power)
        if self.phase == "A":
            why = adjustment_problem(m, pos, power, o)
            if why is None:
                return None
            if o.type not in (BUILD, DISBAND, WAIVE):
                return why, order_examples("A", m), "wrong_phase"
            if why.endswith(")") and "(" in why:  # "... (build sites: X, Y)"
                reason, _, sites = why[:-1].rpartition(" (")
                # "say on which coast of X to build the fleet (X/EC, X/WC)": a coast missing
                code: ProblemCode = ("bad_coast" if reason.startswith("say on which coast")
                                     else "adjustment_refused")
                return reason, sites, code
            hint = self._adjustments(power)
            if hint.endswith("nothing to build or remove this phase"):
                hint = ""  # (the reason says it: "France has no builds this phase")
            return why, hint, "adjustment_refused"
        units = pos.units if self.phase == "M" else pos.dislodged
        allowed = MOVEMENT_TYPES if self.phase == "M" else (RETREAT, DISBAND)
        if o.type not in allowed:
            return "not an order for this phase", order_examples(self.phase, m), "wrong_phase"
        prov = m.loc_prov[o.loc]
        here = [u for u in units if m.loc_prov[u.loc] == prov]
        if not here:
            mine = sorted(m.unit_str(u.kind, u.loc) for u in units if u.power == power)
            what = "dislodged units" if self.phase == "R" else "units"
            return (f"no {'dislodged ' if self.phase == 'R' else ''}unit in "
                    f"{m.prov_name[prov]}",
                    f"{possessive(m.powers[power])} {what}: {', '.join(mine)}" if mine
                    else f"{m.powers[power]} has no {what} to order", "no_unit")
        if all(u.power != power for u in here):
            owner = m.powers[here[0].power]
            if self.phase == "R" and any(u.power == power and m.loc_prov[u.loc] == prov
                                         for u in pos.units):
                # (the power's unit there stands: it dislodged the one that retreats)
                mine = sorted(m.unit_str(u.kind, u.loc) for u in units if u.power == power)
                return (f"{m.powers[power]} has no dislodged unit in {m.prov_name[prov]}: its "
                        f"unit there stays, and only dislodged units retreat (the one that "
                        f"retreats from there is {possessive(owner)})",
                        f"{possessive(m.powers[power])} dislodged units: {', '.join(mine)}"
                        if mine else f"{m.powers[power]} has no unit to retreat", "no_unit")
            return (f"the unit in {m.prov_name[prov]} belongs to {owner}",
                    f"put it under {owner}, or check the province", "not_own_unit")
        if m.power_neutral[power]:
            return (f"{m.powers[power]} is neutral: its units always hold",
                    "leave its units without orders", "neutral_power")
        return None

    def _kept(self, o: Order, power: int) -> tuple[str, str, ProblemCode] | None:
        """An adjustment order given with the retreats of a combined season: a removal
        names a unit of the power; the rest is checked when the adjustment phase begins."""
        m = self.m
        if m.power_neutral[power]:
            return (f"{m.powers[power]} is neutral: it neither builds nor removes",
                    "leave it without orders", "neutral_power")
        if o.type != DISBAND:
            return None
        prov = m.loc_prov[o.loc]
        here = [u for u in self.pos.units if m.loc_prov[u.loc] == prov]
        if not here:
            mine = sorted(m.unit_str(u.kind, u.loc) for u in self.pos.units
                          if u.power == power)
            return (f"no unit in {m.prov_name[prov]} to remove",
                    f"{possessive(m.powers[power])} units: {', '.join(mine) or 'none'}", "no_unit")
        if all(u.power != power for u in here):
            owner = m.powers[here[0].power]
            return (f"the unit in {m.prov_name[prov]} belongs to {owner}",
                    f"put it under {owner}, or check the province", "not_own_unit")
        return None

    def _adjustments(self, power: int) -> str:
        """What `power` may do this adjustment phase, as a suggestion."""
        m = self.m
        n = adjustment_counts(m, self.pos)[power]
        if n > 0:
            sites = sorted(m.prov_abbr[p] for p in build_sites(m, self.pos, power))
            return (f"{m.powers[power]} builds {n} this phase, at "
                    f"{', '.join(sites) if sites else 'no open site'}")
        if n < 0:
            units = sorted(m.unit_str(u.kind, u.loc) for u in self.pos.units if u.power == power)
            return f"{m.powers[power]} removes {-n} of {', '.join(units)}"
        return f"{m.powers[power]} has nothing to build or remove this phase"

    def _not_possible(self, o: MessageOrder) -> str:
        """For a replaced retreat to a place the unit may not retreat to, why (the later
        order replaced it: it is not refused, and the note must not read as if it was
        taken); else ""."""
        m = self.m
        if self.phase != "R" or o.order.type != RETREAT or o.order.target is None:
            return ""
        prov = m.loc_prov[o.order.loc]
        for d in self.pos.dislodged:
            if d.power == o.power and m.loc_prov[d.loc] == prov:
                to = m.loc_prov[o.order.target]
                if all(m.loc_prov[r] != to for r in d.retreats):
                    may = ", ".join(sorted(m.prov_abbr[m.loc_prov[r]] for r in d.retreats))
                    return (f" (which could not have been carried out: "
                            f"{m.unit_str(d.kind, d.loc)} cannot retreat to "
                            f"{m.prov_name[to]}; it may retreat to {may or 'nowhere'})")
        return ""

    def drop_replaced(self, msg: Message) -> None:
        """A later order for the same unit in the same message replaces the earlier one.
        Adjustments are left to the game (builds and removals accumulate), and so are orders
        for a space where the power has several units (they bind to its units in turn,
        orders/stacked.py)."""
        m = self.m
        if self.phase == "A":
            return
        units = self.pos.units if self.phase == "M" else self.pos.dislodged
        seen: set[tuple[int, int]] = set()
        shared: set[tuple[int, int]] = set()
        for u in units:
            key = (u.power, m.loc_prov[u.loc])
            (shared if key in seen else seen).add(key)
        last: dict[tuple[int, int], MessageOrder] = {}
        kept = {id(o) for o in msg.orders
                if self.combined and is_adjustment(m, self.pos, o.power, o.order)}
        for o in msg.orders:
            key = (o.power, m.loc_prov[o.order.loc])
            if o.order.type == WAIVE or key in shared or id(o) in kept:
                continue
            if key in last:
                msg.notes.append(f"{msg.at(o.line)}: {o.text!r} replaces "
                                 f"{msg.at(last[key].line)}: {last[key].text!r}"
                                 + self._not_possible(last[key]))
            last[key] = o
        keep = {id(o) for o in last.values()} | kept
        msg.orders = [o for o in msg.orders
                      if id(o) in keep or o.order.type == WAIVE
                      or (o.power, m.loc_prov[o.order.loc]) in shared]


_SUPPORTED_BY = re.compile(r"^(?P<order>[^;,]*?)\s*[,;]\s*supported\s+by\s*:?\s*(?P<by>.+?)"
                           r"[.\s]*$", re.IGNORECASE)
_HOLD_WORD = re.compile(r"\s+(?:holds?|h|stands?)\.?$", re.IGNORECASE)
_LIST_SEP = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+", re.IGNORECASE)


def _split(raw: str) -> list[str]:
    """Several orders on one line, separated by ';'."""
    parts = [p for p in raw.split(";")]
    return parts if len(parts) > 1 else [raw]


def _key(word: str) -> str:
    return name_key(word)
