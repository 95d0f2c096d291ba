"""Seven-card stud: high (``F7S``), hi/lo eight or better (``F7S/8``) and razz (``FR``).

Antes, then two down cards and one up; the bring-in opens third street; fourth to sixth street
one up card each, seventh one down card (a community card when the deck runs short). From
fourth street the best hand showing acts first (razz: the lowest). Fixed limit: small bets on
third and fourth street, big bets from fifth.
"""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import ACE_TO_FIVE_LOW, EIGHT_OR_BETTER_LOW, HIGH, HandEvaluator
from cardgame.model.action_order import Order, best_showing_high, best_showing_low
from cardgame.model.betting import FixedLimit
from cardgame.model.rake import Rake
from cardgame.stages import BettingRound, BringIn, DealHole, EndHand, ForcedBets, Showdown, WaitForPlayers
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import posts_chips

__all__ = ["razz", "seven_card_stud", "seven_card_stud_hi_lo", "stud_game"]

STREETS = ("third street", "fourth street", "fifth street", "sixth street", "seventh street")


def stud_game(
    *, ante: int | Sequence[int], bring_in: int, small_bet: int, big_bet: int, high: HandEvaluator | None,
    low: HandEvaluator | None = None, razz_order: bool = False, open_pair_doubles: bool = False,
    cap: int = 4, heads_up_uncapped: bool = True, ante_trimming: bool = True, rake: Rake | None = None,
    show_or_muck: bool = False, ask_to_see: bool = False,
) -> list[PokerStage]:
    """The stud stage list; ``razz_order`` makes the highest card bring in and the lowest hand act first.

    ``open_pair_doubles`` allows the big bet on fourth street when a pair shows (stud high only,
    by Robert's Rules; not in stud hi/lo or razz). Odd chips of a split pot go to the highest
    card by suit (razz: the lowest), as Robert's Rules direct for stud. ``rake`` (a
    :class:`~cardgame.model.rake.Rake`) is the house's cut; stud has no flop, so it is taken only
    with ``no_flop_no_drop=False``. ``show_or_muck`` and ``ask_to_see`` are the showdown's table rules
    (:class:`~cardgame.stages.Showdown`; with no bet on seventh street the best board showing, razz the
    worst, shows first: TDA rule 16). Stud has no button, so no dead-button rule (docs/rules.md).
    """
    structure = FixedLimit(small_bet, big_bet, big_from=2, cap=cap, heads_up_uncapped=heads_up_uncapped)
    order: Order = best_showing_low if razz_order else best_showing_high
    stages: list[PokerStage] = [WaitForPlayers(2, max_players=8)]
    if posts_chips(ante):
        stages.append(ForcedBets((), ante=ante, ante_trimming=ante_trimming))
    stages += [DealHole(face_up=(False, False, True), street=STREETS[0]), BringIn(bring_in, highest=razz_order),
               BettingRound(structure, 0, STREETS[0])]
    for street in (1, 2, 3):
        stages += [DealHole(face_up=(True,), street=STREETS[street]),
                   BettingRound(structure, street, STREETS[street], order=order,
                                open_pair_doubles=open_pair_doubles and street == 1)]
    stages += [DealHole(face_up=(False,), community_if_short=True, street=STREETS[4]),
               BettingRound(structure, 4, STREETS[4], order=order),
               Showdown(high, low, odd_chips="low card" if razz_order else "high card", rake=rake,
                        show_or_muck=show_or_muck, ask_to_see=ask_to_see), EndHand()]
    return stages


@variant("seven-card stud", "F7S", "Fixed-limit seven-card stud", max_players=8)
def seven_card_stud(
    ante: int = 1, bring_in: int = 2, small_bet: int = 5, big_bet: int = 10, *, cap: int = 4,
    heads_up_uncapped: bool = True, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
) -> list[PokerStage]:
    """Seven-card stud high (PHH ``F7S``); ``rake``, ``show_or_muck`` and ``ask_to_see`` as in :func:`stud_game`."""
    return stud_game(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet, high=HIGH,
                     open_pair_doubles=True, cap=cap, heads_up_uncapped=heads_up_uncapped, rake=rake,
                     show_or_muck=show_or_muck, ask_to_see=ask_to_see)


@variant("stud hi/lo", "F7S/8", "Fixed-limit seven-card stud hi/lo eight or better", max_players=8)
def seven_card_stud_hi_lo(
    ante: int = 1, bring_in: int = 2, small_bet: int = 5, big_bet: int = 10, *, cap: int = 4,
    heads_up_uncapped: bool = True, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
) -> list[PokerStage]:
    """Seven-card stud hi/lo, eight or better (PHH ``F7S/8``); the table rules as in :func:`stud_game`."""
    return stud_game(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet, high=HIGH,
                     low=EIGHT_OR_BETTER_LOW, cap=cap, heads_up_uncapped=heads_up_uncapped, rake=rake,
                     show_or_muck=show_or_muck, ask_to_see=ask_to_see)


@variant("razz", "FR", "Fixed-limit seven-card stud, ace-to-five low", max_players=8)
def razz(
    ante: int = 1, bring_in: int = 2, small_bet: int = 5, big_bet: int = 10, *, cap: int = 4,
    heads_up_uncapped: bool = True, rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False,
) -> list[PokerStage]:
    """Razz, seven-card stud ace-to-five low (PHH ``FR``); the table rules as in :func:`stud_game`."""
    return stud_game(ante=ante, bring_in=bring_in, small_bet=small_bet, big_bet=big_bet, high=ACE_TO_FIVE_LOW,
                     razz_order=True, cap=cap, heads_up_uncapped=heads_up_uncapped, rake=rake,
                     show_or_muck=show_or_muck, ask_to_see=ask_to_see)
