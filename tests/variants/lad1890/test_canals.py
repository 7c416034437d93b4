"""Latin American Diplomacy 1890, part 2: canal building (Panamá, and Nicaragua in two
sections), each example of the seed's "(Building) canals and porous provinces" a test quoting
the sentence it checks (seed 001, "Latin American Diplomacy" by Michael Zmolek)."""

from __future__ import annotations

import random

from polydip.game.game import Game
from polydip.oneshot import adjudicate_request
from polydip.play import random_orders
from polydip.render import picture_svg
from polydip.report import build_report, format_report
from polydip.state import Phase, Unit
from polydip.variants.loader import load_variant

V = load_variant("lad1890")
COLOMBIA = {"Colombia": ["PAN", "MED", "BOG", "QUI"]}  # 5 by value: builds due with 2 units


def adjudicate(phase: str, units: dict, orders: dict, centers: dict | None = None,
               extra: dict | None = None) -> dict:
    req = {"variant": "lad1890", "phase": phase, "units": units, "orders": orders}
    if centers is not None:
        req["centers"] = centers
    if extra:
        req["extra"] = extra
    out = adjudicate_request(req)
    assert "error" not in out, out
    return out


def test_four_builds_complete_the_panama_canal_which_opens_the_next_a_phase() -> None:
    """"The cost of building the canal will be four years worth of one units builds."
    "Once four builds have been spent on the building of the canal, the Canal will open in
    the first movement phase (A phase: March-June) of the succeeding year. Example: The
    fourth build is spent in the build phase (D Phase: December-March) of 1891; units will
    be able to use the canal in the first movement phase (A Phase: March-June) of 1892."
    "canals do not permit a fleet to move from one side to the other without first occupying
    the province\""""
    units = {"Colombia": ["A PAN", "A MED"]}
    extra: dict = {}
    for year in (1888, 1889, 1890, 1891):  # one build a year, four years
        out = adjudicate(f"D{year}A", units, {"Colombia": ["Build Panama Canal", "WAIVE",
                                                           "WAIVE"]}, COLOMBIA, extra)
        assert out["results"]["BUILD PAN CANAL"] == [], year
        extra = out["extra"]
    assert extra == {"canals": {"PAN": 4, "open": {"PAN": 1892}}}
    shut = adjudicate("C1891M", {"Colombia": ["F PAN/NC"]}, {"Colombia": ["F PAN - GPA"]})
    assert shut["results"]["F PAN/NC - GPA"] == ["void"]  # not yet open
    through = adjudicate("A1892M", {"Colombia": ["F PAN/NC"]}, {"Colombia": ["F PAN - GPA"]},
                         extra=extra)
    assert through["units"] == {"Colombia": ["F GPA"]}
    across = adjudicate("A1892M", {"Colombia": ["F GMO"]}, {"Colombia": ["F GMO - GPA"]},
                        extra=extra)
    assert across["results"]["F GMO - GPA"] == ["void"]  # it must first occupy Panamá


def test_three_builds_due_may_all_go_to_the_canal() -> None:
    """"A player who controls Panama, and has three builds due on a particular turn, may
    spend all three builds on building the Canal if s/he so chooses. A unit must be present
    in Panama and must HOLD on the turn when the order to build is given.\""""
    out = adjudicate("D1891A", {"Colombia": ["A PAN", "A MED"]},
                     {"Colombia": ["Build Panama Canal"] * 3}, COLOMBIA)
    assert out["extra"] == {"canals": {"PAN": 3}}
    assert out["units"] == {"Colombia": ["A PAN", "A MED"]}  # no unit built
    out = adjudicate("D1891A", {"Colombia": ["A MED", "A BOG"]},
                     {"Colombia": ["Build Panama Canal"]}, COLOMBIA)
    assert out["results"]["BUILD PAN CANAL"] == ["void"] and "extra" not in out


def test_others_contribute_only_with_the_occupier() -> None:
    """"Players not in control of Panama may contribute to the building of the Canal by
    foregoing builds they are due ... However, this contribution towards the building of the
    canal will not count if the occupying power does not also submit the order Build Panama
    Canal on the same Second Retreat and Build Phase.\""""
    units = {"Colombia": ["A PAN", "A MED"], "Venezuela": ["A CCS"]}
    centers = {**COLOMBIA, "Venezuela": ["CCS", "MCB"]}
    alone = adjudicate("D1891A", units, {"Venezuela": ["Build Panama Canal"]}, centers)
    assert alone["results"]["BUILD PAN CANAL"] == ["void"] and "extra" not in alone
    both = adjudicate("D1891A", units, {"Venezuela": ["Build Panama Canal"],
                                        "Colombia": ["Build Panama Canal"]}, centers)
    assert both["extra"] == {"canals": {"PAN": 2}}


def test_progress_survives_a_change_of_controller() -> None:
    """"If, during this period, another power takes over Panama, then the number of builds
    foregone is subtracted from the number needed to complete the Canal.\""""
    out = adjudicate("D1891A", {"Venezuela": ["A PAN", "A CCS"]},
                     {"Venezuela": ["Build Panama Canal"]},
                     {"Venezuela": ["PAN", "CCS", "MCB"]}, extra={"canals": {"PAN": 3}})
    assert out["extra"] == {"canals": {"PAN": 4, "open": {"PAN": 1892}}}


def test_the_nicaragua_canal_has_two_sections() -> None:
    """"This canal will cost in total only THREE units foregone. Moreover, the canal can be
    built in two parts: building the section through Miskito Coast, connecting Bahía Punta
    Gorda with Lago de Nicaragua will cost 2 units, and building the section through León,
    connecting Golfo de Fonseca with Lago de Nicaragua will cost 1 unit." "a power could
    build the Canal through León, while not in control of Miskito\""""
    centers = {"Mexico": ["LEO", "MEX", "GDL", "SLP"]}
    out = adjudicate("D1891A", {"Mexico": ["A LEO", "A MEX"]},
                     {"Mexico": ["Build León Canal", "Build Miskito Coast Canal"]}, centers)
    assert out["results"]["BUILD LEO CANAL"] == []
    assert out["results"]["BUILD MSK CANAL"] == ["void"]  # nobody of Mexico's there
    assert out["extra"] == {"canals": {"LEO": 1, "open": {"LEO": 1892}}}
    lake = adjudicate("A1892M", {"Mexico": ["F LEO/SC"]}, {"Mexico": ["F LEO - LNI"]},
                      extra=out["extra"])
    assert lake["units"] == {"Mexico": ["F LNI"]}
    out = adjudicate("D1891A", {"Mexico": ["A MSK", "A MEX"]},
                     {"Mexico": ["Build Canal Miskito Coast"] * 3}, centers)
    assert out["extra"] == {"canals": {"MSK": 2, "open": {"MSK": 1892}}}
    assert out["results"]["BUILD MSK CANAL"] == ["void"]  # (the third: it needs only two)


def test_the_report_tracks_canal_progress() -> None:
    """"The GMs reports will track the progress of canal building.\""""
    g = Game.new(V)
    g.position.phase = Phase(1891, "D", "A")
    m = g.map
    g.position.units = [Unit(g.power("Colombia"), m.kind_index["A"], m.loc_of("PAN"))]
    assert g.set_orders("Colombia", ["Build Panama Canal"]) == []
    g.process()
    assert "Canal Panamá (PAN): 1 of 4 builds" in format_report(build_report(g, g.history[-1]))


def test_the_map_shows_canal_progress() -> None:
    """Issue 11: "The report and the map show ... canal progress": a tag by the canal's
    province, "canal 1/4" after the first build."""
    g = Game.new(V)
    g.position.phase = Phase(1891, "D", "A")
    m = g.map
    g.position.units = [Unit(g.power("Colombia"), m.kind_index["A"], m.loc_of("PAN"))]
    assert 'data-marker="PAN"' not in picture_svg(g)
    assert g.set_orders("Colombia", ["Build Panama Canal"]) == []
    g.process()
    svg = picture_svg(g)
    tag = svg.split('data-marker="PAN"')[1].split("</g>")[0]
    assert ">canal 1/4</text>" in tag


def test_legal_orders_offer_the_canal_build() -> None:
    """A power with builds due that controls a canal's province with a unit there finds
    "BUILD PAN CANAL" among its adjustment orders, and so do the others ("Players not in
    control of Panama may contribute"); nobody may while nobody controls it with a unit."""
    g = Game.new(V)
    g.position.phase = Phase(1891, "D", "A")
    m = g.map
    g.position.units = [Unit(g.power("Colombia"), m.kind_index["A"], m.loc_of("PAN"))]
    assert "BUILD PAN CANAL" in g.legal_orders("Colombia")["PAN"]
    assert g.legal_orders("Mexico")["PAN"] == ["BUILD PAN CANAL"]
    g.position.units = []
    assert "PAN" not in g.legal_orders("Mexico")


def test_random_games_build_canals_and_play_to_1917d() -> None:
    """Random legal orders build canals (in this game Panama's opens, in 1902) and the game
    plays to its end."""
    g = Game.new(V)
    rng = random.Random(0)
    while not g.is_over:
        for p, lst in random_orders(g.map, g.position, rng).items():
            assert g.set_orders(p, lst) == [], (g.phase, lst)
        g.process()
    assert g.position.phase.year == 1918
    assert g.position.extra["canals"]["open"]


# ---- porous provinces (issue 28, item 2) -------------------------------------------------------

OPEN = {"canals": {"PAN": 4, "open": {"PAN": 1892}}}


def test_a_fleet_enters_an_open_canal_province_without_naming_a_coast() -> None:
    """"No coastal specification is necessary when moving a fleet or river flotilla into a
    canal province, as these provinces are porous." Golfo de los Mosquitos reaches both of
    Panamá's coasts once the canal is open (the north coast by the sea, the south by the
    canal): the fleet goes to the coast its own sea touches."""
    out = adjudicate("A1892M", {"Colombia": ["F GMO"]},
                     {"Colombia": ["F Golfo de los Mosquitos - Panama"]}, extra=OPEN)
    assert out["results"] == {"F GMO - PAN": []}
    assert out["units"] == {"Colombia": ["F PAN/NC"]}
    out = adjudicate("A1892M", {"Colombia": ["F GPA"]}, {"Colombia": ["F GPA - PAN"]},
                     extra=OPEN)
    assert out["units"] == {"Colombia": ["F PAN/SC"]}


def test_before_the_canal_opens_the_only_coast_open_is_meant() -> None:
    """DATC 4.B.1, "only one coast possible": before the canal is built, its edge is closed,
    so Golfo de los Mosquitos reaches only Panamá's north coast and a move naming no coast
    goes there."""
    out = adjudicate("A1891M", {"Colombia": ["F GMO"]}, {"Colombia": ["F GMO - PAN"]})
    assert out["results"] == {"F GMO - PAN": []}
    assert out["units"] == {"Colombia": ["F PAN/NC"]}


def test_a_fleet_built_in_a_porous_province_needs_no_coast() -> None:
    """"Should a canal be built through Panama, the province becomes porous and no
    designation of the coast is necessary any longer": "Build F Panama" builds (on the
    first coast, the north); before the canal, it must name a coast."""
    out = adjudicate("D1892A", {"Colombia": ["A MED"]}, {"Colombia": ["Build F Panama"]},
                     COLOMBIA, extra=OPEN)
    assert out["results"] == {"F PAN B": []}
    assert out["units"] == {"Colombia": ["A MED", "F PAN/NC"]}
    shut = adjudicate("D1891A", {"Colombia": ["A MED"]}, {"Colombia": ["Build F Panama"]},
                      COLOMBIA)
    assert shut["reasons"]["F PAN B"]["code"] == "coast_needed"


def test_a_retreat_into_a_porous_province_needs_no_coast() -> None:
    """A dislodged fleet that may retreat to both of Panamá's coasts (the canal open)
    retreats to "Panama" on the coast its sea touches."""
    out = adjudicate_request({"variant": "lad1890", "phase": "B1892R", "extra": OPEN,
                              "units": {"Peru": ["F GDA"]},
                              "dislodged": {"Colombia": [{"unit": "F GMO", "from": "BPG"}]},
                              "orders": {"Colombia": ["F GMO R Panama"]}})
    assert out["results"] == {"F GMO R PAN": []}
    assert out["units"]["Colombia"] == ["F PAN/NC"]


def test_the_gm_enters_a_coastless_move_into_the_open_canal(tmp_path, capsys) -> None:
    """The same through the GM's commands: `polydip orders` takes "F Golfo de los Mosquitos
    - Panama", `polydip process` carries it out, `polydip show` has the fleet in Panamá."""
    from polydip.cli.main import main
    g = Game.new(V)
    g.position.phase = Phase(1892, "A", "M")
    g.position.units = [Unit(g.power("Colombia"), g.map.kind_index["F"], g.map.loc_of("GMO"))]
    g.position.extra = dict(OPEN)
    path = str(tmp_path / "lad.json")
    g.save(path)
    assert main(["orders", path, "Colombia", "F Golfo de los Mosquitos - Panama"]) == 0
    assert main(["process", path]) == 0
    back = Game.load(path)
    assert [g.map.unit_str(u.kind, u.loc) for u in back.position.units] == ["F PAN/NC"]
    capsys.readouterr()
    assert main(["show", path]) == 0
    assert "PAN/NC" in capsys.readouterr().out


# ---- canal building at the GM's table (issue 28, item 6) ---------------------------------------

def _gm_game(tmp_path, units: list[tuple[str, str, str]], extra: dict | None = None,
             phase: Phase | None = None) -> str:
    """A game file in `phase` with `units` (power, kind, place) and Colombia's centers."""
    g = Game.new(V)
    m = g.map
    g.position.phase = phase or Phase(1891, "D", "A")
    g.position.units = [Unit(g.power(p), m.kind_index[k], m.loc_of(x)) for p, k, x in units]
    for c in COLOMBIA["Colombia"]:
        g.position.owners[m.prov_index[c]] = g.power("Colombia")
    g.position.extra = dict(extra or {})
    path = str(tmp_path / "lad.json")
    g.save(path)
    return path


def test_the_report_counts_canal_builds_as_contributions_not_waived(tmp_path, capsys) -> None:
    """"Each year the said player will order: "Build Panama Canal" instead of submitting an
    earned build" - "A player who controls Panama, and has three builds due on a particular
    turn, may spend all three builds on building the Canal": the GM enters the three, and
    the report says they were contributed to the canal, none waived."""
    from polydip.cli.main import main
    path = _gm_game(tmp_path, [("Colombia", "A", "PAN"), ("Colombia", "A", "MED")])
    assert main(["orders", path, "Colombia", "Build Panama Canal", "Build Panama Canal",
                 "Build Panama Canal"]) == 0
    capsys.readouterr()
    assert main(["process", path]) == 0
    out = capsys.readouterr().out
    assert "Colombia: 3 builds contributed to the canal of Panamá (PAN)" in out
    assert "Colombia: " not in out.replace("Colombia: 3 builds contributed", "")  # no waived
    assert Game.load(path).position.extra["canals"] == {"PAN": 3}


def test_a_contribution_beyond_what_the_canal_needs_is_refused_at_entry(tmp_path, capsys
                                                                        ) -> None:
    """"Once four builds have been spent on the building of the canal, the Canal will
    open": with three of four made, a second "Build Panama Canal" would be lost - it is
    refused when given (code adjustment_refused), so the power can build a unit instead."""
    from polydip.cli.main import main
    path = _gm_game(tmp_path, [("Colombia", "A", "PAN"), ("Colombia", "A", "MED")],
                    {"canals": {"PAN": 3}})
    code = main(["orders", path, "Colombia", "Build Panama Canal", "Build Panama Canal",
                 "Build A Bogota"])
    out = capsys.readouterr()
    said = out.out + out.err
    assert code != 0 and "argument 3: Build Panama Canal" in said
    assert "[adjustment_refused]" in said
    g = Game.load(path)
    assert g.orders[g.power("Colombia")] == ["Build Panama Canal", "Build A Bogota"]
    again = g.enter_orders("Colombia", ["Build Panama Canal"], add=True)
    assert len(again.refused) == 1  # (still one too many)
    g.process()
    assert g.position.extra["canals"] == {"PAN": 4, "open": {"PAN": 1892}}
    assert "A BOG" in [g.map.unit_str(u.kind, u.loc) for u in g.position.units]


def test_a_complete_canal_takes_no_more_builds(tmp_path) -> None:
    """A completed canal ("the Canal will be completed") takes no build: refused at entry."""
    g = Game.load(_gm_game(tmp_path, [("Colombia", "A", "PAN"), ("Colombia", "A", "MED")],
                           {"canals": {"PAN": 4, "open": {"PAN": 1892}}}))
    entry = g.enter_orders("Colombia", ["Build Panama Canal"])
    assert len(entry.refused) == 1 and "complete" in entry.refused[0][1]


def test_show_lists_canal_progress_and_anchor_markers_of_the_current_phase(tmp_path, capsys
                                                                           ) -> None:
    """"The GMs reports will track the progress of canal building", and the GM leaves an
    Anchor Marker where a fleet left its ships: `polydip show` of the current phase lists
    both, not only the report of a processed phase."""
    from polydip.cli.main import main
    path = _gm_game(tmp_path, [("Colombia", "A", "PAN")],
                    {"canals": {"PAN": 2}, "anchors": {"AMP": 1}}, Phase(1892, "A", "M"))
    assert main(["show", path]) == 0
    out = capsys.readouterr().out
    assert "Canal Panamá (PAN): 2 of 4 builds" in out
    assert "Anchor markers: AMP" in out
