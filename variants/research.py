"""Research games: Kuhn poker (two players and three cards, or three players and four) and Leduc
hold'em (six cards)."""

from __future__ import annotations

from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.betting import FixedLimit
from cardgame.model.deck import DeckSpec
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.registry import variant

__all__ = ["KUHN_DECK", "LEDUC_DECK", "TWO_PLAYER_KUHN_DECK", "kuhn_poker", "leduc_holdem", "two_player_kuhn_poker"]

KUHN_DECK = DeckSpec("JQKA", "s")
TWO_PLAYER_KUHN_DECK = DeckSpec("JQK", "s")
LEDUC_DECK = DeckSpec("JQK", "hs")


def _kuhn(deck: DeckSpec, players: int, ante: int, bet: int) -> list[PokerStage]:
    structure = FixedLimit(bet, bet, cap=1, heads_up_uncapped=False)  # the cap holds heads-up too
    return [WaitForPlayers(2, max_players=players, deck=deck), ForcedBets((), ante=ante), DealHole(1),
            BettingRound(structure, 0, "betting"), Showdown(HIGH_CARD), EndHand()]


@variant("kuhn poker", None, "Three-player Kuhn poker, four-card deck", max_players=3, deck=KUHN_DECK)
def kuhn_poker(ante: int = 1, bet: int = 1) -> list[PokerStage]:
    """Three-player Kuhn poker: ante, one card each, one betting round (one bet, no raise)."""
    return _kuhn(KUHN_DECK, 3, ante, bet)


@variant("two-player kuhn poker", None, "Kuhn poker as Kuhn defined it: two players, three cards",
         max_players=2, deck=TWO_PLAYER_KUHN_DECK)
def two_player_kuhn_poker(ante: int = 1, bet: int = 1) -> list[PokerStage]:
    """Kuhn's poker (1950): two players ante, one card each from J Q K, one betting round (one bet,
    no raise). The player left of the button acts first; with ante and bet 1 the game is worth
    -1/18 to that player."""
    return _kuhn(TWO_PLAYER_KUHN_DECK, 2, ante, bet)


@variant("leduc hold'em", None, "Leduc hold'em, six-card deck", max_players=2, deck=LEDUC_DECK)
def leduc_holdem(ante: int = 1, small_bet: int = 2, big_bet: int = 4) -> list[PokerStage]:
    """Leduc hold'em: ante, one card each, a round (bet 2), one board card, a round (bet 4).

    Each round allows a bet and one raise; a pair with the board card wins, else the higher card.
    """
    structure = FixedLimit(small_bet, big_bet, cap=2, big_from=1, heads_up_uncapped=False)  # capped heads-up
    return [WaitForPlayers(2, max_players=2, deck=LEDUC_DECK), ForcedBets((), ante=ante), DealHole(1),
            BettingRound(structure, 0, "first round"), DealBoard(1, "board", burn=False),
            BettingRound(structure, 1, "second round"), Showdown(LEDUC), EndHand()]
