"""The adjudication report a game master posts: per power, each order with its result in the
words GMs use; the dislodged units and where they may retreat; center changes; the builds and
removals due; the next phase. As text (for e-mail), Markdown (for forums) or JSON (for tools).

The engine gives result words in the `diplomacy` package's vocabulary (bounce, cut,
dislodged, void, no convoy, disrupted, disband); this module translates them: "bounced",
and "destroyed" for a dislodged unit that had no retreat or was not ordered to one.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from polydip.adjudication.adjustments import (
    adjustment_counts,
    build_room,
    build_sites,
    site_groups,
)
from polydip.adjudication.legality import closed_passages
from polydip.adjudication.reasons import ReasonCode
from polydip.adjudication.retreats import why_no_retreat
from polydip.errors import PolydipError
from polydip.game.combined import combined_phase, enter_kept, split_texts
from polydip.game.engine import MOVEMENT_TYPES, bind_to_units, parse_orders
from polydip.orders.describe import describe, describe_text
from polydip.orders.describe import place as place_words
from polydip.orders.describe import unit as unit_words
from polydip.orders.parser import parse_order
from polydip.orders.stacked import number_of
from polydip.state import PhaseType
from polydip.variants.calendar import season_name

if TYPE_CHECKING:  # annotations only
    from polydip.game.engine import PhaseOutcome
    from polydip.game.game import Game
    from polydip.game.record import PhaseRecord
    from polydip.geography.map import Map
    from polydip.state import Dislodged, Phase, Position, Unit
    from polydip.variants.model import Variant

FORMATS = ("text", "markdown", "json")

_MOVEMENT_WORDS: dict[str, str] = {"bounce": "bounced", "no convoy": "no convoy"}


@dataclass(slots=True)
class OrderLine:
    order: str  # diplomacy notation, as bound to the unit ("A PAR - BUR")
    result: list[str]  # the engine's words ([] = succeeded)
    words: list[str]  # the GM's words
    ordered: bool = True  # False: the unit was given no order (it held, or was disbanded)
    text: str = ""  # as shown: in full names ("Army Paris (PAR): move to ...") or notation
    reason: ReasonCode | Literal[""] = ""  # why it did not succeed ("" success)
    why: str = ""  # ... in words

    @property
    def succeeded(self) -> bool:
        return not self.result


@dataclass(slots=True)
class PowerSection:
    power: str
    orders: list[OrderLine] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)


@dataclass(slots=True)
class DislodgedLine:
    power: str
    unit: str
    attacker: str | None  # province the attack came from
    retreats: list[str]  # where it may retreat ([] = it is destroyed)
    shown: str = ""  # the unit as shown (full names or notation)
    attacker_shown: str = ""
    retreats_shown: list[str] = field(default_factory=list)
    reason: ReasonCode | Literal[""] = ""  # no retreat: why (no_retreat, neutral_disbands)
    why: str = ""  # ... in words: what stops it at each place it could go


@dataclass(slots=True)
class Adjustment:
    power: str
    centers: int  # counted by value (a capital worth 2 counts twice)
    units: int
    change: int  # + builds allowed, - removals due
    sites: list[str]  # build sites (under the variant's build rules) where it may build
    sites_shown: list[str] = field(default_factory=list)
    room: int = -1  # how many of the builds fit on the sites (-1: one per site)
    off_center: list[str] = field(default_factory=list)  # sites only some builds may use
    off_center_max: int = 0  # ... how many


@dataclass(slots=True)
class Report:
    variant: str
    phase: str
    title: str
    powers: list[PowerSection]
    dislodged: list[DislodgedLine]
    center_changes: list[tuple[str, str | None, str]]  # center, old owner, new owner
    centers: dict[str, int]  # per power, after the phase
    adjustments: list[Adjustment]
    next_phase: str
    next_title: str
    status: str = "active"
    winners: list[str] = field(default_factory=list)
    nmr: list[str] = field(default_factory=list)  # powers that had to order and gave nothing
    waived: dict[str, int] = field(default_factory=dict)  # adjustments: builds not made
    # adjustments: builds spent on something else (a canal) that counted, per power: what
    # ("the canal of Panamá (PAN)") -> how many
    contributed: dict[str, dict[str, int]] = field(default_factory=dict)
    names: str = "short"  # how places are shown: "full" or "short"
    centers_shown: dict[str, str] = field(default_factory=dict)  # center → as shown
    notes: list[str] = field(default_factory=list)  # what the rules show of the position after
    # what the rules did on their own in this phase: {"code", "text"} each
    events: list[dict[str, str]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["center_changes"] = [{"center": c, "from": a, "to": b}
                               for c, a, b in self.center_changes]
        del d["centers_shown"]
        return d


def phase_title(variant: Variant, phase: Phase) -> str:
    return season_name(variant.calendar, phase)


def build_report(game: Game, record: PhaseRecord, final: bool = False,
                 names: str = "short") -> Report:
    """The report of one processed phase (`record`, a PhaseRecord of `game`).

    `final`: the record is the game's last one, so the game's status (won, drawn) applies.
    `names`: "full" shows places by name and code ("Toronto (TOR)"), "short" by code.
    """
    m, v = game.map, game.variant
    pos, outcome = record.position, record.outcome
    nxt = outcome.position
    ptype = pos.phase.type
    sections = _order_sections(game, record, names)
    dislodged = _dislodged_lines(game, record, names) if ptype == "M" else []
    changes = [(m.prov_abbr[c], m.powers[a] if a >= 0 else None, m.powers[b])
               for c, a, b in outcome.center_changes]
    centers = {m.powers[p]: sum(m.sc_value[c] for c in nxt.centers_of(p))
               for p in range(len(m.powers))}  # by value: a capital worth 2 counts twice
    adjustments = _adjustments_due(m, nxt, centers, names) if nxt.phase.type == "A" else []
    rep = Report(v.name, pos.phase.name, phase_title(v, pos.phase),
                 [s for s in sections.values() if s.orders or s.rejected], dislodged, changes,
                 centers, adjustments, nxt.phase.name, phase_title(v, nxt.phase))
    rep.names = names
    rep.centers_shown = {m.prov_abbr[c]: place_words(m, c, names)
                         for c, _a, _b in outcome.center_changes}
    rep.nmr = [m.powers[p] for p in missed_orders(game, record)]
    rep.notes = m.rules.report_lines(m, nxt)  # (anchor markers on the map)
    rep.events = [e.as_json() for e in outcome.events]
    if ptype == "A":
        acts = _acts(m, outcome)
        rep.contributed = {m.powers[p]: what for p, what in acts.items()}
        rep.waived = _waived(m, pos, outcome,
                             {p: sum(what.values()) for p, what in acts.items()})
    if final and game.is_over:
        rep.status = game.status
        rep.winners = [m.powers[p] for p in game.winners]
    return rep


def _order_sections(game: Game, record: PhaseRecord, names: str) -> dict[int, PowerSection]:
    """Each power's orders with their results and why, and the orders refused."""
    m = game.map
    pos, outcome = record.position, record.outcome
    ptype = pos.phase.type
    ordered = _explicitly_ordered(game, record)
    sections = {p: PowerSection(m.powers[p]) for p in range(len(m.powers))}
    reasons = outcome.reasons()
    # units sharing a space (a LAD ocean) are told apart by number, as their orders were
    shared = (m.tables.has_open_spaces and ptype == "M"
              and len(outcome.results) == len(pos.units))
    for i, (r, why) in enumerate(zip(outcome.results, reasons, strict=True)):
        words = gm_words(ptype, r.result, r.text, r.text in ordered)
        # a neutral unit is never ordered: it holds (or is disbanded) by its rule
        explicit = ptype == "A" or r.text in ordered or m.power_neutral[r.power]
        shown = _order_words(m, ptype, r.text, names)
        if shared:
            shown = _numbered(m, pos.units, i, shown, names)
        line = OrderLine(r.text, list(r.result), words, explicit, shown)
        if why is not None and words:  # (an ordered disband "failed" by no word GMs see)
            line.reason, line.why = why.code, why.words
        sections[r.power].orders.append(line)
    for p, msg in outcome.errors:
        sections[p].rejected.append(msg)
    return sections


def _dislodged_lines(game: Game, record: PhaseRecord, names: str) -> list[DislodgedLine]:
    """The units a movement phase dislodged: where each may retreat, or why nowhere."""
    m = game.map
    pos, outcome = record.position, record.outcome
    nxt = outcome.position
    dislodged = []
    for d in [*nxt.dislodged, *outcome.destroyed]:
        att = d.attacker if d.attacker >= 0 else None
        dl = DislodgedLine(
            m.powers[d.power], m.unit_str(d.kind, d.loc),
            m.prov_abbr[att] if att is not None else None,
            [m.loc_name[x] for x in d.retreats], unit_words(m, d.kind, d.loc, names),
            place_words(m, att, names) if att is not None else "",
            [place_words(m, x, names) for x in d.retreats])
        if not d.retreats:
            got = why_no_retreat(m, pos, d, nxt.units, outcome.standoffs or nxt.contested,
                                 closed_passages(m, pos, game.options), outcome.routed)
            dl.reason, dl.why = got.code, got.words
        dislodged.append(dl)
    return dislodged


def _adjustments_due(m: Map, nxt: Position, centers: dict[str, int], names: str
                     ) -> list[Adjustment]:
    """What each power builds or removes in the adjustment phase `nxt`, with its sites."""
    adjustments = []
    counts = adjustment_counts(m, nxt)
    for p, delta in enumerate(counts):
        n_units = sum(1 for u in nxt.units if u.power == p)
        if delta == 0 and not n_units and not centers[m.powers[p]]:
            continue
        sites = build_sites(m, nxt, p) if delta > 0 else []
        a = Adjustment(m.powers[p], centers[m.powers[p]], n_units, delta,
                       [m.prov_abbr[s] for s in sites],
                       [place_words(m, s, names) for s in sites])
        if delta > 0:
            usual, groups = site_groups(m, nxt, p)
            a.room = build_room(m, nxt, p)
            off = {q for g, _ in groups for q in g} - set(usual)
            if off:
                a.off_center = [m.prov_abbr[q] for q in sites if q in off]
                a.off_center_max = sum(n for _, n in groups)
        adjustments.append(a)
    return adjustments


def missed_orders(game: Game, record: PhaseRecord) -> list[int]:
    """Powers that had something to order in the phase and gave no order at all (NMR). An
    order refused when the phase was processed (a build on a site a retreat filled) was
    given, and so were the retreats of a combined season's retreat phase before its
    adjustments (one message, game/combined.py): neither is a missed phase."""
    from polydip.game.game import powers_to_order

    given = {p for p, lst in record.orders.items() if lst}
    given.update(p for p, _msg in record.outcome.errors)
    ph = record.position.phase
    if ph.type == "A":
        for earlier in reversed(game.history):
            e = earlier.position.phase
            if e.year != ph.year or e.season != ph.season or e.type != "R":
                continue
            if earlier.outcome.position.phase == ph and combined_phase(
                    game.map, e, game.options):
                given.update(p for p, lst in earlier.orders.items() if lst)
            break
    return [p for p in powers_to_order(game.map, record.position) if p not in given]


def _acts(m: Map, outcome: PhaseOutcome) -> dict[int, dict[str, int]]:
    """Per power, the builds spent on something else that counted (a canal build: "BUILD
    PAN CANAL"), by what they went to ("the canal of Panamá (PAN)")."""
    out: dict[int, dict[str, int]] = {}
    for r in outcome.results:
        if r.result or r.text.endswith(" B") or not r.text.upper().startswith("BUILD "):
            continue
        try:
            o = parse_order(m, r.text, "A")
        except PolydipError:
            continue
        if o.act:
            p = m.loc_prov[o.loc]
            what = f"the {o.act} of {m.prov_name[p]} ({m.prov_abbr[p]})"
            got = out.setdefault(r.power, {})
            got[what] = got.get(what, 0) + 1
    return out


def _waived(m: Map, pos: Position, outcome: PhaseOutcome, spent: dict[int, int] | None = None
            ) -> dict[str, int]:
    """Per power, the builds it was allowed and did not make (waived or left unused);
    `spent`: per power, the builds that went to something else (a canal), not waived."""
    counts = adjustment_counts(m, pos)
    out = {}
    for p, delta in enumerate(counts):
        if delta <= 0:
            continue
        other = (spent or {}).get(p, 0)
        room = min(delta - other, build_room(m, pos, p))
        made = sum(1 for r in outcome.results
                   if r.power == p and not r.result and r.text.endswith(" B"))
        if made < room:
            out[m.powers[p]] = room - made
    return out


def _contributed_lines(rep: Report) -> list[str]:
    """ "Colombia: 2 builds contributed to the canal of Panamá (PAN)", one a power and
    purpose."""
    return [f"{p}: {n} build{'s' if n > 1 else ''} contributed to {what}"
            for p, whats in rep.contributed.items() for what, n in whats.items()]


def _order_words(m: Map, ptype: PhaseType, text: str, names: str) -> str:
    if names == "short":
        return _order_text(ptype, text)
    return describe_text(m, text, ptype, names)


def _explicitly_ordered(game: Game, record: PhaseRecord) -> set[str]:
    """Result texts of units that were given an order (others held or were disbanded)."""
    from polydip.game.engine import describe

    m, pos = game.map, record.position
    ptype = pos.phase.type
    if ptype == "A":
        return set()
    parsed, _ = parse_orders(m, pos.phase, record.orders)
    units: Sequence[Unit | Dislodged] = pos.units if ptype == "M" else pos.dislodged
    allowed = MOVEMENT_TYPES if ptype == "M" else ("R", "D")
    bound, _ = bind_to_units(m, units, parsed, allowed)
    return {describe(m, u, o) for u, o in zip(units, bound, strict=True) if o is not None}


def gm_words(phase_type: PhaseType, result: list[str], text: str = "", ordered: bool = True
             ) -> list[str]:
    """The engine's result words in the words GMs use."""
    out = []
    for w in result:
        if phase_type == "R" and w == "disband":
            if ordered and text.rstrip().endswith(" D"):
                continue  # ordered to disband, and disbanded: the order succeeded
            out.append("destroyed")
        elif w == "civil disorder":
            out.append("removed in civil disorder")
        else:
            out.append(_MOVEMENT_WORDS.get(w, w))
    return out


# ---- formats ---------------------------------------------------------------------------------

def format_report(rep: Report, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(rep.to_json(), indent=1)
    if fmt == "markdown":
        return _markdown(rep)
    if fmt == "text":
        return _text(rep)
    raise PolydipError(f"unknown report format {fmt!r} (formats: {', '.join(FORMATS)})")


def _gm_order(order: str) -> str:
    """'F LON B' → 'Build F LON'; 'A PAR D' → 'Disband A PAR' (adjustments read better)."""
    if order.endswith(" B"):
        return f"Build {order[:-2]}"
    if order.endswith(" D"):
        return f"Disband {order[:-2]}"
    return order


def _order_text(ptype: PhaseType, text: str) -> str:
    if ptype == "A":
        return _gm_order(text).replace("Disband ", "Remove ")
    if ptype == "R":
        return _gm_order(text)
    return text


def _adjustment_words(a: Adjustment) -> str:
    if a.change > 0:
        n = min(a.change, len(a.sites) if a.room < 0 else a.room)
        if not n:
            return f"may build {a.change} but has no free build site"
        s = f"builds {n} (build sites: {', '.join(a.sites_shown or a.sites)})"
        if a.off_center and n > 1:
            s += (f"; at most {a.off_center_max} off the centers "
                  f"({', '.join(a.off_center)})")
        if n < a.change:
            s += f"; {a.change - n} more allowed but no room"
        return s
    if a.change < 0:
        return f"removes {-a.change}"
    return "no change"


def _order_line(o: OrderLine) -> tuple[str, list[str]]:
    words = o.words + ([] if o.ordered else ["no order"])
    return o.text or o.order, words


def _center(rep: Report, c: str) -> str:
    return rep.centers_shown.get(c, c)


def _text(rep: Report) -> str:
    lines = [f"{rep.phase}: {rep.title}"]
    for s in rep.powers:
        lines.append(f"  {s.power}:")
        for o in s.orders:
            text, words = _order_line(o)
            res = f"  ({', '.join(words)})" if words else ""
            why = f" — {o.why}" if o.why and words else ""
            lines.append(f"    {text}{res}{why}")
        for e in s.rejected:
            lines.append(f"    rejected: {e}")
    if rep.nmr:
        lines.append(f"  No orders from (NMR): {', '.join(rep.nmr)}")
    if rep.dislodged:
        lines.append("  Dislodged:")
        for d in rep.dislodged:
            frm = f" (attacked from {d.attacker_shown or d.attacker})" if d.attacker else ""
            where = (f"may retreat to {', '.join(d.retreats_shown or d.retreats)}"
                     if d.retreats else "no retreat: destroyed"
                     + (f" ({d.why})" if d.why else ""))
            lines.append(f"    {d.power} {d.shown or d.unit}{frm}: {where}")
    lines += [f"  {line}" for line in _contributed_lines(rep)]
    for p, n in rep.waived.items():
        lines.append(f"  {p}: {n} build{'s' if n > 1 else ''} waived")
    if rep.center_changes:
        lines.append("  Center changes:")
        for c, before, after in rep.center_changes:
            lines.append(f"    {_center(rep, c)}: {before or 'neutral'} → {after}")
    if rep.adjustments:
        lines.append(f"  Adjustments due ({rep.next_title}):")
        for a in rep.adjustments:
            lines.append(f"    {a.power}: {a.centers} centers, {a.units} units — "
                         f"{_adjustment_words(a)}")
    if rep.center_changes or rep.adjustments:
        counts = ", ".join(f"{p} {n}" for p, n in rep.centers.items() if n)
        lines.append(f"  Supply centers: {counts}")
    lines += [f"  {note}" for note in rep.notes]
    if rep.events:
        lines.append("  Events:")
        lines += [f"    {e['text']}" for e in rep.events]
    if rep.status != "active":
        lines.append(f"Game over: {rep.status} — {', '.join(rep.winners)}")
    else:
        lines.append(f"Next: {rep.next_title} ({rep.next_phase})")
    return "\n".join(lines)


def _markdown(rep: Report) -> str:
    out = [f"### {rep.title} ({rep.phase})", ""]
    for s in rep.powers:
        out.append(f"**{s.power}**")
        out.append("")
        for o in s.orders:
            text, words = _order_line(o)
            res = f" — *{', '.join(words)}*" if words else ""
            why = f" ({o.why})" if o.why and words else ""
            out.append(f"- `{text}`{res}{why}")
        for e in s.rejected:
            out.append(f"- rejected: {e}")
        out.append("")
    if rep.nmr:
        out += [f"**No orders from (NMR):** {', '.join(rep.nmr)}", ""]
    if rep.dislodged:
        out += ["**Dislodged**", ""]
        for d in rep.dislodged:
            frm = f" (attacked from {d.attacker_shown or d.attacker})" if d.attacker else ""
            where = (f"may retreat to {', '.join(d.retreats_shown or d.retreats)}"
                     if d.retreats else "no retreat: *destroyed*"
                     + (f" ({d.why})" if d.why else ""))
            out.append(f"- {d.power} `{d.shown or d.unit}`{frm}: {where}")
        out.append("")
    if rep.waived or rep.contributed:
        out += [f"- {line}" for line in _contributed_lines(rep)]
        out += [f"- {p}: {n} build{'s' if n > 1 else ''} waived" for p, n in rep.waived.items()]
        out.append("")
    if rep.center_changes:
        out += ["**Center changes**", ""]
        out += [f"- {_center(rep, c)}: {a or 'neutral'} → {b}" for c, a, b in rep.center_changes]
        out.append("")
    if rep.adjustments or rep.center_changes:
        out += ["| Power | Centers | Units | Adjustment |", "|---|---:|---:|---|"]
        adj = {a.power: a for a in rep.adjustments}
        for p, n in rep.centers.items():
            a = adj.get(p)
            if a is None and not n:
                continue
            out.append(f"| {p} | {n} | {a.units if a else ''} | "
                       f"{_adjustment_words(a) if a else ''} |")
        out.append("")
    if rep.events:
        out += ["**Events**", ""]
        out += [f"- {e['text']}" for e in rep.events]
        out.append("")
    if rep.status != "active":
        out.append(f"**Game over:** {rep.status} — {', '.join(rep.winners)}")
    else:
        out.append(f"**Next:** {rep.next_title} ({rep.next_phase})")
    return "\n".join(out)


# ---- pending orders ----------------------------------------------------------------------------

def pending_lines(game: Game, power: int, names: str = "full") -> list[str]:
    """A power's pending orders as polydip understood them, bound to the units they order
    ("Army Toronto (TOR): hold"), in the order they were given. A unit that shares its space
    with others of its power and kind is numbered as players may write it ("Fleet Peru
    Basin (PBS) #2: ...", "F PBS #2 - EPR"; orders/stacked.py)."""
    m, pos = game.map, game.position
    ptype = pos.phase.type
    texts = game.orders.get(power, [])
    kept: list[str] = []
    if ptype == "R" and getattr(game, "combined", False):  # (game/combined.py)
        ri, ai = split_texts(m, pos, power, texts)
        texts, kept = [texts[j] for j in ri], [texts[j] for j in ai]
    parsed, _ = parse_orders(m, pos.phase, {power: texts})
    orders = parsed.get(power, [])
    if ptype == "A":
        return [describe_text(m, o.format(m), "A", names) for o in orders]
    after = [describe_text(m, o.format(m), "A", names) + " (after the retreats)"
             for o in enter_kept(m, kept, [], True)[0]]
    units = pos.units if ptype == "M" else pos.dislodged
    allowed = MOVEMENT_TYPES if ptype == "M" else ("R", "D")
    slots: list[int] = []
    bind_to_units(m, units, {power: orders}, allowed, slots=slots)
    out = []
    for o, i in zip(orders, slots, strict=True):
        if i < 0:
            out.append(describe(m, o, names))
            continue
        u = units[i]
        out.append(_numbered(m, units, i, describe(m, o, names, u.kind, u.loc), names))
    return out + after


# ---- history ---------------------------------------------------------------------------------

def history_lines(game: Game) -> list[str]:
    """One line per processed phase, then the current phase."""
    m, v = game.map, game.variant
    lines = []
    for i, rec in enumerate(game.history, 1):
        o = rec.outcome
        n_orders = sum(len(x) for x in rec.orders.values())
        failed = sum(1 for r in o.results if r.result and r.result != ["dislodged"])
        bits = [f"{n_orders} order{'s' if n_orders != 1 else ''}"]
        if rec.position.phase.type == "M":
            bits.append(f"{failed} failed")
            n_dis = len(o.position.dislodged)
            if n_dis:
                bits.append(f"{n_dis} dislodged")
        if o.center_changes:
            bits.append("centers: " + ", ".join(
                f"{m.prov_abbr[c]}→{m.power_letters[b]}" for c, _a, b in o.center_changes))
        lines.append(f"{i:3}. {rec.position.phase.name:8} {phase_title(v, rec.position.phase):28}"
                     f" {'; '.join(bits)}")
    pending = sum(len(x) for x in game.orders.values())
    state = f"game {game.status}" if game.is_over else f"{pending} pending orders"
    lines.append(f"  now {game.phase:8} {phase_title(v, game.position.phase):28} {state}")
    return lines


def _numbered(m: Map, units: Sequence[Unit | Dislodged], i: int, shown: str, names: str
              ) -> str:
    """The order of `units[i]` as shown, its unit numbered ("F PBS #2") when the power has
    several of its kind in its space (a LAD ocean), as its orders were given."""
    n = number_of(m, units, i)
    if not n:
        return shown
    u = units[i]
    head = unit_words(m, u.kind, u.loc, names)
    return f"{head} #{n}{shown[len(head):]}" if shown.startswith(head) else shown
