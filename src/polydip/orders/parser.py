"""Read orders the way players type them.

Accepted, in any case, with abbreviations, full names or aliases:
  diplomacy package   A PAR - BUR · F STP/SC - BOT · A LVP - EDI VIA · A IRO R MAO · A PAR B
                      F LIV D · A BUD S A SER - RUM · F NTH C A LON - NWY · WAIVE
  DATC / jDip         F nth-pic · A bud S A ser-rum · A lon-nwy via convoy · Build A kie
                      Remove pic · F North Sea Convoys A Yorkshire - Yorkshire · Spain(nc)
  prose               A Paris -> Burgundy · Army Paris moves to Burgundy · F Spain (north coast)
                      A Paris supports A Marseilles to Burgundy · A Paris holds
  attacks             F MAO - EAO AT Brazil · F Peru Basin attacks Peru (orders/attack.py)
A move written in a retreat phase is a retreat; "remove"/"disband" is a disband.
A path ("A Yorkshire - North Sea - Belgium") is accepted and means "via convoy" (DATC 4.A.6).
"""

from __future__ import annotations

import re
from functools import lru_cache

from polydip.errors import OrderError, ProblemCode
from polydip.geography.map import Map, default_coast_word
from polydip.names import name_key, or_list, suggest
from polydip.orders.attack import KW_AT, read_power
from polydip.orders.canonical import keep_order, known_order, order_memo
from polydip.orders.examples import phase_hint
from polydip.orders.model import (
    BUILD,
    CONVOY,
    DISBAND,
    HOLD,
    MOVE,
    RETREAT,
    SUPPORT,
    WAIVE,
    Order,
    OrderAct,
)
from polydip.orders.stacked import split_index
from polydip.state import PhaseType

_TOKEN = re.compile(r"\(|\)|\[|\]|/|-|,|[^\s()\[\]/,\-]+")
_CLOSERS = {"(": ")", "[": "]", "/": None}
_ARROWS = re.compile(r"->|=>|→|–|—|>")

KW_HOLD = {"h", "hold", "holds", "stand", "stands"}
KW_MOVE = {"-", "m", "move", "moves", "to", "attack", "attacks"}
KW_SUPPORT = {"s", "sup", "supp", "support", "supports"}
KW_CONVOY = {"c", "con", "convoy", "convoys"}
KW_RETREAT = {"r", "retreat", "retreats"}
KW_BUILD = {"b", "build", "builds"}
KW_DISBAND = {"d", "disband", "disbands", "remove", "removes", "destroy"}
KW_VIA = {"via", "by"}
KW_WAIVE = {"waive", "waives", "waived"}
_FILLER = {"the", "in", "of", "at"}
_BRACKETS = {"(", ")", "[", "]", "/"}
_ORDER_WORDS = (KW_HOLD | KW_MOVE | KW_SUPPORT | KW_CONVOY | KW_RETREAT | KW_VIA) - {"s", "c"}
# why an order of the movement phase is refused in another (the reader's and
# _wrong_phase_first's words)
_HOLD_ONLY_IN_MOVEMENT = "a hold is only ordered in a movement phase"
_MOVE_NOT_IN_ADJUSTMENT = "moves are not ordered in an adjustment phase"
_SUPPORT_ONLY_IN_MOVEMENT = "supports and convoys are only ordered in a movement phase"


def place_names(m: Map) -> list[str]:
    """The provinces' names and their aliases: what a misspelled place is matched against
    (names.suggest)."""
    return m.prov_name + [a for p in m.variant.provinces.values() for a in p.aliases]


class _Cursor:
    def __init__(self, m: Map, text: str) -> None:
        self.m = m
        self.text = text
        cleaned = _ARROWS.sub(" - ", text.replace(".", " ").replace(":", " ").strip()
                              .rstrip(";"))
        # the hyphens written between two letters ("Rio-Grande", "PAR-BUR"): only these may
        # join a place name's words; a spaced hyphen ("Florida - Straits") is a move
        self.joined: set[int] = set()
        if "-" not in cleaned:
            self.toks = [t.lower() for t in _TOKEN.findall(cleaned) if t != ","]
        else:
            self.toks = []
            for mt in _TOKEN.finditer(cleaned):
                t = mt.group()
                if t == ",":
                    continue
                if t == "-" and mt.start() > 0 and mt.end() < len(cleaned) and not (
                        cleaned[mt.start() - 1].isspace() or cleaned[mt.end()].isspace()):
                    self.joined.add(len(self.toks))
                self.toks.append(t.lower())
        self.i = 0
        self.last_place = (-1, "", -1)  # the last place name read: start, what, end
        self.dropped_coast = ""  # a coast written on a place that has none (DATC 4.B.6)

    def peek(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.toks[j] if j < len(self.toks) else None

    def take(self) -> str:
        t = self.toks[self.i]
        self.i += 1
        return t

    def at_end(self) -> bool:
        return self.i >= len(self.toks)

    def error(self, msg: str, code: ProblemCode = "") -> OrderError:
        return OrderError(msg, self.text, code)

    # -- pieces ---------------------------------------------------------------------------

    def kind(self) -> int | None:
        t = self.peek()
        if t is None:
            return None
        m = self.m
        for k, letter in enumerate(m.kinds):
            if t == letter.lower() or t == m.kind_names[k].lower():
                # a one-letter kind followed by nothing place-like is not a kind
                self.i += 1
                if self.at_end():
                    self.i -= 1
                    return None
                return k
        return None

    def place(self, what: str = "place") -> int:
        """Longest run of tokens naming a province, then an optional coast."""
        m = self.m
        if self.at_end():
            raise self.error(f"missing {what}", "incomplete")
        best = None
        for n in range(min(6, len(self.toks) - self.i), 0, -1):
            words = self.toks[self.i:self.i + n]
            if words[0] == "-" or words[-1] == "-" or any(w in _BRACKETS for w in words):
                continue
            if "-" in words:  # a hyphenated name ("Rio-Grande"): only as written
                if any(w == "-" and self.i + j not in self.joined
                       for j, w in enumerate(words)):
                    continue
                prov = m.names.get(name_key(" ".join(w for w in words if w != "-")))
            else:
                prov = m.find_place(" ".join(words))
            if prov is not None:
                best = (n, prov)
                break
        if best is None:
            raise self.error(f"unknown {what} {self.guess()!r}" + self.suggestion(),
                             "unknown_place")
        n, prov = best
        self.i += n
        self.last_place = (self.i - n, what, self.i)
        return self._coast(prov)

    def guess(self) -> str:
        """The words that were probably meant as the name: up to the next order word ("S"
        and "C", which may be part of a name, only where a unit follows them: "SAN S A
        BUE")."""
        words = []
        toks = self.toks
        for j in range(self.i, min(self.i + 4, len(toks))):
            w = toks[j]
            if w in _BRACKETS or w in _ORDER_WORDS:
                break
            if w in ("s", "c") and j > self.i and j + 1 < len(toks) and self.is_kind(toks[j + 1]):
                break
            words.append(w)
        return " ".join(words) or self.toks[self.i]

    def is_kind(self, word: str) -> bool:
        """Whether a token names a unit kind ("a", "army", "f", "fleet", ...)."""
        m = self.m
        return any(word == m.kinds[k].lower() or word == m.kind_names[k].lower()
                   for k in range(len(m.kinds)))

    def word_after_guess(self) -> str:
        """The word after those `guess` reads as the place ("" at the end): for a line of
        the wrong phase whose place is not read either, the verb that says so."""
        j = self.i + len(self.guess().split())
        return self.toks[j] if j < len(self.toks) else ""

    def suggestions(self) -> list[str]:
        """Places the words here may have meant: each named once, by its own name."""
        m = self.m
        names = place_names(m)
        guess = self.guess()
        # (a short word is as likely a mistyped abbreviation, "SALL" for SAL, as a name)
        close = suggest(guess, names + m.prov_abbr if len(guess) <= 4 else names) \
            or suggest(self.toks[self.i], names + m.prov_abbr)
        out: list[str] = []
        seen: set[int] = set()
        for c in close:
            prov = m.find_place(c)
            if prov is None or prov in seen:
                continue
            seen.add(prov)
            out.append(c if name_key(c) == name_key(m.prov_abbr[prov]) else m.prov_name[prov])
        return out

    def suggestion(self) -> str:
        close = self.suggestions()
        return f" (did you mean {or_list(close)}?)" if close else ""

    def misread(self, start: int, end: int) -> str:
        """' (did you mean X?)' when the words from `start` look like a misspelled name
        longer than the words up to `end` that were read as a place (a short alias read
        from a misspelled long name: "Gulf of Mexco")."""
        self.i = start
        if len(self.guess().split()) < 2:
            return ""
        close = [c for c in self.suggestions() if len(name_key(c).split()) > end - start]
        return f" (did you mean {or_list(close)}?)" if close else ""

    def _coast(self, prov: int) -> int:
        """An optional coast after a province: "/nc", "(north coast)", "[nb]", "(lake
        shore)", or bare when it is exactly one of the province's coasts ("sc", "nb")."""
        m = self.m
        t = self.peek()
        if t in _CLOSERS and self.peek(1) in KW_AT:
            return prov  # "(AT Chile)": the attack, read by _attack
        if t in _CLOSERS:
            closer = _CLOSERS[t]
            self.i += 1
            ahead = self.toks[self.i:self.i + 7]
            if closer is not None and closer in ahead:
                # "(north-west bank)", "[nb]": everything up to the closing bracket
                n = ahead.index(closer)
                self.i += n + 1
                return self._coast_loc(prov, " ".join(ahead[:n]))
            words: list[str] = []
            while not self.at_end() and len(words) < 4:
                w = self.peek()
                if w is None or w in (")", "]"):
                    break
                if w == "-" and words and self.peek(1) and self._reads_as_coast(
                        prov, " ".join([*words, self.peek(1) or ""])):
                    self.i += 1  # "/north-west bank": a hyphen inside the coast's name
                    continue
                if words and (w in KW_MOVE or w in KW_SUPPORT or w in KW_CONVOY or w in KW_VIA):
                    break
                if words and not self._reads_as_coast(prov, " ".join([*words, w])):
                    break  # "/nc S ...": the coast is the word(s) that read as one
                words.append(self.take())
            if closer is not None and self.peek() == closer:
                self.i += 1
            return self._coast_loc(prov, " ".join(words))
        if t and len(t) == 2 and t.endswith("c") and m.prov_coast_locs[prov]:
            self.i += 1
            return self._coast_loc(prov, t)
        if t in ("north", "south", "east", "west") and self.peek(1) == "coast":
            self.i += 2
            return self._coast_loc(prov, f"{t} coast")
        if m.prov_coast_locs[prov]:
            # a bare designation that is exactly one of this province's coasts: "nb", "lake
            # shore" (never a shortening, which could be an order word such as "s")
            for n in (3, 2, 1):
                words = self.toks[self.i:self.i + n]
                if len(words) == n and not any(w in _BRACKETS or w == "-" for w in words) \
                        and m.reads_as_coast(prov, " ".join(words), exact=True):
                    self.i += n
                    return self._coast_loc(prov, " ".join(words))
        return prov

    def _reads_as_coast(self, prov: int, text: str) -> bool:
        return self.m.reads_as_coast(prov, text) or default_coast_word(text)

    def _coast_loc(self, prov: int, coast: str) -> int:
        """The coast `coast` of `prov`. A coast word where the province has no coasts is
        ignored (DATC 4.B.6); any other coast that `prov` does not have is refused
        ("bad_coast"), never read as another coast or as none."""
        m = self.m
        try:
            return m.coast_loc(prov, coast)
        except KeyError:
            pass
        coasts = [_coast_label(m, prov, c) for c in m.prov_coast_locs[prov]]
        if not coasts and (default_coast_word(coast) or any(
                m.reads_as_coast(p, coast) for p in range(m.n_prov) if m.prov_coast_locs[p])):
            self.dropped_coast = coast  # DATC 4.B.6: a coast where there is none is ignored
            return prov
        has = (f"its coasts are {or_list(coasts)}" if coasts
               else "it has no separate coasts: leave the coast out")
        raise self.error(f"{m.prov_name[prov]} has no coast {coast!r} ({has})", "bad_coast")


def _coast_label(m: Map, prov: int, loc: int) -> str:
    """'WC (west coast, Pacific)': a coast's abbreviation, name and the province's first own
    word for it, for a message listing a place's coasts."""
    abbr = m.loc_coast[loc] or ""
    words = m.coast_words[loc]
    name = " ".join(words.words) if words is not None else ""
    own = m.variant.provinces[m.prov_abbr[prov]].coast_aliases.get(abbr, [])
    more = [w for w in (name, *own[:1]) if w]
    return f"{abbr} ({', '.join(more)})" if more else abbr


def parse_order(m: Map, text: str, phase_type: PhaseType = "M") -> Order:
    """Parse one order; raise OrderError with a reason (and a suggestion) when it can't."""
    return read_order(m, order_memo(m, phase_type), text, phase_type)


def read_order(m: Map, memo: dict[str, Order], text: str, phase_type: PhaseType,
               described: bool = False) -> Order:
    """parse_order with the phase type's memo of orders read (order_memo) given, for a loop
    over many orders: an order read before is one lookup; then the package's notation
    (orders/canonical.py: with `described`, a text written exactly as Order.format writes it
    is kept as its description too, for the phase's results), then the general reader.
    Raises OrderError."""
    got = known_order(memo, m, text, phase_type, described)
    if got is None:
        got = _numbered(m, memo, text, phase_type) if "#" in text else \
            _parse_cached(m, text, phase_type)
        keep_order(memo, text, got)  # (read again as one lookup, like the package's notation)
    return got


def _numbered(m: Map, memo: dict[str, Order], text: str, phase_type: PhaseType) -> Order:
    """An order naming one of several units of a power in a space ("F Peru Basin #2 -
    East Pacific Rise", orders/stacked.py): the order without the number, which must follow
    the unit's place, with the number kept in `unit`."""
    before, rest, n = split_index(text)
    if not n:
        return _parse_cached(m, text, phase_type)
    try:
        head = _parse_cached(m, before, "M") if before.strip() else None
    except OrderError:
        head = None
    if head is None or head.type != HOLD or head.at >= 0 or head.act:
        raise OrderError(f"{text!r}: write the unit's number right after its place, as in "
                         "'F Peru Basin #2 - East Pacific Rise'")
    if n < 1:
        raise OrderError(f"{text!r}: units in a space are numbered from #1")
    return read_order(m, memo, rest, phase_type).but(text=text, unit=n)


@lru_cache(maxsize=1 << 16)
def _parse_cached(m: Map, text: str, phase_type: PhaseType) -> Order:
    # Orders are immutable, and the same strings recur phase after phase: parse each once.
    # (An OrderError is not cached: lru_cache does not store exceptions.) The diplomacy
    # package's notation, which programs write, is read and kept by orders/canonical.py.
    return _parse_full(m, text, phase_type)


def _parse_full(m: Map, text: str, phase_type: PhaseType) -> Order:
    c = _Cursor(m, text)
    if c.at_end():
        raise c.error("empty order", "incomplete")
    lead = _parse_lead_word(c, m, text, phase_type)
    if lead is not None:
        return lead
    kind = c.kind()
    loc = _unit_place(c, phase_type)
    loc_start, _, loc_end = c.last_place
    verb = c.peek()
    if phase_type == "M":
        standing = _parse_standing(c, text, verb, kind, loc)
        if standing is not None:
            return standing
    if verb is None:
        if phase_type == "M":
            return Order(HOLD, kind=kind, loc=loc, text=text)
        raise c.error("missing order after the unit" + phase_hint(phase_type, m), "incomplete")
    c.take()
    if verb in KW_HOLD:
        _expect_end(c)
        if phase_type != "M":
            raise c.error(_HOLD_ONLY_IN_MOVEMENT, "wrong_phase")
        return Order(HOLD, kind=kind, loc=loc, text=text)
    if verb in KW_BUILD:
        _expect_end(c)
        return Order(BUILD, kind=kind, loc=loc, text=text)
    if verb in KW_DISBAND:
        _expect_end(c)
        return Order(DISBAND, kind=kind, loc=loc, text=text)
    if verb in KW_RETREAT or (verb in KW_MOVE and phase_type == "R"):
        return _parse_retreat(c, text, kind, loc)
    if verb in KW_MOVE:
        return _parse_move(c, m, text, phase_type, kind, loc)
    if verb in KW_SUPPORT or verb in KW_CONVOY:
        return _parse_support(c, text, phase_type, verb, kind, loc)
    # "A PAR BUR": a bare destination is a move
    return _parse_bare_move(c, text, phase_type, verb, kind, loc, loc_start, loc_end)


def _parse_standing(c: _Cursor, text: str, verb: str | None, kind: int | None,
                    loc: int) -> Order | None:
    """In a movement phase, an order that acts where the unit stands: a rule's act
    ("F GUY sink additional ships") or an attack without moving ("F PBS AT PERU")."""
    if verb in _ACTS or (verb in KW_DISBAND and c.peek(1) == "anchor"):
        act = _act(c)
        _expect_end(c)
        return Order(HOLD, kind=kind, loc=loc, text=text, act=act)
    if verb in KW_AT or verb == "a" or (verb in ("(", "[") and c.peek(1) in KW_AT):
        at = _attack(c)
        if at >= 0:
            return Order(HOLD, kind=kind, loc=loc, text=text, at=at)
    return None


def _parse_retreat(c: _Cursor, text: str, kind: int | None, loc: int) -> Order:
    """A retreat, after its verb (R, or a move's in a retreat phase)."""
    if c.peek() in KW_MOVE:
        c.take()
    dest = c.place("retreat destination")
    _expect_end(c)
    _not_to_itself(c, loc, dest)
    return Order(RETREAT, kind=kind, loc=loc, target=dest, text=text)


def _parse_lead_word(c: _Cursor, m: Map, text: str, phase_type: PhaseType) -> Order | None:
    """An order that starts with its verb: a waive, a build, a disband (None: it starts
    with the unit)."""
    first = c.peek()
    if first in KW_WAIVE:
        return Order(WAIVE, text=text)
    if first in KW_BUILD and phase_type == "A":
        c.take()
        if "canal" in c.toks[c.i:]:  # "Build Panama Canal": a canal build (rules/canals.py)
            c.toks = c.toks[:c.i] + [w for w in c.toks[c.i:]
                                     if w not in ("canal", "in", "through", "the", "a")]
            loc = c.place("canal province")
            _expect_end(c)
            return Order(BUILD, loc=m.loc_prov[loc], text=text, act="canal")
        kind = c.kind()
        loc = c.place()
        _expect_end(c)
        return Order(BUILD, kind=kind, loc=loc, text=text)
    if phase_type != "A" and first in ("build", "builds", "b") and (
            first != "b" or c.peek(1) in {k.lower() for k in m.kinds}):
        raise c.error("builds are only ordered in an adjustment phase"
                      + phase_hint(phase_type, m), "wrong_phase")
    if first in KW_DISBAND:
        c.take()
        kind = c.kind()
        loc = c.place()
        _expect_end(c)
        return Order(DISBAND, kind=kind, loc=loc, text=text)
    return None


def _parse_move(c: _Cursor, m: Map, text: str, phase_type: PhaseType, kind: int | None,
                loc: int) -> Order:
    """A move, after its verb: the destination (or a path), an attack, a rule's act, via
    convoy."""
    if c.peek() == "to":  # "moves to"
        c.take()
    if c.peek() in _CLOSERS:  # "R Guyana [rib] to [sec]": another coast of its province
        dest = c._coast(c.m.loc_prov[loc])
    else:
        dest = c.place("destination")
    at = _attack(c)
    act = _act(c) if phase_type == "M" else ""
    via = False
    while at < 0 and c.peek() in KW_MOVE:  # a path: A YOR - NTH - BEL
        c.take()
        dest = c.place("destination")
        via = True
    if c.peek() in KW_VIA or c.peek() in KW_CONVOY:
        c.take()
        if c.peek() in KW_CONVOY:
            c.take()
        via = True
    _expect_end(c)
    _not_to_itself(c, loc, dest)
    if phase_type == "A":
        raise c.error(_MOVE_NOT_IN_ADJUSTMENT + phase_hint("A", m),
                      "wrong_phase")
    if at >= 0 and phase_type != "M":
        raise c.error("an attack (AT) is only ordered in a movement phase", "wrong_phase")
    return Order(MOVE, kind=kind, loc=loc, target=dest, via=via, text=text, at=at,
                 act=act)


def _unit_place(c: _Cursor, phase_type: PhaseType) -> int:
    """The ordered unit's place (`_wrong_phase_first` where it is not read)."""
    try:
        return c.place("unit location")
    except OrderError as exc:
        if phase_type != "M":
            _wrong_phase_first(c, phase_type, exc)
        raise


def _wrong_phase_first(c: _Cursor, phase_type: PhaseType, exc: OrderError) -> None:
    """A line whose unit's place is not read, and which could not be an order of this phase
    anyway (a support, a convoy, a hold, or a move in an adjustment phase): raise the wrong
    phase as its reason, the unread place after it. (Last turn's orders sent again are told
    as such, not as a misspelled place; a retreat may be written as a move.)"""
    w = c.word_after_guess()
    if w in KW_SUPPORT or w in KW_CONVOY:
        why = _SUPPORT_ONLY_IN_MOVEMENT
    elif w in KW_HOLD:
        why = _HOLD_ONLY_IN_MOVEMENT
    elif w in KW_MOVE and w != "to" and phase_type == "A":
        why = _MOVE_NOT_IN_ADJUSTMENT
    else:
        return
    raise c.error(f"{why}{phase_hint(phase_type, c.m)}; also {exc.args[0]}",
                  "wrong_phase") from None


def _parse_support(c: _Cursor, text: str, phase_type: PhaseType, verb: str, kind: int | None,
                   loc: int) -> Order:
    """A support or a convoy, after its verb: the unit supported or convoyed, its
    destination or attack."""
    if phase_type != "M":
        raise c.error(_SUPPORT_ONLY_IN_MOVEMENT
                      + phase_hint(phase_type, c.m), "wrong_phase")
    aux_kind = c.kind()
    aux_loc = c.place("supported unit" if verb in KW_SUPPORT else "convoyed army")
    target = None
    at = _attack(c)  # "S F PBS AT CHILE": the attack it supports
    if at < 0 and c.peek() in KW_MOVE:
        c.take()
        target = c.place("destination")
        at = _attack(c)
    elif at < 0 and c.peek() in KW_HOLD:
        c.take()
    if c.peek() in KW_VIA:  # "S A LON - BEL via convoy": the tag belongs to the move
        c.take()
        if c.peek() in KW_CONVOY:
            c.take()
    _expect_end(c)
    if verb in KW_CONVOY:
        if target is None:
            raise c.error("a convoy names the army's destination: F <sea> C A <from> - <to>",
                          "incomplete")
        if at >= 0:
            raise c.error("a convoy names no attack (AT)", "unknown_word")
        return Order(CONVOY, kind=kind, loc=loc, target=target, aux_kind=aux_kind,
                     aux_loc=aux_loc, text=text)
    return Order(SUPPORT, kind=kind, loc=loc, target=target, aux_kind=aux_kind,
                 aux_loc=aux_loc, text=text, at=at)


def _parse_bare_move(c: _Cursor, text: str, phase_type: PhaseType, verb: str, kind: int | None,
                     loc: int, loc_start: int, loc_end: int) -> Order:
    """"A PAR BUR": the word after the unit was no verb; read it as a destination
    (`loc_start`, `loc_end`: where the unit's place was read, for a misread long name)."""
    c.i -= 1
    try:
        dest = c.place()
    except OrderError:
        # "F Gulf of Mexco H": a misspelled long name, of which a short alias was read
        named = c.misread(loc_start, loc_end)
        if named:
            raise c.error(f"unknown unit location {c.guess()!r}" + named,
                          "unknown_place") from None
        raise c.error(f"unknown order word {verb!r}; expected -, S, C, H, R, B or D"
                      + phase_hint(phase_type, c.m), "unknown_word") from None
    _expect_end(c)
    if phase_type == "R":
        return Order(RETREAT, kind=kind, loc=loc, target=dest, text=text)
    return Order(MOVE, kind=kind, loc=loc, target=dest, text=text)


def _attack(c: _Cursor) -> int:
    """An attack's power after "AT" (or "attack", or the seed's "A"), read to the end of the
    order: its index, or -1 when no attack word stands here ("attack" may be a move's
    verb, "A" an army). An "AT" naming no power is an error. The attack may stand in
    brackets, as the LAD rules text writes it: "F PBS - EPR (AT Chile)"."""
    word = c.peek()
    bracketed = word in ("(", "[") and c.peek(1) in KW_AT
    if bracketed:
        word = c.peek(1)
    if word not in KW_AT and word != "a":
        return -1
    rest = [t for t in c.toks[c.i + 1 + bracketed:] if t not in _BRACKETS]
    power = read_power(c.m, rest, loose=word == "a")
    if power >= 0:
        c.i = len(c.toks)
        return power
    if word == "at":
        named = " ".join(rest)
        raise c.error(f"AT names the power attacked; {named!r} is not a power" if named
                      else f"AT names the power attacked (AT {c.m.powers[0].upper()})",
                      "unknown_power")
    return -1


# what a unit does with anchor markers (rules/anchors.py): the first word, and the words that
# may follow it ("convert to fleet", "convert into a river flotilla", "capture ships",
# "release anchor marker", "sink additional ships", "disband anchor marker")
_ACTS: dict[str, OrderAct] = {"convert": "convert", "converts": "convert", "becomes": "convert",
                               "capture": "capture", "captures": "capture",
                               "release": "release", "releases": "release", "sink": "sink",
                               "sinks": "sink"}
_ACT_WORDS = {"to", "into", "a", "fleet", "f", "ships", "the", "anchor", "marker", "markers",
              "additional", "its",
              # "a Fleet may be ordered to convert into a River Flotilla" (LAD 6.C)
              "river flotilla", "river", "flotilla", "r"}


def _act(c: _Cursor) -> OrderAct:
    """An anchor order's act after the unit or the destination ("convert to fleet", "capture
    ships", "release anchor marker", "sink additional ships", "disband anchor marker"), read
    to the end of the order; "" when none stands here."""
    word = c.peek()
    act: OrderAct
    if word in KW_DISBAND and c.peek(1) == "anchor":
        act = "sink"
    elif word in _ACTS:
        act = _ACTS[word]
    else:
        return ""
    rest = c.toks[c.i + 1:]
    odd = [w for w in rest if w not in _ACT_WORDS]
    if odd:
        raise c.error(f"unexpected {' '.join(odd)!r} after {word!r} (anchor orders: 'convert "
                      "to fleet', 'capture ships', 'release anchor marker', 'sink additional "
                      "ships')", "unknown_word")
    c.i = len(c.toks)
    return act


def _not_to_itself(c: _Cursor, loc: int, dest: int) -> None:
    """A move to the unit's own province with a coast it does not have ("F NOR - NOR/RB")
    is a mistyped coast, never a move to itself."""
    m = c.m
    if c.dropped_coast and m.loc_prov[dest] == m.loc_prov[loc]:
        raise c.error(f"{m.prov_name[m.loc_prov[dest]]} has no coast {c.dropped_coast!r} "
                      "(it has no separate coasts), and a unit does not move to its own "
                      "place", "bad_coast")


def _expect_end(c: _Cursor) -> None:
    if not c.at_end():
        rest = " ".join(c.toks[c.i:])
        start, what, end = c.last_place
        if start >= 0:  # "F VER - Gulf of Mexco": a short alias read of a misspelled name
            named = c.misread(start, end)
            if named:
                raise c.error(f"unknown {what} {c.guess()!r}" + named, "unknown_place")
        raise c.error(f"unexpected {rest!r} at the end of the order", "unknown_word")
