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

Without a PHH code (exporting their hands raises :class:`~cardgame.model.errors.HandHistoryError`):
ante hold'em (blind-less), five-card draw, five-card PLO, Pineapple (:func:`pineapple`), Crazy
Pineapple (:func:`crazy_pineapple`), Courchevel (:func:`courchevel`), Kuhn poker and Leduc hold'em.
The hold'em and Omaha builders take ``bomb_pot=`` (chips): every player antes that amount, there
is no pre-flop betting and play starts on the flop; PHH cannot record a bomb pot either.

A new community-card variant is assembled with :func:`community_card_game` or
:func:`community_streets` (see :mod:`variants.streets`) and registered with :func:`variant`.
"""

from variants.courchevel import courchevel
from variants.draw import badugi, deuce_to_seven_single_draw, deuce_to_seven_triple_draw, five_card_draw
from variants.holdem import ante_holdem, fixed_limit_holdem, no_limit_holdem
from variants.omaha import pot_limit_omaha, pot_limit_omaha_5
from variants.omaha_hi_lo import fixed_limit_omaha_hi_lo
from variants.pineapple import crazy_pineapple, pineapple
from variants.registry import Variant, available, get, register, variant
from variants.research import kuhn_poker, leduc_holdem, two_player_kuhn_poker
from variants.short_deck import short_deck_holdem
from variants.streets import HOLDEM_BOARD, community_card_game, community_streets
from variants.stud import razz, seven_card_stud, seven_card_stud_hi_lo

__all__ = [
    "HOLDEM_BOARD",
    "Variant",
    "ante_holdem",
    "available",
    "badugi",
    "community_card_game",
    "community_streets",
    "courchevel",
    "crazy_pineapple",
    "deuce_to_seven_single_draw",
    "deuce_to_seven_triple_draw",
    "five_card_draw",
    "fixed_limit_holdem",
    "fixed_limit_omaha_hi_lo",
    "get",
    "kuhn_poker",
    "leduc_holdem",
    "no_limit_holdem",
    "pineapple",
    "pot_limit_omaha",
    "pot_limit_omaha_5",
    "razz",
    "register",
    "seven_card_stud",
    "seven_card_stud_hi_lo",
    "short_deck_holdem",
    "two_player_kuhn_poker",
    "variant",
]
