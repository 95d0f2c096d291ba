"""One seat learns, bots play the others: a Gymnasium environment over :mod:`cardgame.rl.env`.

``SingleAgentEnv("NT", seat=0, opponents="seed-ai")``: the learner's observations and action space are
its agent's in the AEC environment (``{"observation", "action_mask"}``, one ``Discrete`` space);
every other seat is a bot from :mod:`cardgame.play.bots` (or any :class:`~cardgame.play.bot.Bot`)
answering through the bot interface, so each sees only its own seat's view and draws randomness
from its own stream, derived from the game's seed. A step plays the learner's action and then the
bots' until the learner is asked again or the episode ends; the reward is the chips (or big
blinds) the learner won in the hands that ended meanwhile.

Every registered variant is also a Gymnasium id (:func:`gym_id`), registered when ``cardgame.rl`` is
imported: ``gymnasium.make("cardgame/NT-v0", players=3)`` is ``SingleAgentEnv("NT", players=3)``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np

from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.play import bots as named_bots
from cardgame.play.bot import Bot, HandEvents, _betting_answer, _play_answer, seat_label, seat_rng
from cardgame.play.game import VariantLike
from cardgame.rl.actions import Move
from cardgame.rl.env import _choice, check_options, check_seed, no_episode, raw_env

__all__ = ["ILLEGAL", "NAMESPACE", "SingleAgentEnv", "gym_id", "make", "register"]

#: What :class:`SingleAgentEnv` does with an index the mask does not mark: ``"raise"`` the library's
#: :class:`~cardgame.model.errors.IllegalActionError`, or play the ``"passive"`` answer instead.
ILLEGAL = ("raise", "passive")

Observation = dict[str, np.ndarray]

_MAX_BOT_NAME = 100  # characters of a bot's name


def _bot(spec: object) -> Bot:
    if isinstance(spec, str):
        return named_bots.get(check_text(spec, "bot name", ConfigError, max_length=_MAX_BOT_NAME))
    if callable(spec):
        return spec  # any callable view -> answer is a bot
    raise ConfigError(f"An opponent is a bot name ({', '.join(named_bots.available())}) or a bot (a callable "
                      f"taking a BotView), not {excerpt(spec)}.")


class SingleAgentEnv(gymnasium.Env[Observation, int]):
    """The learner plays ``seat``; ``opponents`` the others: a bot name (a new bot for each seat),
    a bot, or one name or bot per other seat in seat order. ``illegal`` (see :data:`ILLEGAL`):
    ``"passive"`` plays any action but a legal index (a masked index, a number outside the space,
    anything not an index) as check/call (stand pat, run once) and says so in ``info["illegal"]``.
    The other options are :class:`~cardgame.rl.env.raw_env`'s. ``seed_used`` is the seed of the
    episode being played (``reset(seed=env.seed_used)`` plays it again; see docs/rl.md).

    An episode that ends before the learner is asked anything (the others fold to its big blind)
    is dealt again at ``reset``; ``info["skipped"]`` counts those and ``info["skipped_reward"]``
    sums the learner's rewards in them, so a win rate can count them.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012  (gymnasium's instance attribute)

    def __init__(
        self,
        variant: str | VariantLike = "NT",
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "seed-ai",
        players: int = 2,
        *,
        illegal: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        illegal = _choice("illegal", illegal, ILLEGAL)
        check_options(options, "seat", "opponents", "players", "illegal")
        self.aec = raw_env(variant, players, render_mode=render_mode, **options)
        players = len(self.aec.possible_agents)
        seat = check_int(seat, "learner's seat", ConfigError, minimum=0, maximum=players - 1)
        others = [s for s in range(players) if s != seat]
        if isinstance(opponents, str) or callable(opponents):
            specs: list[object] = [opponents] * len(others)
        elif isinstance(opponents, Sequence) and len(opponents) == len(others):
            specs = list(opponents)
        else:
            raise ConfigError(f"opponents must be a bot name, a bot, or one per other seat ({len(others)}), "
                              f"not {excerpt(opponents)}.")
        self.bots: dict[int, Bot] = {s: _bot(spec) for s, spec in zip(others, specs, strict=True)}
        self._quick = {s: _betting_answer(bot) for s, bot in self.bots.items()}  # built-in bots: no view
        self._labels = {s: seat_label(s) for s in self.bots}  # each bot's stream (seat_rng)
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self._events = HandEvents()
        self._done = True
        self._begun = False

    @property
    def seed_used(self) -> int | None:
        """The seed of the episode being played (``None`` before the first ``reset``)."""
        return self.aec.seed_used

    def _new_game(self, seed: int | None) -> None:
        self.aec.reset(seed=seed)
        game = self.aec._game
        assert game is not None
        self._events = HandEvents()

    def _play_bots(self) -> float:
        """Let the bots answer until the learner is asked or the episode ends; the learner's reward.
        A bot's stream (:func:`~cardgame.play.bot.seat_rng`, derived from the game's seed and its
        seat) is made when it is first asked, the same stream as made at the deal."""
        aec = self.aec
        agent, terminations, seats, rewards = self.agent, aec.terminations, aec._seat, aec.rewards
        reward = 0.0
        while not terminations[agent] and aec.agent_selection != agent:
            seat = seats[aec.agent_selection]
            game = aec._game
            assert game is not None
            quick = self._quick[seat]
            legal = game.legal_actions() if quick is not None else None
            if legal is not None:  # a built-in bot's betting answer, from the question and its stream: no view
                assert quick is not None
                _play_answer(game, seat, legal, quick(legal, game.ctx.rng.stream(self._labels[seat])), self.bots[seat])
                aec._bot_moved()
            else:
                aec.play_bot(self.bots[seat], seat_rng(game, seat), self._events)
            terminations, rewards = aec.terminations, aec.rewards  # (replaced when a hand ends)
            reward += rewards.get(agent, 0)
        return reward

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new episode, dealt until the learner has a decision (see the class). ``seed``: a whole
        number from 0 to ``2**128 - 1`` (``None``: the first reset draws one from the operating
        system, the later ones go on from it; ``seed_used`` says which); ``options``: none are taken (a
        mapping is ignored). A bad seed raises :class:`~cardgame.model.errors.ConfigError`."""
        if seed is not None:
            seed = check_seed(seed)
        if options is not None and not isinstance(options, Mapping):
            raise ConfigError(f"reset's options are a mapping (none are taken), not {excerpt(options)}.")
        super().reset(seed=seed)
        info = self._begin(seed)
        if self.render_mode == "human":
            self.render()
        return self.aec.observe(self.agent), info

    def _begin(self, seed: int | None) -> dict[str, Any]:
        """:meth:`reset` without the observation (the vector environment encodes into its arrays)."""
        skipped, skipped_reward = 0, 0.0
        self._new_game(seed)
        reward = self.aec.rewards.get(self.agent, 0) + self._play_bots()
        while self.aec.terminations[self.agent]:
            skipped += 1
            skipped_reward += reward
            if skipped > 1000:
                raise ConfigError("1,000 episodes ended before the learner had a decision; check the stacks and "
                                  "the variant.")
            self._new_game(None)
            reward = self.aec.rewards.get(self.agent, 0) + self._play_bots()
        self._carried = reward  # hands paid before the first decision (multi-hand episodes): paid with the first step
        self._done = False
        self._begun = True
        return {"skipped": skipped, "skipped_reward": skipped_reward}

    def step(self, action: int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the learner, then the bots; the learner's reward meanwhile. An action
        refused raises :class:`~cardgame.model.errors.IllegalActionError` and changes nothing."""
        reward, terminated, info = self._play(*self._move(action))
        return self.aec.observe(self.agent), reward, terminated, False, info

    def _move(self, action: object) -> tuple[Move, bool]:
        """The move ``action`` means for the learner now, and whether ``illegal="passive"`` replaced it;
        :class:`IllegalActionError` if it is refused (nothing changes)."""
        if self._done:
            if not self._begun:
                raise no_episode()
            raise IllegalActionError("The episode is over; call reset().", rule="no episode")
        actions = self.aec.actions
        game = self.aec._game
        assert game is not None
        if self.illegal == "passive":
            index = actions.index_or_none(action)
            if index is None or not actions.mask(game)[index]:
                return actions.decode(actions.passive(game), game), True
        return actions.decode(action, game), False

    def _play(self, move: Move, replaced: bool) -> tuple[float, bool, dict[str, Any]]:
        """:meth:`step` after :meth:`_move`, without the observation: the reward, whether the episode
        ended, the info."""
        aec = self.aec
        aec._play_move(move)
        reward = self._carried + aec.rewards.get(self.agent, 0) + self._play_bots()
        self._carried = 0.0
        terminated = bool(aec.terminations[self.agent])
        self._done = terminated
        return float(reward), terminated, {"illegal": True} if replaced else {}

    def action_masks(self) -> np.ndarray:
        """The learner's action mask now (the name sb3-contrib's maskable learners call)."""
        if not self._begun:
            raise no_episode()
        game = self.aec._game
        assert game is not None
        return self.aec.actions.mask(game) if not self._done else np.zeros(self.aec.actions.n, np.int8)

    def render(self) -> str | None:
        """The status table as text (``"human"``: printed)."""
        return self.aec.render()


#: The Gymnasium namespace of the variants' ids.
NAMESPACE = "cardgame"


def gym_id(variant: VariantLike) -> str:
    """``variant``'s Gymnasium id: ``cardgame/CODE-v0`` by its PHH code (``cardgame/NT-v0``), else by its
    name in lower case (``cardgame/leduc-holdem-v0``); apostrophes dropped, any other run of characters
    but letters and digits made one ``-`` (``FO/8``: ``cardgame/FO-8-v0``)."""
    if not isinstance(variant, VariantLike) or not isinstance(variant.name, str):
        raise ConfigError(f"gym_id takes a variant (variants.get(...)), not {excerpt(variant)}.")
    code = getattr(variant, "code", None)
    base = code if isinstance(code, str) and code else variant.name.lower()
    return f"{NAMESPACE}/{re.sub(r'[^A-Za-z0-9]+', '-', base.replace(chr(39), '')).strip('-')}-v0"


def make(variant: str = "NT", **options: Any) -> SingleAgentEnv:
    """Gymnasium's entry point for the ids :func:`register` adds: :class:`SingleAgentEnv` for ``variant``
    (a name or PHH code) with ``options``; an option it does not take is a
    :class:`~cardgame.model.errors.ConfigError` naming the ones it does."""
    return SingleAgentEnv(variant, **options)


def register() -> list[str]:
    """Register every variant of ``variants.available()`` with Gymnasium (:func:`gym_id`; done when
    ``cardgame.rl`` is imported; again after registering a variant of one's own); the ids, in order."""
    import variants

    ids = []
    for variant in variants.available():
        env_id = gym_id(variant)
        if env_id in ids:
            raise ConfigError(f"Two variants have the Gymnasium id {env_id}; rename one.")
        ids.append(env_id)
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:make", kwargs={"variant": variant.code or variant.name})
    return ids


register()
