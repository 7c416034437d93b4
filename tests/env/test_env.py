"""polydip.env: the PettingZoo ParallelEnv (docs/env.md)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pettingzoo.test import parallel_api_test  # noqa: E402

from polydip.env import DiplomacyEnv  # noqa: E402
from polydip.fast import FastGame  # noqa: E402

SEED_VARIANTS = ["standard", "wita", "lad1890", "twentieth_century", "war_in_north_america"]


@pytest.mark.parametrize("variant", SEED_VARIANTS)
@pytest.mark.parametrize("action_type", ["code", "index"])
def test_pettingzoo_parallel_api(variant, action_type):
    year = FastGame.new(variant).position.phase.year
    env = DiplomacyEnv(variant, action_type=action_type, max_year=year + 2)
    parallel_api_test(env, num_cycles=60)


def _legal_actions(env, obs, rng):
    """A random legal action for every live agent, in the env's action type."""
    out = {}
    for a in env.agents:
        legal = obs[a]["legal"]
        act = np.zeros(env.max_units, np.int64)
        for s in range(env.max_units):
            n = int((legal[s] >= 0).sum())
            if n:
                j = rng.randrange(n)
                act[s] = legal[s, j] if env.action_type == "code" else j
        out[a] = act
    return out


@pytest.mark.parametrize("action_type", ["code", "index"])
def test_env_plays_the_game_the_fast_path_plays(action_type):
    """Each legal code an agent chooses for a slot is that unit's order: a FastGame given the
    same codes reaches the same positions."""
    env = DiplomacyEnv("standard", action_type=action_type)
    obs, _ = env.reset(seed=3)
    twin = FastGame.new("standard")
    rng = random.Random(5)
    for _ in range(40):
        if not env.agents:
            break
        actions = _legal_actions(env, obs, rng)
        codes = [-1] * len(twin.items())
        for a, act in actions.items():
            p = env.power_index[a]
            mine = [k for k, (q, _i) in enumerate(twin.items()) if q == p]
            for s, k in enumerate(mine):
                legal = obs[a]["legal"][s]
                codes[k] = int(act[s] if action_type == "code" else legal[act[s]])
        obs, *_ = env.step(actions)
        twin.step(codes)
        assert env.game.position == twin.position


def test_observation_encodes_the_board():
    env = DiplomacyEnv("standard")
    obs, infos = env.reset()
    m, pos = env.m, env.game.position
    o = obs["France"]
    assert env.observation_space("France").contains(o)
    assert o["units"].sum() == len(pos.units) == 22
    par = m.loc_of("PAR")
    army = m.kinds.index("A")
    assert o["units"][par, army, m.powers.index("France")] == 1
    assert o["centers"].sum() == 22 and o["centers"][m.prov_index["PAR"]].argmax() == \
        m.powers.index("France")
    assert o["power"].argmax() == m.powers.index("France")
    assert o["phase"].tolist() == [1, 0, 0, 1, 0, 0]  # spring, movement (seasons S F W; M R A)
    assert o["year"].tolist() == [0]
    # France's three units fill three slots, each with exactly the unit's legal codes
    fg = FastGame.new("standard")
    french = [k for k, (p, _i) in enumerate(fg.items()) if p == m.powers.index("France")]
    assert (o["slots"] >= 0).sum() == 3
    for s, k in enumerate(french):
        row = o["legal"][s]
        assert sorted(row[row >= 0].tolist()) == sorted(fg.legal()[k])
        assert o["slots"][s] == pos.units[fg.items()[k][1]].loc
    assert infos["France"]["centers"] == 3


def test_a_code_not_legal_for_its_slot_is_no_order():
    env = DiplomacyEnv("standard")
    obs, _ = env.reset()
    # every agent orders, for each slot, the first legal code of ANOTHER slot: all illegal
    actions = {a: np.roll(obs[a]["legal"][:, 1], 1) for a in env.agents}
    env.step(actions)
    assert sorted(env.game.position.units) == sorted(FastGame.new("standard").position.units)


def test_rewards_are_center_changes_and_the_end_bonus():
    """The center reward adds up to the change of a power's centers over the game; the win or
    draw reward goes to the powers the game's end names."""
    env = DiplomacyEnv("war_in_north_america", action_type="index", win_reward=7.0,
                       draw_reward=5.0)
    obs, infos = env.reset(seed=0)
    start = {a: infos[a]["centers"] for a in env.agents}
    total = dict.fromkeys(env.agents, 0.0)
    rng = random.Random(2)
    while env.agents:
        obs, rewards, _term, _trunc, infos = env.step(_legal_actions(env, obs, rng))
        for a, r in rewards.items():
            total[a] += r
    g = env.game
    assert g.is_over  # the variant's last year ends the game
    for a, p in env.power_index.items():
        bonus = (7.0 if g.status == "won" else 5.0) if p in g.winners else 0.0
        centers = env._counts[p]
        assert total[a] == pytest.approx(centers - start[a] + bonus)
    assert any(p in g.winners for p in env.power_index.values())


def test_eliminated_powers_leave_the_agents():
    env = DiplomacyEnv("standard", action_type="index")
    obs, _ = env.reset()
    rng = random.Random(1)
    gone: set[str] = set()
    for _ in range(300):
        if not env.agents:
            break
        obs, _r, term, _t, _i = env.step(_legal_actions(env, obs, rng))
        gone |= {a for a, t in term.items() if t}
        assert not gone & set(env.agents)
        for a in gone:
            p = env.power_index[a]
            pos = env.game.position
            assert env.game.is_over or (p not in pos.owners and
                                        all(u.power != p for u in pos.units))


def test_bad_action_type_is_refused():
    with pytest.raises(ValueError, match="action_type 'x'"):
        DiplomacyEnv("standard", action_type="x")
