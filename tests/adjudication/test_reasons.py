"""Every result that is not success carries a reason code (adjudication/reasons.py), and what a
rule does on its own is reported as an event (issue 27, "Results with reasons", "Events are
reported"). Each scenario asserts the code in `polydip adjudicate`'s outcome and in the GM
report's JSON, built from a game in the same position; the words are for people and are not
asserted."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from polydip.adjudication import reasons as R
from polydip.game.game import Game
from polydip.game.positions import build_position
from polydip.oneshot import adjudicate_request
from polydip.report import build_report, format_report

DOCS = Path(__file__).parents[2] / "docs"


def both(variant: str, phase: str, units: dict, orders: dict, **req) -> dict[str, str]:
    """Adjudicate the position both ways; return order → reason code (only the orders whose
    result is not success), after checking that the contract and the report agree."""
    request = {"variant": variant, "phase": phase, "units": units, "orders": orders, **req}
    out = adjudicate_request(request)
    assert "error" not in out, out
    codes = {order: r["code"] for order, r in out["reasons"].items()}
    for order, words in out["results"].items():
        assert (order in codes) == bool(words) or words == ["disband"], (order, words, codes)
    rep = report_json(variant, request)
    shown = {o["order"]: o["reason"] for s in rep["powers"] for o in s["orders"] if o["reason"]}
    assert shown == {k: v for k, v in codes.items() if k in shown}
    assert set(shown) == {k for k in codes if out["results"][k] != ["disband"]}
    return codes


def report_json(variant: str, request: dict) -> dict:
    """The JSON report of a game in the request's position with its orders (as a GM's game
    file holds them: not checked when given)."""
    g = Game.new(variant)
    g.position = build_position(g.map, request, g.options)
    for power, lst in request["orders"].items():
        g.orders[g.power(power)] = list(lst)
    g.process()
    return json.loads(format_report(build_report(g, g.history[-1]), "json"))


def adjudicate(variant: str, phase: str, **req) -> dict:
    out = adjudicate_request({"variant": variant, "phase": phase, **req})
    assert "error" not in out, out
    return out


# ---- the codes are a closed, documented set -----------------------------------------------

def test_every_code_has_a_line_and_docs_list_every_code() -> None:
    consts = {v for k, v in vars(R).items() if k.isupper() and isinstance(v, str)}
    assert consts == set(R.CODES)
    assert set(R.CODES) >= R.EVENTS
    doc = (DOCS / "adjudicate.md").read_text()
    schema = json.loads((DOCS / "adjudicate.schema.json").read_text())
    for code in R.CODES:
        assert f"`{code}`" in doc, f"docs/adjudicate.md does not list {code}"
    enum = schema["$defs"]["reason"]["properties"]["code"]["enum"]
    assert sorted(enum) == sorted(R.CODES)
    with pytest.raises(ValueError):
        R.reason("no_such_code")


def test_an_outcome_validates_against_the_contract_schema() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((DOCS / "adjudicate.schema.json").read_text())
    out = adjudicate("standard", "S1901M", units={"France": ["A PAR", "A MAR"],
                                                  "Germany": ["A MUN"]},
                     orders={"France": ["A PAR - MUN", "A MAR - BUR"],
                             "Germany": ["A MUN - BUR"]})
    jsonschema.validate(out, schema)
    assert out["reasons"]["A PAR - MUN"]["code"] == R.NOT_ADJACENT


# ---- the standard map: illegal orders (DATC-like positions) --------------------------------

def test_moves_that_cannot_be_made() -> None:
    codes = both("standard", "S1901M",
                 {"France": ["A PAR", "F BRE", "F MAO", "F GAS", "A PIC"]},
                 {"France": ["A PAR - MUN", "F BRE - PAR", "F MAO - SPA", "F GAS - SPA/SC",
                             "A PIC - LON"]})
    assert codes == {"A PAR - MUN": R.NOT_ADJACENT,  # not next to it, no convoy possible
                     "F BRE - PAR": R.CANNOT_STAND,
                     "F MAO - SPA": R.COAST_NEEDED,  # DATC 6.B.1
                     "F GAS - SPA/SC": R.COAST_UNREACHABLE,  # DATC 6.B.2's other half
                     "A PIC - LON": R.NO_CONVOY_ROUTE}  # no fleet at sea (DATC 6.D.32)


def test_supports_that_cannot_be_given() -> None:
    codes = both("standard", "S1901M",
                 {"France": ["A PAR", "A MAR", "A BUR", "A GAS"], "Germany": ["A MUN"]},
                 {"France": ["A PAR S A MAR - SPA", "A BUR S A MAR - SPA",
                             "A GAS S A PIC - PAR", "A MAR - SPA"],
                  "Germany": ["A MUN H"]})
    assert codes["A PAR S A MAR - SPA"] == R.SUPPORT_UNREACHABLE  # Paris cannot reach Spain
    assert codes["A BUR S A MAR - SPA"] == R.SUPPORT_UNREACHABLE
    assert codes["A GAS S A PIC - PAR"] == R.NO_UNIT
    codes = both("standard", "S1901M", {"France": ["A PAR", "A MAR", "A BUR"]},
                 {"France": ["A BUR S A MAR - GAS", "A MAR - SPA", "A PAR S A BUR"]})
    assert codes == {"A BUR S A MAR - GAS": R.SUPPORT_UNMATCHED}
    codes = both("standard", "S1901M", {"France": ["A PAR", "A BUR"]},
                 {"France": ["A PAR S A BUR", "A BUR - MUN"]})
    assert codes["A PAR S A BUR"] == R.SUPPORT_UNMATCHED  # it moved: no hold support


def test_convoys_that_cannot_be_given() -> None:
    codes = both("standard", "S1901M",
                 {"England": ["F ENG", "A LON", "F NTH"], "France": ["F BRE", "A PAR"]},
                 {"England": ["F ENG C A LON - BRE", "A LON - WAL", "F NTH C A LON - BEL"],
                  "France": ["F BRE C A PAR - PIC", "A PAR - PIC"]})
    assert codes["F ENG C A LON - BRE"] == R.CONVOY_UNMATCHED
    assert codes["F BRE C A PAR - PIC"] == R.CANNOT_CONVOY  # a fleet in a coastal province
    assert codes["F NTH C A LON - BEL"] == R.CONVOY_UNMATCHED
    codes = both("standard", "S1901M", {"England": ["F ENG", "F NTH", "A LON"]},
                 {"England": ["F ENG C A LON - BRE", "F NTH C A LON - BRE", "A LON - BRE"]})
    assert codes == {"F NTH C A LON - BRE": R.CONVOY_NOT_NEEDED}  # not on a route (4.E.1)


def test_a_support_of_a_convoy_through_the_supporter_itself() -> None:
    """DATC 6.D.31: "A tricky impossible support"."""
    codes = both("standard", "F1901M",
                 {"Austria": ["A RUM"], "Turkey": ["F BLA"]},
                 {"Austria": ["A RUM - ARM"], "Turkey": ["F BLA S A RUM - ARM"]})
    assert codes["F BLA S A RUM - ARM"] == R.SUPPORT_OWN_CONVOY


# ---- the standard map: legal orders that failed ---------------------------------------------

def test_bounce_cut_dislodged_and_a_disrupted_convoy() -> None:
    codes = both("standard", "S1901M",
                 {"France": ["A PAR", "A MAR", "A GAS"], "Germany": ["A MUN", "A RUH"],
                  "Italy": ["A PIE"]},
                 {"France": ["A PAR - BUR", "A MAR S A PAR - BUR", "A GAS - MAR"],
                  "Germany": ["A MUN - BUR", "A RUH H"],
                  "Italy": ["A PIE - MAR"]})
    assert codes["A PAR - BUR"] == R.BOUNCED and codes["A MUN - BUR"] == R.BOUNCED
    assert codes["A MAR S A PAR - BUR"] == R.SUPPORT_CUT
    codes = both("standard", "S1901M",
                 {"England": ["F NTH", "A LON"], "Germany": ["F HEL", "F SKA"]},
                 {"England": ["F NTH C A LON - NWY", "A LON - NWY"],
                  "Germany": ["F HEL - NTH", "F SKA S F HEL - NTH"]})
    assert codes == {"F NTH C A LON - NWY": R.DISLODGED, "A LON - NWY": R.CONVOY_DISRUPTED}


# ---- retreats --------------------------------------------------------------------------------

def retreat_request(retreats: dict, orders: dict) -> dict:
    return {"phase": "S1901R",
            "units": {"Germany": ["A BUR", "A RUH"], "France": ["A PIC"]},
            "dislodged": retreats, "contested": ["BEL"], "orders": orders}


def test_retreats_that_fail_say_why() -> None:
    req = retreat_request(
        {"France": [{"unit": "A MUN", "from": "BUR"}, {"unit": "A HOL", "from": "RUH"}],
         "Italy": [{"unit": "A KIE", "from": "RUH"}]},
        {"France": ["A MUN R BUR", "A HOL R BEL"], "Italy": ["A KIE R BER"]})
    codes = both("standard", req.pop("phase"), req.pop("units"), req.pop("orders"), **req)
    assert codes == {"A MUN R BUR": R.RETREAT_OCCUPIED, "A HOL R BEL": R.RETREAT_STANDOFF}
    req = retreat_request(
        {"France": [{"unit": "A MUN", "from": "BOH"}, {"unit": "A HOL", "from": "RUH"}],
         "Italy": [{"unit": "A KIE", "from": "RUH"}]},
        {"France": ["A MUN R BOH", "A HOL R KIE"], "Italy": ["A KIE R HOL"]})
    codes = both("standard", req.pop("phase"), req.pop("units"), req.pop("orders"), **req)
    assert codes["A MUN R BOH"] == R.RETREAT_ATTACKER
    req = retreat_request(
        {"France": [{"unit": "A MUN", "from": "BOH"}], "Italy": [{"unit": "A KIE", "from": "RUH"}]},
        {"France": ["A MUN R BER"], "Italy": ["A KIE R BER"]})
    codes = both("standard", req.pop("phase"), req.pop("units"), req.pop("orders"), **req)
    assert codes == {"A MUN R BER": R.RETREAT_CLASH, "A KIE R BER": R.RETREAT_CLASH}
    req = retreat_request({"France": [{"unit": "A MUN", "from": "BOH"}]}, {})
    out = adjudicate("standard", **req)
    assert out["reasons"]["A MUN D"]["code"] == R.NOT_ORDERED


def test_a_unit_with_nowhere_to_retreat_is_destroyed_and_the_report_says_why() -> None:
    req = {"phase": "S1901M",
           "units": {"Germany": ["A BUR", "A RUH", "A MUN"], "France": ["A BEL"],
                     "England": ["F NTH"], "Italy": ["A HOL", "A PIC"]},
           "orders": {"Germany": ["A RUH - BEL", "A BUR S A RUH - BEL"]}}
    out = adjudicate("standard", **req)
    assert out["destroyed"] == {"France": [{"unit": "A BEL", "from": "RUH"}]}  # (unchanged)
    assert out["no_retreat"]["A BEL"]["code"] == R.NO_RETREAT
    rep = report_json("standard", req)
    assert [d["reason"] for d in rep["dislodged"]] == [R.NO_RETREAT]


# ---- adjustments -----------------------------------------------------------------------------

def test_builds_refused_say_why() -> None:
    req = {"units": {"France": ["A PAR"], "Germany": ["A MUN", "A BER", "A RUH"]},
           "centers": {"France": ["PAR", "MAR", "BRE", "SPA", "BEL"],
                       "Germany": ["MUN", "BER"]}}
    codes = both("standard", "W1901A", req["units"],
                 {"France": ["A PAR B", "A BUR B", "A BEL B", "A KIE B", "F MAR B", "A MAR B",
                             "A BRE B"],
                  "Germany": ["F KIE B", "A MUN D", "A RUH D"]}, centers=req["centers"])
    assert codes["A PAR B"] == R.SITE_OCCUPIED
    assert codes["A BUR B"] == R.NOT_A_CENTER
    assert codes["A BEL B"] == R.NOT_A_BUILD_SITE  # owned, but not a home center
    assert codes["A KIE B"] == R.NOT_OWNED
    assert codes["A MAR B"] == R.SITE_TAKEN  # the fleet was built there first
    assert codes["F KIE B"] == R.NO_BUILDS  # Germany removes
    assert codes["A RUH D"] == R.NO_REMOVALS  # one removal due, made already
    out = adjudicate("standard", "W1901A", units={"Germany": ["A MUN", "A BER", "A KIE"]},
                     centers={"Germany": ["MUN", "BER"]}, orders={})
    assert [r["code"] for r in out["reasons"].values()] == [R.CIVIL_DISORDER]


# ---- the reports show the words ------------------------------------------------------------

def test_text_and_markdown_reports_say_why() -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - MUN", "F BRE - PAR"])
    g.process()
    rec = g.history[-1]
    text = format_report(build_report(g, rec), "text")
    assert re.search(r"A PAR - MUN  \(void\) — .*not next to", text)
    assert "F BRE - PAR  (void) — a fleet cannot stand in Paris" in text
    md = format_report(build_report(g, rec), "markdown")
    assert "- `A PAR - MUN` — *void* (" in md


def test_reasons_survive_the_game_file(tmp_path) -> None:
    g = Game.new("standard")
    g.set_orders("France", ["A PAR - MUN"])
    g.process()
    g.save(tmp_path / "g.json")
    again = Game.load(tmp_path / "g.json")
    rep = build_report(again, again.history[-1])
    assert [o.reason for s in rep.powers for o in s.orders if o.reason] == [R.NOT_ADJACENT]


def test_the_map_marks_a_failed_order_with_its_reason() -> None:
    from polydip.render import picture_svg

    g = Game.new("standard")
    g.set_orders("France", ["A PAR - MUN"])
    g.process()
    svg = picture_svg(g, "S1901M")
    mark = re.search(r'<g class="order move failed" data-order="A PAR - MUN"[^>]*>(.*?)</g>',
                     svg, re.S)
    assert mark and 'data-reason="not_adjacent"' in mark.group(0)
    assert "<title>void: " in mark.group(1)


# ---- Latin American Diplomacy (seed 001): each terrain rule names itself --------------------
# (the positions are tests/variants/lad1890/test_rules.py's and test_lad1890_flotillas.py's, whose
# tests quote the rule text)

def lad(phase: str, units: dict, orders: dict, **req) -> dict[str, str]:
    return both("lad1890", phase, units, orders, **req)


def test_lad_mountains() -> None:
    """5.C.i-ii: no support from a mountain province; no flotilla support across a mountain
    border ("R Beni S A Santa Cruz to Cochabamba. Result: Order is Invalid"); no retreat
    across one (the Chilean Andes example 3)."""
    codes = lad("C1891M", {"Peru": ["A AYA"], "Chile": ["A LIM"]}, {"Peru": ["A AYA S A LIM"]})
    assert codes == {"A AYA S A LIM": R.MOUNTAIN_PROVINCE}
    codes = lad("C1891M", {"Bolivia": ["R BEN", "A SCZ"]},
                {"Bolivia": ["R Beni S A Santa Cruz to Cochabamba", "A SCZ - COC"]})
    assert codes == {"R BEN S A SCZ - COC": R.MOUNTAIN_BORDER}
    codes = lad("B1891R", {"Argentina": ["A ATA"]}, {"Chile": ["A ATA R CAT"]},
                dislodged={"Chile": [{"unit": "A ATA", "from": "SJU"}]})
    assert codes == {"A ATA R CAT": R.MOUNTAIN_BORDER}


def test_lad_andes_crossings() -> None:
    """5.C.iii the Greater Andes (strength 0) and 5.C.iv the Chilean Andes (no crossing
    without support in the A phase)."""
    codes = lad("C1891M", {"Bolivia": ["A AYA", "A HUA"], "Peru": ["A LIM"]},
                {"Bolivia": ["A AYA - LIM", "A HUA S A AYA - LIM"]})
    assert codes == {"A AYA - LIM": R.WEAK_CROSSING}
    codes = lad("A1891M", {"Argentina": ["A SJU"]}, {"Argentina": ["A SJU - ATA"]})
    assert codes == {"A SJU - ATA": R.NEEDS_SUPPORT}


def test_lad_rainforests() -> None:
    """5.D: no army support across a rainforest border; "A Para to Manaus ... not the
    movement order" (it entered Para from Cuiabá: only the way back)."""
    codes = lad("C1891M", {"Brazil": ["A MAN", "A RBR"]}, {"Brazil": ["A MAN S A RBR"]})
    assert codes == {"A MAN S A RBR": R.RAINFOREST_BORDER}
    codes = lad("C1891M", {"Peru": ["A PRA", "A AMZ"]}, {"Peru": ["A PRA - MAN"]},
                extra={"rainforests": {"A PRA": "CUI"}})
    assert codes == {"A PRA - MAN": R.WAY_BACK_ONLY}


def test_lad_swamps_and_deserts() -> None:
    codes = lad("C1891M", {"Argentina": ["A FOR", "A ASU", "A SAL"]},
                {"Argentina": ["A ASU S A FOR", "A SAL S A FOR"]})
    assert codes == {"A ASU S A FOR": R.SWAMP, "A SAL S A FOR": R.SWAMP}
    codes = lad("C1891M", {"Chile": ["A ANT", "A ATA"]}, {"Chile": ["A ANT S A ATA"]})
    assert codes == {"A ANT S A ATA": R.DESERT_BORDER}


def test_lad_flotillas_in_deep_water() -> None:
    """6.B.ii: in deep water a flotilla "cannot support another unit, and has an attack
    strength of zero"; 6.E: no flotilla support into a sea (a rule of its own)."""
    codes = lad("C1891M", {"Argentina": ["R FCU", "F WFA"]}, {"Argentina": ["R FCU S F WFA"]})
    assert codes == {"R FCU S F WFA": R.DEEP_WATER}
    codes = lad("C1891M", {"Argentina": ["R GSJ"], "Brazil": ["F ARB"]},
                {"Argentina": ["R GSJ - FCU"], "Brazil": ["F ARB - FCU"]})
    assert codes == {"R GSJ - FCU": R.DEEP_WATER}
    codes = lad("C1891M", {"Argentina": ["R FCU", "R GSJ"], "Chile": ["F BGR"]},
                {"Argentina": ["R GSJ S R FCU - BGR", "R FCU - BGR"]})
    assert codes["R GSJ S R FCU - BGR"] == R.RULE_FORBIDS


def test_lad_canals_closed_then_built_and_opened() -> None:
    """"Once four builds have been spent on the building of the canal, the Canal will open
    in the first movement phase ... of the succeeding year"; until then it is closed, and a
    fleet must first occupy Panamá."""
    codes = lad("C1891M", {"Colombia": ["F PAN/NC"]}, {"Colombia": ["F PAN - GPA"]})
    assert codes == {"F PAN/NC - GPA": R.PASSAGE_CLOSED}
    codes = lad("A1892M", {"Colombia": ["F GMO"]}, {"Colombia": ["F GMO - GPA"]},
                extra={"canals": {"PAN": 4, "open": {"PAN": 1892}}})
    assert codes == {"F GMO - GPA": R.NOT_ADJACENT}
    centers = {"Colombia": ["PAN", "MED", "BOG", "QUI"]}
    units = {"Colombia": ["A PAN", "A MED"]}
    request = {"variant": "lad1890", "phase": "D1891A", "units": units, "centers": centers,
               "orders": {"Colombia": ["Build Panama Canal"]}, "extra": {"canals": {"PAN": 2}}}
    out = adjudicate_request(request)
    assert [e["code"] for e in out["events"]] == [R.CANAL_PROGRESS]
    assert [e["code"] for e in report_json("lad1890", request)["events"]] == [R.CANAL_PROGRESS]
    request["extra"] = {"canals": {"PAN": 3}}
    out = adjudicate_request(request)
    assert [e["code"] for e in out["events"]] == [R.CANAL_OPENED]
    assert [e["code"] for e in report_json("lad1890", request)["events"]] == [R.CANAL_OPENED]
    # "A unit must be present in Panama": without one the build does not count
    codes = lad("D1891A", {"Colombia": ["A MED", "A BOG"]},
                {"Colombia": ["Build Panama Canal"]}, centers=centers)
    assert codes == {"BUILD PAN CANAL": R.ACT_NOT_COUNTED}


def test_lad_anchor_markers_made_captured_released_and_sunk() -> None:
    """6.C-D: "F Amapa to Para [becomes R, Anchor Marker left in Amapa]"; capture, release
    and sink."""
    def events(units: dict, orders: dict, extra: dict | None = None) -> list[str]:
        request = {"variant": "lad1890", "phase": "A1891M", "units": units, "orders": orders,
                   **({"extra": extra} if extra else {})}
        out = adjudicate_request(request)
        assert "error" not in out, out
        got = [e["code"] for e in out["events"]]
        assert [e["code"] for e in report_json("lad1890", request)["events"]] == got
        return got

    assert events({"Brazil": ["F AMP"]}, {"Brazil": ["F Amapa to Para"]}) == [R.ANCHOR_MADE]
    assert events({"Spain": ["F GBS"]}, {"Spain": ["F GBS - GUY capture ships"]},
                  {"anchors": {"GUY/SC": 1}}) == [R.ANCHOR_CAPTURED]
    assert events({"Spain": ["F SUR"]}, {"Spain": ["F Surinam Release Anchor Marker"]},
                  {"ships": {"F SUR": 1}}) == [R.ANCHOR_RELEASED]
    assert events({"Spain": ["F SUR"]}, {"Spain": ["F SUR sink additional ships"]},
                  {"anchors": {"SUR": 1}}) == [R.ANCHOR_SUNK]


def test_lad_bolivia_recapturing_antofagasta_gets_a_new_home() -> None:
    """7.B: "if [Bolivia] can reclaim Antofagasta, in this game it can use Antofagasta as a
    Home Center"."""
    request = {"variant": "lad1890", "phase": "C1891M", "units": {"Bolivia": ["A TAR"]},
               "orders": {"Bolivia": ["A TAR - ANT"]}}
    out = adjudicate_request(request)
    assert [e["code"] for e in out["events"]] == [R.NEW_HOME]
    assert [e["code"] for e in report_json("lad1890", request)["events"]] == [R.NEW_HOME]


# ---- War in North America (seed 004): Alaska joins the USA ------------------------------------

def test_wina_alaska_joins_the_united_states_or_not() -> None:
    """"Wurde das russische Alaska bis zum Winter 1867 nicht erobert, so schließt sich dieses
    Gebiet automatisch den Vereinigten Staaten von Amerika an."""
    request = {"variant": "war_in_north_america", "phase": "F1867M",
               "units": {"Russia": ["A ALA"], "Canada": ["A WIN"]}, "orders": {}}
    out = adjudicate_request(request)
    assert "error" not in out, out
    assert [e["code"] for e in out["events"]] == [R.PROVINCE_JOINS]
    rep = report_json("war_in_north_america", request)
    assert [e["code"] for e in rep["events"]] == [R.PROVINCE_JOINS]
    request = {**request, "units": {"Russia": ["A ALA"], "Canada": ["A NWT", "F GOA"]},
               "orders": {"Canada": ["A NWT - ALA", "F GOA S A NWT - ALA"]}}
    out = adjudicate_request(request)  # conquered in the fall: it does not join
    assert out["reasons"]["A ALA H"]["code"] == R.DISLODGED
    after = adjudicate_request({**request, "phase": "F1867R", "units": out["units"],
                                "dislodged": out["dislodged"], "orders": {}})
    assert "error" not in after, after
    assert R.JOIN_FAILED in [e["code"] for e in after["events"]]


def test_wina_neutral_units_disbanded_are_reported() -> None:
    """"Die Einheiten der neutralen Staaten ... werden aufgelöst" (decision 13): a neutral
    unit dislodged is disbanded instead of retreating: an event, and its reason."""
    request = {"variant": "war_in_north_america", "phase": "S1866M",
               "units": {"Spain": ["A CUB"], "Confederate States": ["F FLA", "F GOM"]},
               "orders": {"Confederate States": ["F FLA - CUB", "F GOM S F FLA - CUB"]}}
    out = adjudicate_request(request)
    assert "error" not in out, out
    assert [e["code"] for e in out["events"]] == [R.NEUTRAL_DISBANDED]
    assert out["no_retreat"]["A CUB"]["code"] == R.NEUTRAL_DISBANDS
    rep = report_json("war_in_north_america", request)
    assert [e["code"] for e in rep["events"]] == [R.NEUTRAL_DISBANDED]
    assert [d["reason"] for d in rep["dislodged"]] == [R.NEUTRAL_DISBANDS]



def test_lad_a_fleet_routed_in_an_ocean_may_not_retreat() -> None:
    """"A Fleet that is defeated in an Ocean Province by a force 3 or more stronger ... is
    not allowed to retreat, and is disbanded" (seed 001, 5.F): its reason is the rout, in
    the one-shot answer and the GM's report, not "nowhere to go" (the ocean around it is
    empty)."""
    request = {"variant": "lad1890", "phase": "A1891M",
               "units": {"Chile": ["F PBS"] * 4, "Peru": ["F PBS"]},
               "orders": {"Chile": ["F PBS AT PERU", "F PBS S F PBS AT PERU",
                                    "F PBS S F PBS AT PERU", "F PBS S F PBS AT PERU"]}}
    out = adjudicate_request(request)
    assert "error" not in out, out
    assert out["no_retreat"]["F PBS"]["code"] == R.ROUTED
    rep = report_json("lad1890", request)
    assert [d["reason"] for d in rep["dislodged"]] == [R.ROUTED]


# ---- The Twentieth Century (seed 003): straits and canals by control --------------------------

def test_tc_a_closed_strait_names_who_controls_it() -> None:
    """Straits & Canals: "Britain owns Cairo. The Britain player may order F(Aegean Sea) to
    Red Sea" — Italy may not, unless Britain lets it."""
    out = adjudicate("twentieth_century", "S1901M", units={"Italy": ["F AEG"]},
                     orders={"Italy": ["F AEG - RSE"]})
    reason = out["reasons"]["F AEG - RSE"]
    assert reason["code"] == R.PASSAGE_CLOSED and "Britain" in reason["text"]
    codes = both("twentieth_century", "S1901M", {"Italy": ["F AEG"]},
                 {"Italy": ["F AEG - RSE"]})
    assert codes == {"F AEG - RSE": R.PASSAGE_CLOSED}


def test_tc_a_strait_changing_hands_is_an_event() -> None:
    request = {"variant": "twentieth_century", "phase": "F1901M",
               "units": {"Italy": ["A DAM"]}, "orders": {"Italy": ["A DAM - CAI"]}}
    out = adjudicate_request(request)
    assert "error" not in out, out
    assert out["centers"]["Italy"] == ["CAI"] or "CAI" in out["centers"]["Italy"]
    assert R.PASSAGE_OPENED in [e["code"] for e in out["events"]]
    assert R.PASSAGE_OPENED in [e["code"] for e in report_json("twentieth_century",
                                                               request)["events"]]


# ---- WITA (seed 002's build rule): a build site refused ------------------------------------

def test_wita_builds_only_on_centers_owned_at_the_start_of_the_year() -> None:
    """"units may be built on any supply center owned by a power at the beginning of the
    year": Asunción, taken this fall, is no build site yet; Córdoba, owned since the year
    began, is one."""
    codes = both("wita", "W1901A", {"Argentina": ["A SFE"]},
                 {"Argentina": ["A ASU B", "A COR B"]},
                 centers={"Argentina": ["BAS", "COR", "SFE", "ASU"]},
                 year_start_centers={"Argentina": ["BAS", "COR", "SFE"]})
    assert codes == {"A ASU B": R.NOT_A_BUILD_SITE}


def test_the_board_shows_the_events_of_a_phase() -> None:
    """War in North America: the phase in which Alaska joins the United States shows it."""
    from polydip.render import picture_svg

    g = Game.new("war_in_north_america")
    g.position = build_position(g.map, {"phase": "F1867M", "units": {"Russia": ["A ALA"],
                                                                     "Canada": ["A WIN"]}},
                                g.options)
    g.process()
    svg = picture_svg(g, "F1867M")
    assert re.search(r'<g class="events"><text [^>]*data-event="province_joins">ALA joins',
                     svg.replace("\n", ""))


# ---- every failure has a reason, on every variant -------------------------------------------

# the reasons a legal order may still be void for: what the other orders did
CONTEXT = {R.SUPPORT_UNMATCHED, R.CONVOY_UNMATCHED, R.CONVOY_NOT_NEEDED, R.NO_CONVOY_ROUTE,
           R.SUPPORT_OWN_CONVOY, R.NO_UNIT}


@pytest.mark.parametrize("variant", ["standard", "lad1890", "twentieth_century",
                                     "war_in_north_america", "wita"])
def test_every_failed_order_of_random_games_has_a_specific_reason(variant: str) -> None:
    """Random legal orders (many supports and convoys that do not match) and random moves to
    any province (mostly illegal): every result that is not success gets a known code with
    words, and none falls back to the explainer's catch-all."""
    import random

    rnd = random.Random(7)
    g = Game.new(variant)
    m = g.map
    provinces = list(m.prov_abbr)
    seen: set[str] = set()
    for _ in range(8):
        if g.is_over:
            break
        offered: set[str] = set()  # orders the legal-order lister gave
        for p in g.powers_to_order():
            legal = g.legal_orders(p)
            orders = []
            for unit, choices in legal.items():
                if g.position.phase.type == "M" and rnd.random() < 0.3:
                    orders.append(f"{unit} - {rnd.choice(provinces)}")
                else:
                    orders.append(rnd.choice(choices))
                    offered.add(orders[-1])
            g.orders[p] = orders
        out = g.process()
        for (_, text, words), why in zip(out.rows(), out.reasons(), strict=True):
            if not words or words == ["disband"]:
                continue
            assert why is not None, (text, words)
            assert why.code in R.CODES and why.words, (text, why)
            assert why.words != "the order is illegal here", (text, words)
            # an order the lister offers is never void for what the map or a rule forbids:
            # only for what the other orders did (one legality source)
            if words[0] == "void" and text in offered and g.history[-1].position.phase.type \
                    == "M":
                assert why.code in CONTEXT, (text, why)
            seen.add(why.code)
        for e in out.events:
            assert e.code in R.EVENTS and e.words
    assert len(seen) >= 4, seen


# ---- the rest of the codes ---------------------------------------------------------------------

def test_a_move_to_where_it_stands_and_from_the_wrong_coast() -> None:
    codes = both("standard", "S1901M", {"France": ["A PAR"], "Russia": ["F STP/NC"]},
                 {"France": ["A PAR - PAR"], "Russia": ["F STP - BOT"]})
    assert codes == {"A PAR - PAR": R.SAME_PROVINCE, "F STP/NC - BOT": R.WRONG_COAST}


def test_wina_a_fleet_only_at_the_captured_home() -> None:
    """"Nur in diesem VZ können Flotten gebaut werden": a fleet elsewhere is refused by the
    rule, even on a home where a fleet could stand."""
    homes = {"Native Federation": ["APA", "COM", "SOU", "BOS"]}
    codes = both("war_in_north_america", "W1860A", {"Native Federation": ["A APA"]},
                 {"Native Federation": ["F BOS B"]}, homes=homes,
                 centers={"Native Federation": ["APA", "COM", "SOU", "BOS"]})
    assert codes == {"F BOS B": R.BUILD_FORBIDDEN}


def test_a_passage_split_between_powers_closes_as_an_event() -> None:
    from polydip.rules.controlled_passages import ControlledPassages

    g = Game.new("twentieth_century")
    m = g.map
    rule = next(r for r in m.rules.rules if isinstance(r, ControlledPassages))
    after = g.position.copy()
    after.owners = list(after.owners)
    after.owners[m.prov_index["CAI"]] = -1
    assert [e.code for e in rule.events(m, g.position, after)] == [R.PASSAGE_SHUT]
    assert [e.code for e in rule.events(m, after, g.position)] == [R.PASSAGE_OPENED]


def test_orders_the_entry_points_refuse_still_get_a_reason() -> None:
    """The engine refuses a build that names no unit kind and an order of another phase when
    they are given; the adjudicators, called directly, still say why."""
    from polydip.adjudication.adjustments import resolve_adjustments
    from polydip.adjudication.retreats import resolve_retreats, retreat_reasons
    from polydip.orders.model import BUILD, HOLD, Order
    from polydip.state import Dislodged

    g = Game.new("standard")
    m, pos = g.map, g.position.copy()
    pos.owners = list(pos.owners)
    pos.owners[m.prov_index["BEL"]] = g.power("France")
    pos.units = [u for u in pos.units if m.loc_prov[u.loc] != m.prov_index["MAR"]]
    france = g.power("France")
    orders = [[] for _ in m.powers]
    orders[france] = [Order(BUILD, loc=m.prov_index["MAR"], text="BUILD MAR")]
    ar = resolve_adjustments(m, pos, orders)
    assert ar.reasons[france] == [R.reason(R.KIND_NEEDED, ar.reasons[france][0].words)]
    d = Dislodged(france, m.kind_index["A"], m.prov_index["PAR"], m.prov_index["BUR"], False,
                  (m.prov_index["GAS"],))
    pos.dislodged = [d]
    hold = Order(HOLD, kind=d.kind, loc=d.loc, text="A PAR H")
    rr = resolve_retreats(m, [d], [hold])
    assert [r.code for r in retreat_reasons(m, pos, [hold], rr) if r] == [R.WRONG_PHASE]


def test_scheduled_events_given_as_words_are_centers_changed_by_an_event() -> None:
    """A rule's before_phase may still return plain words: they are reported as an event
    whose code is center_by_event."""
    from polydip.game.engine import next_phase
    from polydip.rules.base import Rule

    class Words(Rule):
        name = "words"

        def before_phase(self, m, pos, phase):  # type: ignore[no-untyped-def]
            return ["the Pope crowns a king"]

    g = Game.new("standard")
    m = g.map
    saved = m.rules
    try:
        from polydip.rules.base import RuleSet

        m.rules = RuleSet([Words({}, m.variant, "rules.words")])
        fired: list = []
        next_phase(m, g.position.copy(), g.position.phase, [], fired)
        assert fired and {e.code for e in fired} == {R.CENTER_BY_EVENT}
    finally:
        m.rules = saved


def test_lad_a_fleet_beaten_in_an_ocean_by_three_is_routed() -> None:
    """LAD: "Your attack must have an attack strength 3 greater than the opposing powers
    fleet ... Spanish F is not allowed to retreat, and is disbanded": the reason is the
    rout, not places around the ocean that it could otherwise have retreated to."""
    request = {"variant": "lad1890", "phase": "A1892M",
               "units": {"Spain": ["F MAO"], "France": ["F MAO", "F BAR", "F GGU", "F MRT"]},
               "orders": {"France": ["F MAO AT Spain", "F BAR S F MAO AT Spain",
                                     "F GGU S F MAO AT Spain", "F MRT S F MAO AT Spain"]}}
    out = adjudicate("lad1890", "A1892M", **{k: v for k, v in request.items()
                                             if k not in ("variant", "phase")})
    assert out["destroyed"] == {"Spain": [{"unit": "F MAO", "from": "MAO"}]}
    assert out["no_retreat"]["F MAO"]["code"] == R.ROUTED
    rep = report_json("lad1890", request)
    assert [(d["unit"], d["reason"]) for d in rep["dislodged"]] == [("F MAO", R.ROUTED)]


def test_every_code_has_a_scenario_here() -> None:
    """Each code of adjudication/reasons.py is asserted by some test of this file."""
    text = Path(__file__).read_text()
    missing = [name for name, code in vars(R).items() if name.isupper()
               and isinstance(code, str) and f"R.{name}" not in text.split(
                   "def test_every_code_has_a_scenario_here")[0]]
    assert missing == []


def test_wina_the_native_federations_fleet_home_is_an_event() -> None:
    """"Das erstbesetzte VZ wird zum Heimat-VZ. Nur in diesem VZ können Flotten gebaut
    werden": California taken in the fall becomes the Native Federation's fleet home."""
    request = {"variant": "war_in_north_america", "phase": "F1859M",
               "units": {"Native Federation": ["A APA"]},
               "orders": {"Native Federation": ["A APA - CAL"]}}
    out = adjudicate_request(request)
    assert "error" not in out, out
    assert [e["code"] for e in out["events"]] == [R.NEW_HOME]
    rep = report_json("war_in_north_america", request)
    assert [e["code"] for e in rep["events"]] == [R.NEW_HOME]


def test_the_adjudicate_command_and_the_process_command_say_why(tmp_path, capsys) -> None:
    """`polydip adjudicate` writes the reasons beside the results; `polydip process`
    prints them, and `polydip show --phase S1901M --format json` (a later run, the game
    read from its file) still has them."""
    from polydip.cli.main import main

    req = tmp_path / "req.json"
    req.write_text(json.dumps({"phase": "S1901M", "units": {"France": ["A PAR"]},
                               "orders": {"France": ["A PAR - MUN"]}}))
    assert main(["adjudicate", str(req)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["results"] == {"A PAR - MUN": ["void"]}  # (the old key, as it was)
    assert out["reasons"]["A PAR - MUN"]["code"] == R.NOT_ADJACENT
    game = str(tmp_path / "g.json")
    assert main(["new", "standard", game]) == 0
    assert main(["orders", game, "France: A PAR - MUN"]) in (0, 1, 2)
    capsys.readouterr()
    assert main(["process", game]) == 0
    assert "A PAR - MUN  (void) — " in capsys.readouterr().out
    assert main(["show", game, "--phase", "S1901M", "--format", "json"]) == 0
    shown = capsys.readouterr().out
    rep = json.loads(shown[shown.index("{"):])
    reasons = [o["reason"] for s in rep["powers"] for o in s["orders"] if o["reason"]]
    assert reasons == [R.NOT_ADJACENT]


def test_no_retreat_names_a_strait_closed_to_the_unit(tmp_path) -> None:
    """A fleet whose only free neighbour lies through a strait closed to its power: the
    reason it cannot retreat names the strait (and who controls it)."""
    from rules.test_rules import strait

    v = strait(tmp_path)
    out = adjudicate(v, "S1901M", units={"Red": ["F S", "A A1"], "Blue": ["F B1", "F N2"]},
                     centers={"Blue": ["N2", "B1"], "Red": ["A1"]},
                     orders={"Blue": ["F B1 - S", "F N2 S F B1 - S"]})
    assert out["destroyed"] == {"Red": [{"unit": "F S", "from": "B1"}]}
    why = out["no_retreat"]["F S"]
    assert why["code"] == R.NO_RETREAT and "Strait" in why["text"] and "Blue" in why["text"]
