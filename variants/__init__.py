"""Poker variants, each a function returning its stage list; look them up with :func:`get`.

=========  ===============================================  ==========================
code       game                                             function
=========  ===============================================  ==========================
``NT``     no-limit hold'em                                 :func:`no_limit_holdem`
``FT``     fixed-limit hold'em                              :func:`fixed_limit_holdem`
``NS``     no-limit short-deck hold'em                      :func:`short_deck_holdem`
``PO``     pot-limit Omaha                                  :func:`pot_limit_omaha`
``FO/8``   fixed-limit Omaha hi/lo eight or better          :func:`fixed_limit_omaha_hi_lo`
``F7S``    fixed-limit seven-card stud                      :func:`seven_card_stud`
``F7S/8``  fixed-limit seven-card stud hi/lo eight or better  :func:`seven_card_stud_hi_lo`
``FR``     fixed-limit razz                                 :func:`razz`
``N2L1D``  no-limit deuce-to-seven single draw              :func:`deuce_to_seven_single_draw`
``F2L3D``  fixed-limit deuce-to-seven triple draw           :func:`deuce_to_seven_triple_draw`
``FB``     fixed-limit badugi                               :func:`badugi`
=========  ===============================================  ==========================

Without a PHH code: ante hold'em (blind-less), five-card draw, five-card PLO, Kuhn poker and
Leduc hold'em.
"""

from variants.draw import badugi, deuce_to_seven_single_draw, deuce_to_seven_triple_draw, five_card_draw
from variants.holdem import ante_holdem, fixed_limit_holdem, no_limit_holdem
from variants.omaha import pot_limit_omaha, pot_limit_omaha_5
from variants.omaha_hi_lo import fixed_limit_omaha_hi_lo
from variants.registry import Variant, available, get, register
from variants.research import kuhn_poker, leduc_holdem
from variants.short_deck import short_deck_holdem
from variants.stud import razz, seven_card_stud, seven_card_stud_hi_lo

__all__ = [
    "Variant",
    "ante_holdem",
    "available",
    "badugi",
    "deuce_to_seven_single_draw",
    "deuce_to_seven_triple_draw",
    "five_card_draw",
    "fixed_limit_holdem",
    "fixed_limit_omaha_hi_lo",
    "get",
    "kuhn_poker",
    "leduc_holdem",
    "no_limit_holdem",
    "pot_limit_omaha",
    "pot_limit_omaha_5",
    "razz",
    "register",
    "seven_card_stud",
    "seven_card_stud_hi_lo",
    "short_deck_holdem",
]

for _variant in (
    Variant("no-limit hold'em", "NT", no_limit_holdem, "No-limit Texas hold'em with blinds", 10),
    Variant("fixed-limit hold'em", "FT", fixed_limit_holdem, "Fixed-limit Texas hold'em", 10),
    Variant("short-deck hold'em", "NS", short_deck_holdem, "No-limit six-plus hold'em, 36 cards", 9),
    Variant("pot-limit omaha", "PO", pot_limit_omaha, "Pot-limit Omaha high", 10),
    Variant("omaha hi/lo", "FO/8", fixed_limit_omaha_hi_lo, "Fixed-limit Omaha hi/lo eight or better", 10),
    Variant("seven-card stud", "F7S", seven_card_stud, "Fixed-limit seven-card stud", 8),
    Variant("stud hi/lo", "F7S/8", seven_card_stud_hi_lo, "Fixed-limit seven-card stud hi/lo eight or better", 8),
    Variant("razz", "FR", razz, "Fixed-limit seven-card stud, ace-to-five low", 8),
    Variant("2-7 single draw", "N2L1D", deuce_to_seven_single_draw, "No-limit deuce-to-seven single draw", 6),
    Variant("2-7 triple draw", "F2L3D", deuce_to_seven_triple_draw, "Fixed-limit deuce-to-seven triple draw", 6),
    Variant("badugi", "FB", badugi, "Fixed-limit badugi", 8),
    Variant("ante hold'em", None, ante_holdem, "Blind-less no-limit hold'em with antes only", 10),
    Variant("five-card draw", None, five_card_draw, "Fixed-limit five-card draw, high hand", 6),
    Variant("5-card plo", None, pot_limit_omaha_5, "Pot-limit Omaha with five hole cards", 6),
    Variant("kuhn poker", None, kuhn_poker, "Three-player Kuhn poker, four-card deck", 3),
    Variant("leduc hold'em", None, leduc_holdem, "Leduc hold'em, six-card deck", 2),
):
    register(_variant)
