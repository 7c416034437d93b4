"""Scripted agents of the arena: they stand in for models in tests and fill empty seats."""

from __future__ import annotations

import random
from typing import Any


class HoldAgent:
    """Gives no orders (units hold, retreating units are disbanded, builds are waived)."""

    def __call__(self, obs: dict[str, Any]) -> dict[str, Any] | None:
        return None


class RandomAgent:
    """One random legal order per unit (as listed in the observation), once a phase, from
    its own seeded generator; in an adjustment phase as many builds or removals as due."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, obs: dict[str, Any]) -> dict[str, Any] | None:
        if obs["round"] > 1:
            return None
        legal: dict[str, list[str]] = obs["legal_orders"]
        if obs["phase_kind"] == "adjustments":
            every = sorted({o for lst in legal.values() for o in lst})
            n = abs(obs["builds_due"])
            return {"orders": self.rng.sample(every, min(n, len(every)))}
        return {"orders": [self.rng.choice(lst) for _u, lst in sorted(legal.items()) if lst]}
