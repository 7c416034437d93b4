"""The rule contract: hooks declared once (rules/hookspec.py), the rule set's dispatch built
from that declaration, and the docs written from it."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from polydip.rules import known_rules
from polydip.rules.base import Rule, RuleSet
from polydip.rules.docs import stale
from polydip.rules.hookspec import COMBINES, HOOKS, KINDS, RuleHooks
from polydip.variants.loader import parse_variant

# the checkout's root (its docs/), not where polydip is installed (the compiled pass)
REPO = Path(__file__).resolve().parents[2]
TINY = (Path(__file__).parent.parent / "variants" / "tiny.toml").read_text()


@pytest.fixture(scope="module")
def variant():
    return parse_variant(TINY)


def test_every_hook_is_declared_with_a_kind_a_combine_and_a_docstring() -> None:
    assert len(HOOKS) >= 30
    for h in HOOKS.values():
        assert h.kind in KINDS and h.combine in COMBINES, h.name
        assert h.doc and h.signature.startswith("(") and " -> " in h.signature, h.name
    # year_start had no rule using it: it is gone
    assert "year_start" not in HOOKS


def test_the_docs_written_from_the_contract_are_current() -> None:
    """docs/architecture.md's hook table is the one `python -m polydip.rules.docs` writes."""
    assert stale(REPO) == []


def test_a_rule_set_without_rules_gives_the_standard_answer_of_every_hook(variant) -> None:
    rs = RuleSet([Rule({}, variant, "rules.bare")])
    assert not any(rs.implements(h) for h in HOOKS if h != "explain")
    assert rs.unit_holds(None, None, None) is False
    assert rs.build_sites(None, None, 0) is None
    assert rs.retreat(None, None, "d") == "d"  # (chain: the dislodged unit as it is)
    opts = {"x": 1}
    assert rs.check_options(None, opts) == opts
    assert rs.extra_build_sites(None, None, 0) == [] and rs.porous(None, None) == {}
    # a fresh container each time: a caller changing one changes no later answer
    rs.markers(None, None).append((0, "x"))
    assert rs.markers(None, None) == []
    assert not rs.changes_positions and not rs.has_stalls


def _pair(variant, **answers):
    """Two rules answering each named hook with the values given (a pair per hook)."""
    made = []
    for i in range(2):
        body = {name: (lambda v: lambda self, *a: v)(vals[i]) for name, vals in answers.items()}
        made.append(type(f"R{i}", (Rule,), body)({}, variant, f"rules.r{i}"))
    return RuleSet(made)


def test_the_answers_of_several_rules_combine_as_the_spec_says(variant) -> None:
    rs = _pair(variant,
               build_sites=(None, [3]),                      # first
               moving_kinds=(["a"], None),                   # last
               unit_holds=(False, True),                     # any
               more_orders=(["x"], ["y"]),                   # concat
               no_support=({(0, 1, 2)}, {(0, 1, 3)}),        # union
               passage_controllers=({"s": 1}, {"s": 2}),     # merge: the later one
               porous=({5: {(1, 5)}}, {5: {(2, 5)}, 6: set()}),  # merge_each
               more_adjustments=({"P": ["a"]}, {"P": ["b"]}),
               rout_margin=(None, 3),                        # min
               move_strength=({(0, 1, 2): 0}, {(0, 1, 2): 1, (0, 1, 3): 1}),  # min_each
               move_limits=({(0, 0, 1): frozenset({1, 2})},
                            {(0, 0, 1): frozenset({2, 3})}))  # intersect
    assert rs.build_sites(None, None, 0) == [3]
    assert rs.moving_kinds(None, None, []) == ["a"]
    assert rs.unit_holds(None, None, None) is True
    assert rs.more_orders(None, None, None, "") == ["x", "y"]
    assert rs.no_support(None) == {(0, 1, 2), (0, 1, 3)}
    assert rs.passage_controllers(None, None) == {"s": 2}
    assert rs.porous(None, None) == {5: {(1, 5), (2, 5)}, 6: set()}
    assert rs.more_adjustments(None, None, 0) == {"P": ["a", "b"]}
    assert rs.rout_margin() == 3
    assert rs.move_strength(None) == {(0, 1, 2): 0, (0, 1, 3): 1}
    assert rs.move_limits(None, None) == {(0, 0, 1): frozenset({2})}
    assert rs.implements("porous") and not rs.implements("blocked")


def test_a_rule_set_copies_what_it_merges(variant) -> None:
    """merge_each joins the rules' sets and lists into new ones: the first rule's own
    table is not changed by the second's entries."""
    mine = {5: {(1, 5)}}
    rs = _pair(variant, porous=(mine, {5: {(2, 5)}}))
    rs.porous(None, None)
    assert mine == {5: {(1, 5)}}


def test_chained_hooks_hand_each_rule_the_answer_before(variant) -> None:
    class Add(Rule):
        def check_options(self, m, options):
            return {**options, self.key: len(options)}

    rs = RuleSet([Add({}, variant, "a"), Add({}, variant, "b")])
    assert rs.check_options(None, {"x": 0}) == {"x": 0, "a": 1, "b": 2}


def test_a_hook_changing_positions_in_place_makes_each_phase_copy(variant) -> None:
    class Events(Rule):
        def before_phase(self, m, pos, phase):
            return []

    assert RuleSet([Events({}, variant, "e")]).changes_positions


def test_every_hook_override_has_the_types_of_the_spec() -> None:
    """A rule's override of a hook is annotated as RuleHooks declares it (not `Any`), so
    mypy checks the rule's body against the contract and the override against the spec."""
    from polydip.rules.base import REGISTRY

    def types(fn: object) -> list[str]:
        sig = inspect.signature(fn)  # type: ignore[arg-type]
        got = [p.annotation for p in list(sig.parameters.values())[1:]]
        return [str(a).replace("R.", "") for a in (*got, sig.return_annotation)]

    wrong = []
    for name, cls in sorted(REGISTRY.items()):
        for hook in HOOKS:
            fn = getattr(cls, hook)
            if fn is getattr(RuleHooks, hook) or fn is getattr(Rule, hook):
                continue
            if types(fn) != types(getattr(RuleHooks, hook)):
                wrong.append(f"{name}.{hook}: {types(fn)}")
    assert wrong == []


def test_every_rule_module_is_discovered() -> None:
    """The package is listed, not a hand-kept import list: every module registers a rule."""
    import polydip.rules as pkg

    files = {p.stem for p in Path(pkg.__file__).parent.glob("*.py")} - {"__init__"}
    assert set(known_rules()) == files - pkg.INFRASTRUCTURE
    assert issubclass(Rule, RuleHooks)



def test_every_rule_module_has_unit_tests_of_its_own() -> None:
    """Each rule module's hooks are asked directly, below Game, in tests/rules/test_NAME.py
    (a new rule module comes with its file)."""
    import polydip.rules as pkg

    rules = {p.stem for p in Path(pkg.__file__).parent.glob("*.py")} - {"__init__"}
    here = Path(__file__).parent
    missing = sorted(r for r in rules - pkg.INFRASTRUCTURE
                     if not (here / f"test_{r}.py").exists())
    assert missing == []

# ---- parameters, declared once (rules/params.py) ---------------------------------------------

def _load(rule: str):
    from polydip.game.game import Game

    return Game.new(parse_variant(TINY + "\n" + rule, "tiny.toml"))


@pytest.mark.parametrize("rule, message", [
    # a bool is no number (TOML true read as 1 before)
    ("[rules.territory_builds]\nper_phase = true\n",
     "[rules.territory_builds] per_phase = True: a whole number 0 or more"),
    ("[rules.oceans]\nprovinces = \"x\"\n",
     "[rules.oceans] provinces = 'x': no province has this tag"),
    ('[rules.no_swap]\npairs = "A1-N2"\n', "[rules.no_swap] pairs = 'A1-N2': a list of strings"),
    ("[rules.weak_crossings]\n", "[rules.weak_crossings] needs borders = an edge kind"),
    ("[rules.coast_changes]\nkinds = []\n",
     "[rules.coast_changes] needs kinds = a list of unit kinds (A, F)"),
    ('[rules.anchors]\nfleet = "Z"\n', "[rules.anchors] fleet = 'Z' is not one of 'A', 'F'"),
    ('[rules.vacant_crossings]\ncrossing = [{edges = ["S-A1"], while_vacant = "N2", x = 1}]\n',
     "[rules.vacant_crossings.crossing[0]] unknown key(s) ['x']"),
    ('[rules.vacant_crossings]\ncrossing = [{edges = ["S-A1"]}]\n',
     "[rules.vacant_crossings.crossing[0]] needs edges and while_vacant"),
    ("[rules.canals]\ncanals = [{province = \"N2\", builds = 0, edges = []}]\n",
     "[rules.canals.canals[0]] builds = 0: a whole number 1 or more"),
])
def test_a_parameter_is_checked_by_its_declaration(rule: str, message: str) -> None:
    from polydip.errors import VariantError

    with pytest.raises(VariantError) as exc:
        _load(rule)
    assert str(exc.value).startswith("tiny.toml: ") and message in str(exc.value)


def test_the_anchors_default_kinds_must_exist_on_the_map() -> None:
    """A default that names something of the variant is checked as if given: the tiny map
    has no flotilla (R), so anchors without `flotilla` is an error, not a later KeyError."""
    from polydip.errors import VariantError

    with pytest.raises(VariantError, match=r"flotilla = 'R' is not one of 'A', 'F'"):
        _load('[rules.anchors]\nfleet = "F"\n')


def test_declared_defaults_fill_the_parameters_and_params_doc(variant) -> None:
    from polydip.rules import REGISTRY

    cls = REGISTRY["territory_builds"]
    rule = cls({}, variant, "rules.territory_builds")
    assert rule.params == {"first_phase": False, "years_ending": [], "per_phase": 1,
                           "capital": "capital"}
    assert list(cls.params_doc) == [p.name for p in cls.parameters]
    for name, c in REGISTRY.items():
        assert c.summary, name  # the docs' rule table says what each rule does


def test_the_shipped_schema_is_the_one_the_declarations_write() -> None:
    import json

    from polydip.rules import REGISTRY
    from polydip.rules.docs import rules_schema

    shipped = json.loads((REPO / "docs" / "variant.schema.json").read_text())
    assert shipped["properties"]["rules"] == rules_schema()
    assert set(shipped["properties"]["rules"]["properties"]) == set(REGISTRY)
    policy = shipped["properties"]["rules"]["properties"]["build_sites"]["properties"]["policy"]
    assert "any_home" in policy["enum"]  # (the hand-written schema had forgotten it)


def test_variant_check_reports_a_bad_rule_parameter() -> None:
    """The Map is geography only; `variant check` still reads the rules' parameters."""
    from polydip.check import check_variant

    v = parse_variant(TINY + '\n[rules.oceans]\nprovinces = "nope"\n', "tiny.toml")
    got = [str(p) for p in check_variant(v)]
    assert any("[rules.oceans] provinces = 'nope': no province has this tag" in p for p in got)


def test_geography_imports_nothing_of_rules() -> None:
    """Rule tables are a compiled object of their own (rules/tables.py), attached to the Map
    by polydip.compile: the Map's module imports no rule module."""
    import grimp

    g = grimp.build_graph("polydip", exclude_type_checking_imports=True, cache_dir=None)
    assert not {m for m in g.find_modules_directly_imported_by("polydip.geography.map")
                if m.startswith("polydip.rules")}


@pytest.mark.parametrize("extra", ["", "[rules.build_sites]\n"])
def test_a_canal_build_needs_a_rule_that_counts_it(extra: str) -> None:
    """The hand-kept guard asked whether the variant had any rule, not one that counts an
    act: with build_sites but no canals, "Build N1 Canal" was accepted and then came to
    nothing. Asked of the rule set, it is refused on any map without canals."""
    from polydip.game.game import Game

    g = Game.new(parse_variant(TINY.replace("centers = 4", "centers = 9") + "\n" + extra))
    for orders in ({"Red": ["A A2 - N1", "F A1 - N2"]}, {}):
        for p, lst in orders.items():
            assert g.set_orders(p, lst) == []
        g.process()
    assert g.phase == "W1901A"
    assert g.set_orders("Red", ["Build N1 Canal"]) == [
        "'Build N1 Canal': this variant has no canal to build"]
