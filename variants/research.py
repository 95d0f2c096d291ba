"""Research games: Kuhn poker (two players and three cards, or three players and four) and Leduc
hold'em (six cards heads-up; two more a player beyond two, as OpenSpiel deals it)."""

from __future__ import annotations

import attrs

from cardgame.engine import Stages
from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.betting import FixedLimit
from cardgame.model.cards import RANKS
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int
from cardgame.stages import BettingRound, DealBoard, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.registry import Variant, register, variant

__all__ = [
    "KUHN_DECK", "LEDUC_DECK", "LEDUC_MAX_PLAYERS", "LEDUC_VARIANT", "TWO_PLAYER_KUHN_DECK", "kuhn_poker", "leduc_deck",
    "leduc_holdem", "two_player_kuhn_poker",
]

KUHN_DECK = DeckSpec("JQKA", "s")
TWO_PLAYER_KUHN_DECK = DeckSpec("JQK", "s")
LEDUC_DECK = DeckSpec("JQK", "hs")
#: The most players Leduc hold'em deals in (OpenSpiel's ``leduc_poker`` takes 2 to 10).
LEDUC_MAX_PLAYERS = 10


def _kuhn(deck: DeckSpec, players: int, ante: int, bet: int, show_or_muck: bool, ask_to_see: bool) -> list[PokerStage]:
    structure = FixedLimit(bet, bet, cap=1, heads_up_uncapped=False)  # the cap holds heads-up too
    return [WaitForPlayers(2, max_players=players, deck=deck), ForcedBets((), ante=ante), DealHole(1),
            BettingRound(structure, 0, "betting"),
            Showdown(HIGH_CARD, show_or_muck=show_or_muck, ask_to_see=ask_to_see), EndHand()]


@variant("kuhn poker", None, "Three-player Kuhn poker, four-card deck", max_players=3, deck=KUHN_DECK)
def kuhn_poker(ante: int = 1, bet: int = 1, *, show_or_muck: bool = False, ask_to_see: bool = False
               ) -> list[PokerStage]:
    """Three-player Kuhn poker: ante, one card each, one betting round (one bet, no raise);
    ``show_or_muck`` and ``ask_to_see`` are the showdown's table rules (:class:`~cardgame.stages.Showdown`)."""
    return _kuhn(KUHN_DECK, 3, ante, bet, show_or_muck, ask_to_see)


@variant("two-player kuhn poker", None, "Kuhn poker as Kuhn defined it: two players, three cards",
         max_players=2, deck=TWO_PLAYER_KUHN_DECK)
def two_player_kuhn_poker(ante: int = 1, bet: int = 1, *, show_or_muck: bool = False, ask_to_see: bool = False
                          ) -> list[PokerStage]:
    """Kuhn's poker (1950): two players ante, one card each from J Q K, one betting round (one bet,
    no raise). The player left of the button acts first; with ante and bet 1 the game is worth
    -1/18 to that player. ``show_or_muck`` and ``ask_to_see`` as in :func:`kuhn_poker`."""
    return _kuhn(TWO_PLAYER_KUHN_DECK, 2, ante, bet, show_or_muck, ask_to_see)


def leduc_deck(players: int = 2) -> DeckSpec:
    """Leduc's deck for ``players``: two suits (hearts, spades) of ``players + 1`` ranks, up to the king
    (J Q K heads-up, T J Q K three-handed, 3 to K ten-handed), OpenSpiel's deck of ``2 * (players + 1)``
    cards, numbered the same way (rank by rank, hearts first)."""
    players = check_int(players, "players of Leduc hold'em", ConfigError, minimum=2, maximum=LEDUC_MAX_PLAYERS)
    king = RANKS.index("K")
    return DeckSpec(RANKS[king - players:king + 1], "hs")


def leduc_holdem(ante: int = 1, small_bet: int = 2, big_bet: int = 4, players: int = 2, *,
                 show_or_muck: bool = False, ask_to_see: bool = False) -> Stages:
    """Leduc hold'em: ante, one card each, a round (bet 2), one board card, a round (bet 4).

    Each round allows a bet and one raise; a pair with the board card wins, else the higher card; equal
    cards split the pot (an odd chip goes by the engine's rule, first seat left of the button, where
    OpenSpiel splits it in halves). ``players`` (2 to 10) seats are dealt in from :func:`leduc_deck`:
    OpenSpiel's ``leduc_poker`` with ``players``; the cardgame.rl environments pass their number of
    players here themselves. ``show_or_muck`` and ``ask_to_see`` as in :func:`kuhn_poker`.
    """
    players = check_int(players, "players of Leduc hold'em", ConfigError, minimum=2, maximum=LEDUC_MAX_PLAYERS)
    deck = leduc_deck(players)
    structure = FixedLimit(small_bet, big_bet, cap=2, big_from=1, heads_up_uncapped=False)  # capped heads-up
    stages = [WaitForPlayers(2, max_players=players, deck=deck), ForcedBets((), ante=ante), DealHole(1),
              BettingRound(structure, 0, "first round"), DealBoard(1, "board", burn=False),
              BettingRound(structure, 1, "second round"),
              Showdown(LEDUC, show_or_muck=show_or_muck, ask_to_see=ask_to_see), EndHand()]
    form = LEDUC_VARIANT if players == 2 else attrs.evolve(LEDUC_VARIANT, deck=deck, max_players=players)
    return Stages(stages, form)


#: Leduc hold'em as registered: the heads-up game (``leduc_holdem(players=n)`` deals ``n`` in).
LEDUC_VARIANT = register(Variant("leduc hold'em", None, leduc_holdem, "Leduc hold'em, six-card deck (2 to 10 "
                                 "players with params={'players': n})", max_players=2, deck=LEDUC_DECK))
