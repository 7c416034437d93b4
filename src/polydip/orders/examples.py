"""Examples of how orders are written, on the game's own map: the hint beside a line that was
not read. The standard map keeps its familiar 'A PAR - BUR'; any other map gets examples made
from its own starting armies and their neighbours, never the standard map's provinces."""

from __future__ import annotations

from polydip.geography.map import Map
from polydip.state import PhaseType

_STANDARD_NAMES = (("PAR", "Paris"), ("BUR", "Burgundy"), ("MAR", "Marseilles"),
                   ("NTH", "North Sea"), ("LON", "London"), ("NWY", "Norway"), ("KIE", "Kiel"))
_STANDARD = {
    "M": "write orders like 'A PAR - BUR', 'A MAR S A PAR - BUR' or 'F NTH C A LON - NWY'",
    "R": "write retreats like 'A PAR R BUR' or 'A PAR D'",
    "A": "write adjustments like 'Build A PAR', 'Remove F KIE' or 'WAIVE'",
}
_STANDARD_SHORT = {
    "R": "in a retreat phase: 'A PAR R BUR' or 'A PAR D'",
    "A": "in an adjustment phase: 'Build A PAR', 'Remove A PAR' or 'WAIVE'",
}


def order_examples(phase_type: PhaseType, m: Map | None = None) -> str:
    """How orders of a phase type ("M", "R", "A") are written, as a hint for a line not
    read: on the map `m`'s own provinces (the standard map's when `m` is None)."""
    return _examples(m)[0].get(phase_type, "")


def phase_hint(phase_type: PhaseType, m: Map | None = None) -> str:
    """' (in a retreat phase: ...)' after a reason, on `m`'s provinces; '' for movement."""
    got = _examples(m)[1].get(phase_type, "")
    return f" ({got})" if got else ""


def _examples(m: Map | None) -> tuple[dict[str, str], dict[str, str]]:
    if m is None or all(a in m.prov_index and m.prov_name[m.prov_index[a]] == n
                        for a, n in _STANDARD_NAMES):
        return _STANDARD, _STANDARD_SHORT
    got = m.caches.order_examples
    if got is None:
        got = m.caches.order_examples = _map_examples(m)
    return got


def _map_examples(m: Map) -> tuple[dict[str, str], dict[str, str]]:
    """The examples written with places of `m`: a first army of the starting position, a
    neighbour it may move to, and another place next to that neighbour."""
    army = m.army
    start = [m.loc_of(u.split(None, 1)[1]) for p in m.variant.powers
             for u in p.units if u.split(None, 1)[0] == m.kinds[army]]
    a, b, c = "<place>", "<place>", "<place>"
    found = False
    for loc in start:
        for dest in m.move_locs[army][loc]:
            other = [x for x in m.move_locs[army][dest] if x != loc and x < m.n_prov]
            if other:
                a, b, c = m.loc_name[loc], m.loc_name[dest], m.loc_name[other[0]]
                found = True
                break
        if found:
            break
    k = m.kinds[army]
    return ({"M": f"write orders like '{k} {a} - {b}', '{k} {a} H' or "
                  f"'{k} {c} S {k} {a} - {b}'",
             "R": f"write retreats like '{k} {a} R {b}' or '{k} {a} D'",
             "A": f"write adjustments like 'Build {k} {a}', 'Remove {k} {b}' or 'WAIVE'"},
            {"R": f"in a retreat phase: '{k} {a} R {b}' or '{k} {a} D'",
             "A": f"in an adjustment phase: 'Build {k} {a}', 'Remove {k} {a}' or 'WAIVE'"})
