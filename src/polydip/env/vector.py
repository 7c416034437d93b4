"""VectorEnv: N games of one variant in one process, stepped together (docs/env.md).

Each game is a DiplomacyEnv; `step` takes one PettingZoo action dict per game and returns
lists (one entry per game). A game whose episode ends is reset at once (auto-reset): the
observations returned for it are its new game's first, and its infos carry the last
observation and infos of the game that ended under "final_observation" and "final_info"
(gymnasium's convention), with "episode" counting the games it finished.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from polydip.env.parallel import DiplomacyEnv, sample_actions
from polydip.errors import PolydipError


class VectorEnv:
    """`num_envs` DiplomacyEnv games of `variant` (every keyword goes to DiplomacyEnv)."""

    def __init__(self, variant: str = "standard", num_envs: int = 1, **kwargs: Any) -> None:
        if not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer (got {num_envs!r})")
        first = DiplomacyEnv(variant, **kwargs)
        self.envs = [first] + [DiplomacyEnv(variant, **kwargs) for _ in range(num_envs - 1)]
        self.num_envs = num_envs
        self.possible_agents = list(first.possible_agents)
        self.episodes = [0] * num_envs
        self._seed: int | None = None
        self.rng = np.random.default_rng()

    def observation_space(self, agent: str) -> Any:
        return self.envs[0].observation_space(agent)

    def action_space(self, agent: str) -> Any:
        return self.envs[0].action_space(agent)

    @property
    def agents(self) -> list[list[str]]:
        """The live agents of each game."""
        return [e.agents for e in self.envs]

    def reset(self, seed: int | None = None) -> tuple[list[dict], list[dict]]:
        """Reset every game; game i is seeded with seed + i (and each later auto-reset of it
        with seed + i + num_envs × the games it finished). `self.rng` (for
        `sample_actions`) is seeded with seed too."""
        self._seed = seed
        self.rng = np.random.default_rng(seed)
        self.episodes = [0] * self.num_envs
        obs, infos = [], []
        for i, e in enumerate(self.envs):
            o, inf = e.reset(seed=None if seed is None else seed + i)
            obs.append(o)
            infos.append(inf)
        return obs, infos

    def step(self, actions: list[dict[str, Any]]
             ) -> tuple[list[dict], list[dict], list[dict], list[dict], list[dict]]:
        if not isinstance(actions, list | tuple) or not all(
                isinstance(a, dict) for a in actions):
            raise PolydipError("step takes a list of one action dict per game")
        if len(actions) != self.num_envs:
            raise PolydipError(f"{len(actions)} action dicts for {self.num_envs} games")
        out_obs, out_rew, out_term, out_trunc, out_info = [], [], [], [], []
        for i, (e, act) in enumerate(zip(self.envs, actions, strict=True)):
            if not e.agents:  # never stepped since reset(): a finished game is reset
                raise PolydipError("call reset() before step()")
            o, r, te, tr, inf = e.step(act)
            if not e.agents:
                self.episodes[i] += 1
                final_obs, final_info = o, inf
                seed = self._seed
                o, inf = e.reset(seed=None if seed is None else
                                 seed + i + self.num_envs * self.episodes[i])
                inf = {a: {**x, "final_observation": final_obs.get(a),
                           "final_info": final_info.get(a), "episode": self.episodes[i]}
                       for a, x in inf.items()}
            out_obs.append(o)
            out_rew.append(r)
            out_term.append(te)
            out_trunc.append(tr)
            out_info.append(inf)
        return out_obs, out_rew, out_term, out_trunc, out_info

    def send(self, game: int, sender: str, recipients: str | list[str] | tuple[str, ...],
             text: str) -> Any:
        """A message in game `game` (DiplomacyEnv.send): read in that game's next step."""
        if not isinstance(game, int) or not 0 <= game < self.num_envs:
            raise PolydipError(f"game {game!r}: a game of 0 .. {self.num_envs - 1}")
        return self.envs[game].send(sender, recipients, text)

    def sample_actions(self, obs: list[dict], rng: np.random.Generator | None = None
                       ) -> list[dict[str, np.ndarray]]:
        """A uniformly random legal action for every live agent of every game
        (`polydip.env.sample_actions`), drawn from `rng` or `self.rng`."""
        g = rng if rng is not None else self.rng
        return [sample_actions(e, o, g) for e, o in zip(self.envs, obs, strict=True)]

    def close(self) -> None:
        for e in self.envs:
            e.close()
