#!/usr/bin/env python
"""How long polydip takes to draw each built-in board (issue 28.10: a Twentieth Century PNG
in under 1 s of CPU).

    python bench/render.py [--variants twentieth_century,wita] [--width 1600] [--cli]
                           [--repeat R] [--years N]

For each variant, in a fresh interpreter (so that the first picture pays what a first
picture of a process pays: the board read, its layout, the label placement), the start of
a new game is drawn: the SVG (`render.picture_svg`) then the PNG (`render.svg_to_png`),
first and warm (the same picture again: what the host pays per view), each as CPU time
(time.process_time); the library uses no on-disk memo. With `--cli` the whole command
too: `python -m polydip.cli.main render GAME -o x.png`, its CPU time (user + system of the
child) from the interpreter's start to the file written, first with an empty on-disk memo
(render/memo.py, in a temporary POLYDIP_CACHE_DIR: cold) then with the memo the first run
left: the second run (the first with the memo: it also keeps the picture's base, the
pixels under the units and names, which render/cairodraw.py writes out from a position's
second picture) and warm (the runs after it, which copy that base: what a GM's next
render of the same position pays); `--years N` renders a seeded random game N years in
instead of a new one. Warm figures are the fastest of `--repeat` calls. Run it with
bytecode written (PYTHONDONTWRITEBYTECODE unset, or a PYTHONPYCACHEPREFIX that can be
written): without, every child compiles polydip again (0.4-0.6 s), which a pip install
does not.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BOARDS = ["standard", "wita", "lad1890", "war_in_north_america", "twentieth_century"]


def measure(variant: str, width: int, repeat: int) -> dict:
    """In this interpreter: the figures of one variant (the first calls are this
    interpreter's first)."""
    t = time.process_time()
    from polydip.game.game import Game
    from polydip.render import picture_svg, svg_to_png

    out: dict = {"variant": variant, "import": time.process_time() - t}
    g = Game.new(variant)
    t = time.process_time()
    svg = picture_svg(g)
    out["svg first"] = time.process_time() - t
    t = time.process_time()
    png = svg_to_png(svg, width)
    out["png first"] = time.process_time() - t
    warm_svg, warm_png = [], []
    for _ in range(repeat):
        t = time.process_time()
        svg = picture_svg(g)
        warm_svg.append(time.process_time() - t)
        t = time.process_time()
        png = svg_to_png(svg, width)
        warm_png.append(time.process_time() - t)
    out["svg warm"] = min(warm_svg)
    out["png warm"] = min(warm_png)
    out["svg bytes"] = len(svg.encode("utf-8"))
    out["png bytes"] = len(png)
    return out


def _child_cpu(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cli_cpu(variant: str, width: int, repeat: int = 3, years: int = 0
            ) -> tuple[float, float, float]:
    """The CPU time of `polydip render` of a game (a new one, or `years` of a seeded random
    game), as a child process: the first run with an empty on-disk memo (render/memo.py:
    cold), the second (it keeps the picture's base) and the fastest of `repeat` runs after
    it (warm)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        env["POLYDIP_CACHE_DIR"] = str(Path(tmp) / "memo")
        game = Path(tmp) / "g.json"
        if years:
            subprocess.run([sys.executable, "-m", "polydip.cli.main", "demo", "--variant",
                            variant, "--years", str(years), "--seed", "7", "--save",
                            str(game), "--map", str(Path(tmp) / "demo.svg")],
                           check=True, capture_output=True, env=env)
        else:
            subprocess.run([sys.executable, "-m", "polydip.cli.main", "new", variant,
                            str(game)], check=True, capture_output=True, env=env)
        cmd = [sys.executable, "-m", "polydip.cli.main", "render", str(game), "-o",
               str(Path(tmp) / "x.png"), "--width", str(width)]
        cold = _child_cpu(cmd, env)
        second = _child_cpu(cmd, env)
        warm = min(_child_cpu(cmd, env) for _ in range(max(repeat, 1)))
    return cold, second, warm


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variants", default=",".join(BOARDS))
    ap.add_argument("--width", type=int, default=1600)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cli", action="store_true", help="also time the whole command")
    ap.add_argument("--years", type=int, default=0,
                    help="--cli: render after YEARS of a seeded random game (default: a new "
                         "game)")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # (the child's work)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(measure(args.one, args.width, max(args.repeat, 1))))
        return 0
    names = [v for v in args.variants.split(",") if v]
    print(f"CPU seconds (time.process_time), {args.width} px PNG, start of a new game; "
          f"warm: fastest of {max(args.repeat, 1)}")
    head = (f"{'variant':22} {'svg first':>9} {'png first':>9} {'both':>6} {'svg warm':>9} "
            f"{'png warm':>9} {'svg KB':>7} {'png KB':>7}"
            + (f" {'cli cold':>8} {'cli 2nd':>8} {'cli warm':>8}" if args.cli else ""))
    print(head)
    for v in names:
        got = subprocess.run([sys.executable, __file__, "--one", v, "--width",
                              str(args.width), "--repeat", str(args.repeat)],
                             check=True, capture_output=True, text=True)
        r = json.loads(got.stdout.strip().splitlines()[-1])
        line = (f"{v:22} {r['svg first']:9.3f} {r['png first']:9.3f} "
                f"{r['svg first'] + r['png first']:6.2f} {r['svg warm']:9.3f} "
                f"{r['png warm']:9.3f} {r['svg bytes'] / 1024:7.0f} {r['png bytes'] / 1024:7.0f}")
        if args.cli:
            cold, second, warm = cli_cpu(v, args.width, args.repeat, args.years)
            line += f" {cold:8.2f} {second:8.2f} {warm:8.2f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
