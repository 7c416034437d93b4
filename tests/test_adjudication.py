"""Standard adjudication beyond the DATC cases: situations the DATC does not spell out, each
with the rule it follows. (The DATC cases themselves are in tests/datc/.)"""

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
