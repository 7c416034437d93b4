"""The RL environment (polydip.env, docs/env.md) against the fast path it plays on.

Steps/s of random games played (a) on `FastGame` directly and (b) through `DiplomacyEnv`, with
the same random policy on the same positions: per agent (in `env.agents` order) one draw of
`rng.random(max_units)`, slot s taking the legal order at index floor(u[s] * n_legal). The
fast-path loop makes the same draws for the same items, so both play the same games (checked:
the final positions must be equal). Also: the bytes a step's observations hold (each distinct
numpy buffer counted once: arrays that are views of one buffer share it), masked sampling by
gymnasium's sampler against the numpy recipe of docs/env.md, and the vector env for N games.

    PYTHONPATH=src python bench/env.py                 # standard, 5 games x 200 phases
    PYTHONPATH=src python bench/env.py --variant twentieth_century --games 2
    PYTHONPATH=src python bench/env.py --ratio-only    # the lockstep ratio line alone

CPU time of this process (time.process_time), best of --repeat runs, after one untimed run
of the fast path's games (the map's caches, shared by both loops, filled first). The fast
path's and the env's runs alternate (fast, env, fast, env, ...), so that a change of the
machine's load while the script runs falls on both alike; the ratio is of the two bests.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from polydip.env import DiplomacyEnv
from polydip.fast import FastGame


def best(f: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    out, best_t = None, float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        out = f()
        best_t = min(best_t, time.process_time() - t0)
    return best_t, out


def _unique_bytes(obs: dict[str, dict[str, Any]]) -> int:
    seen: dict[int, int] = {}

    def walk(x: Any) -> None:
        if isinstance(x, np.ndarray):
            base = x
            while isinstance(base.base, np.ndarray):
                base = base.base
            seen[id(base)] = base.nbytes
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, tuple | list):
            for v in x:
                walk(v)

    walk(obs)
    return sum(seen.values())


class FastPlayer:
    """One random game on FastGame, a step at a time (the policy of the module docstring).
    As the env, it draws from a slot's first `max_orders` codes (the env's default keeps
    that many: some lists of The Twentieth Century's big maps are longer)."""

    def __init__(self, variant: str, seed: int, max_units: int, max_orders: int = 512
                 ) -> None:
        self.fg = fg = FastGame.new(variant)
        self.rng = np.random.default_rng(seed)
        self.max_units = max_units
        self.max_orders = max_orders
        self.powers = [p for p in range(len(fg.m.powers)) if not fg.m.power_neutral[p]]
        self.alive = set(self.powers)

    def step(self) -> bool:
        """Play one phase; False when the game is over (nothing played)."""
        fg, rng = self.fg, self.rng
        if fg.is_over:
            return False
        legal = fg.legal()
        mine: dict[int, list[int]] = {p: [] for p in self.powers}
        for k, (p, _i) in enumerate(fg.items()):
            mine[p].append(k)
        codes = [-1] * len(legal)
        mo = self.max_orders
        for p in self.powers:
            if p not in self.alive:
                continue
            u = rng.random(self.max_units)
            for s, k in enumerate(mine[p][: self.max_units]):
                lst = legal[k]
                if lst:
                    n = len(lst)
                    codes[k] = lst[int(u[s] * (n if n <= mo else mo))]
        fg.step(codes)
        pos = fg.position
        have = {x.power for x in pos.units} | {d.power for d in pos.dislodged} | {
            o for o in pos.owners if o >= 0}
        self.alive &= have
        return True


def fast_games(variant: str, games: int, phases: int, max_units: int) -> tuple[int, list]:
    steps, ends = 0, []
    for g in range(games):
        player = FastPlayer(variant, g, max_units)
        for _ in range(phases):
            if not player.step():
                break
            steps += 1
        ends.append(player.fg.position)
    return steps, ends


def lockstep(variant: str, games: int, phases: int, max_units: int, **kw: Any
             ) -> tuple[float, float, int, bool]:
    """The same games played on the fast path and through the env in turns, a phase of one
    then the same phase of the other, each timed on its own (CPU time): a change of the
    machine's load falls on both alike. (fast seconds, env seconds, steps, same games)."""
    clock = time.process_time
    t_fast = t_env = 0.0
    steps, same = 0, True
    for g in range(games):
        t0 = clock()
        player = FastPlayer(variant, g, max_units)
        t1 = clock()
        env = DiplomacyEnv(variant, **kw)
        obs, _ = env.reset(seed=g)
        rng = np.random.default_rng(g)
        t2 = clock()
        t_fast += t1 - t0
        t_env += t2 - t1
        for _ in range(phases):
            t0 = clock()
            went = player.step()
            t1 = clock()
            if env.agents:
                obs, *_ = env.step(numpy_actions(env, obs, rng))
            t2 = clock()
            t_fast += t1 - t0
            t_env += t2 - t1
            if not went:
                break
            steps += 1
        same = same and env.game.position == player.fg.position
    return t_fast, t_env, steps, same


try:
    from polydip.env import sample_actions as _sample_actions
except ImportError:  # (a polydip from before the env had its own)
    _sample_actions = None


def numpy_actions(env: DiplomacyEnv, obs: dict, rng: np.random.Generator) -> dict:
    """The fast masked-sampling recipe of docs/env.md (one uniform legal order per slot);
    before the env had its own (polydip.env.sample_actions), the same per agent. (The
    import is resolved once, above: an import statement here cost the env's side of the
    lockstep ~0.5 µs a step.)"""
    if _sample_actions is not None:
        return _sample_actions(env, obs, rng)
    out = {}
    for a in env.agents:
        legal = obs[a]["legal"]
        n = (legal >= 0).sum(axis=1)
        u = rng.random(env.max_units)
        idx = (u[: len(n)] * n).astype(np.int64)
        act = np.zeros(env.max_units, np.int64)
        if env.action_type == "code":
            act[: len(n)] = np.where(n > 0, legal[np.arange(len(n)), idx], -1)
        else:
            act[: len(n)] = idx
        out[a] = act
    return out


def env_games(variant: str, games: int, phases: int, action_type: str = "code",
              sampler: str = "numpy", measure_bytes: bool = False, **kw: Any
              ) -> tuple[int, list, int]:
    steps, ends, nbytes = 0, [], 0
    for g in range(games):
        env = DiplomacyEnv(variant, action_type=action_type, **kw)
        obs, _ = env.reset(seed=g)
        rng = np.random.default_rng(g)
        for _ in range(phases):
            if not env.agents:
                break
            if sampler == "gymnasium":
                acts = {a: env.action_space(a).sample(mask=obs[a]["action_mask"])
                        for a in env.agents}
            else:
                acts = numpy_actions(env, obs, rng)
            obs, *_ = env.step(acts)
            steps += 1
            if measure_bytes:
                nbytes += _unique_bytes(obs)
        ends.append(env.game.position)
    return steps, ends, nbytes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--phases", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--vector", default="1,8,32", help="N of the vector env runs ('' to skip)")
    ap.add_argument("--ratio-only", action="store_true",
                    help="stop after the lockstep runs (steps/s and the ratio)")
    a = ap.parse_args()
    if a.games < 1 or a.phases < 1 or a.repeat < 1:
        ap.error("--games, --phases and --repeat must be at least 1")
    env0 = DiplomacyEnv(a.variant)
    mu = env0.max_units
    kw: dict[str, Any] = {}
    if "max_phases" in DiplomacyEnv.__init__.__code__.co_varnames:
        kw["max_phases"] = a.phases + 1  # (the bench stops the games itself)
        kw["max_year"] = 100_000
    # untimed: the map's caches filled by the same games, so neither loop pays them first
    fast_games(a.variant, a.games, a.phases, mu)
    runs = [lockstep(a.variant, a.games, a.phases, mu, **kw) for _ in range(a.repeat)]
    ratios = sorted(te / tf for tf, te, _n, _s in runs)
    n = runs[0][2]
    t_fast = min(r[0] for r in runs)
    t_env = min(r[1] for r in runs)
    same = all(r[3] for r in runs)
    print(f"{a.variant}: {a.games} games x {a.phases} phases at most, random policy")
    print(f"  fast path   {n / t_fast:8.0f} steps/s ({n} steps)")
    print(f"  env (code)  {n / t_env:8.0f} steps/s  same games: {same}")
    print(f"  env step / fast-path step: {ratios[len(ratios) // 2]:.2f}x (median of "
          f"{len(ratios)} lockstep runs; {ratios[0]:.2f}-{ratios[-1]:.2f})")
    if a.ratio_only:
        return
    _, (n, _, nb) = best(lambda: env_games(a.variant, a.games, a.phases, measure_bytes=True,
                                           **kw), 1)
    print(f"  observations: {nb / n / 1024:.1f} KB a step (distinct buffers, all agents)")
    t_np, (n_np, _, _) = best(lambda: env_games(a.variant, a.games, a.phases, "index",
                                                "numpy", **kw), a.repeat)
    t_gym, (n_gym, _, _) = best(lambda: env_games(a.variant, a.games, a.phases, "index",
                                                  "gymnasium", **kw), a.repeat)
    print(f"  index actions, numpy recipe   {n_np / t_np:8.0f} steps/s")
    print(f"  index actions, gymnasium mask {n_gym / t_gym:8.0f} steps/s "
          f"({(t_gym / n_gym) / (t_np / n_np):.1f}x slower)")
    if a.vector:
        try:
            from polydip.env import VectorEnv
        except ImportError:
            print("  (no VectorEnv)")
            return
        for nn in (int(x) for x in a.vector.split(",")):
            def run(nn: int = nn) -> int:
                venv = VectorEnv(a.variant, nn, **kw)
                obs, _ = venv.reset(seed=0)
                rng = np.random.default_rng(0)
                steps = 0
                total = max(a.games * a.phases // 2, nn * 20)
                while steps < total:
                    acts = venv.sample_actions(obs, rng)
                    obs, *_ = venv.step(acts)
                    steps += nn
                return steps
            t_v, n_v = best(run, a.repeat)
            print(f"  VectorEnv N={nn:<3} {n_v / t_v:8.0f} game steps/s")


if __name__ == "__main__":
    main()
