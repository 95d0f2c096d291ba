"""Every variant as a PettingZoo AEC environment: ``cardgame.rl.env("NT", players=6)``.

Agents ``player_0`` .. ``player_{n-1}`` sit in seats 0 .. n-1. Each observes
``{"observation": float32[...], "action_mask": int8[n]}`` (the encoder, :mod:`cardgame.rl.observe`;
the action space, :mod:`cardgame.rl.actions`) and answers with one index of the fixed
``Discrete(n)`` space; the mask is all zeros for an agent not to act. Rewards come at the end of
each hand: the chips each agent won or lost in it (``reward="bb"``: in big blinds). An episode is
``hands`` hands (stacks carried over) and ends early when a player is broke. The engine is the
:class:`~cardgame.play.game.Game`: the environment only turns indices into its moves, so the
rules are the library's, and the deck's generator stays inside the game (seeded by
``reset(seed=...)``), never handed to an agent. A ``reset`` without a seed draws a 128-bit one from
the operating system (:data:`SEED_BITS`) and reports it in ``seed_used``, so any run replays. Every
argument is checked: a bad one raises the library's own error (a
:class:`~cardgame.model.errors.CardgameError`) and changes nothing. See docs/rl.md.
"""

from __future__ import annotations

import inspect
import random
import secrets
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]  # PettingZoo ships no types
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from cardgame.engine import Stage
from cardgame.engine.copies import shallow_copy
from cardgame.model.cards import CARDS, Card, parse_cards
from cardgame.model.context import Context
from cardgame.model.errors import CardError, CardgameError, ConfigError, IllegalActionError
from cardgame.model.inputs import MAX_NUMBER, check_int, check_text, excerpt
from cardgame.model.rng import MAX_SEED, SEED_BITS, RandomSource, new_seed
from cardgame.model.rng import check_seed as check_any_seed
from cardgame.model.table import MAX_SEATS
from cardgame.play.bot import Bot, HandEvents, decide
from cardgame.play.game import Game, VariantLike
from cardgame.play.shape import game_shape
from cardgame.rl.actions import ActionAbstraction, Move, for_game, max_runs, send
from cardgame.rl.observe import Encoder, encoder

__all__ = ["REWARDS", "RUNS", "SEED_BITS", "check_cards", "check_seed", "env", "make_game", "no_episode", "raw_env"]

REWARDS = ("chips", "bb")
RUNS = ("once", "agent")

_GOLDEN = 0x9E3779B97F4A7C15  # 2**64 / the golden ratio: Fibonacci hashing
_MAX_VARIANT = 40  # characters of a variant's name or PHH code (the longest is 21)


def check_seed(value: object, what: str = "seed", *, room: int = 1) -> int:
    """``value`` as a seed: a whole number from 0 to ``2**128 - room`` (:data:`SEED_BITS`; numpy's
    integers too), else :class:`ConfigError` quoting an excerpt. ``room``: the seeds taken from it
    (a vector environment's table ``i`` gets ``seed + i``)."""
    seed = check_any_seed(value, ConfigError, what)
    if seed > MAX_SEED + 1 - room:
        raise ConfigError(f"The {what} must be a whole number from 0 to 2**{SEED_BITS} - {room} "
                          f"(or None: drawn from the operating system), not {excerpt(value)}.")
    return seed


def no_episode() -> IllegalActionError:
    """The error of a call that needs an episode before the first ``reset``."""
    return IllegalActionError("The environment has no episode yet: call reset() first.", rule="no episode")


def _cards_option(options: object) -> tuple[Card, ...] | None:
    """The cards ``reset``'s ``options`` choose (``None``: none chosen); other keys are ignored, as
    PettingZoo's own environments ignore options they do not take."""
    if options is None:
        return None
    if not isinstance(options, Mapping):
        raise ConfigError(f"reset's options are a mapping (its key 'cards': the first hand's cards to come, top "
                          f"first), not {excerpt(options)}.")
    return check_cards(options.get("cards"), "options['cards']")


def check_cards(cards: object, what: str = "cards") -> tuple[Card, ...] | None:
    """``cards`` (``None``, a card string such as ``"Js Qs"``, or a sequence of card strings, cards or
    indices 0 to 51) as cards, else :class:`ConfigError` (a bad card :class:`CardError`)."""
    if cards is None:
        return None
    if not isinstance(cards, str):
        if not isinstance(cards, Sequence) or isinstance(cards, bytes) or len(cards) > len(CARDS):
            raise ConfigError(f"{what} are card strings ('Js Qs'), cards or indices (at most {len(CARDS)}), not "
                              f"{excerpt(cards)}.")
        for card in cards:
            if not isinstance(card, str):
                check_int(card, "card index", CardError, minimum=0, maximum=len(CARDS) - 1)
    return parse_cards(cards)


def _choice(what: str, value: object, allowed: tuple[str, ...]) -> str:
    """``value`` if it is one of the strings ``allowed``, else :class:`ConfigError` naming them."""
    if not isinstance(value, str) or value not in allowed:
        raise ConfigError(f"{what} must be one of {', '.join(allowed)}, not {excerpt(value)}.")
    return value


def check_options(options: Mapping[str, object], *own: str) -> None:
    """:class:`ConfigError` naming any of ``options`` (keyword arguments passed on to :class:`raw_env`)
    that :class:`raw_env` does not take, and the ones taken (``own``: the caller's, named first)."""
    taken = [*own, *(name for name in inspect.signature(raw_env).parameters if name not in ("variant", *own))]
    unknown = [name for name in options if name not in taken]
    if unknown:
        raise ConfigError(f"Unknown option {excerpt(unknown[0])}; the environment takes: {', '.join(taken)}.")


def _keywords(what: str, value: object, meaning: str) -> dict[str, Any] | None:
    """``value`` (``None`` or a mapping with string keys, to be passed as keyword arguments) as a dict."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise ConfigError(f"{what} must be a mapping of {meaning} (names to values), not {excerpt(value)}.")
    return dict(value)


_zeros = np.zeros  # (observe's masks: the module's names and dtype looked up once, not on every call)
_INT8 = np.dtype(np.int8)

_STEP, _MOVE, _DEAD, _BOT = range(4)  # what undo() finds in the log: an index, a move, a dead step, a bot's


def _most_players(variant: object) -> int:
    """The most seats ``variant`` deals in: its ``max_players``; any number for a builder taking
    ``players`` (which checks it: Leduc hold'em's 2 to 10)."""
    top = getattr(variant, "max_players", None)
    if _builder_takes_players(getattr(variant, "builder", None)):
        return MAX_SEATS
    return top if isinstance(top, int) and 2 <= top <= MAX_SEATS else MAX_SEATS


def _builder_takes_players(builder: object) -> bool:
    try:
        return callable(builder) and "players" in inspect.signature(builder).parameters
    except (TypeError, ValueError):
        return False


def _with_players(variant: VariantLike, params: Mapping[str, Any] | None, players: int) -> dict[str, Any]:
    """The builder's keyword arguments: ``params``, and ``players`` when the builder takes it and
    ``params`` does not name it (Leduc hold'em deals its deck by the number of players)."""
    out = dict(params or {})
    if "players" not in out and _builder_takes_players(getattr(variant, "builder", None)):
        out["players"] = players
    return out


def _observe_flag(observe: object) -> bool:
    """``last``'s ``observe``: True or False, else :class:`ConfigError`."""
    if type(observe) is not bool:
        raise ConfigError(f"last's observe is True or False, not {excerpt(observe)}.")
    return observe


def _restored(state: Any) -> random.Random | None:
    """A generator in ``state`` (``None``: none)."""
    if state is None:
        return None
    rng = random.Random.__new__(random.Random)  # unseeded: the state is set next
    rng.setstate(state)
    return rng


def make_game(stages: Sequence[Stage[Context]], stacks: Sequence[int], *, seed: int | None, button: int | None,
              max_hands: int | None, cards: Sequence[object] | str | None = None) -> Game:
    """A started game on the stage list ``stages`` with one player a stack (``player_0``.. in seats
    0..), waiting on its first decision; ``button``: the first hand's (``None``: drawn from ``seed``);
    ``cards``: the first hand's cards to come, top first (:meth:`Game.stack_deck`; ``None``: shuffled).

    The stage list of a game that was dropped with its hand over may be used again: a stage starts
    afresh each time it runs (each hand), so an environment builds its variant's stages once, not on
    every reset (and again after an episode reset in the middle of a hand, whose stages keep that
    hand's state)."""
    if isinstance(stacks, str | bytes) or not isinstance(stacks, Sequence) or not 2 <= len(stacks) <= MAX_SEATS:
        raise ConfigError(f"stacks are one whole number of chips per seat (2 to {MAX_SEATS:,}), not {excerpt(stacks)}.")
    stacks = [check_int(s, "stack of each player", ConfigError, minimum=1) for s in stacks]
    if seed is not None:
        seed = check_seed(seed)
    if max_hands is not None:
        max_hands = check_int(max_hands, "max_hands", ConfigError, minimum=1)
    chosen = check_cards(cards)
    if button is not None:
        button = check_int(button, "button", ConfigError, minimum=0, maximum=len(stacks) - 1)
    return _started(stages, stacks, seed, button, max_hands, chosen)


def _started(stages: Sequence[Stage[Context]], stacks: Sequence[int], seed: int | None, button: int | None,
             max_hands: int | None, chosen: tuple[Card, ...] | None) -> Game:
    """:func:`make_game` on arguments already checked."""
    return _dealt(_seated(stages, stacks), seed, button, max_hands, chosen)


def _seated(stages: Sequence[Stage[Context]], stacks: Sequence[int]) -> Game:
    """A game on ``stages`` with ``player_0``.. seated in seats 0.. with ``stacks``, not started: the
    template an environment copies for every episode."""
    game = Game(stages, seats=len(stacks))
    for seat, stack in enumerate(stacks):
        game.sit_down(f"player_{seat}", stack, seat)
    return game


def _dealt(template: Game, seed: int | None, button: int | None, max_hands: int | None,
           chosen: tuple[Card, ...] | None) -> Game:
    """A started game copied from ``template`` (:func:`_seated`: never started, so its stages hold no
    state and the copy plays on them; a game of the same template must be dropped before the next is
    started): the table and players copied, a random source of its own seeded with ``seed`` (``None``:
    the operating system's), the first ``button`` (``None``: hashed from the seed), ``max_hands``,
    the first hand's ``chosen`` cards on top (arguments checked). Equal to building the game anew
    (``Game(stages, seed=seed, first_button=button, max_hands=max_hands)``, seated and started), and
    about 10 µs cheaper: ``tests/rl/test_env.py`` compares the two."""
    seats = template.table.seat_count
    if button is None:  # a multiplicative hash of the seed: replayable, and no draw from the deck's generator
        button = (seed * _GOLDEN >> 32) % seats if seed is not None else secrets.randbelow(seats)
    game = object.__new__(Game)
    ctx = game.ctx = template.ctx.copy(rng=RandomSource(seed))
    ctx.max_hands = max_hands
    ctx.table.first_button = button
    dispatcher = game.dispatcher = shallow_copy(template.dispatcher)
    dispatcher.ctx = ctx
    if chosen is not None:
        game.stack_deck(chosen)
    game.start()
    return game


def _send(game: Game, seat: int, move: Move) -> None:
    """:func:`~cardgame.rl.actions.send` on arguments known good (a decoded move, the agent's seat): a
    betting move goes straight to :meth:`Game.act`, the common step."""
    if move.kind == "act":
        game.act(seat, move.action, move.amount)
    else:
        send(game, seat, move)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's name for the unwrapped environment; AECEnv is untyped
    """The unwrapped AEC environment (:func:`env` wraps it as PettingZoo's classic games are).

    ``variant``: a name or PHH code (``variants.get``) or a variant; ``players`` seats; ``stack``
    each player's chips (one number, or one per seat; default 100 big blinds); ``actions``: see
    :func:`cardgame.rl.actions.for_game`; ``observation``: an encoding's name (``"planes"``,
    ``"rlcard"``, ``"infostate"``: :func:`cardgame.rl.observe.encoder`) and ``observation_options`` its
    options; ``reward``: ``"chips"`` or ``"bb"``; ``hands`` per episode; ``seed`` the first reset's
    seed when ``reset`` gets none;
    ``params`` the variant builder's arguments; ``runs``: ``"once"`` (the environment asks one
    run-out for the agent) or ``"agent"``; ``button`` the first button (``None``: drawn from the seed).

    ``seed_used`` is the seed of the episode being played (``None`` before the first ``reset``):
    ``reset(seed=env.seed_used)`` deals that episode again, and the first episode's seed replays the
    whole run (the later episodes' seeds are drawn from it).
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

            name = check_text(variant, "variant", ConfigError, max_length=_MAX_VARIANT)
            if not (name.isascii() and name.isprintable()):
                raise ConfigError(f"A variant is named in printable ASCII (a name or PHH code), not {excerpt(name)}.")
            variant = variants.get(name)
        if not isinstance(variant, VariantLike):
            raise ConfigError(f"variant must be a name, a PHH code or a Variant, not {excerpt(variant)}.")
        players = check_int(players, f"number of players of {variant.name}", ConfigError, minimum=2,
                            maximum=_most_players(variant))
        hands = check_int(hands, "number of hands an episode", ConfigError, minimum=1)
        reward = _choice("reward", reward, REWARDS)
        runs = _choice("runs", runs, RUNS)
        if render_mode is not None:
            render_mode = _choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        if seed is not None:
            seed = check_seed(seed)
        if button is not None:
            button = check_int(button, "button (None: drawn from the seed)", ConfigError, minimum=0,
                               maximum=players - 1)
        params = _keywords("params", params, "the variant builder's keyword arguments")
        observation_options = _keywords("observation_options", observation_options, "the encoder's options")
        self.variant = variant
        self.params = dict(params) if params is not None else None
        self._build = _with_players(variant, self.params, players)  # the builder's arguments
        stages = variant.build(**self._build)
        top = getattr(getattr(stages, "variant", None), "max_players", None)
        if isinstance(top, int) and players > top:  # the stages deal fewer in (params' own "players")
            raise ConfigError(f"{variant.name} built with {excerpt(params)} deals at most {top} players, "
                              f"not {players}.")
        template = Game(stages, seats=players)  # never started: the shape, the encoder's table, and (seated)
        # the template every episode's game is copied from, playing its stages
        self.shape = game_shape(template.dispatcher.stages, template.ctx.deck_spec)
        if stack is None:
            stack = 100 * self.shape.big_blind
        if isinstance(stack, Sequence) and not isinstance(stack, str | bytes):
            if len(stack) != players:
                raise ConfigError(f"stack must be a whole number of chips or one per player ({players}), not "
                                  f"{excerpt(stack)}.")
            stacks = tuple(check_int(s, "stack of each player", ConfigError, minimum=1) for s in stack)
        else:
            stacks = (check_int(stack, "stack (chips; or one per player)", ConfigError, minimum=1),) * players
        self.stacks = stacks
        self.chips = sum(stacks)
        self.hands = hands
        self.reward_unit = reward
        self._scale: float = 1.0 / self.shape.big_blind if reward == "bb" else 1
        self.render_mode = render_mode
        self._button = button
        self._auto_runs = runs == "once" and max_runs(template) > 0  # only variants that run it twice ask
        self.actions = for_game(actions, template, chips=self.chips, choose_runs=runs == "agent")
        for seat, chips in enumerate(stacks):  # the encoder scales chips by the stacks seated
            template.sit_down(f"player_{seat}", chips, seat)
        self.encoder: Encoder = encoder(observation, template, **(observation_options or {}))
        # the encoder's write on arguments known good, through a memoryview of a vector of zeros
        self._write: Callable[[Game, int, Any], None] = self.encoder._write  # type: ignore[attr-defined]
        size = self.encoder.space.shape[0]
        # observe writes through one memoryview of a vector kept at zeros between calls, and hands out a copy
        self._vector = np.zeros(size, np.float32)
        self._scratch: Any = memoryview(self._vector)  # type: ignore[arg-type]  # (numpy is a buffer)
        self._blank: Any = memoryview(np.zeros(size, np.float32))  # type: ignore[arg-type]
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            a: spaces.Dict({"observation": self.encoder.space,
                            "action_mask": spaces.Box(0, 1, (self.actions.n,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: self.actions.space for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._template: Game | None = template
        self._seeds: random.Random | None = None  # the run's seed stream: each later episode's seed
        self._first_seed = seed
        self._game: Game | None = None
        self._dealt: tuple[int, tuple[Card, ...] | None] = (0, None)  # the episode's seed and chosen cards (undo)
        self._log: list[tuple[int, Any]] = []  # what was played since (undo): _begin starts it for each episode
        self.seed_used: int | None = None
        self._paid: list[int] = []
        self._played = 0
        self._rewarded = False

    # --- the spaces ------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[self.possible_agents[self._agent_seat(agent)]]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[self.possible_agents[self._agent_seat(agent)]]

    # --- the episode -------------------------------------------------------------------------------------
    def _next_seed(self, seed: int | None) -> int:
        """The seed of the next episode: ``seed`` (checked), else the one given to the constructor,
        else the next of the run's stream, else (the run's first episode) one from the operating system.
        The stream is then seeded with it (the caller restores it if the reset fails)."""
        if seed is not None:
            seed = check_seed(seed)
        elif self._first_seed is not None:
            seed = self._first_seed
        elif self._seeds is not None:
            return self._seeds.getrandbits(SEED_BITS)
        else:
            seed = new_seed()
        self._seeds = random.Random(seed)
        return seed

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new episode: a new game, every stack back to its start, dealt the first hand.

        ``seed`` (a whole number from 0 to ``2**128 - 1``) replays: without one, the first reset of a
        run draws one from the operating system and the later ones go on from it; ``seed_used`` says
        which. ``options={"cards": "Js Qs"}`` chooses the first hand's cards to come, in dealing order
        (:meth:`Game.stack_deck`: search enumerates deals so; other keys are ignored). A bad seed or
        option raises :class:`~cardgame.model.errors.ConfigError` (a bad card
        :class:`~cardgame.model.errors.CardError`) and changes nothing."""
        cards = _cards_option(options)
        stream, first = self._seeds, self._first_seed
        # _next_seed replaces the stream, but for the next seed of the run, which draws from it: only a
        # deal that can fail (chosen cards) after such a draw needs the stream's state to restore it
        drawn = seed is None and first is None and stream is not None
        state = stream.getstate() if drawn and cards is not None and stream is not None else None
        try:
            game_seed = self._next_seed(seed)
            game = self._deal(game_seed, cards)
        except CardgameError:
            self._seeds = _restored(state) if state is not None else stream
            self._first_seed = first
            raise
        self._first_seed = None
        self._begin(game, game_seed, cards)
        if self.render_mode == "human":
            self.render()

    def _deal(self, seed: int, cards: tuple[Card, ...] | None) -> Game:
        """A new game of the episode, seeded with ``seed``, dealt the first hand (``cards`` on top), copied
        from the seated template (a copy, ``copy()``, and an undo build a stage list of their own: the
        game they leave keeps its stages as they are). The stages are clean only after a game whose hand
        was over: one left in the middle of a hand (a reset before the episode ended) leaves its stages'
        state behind (a betting round's street, a draw's player), so a new stage list is built then."""
        old = self._game
        if old is not None and (old.ctx.hand is not None or old.dispatcher.status == "failed"):
            self._template = None
        if self._template is None:
            self._template = _seated(self.variant.build(**self._build), self.stacks)
        return _dealt(self._template, seed, self._button, self.hands, cards)

    def _begin(self, game: Game, game_seed: int, cards: tuple[Card, ...] | None) -> None:
        """The episode's bookkeeping for ``game`` just dealt, up to the first agent to act."""
        self._dealt = (game_seed, cards)  # what undo() deals again
        self._log = []  # what was played since: undo() plays it again but the last
        self._game = game
        self.seed_used = game_seed
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

    def _playing(self) -> Game:
        """The game of the episode; the library's error before the first ``reset``."""
        game = self._game
        if game is None:
            raise no_episode()
        return game

    def _agent_seat(self, agent: object) -> int:
        """The seat of ``agent`` (one of ``possible_agents``), else :class:`ConfigError`."""
        seat = self._seat.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise ConfigError(f"No agent {excerpt(agent)}; the agents are {', '.join(self.possible_agents)}.")
        return seat

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
        d = game.dispatcher  # (Game.to_act, inline: asked after every step)
        seat: int | None = getattr(d.current, "to_act", None) if d.status == "running" else None
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
        """Play ``action`` (an index the mask marks: an ``int`` or a numpy integer) for the agent to act;
        anything else raises :class:`~cardgame.model.errors.IllegalActionError`, naming the legal indices,
        and changes nothing. An agent whose episode ended steps ``None`` (PettingZoo's dead step)."""
        game = self._game
        if game is None:
            raise no_episode()
        agent = self.agent_selection
        if not self.agents:
            raise IllegalActionError("The episode is over: call reset() for a new one.", rule="episode over")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise IllegalActionError(f"{agent}'s episode is over: its only action is None, not {excerpt(action)}.",
                                         rule="agent done", allowed="None")
            self._was_dead_step(action)
            self._log.append((_DEAD, None))
            return
        _send(game, self._seat[agent], self.actions.decode(action, game))
        self._log.append((_STEP, action))
        self._moved(agent)

    def _play_move(self, move: Move) -> None:
        """Play ``move`` (decoded, so legal) for the agent to act."""
        agent = self.agent_selection
        game = self._game
        assert game is not None
        _send(game, self._seat[agent], move)
        self._log.append((_MOVE, move))
        self._moved(agent)

    def play_bot(self, bot: Bot, rng: random.Random, events: HandEvents) -> None:
        """Let ``bot`` answer for the agent to act, through the bot interface: it sees only its seat's
        :class:`~cardgame.play.bot.BotView` (``rng``: its own stream, ``events``: the hand's events
        rendered once for every seat); a refused answer raises :class:`~cardgame.model.errors.BotError`."""
        game = self._playing()
        agent = self.agent_selection
        if not self.agents or self.terminations[agent]:
            raise IllegalActionError("The episode is over: call reset() for a new one.", rule="episode over")
        decide(game, self._seat[agent], bot, rng, shape=self.shape, events=events)
        self._log.append((_BOT, None))
        self._moved(agent)

    def _bot_moved(self) -> None:
        """:meth:`play_bot`'s bookkeeping, for a caller that played a built-in bot's answer for the agent
        to act itself (:class:`~cardgame.rl.gym.SingleAgentEnv`: no view built)."""
        self._log.append((_BOT, None))
        self._moved(self.agent_selection)

    def undo(self) -> None:
        """Take back the last step exactly, as OpenSpiel's ``undo_action``: the game, the observations,
        masks, rewards, terminations and chips are again what they were before it. The episode is
        dealt again from its seed (and chosen cards) and every step but the last played again, so an
        undo costs a replay of the episode, and nothing is kept for it while stepping. With nothing
        played since ``reset`` (or a bot's answer among the steps: a bot is not asked twice), raises
        :class:`~cardgame.model.errors.IllegalActionError` and changes nothing."""
        self._playing()
        log = self._log
        if not log:
            raise IllegalActionError("Nothing to undo: no step since reset().", rule="nothing to undo")
        if any(kind == _BOT for kind, _ in log):
            raise IllegalActionError("A bot answered in this episode: undo takes back the environment's own steps "
                                     "only (a bot is not asked again).", rule="nothing to undo")
        seed, cards = self._dealt
        before = dict(self.__dict__)  # the replay makes new objects: these stay as they are
        render, self.render_mode = self.render_mode, None  # the replay is not shown
        self._template = None  # the replay plays on stages of its own: a failed one leaves this game whole
        try:
            self._begin(self._deal(seed, cards), seed, cards)
            for kind, what in log[:-1]:
                if kind == _DEAD:
                    self.step(None)
                elif kind == _STEP:
                    self.step(what)
                else:
                    self._play_move(what)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(before)
            raise
        finally:
            self.render_mode = render
        if self.render_mode == "human":
            self.render()

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
        if game is None:
            raise no_episode()
        seat = self._seat.get(agent) if type(agent) is str else None
        if seat is None:
            seat = self._agent_seat(agent)
        d = game.dispatcher  # (Game.to_act, inline: asked before every step)
        if (getattr(d.current, "to_act", None) == seat and d.status == "running"
                and not self.terminations.get(agent, True)):
            mask = self.actions._new_mask(game)
        else:
            mask = _zeros(self.actions.n, _INT8)
        w = self._scratch  # (a new vector's memoryview costs more than a copy of this one and zeroing it)
        try:
            self._write(game, seat, w)
            v = self._vector.copy()
        finally:
            w[:] = self._blank
        return {"observation": v, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent to act's observation, reward, termination, truncation and info (PettingZoo's)."""
        if self._game is None:
            raise no_episode()
        if observe is not True and observe is not False:
            _observe_flag(observe)
        agent = self.agent_selection  # AECEnv.last's, without its attribute walk
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent], self.terminations[agent],
                self.truncations[agent], self.infos[agent])

    # --- information for people and tests -------------------------------------------------------------------
    def table_stacks(self) -> dict[str, int]:
        """Each agent's chips now (stack plus chips in the pot of the hand in progress): public."""
        self._playing()
        return dict(zip(self.possible_agents, self._wealth(), strict=True))

    def describe(self) -> str:
        """The legal actions of the agent to act, in words."""
        return self.actions.describe(self._playing())

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

    # --- copies, for search (CFR, MCTS) ------------------------------------------------------------------
    @property
    def game(self) -> Game | None:
        """The game being played (``None`` before the first ``reset``): for search and analysis, which
        read it and copy it; an agent learns from its observation only."""
        return self._game

    def copy(self) -> raw_env:
        """An independent copy of the environment as it is now, for search: stepping one never changes
        the other, and the copy goes on exactly as the original would (:meth:`Game.copy`). Copied: the
        game and the episode's bookkeeping (agents, rewards, terminations, the seed stream); shared,
        being configuration: the spaces, the action abstraction and the encoder. A copy that is
        ``reset`` builds its own stage list."""
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._game = self._game.copy() if self._game is not None else None
        new._template = None
        new._seeds = _restored(self._seeds.getstate()) if self._seeds is not None else None
        new.agents = self.agents[:]
        new._paid = self._paid[:]
        new._log = self._log[:]
        for name in ("rewards", "_cumulative_rewards", "terminations", "truncations"):
            if name in self.__dict__:
                setattr(new, name, dict(self.__dict__[name]))
        if "infos" in self.__dict__:
            new.infos = {agent: dict(info) for agent, info in self.infos.items()}
        return new


def _forwarded(name: str) -> Any:
    """The wrapped environment's attribute ``name``, read in one step (PettingZoo's wrappers read it
    through two ``__getattr__``); before the first ``reset``, PettingZoo's ``AttributeError``."""

    def get(self: _OrderEnforcing) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(get, doc=f"The environment's ``{name}``.")


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo is untyped
    """PettingZoo's order check, raising the library's error (not an ``AssertionError``) for a call
    that needs an episode before the first ``reset``."""

    agents = _forwarded("agents")
    agent_selection = _forwarded("agent_selection")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    rewards = _forwarded("rewards")
    infos = _forwarded("infos")

    def step(self, action: Any) -> None:
        if not self._has_reset:
            raise no_episode()
        env = self.env  # OrderEnforcingWrapper.step's checks, without its attribute walk
        self._has_updated = True
        if not env.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        env.step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            raise no_episode()
        return self.env.observe(agent)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise no_episode()
        return self.env.last(observe)  # type: ignore[no-any-return]  # (the wrapper adds nothing to it)

    def agent_iter(self, max_iter: int = MAX_NUMBER) -> Any:
        if not self._has_reset:
            raise no_episode()
        return super().agent_iter(check_int(max_iter, "max_iter", ConfigError, minimum=0))

    def __str__(self) -> str:
        return str(self.env)


def env(variant: str | VariantLike = "NT", players: int = 2, **options: Any) -> AECEnv:
    """The environment for ``variant`` (see :class:`raw_env` for the options), wrapped as PettingZoo's
    classic games are: :class:`~pettingzoo.utils.wrappers.OrderEnforcingWrapper` (PettingZoo's
    illegal-move and out-of-bounds wrappers are left off: an illegal index raises the library's own
    :class:`~cardgame.model.errors.IllegalActionError`, naming it and the legal ones; so does a step
    or an observation before the first ``reset``)."""
    check_options(options, "players")
    return _OrderEnforcing(raw_env(variant, players, **options))
