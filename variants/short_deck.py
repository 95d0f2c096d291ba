"""No-limit short-deck (six-plus) hold'em, PHH ``NS``: 36 cards, a flush beats a full house,
A-6-7-8-9 is the lowest straight. Antes, plus a blind from the button (the Triton format).
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import SHORT_DECK_HIGH
from cardgame.model.betting import NoLimit
from cardgame.model.deck import SHORT_DECK
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, community_card_game

__all__ = ["short_deck_holdem"]


@variant("short-deck hold'em", "NS", "No-limit six-plus hold'em, 36 cards", max_players=9, deck=SHORT_DECK)
def short_deck_holdem(
    ante: int = 1, button_blind: int = 2, *, min_bet: int | None = None, rake: Rake | None = None,
    blinds: Sequence[int] = (), show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """Antes from everyone and a live blind from the button; action starts left of the button;
    ``rake`` (a :class:`~cardgame.model.rake.Rake`) is the house's cut of each pot.

    ``blinds=(small, big)`` adds a small and a big blind (short deck as cash games often spread it;
    give ``button_blind=0`` for blinds alone); with them ``button="dead"`` plays the dead-button rule
    (it takes no button blind), ``new_player`` as in :func:`~variants.no_limit_holdem`.
    ``show_or_muck`` and ``ask_to_see`` are the showdown's table rules."""
    if isinstance(blinds, str | bytes) or not isinstance(blinds, Sequence) or len(blinds) not in (0, 2):
        raise ConfigError(f"blinds are (small blind, big blind) in chips, or () for none, not {excerpt(blinds)}.")
    if button == "dead" and not blinds:
        raise ConfigError("The dead button places a small and a big blind: give blinds=(small, big) and "
                          "button_blind=0 with button='dead'.")
    levels = blind_levels(blinds[0], blinds[1]) if blinds else ()
    opening_bet = min_bet or button_blind or (levels[1] if levels else 0)
    return community_card_game(NoLimit(opening_bet), hole_cards=2, blinds=levels, ante=ante,
                               button_blind=button_blind, high=SHORT_DECK_HIGH, deck=SHORT_DECK,
                               rake=rake, show_or_muck=show_or_muck, ask_to_see=ask_to_see, button=button,
                               new_player=new_player)
