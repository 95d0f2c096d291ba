"""Every variant as a PettingZoo AEC environment: ``cardgame.rl.env("NT", players=6)``.

Agents ``player_0`` .. ``player_{n-1}`` sit in seats 0 .. n-1. Each observes
``{"observation": float32[...], "action_mask": int8[n]}`` (the encoder, :mod:`cardgame.rl.observe`;
the action space, :mod:`cardgame.rl.actions`) and answers with one index of the fixed
``Discrete(n)`` space; the mask is all zeros for an agent not to act. Rewards come at the end of
each hand: the chips each agent won or lost in it (``reward="bb"``: in big blinds). An episode is
``hands`` hands (stacks carried over) and ends early when a player is broke. The engine is the
:class:`~cardgame.play.game.Game`: the environment only turns indices into its moves, so the
rules are the library's, and the deck's generator stays inside the game (seeded by
``reset(seed=...)``), never handed to an agent. See docs/rl.md.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo ships no types
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from cardgame.engine import Stage
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError
from cardgame.play.bot import Bot, HandEvents, decide
from cardgame.play.game import Game, VariantLike
from cardgame.play.shape import game_shape
from cardgame.rl.actions import ActionAbstraction, for_game, max_runs, send
from cardgame.rl.observe import Encoder, encoder

__all__ = ["REWARDS", "RUNS", "env", "make_game", "raw_env"]

REWARDS = ("chips", "bb")
RUNS = ("once", "agent")

_SEED_BITS = 63
_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio: Fibonacci hashing


def _whole(name: str, value: object, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ConfigError(f"{name} must be a whole number of at least {least}, not {value!r}.")
    return value


def make_game(stages: Sequence[Stage[Context]], stacks: Sequence[int], *, seed: int | None, button: int | None,
              max_hands: int | None) -> Game:
    """A started game on the stage list ``stages`` with one player a stack (``player_0``.. in seats
    0..), waiting on its first decision; ``button``: the first hand's (``None``: drawn from ``seed``).

    The stage list of a game that was dropped may be used again: a stage starts afresh each time it
    runs (each hand), so an environment builds its variant's stages once, not on every reset."""
    if button is None:  # a multiplicative hash of the seed: replayable, and no draw from the deck's generator
        button = (seed * _GOLDEN >> 32) % len(stacks) if seed is not None else secrets.randbelow(len(stacks))
    game = Game(stages, seats=len(stacks), seed=seed, first_button=button, max_hands=max_hands)
    for seat, stack in enumerate(stacks):
        game.sit_down(f"player_{seat}", stack, seat)
    game.start()
    return game


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped environment; AECEnv is untyped
    """The unwrapped AEC environment (:func:`env` wraps it as PettingZoo's classic games are).

    ``variant``: a name or PHH code (``variants.get``) or a variant; ``players`` seats; ``stack``
    each player's chips (one number, or one per seat; default 100 big blinds); ``actions``: see
    :func:`cardgame.rl.actions.for_game`; ``observation``: an encoding's name (``"planes"``,
    ``"rlcard"``: :func:`cardgame.rl.observe.encoder`) and ``observation_options`` its options; ``reward``: ``"chips"``
    or ``"bb"``; ``hands`` per episode; ``seed`` the first reset's seed when ``reset`` gets none;
    ``params`` the variant builder's arguments; ``runs``: ``"once"`` (the environment asks one
    run-out for the agent) or ``"agent"``; ``button`` the first button (``None``: drawn from the seed).
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "cardgame_v0", "render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1,
    }

    def __init__(
        self,
        variant: str | VariantLike = "NT",
        players: int = 2,
        *,
        stack: int | Sequence[int] | None = None,
        actions: str | ActionAbstraction = "default",
        observation: str = "planes",
        observation_options: Mapping[str, Any] | None = None,
        reward: str = "chips",
        hands: int = 1,
        seed: int | None = None,
        render_mode: str | None = None,
        params: Mapping[str, Any] | None = None,
        runs: str = "once",
        button: int | None = None,
    ) -> None:
        super().__init__()
        if isinstance(variant, str):
            import variants

            variant = variants.get(variant)
        if not isinstance(variant, VariantLike):
            raise ConfigError(f"variant must be a name, a PHH code or a Variant, not {variant!r}.")
        _whole("players", players, 2)
        top = getattr(variant, "max_players", None)
        if isinstance(top, int) and players > top:
            raise ConfigError(f"{variant.name} seats 2 to {top} players, not {players}.")
        _whole("hands", hands, 1)
        if reward not in REWARDS:
            raise ConfigError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}.")
        if runs not in RUNS:
            raise ConfigError(f"runs must be one of {', '.join(RUNS)}, not {runs!r}.")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ConfigError(f"render_mode must be None, 'ansi' or 'human', not {render_mode!r}.")
        if seed is not None:
            _whole("seed", seed, 0)
        if button is not None and (not isinstance(button, int) or isinstance(button, bool)
                                   or not 0 <= button < players):
            raise ConfigError(f"button must be a seat 0 to {players - 1} (or None: drawn from the seed), "
                              f"not {button!r}.")
        if params is not None and not isinstance(params, Mapping):
            raise ConfigError(f"params must be a mapping of the variant builder's keyword arguments, not {params!r}.")
        self.variant = variant
        self.params = dict(params) if params is not None else None
        self._stages = variant.build(**(self.params or {}))  # checks the params; every game of the env plays them
        template = Game(self._stages, seats=players)  # never started: gives the shape, the encoder's table
        self.shape = game_shape(template.dispatcher.stages, template.ctx.deck_spec)
        if stack is None:
            stack = 100 * self.shape.big_blind
        if isinstance(stack, int) and not isinstance(stack, bool):
            stacks = (_whole("stack", stack, 1),) * players
        elif isinstance(stack, Sequence) and len(stack) == players:
            stacks = tuple(_whole("each stack", s, 1) for s in stack)
        else:
            raise ConfigError(f"stack must be a whole number of chips or one per player ({players}), not {stack!r}.")
        self.stacks = stacks
        self.chips = sum(stacks)
        self.hands = hands
        self.reward_unit = reward
        self._scale: float = 1.0 / self.shape.big_blind if reward == "bb" else 1
        self.render_mode = render_mode
        self._button = button
        self._auto_runs = runs == "once" and max_runs(template) > 0  # only variants that run it twice ask
        self.actions = for_game(actions, template, chips=self.chips, choose_runs=runs == "agent")
        if observation_options is not None and not isinstance(observation_options, Mapping):
            raise ConfigError(f"observation_options must be a mapping of the encoder's options, not "
                              f"{observation_options!r}.")
        for seat, chips in enumerate(stacks):  # the encoder scales chips by the stacks seated
            template.sit_down(f"player_{seat}", chips, seat)
        self.encoder: Encoder = encoder(observation, template, **(observation_options or {}))
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.encoder.space,
                            "action_mask": spaces.Box(0, 1, (self.actions.n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: self.actions.space for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._seeds: random.Random | None = random.Random(seed) if seed is not None else None
        self._first_seed = seed
        self._game: Game | None = None
        self._paid: list[int] = []
        self._played = 0
        self._rewarded = False

    # --- the spaces ------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the episode -------------------------------------------------------------------------------------
    def _next_seed(self, seed: int | None) -> int | None:
        if seed is not None:
            _whole("seed", seed, 0)
            self._seeds = random.Random(seed)
            return seed
        if self._first_seed is not None:
            seed, self._first_seed = self._first_seed, None
            return seed
        return self._seeds.getrandbits(_SEED_BITS) if self._seeds is not None else None

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: a new game, every stack back to its start, dealt the first hand."""
        game_seed = self._next_seed(seed)
        self._first_seed = None
        self._game = make_game(self._stages, self.stacks, seed=game_seed, button=self._button, max_hands=self.hands)
        self.agents = self.possible_agents[:]
        self.rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards: dict[str, float] = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._paid = list(self.stacks)
        self._played = 0
        self._rewarded = False
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._advance()
        if self._rewarded:  # hands played out with no decision (stacks too short for any)
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _wealth(self) -> list[int]:
        """Each seat's chips: its stack, plus what it has in the pot of the hand in progress."""
        game = self._game
        assert game is not None
        table = game.table
        hand = game.hand
        out = []
        for seat in range(len(self.possible_agents)):
            p = table.seats[seat]
            chips = p.stack if p is not None else 0
            if hand is not None and (hp := hand.by_seat.get(seat)) is not None:
                chips += hp.contributed
            out.append(chips)
        return out

    def _advance(self) -> None:
        """Answer what the agents are not asked (run-outs, unless ``runs="agent"``), pay the hands that
        ended, and select the agent to act or end the episode."""
        game = self._game
        assert game is not None
        if self._auto_runs:
            while (ro := game.run_options()) is not None:
                game.choose_runs(ro.seat, 1)
        seat = game.to_act
        played = game.ctx.hands_played
        done = seat is None
        if played != self._played:
            self._played = played
            wealth = self._wealth()
            scale = self._scale
            self.rewards = {a: (w - p) * scale for a, w, p in zip(self.possible_agents, wealth, self._paid, strict=True)
                            if a in self.rewards}
            self._paid = wealth
            self._rewarded = True
            done = done or played >= self.hands or 0 in wealth
        if done:
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
        else:
            assert seat is not None
            self.agent_selection = self.possible_agents[seat]

    def step(self, action: Any) -> None:
        """Play ``action`` (an index the mask marks) for the agent to act; an index it does not mark
        raises :class:`~cardgame.model.errors.IllegalActionError` and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self._game
        assert game is not None
        send(game, self._seat[agent], self.actions.decode(action, game))
        self._moved(agent)

    def play_bot(self, bot: Bot, rng: random.Random, events: HandEvents) -> None:
        """Let ``bot`` answer for the agent to act, through the bot interface: it sees only its seat's
        :class:`~cardgame.play.bot.BotView` (``rng``: its own stream, ``events``: the hand's events
        rendered once for every seat); a refused answer raises :class:`~cardgame.model.errors.BotError`."""
        agent = self.agent_selection
        game = self._game
        assert game is not None and not self.terminations[agent]
        decide(game, self._seat[agent], bot, rng, shape=self.shape, events=events)
        self._moved(agent)

    def _moved(self, agent: str) -> None:
        """The bookkeeping after ``agent`` moved: rewards, the next agent, the render."""
        if self._rewarded:
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0
        self._advance()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and action mask (all zeros unless it is to act)."""
        game = self._game
        assert game is not None
        seat = self._seat[agent]
        if game.to_act == seat and not self.terminations.get(agent, True):
            mask = self.actions.mask(game)
        else:
            mask = np.zeros(self.actions.n, np.int8)
        return {"observation": self.encoder.encode(game, seat), "action_mask": mask}

    # --- information for people and tests -------------------------------------------------------------------
    def table_stacks(self) -> dict[str, int]:
        """Each agent's chips now (stack plus chips in the pot of the hand in progress): public."""
        return dict(zip(self.possible_agents, self._wealth(), strict=True))

    def describe(self) -> str:
        """The legal actions of the agent to act, in words."""
        assert self._game is not None
        return self.actions.describe(self._game)

    def render(self) -> str | None:
        """The status table as text, every card shown (``"ansi"`` returns it, ``"human"`` prints it)."""
        if self._game is None:
            text = "No game yet: call reset()."
        else:
            text = self._game.status(reveal=True)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to free: the game is plain Python objects."""


def env(variant: str | VariantLike = "NT", players: int = 2, **options: Any) -> AECEnv:
    """The environment for ``variant`` (see :class:`raw_env` for the options), wrapped as PettingZoo's
    classic games are: :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` (PettingZoo's
    illegal-move and out-of-bounds wrappers are left off: an illegal index raises the library's own
    :class:`~cardgame.model.errors.IllegalActionError`, naming it and the legal ones)."""
    return wrappers.OrderEnforcingWrapper(raw_env(variant, players, **options))
