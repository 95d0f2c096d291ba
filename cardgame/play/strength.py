"""Monte-Carlo hand strength of one seat from what its :class:`~cardgame.play.bot.BotView` shows, for
any variant a bot plays: :func:`situation` reads the view, and :func:`hand_strength` (with
:class:`Situation` and :func:`fast_path`, from :mod:`cardgame.evaluation.strength`) deals the unseen
cards and scores the showdowns; a :class:`~cardgame.play.shape.GameShape` is the showdown it takes.

The seed's drop-out, as :func:`situation` sets it: in the first betting round, an opponent with no
chip in the pot yet (not a blind) may fold in the deals where its cards are weak.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation.strength import Situation, fast_path, hand_strength
from cardgame.model.cards import Card
from cardgame.model.events import CardsDiscarded
from cardgame.play.shape import GameShape

__all__ = ["Situation", "fast_path", "hand_strength", "situation"]


def situation(view: object, keep: Sequence[Card] | None = None) -> Situation:
    """The :class:`Situation` of a :class:`~cardgame.play.bot.BotView`. ``keep``: in a draw game with
    draws to come, the cards the seat will keep (the rest are redrawn at random)."""
    from cardgame.play.bot import BotView

    assert isinstance(view, BotView)
    shape = view.shape
    first_round = not view.board and len(view.hole) <= len(_first_deal(shape)) and not any(
        type(e) is CardsDiscarded for e in view.history)
    opponents: list[tuple[Card, ...]] = []
    drops: list[bool] = []
    dead: list[Card] = []
    for s in view.seats:
        if s.seat == view.seat or not s.in_hand:
            continue
        up = tuple(c for c in s.hole if c is not None)
        if s.folded:
            dead.extend(up)
            continue
        opponents.append(up)
        drops.append(first_round and s.in_pot == 0)
    dead.extend(c for e in view.history if type(e) is CardsDiscarded and e.seat == view.seat
                for c in e.cards if c is not None)
    mine = tuple(view.hole) if keep is None else tuple(keep)
    total = shape.hole_cards if shape.draws == 0 else len(view.hole)
    if keep is not None:
        dead.extend(c for c in view.hole if c not in mine)
    return Situation(mine, max(total, len(mine)), tuple(view.board), max(shape.board_cards, len(view.board)),
                     tuple(opponents), max(shape.hole_cards if shape.draws == 0 else len(view.hole), 1),
                     tuple(drops), tuple(dead))


def _first_deal(shape: GameShape) -> tuple[bool, ...]:
    """The cards dealt before the first betting round: at most three (stud's two down and one up)."""
    return shape.up_cards[: 3 if any(shape.up_cards) else len(shape.up_cards)]
