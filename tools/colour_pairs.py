"""The closest pair of power colours of every built-in variant, in ΔE00 for normal vision,
protanopes and deuteranopes (render/colors.py), as polydip draws them: the pairs alike
(under PAIR_MIN in some vision) and how many of them the marks leave alike.

    PYTHONPATH=src python tools/colour_pairs.py [OLD_COLORS_PY]

OLD_COLORS_PY: another version of render/colors.py (`git show REV:src/polydip/render/
colors.py > old.py`) whose power_colors picks the colours (with no marks if it has none):
the figures before a change.
"""

from __future__ import annotations

import importlib.util
import itertools
import sys

from polydip.render import colors
from polydip.variants.loader import builtin_names, load_variant


def main(argv: list[str]) -> None:
    pick, marker = colors.power_colors, colors.power_marks
    if argv:
        spec = importlib.util.spec_from_file_location("old_colors", argv[0])
        if spec is None or spec.loader is None:
            sys.exit(f"cannot read {argv[0]}")
        old = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(old)
        pick = old.power_colors
        marker = getattr(old, "power_marks", lambda cs: [""] * len(cs))
    for name in builtin_names():
        v = load_variant(name)
        names = [p.name for p in v.powers]
        drawn = pick([p.color or "#888888" for p in v.powers], [p.neutral for p in v.powers])
        marks = marker(drawn)
        pairs = list(itertools.combinations(range(len(drawn)), 2))
        d = {(i, j): colors.differences(drawn[i], drawn[j]) for i, j in pairs}
        closest = []
        for k, vision in enumerate(colors.VISIONS):
            i, j = min(pairs, key=lambda p, k=k: d[p][k])
            closest.append(f"{vision} {d[(i, j)][k]:.1f} ({names[i]}/{names[j]})")
        alike = [p for p in pairs if min(d[p]) < colors.PAIR_MIN]
        same = [p for p in alike if marks[p[0]] == marks[p[1]]]
        print(f"{name}: " + "; ".join(closest)
              + f" | alike pairs {len(alike)}, left alike by the marks {len(same)}"
              + f" | marked powers {sum(1 for m in marks if m)}")


if __name__ == "__main__":
    main(sys.argv[1:])
