"""No-limit short-deck (six-plus) hold'em, PHH ``NS``: 36 cards, a flush beats a full house,
A-6-7-8-9 is the lowest straight. Antes, plus a blind from the button (the Triton format).
"""

from __future__ import annotations

from cardgame.evaluation import SHORT_DECK_HIGH
from cardgame.model.betting import NoLimit
from cardgame.model.deck import SHORT_DECK
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import community_card_game

__all__ = ["short_deck_holdem"]


@variant("short-deck hold'em", "NS", "No-limit six-plus hold'em, 36 cards", max_players=9, deck=SHORT_DECK)
def short_deck_holdem(
    ante: int = 1, button_blind: int = 2, *, min_bet: int | None = None, rake: Rake | None = None
) -> list[PokerStage]:
    """Antes from everyone and a live blind from the button; action starts left of the button;
    ``rake`` (a :class:`~cardgame.model.rake.Rake`) is the house's cut of each pot."""
    return community_card_game(NoLimit(min_bet or button_blind), hole_cards=2, blinds=(), ante=ante,
                               button_blind=button_blind, high=SHORT_DECK_HIGH, deck=SHORT_DECK,
                               rake=rake)
