"""What a match is: the variant, the bots, how many hands, cash or tournament, duplicate or not."""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import EXCERPT_LIMIT, check_int, excerpt
from cardgame.model.rng import check_seed, new_seed
from cardgame.play.bot import Bot

__all__ = ["MAX_HANDS", "BlindSchedule", "Match"]

MODES = ("cash", "tournament")
MAX_HANDS = 10**9
"""Hands (or duplicate deals) a match may have: days of play, and shard lists that fit in memory."""
MAX_FACTOR = 100
"""The largest factor the blinds may rise by per level (a larger one overflows the blinds in a few levels)."""


@attrs.frozen
class BlindSchedule:
    """A tournament's levels: every ``hands_per_level`` hands, each whole-number chip parameter of
    the variant (blinds, antes, bets, bring-in) is multiplied by ``factor`` (rounded; at least 1)."""

    hands_per_level: int = 25
    factor: float = 1.5

    def __attrs_post_init__(self) -> None:
        check_int(self.hands_per_level, "hands_per_level", ConfigError, minimum=1)
        factor = self.factor
        if isinstance(factor, bool) or not isinstance(factor, int | float) or not 1 <= factor <= MAX_FACTOR:
            raise ConfigError(f"The blind factor must be a number from 1 to {MAX_FACTOR}, not {excerpt(factor)}.")

    def params(self, builder: Any, params: Mapping[str, Any], level: int) -> dict[str, Any]:
        """The builder's keyword arguments at ``level`` (0 is the first)."""
        out = dict(params)
        for name, p in inspect.signature(builder).parameters.items():
            value = out.get(name, p.default)
            if isinstance(value, int) and not isinstance(value, bool) and value > 0 and name not in ("cap",):
                out[name] = max(1, round(value * self.factor**level))
        return out


def _seed_or_new(seed: int | None) -> int:
    """``seed``, or a new one from the operating system (:func:`cardgame.model.rng.new_seed`)."""
    return new_seed() if seed is None else seed


@attrs.frozen
class Match:
    """A match: ``bots`` (names for :func:`cardgame.play.bots.get`, or bot objects, copied for each
    shard) play ``hands`` hands of ``variant`` (a registered name or PHH code, built with
    ``params``), each bot starting every hand (cash) or the tournament with ``stack`` chips
    (default 100 big blinds).

    ``mode`` is ``"cash"`` (stacks reset every hand) or ``"tournament"`` (freeze-outs played one
    after another with the blinds rising by ``schedule``; each shard plays its own, and its last
    one may be cut short). With
    ``duplicate`` every deal is played once per seat rotation, so each bot gets each seat's cards.
    Hands are played in shards of ``shard_hands`` deals seeded from ``seed``
    (``numpy.random.SeedSequence.spawn``): results depend on the seed alone, not on the workers.
    Without a ``seed`` the match draws one of 128 bits from the operating system (``match.seed``,
    reported in the results): the match replays from it, and no bot can guess it; a small chosen
    seed can be found by a bot that tries them all.
    ``record`` (a SQLite file) and ``phh`` (a ``.phhs`` file) keep every hand played.
    """

    variant: str
    bots: tuple[str | Bot, ...]
    hands: int
    seed: int = attrs.field(default=None, converter=_seed_or_new)
    stack: int | None = None
    mode: str = "cash"
    duplicate: bool = False
    schedule: BlindSchedule = BlindSchedule()
    params: Mapping[str, Any] = attrs.field(factory=dict)
    shard_hands: int = 500
    record: str | None = None
    phh: str | None = None

    def __attrs_post_init__(self) -> None:
        import variants
        from cardgame.play.bots import get

        v = variants.get(self.variant)
        if isinstance(self.bots, str | bytes) or not isinstance(self.bots, Sequence):
            raise ConfigError(f"bots are a list of bot names or callables bot(view), not {excerpt(self.bots)}.")
        if not 2 <= len(self.bots) <= v.max_players:
            raise ConfigError(f"{v.name} is played by 2 to {v.max_players} bots, not {len(self.bots)}.")
        for bot in self.bots:
            if isinstance(bot, str):
                get(bot)
            elif not callable(bot):
                raise ConfigError(f"A bot is a name or a callable bot(view), not {excerpt(bot)}.")
        for name, value in (("hands", self.hands), ("shard_hands", self.shard_hands)):
            check_int(value, name, ConfigError, minimum=1, maximum=MAX_HANDS)
        check_seed(self.seed)
        if self.stack is not None:
            check_int(self.stack, "stack (in chips)", ConfigError, minimum=1)
        if self.mode not in MODES:
            raise ConfigError(f"mode must be one of {', '.join(MODES)}, not {excerpt(self.mode)}.")
        if self.duplicate and self.mode != "cash":
            raise ConfigError("Duplicate matches are cash games: a tournament cannot be replayed seat by seat.")
        try:
            v.build(**self.params)
        except TypeError as exc:
            raise ConfigError(f"Bad parameters for {v.name}: {str(exc)[:EXCERPT_LIMIT * 2]}.") from None

    @property
    def names(self) -> tuple[str, ...]:
        """Each bot's name in results (``seed-ai``, ``seed-ai#2`` for a second one)."""
        out: list[str] = []
        for bot in self.bots:
            base = bot if isinstance(bot, str) else getattr(bot, "__name__", type(bot).__name__)
            name, k = base, 2
            while name in out:
                name, k = f"{base}#{k}", k + 1
            out.append(name)
        return tuple(out)
