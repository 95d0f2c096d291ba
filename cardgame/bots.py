"""Simple bots for demos and tests, after the poker-AI seed's test opponents.

A bot is a callable ``bot(game, seat, legal) -> (action, amount)``; randomness comes from the
game's seeded source so a game between bots replays exactly.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.betting import LegalActions
from cardgame.game import Game
from cardgame.stages.draw import DrawOptions

__all__ = ["always_all_in", "calling_station", "pair_raiser", "passive", "random_bot", "random_draw"]

Decision = tuple[str, int | None]


def random_bot(game: Game, seat: int, legal: LegalActions) -> Decision:
    """Uniform over: fold (only facing a bet), check/call, minimum raise, all-in."""
    options: list[Decision] = []
    if legal.bring_in:
        options.append(("bring_in", None))
    if legal.can_fold:
        options.append(("fold", None))
    if not legal.bring_in:
        options.append(passive(legal))
    if legal.can_raise:
        word = "bet" if legal.is_bet else "raise"
        options.append((word, legal.min_raise_to))
        if legal.max_raise_to != legal.min_raise_to:
            options.append((word, legal.max_raise_to))
    return game.ctx.rng.choice(options)


def passive(legal: LegalActions) -> Decision:
    """The cheapest way to stay in: post a due bring-in, else check or call."""
    if legal.bring_in:
        return ("bring_in", None)
    return ("call", None) if legal.call_amount else ("check", None)


def calling_station(game: Game, seat: int, legal: LegalActions) -> Decision:
    """Always checks or calls (or posts the bring-in)."""
    return passive(legal)


def always_all_in(game: Game, seat: int, legal: LegalActions) -> Decision:
    """The seed's 'always all-in' test bot: shoves whenever it may, else calls."""
    if legal.can_raise:
        return ("bet" if legal.is_bet else "raise", legal.max_raise_to)
    return passive(legal)


def pair_raiser(game: Game, seat: int, legal: LegalActions) -> Decision:
    """The seed's second test bot: raises with a pair of fives or better, else checks or folds."""
    hand = game.hand
    hole = hand.by_seat[seat].hole if hand is not None else []
    ranks = [c.rank for c in [*hole, *(hand.board if hand is not None else [])]]
    hole_ranks = {c.rank for c in hole}
    paired = any(ranks.count(r) >= 2 and r >= 3 and r in hole_ranks for r in set(ranks))
    if paired and legal.can_raise:
        return ("bet" if legal.is_bet else "raise", legal.min_raise_to)
    if legal.can_check or legal.bring_in:
        return passive(legal)
    return ("call", None) if paired else ("fold", None)


def random_draw(game: Game, options: DrawOptions) -> Sequence[int]:
    """Discards a random number of random cards (draw rounds)."""
    rng = game.ctx.rng
    hole = list(options.hole)
    rng.shuffle(hole)
    return hole[: rng.randrange(options.max_discards + 1)]
