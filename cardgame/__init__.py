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

from cardgame.engine import Dispatcher, Done, Exit, Failed, Outcome, Restart, Stage
from cardgame.model.betting import BettingStructure, FixedLimit, LegalActions, NoLimit, PotLimit
from cardgame.model.cards import CARDS, Card, format_cards, parse_card, parse_cards
from cardgame.model.context import Context
from cardgame.model.deck import SHORT_DECK, STANDARD_DECK, Deck, DeckSpec
from cardgame.model.errors import (
    BotError,
    CardError,
    CardgameError,
    ConfigError,
    HandHistoryError,
    IllegalActionError,
    StageError,
    TableError,
)
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.pots import Pot, side_pots
from cardgame.model.rng import RandomSource
from cardgame.model.table import Player, Table
from cardgame.play.bot import Bot, BotBase, BotView
from cardgame.play.game import Game
from cardgame.play.view import TableView

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

