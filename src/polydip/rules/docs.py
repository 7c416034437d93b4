"""The documentation written from the rule contract: the hook table of docs/architecture.md
(from rules/hookspec.py), the rule table of docs/variant-format.md and the `rules` part of
docs/variant.schema.json (from each rule's `summary` and `parameters`, rules/params.py).

    python -m polydip.rules.docs          # exit 1 and name the stale parts
    python -m polydip.rules.docs --write  # write them into docs/

Each generated part stands in its file between a pair of marker comments,
`<!-- generated: NAME -->` and `<!-- end: NAME -->`; tests/rules/test_rule_contract.py checks
that the shipped docs equal what this module writes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from polydip.rules import REGISTRY
from polydip.rules.base import Rule
from polydip.rules.hookspec import HOOKS, RuleHooks
from polydip.rules.params import rule_schema


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def used_by(hook: str) -> list[str]:
    """The rules (by name) that implement `hook`."""
    base = getattr(RuleHooks, hook)
    own = vars(Rule).get(hook)  # (Rule's own default, explain's, is no use of its own)
    return sorted(name for name, cls in REGISTRY.items()
                  if getattr(cls, hook) is not base and getattr(cls, hook) is not own)


def hook_table() -> str:
    """The hook table of docs/architecture.md."""
    rows = ["| hook | kind | combine | signature | answers | used by |",
            "|---|---|---|---|---|---|"]
    for h in HOOKS.values():
        users = ", ".join(f"`{n}`" for n in used_by(h.name)) or "every rule (`reasons`)"
        rows.append(f"| `{h.name}` | {h.kind} | {h.combine} | `{_cell(h.signature)}` | "
                    f"{_cell(h.summary)} | {users} |")
    return "\n".join(rows) + "\n"


def rule_table() -> str:
    """The rule table of docs/variant-format.md: each rule, what it does, its parameters."""
    rows = ["| rule | what it does | parameters |", "| --- | --- | --- |"]
    for name in sorted(REGISTRY):
        cls = REGISTRY[name]
        params = "; ".join(p.doc_cell() for p in cls.parameters) or "none"
        rows.append(f"| `{name}` | {_cell(cls.summary)} | {_cell(params)} |")
    return "\n".join(rows) + "\n"


def rules_schema() -> dict[str, Any]:
    """The `rules` part of the variant file's JSON schema (docs/variant.schema.json)."""
    return {"type": "object", "additionalProperties": False,
            "properties": {name: rule_schema(REGISTRY[name].parameters)
                           for name in sorted(REGISTRY)}}


SCHEMA = "docs/variant.schema.json"


def schema_text(root: Path) -> str:
    """docs/variant.schema.json with its `rules` part written from the declarations."""
    data = json.loads((root / SCHEMA).read_text())
    data["properties"]["rules"] = rules_schema()
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


ROOT = Path(__file__).resolve().parents[3]
# generated part -> (file under ROOT, the function writing it)
PARTS = {"hooks": ("docs/architecture.md", hook_table),
         "rules": ("docs/variant-format.md", rule_table)}


def _span(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {name} -->\n)(.*?)(<!-- end: {name} -->)", re.S)


def stale(root: Path = ROOT) -> list[str]:
    """The generated parts whose text in docs/ differs from what the contract writes."""
    out = []
    for name, (path, make) in PARTS.items():
        got = _span(name).search((root / path).read_text())
        if got is None or got.group(2) != make():
            out.append(f"{path} ({name})")
    if (root / SCHEMA).read_text() != schema_text(root):
        out.append(f"{SCHEMA} (rules)")
    return out


def write(root: Path = ROOT) -> None:
    for name, (path, make) in PARTS.items():
        f = root / path
        text = f.read_text()
        got = _span(name).search(text)
        if got is None:
            raise SystemExit(f"{path}: no <!-- generated: {name} --> marker")
        f.write_text(text[:got.start(2)] + make() + text[got.end(2):])
    (root / SCHEMA).write_text(schema_text(root))


def main(argv: list[str]) -> int:
    if "--write" in argv:
        write()
        return 0
    bad = stale()
    for b in bad:
        print(f"stale: {b} (python -m polydip.rules.docs --write)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
