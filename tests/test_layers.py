"""polydip's packages depend strictly downward, in the layer order of docs/architecture.md.

A layer may import from the layers below it and from its own, never from one above: an
upward import is how a package circle starts, and a circle is how layers rot (a change at the
bottom then reaches everything). Like tests/test_imports.py this reads every import
statement, at module level or inside a function; imports under `if TYPE_CHECKING:` are
annotations only and do not count.

Each layer is a list of packages or top-level modules of polydip. The failure message lists
every upward import with its line, so a reader sees what to move where.
"""

from __future__ import annotations

import re
from pathlib import Path

import grimp

from tests.test_imports import circles

# bottom first; the numbered list under "Layers" in docs/architecture.md says the same
# (test_the_doc_lists_the_layers)
LAYERS: list[tuple[str, ...]] = [
    # the package's front door and the words every layer shares
    ("polydip", "polydip._pure", "polydip.errors", "polydip.names", "polydip.options",
     "polydip.state"),
    ("polydip.variants",),  # variant files -> Variant (plain data), the calendar's phase names
    ("polydip.geography",),  # a Variant compiled to a Map: integer ids, adjacency
    ("polydip.notation",),  # unit, province and power strings of positions <-> ids
    ("polydip.orders",),  # the Order record, reading and describing orders, the order table
    ("polydip.adjudication",),  # legality, the three phase kinds, convoys, reason codes
    ("polydip.rules",),  # one module per rule idea, the hooks the adjudicator calls
    ("polydip.compile",),  # a Variant's Map with its rules and their tables attached
    ("polydip.game",),  # Game: a variant and its history; phases processed; game files
    # random orders, the one-shot JSON contract, the GM report
    ("polydip.play", "polydip.oneshot", "polydip.report"),
    ("polydip.render",),  # pictures
    ("polydip.check",),  # `polydip variant check`: a variant file checked end to end
    # order codes, simulation, RL env; encode (arrays for learning) reads positions and the
    # order table like the env, and nothing below may need numpy
    # arena: agents that read and write words, above the game and its reader
    ("polydip.fast", "polydip.simulate", "polydip.env", "polydip.encode", "polydip.arena"),
    ("polydip.host",),  # `polydip serve`
    ("polydip.cli",),  # the `polydip` command
]

# (importer, imported) pairs of modules allowed upward, each with its reason (and in the doc)
EXCEPTIONS: dict[tuple[str, str], str] = {}


def layer_of(module: str) -> int:
    """The index in LAYERS of the longest name that is `module` or a package holding it."""
    best, found = -1, -1
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, found = len(name), i
    return found


def package_of(module: str) -> str:
    """The LAYERS name `module` belongs to (its package, or itself for a top-level module)."""
    names = [n for layer in LAYERS for n in layer if module == n or module.startswith(n + ".")]
    return max(names, key=len) if names else module


def graph() -> grimp.ImportGraph:
    return grimp.build_graph("polydip", exclude_type_checking_imports=True, cache_dir=None)


def upward_imports(g: grimp.ImportGraph) -> list[str]:
    out = []
    for m in sorted(g.modules):
        for d in sorted(g.find_modules_directly_imported_by(m)):
            if layer_of(d) > layer_of(m) and (m, d) not in EXCEPTIONS:
                lines = [x["line_number"] for x in g.get_import_details(importer=m, imported=d)]
                out.append(f"{m} (line {', '.join(map(str, lines))}) -> {d}")
    return out


def package_graph(g: grimp.ImportGraph) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for m in g.modules:
        for d in g.find_modules_directly_imported_by(m):
            a, b = package_of(m), package_of(d)
            if a != b and (m, d) not in EXCEPTIONS:
                out.setdefault(a, set()).add(b)
    return out


def test_every_module_has_a_layer() -> None:
    missing = sorted(m for m in graph().modules if layer_of(m) < 0)
    assert missing == [], "modules in no layer of LAYERS (add them): " + ", ".join(missing)


def test_no_upward_import_between_layers() -> None:
    found = upward_imports(graph())
    assert found == [], (f"{len(found)} upward imports (docs/architecture.md, Layers: move the "
                         "thing imported down, or the importer up):\n" + "\n".join(found))


def test_no_circle_between_packages() -> None:
    found = circles(package_graph(graph()))
    assert found == [], "package circles: " + "; ".join(" <-> ".join(c) for c in found)


def test_each_exception_still_happens() -> None:
    """An exception that no longer occurs is taken off the list (here and in the doc)."""
    g = graph()
    stale = [f"{a} -> {b}" for a, b in EXCEPTIONS
             if b not in g.find_modules_directly_imported_by(a)]
    assert stale == [], "EXCEPTIONS no longer needed: " + ", ".join(stale)


def test_the_layer_check_sees_an_upward_import() -> None:
    assert layer_of("polydip.orders.legal") < layer_of("polydip.adjudication.legality")
    assert layer_of("polydip.cli.common") > layer_of("polydip.host.app")
    assert package_of("polydip.variants.importers._common") == "polydip.variants"
    assert layer_of("polydip") == 0 and layer_of("somewhere.else") == -1


def test_the_doc_lists_the_layers() -> None:
    """docs/architecture.md numbers the layers in this order, each naming its packages."""
    doc = (Path(__file__).parent.parent / "docs" / "architecture.md").read_text()
    part = doc.split("## Layers", 1)[1].split("\n## ", 1)[0]
    items = re.split(r"\n(?=\d+\. )", part.split("\n1. ", 1)[1])
    assert len(items) == len(LAYERS)
    for item, names in zip(items, LAYERS, strict=True):
        for name in names:
            assert name.rsplit(".", 1)[-1] in item, f"{name} not in the doc's line: {item!r}"
    for importer, _imported in EXCEPTIONS:  # each exception is named there too
        assert f"`{importer.split('.', 1)[1].replace('.', '/')}.py`" in part
