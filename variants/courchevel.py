"""Courchevel: five-card Omaha with the first flop card dealt face up before the pre-flop betting.

Each player is dealt five cards face down, then one community card (the first card of the flop)
is turned face up, and the pre-flop betting follows; the other two flop cards come after it, then
the turn and the river, each followed by betting. Hands use exactly two hole cards and three board
cards (BARGE rulebook, "Courchevel"; PokerStars, "Courchevel"). Usually pot limit; often hi/lo.

The dealer burns a card before the exposed card and again before the rest of the flop, as before
every round of board cards (docs/rules.md). At most eight players: nine would need 53 cards.
PHH has no code for Courchevel: exporting a hand raises :class:`HandHistoryError`.
"""

from __future__ import annotations

from cardgame.evaluation import OMAHA_EIGHT_LOW, OMAHA_HIGH
from cardgame.model.betting import PotLimit
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, community_card_game

__all__ = ["courchevel"]


@variant("courchevel", None, "Pot-limit five-card Omaha, first flop card shown before the betting", max_players=8)
def courchevel(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, min_bet: int | None = None, hi_lo: bool = False,
    bomb_pot: int = 0, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
    button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """Pot-limit Courchevel; ``hi_lo`` splits the pot with the best Omaha eight-or-better low; ``rake``,
    ``show_or_muck``, ``ask_to_see``, ``button`` and ``new_player`` as in :func:`~variants.no_limit_holdem`."""
    return community_card_game(
        PotLimit(min_bet if min_bet is not None else big_blind),
        hole_cards=5,
        blinds=() if bomb_pot else blind_levels(small_blind, big_blind),
        ante=ante,
        high=OMAHA_HIGH,
        low=OMAHA_EIGHT_LOW if hi_lo else None,
        max_players=8,
        exposed=1,
        bomb_pot=bomb_pot,
        rake=rake,
        show_or_muck=show_or_muck,
        ask_to_see=ask_to_see,
        button=button,
        new_player=new_player,
    )
