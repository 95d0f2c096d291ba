"""Pineapple and Crazy Pineapple: hold'em with three hole cards, one of them thrown away.

Each player is dealt three cards face down and must discard one, not replaced, leaving a
hold'em hand of two; the rest is hold'em (any five of the two hole cards and five board cards).
The games differ in when the discard happens:

* Pineapple: after the pre-flop betting round, before the flop is dealt (poker-vibe.com, "Crazy
  Pineapple"; pokersocialite.com, "Crazy Pineapple"; regles-poker.biz). Some rooms discard before
  the pre-flop betting instead (docs/rules.md); the engine plays the rule those sources give.
* Crazy Pineapple: after the flop betting round, before the turn (poker-ranking.com, "Crazy
  Pineapple"; poker-vibe.com); usually spread fixed-limit, often hi/lo eight or better.

The discard is a :class:`~cardgame.stages.Draw` round in discard-only mode with exactly one
discard. PHH has no code for either game: exporting a hand raises :class:`HandHistoryError`.
"""

from __future__ import annotations

from cardgame.evaluation import EIGHT_OR_BETTER_LOW, HIGH
from cardgame.model.betting import FixedLimit, NoLimit
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, community_card_game

__all__ = ["crazy_pineapple", "pineapple"]


@variant("pineapple", None, "No-limit hold'em with three hole cards, one discarded before the flop")
def pineapple(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, min_bet: int | None = None, bomb_pot: int = 0,
    rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """No-limit Pineapple: three hole cards; after the pre-flop betting each player discards one.

    ``bomb_pot`` (chips): every player antes that amount instead of the blinds, there is no
    pre-flop betting, and players discard before the flop. ``rake``, ``show_or_muck``, ``ask_to_see``,
    ``button`` and ``new_player`` as in :func:`~variants.no_limit_holdem`."""
    return community_card_game(
        NoLimit(min_bet if min_bet is not None else big_blind),
        hole_cards=3,
        blinds=() if bomb_pot else blind_levels(small_blind, big_blind),
        ante=ante,
        high=HIGH,
        discard_before="flop",
        bomb_pot=bomb_pot,
        rake=rake,
        show_or_muck=show_or_muck,
        ask_to_see=ask_to_see,
        button=button,
        new_player=new_player,
    )


@variant("crazy pineapple", None, "Fixed-limit hold'em with three hole cards, one discarded before the turn")
def crazy_pineapple(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True,
    hi_lo: bool = False, bomb_pot: int = 0, rake: Rake | None = None, show_or_muck: bool = False,
    ask_to_see: bool = False, button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """Fixed-limit Crazy Pineapple: three hole cards; after the flop betting each player discards
    one. Blinds of half a small bet and a small bet; ``hi_lo`` splits the pot with the best eight-
    or-better low (any five of the seven cards); the table rules as in :func:`pineapple`."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return community_card_game(
        structure,
        hole_cards=3,
        blinds=() if bomb_pot else (small_bet // 2, small_bet),
        ante=ante,
        high=HIGH,
        low=EIGHT_OR_BETTER_LOW if hi_lo else None,
        discard_before="turn",
        bomb_pot=bomb_pot,
        rake=rake,
        show_or_muck=show_or_muck,
        ask_to_see=ask_to_see,
        button=button,
        new_player=new_player,
    )
