"""What a variant file from someone else (an upload to the host) may hold, checked before work.

A variant read in untrusted mode (`load_variant(..., sandbox=True)`,
`load_variant_text(..., untrusted=True)`) is read from its own text only: it includes no
other file (DPjudge `USE`/`MAP`, Parlance `base=` are refused), no search path is consulted,
and every error names the upload's file name and line, never a server path. Its size is
bounded by the limits below, checked before (TOML nesting, characters) or while (counts)
it is read, so that no upload costs more than a large variant does. The limits are
documented in docs/variant-format.md and docs/host.md; the biggest built-in variant, The
Twentieth Century, has 360 provinces, 1,164 edges, 13 powers and 78 units.

Names (of provinces, coasts, powers, the variant) hold no control characters in any mode:
a NUL breaks PostgreSQL, a line break in a name breaks every order text and report.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from pathlib import PurePath
from typing import Any, Final

from polydip.errors import VariantError

MAX_TEXT: Final = 2_000_000  # characters of the file
MAX_PROVINCES: Final = 1_000
MAX_PLACES: Final = 3_000  # provinces and their coasts (DPjudge/Parlance declarations)
MAX_EDGES: Final = 5_000
MAX_POWERS: Final = 40
MAX_UNITS: Final = 1_000  # starting units of all powers
MAX_NAME: Final = 100  # characters of a name, abbreviation or alias
MAX_STRING: Final = 100_000  # characters of any other string (notes)
MAX_DEPTH: Final = 16  # nesting of TOML tables and arrays
MAX_ENTRIES: Final = 10_000  # entries of one TOML table or array
MAX_LINES: Final = 10_000  # lines of a .map/.cfg file that say something
MAX_WORDS: Final = 1_000  # words of one .map/.cfg line
MAX_MAP_WORDS: Final = 100_000  # words of a .map file (the diplomacy package's largest: 3,779)
MAX_ALIASES: Final = 100  # names of one place in a .map file
MAX_SEASON_ABBR: Final = 4  # characters of a season's abbreviation (a phase: S1901M)
MAX_START: Final = 12  # characters of the first phase's name (season, year, phase letter)

LIMITS: Final = {
    "characters of the file": MAX_TEXT, "provinces": MAX_PROVINCES,
    "places (provinces and coasts)": MAX_PLACES, "edges": MAX_EDGES, "powers": MAX_POWERS,
    "starting units": MAX_UNITS, "characters of a name": MAX_NAME,
    "characters of another string": MAX_STRING, "levels of TOML nesting": MAX_DEPTH,
    "entries of a TOML table or array": MAX_ENTRIES, "lines of a .map/.cfg file": MAX_LINES,
    "words of a .map/.cfg line": MAX_WORDS, "words of a .map file": MAX_MAP_WORDS,
    "names of one place in a .map file": MAX_ALIASES,
    "characters of a season's abbreviation": MAX_SEASON_ABBR,
    "characters of the first phase's name": MAX_START,
}

# characters no uploaded text may hold: controls but tab and line ends, Unicode's line and
# paragraph separators (str.splitlines would count lines differently), lone surrogates (a
# NUL breaks PostgreSQL; a surrogate cannot be written as UTF-8)
_BAD_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")
# the TOML tokens that matter to nesting: strings and comments (skipped), brackets. A string
# left open runs to the end of its line (of the text, for a multi-line one), so that the scan
# stays linear: it never starts again inside a string it could not close.
_TOML_TOKEN = re.compile(r'"""(?:\\.|\\\Z|[^\\])*?(?:"""|\Z)|\'\'\'.*?(?:\'\'\'|\Z)'
                         r'|"(?:\\[^\n]|[^"\\\n])*+(?:"|[^\n]*)'
                         r"|'[^'\n]*+(?:'|$)|#[^\n]*|[\[\]{}]", re.DOTALL | re.MULTILINE)


def shown_name(filename: str, default: str = "upload") -> str:
    """The name an upload is called by in messages: its base name, printable, short."""
    base = PurePath(str(filename).replace("\\", "/")).name
    base = "".join(c for c in base if c.isprintable())[:80]
    return base or default


def line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def check_text(text: str, shown: str) -> None:
    """The file's size and characters, before anything reads it."""
    if len(text) > MAX_TEXT:
        raise VariantError(f"{shown}: {len(text):,} characters; an uploaded variant file has "
                           f"at most {MAX_TEXT:,}")
    m = _BAD_TEXT.search(text)
    if m:
        raise VariantError(f"{shown}:{line_at(text, m.start())}: a control character "
                           f"(U+{ord(m.group()):04X}); a variant file is text")


def check_toml_depth(text: str, shown: str, limit: int = MAX_DEPTH) -> None:
    """Refuse TOML whose arrays and inline tables nest deeper than `limit`, before tomllib
    reads it (tomllib recurses once per level and would exhaust Python's stack)."""
    depth = 0
    for m in _TOML_TOKEN.finditer(text):
        tok = m.group()
        if tok in ("[", "{"):
            depth += 1
            if depth > limit:
                raise VariantError(f"{shown}:{line_at(text, m.start())}: nested more than "
                                   f"{limit} levels deep")
        elif tok in ("]", "}"):
            depth = max(depth - 1, 0)


def check_tree(data: Any, shown: str, untrusted: bool) -> None:
    """The parsed TOML, walked without recursion: nesting (dotted keys nest too), entries
    and string lengths (`untrusted`), and no control character but tab and line breaks in
    any string or key."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, key, depth = stack.pop()
        if isinstance(value, str):
            _check_string(value, key, shown, untrusted, MAX_STRING)
            continue
        if not isinstance(value, dict | list):
            continue
        if untrusted:
            if depth > MAX_DEPTH:
                raise VariantError(f"{shown}: [{key[:200]}] nested more than {MAX_DEPTH} "
                                   "levels deep")
            if len(value) > MAX_ENTRIES:
                raise VariantError(f"{shown}: [{key[:200]}] has {len(value):,} entries (at "
                                   f"most {MAX_ENTRIES:,})")
        if isinstance(value, dict):
            for k, v in value.items():
                sub = f"{key}.{k}" if key else k
                _check_string(k, sub, shown, untrusted, MAX_NAME, key_name=True)
                stack.append((v, sub, depth + 1))
        else:
            for i, v in enumerate(value):
                stack.append((v, f"{key}[{i}]", depth + 1))


def _check_string(s: str, key: str, shown: str, untrusted: bool, limit: int,
                  key_name: bool = False) -> None:
    what = "key" if key_name else "string"
    if untrusted and len(s) > limit:
        raise VariantError(f"{shown}: [{_short(key)}] a {what} of {len(s):,} characters (at "
                           f"most {limit:,})")
    bad = next((c for c in s if unicodedata.category(c) in ("Cc", "Cs")
                and (key_name or c not in "\t\n\r")), None) if not s.isprintable() else None
    if bad is not None:
        raise VariantError(f"{shown}: [{_short(key)}] a control character (U+{ord(bad):04X}) "
                           f"in a {what}")


def _short(key: str) -> str:
    return key if len(key) <= 120 else key[:117] + "..."


def name_problem(name: str, untrusted: bool) -> str | None:
    """Why `name` cannot name a place, a power or a variant (None: it can)."""
    if untrusted and len(name) > MAX_NAME:
        return f"a name of {len(name):,} characters (at most {MAX_NAME})"
    if not name.isprintable():
        bad = next((c for c in name if unicodedata.category(c) in _NOT_IN_NAMES), None)
        if bad is not None:
            return f"a control character (U+{ord(bad):04X}) in a name"
    return None


_NOT_IN_NAMES: Final = ("Cc", "Cs", "Zl", "Zp")  # controls, lone surrogates, line breaks


def check_counts(counts: Iterable[tuple[str, int, int]], shown: str) -> None:
    """(what, how many, the limit) each: refuse the first count beyond its limit."""
    for what, n, limit in counts:
        if n > limit:
            raise VariantError(f"{shown}: {n:,} {what}; an uploaded variant has at most "
                               f"{limit:,}")
