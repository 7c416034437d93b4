"""Import a DPjudge map file (`.map`, the format the `diplomacy` package also reads).

The format, as `diplomacy.engine.map.Map.load` and DPjudge's `Map.py` read it, one directive
a line (`#` starts a comment line):

    BEGIN SPRING 1901 MOVEMENT          first phase
    VICTORY 18                          centers needed to win (default: half + 1)
    MAP standard.map / USE file...      read another file here (MAP also names the root map)
    RULE BUILD_ANY                      rule words
    Adriatic Sea = adr adriatic         full name = abbreviation aliases...
    WATER ADR ABUTS ALB APU ...         terrain (WATER, COAST, LAND, PORT, SHUT; AMEND)
    AUSTRIA (AUSTRIAN:A) BUD TRI VIE    power, (adjective:letter), home centers
    A BUD / F STP/SC                    starting units of the power above
    OWNS / CENTERS / INHABITS / HOME(S) / UNITS    centers owned, homes, clear units
    UNOWNED BEL BUL ...                 neutral centers (also NEUTRAL)
    UNPLAYED ..., DUMMY ..., DROP ...   remove powers, dummy powers, remove places

Adjacency lists encode which units may cross by the case of each entry (see
`diplomacy.engine.map.Map._abuts`): an UPPER-case entry may be crossed by armies and fleets,
a lower-case one by armies only, a Title-case one (`Bal`) by fleets only; armies never enter
WATER, fleets never enter LAND, nothing enters SHUT. A province with named coasts is declared
in lower case (`COAST bul ABUTS ...`, the armies' neighbours) plus one upper-case line per
coast (`COAST BUL/EC ABUTS ...`, the fleets' neighbours).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from polydip.errors import VariantError, did_you_mean
from polydip.variants import untrusted as bounds
from polydip.variants.importers._common import (
    Draft,
    DraftPower,
    DraftProvince,
    Ref,
    build_variant,
    fail,
    header_comments,
    unsupported,
    variant_name,
)
from polydip.variants.model import Variant
from polydip.variants.search import HOW_TO_ADD

TERRAIN_WORDS = {"WATER": "sea", "COAST": "coast", "LAND": "land", "PORT": "port",
                 "SHUT": "impassable"}
ARMY_TYPES = ("LAND", "COAST", "PORT")
FLEET_TYPES = ("WATER", "COAST", "PORT")
SEASONS = {"SPRING": ("S", "MR"), "FALL": ("F", "MR"), "WINTER": ("W", "A")}
PHASE_WORDS = {"MOVEMENT": "M", "RETREATS": "R", "ADJUSTMENTS": "A"}
STANDARD_FLOW = ["SPRING:MOVEMENT,RETREATS", "FALL:MOVEMENT,RETREATS", "WINTER:ADJUSTMENTS"]

# DPjudge rule words polydip implements, and the [rules] table each becomes
RULES = {
    "BUILD_ANY": ("build_sites", {"policy": "owned"}),
    "HOME_BUILDS": ("build_sites", {"policy": "any_home"}),
}
# DPjudge directives that change the game and that polydip cannot represent yet
UNSUPPORTED_DIRECTIVES = {
    "NEWHOMES": "new home centers chosen during the game (NEWHOMES)",
    "RESERVES": "reserve units (RESERVES)",
    "MILITIA": "militia units (MILITIA)",
    "CONTROL": "dummy powers controlled by another power (CONTROL)",
    "LEAGUE": "leagues (LEAGUE)",
    "TEAM": "teams (TEAM)",
    "TEAMS": "teams (TEAMS)",
    "ROTATE": "rotating control (ROTATE)",
}
# directives about presentation or administration: not part of the game
IGNORED_DIRECTIVES = {
    "NOTIFY": "NOTIFY (whom the judge mails when the game starts)",
    "FLAGS": "FLAGS (flag pictures)",
    "FLAG": "FLAG (a power's flag picture)",
    "TEXTONLY": "TEXTONLY (the judge draws no map)",
}
HOME_PREFIXES = {
    "*": "partisan build sites (*XXX homes)",
    "+": "factories (+XXX homes)",
    "~": "hidden home centers (~XXX homes)",
    "@": "alternative home centers (@XXX homes)",
    "&": "build-anywhere markers (&SC homes)",
}
KEYWORDS = (["VICTORY", "USE", "USES", "MAP", "BEGIN", "RULE", "RULES", "OWNS", "CENTERS",
             "INHABITS", "HOME", "HOMES", "UNITS", "DUMMY", "DUMMIES", "DROP", "AMEND",
             "UNPLAYED", "UNOWNED", "NEUTRAL", "FLOW"] + list(TERRAIN_WORDS)
            + list(UNSUPPORTED_DIRECTIVES) + list(IGNORED_DIRECTIVES))
_ABBR = re.compile(r"^[A-Za-z0-9]+(/[A-Za-z0-9]+)?$")
# an adjacency open only to the owner of some centers: BLA(CON), AEG(CON,SMY)
_OWNERS_ONLY = re.compile(
    r"^([A-Za-z0-9]+(?:/[A-Za-z0-9]+)?)\(([A-Za-z0-9]+(?:,[A-Za-z0-9]+)*)\)$")

# CSS colour names used by the SVG maps the diplomacy package ships
_CSS = {"royalblue": "#4169e1", "forestgreen": "#228b22", "darkviolet": "#9400d3",
        "gray": "#808080", "grey": "#808080", "darkgrey": "#a9a9a9", "darkgray": "#a9a9a9"}


def import_map(path: str | Path, search_path: Sequence[str | Path] | None = None
               ) -> Variant:
    """Read a DPjudge `.map` file (and the files it includes) into a Variant.

    Included files (`MAP x`, `USE x`) are looked for beside the including file, then in each
    folder of `search_path`.
    """
    reader = _Reader(Path(path), [Path(p) for p in search_path or []])
    reader.load_top()
    return build_variant(reader.draft())


def import_map_text(text: str, shown: str, untrusted: bool = True) -> Variant:
    """A DPjudge map from its text alone, `shown` its file name in messages. `untrusted`
    (someone else's file): it may include no other file, and its size is bounded while it
    is read (polydip.variants.untrusted)."""
    reader = _Reader(Path(shown), [], untrusted=untrusted)
    reader.read_text(text, shown, Path(shown))
    return build_variant(reader.draft())


def norm_power(word: str) -> str:
    """The power key the diplomacy package uses: upper case, without . : - + , or spaces."""
    return re.sub(r"[.:\-+, ]", "", word.upper())


def _display_name(written: str) -> str:
    """'NEW-YORK' -> 'New-York', 'U+S+A' -> 'USA', 'British+Columbian' -> 'British Columbian'."""
    parts = written.split("+")
    if len(parts) > 1 and all(len(p) == 1 for p in parts):
        return "".join(parts).upper()
    s = " ".join(parts)
    return re.sub(r"[A-Za-z]+", lambda m: m.group(0).capitalize(), s)


class _Reader:
    def __init__(self, top: Path, search: list[Path], untrusted: bool = False) -> None:
        self.top = top
        self.search = search
        self.untrusted = untrusted  # includes refused, size bounded, no SVG looked for
        self.lines = 0  # lines that say something (bounded when untrusted)
        self.words = 0
        self.unit_lines = 0
        self.files: list[str] = []  # included names, as the diplomacy package counts them
        self.read: list[str] = []  # files read, for the notes
        self.header: list[str] = []
        self.locs: list[str] = []  # places as declared (case matters)
        self.loc_type: dict[str, str] = {}
        self.loc_ref: dict[str, Ref] = {}
        self.loc_abut: dict[str, list[tuple[str, Ref]]] = {}
        # ownership restrictions: (place, neighbour as listed) -> centers its user must own
        self.owners_only: dict[tuple[str, str], tuple[tuple[str, ...], Ref]] = {}
        self.names: dict[str, tuple[str, list[str], Ref]] = {}  # ABBR -> name, aliases, ref
        self.name_seen: dict[str, tuple[str, Ref]] = {}  # upper-case full name -> abbr, ref
        self.pow_name: dict[str, str] = {}
        self.pow_ref: dict[str, Ref] = {}
        self.own_word: dict[str, str] = {}
        self.abbrev: dict[str, str] = {}
        self.homes: dict[str, list[str]] = {}
        self.centers: dict[str, list[str]] = {}
        self.owns: list[str] = []
        self.inhabits: list[str] = []
        self.units: dict[str, list[tuple[str, Ref]]] = {}
        self.dummies: list[str] = []
        self.rules: list[tuple[str, Ref]] = []
        self.victory: tuple[list[int], Ref] | None = None
        self.phase: tuple[str, Ref] | None = None
        self.root_map: str | None = None
        self.ignored: list[str] = []
        self.coast_names: int = 0
        self.unclear: list[str] = []

    # ---- files -----------------------------------------------------------------------------

    def load_top(self) -> None:
        if not self.top.is_file():
            raise VariantError(f"{self.top}: no such file")
        self._load(self.top, str(self.top))

    def _find(self, name: str, here: Path, ref: Ref) -> Path:
        dirs = [here.parent, *self.search]
        for d in dirs:
            cand = d / name
            if cand.is_file():
                return cand
        raise fail(ref, f"included file {name!r} not found (looked in "
                   f"{', '.join(str(d) for d in dirs)})",
                   "put it beside the including file, or " + HOW_TO_ADD)

    def _display(self, path: Path) -> str:
        if path.parent.resolve() == self.top.parent.resolve():
            return str(self.top.parent / path.name) if str(self.top.parent) != "." else path.name
        return str(path)

    def _load(self, path: Path, shown: str) -> None:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise VariantError(f"{shown}: cannot read: {exc}") from exc
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # DPjudge's own encoding
        self.read_text(text, shown, path)

    def read_text(self, text: str, shown: str, path: Path) -> None:
        self.read.append(shown)
        if not self.header:
            self.header = header_comments(text.splitlines())
        power: str | None = None  # the power the following lines are about
        for lineno, line in enumerate(text.splitlines(), 1):
            power = self._line(line, Ref(shown, lineno), path, power)

    # ---- one line --------------------------------------------------------------------------

    def _line(  # noqa: C901 (a flat dispatch on the line's first word)
            self, line: str, ref: Ref, path: Path, power: str | None) -> str | None:
        """Read one line of a map file; answers the power the next lines are about."""
        word = line.split()
        if not word or word[0][0] == "#":
            return power
        if self.untrusted:
            self._bounded(word, ref)
        up = word[0].upper()
        if word[-1].upper() in ("DIRECTIVE", "DIRECTIVES"):
            raise unsupported(ref, "variant-specific DIRECTIVE blocks")
        if up in ("FROM", "IN") and len(word) > 1:
            raise unsupported(ref, f"dynamic map instructions ({up} ...)",
                              "map changes scheduled for a phase")
        if up == "VICTORY":
            self._victory_line(word, ref)
        elif up in ("USE", "USES", "MAP") and self.untrusted:
            raise fail(ref, f"{up} includes another file; a variant file from someone else "
                       "(an upload) cannot include files",
                       "copy the lines of the included file into this one")
        elif up in ("USE", "USES", "MAP"):
            self._include(up, word, ref, path)
        elif up == "BEGIN":
            self.phase = (self._phase(word[1:], ref), ref)
        elif up in ("RULE", "RULES"):
            self.rules += [(w.upper(), ref) for w in word[1:]]
        elif up == "FLOW":
            if [w.upper() for w in word[1:]] != STANDARD_FLOW:
                raise unsupported(ref, "a FLOW other than the standard "
                                  "spring/fall/winter year", " ".join(word[1:]))
        elif up in IGNORED_DIRECTIVES:
            self.ignored.append(f"{IGNORED_DIRECTIVES[up]} at {ref}")
        elif up in UNSUPPORTED_DIRECTIVES:
            raise unsupported(ref, UNSUPPORTED_DIRECTIVES[up])
        elif "=" in line:
            self._names(line, ref)
        elif up in ("OWNS", "CENTERS"):
            self._owns(up, word, ref, power)
        elif up == "INHABITS":
            self._inhabits(word, ref, power)
        elif up in ("HOME", "HOMES"):
            self._homes(up, word, ref, power)
        elif up == "UNITS":
            if not power:
                raise fail(ref, "UNITS before any power line", "put it under the power's line")
            self.units[power] = []
        elif up in ("A", "F"):
            self._unit(up, word, ref, power)
        elif up == "W" and len(word) == 2:
            raise unsupported(ref, "wings (W units)")
        elif up in ("DUMMY", "DUMMIES"):
            power = self._dummy(word, ref, power)
        elif up == "DROP":
            for place in word[1:]:
                self._drop(place.upper())
        elif len(word) > 1 and (up in TERRAIN_WORDS or up == "AMEND"):
            self._terrain(word, ref)
        elif up == "UNPLAYED":
            self._unplayed(word, ref, power)
            power = None
        else:
            power = self._power(word, ref)
        return power

    def _victory_line(self, word: list[str], ref: Ref) -> None:
        """VICTORY N...: the centers needed, year by year."""
        try:
            counts = [int(w) for w in word[1:]]
        except ValueError:
            raise fail(ref, f"VICTORY takes numbers of centers, not {' '.join(word[1:])!r}",
                       "write e.g. 'VICTORY 18'") from None
        if not counts:
            raise fail(ref, "VICTORY names no number of centers", "write e.g. 'VICTORY 18'")
        self.victory = (counts, ref)

    def _include(self, up: str, word: list[str], ref: Ref, path: Path) -> None:
        """USE/USES/MAP FILE...: read the files named (MAP: the one root map)."""
        if len(word) == 1:
            raise fail(ref, f"{up} names no file", f"write e.g. '{up} standard.map'")
        if up == "MAP":
            if len(word) != 2:
                raise fail(ref, "MAP names exactly one root map file",
                           "use USE to include further files")
            if self.root_map:
                raise fail(ref, f"a second root map (MAP {word[1]}); the first is "
                           f"{self.root_map}")
            self.root_map = word[1].split(".")[0]
        for name in word[1:]:
            if "." not in name:
                name += ".map"
            if name in self.files:
                raise fail(ref, f"{name} is included twice")
            self.files.append(name)
            found = self._find(name, path, ref)
            self._load(found, self._display(found))

    def _owns(self, up: str, word: list[str], ref: Ref, power: str | None) -> None:
        """OWNS/CENTERS: the centers the power owns at the start (CENTERS replaces)."""
        if not power:
            raise fail(ref, f"{up} before any power line", "put it under the power's line")
        if power not in self.owns:
            self.owns.append(power)
        new = [w.upper() for w in word[1:]]
        if up == "CENTERS" or power not in self.centers:
            self.centers[power] = new
        else:
            self.centers[power] += [c for c in new if c not in self.centers[power]]

    def _inhabits(self, word: list[str], ref: Ref, power: str | None) -> None:
        """INHABITS: home centers, added to those said before."""
        if not power:
            raise fail(ref, "INHABITS before any power line", "put it under the power's line")
        reinit = power not in self.inhabits
        if reinit:
            self.inhabits.append(power)
        self._add_homes(power, word[1:], reinit, ref)

    def _homes(self, up: str, word: list[str], ref: Ref, power: str | None) -> None:
        """HOME/HOMES: the power's home centers."""
        if not power:
            raise fail(ref, f"{up} before any power line", "put it under the power's line")
        if power not in self.inhabits:
            self.inhabits.append(power)
        self._add_homes(power, word[1:], True, ref)

    def _unit(self, up: str, word: list[str], ref: Ref, power: str | None) -> None:
        """A XXX / F XXX/NC: a starting unit of the power (replacing any unit there)."""
        if not power:
            raise fail(ref, f"unit {' '.join(word)!r} before any power line",
                       "put units under the line of the power that owns them")
        if len(word) != 2:
            raise fail(ref, f"{' '.join(word)!r} is not a unit",
                       "write a unit as 'A XXX' or 'F XXX/NC'")
        unit = f"{up} {word[1].upper()}"
        prov = word[1].upper().split("/")[0]
        for lst in self.units.values():
            lst[:] = [(u, r) for u, r in lst if u[2:].split("/")[0] != prov]
        self.units.setdefault(power, []).append((unit, ref))

    def _bounded(self, word: list[str], ref: Ref) -> None:
        """An untrusted file within the limits, line by line, before the line is read."""
        self.lines += 1
        if self.lines > bounds.MAX_LINES:
            raise fail(ref, f"more than {bounds.MAX_LINES:,} lines; an uploaded map has at "
                       "most that many")
        if len(word) > bounds.MAX_WORDS:
            raise fail(ref, f"{len(word):,} words on one line (at most {bounds.MAX_WORDS:,})")
        if any(len(w) > bounds.MAX_NAME for w in word):
            raise fail(ref, f"a word of more than {bounds.MAX_NAME} characters")
        up = word[0].upper()
        if up in ("A", "F"):
            self.unit_lines += 1
            if self.unit_lines > bounds.MAX_UNITS:
                raise fail(ref, f"more than {bounds.MAX_UNITS:,} units; an uploaded map has "
                           "at most that many")
        elif up in TERRAIN_WORDS and len(self.locs) >= bounds.MAX_PLACES:
            raise fail(ref, f"more than {bounds.MAX_PLACES:,} places (provinces and coasts); "
                       "an uploaded map has at most that many")
        elif up in ("DROP", "AMEND"):
            raise fail(ref, f"{up} changes a map included from another file; an uploaded map "
                       "includes none", "declare each place once, as it is")
        elif up in TERRAIN_WORDS and len(word) > 1 and (
                word[1] in self.loc_type or word[1].swapcase() in self.loc_type):
            first = self.loc_ref.get(word[1]) or self.loc_ref.get(word[1].swapcase())
            raise fail(ref, f"{word[1]} is declared a second time (first at {first}); an "
                       "uploaded map declares each place once")
        self.words += len(word)
        if self.words > bounds.MAX_MAP_WORDS:
            raise fail(ref, f"more than {bounds.MAX_MAP_WORDS:,} words; an uploaded map has at "
                       "most that many")
        for table in (self.homes, self.centers):
            for lst in table.values():
                if len(lst) > bounds.MAX_PLACES:
                    raise fail(ref, f"more than {bounds.MAX_PLACES:,} centers listed for one "
                               "power; an uploaded map has at most that many places")

    def _phase(self, words: list[str], ref: Ref) -> str:
        if len(words) != 3:
            raise fail(ref, f"BEGIN {' '.join(words)!r} is not a phase",
                       "write e.g. 'BEGIN SPRING 1901 MOVEMENT'")
        season, year, typ = (w.upper() for w in words)
        if season not in SEASONS:
            raise fail(ref, f"unknown season {words[0]!r} in BEGIN" + did_you_mean(season, SEASONS),
                       "the standard year has SPRING, FALL and WINTER")
        try:
            y = int(year)
        except ValueError:
            raise fail(ref, f"BEGIN year {year!r} is not a number") from None
        if typ not in PHASE_WORDS:
            raise fail(ref, f"unknown phase {words[2]!r} in BEGIN"
                       + did_you_mean(typ, PHASE_WORDS), "MOVEMENT, RETREATS or ADJUSTMENTS")
        abbr, allowed = SEASONS[season]
        if PHASE_WORDS[typ] not in allowed:
            raise fail(ref, f"{season} has no {typ} phase")
        return f"{abbr}{y}{PHASE_WORDS[typ]}"

    def _names(self, line: str, ref: Ref) -> None:
        parts = line.split("=")
        if len(parts) != 2:
            raise fail(ref, "a name line has one '='", "write 'Full Name = abbr alias...'")
        name, rest = parts[0].strip(), parts[1].split()
        if "->" in name:
            raise unsupported(ref, "renaming a place (OLD -> New Name = abbr)")
        if not name:
            raise fail(ref, "no full name before '='", "write 'Full Name = abbr alias...'")
        if not rest:
            raise fail(ref, f"no abbreviation after {name!r} =",
                       "write 'Full Name = abbr alias...'")
        abbr = rest[0].upper()
        if not _ABBR.match(abbr):
            raise fail(ref, f"invalid place abbreviation {rest[0]!r}",
                       "an abbreviation is letters and digits, with an optional /COAST")
        key = name.upper()
        if key in self.name_seen:
            other, oref = self.name_seen[key]
            raise fail(ref, f"the name {name!r} is already used for {other} at {oref}")
        self.name_seen[key] = (abbr, ref)
        aliases = []
        for a in rest[1:]:
            if a.endswith("?"):  # an ambiguous alias: the diplomacy package keeps it apart
                self.unclear.append(a[:-1].replace("+", " "))
                continue
            if "/" in a or "(" in a:  # a coast alias ("bul/ec", "spa(nc)")
                continue
            aliases.append(a.replace("+", " "))
        if "/" in abbr:
            self.coast_names += 1
        if abbr in self.names:  # a second full name for the place: one more alias
            first, more, fref = self.names[abbr]
            if self.untrusted and len(more) > bounds.MAX_ALIASES:
                raise fail(ref, f"more than {bounds.MAX_ALIASES} names for {abbr}; an uploaded "
                           "map gives a place at most that many")
            self.names[abbr] = (first, [*more, name, *aliases], fref)
        else:
            self.names[abbr] = (name, aliases, ref)

    def _add_homes(self, power: str, homes: list[str], reinit: bool, ref: Ref) -> None:
        if reinit:
            self.homes[power] = []
        else:
            self.homes.setdefault(power, [])
        self.homes.setdefault("UNOWNED", [])
        for home in " ".join(homes).upper().split():
            remove = False
            while home and home[0] == "-":
                remove, home = True, home[1:]
            if home and home[0] in HOME_PREFIXES:
                raise unsupported(ref, HOME_PREFIXES[home[0]])
            if "(" in home:
                raise unsupported(ref, f"home center limitations ({home})")
            if not home:
                continue
            if home in self.homes[power]:
                self.homes[power].remove(home)
            if power != "UNOWNED":
                self.homes["UNOWNED"].append(home)
            if not remove:
                self.homes[power].append(home)

    def _power(self, word: list[str], ref: Ref) -> str | None:
        up = word[0].upper()
        if len(word) > 2 and word[2].upper() == "ABUTS":
            raise fail(ref, f"unknown terrain {word[0]!r}" + did_you_mean(up, TERRAIN_WORDS),
                       "terrains are WATER, COAST, LAND, PORT and SHUT")
        if up == "NEUTRAL":
            up = "UNOWNED"
        if len(word) > 2 and word[1] == "->":
            raise unsupported(ref, "renaming a power (OLD -> NEW)")
        power = None if up == "UNOWNED" else norm_power(up)
        if power == "":
            raise fail(ref, f"{word[0]!r} is not a power name")
        rest = word[1:]
        if power:
            if power not in self.pow_name:
                if self.untrusted and len(self.pow_name) >= bounds.MAX_POWERS:
                    raise fail(ref, f"more than {bounds.MAX_POWERS} powers; an uploaded map has "
                               "at most that many")
                self.pow_name[power] = word[0]
                self.pow_ref[power] = ref
            if rest and rest[0].startswith("("):
                if not rest[0].endswith(")"):
                    raise fail(ref, f"{rest[0]!r}: the adjective is one word in brackets",
                               "write '(Adjective)' or '(Adjective:L)'; use + for a space")
                own = rest[0][1:-1]
                if ":" in own:
                    own, letter = own.split(":", 1)
                    if not letter or letter[0].upper() in "M?" or not letter[0].isalpha():
                        raise fail(ref, f"illegal power letter {letter!r}",
                                   "use one letter other than M")
                    self.abbrev[power] = letter[0].upper()
                self.own_word[power] = own or word[0]
                rest = rest[1:]
            else:
                self.own_word.setdefault(power, word[0])
        key = power or "UNOWNED"
        reinit = key in self.inhabits
        if reinit:
            self.inhabits.remove(key)
        self._add_homes(key, rest, reinit, ref)
        return power

    def _dummy(self, word: list[str], ref: Ref, power: str | None) -> str | None:
        up = word[0].upper()
        if len(word) == 1:
            if up == "DUMMIES":
                raise fail(ref, "DUMMIES needs a list of powers")
            if not power:
                raise fail(ref, "DUMMY before any power line", "put it under the power's line")
            if power not in self.dummies:
                self.dummies.append(power)
            return power
        players = [p for p in self.homes if p != "UNOWNED"]
        if word[1].upper() != "ALL":
            self.dummies += [p for p in map(norm_power, word[1:]) if p not in self.dummies]
        elif len(word) == 2:
            self.dummies = players
        elif word[2].upper() != "EXCEPT":
            raise fail(ref, f"{up} ALL is followed by EXCEPT or nothing")
        elif len(word) == 3:
            raise fail(ref, f"{up} ALL EXCEPT names no power")
        else:
            keep = set(map(norm_power, word[3:]))
            self.dummies = [p for p in players if p not in keep]
        return None

    def _unplayed(self, word: list[str], ref: Ref, power: str | None) -> None:
        players = [p for p in self.homes if p != "UNOWNED"]
        if len(word) == 1:
            if not power:
                raise fail(ref, "UNPLAYED before any power line",
                           "name the powers: 'UNPLAYED FRANCE, ITALY'")
            goners = [power]
        elif word[1].upper() != "ALL":
            goners = [p for p in map(norm_power, word[1:]) if p]
        elif len(word) == 2:
            goners = players
        elif word[2].upper() != "EXCEPT":
            raise fail(ref, "UNPLAYED ALL is followed by EXCEPT or nothing")
        elif len(word) == 3:
            raise fail(ref, "UNPLAYED ALL EXCEPT names no power")
        else:
            keep = set(map(norm_power, word[3:]))
            goners = [p for p in players if p not in keep]
        for g in goners:
            if g not in self.pow_name:
                raise fail(ref, f"no power {g!r} to remove" + did_you_mean(g, players))
            for table in (self.pow_name, self.pow_ref, self.own_word, self.homes, self.centers,
                          self.abbrev, self.units):
                table.pop(g, None)
            self.dummies = [p for p in self.dummies if p != g]
            self.inhabits = [p for p in self.inhabits if p != g]
            self.owns = [p for p in self.owns if p != g]

    def _matches(self, loc: str, place: str) -> bool:
        loc = loc.upper()
        return loc == place or loc.startswith(place + "/")

    def _drop(self, place: str) -> None:
        self.locs = [x for x in self.locs if not self._matches(x, place)]
        for table in (self.loc_type, self.loc_ref, self.loc_abut):
            for x in [x for x in table if self._matches(x, place)]:
                del table[x]
        for x in [x for x in self.names if self._matches(x, place)]:
            del self.names[x]
        for lst in self.homes.values():
            lst[:] = [h for h in lst if h != place]
        for lst in self.centers.values():
            lst[:] = [c for c in lst if not self._matches(c, place)]
        prov = place.split("/")[0]
        for ulst in self.units.values():
            ulst[:] = [(u, r) for u, r in ulst if u[2:].split("/")[0] != prov]
        for alst in self.loc_abut.values():
            alst[:] = [(a, r) for a, r in alst if not self._matches(a, place)]
        self.owners_only = {k: v for k, v in self.owners_only.items()
                            if not (self._matches(k[0], place) or self._matches(k[1], place))}

    def _terrain(self, word: list[str], ref: Ref) -> None:
        """TERRAIN PLACE ABUTS PLACE...: a place declared (again), or AMENDed, and its
        neighbours."""
        up = word[0].upper()
        place, other = word[1], word[1].swapcase()
        if not _ABBR.match(place):
            raise fail(ref, f"invalid place abbreviation {place!r}",
                       "an abbreviation is letters and digits, with an optional /COAST")
        if len(word) > 2 and word[2].upper() != "ABUTS":
            raise fail(ref, f"expected ABUTS after {place}, found {word[2]!r}",
                       f"write '{up} {place} ABUTS ...'")
        if other in self.locs:
            self._redeclared(place, other, up)
        if place in self.locs:
            self.locs.remove(place)
        self.locs.append(place)
        if up != "AMEND":
            self.loc_type[place] = up
            self.loc_ref[place] = ref
            if len(word) > 2:
                self.loc_abut[place] = []
                self.owners_only = {k: v for k, v in self.owners_only.items() if k[0] != place}
        elif place not in self.loc_type:
            raise fail(ref, f"AMEND {place}: {place} is not declared yet",
                       "declare it with its terrain first")
        self._abuts(place, word[3:], ref)

    def _redeclared(self, place: str, other: str, up: str) -> None:
        """The place was declared before in the other case (upper/lower): that declaration
        goes (AMEND: its terrain and neighbours carry over)."""
        self.locs.remove(other)
        if up == "AMEND":
            self.loc_type[place] = self.loc_type[other]
            self.loc_ref[place] = self.loc_ref[other]
            self.loc_abut[place] = self.loc_abut.get(other, [])
        self.loc_type.pop(other, None)
        self.loc_ref.pop(other, None)
        self.loc_abut.pop(other, None)
        self.owners_only = {((place if k[0] == other else k[0]), k[1]): v
                            for k, v in self.owners_only.items()
                            if k[0] != other or up == "AMEND"}
        if place.isupper():
            for loc in [x for x in self.locs if x.upper().startswith(place.upper() + "/")]:
                self._drop(loc.upper())

    def _abuts(self, place: str, dests: list[str], ref: Ref) -> None:
        """The neighbours after ABUTS: -X removes those starting with X, AEG(CON,SMY) is
        adjacent only for the owner of the centers named."""
        abuts = self.loc_abut.setdefault(place, [])
        for dest in dests:
            if dest[0] == "-":
                cut = dest[1:].upper()
                abuts[:] = [(a, r) for a, r in abuts if not a.upper().startswith(cut)]
                self.owners_only = {k: v for k, v in self.owners_only.items()
                                    if k[0] != place or not k[1].upper().startswith(cut)}
                continue
            owners = _OWNERS_ONLY.match(dest)
            if owners:
                # "AEG(CON,SMY)": adjacent only for a unit whose power owns CON and SMY
                dest = owners.group(1)
                centers = tuple(sorted({c.upper() for c in owners.group(2).split(",")}))
                self.owners_only[(place, dest)] = (centers, ref)
            elif ":" in dest or "(" in dest or not (dest[0].isalnum() and dest[-1].isalnum()):
                raise unsupported(ref, f"special adjacency restrictions ({dest})",
                                  "polydip reads only center ownership restrictions such as "
                                  "BLA(CON)")
            if not _ABBR.match(dest):
                raise fail(ref, f"invalid place abbreviation {dest!r} in the list of {place}")
            abuts.append((dest, ref))

    # ---- to a draft ------------------------------------------------------------------------

    def _area(self, loc: str) -> str | None:
        return self.loc_type.get(loc.upper()) or self.loc_type.get(loc.lower())

    def draft(self) -> Draft:
        top = self.top
        d = Draft(path=str(top), name=variant_name(top.stem),
                  title=top.stem.replace("_", " ").title())
        d.source = (f"imported from {top.name} (DPjudge map format, as the diplomacy package "
                    "reads it)")
        notes = [f"Imported from the DPjudge map file {top.name} by polydip's importer "
                 f"(files read: {', '.join(Path(f).name for f in self.read)})."]
        if self.header:
            notes.append("Header of the source file:\n" + "\n".join(self.header))
        by_prov, shut, ports, no_name = self._draft_provinces(d)
        scs = self._draft_centers(d)
        restricted = self._draft_adjacency(d, by_prov)
        if restricted:
            self._owner_passages(d, restricted, scs, notes)
        self._draft_powers(d)
        self._draft_rules(d, notes)
        d.notes = notes + self._draft_notes(d, shut, ports, no_name)
        if self.untrusted:  # (the SVG would be a file beside it: none is read)
            d.notes.append("No coordinates: the map file has none (the renderer needs "
                           "'coords' for every province to draw it).")
        else:
            self._svg(d)
        return d

    def _draft_provinces(self, d: Draft
                         ) -> tuple[dict[str, list[str]], list[str], list[str], list[str]]:
        """The provinces: the places grouped by the part before "/". Answers the places of
        each province, the impassable ones, the ports and those without a full name."""
        by_prov: dict[str, list[str]] = {}
        for loc in self.locs:
            by_prov.setdefault(loc.upper().split("/")[0], []).append(loc)
        shut, ports, no_name = [], [], []
        for prov, locs in by_prov.items():
            plain = [x for x in locs if "/" not in x]
            coasts = [x.upper().split("/")[1] for x in locs if "/" in x]
            first = plain[0] if plain else locs[0]
            types = {self.loc_type[x] for x in locs}
            if len(types) > 1:
                raise fail(self.loc_ref[locs[-1]], f"{prov} is declared with different "
                           f"terrains ({', '.join(sorted(types))})",
                           "give the province and its coasts one terrain")
            typ = self.loc_type[first]
            if coasts and plain and plain[0] == plain[0].upper() and typ in FLEET_TYPES and any(
                    a[0] == a[0].upper() for a, _ in self.loc_abut.get(plain[0], [])):
                raise unsupported(self.loc_ref[plain[0]],
                                  f"fleets standing on {prov} itself as well as on its coasts",
                                  f"declare the province in lower case: {typ} {prov.lower()}")
            name, aliases, _ = self.names.get(prov, (prov, [], None))
            if prov not in self.names:
                no_name.append(prov)
            dp = DraftProvince(abbr=prov, ref=self.loc_ref[first], terrain=TERRAIN_WORDS[typ],
                               name=name, aliases=list(aliases), coasts=coasts)
            if typ == "SHUT":
                shut.append(prov)
            if typ == "PORT":
                ports.append(prov)
            d.provinces[prov] = dp
        for abbr, (name, _, ref) in self.names.items():
            if abbr.split("/")[0] not in by_prov and norm_power(abbr) not in self.pow_name:
                raise fail(ref, f"{name!r} = {abbr.lower()}: {abbr} has no terrain line",
                           f"declare it, e.g. 'LAND {abbr} ABUTS ...', or remove the name")
        return by_prov, shut, ports, no_name

    def _draft_centers(self, d: Draft) -> set[str]:
        """The supply centers: every home (neutral ones included) and every owned center."""
        scs = {h for lst in self.homes.values() for h in lst}
        scs |= {c for p, lst in self.centers.items() if p in self.homes for c in lst}
        for c in scs:
            if c in d.provinces:
                d.provinces[c].supply_center = True

        return scs

    def _draft_adjacency(self, d: Draft, by_prov: dict[str, list[str]]
                         ) -> dict[tuple[str, str, str], tuple[tuple[str, ...], Ref]]:
        """Adjacency, unit kind by unit kind, as diplomacy.engine.map.Map._abuts decides it.
        Answers the edges restricted to the owners of some centers."""
        restricted: dict[tuple[str, str, str], tuple[tuple[str, ...], Ref]] = {}
        for loc in self.locs:
            typ = self.loc_type[loc]
            up = loc.upper()
            army_here = "/" not in loc and typ in ARMY_TYPES
            fleet_here = typ in FLEET_TYPES and up.lower() not in self.loc_abut
            for dest, ref in self.loc_abut.get(loc, []):
                dup = dest.upper()
                dprov = dup.split("/")[0]
                if dprov not in by_prov:
                    raise fail(ref, f"unknown place {dest!r} in the list of {loc}"
                               + did_you_mean(dprov, by_prov),
                               "declare it (with its terrain) or correct the abbreviation")
                dtype = self._area(dup) or self._area(dprov)
                if dtype == "SHUT" or typ == "SHUT":
                    continue
                owners = self.owners_only.get((loc, dest))
                if army_here and dtype != "WATER" and dest != dest.title():
                    d.army.setdefault((up, dprov), ref)
                    if owners:
                        restricted[("A", up, dprov)] = owners
                if (fleet_here and dest[0] == dup[0] and dtype != "LAND"
                        and dup in self.loc_type):
                    d.fleet.setdefault((up, dup), ref)
                    if owners:
                        restricted[("F", up, dup)] = owners
        return restricted

    def _draft_powers(self, d: Draft) -> None:
        """The playing powers (those with homes), their homes, centers and units checked."""
        players = [p for p in self.pow_name if p in self.homes]
        for key in players:
            ref = self.pow_ref[key]
            homes = list(dict.fromkeys(self.homes[key]))
            centers = list(dict.fromkeys(self.centers[key] if key in self.owns else homes))
            written = self.pow_name[key]
            adj = self.own_word.get(key, written)
            pw = DraftPower(key=written, name=_display_name(written), ref=ref,
                            adjective=_display_name(adj) if adj != written else "",
                            letter=self.abbrev.get(key, ""), homes=homes,
                            units=[u for u, _ in self.units.get(key, [])], centers=centers,
                            neutral=key in self.dummies)
            for h in homes + centers:
                if h not in d.provinces:
                    hint = ""
                    close = did_you_mean(written.upper(), KEYWORDS)
                    if close and key not in self.units:
                        hint = f"; is {written!r} a misspelt keyword{close}"
                    raise fail(ref, f"{written}: unknown province {h!r}"
                               + did_you_mean(h, d.provinces) + hint)
            for u, uref in self.units.get(key, []):
                if u[2:].split("/")[0] not in d.provinces:
                    raise fail(uref, f"unit {u!r} stands on an unknown province"
                               + did_you_mean(u[2:].split("/")[0], d.provinces))
            d.powers.append(pw)


    def _draft_rules(self, d: Draft, notes: list[str]) -> None:
        """The start phase, the victory count and the DPjudge RULEs polydip maps."""
        if self.phase:
            d.start = self.phase[0]
        if self.victory:
            counts, ref = self.victory
            if len(set(counts)) > 1:
                raise unsupported(ref, "a VICTORY condition that changes from year to year",
                                  " ".join(map(str, counts)))
            d.victory = counts[0]
        for word, ref in self.rules:
            if word not in RULES:
                raise unsupported(ref, f"RULE {word}",
                                  "the DPjudge rules polydip maps are "
                                  + ", ".join(sorted(RULES)))
            rname, params = RULES[word]
            d.rules[rname] = dict(params)
            notes.append(f"RULE {word} ({ref}) became [rules.{rname}] "
                         + ", ".join(f"{k} = {v!r}" for k, v in params.items()) + ".")

    def _draft_notes(self, d: Draft, shut: list[str], ports: list[str],
                     no_name: list[str]) -> list[str]:
        """What the import changed or left out, for the variant's notes (DUMMY powers
        also switch [rules.neutral_units] on)."""
        notes: list[str] = []
        if shut:
            notes.append("Impassable (SHUT) spaces, kept with terrain 'impassable' and no "
                         f"edges: {', '.join(sorted(shut))}.")
        if ports:
            notes.append("PORT provinces (coastal, and a fleet there may convoy) have terrain "
                         f"'port': {', '.join(sorted(ports))}.")
        if self.dummies:
            names = [self.pow_name[p] for p in self.dummies if p in self.pow_name]
            d.rules.setdefault("neutral_units", {})
            notes.append("DUMMY powers (played by nobody in DPjudge, so their units hold) are "
                         "imported as neutral powers (neutral = true, with [rules.neutral_units]:"
                         " their units always hold and are disbanded when dislodged; "
                         "they neither build, remove nor win, where a DPjudge dummy in civil "
                         "disorder would remove units it cannot keep): "
                         + ", ".join(names) + ".")
        if no_name:
            notes.append("Places without a full name (named by their abbreviation): "
                         + ", ".join(sorted(no_name)) + ".")
        if self.coast_names:
            notes.append("Full names and aliases of coasts (such as 'Bulgaria (east coast) = "
                         "bul/ec') are not imported: polydip reads coasts in orders as "
                         "'BUL/EC', 'BUL (ec)', 'Bulgaria east coast' and the like.")
        if self.unclear:
            notes.append("Ambiguous aliases (marked '?', e.g. a name shared with a power) are "
                         "not imported: " + ", ".join(sorted(set(self.unclear))) + ".")
        if self.ignored:
            notes.append("Ignored, as they are not part of the game: "
                         + "; ".join(self.ignored) + ".")
        return notes

    def _owner_passages(self, d: Draft,
                        restricted: dict[tuple[str, str, str], tuple[tuple[str, ...], Ref]],
                        scs: set[str], notes: list[str]) -> None:
        """Ownership restrictions (`BLA(CON)`) as [rules.controlled_passages].

        DPjudge's map documentation: `BLA ABUTS AEG(CON,SMY)` "indicates that a unit in the
        Black Sea is adjacent to the Aegean Sea if and only if the power that owns the unit
        also owns both Constantinople and Smyrna". A controlled passage whose controllers are
        those centers says the same (an SC is controlled by its owner), as long as the edge is
        restricted both ways alike: polydip's edges, and its passages, go both ways.
        """
        groups: dict[tuple[str, ...], list[str]] = {}
        where: dict[tuple[str, ...], list[str]] = {}
        for (kind, a, b), (centers, ref) in sorted(restricted.items()):
            table = d.army if kind == "A" else d.fleet
            back = restricted.get((kind, b, a))
            if back is None and (b, a) not in table:
                continue  # a one-way adjacency: build_variant names it
            shown = f"{a} -> {b}({','.join(centers)})"
            if back is None or back[0] != centers:
                other = (f"with {b} -> {a}({','.join(back[0])})" if back
                         else f"{b} lists {a} without a restriction")
                raise unsupported(ref, f"an ownership restriction that differs by direction "
                                  f"({shown}, {other})", "restrict the adjacency both ways alike")
            for c in centers:
                if c not in scs:
                    raise fail(ref, f"{shown}: {c} is not a supply center",
                               "an ownership restriction names supply centers")
            where.setdefault(centers, []).append(f"{shown} at {ref}")
            edge = f"{a}-{b}" if a < b else f"{b}-{a}"
            if edge not in groups.setdefault(centers, []):
                groups[centers].append(edge)
        passages = []
        for centers, edges in groups.items():
            owner = ", ".join(centers)
            passages.append({"name": f"{' '.join(edges)} (owner of {owner})", "edges": edges,
                             "controllers": list(centers)})
            notes.append(
                f"Ownership restrictions ({'; '.join(where[centers])}) became [rules."
                f"controlled_passages]: {', '.join(edges)} may be crossed only by units of the "
                f"power that owns {owner} at the start of the turn (DPjudge: the unit's power "
                "must own the centers). As in DPjudge, the restriction governs moves, supports "
                "and retreats across the edge, not the chain of fleets of a convoy.")
        d.rules["controlled_passages"] = {"passage": passages}

    # ---- coordinates and colours from the diplomacy package's SVG maps -------------------

    def _svg(self, d: Draft) -> None:
        root = self.root_map or self.top.stem
        svg = self.top.parent / "svg" / f"{root}.svg"
        if not svg.is_file():
            d.notes.append("No coordinates: the map file has none (the renderer needs 'coords' "
                           "for every province to draw it).")
            return
        text = svg.read_text(encoding="utf-8", errors="replace")
        found = 0
        for m in re.finditer(r'<jdipNS:PROVINCE\s+name="([^"]+)"\s*>\s*<jdipNS:UNIT\s+'
                             r'x="([-\d.]+)"\s+y="([-\d.]+)"', text):
            name, x, y = m.group(1).upper(), float(m.group(2)), float(m.group(3))
            prov, _, coast = name.partition("-")
            p = d.provinces.get(prov)
            if p is None:
                continue
            if coast:
                if coast in p.coasts:
                    p.coast_coords[coast] = (x, y)
            else:
                p.coords = (x, y)
                found += 1
        for m in re.finditer(r'<jdipNS:POWERCOLOR\s+power="([^"]+)"\s+color="([^"]+)"', text):
            key, color = norm_power(m.group(1)), m.group(2).strip()
            color = _CSS.get(color.lower(), color)
            if not re.fullmatch(r"#[0-9a-fA-F]{6}", color):
                continue
            for pw in d.powers:
                if norm_power(pw.key) == key:
                    pw.color = color
        missing = [a for a, p in d.provinces.items() if p.coords is None]
        d.coords = "xy"
        d.notes.append(f"Coordinates ([x, y], y down) and power colours come from the unit "
                       f"positions of {svg.name}, the diplomacy package's SVG map "
                       f"({found} provinces" + (f"; none for {', '.join(sorted(missing))}"
                                                if missing else "") + ").")
