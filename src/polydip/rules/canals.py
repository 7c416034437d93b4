"""Canal building: powers spend builds on a canal; once complete it opens in the next year's
first movement phase, and its province connects the waters on both sides.

Latin American Diplomacy (seed 001, "(Building) canals and porous provinces"): "the canal
must be controlled by the building power, and that power must have a unit present and holding
in the province of Panama on the turn the order 'Build Panama Canal' is given." "The cost of
building the canal will be four years worth of one units builds" - "A player who controls
Panama, and has three builds due on a particular turn, may spend all three builds on building
the Canal". "If, during this period, another power takes over Panama, then the number of
builds foregone is subtracted from the number needed to complete the Canal." "Players not in
control of Panama may contribute ... However, this contribution towards the building of the
canal will not count if the occupying power does not also submit the order Build Panama
Canal on the same Second Retreat and Build Phase." "Once four builds have been spent on the
building of the canal, the Canal will open in the first movement phase (A phase: March-June)
of the succeeding year." Nicaragua: "building the section through Miskito Coast ... will
cost 2 units, and building the section through León ... will cost 1 unit. Otherwise the same
rules apply". "canals do not permit a fleet to move from one side to the other without first
occupying the province".

[rules.canals]
canals = [{ province = "PAN", builds = 4, edges = ["PAN/NC-GPA", "PAN/SC-GMO"] }]

`edges` are edges of the variant (an edge kind of their own, crossed by the units that use
the canal) joining each coast of the province to the water on the other side; they are
closed until the canal is open (from the first phase of the year after the last build). The
order is "Build Panama Canal" ("Build Canal Panama", "Build León Canal"), in an adjustment
phase, in place of a build. Progress is Position.extra["canals"] (province -> builds spent,
and "open" -> the year each completed canal opens), shown in the report ("contributed") and
by `polydip show`. An open canal's province is porous ("No coastal specification is
necessary when moving a fleet or river flotilla into a canal province, as these provinces
are porous"; `porous`): a move, retreat or build naming no coast takes the coast reached
over an edge of the map first, else the lowest.
Readings where the seed is silent: "controls" is owning the province's supply center, or,
without one, having a unit there; "present and holding" is a unit of the power standing in
the province in the adjustment phase; builds beyond those the canal still needs are refused
when given (the power's own, `act_problem`) and void when processed (with the others').
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.adjudication import reasons as R
from polydip.errors import VariantError
from polydip.orders.model import BUILD
from polydip.rules.base import Rule, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.orders.model import Order
    from polydip.state import Position
    from polydip.variants.model import Variant


@register
class Canals(Rule):
    name = "canals"
    summary = (
        "a canal is built by spending builds (\"Build Panama Canal\" in an adjustment phase, in "
        "place of a build) by the power that controls its province (owns its center, or "
        "without one has a unit there) with a unit there; others' builds count in a phase it "
        "builds too; progress survives a change of controller; complete, its `edges` (closed "
        "until then) open from the next year, and its province is porous (the `porous` hook): "
        "a fleet moving, retreating or built there needs no coast (it takes the coast reached "
        "over an edge of the map, not the canal's, else the lowest). A canal build that "
        "cannot count (beyond what the canal still needs with the power's own builds of it "
        "already given, a complete canal, nobody controlling the province with a unit there) "
        "is refused when given. Progress is `Position.extra[\"canals\"]`, shown in the report "
        "(builds spent: \"contributed\") and by `polydip show`"
    )
    parameters = (
        Param("canals", "tables", "the canals that may be built", required=True,
              example='[{province = "PAN", builds = 4, edges = ["PAN/NC-GPA", "PAN/SC-GMO"]}]',
              fields=(
                  Param("province", "string", "the canal's province", required=True,
                        refers="province"),
                  Param("builds", "integer", "the builds it costs", required=True, minimum=1),
                  Param("edges", "strings", 'the edges it opens ("X-Y"), closed until then',
                        required=True))),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        where = f"{variant.path}: [{key}]"
        self.canals: dict[str, tuple[int, list[tuple[str, str]]]] = {}
        for c in self.param("canals"):
            prov, builds, edges = c["province"], c["builds"], c["edges"]
            pairs = []
            for e in edges:
                a, _, b = str(e).partition("-")
                if not any({x.a, x.b} == {a, b} for x in variant.edges):
                    raise VariantError(f"{where} {prov}: {e!r} is not an edge of the map")
                pairs.append((a, b))
            self.canals[prov] = (builds, pairs)

    # ---- the state ------------------------------------------------------------------------

    @staticmethod
    def _state(pos: Position) -> dict:
        return pos.extra.get("canals", {})

    def _is_open(self, pos: Position, prov: str) -> bool:
        year = self._state(pos).get("open", {}).get(prov)
        return year is not None and pos.phase.year >= year

    def blocked(self, m: Map, pos: Position, options: dict[str, Any]
                ) -> dict[int, set[tuple[int, int, int]]]:
        shut: set[tuple[int, int, int]] = set()
        for prov, (_, edges) in self.canals.items():
            if self._is_open(pos, prov):
                continue
            for a, b in edges:
                la, lb = m.loc_index[a], m.loc_index[b]
                for k in range(len(m.kinds)):
                    x, y = (la, lb) if m.kind_coastal[k] else (m.loc_prov[la], m.loc_prov[lb])
                    shut |= {(k, x, y), (k, y, x)}
        return {p: set(shut) for p in range(len(m.powers))} if shut else {}

    def porous(self, m: Map, pos: Position) -> dict[int, set[tuple[int, int]]]:
        """An open canal's province is porous ("No coastal specification is necessary when
        moving a fleet or river flotilla into a canal province"): with the canal's edges."""
        out: dict[int, set[tuple[int, int]]] = {}
        for prov, (_, edges) in self.canals.items():
            if self._is_open(pos, prov):
                opened = out.setdefault(m.prov_index[prov], set())
                for a, b in edges:
                    la, lb = m.loc_index[a], m.loc_index[b]
                    opened |= {(la, lb), (lb, la)}
        return out

    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> R.Reason | None:
        if hook != "blocked" or not self._holds(m, pos, hook, key, options):
            return None
        _, _kind, a, b = key
        assert pos is not None  # (_holds read it: a blocked move is of a position)
        for prov, (need, edges) in self.canals.items():
            if self._is_open(pos, prov):
                continue
            pa, pb = m.loc_prov[a], m.loc_prov[b]
            if any({m.loc_prov[m.loc_index[x]], m.loc_prov[m.loc_index[y]]} == {pa, pb}
                   for x, y in edges):
                done = self._state(pos).get(prov, 0)
                return R.reason(R.PASSAGE_CLOSED,
                                f"the canal of {m.prov_name[m.prov_index[prov]]} ({prov}) is "
                                f"not open: {min(done, need)} of {need} builds")
        return None

    def events(self, m: Map, before: Position, after: Position) -> list[R.Reason]:
        """A canal built further, completed, or open from this phase on."""
        was, now = self._state(before), self._state(after)
        out = []
        for prov, (need, _) in self.canals.items():
            name = f"{m.prov_name[m.prov_index[prov]]} ({prov})"
            if now.get(prov, 0) > was.get(prov, 0):
                opens = now.get("open", {}).get(prov)
                if opens is not None and prov not in was.get("open", {}):
                    out.append(R.reason(R.CANAL_OPENED, f"the canal of {name} is complete: "
                                                        f"open from {opens}"))
                else:
                    out.append(R.reason(R.CANAL_PROGRESS, f"the canal of {name}: "
                                                          f"{now.get(prov, 0)} of {need} builds"))
            elif self._is_open(after, prov) and not self._is_open(before, prov):
                out.append(R.reason(R.CANAL_OPENED, f"the canal of {name} is open"))
        return out

    # ---- the builds -------------------------------------------------------------------------

    def controller(self, m: Map, pos: Position, prov: int) -> int:
        """The power that controls a canal province: its center's owner, or without a
        center the power with a unit there (-1: none)."""
        if m.is_sc[prov]:
            return pos.owners[prov]
        here = [u.power for u in pos.units if m.loc_prov[u.loc] == prov]
        return here[0] if here else -1

    def adjustment_acts(self, m: Map, pos: Position, orders: list[list[Order]]
                        ) -> set[tuple[int, int]]:
        """The canal build orders that count, as (power, index among its orders)."""
        ordered: dict[str, list[tuple[int, int]]] = {}
        for power, lst in enumerate(orders):
            for i, o in enumerate(lst):
                if o.type == BUILD and o.act == "canal":
                    ordered.setdefault(m.prov_abbr[m.loc_prov[o.loc]], []).append((power, i))
        out: set[tuple[int, int]] = set()
        state = self._state(pos)
        for prov, orders_here in ordered.items():
            if prov not in self.canals or prov in state.get("open", {}):
                continue
            p = m.prov_index[prov]
            occupiers = {u.power for u in pos.units if m.loc_prov[u.loc] == p}
            builder = self.controller(m, pos, p)
            if builder < 0 or builder not in occupiers:
                continue  # nobody controls it with a unit there: nothing counts
            if not any(pw == builder for pw, _ in orders_here):
                continue  # the others' contributions count only with the occupier's
            room = self.canals[prov][0] - state.get(prov, 0)
            for key in orders_here:
                if room > 0:
                    out.add(key)
                    room -= 1
        return out

    def more_adjustments(self, m: Map, pos: Position, power: int) -> dict[str, list[str]]:
        """Canal builds `power` may order now (with builds due), for each unfinished canal
        whose controller has a unit in its province: the controller's own, or another
        power's contribution (counted if the occupier builds too in that phase)."""
        state = self._state(pos)
        out = {}
        for prov in self.canals:
            if prov in state.get("open", {}):
                continue
            p = m.prov_index[prov]
            here = {u.power for u in pos.units if m.loc_prov[u.loc] == p}
            builder = self.controller(m, pos, p)
            if builder in here and (power == builder or power not in here):
                out[prov] = [f"BUILD {prov} CANAL"]
        return out

    def act_problem(self, m: Map, pos: Position, power: int, order: Order,
                    given: list[Order]
                    ) -> str | None:
        """A canal build that cannot count, refused when it is given: no canal there, the
        canal complete, nobody controlling its province with a unit there, or a contribution
        beyond what the canal still needs (with the power's builds of it already given) -
        "so the power can build a unit instead". (Other powers' contributions, not known
        when one power's orders are given, are counted when the phase is processed.)"""
        if order.act != "canal":
            return None
        p = m.loc_prov[order.loc]
        prov, name = m.prov_abbr[p], f"{m.prov_name[p]} ({m.prov_abbr[p]})"
        if prov not in self.canals:
            return (f"no canal can be built in {name} (canals: "
                    f"{', '.join(sorted(self.canals))})")
        state = self._state(pos)
        need = self.canals[prov][0]
        if prov in state.get("open", {}):
            return f"the canal of {name} is complete"
        builder = self.controller(m, pos, p)
        here = {u.power for u in pos.units if m.loc_prov[u.loc] == p}
        if builder < 0 or builder not in here:
            return (f"the canal of {name} is built only while the power that controls "
                    f"{m.prov_name[p]} has a unit there, and none does now")
        if power != builder and power in here:
            return f"{m.prov_name[p]} is controlled by {m.powers[builder]}"
        left = need - state.get(prov, 0)
        mine = sum(1 for h in given if h.act == "canal" and m.loc_prov[h.loc] == p)
        if mine >= left:
            return (f"the canal of {name} needs {left} more build{'' if left == 1 else 's'}"
                    f" ({state.get(prov, 0)} of {need} made) and {mine} "
                    f"{'is' if mine == 1 else 'are'} given: build a unit instead")
        return None

    def acts_done(self, m: Map, pos: Position, after: Position,
                  counted: list[tuple[int, Order]]) -> None:
        """After the adjustments: the progress of each canal, and when it opens."""
        if not counted:
            return
        state: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                                 for k, v in self._state(pos).items()}
        for _power, o in counted:
            prov = m.prov_abbr[m.loc_prov[o.loc]]
            state[prov] = state.get(prov, 0) + 1
            if state[prov] >= self.canals[prov][0]:
                state.setdefault("open", {})[prov] = pos.phase.year + 1
        after.extra["canals"] = state

    def markers(self, m: Map, pos: Position) -> list[tuple[int, str]]:
        """A canal's progress on the map: "canal 2/4" while it is built, "canal open"."""
        state = self._state(pos)
        out = []
        for prov, (need, _) in self.canals.items():
            done = state.get(prov, 0)
            if self._is_open(pos, prov):
                out.append((m.prov_index[prov], "canal open"))
            elif done:
                out.append((m.prov_index[prov], f"canal {min(done, need)}/{need}"))
        return out

    def report_lines(self, m: Map, pos: Position) -> list[str]:
        state = self._state(pos)
        out = []
        for prov, (need, _) in self.canals.items():
            done = state.get(prov, 0)
            opens = state.get("open", {}).get(prov)
            if opens is not None:
                out.append(f"Canal {m.prov_name[m.prov_index[prov]]} ({prov}): complete, "
                           f"open from the first movement phase of {opens}")
            elif done:
                out.append(f"Canal {m.prov_name[m.prov_index[prov]]} ({prov}): {done} of "
                           f"{need} builds")
        return out
