"""Straits and canals whose passage depends on who controls the land around them.

Each passage names edges (declared as usual under [edges]) and the land provinces that
control them. At the start of a turn a power controls a province if it owns it (a supply
center) or has a unit in it (any other province). A passage is open to the power that
controls all its controlling provinces, and to the powers that power permits; it is closed
to everybody when they are controlled by different powers or by nobody. Unit kinds listed
in `exempt` pass regardless.

This covers the Axis & Allies canals and narrow straits (seed 002: "If your side ...
controlled a canal or narrow strait at the start of your turn, you may move sea units
through it", "If one side controls one territory and the other controls the other, the
canal or strait is closed to all sea units", "Submarines of any power may pass through the
Strait of Gibraltar") and the Colonial / Twentieth Century canals (seed 003: "The owner of
these provinces may send fleets to neighboring sea zones without having to move into the
canal zone first. Owning players may also allow other players to send fleets through."),
where the passage is an edge between the two seas controlled by the canal province.

Permissions are a game setting, the option `passage_permissions`:
{"Suez Canal": {"Britain": ["France"]}} — the power controlling the passage lets France
through. The GM records them (`polydip passages GAME allow ...`, or a line "Britain allows
France through the Suez Canal" in a message of orders); in a game hosted by `polydip serve`
the controlling power declares them on its page. Passages and powers may be named as players
name them (a passage's `aliases`, a power's aliases): the option is checked when a game is
made or loaded and kept under the canonical names.

[[rules.controlled_passages.passage]]
name = "Suez Canal"
aliases = ["Suez"]         # other names players use for it (optional)
edges = ["EMS-RED"]
controllers = ["EGY", "TRJ"]
exempt = []                # unit kinds that pass regardless
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from polydip.adjudication import reasons as R
from polydip.errors import PolydipError, VariantError, did_you_mean
from polydip.rules.base import Rule, passage_named, register
from polydip.rules.params import Param

if TYPE_CHECKING:
    from polydip.geography.map import Map
    from polydip.state import Position
    from polydip.variants.model import Variant

OPTION = "passage_permissions"


@register
class ControlledPassages(Rule):
    name = "controlled_passages"
    summary = (
        "straits and canals open only to who controls their land (a center's owner, or the "
        "power whose unit stands in another province; The Twentieth Century's Bremen, Ankara, "
        "Cairo, Panama; DPjudge's ownership restrictions such as Imperial's Bosporus); closed "
        "to moves, supports and retreats"
    )
    parameters = (
        Param("passage", "tables", "the passages; permissions via the option "
              "passage_permissions (checked against the map when a game is made or loaded; "
              "polydip passages)", default=[],
              example='[{name, aliases = ["Suez"], edges = ["X-Y"], controllers = ["EGY", '
                      '"TRJ"], exempt = ["S"]}]',
              fields=(
                  Param("name", "string", "the passage's name", required=True),
                  Param("aliases", "strings", "other names players use for it"),
                  Param("edges", "strings", 'the edges it closes ("X-Y")', required=True),
                  Param("controllers", "strings", "the provinces whose controller opens it",
                        required=True, refers="province"),
                  Param("exempt", "strings", "unit kinds that pass freely",
                        refers="unit_kind"))),
    )

    def __init__(self, params: dict[str, Any], variant: Variant, key: str) -> None:
        super().__init__(params, variant, key)
        self.passages: list[tuple[str, list[tuple[str, str]], list[str], frozenset[str]]] = []
        self.aliases: dict[str, tuple[str, ...]] = {}
        declared = {(e.a, e.b) for e in variant.edges} | {(e.b, e.a) for e in variant.edges}
        for i, p in enumerate(self.param("passage")):
            k = f"{key}.passage[{i}]"
            edges = []
            for e in p["edges"]:
                ends = str(e).split("-")
                a, b = ends if len(ends) == 2 else ("", "")
                if (a, b) not in declared:
                    raise VariantError(f"{variant.path}: [{k}] edge {e!r} is not declared "
                                       "under [edges]")
                edges.append((a, b))
            exempt = frozenset(p.get("exempt", []))
            aliases = p.get("aliases", [])
            self.passages.append((str(p["name"]), edges, list(p["controllers"]), exempt))
            self.aliases[str(p["name"])] = tuple(aliases)

    def passage_names(self) -> dict[str, tuple[str, ...]]:
        return dict(self.aliases)

    def check_options(self, m: Map, options: dict[str, Any]) -> dict[str, Any]:
        """passage_permissions checked: every passage, controlling power and permitted power
        named as the map knows them, written under their canonical names."""
        value = options.get(OPTION)
        if not value:
            return {**options, OPTION: {}} if value is not None else options
        if not isinstance(value, dict):
            raise PolydipError(f"option {OPTION}: a table of passage → {{controlling power: "
                               f"[permitted powers]}}, not {_short(value)}")
        out: dict[str, dict[str, list[str]]] = {}
        for passage, grants in value.items():
            name = passage_named(self.aliases, passage)
            where = f"option {OPTION}, {name}"
            if not isinstance(grants, dict):
                raise PolydipError(f"{where}: a table of controlling power → [permitted "
                                   f"powers], not {_short(grants)}")
            entry = out.setdefault(name, {})
            for ctrl, powers in grants.items():
                who = m.powers[_power(m, ctrl, where)]
                if isinstance(powers, str):
                    raise PolydipError(f"{where}, {who}: a list of powers, like "
                                       f'["{powers}"], not the string {powers!r}')
                if not isinstance(powers, list):
                    raise PolydipError(f"{where}, {who}: a list of powers, not "
                                       f"{_short(powers)}")
                allowed = sorted({m.powers[_power(m, x, f"{where}, {who}")] for x in powers})
                if allowed:
                    entry[who] = allowed
            if not entry:
                out.pop(name)
        return {**options, OPTION: out}

    def controller(self, m: Map, pos: Position, provinces: list[str]) -> int:
        """The power controlling all of `provinces`, or -1 (split, or nobody).

        A supply center is controlled by its owner; any other province by the power whose
        unit stands in it (units of several powers in an open space: nobody)."""
        who: set[int] = set()
        for abbr in provinces:
            prov = m.prov_index[abbr]
            if m.is_sc[prov]:
                who.add(pos.owners[prov])
            else:
                here = {u.power for u in pos.units if m.loc_prov[u.loc] == prov}
                who.add(here.pop() if len(here) == 1 else -1)
        if len(who) != 1:
            return -1
        return who.pop()

    def passage_controllers(self, m: Map, pos: Position) -> dict[str, int]:
        return {name: self.controller(m, pos, controllers)
                for name, _edges, controllers, _exempt in self.passages}

    def blocked(self, m: Map, pos: Position, options: dict[str, Any]
                ) -> dict[int, set[tuple[int, int, int]]]:
        permissions = options.get(OPTION) or {}  # checked by check_options
        out: dict[int, set[tuple[int, int, int]]] = {}
        for name, edges, controllers, exempt in self.passages:
            ctrl = self.controller(m, pos, controllers)
            allowed = set()
            if ctrl >= 0:
                allowed.add(ctrl)
                granted = permissions.get(name, {}).get(m.powers[ctrl], [])
                allowed.update(m.power_of(p) for p in granted)
            shut = self._moves(m, edges, exempt)
            for power in range(len(m.powers)):
                if power not in allowed and shut:
                    out.setdefault(power, set()).update(shut)
        return out

    def explain(self, m: Map, pos: Position | None, hook: str, key: tuple,
                options: dict[str, Any] | None = None) -> R.Reason | None:
        """A passage closed to a power: which one, and who controls it."""
        if hook != "blocked" or not self._holds(m, pos, hook, key, options):
            return None
        power, move = key[0], key[1:]
        assert pos is not None  # (_holds read it: a blocked move is of a position)
        for name, edges, controllers, exempt in self.passages:
            if move not in self._moves(m, edges, exempt):
                continue
            ctrl = self.controller(m, pos, controllers)
            who = (f"controlled by {m.powers[ctrl]}, who has not let {m.powers[power]} "
                   "through" if ctrl >= 0 else
                   f"its shores ({', '.join(controllers)}) are not held by one power")
            return R.reason(R.PASSAGE_CLOSED, f"{name} is closed to {m.powers[power]}: "
                                              f"{who}")
        return None

    def events(self, m: Map, before: Position, after: Position) -> list[R.Reason]:
        """A passage whose control changed between the positions: opened or closed."""
        if before.phase.type == after.phase.type == "A" or not self.passages:
            return []
        out = []
        for name, _edges, controllers, _exempt in self.passages:
            was = self.controller(m, before, controllers)
            now = self.controller(m, after, controllers)
            if was == now:
                continue
            if now >= 0:
                out.append(R.reason(R.PASSAGE_OPENED, f"{name} is open to "
                                                      f"{m.powers[now]} (it controls "
                                                      f"{', '.join(controllers)})"))
            else:
                out.append(R.reason(R.PASSAGE_SHUT, f"{name} is closed to all: "
                                                    f"{', '.join(controllers)} are not held "
                                                    "by one power"))
        return out

    @staticmethod
    def _moves(m: Map, edges: list[tuple[str, str]], exempt: frozenset[str]
               ) -> set[tuple[int, int, int]]:
        """The (kind, from, to) moves over `edges`, both ways, of the kinds not exempt: a
        coastal kind (fleet) between the locations named (coasts included), any other kind
        between their provinces."""
        out = set()
        for a, b in edges:
            for k, letter in enumerate(m.kinds):
                if letter in exempt:
                    continue
                la, lb = m.loc_index[a], m.loc_index[b]
                if not m.kind_coastal[k]:
                    la, lb = m.loc_prov[la], m.loc_prov[lb]
                out.add((k, la, lb))
                out.add((k, lb, la))
        return out


def _power(m: Map, name: Any, where: str) -> int:
    got = m.find_power(name) if isinstance(name, str) else None
    if got is None:
        raise PolydipError(f"{where}: unknown power {str(name)[:80]!r}"
                           + did_you_mean(str(name), m.powers))
    return got


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
