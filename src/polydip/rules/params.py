"""A rule's parameters, declared once: each `Param` says its name, type, default, choices,
what its strings name in the variant, and its words for the docs.

From the declarations come the checks of a variant file's `[rules.NAME]` table
(`check_params`, run by Rule.__init__: every error names the file and key), the rule's
`params_doc`, its fragment of the variant file's JSON schema (`schema`) and its row of the
rule table in docs/variant-format.md (`doc_cell`). A rule module checks only what no
declaration can say (an edge named exists, a candidate is a supply center).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from polydip.errors import VariantError, did_you_mean

# value types: a TOML value of one kind, or a list of them ("tables": inline tables or
# [[rules.NAME.PARAM]] arrays, whose keys are the Param's `fields`)
TYPES: Final = ("string", "boolean", "integer", "strings", "integers", "tables")
# what a string (or each string of a list) names in the variant, checked when it is loaded
REFERS: Final = ("", "tag", "edge_kind", "unit_kind", "province", "power", "season")

_WHAT = {"string": "a string", "boolean": "true or false", "integer": "a whole number",
         "strings": "a list of strings", "integers": "a list of whole numbers",
         "tables": "a list of tables"}
_NAMES = {"tag": "province tag", "edge_kind": "edge kind", "unit_kind": "unit kind",
          "province": "province", "power": "power", "season": "season abbreviation"}


@dataclass(frozen=True)
class Param:
    """One parameter of a rule (or one key of a table parameter's tables)."""

    name: str
    type: str
    doc: str
    default: Any = None
    choices: tuple[Any, ...] = ()
    required: bool = False  # given, and for a list not empty
    minimum: int | None = None  # integers: the bounds of the value (or of each value)
    maximum: int | None = None
    refers: str = ""
    fields: tuple[Param, ...] = ()
    example: str = ""  # TOML text of a value for the docs (else the default's)
    also: tuple[str, ...] = ()  # values taken besides the names `refers` allows ("any")

    def __post_init__(self) -> None:
        if self.type not in TYPES or self.refers not in REFERS:
            raise ValueError(f"parameter {self.name}: type {self.type!r}, refers "
                             f"{self.refers!r}")

    # ---- what the value must be, in words ---------------------------------------------

    def wants(self, variant: Any = None) -> str:
        """The value this parameter takes, in words ("a list of unit kinds (A, F)")."""
        if self.choices:
            return "one of " + ", ".join(map(repr, self.choices))
        plural = self.type in ("strings", "integers", "tables")
        if self.refers:
            name = _NAMES[self.refers]
            words = f"a list of {name}s" if plural else f"a {name}"
            if self.refers in ("tag", "edge_kind", "unit_kind", "season", "power") \
                    and variant is not None:
                known = _known(variant, self.refers)
                if self.refers != "tag" and known:
                    words += f" ({', '.join(sorted(known))})"
            return words.replace("a edge", "an edge")
        if self.type in ("integer", "integers") and (self.minimum is not None
                                                     or self.maximum is not None):
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            span = (f"from {lo} to {hi}" if lo and hi
                    else f"{lo} or more" if lo else f"{hi} or less")
            return (f"a list of whole numbers {span}" if plural else f"a whole number {span}")
        return _WHAT[self.type]

    # ---- the checks ---------------------------------------------------------------------

    def check(self, value: Any, variant: Any, where: str) -> None:
        """Raise a VariantError (naming `where`, "FILE: [KEY]") when `value` is not one this
        parameter takes."""
        bad = f"{where} {self.name} = {_short(value)}"
        if self.type == "tables":
            if not isinstance(value, list) or not all(isinstance(t, dict) for t in value):
                raise VariantError(f"{bad}: {self.wants(variant)}")
            for i, table in enumerate(value):
                self._check_table(table, variant, f"{where[:-1]}.{self.name}[{i}]]")
            return
        items = value if self.type in ("strings", "integers") else [value]
        if self.type in ("strings", "integers") and not isinstance(value, list):
            raise VariantError(f"{bad}: {self.wants(variant)}")
        for x in items:
            if not self._scalar_ok(x):
                raise VariantError(f"{bad}: {self.wants(variant)}")
        if self.choices and value not in self.choices:
            raise VariantError(f"{bad} is not {self.wants(variant)}")
        if self.refers and items:
            known = _known(variant, self.refers)
            for x in items:
                if x not in known and x not in self.also:
                    raise VariantError(_refused(where, bad, self, x, variant))

    def _scalar_ok(self, x: Any) -> bool:
        if self.type in ("string", "strings"):
            return isinstance(x, str)
        if self.type == "boolean":
            return isinstance(x, bool)
        if not isinstance(x, int) or isinstance(x, bool):
            return False
        return ((self.minimum is None or x >= self.minimum)
                and (self.maximum is None or x <= self.maximum))

    def _check_table(self, table: dict, variant: Any, where: str) -> None:
        names = [f.name for f in self.fields]
        missing = [f.name for f in self.fields if f.required and f.name not in table]
        if missing:
            need = [f.name for f in self.fields if f.required]
            raise VariantError(f"{where} needs " + (", ".join(need[:-1]) + " and " + need[-1]
                                                    if len(need) > 1 else need[0]))
        unknown = set(table) - set(names)
        if unknown:
            raise VariantError(f"{where} unknown key(s) {sorted(unknown)}")
        for f in self.fields:
            if f.name in table:
                f.check(table[f.name], variant, where)

    # ---- the docs and the schema --------------------------------------------------------

    def schema(self) -> dict[str, Any]:
        """This parameter's JSON schema (draft 2020-12)."""
        out: dict[str, Any] = {}
        if self.type == "tables":
            item: dict[str, Any] = {"type": "object"}
            required = [f.name for f in self.fields if f.required]
            if required:
                item["required"] = required
            item["additionalProperties"] = False
            item["properties"] = {f.name: f.schema() for f in self.fields}
            out = {"type": "array", "items": item}
        elif self.type in ("strings", "integers"):
            one = Param(self.name, self.type[:-1], "", minimum=self.minimum,
                        maximum=self.maximum, choices=self.choices).schema()
            one.pop("description", None)
            out = {"type": "array", "items": one}
        elif self.choices:
            out = {"enum": list(self.choices)}
        else:
            out = {"type": self.type}
            if self.minimum is not None:
                out["minimum"] = self.minimum
            if self.maximum is not None:
                out["maximum"] = self.maximum
        if self.doc:
            out["description"] = self.doc
        return out

    def doc_cell(self) -> str:
        """The parameter in the docs' rule table: `name = example`, then its words."""
        example = self.example or (_toml(self.default) if self.default not in (None, "", [])
                                   else "")
        head = f"`{self.name} = {example}`" if example else f"`{self.name}`"
        notes = [] if not self.required else ["required"]
        keys = "".join(f"{'; each with ' if i == 0 else ', '}"
                       f"`{f.name}`{' (required)' if f.required else ''}: {f.doc}"
                       for i, f in enumerate(self.fields))
        return f"{head}{' (' + ', '.join(notes) + ')' if notes else ''}: {self.doc}{keys}"


def _known(variant: Any, refers: str) -> set[str]:
    if refers == "tag":
        return {t for p in variant.provinces.values() for t in p.tags}
    if refers == "edge_kind":
        return set(variant.edge_kinds)
    if refers == "unit_kind":
        return set(variant.unit_kinds)
    if refers == "province":
        return set(variant.provinces)
    if refers == "power":
        return {p.name for p in variant.powers}
    return {s.abbr for s in variant.calendar.seasons}


def _ordered(variant: Any, refers: str) -> list[str]:
    """The names `refers` may take, in the variant's order."""
    if refers == "unit_kind":
        return list(variant.unit_kinds)
    if refers == "power":
        return [p.name for p in variant.powers]
    if refers == "season":
        return [s.abbr for s in variant.calendar.seasons]
    return sorted(_known(variant, refers))


def _refused(where: str, bad: str, p: Param, x: Any, variant: Any) -> str:
    """Why `x`, the value of `p` (or one of its values), names nothing of the variant."""
    if p.refers == "tag":
        return (f"{bad}: no province has this tag" if p.type == "string"
                else f"{bad}: no province has the tag {x!r}")
    if p.refers == "province":
        return f"{where} unknown province {x!r}" + did_you_mean(
            str(x), _ordered(variant, p.refers))
    if p.refers == "power":
        return f"{where} unknown power {x!r} (powers: {', '.join(_ordered(variant, 'power'))})"
    known = _ordered(variant, p.refers)
    if p.refers == "edge_kind":
        return f"{bad} is not an edge kind (edge kinds: {', '.join(known) or 'none'})"
    if p.type == "strings":
        return f"{bad}: {p.wants(variant)}"
    return f"{bad} is not one of {', '.join(map(repr, [*known, *p.also]))}"


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value, ensure_ascii=False)


def check_params(declared: Sequence[Param], params: dict[str, Any], variant: Any,
                 key: str) -> dict[str, Any]:
    """The rule's parameter values, each given one checked against its declaration and
    every other its default; a VariantError names the first problem."""
    where = f"{variant.path}: [{key}]"
    names = [p.name for p in declared]
    unknown = set(params) - set(names)
    if unknown:
        raise VariantError(f"{where} unknown parameter(s) {', '.join(sorted(unknown))}; "
                           f"this rule takes {', '.join(names) or 'no parameters'}")
    out: dict[str, Any] = {}
    for p in declared:
        if p.name in params:
            value = params[p.name]
        elif p.required:
            raise VariantError(f"{where} needs {p.name} = {p.wants(variant)}")
        else:
            value = p.default
        given = p.name in params
        if given or p.choices or (p.refers and value not in (None, "", [])):
            p.check(value, variant, where)
        if p.required and value in ([], ""):
            raise VariantError(f"{where} needs {p.name} = {p.wants(variant)}")
        out[p.name] = value
    return out


def rule_schema(declared: Sequence[Param]) -> dict[str, Any]:
    """The JSON schema of one rule's table."""
    out: dict[str, Any] = {"type": "object", "additionalProperties": False}
    required = [p.name for p in declared if p.required]
    if required:
        out["required"] = required
    out["properties"] = {p.name: p.schema() for p in declared}
    return out
