"""Omaha: pot-limit Omaha high (four hole cards, exactly two used with three from the board)."""

from __future__ import annotations

from cardgame.evaluation import OMAHA_HIGH
from cardgame.model.betting import PotLimit
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, community_card_game

__all__ = ["pot_limit_omaha", "pot_limit_omaha_5"]


@variant("pot-limit omaha", "PO", "Pot-limit Omaha high")
def pot_limit_omaha(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, min_bet: int | None = None, hole_cards: int = 4,
    bomb_pot: int = 0, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
    button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """Pot-limit Omaha (PHH ``PO``); ``hole_cards=5`` plays five-card PLO; ``bomb_pot`` (chips): every
    player antes that amount instead of the blinds and play starts on the flop (PHH cannot record it);
    ``rake`` (a :class:`~cardgame.model.rake.Rake`) is the house's cut of each pot; ``show_or_muck``,
    ``ask_to_see``, ``button`` and ``new_player`` as in :func:`~variants.no_limit_holdem` (the showdown's
    and the dead button's table rules)."""
    return community_card_game(
        PotLimit(min_bet if min_bet is not None else big_blind),
        hole_cards=hole_cards,
        blinds=() if bomb_pot else blind_levels(small_blind, big_blind),
        ante=ante,
        high=OMAHA_HIGH,
        bomb_pot=bomb_pot,
        rake=rake,
        show_or_muck=show_or_muck,
        ask_to_see=ask_to_see,
        button=button,
        new_player=new_player,
    )


@variant("5-card plo", None, "Pot-limit Omaha with five hole cards", max_players=6)
def pot_limit_omaha_5(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, bomb_pot: int = 0, rake: Rake | None = None,
    show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """Five-card pot-limit Omaha: five hole cards, still exactly two of them used; at most six players
    are dealt in (nine would need 53 cards); the table rules as in :func:`pot_limit_omaha`."""
    blinds = () if bomb_pot else blind_levels(small_blind, big_blind)
    return community_card_game(PotLimit(big_blind), hole_cards=5, blinds=blinds, ante=ante, high=OMAHA_HIGH,
                               bomb_pot=bomb_pot, max_players=6, rake=rake, show_or_muck=show_or_muck,
                               ask_to_see=ask_to_see, button=button, new_player=new_player)
