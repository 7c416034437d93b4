"""Why an order did not succeed, and what a rule did on its own: a closed set of codes.

Every result that is not success carries a `Reason`: a code from the list below (what tools
and tests read) and words for people (which may name the places, the rule and the power
that controls a passage). The result words themselves (bounce, cut, dislodged, void, no
convoy, disrupted, disband) stay as they are; the reason says why.

What a rule does without an order (an event) is told the same way: a `Reason` whose code is
one of EVENTS.

This module imports nothing of polydip: every layer may read it. Reasons are worked out only
when a report asks for them, never in the adjudicator's hot path.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

# the result words of an order that did not succeed, as the `diplomacy` package writes them ([]
# is success; "civil disorder": a removal polydip chose for a power that removed too few). A
# closed set, typed like the codes below (a Literal: a plain string at run time)
ResultWord = Literal["bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband",
                     "civil disorder"]


class Reason(NamedTuple):
    """A reason code and the words that explain it."""

    code: ReasonCode
    words: str

    def as_json(self) -> dict[str, str]:
        return {"code": self.code, "text": self.words}


# ---- illegal orders (result "void") -------------------------------------------------------
NOT_ADJACENT: Final = "not_adjacent"
SAME_PROVINCE: Final = "same_province"
CANNOT_STAND: Final = "cannot_stand"
COAST_NEEDED: Final = "coast_needed"
COAST_UNREACHABLE: Final = "coast_unreachable"
WRONG_COAST: Final = "wrong_coast"
NO_CONVOY_ROUTE: Final = "no_convoy_route"
PASSAGE_CLOSED: Final = "passage_closed"
WAY_BACK_ONLY: Final = "way_back_only"
RAINFOREST_BORDER: Final = "rainforest_border"
MOUNTAIN_BORDER: Final = "mountain_border"
MOUNTAIN_PROVINCE: Final = "mountain_province"
DESERT_BORDER: Final = "desert_border"
SWAMP: Final = "swamp"
DEEP_WATER: Final = "deep_water"
SUPPORT_UNREACHABLE: Final = "support_unreachable"
SUPPORT_UNMATCHED: Final = "support_unmatched"
SUPPORT_OWN_CONVOY: Final = "support_own_convoy"
NO_UNIT: Final = "no_unit"
CONVOY_UNMATCHED: Final = "convoy_unmatched"
CANNOT_CONVOY: Final = "cannot_convoy"
CONVOY_NOT_NEEDED: Final = "convoy_not_needed"
WRONG_PHASE: Final = "wrong_phase"
RULE_FORBIDS: Final = "rule_forbids"
# ---- legal orders that failed ----------------------------------------------------------------
BOUNCED: Final = "bounced"
WEAK_CROSSING: Final = "weak_crossing"
NEEDS_SUPPORT: Final = "needs_support"
SUPPORT_CUT: Final = "support_cut"
DISLODGED: Final = "dislodged"
CONVOY_DISRUPTED: Final = "convoy_disrupted"
# ---- retreats --------------------------------------------------------------------------------
RETREAT_OCCUPIED: Final = "retreat_occupied"
RETREAT_ATTACKER: Final = "retreat_attacker"
RETREAT_STANDOFF: Final = "retreat_standoff"
RETREAT_CLASH: Final = "retreat_clash"
NO_RETREAT: Final = "no_retreat"
NOT_ORDERED: Final = "not_ordered"
NEUTRAL_DISBANDS: Final = "neutral_disbands"
ROUTED: Final = "routed"
# ---- adjustments -----------------------------------------------------------------------------
NO_BUILDS: Final = "no_builds"
NO_REMOVALS: Final = "no_removals"
SITE_OCCUPIED: Final = "site_occupied"
NOT_A_CENTER: Final = "not_a_center"
NOT_OWNED: Final = "not_owned"
NOT_A_BUILD_SITE: Final = "not_a_build_site"
SITE_TAKEN: Final = "site_taken"
KIND_NEEDED: Final = "kind_needed"
BUILD_FORBIDDEN: Final = "build_forbidden"
CIVIL_DISORDER: Final = "civil_disorder"
ACT_NOT_COUNTED: Final = "act_not_counted"
# ---- events: what a rule did on its own ------------------------------------------------------
PROVINCE_JOINS: Final = "province_joins"
JOIN_FAILED: Final = "join_failed"
NEW_HOME: Final = "new_home"
CANAL_PROGRESS: Final = "canal_progress"
CANAL_OPENED: Final = "canal_opened"
ANCHOR_MADE: Final = "anchor_made"
ANCHOR_CAPTURED: Final = "anchor_captured"
ANCHOR_RELEASED: Final = "anchor_released"
ANCHOR_SUNK: Final = "anchor_sunk"
NEUTRAL_DISBANDED: Final = "neutral_disbanded"
PASSAGE_OPENED: Final = "passage_opened"
PASSAGE_SHUT: Final = "passage_shut"
CENTER_BY_EVENT: Final = "center_by_event"

# every code above, as a type (a Literal: plain strings at run time and in the JSON formats)
ReasonCode = Literal[
    "not_adjacent", "same_province", "cannot_stand", "coast_needed", "coast_unreachable",
    "wrong_coast", "no_convoy_route", "passage_closed", "way_back_only", "rainforest_border",
    "mountain_border", "mountain_province", "desert_border", "swamp", "deep_water",
    "support_unreachable", "support_unmatched", "support_own_convoy", "no_unit",
    "convoy_unmatched", "cannot_convoy", "convoy_not_needed", "wrong_phase", "rule_forbids",
    "bounced", "weak_crossing", "needs_support", "support_cut", "dislodged", "convoy_disrupted",
    "retreat_occupied", "retreat_attacker", "retreat_standoff", "retreat_clash", "no_retreat",
    "routed", "not_ordered", "neutral_disbands", "no_builds", "no_removals", "site_occupied",
    "not_a_center", "not_owned", "not_a_build_site", "site_taken", "kind_needed",
    "build_forbidden", "civil_disorder", "act_not_counted", "province_joins", "join_failed",
    "new_home", "canal_progress", "canal_opened", "anchor_made", "anchor_captured",
    "anchor_released", "anchor_sunk", "neutral_disbanded", "passage_opened", "passage_shut",
    "center_by_event",
]

# code -> one line: what it means (docs/adjudicate.md lists the same; a test checks it)
CODES: Final[dict[ReasonCode, str]] = {
    NOT_ADJACENT: "the unit cannot reach that place from where it stands",
    SAME_PROVINCE: "a move to the province the unit stands in",
    CANNOT_STAND: "a unit of that kind cannot stand there (an army at sea, a fleet inland)",
    COAST_NEEDED: "the unit could reach more than one coast: the order must name one",
    COAST_UNREACHABLE: "the coast named cannot be reached from where the unit stands",
    WRONG_COAST: "the unit stands on a coast from which the place is out of reach; another "
                 "coast of its province reaches it (a canal province's other side)",
    NO_CONVOY_ROUTE: "no chain of fleets could carry the army there",
    PASSAGE_CLOSED: "a canal or strait closed to the unit's power (names who controls it)",
    WAY_BACK_ONLY: "a unit that entered a rainforest may next move only back where it came from",
    RAINFOREST_BORDER: "no support across a rainforest border",
    MOUNTAIN_BORDER: "no retreat across a mountain border, no flotilla support across one",
    MOUNTAIN_PROVINCE: "a unit in a mountain province gives no support",
    DESERT_BORDER: "no support from one desert province into an adjacent desert province",
    SWAMP: "an army in a swamp gives no support and is not supported to hold",
    DEEP_WATER: "a flotilla in deep water gives no support and has strength 0",
    SUPPORT_UNREACHABLE: "the supporter could not move into the province it supports into",
    SUPPORT_UNMATCHED: "the supported unit was not ordered as the support says",
    SUPPORT_OWN_CONVOY: "a support of a convoyed move that only a convoy through the "
                        "supporter could make (DATC 6.D.31)",
    NO_UNIT: "the order names a unit that is not there",
    CONVOY_UNMATCHED: "the army was not ordered to move where the convoy says",
    CANNOT_CONVOY: "the unit cannot convoy (not a fleet at sea)",
    CONVOY_NOT_NEEDED: "the fleet is on no route of the army, or the army went by land",
    WRONG_PHASE: "not an order of this phase",
    RULE_FORBIDS: "a rule of the variant forbids the order (its words say which)",
    BOUNCED: "the move met an equal or stronger force",
    WEAK_CROSSING: "a move across a border where it counts for nothing by itself (the "
                   "Greater Andes) was not supported enough",
    NEEDS_SUPPORT: "a move across a border that needs support (the Chilean Andes in phase A) "
                   "had none",
    SUPPORT_CUT: "the supporting unit was attacked",
    DISLODGED: "the unit was dislodged",
    CONVOY_DISRUPTED: "a fleet of the convoy was dislodged",
    RETREAT_OCCUPIED: "a retreat into an occupied province",
    RETREAT_ATTACKER: "a retreat into the province the attack came from",
    RETREAT_STANDOFF: "a retreat into a province left empty by a standoff",
    RETREAT_CLASH: "two units retreated to the same province: both are disbanded",
    NO_RETREAT: "the unit had nowhere to retreat (the words say why)",
    ROUTED: "beaten in an attack space (LAD's oceans) by an attack stronger by the rule's "
            "margin (3): disbanded without a retreat",
    NOT_ORDERED: "a dislodged unit given no retreat order is disbanded",
    NEUTRAL_DISBANDS: "a neutral unit is disbanded instead of retreating",
    NO_BUILDS: "the power had no build (left) to make",
    NO_REMOVALS: "the power had no unit (left) to remove",
    SITE_OCCUPIED: "a build on an occupied site",
    NOT_A_CENTER: "a build outside a supply center",
    NOT_OWNED: "a build on a center the power does not own",
    NOT_A_BUILD_SITE: "a build on a center that is not one of the power's build sites now",
    SITE_TAKEN: "a second build on one site",
    KIND_NEEDED: "a build that does not say what to build",
    BUILD_FORBIDDEN: "a rule allows no unit of that kind there now",
    CIVIL_DISORDER: "a unit removed because its power removed too few",
    ACT_NOT_COUNTED: "a build spent on something else (a canal) that did not count",
    PROVINCE_JOINS: "a province joins a power by a scheduled event (with its center and units)",
    JOIN_FAILED: "a scheduled join did not happen (the province was conquered)",
    NEW_HOME: "a captured center became a power's home",
    CANAL_PROGRESS: "a canal was built further",
    CANAL_OPENED: "a canal is complete, or open from now on",
    ANCHOR_MADE: "an anchor marker was left where a fleet went up a river",
    ANCHOR_CAPTURED: "a fleet took an anchor marker aboard",
    ANCHOR_RELEASED: "a fleet left its anchor marker on a coast",
    ANCHOR_SUNK: "an anchor marker was sunk",
    NEUTRAL_DISBANDED: "a neutral unit was disbanded",
    PASSAGE_OPENED: "a canal or strait opened to a power (its control changed)",
    PASSAGE_SHUT: "a canal or strait closed (its control changed or was split)",
    CENTER_BY_EVENT: "a center changed owner by an event, not by a unit",
}

EVENTS: Final = frozenset({PROVINCE_JOINS, JOIN_FAILED, NEW_HOME, CANAL_PROGRESS, CANAL_OPENED,
                           ANCHOR_MADE, ANCHOR_CAPTURED, ANCHOR_RELEASED, ANCHOR_SUNK,
                           NEUTRAL_DISBANDED, PASSAGE_OPENED, PASSAGE_SHUT, CENTER_BY_EVENT})


def reason(code: ReasonCode, words: str = "") -> Reason:
    """A Reason of a known code (words default to the code's one line)."""
    line = CODES.get(code)
    if line is None:
        raise ValueError(f"unknown reason code {code!r}")
    return Reason(code, words or line)
