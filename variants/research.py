"""Research games: Kuhn poker (three players, a four-card deck) and Leduc hold'em (six cards)."""

from __future__ import annotations

from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.betting import FixedLimit
from cardgame.model.deck import DeckSpec
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.registry import variant

__all__ = ["KUHN_DECK", "LEDUC_DECK", "kuhn_poker", "leduc_holdem"]

KUHN_DECK = DeckSpec("JQKA", "s")
LEDUC_DECK = DeckSpec("JQK", "hs")


@variant("kuhn poker", None, "Three-player Kuhn poker, four-card deck", max_players=3, deck=KUHN_DECK)
def kuhn_poker(ante: int = 1, bet: int = 1) -> list[PokerStage]:
    """Three-player Kuhn poker: ante, one card each, one betting round (one bet, no raise)."""
    structure = FixedLimit(bet, bet, cap=1, heads_up_uncapped=False)  # the cap holds heads-up too
    return [WaitForPlayers(2, max_players=3, deck=KUHN_DECK), ForcedBets((), ante=ante), DealHole(1),
            BettingRound(structure, 0, "betting"), Showdown(HIGH_CARD), EndHand()]


@variant("leduc hold'em", None, "Leduc hold'em, six-card deck", max_players=2, deck=LEDUC_DECK)
def leduc_holdem(ante: int = 1, small_bet: int = 2, big_bet: int = 4) -> list[PokerStage]:
    """Leduc hold'em: ante, one card each, a round (bet 2), one board card, a round (bet 4).

    Each round allows a bet and one raise; a pair with the board card wins, else the higher card.
    """
    structure = FixedLimit(small_bet, big_bet, cap=2, big_from=1, heads_up_uncapped=False)  # capped heads-up
    return [WaitForPlayers(2, max_players=2, deck=LEDUC_DECK), ForcedBets((), ante=ante), DealHole(1),
            BettingRound(structure, 0, "first round"), DealBoard(1, "board", burn=False),
            BettingRound(structure, 1, "second round"), Showdown(LEDUC), EndHand()]
