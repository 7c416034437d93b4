"""Standard adjudication beyond the DATC cases: situations the DATC does not spell out, each
with the rule it follows. (The DATC cases themselves are in tests/adjudication/datc/.)"""

from __future__ import annotations

from polydip.oneshot import adjudicate_request


def adjudicate(**req) -> dict:
    out = adjudicate_request(req)
    assert "error" not in out, out
    return out


def test_a_standoff_needs_two_units_with_strength_to_prevent() -> None:
    """DATC 5.B: the prevent strength of a convoyed army whose convoy is disrupted is 0. A
    province is left empty by a standoff only when the moves there bounced against each
    other; two such armies failing to arrive do not make one, so a unit dislodged next to
    the province may retreat there (the rulebook forbids a retreat only into a province
    left vacant by a standoff)."""
    units = {"England": ["A LON", "F ENG", "A YOR", "F NTH"],
             "France": ["F MAO", "F IRI", "A PIC"],
             "Russia": ["F NWG", "F EDI"], "Germany": ["A BUR", "A PAR"]}
    orders = {"England": ["A LON - BEL", "F ENG C A LON - BEL", "A YOR - BEL",
                          "F NTH C A YOR - BEL"],
              "France": ["F MAO - ENG", "F IRI S F MAO - ENG"],
              "Russia": ["F NWG - NTH", "F EDI S F NWG - NTH"],
              "Germany": ["A BUR - PIC", "A PAR S A BUR - PIC"]}
    out = adjudicate(units=units, orders=orders)
    assert out["results"]["A LON - BEL"] == ["no convoy"]
    assert out["results"]["A YOR - BEL"] == ["no convoy"]
    assert out["contested"] == []
    pic = next(d for d in out["dislodged"]["France"] if d["unit"] == "A PIC")
    assert sorted(pic["retreats"]) == ["BEL", "BRE"]
    # with both convoys intact the two armies bounce in Belgium: a standoff
    out = adjudicate(units=units, orders={**orders, "France": ["F MAO H"],
                                          "Russia": ["F NWG H"]})
    assert out["results"]["A LON - BEL"] == ["bounce"] and out["contested"] == ["BEL"]
    pic = next(d for d in out["dislodged"]["France"] if d["unit"] == "A PIC")
    assert sorted(pic["retreats"]) == ["BRE"]


def test_a_unit_is_not_dislodged_by_its_own_power_even_with_foreign_support() -> None:
    """Rulebook (DATC 6.D.10-6.D.13): "A country cannot dislodge its own unit" —
    also when the attack has foreign support, which would otherwise outweigh the hold. The
    random differential test used to be the only guard of this rule."""
    out = adjudicate(units={"Germany": ["A BER", "A MUN"], "Russia": ["A SIL"]},
                     orders={"Germany": ["A BER - MUN", "A MUN H"],
                             "Russia": ["A SIL S A BER - MUN"]})
    assert out["results"]["A BER - MUN"] == ["bounce"]
    assert sorted(out["units"]["Germany"]) == ["A BER", "A MUN"]
    assert out["dislodged"] == {} and out["destroyed"] == {}
    # the same attack on a foreign unit dislodges it
    out = adjudicate(units={"Germany": ["A BER"], "Austria": ["A MUN"], "Russia": ["A SIL"]},
                     orders={"Germany": ["A BER - MUN"], "Russia": ["A SIL S A BER - MUN"]})
    assert out["results"]["A BER - MUN"] == []
