"""Draw games: deuce-to-seven single draw (``N2L1D``) and triple draw (``F2L3D``), badugi
(``FB``) and five-card draw (high). Blinds, cards dealt face down, betting rounds separated by
draws, then a showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import BADUGI, DEUCE_TO_SEVEN_LOW, HIGH, HandEvaluator
from cardgame.model.betting import BettingStructure, FixedLimit, NoLimit
from cardgame.model.rake import Rake
from cardgame.stages import BettingRound, DealHole, Draw, EndHand, Showdown
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, opening

__all__ = ["badugi", "deuce_to_seven_single_draw", "deuce_to_seven_triple_draw", "draw_game", "five_card_draw"]

DRAWS = ("first draw", "second draw", "third draw")
ROUNDS = ("predraw", "after the first draw", "after the second draw", "after the third draw")


def draw_game(
    structure: BettingStructure, *, cards: int, draws: int, blinds: Sequence[int], ante: int | Sequence[int] = 0,
    evaluator: HandEvaluator, max_players: int = 6, big_blind_ante: bool = False, ante_trimming: bool = True,
    dead: Sequence[int] = (), live: Sequence[int] = (), rake: Rake | None = None, show_or_muck: bool = False,
    ask_to_see: bool = False, button: str = "moving", new_player: str = "post", entry_ante: bool = False,
) -> list[PokerStage]:
    """Blinds, ``cards`` down cards, then ``draws`` draw rounds, each followed by betting.

    The table rules as in :func:`~variants.streets.community_card_game`: ``button``, ``new_player`` and
    ``entry_ante`` (the dead button, :func:`~variants.streets.opening`), ``rake`` (a draw game sees no flop:
    raked only with ``no_flop_no_drop=False``), ``show_or_muck`` and ``ask_to_see``
    (:class:`~cardgame.stages.Showdown`)."""
    stages = opening(max_players=max_players, blinds=blinds, ante=ante, big_blind_ante=big_blind_ante,
                     ante_trimming=ante_trimming, dead=dead, live=live, button=button, new_player=new_player,
                     entry_ante=entry_ante)
    stages += [DealHole(cards), BettingRound(structure, 0, ROUNDS[0])]
    for n in range(1, draws + 1):
        several = draws > 1
        stages += [Draw(street=DRAWS[n - 1] if several else ""),
                   BettingRound(structure, n, ROUNDS[n] if several else "after the draw")]
    stages += [Showdown(evaluator, rake=rake, show_or_muck=show_or_muck, ask_to_see=ask_to_see), EndHand()]
    return stages


@variant("2-7 single draw", "N2L1D", "No-limit deuce-to-seven single draw", max_players=6)
def deuce_to_seven_single_draw(
    small_blind: int = 1, big_blind: int = 2, *, ante: int = 0, min_bet: int | None = None, rake: Rake | None = None,
    show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving", new_player: str = "post",
) -> list[PokerStage]:
    """No-limit deuce-to-seven single draw (PHH ``N2L1D``): five cards, one draw, lowest wins; the table
    rules (``rake``, ``show_or_muck``, ``ask_to_see``, ``button``, ``new_player``) as in :func:`draw_game`."""
    return draw_game(NoLimit(min_bet or big_blind), cards=5, draws=1, blinds=blind_levels(small_blind, big_blind),
                     ante=ante, evaluator=DEUCE_TO_SEVEN_LOW, rake=rake, show_or_muck=show_or_muck,
                     ask_to_see=ask_to_see, button=button, new_player=new_player)


@variant("2-7 triple draw", "F2L3D", "Fixed-limit deuce-to-seven triple draw", max_players=6)
def deuce_to_seven_triple_draw(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True,
    rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """Fixed-limit deuce-to-seven triple draw (PHH ``F2L3D``); blinds half and one small bet; the table
    rules as in :func:`draw_game`."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=5, draws=3, blinds=(small_bet // 2, small_bet),
                     ante=ante, evaluator=DEUCE_TO_SEVEN_LOW, rake=rake, show_or_muck=show_or_muck,
                     ask_to_see=ask_to_see, button=button, new_player=new_player)


@variant("badugi", "FB", "Fixed-limit badugi", max_players=8)
def badugi(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True,
    rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """Fixed-limit badugi (PHH ``FB``): four cards, three draws, the best badugi wins; the table rules as
    in :func:`draw_game`."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=4, draws=3, blinds=(small_bet // 2, small_bet),
                     ante=ante, evaluator=BADUGI, max_players=8, rake=rake, show_or_muck=show_or_muck,
                     ask_to_see=ask_to_see, button=button, new_player=new_player)


@variant("five-card draw", None, "Fixed-limit five-card draw, high hand", max_players=6)
def five_card_draw(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 5, heads_up_uncapped: bool = True,
    rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """Fixed-limit five-card draw, high hand wins; one draw. Two betting rounds allow a bet and four
    raises (Robert's Rules, betting and raising, rule 3). The table rules as in :func:`draw_game`."""
    structure = FixedLimit(small_bet, big_bet, big_from=1, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=5, draws=1, blinds=(small_bet // 2, small_bet), ante=ante, evaluator=HIGH,
                     rake=rake, show_or_muck=show_or_muck, ask_to_see=ask_to_see, button=button,
                     new_player=new_player)
