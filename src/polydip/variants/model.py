"""The Variant: plain data read from a variant file, before it is compiled into a Map."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, Final, Literal, Required, TypedDict

if TYPE_CHECKING:
    from polydip.state import PhaseType

# the phases a season of a variant's calendar has, as its file names them, and their letters
PhaseKind = Literal["movement", "retreats", "adjustments"]
PHASE_TYPES: Final[dict[PhaseKind, PhaseType]] = {"movement": "M", "retreats": "R",
                                                  "adjustments": "A"}


# the tables of a variant file, as read from TOML (docs/variant-format.md), where a default
# stands for them below
class UnitKindTable(TypedDict, total=False):
    name: Required[str]
    coastal: bool
    convoyed: bool
    convoys: bool


class TerrainTable(TypedDict, total=False):
    occupy: Required[list[str]]
    convoy: bool


class EdgeKindTable(TypedDict):
    units: list[str]


class SeasonTable(TypedDict, total=False):
    name: Required[str]
    abbr: Required[str]
    phases: Required[list[PhaseKind]]
    title: str
    combined: bool


class CalendarTable(TypedDict):
    start: str
    centers_change_after: str
    seasons: list[SeasonTable]


# what a variant file leaves out: the standard game's unit kinds, terrains, edges, calendar
DEFAULT_UNIT_KINDS: dict[str, UnitKindTable] = {
    "A": {"name": "army", "convoyed": True},
    "F": {"name": "fleet", "coastal": True, "convoys": True},
}
DEFAULT_TERRAINS: dict[str, TerrainTable] = {
    "land": {"occupy": ["A"]},
    "coast": {"occupy": ["A", "F"]},
    "sea": {"occupy": ["F"], "convoy": True},
}
DEFAULT_EDGE_KINDS: dict[str, EdgeKindTable] = {"land": {"units": ["A"]},
                                                "sea": {"units": ["F"]}}
DEFAULT_CALENDAR: CalendarTable = {
    "start": "S1901M",
    "centers_change_after": "F",
    "seasons": [
        {"name": "Spring", "abbr": "S", "phases": ["movement", "retreats"]},
        {"name": "Fall", "abbr": "F", "phases": ["movement", "retreats"]},
        {"name": "Winter", "abbr": "W", "phases": ["adjustments"]},
    ],
}


@dataclass(frozen=True, slots=True)
class UnitKind:
    letter: str
    name: str
    coastal: bool = False  # stands on a named coast of a multi-coast province
    convoyed: bool = False  # may be carried by convoy (armies)
    convoys: bool = False  # may convoy others when on a convoy terrain (fleets)


@dataclass(frozen=True, slots=True)
class Terrain:
    name: str
    occupy: frozenset[str]  # unit kind letters that may stand here
    convoy: bool = False  # a fleet here may convoy armies


@dataclass(frozen=True, slots=True)
class EdgeKind:
    name: str
    units: frozenset[str]  # unit kind letters that may cross; none: a border marker


@dataclass(slots=True)
class Power:
    name: str
    letter: str
    adjective: str
    color: str
    homes: list[str]
    units: list[str]
    centers: list[str]
    neutral: bool = False  # no player: its units always hold (rules/neutral_units.py)
    aliases: list[str] = field(default_factory=list)  # other names players use ("US", "UK")
    territory: list[str] = field(default_factory=list)  # provinces it holds at the start


@dataclass(slots=True)
class Province:
    abbr: str
    name: str
    terrain: str
    supply_center: str | None = None  # None, or a kind: "center", "home", "capital", ...
    center_value: int = 1  # what the center counts for (a capital may count 2)
    coasts: list[str] = field(default_factory=list)
    coast_names: dict[str, str] = field(default_factory=dict)  # this province's own words
    # further words for one coast of this province, as its rules text and players write them
    # ("Pacific", "Caribbean coast")
    coast_aliases: dict[str, list[str]] = field(default_factory=dict)
    tags: list[str] = field(default_factory=list)  # classes rule modules select provinces by
    aliases: list[str] = field(default_factory=list)
    coords: tuple[float, float] | None = None
    coast_coords: dict[str, tuple[float, float]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CoastName:
    """What a coast abbreviation stands for: the words players may write for it."""

    abbr: str  # "NC"
    name: str  # "north coast"
    aliases: tuple[str, ...] = ()  # further spellings ("ncs")


# the coast words every variant knows; a variant's [coasts] table adds or overrides
DEFAULT_COASTS = {
    "NC": CoastName("NC", "north coast", ("ncs",)),
    "SC": CoastName("SC", "south coast", ("scs",)),
    "EC": CoastName("EC", "east coast", ("ecs",)),
    "WC": CoastName("WC", "west coast", ("wcs",)),
}


@dataclass(frozen=True, slots=True)
class Edge:
    kind: str
    a: str  # "PRO" or "PRO/COAST"
    b: str
    key: str = ""  # where it was declared, for error messages


@dataclass(frozen=True, slots=True)
class Season:
    name: str
    abbr: str
    phases: tuple[PhaseKind, ...]
    # how the rules text names the season's phases in reports, after the year: "A Phase
    # (March-June)" gives "1891 A Phase (March-June) Movement" ("" = the name: "Spring
    # 1901 Movement")
    title: str = ""
    # the season's retreats and adjustments are one phase to the players ("D: Second Retreat
    # (/Build/Disband) Phase"): builds are ordered with the retreats and carried out right
    # after them (game/combined.py); only a season whose phases are retreats, adjustments
    combined: bool = False


@dataclass(slots=True)
class Calendar:
    start: str
    seasons: list[Season]
    centers_change_after: str  # season abbreviation


@dataclass(slots=True)
class Victory:
    centers: int  # owning this many centers wins
    last_year: int | None = None  # the game ends after this year ...
    last_year_result: str = "draw"  # ... as a draw, or won by "most_centers"
    more_than_others: bool = False  # the winner must also own more than any other power
    check: str = "after_update"  # when: after centers change owner | "start_of_season"
    check_season: str = ""  # with check = "start_of_season": that season's abbreviation
    no_change_years: int | None = None  # draw when no center changed owner for N years
    draw: str = "any"  # who shares a declared draw: "any" powers named, or "all" survivors
    presets: dict[str, dict] = field(default_factory=dict)  # named alternatives (options)


@dataclass(slots=True)
class Variant:
    name: str
    title: str
    version: str
    designer: str
    source: str
    notes: str
    coords: str  # "latlon" or "xy"
    unit_kinds: dict[str, UnitKind]
    terrains: dict[str, Terrain]
    edge_kinds: dict[str, EdgeKind]
    powers: list[Power]
    provinces: dict[str, Province]
    edges: list[Edge]
    calendar: Calendar
    victory: Victory
    options: dict[str, Any]
    rules: dict[str, dict[str, Any]]
    declared: dict[str, int] = field(default_factory=dict)  # counts the file claims
    coasts: dict[str, CoastName] = field(default_factory=dict)  # [coasts] (DEFAULT_COASTS)
    path: str = ""  # the file it was read from
    text: str = ""  # the file's text, to find line numbers for messages
    # the Map compiled from this variant (geography.map.compile_map): kept here, it lives as
    # long as the variant and no longer; not an argument, not compared, copied or pickled
    compiled: Any = field(default=None, init=False, repr=False, compare=False)

    def __getstate__(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "compiled"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for k, val in state.items():
            object.__setattr__(self, k, val)
        self.compiled = None

    def center_total(self) -> int:
        """All supply centers counted by their value (a capital worth 2 counts twice)."""
        return sum(p.center_value for p in self.provinces.values() if p.supply_center)

    def power(self, name: str) -> Power:
        for p in self.powers:
            if p.name.lower() == name.lower() or p.letter.lower() == name.lower():
                return p
        raise KeyError(name)

    def line_of(self, needle: str) -> int | None:
        """Best-effort line number of the first line containing `needle`."""
        if not self.text or not needle:
            return None
        for i, line in enumerate(self.text.splitlines(), 1):
            if needle in line:
                return i
        return None
