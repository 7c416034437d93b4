#!/usr/bin/env python3
"""Kill rates of a mutation-testing run, per package: what `mutmut run` left behind.

    mutmut run                       # (configured in pyproject.toml: rules/ and adjudication/)
    python3 tools/mutation_rates.py  # one line per package, then the surviving mutants

Reads `mutmut results --all true` in the current folder. A mutant counts as killed when a
test failed ("killed") or ran out of time ("timeout"); every other mutant that was generated
("survived", "no tests", "suspicious", "segfault") counts against the rate. `mutmut show
NAME` shows a surviving mutant's change; `mutmut browse` lets one walk through them.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter

KILLED = {"killed", "timeout"}


def package(name: str) -> str:
    """polydip.rules.capture_home.xǁCaptureHomeǁmay_build__mutmut_3 → polydip.rules"""
    return ".".join(name.split(".")[:2])


def main() -> int:
    try:
        out = subprocess.run(["mutmut", "results", "--all", "true"], capture_output=True,
                             text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"cannot read mutmut's results ({exc}); run 'mutmut run' first", file=sys.stderr)
        return 2
    counts: dict[str, Counter] = {}
    survivors: list[str] = []
    for line in out.splitlines():
        mt = re.match(r"^\s*(\S+): (.+)$", line)
        if not mt:
            continue
        name, status = mt.group(1), mt.group(2).strip()
        counts.setdefault(package(name), Counter())[status] += 1
        if status not in KILLED and status != "not checked":
            survivors.append(f"{status:>10}  {name}")
    if not counts:
        print("no mutants: run 'mutmut run' first", file=sys.stderr)
        return 2
    for pkg, c in sorted(counts.items()):
        total = sum(n for s, n in c.items() if s != "not checked")
        killed = sum(c[s] for s in KILLED)
        rest = ", ".join(f"{n} {s}" for s, n in sorted(c.items()) if s not in KILLED)
        print(f"{pkg:28} {killed}/{total} killed ({100 * killed / max(total, 1):.1f}%)"
              + (f"; {rest}" if rest else ""))
    for s in survivors:
        print(s)
    return 0


if __name__ == "__main__":
    sys.exit(main())
