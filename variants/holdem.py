"""Texas hold'em: no-limit, fixed-limit, and a blind-less no-limit game with antes only."""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.evaluation import HIGH
from cardgame.model.betting import FixedLimit, NoLimit
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.rake import Rake
from cardgame.stages.base import PokerStage
from variants.registry import variant
from variants.streets import blind_levels, community_card_game

__all__ = ["ante_holdem", "fixed_limit_holdem", "no_limit_holdem"]


@variant("no-limit hold'em", "NT", "No-limit Texas hold'em with blinds")
def no_limit_holdem(
    small_blind: int = 1,
    big_blind: int = 2,
    *,
    ante: int = 0,
    big_blind_ante: bool = False,
    straddles: Sequence[int] = (),
    min_bet: int | None = None,
    run_it_twice: bool = False,
    bomb_pot: int = 0,
    rake: Rake | None = None,
    show_or_muck: bool = False,
    ask_to_see: bool = False,
    button: str = "moving",
    new_player: str = "post",
    entry_ante: bool = False,
) -> list[PokerStage]:
    """No-limit hold'em (PHH ``NT``): blinds, optional antes or big-blind ante, straddles; with
    ``run_it_twice``, players all in before the river may run the board twice; ``rake`` (a
    :class:`~cardgame.model.rake.Rake`) is the house's cut of each pot. With ``show_or_muck``, players
    show or muck in turn at the showdown (TDA rule 16), and with ``ask_to_see`` may ask to see a called
    hand mucked unshown (TDA rule 18): see :class:`~cardgame.stages.Showdown`. ``button="dead"`` plays the
    dead-button rule, ``new_player`` ("post" or "wait") how players come in under it; with the big-blind
    ante the big blind's player posts it, and ``entry_ante`` makes a big blind posted to come in carry it
    too (:func:`~variants.streets.community_card_game`).

    ``bomb_pot`` (chips) makes every hand a bomb pot: everyone antes that amount instead of the
    blinds, there is no pre-flop betting and play starts on the flop (PHH cannot record it)."""
    if isinstance(straddles, str | bytes) or not isinstance(straddles, Sequence):
        raise ConfigError(f"straddles are a list of amounts in chips (each twice the last), not {excerpt(straddles)}.")
    return community_card_game(
        NoLimit(min_bet if min_bet is not None else big_blind),
        hole_cards=2,
        blinds=() if bomb_pot else blind_levels(small_blind, big_blind, *straddles),
        ante=ante,
        big_blind_ante=big_blind_ante,
        high=HIGH,
        run_it_twice=run_it_twice,
        bomb_pot=bomb_pot,
        rake=rake,
        show_or_muck=show_or_muck,
        ask_to_see=ask_to_see,
        button=button,
        new_player=new_player,
        entry_ante=entry_ante,
    )


@variant("fixed-limit hold'em", "FT", "Fixed-limit Texas hold'em")
def fixed_limit_holdem(
    small_bet: int = 2, big_bet: int = 4, *, small_blind: int | None = None, big_blind: int | None = None,
    ante: int = 0, cap: int = 4, heads_up_uncapped: bool = True, bomb_pot: int = 0,
    rake: Rake | None = None, show_or_muck: bool = False, ask_to_see: bool = False, button: str = "moving",
    new_player: str = "post",
) -> list[PokerStage]:
    """Fixed-limit hold'em (PHH ``FT``): blinds default to half a small bet and a small bet;
    ``bomb_pot``, ``rake``, ``show_or_muck``, ``ask_to_see``, ``button`` and ``new_player`` as in
    :func:`no_limit_holdem`.

    ``cap`` bets and raises a round (a bet and three raises; the big blind is the bet pre-flop);
    heads-up the cap is lifted (Robert's Rules, betting and raising, rule 4) unless ``heads_up_uncapped``
    is ``False`` (the tournament practice)."""
    small_bet = check_int(small_bet, "small_bet", ConfigError, minimum=1)
    sb = small_blind if small_blind is not None else small_bet // 2
    bb = big_blind if big_blind is not None else small_bet
    structure = FixedLimit(small_bet, big_bet, cap=cap, heads_up_uncapped=heads_up_uncapped)
    return community_card_game(structure, hole_cards=2, blinds=() if bomb_pot else blind_levels(sb, bb), ante=ante,
                               high=HIGH, bomb_pot=bomb_pot, rake=rake, show_or_muck=show_or_muck,
                               ask_to_see=ask_to_see, button=button, new_player=new_player)


@variant("ante hold'em", None, "Blind-less no-limit hold'em with antes only")
def ante_holdem(ante: int = 1, min_bet: int = 2, *, rake: Rake | None = None, show_or_muck: bool = False,
                ask_to_see: bool = False) -> list[PokerStage]:
    """Blind-less no-limit hold'em: everyone antes, action starts left of the button (no blinds, so no
    dead-button rule: the button moves); ``rake``, ``show_or_muck`` and ``ask_to_see`` as in
    :func:`no_limit_holdem`."""
    return community_card_game(NoLimit(min_bet), hole_cards=2, blinds=(), ante=ante, high=HIGH, rake=rake,
                               show_or_muck=show_or_muck, ask_to_see=ask_to_see)
