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
from variants.registry import Variant, available, get, register, variant
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
    "variant",
]
