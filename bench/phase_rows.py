#!/usr/bin/env python
"""Bytes a game's phase rows take in the host's database, at some phase counts.

    python bench/phase_rows.py [--phases 50 200] [--seed 1]

Plays one standard game through polydip.host.service.Host on a SQLite database in a
temporary folder (every power gives a random set of its legal orders each phase, "process
now" after each) and prints, when the game has processed each requested number of phases,
the size of the newest phase row (its text and JSON columns, in bytes), the mean size of a
row, and the size of the database file. Runs on any revision of the schema (it reads the
rows with SELECT *), so the same command measures before and after a change of storage.
Needs the host extras.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from pathlib import Path

from sqlalchemy import text


def row_bytes(values: tuple) -> int:
    return sum(len(v.encode()) if isinstance(v, str) else len(v) if isinstance(v, bytes)
               else 0 for v in values)


def main() -> None:
    from polydip.host.db import Database, migrate
    from polydip.host.service import Host

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--phases", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="polydip-rows-") as tmp:
        path = Path(tmp) / "polydip.db"
        db = Database(f"sqlite:///{path}")
        migrate(db.engine)
        host = Host(db, tmp)
        gid, gm = host.create_game("standard")
        tokens = host.links(gm)
        seq = 0
        print("phases  newest row (bytes)  mean row (bytes)  database file (bytes)")
        for target in sorted(args.phases):
            while seq < target:
                with db.transaction() as s:
                    g = host.gm_game(s, gm)
                    game = host.game(s, g)
                    if game.is_over:
                        raise SystemExit(f"the game ended at phase {g.seq}")
                    legal = {p: game.legal_orders(p) for p in game.powers_to_order()}
                for p, opts in legal.items():
                    tok = tokens.get(game.map.powers[p])
                    if tok:
                        host.submit(tok, "\n".join(rnd.choice(o) for o in opts.values() if o))
                host.process_now(gm)
                with db.transaction() as s:
                    seq = host.gm_game(s, gm).seq
            with db.engine.connect() as conn:
                rows = [row_bytes(tuple(r)) for r in conn.execute(
                    text("SELECT * FROM phases WHERE game_id = :g ORDER BY seq"), {"g": gid})]
            print(f"{seq:6d}  {rows[-1]:18d}  {sum(rows) // len(rows):16d}  "
                  f"{path.stat().st_size:21d}")
        db.dispose()


if __name__ == "__main__":
    main()
