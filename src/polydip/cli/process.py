"""`polydip process`: adjudicate the current phase, print the report, advance the game.

Nothing is processed by mistake: the picture path of `--map` is checked before anything is
adjudicated, and a phase in which no power has given any order is refused unless `--force`
says to process it anyway (every unit holding, dislodged units disbanded, adjustments left
to civil disorder) — so a second `process` typed by accident never turns a whole phase
into holds. The report says which powers gave no orders (NMR).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from polydip.cli.common import add_names_option, check_picture_path, names_for
from polydip.errors import PolydipError

if TYPE_CHECKING:  # annotations only
    from polydip.game.game import Game

_WHAT_HAPPENS = {
    "M": "every unit holding",
    "R": "every dislodged unit disbanded",
    "A": "builds waived and removals made by civil disorder",
}


def register(sub: argparse._SubParsersAction) -> None:
    pr = sub.add_parser("process", help="adjudicate the current phase, print the report, advance",
                        description="Adjudicate the current phase with the orders given, print "
                        "the report and move the game to the next phase. A phase in which no "
                        "power has given any order is refused unless --force is given.")
    pr.add_argument("gamefile", help="the game file")
    pr.add_argument("--format", choices=["text", "markdown", "json"], default="text",
                    help="report format: text (e-mail), markdown (forum post) or json (tools); "
                    "default text")
    pr.add_argument("--map", metavar="FILE", help="also draw the adjudicated phase to FILE "
                    "(.svg or .png); the path is checked before anything is adjudicated")
    pr.add_argument("--force", action="store_true",
                    help="process even when no power has given any order")
    add_names_option(pr, "how places are named in the report")
    pr.set_defaults(func=cmd_process)


def cmd_process(args: argparse.Namespace) -> int:
    from polydip.game.game import game_transaction
    from polydip.report import build_report, format_report

    if args.map:
        check_picture_path(args.map)
    with game_transaction(args.gamefile) as g:
        if g.is_over:
            raise PolydipError(f"the game is over ({g.status})")
        _refuse_empty(g, args)
        done = len(g.history)
        g.process(carry=True)  # (a combined season's retreats, then its adjustments)
    names = names_for(args, g.map)
    reports = [build_report(g, r, final=True, names=names) for r in g.history[done:]]
    if args.format == "json" and len(reports) > 1:  # one object: the last phase's, with
        out = reports[-1].to_json()                   # the phases processed before it
        out["processed_before"] = [r.to_json() for r in reports[:-1]]
        print(json.dumps(out, indent=1))
    else:
        print("\n".join(format_report(r, args.format) for r in reports))
    rec = g.history[-1]
    for note in g.restored:  # orders kept by an undo, pending again
        print(note, file=sys.stderr if args.format == "json" else sys.stdout)
    if args.map:
        from polydip.render import render_file

        render_file(g, args.map, phase=rec.position.phase.name)
        print(f"Map of {rec.position.phase.name} written to {args.map}",
              file=sys.stderr if args.format == "json" else sys.stdout)
    return 0


def _refuse_empty(g: Game, args: argparse.Namespace) -> None:
    if args.force or any(g.orders.values()) or not g.powers_to_order():
        return
    ptype = g.position.phase.type
    raise PolydipError(
        f"no orders given for {g.phase}; give them with 'polydip orders {args.gamefile} ...', "
        f"or use --force to process with {_WHAT_HAPPENS[ptype]}")
