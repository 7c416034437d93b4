"""`polydip orders`: give orders for the current phase, from arguments or a pasted message.

The whole read-modify-write of the game file runs under the file's lock, so orders sent by
several players at the same moment all land. What was understood is echoed back in the
form players read (full names by default on big maps), with every replaced order and every
line not taken.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from polydip.cli.common import EXIT_NOT_TAKEN, add_names_option, names_for, read_text
from polydip.errors import PolydipError

if TYPE_CHECKING:  # annotations only
    from polydip.game.game import Game
    from polydip.game.message import Message


def register(sub: argparse._SubParsersAction) -> None:
    o = sub.add_parser(
        "orders", help="give orders for the current phase (one power's, or a whole message)",
        description="Give orders for the current phase. Each argument is one line of a "
        "message: a power's name on its own line, then that power's orders, or "
        "'Power: order' lines; --file reads a pasted message (e-mail, forum post). Lines "
        "that cannot be read are reported with the reason and a suggestion; the others are "
        "kept. A new order for a unit replaces its earlier one until the phase is processed.",
        epilog=f"Exit status: 0 when every line was taken (or plainly not an order: a "
        f"greeting, a signature); {EXIT_NOT_TAKEN} when some line that looks like an order "
        "or a power name was not taken (each is listed with its line number, or its "
        "argument's number counted from the first after GAMEFILE, problem code, "
        "reason and suggestion; the orders read are kept); 1 on an error that changed "
        "nothing (no such game file, the game is over).")
    o.add_argument("gamefile", help="the game file (polydip new makes one)")
    o.add_argument("lines", nargs="*", metavar="LINE",
                   help="a power name, then its orders: France 'A PAR - BUR' 'F BRE - MAO'")
    o.add_argument("--file", help="read a message from a file ('-' = standard input)")
    o.add_argument("--add", action="store_true", help="add to the powers' orders instead of "
                   "replacing orders for the same units")
    o.add_argument("--replace-all", action="store_true", help="a power named in the message "
                   "loses all its earlier orders for this phase first")
    o.add_argument("--clear", metavar="POWER", action="append", default=[],
                   help="clear a power's orders (repeatable; 'all' for every power)")
    add_names_option(o, "how the orders understood are echoed")
    o.set_defaults(func=cmd_orders)


def cmd_orders(args: argparse.Namespace) -> int:
    from polydip.game.engine import CLEAR_FIRST
    from polydip.game.game import game_transaction
    from polydip.game.message import apply_message, apply_permissions, merge, read_message

    if not args.lines and not args.file and not args.clear:
        raise PolydipError("no orders given (pass them as arguments or with --file)")
    message = read_text(args.file) if args.file else None
    if message is not None and not message.strip() and not args.lines and not args.clear:
        raise PolydipError(f"{'standard input' if args.file == '-' else args.file} holds no "
                           "text: no orders read, nothing changed")
    with game_transaction(args.gamefile) as g:
        if g.is_over:
            raise PolydipError(f"the game is over ({g.status})")
        cleared = []
        for name in args.clear:
            if name.lower() == "all":
                g.clear_orders(None)
            else:
                cleared.append(g.power(name))
                g.clear_orders(cleared[-1])
        msg = read_message(g.map, g.position, "\n".join(args.lines), combined=g.combined,
                           line_word="argument")
        if message is not None:  # its lines are numbered as in the file; a power named
            msg = merge(msg, read_message(g.map, g.position, message,  # before carries on
                                          msg.last_power, g.combined))
        problems = msg.problems + apply_message(g, msg, replace_all=args.replace_all,
                                                add=args.add)
        recorded, refused = apply_permissions(g, msg)
        problems += refused
    for line in recorded:  # passage permissions ("Britain allows Italy through Cairo")
        print(f"Passage permission: {line}.")
    _confirm(g, args, msg, cleared)
    if problems:
        word = msg.line_word  # (arguments, or the lines of a file)
        print(f"{len(problems)} {word}(s) not taken:", file=sys.stderr)
        for pr in sorted(problems, key=lambda p: p.line):
            where = f"{word} {pr.line}: " if pr.line else ""
            code = f"  [{pr.code}]" if pr.code else ""
            said = pr.reason + (f"; {pr.suggestion}" if pr.suggestion else "")
            print(f"  {where}{pr.text}\n      {said.replace(CLEAR_FIRST, _CLEAR)}" + code,
                  file=sys.stderr)
    return EXIT_NOT_TAKEN if problems else 0


_CLEAR = "polydip orders --replace-all, or --clear POWER"  # (engine.CLEAR_FIRST, here)


def _confirm(g: Game, args: argparse.Namespace, msg: Message, cleared: list[int]) -> None:
    from polydip.cli.common import phase_title
    from polydip.report import pending_lines

    m = g.map
    names = names_for(args, m)
    for note in msg.notes:
        print(f"note: {note}")
    shown = sorted(set(msg.powers) | {o.power for o in msg.orders} | set(cleared))
    for power in shown:
        lines = pending_lines(g, power, names)
        print(f"{m.powers[power]}, {phase_title(g)}: {len(lines)} "
              f"order{'' if len(lines) == 1 else 's'}")
        for line in lines:
            print(f"  {line}")
    if msg.ignored:
        n = len(msg.ignored)
        word = msg.line_word
        print(f"Ignored {n} {word}{'' if n == 1 else 's'} that {'is' if n == 1 else 'are'} "
              f"not orders ({word}{'' if n == 1 else 's'} "
              f"{', '.join(map(str, msg.ignored))}).")
    waiting = waiting_powers(g)
    if waiting:
        print("Still to order: " + "; ".join(waiting))
    else:
        print(f"Every power has ordered: run 'polydip process {args.gamefile}'.")


def waiting_powers(g: Game) -> list[str]:
    """Powers with units (or adjustments) still without orders, and which."""
    from polydip.adjudication.adjustments import adjustment_counts, build_sites
    from polydip.game.engine import MOVEMENT_TYPES, bind_to_units, parse_orders
    from polydip.orders.stacked import unit_label

    m, pos = g.map, g.position
    out = []
    ptype = pos.phase.type
    parsed, _ = parse_orders(m, pos.phase, g.orders)
    if ptype in ("M", "R"):
        units = pos.units if ptype == "M" else pos.dislodged
        allowed = MOVEMENT_TYPES if ptype == "M" else ("R", "D")
        bound, _ = bind_to_units(m, units, parsed, allowed)
        for power in g.powers_to_order():
            missing = [unit_label(m, units, i) for i, o in enumerate(bound)
                       if units[i].power == power and o is None]
            if missing:
                out.append(f"{m.powers[power]} ({', '.join(missing)})")
            elif g.combined and not g.orders.get(power) \
                    and not any(d.power == power for d in pos.dislodged):
                # a combined season (game/combined.py): its builds are ordered now
                out.append(f"{m.powers[power]} (builds or removals, carried out after the "
                           "retreats)")
    else:
        counts = adjustment_counts(m, pos)
        for power in g.powers_to_order():
            given = len(parsed.get(power, []))
            need = abs(counts[power])
            # builds past the open sites cannot be made (waived when processed), unless a
            # rule lets builds go to something else (a canal)
            can = need
            if counts[power] > 0 and not m.rules.more_adjustments(m, pos, power):
                can = min(need, len(build_sites(m, pos, power)))
            if given < can:
                what = "builds" if counts[power] > 0 else "removals"
                more = f"; {need - can} more without an open site" if can < need else ""
                out.append(f"{m.powers[power]} ({given} of {need} {what}{more})")
    return out
