"""Omaha: pot-limit Omaha high (four hole cards, exactly two used with three from the board)."""

from __future__ import annotations

from cardgame.betting import PotLimit
from cardgame.engine import Stages
from cardgame.evaluation import OMAHA_HIGH
from cardgame.stages.base import PokerStage
from variants._community import community_card_game
from variants.registry import variant

__all__ = ["pot_limit_omaha", "pot_limit_omaha_5"]


@variant("pot-limit omaha", "PO", "Pot-limit Omaha high")
def pot_limit_omaha(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, min_bet: int | None = None, hole_cards: int = 4
) -> list[PokerStage]:
    """Pot-limit Omaha (PHH ``PO``); ``hole_cards=5`` plays five-card PLO."""
    return community_card_game(
        PotLimit(min_bet if min_bet is not None else big_blind),
        hole_cards=hole_cards,
        blinds=(small_blind, big_blind),
        ante=ante,
        high=OMAHA_HIGH,
    )


@variant("5-card plo", None, "Pot-limit Omaha with five hole cards", max_players=6)
def pot_limit_omaha_5(small_blind: int = 1, big_blind: int = 2, *, ante: int = 0) -> Stages:
    """Five-card pot-limit Omaha: five hole cards, still exactly two of them used."""
    return pot_limit_omaha(small_blind, big_blind, ante=ante, hole_cards=5)
