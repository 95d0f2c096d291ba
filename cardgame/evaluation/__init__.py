"""Hand evaluation: high hands, Omaha, lowball, badugi, short deck, batches and equity.

``evaluate_high(cards)`` returns an int, higher is better, equal is a tie; it is the 6-nibble
value of the poker-AI seed, so ``category(v) == v >> 20``. ``describe_high`` adds the text and
the five cards used. Each kind of hand has a :class:`HandEvaluator` instance for the showdown
(``HIGH``, ``OMAHA_HIGH``, ``EIGHT_OR_BETTER_LOW``...) whose ``rank`` is higher-is-better and
``None`` for a hand that does not qualify; :func:`winners` returns the indices of all best hands.
Hand ranges (``parse_range("AKs, QQ+")``) are in :mod:`cardgame.evaluation.ranges`; equity lives
in :mod:`cardgame.evaluation.equity` (imported on demand).
"""

from cardgame.evaluation.badugi import BADUGI, BadugiEvaluator, describe_badugi, evaluate_badugi
from cardgame.evaluation.batch import evaluate_high_batch
from cardgame.evaluation.describe import HandValue, describe_high
from cardgame.evaluation.evaluators import HIGH, HighEvaluator
from cardgame.evaluation.high import CATEGORY_NAMES, category, evaluate_high, nibble_value
from cardgame.evaluation.lowball import (
    ACE_TO_FIVE_LOW,
    DEUCE_TO_SEVEN_LOW,
    EIGHT_OR_BETTER_LOW,
    AceToFiveLowEvaluator,
    DeuceToSevenLowEvaluator,
    EightOrBetterLowEvaluator,
    ace_to_five_low,
    describe_ace_to_five_low,
    describe_deuce_to_seven_low,
    describe_eight_or_better_low,
    deuce_to_seven_low,
    eight_or_better_low,
)
from cardgame.evaluation.omaha import (
    OMAHA_EIGHT_LOW,
    OMAHA_HIGH,
    OmahaEightLowEvaluator,
    OmahaHighEvaluator,
    omaha_eight_low,
    omaha_high,
)
from cardgame.evaluation.protocol import HandEvaluator, winners
from cardgame.evaluation.ranges import Range, RangeError, hand_class, parse_range
from cardgame.evaluation.short_deck import (
    SHORT_DECK_CATEGORY_NAMES,
    SHORT_DECK_HIGH,
    ShortDeckHighEvaluator,
    describe_short_deck_high,
    short_deck_high,
)

__all__ = [
    "ACE_TO_FIVE_LOW",
    "BADUGI",
    "CATEGORY_NAMES",
    "DEUCE_TO_SEVEN_LOW",
    "EIGHT_OR_BETTER_LOW",
    "HIGH",
    "OMAHA_EIGHT_LOW",
    "OMAHA_HIGH",
    "SHORT_DECK_CATEGORY_NAMES",
    "SHORT_DECK_HIGH",
    "AceToFiveLowEvaluator",
    "BadugiEvaluator",
    "DeuceToSevenLowEvaluator",
    "EightOrBetterLowEvaluator",
    "HandEvaluator",
    "HandValue",
    "HighEvaluator",
    "OmahaEightLowEvaluator",
    "OmahaHighEvaluator",
    "Range",
    "RangeError",
    "ShortDeckHighEvaluator",
    "ace_to_five_low",
    "category",
    "describe_ace_to_five_low",
    "describe_badugi",
    "describe_deuce_to_seven_low",
    "describe_eight_or_better_low",
    "describe_high",
    "describe_short_deck_high",
    "deuce_to_seven_low",
    "eight_or_better_low",
    "evaluate_badugi",
    "evaluate_high",
    "evaluate_high_batch",
    "hand_class",
    "nibble_value",
    "omaha_eight_low",
    "omaha_high",
    "parse_range",
    "short_deck_high",
    "winners",
]
