"""Fixed-limit Omaha hi/lo eight or better, PHH ``FO/8``: the pot splits between the best high
hand and the best qualifying low, each made of exactly two hole cards and three board cards.
"""

from __future__ import annotations

from cardgame.evaluation import OMAHA_EIGHT_LOW, OMAHA_HIGH
from cardgame.model.betting import FixedLimit
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import community_card_game

__all__ = ["fixed_limit_omaha_hi_lo"]


@variant("omaha hi/lo", "FO/8", "Fixed-limit Omaha hi/lo eight or better")
def fixed_limit_omaha_hi_lo(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True,
    bomb_pot: int = 0, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
    button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """Blinds of half a small bet and a small bet; four hole cards; ``bomb_pot``, ``rake``, ``show_or_muck``,
    ``ask_to_see``, ``button`` and ``new_player`` as in :func:`~variants.omaha.pot_limit_omaha`."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return community_card_game(structure, hole_cards=4, blinds=() if bomb_pot else (small_bet // 2, small_bet),
                               ante=ante, high=OMAHA_HIGH, low=OMAHA_EIGHT_LOW, bomb_pot=bomb_pot, rake=rake,
                               show_or_muck=show_or_muck, ask_to_see=ask_to_see, button=button,
                               new_player=new_player)
