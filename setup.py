"""The optional compiled build (docs/speed.md): the hot modules compiled with mypyc from the
same .py files, when mypyc and a C compiler are at hand. Everything else is in pyproject.toml.

A pure build instead, with any of:
- POLYDIP_PURE=1 in the environment;
- an editable install (`pip install -e .`): the working tree stays plain Python;
- no mypyc (the `compiled` build requirement is left out with --no-build-isolation) or no
  working C compiler: the build says so and goes on pure.
"""

from __future__ import annotations

import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

# the modules of the hot path (adjudication, legal orders, processing, the fast path); they
# import only each other, the data modules and what stays interpreted
COMPILED = [
    "src/polydip/state.py",
    "src/polydip/geography/map.py",
    "src/polydip/geography/cache.py",
    "src/polydip/rules/tables.py",
    "src/polydip/orders/table.py",
    "src/polydip/adjudication/resolver.py",
    "src/polydip/adjudication/movement.py",
    "src/polydip/adjudication/decisions.py",
    "src/polydip/adjudication/attacks.py",
    "src/polydip/adjudication/convoy.py",
    "src/polydip/adjudication/legality.py",
    "src/polydip/adjudication/retreats.py",
    "src/polydip/adjudication/adjustments.py",
    "src/polydip/orders/model.py",
    "src/polydip/orders/canonical.py",
    "src/polydip/adjudication/legal.py",
    "src/polydip/variants/calendar.py",
    "src/polydip/game/engine.py",
    "src/polydip/game/victory.py",
    "src/polydip/fast/game.py",
    "src/polydip/game/positions.py",
    "src/polydip/game/record.py",
    "src/polydip/game/game.py",
    "src/polydip/oneshot.py",
    "src/polydip/orders/parser.py",
    "src/polydip/notation.py",
    "src/polydip/game/dipjson_write.py",
    "src/polydip/env/layout.py",
]


def _opt_level() -> str:
    """The C compiler's optimisation level: 3, or POLYDIP_MYPYC_OPT (0-3). CI builds at 0: the
    same code, compiled in 136 s instead of 231 s (its tests take as long either way)."""
    level = os.environ.get("POLYDIP_MYPYC_OPT", "3")
    if level not in ("0", "1", "2", "3"):
        print(f"polydip: POLYDIP_MYPYC_OPT={level!r} is not 0-3; building at 3", file=sys.stderr)
        return "3"
    return level


def ext_modules() -> list:
    if os.environ.get("POLYDIP_PURE", "") not in ("", "0"):
        print("polydip: POLYDIP_PURE is set, building pure Python", file=sys.stderr)
        return []
    if any(a in ("editable_wheel", "develop") for a in sys.argv):
        return []  # an editable install runs the working tree as it is
    if any(a in ("dist_info", "egg_info") for a in sys.argv) and not any(
            a in ("bdist_wheel", "build", "build_ext", "install") for a in sys.argv):
        # the package's metadata only (pip asks for it before any build, editable or not):
        # mypyc is not run for it (it took 35 s, at every pip install -e)
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("polydip: mypyc not found, building pure Python", file=sys.stderr)
        return []
    try:
        # (the modules they import are type-checked for their signatures only)
        return mypycify(["--follow-imports=silent", *COMPILED], opt_level=_opt_level(),
                        debug_level="0")
    except (Exception, SystemExit) as exc:  # a type error mypyc refuses (it exits), ...
        print(f"polydip: the compiled build failed ({exc}); building pure Python",
              file=sys.stderr)
        return []


class optional_build_ext(build_ext):
    """build_ext that leaves the package pure when the C compiler fails."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:
            print(f"polydip: compiling failed ({exc}); building pure Python", file=sys.stderr)
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []


setup(ext_modules=ext_modules(), cmdclass={"build_ext": optional_build_ext})
