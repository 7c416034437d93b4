"""Two game years of each seed game as its GM runs it (issue 28, "Done when").

The players' messages of every phase are kept as data in tests/data/gm_games/<variant>/, one
file per phase, written as players write them: full names with accents, abbreviations, the
rules texts' own notation (LAD's `AT`, `B F Islas San Felix`, combined D phase retreats and
builds), and the mistakes players make (a typo, a void order, an order for a unit that is not
there). Each phase is run through the real CLI — `polydip orders GAME --file F`, `polydip
process GAME --format json`, `polydip render GAME --phase P` — and checked against what the
rules text predicts: each order's result and reason code, the lines reported as not taken,
the centers, the builds due, the rule's own effects. The expectations were worked out from
the rules texts (/work/shared/seeds, quoted beside the checks), not copied from polydip's
output.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from polydip.cli.main import main

DATA = Path(__file__).parent.parent / "data" / "gm_games"
OK = ("ok", "")  # an order that succeeded: no result word, no reason

Key = tuple[str, str]  # (power, order as the engine writes it)


@dataclass
class Step:
    """One phase: the message file, and what the rules text says comes of it."""

    file: str
    phase: str  # the phase the messages are for
    not_taken: dict[int, str] = field(default_factory=dict)  # line -> problem code
    # (power, order) -> (result word or "ok", reason code); every other order given must
    # succeed
    results: dict[Key, tuple[str, str]] = field(default_factory=dict)
    rejected: dict[str, int] = field(default_factory=dict)  # power -> refused when processed
    # (power, unit) -> (where it may retreat, reason code when it may not)
    dislodged: dict[Key, tuple[list[str], str]] = field(default_factory=dict)
    changes: list[tuple[str, str | None, str]] = field(default_factory=list)
    centers: dict[str, int] = field(default_factory=dict)  # power -> centers (by value)
    builds: dict[str, int] = field(default_factory=dict)  # power -> builds (+) / removals (-)
    contributed: dict[str, int] = field(default_factory=dict)  # power -> builds to a canal
    events: list[str] = field(default_factory=list)  # event codes
    nmr: list[str] | None = None
    next_phase: str = ""
    next_title: str = ""  # words the next phase's title holds (LAD: its months)


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = main(list(argv))
    return code, out.getvalue()


def not_taken(text: str) -> dict[int, str]:
    """Line number -> problem code of the lines `polydip orders` reports as not taken."""
    got: dict[int, str] = {}
    line = None
    for row in text.splitlines():
        m = re.match(r"\s+line (\d+): ", row)
        if m:
            line = int(m.group(1))
            continue
        m = re.search(r"\[(\w+)\]\s*$", row)
        if m and line is not None:
            got[line] = m.group(1)
            line = None
    return got


def play(tmp_path: Path, variant: str, steps: list[Step], *options: str) -> Path:
    game = str(tmp_path / "game.json")
    opts = [x for o in options for x in ("--option", o)]
    assert cli("new", *opts, variant, game)[0] == 0
    for step in steps:
        where = f"{variant}/{step.file}"
        assert position(Path(game))["phase"] == step.phase, where
        code, out = cli("orders", game, "--file", str(DATA / variant / step.file))
        assert not_taken(out) == step.not_taken, (where, out)
        assert code == (4 if step.not_taken else 0), (where, out)
        code, out = cli("process", game, "--format", "json")
        assert code == 0, (where, out)
        last = json.loads(out)
        reports = [*last.get("processed_before", []), last]
        check(where, step, reports)
        for rep in reports:  # every phase drawn once (no picture checks)
            code, out = cli("render", game, "--phase", rep["phase"], "-o",
                            str(tmp_path / f"{rep['phase']}.svg"))
            assert code == 0, (where, rep["phase"], out)
    return Path(game)


def check(where: str, step: Step, reports: list[dict]) -> None:
    last = reports[-1]
    got: dict[Key, tuple[str, str]] = {}
    rejected: dict[str, int] = {}
    for rep in reports:
        for sec in rep["powers"]:
            for o in sec["orders"]:
                if o["ordered"]:
                    got[(sec["power"], o["order"])] = ("/".join(o["result"]) or "ok",
                                                       o["reason"])
            if sec.get("rejected"):
                rejected[sec["power"]] = len(sec["rejected"])
    for key, want in step.results.items():
        assert got.get(key) == want, (where, key, got.get(key), sorted(got))
    surprises = {k: v for k, v in got.items() if k not in step.results and v != OK}
    assert surprises == {}, (where, surprises)
    assert rejected == step.rejected, (where, rejected)
    dislodged = {(d["power"], d["unit"]): (sorted(d["retreats"]), d["reason"])
                 for rep in reports for d in rep["dislodged"]}
    assert dislodged == step.dislodged, (where, dislodged)
    changes = [(c["center"], c["from"], c["to"]) for rep in reports
               for c in rep["center_changes"]]
    assert sorted(changes, key=str) == sorted(step.changes, key=str), (where, changes)
    for power, n in step.centers.items():
        assert last["centers"][power] == n, (where, power, last["centers"])
    builds = {a["power"]: a["change"] for a in last["adjustments"] if a["change"]}
    for power, n in step.builds.items():
        assert builds.get(power, 0) == n, (where, power, builds)
    contributed = {p: sum(v.values()) for rep in reports
                   for p, v in (rep.get("contributed") or {}).items()}
    assert contributed == step.contributed, (where, contributed)
    events = [e["code"] for rep in reports for e in rep["events"]]
    assert events == step.events, (where, events)
    if step.nmr is not None:
        assert sorted(last["nmr"]) == sorted(step.nmr), (where, last["nmr"])
    assert last["next_phase"] == step.next_phase, (where, last["next_phase"])
    assert step.next_title in last["next_title"], (where, last["next_title"])


def position(game: Path) -> dict:
    """The current position as the game file keeps it."""
    return json.loads(game.read_text())["current"]["position"]


def units(game: Path, power: str) -> list[str]:
    return sorted(position(game)["units"].get(power, []))


# ---- Latin American Diplomacy 1890 ----------------------------------------------------------

LAD = [
    Step("01-1890D.txt", "D1890A",
         # "those powers with Capital Centers showing on the map may build a unit on any
         # space which belongs to their power" - but not on a unit: Buenos Aires (the rules
         # text's own spelling "Buenos Aries") and São Paulo are occupied
         not_taken={15: "adjustment_refused", 22: "adjustment_refused"},
         # "1890D: Chile orders B F Islas San Felix. Peru orders: Build R Loreto"
         results={("Chile", "A VAL B"): OK, ("Peru", "R LOR B"): OK,
                  ("Argentina", "A FOR B"): OK, ("Mexico", "F GRO B"): OK,
                  ("Brazil", "F AMP B"): OK,
                  ("Venezuela", "WAIVE"): OK,
                  # "Each year the said player will order: 'Build Panama Canal' instead of
                  # submitting an earned build"; "A unit must be present in Panama"
                  ("Colombia", "BUILD PAN CANAL"): OK},
         contributed={"Colombia": 1}, events=["canal_progress"],
         # the powers with a build due who built nothing
         nmr=["Bolivia"],
         # "A: First Movement Phase* (March-June)"; "The GM will endeavour, to include the
         # months in the report."
         next_phase="A1891M", next_title="(March-June)"),
    Step("02-1891A.txt", "A1891M",
         # "Carribean" is no place; Mexico has no unit in Monterrey (Nuevo León)
         not_taken={34: "unknown_place", 46: "no_unit"},
         results={
             # "During the FIRST MOVEMENT PHASE (A Phase: March-June) of any year, NO ARMY MAY
             # CROSS this mountainous border UNLESS SUPPORTED by another unit."
             ("Chile", "A STG - MEN"): ("bounce", "needs_support"),
             # "the A San Juan would not make it across the mountains": the Chilean army
             # does not reach Mendoza, so the Argentine one enters unopposed
             ("Argentina", "A CBA - MEN"): OK,
             ("Peru", "A LIM - BOG"): ("void", "not_adjacent"),
             # "NO UNIT LOCATED IN ONE OF THESE PROVINCES MAY OFFER SUPPORT to any other
             # unit. These provinces are: MEXICO CITY, BARQUISIMETO, ..."
             ("Venezuela", "A BRQ S F MCB"): ("void", "mountain_province"),
             # "NO ARMY located in one of these provinces MAY OFFER SUPPORT TO ANOTHER UNIT"
             # (swampy Formosa)
             ("Argentina", "A FOR S A TUC - SAL"): ("void", "swamp"),
             # "a Fleet may be ordered to convert into a River Flotilla at any time, but
             # this costs one turn"
             ("Brazil", "F BAH CONVERT"): OK,
             # "once ordered to proceed to an inland province by way of a river, a Fleet
             # AUTOMATICALLY becomes a River Flotilla" ("F Amapa to Para [becomes R, Anchor
             # Marker left in Amapa]")
             ("Brazil", "F AMP - PRA"): OK},
         # "The GM will leave an Anchor Marker where the Fleet left behind its large ships"
         events=["anchor_made", "anchor_made"],
         nmr=["Bolivia", "United States"],
         # nobody dislodged: no B phase
         next_phase="C1891M", next_title="(September-December)"),
    Step("03-1891C.txt", "C1891M",
         results={
             # "THE ATTACK STRENGTH OF ANY UNIT CROSSING THESE BORDERS = ZERO; only the
             # supporting units count towards an attack": 0 + 1 against 1
             ("Chile", "A STG - MEN"): ("bounce", "weak_crossing"),
             ("Chile", "A CON S A STG - MEN"): OK,
             # "ONCE AN ARMY HAS ENTERED such a province, IT MAY NOT MOVE ON THE SUCCEEDING
             # TURN, EXCEPT TO THE PROVINCE FROM WHICH IT ENTERED."
             ("Peru", "A ACR - RON"): ("void", "way_back_only"),
             # "River Flotillas are not restricted by Rainforest Borders, however, and can
             # order support across Rainforest Borders"
             ("Peru", "R LOR S A ACR"): OK,
             # "Brazil: F Equatorial Atlantic Ocean Holds; France: F Middle Atlantic Ocean to
             # Equatorial Atlantic Ocean. Result: both fleets sail happily in the same
             # province."
             ("Spain", "F PRT - MAO"): OK,
             ("Brazil", "R BAH - MGE"): OK,
             # "A River Flotilla which moves into a Coastal Province where an Anchor Marker
             # has been left may convert into a Fleet by capturing the ships" ("R Trinidad &
             # Tobago to Guyana[sec], convert to Fleet")
             ("Brazil", "R PRA - AMP CONVERT"): OK,
             ("Venezuela", "A GUR H"): ("dislodged", "dislodged")},
         # not back to Monagas, where the attack came from, nor to occupied Trinidad
         dislodged={("Venezuela", "A GUR"): (["BOL", "CCS"], "")},
         events=["anchor_sunk"],  # the ships in Amapá taken
         next_phase="D1891R", next_title="(December-March)"),
    # "D: Second Retreat (/Build/Disband) Phase: (December-March)": one message, retreats
    # and builds together
    Step("04-1891D.txt", "D1891R",
         results={("Venezuela", "A GUR R CCS"): OK, ("Colombia", "BUILD PAN CANAL"): OK,
                  ("France", "F MRT B"): OK, ("Spain", "F CAN B"): OK},
         # Venezuela's build in Caracas, where its army has just retreated
         rejected={"Venezuela": 1},
         changes=[("QUI", None, "Colombia"), ("BAR", None, "France"),
                  ("LOR", None, "Peru"), ("CVI", None, "Spain")],
         centers={"Colombia": 5, "France": 5, "Peru": 5, "Spain": 5, "Venezuela": 4},
         contributed={"Colombia": 1}, events=["canal_progress"],
         next_phase="A1892M", next_title="(March-June)"),
    Step("05-1892A.txt", "A1892M",
         results={
             # "Your attack must have an attack strength 3 greater than the opposing powers
             # fleet." (4 v 1; "the attacking F does not have to be moving")
             ("France", "F MAO AT SPAIN"): OK,
             ("Spain", "F MAO H"): ("dislodged", "dislodged"),
             # "Colombia orders: F Galapagos Island to East Pacific Rise At Peru; Mexico
             # Orders F Middle America Trench to East Pacific Rise AT Peru; Peru orders: F
             # Peru Trench to East Pacific Rise. Result: all three fleets bounce." (Chile in
             # Colombia's place)
             ("Chile", "F PBS - EPR AT PERU"): ("bounce", "bounced"),
             ("Mexico", "F MAT - EPR AT PERU"): ("bounce", "bounced"),
             ("Peru", "F PTR - EPR"): ("bounce", "bounced"),
             # supported, so it crosses the Chilean Andes; still 0 + 1 against 1
             ("Chile", "A STG - MEN"): ("bounce", "weak_crossing"),
             # "EXCEPT TO THE PROVINCE FROM WHICH IT ENTERED"
             ("Peru", "A ACR - CUZ"): OK},
         # "Result: Spanish F is not allowed to retreat, and is disbanded."
         dislodged={("Spain", "F MAO"): ([], "routed")},
         next_phase="C1892M"),  # no retreat phase for it
    Step("06-1892C.txt", "C1892M",
         # Spain's fleet there is gone; the one fleet left in the ocean is France's
         not_taken={2: "not_own_unit"},
         results={
             # "A River Flotilla which moves into a Coastal Province where an Anchor Marker
             # has been left may convert into a Fleet by capturing the ships"
             ("Brazil", "R BAH CONVERT"): OK,
             # "Brazil: F Equatorial Atlantic Ocean S F Middle Atlantic Ocean to Cape Verde
             # Islands; France: F Middle Atlantic Ocean to Equatorial Atlantic Ocean A
             # Brazil. Result: *CEF* (1 v 1), France cuts Brazils support" (Spain attacking
             # France here)
             ("Spain", "F CCU - MAO AT FRANCE"): ("bounce", "bounced"),
             ("France", "F MAO S F GGU - CVI"): ("cut", "support_cut"),
             ("France", "F GGU - CVI"): ("bounce", "bounced")},
         events=["anchor_sunk"],  # the marker is used
         changes=[("GYE", None, "Colombia")],
         centers={"Colombia": 6, "Spain": 5},
         builds={"Spain": 1, "Colombia": 3},
         next_phase="D1892A"),
    Step("07-1892D.txt", "D1892A",
         not_taken={7: "adjustment_refused"},  # Peru: Lima is occupied
         results={("Colombia", "BUILD PAN CANAL"): OK, ("Spain", "F PRI B"): OK},
         contributed={"Colombia": 1}, events=["canal_progress"],
         next_phase="A1893M"),
]


def test_lad1890_two_years_as_the_gm_runs_them(tmp_path) -> None:
    game = play(tmp_path, "lad1890", LAD)
    # the fleet routed in the Middle Atlantic Ocean is gone, the one converted back is a
    # fleet; "The GMs reports will track the progress of canal building": 3 of 4
    assert "F MAO" not in units(game, "Spain")
    assert "F BAH" in units(game, "Brazil") and "F AMP" in units(game, "Brazil")
    assert "anchors" not in position(game).get("extra", {})
    code, out = cli("show", str(game))
    assert code == 0 and "3 of 4" in out


def test_lad1890_a_phase_named_as_the_rules_text_names_it(tmp_path) -> None:
    """"These can be easily indicated using the letters indicated, thus 1891 will follow the
    rotations: 1891A, 1891B, 1891C, 1891D (or 1891 D-1, 1891 D-2)"; "1890D: Chile orders B F
    Islas San Felix": `show --phase` and `render --phase` take those names (issue 28.5)."""
    game = play(tmp_path, "lad1890", LAD[:4])
    for name, phase in [("1890D", "D1890A"), ("1891A", "A1891M"), ("1891c", "C1891M"),
                        ("1891D", "D1891R"), ("1891 D-1", "D1891R"), ("1891 D-2", "D1891A"),
                        ("1891D2", "D1891A")]:
        code, out = cli("show", str(game), "--phase", name, "--format", "json")
        assert code == 0 and json.loads(out)["phase"] == phase, (name, out[:200])
    for name, phase in [("1891A", "A1891M"), ("1891 D-2", "D1891A")]:
        code, out = cli("render", str(game), "--phase", name, "-o", str(tmp_path / "x.svg"))
        assert code == 0 and phase in out, (name, out)
    # 1891B: nobody was dislodged in the A phase, so there was no B phase
    code, out = cli("show", str(game), "--phase", "1891B")
    assert code == 1 and "no phase 1891B" in out


# ---- The Twentieth Century ------------------------------------------------------------------

TC = [
    Step("01-S1933M.txt", "S1933M",
         # "Blak Sea" is no place; Mexico has no unit in Oaxaca
         not_taken={8: "unknown_place", 33: "no_unit"},
         # "This game runs entirely under Standard Diplomacy rules": Washington is not next
         # to Panama, and no fleet carries the army
         results={("USA", "A WAS - PAN"): ("void", "no_convoy_route"),
                  # "Land bridges - (Ireland<->Glasgow, ...) ... Armies and Fleets may move
                  # from one province to the other connected by the land bridge."
                  ("Britain", "F GLA - IRE"): OK},
         # Turkey's one line was not read: no orders from it
         nmr=["USSR", "Turkey", "China", "Columbia", "Persia"],
         next_phase="F1933M"),
    Step("02-F1933M.txt", "F1933M",
         results={
             # "a unit may not move to Haiti from Gulf of Mexico or Florida Channel"
             ("USA", "F GOM - HAI"): ("void", "not_adjacent"),
             # Panama is the USA's: "Owning players may also allow other players to send
             # fleets through" - Mexico has no such leave
             ("Mexico", "F WCA - GOP"): ("void", "passage_closed"),
             # "The owner of these provinces may send fleets to neighboring sea zones without
             # having to move into the canal zone first." (Bremen)
             ("Germany", "F HEL - BAL"): OK,
             # "Example: Japanese F(Kuril Trench) to Westerlies."
             ("Japan", "F KUR - WST"): OK,
             # "Land bridges ... Armies and Fleets may move from one province to the other"
             ("Italy", "A SIC - SAL"): OK,
             # "Island Chains are coastal provinces ... A Fleet may occupy East Indies."
             ("Britain", "F ARA - MLD"): OK,
             ("France", "A PAR - MET"): OK, ("France", "A ROU S A PAR - MET"): OK,
             ("Germany", "A MET H"): ("dislodged", "dislodged")},
         # "Standard Diplomacy rules": not back to Paris, where the attack came from, nor
         # to occupied Rouen or Marseilles
         dislodged={("Germany", "A MET"): (["HOL", "RUH", "STU"], "")},
         next_phase="F1933R"),
    Step("03-F1933R.txt", "F1933R",
         not_taken={5: "wrong_phase"},  # France holds a unit in a retreat phase
         results={("Germany", "A MET R HOL"): OK},
         # the centers change hands after the fall's retreats: Holland by the retreat
         changes=[("MLD", None, "Britain"), ("HOL", None, "Germany"),
                  ("IRE", None, "Britain"), ("DEN", None, "Germany")],
         centers={"Britain": 14, "Germany": 6}, builds={"Britain": 2, "Germany": 2},
         next_phase="W1933A"),
    Step("04-W1933A.txt", "W1933A",
         not_taken={3: "adjustment_refused"},  # Cairo is occupied (and one build is due)
         results={("Britain", "F BOM B"): OK, ("Germany", "A STU B"): OK,
                  ("Germany", "A BER B"): OK},
         nmr=[], next_phase="S1934M"),
    Step("05-S1934M.txt", "S1934M",
         results={
             # "Britain owns Cairo. The Britain player may order F(Aegean Sea) to Red Sea. If
             # there was an Italian fleet in the Aegean, the Britain player may also allow
             # Italy" - it has not
             ("Italy", "F AEG - RSE"): ("void", "passage_closed"),
             # "Example: A valid move, A(Salerno) to Sicily."
             ("Italy", "A SAL - SIC"): OK,
             # "Japanese F(Westerlies) to North Pacific."
             ("Japan", "F WST - NPA"): OK,
             # "Denmark<->Sweden" is a land bridge
             ("Germany", "A DEN - SWE"): OK,
             # "A Fleet in Java Sea may convoy an Army to East Indies."
             ("France", "F JSE C A SG - EID"): OK, ("Britain", "A SG - EID"): OK,
             # "However, a unit may not move directly to Cuba from the Northeast Trades."
             ("Brazil", "F NET - CUB"): ("void", "not_adjacent"),
             # "a unit may not move to Haiti from Gulf of Mexico or Florida Channel" - to
             # Cuba, the Gulf's side of the chain, it may
             ("USA", "F GOM - CUB"): OK},
         next_phase="F1934M"),
    Step("06-F1934M.txt", "F1934M",
         results={
             # "A Fleet may not move from East Indian to Java Sea."
             ("Britain", "F EIN - JSE"): ("void", "not_adjacent"),
             # Britain's message lets Italy through Suez
             ("Italy", "F AEG - RSE"): OK,
             # the owner of Ankara through its straits
             ("Turkey", "F BLA - AEG"): OK,
             # "Fleets and Armies may move freely between Cuba and Haiti."
             ("USA", "F CUB - HAI"): OK},
         changes=[("EID", None, "Britain"), ("HAI", None, "USA"), ("SWE", None, "Germany")],
         centers={"Britain": 15, "USA": 11, "Germany": 7},
         builds={"Britain": 2, "USA": 1, "Germany": 1},
         next_phase="W1934A"),
    Step("07-W1934A.txt", "W1934A",
         results={("USA", "F NOL B"): OK, ("Britain", "A SG B"): OK},
         nmr=["Germany"], next_phase="S1935M"),
]


def test_twentieth_century_two_years_as_the_gm_runs_them(tmp_path) -> None:
    game = play(tmp_path, "twentieth_century", TC)
    assert "F RSE" in units(game, "Italy") and "F AEG" in units(game, "Turkey")
    # the permission the British message gave is kept with the game
    code, out = cli("passages", str(game))
    assert code == 0 and "Italy" in out


# ---- War in North America -------------------------------------------------------------------

NEUTRALS_HOLD = {
    # "Die Einheiten der neutralen Staaten bekommen immer Haltebefehle: A Alaska H, A
    # Newfoundland H und A Cuba H."
    ("Russia", "A ALA H"): OK, ("Britain", "A NFL H"): OK, ("Spain", "A CUB H"): OK}

WINA = [
    # "Das Spiel beginnt im Winter 1859"
    Step("01-W1859A.txt", "W1859A",
         not_taken={
             # "Philadelphia hat zwei Küsten (Ost und Nord)"
             3: "bad_coast",
             # "New York City (Nyc) ist ein Heimat-VZ der Vereinigten Staaten von Amerika,
             # wird bei Spielstart aber aufgrund ziviler Unruhen von Aufständlern beherrscht.
             # Das VZ muss erst zurückerobert werden, um in diesem Gebiet Aufbauten
             # vornehmen zu können."
             6: "adjustment_refused",
             # "Boston (kein Heimat-VZ)"
             7: "adjustment_refused"},
         results={("United States", "A CIN B"): OK, ("United States", "F PHI/EC B"): OK,
                  ("United States", "A CHI B"): OK},
         nmr=[],  # the neutrals are never late
         next_phase="S1860M"),
    Step("02-S1860M.txt", "S1860M",
         not_taken={27: "unknown_place", 28: "no_unit"},  # "Chihuaha"; no army in Dallas
         results={
             **NEUTRALS_HOLD,
             ("Mexico", "A TAM - MTY"): ("bounce", "bounced"),
             ("Texas", "A SAN - MTY"): ("bounce", "bounced"),
             # "Nicaragua, Honduras und Mexico City haben zwei Küsten (Atlantic und
             # Pacific)"
             ("Mexico", "F MEX/WC - PAC"): OK,
             # "Toronto und Montreal haben zwei Küsten (Nord und Süd)"
             ("Canada", "F MON/SC - TOR/SC"): OK,
             ("United States", "F PHI/EC - NYB"): OK},
         nmr=[], next_phase="F1860M"),
    Step("03-F1860M.txt", "F1860M",
         results={
             **NEUTRALS_HOLD,
             # "Kein direktes ziehen von Great Lake (GrL) nach Gulf of St. Lawrence (GoS) und
             # umgekehrt möglich."
             ("Canada", "F GRL - GOS"): ("void", "not_adjacent"),
             # "Die Gebiete Toronto (Tor) und Upstate (Ups) haben keine gemeinsame Grenze!"
             ("Canada", "F TOR/SC - UPS"): ("void", "not_adjacent"),
             # "Der Einzug in das Gebiet Cape Horn ist nur Flotten vorbehalten."
             ("Mexico", "F PAC - CHO"): OK},
         changes=[("TEN", None, "Confederate States"),
                  ("CAL", "United States", "Native Federation"),
                  ("BCO", None, "Native Federation"), ("MTY", None, "Mexico"),
                  ("NOR", None, "Texas"),
                  # New York City taken back from the rebels
                  ("NYC", "Rebels", "United States"), ("STL", None, "United States")],
         centers={"United States": 6, "Native Federation": 5, "Rebels": 0},
         builds={"United States": 3, "Native Federation": 2, "Confederate States": 1,
                 "Mexico": 1, "Texas": 1},
         # "Um Flotten aufbauen zu können, muss die Indianer Föderation (Native Federation)
         # Boston oder California erobern. Das erstbesetzte VZ wird zum Heimat-VZ."
         events=["new_home"],
         nmr=["Texas"], next_phase="W1860A"),
    Step("04-W1860A.txt", "W1860A",
         not_taken={3: "adjustment_refused"},  # a fleet in inland Apache
         results={("United States", "A CIN B"): OK, ("United States", "A CHI B"): OK,
                  ("Native Federation", "A APA B"): OK,
                  ("Confederate States", "F SAV B"): OK, ("Texas", "F GAL B"): OK,
                  ("Mexico", "F MEX/EC B"): OK},  # "(Atlantic)"
         nmr=[], next_phase="S1861M"),
    Step("05-S1861M.txt", "S1861M",
         results={
             ("Britain", "A NFL H"): OK,
             ("Russia", "A ALA H"): ("dislodged", "dislodged"),
             ("Spain", "A CUB H"): ("dislodged", "dislodged")},
         dislodged={
             # "Mit Ausnahme der Armee in Alaska, ziehen sich die neutralen Armeen nicht
             # zurück, sie werden in Folge eines erfolgreichen Angriffs aufgelöst."
             ("Spain", "A CUB"): ([], "neutral_disbands"),
             # "Die Armee in Alaska (Ala) versucht sich in ein freies VZ zurückzuziehen,
             # sobald sie aus Alaska vertrieben wird. Ist ein Rückzug nicht möglich, so wird
             # die Armee aufgelöst." British Columbia is held, the attack came from the
             # North-Western Territory: nowhere to go
             ("Russia", "A ALA"): ([], "no_retreat")},
         events=["neutral_disbanded", "neutral_disbanded"],
         nmr=["Texas"],
         next_phase="F1861M"),  # nothing to retreat
    Step("06-F1861M.txt", "F1861M",
         results={("Britain", "A NFL H"): OK,
                  ("Mexico", "F BOC - GOM"): ("bounce", "bounced"),
                  ("Texas", "F GAL - GOM"): ("bounce", "bounced"),
                  # "Es gibt kein Limit der einziehenden Flotten, es kann auch kein Bounce
                  # entstehen. Verfeindete Flotten können in diesem Gebiet stehen, man kann
                  # keine Flotte aus Cape Horn vertreiben."
                  ("United States", "F ATL - CHO"): OK, ("Mexico", "F CHO H"): OK},
         changes=[("CUB", "Spain", "Confederate States"), ("UTA", None, "Native Federation"),
                  ("ALA", "Russia", "Canada")],
         centers={"Confederate States": 5, "Native Federation": 6, "Spain": 0, "Russia": 0,
                  "Canada": 4},
         builds={"Native Federation": 2, "United States": 1, "Confederate States": 1,
                 "Canada": 1},
         nmr=["Canada"], next_phase="W1861A"),
    Step("07-W1861A.txt", "W1861A",
         # "Nur in diesem VZ können Flotten gebaut werden" - California, captured
         results={("Native Federation", "F CAL B"): OK,
                  # retaken from the rebels, and empty: the United States build there
                  ("United States", "A NYC B"): OK},
         nmr=["Canada", "Confederate States"], next_phase="S1862M"),
]


def test_war_in_north_america_two_years_as_the_gm_runs_them(tmp_path) -> None:
    game = play(tmp_path, "war_in_north_america", WINA)
    assert "A CUB" in units(game, "Confederate States") and units(game, "Spain") == []
    assert "A ALA" in units(game, "Canada") and units(game, "Russia") == []
    assert "F CHO" in units(game, "Mexico") and "F CHO" in units(game, "United States")


@pytest.mark.parametrize("message", [
    "Venezuela:\nA Guarico retreats to Caracas\nBuild A Barquisimeto\n",
    "Venezuela:\nA Guarico retreats to Caracas\n",
], ids=["build-refused-when-processed", "retreat-only"])
def test_a_combined_d_phase_lists_as_nmr_only_powers_that_sent_nothing(tmp_path, message):
    """LAD's D phase: retreats and builds in one message (game/combined.py). Venezuela
    retreats and either builds on a site its retreat just filled (refused when the builds
    are carried out) or builds nothing: it sent orders, and is not listed as NMR ("No orders
    from") beside Brazil, which owed builds or removals and sent nothing. (A GM's trial
    found Venezuela listed: posting that report accuses a player wrongly.)"""
    from polydip.game.game import Game
    from polydip.game.positions import build_position

    g = Game.new("lad1890")
    g.position = build_position(g.map, json.loads(
        (DATA.parent / "lad1890_d1891r.json").read_text(encoding="utf-8")))
    game = tmp_path / "game.json"
    g.save(game)
    (tmp_path / "m.txt").write_text(message, encoding="utf-8")
    cli("orders", str(game), "--file", str(tmp_path / "m.txt"))
    code, out = cli("process", str(game), "--format", "json")
    assert code == 0, out
    report = json.loads(out)
    assert report["phase"] == "D1891A"
    assert "Brazil" in report["nmr"] and "Venezuela" not in report["nmr"]
