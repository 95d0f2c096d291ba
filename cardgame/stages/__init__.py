"""The stages of a poker hand, one per module."""

from cardgame.stages.betting_round import BettingResult, BettingRound
from cardgame.stages.deal_board import DealBoard
from cardgame.stages.deal_hole import DealHole
from cardgame.stages.forced_bets import ForcedBets, ForcedBetsResult
from cardgame.stages.showdown import Showdown, ShowdownResult
from cardgame.stages.wait_for_players import HandOpened, WaitForPlayers

__all__ = [
    "BettingResult",
    "BettingRound",
    "DealBoard",
    "DealHole",
    "ForcedBets",
    "ForcedBetsResult",
    "HandOpened",
    "Showdown",
    "ShowdownResult",
    "WaitForPlayers",
]
