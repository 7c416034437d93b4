"""Names as players type them: accents, punctuation, abbreviations, articles, misspellings.

A typed name is matched on a *key*: lower case, accents removed ("Bogotá" = "Bogota",
"Québec" = "Quebec", "São Paulo" = "Sao Paulo"), punctuation folded ("U.S." = "US",
"W. Caribbean" = "W Caribbean"). On top of the names and aliases a variant declares, a
place is also known by

- its name without a trailing generic word ("West Caribbean" for "West Caribbean Sea"),
  when no other place shares that shorter form;
- common abbreviations of its words, typed in place of the word ("W Caribbean", "Sta Fe",
  "St Petersburg", "Mt Hood"); a compass word for its adjective and back ("W Caribbean" and
  "West Caribbean" for "Western Caribbean");
- its name after a leading article ("La Guajira" for "Guajira", "the North Sea").

Misspelled names get suggestions from whole names and from their single words, so
"Carribean" suggests the seas whose names contain "Caribbean".
"""

from __future__ import annotations

import difflib
import functools
import unicodedata
from collections.abc import Iterable

# words players abbreviate, as typed → as written in full
ABBREVIATIONS = {
    "n": "north", "s": "south", "e": "east", "w": "west",
    "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest",
    "no": "north", "so": "south",
    "st": "saint", "ste": "sainte", "sta": "santa", "sto": "santo",
    "mt": "mount", "mtn": "mountain", "mts": "mountains", "ft": "fort", "pt": "port",
    "is": "island", "isl": "island", "isls": "islands", "g": "gulf", "b": "bay",
    "c": "cape", "cp": "cape", "r": "river", "l": "lake", "lk": "lake",
    "oc": "ocean", "atl": "atlantic", "pac": "pacific", "carib": "caribbean",
}
# "Saint" is also written "St", "San", "Santo": a typed "St" may stand for any of them
_SAINTS = ("saint", "san", "santo", "santa", "sao")
# trailing words a name is often typed without
GENERIC_TAILS = {"sea", "ocean", "gulf", "bay", "channel", "strait", "straits", "sound",
                 "gulfs", "bays", "channels", "sounds", "seas",
                 "islands", "island", "lake", "city", "coast", "basin", "trench", "passage",
                 "province", "territory", "state"}
# "W Caribbean" for "Western Caribbean", "West Caribbean" for "Western Caribbean Sea"
_COMPASS = {"north": "northern", "south": "southern", "east": "eastern", "west": "western",
            "northeast": "northeastern", "northwest": "northwestern",
            "southeast": "southeastern", "southwest": "southwestern"}
_COMPASS_BACK = {v: k for k, v in _COMPASS.items()}
ARTICLES = {"the", "la", "el", "los", "las", "le", "les", "lo", "il", "o", "os", "as", "de"}


def fold_accents(text: str) -> str:
    """'São Paulo' → 'Sao Paulo'; letters without a plain form are kept."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def name_key(name: str) -> str:
    """The key a typed name is matched on: lower case, no accents, punctuation folded."""
    s = fold_accents(name).lower()
    for ch in "'’`´":
        s = s.replace(ch, "")
    for ch in ".-_/,;:()[]":
        s = s.replace(ch, " ")
    return " ".join(_join_initials(s.split()))


def _join_initials(words: list[str]) -> list[str]:
    """'u s a' → 'usa': initials written with dots ("U.S.A.") are one word."""
    out: list[str] = []
    run = ""
    for w in words:
        if len(w) == 1 and w.isalpha():
            run += w
            continue
        if run:
            out.append(run)
            run = ""
        out.append(w)
    if run:
        out.append(run)
    return out


def expansions(words: list[str]) -> list[list[str]]:
    """The word lists a typed name may stand for: abbreviations written out (each "st"
    tried as every form of "saint"), without a leading article, and, last, without a
    generic last word the variant's name does not have ("Mexico City" for "Mexico").

    A one-letter abbreviation counts only before another word ("W Caribbean"): at the end
    of a run it is an order word ("A BER B" builds in Berlin)."""
    options: list[list[str]] = [[]]
    last = len(words) - 1
    for i, w in enumerate(words):
        full = ABBREVIATIONS.get(w)
        choices = [w]
        if full is not None and (len(w) > 1 or i < last):
            choices.append(full)
        if w == "st":
            choices += [s for s in _SAINTS if s not in choices]
        for c in list(choices):  # a compass word also stands for its adjective, and back
            other = _COMPASS.get(c) or _COMPASS_BACK.get(c)
            if other is not None and other not in choices:
                choices.append(other)
        options = [o + [c] for o in options for c in choices][:64]
    out = list(options)
    for o in options:
        if len(o) > 1 and o[0] in ARTICLES:
            out.append(o[1:])
    for o in list(out):  # "Straits of Florida" for "Florida Strait"
        if len(o) > 2 and o[1] == "of" and o[0] in GENERIC_TAILS:
            out.append([*o[2:], o[0]])
    for o in list(out):  # "Florida Straits" for "Florida Strait", "Canary Island(s)"
        if len(o) > 1 and o[-1] in GENERIC_TAILS:
            tail = o[-1]
            out.append([*o[:-1], tail[:-1] if tail.endswith("s") else tail + "s"])
    if len(words) > 1 and words[-1] in GENERIC_TAILS:
        out += [o[:-1] for o in list(out)]
    return out


def derived_forms(name: str) -> list[str]:
    """Further keys a place name is known by: the name without a generic last word."""
    words = name_key(name).split()
    out = []
    if len(words) > 1 and words[-1] in GENERIC_TAILS:
        out.append(" ".join(words[:-1]))
    if len(words) > 1 and words[0] in ARTICLES:
        out.append(" ".join(words[1:]))
    return out


def build_index(entries: Iterable[tuple[int, list[str]]]) -> dict[str, int]:
    """Key → id for every name (exact keys first), then the derived forms that only one id
    has (a shorter form two places share would be a guess: it is left out)."""
    index: dict[str, int] = {}
    derived: dict[str, set[int]] = {}
    entries = list(entries)
    for i, names in entries:
        for n in names:
            if n:
                index.setdefault(name_key(n), i)
    for i, names in entries:
        for n in names:
            for d in derived_forms(n) if n else ():
                derived.setdefault(d, set()).add(i)
    for d, ids in derived.items():
        if len(ids) == 1 and d not in index:
            index[d] = next(iter(ids))
    return index


def lookup(index: dict[str, int], words: list[str]) -> int | None:
    """The id the typed words name, or None."""
    key = " ".join(words)
    got = index.get(key)
    if got is not None:
        return got
    for option in expansions(words):
        got = index.get(" ".join(option))
        if got is not None:
            return got
    return None


def suggest(typed: str, names: Iterable[str], n: int = 4) -> list[str]:
    """Names close to `typed`, best first: by the whole name, or by one word of it
    ("Carribean" → the places whose names contain "Caribbean").

    Kept per typed word and list of names (a message repeats its misspellings), and each
    comparison's cheap upper bounds are tried first: a pair that could not score enough is
    not matched letter by letter (the same answers; a message of hundreds of misspelled
    lines once cost seconds)."""
    return list(_suggest(typed, tuple(names), n))


_MIN_SCORE = 0.72  # what a name must score to be suggested


@functools.lru_cache(maxsize=2048)
def _suggest(typed: str, names: tuple[str, ...], n: int) -> tuple[str, ...]:
    key = name_key(typed)
    if not key:
        return ()
    typed_words = [w for w in key.split() if len(w) >= 4]
    letters = len(key.replace(" ", ""))
    # a word of the name matched counts as much as the share of what was typed it covers:
    # near * weight - 0.02; it can reach _MIN_SCORE only from `need` up (a need past 1: never)
    needs = []
    for tw in typed_words:
        wt = (len(tw) / letters) ** 0.5
        need = (_MIN_SCORE + 0.02) / wt
        if need <= 1.0:
            needs.append((tw, wt, need))
    scored: dict[str, float] = {}
    for name, k, long_words in _name_keys(names):
        score = _ratio_at_least(key, k, _MIN_SCORE)
        for w in long_words:
            for tw, wt, need in needs:
                near = _ratio_at_least(tw, w, need)
                score = max(score, near * wt - 0.02)
        if score >= _MIN_SCORE and score > scored.get(name, 0):
            scored[name] = score
    best = sorted(scored, key=lambda x: (-scored[x], x))
    if not best:
        return ()
    top = scored[best[0]]
    return tuple([b for b in best if scored[b] >= top - 0.12][:n])


@functools.lru_cache(maxsize=64)
def _name_keys(names: tuple[str, ...]) -> tuple[tuple[str, str, tuple[str, ...]], ...]:
    """Each name with its key and the key's words of four letters or more."""
    out = []
    for name in names:
        k = name_key(name)
        out.append((name, k, tuple(w for w in k.split() if len(w) >= 4)))
    return tuple(out)


def _ratio_at_least(a: str, b: str, floor: float) -> float:
    """difflib's ratio of a and b when it may reach `floor`; 0.0 when its upper bounds
    say it cannot (they never undercut it, so nothing that would pass is lost)."""
    sm = difflib.SequenceMatcher(None, a, b)
    if sm.real_quick_ratio() < floor or sm.quick_ratio() < floor:
        return 0.0
    return sm.ratio()


def possessive(name: str) -> str:
    """"France's", "Confederate States'" (a name ending in s takes the apostrophe alone)."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def or_list(names: list[str]) -> str:
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " or " + names[-1]
