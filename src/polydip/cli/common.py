"""Helpers shared by the command modules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from polydip.errors import PolydipError

if TYPE_CHECKING:  # annotations only
    from polydip.game.game import Game
    from polydip.geography.map import Map

EXIT_USAGE, EXIT_ERROR, EXIT_BUG = 2, 1, 3
# `polydip orders`: some lines of the message were not taken (the others were kept)
EXIT_NOT_TAKEN = 4
# `polydip replay`: a game reached another position in the diplomacy package, unexplained
EXIT_DIFFERS = 5


def phase_title(g: Game) -> str:
    from polydip.variants.calendar import season_name

    return f"{season_name(g.variant.calendar, g.position.phase)} ({g.phase})"


def read_text(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise PolydipError(f"{name}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PolydipError(f"{name}: cannot read: {exc}") from exc


def print_outcome(g: Game) -> None:
    from polydip.report import build_report, format_report

    print(format_report(build_report(g, g.history[-1], final=True), "text"))


def add_names_option(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--names", choices=["full", "short"], default=None,
                   help=f"{what}: full province names with their codes ('Toronto (TOR)') or "
                   "codes only ('TOR'); default full for variants of more than 80 "
                   "provinces, where codes are easy to confuse")


def names_for(args: argparse.Namespace, m: Map) -> str:
    from polydip.orders.describe import default_names

    return args.names or default_names(m)


def check_picture_path(path: str) -> None:
    """Refuse a picture file polydip could not write, before anything else happens."""
    from polydip.render import check_output

    check_output(path)


def add_search_path_option(p: argparse.ArgumentParser, *also: str) -> None:
    p.add_argument("--search-path", *also, action="append", default=[], metavar="DIR",
                   dest="search_path",
                   help="a folder where files a variant file includes are looked for, and "
                   "the variant a diplomacy saved game's \"map\" names (NAME.toml, .map, "
                   ".cfg) (repeatable; also POLYDIP_VARIANT_PATH)")
