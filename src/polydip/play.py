"""Random but coherent orders, for demos, benchmarks and differential tests.

Each unit first picks a hold or a move; then some units turn to support a move or hold that
another unit of any power really ordered, and fleets convoy armies that chose a convoy. The
games this produces have bounces, cut supports, dislodgements, retreats and builds — the work
an adjudicator does in real play — unlike uniformly random legal orders, most of which are
void supports.
"""

from __future__ import annotations

import random

from polydip.adjudication.adjustments import adjustment_counts
from polydip.adjudication.legal import legal_orders
from polydip.geography.map import Map
from polydip.state import Position


def random_orders(m: Map, pos: Position, rng: random.Random, support_rate: float = 0.35,
                  legal: dict[str, list[str]] | None = None) -> dict[int, list[str]]:
    """Orders for every power that has something to order, as order strings. Units of neutral
    powers get none (they always hold, and retreat by themselves): they neither move, support
    nor convoy, though other powers may support them in holding."""
    if legal is None:
        legal = legal_orders(m, pos)
    if pos.phase.type == "M":
        return _movement_orders(m, pos, rng, support_rate, legal)
    out: dict[int, list[str]] = {}
    if pos.phase.type == "R":
        owner = {m.unit_str(d.kind, d.loc): d.power for d in pos.dislodged}
        for unit, lst in legal.items():
            if not m.power_neutral[owner[unit]]:
                out.setdefault(owner[unit], []).append(rng.choice(lst))
        return out
    counts = adjustment_counts(m, pos)
    for p, delta in enumerate(counts):
        if delta > 0:
            sites = [k for k in legal if " " not in k]  # build sites, not units
            mine = [k for k in sites if legal[k] and _site_power(m, pos, k) == p]
            rng.shuffle(mine)
            out[p] = [rng.choice([o for o in legal[k] if o != "WAIVE"])
                      for k in mine[:delta]]
        elif delta < 0:
            mine = [m.unit_str(u.kind, u.loc) for u in pos.units if u.power == p]
            rng.shuffle(mine)
            out[p] = [f"{u} D" for u in mine[:-delta]]
    return out


def _movement_orders(m: Map, pos: Position, rng: random.Random, support_rate: float,
                     legal: dict[str, list[str]]) -> dict[int, list[str]]:
    """A hold or a move for each unit; then supports of what others chose, then convoys for
    the armies that chose one."""
    owner = {m.unit_str(u.kind, u.loc): u.power for u in pos.units}
    neutral = {u for u, p in owner.items() if m.power_neutral[p]}
    chosen: dict[str, str] = {}
    for unit, lst in legal.items():
        moves = [o for o in lst if " - " in o and " S " not in o and " C " not in o]
        if moves and rng.random() > 0.15 and unit not in neutral:
            chosen[unit] = rng.choice(moves)
        else:
            chosen[unit] = f"{unit} H"
    plain = {u: o.split(" ", 2)[2] for u, o in chosen.items()}  # "- BUR" / "H" / ...
    for unit in owner:  # units a rule holds have no legal orders of their own: they hold
        plain.setdefault(unit, "H")
    units = list(legal)
    rng.shuffle(units)
    for unit in units:
        if rng.random() >= support_rate or unit in neutral:
            continue
        options = _supports_of_chosen(legal[unit], unit, plain)
        if options:
            chosen[unit] = rng.choice(options)
            plain[unit] = "S"
    for unit, o in list(chosen.items()):
        if o.endswith(" VIA"):  # find convoying fleets for the army
            army, dest = unit, o.split(" - ")[1][:-4]
            for fleet, lst in legal.items():
                conv = f"{fleet} C {army} - {dest}"
                if conv in lst and plain.get(fleet) != "S" and fleet not in neutral:
                    chosen[fleet] = conv
                    plain[fleet] = "C"
    out: dict[int, list[str]] = {}
    for unit, o in chosen.items():
        if unit not in neutral:
            out.setdefault(owner[unit], []).append(o)
    return out


def _supports_of_chosen(lst: list[str], unit: str, plain: dict[str, str]) -> list[str]:
    """The unit's legal supports of a hold or a move another unit really chose (`plain`:
    unit -> "H", "- BUR", ...)."""
    options = []
    for o in lst:
        if " S " in o:
            target = o.split(" S ", 1)[1]  # "A MAR - BUR" or "A MAR"
            parts = target.split(" ")
            other = " ".join(parts[:2])
            if other == unit or other not in plain:
                continue
            want = plain[other]
            holds = len(parts) == 2 and want == "H"
            moves = len(parts) == 4 and want.replace(" VIA", "") == f"- {parts[3]}"
            if holds or moves:
                options.append(o)
    return options


def _site_power(m: Map, pos: Position, prov_abbr: str) -> int:
    return pos.owners[m.prov_index[prov_abbr]]
