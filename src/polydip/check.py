"""`polydip variant check`: find every problem of a variant file, each named by its key/line."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from polydip.errors import PolydipError, did_you_mean
from polydip.geography.map import Map, normalize_name
from polydip.notation import parse_unit
from polydip.rules import compile_rules
from polydip.variants.model import Variant

if TYPE_CHECKING:  # annotations only
    from polydip.render.board import Board


@dataclass(frozen=True, slots=True)
class Problem:
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}[{self.key}] {self.message}"


def check_variant(v: Variant) -> list[Problem]:
    problems: list[Problem] = []

    def add(key: str, msg: str, needle: str = "") -> None:
        problems.append(Problem(key, msg, v.line_of(needle) if needle else None))

    locs = set(v.provinces)
    for abbr, p in v.provinces.items():
        locs.update(f"{abbr}/{c}" for c in p.coasts)
    _check_names(v, add)
    _check_edges(v, add, locs)
    _check_reached(v, add)
    _check_powers(v, add)
    _check_units(v, add, locs)
    _check_rules(v, add)
    _check_counts(v, add)
    problems += [Problem("board", msg) for msg in board_problems(v)]
    return problems


# how a check reports a problem: add(key, message, needle to find its line)
_Add = Callable[..., None]


def _check_names(v: Variant, add: _Add) -> None:
    """Names and aliases are unique."""
    provs = v.provinces
    seen: dict[str, str] = {}
    for abbr, p in provs.items():
        for name in dict.fromkeys([p.abbr, p.name, *p.aliases]):
            key = normalize_name(name)
            if key in seen and seen[key] != abbr:
                add(f"provinces.{abbr}", f"name or alias {name!r} is also used by {seen[key]}",
                    f"[provinces.{abbr}]")
            seen.setdefault(key, abbr)


def _check_edges(v: Variant, add: _Add, locs: set[str]) -> None:
    """Edges: places exist, no duplicates, coasts named where needed."""
    provs = v.provinces
    pairs: Counter = Counter()
    for e in v.edges:
        for end in (e.a, e.b):
            if end not in locs:
                prov = end.split("/")[0]
                hint = ""
                if prov in provs and "/" in end:
                    hint = f" ({prov} has coasts {', '.join(provs[prov].coasts) or 'none'})"
                elif prov not in provs:
                    hint = did_you_mean(prov, provs)
                add(e.key, f"unknown place {end!r}{hint}", f"{e.a}-{e.b}")
        if e.a == e.b:
            add(e.key, f"edge from {e.a} to itself", f"{e.a}-{e.b}")
        pairs[(e.kind, *sorted((e.a, e.b)))] += 1
        kinds = v.edge_kinds[e.kind].units
        for end in (e.a, e.b):
            prov = end.split("/")[0]
            if prov in provs and provs[prov].coasts and "/" not in end and any(
                    v.unit_kinds[k].coastal for k in kinds):
                add(e.key, f"{prov} has coasts {', '.join(provs[prov].coasts)}: a {e.kind} "
                    f"edge must name one ({prov}/{provs[prov].coasts[0]})", f"{e.a}-{e.b}")
            if prov in provs and kinds:  # (an edge kind no unit crosses marks a border)
                occupy = v.terrains[provs[prov].terrain].occupy
                # a convoying kind's edge to land it cannot enter (a glacier's shore) is
                # where convoyed units land: it is meaningful
                shore = any(v.unit_kinds[k].convoys for k in kinds) and any(
                    v.unit_kinds[k].convoyed for k in occupy if k in v.unit_kinds)
                if not occupy & kinds and not shore:
                    add(e.key, f"{e.kind} edge touches {prov}, where no unit that crosses "
                        f"{e.kind} edges ({', '.join(sorted(kinds))}) may stand",
                        f"{e.a}-{e.b}")
    for (kind, a, b), n in pairs.items():
        if n > 1:
            add(f"edges.{kind}", f"edge {a}-{b} is listed {n} times", f"{a}-{b}")


def _check_reached(v: Variant, add: _Add) -> None:
    """Every coast is reachable by some edge, every province that holds units has one."""
    provs = v.provinces
    used = {e.a for e in v.edges} | {e.b for e in v.edges}
    for abbr, p in provs.items():
        for c in p.coasts:
            if f"{abbr}/{c}" not in used:
                add(f"provinces.{abbr}.coasts", f"coast {abbr}/{c} has no edge: no fleet can "
                    "reach it", f"[provinces.{abbr}]")
        if v.terrains[p.terrain].occupy and not any(
                abbr in (e.a.split("/")[0], e.b.split("/")[0]) for e in v.edges):
            add(f"provinces.{abbr}", "province has no edges", f"[provinces.{abbr}]")


def _check_powers(v: Variant, add: _Add) -> None:
    """Powers: homes, units, centers."""
    provs = v.provinces
    letters = Counter(p.letter for p in v.powers)
    for power in v.powers:
        key = f"powers.{power.name}"
        if letters[power.letter] > 1:
            add(key, f"letter {power.letter!r} is used by more than one power", f'"{power.name}"')
        if not power.homes and not power.neutral:
            add(key, "power has no home center", f'"{power.name}"')
        for what in ("homes", "centers"):
            for h in getattr(power, what):
                if what == "centers" and h in power.homes:
                    continue  # reported once, as a home
                if h not in provs:
                    add(f"{key}.{what}", f"unknown province {h!r}" + did_you_mean(h, provs),
                        f'"{h}"')
                elif not provs[h].supply_center:
                    add(f"{key}.{what}", f"{h} is not a supply center", f'"{power.name}"')
        for t in power.territory:
            if t not in provs:
                add(f"{key}.territory", f"unknown province {t!r} in territory"
                    + did_you_mean(t, provs), f'"{t}"')
    owners = Counter(c for p in v.powers for c in p.centers)
    for c, n in owners.items():
        if n > 1:
            add("powers", f"center {c} is owned by {n} powers at the start")


def _check_units(v: Variant, add: _Add, locs: set[str]) -> None:
    """Starting units stand on legal places (compile the map to use its rules)."""
    provs = v.provinces
    try:
        # compile what is sound (the problems above are reported already)
        powers = [replace(p, homes=[h for h in p.homes if h in provs],
                          centers=[c for c in p.centers if c in provs]) for p in v.powers]
        m = Map(replace(v, edges=[e for e in v.edges if e.a in locs and e.b in locs],
                        powers=powers))
        taken: dict[int, str] = {}
        for power in v.powers:
            for t in power.units:
                try:
                    _, loc = parse_unit(m, t)
                except PolydipError as exc:
                    add(f"powers.{power.name}.units", str(exc), t)
                    continue
                prov_id = m.loc_prov[loc]
                if prov_id in taken:
                    add(f"powers.{power.name}.units", f"{t}: {m.prov_abbr[prov_id]} already "
                        f"holds {taken[prov_id]}", t)
                taken[prov_id] = t
    except PolydipError as exc:
        add("edges", str(exc))


def _check_rules(v: Variant, add: _Add) -> None:
    """Each rule's parameters (the Map is geography only: its rules are compiled apart)."""
    try:
        compile_rules(v)
    except PolydipError as exc:
        add("rules", str(exc))


def _check_counts(v: Variant, add: _Add) -> None:
    """Victory is reachable (centers count by their value: a capital worth 2 counts twice);
    the declared counts and the calendar agree."""
    provs = v.provinces
    n_sc = v.center_total()
    if v.victory.centers > n_sc:
        add("victory.centers", f"{v.victory.centers} centers needed but the map has {n_sc}")
    if "supply_centers" in v.declared and v.declared["supply_centers"] != n_sc:
        add("variant.supply_centers",
            f"declares {v.declared['supply_centers']} supply centers, the map has {n_sc}"
            + (" (counted by value)" if any(p.center_value != 1 for p in provs.values())
               else ""), "supply_centers")
    if "provinces" in v.declared and v.declared["provinces"] != len(provs):
        add("variant.provinces",
            f"declares {v.declared['provinces']} provinces, the map has {len(provs)}",
            "provinces =")
    seasons = {s.abbr for s in v.calendar.seasons}
    if v.calendar.centers_change_after not in seasons:
        add("calendar.centers_change_after", f"unknown season {v.calendar.centers_change_after!r}")


# ---- boards (`polydip variant check NAME --board`) -------------------------------------------
# Kept apart from the checks above: a board is drawing data, checked against the map it draws.

BOARD_WIDTH = 1600  # the figures are for a picture this wide
MIN_TOUCH = 5.0  # px: an adjacent pair must share this much border ...
MAX_CONNECTORS = 0.03  # ... or be a declared connector (at most this share of the pairs)
WRONG_TOUCH = 2.0  # px: a non-adjacent pair sharing this much border touches
MIN_CLEARANCE = 10.0  # px: from a label or unit anchor to its province's outline
MIN_AREA = 600.0  # px²
MAX_BOARD_KB = 250


@dataclass(slots=True)
class BoardFigures:
    lines: list[str]  # the figures, one per line
    problems: list[str]  # each target missed, and each inconsistency


def _adjacent_pairs(v: Variant) -> set[tuple[str, str]]:
    out = set()
    for e in v.edges:
        a, b = e.a.split("/")[0], e.b.split("/")[0]
        if a != b:
            out.add((min(a, b), max(a, b)))
    return out


def board_consistency(v: Variant, board: Board) -> list[str]:
    """Problems that make a board unusable for this variant: missing or unknown provinces,
    anchors, rings that do not close, arcs used other than once from each side."""
    problems = []
    names = set(v.provinces)
    drawn = set(board.regions) - {"neutral"}
    for a in sorted(names - drawn):
        problems.append(f"province {a} is not on the board")
    for a in sorted(drawn - names):
        problems.append(f"the board draws {a}, which is no province of {v.name}")
    for a in sorted(names):
        anc = board.anchors.get(a)
        if anc is None or "unit" not in anc or "label" not in anc:
            problems.append(f"{a} has no unit or label anchor")
            continue
        for c in v.provinces[a].coasts:
            if c not in anc.get("coasts", {}):
                problems.append(f"{a}/{c} has no anchor for a fleet on that coast")
    for a, b, _line in board.connectors:
        if a not in names or b not in names:
            problems.append(f"connector {a}-{b} names no province")
    return problems + _ring_problems(board)


def _ring_problems(board: Board) -> list[str]:
    """Rings that do not close; arcs used other than once from each side (or once, off the
    frame)."""
    problems = []
    fwd = [0] * len(board.arcs)
    rev = [0] * len(board.arcs)
    for name, faces in board.regions.items():
        for surface, rings in faces.items():
            for ring in rings:
                for k, ref in enumerate(ring):
                    if ref >= 0:
                        fwd[ref] += 1
                    else:
                        rev[~ref] += 1
                    nxt = ring[(k + 1) % len(ring)]
                    end = board.arcs[ref][-1] if ref >= 0 else board.arcs[~ref][0]
                    start = board.arcs[nxt][0] if nxt >= 0 else board.arcs[~nxt][-1]
                    if end != start:
                        problems.append(f"{name or 'neutral'} ({surface}): a ring does not "
                                        "close")
                        break
    w, h = board.width, board.height
    for i, arc in enumerate(board.arcs):
        on_frame = all(x in (0, w) or y in (0, h) for x, y in arc)
        if fwd[i] > 1 or rev[i] > 1 or fwd[i] + rev[i] == 0 or (
                fwd[i] + rev[i] == 1 and not on_frame):
            problems.append(f"arc {i} is used {fwd[i]} times forward and {rev[i]} backward")
    return problems


def board_problems(v: Variant) -> list[str]:
    """The board's consistency with the variant, when it has a board (plain `variant
    check`; the figures are `variant check --board`)."""
    from polydip.render.board import board_path, read_board

    path = board_path(v)
    if path is None:
        return []
    try:
        board = read_board(path)
    except PolydipError as exc:
        return [str(exc)]
    return [f"{path.name}: {msg}" for msg in board_consistency(v, board)]


def check_board(v: Variant, board: Board) -> BoardFigures:
    """The figures of a board against its map, and every target it misses."""
    lines: list[str] = []
    problems = board_consistency(v, board)
    k = BOARD_WIDTH / board.width  # the figures are for a picture BOARD_WIDTH wide
    _board_touch(v, board, k, lines, problems)
    _board_anchors(v, board, k, lines, problems)
    _board_areas(v, board, k, lines, problems)
    _board_coverage(v, board, lines, problems)
    kb = board.size / 1024
    lines.append(f"board file: {kb:.0f} KB (at most {MAX_BOARD_KB})")
    if kb > MAX_BOARD_KB:
        problems.append(f"the board file is {kb:.0f} KB (at most {MAX_BOARD_KB})")
    return BoardFigures(lines, problems)


def _board_touch(v: Variant, board: Board, k: float, lines: list[str], problems: list[str]) -> None:
    """Adjacent provinces touch (or are declared connectors); others do not."""
    from polydip.render.board import touch_lengths

    touch = {pair: length * k for pair, length in touch_lengths(board).items()}
    adjacent = _adjacent_pairs(v)
    connectors = {(min(a, b), max(a, b)) for a, b, _ in board.connectors}
    missing = sorted(p for p in adjacent if touch.get(p, 0.0) < MIN_TOUCH and p not in connectors)
    wrong_all = sorted(p for p, ln in touch.items() if ln >= WRONG_TOUCH and p not in adjacent
                       and "neutral" not in p)
    wrong = [p for p in wrong_all if p not in board.no_passage]
    n_adj = len(adjacent)
    share = len(connectors & adjacent) / n_adj if n_adj else 0.0
    lines.append(f"adjacent pairs: {n_adj}; touching along >= {MIN_TOUCH:g} px: "
                 f"{n_adj - len(missing) - len(connectors & adjacent)}; declared connectors: "
                 f"{len(connectors & adjacent)} ({share:.1%}, at most {MAX_CONNECTORS:.0%}); "
                 f"neither: {len(missing)}")
    for a, b in missing:
        problems.append(f"{a}-{b} are adjacent but share only {touch.get((a, b), 0):.1f} px "
                        "of border (draw them touching, or declare a connector)")
    if share > MAX_CONNECTORS:
        problems.append(f"{len(connectors & adjacent)} connectors are {share:.1%} of the "
                        f"adjacent pairs (at most {MAX_CONNECTORS:.0%})")
    for a, b in sorted(connectors - adjacent):
        problems.append(f"connector {a}-{b}: the two provinces are not adjacent")
    lines.append(f"non-adjacent pairs touching along >= {WRONG_TOUCH:g} px: {len(wrong_all)} "
                 f"({len(wrong_all) - len(wrong)} declared no passage); undeclared: "
                 f"{len(wrong)}")
    for a, b in wrong:
        problems.append(f"{a}-{b} are not adjacent but share {touch[(a, b)]:.1f} px of border")


def _board_anchors(v: Variant, board: Board, k: float, lines: list[str],
                   problems: list[str]) -> None:
    """Label and unit anchors stand clear of their province's outline."""
    from polydip.render.board import clearance

    n_anchor = 0
    worst = (float("inf"), "")
    low: list[str] = []
    beside = 0
    for a in v.provinces:
        anc = board.anchors.get(a)
        if not anc:
            continue
        points = [("label", anc["label"]), ("unit", anc["unit"])]
        points += [(f"coast {c}", xy) for c, xy in anc.get("coasts", {}).items()]
        points += [(f"unit {k + 2}", xy) for k, xy in enumerate(anc.get("slots", []))]
        for what, xy in points:
            n_anchor += 1
            c = clearance(board, a, (xy[0], xy[1])) * k
            if c < worst[0]:
                worst = (c, f"{a} {what}")
            if c < MIN_CLEARANCE:
                low.append(f"{a} {what} ({c:.1f} px)")
        if "dislodged" not in anc or clearance(board, a, tuple(anc["dislodged"])) * k < 0:
            beside += 1
    lines.append(f"label and unit anchors: {n_anchor}; with >= {MIN_CLEARANCE:g} px clearance: "
                 f"{n_anchor - len(low)}; smallest: {worst[0]:.1f} px ({worst[1]}); "
                 f"dislodged units drawn inside their province: {len(v.provinces) - beside}, "
                 f"beside it: {beside}")
    for item in low:
        problems.append(f"anchor too close to the province outline: {item}")


def _board_areas(v: Variant, board: Board, k: float, lines: list[str], problems: list[str]) -> None:
    """No province too small to hold its label and units."""
    from polydip.render.board import region_area

    areas = {a: region_area(board, a) * k * k for a in v.provinces if a in board.regions}
    if areas:
        small = min(areas, key=areas.__getitem__)
        lines.append(f"smallest province: {small} {areas[small]:.0f} px² (at least "
                     f"{MIN_AREA:g})")
        for a, ar in sorted(areas.items()):
            if ar < MIN_AREA:
                problems.append(f"{a} covers only {ar:.0f} px² (at least {MIN_AREA:g})")


def _board_coverage(v: Variant, board: Board, lines: list[str], problems: list[str]) -> None:
    """The faces tile the frame (areas add up, no arc crosses another)."""
    from polydip.render.board import crossing_arcs, signed_area

    total = 0.0
    negative = []
    for name, faces in board.regions.items():
        for surface, rings in faces.items():
            ar = sum(signed_area(board.ring_points(r)) for r in rings)
            total += ar
            if ar <= 0:
                negative.append(f"{name} ({surface})")
    frame = board.width * board.height
    crossings = crossing_arcs(board.arcs)
    gap = abs(total - frame) / frame
    ok_cov = not crossings and gap < 1e-6 and not negative and not problems_of_arcs(problems)
    lines.append(f"coverage: {len(board.arcs)} arcs, {sum(len(a) for a in board.arcs)} points; "
                 f"faces cover {total / frame:.6%} of the frame; crossing arcs: "
                 f"{len(crossings)}; {'valid' if ok_cov else 'NOT VALID'}")
    if gap >= 1e-6:
        problems.append(f"the faces cover {total:.0f} px² of a {frame:.0f} px² frame")
    for item in negative:
        problems.append(f"face {item} has no area (rings turned the wrong way)")
    for i, j in crossings[:20]:
        problems.append(f"arcs {i} and {j} cross")


def picture_figures(v: Variant, fig: BoardFigures) -> None:
    """The pictures drawn on the board, measured (render.audit): the start and a few phases
    of a seeded game of random orders; each target missed is a problem."""
    from polydip.render.audit import audit_variant, targets_missed

    for phase, a in audit_variant(v):
        fig.lines.append(f"picture {phase}: {a.line()}")
        fig.problems += [f"picture {phase}: {p}" for p in targets_missed(a)]


def problems_of_arcs(problems: list[str]) -> bool:
    return any(p.startswith("arc ") or "does not close" in p for p in problems)


def board_report(v: Variant, path: Path | None = None) -> tuple[bool, str]:
    """(all targets met, the text `variant check --board` prints)."""
    from polydip.render.board import board_path, read_board

    path = path or board_path(v)
    if path is None:
        return False, f"{v.name} has no board (NAME.board.json beside the variant file)"
    board = read_board(path)
    fig = check_board(v, board)
    picture_figures(v, fig)
    out = [f"{path}:"] + [f"  {line}" for line in fig.lines]
    out += [f"  problem: {p}" for p in fig.problems]
    out.append("  all targets met" if not fig.problems else
               f"  {len(fig.problems)} problem(s)")
    return not fig.problems, "\n".join(out)
