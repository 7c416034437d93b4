"""No import circles between polydip modules.

A circle (a imports b, which imports ... a) is how layers rot: the usual dodge, an import
moved inside a function, hides it from the reader but not from this test, which reads every
import statement, at module level or inside a function (imports under `if TYPE_CHECKING:`
are annotations only and do not count). grimp builds the graph; the strongly connected
components with more than one module are the circles.
"""

from __future__ import annotations

import grimp


def import_graph() -> dict[str, set[str]]:
    g = grimp.build_graph("polydip", exclude_type_checking_imports=True, cache_dir=None)
    return {m: set(g.find_modules_directly_imported_by(m)) for m in g.modules}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), and modules
    importing themselves."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_circle_finder_finds_circles() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert sorted(circles(graph)) == [["a", "b", "c"], ["e"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circles_between_polydip_modules() -> None:
    found = circles(import_graph())
    assert found == [], "import circles: " + "; ".join(" ↔ ".join(c) for c in found)
