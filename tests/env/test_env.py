"""polydip.env: the PettingZoo ParallelEnv (docs/env.md)."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy", reason="the rl extra is not installed")
pytest.importorskip("pettingzoo", reason="the rl extra is not installed")

from pettingzoo.test import parallel_api_test  # noqa: E402

from polydip.env import DiplomacyEnv, VectorEnv, end_scores, sample_actions  # noqa: E402
from polydip.env.parallel import RESULT_WORDS  # noqa: E402
from polydip.errors import PolydipError  # noqa: E402
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
        for s in range(len(legal)):
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
    o = obs["FRANCE"]
    assert env.observation_space("FRANCE").contains(o)
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
    # rows: the most units a power has (Russia: 4); columns: the longest list of the phase
    assert o["legal"].dtype == np.int32
    assert o["legal"].shape == (4, max(len(c) for c in fg.legal()))
    assert infos["FRANCE"]["centers"] == 3
    assert (o["prev_orders"] == -1).all() and (o["prev_results"] == 0).all()


def test_a_code_not_legal_for_its_slot_is_no_order():
    env = DiplomacyEnv("standard")
    obs, _ = env.reset()
    # every agent orders, for each slot, the first legal code of ANOTHER slot: all illegal
    actions = {a: np.roll(obs[a]["legal"][:, 1], 1) for a in env.agents}
    actions = {a: np.where(act < 0, 0, act) for a, act in actions.items()}
    env.step(actions)
    assert sorted(env.game.position.units) == sorted(FastGame.new("standard").position.units)


@pytest.mark.parametrize("action_type", ["code", "index"])
def test_an_action_that_is_not_legal_is_counted_in_infos(action_type):
    """An action that is not one of its slot's legal codes (or indexes past its list) plays
    as no order and is counted in the agent's `infos["illegal"]`; -1, the action that asks
    for no order, is not counted; actions drawn by sample_actions count none."""
    env = DiplomacyEnv("standard", action_type=action_type)
    obs, infos = env.reset(seed=4)
    assert all(i["illegal"] == 0 for i in infos.values())
    acts = {a: np.full(env.max_units, -1, np.int64) for a in env.agents}
    fr, en = obs["FRANCE"], obs["ENGLAND"]
    if action_type == "code":
        acts["FRANCE"][:2] = [int(en["legal"][0, 0]), fr["legal"][1, 0]]  # an English code
        acts["FRANCE"][2] = 10**9  # not a code at all
    else:
        acts["FRANCE"][:3] = [fr["n_legal"][0], 0, 10**9]  # past the list, legal, past
    acts["ENGLAND"][0] = -1  # (no order, asked for)
    obs, _r, _te, _tr, infos = env.step(acts)
    assert infos["FRANCE"]["illegal"] == 2
    assert all(infos[a]["illegal"] == 0 for a in env.agents if a != "FRANCE")
    row = env.agent_row["FRANCE"]
    assert obs["RUSSIA"]["prev_orders"][row, 1] >= 0  # the legal one was played
    assert obs["RUSSIA"]["prev_orders"][row, 0] == -1 and obs["RUSSIA"]["prev_orders"][row, 2] == -1
    obs, _r, _te, _tr, infos = env.step(sample_actions(env, obs, np.random.default_rng(0)))
    assert all(i["illegal"] == 0 for i in infos.values())


def test_rewards_are_center_changes_and_the_end_bonus():
    """The center reward adds up to the change of a power's centers over the game; the win or
    draw reward goes to the powers the game's end names."""
    env = DiplomacyEnv("war_in_north_america", action_type="index", win_reward=7.0,
                       draw_reward=5.0, max_year=100_000)
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
    env = DiplomacyEnv("standard", action_type="index", max_year=100_000)
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


# ---- one board a step, shared; compact legal codes ----------------------------------------

def _distinct_bytes(obs):
    seen = {}

    def walk(x):
        if isinstance(x, np.ndarray):
            while isinstance(x.base, np.ndarray):
                x = x.base
            seen[id(x)] = x.nbytes
        elif isinstance(x, dict):
            for v in x.values():
                walk(v)
        elif isinstance(x, tuple):
            for v in x:
                walk(v)
    walk(obs)
    return sum(seen.values())


@pytest.mark.parametrize("action_type", ["code", "index"])
def test_the_board_is_encoded_once_and_shared_read_only(action_type):
    env = DiplomacyEnv("standard", action_type=action_type)
    obs, _ = env.reset()
    fr, en = obs["FRANCE"], obs["ENGLAND"]
    for key in ("units", "dislodged", "centers", "phase", "year", "prev_orders",
                "prev_results"):
        assert fr[key] is en[key]
    assert np.shares_memory(fr["legal"], env.legal)
    assert (fr["legal"] == env.legal[env.agent_row["FRANCE"]]).all()
    with pytest.raises(ValueError):
        fr["units"][0, 0, 0] = 1  # one agent cannot change what the others see
    with pytest.raises(ValueError):
        fr["legal"][0, 0] = 5


@pytest.mark.parametrize("action_type", ["code", "index"])
def test_a_step_of_observations_is_under_100_kb_on_standard(action_type):
    env = DiplomacyEnv("standard", action_type=action_type)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(0)
    worst = _distinct_bytes(obs)
    for _ in range(40):
        obs, *_ = env.step(sample_actions(env, obs, rng))
        worst = max(worst, _distinct_bytes(obs))
    assert worst < 100_000


def test_numpy_sampling_gives_legal_orders_and_the_gymnasium_masks_agree():
    for action_type in ("code", "index"):
        env = DiplomacyEnv("standard", action_type=action_type)
        obs, _ = env.reset(seed=1)
        rng = np.random.default_rng(1)
        for _ in range(12):
            acts = sample_actions(env, obs, rng)
            for a, act in acts.items():
                legal = obs[a]["legal"]
                for s, row in enumerate(legal):
                    ok = row[row >= 0]
                    if action_type == "code":
                        assert act[s] in ok if len(ok) else act[s] == -1
                    else:
                        assert (0 <= act[s] < len(ok)) if len(ok) else act[s] == -1
                        mask = obs[a]["action_mask"][s]
                        assert mask.shape == (env.max_orders,)
                        assert mask.sum() == len(ok) and mask[: len(ok)].all()
                if action_type == "index":
                    assert all(m.sum() == 0 for m in obs[a]["action_mask"][len(legal):])
                    picked = env.action_space(a).sample(mask=obs[a]["action_mask"])
                    assert all(picked[s] < (legal[s] >= 0).sum() or (legal[s] < 0).all()
                               for s in range(len(legal)))
            obs, *_ = env.step(acts)


# ---- the previous phase's orders and results ----------------------------------------------

def test_the_previous_orders_and_their_results_are_observed():
    env = DiplomacyEnv("standard")
    obs, _ = env.reset()
    t, m = env.table, env.m
    army = m.kinds.index("A")

    def move(src, dst):
        return t.move_code(t.slot(army, m.loc_of(src)), m.loc_of(dst))

    acts = {a: np.full(env.max_units, -1) for a in env.agents}
    slot = {}
    for a, code in (("FRANCE", move("PAR", "BUR")), ("GERMANY", move("MUN", "BUR")),
                    ("ITALY", move("VEN", "PIE"))):
        s = int(np.argwhere(obs[a]["legal"] == code)[0][0])
        acts[a][s] = code
        slot[a] = (s, code)
    obs, *_ = env.step(acts)
    o = obs["ENGLAND"]  # every agent sees every power's orders
    bounce = 1 << ("bounce", "cut", "dislodged", "void").index("bounce")
    for a in ("FRANCE", "GERMANY", "ITALY"):
        s, code = slot[a]
        r = env.agent_row[a]
        assert o["prev_orders"][r, s] == code
        assert o["prev_results"][r, s] == (0 if a == "ITALY" else bounce)
    assert (o["prev_orders"] >= 0).sum() == 3
    assert o["prev_results"][env.agent_row["ENGLAND"]].sum() == 0


# ---- scoring, the end of a game ------------------------------------------------------------

def test_end_scores_sos_dss_and_a_win():
    counts = [4, 2, 0, 2]
    powers = [0, 1, 2, 3]
    assert end_scores("sos", counts, powers, "cut", [], [0, 1, 3]) == \
        {0: 16 / 24, 1: 4 / 24, 2: 0.0, 3: 4 / 24}
    assert end_scores("dss", counts, powers, "cut", [], [0, 1, 3]) == \
        {0: 1 / 3, 1: 1 / 3, 2: 0.0, 3: 1 / 3}
    # a draw the game declares is shared by its powers
    assert end_scores("dss", counts, powers, "drawn", [0, 1], [0, 1, 3]) == \
        {0: 0.5, 1: 0.5, 2: 0.0, 3: 0.0}
    for scoring in ("sos", "dss", "win"):
        assert end_scores(scoring, counts, powers, "won", [0], [0, 1, 3]) == \
            {0: 1.0, 1: 0.0, 2: 0.0, 3: 0.0}


@pytest.mark.parametrize("scoring", ["sos", "dss"])
def test_a_cut_game_pays_its_score(scoring):
    env = DiplomacyEnv("standard", scoring=scoring, center_reward=0.0, score_reward=3.0,
                       max_phases=6)
    obs, _ = env.reset(seed=0)
    rng = np.random.default_rng(4)
    steps, total = 0, dict.fromkeys(env.agents, 0.0)
    while env.agents:
        obs, rewards, _term, trunc, infos = env.step(sample_actions(env, obs, rng))
        steps += 1
        for a, r in rewards.items():
            total[a] += r
    assert steps == 6 and all(trunc.values())
    counts = {a: infos[a]["centers"] for a in infos}
    sq = sum(c * c for c in counts.values())
    for a, c in counts.items():
        want = c * c / sq if scoring == "sos" else 1 / sum(1 for x in counts.values() if x)
        assert infos[a]["score"] == pytest.approx(want)
        assert total[a] == pytest.approx(3.0 * want)
    assert sum(infos[a]["score"] for a in infos) == pytest.approx(1.0)


def test_games_stop_after_30_years_by_default():
    env = DiplomacyEnv("standard")
    assert env.max_year == 1930
    obs, _ = env.reset()
    rng = np.random.default_rng(0)
    last = None
    while env.agents:
        obs, _r, term, trunc, _infos = env.step(sample_actions(env, obs, rng))
        last = (term, trunc)
    assert env.game.is_over or (all(last[1].values()) and env.game.position.phase.year == 1931)


@pytest.mark.parametrize("kwargs, match", [
    ({"scoring": "elo"}, "scoring 'elo'"),
    ({"max_phases": 0}, "max_phases must be a positive integer"),
    ({"max_year": 1850}, "max_year 1850 is before the game starts"),
    ({"max_year": "1920"}, "max_year must be a positive integer"),
    ({"max_units": 2.5}, "max_units must be a positive integer"),
    ({"center_reward": "x"}, "center_reward must be a number"),
    ({"score_reward": None}, "score_reward must be a number"),
    ({"win_reward": float("nan")}, "win_reward must be a number"),
])
def test_bad_options_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DiplomacyEnv("standard", **kwargs)


# ---- agent names -----------------------------------------------------------------------

def test_agents_are_named_as_in_the_shards_and_old_names_are_refused():
    env = DiplomacyEnv("standard")
    assert env.possible_agents == ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY",
                                   "RUSSIA", "TURKEY"]
    env.reset()
    with pytest.raises(PolydipError, match=r"'France'.*'FRANCE'"):
        env.step({"France": np.zeros(env.max_units, np.int64)})
    with pytest.raises(PolydipError, match="'Narnia' is not a power"):
        env.step({"Narnia": np.zeros(env.max_units, np.int64)})
    with pytest.raises(PolydipError, match="sequence of"):
        env.step({"FRANCE": 3})
    with pytest.raises(PolydipError, match="sequence of integers"):
        env.step({"FRANCE": ["A PAR - BUR", "x", "y"]})
    with pytest.raises(PolydipError, match=r"got shape \(\)"):
        env.step({"FRANCE": np.array(3)})
    with pytest.raises(PolydipError, match=r"has 1 slots for 3 items: give \d+ integers "
                       r"\(at least one per item, 3;"):
        env.step({"FRANCE": [0]})


# ---- the vector env -----------------------------------------------------------------------

def test_vector_env_steps_games_together_seeded_and_resets_them():
    def run(seed):
        venv = VectorEnv("standard", 3, max_phases=4)
        obs, _ = venv.reset(seed=seed)
        seen, infos = [], []
        for _ in range(5):
            obs, _rewards, _term, trunc, info = venv.step(venv.sample_actions(obs))
            seen.append([e.game.position for e in venv.envs])
            infos.append(info)
        return venv, obs, infos, trunc, seen

    venv, _obs, infos, _trunc, seen = run(7)
    assert run(7)[4] == seen  # the same seed plays the same games
    assert run(8)[4] != seen
    # games differ from one another (each its own draws)
    assert seen[2][0] != seen[2][1]
    # after the 4th step every game was cut and reset: the 5th step is its new game's first
    start = FastGame.new("standard").position
    assert venv.episodes == [1, 1, 1]
    assert all(len(venv.agents[i]) == 7 for i in range(3))
    ended = infos[3][0]["FRANCE"]
    assert ended["episode"] == 1
    assert ended["final_info"]["phase"] == "F1902M" and "score" in ended["final_info"]
    assert ended["final_observation"]["year"].tolist() == [1]
    assert "final_info" not in infos[4][0]["FRANCE"]
    assert all(p != start for p in seen[4])
    assert all(p == start for p in seen[3])


def test_vector_env_refuses_bad_input():
    with pytest.raises(ValueError, match="num_envs"):
        VectorEnv("standard", 0)
    venv = VectorEnv("standard", 2)
    obs, _ = venv.reset(seed=0)
    with pytest.raises(PolydipError, match="1 action dicts for 2 games"):
        venv.step(venv.sample_actions(obs)[:1])
    with pytest.raises(PolydipError, match="a list of one action dict per game"):
        venv.step({"FRANCE": [0]})


def test_the_shared_board_follows_the_game_step_by_step():
    """Arrays kept from one step to the next (unchanged units, owners) still show the
    position: every step's board is the one worked out afresh from the position."""
    env = DiplomacyEnv("standard")
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    m = env.m
    for _ in range(25):
        obs, *_ = env.step(sample_actions(env, obs, rng))
        pos, o = env.game.position, obs[env.agents[0]]
        units = np.zeros_like(o["units"])
        for u in pos.units:
            units[u.loc, u.kind, u.power] += 1
        dislodged = np.zeros_like(o["units"])
        for d in pos.dislodged:
            dislodged[d.loc, d.kind, d.power] += 1
        assert (o["units"] == units).all() and (o["dislodged"] == dislodged).all()
        for prov, owner in enumerate(pos.owners):
            assert o["centers"][prov].tolist() == [int(owner == p) for p in range(len(m.powers))]
        assert o["year"][0] == pos.phase.year - 1901
        assert o["phase"][3 + "MRA".index(pos.phase.type)] == 1


def test_items_and_codes_past_the_limits_take_no_order_and_are_counted():
    env = DiplomacyEnv("standard", max_units=2, max_orders=5)
    obs, infos = env.reset()
    fg = FastGame.new("standard")
    russia = [k for k, (p, _i) in enumerate(fg.items()) if p == env.power_index["RUSSIA"]]
    o = obs["RUSSIA"]
    assert o["legal"].shape == (2, 5)  # two slots of Russia's four units, five codes each
    assert infos["RUSSIA"]["dropped"]["items"] == 2
    assert infos["RUSSIA"]["dropped"]["orders"] == sum(
        max(0, len(fg.legal()[k]) - 5) for k in russia[:2])
    for s, k in enumerate(russia[:2]):
        assert o["legal"][s].tolist() == fg.legal()[k][:5]
        assert o["n_legal"][s] == 5
    # a code of a slot's list past max_orders is no order
    late = fg.legal()[russia[0]][7]
    env.step({"RUSSIA": [late, -1]})
    assert env.game.position.units == FastGame.new("standard").position.units


def test_results_of_retreats_and_adjustments_are_each_orders_own():
    """In retreat and adjustment phases `prev_results` holds, for each order played, the
    bits of its own result words (the outcome's rows: retreats per dislodged unit,
    adjustments per power, its orders in the order given): of two builds on one site the
    first succeeds (0) and the second is void."""
    env = DiplomacyEnv("standard", max_year=100_000)
    ref = FastGame.new("standard")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    bit = {w: 1 << i for i, w in enumerate(RESULT_WORDS)}
    checked = {"R": 0, "A": 0}
    twice = 0  # (builds on a site already built on in the phase)
    for _ in range(150):
        if not env.agents:
            break
        items, typ = ref.items(), ref.phase_type
        obs, *_ = env.step(sample_actions(env, obs, rng))
        if not env.agents:
            break
        o = obs[env.agents[0]]
        seen = dict.fromkeys(range(len(ref.m.powers)), 0)
        codes, at = [], []
        for p, _i in items:
            r = env.agent_row[ref.m.powers[p].upper()]
            codes.append(int(o["prev_orders"][r, seen[p]]))
            at.append((r, seen[p]))
            seen[p] += 1
        out = ref.step(codes)
        if typ == "M":
            continue
        rows = out.rows()
        # retreats: a row per dislodged unit, in order (item k); adjustments: per power its
        # orders given, then its units removed by civil disorder
        per_unit = [w for _p, _t, w in rows]
        given_words = []
        for p in range(len(ref.m.powers)):
            given = sum(1 for k, c in enumerate(codes) if c >= 0 and items[k][0] == p)
            given_words += [w for q, _t, w in rows if q == p][:given]
        next_given = iter(given_words)
        want = np.zeros_like(o["prev_results"])
        built: set[tuple[int, int]] = set()
        for k, ((r, s), c) in enumerate(zip(at, codes, strict=True)):
            if c < 0:
                continue
            words = per_unit[k] if typ == "R" else next(next_given)
            want[r, s] = sum(bit[w] for w in words)
            order = ref.table.orders[c]
            if typ == "A" and order.type == "B":  # (a build: not a removal, not a waive)
                site = (items[k][0], ref.m.loc_prov[order.loc])
                if site in built:
                    twice += 1
                    assert words == ["void"]
                built.add(site)
        assert (o["prev_results"] == want).all()
        checked[typ] += 1
    assert checked["R"] and checked["A"] and twice



# ---- press: messages between agents (env/press.py) ----------------------------------------

def _codes(exc_info):
    return exc_info.value.code


def test_a_scripted_exchange_between_two_agents():
    """France writes to England before the first step; England reads it in that step's infos
    and answers before the next; each message is read once, in the phase it was sent."""
    env = DiplomacyEnv("standard")
    obs, infos = env.reset(seed=0)
    assert all(infos[a]["messages"] == () for a in env.agents)
    rng = np.random.default_rng(0)
    sent = env.send("FRANCE", "ENGLAND", "Channel stays empty?")
    assert (sent.sender, sent.recipients, sent.phase) == ("France", ("England",), "S1901M")
    obs, _r, _t, _tr, infos = env.step(sample_actions(env, obs, rng))
    got = infos["ENGLAND"]["messages"]
    assert len(got) == 1
    assert got[0]["sender"] == "FRANCE" and got[0]["recipients"] == ("ENGLAND",)
    assert got[0]["text"] == "Channel stays empty?" and got[0]["phase"] == "S1901M"
    assert infos["FRANCE"]["messages"] == ()  # (its own message is not handed back)
    env.send("ENGLAND", ["FRANCE"], "Agreed.")
    obs, _r, _t, _tr, infos = env.step(sample_actions(env, obs, rng))
    assert [m["text"] for m in infos["FRANCE"]["messages"]] == ["Agreed."]
    assert infos["FRANCE"]["messages"][0]["phase"] == "F1901M"
    assert infos["ENGLAND"]["messages"] == ()
    obs, _r, _t, _tr, infos = env.step(sample_actions(env, obs, rng))
    assert all(infos[a]["messages"] == () for a in infos)  # nothing new: nothing read
    assert [(m.sender, m.text) for m in env.messages] == [
        ("France", "Channel stays empty?"), ("England", "Agreed.")]
    env.reset()
    assert env.messages == [] and env.messages_json() == []


def test_a_private_message_is_read_by_its_recipients_only():
    env = DiplomacyEnv("standard")
    obs, _ = env.reset(seed=1)
    env.send("FRANCE", ["ENGLAND", "RUSSIA"], "Let us split Germany.")
    env.send("AUSTRIA", "GLOBAL", "Peace in our time.")
    _obs, _r, _t, _tr, infos = env.step(sample_actions(env, obs, np.random.default_rng(1)))
    texts = {a: [m["text"] for m in infos[a]["messages"]] for a in infos}
    assert texts["GERMANY"] == ["Peace in our time."]  # not the private one
    assert texts["ENGLAND"] == texts["RUSSIA"] == ["Let us split Germany.",
                                                    "Peace in our time."]
    assert texts["FRANCE"] == ["Peace in our time."]
    assert texts["AUSTRIA"] == []
    public = infos["TURKEY"]["messages"][0]
    assert public["recipients"] == "GLOBAL" and public["sender"] == "AUSTRIA"


@pytest.mark.parametrize("kwargs, call, code", [
    ({"press": "none"}, ("FRANCE", "ENGLAND", "hi"), "press_closed"),
    ({"press": "none"}, ("FRANCE", "GLOBAL", "hi"), "press_closed"),
    ({"press": "public"}, ("FRANCE", "ENGLAND", "hi"), "press_closed"),
    ({"max_message_length": 5}, ("FRANCE", "ENGLAND", "hello!"), "too_long"),
    ({}, ("FRANCE", "ENGLAND", "x" * 4001), "too_long"),
    ({}, ("France", "ENGLAND", "hi"), "unknown_power"),  # agents are named in upper case
    ({}, ("FRANCE", ["ENGLAND", "NARNIA"], "hi"), "unknown_power"),
    ({}, ("FRANCE", [], "hi"), "bad_recipients"),
    ({}, ("FRANCE", "FRANCE", "hi"), "bad_recipients"),  # to itself only
    ({}, ("FRANCE", "ENGLAND", "   "), "empty_text"),
    ({}, ("FRANCE", "ENGLAND", 42), "empty_text"),
    ({}, ("FRANCE", "ENGLAND", "a\x00b"), "bad_text"),
])
def test_messages_the_rules_refuse_raise_a_press_error_with_a_code(kwargs, call, code):
    from polydip.game.press import PressError

    env = DiplomacyEnv("standard", **kwargs)
    env.reset()
    with pytest.raises(PressError) as exc:
        env.send(*call)
    assert _codes(exc) == code
    assert env.messages == []


def test_public_press_takes_global_messages_and_limits_count_per_phase():
    from polydip.game.press import PressError

    env = DiplomacyEnv("standard", press="public", max_messages=2)
    obs, _ = env.reset(seed=0)
    env.send("FRANCE", "GLOBAL", "one")
    env.send("FRANCE", "global", "two")
    with pytest.raises(PressError) as exc:
        env.send("FRANCE", "GLOBAL", "three")
    assert _codes(exc) == "too_many"
    env.send("ENGLAND", "GLOBAL", "mine")  # (the limit is each agent's)
    env.step(sample_actions(env, obs, np.random.default_rng(0)))
    env.send("FRANCE", "GLOBAL", "a new phase, a new count")
    assert len(env.messages) == 4


def test_an_agent_that_left_neither_sends_nor_receives():
    from polydip.game.press import PressError

    env = DiplomacyEnv("standard", max_phases=1)
    obs, _ = env.reset(seed=0)
    env.step(sample_actions(env, obs, np.random.default_rng(0)))  # every agent truncated
    with pytest.raises(PressError) as exc:
        env.send("FRANCE", "ENGLAND", "anyone?")
    assert _codes(exc) == "press_closed"
    env = DiplomacyEnv("standard")
    env.reset()
    env.agents.remove("ENGLAND")  # (as if England had been eliminated)
    with pytest.raises(PressError) as exc:
        env.send("FRANCE", "ENGLAND", "anyone?")
    assert _codes(exc) == "bad_recipients"
    with pytest.raises(PressError) as exc:
        env.send("ENGLAND", "FRANCE", "still here")
    assert _codes(exc) == "press_closed"


@pytest.mark.parametrize("kwargs, match", [
    ({"press": "gunboat"}, "press 'gunboat'"),
    ({"max_messages": 0}, "max_messages must be a positive integer"),
    ({"max_message_length": 10_000}, "max_message_length must be a positive integer of at "
                                     "most 4,000"),
])
def test_bad_press_options_are_refused(kwargs, match):
    with pytest.raises(ValueError, match=match):
        DiplomacyEnv("standard", **kwargs)


def test_messages_are_exported_in_the_package_shape_as_a_game_writes_them():
    """The env's messages_json is what polydip's export of a Game with the same messages
    writes in the package's phases (game/dipjson.py): one message per recipient, names in
    upper case, the package's phase name, times unique and increasing."""
    from polydip.game.dipjson import game_to_diplomacy
    from polydip.game.game import Game

    env = DiplomacyEnv("standard")
    obs, _ = env.reset(seed=0)
    env.send("FRANCE", ["ENGLAND", "GERMANY"], "Two readers")
    env.send("ITALY", "GLOBAL", "All of you")
    env.step(sample_actions(env, obs, np.random.default_rng(0)))
    env.send("RUSSIA", "TURKEY", "Next phase")
    out = env.messages_json()
    assert [(x["sender"], x["recipient"], x["phase"], x["message"]) for x in out] == [
        ("FRANCE", "ENGLAND", "S1901M", "Two readers"),
        ("FRANCE", "GERMANY", "S1901M", "Two readers"),
        ("ITALY", "GLOBAL", "S1901M", "All of you"),
        ("RUSSIA", "TURKEY", "F1901M", "Next phase")]
    times = [x["time_sent"] for x in out]
    assert times == sorted(times) and len(set(times)) == len(times)
    game = Game.new("standard")
    game.add_message("France", ["England", "Germany"], "Two readers")
    game.add_message("Italy", "GLOBAL", "All of you")
    written = game_to_diplomacy(game)["phases"][-1]["messages"]
    assert [{k: v for k, v in x.items() if k != "time_sent"} for x in written] == \
        [{k: v for k, v in x.items() if k != "time_sent"} for x in out[:3]]


def test_a_vector_env_game_carries_its_own_messages():
    venv = VectorEnv("standard", 2)
    obs, _ = venv.reset(seed=0)
    venv.send(1, "FRANCE", "ENGLAND", "only in game 1")
    _o, _r, _t, _tr, infos = venv.step(venv.sample_actions(obs))
    assert infos[0]["ENGLAND"]["messages"] == ()
    assert [m["text"] for m in infos[1]["ENGLAND"]["messages"]] == ["only in game 1"]
    with pytest.raises(PolydipError, match=r"a game of 0 \.\. 1"):
        venv.send(2, "FRANCE", "ENGLAND", "no such game")


def test_the_env_bench_plays_the_same_games_in_lockstep():
    """bench/env.py (docs/env.md, Figures) times the fast path and the env on the same games,
    phase by phase in turn; it reports the ratio and that both games ended alike."""
    import subprocess
    import sys
    from pathlib import Path

    bench = Path(__file__).resolve().parents[2] / "bench" / "env.py"
    run = subprocess.run([sys.executable, str(bench), "--games", "1", "--phases", "6",
                          "--repeat", "1", "--vector", ""],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "same games: True" in run.stdout
    assert "lockstep runs" in run.stdout and "6 steps" in run.stdout
    assert "observations:" in run.stdout
    # --ratio-only: the lockstep runs and their ratio, nothing after them
    run = subprocess.run([sys.executable, str(bench), "--games", "1", "--phases", "6",
                          "--repeat", "1", "--ratio-only"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "lockstep runs" in run.stdout and "same games: True" in run.stdout
    assert "observations:" not in run.stdout and "VectorEnv" not in run.stdout
    # no games: a usage error, not a division by zero
    run = subprocess.run([sys.executable, str(bench), "--games", "0", "--ratio-only"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 2
    assert "--games, --phases and --repeat must be at least 1" in run.stderr
    assert "Traceback" not in run.stderr


def test_actions_that_are_not_a_dict_are_refused():
    env = DiplomacyEnv("standard")
    env.reset()
    with pytest.raises(PolydipError, match="step takes a dict of agent -> action, not list"):
        env.step([np.zeros(env.max_units, np.int64)] * 7)


@pytest.mark.parametrize("make", [
    lambda legal, n: np.concatenate([legal + 0.9, np.full(n - 3, -1.0)]),  # near codes
    lambda legal, n: np.ones(n, bool),
    lambda legal, n: [float(c) for c in legal] + [-1.0] * (n - len(legal)),
    lambda legal, n: [True] * n,
], ids=["float-array", "bool-array", "float-list", "bool-list"])
def test_actions_that_are_not_integers_are_refused_not_cut(make):
    """docs/env.md: an action that is not a sequence of integers is refused. Floats were
    cut to ints (legal codes + 0.9 played the codes) and booleans read as code 1."""
    env = DiplomacyEnv("standard")
    obs, _ = env.reset()
    legal = np.asarray(obs["FRANCE"]["legal"][:3, 0])
    with pytest.raises(PolydipError, match="the action of FRANCE must be"):
        env.step({"FRANCE": make(legal, env.max_units)})
    assert env.game.phase == "S1901M"


def test_the_spaces_made_when_first_asked_for_are_seeded_by_reset():
    """(The spaces are made on first use, after reset: a seed given before still holds.)"""
    draws = []
    for _ in range(2):
        env = DiplomacyEnv("standard")
        env.reset(seed=3)
        space = env.action_space("FRANCE")
        assert space is env.action_space("ENGLAND")
        draws.append(space.sample().tolist())
    assert draws[0] == draws[1]


def test_a_step_before_the_first_reset_is_refused():
    with pytest.raises(PolydipError, match=r"call reset\(\) before the first step"):
        DiplomacyEnv("standard").step({})


@pytest.mark.parametrize("action_type", ["code", "index"])
def test_the_actions_sample_actions_drew_are_played_unchecked_unless_changed(
        action_type, monkeypatch):
    """sample_actions' arrays, given back unchanged, are played as drawn (no second check
    against the legal lists); changed, swapped between agents or in another order, they are
    checked as any action (an illegal code is no order)."""
    env = DiplomacyEnv("standard", action_type=action_type)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    twin = FastGame.new("standard")
    checked = env._read_actions

    def no_check(actions):
        raise AssertionError("checked again")

    for _ in range(6):  # (movement, retreat and adjustment phases)
        acts = sample_actions(env, obs, rng)
        monkeypatch.setattr(env, "_read_actions", no_check)
        codes = [-1] * len(twin.items())
        for a, act in acts.items():
            mine = [k for k, (q, _i) in enumerate(twin.items()) if q == env.power_index[a]]
            for s, k in enumerate(mine):
                if act[s] >= 0:
                    codes[k] = int(act[s]) if action_type == "code" else \
                        twin.legal()[k][act[s]]
        obs, *_ = env.step(acts)
        twin.step(codes)
        assert env.game.position == twin.position
        monkeypatch.setattr(env, "_read_actions", checked)
    acts = sample_actions(env, obs, rng)
    fr, en = env.agent_row["FRANCE"], env.agent_row["ENGLAND"]
    assert acts["FRANCE"][0] >= 0 and acts["ENGLAND"][0] >= 0
    bad = 10**6 if action_type == "index" else int(obs["ENGLAND"]["legal"][0, 0])
    acts["FRANCE"][0] = bad  # (changed in place after the draw: checked, no order)
    obs, *_ = env.step(acts)
    assert obs["RUSSIA"]["prev_orders"][fr, 0] == -1
    assert obs["RUSSIA"]["prev_orders"][en, 0] >= 0
    acts = sample_actions(env, obs, rng)
    acts["FRANCE"], acts["ENGLAND"] = acts["ENGLAND"], acts["FRANCE"]  # swapped
    if action_type == "code":  # (an English code is no French unit's order)
        obs, *_ = env.step(acts)
        assert (obs["RUSSIA"]["prev_orders"][fr] == -1).all()
        assert (obs["RUSSIA"]["prev_orders"][en] == -1).all()
    acts = sample_actions(env, obs, rng)
    drawn = {a: act.copy() for a, act in acts.items()}
    obs, *_ = env.step(dict(reversed(acts.items())))  # another order: checked, the same
    for a, act in drawn.items():
        n = int((act >= 0).sum())
        assert (obs["RUSSIA"]["prev_orders"][env.agent_row[a]] >= 0).sum() == n


def test_sampled_actions_played_as_drawn_keep_to_the_limits():
    """With items past max_units and codes past max_orders cut, what sample_actions draws
    (and step plays unchecked) is within each slot's kept codes, and items past the slots
    take no order."""
    env = DiplomacyEnv("standard", max_units=2, max_orders=5)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(10):
        if not env.agents:
            break
        before = {a: obs[a]["legal"] for a in env.agents}
        obs, *_ = env.step(sample_actions(env, obs, rng))
        seen = next(iter(obs.values()))["prev_orders"]
        assert seen.shape == (7, 2)
        for a, legal in before.items():
            for s, code in enumerate(seen[env.agent_row[a]]):
                assert code == -1 or code in legal[s]


@pytest.mark.parametrize("variant", ["standard", "lad1890"])
def test_movement_results_are_the_adjudicators_words_for_the_orders_played(variant):
    """In movement phases `prev_results` holds, for each order played, the bits of its
    result words as the game's outcome gives them; a unit left without an order (its
    slot's action -1 or a code not legal for it) shows 0, even when it was dislodged."""
    env = DiplomacyEnv(variant, max_year=100_000)
    ref = FastGame.new(variant)
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    bit = {w: 1 << i for i, w in enumerate(RESULT_WORDS)}
    unordered_failed = 0
    for _ in range(120):
        if not env.agents:
            break
        acts = {a: np.where(rng.random(len(x)) < 0.25, -1, x)  # (a copy: checked)
                for a, x in sample_actions(env, obs, rng).items()}
        items = ref.items()
        typ = ref.phase_type
        obs, *_ = env.step(acts)
        o = obs[env.agents[0]] if env.agents else None
        if o is None:
            break
        seen = dict.fromkeys(range(len(ref.m.powers)), 0)
        codes, at = [], []
        for p, _i in items:
            r = env.agent_row[ref.m.powers[p].upper()]
            s = seen[p]
            seen[p] += 1
            codes.append(int(o["prev_orders"][r, s]))
            at.append((r, s))
        out = ref.step(codes)
        if typ != "M":
            continue
        want = np.zeros_like(o["prev_results"])
        for (r, s), c, (_u, _o, words) in zip(at, codes, out.unit_results(), strict=True):
            if c >= 0:
                want[r, s] = sum(bit[w] for w in words)
            elif words:
                unordered_failed += 1
        assert (o["prev_results"] == want).all()
    assert unordered_failed  # (units without an order were dislodged: shown as 0)
