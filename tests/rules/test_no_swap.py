"""rules/no_swap.py's hook, asked directly of the rule set of the tiny test map, and the
table the adjudicator reads from it."""

from __future__ import annotations

import pytest
from support.positions import variant_map

from polydip.errors import VariantError


def test_the_pairs_are_kept_both_ways() -> None:
    """Seed 004: "Ein Platzwechsel mit der jeweils gegenüber liegenden Einheit ist nicht
    möglich" (swapping places with the unit opposite is not possible)."""
    m = variant_map("tiny", '[rules.no_swap]\npairs = ["A1-N2"]\n')
    assert m.rules.no_swap_pairs() == {("A1", "N2")}
    a1, n2 = m.prov_index["A1"], m.prov_index["N2"]
    assert m.tables.no_swap == frozenset({(a1, n2), (n2, a1)})


def test_a_pair_naming_no_province_is_refused() -> None:
    with pytest.raises(VariantError, match="write two provinces"):
        variant_map("tiny", '[rules.no_swap]\npairs = ["A1-XX"]\n')
