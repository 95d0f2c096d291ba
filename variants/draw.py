"""Draw games: deuce-to-seven single draw (``N2L1D``) and triple draw (``F2L3D``), badugi
(``FB``) and five-card draw (high). Blinds, cards dealt face down, betting rounds separated by
draws, then a showdown.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import BADUGI, DEUCE_TO_SEVEN_LOW, HIGH, HandEvaluator
from cardgame.model.betting import BettingStructure, FixedLimit, NoLimit
from cardgame.stages import BettingRound, DealHole, Draw, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, posts_chips

__all__ = ["badugi", "deuce_to_seven_single_draw", "deuce_to_seven_triple_draw", "draw_game", "five_card_draw"]

DRAWS = ("first draw", "second draw", "third draw")
ROUNDS = ("predraw", "after the first draw", "after the second draw", "after the third draw")


def draw_game(
    structure: BettingStructure, *, cards: int, draws: int, blinds: Sequence[int], ante: int | Sequence[int] = 0,
    evaluator: HandEvaluator, max_players: int = 6, big_blind_ante: bool = False, ante_trimming: bool = True,
    dead: Sequence[int] = (), live: Sequence[int] = (),
) -> list[PokerStage]:
    """Blinds, ``cards`` down cards, then ``draws`` draw rounds, each followed by betting."""
    stages: list[PokerStage] = [WaitForPlayers(2, max_players=max_players)]
    if posts_chips(blinds, dead, live, ante):
        stages.append(ForcedBets(blinds, ante=ante, big_blind_ante=big_blind_ante, ante_trimming=ante_trimming,
                                 dead=dead, live=live))
    stages += [DealHole(cards), BettingRound(structure, 0, ROUNDS[0])]
    for n in range(1, draws + 1):
        several = draws > 1
        stages += [Draw(street=DRAWS[n - 1] if several else ""),
                   BettingRound(structure, n, ROUNDS[n] if several else "after the draw")]
    stages += [Showdown(evaluator), EndHand()]
    return stages


@variant("2-7 single draw", "N2L1D", "No-limit deuce-to-seven single draw", max_players=6)
def deuce_to_seven_single_draw(small_blind: int = 1, big_blind: int = 2, *, ante: int = 0,
                               min_bet: int | None = None) -> list[PokerStage]:
    """No-limit deuce-to-seven single draw (PHH ``N2L1D``): five cards, one draw, lowest wins."""
    return draw_game(NoLimit(min_bet or big_blind), cards=5, draws=1, blinds=blind_levels(small_blind, big_blind),
                     ante=ante, evaluator=DEUCE_TO_SEVEN_LOW)


@variant("2-7 triple draw", "F2L3D", "Fixed-limit deuce-to-seven triple draw", max_players=6)
def deuce_to_seven_triple_draw(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True
) -> list[PokerStage]:
    """Fixed-limit deuce-to-seven triple draw (PHH ``F2L3D``); blinds half and one small bet."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=5, draws=3, blinds=(small_bet // 2, small_bet),
                     ante=ante, evaluator=DEUCE_TO_SEVEN_LOW)


@variant("badugi", "FB", "Fixed-limit badugi", max_players=8)
def badugi(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True
) -> list[PokerStage]:
    """Fixed-limit badugi (PHH ``FB``): four cards, three draws, the best badugi wins."""
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=4, draws=3, blinds=(small_bet // 2, small_bet),
                     ante=ante, evaluator=BADUGI, max_players=8)


@variant("five-card draw", None, "Fixed-limit five-card draw, high hand", max_players=6)
def five_card_draw(
    small_bet: int = 2, big_bet: int = 4, *, ante: int = 0, cap: int = 5, heads_up_uncapped: bool = True
) -> list[PokerStage]:
    """Fixed-limit five-card draw, high hand wins; one draw. Two betting rounds allow a bet and four
    raises (Robert's Rules, betting and raising, rule 3)."""
    structure = FixedLimit(small_bet, big_bet, big_from=1, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return draw_game(structure, cards=5, draws=1,
                     blinds=(small_bet // 2, small_bet), ante=ante, evaluator=HIGH)
