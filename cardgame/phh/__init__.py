"""The PHH (poker hand history) file format: parse, validate and write ``.phh``/``.phhs`` files.

Format only; replaying a hand through the engine lives elsewhere. Conventions:

* ``player`` in an action is the **0-based** index (``p1`` is 0).
* Cards are tuples of :class:`~cardgame.model.cards.Card`, with ``None`` for an unknown card (``??``).
* Numbers are kept as read, except integral floats become ``int`` (``9950.0`` -> ``9950``).
* Every malformed input raises :class:`~cardgame.model.errors.HandHistoryError` naming the file, the
  hand (``hand [2]`` in a ``.phhs``) and the field or action line.

>>> [hand] = loads('''
... variant = "NT"
... antes = [0, 0]
... blinds_or_straddles = [1, 2]
... min_bet = 2
... starting_stacks = [200, 200]
... actions = ["d dh p1 AcAd", "d dh p2 ????", "p2 f"]
... ''')
>>> hand.actions[1]
DealHoleAction(player=1, cards=(None, None), commentary=None)
>>> loads(dumps(hand)) == [hand]
True
"""

from .actions import (
    Action,
    CheckCallAction,
    CompleteBetRaiseAction,
    DealBoardAction,
    DealHoleAction,
    FoldAction,
    MaybeCard,
    NoOpAction,
    Number,
    PostBringInAction,
    ShowMuckAction,
    StandPatDiscardAction,
    format_phh_cards,
    parse_action,
    parse_phh_cards,
)
from .codes import VARIANTS, VariantInfo, forbidden_fields, required_fields
from .history import FIELD_NAMES, PER_PLAYER_FIELDS, HandHistory, UnknownFieldWarning
from .io import SUFFIXES, dump, dumps, iter_paths, load, loads, save

__all__ = [
    "FIELD_NAMES",
    "PER_PLAYER_FIELDS",
    "SUFFIXES",
    "VARIANTS",
    "Action",
    "CheckCallAction",
    "CompleteBetRaiseAction",
    "DealBoardAction",
    "DealHoleAction",
    "FoldAction",
    "HandHistory",
    "MaybeCard",
    "NoOpAction",
    "Number",
    "PostBringInAction",
    "ShowMuckAction",
    "StandPatDiscardAction",
    "UnknownFieldWarning",
    "VariantInfo",
    "dump",
    "dumps",
    "forbidden_fields",
    "format_phh_cards",
    "iter_paths",
    "load",
    "loads",
    "parse_action",
    "parse_phh_cards",
    "required_fields",
    "save",
]
