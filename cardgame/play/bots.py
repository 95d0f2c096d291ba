"""Simple bots for demos, tests and matches, after the poker-AI seed's test opponents.

Each is a plain function ``bot(view) -> answer`` (see :mod:`cardgame.play.bot`) that works in every
variant: draws and run-out choices included. Randomness comes from ``view.rng``, the seat's
own stream derived from the game's seed, so a game between bots replays exactly. :func:`get` finds a bot by name
(``random``, ``calling-station``, ``all-in``, ``pair-raiser``, the range bots ``tight-aggressive``,
``loose-aggressive``, ``tight-passive`` and ``nit`` (:mod:`cardgame.play.styles`), ``seed-ai`` and
the seed AI's personalities ``seed-ai-tight``, ``-loose``, ``-maniac``; or a range style's TOML
file) for the command line and for matches run in other processes.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cardgame.model.betting import LegalActions
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.play.bot import Answer, Bot, BotView, _bets_by, _question_only

__all__ = ["always_all_in", "available", "calling_station", "get", "pair_raiser", "random_bot", "random_draw"]


@_question_only
def random_draw(view: BotView) -> Answer:
    """Discards a random number of random cards (in a draw), else checks or calls."""
    if view.draw is None:
        return "call"
    hole = list(view.draw.hole)
    view.rng.shuffle(hole)
    least, most = view.draw.min_discards, view.draw.max_discards
    return hole[: least + view.rng.randrange(most - least + 1)]


_CALL: tuple[Answer, ...] = ("call",)
_FOLD_CALL: tuple[Answer, ...] = ("fold", "call")


def _random_bet(legal: LegalActions, rng: random.Random) -> Answer:
    """:func:`random_bot`'s betting answer: one of the choices drawn from ``rng``."""
    options = _FOLD_CALL if legal.can_fold and not legal.bring_in else _CALL
    if legal.can_raise:
        options += (("raise", legal.min_raise_to),)
        if legal.max_raise_to != legal.min_raise_to:
            options += (("raise", max(legal.amounts) if legal.amounts else legal.max_raise_to),)
    return rng.choice(options)


@_bets_by(_random_bet)
@_question_only
def random_bot(view: BotView) -> Answer:
    """Uniform over the legal choices: fold (only facing a bet), check/call, the smallest and the
    largest raise; random discards in a draw, a random number of run-outs."""
    legal = view.legal
    if legal is None:
        if view.draw is not None:
            return random_draw(view)
        if view.runs is not None:
            return 1 + view.rng.randrange(view.runs.max_runs)
        assert view.show is not None
        return view.show.default
    return _random_bet(legal, view.rng)


def _call(legal: LegalActions, rng: random.Random) -> Answer:
    return "call"


def _all_in(legal: LegalActions, rng: random.Random) -> Answer:
    return "all_in"


@_bets_by(_call)
@_question_only
def calling_station(view: BotView) -> Answer:
    """Always checks or calls (posts a due bring-in), stands pat (throws its lowest card where a
    discard is compulsory), runs once."""
    return "call"


@_bets_by(_all_in)
@_question_only
def always_all_in(view: BotView) -> Answer:
    """The seed's 'always all-in' test bot: raises as much as allowed whenever it may, else calls."""
    return "all_in" if view.legal is not None else "call"


@_question_only
def pair_raiser(view: BotView) -> Answer:
    """The seed's second test bot: raises with a pair of fives or better (using a hole card), else
    checks or folds; stands pat in a draw."""
    if view.legal is None:
        return "call"
    ranks = [c.rank for c in (*view.hole, *view.board)]
    mine = {c.rank for c in view.hole}
    paired = any(ranks.count(r) >= 2 and r >= 3 and r in mine for r in set(ranks))
    if paired:
        return "raise"
    return "call" if view.legal.can_check or view.legal.bring_in else "fold"


def _seed_ai(personality: str) -> Callable[[], Bot]:
    def make() -> Bot:
        from cardgame.play.ai import SeedAI

        return SeedAI.personality_named(personality)

    return make


def _styled(name: str) -> Callable[[], Bot]:
    def make() -> Bot:
        from cardgame.play.rangebot import RangeBot, style
        from cardgame.play.styles import STYLES

        return RangeBot(style(STYLES[name]))

    return make


_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": lambda: random_bot,
    "calling-station": lambda: calling_station,
    "all-in": lambda: always_all_in,
    "pair-raiser": lambda: pair_raiser,
    "tight-aggressive": _styled("tight-aggressive"),
    "loose-aggressive": _styled("loose-aggressive"),
    "tight-passive": _styled("tight-passive"),
    "nit": _styled("nit"),
    "seed-ai": _seed_ai("balanced"),
    "seed-ai-tight": _seed_ai("tight"),
    "seed-ai-loose": _seed_ai("loose"),
    "seed-ai-maniac": _seed_ai("maniac"),
}


def available() -> list[str]:
    """The names :func:`get` knows."""
    return list(_FACTORIES)


def get(name: str) -> Bot:
    """A new bot called ``name`` (see :func:`available`), or one playing the range style in the TOML
    file ``name`` (ending in ``.toml``: :func:`cardgame.play.rangebot.load_style`); raises
    :class:`ConfigError` otherwise."""
    if isinstance(name, str) and name.strip().lower().endswith(".toml"):
        from cardgame.play.rangebot import RangeBot, load_style

        return RangeBot(load_style(name.strip()))
    factory = _FACTORIES.get(name.strip().lower()) if isinstance(name, str) else None
    if factory is None:
        raise ConfigError(f"Unknown bot {excerpt(name)}; the bots are {', '.join(_FACTORIES)}.")
    return factory()
