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

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names below, for type checkers; at run time each is imported when first used
    from cardgame.engine import Dispatcher, Done, Exit, Failed, Goto, Outcome, PassOn, Push, Restart, Stage
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
        ReplayError,
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
    from cardgame.stages.base import PokerStage

#: Where each public name lives: ``import cardgame`` (or the kernel, ``cardgame.engine``) loads no
#: poker module until one of these is used.
_WHERE = {
    'BettingStructure': 'cardgame.model.betting',
    'Bot': 'cardgame.play.bot',
    'BotBase': 'cardgame.play.bot',
    'BotError': 'cardgame.model.errors',
    'BotView': 'cardgame.play.bot',
    'CARDS': 'cardgame.model.cards',
    'Card': 'cardgame.model.cards',
    'CardError': 'cardgame.model.errors',
    'CardgameError': 'cardgame.model.errors',
    'ConfigError': 'cardgame.model.errors',
    'Context': 'cardgame.model.context',
    'Deck': 'cardgame.model.deck',
    'DeckSpec': 'cardgame.model.deck',
    'Dispatcher': 'cardgame.engine',
    'Done': 'cardgame.engine',
    'Exit': 'cardgame.engine',
    'Failed': 'cardgame.engine',
    'FixedLimit': 'cardgame.model.betting',
    'Game': 'cardgame.play.game',
    'Goto': 'cardgame.engine',
    'Hand': 'cardgame.model.hand',
    'HandHistoryError': 'cardgame.model.errors',
    'HandPlayer': 'cardgame.model.hand',
    'IllegalActionError': 'cardgame.model.errors',
    'LegalActions': 'cardgame.model.betting',
    'NoLimit': 'cardgame.model.betting',
    'Outcome': 'cardgame.engine',
    'PassOn': 'cardgame.engine',
    'Player': 'cardgame.model.table',
    'PokerStage': 'cardgame.stages.base',
    'Pot': 'cardgame.model.pots',
    'PotLimit': 'cardgame.model.betting',
    'Push': 'cardgame.engine',
    'RandomSource': 'cardgame.model.rng',
    'ReplayError': 'cardgame.model.errors',
    'Restart': 'cardgame.engine',
    'SHORT_DECK': 'cardgame.model.deck',
    'STANDARD_DECK': 'cardgame.model.deck',
    'Stage': 'cardgame.engine',
    'StageError': 'cardgame.model.errors',
    'Table': 'cardgame.model.table',
    'TableError': 'cardgame.model.errors',
    'TableView': 'cardgame.play.view',
    'format_cards': 'cardgame.model.cards',
    'parse_card': 'cardgame.model.cards',
    'parse_cards': 'cardgame.model.cards',
    'side_pots': 'cardgame.model.pots',
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'cardgame' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_WHERE])

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
    "Goto",
    "Hand",
    "HandHistoryError",
    "HandPlayer",
    "IllegalActionError",
    "LegalActions",
    "NoLimit",
    "Outcome",
    "PassOn",
    "Player",
    "PokerStage",
    "Pot",
    "PotLimit",
    "Push",
    "RandomSource",
    "ReplayError",
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

