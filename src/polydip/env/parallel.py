"""DiplomacyEnv: a PettingZoo ParallelEnv over the fast path, for any variant (docs/env.md).

Agents are the powers (neutral ones excluded). Every step all live agents act at once; in a
phase where a power has nothing to order its action is ignored. The observation is a dict of
numpy arrays (the board as the map's ids, the phase, and per unit slot the legal order codes);
the action is one order code of the map's order table per unit slot (or, with
`action_type="index"`, an index into the slot's list of legal codes, with an `action_mask`).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from polydip.fast import FastGame
from polydip.game.victory import center_counts

PHASE_TYPES = ("M", "R", "A")


class DiplomacyEnv(ParallelEnv):
    """A game of `variant` for all its powers (see the module docstring and docs/env.md).

    max_units: unit slots per power (default: the map's supply centers); max_orders: legal
    codes listed per slot (default 512); items and orders past these take no order and are
    counted in `infos[agent]["dropped"]`. Rewards: `center_reward` per center gained (lost:
    negative) in a step, `win_reward` to the winner(s) of a won game, `draw_reward` to each
    power sharing a draw. `max_year`: after that year every agent is truncated.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "polydip_diplomacy_v0", "render_modes": []}

    def __init__(self, variant: str = "standard", options: dict[str, Any] | None = None, *,
                 action_type: str = "code", max_units: int | None = None,
                 max_orders: int = 512, center_reward: float = 1.0, win_reward: float = 10.0,
                 draw_reward: float = 0.0, max_year: int | None = None) -> None:
        if action_type not in ("code", "index"):
            raise ValueError(f"action_type {action_type!r}: use 'code' or 'index'")
        self.variant, self.options = variant, dict(options or {})
        self.action_type = action_type
        self.game = FastGame.new(variant, self.options)
        m = self.game.m
        self.m, self.table = m, self.game.table
        self.power_index = {name: p for p, name in enumerate(m.powers)
                            if not m.power_neutral[p]}
        self.possible_agents = list(self.power_index)
        self.agents = list(self.possible_agents)
        self.max_units = max_units or len(m.sc_list)
        self.max_orders = max_orders
        self.center_reward, self.win_reward, self.draw_reward = \
            center_reward, win_reward, draw_reward
        self.first_year = self.game.position.phase.year
        self.max_year = max_year
        self.seasons = [s.abbr for s in m.variant.calendar.seasons]
        self._counts: list[int] = []
        n_pw, n_kind = len(m.powers), len(m.kinds)
        self._obs_space = spaces.Dict({
            "units": spaces.Box(0, 127, (m.n_loc, n_kind, n_pw), np.int8),
            "dislodged": spaces.Box(0, 127, (m.n_loc, n_kind, n_pw), np.int8),
            "centers": spaces.Box(0, 1, (m.n_prov, n_pw), np.int8),
            "phase": spaces.Box(0, 1, (len(self.seasons) + len(PHASE_TYPES),), np.int8),
            "year": spaces.Box(0, 100_000, (1,), np.int32),
            "power": spaces.Box(0, 1, (n_pw,), np.int8),
            "slots": spaces.Box(-1, m.n_loc - 1, (self.max_units,), np.int32),
            "legal": spaces.Box(-1, self.table.size - 1, (self.max_units, max_orders),
                                np.int64),
            **({"action_mask": spaces.Tuple([spaces.Box(0, 1, (max_orders,), np.int8)
                                             for _ in range(self.max_units)])}
               if action_type == "index" else {}),
        })
        n = self.table.size if action_type == "code" else max_orders
        self._act_space = spaces.MultiDiscrete(np.full(self.max_units, n, dtype=np.int64))

    # ---- spaces (the same object every call, as PettingZoo requires) ---------------------

    @functools.cache  # noqa: B019 - one env, a handful of agents
    def observation_space(self, agent: str) -> spaces.Space:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space:
        return self._act_space

    # ---- the episode --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            for space in (self._obs_space, self._act_space):
                space.seed(seed)
        self.game = FastGame.new(self.variant, self.options)
        self.agents = list(self.possible_agents)
        self._counts = center_counts(self.m, self.game.position.owners)
        self._slots = self._item_slots()
        obs = {a: self._observe(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        return obs, infos

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        g = self.game
        legal = g.legal()
        codes = [-1] * len(legal)
        for agent, action in actions.items():
            if agent not in self.agents:
                continue  # a finished agent's action is ignored
            for slot, k in enumerate(self._slots[self.power_index[agent]]):
                if k < 0:
                    break
                codes[k] = self._code(legal[k], int(action[slot]))
        g.step(codes)
        counts = center_counts(self.m, g.position.owners)
        rewards = {a: self.center_reward * (counts[p] - self._counts[p])
                   for a, p in self.power_index.items() if a in self.agents}
        self._counts = counts
        over = g.is_over
        if over:
            for a in rewards:
                p = self.power_index[a]
                if p in g.winners:
                    rewards[a] += self.win_reward if g.status == "won" else self.draw_reward
        truncated_all = (not over and self.max_year is not None
                         and g.position.phase.year > self.max_year)
        units_of = {u.power for u in g.position.units} | {d.power for d in g.position.dislodged}
        terminations = {a: over or (counts[self.power_index[a]] == 0
                                    and self.power_index[a] not in units_of)
                        for a in self.agents}
        truncations = dict.fromkeys(self.agents, truncated_all)
        self._slots = self._item_slots() if not over else {}
        obs = {a: self._observe(a) for a in self.agents}
        infos = {a: self._info(a) for a in self.agents}
        self.agents = [a for a in self.agents if not (terminations[a] or truncations[a])]
        return obs, rewards, terminations, truncations, infos

    def _code(self, legal: list[int], action: int) -> int:
        if self.action_type == "index":
            return legal[action] if 0 <= action < min(len(legal), self.max_orders) else -1
        # a code that is not one of the slot's legal orders is no order
        return action if action in legal[: self.max_orders] else -1

    # ---- encoding -----------------------------------------------------------------------

    def _item_slots(self) -> dict[int, list[int]]:
        """Per power, the phase's items (indices into game.items()) in slot order."""
        out: dict[int, list[int]] = {p: [] for p in self.power_index.values()}
        for k, (p, _i) in enumerate(self.game.items()):
            if p in out:
                out[p].append(k)
        self._dropped = {p: max(0, len(ks) - self.max_units) for p, ks in out.items()}
        for p, ks in out.items():
            out[p] = (ks + [-1] * self.max_units)[: self.max_units]
        return out

    @functools.cached_property
    def _empty(self) -> dict[str, np.ndarray]:
        return {k: np.zeros(s.shape, s.dtype) for k, s in self._obs_space.items()
                if isinstance(s, spaces.Box)}

    def _observe(self, agent: str) -> dict[str, Any]:
        g = self.game
        pos = g.position
        p = self.power_index[agent]
        units = np.zeros_like(self._empty["units"])
        for u in pos.units:
            units[u.loc, u.kind, u.power] += 1
        dislodged = np.zeros_like(units)
        for d in pos.dislodged:
            dislodged[d.loc, d.kind, d.power] += 1
        centers = np.zeros_like(self._empty["centers"])
        for prov, owner in enumerate(pos.owners):
            if owner >= 0:
                centers[prov, owner] = 1
        phase = np.zeros_like(self._empty["phase"])
        phase[self.seasons.index(pos.phase.season)] = 1
        phase[len(self.seasons) + PHASE_TYPES.index(pos.phase.type)] = 1
        power = np.zeros_like(self._empty["power"])
        power[p] = 1
        slots = np.full(self.max_units, -1, np.int32)
        legal = np.full((self.max_units, self.max_orders), -1, np.int64)
        if not g.is_over:
            items, lists = g.items(), g.legal()
            for s, k in enumerate(self._slots.get(p, [])):
                if k < 0:
                    break
                _p, i = items[k]
                if i >= 0:
                    board = pos.units if pos.phase.type == "M" else pos.dislodged
                    slots[s] = board[i].loc
                codes = lists[k][: self.max_orders]
                legal[s, : len(codes)] = codes
        obs: dict[str, Any] = {
            "units": units, "dislodged": dislodged, "centers": centers, "phase": phase,
            "year": np.array([pos.phase.year - self.first_year], np.int32), "power": power,
            "slots": slots, "legal": legal,
        }
        if self.action_type == "index":
            obs["action_mask"] = tuple((legal >= 0).astype(np.int8))
        return obs

    def _info(self, agent: str) -> dict[str, Any]:
        g, p = self.game, self.power_index[agent]
        cut = 0
        if not g.is_over:
            lists = g.legal()
            cut = sum(max(0, len(lists[k]) - self.max_orders)
                      for k in self._slots.get(p, []) if k >= 0)
        return {"phase": g.phase, "centers": self._counts[p] if self._counts else 0,
                "dropped": {"items": getattr(self, "_dropped", {}).get(p, 0), "orders": cut}}

    def render(self) -> None:  # pragma: no cover - no render modes
        return None

    def close(self) -> None:
        return None


def parallel_env(variant: str = "standard", **kwargs: Any) -> DiplomacyEnv:
    """PettingZoo's conventional constructor name."""
    return DiplomacyEnv(variant, **kwargs)
