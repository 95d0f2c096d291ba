"""The stages of a poker hand, one per module."""

from cardgame.stages.betting_round import BettingResult, BettingRound
from cardgame.stages.bring_in import BringIn, BringInResult
from cardgame.stages.dead_button import BlindsOpened, DeadButtonBlinds, DeadButtonWait
from cardgame.stages.deal_board import DealBoard
from cardgame.stages.deal_hole import DealHole
from cardgame.stages.draw import Draw, DrawOptions
from cardgame.stages.end_hand import EndHand
from cardgame.stages.forced_bets import ForcedBets, ForcedBetsResult
from cardgame.stages.run_it_twice import RunItTwice, RunOptions
from cardgame.stages.showdown import ShowChoice, Showdown, ShowdownResult, ShowOptions
from cardgame.stages.wait_for_players import HandOpened, WaitForPlayers

__all__ = [
    "BettingResult",
    "BettingRound",
    "BlindsOpened",
    "BringIn",
    "BringInResult",
    "DeadButtonBlinds",
    "DeadButtonWait",
    "DealBoard",
    "DealHole",
    "Draw",
    "DrawOptions",
    "EndHand",
    "ForcedBets",
    "ForcedBetsResult",
    "HandOpened",
    "RunItTwice",
    "RunOptions",
    "ShowChoice",
    "ShowOptions",
    "Showdown",
    "ShowdownResult",
    "WaitForPlayers",
]
