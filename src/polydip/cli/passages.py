"""`polydip passages`: the GM's record of who may sail through a controlled strait or canal
(rules/controlled_passages.py; The Twentieth Century's Bremen, Ankara, Cairo and Panama)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from polydip.errors import PolydipError

if TYPE_CHECKING:  # annotations only
    from polydip.game.game import Game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "passages", help="list, grant or withdraw passage permissions (straits, canals)",
        description="Without an action: each controlled passage of the game, who controls it "
        "now and whom it lets through. 'allow PASSAGE POWER...' records that the power "
        "controlling the passage lets those powers through (from the current phase on); "
        "'revoke PASSAGE POWER...' withdraws it. Passages and powers may be named as players "
        "write them: 'Suez', 'the Straits', 'UK'.")
    p.add_argument("gamefile", help="the game file")
    p.add_argument("action", nargs="?", choices=["list", "allow", "revoke"], default="list",
                   help="list (the default), allow or revoke")
    p.add_argument("passage", nargs="?", help="the passage (with allow/revoke)")
    p.add_argument("powers", nargs="*", help="the powers let through (with allow/revoke)")
    p.add_argument("--by", metavar="POWER", help="the controlling power the permission is "
                   "recorded for (default: the power controlling the passage now)")
    p.set_defaults(func=cmd_passages)


def cmd_passages(args: argparse.Namespace) -> int:
    from polydip.game.game import Game, game_transaction

    if args.action == "list":
        if args.passage or args.powers or args.by:
            raise PolydipError("'polydip passages GAME' lists; to change a permission: "
                               "polydip passages GAME allow|revoke PASSAGE POWER...")
        show(Game.load(args.gamefile))
        return 0
    if not args.passage or not args.powers:
        raise PolydipError(f"name the passage and the powers: polydip passages GAME "
                           f"{args.action} PASSAGE POWER... (e.g. {args.action} Suez Italy)")
    with game_transaction(args.gamefile) as game:
        now = game.permit(args.passage, args.powers, args.by, allow=args.action == "allow")
        name = game.map.rules.passage(args.passage)
        by = args.by and game.map.powers[game.power(args.by)]
        by = by or next(p["controller"] for p in game.passages() if p["name"] == name)
    print(f"{name}: {by} lets through {', '.join(now) if now else 'nobody else'}.")
    return 0


def show(game: Game) -> None:
    rows = game.passages()
    if not rows:
        print(f"{game.variant.title} has no controlled passages.")
        return
    for p in rows:
        aka = f" ({', '.join(p['aliases'])})" if p["aliases"] else ""
        who = p["controller"] or "nobody (closed to all)"
        print(f"{p['name']}{aka}: controlled by {who}")
        for ctrl, allowed in p["permissions"].items():
            print(f"  {ctrl} lets through {', '.join(allowed)}")
