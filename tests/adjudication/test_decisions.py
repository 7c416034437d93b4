"""The decisions of a movement phase (adjudication/decisions.py), each asked directly of the
`Movement` on a hand-built standard position, below the phase and below `Game`: the strengths
of DATC 5.B (attack, hold, defend, prevent), the path of a convoyed move, a support cut, a
unit dislodged, a move's success, and the backup rule of a circular movement.

The decisions are the compiled class's own methods: these run on both builds."""

from __future__ import annotations

import pytest
from support.positions import movement, position, unit, variant_map


@pytest.fixture
def m():
    return variant_map("standard")


# ---- attack strength (DATC 5.B.7) --------------------------------------------------------

def test_attack_strength_into_an_empty_province_counts_every_support(m) -> None:
    """"If the province moved to is empty ... the attack strength is 1 plus the number of
    successful supports"."""
    pos = position(m, "France: A Par, A Mar; Germany: A Mun")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Mun S A Par - Bur")
    assert mv._attack(unit(m, pos, "A Par")) == 3


def test_attack_strength_on_a_unit_of_the_same_power_is_zero(m) -> None:
    """"If ... the province is occupied by a unit of the same nationality ... [that does
    not move away] the attack strength is 0"."""
    pos = position(m, "France: A Par, A Bur, A Mar")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur")
    assert mv._attack(unit(m, pos, "A Par")) == 0


def test_attack_strength_leaves_out_supports_of_the_attacked_power(m) -> None:
    """"... the attack strength is 1 plus the number of successful supports, excluding the
    supports of the nationality of the unit attacked": a power cannot help dislodge its own
    unit."""
    pos = position(m, "France: A Par, A Pic; Germany: A Bur, A Ruh, A Mun")
    mv = movement(m, pos, "A Par - Bur", "A Pic S A Par - Bur", "A Ruh S A Par - Bur")
    assert mv._attack(unit(m, pos, "A Par")) == 2  # Ruhr's support is Germany's own


def test_attack_strength_on_a_unit_that_leaves_counts_every_support(m) -> None:
    """"... occupied by a unit that moves away successfully: 1 plus all supports"."""
    pos = position(m, "France: A Par, A Pic; Germany: A Bur, A Ruh")
    mv = movement(m, pos, "A Par - Bur", "A Pic S A Par - Bur", "A Ruh S A Par - Bur",
                  "A Bur - Mun")
    assert mv.resolve(unit(m, pos, "A Bur")) is True
    assert mv._attack(unit(m, pos, "A Par")) == 3


# ---- hold strength (DATC 5.B.6) ----------------------------------------------------------

def test_hold_strength_of_an_empty_province_is_zero(m) -> None:
    pos = position(m, "France: A Par")
    mv = movement(m, pos, "A Par - Bur")
    assert mv._hold(m.prov_index["BUR"]) == 0


def test_hold_strength_of_a_holding_unit_counts_its_hold_supports(m) -> None:
    """"... for a unit that does not move: 1 plus the number of successful supports to
    hold"."""
    pos = position(m, "Germany: A Bur, A Mun, A Ruh")
    mv = movement(m, pos, "A Mun S A Bur", "A Ruh S A Bur")
    assert mv._hold(m.prov_index["BUR"]) == 3


def test_hold_strength_of_a_unit_whose_move_fails_is_one(m) -> None:
    """"... for a unit that moves and fails: 1" (a support to hold it is not for it)."""
    pos = position(m, "Germany: A Bur, A Mun; France: A Mar")
    mv = movement(m, pos, "A Bur - Mar", "A Mun S A Bur")
    assert mv.resolve(unit(m, pos, "A Bur")) is False
    assert mv._hold(m.prov_index["BUR"]) == 1


def test_hold_strength_of_a_unit_that_moves_away_is_zero(m) -> None:
    pos = position(m, "Germany: A Bur")
    mv = movement(m, pos, "A Bur - Pic")
    assert mv._hold(m.prov_index["BUR"]) == 0


# ---- defend and prevent strength (DATC 5.B.8, 5.B.9) -------------------------------------

def test_defend_strength_in_a_head_to_head_battle_counts_the_move_supports(m) -> None:
    """"The defend strength is 1 plus the number of successful supports [of the move]"."""
    pos = position(m, "France: A Par, A Mar; Germany: A Bur, A Pic, A Gas")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Bur - Par",
                  "A Pic S A Bur - Par", "A Gas S A Bur - Par")
    par, bur = unit(m, pos, "A Par"), unit(m, pos, "A Bur")
    assert mv._defend(bur) == 3 and mv._defend(par) == 2
    assert mv.resolve(bur) is True and mv.resolve(par) is False


def test_prevent_strength_of_a_rival_move_keeps_an_equal_attack_out(m) -> None:
    """"The prevent strength is 1 plus the number of successful supports" and a move fails
    when another move into the same province prevents it with equal strength."""
    pos = position(m, "France: A Par; Germany: A Mun")
    mv = movement(m, pos, "A Par - Bur", "A Mun - Bur")
    par, mun = unit(m, pos, "A Par"), unit(m, pos, "A Mun")
    assert mv._prevent(mun) == 1 and mv._prevent(par) == 1
    assert mv.resolve(par) is False and mv.resolve(mun) is False


def test_prevent_strength_of_a_move_beaten_head_to_head_is_zero(m) -> None:
    """"... 0 when the unit's move is in a head-to-head battle it loses"."""
    pos = position(m, "France: A Par, A Pic, A Gas; Germany: A Bur")
    mv = movement(m, pos, "A Par - Bur", "A Pic S A Par - Bur", "A Bur - Par",
                  "A Gas - Par")
    bur = unit(m, pos, "A Bur")
    assert mv.resolve(unit(m, pos, "A Par")) is True
    assert mv._prevent(bur) == 0
    assert mv.resolve(unit(m, pos, "A Gas")) is True  # Burgundy keeps nobody out of Paris


def test_prevent_strength_of_a_convoyed_move_without_a_route_is_zero(m) -> None:
    """"... 0 when the move is by convoy and no route is left" (DATC 5.B.9)."""
    pos = position(m, "England: A Lon, F Nth; Germany: F Ska, F Hel; France: A Bel")
    mv = movement(m, pos, "A Lon - Hol", "F Nth C A Lon - Hol", "F Ska - Nth",
                  "F Hel S F Ska - Nth", "A Bel - Hol")
    assert mv.resolve(unit(m, pos, "F Nth")) is False  # the convoying fleet is dislodged
    assert mv._path(unit(m, pos, "A Lon")) is False
    assert mv._prevent(unit(m, pos, "A Lon")) == 0
    assert mv.resolve(unit(m, pos, "A Bel")) is True


# ---- path, convoy, support, dislodgement ------------------------------------------------

def test_a_convoyed_move_has_a_path_while_its_fleet_stands(m) -> None:
    pos = position(m, "England: A Lon, F Nth")
    mv = movement(m, pos, "A Lon - Nwy", "F Nth C A Lon - Nwy")
    assert mv.convoyed[unit(m, pos, "A Lon")] is True
    assert mv._path(unit(m, pos, "A Lon")) is True
    assert mv.resolve(unit(m, pos, "A Lon")) is True


def test_a_support_is_cut_by_an_attack_from_another_power(m) -> None:
    """"A support is cut when the supporting unit is attacked from a province other than
    the one the support is given into, by a unit of another power"."""
    pos = position(m, "France: A Par, A Mar; Italy: A Pie")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Pie - Mar")
    assert mv._support_cut(unit(m, pos, "A Mar")) is True
    assert mv.resolve(unit(m, pos, "A Mar")) is False


def test_a_support_is_not_cut_by_the_power_of_the_supporter(m) -> None:
    pos = position(m, "France: A Par, A Mar, A Pie")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Pie - Mar")
    assert mv._support_cut(unit(m, pos, "A Mar")) is False


def test_a_support_is_not_cut_from_the_province_it_supports_into(m) -> None:
    """DATC 6.D.15-like: the unit attacked cannot cut the support against itself."""
    pos = position(m, "France: A Par, A Mar; Germany: A Bur")
    mv = movement(m, pos, "A Par - Bur", "A Mar S A Par - Bur", "A Bur - Mar")
    assert mv._support_cut(unit(m, pos, "A Mar")) is False
    assert mv._dislodged(unit(m, pos, "A Bur")) is True


def test_a_unit_is_dislodged_by_a_stronger_attack_only(m) -> None:
    pos = position(m, "France: A Par, A Pic; Germany: A Bur, A Mun")
    mv = movement(m, pos, "A Par - Bur", "A Pic S A Par - Bur", "A Mun S A Bur")
    assert mv._attack(unit(m, pos, "A Par")) == 2 and mv._hold(m.prov_index["BUR"]) == 2
    assert mv._dislodged(unit(m, pos, "A Bur")) is False
    mv = movement(m, pos, "A Par - Bur", "A Pic S A Par - Bur")
    assert mv._dislodged(unit(m, pos, "A Bur")) is True


def test_a_move_into_an_empty_province_nobody_else_enters_succeeds(m) -> None:
    pos = position(m, "France: A Par")
    assert movement(m, pos, "A Par - Bur").resolve(0) is True


# ---- the backup rule ---------------------------------------------------------------------

def test_a_circular_movement_all_succeeds(m) -> None:
    """DATC 6.C.1: three units moving in a circle all succeed (the backup rule settles the
    cycle of moves)."""
    pos = position(m, "Turkey: F Ank, A Con, A Smy")
    mv = movement(m, pos, "F Ank - Con", "A Con - Smy", "A Smy - Ank")
    assert [mv.resolve(i) for i in range(3)] == [True, True, True]


def test_a_swap_without_convoy_is_a_head_to_head_battle(m) -> None:
    pos = position(m, "France: A Par; Germany: A Bur")
    mv = movement(m, pos, "A Par - Bur", "A Bur - Par")
    par, bur = unit(m, pos, "A Par"), unit(m, pos, "A Bur")
    assert mv.h2h[par] == bur and mv.h2h[bur] == par
    assert mv.resolve(par) is False and mv.resolve(bur) is False


def test_a_convoy_paradox_is_settled_by_szykman_by_default(m) -> None:
    """DATC 6.F.14 (simple convoy paradox with additional convoy): under the Szykman rule
    the convoys in the paradox do not convoy; the attacked fleet's support stands."""
    pos = position(m, "England: F Lon, F Wal; France: A Bre, F Eng")
    opts = {"convoy_paradox": "szykman"}
    mv = movement(m, pos, "F Lon S F Wal - Eng", "F Wal - Eng", "A Bre - Lon",
                  "F Eng C A Bre - Lon", options=opts)
    assert mv.resolve(unit(m, pos, "A Bre")) is False
    assert mv.resolve(unit(m, pos, "F Wal")) is True
