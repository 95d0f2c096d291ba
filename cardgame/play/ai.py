"""The poker-AI seed's bot, complete: hand strength, pot odds, rate of return, the fold/call/raise
table, stack protection; personalities are parameter sets. (The named styles, tight-aggressive and
the rest, play ranges: :mod:`cardgame.play.rangebot`.)

Per decision (Mick West, "Programming Poker AI"):

* hand strength ``HS``: Monte-Carlo against the opponents still in the hand, ties shared, with the
  seed's drop-out of weak hands (:func:`cardgame.play.strength.hand_strength`);
* pot odds: what the decision costs (the call, or the smallest bet when checking is free) over the
  pot after paying it; rate of return ``RR = HS / pot odds``;
* the table: below ``thresholds[0]`` fold/call/raise with ``table[0]``'s chances, and so on; a
  fold that costs nothing is a check;
* stack protection: a call or raise that would leave fewer than ``protect_blinds`` big blinds
  behind is made only with ``HS >= protect_strength``, else the bot folds (or checks);
* a raise adds ``raise_pot`` times the pot (after calling) to the bet, at least the minimum.

Draws discard by rule of thumb (:func:`discards`). All randomness comes from ``view.rng``, the
seat's own stream derived from the game's seed (the Monte-Carlo generator is seeded from it), so a
match replays exactly.
"""

from __future__ import annotations

import math
from collections import Counter

import attrs
import numpy as np

from cardgame.evaluation.badugi import BadugiEvaluator
from cardgame.evaluation.lowball import AceToFiveLowEvaluator, DeuceToSevenLowEvaluator
from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError
from cardgame.model.events import CardsDiscarded
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.bot import Answer, BotBase, BotView
from cardgame.play.strength import fast_path, hand_strength, situation

__all__ = ["PERSONALITIES", "Personality", "SeedAI", "discards", "strength"]


@attrs.frozen
class Personality:
    """The seed AI's parameters. ``table`` rows are (fold, call, raise) chances for each band of
    the rate of return split at ``thresholds``."""

    thresholds: tuple[float, ...] = (0.8, 1.0, 1.3)
    table: tuple[tuple[float, float, float], ...] = ((0.95, 0.0, 0.05), (0.8, 0.05, 0.15), (0.0, 0.6, 0.4),
                                                     (0.0, 0.3, 0.7))
    protect_blinds: int = 4
    protect_strength: float = 0.5
    raise_pot: float = 0.75
    samples: int = 500
    slow_samples: int = 60
    drop_weak: bool = True
    weakest: str = "66"

    def __attrs_post_init__(self) -> None:
        try:
            numbers = [*self.thresholds, *(x for row in self.table for x in row), self.protect_strength, self.raise_pot]
            if not all(type(x) is not bool and math.isfinite(x) for x in numbers) or not all(map(len, self.table)):
                raise TypeError
        except (TypeError, ValueError, OverflowError):
            raise ConfigError(f"A personality's thresholds, table rows and fractions are finite numbers, not "
                              f"{excerpt(self.thresholds)} and {excerpt(self.table)}.") from None
        for what in ("protect_blinds", "samples", "slow_samples"):
            check_int(getattr(self, what), what, ConfigError, minimum=0)
        if len(self.table) != len(self.thresholds) + 1 or list(self.thresholds) != sorted(self.thresholds):
            raise ConfigError("A personality needs increasing thresholds and one table row more than thresholds.")
        for row in self.table:
            if len(row) != 3 or min(row) < 0 or abs(sum(row) - 1) > 1e-9:
                raise ConfigError(f"Each table row is three chances (fold, call, raise) adding up to 1, "
                                  f"not {excerpt(row)}.")
        if self.samples < 1 or self.slow_samples < 1:
            raise ConfigError("samples and slow_samples must be at least 1.")


PERSONALITIES: dict[str, Personality] = {
    "balanced": Personality(),
    "tight": Personality(thresholds=(0.9, 1.1, 1.5), table=((0.98, 0.0, 0.02), (0.9, 0.05, 0.05),
                                                           (0.0, 0.75, 0.25), (0.0, 0.4, 0.6)), raise_pot=0.5),
    "loose": Personality(thresholds=(0.6, 0.9, 1.2), table=((0.85, 0.1, 0.05), (0.5, 0.35, 0.15),
                                                           (0.0, 0.7, 0.3), (0.0, 0.4, 0.6)), protect_strength=0.4),
    "maniac": Personality(thresholds=(0.5, 0.8, 1.1), table=((0.7, 0.1, 0.2), (0.3, 0.3, 0.4), (0.0, 0.4, 0.6),
                                                            (0.0, 0.2, 0.8)), raise_pot=1.0, protect_strength=0.35),
}


def _generator(view: BotView) -> np.random.Generator:
    """A numpy generator seeded from the game's random source."""
    return np.random.default_rng(view.rng.randrange(1 << 63))


def _draws_left(view: BotView) -> int:
    mine = sum(1 for e in view.history if type(e) is CardsDiscarded and e.seat == view.seat)
    return max(view.shape.draws - mine, 0)


def strength(view: BotView, samples: int = 500, slow_samples: int = 60, *, drop_weak: bool = True,
             weakest: str = "66") -> float:
    """The seat's Monte-Carlo hand strength; in a draw game with draws to come, of the cards it
    would keep (:func:`discards`) with the rest redrawn."""
    keep = None
    extra = len(view.hole) - view.shape.hole_cards
    if extra > 0 and view.draw is None:  # a discard to come, not replaced (Pineapple): judge the cards kept
        out = list(discards(view))[:extra]
        out += [c for c in sorted(view.hole, key=lambda c: c.rank) if c not in out][: extra - len(out)]
        keep = tuple(c for c in view.hole if c not in out)
    elif _draws_left(view) and view.draw is None:
        thrown = set(discards(view))
        keep = tuple(c for c in view.hole if c not in thrown)
    where = situation(view, keep)
    fast = fast_path(view.shape, where.mine_total + where.board_total) is not None
    return hand_strength(view.shape, where, _generator(view), samples=samples if fast else slow_samples,
                         drop_weak=drop_weak, weakest=weakest)


def discards(view: BotView) -> tuple[Card, ...]:
    """Rule-of-thumb discards for the seat's hand under the game's showdown (at most the draw's limit)."""
    hole = list(view.hole)
    evaluator = view.shape.high
    ranks = Counter(c.rank for c in hole)
    if isinstance(evaluator, DeuceToSevenLowEvaluator | AceToFiveLowEvaluator):
        deuce = isinstance(evaluator, DeuceToSevenLowEvaluator)
        order = sorted(hole, key=lambda c: c.rank if deuce else (c.rank + 1) % 13)  # lowest first
        keep: list[Card] = []
        for c in order:
            low_rank = c.rank if deuce else (c.rank + 1) % 13
            paired = c.rank in {k.rank for k in keep}
            if not paired and low_rank <= (6 if deuce else 7) and not (deuce and c.rank == 12):
                keep.append(c)
        if deuce and len(keep) == 5 and (len({c.suit for c in keep}) == 1 or max(c.rank for c in keep)
                                         - min(c.rank for c in keep) == 4):
            keep.pop()  # a flush or a straight: break it
        out = [c for c in hole if c not in keep]
    elif isinstance(evaluator, BadugiEvaluator):
        keep = []
        for c in sorted(hole, key=lambda c: (c.rank + 1) % 13):
            if all(c.rank != k.rank and c.suit != k.suit for k in keep):
                keep.append(c)
        out = [c for c in hole if c not in keep]
    else:  # high hands: keep pairs and better, else a four-flush, else the two highest cards
        suits = Counter(c.suit for c in hole)
        suit, count = suits.most_common(1)[0]
        if any(n >= 2 for n in ranks.values()):
            out = [c for c in hole if ranks[c.rank] == 1]
        elif count >= 4:
            out = [c for c in hole if c.suit != suit]
        else:
            out = sorted(hole, key=lambda c: c.rank)[:-2]
    limit = view.draw.max_discards if view.draw is not None else len(hole)
    least = view.draw.min_discards if view.draw is not None else 0
    if len(out) < least:  # a discard is compulsory (Pineapple): throw the lowest of the kept cards too
        out += sorted((c for c in hole if c not in out), key=lambda c: c.rank)[: least - len(out)]
    return tuple(sorted(out, key=lambda c: -c.rank)[:limit])


class SeedAI(BotBase):
    """The poker-AI seed's bot with one :class:`Personality` (see the module)."""

    def __init__(self, personality: Personality | None = None) -> None:
        self.personality = personality or Personality()

    @classmethod
    def personality_named(cls, name: str) -> SeedAI:
        """A bot with the personality called ``name`` (see :data:`PERSONALITIES`)."""
        if not isinstance(name, str) or name not in PERSONALITIES:
            raise ConfigError(f"Unknown personality {excerpt(name)}; the personalities are {', '.join(PERSONALITIES)}.")
        return cls(PERSONALITIES[name])

    def __repr__(self) -> str:
        return f"SeedAI({self.personality!r})"

    def act(self, view: BotView) -> Answer:
        legal = view.legal
        assert legal is not None
        p = self.personality
        if legal.bring_in:
            return "call"  # post the bring-in; completing is the next street's business
        hs = strength(view, p.samples, p.slow_samples, drop_weak=p.drop_weak, weakest=p.weakest)
        me = view.me
        cost = legal.call_amount or (legal.min_raise_to - me.bet if legal.can_raise else 0)
        if cost <= 0:
            rr = float("inf")
        else:
            rr = hs / (cost / (view.pot + cost))
        band = sum(1 for t in p.thresholds if rr >= t)
        fold, call, _ = p.table[band]
        roll = view.rng.random()
        choice = "fold" if roll < fold else "call" if roll < fold + call else "raise"
        answer: Answer = choice
        if choice == "raise" and legal.can_raise:
            target = legal.bet_to + legal.call_amount + round(p.raise_pot * (view.pot + legal.call_amount))
            to = min(max(target, legal.min_raise_to), legal.max_raise_to)
            if legal.amounts:
                to = min(legal.amounts, key=lambda a: abs(a - to))
            cost = to - me.bet
            answer = ("raise", to)
        elif choice == "raise":
            choice, cost = "call", legal.call_amount
            answer = "call"
        if choice != "fold" and me.stack - cost < p.protect_blinds * view.shape.big_blind and hs < p.protect_strength:
            if choice == "raise" and me.stack - legal.call_amount >= p.protect_blinds * view.shape.big_blind:
                answer = "call"  # the raise would commit the stack; a call does not
            else:
                answer = "fold"
        if answer == "fold" and legal.can_check:
            return "check"  # the seed: a fold that costs nothing is a check
        return answer

    def discard(self, view: BotView) -> Answer:
        return discards(view)
