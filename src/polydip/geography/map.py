"""Compile a Variant into a Map: integer ids, adjacency per unit kind, name lookup.

Locations: ids 0..n_prov-1 are the provinces themselves; each named coast of a province gets
one more id after them. Armies (non-coastal kinds) always stand on the province location;
fleets (coastal kinds) stand on a coast location in a multi-coast province and on the province
location elsewhere. Everything here is plain lists and tuples indexed by these ids: this is
what the adjudicator reads in its hot loops.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from polydip.errors import VariantError, did_you_mean
from polydip.geography.cache import MapCaches
from polydip.names import build_index, lookup, name_key
from polydip.variants.model import DEFAULT_COASTS, Province, Variant

if TYPE_CHECKING:
    from polydip.rules.base import RuleSet
    from polydip.rules.tables import RuleTables


class Map:
    """A compiled variant map (immutable after construction)."""

    def __reduce__(self) -> tuple:
        """Pickled by reference, as the compile step that made it says (`compiled_by`:
        polydip.compile's `map_ref`/`map_of`): a built-in variant by its name, any other as
        its variant (plain data) under a digest, compiled once per process where it is read.
        A compiled (mypyc) Map has no pickle of its own, and its caches (`caches`: order
        table, layouts) are made again as they are needed rather than sent (the host's
        drawing process, Ray)."""
        if self.compiled_by is None:
            raise TypeError("a Map made without polydip.compile.compile_map is not pickled")
        return self.compiled_by(self)

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        v = variant
        self.powers: list[str] = [p.name for p in v.powers]
        self.power_letters: list[str] = [p.letter for p in v.powers]
        self.power_neutral: list[bool] = [p.neutral for p in v.powers]
        self.kinds: list[str] = list(v.unit_kinds)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.kind_coastal = [v.unit_kinds[k].coastal for k in self.kinds]
        self.kind_convoyed = [v.unit_kinds[k].convoyed for k in self.kinds]
        self.kind_convoys = [v.unit_kinds[k].convoys for k in self.kinds]
        self.kind_names = [v.unit_kinds[k].name for k in self.kinds]

        provs = list(v.provinces.values())
        self.n_prov = len(provs)
        self.prov_abbr = [p.abbr for p in provs]
        self.prov_name = [p.name for p in provs]
        self.prov_index = {a: i for i, a in enumerate(self.prov_abbr)}
        self.is_sc = [p.supply_center is not None for p in provs]
        self.sc_kind = [p.supply_center for p in provs]
        self.sc_value = [p.center_value if p.supply_center else 0 for p in provs]
        self.sc_list = [i for i, x in enumerate(self.is_sc) if x]
        self.prov_terrain = [p.terrain for p in provs]
        self.convoy_prov = [v.terrains[p.terrain].convoy for p in provs]

        # the steps below fill these (declared here, typed, for the compiled class)
        self.loc_name: list[str]
        self.loc_prov: list[int]
        self.loc_coast: list[str | None]
        self.prov_coast_locs: list[tuple[int, ...]]
        self.n_loc: int
        self.loc_index: dict[str, int]
        self.coast_words: list[_CoastWords | None]
        self.occupy: list[list[bool]]
        self.prov_neighbours: list[set[int]]
        self.adj: list[list[tuple[int, ...]]]
        self.adj_set: list[list[frozenset[int]]]
        self.move_locs: list[list[tuple[int, ...]]]
        self.move_locs_set: list[list[frozenset[int]]]
        self.reach_prov: list[list[frozenset[int]]]
        self.convoy_touch: list[tuple[int, ...]]
        self.convoy_touch_set: list[frozenset[int]]
        self.convoy_shore: list[tuple[int, ...]]
        self.occupy_mask: list[int]
        self.convoy_touch_mask: list[int]
        self.convoy_shore_mask: list[int]
        self._locations(provs)
        self._coast_words(provs)
        self._who_may_stand_where(provs)
        adj_sets = self._adjacency()
        self._moves(adj_sets)
        self._convoy_geometry(adj_sets)

        self._check_powers()
        self.homes: list[tuple[int, ...]] = [
            tuple(self.prov_index[h] for h in p.homes) for p in v.powers
        ]
        # every name a power is known by (name, adjective, aliases; letters apart)
        self.power_index = build_index(
            (i, [p.name, p.adjective, *p.aliases]) for i, p in enumerate(v.powers))
        self.names = self._build_names()
        # what the layers above derive from the map, filled lazily (geography/cache.py)
        self.caches = MapCaches()
        # centers worth more than one (a capital counting twice)
        self.has_center_values = any(v != 1 for v, sc in zip(self.sc_value, self.is_sc,
                                                             strict=True) if sc)
        # what the variant's rules make of this map: set by the compile step above both
        # geography and rules (polydip.compile.compile_map), which is also what a pickled
        # Map is compiled again through (compiled_by gives its pickle: see __reduce__)
        self.rules: RuleSet
        self.tables: RuleTables
        self.compiled_by: Callable[[Map], tuple] | None = None

    def _locations(self, provs: list[Province]) -> None:
        """Locations: the provinces, then one id per named coast."""
        self.loc_name = list(self.prov_abbr)
        self.loc_prov = list(range(self.n_prov))
        self.loc_coast = [None] * self.n_prov
        self.prov_coast_locs = []
        for i, p in enumerate(provs):
            ids = []
            for c in p.coasts:
                ids.append(len(self.loc_name))
                self.loc_name.append(f"{p.abbr}/{c}")
                self.loc_prov.append(i)
                self.loc_coast.append(c)
            self.prov_coast_locs.append(tuple(ids))
        self.n_loc = len(self.loc_name)
        self.loc_index = {n: i for i, n in enumerate(self.loc_name)}

    def _coast_words(self, provs: list[Province]) -> None:
        """The words each coast may be written with (coast_loc reads them)."""
        v = self.variant
        self.coast_words = [None] * self.n_loc
        for i, p in enumerate(provs):
            for loc in self.prov_coast_locs[i]:
                c = self.loc_coast[loc] or ""
                known = v.coasts.get(c) or DEFAULT_COASTS.get(c)
                name = p.coast_names.get(c) or (known.name if known else "")
                aliases = known.aliases if known and not p.coast_names.get(c) else ()
                self.coast_words[loc] = _CoastWords(c, name, aliases,
                                                    tuple(p.coast_aliases.get(c, ())))

    def _who_may_stand_where(self, provs: list[Province]) -> None:
        """Who may stand where: the terrain's kinds, a coastal kind on each coast."""
        v = self.variant
        self.occupy = [[False] * self.n_loc for _ in range(len(self.kinds))]
        for k, letter in enumerate(self.kinds):
            for i, p in enumerate(provs):
                if letter not in v.terrains[p.terrain].occupy:
                    continue
                if self.kind_coastal[k] and self.prov_coast_locs[i]:
                    for loc in self.prov_coast_locs[i]:
                        self.occupy[k][loc] = True
                else:
                    self.occupy[k][i] = True

    def _adjacency(self) -> list[list[set[int]]]:
        """Adjacency per unit kind (also the provinces' neighbours); narrows `occupy`."""
        v = self.variant
        nk = len(self.kinds)
        adj_sets: list[list[set[int]]] = [[set() for _ in range(self.n_loc)] for _ in range(nk)]
        self.prov_neighbours = [set() for _ in range(self.n_prov)]
        for e in v.edges:
            la = self._edge_loc(e.a, e.key)
            lb = self._edge_loc(e.b, e.key)
            pa, pb = self.loc_prov[la], self.loc_prov[lb]
            if not v.edge_kinds[e.kind].units:
                continue  # a border marker (a mountain border, a river no unit sails yet)
            self.prov_neighbours[pa].add(pb)
            self.prov_neighbours[pb].add(pa)
            for letter in v.edge_kinds[e.kind].units:
                k = self.kind_index[letter]
                if self.kind_coastal[k]:
                    a, b = la, lb
                else:
                    a, b = pa, pb
                adj_sets[k][a].add(b)
                adj_sets[k][b].add(a)
        # a coastal kind (fleet) stands only where it has an edge to move along: a "land"
        # terrain that admits fleets (a variant where coastal and inland land share one
        # terrain) still keeps fleets out of provinces without a coast
        for k in range(nk):
            if self.kind_coastal[k]:
                for loc in range(self.n_loc):
                    if self.occupy[k][loc] and not adj_sets[k][loc]:
                        self.occupy[k][loc] = False
        return adj_sets

    def _moves(self, adj_sets: list[list[set[int]]]) -> None:
        """Where each kind may move and reach, from the adjacency (`adj_sets` is narrowed to
        the places a unit may stand on, the convoy geometry reads it after)."""
        nk = len(self.kinds)
        # no unit moves to where it may not stand; an edge there still counts for convoys
        # (a convoy lands armies on a glacier no fleet may enter)
        for k in range(nk):
            for loc in range(self.n_loc):
                adj_sets[k][loc] = {x for x in adj_sets[k][loc] if self.occupy[k][x]}
        self.adj = [[tuple(sorted(s)) for s in per_kind] for per_kind in adj_sets]
        self.adj_set = [[frozenset(s) for s in per_kind] for per_kind in adj_sets]
        # locations a unit of kind k on loc can move to over an edge: adjacent, and a place
        # it may stand on
        self.move_locs = [
            [tuple(d for d in self.adj[k][loc] if self.occupy[k][d]) for loc in range(self.n_loc)]
            for k in range(nk)
        ]
        self.move_locs_set = [[frozenset(x) for x in per_kind] for per_kind in self.move_locs]
        # provinces a unit of kind k on loc can move into (for support: coasts do not matter)
        self.reach_prov = [
            [frozenset(self.loc_prov[x] for x in s if self.occupy[k][x]) for s in per_kind]
            for k, per_kind in enumerate(adj_sets)
        ]

    def _convoy_geometry(self, adj_sets: list[list[set[int]]]) -> None:
        """Convoy geometry: convoy provinces next to each province (by any convoying kind),
        and the shores an army may be convoyed to from each."""
        nk = len(self.kinds)
        convoy_kinds = [k for k in range(nk) if self.kind_convoys[k]]
        touch: list[set[int]] = [set() for _ in range(self.n_prov)]
        for k in convoy_kinds:
            for loc in range(self.n_loc):
                pv = self.loc_prov[loc]
                for other in adj_sets[k][loc]:
                    q = self.loc_prov[other]
                    if self.convoy_prov[q]:
                        touch[pv].add(q)
        self.convoy_touch = [tuple(sorted(s)) for s in touch]
        self.convoy_touch_set = [frozenset(s) for s in touch]
        shore: list[set[int]] = [set() for _ in range(self.n_prov)]
        convoyed = [k for k in range(nk) if self.kind_convoyed[k]]
        for pv in range(self.n_prov):
            # an army may land in pv: a coast, or a port (a convoy province armies stand in)
            if not self.convoy_prov[pv] or any(self.occupy[k][pv] for k in convoyed):
                for q in touch[pv]:
                    if q != pv:
                        shore[q].add(pv)
        # provinces an army may be convoyed to from each convoy province
        self.convoy_shore = [tuple(sorted(s)) for s in shore]
        # the same two as int bit masks of provinces (adjudication/convoy.py), and the
        # provinces (not coasts) each kind may stand in
        self.occupy_mask = [
            _mask({pv for pv in range(self.n_prov) if self.occupy[k][pv]}) for k in range(nk)]
        self.convoy_touch_mask = [_mask(s) for s in touch]
        self.convoy_shore_mask = [_mask(s) for s in shore]

    def _check_powers(self) -> None:
        """Every province a power names as a home or center exists."""
        for pw in self.variant.powers:
            for what in ("homes", "centers"):
                for h in getattr(pw, what):
                    if h not in self.prov_index:
                        raise self._fail(f"powers.{pw.name}.{what}", f"unknown province {h!r}"
                                         + did_you_mean(h, self.prov_abbr), f'"{h}"')

    def _edge_loc(self, name: str, key: str) -> int:
        loc = self.loc_index.get(name)
        if loc is None:
            raise self._fail(key, f"unknown place {name!r}"
                             + did_you_mean(name, self.loc_name), name)
        return loc

    def _fail(self, key: str, msg: str, needle: str) -> VariantError:
        line = self.variant.line_of(needle)
        where = f" line {line}:" if line else ""
        return VariantError(f"{self.variant.path}:{where} [{key}] {msg}")

    def _build_names(self) -> dict[str, int]:
        return build_index((i, [p.abbr, p.name, *p.aliases])
                           for i, p in enumerate(self.variant.provinces.values()))

    # ---- lookups used at the edges -------------------------------------------------------

    def find_power(self, name: str) -> int | None:
        """The power a typed name means: its name, adjective, an alias ("US", "Brasil") or
        its letter; None when none."""
        key = name_key(name)
        got = self.power_index.get(key)
        if got is None:
            got = lookup(self.power_index, key.split()) if key else None
        if got is None and len(key) == 1:
            for i, letter in enumerate(self.power_letters):
                if letter.lower() == key:
                    return i
        return got

    def power_of(self, name: str) -> int:
        got = self.find_power(name)
        if got is None:
            raise KeyError(name)
        return got

    def find_place(self, text: str) -> int | None:
        """The province a typed name means ("Bogotá", "W Caribbean", "La Guajira")."""
        key = name_key(text)
        got = self.names.get(key)
        return got if got is not None or not key else lookup(self.names, key.split())

    def loc_of(self, text: str) -> int:
        """Location id of "STP/SC", "stp", "St Petersburg"... (KeyError when unknown)."""
        t = text.strip()
        if "/" in t:
            prov, coast = t.split("/", 1)
            p = self.find_place(prov)
            if p is None:
                raise KeyError(prov)
            return self.coast_loc(p, coast)
        p = self.find_place(t)
        if p is None:
            raise KeyError(t)
        return p

    def coast_loc(self, prov: int, coast: str) -> int:
        """The coast of `prov` that `coast` designates: its abbreviation ("NC", "nb"), its
        name ("north coast", "(lake shore)"), an alias ("ncs"), or any shortening of the
        name's words in order ("n", "north", "nwb" for "north-west bank", "sec" and "rib"
        for "sea coast" and "river bank"). KeyError when none or more than one coast fits."""
        locs = self.prov_coast_locs[prov]
        text = _coast_text(coast)
        if not locs or not text:
            raise KeyError(f"{self.prov_abbr[prov]}/{coast}")
        exact = [loc for loc in locs if self.coast_words[loc].exact(text)]  # type: ignore
        if len(exact) == 1:
            return exact[0]
        fits = [loc for loc in locs if self.coast_words[loc].shortens(text)]  # type: ignore
        if len(fits) == 1:
            return fits[0]
        raise KeyError(f"{self.prov_abbr[prov]}/{coast}")

    def reads_as_coast(self, prov: int, coast: str, exact: bool = False) -> bool:
        """Whether `coast` designates one coast of `prov` (exact: its abbreviation, name or
        alias, not a shortening)."""
        text = _coast_text(coast)
        if exact:  # (as written bare after the place: not the province's own coast words)
            return sum(self.coast_words[loc].exact(text, bare=True)  # type: ignore
                       for loc in self.prov_coast_locs[prov]) == 1
        try:
            self.coast_loc(prov, coast)
        except KeyError:
            return False
        return True

    def unit_loc(self, kind: int, loc: int) -> int:
        """Where a unit of `kind` named at `loc` stands; -1 if the coast is needed/ambiguous."""
        if not self.kind_coastal[kind]:
            return self.loc_prov[loc]
        coasts = self.prov_coast_locs[self.loc_prov[loc]]
        if coasts and loc < self.n_prov:
            return -1
        return loc

    @property
    def army(self) -> int:
        """Kind index of the first convoyable kind (the standard army)."""
        return self.kind_convoyed.index(True)

    def distances(self, sources: list[int]) -> list[int]:
        """Province distances from any of `sources` over all edges (-1 if unreachable)."""
        return list(_bfs(self, tuple(sorted(set(sources)))))

    def unit_str(self, kind: int, loc: int) -> str:
        return f"{self.kinds[kind]} {self.loc_name[loc]}"


def _mask(provinces: set[int]) -> int:
    out = 0
    for p in provinces:
        out |= 1 << p
    return out


_BRACKETS = re.compile(r"[()\[\]{}/]")
_SEPARATORS = re.compile(r"[\s\-_.]+")


def _coast_text(text: str) -> str:
    """A typed coast designation folded for matching: lower case, no brackets, one space."""
    return " ".join(_SEPARATORS.split(_BRACKETS.sub(" ", text.lower()))).strip()


class _CoastWords:
    """The designations one coast answers to."""

    __slots__ = ("bare_forms", "exact_forms", "words")

    def __init__(self, abbr: str, name: str, aliases: tuple[str, ...],
                 own: tuple[str, ...] = ()) -> None:
        forms = {abbr.lower(), *(_coast_text(a) for a in aliases)}
        if name:
            forms.add(_coast_text(name))
        self.bare_forms = {f.replace(" ", "") for f in forms if f}
        # the province's own words ("Pacific", "Gulf"), only in brackets or after a slash:
        # written bare after the place they could be the next place's name
        self.exact_forms = self.bare_forms | {_coast_text(a).replace(" ", "") for a in own}
        self.words = _coast_text(name).split() if name else []

    def exact(self, text: str, bare: bool = False) -> bool:
        return text.replace(" ", "") in (self.bare_forms if bare else self.exact_forms)

    def shortens(self, text: str) -> bool:
        """`text` is a prefix of the name's first word followed by prefixes of the next
        words, in order, each at least one letter: "n", "nor", "nb", "north b", "nwb" (for
        "north-west bank"), "rib" (for "river bank")."""
        if self.exact(text):
            return True
        return bool(self.words) and _shortens(text.replace(" ", ""), self.words)


_DEFAULT_WORDS = [_CoastWords(c.abbr, c.name, c.aliases) for c in DEFAULT_COASTS.values()]


def default_coast_word(text: str) -> bool:
    """Whether `text` reads as one of the coasts every variant knows ("nc", "south")."""
    t = _coast_text(text)
    return bool(t) and any(w.shortens(t) for w in _DEFAULT_WORDS)


def _shortens(s: str, words: list[str]) -> bool:
    if not s:
        return True
    if not words:
        return False
    w = words[0]
    # take 1..len(w) letters of this word (the first word must give at least one)
    for n in range(min(len(w), len(s)), 0, -1):
        if s[:n] == w[:n] and _shortens(s[n:], words[1:]):
            return True
    return False


@lru_cache(maxsize=4096)
def _bfs(m: Map, sources: tuple[int, ...]) -> tuple[int, ...]:
    dist = [-1] * m.n_prov
    q = deque(sources)
    for s in sources:
        dist[s] = 0
    while q:
        p = q.popleft()
        for n in m.prov_neighbours[p]:
            if dist[n] < 0:
                dist[n] = dist[p] + 1
                q.append(n)
    return tuple(dist)


# the key typed place names are matched on (kept under its older name for importers)
normalize_name = name_key

