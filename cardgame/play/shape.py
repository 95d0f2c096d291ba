"""What a variant deals and how its hands are ranked, read from its stage list (for bots).

A bot is never handed the :class:`~cardgame.play.game.Game`, yet a strategy needs the public rules of
the game it plays: how many cards each player ends with and which are dealt face up, how many
board cards and draws there are, the showdown's evaluators and the size of a big blind.
:func:`game_shape` reads them once from the variant's stages.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from cardgame.engine import Stage
from cardgame.evaluation.protocol import HandEvaluator
from cardgame.model.cards import Card
from cardgame.model.context import Context
from cardgame.model.deck import STANDARD_DECK, DeckSpec
from cardgame.stages import BettingRound, BringIn, DealBoard, DealHole, Draw, ForcedBets, Showdown, WaitForPlayers

__all__ = ["GameShape", "game_shape"]


@attrs.frozen
class GameShape:
    """The public rules a bot plays by.

    ``up_cards`` has one flag per hole card dealt, in the order dealt (``True``: face up, as in
    stud), less those a discard-only round throws away (its minimum); ``board_cards`` counts the
    community cards of a full board; ``draws`` the draw rounds that replace discards;
    ``high``/``low`` are the showdown's evaluators (``None``: that half is not played);
    ``big_blind`` the largest blind, or the first round's bet in a game without blinds;
    ``rounds`` the betting rounds of a hand; ``deck`` the cards the game is dealt from.
    """

    name: str
    up_cards: tuple[bool, ...]
    board_cards: int
    draws: int
    high: HandEvaluator | None
    low: HandEvaluator | None
    big_blind: int
    rounds: int
    deck: tuple[Card, ...] = STANDARD_DECK.cards

    @property
    def hole_cards(self) -> int:
        """Cards each player holds at the end of the hand (down and up)."""
        return len(self.up_cards)


def game_shape(stages: Sequence[Stage[Context]], deck: DeckSpec = STANDARD_DECK, name: str = "") -> GameShape:
    """The :class:`GameShape` of a variant's stage list (the first showdown's evaluators count);
    ``deck`` is the game's deck unless the stages deal from one of their own."""
    up: list[bool] = []
    board = draws = rounds = 0
    high: HandEvaluator | None = None
    low: HandEvaluator | None = None
    blinds: list[int] = []
    first_bet = 0
    showdown = False
    for stage in stages:
        if isinstance(stage, WaitForPlayers) and stage.deck is not None:
            deck = stage.deck
        elif isinstance(stage, DealHole):
            up.extend(stage.face_up)
        elif isinstance(stage, DealBoard):
            board += stage.count
        elif isinstance(stage, Draw) and stage.replace:
            draws += 1
        elif isinstance(stage, Draw):  # discard only (Pineapple): the cards thrown are gone for good
            del up[len(up) - min(stage.min_discards, len(up)):]
        elif isinstance(stage, ForcedBets):
            blinds.extend(stage.blinds)
        elif isinstance(stage, BringIn) and not first_bet:
            first_bet = stage.amount
        elif isinstance(stage, BettingRound):
            if not rounds:
                first_bet = max(first_bet, stage.structure.opening_bet(0))
            rounds += 1
        elif isinstance(stage, Showdown) and not showdown:
            high, low, showdown = stage.high, stage.low, True
    variant = getattr(stages, "variant", None)
    if not name and variant is not None:
        name = variant.code or variant.name
    return GameShape(name, tuple(up), board, draws, high, low, max([*blinds, first_bet, 1]), rounds,
                     deck.cards)
