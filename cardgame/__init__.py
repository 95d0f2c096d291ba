"""cardgame: poker assembled from small, reusable state machines.

A variant is a list of stages; a :class:`Dispatcher` runs them; :class:`Game` puts a table and a
small player API around it::

    from cardgame import Game
    from variants import no_limit_holdem

    game = Game(no_limit_holdem(1, 2), seed=7)
    game.sit_down("Ann", 200); game.sit_down("Bob", 200)
    game.start()
    game.call(game.to_act)
"""

from cardgame.betting import BettingStructure, FixedLimit, LegalActions, NoLimit, PotLimit
from cardgame.bot import Bot, BotBase, BotView
from cardgame.cards import CARDS, Card, format_cards, parse_card, parse_cards
from cardgame.context import Context
from cardgame.deck import SHORT_DECK, STANDARD_DECK, Deck, DeckSpec
from cardgame.engine import Dispatcher, Done, Exit, Failed, Outcome, Restart, Stage
from cardgame.errors import (
    BotError,
    CardError,
    CardgameError,
    ConfigError,
    HandHistoryError,
    IllegalActionError,
    StageError,
    TableError,
)
from cardgame.game import Game
from cardgame.hand import Hand, HandPlayer
from cardgame.pots import Pot, side_pots
from cardgame.rng import RandomSource
from cardgame.table import Player, Table
from cardgame.view import TableView

__all__ = [
    "CARDS",
    "SHORT_DECK",
    "STANDARD_DECK",
    "BettingStructure",
    "Bot",
    "BotBase",
    "BotError",
    "BotView",
    "Card",
    "CardError",
    "CardgameError",
    "ConfigError",
    "Context",
    "Deck",
    "DeckSpec",
    "Dispatcher",
    "Done",
    "Exit",
    "Failed",
    "FixedLimit",
    "Game",
    "Hand",
    "HandHistoryError",
    "HandPlayer",
    "IllegalActionError",
    "LegalActions",
    "NoLimit",
    "Outcome",
    "Player",
    "Pot",
    "PotLimit",
    "RandomSource",
    "Restart",
    "Stage",
    "StageError",
    "Table",
    "TableError",
    "TableView",
    "format_cards",
    "parse_card",
    "parse_cards",
    "side_pots",
]

__version__ = "0.1.0"

