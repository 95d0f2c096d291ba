"""Many tables at once: a Gymnasium vector environment, and trajectories gathered across processes.

* :class:`VectorEnv`: ``num_envs`` tables of :class:`~cardgame.rl.gym.SingleAgentEnv` (one learning
  seat each, bots at the others) stepped by one call, a :class:`gymnasium.vector.VectorEnv`
  resetting a table as soon as its episode ends (``AutoresetMode.SAME_STEP``). Observations,
  masks, rewards, terminations and truncations are numpy arrays of one row per table, written
  in place every step (``dict_obs=False``: the observations alone, ``(num_envs, obs_dim)``; the
  masks from :meth:`VectorEnv.action_masks`). ``workers=k`` steps the tables on ``k`` processes
  (:mod:`cardgame.rl.workers`), with the same arrays.
* :func:`collect`: self-play data: every decision of every seat (bots and :class:`Policy` objects)
  as arrays of observations, masks, actions and rewards, the episodes cut into shards played by
  :func:`cardgame.simulate.run_jobs` (serial, local processes or Ray) and seeded as
  :func:`cardgame.simulate.simulate` seeds its shards, so the data are the same for any number
  of workers and any backend.

See docs/rl.md ("Vectorised play").
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.legal import LegalActions
from cardgame.play import bots as named_bots
from cardgame.play.bot import (
    Bot,
    HandEvents,
    _play_answer,
    build_view,
    seat_rng,
    to_action,
    to_discards,
    to_runs,
)
from cardgame.play.game import Game, VariantLike
from cardgame.rl.actions import FixedLimit, Move, PotFractions, RaiseTo
from cardgame.rl.env import _BOT, _MOVE, _send, check_seed, no_episode, raw_env
from cardgame.rl.gym import SingleAgentEnv, _bot
from cardgame.rl.observe import _writer
from cardgame.rl.workers import Pool, cpus
from cardgame.simulate import BACKENDS, Shard, run_jobs, split

__all__ = ["MAX_TABLES", "Policy", "Trajectories", "VectorEnv", "bot_index", "collect", "uniform"]

Array = npt.NDArray[Any]

_DONE = operator.attrgetter("_done")  # (a table's episode ended: read for the batch in C)

#: The most tables a :class:`VectorEnv` holds.
MAX_TABLES = 10_000


def _moved(env: SingleAgentEnv, aec: raw_env, game: Game, agent: str) -> float:
    """``aec._moved(agent)`` after ``agent`` moved at table ``env``, as far as the vector needs it; the learner's
    reward the move paid, and ``env._done`` set when the episode is over. The common step (no hand ended, someone
    to act) sets the two fields it changes; a move ending the episode's last hand, only the learner's reward
    and ``env._done`` (the vector deals the table again at once, which books a new episode); any other, the
    environment books itself."""
    played = game.ctx.hands_played
    if not aec._rewarded and not aec._auto_runs:
        if played == aec._played:
            d = game.dispatcher  # (Game.to_act, inline)
            seat = getattr(d.current, "to_act", None) if d.status == "running" else None
            if seat is not None:
                aec._cumulative_rewards[agent] = 0
                aec.agent_selection = aec.possible_agents[seat]
                return 0
        elif played >= aec.hands:  # (raw_env._advance: the episode is over, the learner paid its chips' change)
            env._done = True
            seat = env.seat
            player = game.ctx.table.seats[seat]
            chips = player.stack if player is not None else 0
            hand = game.ctx.hand
            if hand is not None and (hp := hand.by_seat.get(seat)) is not None:
                chips += hp.contributed
            return (chips - aec._paid[seat]) * aec._scale
    aec._moved(agent)
    env._done = aec.terminations[env.agent]
    return aec.rewards.get(env.agent, 0)


_BOT_MOVED = (_BOT, None)  # (a bot's answer in the undo log)


def _bots(env: SingleAgentEnv, aec: raw_env, game: Game) -> float:
    """``env._play_bots()``: the bots answer until the learner is asked or the episode ends; the learner's
    reward meanwhile. Each answer is booked as :func:`_moved` books it, the common one (no hand ended,
    someone to act) inline."""
    reward = 0.0
    agent = env.agent
    if env._done or aec.agent_selection == agent:
        return reward
    seats, quick_answers, labels, bots, log = aec._seat, env._quick, env._labels, env.bots, aec._log
    possible, cumulative = aec.possible_agents, aec._cumulative_rewards
    ctx, d = game.ctx, game.dispatcher
    lean, played, learner = not aec._auto_runs, aec._played, env.seat
    selected = aec.agent_selection
    seat = seats[selected]
    while True:
        quick = quick_answers[seat]
        legal = game.legal_actions() if quick is not None else None
        if legal is not None:  # a built-in bot's betting answer, from the question and its stream: no view
            assert quick is not None
            _play_answer(game, seat, legal, quick(legal, ctx.rng.stream(labels[seat])), bots[seat])
            log.append(_BOT_MOVED)
            if lean and ctx.hands_played == played and not aec._rewarded and d.status == "running":
                to_act = getattr(d.current, "to_act", None)
                if to_act is not None:  # (_moved's common step)
                    cumulative[selected] = 0
                    selected = aec.agent_selection = possible[to_act]
                    if to_act == learner:
                        return reward
                    seat = to_act
                    continue
            reward += _moved(env, aec, game, selected)
        else:
            aec.play_bot(bots[seat], seat_rng(game, seat), env._events)
            env._done = aec.terminations[agent]
            reward += aec.rewards.get(agent, 0)
        selected = aec.agent_selection
        if env._done or selected == agent:
            return reward
        seat = seats[selected]


def _play(env: SingleAgentEnv, game: Game, move: Move) -> tuple[float, bool]:
    """``env._play(move, False)`` without its info: the learner's ``move`` (legal), then the bots' answers until
    the learner is asked again or the episode ends; the reward and whether the episode ended (then the
    table's bookkeeping waits for :func:`_deal_again`)."""
    aec = env.aec
    _send(game, env.seat, move)
    aec._log.append((_MOVE, move))
    reward = env._carried + _moved(env, aec, game, env.agent) + _bots(env, aec, game)
    env._carried = 0.0
    return float(reward), env._done


def _deal_again(env: SingleAgentEnv) -> tuple[int, float]:
    """``env._begin(None)`` after :func:`_play` ended the episode: the next episode of the table's seed stream,
    dealt and played by the bots until the learner has a decision; the episodes skipped (ended before it
    had one) and its rewards in them."""
    aec = env.aec
    agent = env.agent
    skipped, skipped_reward = 0, 0.0
    while True:
        seed = aec._next_seed(None)
        game = aec._deal(seed, None)
        aec._first_seed = None
        aec._begin(game, seed, None)
        env._events = HandEvents()
        env._done = aec.terminations[agent]
        reward = aec.rewards.get(agent, 0) + _bots(env, aec, game)
        if not env._done:
            break
        skipped += 1
        skipped_reward += reward
        if skipped > 1000:
            raise ConfigError("1,000 episodes ended before the learner had a decision; check the stacks and the "
                              "variant.")
    env._carried = reward
    return skipped, skipped_reward


#: The betting question a table's mask was made for: its game and hand, the legal actions, the events logged
#: then (within a hand the log only grows: the same length is the same moment).
_Asked = tuple[Game | None, object, LegalActions | None, int]
_NOT_ASKED: _Asked = (None, None, None, -1)


class VectorEnv(gymnasium.vector.VectorEnv[Any, Array, Array]):
    """``num_envs`` tables, each a :class:`~cardgame.rl.gym.SingleAgentEnv` (``seat``, ``opponents``,
    ``players``, ``illegal`` and the environment ``options`` as it takes them), stepped together.

    ``step(actions)`` takes one index per table and returns ``(observations, rewards,
    terminations, truncations, infos)``: observations ``{"observation": float32[num_envs,
    obs_dim], "action_mask": int8[num_envs, n]}``, or with ``dict_obs=False`` the ``float32`` array
    alone (the masks: :meth:`action_masks`); rewards ``float64[num_envs]``; terminations and
    truncations ``bool[num_envs]`` (truncations stay ``False``). A table whose episode ended is
    dealt again in the same step: its row holds the new episode's first observation (the final
    one asks nothing and is not returned). ``infos`` is empty unless a table's new episode skipped
    hands (``"skipped"``, ``"skipped_reward"``, as :meth:`SingleAgentEnv.reset
    <cardgame.rl.gym.SingleAgentEnv.reset>` says) or ``illegal="passive"`` replaced an index
    (``"illegal"``), each with Gymnasium's ``"_key"`` mask of the tables concerned.

    ``reset(seed=s)`` seeds table ``i`` with ``s + i`` (or takes one seed per table); table ``i``
    then plays exactly as a lone ``SingleAgentEnv`` reset with that seed and reset with no seed
    after each episode. Without a seed each table draws its own from the operating system;
    ``seeds_used`` gives each table's (its episode's) seed, to replay it.

    A refused batch (an action refused at any table) raises
    :class:`~cardgame.model.errors.IllegalActionError` naming the table, and no table moves: each
    action is first checked against the mask of its table's last observation (a copy kept inside,
    so changing a returned array legalises nothing) or, unmarked, by the table itself; then each
    table is played, reset if its episode ended, and encoded into its row in one pass. A table
    driven by hand between steps (through ``envs[i]``) is checked against the mask of the step
    before.

    ``copy=False`` returns the arrays themselves, overwritten by the next step (no copy, as
    Gymnasium's ``SyncVectorEnv(copy=False)``). A bot object given as ``opponents`` is shared by
    every table; bot names give each table its own bots.

    ``workers=k`` (1 to the tables and the CPUs; 1, the default, steps every table in this process)
    steps the tables on ``k`` worker processes (:mod:`cardgame.rl.workers`): contiguous shards, each
    an in-process ``VectorEnv`` of its tables writing into shared memory that the returned arrays
    are views of (copied out with ``copy=True``). Everything above holds (the same arrays as one
    process, a refused batch moving no table, infos of every table); a bot's error in a worker is
    raised here, a worker that died raises :class:`~cardgame.rl.workers.WorkerError`; the bots and
    options must pickle (each worker has its own copy of a bot object) and ``envs`` is not
    available. ``close()``, garbage collection or the program's exit stop the workers.
    """

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": ["ansi"]}  # noqa: RUF012

    def __init__(
        self,
        variant: str | VariantLike = "NT",
        num_envs: int = 8,
        *,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "seed-ai",
        players: int = 2,
        illegal: str = "raise",
        dict_obs: bool = True,
        copy: bool = True,
        workers: int = 1,
        **options: Any,
    ) -> None:
        num_envs = check_int(num_envs, "num_envs (tables)", ConfigError, minimum=1, maximum=MAX_TABLES)
        for name, flag in (("dict_obs", dict_obs), ("copy", copy)):
            if type(flag) is not bool:
                raise ConfigError(f"{name} must be True or False, not {excerpt(flag)}.")
        if "render_mode" in options:
            raise ConfigError("A vector environment renders on demand: call render(), which gives every table's text.")
        cap = min(num_envs, cpus())
        workers = check_int(workers, f"workers (processes, at most the tables and the {cpus()} CPUs)", ConfigError,
                            minimum=1, maximum=cap)
        self._envs = [SingleAgentEnv(variant, seat, opponents, players, illegal=illegal, **options)
                      for _ in range(1 if workers > 1 else num_envs)]
        first = self._envs[0]
        self.num_envs = num_envs
        self.dict_obs = dict_obs
        self.copy = copy
        self.encoder = first.aec.encoder
        self.actions = first.aec.actions
        self.single_observation_space = first.observation_space if dict_obs else self.encoder.space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        size = self.encoder.space.shape[0]
        layout = [("float32", size), ("int8", self.actions.n), ("float64", 0), ("bool", 0)]
        self._pool: Pool | None = None
        if workers > 1:  # the tables on worker processes, writing into shared arrays
            self._envs = []
            self._pool = Pool(workers, num_envs, layout, VectorEnv, variant, dict(
                seat=seat, opponents=opponents, players=players, illegal=illegal, **options))
            self._bind(*self._pool.arrays())
        else:
            self._bind(*(np.zeros((num_envs, n), dtype) if n else np.zeros(num_envs, dtype) for dtype, n in layout))
        self._writes: list[Any] = [env.aec.encoder._write for env in self._envs]  # type: ignore[attr-defined]
        self._write_mask = self.actions._write_mask
        self._bet_key, self._bet_views = self.actions._bet_key, self.actions._bet_views
        # A step checks every table's action before any table moves. An index the mask of the table's last
        # observation marks is legal (the library's abstractions mark exactly the indices their decode takes):
        # checked against a private copy of the masks, without reading the table's game, which the step then
        # reads once; any other action is checked by the table. "passive" refuses nothing.
        self._legal = np.zeros_like(self._masks)
        self._legal_view = memoryview(self._legal)  # type: ignore[arg-type]  # (an item read is faster than numpy's)
        self._check_first = illegal == "raise"
        self._asked: list[_Asked] = [_NOT_ASKED] * num_envs
        self._tables = range(num_envs)
        self._first = 0  # (the first table's number, in messages: a worker's shard names the tables globally)
        self._trust_masks = type(self.actions) in (FixedLimit, PotFractions, RaiseTo)  # (not one of one's own)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._started = False

    def _bind(self, obs: Array, masks: Array, rewards: Array, terminations: Array) -> None:
        """Write the observations, masks, rewards and terminations into these arrays (a worker: its rows of the
        shared ones)."""
        self._obs, self._masks, self._rewards, self._terminations = obs, masks, rewards, terminations
        # the observations: each by its own environment's encoder, into its row of the batch zeroed at once;
        # the masks by the abstraction, each into its row
        self._rows = [_writer(row) for row in obs]  # (each row's memoryview, made once)
        self._mask_rows = list(masks)
        self._mask_writers = [memoryview(row) for row in masks]
        # each table's reward and termination written in place (typeshed: a memoryview's items are ints)
        self._won: Any = memoryview(rewards)  # type: ignore[arg-type]
        self._dones: Any = memoryview(terminations)  # type: ignore[arg-type]

    @property
    def envs(self) -> list[SingleAgentEnv]:
        """Each table's environment (in-process only: with ``workers`` the tables live in other processes)."""
        if self._pool is not None:
            raise ConfigError("With workers > 1 the tables live in worker processes: envs[i] is not available "
                              "(seeds_used, action_masks() and render() are).")
        return self._envs

    def _observe(self) -> None:
        """Every table's observation and mask now, into the rows (zeroed first), and the masks the next step
        checks: after a reset, and after a step or reset stopped by an error (the tables as they are)."""
        self._clear()
        games = [env.aec._game for env in self._envs]
        if None not in games:  # (else a first reset stopped before every table was dealt: the rows stay zeros)
            seat = self._envs[0].seat
            for write, game, row in zip(self._writes, games, self._rows, strict=True):
                write(game, seat, row)
            for i, game in enumerate(games):
                self._ask(i, game)  # type: ignore[arg-type]
        np.copyto(self._legal, self._masks)

    def _ask(self, i: int, game: Game) -> None:
        """Table ``i``'s mask of ``game`` into its row (zeros), and the question it answers kept, so the next step
        plays a marked index without asking the game again: a betting mask that depends only on the
        abstraction's key is copied from the one the abstraction keeps (as its ``_write_mask`` does)."""
        legal = game.legal_actions()
        if legal is None:
            self._asked[i] = _NOT_ASKED
            self._write_mask(game, self._mask_rows[i], self._mask_writers[i])
            return
        self._asked[i] = (game, game.ctx.hand, legal, len(game.ctx._log))
        key = self._bet_key(legal)
        mask = self._bet_views.get(key) if key is not None else None
        if mask is not None:
            self._mask_writers[i][:] = mask
        else:
            self._write_mask(game, self._mask_rows[i], self._mask_writers[i])

    def _clear(self) -> None:
        """Zero every row of the observations and masks, before every table's are written again."""
        self._obs.fill(0.0)
        self._masks.fill(0)

    def _batch(self) -> Any:
        obs, masks = (self._obs.copy(), self._masks.copy()) if self.copy else (self._obs, self._masks)
        return {"observation": obs, "action_mask": masks} if self.dict_obs else obs

    def _seeds(self, seed: object) -> list[int | None]:
        if seed is None:
            return [None] * self.num_envs
        if isinstance(seed, np.ndarray) and seed.ndim == 1:  # one per table, as numpy gives them
            seed = seed.tolist()
        if not isinstance(seed, Sequence) or isinstance(seed, str | bytes):
            first = check_seed(seed, "seed (table i gets seed + i)", room=self.num_envs)
            return [first + i for i in range(self.num_envs)]
        if len(seed) == self.num_envs:
            return [None if s is None else check_seed(s, "seed of each table") for s in seed]
        raise ConfigError(f"seed must be None, a whole number (table i gets seed + i) or one per table "
                          f"({self.num_envs}), not {excerpt(seed)}.")

    @property
    def seeds_used(self) -> list[int | None]:
        """Each table's seed of the episode it plays (``None`` before the first ``reset``): a lone
        :class:`~cardgame.rl.gym.SingleAgentEnv` reset with it plays that episode again."""
        if self._pool is not None:
            return [s for shard in self._pool.call("seeds") for s in shard]
        return [env.seed_used for env in self._envs]

    def reset(
        self, *, seed: int | Sequence[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Every table's new episode (see the class for ``seed``); infos: ``skipped`` and
        ``skipped_reward`` per table."""
        seeds = self._seeds(seed)
        if options is not None and not isinstance(options, Mapping):
            raise ConfigError(f"reset's options are a mapping (none are taken), not {excerpt(options)}.")
        super().reset(seed=seeds[0] if seed is not None and not isinstance(seed, Sequence | np.ndarray) else None)
        infos: dict[str, Any] = {}
        if self._pool is not None:
            self._pool.clean = False
            try:
                infos = self._merge(self._pool.call("reset", self._pool.split(seeds)))
            finally:
                np.copyto(self._legal, self._masks)
            self._pool.clean = self._started = True
            return self._batch(), infos
        try:
            for i, (env, s) in enumerate(zip(self._envs, seeds, strict=True)):
                infos = self._add_info(infos, env._begin(s), i)
        finally:
            self._observe()
        self._started = True
        return self._batch(), infos

    def step(self, actions: Any) -> tuple[Any, Array, Array, Array, dict[str, Any]]:
        """One action index per table (a sequence or array of ``num_envs``); see the class. Every
        table's action is checked before any table moves: a refused one raises
        :class:`~cardgame.model.errors.IllegalActionError` naming its table, and nothing changes."""
        if not self._started:
            raise no_episode()
        actions = self._actions(actions)
        if self._pool is not None:
            return self._step_workers(actions)
        envs = self._envs
        marked = self._check(actions)
        infos: dict[str, Any] = {}
        won, dones = self._won, self._dones  # (memoryviews of the rewards and terminations: no list per step)
        checked = self._check_first  # every table's action was checked above
        asked = self._asked if marked else None  # each table's question its mask answered (marked: still legal)
        bet_move = self.actions._bet_move
        play = _play
        writes, rows, seat, ask = self._writes, self._rows, envs[0].seat, self._ask
        self._clear()
        try:
            for i, env in enumerate(envs):
                game = env.aec._game
                assert game is not None
                if (asked is not None and (q := asked[i])[0] is game and q[3] == len(game.ctx._log)
                        and q[1] is game.ctx.hand):
                    # the question the mask was made for, still asked: its move, as decode gives it
                    question = q[2]
                    assert question is not None
                    move = bet_move(actions[i], question, game)
                    assert move is not None
                    reward, done = play(env, game, move)
                    info: dict[str, Any] = {}
                elif checked:  # (env._move without its checks, made above: the index is legal)
                    reward, done = play(env, game, env.aec.actions.decode(actions[i], game))
                    info = {}
                else:
                    move, replaced = env._move(actions[i])
                    reward, done = play(env, game, move)
                    info = {"illegal": True} if replaced else {}
                won[i] = reward
                dones[i] = done
                if done:
                    skipped, skipped_reward = _deal_again(env)
                    if skipped:
                        info = {**info, "skipped": skipped, "skipped_reward": skipped_reward}
                    game = env.aec._game
                    assert game is not None
                if info:
                    infos = self._add_info(infos, info, i)
                writes[i](game, seat, rows[i])  # (each table encoded while its game is in the caches)
                ask(i, game)
        except BaseException:  # (a bot's refused answer): the rows show the tables as they are
            self._observe()
            raise
        np.copyto(self._legal, self._masks)
        rewards, terminations = self._rewards, self._terminations
        if self.copy:
            return self._batch(), rewards.copy(), terminations.copy(), self._truncations.copy(), infos
        return self._batch(), rewards, terminations, self._truncations, infos

    def _actions(self, actions: Any) -> Sequence[object]:
        """The batch as a sequence of one action a table (an array's as Python numbers, which read fastest)."""
        if isinstance(actions, np.ndarray):
            fits = actions.ndim == 1 and actions.shape[0] == self.num_envs
            if fits:
                actions = actions.tolist()  # (the same values, checked the same)
        else:
            fits = (isinstance(actions, Sequence) and not isinstance(actions, str | bytes)
                    and len(actions) == self.num_envs)
        if not fits:
            raise ConfigError(f"step takes one action index per table ({self.num_envs}), not {excerpt(actions)}.")
        return actions  # type: ignore[no-any-return]

    def _check(self, actions: Sequence[object]) -> bool:
        """Refuse the batch (:class:`IllegalActionError` naming the table) if any table refuses its action;
        whether every action is an index its table's mask marks (:meth:`_marked`)."""
        marked = self._check_first and self._marked(actions)
        if self._check_first and not marked:
            # every table's action first, so a refused batch moves none
            envs, legal, n, trust = self._envs, self._legal_view, self.actions.n, self._trust_masks
            for i, action in enumerate(actions):
                if trust and type(action) is int and 0 <= action < n and legal[i, action] and not envs[i]._done:
                    continue  # marked by the mask this table's observation gave: legal (the abstraction's own)
                try:
                    envs[i]._move(action)  # (the mask does not mark it: the table's own check, and its words)
                except IllegalActionError as e:
                    raise IllegalActionError(f"Table {self._first + i}: {e} No table moved.", rule=e.rule,
                                             allowed=e.allowed) from None
        return marked

    def _step_workers(self, actions: Sequence[object]) -> tuple[Any, Array, Array, Array, dict[str, Any]]:
        """:meth:`step` on the workers: every action checked (against the masks kept here when they are the
        abstraction's own, else by the workers first), then every shard stepped."""
        pool = self._pool
        assert pool is not None
        shards = pool.split(actions)
        if self._check_first and not self._marked(actions):
            pool.call("check", shards)
        pool.clean = False
        try:
            infos = self._merge(pool.call("step", shards))
        finally:
            np.copyto(self._legal, self._masks)
        pool.clean = True
        rewards, terminations = self._rewards, self._terminations
        if self.copy:
            return self._batch(), rewards.copy(), terminations.copy(), self._truncations.copy(), infos
        return self._batch(), rewards, terminations, self._truncations, infos

    def _merge(self, shards: list[dict[str, Any]]) -> dict[str, Any]:
        """The workers' infos (each of its shard's tables) as one of every table's."""
        assert self._pool is not None
        infos: dict[str, Any] = {}
        for first, shard in zip(self._pool.starts, shards, strict=True):
            keys = [k for k in shard if not k.startswith("_")]
            for j in range(len(shard[f"_{keys[0]}"]) if keys else 0):
                info = {k: shard[k][j] for k in keys if shard[f"_{k}"][j]}
                if info:
                    infos = self._add_info(infos, {k: v.item() if isinstance(v, np.generic) else v
                                                   for k, v in info.items()}, first + j)
        return infos

    def _marked(self, actions: Sequence[object]) -> bool:
        """Whether every table's action is an index its last observation's mask marks, at a table still
        playing (then legal: the abstraction's own), checked for the batch at once (each a read of C, no
        Python step a table); ``False`` sends the batch to the table-by-table check, which names the table
        refused."""
        if not self._trust_masks or not set(map(type, actions)) <= {int}:  # (bools, numpy numbers: one by one)
            return False
        if min(actions) < 0:  # type: ignore[type-var,operator]  # (ints, checked above)
            return False
        read: Any = self._legal_view.__getitem__  # (an item of the masks kept: mask[table, index])
        try:
            marked = all(map(read, zip(self._tables, actions, strict=True)))
        except IndexError:  # (an index past the space)
            return False
        if self._pool is not None:  # (the workers' tables are all playing after a step or reset that raised nothing)
            return marked and self._pool.clean
        return marked and not any(map(_DONE, self._envs))

    def action_masks(self) -> Array:
        """``int8[num_envs, n]``: each table's learner's action mask now."""
        if not self._started:
            raise no_episode()
        return self._masks.copy() if self.copy else self._masks

    def render(self) -> tuple[str, ...]:
        """Each table's status table as text."""
        if self._pool is not None:
            return tuple(text for shard in self._pool.call("render") for text in shard)
        return tuple(env.aec.render() or "" for env in self._envs)

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the workers and free the shared memory, if any (the tables in-process are plain Python
        objects)."""
        if self._pool is not None:
            self._pool.close()


# --- trajectories ----------------------------------------------------------------------------------------
PolicyFn = Callable[[Array, Array, np.random.Generator], int]


@attrs.frozen
class Policy:
    """A player of :func:`collect` that answers in action indices: ``fn(observation, mask, rng)``
    returns an index ``mask`` marks (``rng``: a ``numpy`` generator seeded from the shard's
    seed). The process and Ray backends pickle it: ``fn`` must be a module-level function (or
    another picklable callable)."""

    fn: PolicyFn
    name: str = ""

    def __attrs_post_init__(self) -> None:
        if not callable(self.fn):
            raise ConfigError(f"A Policy wraps a function fn(observation, mask, rng) -> index, not {excerpt(self.fn)}.")


def uniform(observation: Array, mask: Array, rng: np.random.Generator) -> int:
    """Uniformly random among the indices ``mask`` marks."""
    if not isinstance(rng, np.random.Generator) or not isinstance(mask, np.ndarray) or not mask.any():
        raise ConfigError(f"uniform takes a mask marking at least one index and a numpy Generator, not "
                          f"{excerpt(mask)} and {excerpt(rng)}.")
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(legal.size)])


@attrs.frozen
class Trajectories:
    """Every decision :func:`collect` recorded, one row each, in the order played (episode by
    episode): ``observations`` ``float32[T, obs_dim]``, ``masks`` ``int8[T, n]``, ``actions``
    ``int64[T]`` (the index played), ``rewards`` ``float32[T]`` (what the seat won or lost in the
    hands paid after this decision and before its next one: 0 but for a seat's last decision in a
    hand), ``returns`` ``float32[T]`` (the seat's whole episode), ``dones`` ``bool[T]`` (the
    seat's last decision of the episode), ``seats`` ``int8[T]`` (the seat, which is the player's
    place in ``players``) and ``episodes`` ``int64[T]`` (the episode's number, 0 first)."""

    observations: Array
    masks: Array
    actions: Array
    rewards: Array
    returns: Array
    dones: Array
    seats: Array
    episodes: Array

    def __len__(self) -> int:
        return int(self.actions.shape[0])


_FIELDS = [f.name for f in attrs.fields(Trajectories)]


@attrs.frozen
class _Job:
    """What each shard of :func:`collect` needs: picklable."""

    variant: str | VariantLike
    players: tuple[str | Bot | Policy, ...]
    options: Mapping[str, Any]


def bot_index(env: raw_env, bot: Bot, rng: random.Random, events: HandEvents) -> int:
    """The index of ``env``'s action space nearest to what ``bot`` answers for the agent to act
    (it sees its seat's :class:`~cardgame.play.bot.BotView`): fold, check or call and discard masks
    exactly; a bet or raise as the raise index whose amount is nearest (the first of equals)."""
    if not isinstance(env, raw_env):
        raise ConfigError(f"bot_index reads a cardgame.rl.env.raw_env, not {excerpt(env)}.")
    game = env._playing()
    seat = game.to_act
    if seat is None or not env.agents:
        raise IllegalActionError("Nobody is to act: the episode is over; call reset().", rule="episode over")
    if not callable(bot) or not isinstance(rng, random.Random) or not isinstance(events, HandEvents):
        raise ConfigError(f"bot_index takes a bot (a callable taking a BotView), a random.Random and HandEvents, not "
                          f"{excerpt(bot)}, {excerpt(rng)} and {excerpt(events)}.")
    actions = env.actions
    legal = game.legal_actions()
    if legal is not None:
        view = build_view(game, seat, env.shape, rng, legal=legal, events=events)
        action, amount = to_action(bot(view), legal)
        if action == "fold":
            return 0 if legal.can_fold else 1
        if action in ("check", "call", "bring_in"):
            return 1
        mask = actions.mask(game)
        best, gap = 1, None
        for i in np.flatnonzero(mask[2:]) + 2:
            move = actions.decode(int(i), game)
            d = abs((move.amount or 0) - (amount or 0))
            if gap is None or d < gap:
                best, gap = int(i), d
        return best
    draw = game.draw_options()
    if draw is not None:
        view = build_view(game, seat, env.shape, rng, draw=draw, events=events)
        thrown = to_discards(bot(view), draw)
        return sum(1 << i for i, card in enumerate(draw.hole) if card in thrown)
    runs = game.run_options()
    assert runs is not None
    view = build_view(game, seat, env.shape, rng, runs=runs, events=events)
    return to_runs(bot(view), runs) - 1


def _player(spec: object) -> str | Bot | Policy:
    if isinstance(spec, Policy):
        return spec
    if isinstance(spec, str):
        _bot(spec)  # a ConfigError naming the bots if unknown
        return spec
    if callable(spec):
        return spec  # a bot: view -> answer
    raise ConfigError(f"A player is a bot name ({', '.join(named_bots.available())}), a bot (a callable taking a "
                      f"BotView) or a Policy (index answers), not {excerpt(spec)}.")


class _Rows:
    """Growing arrays for one shard's decisions."""

    def __init__(self, size: int, n: int) -> None:
        self.t = 0
        self.obs = np.zeros((64, size), np.float32)
        self.masks = np.zeros((64, n), np.int8)
        self.small = {name: np.zeros(64, dtype) for name, dtype in (
            ("actions", np.int64), ("rewards", np.float32), ("returns", np.float32), ("dones", np.bool_),
            ("seats", np.int8), ("episodes", np.int64))}

    def add(self) -> int:
        t = self.t
        if t == self.obs.shape[0]:
            self.obs = np.concatenate([self.obs, np.zeros_like(self.obs)])
            self.masks = np.concatenate([self.masks, np.zeros_like(self.masks)])
            self.small = {k: np.concatenate([v, np.zeros_like(v)]) for k, v in self.small.items()}
        self.t = t + 1
        return t

    def done(self) -> Trajectories:
        t = self.t
        return Trajectories(self.obs[:t].copy(), self.masks[:t].copy(), **{k: v[:t].copy()
                                                                           for k, v in self.small.items()})


def _play_shard(job: _Job, shard: Shard) -> tuple[int, Trajectories]:
    """Play one shard of :func:`collect`: ``shard.hands`` episodes from ``shard.seed``."""
    players = job.players
    env = raw_env(job.variant, len(players), seed=shard.seed, **job.options)
    bots = {s: (named_bots.get(p) if isinstance(p, str) else p) for s, p in enumerate(players)
            if not isinstance(p, Policy)}
    policy_rng = np.random.default_rng(shard.seed)
    rows = _Rows(env.encoder.space.shape[0], env.actions.n)
    agents = env.possible_agents
    for episode in range(shard.hands):
        env.reset()
        game: Game | None = env._game
        assert game is not None
        rngs = {s: seat_rng(game, s) for s in bots}
        events = HandEvents()
        last: dict[int, int] = {}  # seat -> the row of its last decision
        totals = [0.0] * len(players)
        first = rows.t
        for s, a in enumerate(agents):  # hands paid before any decision
            totals[s] += env.rewards.get(a, 0)
        while not env.terminations[env.agent_selection]:
            seat = env._seat[env.agent_selection]
            t = rows.add()
            env.encoder.encode(game, seat, out=rows.obs[t])
            mask = rows.masks[t]
            env.actions.mask(game, out=mask)
            player = players[seat]
            index = (player.fn(rows.obs[t], mask, policy_rng) if isinstance(player, Policy)
                     else bot_index(env, bots[seat], rngs[seat], events))
            rows.small["actions"][t] = index
            rows.small["seats"][t] = seat
            rows.small["episodes"][t] = episode
            last[seat] = t
            env.step(index)
            for s, a in enumerate(agents):
                r = env.rewards.get(a, 0)
                if r:
                    totals[s] += r
                    if s in last:
                        rows.small["rewards"][last[s]] += r
        seats = rows.small["seats"][first : rows.t]
        rows.small["returns"][first : rows.t] = np.asarray(totals, np.float32)[seats]
        for t in last.values():
            rows.small["dones"][t] = True
    return shard.index, rows.done()


def collect(
    variant: str | VariantLike,
    players: Sequence[str | Bot | Policy],
    episodes: int,
    *,
    seed: int = 0,
    workers: int = 1,
    backend: str | None = None,
    shard_episodes: int = 500,
    **options: Any,
) -> Trajectories:
    """Play ``episodes`` episodes of ``variant`` with one player a seat (``players``: bot names,
    bots, or :class:`Policy` objects) and record every decision (:class:`Trajectories`).

    A bot plays through the bot interface and its answer is recorded, and played, as the
    nearest index of the action space (:func:`bot_index`), so each row's action is the one
    played. ``options`` are :class:`~cardgame.rl.env.raw_env`'s (``observation``, ``actions``,
    ``stack``, ``reward``, ``hands`` per episode...). The episodes are cut into shards of
    ``shard_episodes``, seeded from ``seed`` (:func:`cardgame.simulate.split`) and played by
    ``workers`` workers on ``backend`` (``"serial"``, ``"process"`` or ``"ray"``; ``None``:
    serial for one worker, else processes); the rows come back in shard order, so the arrays are
    the same for any workers and backend.
    """
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise ConfigError(f"players is one player a seat (bot names, bots or Policy objects), not "
                          f"{excerpt(players)}.")
    episodes = check_int(episodes, "number of episodes", ConfigError, minimum=1)
    if backend is not None and (not isinstance(backend, str) or backend not in BACKENDS):
        raise ConfigError(f"backend must be None or one of {', '.join(BACKENDS)}, not {excerpt(backend)}.")
    shard_episodes = check_int(shard_episodes, "shard_episodes", ConfigError, minimum=1)
    seed = check_seed(seed)
    for reserved in ("seed", "render_mode"):
        if reserved in options:
            raise ConfigError(f"collect sets the environments' {reserved} itself; pass collect(seed=...) for seeds.")
    raw_env(variant, len(players), **options)  # bad options fail here, not in a worker
    job = _Job(variant, tuple(_player(p) for p in players), dict(options))
    parts = split(episodes, shard_episodes, seed)
    done = sorted(run_jobs(job, parts, _play_shard, workers=workers, backend=backend), key=lambda r: r[0])
    shards = [t for _, t in done]
    offsets = np.cumsum([0] + [p.hands for p in parts[:-1]])
    columns: dict[str, Array] = {}
    for name in _FIELDS:
        if name == "episodes":
            columns[name] = np.concatenate([t.episodes + off for t, off in zip(shards, offsets, strict=True)])
        else:
            columns[name] = np.concatenate([getattr(t, name) for t in shards])
    return Trajectories(**columns)
