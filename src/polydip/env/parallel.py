"""DiplomacyEnv: a PettingZoo ParallelEnv over the fast path, for any variant (docs/env.md).

Agents are the powers (neutral ones excluded), named as in the simulate shards and the
`diplomacy` package: upper case ("FRANCE"). Every step all live agents act at once; in a phase
where a power has nothing to order its action is ignored. The board is encoded once a step and
the same read-only arrays are given to every agent; per agent only views differ (its row of
the step's legal codes, its slots, its one-hot power). The action is one order code of the
map's order table per unit slot (or, with `action_type="index"`, an index into the slot's row
of legal codes, with an `action_mask`).
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from polydip.errors import PolydipError
from polydip.fast import FastGame
from polydip.game.victory import center_counts

PHASE_TYPES = ("M", "R", "A")
SCORINGS = ("win", "sos", "dss")
# the result words of an order (polydip.adjudication.reasons.ResultWord), one bit each in
# `prev_results` (0: the order succeeded, or there was no order)
RESULT_WORDS = ("bounce", "cut", "dislodged", "void", "no convoy", "disrupted", "disband",
                "civil disorder")
_RESULT_BIT = {w: 1 << i for i, w in enumerate(RESULT_WORDS)}
DEFAULT_YEARS = 30  # without max_year a game is truncated after its 30th year (1930 standard)


def end_scores(scoring: str, counts: list[int], powers: list[int], status: str,
               winners: list[int], alive: list[int]) -> dict[int, float]:
    """Each power's score at the end of a game (in [0, 1], summing to 1 over `powers`).

    A won game (status "won"): 1 shared by the winners. Otherwise (a draw, or a game cut by
    max_year/max_phases): "sos" gives each power its centers squared over the sum of the
    squares; "dss" 1 shared by the powers in the draw (`winners` of a drawn game, else the
    `alive` ones); "win" scores a draw 0 (its rewards are win_reward/draw_reward)."""
    out = dict.fromkeys(powers, 0.0)
    if status == "won" and winners:
        for p in winners:
            out[p] = 1.0 / len(winners)
        return out
    if scoring == "sos":
        total = sum(counts[p] ** 2 for p in powers)
        if total:
            for p in powers:
                out[p] = counts[p] ** 2 / total
    elif scoring == "dss":
        sharing = [p for p in (winners or alive) if p in out]
        for p in sharing:
            out[p] = 1.0 / len(sharing)
    return out


class LegalCodes(spaces.Space):
    """The space of a `legal` observation: an int32 array of at most `max_rows` rows (unit
    slots) and `max_cols` columns (codes), each a code below `high` or -1 (padding). Its
    shape varies with the phase: rows are the most items any power has in the phase,
    columns the longest list of legal codes in it. With ndim=1 (`n_legal`): one value a row."""

    def __init__(self, max_rows: int, max_cols: int, high: int, ndim: int = 2,
                 seed: int | np.random.Generator | None = None) -> None:
        super().__init__(None, np.int32, seed)
        self.max_rows, self.max_cols, self.high = max_rows, max_cols, high
        self.ndim = ndim

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def contains(self, x: Any) -> bool:
        return (isinstance(x, np.ndarray) and x.dtype == np.int32 and x.ndim == self.ndim
                and 1 <= x.shape[0] <= self.max_rows
                and (x.ndim == 1 or 1 <= x.shape[1] <= self.max_cols)
                and bool(((x >= -1) & (x < self.high)).all()))

    def sample(self, mask: Any = None, probability: Any = None) -> np.ndarray:
        rows = int(self.np_random.integers(1, self.max_rows + 1))
        cols = int(self.np_random.integers(1, self.max_cols + 1))
        shape = (rows, cols) if self.ndim == 2 else (rows,)
        return self.np_random.integers(-1, self.high, shape, dtype=np.int32)

    def __repr__(self) -> str:
        return (f"LegalCodes(rows<={self.max_rows}, cols<={self.max_cols}, high={self.high}, "
                f"ndim={self.ndim})")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, LegalCodes) and (
            self.max_rows, self.max_cols, self.high, self.ndim) == (
            other.max_rows, other.max_cols, other.high, other.ndim)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


class DiplomacyEnv(ParallelEnv):
    """A game of `variant` for all its powers (see the module docstring and docs/env.md).

    max_units: unit slots per power (default: the map's supply centers); max_orders: legal
    codes kept per slot (default 512); items and orders past these take no order and are
    counted in `infos[agent]["dropped"]`. Rewards: `center_reward` per center gained (lost:
    negative) in a step; at the end, by `scoring`: "win" gives `win_reward` to the winner(s)
    of a won game and `draw_reward` to each power sharing a draw the game declares; "sos"
    and "dss" give `score_reward` × the power's sum-of-squares or draw-size score
    (`end_scores`). `max_year` (default: the game's 30th year) and `max_phases` (default:
    none) truncate every agent; pass a year the variant never reaches to play to the end.
    """

    metadata: ClassVar[dict[str, Any]] = {"name": "polydip_diplomacy_v1", "render_modes": []}

    def __init__(self, variant: str = "standard", options: dict[str, Any] | None = None, *,
                 action_type: str = "code", max_units: int | None = None,
                 max_orders: int = 512, scoring: str = "win", center_reward: float = 1.0,
                 win_reward: float = 10.0, draw_reward: float = 0.0,
                 score_reward: float = 1.0, max_year: int | None = None,
                 max_phases: int | None = None) -> None:
        if action_type not in ("code", "index"):
            raise ValueError(f"action_type {action_type!r}: use 'code' or 'index'")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring {scoring!r}: use one of {', '.join(SCORINGS)}")
        for name, val in (("max_units", max_units), ("max_orders", max_orders),
                          ("max_phases", max_phases), ("max_year", max_year)):
            if val is not None and (not isinstance(val, int) or isinstance(val, bool)
                                    or val < 1):
                raise ValueError(f"{name} must be a positive integer (got {val!r})")
        self.variant, self.options = variant, dict(options or {})
        self.action_type, self.scoring = action_type, scoring
        self._start = FastGame.new(variant, self.options)
        self.game = self._start.clone()
        m = self.game.m
        self.m, self.table = m, self.game.table
        self.powers = [p for p in range(len(m.powers)) if not m.power_neutral[p]]
        self.power_index = {m.powers[p].upper(): p for p in self.powers}
        self._variant_names = {m.powers[p]: m.powers[p].upper() for p in self.powers}
        self.possible_agents = list(self.power_index)
        self.agents = list(self.possible_agents)
        self._row = {p: r for r, p in enumerate(self.powers)}
        self.agent_row = {a: self._row[p] for a, p in self.power_index.items()}
        self.max_units = max_units or len(m.sc_list)
        self.max_orders = max_orders
        self.center_reward, self.win_reward, self.draw_reward = \
            center_reward, win_reward, draw_reward
        self.score_reward = score_reward
        self.first_year = self.game.position.phase.year
        if max_year is not None and max_year < self.first_year:
            raise ValueError(f"max_year {max_year} is before the game starts "
                             f"({self.first_year})")
        self.max_year = max_year if max_year is not None else \
            self.first_year + DEFAULT_YEARS - 1
        self.max_phases = max_phases
        self.seasons = [s.abbr for s in m.variant.calendar.seasons]
        n_pw, n_kind, n_ag = len(m.powers), len(m.kinds), len(self.powers)
        self._board_size = m.n_loc * n_kind * n_pw
        self._obs_space = spaces.Dict({
            "units": spaces.Box(0, 127, (m.n_loc, n_kind, n_pw), np.int8),
            "dislodged": spaces.Box(0, 127, (m.n_loc, n_kind, n_pw), np.int8),
            "centers": spaces.Box(0, 1, (m.n_prov, n_pw), np.int8),
            "phase": spaces.Box(0, 1, (len(self.seasons) + len(PHASE_TYPES),), np.int8),
            "year": spaces.Box(0, 100_000, (1,), np.int32),
            "power": spaces.Box(0, 1, (n_pw,), np.int8),
            "slots": spaces.Box(-1, m.n_loc - 1, (self.max_units,), np.int32),
            "legal": LegalCodes(self.max_units, max_orders, self.table.size),
            "n_legal": LegalCodes(self.max_units, 1, max_orders + 1, ndim=1),
            "prev_orders": spaces.Box(-1, self.table.size - 1, (n_ag, self.max_units),
                                      np.int32),
            "prev_results": spaces.Box(0, 255, (n_ag, self.max_units), np.uint8),
            **({"action_mask": spaces.Tuple([spaces.Box(0, 1, (max_orders,), np.int8)
                                             for _ in range(self.max_units)])}
               if action_type == "index" else {}),
        })
        n = self.table.size if action_type == "code" else max_orders
        self._act_space = spaces.MultiDiscrete(np.full(self.max_units, n, dtype=np.int64))
        self._power_rows = _frozen(np.eye(n_pw, dtype=np.int8))
        self._no_dislodged = _frozen(np.zeros((m.n_loc, n_kind, n_pw), np.int8))
        self._counts: list[int] = []
        self._phases = 0
        self._scores: dict[int, float] | None = None

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
        self.game = self._start.clone()
        self.agents = list(self.possible_agents)
        self._counts = center_counts(self.m, self.game.position.owners)
        self._phases = 0
        self._scores = None
        n_ag = len(self.powers)
        self._prev_orders = _frozen(np.full((n_ag, self.max_units), -1, np.int32))
        self._prev_results = _frozen(np.zeros((n_ag, self.max_units), np.uint8))
        self._cache: dict[Any, Any] = {}
        self._shared: dict[str, np.ndarray] = {}
        self._encode()
        phase = self.game.phase
        return self._observations(), {a: self._info(a, phase) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        g = self.game
        if g.is_over or not self.agents:
            raise PolydipError("the episode is over: call reset()")
        legal = g.legal()
        codes = [-1] * len(legal)
        live = self.agents
        index = self.action_type == "index"
        mine, mu, mo = self._mine, self.max_units, self.max_orders
        prev_at: list[int] = []
        prev_codes: list[int] = []
        for agent, action in actions.items():
            p = self.power_index.get(agent)
            if p is None:
                raise PolydipError(self._unknown_agent(agent))
            if agent not in live:
                continue  # a finished agent's action is ignored
            ks = mine[p]
            if not ks:
                continue
            if isinstance(action, np.ndarray) and action.ndim != 1:
                raise PolydipError(f"the action of {agent} must be one vector of "
                                   f"{self.max_units} integers (got shape {action.shape})")
            whole = isinstance(action, np.ndarray) and action.dtype.kind in "iu"
            try:
                acts = action.tolist() if isinstance(action, np.ndarray) else list(action)
            except TypeError:
                raise PolydipError(f"the action of {agent} must be a sequence of "
                                   f"{self.max_units} integers, not {action!r}") from None
            if len(acts) < len(ks):
                raise PolydipError(f"the action of {agent} has {len(acts)} slots for "
                                   f"{len(ks)} items: give {self.max_units} (or at least "
                                   f"the rows of its legal codes, {self._legal.shape[1]})")
            base = self._row[p] * mu
            try:  # (an integer array's list holds ints already)
                ints = acts if whole else [int(x) for x in acts[: len(ks)]]
            except (TypeError, ValueError, OverflowError):
                raise PolydipError(f"the action of {agent} must be a sequence of "
                                   f"integers, not {action!r}") from None
            for s, k in enumerate(ks):
                lst, a = legal[k], ints[s]
                if index:
                    c = lst[a] if 0 <= a < len(lst) and a < mo else -1
                else:  # a code that is not one of the slot's legal orders is no order
                    c = a if a in lst and (len(lst) <= mo or lst.index(a) < mo) else -1
                if c >= 0:
                    codes[k] = c
                    prev_at.append(base + s)
                    prev_codes.append(c)
        prev = np.full((len(self.powers), mu), -1, np.int32)
        if prev_at:
            prev.reshape(-1)[prev_at] = prev_codes
        before = g.position
        outcome = g.step(codes)
        self._phases += 1
        self._prev_orders = _frozen(prev)
        self._prev_results = _frozen(self._results(before, outcome, codes, prev))
        counts = center_counts(self.m, g.position.owners)
        pi = self.power_index
        rewards = {a: self.center_reward * (counts[pi[a]] - self._counts[pi[a]])
                   for a in live}
        self._counts = counts
        over = g.is_over
        year = g.position.phase.year
        truncated_all = not over and (
            year > self.max_year
            or (self.max_phases is not None and self._phases >= self.max_phases))
        pos = g.position
        have = {u.power for u in pos.units} | {d.power for d in pos.dislodged}
        terminations = {a: over or (counts[pi[a]] == 0 and pi[a] not in have) for a in live}
        truncations = dict.fromkeys(live, truncated_all)
        if over or truncated_all:
            self._end_rewards(rewards)
        self._encode()
        obs = self._observations()
        phase = g.phase
        infos = {a: self._info(a, phase) for a in live}
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return obs, rewards, terminations, truncations, infos

    @property
    def legal(self) -> np.ndarray:
        """The step's legal codes of every agent, (agents, rows, cols) int32, -1 padded: row
        `agent_row[agent]` is that agent's `legal` observation (a view of this array)."""
        return self._legal

    @property
    def n_legal(self) -> np.ndarray:
        """Per agent and slot, how many legal codes its row of `legal` holds."""
        return self._n_legal

    def _unknown_agent(self, agent: object) -> str:
        if isinstance(agent, str) and agent in self._variant_names:
            return (f"agent {agent!r}: the agents are named as in the simulate shards and the "
                    f"diplomacy package, {self._variant_names[agent]!r}")
        return f"agent {agent!r} is not a power of {self.m.variant.name}: " \
               f"{', '.join(self.possible_agents)}"

    def _results(self, before: Any, outcome: Any, codes: list[int],
                 prev: np.ndarray) -> np.ndarray:
        """Per agent and slot, the result words of the order just played as bits."""
        out = np.zeros(prev.shape, np.uint8)
        words_of: list[list[str]] | None = None
        if before.phase.type == "M":
            got = outcome.unit_results()
            if got is not None:
                words_of = [w for _u, _o, w in got]
        texts: dict[str, list[str]] | None = None
        at: list[int] = []
        got_bits: list[int] = []
        items, mu = self._items, self.max_units
        for p, ks in self._mine.items():
            base = self._row[p] * mu
            for s, k in enumerate(ks):
                c = codes[k]
                if c < 0:
                    continue
                if words_of is not None:
                    words = words_of[items[k][1]]
                else:
                    if texts is None:
                        texts = outcome.result_texts()
                    words = texts.get(self.table.texts[c], [])
                if words:  # (an order that succeeded has none: 0)
                    bits = 0
                    for w in words:
                        bits |= _RESULT_BIT.get(w, 0)
                    at.append(base + s)
                    got_bits.append(bits)
        if at:
            out.reshape(-1)[at] = got_bits
        return out

    def _end_rewards(self, rewards: dict[str, float]) -> None:
        g = self.game
        pos = g.position
        alive = sorted({u.power for u in pos.units} | {o for o in pos.owners if o >= 0})
        winners = list(g.winners) if g.is_over else []
        status = g.status if g.is_over else "cut"
        self._scores = end_scores(self.scoring, self._counts, self.powers, status, winners,
                                  alive)
        for a in rewards:
            p = self.power_index[a]
            if self.scoring == "win":
                if g.is_over and p in g.winners:
                    rewards[a] += self.win_reward if g.status == "won" else self.draw_reward
            else:
                rewards[a] += self.score_reward * self._scores[p]

    # ---- encoding (once a step, shared by every agent) ----------------------------------

    def _board(self, pos: Any) -> dict[str, np.ndarray]:
        """The board's arrays (shared by every agent)."""
        m = self.m
        n_pw, n_kind = len(m.powers), len(m.kinds)
        shape = (m.n_loc, n_kind, n_pw)
        cache = self._cache
        # arrays are read-only, so one unchanged since the last step is given again
        if pos.units is cache.get("units_of"):
            units = self._shared["units"]
        else:
            units = _frozen(np.bincount(
                [(u.loc * n_kind + u.kind) * n_pw + u.power for u in pos.units],
                minlength=self._board_size).astype(np.int8).reshape(shape))
            cache["units_of"] = pos.units
        if pos.dislodged:
            dislodged = _frozen(np.bincount(
                [(d.loc * n_kind + d.kind) * n_pw + d.power for d in pos.dislodged],
                minlength=self._board_size).astype(np.int8).reshape(shape))
        else:
            dislodged = self._no_dislodged
        if pos.owners == cache.get("owners"):
            centers = self._shared["centers"]
        else:
            owners = np.asarray(pos.owners, np.int64)
            centers = np.zeros((m.n_prov, n_pw), np.int8)
            held = np.flatnonzero(owners >= 0)
            centers[held, owners[held]] = 1
            centers = _frozen(centers)
            cache["owners"] = list(pos.owners)
        ph = pos.phase
        phase = cache.get((ph.season, ph.type))
        if phase is None:
            phase = np.zeros(len(self.seasons) + len(PHASE_TYPES), np.int8)
            phase[self.seasons.index(ph.season)] = 1
            phase[len(self.seasons) + PHASE_TYPES.index(ph.type)] = 1
            phase = cache[(ph.season, ph.type)] = _frozen(phase)
        year = cache.get(ph.year)
        if year is None:
            year = cache[ph.year] = _frozen(np.array([ph.year - self.first_year], np.int32))
        return {"units": units, "dislodged": dislodged, "centers": centers, "phase": phase,
                "year": year, "prev_orders": self._prev_orders,
                "prev_results": self._prev_results}

    def _encode(self) -> None:
        g = self.game
        pos = g.position
        self._shared = self._board(pos)
        n_ag, mu, mo = len(self.powers), self.max_units, self.max_orders
        mine: dict[int, list[int]] = {p: [] for p in self.powers}
        dropped = self._dropped = dict.fromkeys(self.powers, 0)
        cut = self._cut = dict.fromkeys(self.powers, 0)
        if g.is_over:
            items: list[tuple[int, int]] = []
            lists: list[list[int]] = []
        else:
            items, lists = g.items(), g.legal()
        board = pos.units if pos.phase.type == "M" else pos.dislodged
        row_of = self._row
        vals: list[int] = []
        lens: list[int] = []
        cell_r: list[int] = []  # per listed slot: its agent's row, its slot, its start in vals
        cell_s: list[int] = []
        starts: list[int] = []
        slot_at: list[int] = []
        slot_loc: list[int] = []
        for k, (p, i) in enumerate(items):  # one pass, in the fast path's item order
            ks = mine.get(p)
            if ks is None:
                continue  # (a neutral power's item)
            s = len(ks)
            if s >= mu:
                dropped[p] += 1
                continue
            ks.append(k)
            r = row_of[p]
            if i >= 0:
                slot_at.append(r * mu + s)
                slot_loc.append(board[i].loc)
            lst = lists[k]
            if lst:
                if len(lst) > mo:
                    cut[p] += len(lst) - mo
                    lst = lst[:mo]
                cell_r.append(r)
                cell_s.append(s)
                starts.append(len(vals))
                vals.extend(lst)
                lens.append(len(lst))
        rows = max(1, max(map(len, mine.values()), default=1))
        cols = max(1, max(lens, default=1))
        legal = np.full((n_ag, rows, cols), -1, np.int32)
        n_legal = np.zeros((n_ag, rows), np.int32)
        if vals:  # one scatter: each slot's codes from its cell's start, in order
            cell = np.asarray(cell_r) * rows + cell_s
            n_legal.reshape(-1)[cell] = lens
            at = np.repeat(cell * cols - starts, lens) + np.arange(len(vals))
            legal.reshape(-1)[at] = vals
        slots = np.full((n_ag, mu), -1, np.int32)
        if slot_at:
            slots.reshape(-1)[slot_at] = slot_loc
        self._n_legal = _frozen(n_legal)
        self._items, self._mine = items, mine
        self._legal, self._slots = _frozen(legal), _frozen(slots)
        if self.action_type == "index":
            mask = np.zeros((n_ag * rows + 1, mo), np.int8)
            mask[: n_ag * rows, :cols] = (legal >= 0).reshape(n_ag * rows, cols)
            self._mask = _frozen(mask)
            self._mask_rows = rows

    def _observations(self) -> dict[str, dict[str, Any]]:
        out = {}
        shared, legal, slots, n_legal = self._shared, self._legal, self._slots, self._n_legal
        index = self.action_type == "index"
        for a in self.agents:
            p = self.power_index[a]
            r = self._row[p]
            obs: dict[str, Any] = dict(shared)
            obs["power"] = self._power_rows[p]
            obs["slots"] = slots[r]
            obs["legal"] = legal[r]
            obs["n_legal"] = n_legal[r]
            if index:
                rows, mask = self._mask_rows, self._mask
                empty = mask[-1]
                obs["action_mask"] = tuple(
                    mask[r * rows + s] if s < rows else empty for s in range(self.max_units))
            out[a] = obs
        return out

    def _info(self, agent: str, phase: str) -> dict[str, Any]:
        p = self.power_index[agent]
        info: dict[str, Any] = {
            "phase": phase, "centers": self._counts[p],
            "dropped": {"items": self._dropped[p], "orders": self._cut[p]}}
        if self._scores is not None:
            info["score"] = self._scores[p]
        return info

    def render(self) -> None:  # pragma: no cover - no render modes
        return None

    def close(self) -> None:
        return None


def sample_actions(env: DiplomacyEnv, obs: dict[str, dict[str, Any]] | None,
                   rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A uniformly random legal action for every live agent (the masked-sampling recipe of
    docs/env.md, in numpy, all agents at once on the step's shared `env.legal`): one draw of
    `rng.random((len(env.agents), max_units))`, slot s of an agent taking the legal order at
    floor(u × its number of legal orders); a slot with none gets -1 (no order). Each action
    is as long as the observation's `legal` rows."""
    agents = env.agents
    if not agents:
        return {}
    if len(agents) == len(env.possible_agents):
        legal, n = env.legal, env.n_legal
    else:
        live = [env.agent_row[a] for a in agents]
        legal, n = env.legal[live], env.n_legal[live]
    a_n, rows, cols = legal.shape
    u = rng.random((a_n, env.max_units))
    idx = (u[:, :rows] * n).astype(np.intp)
    if env.action_type == "code":  # each slot's code at its flat offset in `legal`
        act = legal.ravel()[idx + np.arange(0, a_n * rows * cols, cols).reshape(a_n, rows)]
    else:
        act = np.where(n > 0, idx, -1)
    return dict(zip(agents, act, strict=True))


def parallel_env(variant: str = "standard", **kwargs: Any) -> DiplomacyEnv:
    """PettingZoo's conventional constructor name."""
    return DiplomacyEnv(variant, **kwargs)
