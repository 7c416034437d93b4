"""Build The Twentieth Century (1933) on DPjudge's Imperial: the built-in `twentieth_century`.

    python3 tools/make_twentieth_century.py           # write the variant file
    python3 tools/make_twentieth_century.py --check   # exit 1 if the file is not what this writes

Roberts's The Twentieth Century (seed 003) gives its rules, its 13 powers' 78 starting units
and some map facts, but no map. Its map grew out of his earlier Imperial (1861), whose data
DPjudge publishes (tests/data/importers/imperial/, imported as is by polydip's DPjudge
importer). This script takes that map and applies, one documented step at a time, the 1933
changes the seed states or implies; every step is one of the decisions listed in the notes
of the file it writes (src/polydip/variants/data/twentieth_century.toml), which is generated:
change this script, not the file.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from polydip.check import check_variant
from polydip.variants.importers import import_variant
from polydip.variants.loader import parse_variant
from polydip.variants.model import Edge, EdgeKind, Power, Province, Terrain, Variant, Victory
from polydip.variants.writer import variant_to_toml

ROOT = Path(__file__).resolve().parent.parent
IMPERIAL = ROOT / "tests" / "data" / "importers" / "imperial" / "imperial.map"
OUT = ROOT / "src" / "polydip" / "variants" / "data" / "twentieth_century.toml"


# ---- the map under construction -------------------------------------------------------------

class Board:
    """Provinces and edges as plain data, edited step by step."""

    def __init__(self) -> None:
        v = import_variant(IMPERIAL)
        self.prov: dict[str, Province] = {a: p for a, p in v.provinces.items()}
        for p in self.prov.values():
            p.aliases = []  # DPjudge's are mostly the standard map's (BUR for Metz, ...)
        self.sc: set[str] = {a for a, p in self.prov.items() if p.supply_center}
        self.edges: set[tuple[str, str, str]] = set()
        for e in v.edges:
            self.link(e.kind, e.a, e.b)

    # locations are "ABC" or "ABC/NC"
    @staticmethod
    def _p(loc: str) -> str:
        return loc.split("/")[0]

    def link(self, kind: str, a: str, b: str) -> None:
        for loc in (a, b):
            prov, _, coast = loc.partition("/")
            assert prov in self.prov, f"unknown province {prov}"
            assert not coast or coast in self.prov[prov].coasts, f"unknown coast {loc}"
        self.edges.add((kind, *sorted((a, b))))

    def unlink(self, a: str, b: str) -> None:
        """Remove every edge between provinces a and b (any kind, any coast)."""
        gone = {e for e in self.edges if {self._p(e[1]), self._p(e[2])} == {a, b}}
        assert gone, f"no edge {a}-{b}"
        self.edges -= gone

    def isolate(self, a: str) -> None:
        self.edges = {e for e in self.edges if a not in (self._p(e[1]), self._p(e[2]))}

    def remove(self, a: str) -> None:
        self.isolate(a)
        del self.prov[a]
        self.sc.discard(a)

    def add(self, abbr: str, name: str, terrain: str, aliases: list[str] | None = None) -> None:
        assert abbr not in self.prov, abbr
        self.prov[abbr] = Province(abbr=abbr, name=name, terrain=terrain,
                                   aliases=list(aliases or []))

    def _relabel(self, fn: Callable[[str], str]) -> None:
        new = set()
        for kind, a, b in self.edges:
            a, b = fn(a), fn(b)
            if a != b:
                new.add((kind, *sorted((a, b))))
        self.edges = new

    def rename(self, old: str, new: str, name: str = "", aliases: list[str] | None = None
               ) -> None:
        assert new not in self.prov, new
        p = self.prov.pop(old)
        p.abbr = new
        if name:
            p.name = name
        p.aliases = list(aliases or [])
        self.prov[new] = p
        if old in self.sc:
            self.sc.discard(old)
            self.sc.add(new)
        self._relabel(lambda x: new + x[len(old):] if self._p(x) == old else x)

    def rename_coast(self, prov: str, old: str, new: str) -> None:
        p = self.prov[prov]
        p.coasts = [new if c == old else c for c in p.coasts]
        self._relabel(lambda x: f"{prov}/{new}" if x == f"{prov}/{old}" else x)

    def one_coast(self, prov: str) -> None:
        """A province whose coasts become one: fleets there reach every sea it touches."""
        self.prov[prov].coasts = []
        self._relabel(lambda x: prov if self._p(x) == prov else x)

    def merge(self, src: str, dst: str) -> None:
        """`src` becomes part of `dst` (one coast): its edges are dst's."""
        self.prov[src].coasts = []
        self._relabel(lambda x: dst if self._p(x) == src else x)
        del self.prov[src]
        self.sc.discard(src)

    def bridge(self, a: str, b: str) -> None:
        """A land bridge: armies and fleets cross (an edge of kind `bridge`)."""
        self.edges = {e for e in self.edges if {self._p(e[1]), self._p(e[2])} != {a, b}}
        self.link("bridge", a, b)


def links(board: Board, kind: str, a: str, others: str) -> None:
    for b in others.split():
        board.link(kind, a, b)


# ---- the 1933 changes (numbers refer to the decisions in NOTES) ------------------------------

RENAMES = [  # old, new abbreviation, name, aliases    (decision 2)
    ("VAN", "VNC", "Vancouver", []),  # TC's VAN is Van; VNC is vDiplomacy's Imperial2 code
    ("MIN", "MNN", "Minnesota", []),  # TC's MIN is Mindanao
    ("TAS", "TSM", "Tasman Sea", ["Tasman"]),  # TC's TAS is Tashkent
    ("TIR", "TRS", "Tiris", []),  # TC's TIR is Tirana
    ("ANT", "ATC", "Antarctica", []),  # TC's ANT is Antalya
    ("ONT", "TOR", "Toronto", ["Ontario"]),
    ("QUE", "QBC", "Quebec", []),
    ("CTN", "CAP", "Cape Town", ["Cape Colony"]),
    ("HKO", "HK", "Hong Kong", []),
    ("SIN", "SG", "Singapore", []),
    ("NSW", "SYD", "Sydney", ["New South Wales"]),
    ("WDC", "WAS", "Washington DC", ["Washington"]),
    ("NYC", "NYO", "New York", []),
    ("CHC", "SLO", "St. Louis", ["Saint Louis", "Chicago"]),
    ("SFO", "SFR", "San Francisco", ["California"]),
    ("MND", "MIN", "Mindanao", []),
    ("SYR", "DAM", "Damascus", ["Syria"]),
    ("TNK", "HAN", "Hanoi", ["Tonkin"]),
    ("CCH", "SAI", "Saigon", ["Cochin", "Cochinchina"]),
    ("STP", "LEN", "Leningrad", ["St Petersburg", "Saint Petersburg", "Petrograd"]),
    ("TSH", "TAS", "Tashkent", []),
    ("EDO", "TOK", "Tokyo", ["Edo"]),
    ("KAG", "KG", "Kagoshima", []),
    ("FOR", "TA", "Taiwan", ["Formosa"]),
    ("MAC", "HAR", "Harbin", ["Manchuria", "Manchukuo"]),
    ("TRP", "TRI", "Tripoli", ["Tripolitania"]),
    ("SOM", "MOG", "Mogadishu", ["Somalia", "Somaliland"]),
    ("KIE", "BRE", "Bremen", ["Kiel"]),
    ("SIL", "DRE", "Dresden", ["Saxony", "Silesia"]),
    ("ARM", "VAN", "Van", ["Armenia"]),
    ("DUB", "IRE", "Ireland", ["Dublin", "Irish Free State"]),
    ("MDS", "KAR", "Karnataka", ["Madras", "Carnatic"]),
]

NAMES = {  # Imperial spaces that keep their abbreviation; the name TC uses (decision 2)
    "BAN": ("Bandar Abbas", []),  # DPjudge's "Bangalore" is a mislabel: it is on the Gulf
    "KUR": ("Kuril Trench", ["Kuril"]),
    "TAM": ("Florida Channel", ["Tampa", "Straits of Florida", "Florida Straits",
                                "Florida Strait"]),
    "WCA": ("Western Caribbean", ["Caribbean", "Caribbean Sea", "Western Carribean"]),
    "ECA": ("Eastern Caribbean", ["Eastern Carribean"]),
    "NET": ("Northeast Trades", ["North East Trades"]),
    "SET": ("Southeast Trades", ["South East Trades"]),
    "TIM": ("Timor Sea", ["Timor"]),
    "SAR": ("Sargasso Sea", ["Sargasso"]),
    "ECO": ("Equatorial Countercurrent", ["Equatorial Counter Current"]),
    "EIN": ("East Indian", ["East Indian Ocean"]),
    "STU": ("Stuttgart", ["Stutt."]),
    "MHL": ("Marshall Islands", ["Marshalls", "Marshal Islands"]),
    "CRL": ("Caroline Islands", ["Carolines"]),
    "SAK": ("Sakhalin", ["Sakhurlin"]),
    "BIS": ("Bismarck", ["Bismark"]),
    "PHI": ("Philippine Sea", ["Philippine"]),
    "KSE": ("Kiribati Sea", ["Kirbati Sea"]),
}

# Imperial's land bridges that the seed's list leaves out (decision 9)
DROPPED_BRIDGES = ["VIC-VNC", "VIC-SEA", "DET-MNN", "NSC-QBC", "ATL-BAH", "BAH-CUB",
                   "GIB-MRC", "SAK-VLA", "CYP-DAM"]
# the seed's land bridges (TC names), each an edge of kind "bridge" (decision 8)
BRIDGES = ["IRE-GLA", "SIC-SAL", "DEN-NWY", "DEN-SWE", "KAR-CEY", "SG-MAL", "KG-TOK",
           "TOK-SAP", "LUZ-MIN", "CUB-HAI"]

# the seed's island chains (decision 6); Luzon/Mindanao and Cuba/Haiti are large ones
ISLAND_CHAINS = ["HAW", "CRL", "MHL", "FIJ", "NZL", "EID", "SEY", "MLD", "AZO",
                 "LUZ", "MIN", "CUB", "HAI"]

# straits and canals (decision 10): the seas each one joins, as an edge of kind "canal"
CANALS = {"Bremen": ("BRE", "HEL-BAL"), "Ankara": ("ANK", "BLA-AEG"),
          "Cairo": ("CAI", "AEG-RSE"), "Panama": ("PAN", "WCA-GOP")}
# the names players use for them (issue 27: "Suez, Suez Canal, Panama Canal, the Straits,
# Bosporus"); Bremen's passage is the Kiel Canal's
CANAL_ALIASES = {"Bremen": ["Kiel Canal"],
                 "Ankara": ["Bosporus", "Bosphorus", "Straits", "Turkish Straits",
                            "Dardanelles"],
                 "Cairo": ["Suez", "Suez Canal"], "Panama": ["Panama Canal"]}

# Imperial supply centers that are not 1933 centers (decision 12), by the 1933 country a
# TC power's home center stands in
NOT_CENTERS = {
    "Canada (Quebec, Toronto)": "NSC VNC VIC ALB YUK",
    "the Union of South Africa (Cape Town)": "TRN",
    "British India (Delhi, Bombay)": "KAR BEN KRC KAS AMN RNG BRM",
    "Australia (Sydney)": "PER QNL",
    "the United States (Washington DC, New York, St. Louis, New Orleans, San Francisco)":
        "ATL AUS RIC DET ORE KAN NEB NME OKL SEA",
    "France (Nantes, Paris, Marseilles)": "CRS",
    "French West Africa (Conakry)": "IVC",
    "French Indochina (Hanoi, Saigon)": "CMB",
    "the Soviet Union": "GEO BKU KHV",
    "Korea (Seoul)": "FSN",
    "Italy (Rome, Salerno, Sicily)": "VEN PIE",
    "Germany (Bremen, Berlin, Dresden, Stuttgart)": "PRU RUH BAV",
    "Brazil (Brasilia, Recife, Rio de Janeiro)": "OLI",
}

POWERS = [  # name, letter, adjective, colour, the seed's starting units (decision 1)
    ("Britain", "B", "British", "#d23c3c",
     "F LON, A EDI, F GLA, F QBC, A TOR, A CAI, A CAP, A DEL, F BOM, F HK, A SG, A SYD"),
    ("USA", "U", "American", "#3a5fcd",
     "A WAS, F NYO, A SLO, F NOL, A SFR, A ANC, F HAW, A PAN, A LUZ, F MIN"),
    ("France", "F", "French", "#6cc3e8",
     "A NAN, A PAR, F MAR, A CON, A DAM, F MAD, A HAN, F SAI, F FIJ"),
    ("USSR", "R", "Soviet", "#8e44ad",
     "F LEN/WC, A MOS, F SEV, A ORN, A OMS, A TAS, A IRK, A VLA, A KAM"),
    ("Japan", "J", "Japanese", "#f1948a", "A TOK, F SAP, F KG, A OKI, F TA, A SEO, A HAR"),
    ("Italy", "I", "Italian", "#58d68d", "F ROM, A SAL, A SIC, A TIR, F TRI, A MOG"),
    ("Germany", "G", "German", "#5d6d7e", "F BRE, A BER, A DRE, A STU"),
    ("Turkey", "T", "Turkish", "#a0522d", "A ANK, A ANT, F ORD, A VAN"),
    ("China", "C", "Chinese", "#f4d03f", "A NNJ, A SHA, A HEF, A WUH"),
    ("Columbia", "O", "Colombian", "#17a589", "F CRT, A BUV, A BOG, A MIT"),
    ("Persia", "P", "Persian", "#e59866", "A TEH, A ESF, F BAN"),
    ("Mexico", "X", "Mexican", "#7e5109", "A MAZ, A MEX, F MER"),
    ("Brazil", "Z", "Brazilian", "#1e8449", "A BRA, A REC, F RDJ"),
]


# the names players write for the powers (issue 27): the usual spellings of the seed's
POWER_ALIASES = {
    "Britain": ["Great Britain", "GB", "UK", "United Kingdom", "England", "British Empire"],
    "USA": ["US", "United States", "United States of America", "America"],
    "USSR": ["Soviet Union", "Russia", "Soviets", "CCCP"],
    "Italy": ["Italia"],
    "Columbia": ["Colombia"],
    "Persia": ["Iran"],
    "Mexico": ["México"],
    "Brazil": ["Brasil"],
    "Turkey": ["Türkiye"],
}
# the words players write for the Central American coasts (which sea each touches)
COAST_ALIASES = {
    prov: {"EC": ["Caribbean", "Caribbean coast", "Caribbean side", "Atlantic", "Atlantic coast"],
           "WC": ["Pacific", "Pacific coast", "Pacific side"]}
    for prov in ("GTM", "HON")
}


def build(b: Board) -> None:
    # 1. Constantinople is folded into Ankara; CON becomes Conakry (decision 3)
    b.remove("CON")
    for old, new, name, aliases in RENAMES:
        b.rename(old, new, name, aliases)
    b.rename("SIE", "CON", "Conakry", ["Sierra Leone", "French Guinea"])
    for abbr, (name, aliases) in NAMES.items():
        b.prov[abbr].name, b.prov[abbr].aliases = name, list(aliases)

    # coasts (decision 5)
    b.rename_coast("LEN", "SC", "WC")  # the seed's F Leningrad[wc], on the Gulf of Finland
    for prov in ("ROM", "BRE", "CAI", "PAN"):
        b.one_coast(prov)

    # seas merged (decision 4)
    b.merge("EAS", "AEG")
    b.prov["AEG"].aliases = ["Aegean", "Eastern Mediterranean"]
    b.merge("ASE", "BBE")
    b.prov["BBE"].aliases = ["Andaman Sea"]

    # Anatolia: Ankara (with Constantinople), Antalya, Ordu (decision 3)
    b.isolate("ANG")
    b.rename("ANG", "ANK", "Ankara", ["Angora", "Constantinople", "Istanbul"])
    b.one_coast("ANK")
    b.add("ANT", "Antalya", "coast")
    b.add("ORD", "Ordu", "coast")
    links(b, "land", "ANK", "SOF ANT ORD VAN")
    links(b, "sea", "ANK", "BLA AEG SOF/SC SOF/EC ORD ANT")
    links(b, "land", "ANT", "VAN DAM")
    links(b, "sea", "ANT", "AEG DAM/WC")
    links(b, "land", "ORD", "VAN BKU")
    links(b, "sea", "ORD", "BLA BKU/WC")

    # East Indies: Sumatra and Java (decision 6)
    b.add("EID", "East Indies", "coast", ["Sumatra", "Java", "Dutch East Indies"])
    b.merge("SUM", "EID")
    b.merge("JAV", "EID")
    b.sc.add("EID")

    # Caribbean: the Virgin Islands go, Haiti reaches the Northeast Trades (decision 7)
    b.remove("VIS")
    b.link("sea", "HAI", "NET")

    # Colombia: Bogota, Cartagena, Buenaventura (decision 3)
    b.remove("BGT")
    b.add("BOG", "Bogata", "land", ["Bogota", "Bogotá"])
    b.add("CRT", "Cartenega", "coast", ["Cartagena"])
    b.add("BUV", "Buenaventura", "coast", [])
    links(b, "land", "BOG", "CRT BUV MIT BRC CLB")
    links(b, "land", "CRT", "CLB PAN BUV")
    links(b, "sea", "CRT", "CLB ECA WCA PAN")
    links(b, "land", "BUV", "LIM PAN")
    links(b, "sea", "BUV", "LIM GOP PAN")

    # Britain: Glasgow out of Edinburgh, with the Irish land bridge (decision 3)
    b.add("GLA", "Glasgow", "coast", ["Clyde"])
    b.unlink("IRE", "EDI")
    links(b, "land", "GLA", "EDI LON")
    links(b, "sea", "GLA", "NPS EDI LON")

    # Tirana (Albania), on the Adriatic between Bosnia and Greece (decision 3)
    b.add("TIR", "Tirana", "coast", ["Albania"])
    links(b, "land", "TIR", "BOS GRE")
    links(b, "sea", "TIR", "ADR ION BOS/WC GRE")
    b.edges -= {("sea", "BOS/WC", "GRE"), ("sea", "ADR", "GRE")}

    # Nanjing (Jiangsu, on the Yellow Sea) and Hefei (Anhui) (decision 3)
    b.add("NNJ", "Nanjing", "coast", ["Nanking", "Jiangsu"])
    b.add("HEF", "Hefei", "land", ["Anhui"])
    b.unlink("SHA", "PEK")
    links(b, "land", "NNJ", "SHA HEF PEK")
    links(b, "sea", "NNJ", "SHA YSE PEK")
    links(b, "land", "HEF", "SHA WUH PEK")

    # Esfahan, central Persia (decision 3)
    b.add("ESF", "Esfahan", "land", ["Isfahan"])
    links(b, "land", "ESF", "TEH BAN TBR BAG")

    # land bridges (decisions 8, 9)
    for pair in DROPPED_BRIDGES:
        b.unlink(*pair.split("-"))
    for pair in BRIDGES:
        b.bridge(*pair.split("-"))

    # straits and canals (decision 10)
    for _name, (_prov, pair) in CANALS.items():
        x, y = pair.split("-")
        b.edges -= {("sea", *sorted((x, y)))}
        b.link("canal", x, y)

    # terrain (decision 6): Imperial's PORT spaces are coasts; the seed's chains are chains
    for p in b.prov.values():
        if p.terrain == "port":
            p.terrain = "coast"
    for abbr in ISLAND_CHAINS:
        b.prov[abbr].terrain = "island_chain"

    # supply centers (decision 12)
    for provs in NOT_CENTERS.values():
        for abbr in provs.split():
            assert abbr in b.sc, abbr
            b.sc.discard(abbr)
    for _name, _letter, _adj, _color, units in POWERS:
        for u in units.split(", "):
            b.sc.add(u.split()[1].split("/")[0])


def variant(b: Board) -> str:
    missing = sorted(set(b.prov) - set(COORDS))
    extra = sorted(set(COORDS) - set(b.prov))
    assert not missing and not extra, (missing, extra)
    provinces = {}
    for abbr in sorted(b.prov):
        p = b.prov[abbr]
        p.supply_center = "center" if abbr in b.sc else None
        p.coords = COORDS[abbr]
        p.coast_coords = {c: COAST_COORDS[f"{abbr}/{c}"] for c in p.coasts}
        p.coast_aliases = dict(COAST_ALIASES.get(abbr, {}))
        provinces[abbr] = p
    edges = [Edge(k, a, c) for k, a, c in sorted(b.edges, key=lambda e: (EDGE_ORDER[e[0]], e))]
    powers = []
    for name, letter, adj, color, units in POWERS:
        lst = units.split(", ")
        homes = [u.split()[1].split("/")[0] for u in lst]
        powers.append(Power(name, letter, adj, color, homes, lst, list(homes),
                            aliases=list(POWER_ALIASES.get(name, []))))
    base = import_variant(IMPERIAL)
    terrains = {
        "land": Terrain("land", frozenset({"A"})),
        "coast": Terrain("coast", frozenset({"A", "F"})),
        "island_chain": Terrain("island_chain", frozenset({"A", "F"})),
        "sea": Terrain("sea", frozenset({"F"}), convoy=True),
        "impassable": Terrain("impassable", frozenset()),
    }
    edge_kinds = {"land": EdgeKind("land", frozenset({"A"})),
                  "sea": EdgeKind("sea", frozenset({"F"})),
                  "bridge": EdgeKind("bridge", frozenset({"A", "F"})),
                  "canal": EdgeKind("canal", frozenset({"F"}))}
    base.calendar.start = "S1933M"
    rules = {"controlled_passages": {"passage": [
        {"name": name, "aliases": CANAL_ALIASES[name], "edges": [pair], "controllers": [prov]}
        for name, (prov, pair) in CANALS.items()]}}
    n_sc = len(b.sc)
    v = Variant(
        name="twentieth_century", title="The Twentieth Century", version="1",
        designer="Michael David Roberts",
        source=("The Twentieth Century rules page (seed 003_8d3a6505e057ee1c: rules, 78 "
                "starting units, map clarifications); map reconstructed on Roberts's Imperial "
                "as DPjudge publishes it (imperial.map and the files it uses)"),
        notes=NOTES.strip("\n").format(n_prov=len(provinces), n_sc=n_sc,
                                        n_edges=len(edges)),
        coords="latlon", unit_kinds=base.unit_kinds, terrains=terrains,
        edge_kinds=edge_kinds, powers=powers, provinces=provinces, edges=edges,
        calendar=base.calendar,
        victory=Victory(centers=74, check="start_of_season", check_season="F"),
        options={}, rules=rules,
        declared={"supply_centers": n_sc, "provinces": len(provinces)},
    )
    text = variant_to_toml(v)
    # the passages as an array of tables, one per canal, for a reader's sake
    head, _, tail = text.partition("[rules.controlled_passages]\n")
    assert tail.startswith("passage = [") and tail.count("\n") == 1, "rules are last"
    blocks = [f'[[rules.controlled_passages.passage]]   # the seed: "Straits & Canals"\n'
              f'name = "{name}"\naliases = {json.dumps(CANAL_ALIASES[name], ensure_ascii=False)}\n'
              f'edges = ["{pair}"]\ncontrollers = ["{prov}"]\n'
              for name, (prov, pair) in CANALS.items()]
    text = head + "\n".join(blocks)
    assert parse_variant(text).rules == rules
    return HEADER + text.split("\n", 1)[1]


EDGE_ORDER = {"land": 0, "sea": 1, "bridge": 2, "canal": 3}

HEADER = """\
# The Twentieth Century (1933), Michael David Roberts: 13 powers, 78 starting units.
#
# THE MAP IS RECONSTRUCTED. The rules page (the seed) gives the rules, the starting units and
# some map facts; no map data survives. The map here is Roberts's earlier Imperial (1861), as
# DPjudge publishes it, changed as the seed states or implies. [variant].notes say what is
# Imperial's, what the seed says, and list every decision. This file is GENERATED by
# tools/make_twentieth_century.py from tests/data/importers/imperial/: edit the script.
# Format: docs/variant-format.md.
"""

NOTES = """
WHAT IS WHOSE. The seed (Roberts's rules page for The Twentieth Century) gives: the rules (Standard
Diplomacy; Spring 1933 start; victory at 74 centers at the beginning of a Fall turn), the 13
powers and their 78 starting units with names and abbreviations, the island chains, large island
chains, straits and canals, land bridges and wraparound seas, each with an example. It gives no
map. The map is Roberts's Imperial (1861, 356 spaces, 172 centers) as DPjudge's imperial.map
publishes it (copied into tests/data/importers/imperial/ and imported as is): every province,
edge and name not named below is Imperial's. The seed's rules and examples all hold on Imperial
except where a decision below changes the map for them.
Result: {n_prov} provinces, {n_edges} edges, {n_sc} supply centers.

POWERS. The seed's table has 13 powers (Britain 12 units, USA 10, France 9, USSR 9, Japan 7,
Italy 6, Germany 4, Turkey 4, China 4, Columbia 4, Persia 3, Mexico 3, Brazil 3 = 78); the seeds'
README says 14, which the seed itself never says: 13 it is. Each power's home centers are the
provinces its starting units stand on, and it owns them at the start. Names are the seed's,
spellings included (Columbia, Cartenega, Bogata), with the usual spellings as aliases. Letters:
the initials, except USSR R (U is the USA), Columbia O (C is China), Mexico X and Brazil Z (as in
Imperial).

DECISIONS.
 1. Starting units exactly as the seed lists them, on the seed's abbreviations (HK, SG, KG, TA
    are two letters as in the seed). F Leningrad[wc] is F LEN/WC (decision 5).
 2. Names and abbreviations. The seed's abbreviations are kept; Imperial provinces that carry a
    TC unit take the seed's name and abbreviation (Ontario -> Toronto TOR, Quebec QUE -> QBC, Cape
    Town CTN -> CAP, Hong Kong HKO -> HK, Singapore SIN -> SG, New South Wales -> Sydney SYD,
    Washington D.C. WDC -> WAS, New York NYC -> NYO, Chicago CHC -> St. Louis SLO (Imperial has no
    St. Louis; its Chicago is the Midwest from Minnesota to New Orleans), San Francisco SFO -> SFR,
    Mindanao MND -> MIN, Sierra Leone SIE -> Conakry CON (French Guinea, the same stretch of coast
    north of Monrovia), Syria SYR -> Damascus DAM, Tonkin TNK -> Hanoi HAN, Cochin CCH -> Saigon
    SAI, St Petersburg STP -> Leningrad LEN, Tashkent TSH -> TAS, Edo EDO -> Tokyo TOK, Kagoshima
    KAG -> KG, Formosa FOR -> Taiwan TA, Manchuria MAC -> Harbin HAR, Tripoli TRP -> TRI, Somalia
    SOM -> Mogadishu MOG, Kiel KIE -> Bremen BRE, Silesia SIL -> Dresden DRE (Imperial has no
    Saxony; Silesia is the Prussian home between Berlin, Bavaria and Vienna), Armenia ARM -> Van
    VAN); the old names are aliases. The clashes the seed's abbreviations make with Imperial's are
    resolved in the seed's favour: Imperial's Vancouver VAN -> VNC, Minnesota MIN -> MNN, Tasman
    TAS -> TSM, Tiris TIR -> TRS, Antarctica ANT -> ATC (vDiplomacy's Imperial2 codes where it has
    one); Constantinople CON is folded into Ankara (decision 3). Seas take the names the seed uses:
    Kuril Trench (Imperial's Kuril), Florida Channel (Tampa), Northeast and Southeast Trades,
    Timor Sea, Sargasso Sea, Equatorial Countercurrent, Western Caribbean (“the Caribbean”).
    Imperial's “Bangalore” BAN is named Bandar Abbas: its neighbours (Karachi, Persian Gulf,
    Baghdad, Tabriz, Tehran, Afghanistan) are Bandar Abbas's, and the seed's Persian F Bandar Abbas
    (BAN) stands there. Dublin DUB is Ireland IRE (the seed's Ireland<->Glasgow); Madras MDS is
    Karnataka KAR (the Carnatic coast facing Ceylon: the seed's Karnataka<->Ceylon). DPjudge's
    aliases, mostly the standard map's abbreviations (BUR for Metz, NAP for Salerno), are dropped.
 3. New provinces the seed's units need, carved out of Imperial ones:
    - Glasgow GLA (coast): the west of Imperial's Edinburgh. Land Edinburgh, London; sea North
      Passage, Edinburgh, London; the land bridge to Ireland moves from Edinburgh to Glasgow.
    - Ankara ANK, Antalya ANT, Ordu ORD: Imperial's Angora (two coasts) and Constantinople become
      Ankara (Anatolia and the Straits, one coast on the Black and Aegean Seas: land Sofia,
      Antalya, Ordu, Van; sea Black Sea, Aegean, Sofia (both coasts), Ordu, Antalya), Antalya (the
      south coast: land Ankara, Van, Damascus; sea Aegean, Ankara, Damascus WC) and Ordu (the
      eastern Black Sea coast: land Ankara, Van, Baku; sea Black Sea, Ankara, Baku WC). The seed
      keys the Straits to Ankara and uses CON for Conakry: Constantinople is no longer a province.
    - Cartenega CRT (Caribbean coast), Buenaventura BUV (Pacific coast), Bogata BOG (land) replace
      Imperial's Bogota (two coasts). CRT: land Bogata, Calabozo, Panama, Buenaventura; sea
      Calabozo, Eastern and Western Caribbean, Panama. BUV: land Bogata, Lima, Panama, Cartenega;
      sea Lima, Gulf of Panama, Panama. BOG: land Cartenega, Buenaventura, Mitu, Barcelone,
      Calabozo. Mitu becomes a center (a Columbian home).
    - Tirana TIR (Albania, coast) between Bosnia and Greece: land Bosnia, Greece; sea Adriatic,
      Ionian, Bosnia WC, Greece. Greece no longer touches the Adriatic, nor Bosnia WC by sea.
    - Nanjing NNJ (Jiangsu, coast on the Yellow Sea) between Shanghai and Peking: land Shanghai,
      Hefei, Peking; sea Shanghai, Yellow Sea, Peking (Shanghai and Peking no longer border).
      Hefei HEF (Anhui, land): Nanjing, Shanghai, Wuhan, Peking.
    - Esfahan ESF (central Persia, land): Tehran, Bandar Abbas, Tabriz, Baghdad.
    Provinces that carry a TC home but were no center in Imperial become centers: Toronto,
    Damascus, Kamchatka, Mogadishu, Van, Mitu.
 4. Seas merged. The seed's example “F(Aegean Sea) to Red Sea” through Cairo needs Cairo on the
    Aegean; in Imperial Cairo touches the Eastern Mediterranean, which is merged into the Aegean
    (TC's Aegean Sea, from Greece to Egypt and Syria; alias Eastern Mediterranean). The seed's
    East Indies borders the Bay of Bengal; Imperial's Sumatra borders the Andaman Sea, which is
    merged into the Bay of Bengal (alias Andaman Sea).
 5. Coasts. Of the seed's fleets on Imperial two-coast provinces only F Leningrad[wc] names a
    coast: Imperial's St Petersburg south coast (Gulf of Finland), named WC here; Leningrad keeps
    NC. “F Rome” and “F Bremen” name none: Rome and Bremen (Imperial's two-coast Rome and Kiel)
    have one coast touching both seas, as Imperial's Salerno does. Cairo and Panama, canal
    provinces like Bremen and Ankara, also have one coast. Every other two-coast province is
    Imperial's.
 6. Island chains. The seed's nine (Hawaii, Carolines, Marshalls, Fiji, New Zealand, East Indies,
    Seychelles, Maldives, Azores) and its two large chains (Luzon/Mindanao, Cuba/Haiti) have terrain
    island_chain: coastal provinces armies and fleets occupy, one coast touching every bordering
    sea, no land neighbours but their land bridges, no edge between the seas across them. The seed
    calls them coastal provinces, so a fleet in one does not convoy (DPjudge's Imperial types them
    PORT, where a fleet does). East Indies EID is Imperial's Sumatra and Java merged (the seed:
    access to Java Sea, Timor Sea, Bay of Bengal, East Indian and Southeast Trades; a center, as
    both were). Imperial's other island chains (Galapagos, Society Islands, Bahamas, Cape Verde,
    Falklands, South Georgia, Corsica, Crete, Andaman Islands, Okinawa, Victoria, Cyprus), which
    the seed does not list, are plain coastal provinces: nothing changes for play, as no island
    chain convoys here.
 7. Cuba/Haiti. The seed: Cuba and Haiti both touch Sargasso Sea and the Caribbean; not Cuba from
    the Northeast Trades, not Haiti from the Gulf of Mexico or Florida Channel. All hold in Imperial
    except that Imperial's Virgin Islands lie between Haiti and the Northeast Trades and are bridged
    to Haiti, which the seed's bridge list does not have: the Virgin Islands are removed (their
    center with them) and Haiti touches the Northeast Trades.
 8. Land bridges, the seed's ten, are edges of kind bridge (armies and fleets): Ireland-Glasgow,
    Sicily-Salerno, Denmark-Norway, Denmark-Sweden, Karnataka-Ceylon (new; Ceylon otherwise touches
    only the Gulf of Manaar and East Indian), Singapore-Malaysia, Kagoshima-Tokyo, Tokyo-Sapporo,
    Luzon-Mindanao, Cuba-Haiti.
 9. Imperial's other land bridges are not in the seed's list and are gone: Victoria-Vancouver,
    Victoria-Seattle, Detroit-Minnesota, Nova Scotia-Quebec, Atlanta-Bahamas, Bahamas-Cuba,
    Gibraltar-Morocco, Cyprus-Angora, Cyprus-Syria, Sakhalin-Vladivostok (Haiti-Virgin Islands and
    Dublin-Edinburgh: decisions 7, 3). Those provinces are reached by sea.
10. Straits and canals: Bremen, Ankara, Cairo, Panama ([rules.controlled_passages]). Each joins two
    seas by an edge of kind canal that a fleet crosses in one move, without entering the province:
    Helgoland Bight-Baltic (Bremen), Black Sea-Aegean (Ankara; Imperial's Bosporus, open to the
    owner of Constantinople, now keyed to Ankara), Aegean-Red Sea (Cairo, the Suez Canal; new),
    Western Caribbean-Gulf of Panama (Panama, new). The passage is open to the power that owns the
    province (a center) at the start of the turn and to the powers it allows through: the game
    option passage_permissions = {{'Cairo': {{'Britain': ['Italy']}}}} is the seed's “the Britain
    player may also allow Italy F(Aegean Sea) to Red Sea”; closed to everybody else, for moves,
    supports and retreats. Any fleet may still enter the province itself and sail on next turn,
    as through Kiel: “without having to move into the canal zone first” is the owner's privilege.
    A convoy's chain of fleets may use a canal edge (DPjudge's Imperial lets it use the
    Bosporus).
11. Wraparound: the seed's six (Bering Sea, Westerlies, West Pacific, Equatorial Countercurrent,
    South Pacific, Antarctic Pacific) are Imperial's six, whose edges already join both ends of
    the map. The seed's “South Pacific” is Imperial's South West Pacific SWP (the sixth sea of
    Imperial's identical list; Imperial's South Pacific SPA lies wholly in the east and does not
    wrap); both keep Imperial's names.
12. Supply centers: 146, so that 74 is a majority, as half plus one (74 = 146/2 + 1, as 18 of 34).
    Imperial's 172 centers with TC's homes would be 187. The seed gives each power exactly as many
    homes as units, as standard Diplomacy does; a neutral center inside a great power's own 1933
    territory would be a free build. So an Imperial center in the same 1933 state, dominion or
    colony as one of a power's homes, and not itself a home, is no center: Canada (Nova Scotia,
    Vancouver, Victoria, Alberta, Yukon), the Union of South Africa (Transvaal), British India
    (Karnataka, Bengal, Karachi, Kashmir, Andaman Islands, Rangoon, Burma), Australia (Perth,
    Queensland), the United States (Atlanta, Austin, Richmond, Detroit, Oregon, Kansas, Nebraska,
    New Mexico, Oklahoma, Seattle), France (Corsica), French West Africa (Ivory Coast), French
    Indochina (Cambodia), the Soviet Union (Georgia, Baku, Khiva), Korea (Fusan), Italy (Venice,
    Piedmont), Germany (Prussia, Ruhr, Bavaria), Brazil (Oliveira): 38. With the merges
    (Constantinople, Sumatra+Java, the Virgin Islands) 41 fewer: 146. China's four homes are the
    Nanjing government's lower Yangtze; Canton, Chungking, Peking and Sinkiang, under regional
    governments in 1933, stay neutral centers. Aden stays a center: Imperial's Aden is the Yemen
    hinterland, not the settlement British India governed.
13. Victory: 74 centers at the beginning of a Fall turn ([victory] check = “start_of_season”,
    check_season = “F”: counted when a Fall movement phase begins). Builds are Standard (home
    centers only): the seed runs “entirely under Standard Diplomacy rules” (Imperial's DPjudge
    rule HOME_BUILDS is not used).

COORDINATES are real [latitude, longitude], for a board generator to grow provinces from: land at
the region's centre or the named city, seas in the middle of their water, coast_coords on each
coast. The map is a cylinder: longitudes are real (east positive), and the six wraparound seas
lie across the 180th meridian (their points within 5 degrees of it), with neighbours on both
sides.
"""

# [latitude, longitude] of each province and named coast (COORDINATES in NOTES)
COORDS: dict[str, tuple[float, float]] = {
    "AAT": (-55.0, -20.0), "ABY": (9.0, 39.0), "ACI": (78.0, -100.0), "ADE": (14.5, 45.0),
    "ADR": (43.0, 15.5), "AEG": (35.0, 28.0), "AFG": (34.0, 66.0), "AGL": (-12.0, 17.0),
    "AIN": (-50.0, 80.0), "ALA": (66.0, -153.0), "ALB": (54.0, -115.0), "ALG": (35.0, 2.0),
    "AMA": (-5.0, -63.0), "AMN": (12.0, 92.8), "ANC": (61.5, -150.0), "AND": (-30.0, -69.0),
    "ANK": (39.9, 32.9), "ANN": (15.5, 108.0), "ANT": (36.9, 30.7), "APA": (-58.0, -175.0),
    "ARA": (15.0, 62.0), "ASH": (8.5, -1.0), "ASM": (26.2, 92.9), "ASW": (24.1, 32.9),
    "ATC": (-75.0, 0.0), "ATL": (32.7, -83.4), "AUS": (31.0, -99.0), "AZO": (38.5, -28.0),
    "BAG": (33.3, 44.4), "BAH": (24.5, -77.5), "BAL": (56.0, 19.0), "BAN": (27.2, 56.3),
    "BAR": (73.0, 35.0), "BAV": (48.8, 11.5), "BBE": (14.0, 89.0), "BCO": (54.0, -125.0),
    "BCU": (-30.0, -35.0), "BEN": (23.0, 88.0), "BER": (52.5, 13.4), "BIS": (3.0, 142.0),
    "BKH": (39.8, 64.4), "BKU": (41.0, 45.5), "BLA": (43.3, 34.0), "BNK": (13.75, 100.5),
    "BOB": (45.5, -6.0), "BOG": (4.7, -74.1), "BOM": (19.0, 73.0), "BOS": (43.5, 18.5),
    "BOT": (62.0, 20.0), "BRA": (-15.8, -47.9), "BRC": (7.5, -65.0), "BRD": (44.8, -0.6),
    "BRE": (53.1, 8.8), "BRM": (25.5, 97.0), "BRN": (-1.0, 114.0), "BRR": (-38.0, 130.0),
    "BSE": (58.0, -178.0), "BSW": (-22.0, 24.0), "BUD": (47.5, 19.0), "BUV": (3.9, -77.0),
    "CAG": (-42.0, -58.0), "CAI": (30.0, 31.2), "CAN": (23.1, 113.3), "CAP": (-33.0, 20.0),
    "CAS": (42.0, 51.0), "CBA": (-35.0, -82.0), "CCU": (28.0, -140.0), "CEL": (-2.0, 121.0),
    "CEY": (7.8, 80.7), "CHE": (40.0, -69.0), "CHI": (28.6, -106.0), "CHK": (29.5, 106.5),
    "CLB": (10.0, -67.0), "CLD": (6.0, -59.0), "CLS": (3.0, 123.0), "CMB": (12.5, 105.0),
    "CMN": (5.0, 12.0), "CNG": (-3.0, 23.0), "CNY": (28.0, -20.0), "COA": (27.0, -102.0),
    "COH": (-18.0, -64.0), "CON": (10.0, -12.0), "COR": (-17.0, 155.0), "CRE": (35.2, 24.9),
    "CRL": (7.5, 151.0), "CRO": (45.5, 16.0), "CRS": (42.1, 9.1), "CRT": (10.4, -75.5),
    "CUB": (21.5, -79.5), "CYN": (4.9, -52.3), "CYP": (35.0, 33.0), "DAM": (33.5, 36.3),
    "DAR": (13.0, 25.0), "DEL": (28.6, 77.2), "DEN": (56.0, 9.5), "DET": (43.5, -84.5),
    "DML": (-22.0, 17.0), "DNK": (6.5, 2.5), "DRA": (-58.0, -65.0), "DRE": (51.05, 13.74),
    "ECA": (14.0, -66.0), "ECO": (3.0, 178.0), "ECS": (29.0, 125.0), "EDI": (57.0, -3.2),
    "EID": (-3.5, 105.0), "EIN": (-8.0, 85.0), "ELJ": (21.0, -4.0), "EPA": (10.0, -118.0),
    "ESE": (32.0, -74.0), "ESF": (32.65, 51.67), "EVE": (64.0, 100.0), "FAL": (-51.7, -59.0),
    "FIJ": (-17.8, 178.0), "FIN": (63.0, 26.0), "FSN": (35.5, 128.5), "FUC": (26.0, 118.5),
    "FZZ": (26.0, 14.0), "GAL": (49.8, 24.0), "GCS": (5.0, -8.5), "GEO": (45.5, 43.0),
    "GIB": (37.0, -5.0), "GLA": (55.9, -4.3), "GLD": (6.0, 42.0), "GLP": (-0.7, -90.5),
    "GOA": (56.0, -145.0), "GOC": (18.0, -106.0), "GOG": (2.0, 3.0), "GOM": (25.0, -90.0),
    "GOO": (-38.0, 20.0), "GOP": (5.0, -82.0), "GOS": (9.0, 102.0), "GOY": (-32.0, -63.0),
    "GRE": (39.5, 22.0), "GRL": (45.0, -84.0), "GRN": (72.0, -40.0), "GTM": (15.5, -90.3),
    "GUJ": (22.5, 71.5), "GUM": (7.5, 77.5), "HAI": (18.9, -71.5), "HAN": (21.0, 105.8),
    "HAR": (45.75, 126.6), "HAW": (20.8, -156.3), "HDR": (20.0, 50.0), "HEF": (31.8, 117.3),
    "HEL": (54.3, 7.8), "HIM": (29.0, 84.0), "HK": (22.3, 114.2), "HOA": (8.0, 53.0),
    "HOL": (52.2, 5.3), "HON": (13.5, -85.5), "HUD": (59.0, -78.0), "HYD": (17.0, 80.0),
    "ICE": (64.9, -18.5), "IJA": (-4.0, 138.0), "IMG": (42.0, 113.0), "ION": (37.0, 18.5),
    "IRE": (53.3, -8.0), "IRK": (52.3, 104.3), "IVC": (7.5, -5.5), "IZU": (30.0, 142.0),
    "JSE": (-5.0, 111.0), "KAM": (56.0, 159.0), "KAN": (38.5, -98.0), "KAR": (12.0, 79.0),
    "KAS": (34.0, 76.0), "KEN": (0.0, 38.0), "KG": (32.0, 130.8), "KHV": (41.4, 60.4),
    "KIR": (47.0, 80.0), "KRA": (56.0, 92.9), "KRC": (25.0, 67.0), "KSE": (0.0, -160.0),
    "KSG": (39.5, 76.0), "KSL": (48.0, 63.0), "KUR": (44.0, 152.0), "LCH": (36.0, 103.8),
    "LCK": (26.8, 81.0), "LEN": (59.9, 30.3), "LIM": (-12.0, -77.0), "LNY": (-12.0, 34.5),
    "LON": (52.5, -1.5), "LPA": (-16.5, -68.1), "LTA": (-6.0, 29.5), "LUS": (11.0, 120.0),
    "LUZ": (16.0, 121.0), "LVN": (57.0, 25.0), "LYO": (42.0, 5.0), "MAD": (-19.0, 46.7),
    "MAL": (4.5, 101.8), "MAR": (43.5, 5.5), "MAT": (5.0, -25.0), "MAZ": (23.2, -106.4),
    "MCH": (-18.0, 41.0), "MDH": (22.5, 80.4), "MDO": (12.0, -8.0), "MEC": (21.4, 39.8),
    "MER": (20.97, -89.6), "MET": (49.0, 6.0), "MEX": (19.4, -99.1), "MHL": (7.1, 171.2),
    "MIN": (7.5, 125.0), "MIT": (1.2, -70.2), "MLD": (3.2, 73.2), "MLY": (21.9, 96.1),
    "MNN": (46.0, -94.0), "MNV": (6.5, -10.8), "MOG": (3.0, 45.0), "MON": (47.0, 103.0),
    "MOS": (55.75, 37.6), "MOZ": (-18.0, 35.0), "MRC": (32.0, -6.0), "NAN": (47.5, -2.0),
    "NAT": (48.0, -30.0), "NEB": (41.5, -99.8), "NEJ": (25.0, 43.0), "NEM": (-2.0, 65.0),
    "NET": (15.0, -45.0), "NGU": (-6.0, 145.0), "NME": (34.5, -106.0), "NNJ": (32.5, 119.0),
    "NOL": (31.0, -91.0), "NPA": (40.0, -155.0), "NPS": (60.0, -20.0), "NSC": (45.0, -63.0),
    "NTE": (64.0, -118.0), "NTH": (56.0, 3.0), "NTR": (-19.5, 133.0), "NWG": (67.0, 3.0),
    "NWY": (61.0, 9.0), "NYO": (42.5, -75.5), "NZL": (-41.3, 174.0), "OAX": (17.0, -96.7),
    "OHI": (40.4, -82.9), "OKH": (54.0, 148.0), "OKI": (26.3, 127.8), "OKL": (35.5, -97.5),
    "OKN": (-1.0, 11.0), "OLI": (-27.0, -51.0), "OMA": (21.0, 57.0), "OMS": (55.0, 73.4),
    "ORD": (41.0, 37.9), "ORE": (44.0, -120.5), "ORN": (51.8, 55.1), "PAN": (8.5, -80.0),
    "PAR": (48.85, 2.35), "PBA": (-10.0, -100.0), "PEK": (38.5, 116.0), "PER": (-26.0, 121.0),
    "PGU": (27.0, 51.0), "PHI": (18.0, 132.0), "PIE": (45.0, 7.7), "PMB": (5.85, -55.2),
    "POA": (38.8, 121.3), "PRA": (-3.0, -45.0), "PRG": (-23.0, -58.0), "PRM": (58.0, 56.3),
    "PRU": (54.7, 20.5), "QBC": (50.0, -72.0), "QNL": (-22.0, 144.0), "QTO": (-1.0, -78.5),
    "RAJ": (26.5, 73.5), "RDJ": (-22.9, -43.2), "REC": (-8.0, -35.5), "RHO": (-18.0, 30.0),
    "RIC": (37.5, -78.5), "RKY": (43.0, -110.0), "RLA": (56.0, -95.0), "RNG": (16.8, 96.2),
    "ROM": (41.9, 12.5), "ROU": (49.5, 1.1), "RSE": (20.0, 38.5), "RUH": (51.5, 7.5),
    "RUM": (44.5, 26.0), "SAI": (10.8, 106.7), "SAK": (50.0, 143.0), "SAL": (40.6, 15.5),
    "SAP": (43.1, 141.3), "SAR": (28.0, -60.0), "SAS": (54.0, -106.0), "SAT": (-25.0, -5.0),
    "SAU": (-30.0, 135.0), "SCS": (14.0, 114.0), "SCT": (-17.5, -149.5), "SDE": (22.0, 10.0),
    "SEA": (47.4, -120.5), "SEO": (37.57, 127.0), "SER": (44.0, 20.9), "SET": (-20.0, 95.0),
    "SEV": (46.0, 34.0), "SEY": (-4.7, 55.5), "SFR": (37.0, -120.0), "SG": (1.35, 103.8),
    "SGR": (-54.3, -36.5), "SHA": (30.5, 120.5), "SIA": (18.0, 104.0), "SIC": (37.5, 14.0),
    "SKA": (57.8, 9.5), "SLO": (38.6, -90.2), "SNK": (42.0, 87.0), "SOF": (42.7, 24.5),
    "SOG": (36.0, -7.5), "SOJ": (40.0, 135.0), "SON": (29.3, -110.3), "SPA": (-35.0, -110.0),
    "SRW": (2.5, 113.0), "STU": (48.8, 9.2), "SUD": (16.0, 32.5), "SUN": (6.0, 113.0),
    "SWE": (60.0, 15.0), "SWI": (46.8, 8.2), "SWP": (-25.0, -175.0), "SYD": (-32.5, 148.0),
    "TA": (23.7, 121.0), "TAM": (25.0, -81.5), "TAS": (41.3, 69.2), "TBQ": (31.5, 23.0),
    "TBR": (38.0, 46.3), "TEH": (35.7, 51.4), "TEN": (35.8, -86.5), "TGN": (18.0, -10.0),
    "TIB": (31.5, 88.0), "TIM": (-10.0, 125.0), "TIR": (41.3, 19.8), "TLD": (40.0, -4.0),
    "TOK": (36.0, 139.0), "TOR": (48.0, -84.0), "TRI": (31.0, 14.0), "TRN": (-27.0, 30.0),
    "TRS": (24.0, -13.0), "TSM": (-38.0, 160.0), "TUN": (35.0, 9.5), "TWR": (25.0, 2.0),
    "TYS": (40.0, 12.0), "UNG": (46.5, -103.0), "URU": (-33.0, -56.0), "UTA": (39.3, -111.7),
    "VAN": (38.5, 43.4), "VEN": (45.5, 12.0), "VIC": (49.5, -125.3), "VIE": (48.2, 16.4),
    "VLA": (45.0, 134.0), "VLC": (39.5, -0.4), "VNC": (51.5, -126.5), "VRD": (16.0, -24.0),
    "WAR": (52.2, 21.0), "WAS": (38.9, -77.0), "WBA": (46.0, -128.0), "WCA": (16.0, -80.0),
    "WCO": (33.0, -123.0), "WES": (39.0, 4.0), "WIN": (-25.0, 60.0), "WLC": (46.0, 23.0),
    "WPA": (22.0, 178.0), "WST": (40.0, 178.0), "WUH": (30.6, 114.3), "YAK": (62.0, 129.7),
    "YSE": (35.0, 123.0), "YUK": (63.0, -136.0), "YUN": (25.0, 102.7), "YUT": (18.8, 99.0),
}
COAST_COORDS: dict[str, tuple[float, float]] = {
    "ALA/NC": (70.0, -156.0), "ALA/SC": (58.5, -135.0), "BKU/WC": (42.0, 41.7),
    "BKU/EC": (40.4, 49.9), "BNK/EC": (12.6, 101.3), "BNK/WC": (9.0, 98.3), "BOS/WC": (43.0, 17.5),
    "BOS/EC": (40.7, 23.5), "DAM/SC": (29.5, 35.0), "DAM/WC": (34.5, 35.8), "FIN/NC": (69.5, 30.5),
    "FIN/SC": (60.3, 24.0), "GEO/WC": (45.5, 37.5), "GEO/EC": (45.5, 47.8),
    "GTM/EC": (15.8, -88.6), "GTM/WC": (14.0, -91.5), "HDR/NC": (25.5, 49.8),
    "HDR/SC": (15.0, 49.0), "HON/EC": (14.5, -83.5), "HON/WC": (11.8, -86.3),
    "LEN/NC": (66.5, 34.0), "LEN/WC": (59.9, 29.5), "SEO/EC": (37.8, 129.0),
    "SEO/WC": (37.3, 126.4), "SOF/SC": (40.9, 25.0), "SOF/EC": (43.0, 27.9),
}


def main(argv: list[str]) -> int:
    b = Board()
    build(b)
    text = variant(b)
    problems = check_variant(parse_variant(text, str(OUT)))
    if problems:
        for p in problems:
            print(f"{p.key}: {p.message}", file=sys.stderr)
        return 2
    if "--check" in argv:
        if not OUT.is_file() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is not what {Path(__file__).name} writes; run it", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
