"""The closed sets of strings are typed (issue 30): phase types, the phases of a season, order
types and reason codes are `Literal` aliases that mypy checks every use against. Each alias
must hold exactly the values the code and the formats use, no fewer (a value mypy would
refuse) and no more (a value nothing produces)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

from polydip.adjudication import reasons
from polydip.orders import model as orders
from polydip.state import PhaseType
from polydip.variants.model import PHASE_TYPES, PhaseKind

ROOT = Path(__file__).resolve().parent.parent


def test_phase_types_are_the_letters_of_the_season_phases() -> None:
    assert set(get_args(PhaseType)) == set(PHASE_TYPES.values()) == {"M", "R", "A"}
    assert set(get_args(PhaseKind)) == set(PHASE_TYPES)


def test_the_variant_schema_allows_the_same_season_phases() -> None:
    schema = json.loads((ROOT / "docs" / "variant.schema.json").read_text())
    found = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if "phases" in node and isinstance(node["phases"], dict):
                found.append(node["phases"]["items"]["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert found and all(sorted(e) == sorted(get_args(PhaseKind)) for e in found)


def test_order_types_are_the_order_constants() -> None:
    constants = {orders.HOLD, orders.MOVE, orders.SUPPORT, orders.CONVOY, orders.RETREAT,
                 orders.DISBAND, orders.BUILD, orders.WAIVE}
    assert set(get_args(orders.OrderType)) == constants
    assert len(constants) == 8


def test_reason_codes_are_the_documented_codes() -> None:
    codes = get_args(reasons.ReasonCode)
    assert len(codes) == len(set(codes))
    assert set(codes) == set(reasons.CODES)
    assert set(codes) >= reasons.EVENTS


def test_problem_codes_are_the_documented_codes() -> None:
    from polydip.errors import ProblemCode
    from polydip.game.message import PROBLEM_CODES

    codes = get_args(ProblemCode)
    assert len(codes) == len(set(codes))
    assert set(codes) == set(PROBLEM_CODES) | {""}


def test_result_words_are_the_adjudicators_words() -> None:
    from polydip.adjudication import adjustments, movement, retreats
    from polydip.game import dipjson

    words = {movement.BOUNCE, movement.CUT, movement.DISLODGED, movement.VOID,
             movement.NO_CONVOY, movement.DISRUPTED, retreats.BOUNCE, retreats.VOID,
             retreats.DISBANDED, adjustments.VOID, dipjson.CIVIL_DISORDER}
    assert set(get_args(reasons.ResultWord)) == words


def test_order_acts_are_what_the_parser_reads() -> None:
    from polydip.orders.parser import _ACTS

    # the anchor orders' acts as the parser reads them, a canal build's, and none
    assert set(get_args(orders.OrderAct)) == set(_ACTS.values()) | {"canal", ""}
