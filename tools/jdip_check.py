#!/usr/bin/env python3
"""Run jDip-format DATC case files through polydip's one-shot adjudication contract.

    python3 tools/jdip_check.py FILE... [--verbose] [--cli] [--options JSON] [--case TEXT]

Each ``CASE … END`` block of a jDip/godip TestSuite file becomes one request of the one-shot
contract (``polydip.oneshot.adjudicate_request``, or ``polydip adjudicate`` with ``--cli``).
The outcome is compared with the case's expected position:

* ``POSTSTATE``: every unit on the board after the phase (movement, retreat and adjustment);
* ``POSTSTATE_DISLODGED``: the units dislodged by a movement phase.  Units listed there in
  comments ("destroyed") are dislodged units without a retreat; polydip reports those as
  dislodged with ``retreats: []``.  A unit polydip dislodges without any retreat may also be
  left out of the file altogether (jDip destroys such units at once);
* ``POSTSTATE_SAME``: the position did not change (and nothing is dislodged).

Units are compared as sets per power, case-insensitively, with coasts, after both sides are
read through the variant's map (so ``gol``/``LYO``, ``mid``/``MAO`` … are equal).

Retreat phases: ``PRESTATE_DISLODGED`` gives the dislodged units.  Each one's attacker is
recovered from ``PRESTATE_RESULTS`` (the SUCCESS move into its province; convoyed when the
move says "via convoy" or a successful convoy order carried it).  Provinces left empty by a
standoff (two or more failed moves into a province that is empty afterwards) are sent as
``contested``.  When a retreat case has no ``PRESTATE_DISLODGED`` at all, the dislodged units
are read from the results (a unit that did not move away and whose province was entered).

The tool is not part of the test suite; it reads the files it is given.  One line is printed
per failing case, then ``N passed, M failed`` per file and in total; the exit status is 1 when
any case failed (2 on a usage error).
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KEYWORDS = {
    "VARIANT_ALL", "VARIANT", "CASE", "END", "PRESTATE_SETPHASE", "PRESTATE",
    "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED", "PRESTATE_RESULTS", "ORDERS",
    "POSTSTATE", "POSTSTATE_DISLODGED", "POSTSTATE_SAME",
}
SECTIONS = {"PRESTATE", "PRESTATE_SUPPLYCENTER_OWNERS", "PRESTATE_DISLODGED",
            "PRESTATE_RESULTS", "ORDERS", "POSTSTATE", "POSTSTATE_DISLODGED"}

_POWER_LINE = re.compile(r"^([A-Za-z][A-Za-z_\- ]*?)\s*:\s*(.*)$")
_RESULT_LINE = re.compile(r"^(SUCCESS|FAILURE)\s*:?\s*(.*)$", re.IGNORECASE)
_UNIT_TEXT = re.compile(r"^([AaFf])\s+([A-Za-z]+(?:\s*/\s*[A-Za-z]+)?)")
_PHASE = re.compile(r"^\s*([A-Za-z]+)\s+(\d+)\s*,?\s*([A-Za-z]+)")
_SEASONS = {"spring": "S", "fall": "F", "autumn": "F", "winter": "W"}
_TYPES = {"movement": "M", "moves": "M", "retreat": "R", "retreats": "R",
          "adjustment": "A", "adjustments": "A", "build": "A", "builds": "A"}


# -- parsing -----------------------------------------------------------------------------------

@dataclass
class Case:
    name: str
    path: str
    line: int
    variant: str = "standard"
    phase_text: str | None = None
    prestate: list[tuple[str, str]] = field(default_factory=list)
    owners: list[tuple[str, str]] | None = None
    dislodged: list[tuple[str, str]] | None = None
    results: list[tuple[bool, str, str]] = field(default_factory=list)
    orders: list[tuple[str, str]] = field(default_factory=list)
    poststate: list[tuple[str, str]] | None = None
    post_dislodged: list[tuple[str, str]] | None = None
    destroyed: list[tuple[str, str]] = field(default_factory=list)  # commented, no retreat
    post_same: bool = False
    notes: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # lines the parser could not read


def _split_comment(line: str) -> tuple[str, str]:
    i = line.find("#")
    return (line, "") if i < 0 else (line[:i], line[i + 1:])


def _power_entry(text: str) -> tuple[str, str] | None:
    """'England: F nth-pic' → ('England', 'F nth-pic'); also 'Italy F gol' (no colon)."""
    m = _POWER_LINE.match(text)
    if m:
        return m.group(1).strip(), m.group(2).strip()
    parts = text.split(None, 1)
    if len(parts) == 2:
        return parts[0], parts[1].strip()
    return None


def parse_file(path: str | Path) -> list[Case]:
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    cases: list[Case] = []
    variant = "standard"
    case: Case | None = None
    section: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        body, comment = _split_comment(raw.replace("\t", " "))
        body = body.strip()
        if not body:
            # a commented unit under POSTSTATE_DISLODGED is a destroyed unit (no retreat)
            if case is not None and section == "POSTSTATE_DISLODGED" and comment:
                entry = _power_entry(comment.strip().lstrip("#").strip())
                if entry and _UNIT_TEXT.match(entry[1]):
                    unit = _UNIT_TEXT.match(entry[1])
                    case.destroyed.append((entry[0], f"{unit.group(1)} {unit.group(2)}"))
            continue
        word = body.split(None, 1)[0]
        rest = body[len(word):].strip()
        if word in KEYWORDS:
            if word in ("VARIANT_ALL", "VARIANT") and case is None:
                variant = rest.lower() or "standard"
            elif word == "VARIANT" and case is not None:
                case.variant = rest.lower() or "standard"
            elif word == "CASE":
                if case is not None:
                    case.problems.append(f"line {n}: CASE before END")
                    cases.append(case)
                case = Case(rest or f"line {n}", str(path), n, variant)
                section = None
            elif case is None:
                continue  # a keyword outside a case: ignore
            elif word == "END":
                cases.append(case)
                case, section = None, None
            elif word == "PRESTATE_SETPHASE":
                case.phase_text = rest
                section = None
            elif word == "POSTSTATE_SAME":
                case.post_same = True
                section = None
            else:
                section = word
                if word == "PRESTATE_SUPPLYCENTER_OWNERS" and case.owners is None:
                    case.owners = []
                elif word == "PRESTATE_DISLODGED" and case.dislodged is None:
                    case.dislodged = []
                elif word == "POSTSTATE" and case.poststate is None:
                    case.poststate = []
                elif word == "POSTSTATE_DISLODGED" and case.post_dislodged is None:
                    case.post_dislodged = []
            continue
        if case is None or section is None:
            if case is not None:
                case.problems.append(f"line {n}: {body!r} outside a section")
            continue
        if section == "PRESTATE_RESULTS":
            m = _RESULT_LINE.match(body)
            entry = _power_entry(m.group(2)) if m else None
            if not m or not entry:
                case.problems.append(f"line {n}: unreadable result {body!r}")
                continue
            case.results.append((m.group(1).upper() == "SUCCESS", entry[0], entry[1]))
            continue
        entry = _power_entry(body)
        if entry is None:
            case.problems.append(f"line {n}: unreadable line {body!r}")
            continue
        power, what = entry
        if section == "ORDERS":
            case.orders.append((power, what))
        elif section == "PRESTATE_SUPPLYCENTER_OWNERS":
            # "France: A bre" (the unit is ignored) or "France: bre"
            prov = what.split()[-1] if what.split() else what
            case.owners.append((power, prov.split("/")[0]))
        else:
            target = {"PRESTATE": case.prestate, "PRESTATE_DISLODGED": case.dislodged,
                      "POSTSTATE": case.poststate,
                      "POSTSTATE_DISLODGED": case.post_dislodged}[section]
            target.append((power, " ".join(what.split())))
    if case is not None:
        case.problems.append("no END")
        cases.append(case)
    return cases


# -- building the request -----------------------------------------------------------------------

class Board:
    """The variant's map, used only to read names (powers, provinces, units, orders)."""

    def __init__(self, variant: str) -> None:
        from polydip.oneshot import get_map

        self.m = get_map(variant)

    def power(self, name: str, notes: list[str]) -> str:
        m = self.m
        key = name.strip().lower()
        if key in m.power_index:
            return m.powers[m.power_index[key]]
        close = difflib.get_close_matches(key, list(m.power_index), n=1, cutoff=0.6)
        if close:
            fixed = m.powers[m.power_index[close[0]]]
            msg = f"power {name!r} read as {fixed}"
            if msg not in notes:
                notes.append(msg)
            return fixed
        return name.strip()

    def unit(self, text: str) -> str:
        """Canonical 'A PAR' / 'F STP/SC' (falls back to the upper-cased text)."""
        from polydip.notation import parse_unit

        try:
            kind, loc = parse_unit(self.m, text)
            return self.m.unit_str(kind, loc)
        except Exception:
            return " ".join(text.upper().split())

    def prov(self, text: str) -> str | None:
        m = self.m
        try:
            return m.prov_abbr[m.loc_prov[m.loc_of(text)]]
        except Exception:
            return None

    def order(self, text: str):
        """A movement order parsed by polydip's reader, or None."""
        from polydip.orders.parser import parse_order

        try:
            return parse_order(self.m, text, "M")
        except Exception:
            return None

    def loc_prov(self, loc: int) -> str:
        m = self.m
        return m.prov_abbr[m.loc_prov[loc]]


def phase_code(text: str | None, notes: list[str]) -> str:
    """'Spring 1901, Movement' → S1901M; jDip's 'Fall 1901, Adjustment' → W1901A."""
    if not text:
        notes.append("no PRESTATE_SETPHASE: Spring 1901, Movement assumed")
        return "S1901M"
    m = _PHASE.match(text)
    if not m:
        return text.strip()
    season = _SEASONS.get(m.group(1).lower(), m.group(1)[:1].upper())
    typ = _TYPES.get(m.group(3).lower(), m.group(3)[:1].upper())
    if typ == "A":
        season = "W"
    return f"{season}{m.group(2)}{typ}"


@dataclass
class Move:
    ok: bool
    power: str
    text: str
    kind: str  # "move", "convoy", "other"
    src: str | None = None  # province
    dst: str | None = None  # province
    via: bool = False
    aux: str | None = None  # convoyed army's province (convoy orders)


def read_results(b: Board, case: Case) -> list[Move]:
    from polydip.orders.model import CONVOY, MOVE

    out = []
    for ok, power, text in case.results:
        o = b.order(text)
        p = b.power(power, case.notes)
        if o is None:
            out.append(Move(ok, p, text, "other"))
            case.notes.append(f"result not understood: {text!r}")
        elif o.type == MOVE:
            out.append(Move(ok, p, text, "move", b.loc_prov(o.loc), b.loc_prov(o.target),
                            bool(o.via)))
        elif o.type == CONVOY:
            out.append(Move(ok, p, text, "convoy", b.loc_prov(o.loc), b.loc_prov(o.target),
                            aux=b.loc_prov(o.aux_loc)))
        else:
            out.append(Move(ok, p, text, "other", b.loc_prov(o.loc)))
    return out


def build_request(case: Case, options: dict[str, Any] | None = None) -> dict[str, Any]:
    b = Board(case.variant)
    notes = case.notes
    phase = phase_code(case.phase_text, notes)
    req: dict[str, Any] = {"id": case.name, "variant": case.variant, "phase": phase}
    units: dict[str, list[str]] = {}
    for power, unit in case.prestate:
        units.setdefault(b.power(power, notes), []).append(unit.upper())
    req["units"] = units
    if case.owners is not None:
        centers: dict[str, list[str]] = {}
        for power, prov in case.owners:
            centers.setdefault(b.power(power, notes), []).append(prov.upper())
        req["centers"] = centers
    if phase.endswith("R"):
        moves = read_results(b, case)
        occupied = {b.prov(u.split(None, 1)[-1]) for _, u in case.prestate}
        dislodged_in = case.dislodged
        if dislodged_in is None:
            dislodged_in = _infer_dislodged(b, moves)
            if dislodged_in:
                notes.append("no PRESTATE_DISLODGED; dislodged read from the results: "
                             + ", ".join(f"{p} {u}" for p, u in dislodged_in))
        dis: dict[str, list[dict[str, Any]]] = {}
        for power, unit in dislodged_in:
            entry: dict[str, Any] = {"unit": unit.upper()}
            prov = b.prov(unit.split(None, 1)[-1])
            attack = [mv for mv in moves if mv.kind == "move" and mv.ok and mv.dst == prov]
            if attack:
                mv = attack[-1]
                entry["from"] = mv.src.upper()
                carried = any(c.kind == "convoy" and c.ok and c.aux == mv.src
                              and c.dst == mv.dst for c in moves)
                if mv.via or carried:
                    entry["convoyed"] = True
                else:
                    entry["convoyed"] = False
            elif moves:
                notes.append(f"no successful move into {prov} in PRESTATE_RESULTS: "
                             f"attacker of {power} {unit} unknown")
            dis.setdefault(b.power(power, notes), []).append(entry)
        req["dislodged"] = dis
        failed: dict[str, int] = {}
        for mv in moves:
            if mv.kind == "move" and not mv.ok and mv.dst:
                failed[mv.dst] = failed.get(mv.dst, 0) + 1
        contested = sorted(p.upper() for p, k in failed.items() if k >= 2 and p not in occupied)
        if contested:
            req["contested"] = contested
    orders: dict[str, list[str]] = {}
    for power, text in case.orders:
        orders.setdefault(b.power(power, notes), []).append(text)
    req["orders"] = orders
    if options:
        req["options"] = dict(options)
    return req


def _infer_dislodged(b: Board, moves: list[Move]) -> list[tuple[str, str]]:
    entered = {mv.dst for mv in moves if mv.kind == "move" and mv.ok}
    out = []
    for mv in moves:
        if mv.src is None or (mv.kind == "move" and mv.ok):
            continue
        if mv.src in entered:
            unit = _UNIT_TEXT.match(mv.text.strip())
            if unit:
                out.append((mv.power, f"{unit.group(1).upper()} {unit.group(2)}"))
    return out


# -- running ------------------------------------------------------------------------------------

def run_python(reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from polydip.oneshot import adjudicate_request

    outs = []
    for req in reqs:
        try:
            outs.append(adjudicate_request(json.loads(json.dumps(req))))
        except Exception as exc:  # an engine crash, not an {"error": ...}
            outs.append({"crash": f"{type(exc).__name__}: {exc}",
                         "traceback": traceback.format_exc()})
    return outs


def _cli_batch(cmd: list[str], reqs: list[dict[str, Any]]) -> tuple[list[dict], str, int]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False,
                                     encoding="utf-8") as f:
        for r in reqs:
            f.write(json.dumps(r) + "\n")
        name = f.name
    try:
        p = subprocess.run([*cmd, "adjudicate", name], capture_output=True, text=True,
                           timeout=600)
    finally:
        Path(name).unlink(missing_ok=True)
    outs = []
    for line in p.stdout.splitlines():
        if line.strip():
            try:
                outs.append(json.loads(line))
            except json.JSONDecodeError:
                outs.append({"error": f"not JSON on stdout: {line[:200]}"})
    return outs, p.stderr, p.returncode


def run_cli(reqs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    exe = shutil.which("polydip")
    cmd = [exe] if exe else [sys.executable, "-m", "polydip.cli.main"]
    outs, err, rc = _cli_batch(cmd, reqs)
    if len(outs) == len(reqs):
        return outs
    # the batch did not answer every request (a crash?): one process per request
    sys.stderr.write(f"polydip adjudicate answered {len(outs)} of {len(reqs)} requests "
                     f"(exit {rc}); running them one by one\n{err[-2000:]}")
    outs = []
    for req in reqs:
        one, err, rc = _cli_batch(cmd, [req])
        if len(one) == 1:
            outs.append(one[0])
        else:
            outs.append({"crash": f"polydip adjudicate exit {rc}, no answer",
                         "traceback": err[-4000:]})
    return outs


def cli_available() -> str | None:
    """None when `polydip adjudicate` can be run, else why not."""
    exe = shutil.which("polydip")
    cmd = [exe] if exe else [sys.executable, "-m", "polydip.cli.main"]
    try:
        p = subprocess.run([*cmd, "adjudicate", "--help"], capture_output=True, text=True,
                           timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if p.returncode != 0:
        lines = (p.stderr or p.stdout).strip().splitlines()
        return lines[-1] if lines else f"exit {p.returncode}"
    return None


# -- comparing ----------------------------------------------------------------------------------

def _unitset(b: Board, pairs, notes: list[str]) -> set[tuple[str, str]]:
    return {(b.power(p, notes), b.unit(u)) for p, u in pairs}


def _fmt(units) -> str:
    by: dict[str, list[str]] = {}
    for p, u in sorted(units):
        by.setdefault(p, []).append(u)
    return "; ".join(f"{p}: {', '.join(us)}" for p, us in by.items()) or "-"


def compare(case: Case, req: dict[str, Any], out: dict[str, Any]) -> list[str]:
    """The differences between the outcome and the case's expectation ([] = pass)."""
    if "crash" in out:
        return [f"ENGINE CRASH {out['crash']}"]
    if "error" in out:
        return [f"error: {out['error']}"]
    b = Board(case.variant)
    notes = case.notes
    diffs: list[str] = []
    got_units = {(b.power(p, notes), b.unit(u)) for p, lst in out.get("units", {}).items()
                 for u in lst}
    got_dis: dict[tuple[str, str], list[str]] = {}
    for p, lst in (out.get("dislodged") or {}).items():
        for d in lst:
            got_dis[(b.power(p, notes), b.unit(d["unit"]))] = list(d.get("retreats") or [])
    if case.poststate is not None:
        want = _unitset(b, case.poststate, notes)
    elif case.post_same:
        want = _unitset(b, case.prestate, notes)
    else:
        want = None
    if want is not None and want != got_units:
        diffs.append(f"units: expected but missing [{_fmt(want - got_units)}], "
                     f"unexpected [{_fmt(got_units - want)}]")
    if req["phase"].endswith("M") and (want is not None or case.post_dislodged is not None):
        listed = _unitset(b, case.post_dislodged or [], notes) if not case.post_same else set()
        destroyed = _unitset(b, case.destroyed, notes)
        got = set(got_dis)
        no_retreat = {k for k, r in got_dis.items() if not r}
        # a commented ("destroyed") unit: dislodged with no retreat; matched by province
        # (a comment's unit kind is not always right)
        def where(pu: tuple[str, str]) -> tuple[str, str]:
            return pu[0], pu[1].split()[-1].split("/")[0]

        destroyed_at = {where(d) for d in destroyed}
        bad_destroyed = {d for d in destroyed
                         if where(d) not in {where(pu) for pu in no_retreat}}
        missing = listed - got
        extra = {pu for pu in (got - no_retreat) - listed if where(pu) not in destroyed_at}
        if missing or extra:
            diffs.append(f"dislodged: expected but missing [{_fmt(missing)}], "
                         f"unexpected [{_fmt(extra)}]"
                         + "".join(f" ({p} {u} may retreat to {', '.join(got_dis[(p, u)])})"
                                   for p, u in sorted(extra)))
        for p, u in sorted(no_retreat - listed):
            if where((p, u)) not in destroyed_at:
                note = f"polydip dislodges {p} {u} with no retreat (not in the file: destroyed)"
                if note not in notes:
                    notes.append(note)
        if bad_destroyed:
            have = ", ".join(f"{p} {u} retreats {got_dis[(p, u)]}" for p, u in
                             sorted(got_dis) if (p, u) in got and got_dis[(p, u)])
            diffs.append(f"expected destroyed (dislodged, no retreat) [{_fmt(bad_destroyed)}]"
                         + (f"; polydip: {have}" if have else ""))
    return diffs


# -- main ---------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="+", metavar="FILE", help="jDip-format case files")
    ap.add_argument("--verbose", "-v", action="store_true",
                    help="also list passing cases, notes, order errors; show the request "
                         "and outcome of failing cases")
    ap.add_argument("--cli", action="store_true",
                    help="pipe the requests through `polydip adjudicate` (JSON Lines)")
    ap.add_argument("--options", default=None, metavar="JSON",
                    help='rule options for every request, e.g. \'{"adjacent_convoy": '
                         '"fallback"}\'')
    ap.add_argument("--case", default=None, metavar="TEXT",
                    help="only the cases whose name contains TEXT")
    args = ap.parse_args(argv)
    options = None
    if args.options:
        try:
            options = json.loads(args.options)
        except json.JSONDecodeError as exc:
            ap.error(f"--options: not JSON: {exc}")
        if not isinstance(options, dict):
            ap.error("--options: a JSON object, like '{\"civil_disorder\": \"1982\"}'")
    if args.cli:
        why = cli_available()
        if why:
            print(f"--cli: `polydip adjudicate` cannot be run: {why}", file=sys.stderr)
            return 2
    total_pass = total_fail = total_crash = 0
    for path in args.files:
        try:
            cases = parse_file(path)
        except OSError as exc:
            print(f"{path}: {exc}", file=sys.stderr)
            return 2
        if args.case:
            cases = [c for c in cases if args.case in c.name]
        reqs = []
        for c in cases:
            try:
                reqs.append(build_request(c, options))
            except Exception as exc:
                c.problems.append(f"request not built: {type(exc).__name__}: {exc}")
                reqs.append({"id": c.name, "phase": "?"})
        outs = run_cli(reqs) if args.cli else run_python(reqs)
        passed = failed = 0
        for c, req, out in zip(cases, reqs, outs, strict=True):
            diffs = compare(c, req, out) if req.get("phase") != "?" else list(c.problems)
            where = f"{Path(path).name}:{c.line}"
            if "crash" in out:
                total_crash += 1
            if diffs:
                failed += 1
                print(f"FAIL {where} {c.name}: " + " | ".join(diffs))
            else:
                passed += 1
                if args.verbose:
                    print(f"ok   {where} {c.name}")
            if args.verbose:
                for note in c.notes + c.problems:
                    print(f"     note: {note}")
                for e in out.get("errors", []) or []:
                    print(f"     polydip error: {e}")
                if diffs:
                    print("     request: " + json.dumps(req))
                    shown = {k: v for k, v in out.items() if k != "traceback"}
                    print("     outcome: " + json.dumps(shown))
                    if "traceback" in out:
                        print("     " + out["traceback"].replace("\n", "\n     "))
        print(f"{path}: {passed} passed, {failed} failed")
        total_pass += passed
        total_fail += failed
    crash = f" ({total_crash} engine crash{'es' if total_crash != 1 else ''})" \
        if total_crash else ""
    print(f"total: {total_pass} passed, {total_fail} failed{crash}")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
