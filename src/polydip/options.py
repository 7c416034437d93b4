"""Rule options: where rulebooks (DATC chapter 4) or variant texts read differently.

Each option has a default (the DATC v3.1 preference) and a closed set of values. A variant
file sets defaults under [options]; a game or a request may override them. A value polydip
names but cannot honour (NOT_SUPPORTED) is refused with the reason, never played as another.
"""

from __future__ import annotations

import json
from typing import Any

from polydip.errors import NotSupportedError, PolydipError, did_you_mean

OPTIONS: dict[str, tuple[Any, tuple[Any, ...] | None, str]] = {
    "convoy_paradox": ("szykman", ("szykman", "1971", "1982", "2000", "all_hold"),
                       "DATC 4.A.2: how a convoy paradox is resolved"),
    "multi_route_disruption": ("all", ("all", "any"),
                               "DATC 4.A.1: a multi-route convoy is disrupted when all "
                               "routes are (all) or when any is (any, 1971 rulebook)"),
    "adjacent_convoy": ("2023", ("2023", "fallback", "fallback_disrupted"),
                        "DATC 4.A.3: 2023 rulebook, no land-route fallback; 'fallback' is "
                        "DATC v2.4's preference (the land route is used when no convoy is "
                        "ordered for a 'via convoy' move); 'fallback_disrupted' also falls "
                        "back when the convoy is disrupted (the question of 6.G.20)"),
    "retreat_to_convoy_origin": (True, (True, False),
                                 "DATC 4.A.5: a unit dislodged by a convoyed army may "
                                 "retreat to the army's starting province"),
    "civil_disorder": ("2023", ("2023", "1982"),
                       "DATC 4.D.8: which units civil disorder removes"),
    "keep_empty_retreats": (False, (True, False),
                            "keep a retreat phase in which no dislodged unit may retreat "
                            "anywhere (its only orders are disbands); by default such units "
                            "are destroyed at once and play goes on, as every site, DPjudge "
                            "and the diplomacy package do"),
    "crossing_strength": ("move", ("move", "attack"),
                          "rules/weak_crossings.py (Latin American Diplomacy's Greater Andes): "
                          "a unit crossing such a border counts only its supports in its whole "
                          "move — attack, prevent and defend strengths ('move') — or in its "
                          "attack strength only ('attack', the rule's words read literally)"),
    "weak_crossing_into_empty": ("enters", ("enters", "fails"),
                                 "rules/weak_crossings.py (Latin American Diplomacy's Greater "
                                 "Andes): an unsupported crossing, of attack strength 0, "
                                 "still enters a province nobody holds or enters ('enters'), "
                                 "or moves nowhere ('fails')"),
    "supported_crossing": ("ordered", ("ordered", "given"),
                           "rules/supported_crossings.py (Latin American Diplomacy's Chilean "
                           "Andes): a crossing is 'supported' when a valid support is ordered "
                           "for it ('ordered'), or only when a support is given, not cut "
                           "('given')"),
    "flotilla_builds": ("rivers", ("rivers", "coastal"),
                        "where a river flotilla (Latin American Diplomacy's R) may be built: "
                        "on a home or capital center where it may stand ('rivers': a river "
                        "runs through or borders it, or an island or lake); 'coastal' (on any "
                        "coastal center, river or not) is not supported: see NOT_SUPPORTED"),
    "divided_retreats": (False, (True, False),
                         "a season whose retreats and adjustments are one phase ([calendar] "
                         "combined = true: Latin American Diplomacy's D Phase) is divided in "
                         "two, each ordered and processed on its own ('or by request from any "
                         "player the D Phase will be divided'); changes nothing elsewhere"),
    "passage_permissions": ({}, None,
                            "controlled passages: {passage: {controlling power: [powers it "
                            "lets through]}} (rules/controlled_passages.py)"),
    "victory": ("default", None,
                "which victory condition of the variant applies: 'default' or the name of "
                "one of its [victory.presets]"),
}


# options that only a rule module reads: set to anything but their default in a variant
# without that rule, they would change nothing, so they are refused
READ_BY: dict[str, str] = {
    "crossing_strength": "weak_crossings",
    "weak_crossing_into_empty": "weak_crossings",
    "supported_crossing": "supported_crossings",
    "passage_permissions": "controlled_passages",
}

# readings of a rules text that are named (so that a GM asking for one is told why it is not
# there) but that polydip cannot honour: (option, value) -> why
NOT_SUPPORTED: dict[tuple[str, Any], str] = {
    ("flotilla_builds", "coastal"):
        "Latin American Diplomacy says both \"A River Flotilla may be built on any Home or "
        "Capital Supply Center which is a coastal province, island province, or any province "
        "which has a river bank or lake shore\" and that flotillas \"MAY NOT OCCUPY ANY "
        "COASTAL PROVINCE OR UPLAND PROVINCE WHICH DOES NOT HAVE A RIVER COURSING THROUGH IT, "
        "OR which DOES NOT BORDER A RIVER\"; a flotilla built on a coastal center without a "
        "river (the capitals Lima, Rio de Janeiro and Santiago, 14 home centers) would stand "
        "where the map lets no flotilla stand, so no position, game file or request could "
        "hold it and none of its moves could bring it back. polydip builds flotillas only "
        "where they may stand (flotilla_builds = \"rivers\", the default)",
}


def defaults() -> dict[str, Any]:
    return {k: v[0] for k, v in OPTIONS.items()}


def check_options(options: dict[str, Any], m: Any = None) -> dict[str, Any]:
    """Raise a PolydipError naming the first unknown option or value; with the compiled map
    `m`, the options its rules read are checked against the map too (passage and power
    names), and the options are returned written canonically (otherwise as given)."""
    for key, val in options.items():
        if key not in OPTIONS:
            raise PolydipError(f"unknown option {key!r}" + did_you_mean(key, OPTIONS)
                               + f"; options: {', '.join(OPTIONS)}")
        allowed = OPTIONS[key][1]
        if allowed is None:  # checked against the variant (see Game.new)
            expected = type(OPTIONS[key][0])
            if not isinstance(val, expected):
                raise PolydipError(f"option {key}: {val!r} is not a {expected.__name__}")
            continue
        if val not in allowed:
            shown = ", ".join(repr(a) for a in allowed)
            raise PolydipError(f"option {key}: {val!r} is not one of {shown}")
        why = NOT_SUPPORTED.get((key, val))
        if why is not None:
            raise NotSupportedError(f"option {key} = {val!r} is not supported: {why}")
    if m is None:
        return options
    for key, rule in READ_BY.items():
        if options.get(key, OPTIONS[key][0]) not in (OPTIONS[key][0], None) \
                and rule not in m.variant.rules:
            raise PolydipError(f"option {key}: {m.variant.title} does not use the rule that "
                               f"reads it ({rule}); leave it out")
    return m.rules.check_options(m, options)


def parse_options(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise PolydipError(f"option {item!r}: write KEY=VALUE")
        k, val = item.split("=", 1)
        val = val.strip()
        allowed = OPTIONS.get(k.strip(), (None, None))[1]
        if allowed and val in allowed:  # convoy_paradox=1982: the option's value "1982"
            out[k.strip()] = val
            continue
        if val[:1] in ("{", "[", '"') or val.lower() in ("true", "false", "null") or \
                val.lstrip("-").isdigit():
            try:  # a table or list option: --option 'passage_permissions={"Suez": ...}'
                out[k.strip()] = json.loads(val.lower() if val.lower() in ("true", "false",
                                                                             "null") else val)
                continue
            except json.JSONDecodeError as exc:
                raise PolydipError(f"option {k.strip()}: {val!r} is not valid JSON "
                                   f"({exc.msg}); write KEY=VALUE or KEY='{{...}}'") from exc
        out[k.strip()] = val
    return out
