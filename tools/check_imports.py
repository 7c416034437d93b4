#!/usr/bin/env python3
"""Import other tools' variant files, check them, and play a random game on each.

    python3 tools/check_imports.py [--parterre DIR] [--search DIR]... [--years N]
                                   [--seed N] [--verbose] [FILE...]

Reads every `.map` the `diplomacy` package ships (when it is installed), every `.cfg` of the
Parterre folder given with --parterre (or the POLYDIP_PARTERRE environment variable; get it
with `pip download --no-deps parterre` and unpack it: the files are in parterre/data/), and
any FILE given. `--search` adds folders where included files are looked for (Parterre's
fleet_rome.cfg and shift_around.cfg have `base=standard`: Parlance ships standard.cfg in
parlance/data/, from `pip download --no-deps parlance`).

For each variant: `polydip.check.check_variant`, then one game of random orders
(`polydip.play.random_orders`) until it ends or N years (default 40) have been played. One
line per variant: name, provinces, centers, powers, problems, result, seconds. A failure
prints what failed (and, with --verbose, the traceback; for a crash during play, the phase and
the orders given). Exit status 1 when any variant failed to import or crashed.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from polydip.check import check_variant
from polydip.errors import PolydipError
from polydip.game.game import Game
from polydip.play import random_orders
from polydip.variants.importers import import_variant
from polydip.variants.model import Variant


def diplomacy_maps() -> list[Path]:
    try:
        import diplomacy
    except ImportError:
        return []
    return sorted((Path(diplomacy.__file__).parent / "maps").glob("*.map"))


def play(v: Variant, years: int, seed: int) -> tuple[str, Game]:
    """A random game to its end or `years` years; returns the result text and the game."""
    g = Game.new(v)
    rng = random.Random(seed)
    first = g.position.phase.year
    while not g.is_over and g.position.phase.year < first + years:
        orders = random_orders(g.map, g.position, rng)
        for p, lst in orders.items():
            if not g.map.power_neutral[p]:
                g.set_orders(p, lst)
        try:
            g.process()
        except Exception as exc:
            given = {g.map.powers[p]: lst for p, lst in g.orders.items()}
            raise RuntimeError(f"crash in {g.phase}: {type(exc).__name__}: {exc}; "
                               f"orders: {given}") from exc
    year = g.position.phase.year
    if g.status == "won":
        return f"won by {', '.join(g.map.powers[p] for p in g.winners)} in {year}", g
    if g.status == "drawn":
        return f"drawn in {year}", g
    return f"running after {year - first} years ({g.phase})", g


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", type=Path, help="further .map/.cfg files")
    ap.add_argument("--parterre", type=Path, default=os.environ.get("POLYDIP_PARTERRE"),
                    help="a folder of Parterre .cfg files")
    ap.add_argument("--search", type=Path, action="append", default=[],
                    help="a folder where included/base files are looked for")
    ap.add_argument("--years", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args(argv)

    files = diplomacy_maps()
    if args.parterre:
        files += sorted(Path(args.parterre).glob("*.cfg"))
    files += args.files
    if not files:
        print("nothing to check: the diplomacy package is not installed and no Parterre "
              "folder or file was given", file=sys.stderr)
        return 2
    print(f"{'variant':<32} {'prov':>4} {'sc':>3} {'pow':>3} {'problems':>8}  "
          f"{'result':<44} {'seconds':>7}")
    failed = 0
    for f in files:
        label = f"{f.name}"
        t0 = time.perf_counter()
        try:
            v = import_variant(f, args.search)
        except PolydipError as exc:
            failed += 1
            print(f"{label:<32} import failed: {type(exc).__name__}: {exc}")
            continue
        problems = check_variant(v)
        n_sc = sum(1 for p in v.provinces.values() if p.supply_center)
        try:
            result, _g = play(v, args.years, args.seed)
        except Exception as exc:
            failed += 1
            result = f"CRASH: {exc}"
            if args.verbose:
                traceback.print_exc()
        dt = time.perf_counter() - t0
        print(f"{label:<32} {len(v.provinces):>4} {n_sc:>3} {len(v.powers):>3} "
              f"{len(problems):>8}  {result:<44} {dt:>7.2f}")
        if args.verbose:
            for pr in problems:
                print(f"    {pr}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
