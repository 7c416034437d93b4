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

import math
import operator
import struct
from typing import Any, ClassVar, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from polydip.adjudication.movement import RESULT_BITS
from polydip.env.layout import count_units, draw, pack_cells, read_units
from polydip.env.press import MAX_MESSAGES, NO_MESSAGES, EnvPress
from polydip.errors import PolydipError, int_given
from polydip.fast import FastGame
from polydip.game.press import MAX_TEXT, Message, PressError
from polydip.game.victory import center_counts

PHASE_TYPES = ("M", "R", "A")
SCORINGS = ("win", "sos", "dss")
# the result words of an order (polydip.adjudication.reasons.ResultWord), one bit each in
# `prev_results` (0: the order succeeded, or there was no order); the movement words first,
# with the adjudicator's bits (`MovementResult.failed`)
RESULT_WORDS = (*RESULT_BITS, "disband", "civil disorder")
_RESULT_BIT = {w: 1 << i for i, w in enumerate(RESULT_WORDS)}
# an observation's keys, in order (index actions: and "action_mask")
OBSERVATION_KEYS = ("units", "dislodged", "centers", "phase", "year", "prev_orders",
                    "prev_results", "power", "slots", "legal", "n_legal")
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
                 max_phases: int | None = None, press: str = "full",
                 max_message_length: int = MAX_TEXT, max_messages: int = MAX_MESSAGES
                 ) -> None:
        if action_type not in ("code", "index"):
            raise ValueError(f"action_type {action_type!r}: use 'code' or 'index'")
        if scoring not in SCORINGS:
            raise ValueError(f"scoring {scoring!r}: use one of {', '.join(SCORINGS)}")
        for name, val in (("max_units", max_units), ("max_orders", max_orders),
                          ("max_phases", max_phases), ("max_year", max_year)):
            if val is not None and (not isinstance(val, int) or isinstance(val, bool)
                                    or val < 1):
                raise ValueError(f"{name} must be a positive integer (got {val!r})")
        for what, amount in (("center_reward", center_reward), ("win_reward", win_reward),
                             ("draw_reward", draw_reward), ("score_reward", score_reward)):
            if isinstance(amount, bool) or not isinstance(amount, (int, float)) \
                    or not math.isfinite(amount):
                raise ValueError(f"{what} must be a number (got {amount!r})")
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
        self.press = press
        self._press = EnvPress(m, {a: m.powers[p] for a, p in self.power_index.items()},
                               press, max_message_length, max_messages)
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
        self._spaces: tuple[spaces.Dict, spaces.MultiDiscrete] | None = None  # (made when
        self._seed: int | None = None  # first asked for: they cost more than a game's reset)
        self._power_rows = list(_frozen(np.eye(n_pw, dtype=np.int8)))  # (the same views)
        self._no_dislodged = _frozen(np.zeros((m.n_loc, n_kind, n_pw), np.int8))
        self._no_results = _frozen(np.zeros((n_ag, self.max_units), np.uint8))
        self._no_prev = b"\xff" * (4 * n_ag * self.max_units)  # (agents, max_units) of -1
        # pack_cells' padding, -1 (four 0xFF bytes) and 0s: a row of slots; _encode makes
        # them longer when a row of legal (rows × cols) needs more
        self._minus = b"\xff" * (4 * self.max_units)
        self._zeros = bytes(4 * self.max_units)
        self._columns = np.arange(max_orders, dtype=np.int32)  # (a legal row's columns)
        self._n_ag, self._n_kinds, self._n_powers = n_ag, n_kind, n_pw
        self._board_shape = (m.n_loc, n_kind, n_pw)
        # per power its agent row (-1: a neutral power); per agent (name, power, row)
        self._row_list = [self._row.get(p, -1) for p in range(n_pw)]
        self._agent_rows = [(a, p, self._row[p]) for a, p in self.power_index.items()]
        self._counts: list[int] = []
        self._phases = 0
        self._scores: dict[int, float] | None = None
        self._sampled: tuple[Any, ...] | None = None  # (sample_actions' draw of this step)
        self._cells: list[int] = []  # (per item of the phase, its cell: _encode)
        # the phase and year arrays made so far, by (season, type) and by year (read-only,
        # kept from game to game)
        self._cache: dict[Any, np.ndarray] = {}
        self._no_drops = [0] * n_ag  # (per row: no item dropped, no code cut; never changed)
        self._illegal = self._no_drops  # per row: the last step's actions that were not legal

    # ---- spaces (the same object every call, as PettingZoo requires) ---------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self._the_spaces()[0]

    def action_space(self, agent: str) -> spaces.Space:
        return self._the_spaces()[1]

    def _the_spaces(self) -> tuple[spaces.Dict, spaces.MultiDiscrete]:
        """The observation and action spaces (one of each, the same objects every call, as
        PettingZoo requires), seeded by the last reset's seed."""
        if self._spaces is None:
            m, max_orders, action_type = self.m, self.max_orders, self.action_type
            n_pw, n_kind, n_ag = self._n_powers, self._n_kinds, self._n_ag
            obs = spaces.Dict({
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
            act = spaces.MultiDiscrete(np.full(self.max_units, n, dtype=np.int64))
            self._spaces = (obs, act)
            if self._seed is not None:
                obs.seed(self._seed)
                act.seed(self._seed)
        return self._spaces

    # ---- the episode --------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        if seed is not None:
            self._seed = seed
            if self._spaces is not None:
                for space in self._spaces:
                    space.seed(seed)
        self.game = self._start.clone()
        self.agents = list(self.possible_agents)
        pos = self.game.position
        self._owners = pos.owners  # (the owners `_counts` counts)
        self._counts = center_counts(self.m, pos.owners)
        self._phases = 0
        self._scores = None
        self._press.reset()
        self._illegal = self._no_drops
        self._prev_orders = np.ndarray((self._n_ag, self.max_units), np.int32,
                                       self._no_prev)
        self._prev_results = self._no_results
        # the observation's keys, in order, the board's arrays set by _board; an agent's
        # observation is a copy with its own arrays in place of the last ones (a copy of a
        # dict that has every key already is made in one piece: adding keys to a copy of
        # the board's alone grew each agent's dict as it went)
        self._shared: dict[str, Any] = dict.fromkeys(OBSERVATION_KEYS)
        if self.action_type == "index":
            self._shared["action_mask"] = None
        # what the shared board arrays were made from (a new position's parts are compared
        # by identity: positions share the lists a phase did not change)
        self._units_of: Any = None
        self._owners_of: Any = None
        self._phase_of: Any = None
        self._encode()
        rows_of = self._live_rows()
        return self._observations(rows_of), self._infos(rows_of)

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        g = self.game
        if g.is_over or not self.agents:
            raise PolydipError("the episode is over: call reset()")
        if not hasattr(self, "_mine"):
            raise PolydipError("call reset() before the first step()")
        given: Any = actions  # (typed as PettingZoo's API says; a caller may pass anything)
        if not isinstance(given, dict):
            raise PolydipError(f"step takes a dict of agent -> action, not "
                               f"{type(given).__name__}")
        self._illegal = self._no_drops  # (per row; _read_actions: others)
        codes, prev = self._drawn(actions) or self._read_actions(actions)
        before = g.position
        press = self._press  # the messages of the phase played, if any
        sent = press.end_phase() if press.waiting else None
        outcome = g.step_legal(codes)  # (codes of the legal lists: checked or drawn)
        self._phases += 1
        self._prev_orders = np.ndarray((self._n_ag, self.max_units), np.int32, prev)
        self._prev_results = self._results(before, outcome, codes)
        live = self.agents
        pos = g.position
        counts = self._counts
        if pos.owners is not self._owners:  # (positions share owners a phase left alone)
            self._owners = pos.owners
            counts = center_counts(self.m, pos.owners)
        pi = self.power_index
        if counts is self._counts:
            rewards = dict.fromkeys(live, 0.0)
        else:
            old, cr = self._counts, self.center_reward
            rewards = {a: cr * (counts[pi[a]] - old[pi[a]]) for a in live}
            self._counts = counts
        over = self.game.is_over  # (not g.is_over: mypy keeps it narrowed from above)
        year = pos.phase.year
        truncated_all = not over and (
            year > self.max_year
            or (self.max_phases is not None and self._phases >= self.max_phases))
        if over:
            terminations = dict.fromkeys(live, True)
        else:
            centerless = [a for a in live if not counts[pi[a]]] if 0 in counts else None
            if centerless:  # a power with no center and no unit is out
                have = {u.power for u in pos.units} | {d.power for d in pos.dislodged}
                out = {a for a in centerless if pi[a] not in have}
                terminations = {a: a in out for a in live}
            else:
                terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, truncated_all)
        if over or truncated_all:
            self._end_rewards(rewards)
        self._encode()
        rows_of = self._live_rows()
        obs = self._observations(rows_of)
        infos = self._infos(rows_of)
        if sent:
            for a, got in self._press.inboxes(sent, live).items():
                infos[a]["messages"] = got
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        return obs, rewards, terminations, truncations, infos

    def _drawn(self, actions: dict[str, Any]) -> tuple[list[int], bytes] | None:
        """The codes `sample_actions` drew for this step and their previous-orders bytes,
        when `actions` is what it returned: the same array objects for the same agents, in
        order, none changed since (the bytes compared); else None (checked as any action)."""
        got = self._sampled
        if got is None:
            return None
        self._sampled = None
        base, data, views, codes, prev = got
        if (len(actions) != len(views) or list(actions) != self.agents
                or not all(map(operator.is_, actions.values(), views))
                or base.tobytes() != data):
            return None
        return codes, prev

    def _read_actions(self, actions: dict[str, Any]) -> tuple[list[int], bytes]:
        """The code each item plays (-1: no order) and the previous-orders array's bytes
        ((agents, max_units) int32, -1 where no order): an action's code (or the code at
        its index) when it is one of its slot's legal codes, else no order (counted per
        agent in `_illegal` unless it is -1, the action that asks for no order). A finished
        agent's action is ignored."""
        lists, mine, live = self._lists, self._mine, self.agents
        bad = [0] * self._n_ag  # per row: actions that were not legal (played as no order)
        codes = [-1] * self._n_items
        prev = bytearray(self._no_prev)
        played = memoryview(prev).cast("i")
        row_of, mu = self.agent_row, self.max_units
        index = self.action_type == "index"
        given = self._all_at_once(actions)  # every agent's vector in agent order, at once
        pairs = actions.items() if given is None else zip(live, given, strict=True)
        for agent, action in pairs:
            r = row_of.get(agent)
            if r is None:
                raise PolydipError(self._unknown_agent(agent))
            ks = mine[r]
            if not ks or agent not in live:
                continue  # nothing to order, or a finished agent
            if given is not None:
                acts = action
            elif (type(action) is np.ndarray and action.ndim == 1
                    and action.dtype.kind == "i" and action.shape[0] >= len(ks)):
                acts = action.tolist()
            else:
                acts = self._action_ints(agent, action, len(ks))
            at = r * mu
            if index:
                for s, k in enumerate(ks):
                    a, lst = acts[s], lists[k]
                    if 0 <= a < len(lst):
                        codes[k] = played[at + s] = lst[a]
                    elif a != -1:
                        bad[r] += 1
            else:
                for s, k in enumerate(ks):
                    a = acts[s]
                    if a in lists[k]:  # (not one of the slot's legal codes: no order)
                        codes[k] = played[at + s] = a
                    elif a != -1:
                        bad[r] += 1
        if any(bad):
            self._illegal = bad
        return codes, bytes(prev)

    def _all_at_once(self, actions: dict[str, Any]) -> list[list[int]] | None:
        """Every live agent's action as lists of ints, when the actions are every agent's,
        in agent order, integer vectors of one length with a slot for every item (as
        sample_actions gives them): one numpy call instead of one an agent."""
        if len(actions) != len(self.agents) or list(actions) != self.agents:
            return None
        try:
            got = np.array(list(actions.values()))
        except (ValueError, TypeError):  # (vectors of different lengths, ...)
            return None
        if got.ndim != 2 or got.dtype.kind != "i" or got.shape[1] < max(self._items_of):
            return None
        return got.tolist()

    def _action_ints(self, agent: str, action: Any, need: int) -> list[int]:
        """An action that is not a long enough vector of integers, read or refused."""
        if isinstance(action, np.ndarray) and (action.ndim != 1
                                               or action.dtype.kind not in "iu"):
            raise PolydipError(f"the action of {agent} must be one vector of "
                               f"{self.max_units} integers (got shape {action.shape}, "
                               f"{action.dtype})")
        try:
            acts = action.tolist() if isinstance(action, np.ndarray) else list(action)
        except TypeError:
            raise PolydipError(f"the action of {agent} must be a sequence of "
                               f"{self.max_units} integers, not {action!r}") from None
        if len(acts) < need:
            raise PolydipError(f"the action of {agent} has {len(acts)} slots for "
                               f"{need} items: give {self.max_units} integers (at least "
                               f"one per item, {need}; -1 for no order)")
        ints = [int_given(x) for x in acts[:need]]  # (a float or a bool is not cut or read
        if None in ints:  # as an int)
            raise PolydipError(f"the action of {agent} must be a sequence of "
                               f"integers, not {action!r}"[:300])
        return cast("list[int]", ints)

    # ---- press (env/press.py) ------------------------------------------------------------

    def send(self, sender: str, recipients: str | list[str] | tuple[str, ...],
             text: str) -> Message:
        """Send a message of the current phase from the agent `sender` to `recipients`
        (GLOBAL, an agent, or a list of agents), before the step that plays the phase; each
        recipient reads it in that step's `infos[agent]["messages"]`. A message the press
        rule or a limit refuses, or whose names or text are bad, raises a PressError with
        a code."""
        g = self.game
        if g.is_over or not self.agents:
            raise PressError("the episode is over: call reset()", "press_closed")
        ph = g.position.phase
        return self._press.send(ph.name, f"{ph.season}{ph.year:04d}{ph.type}", self.agents,
                                sender, recipients, text)

    @property
    def messages(self) -> list[Message]:
        """Every message of the game so far, in the order sent (polydip.game.press.Message:
        power names as the variant spells them, as Game.messages)."""
        return list(self._press.messages)

    def messages_json(self) -> list[dict[str, Any]]:
        """The game's messages in the `diplomacy` package's shape (the "messages" of its
        saved game's phases): sender, recipient (GLOBAL or one power, upper case),
        time_sent, phase, message; a message to several powers is one to each."""
        return self._press.package_json()

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

    def _results(self, before: Any, outcome: Any, codes: list[int]) -> np.ndarray:
        """Per agent and slot, the result words of the order just played as bits (0: it
        succeeded, or no order). Only the orders that did not succeed are looked at: in a
        movement phase the adjudicator writes their bits at their cells (item k is unit k;
        an item given no order, -1, has none)."""
        n = self._n_ag * self.max_units
        out = bytearray(n)
        cells = self._cells  # (an item with a code is an agent's, in its first max_units)
        if before.phase.type == "M":
            at = cells if -1 not in codes else [
                -1 if c < 0 else cell for cell, c in zip(cells, codes, strict=True)]
            outcome.failed_into(out, at)
            if out.count(0) == n:
                return self._no_results
        else:
            failed = self._failed_given(outcome, codes, before.phase.type == "R")
            if not failed:
                return self._no_results
            for k, bits in failed.items():
                out[cells[k]] = bits
        return np.ndarray((self._n_ag, self.max_units), np.uint8, bytes(out))

    def _failed_given(self, outcome: Any, codes: list[int], retreats: bool
                      ) -> dict[int, int]:
        """Retreats and adjustments: item → result bits of the orders played that did not
        succeed, from the outcome's words of the orders as given (`given_words`, without
        the orders' texts): of a retreat phase per dislodged unit, i.e. per item; of an
        adjustment phase per order given, power by power, which is item order without the
        items given none (-1)."""
        bit = _RESULT_BIT
        failed: dict[int, int] = {}
        given = outcome.given_words()
        i = 0
        for k, c in enumerate(codes):
            if c < 0:
                continue
            words = given[k] if retreats else given[i]
            i += 1
            if words:
                bits = 0
                for w in words:
                    bits |= bit.get(w, 0)
                failed[k] = bits
        return failed

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

    def _board(self, pos: Any, units: bytearray | None, dislodged: bytearray | None
               ) -> None:
        """The board's arrays, shared by every agent; an array whose part of the position
        did not change since the last step is the same (read-only) object again. `units`,
        `dislodged`: the position's units or dislodged units already counted, if they
        were."""
        m = self.m
        shared = self._shared
        if pos.units is not self._units_of:
            shared["units"] = self._counted(pos.units, units)
            self._units_of = pos.units
        shared["dislodged"] = self._counted(pos.dislodged, dislodged) if pos.dislodged \
            else self._no_dislodged
        if pos.owners is not self._owners_of:
            npw = self._n_powers
            held = bytearray(m.n_prov * npw)
            for c, o in enumerate(pos.owners):
                if o >= 0:
                    held[c * npw + o] = 1
            shared["centers"] = np.ndarray((m.n_prov, npw), np.int8, bytes(held))
            self._owners_of = pos.owners
        ph = pos.phase
        if ph is not self._phase_of:
            cache = self._cache
            phase = cache.get((ph.season, ph.type))
            if phase is None:
                phase = np.zeros(len(self.seasons) + len(PHASE_TYPES), np.int8)
                phase[self.seasons.index(ph.season)] = 1
                phase[len(self.seasons) + PHASE_TYPES.index(ph.type)] = 1
                phase = cache[(ph.season, ph.type)] = _frozen(phase)
            year = cache.get(ph.year)
            if year is None:  # (made on bytes: read-only, one numpy call)
                year = cache[ph.year] = np.ndarray(
                    (1,), np.int32, struct.pack("i", ph.year - self.first_year))
            shared["phase"], shared["year"] = phase, year
            self._phase_of = ph
        shared["prev_orders"] = self._prev_orders
        shared["prev_results"] = self._prev_results

    def _counted(self, units: list[Any], counted: bytearray | None) -> np.ndarray:
        """(locations, kinds, powers) int8, read-only: how many of `units` are there
        (`counted`: already counted, by read_units)."""
        return np.ndarray(self._board_shape, np.int8, bytes(counted) if counted is not None
                          else count_units(units, self._board_size, self._n_kinds,
                                           self._n_powers))

    def _encode(self) -> None:
        """The step's observation arrays: the board (`_board`) and, per agent and slot, the
        slot's legal codes, their number and the slot's location, from the fast path's
        items and legal lists.

        Numpy is called a few times a step only (each call costs a few µs in the loop): the
        integers and their padding are laid out in cell order by one `struct` call
        (polydip.env.layout.pack_cells, compiled in the compiled build; struct packs Python
        ints about twice as fast as np.fromiter or np.array, and copies the padding from
        bytes); `_arrays` makes the arrays on those bytes."""
        g = self.game
        pos = g.position
        self._sampled = None
        n_ag, mu, mo = self._n_ag, self.max_units, self.max_orders
        typ = pos.phase.type
        row_of = self._row_list
        # per agent row its items (slots), per item its cell; a neutral power's items are
        # no agent's. Movement and retreats: item k is unit k (of the units, the dislodged
        # ones), counted for the board in the same pass
        units_board: bytearray | None = None
        dislodged_board: bytearray | None = None
        lists: list[list[int]] = []
        locs: list[list[int]] | None = None  # (per row its slots' locations)
        if g.is_over:
            mine: list[list[int]] = [[] for _ in range(n_ag)]
            cells: list[int] = []
        elif typ == "A":
            items = g.items()
            mine = [[] for _ in range(n_ag + 1)]  # (row -1: a neutral power's)
            cells = []
            for k, (p, _i) in enumerate(items):
                r = row_of[p]
                ks = mine[r]
                cells.append(r * mu + len(ks))
                ks.append(k)
            mine.pop()
            lists = g.legal()
        elif typ == "M":
            if pos.units is not self._units_of:
                units_board = bytearray(self._board_size)
            mine, cells, locs = read_units(pos.units, row_of, n_ag, mu, units_board,
                                           self._n_kinds, self._n_powers)
            lists = g.legal()
        else:
            dislodged_board = bytearray(self._board_size)
            mine, cells, locs = read_units(pos.dislodged, row_of, n_ag, mu, dislodged_board,
                                           self._n_kinds, self._n_powers)
            lists = g.legal()
        self._n_items = len(cells)
        self._cells = cells
        self._board(pos, units_board, dislodged_board)
        count = list(map(len, mine))
        longest = max(map(len, lists), default=0)
        self._dropped = self._cut = self._no_drops  # per row (_limit: others)
        if max(count, default=0) > mu or longest > mo:
            lists, count, longest = self._limit(mine, lists)
        rows, cols = max(1, max(count, default=1)), max(1, longest)
        if len(self._minus) < 4 * rows * cols:  # (the padding a row of legal may take)
            self._minus = b"\xff" * (4 * rows * cols)
            self._zeros = bytes(4 * rows * cols)
        packed = pack_cells(lists, mine, locs, rows, cols, mu, self._minus, self._zeros)
        self._legal, self._n_legal, self._slots, within = self._arrays(packed, rows, cols)
        self._mine, self._lists = mine, lists
        self._items_of, self._rows = count, rows
        if self.action_type == "index":
            mask = np.zeros((n_ag * rows + 1, mo), np.int8)
            assert within is not None  # (made for the index actions)
            mask[: n_ag * rows, :cols] = within.reshape(n_ag * rows, cols)
            self._mask = _frozen(mask)

    def _arrays(self, packed: bytes, rows: int, cols: int
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
        """`_encode`'s legal, n_legal and slots arrays, made on the bytes `pack_cells` laid
        out (read-only: an array made on bytes is), and (index actions only) the cells of
        legal that hold a code, a bool array of legal's shape."""
        n_ag, mu = self._n_ag, self.max_units
        n_legal = np.ndarray((n_ag, rows), np.int32, packed)
        slots = np.ndarray((n_ag, mu), np.int32, packed, 4 * n_ag * rows)
        legal = np.ndarray((n_ag, rows, cols), np.int32, packed, 4 * n_ag * (rows + mu))
        within = self._columns[:cols] < n_legal[:, :, None] if self.action_type == "index" \
            else None
        return legal, n_legal, slots, within

    def _limit(self, mine: list[list[int]], lists: list[list[int]]
               ) -> tuple[list[list[int]], list[int], int]:
        """(rare) Items past max_units take no order and codes past max_orders are cut,
        each counted in `infos[agent]["dropped"]`: the lists cut, the items per row, the
        longest list."""
        mu, mo = self.max_units, self.max_orders
        self._dropped, self._cut = [0] * self._n_ag, [0] * self._n_ag
        for r, ks in enumerate(mine):
            if len(ks) > mu:
                self._dropped[r] = len(ks) - mu
                del ks[mu:]
        lists = list(lists)
        for r, ks in enumerate(mine):
            for k in ks:
                if len(lists[k]) > mo:
                    self._cut[r] += len(lists[k]) - mo
                    lists[k] = lists[k][:mo]
        kept = [len(lists[k]) for ks in mine for k in ks]
        return lists, list(map(len, mine)), max(kept, default=0)

    def _live_rows(self) -> list[tuple[str, int, int]]:
        """(agent, power, row) of each live agent, in agent order."""
        if len(self.agents) == self._n_ag:
            return self._agent_rows
        live = set(self.agents)
        return [x for x in self._agent_rows if x[0] in live]

    def _observations(self, rows_of: list[tuple[str, int, int]]
                      ) -> dict[str, dict[str, Any]]:
        """Per live agent (`rows_of`: _live_rows) its observation."""
        shared = self._shared
        # (each agent's row a view; list() makes them in one C loop)
        legal, slots, n_legal = list(self._legal), list(self._slots), list(self._n_legal)
        power_rows = self._power_rows
        out = {}
        for a, p, r in rows_of:
            obs: dict[str, Any] = shared.copy()
            obs["power"] = power_rows[p]
            obs["slots"] = slots[r]
            obs["legal"] = legal[r]
            obs["n_legal"] = n_legal[r]
            out[a] = obs
        if self.action_type == "index":
            rows, mask = self._rows, self._mask
            empty = mask[-1]
            for a, _p, r in rows_of:
                out[a]["action_mask"] = tuple(
                    mask[r * rows + s] if s < rows else empty
                    for s in range(self.max_units))
        return out

    def _infos(self, rows_of: list[tuple[str, int, int]]) -> dict[str, dict[str, Any]]:
        """Per live agent (`rows_of`: _live_rows) its infos."""
        phase = self.game.phase
        counts, dropped, cut, illegal = self._counts, self._dropped, self._cut, self._illegal
        infos = {a: {"phase": phase, "centers": counts[p],
                     "dropped": {"items": dropped[r], "orders": cut[r]},
                     "illegal": illegal[r], "messages": NO_MESSAGES}
                 for a, p, r in rows_of}
        scores = self._scores
        if scores is not None:
            for a, p, _r in rows_of:
                infos[a]["score"] = scores[p]
        return infos

    def render(self) -> None:  # pragma: no cover - no render modes
        return None

    def close(self) -> None:
        return None


def sample_actions(env: DiplomacyEnv, obs: dict[str, dict[str, Any]] | None,
                   rng: np.random.Generator) -> dict[str, np.ndarray]:
    """A uniformly random legal action for every live agent (the masked-sampling recipe of
    docs/env.md, for all agents at once): one draw of `rng.random((len(env.agents),
    max_units))`, slot s of an agent taking the legal order at floor(u × its number of legal
    orders); a slot with none gets -1 (no order). Each action is as long as the
    observation's `legal` rows: the rows of one (agents, rows) int64 array. (`obs` is not
    read: the codes are the step's, kept by the env as lists, which a few dozen slots are
    read from faster than through numpy.)

    The env remembers what it drew: when `step` is given these very arrays, unchanged
    (compared byte for byte), for the same agents, it plays the codes drawn without checking
    them against the legal lists again (they were drawn from them)."""
    agents = env.agents
    if not agents:
        return {}
    rows, mine, lists, row_of = env._rows, env._mine, env._lists, env.agent_row
    # (each agent's whole row drawn, the first `rows` of each read: `draw` reads no more,
    # and turning the others into Python floats took about half the time of the line)
    draws = rng.random((len(agents), env.max_units))[:, :rows].tolist()
    code = env.action_type == "code"
    codes = [-1] * env._n_items  # per item, the code drawn (for step)
    prev = bytearray(env._no_prev)  # the previous-orders array step makes of them
    played = memoryview(prev).cast("i")
    out = draw(draws, [row_of[a] for a in agents], mine, lists, rows, env.max_units, code,
               codes, played)
    # (packed by struct and made an array on a copy it may write: one numpy call, where
    # np.fromiter, reshape and tobytes were three, each slower than its instructions say)
    packed = struct.pack(f"{len(out)}q", *out)
    base = np.ndarray((len(agents), rows), np.int64, bytearray(packed))
    views = list(base)
    env._sampled = (base, packed, views, codes, bytes(prev))
    return dict(zip(agents, views, strict=True))


def parallel_env(variant: str = "standard", **kwargs: Any) -> DiplomacyEnv:
    """PettingZoo's conventional constructor name."""
    return DiplomacyEnv(variant, **kwargs)
