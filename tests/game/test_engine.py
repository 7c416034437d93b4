"""Processing a phase (game/engine.py, process_bound) on hand-built standard positions: what
the outcome says beside the next position. Run on both builds."""

from __future__ import annotations

import pytest
from support.positions import orders_of, position, variant_map

from polydip.game.engine import process_bound


@pytest.fixture
def m():
    return variant_map("standard")


def test_a_standoff_without_retreats_is_in_the_outcome_not_in_the_next_position(m) -> None:
    """Rulebook: a standoff leaves the province empty; it matters only to retreats, and
    none follow, so the next phase's position has no contested province."""
    pos = position(m, "France: A Par; Germany: A Mun", phase="S1901M")
    pos.contested = frozenset({m.prov_index["PIC"]})  # (whatever the position said)
    out = process_bound(m, pos, orders_of(m, pos, "A Par - Bur", "A Mun - Bur"), {})
    assert out.standoffs == frozenset({m.prov_index["BUR"]})
    assert out.position.phase.name == "F1901M" and out.position.contested == frozenset()


def test_a_standoff_beside_a_dislodgement_is_kept_for_the_retreats(m) -> None:
    """Rulebook: a dislodged unit may not retreat to a province left empty by a standoff:
    the retreat phase's position keeps it."""
    pos = position(m, "Germany: A Par; France: A Pic, A Bur, A Spa, A Mar", phase="S1901M")
    out = process_bound(m, pos, orders_of(m, pos, "A Pic - Par", "A Bur S A Pic - Par",
                                          "A Spa - Gas", "A Mar - Gas"), {})
    gas = frozenset({m.prov_index["GAS"]})
    assert out.position.phase.type == "R"
    assert out.position.contested == gas and out.standoffs == gas


def test_no_standoff_no_contested_province(m) -> None:
    pos = position(m, "France: A Par; Germany: A Mun", phase="S1901M")
    out = process_bound(m, pos, orders_of(m, pos, "A Par - Bur", "A Mun - Ruh"), {})
    assert out.standoffs == frozenset()
