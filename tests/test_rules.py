"""Each rule of docs/rules.md pinned by a scripted hand with exact stacks (Robert's Rules, TDA)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cardgame.engine import Stage
from cardgame.evaluation import HIGH
from cardgame.model.betting import BettingStructure, FixedLimit, NoLimit
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import BetReturned, DiscardsReshuffled, ForcedBetPosted, HoleCardsDealt, PotAwarded
from cardgame.phh import dumps, loads
from cardgame.phh.export import hand_to_phh
from cardgame.phh.games import POKERKIT, stages_for
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.stages import BettingRound
from tests.variants.test_holdem_end_to_end import scripted
from variants import (
    deuce_to_seven_triple_draw,
    fixed_limit_holdem,
    no_limit_holdem,
    razz,
    seven_card_stud,
)
from variants.streets import community_card_game


def stacks(game: Game) -> list[int]:
    return [p.stack for p in game.table.players()]


def dealt(stages: list[Stage], stacks_: Sequence[int], button: int, cards: str) -> Game:
    """One hand dealt from a deck whose top cards are ``cards`` (no burns: stud and draw)."""
    game = Game(stages, seats=len(stacks_), first_button=button, seed=0, max_hands=1)
    for i, s in enumerate(stacks_):
        game.sit_down(f"p{i}", s, i)
    game.ctx.stack_deck(parse_cards(cards))
    game.start()
    return game


def posted(game: Game) -> list[tuple[int, str, int]]:
    return [(e.seat, e.bet, e.amount) for e in game.events if isinstance(e, ForcedBetPosted)]


# --- big-blind ante (TDA 2024: the big blind first, then the ante) ---------------------------------


def test_big_blind_ante_is_dead_money_a_short_all_in_can_win() -> None:
    # p0 (SB, 10 chips) shoves, p1 (BB) calls and loses: the pot is 10 + 10 + the 2-chip ante.
    game = scripted(no_limit_holdem(1, 2, ante=2, big_blind_ante=True), [10, 100, 100], 2,
                    "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.fold(2)
    game.all_in(0)
    game.call(1)
    assert stacks(game) == [22, 88, 100]
    assert [(e.amount, e.winners) for e in game.events if isinstance(e, PotAwarded)] == [(22, (0,))]


def test_big_blind_ante_is_never_returned_when_everyone_folds_to_a_raise() -> None:
    game = scripted(no_limit_holdem(1, 2, ante=2, big_blind_ante=True), [100, 100, 100], 2,
                    "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.raise_to(2, 6)
    game.fold(0)
    game.fold(1)
    assert stacks(game) == [99, 96, 105]


def test_a_short_big_blind_posts_the_blind_before_the_ante() -> None:
    game = scripted(no_limit_holdem(1, 2, ante=2, big_blind_ante=True), [100, 3, 100], 2,
                    "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    assert posted(game) == [(0, "small blind", 1), (1, "big blind", 2), (1, "big blind ante", 1)]
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 2


def _bba_hand_exported(script: str) -> tuple[Game, str]:
    game = scripted(no_limit_holdem(1, 2, ante=2, big_blind_ante=True), [10, 100, 100], 2,
                    "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    if script == "shove":
        game.fold(2)
        game.all_in(0)
        game.call(1)
    else:
        game.raise_to(2, 6)
        game.fold(0)
        game.fold(1)
    return game, dumps(hand_to_phh(game.events, game.dispatcher.stages))


@pytest.mark.parametrize("script", ["shove", "raise and fold"])
def test_an_exported_big_blind_ante_hand_says_the_ante_is_dead_money(script: str) -> None:
    # The engine plays a big-blind ante as dead money in the main pot (TDA): the export says the
    # antes are not trimmed, and both our replay and PokerKit's score the hand as it was played.
    game, text = _bba_hand_exported(script)
    assert "ante_trimming_status = false" in text
    [hh] = loads(text)
    assert [int(s) for s in replay(hh).stacks] == stacks(game)
    pokerkit = pytest.importorskip("pokerkit")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(pokerkit.HandHistory.loads(text))
        assert list(states[-1].stacks) == stacks(game)
        # trimmed, PokerKit would make the ante the big blind's own contribution: another result
        trimmed = text.replace("ante_trimming_status = false", "ante_trimming_status = true")
        assert list(list(pokerkit.HandHistory.loads(trimmed))[-1].stacks) != stacks(game)


# --- short blinds (TDA: the others call the full blind) ------------------------------------------


def test_a_big_blind_all_in_on_the_ante_still_sets_the_full_blind() -> None:
    game = scripted(no_limit_holdem(1, 2, ante=1), [100, 1, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    assert posted(game) == [(0, "ante", 1), (1, "ante", 1), (2, "ante", 1), (0, "small blind", 1)]
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 2 and la.min_raise_to == 4


def test_a_big_blind_short_by_its_stack_sets_the_full_blind() -> None:
    game = scripted(no_limit_holdem(1, 2), [100, 1, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 2


# --- fixed limit: all-ins (Robert's Rules, betting and raising, rule 6) ----------------------------


def _limp_to_the_turn(bb_stack: int) -> Game:
    """Fixed-limit 2/4, p0 SB, p1 BB with ``bb_stack``, p2 button: everyone limps and checks to the turn."""
    game = scripted(fixed_limit_holdem(2, 4), [100, bb_stack, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.call(2)
    game.call(0)
    game.check(1)
    for seat in (0, 1, 2):
        game.check(seat)
    return game


def test_limit_all_in_of_half_a_bet_or_more_is_raised_a_full_bet_over_it() -> None:
    game = _limp_to_the_turn(5)  # p1 has 3 left on the 4-chip turn
    game.check(0)
    game.bet(1, 3)  # all-in
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == la.max_raise_to == 7
    game.raise_to(2, 7)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.min_raise_to == 11 and la.call_amount == 7


def test_limit_all_in_under_half_a_bet_may_be_completed() -> None:
    game = _limp_to_the_turn(3)  # p1 has 1 left
    game.check(0)
    game.bet(1, 1)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 1 and la.min_raise_to == 4
    game.raise_to(2, 4)  # completing counts as the bet: p0 may raise it
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.min_raise_to == 8


def test_limit_all_in_raise_under_half_does_not_reopen_the_betting() -> None:
    game = _limp_to_the_turn(7)  # p1 has 5 left
    game.bet(0, 4)
    game.raise_to(1, 5)  # all-in, one chip over the bet
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == 8  # complete the raise
    game.call(2)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and not la.can_raise and la.call_amount == 1
    game.call(0)
    assert game.hand is not None and game.hand.street == "river"


def test_limit_all_in_raise_of_half_a_bet_reopens_the_betting() -> None:
    game = _limp_to_the_turn(8)  # p1 has 6 left
    game.bet(0, 4)
    game.raise_to(1, 6)  # all-in, half a bet over
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == 10
    game.call(2)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.can_raise and la.min_raise_to == 10


# Robert's Rules, rule 6: "An all-in wager of a half a bet or more is treated as a full bet [...]
# (An example of a full raise on a $20 betting round is raising a $15 all-in bet to $35.) Multiple
# all-in wagers, each of an amount too small to individually qualify as a raise, still act as a raise
# and reopen the betting if the resulting wager size to a player qualifies as a raise."


def _limit_flop(stacks_: Sequence[int], structure: FixedLimit | None = None) -> Game:
    """Fixed-limit 20/40 (blinds 10/20), p0 SB, p1 BB, p3 button; everyone calls 20 pre-flop. On the
    20-chip flop p0 acts first. p1's KsKc makes three kings and wins every pot."""
    stages = community_card_game(structure or FixedLimit(20, 40), hole_cards=2, blinds=(10, 20), high=HIGH)
    game = scripted(stages, stacks_, 3, "AsAc KsKc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.call(2)
    game.call(3)
    game.call(0)
    game.check(1)
    return game


def _check_down(game: Game) -> None:
    while game.status_name == "running":
        game.check(game.to_act)  # type: ignore[arg-type]


def test_limit_short_all_ins_add_up_to_a_bet_and_reopen_the_betting() -> None:
    # The example: on a 20-chip round all-ins to 8 and then 15 are a 15-chip wager, half a
    # bet or more: a full bet. p0 and p1 checked; facing 15 they may raise, to 15 + 20 = 35.
    game = _limit_flop([200, 200, 28, 35])
    game.check(0)
    game.check(1)
    game.bet(2, 8)  # all-in, under half a bet: p3 may call or complete
    la = game.legal_actions()
    assert la is not None and la.seat == 3 and la.call_amount == 8 and la.max_raise_to == 15  # all p3 has
    game.raise_to(3, 15)  # all-in: 7 more, with the 8 a wager of 15
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.call_amount == 15 and la.amounts == ()
    assert la.can_raise and la.min_raise_to == la.max_raise_to == 35
    game.raise_to(0, 35)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.min_raise_to == 55
    game.call(1)
    _check_down(game)
    # pots: 80 pre-flop + 4 x 8, 3 x 7 and 2 x 20 on the flop, all to p1's three kings
    assert stacks(game) == [145, 318, 0, 0]


def test_a_limit_all_in_bet_of_fifteen_on_a_twenty_round_is_raised_to_thirty_five() -> None:
    game = _limit_flop([200, 200, 35, 200])
    game.check(0)
    game.check(1)
    game.bet(2, 15)
    la = game.legal_actions()
    assert la is not None and la.seat == 3 and la.min_raise_to == la.max_raise_to == 35
    game.raise_to(3, 35)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.min_raise_to == 55


def test_limit_short_all_ins_reopen_only_for_players_facing_half_a_bet_since_they_acted() -> None:
    # p0 bets 20; p1 all-in to 25 (5 over: short); p2 calls 25; p3 all-in to 32: 12 over the last
    # full bet, so together a raise. p0 faces 12 and may raise (to 32 + 20); p2 faces only 7: call or fold.
    game = _limit_flop([200, 45, 200, 52])
    game.bet(0, 20)
    game.raise_to(1, 25)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == 40  # complete the short all-in
    game.call(2)
    game.raise_to(3, 32)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.call_amount == 12 and la.min_raise_to == la.max_raise_to == 52
    game.call(0)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 7 and not la.can_raise
    game.call(2)
    _check_down(game)
    # p1's three kings win the main pot, 4 x 45; p0's aces the side pot, 3 x 7
    assert stacks(game) == [169, 180, 148, 0]


def test_limit_all_ins_adding_up_to_under_half_a_bet_do_not_reopen_the_betting() -> None:
    # All-ins to 4 and then 9 on a 20-chip round: a wager of 9, under half a bet. The players who
    # checked may call or fold, not raise; a player who had not acted could complete to 20.
    game = _limit_flop([200, 200, 24, 29])
    game.check(0)
    game.check(1)
    game.bet(2, 4)
    la = game.legal_actions()
    assert la is not None and la.seat == 3 and la.call_amount == 4 and la.max_raise_to == 9  # all p3 has
    game.raise_to(3, 9)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.call_amount == 9 and not la.can_raise
    game.call(0)
    game.call(1)
    _check_down(game)
    # p1's kings win the main pot, 4 x 24, and the side pot, 3 x 5
    assert stacks(game) == [171, 282, 0, 0]


def _stud_50(stacks_: Sequence[int], bring_in: int = 25) -> Game:
    """Seven-card stud 50/100, ante 5; p1 shows the 2d and brings in. p1 ends with a pair of fours,
    p0 a pair of threes, p2 ace-high."""
    return dealt(seven_card_stud(5, bring_in, 50, 100), stacks_, 2,
                 "2s3s9h 4s5s2d 6s7sKc 8c 9c 2c Th Jh Qh Ad Ac Ah 3h 4h 5h")


def test_stud_bring_in_then_a_short_all_in_completion_is_raised_a_full_bet_over_it() -> None:
    # The example: a bring-in of 25 and an all-in to 38 on a 50-chip round: 38 is half a bet
    # or more, a full (completed) bet, so the next raise is to 88. The bring-in is no bet (seven-card
    # stud rules): facing the round's first bet, the bring-in may raise it too.
    game = _stud_50([500, 500, 43])
    game.act(1, "bring_in")
    game.all_in(2)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.call_amount == 38 and la.min_raise_to == la.max_raise_to == 88
    game.call(0)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.call_amount == 13 and la.can_raise and la.min_raise_to == 88
    game.call(1)
    _check_down(game)
    assert stacks(game) == [457, 586, 0]  # p1's fours win 3 x (5 + 38)


def test_stud_bring_in_then_an_all_in_raise_over_it_reopens_the_bring_in() -> None:
    game = _stud_50([500, 500, 43])
    game.act(1, "bring_in")
    game.all_in(2)
    game.raise_to(0, 88)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.call_amount == 63 and la.min_raise_to == 138


@pytest.mark.parametrize(("all_in_to", "raise_to"), [(20, 50), (30, 80)])
def test_stud_an_all_in_over_the_bring_in_is_a_bet_from_half_a_bet(all_in_to: int, raise_to: int) -> None:
    # Bring-in 10 on a 50-chip round. An all-in to 20 is under half a bet: p0 may call it or complete
    # to 50, and it does not reopen the betting to the bring-in. An all-in to 30 is half a bet or
    # more: a full bet, raised to 80, that the bring-in (no bet) may raise as well.
    game = _stud_50([500, 500, 5 + all_in_to], bring_in=10)
    game.act(1, "bring_in")
    game.all_in(2)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.call_amount == all_in_to
    assert la.min_raise_to == la.max_raise_to == raise_to
    game.call(0)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.call_amount == all_in_to - 10
    assert la.can_raise is (all_in_to == 30)
    game.call(1)
    _check_down(game)
    assert stacks(game) == [500 - 5 - all_in_to, 500 + 10 + 2 * all_in_to, 0]


def test_stud_a_completion_reopens_the_betting_to_everyone_in_for_the_bring_in() -> None:
    # A bring-in of 30 on a 50-chip round (more than half a bet): p2 calls it, p0 completes to 50.
    # The bring-in is no bet, so the completion is the first bet p1 and p2 face: both may raise.
    game = _stud_50([500, 500, 500], bring_in=30)
    game.act(1, "bring_in")
    game.call(2)
    game.raise_to(0, 50)
    for seat in (1, 2):
        la = game.legal_actions()
        assert la is not None and la.seat == seat and la.call_amount == 20 and la.min_raise_to == 100
        game.call(seat)
    assert [p.stack for p in game.table.players()] == [445, 445, 445]


# --- fixed limit: the cap (Robert's Rules, betting and raising, rules 3 and 4) --------------------


def test_the_cap_is_a_bet_and_three_raises_with_the_blind_as_the_bet() -> None:
    game = scripted(fixed_limit_holdem(2, 4), [100, 100, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.raise_to(2, 4)
    game.raise_to(0, 6)
    game.raise_to(1, 8)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and not la.can_raise
    with pytest.raises(IllegalActionError, match="raise cap is reached"):
        game.raise_to(2, 10)


@pytest.mark.parametrize(("bonnie", "charlie"), [(15, 25), (13, 20)])
def test_a_limit_all_in_of_half_a_bet_counts_for_the_cap(bonnie: int, charlie: int) -> None:
    # A TDA forum ruling on the half-bet rule (10/20, blinds 5/10): Adam calls 10; Bonnie is all-in
    # for 15, a raise: Charlie raises to 25, Dennis to 35, and that is the cap. All-in for 13 (under
    # half a bet), Bonnie's wager is no raise: Charlie completes to 20 (not 23).
    game = scripted(fixed_limit_holdem(10, 20), [200, 200, 200, bonnie, 200, 200], 5,
                    "AsAc KsKc 7h2d 8c3d 9d9c QhJh", "Kd 9s 4h 3c Qs")
    game.call(2)
    game.raise_to(3, bonnie)
    la = game.legal_actions()
    assert la is not None and la.seat == 4 and la.min_raise_to == la.max_raise_to == charlie
    game.raise_to(4, charlie)
    game.raise_to(5, charlie + 10)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.can_raise is (bonnie == 13)


def test_heads_up_the_cap_is_lifted_by_default() -> None:
    # Robert's Rules, rule 4: "Unlimited raising is allowed in heads-up play."
    game = scripted(fixed_limit_holdem(2, 4), [100, 100], 1, "AsAc 7h2d", "Kd 9s 4h 3c Qs")
    for seat, to in ((1, 4), (0, 6), (1, 8), (0, 10), (1, 12)):
        game.raise_to(seat, to)
    assert game.legal_actions() is not None and game.can_raise_to(0, 14)


def test_heads_up_the_cap_can_be_kept() -> None:
    game = scripted(fixed_limit_holdem(2, 4, heads_up_uncapped=False), [100, 100], 1, "AsAc 7h2d", "Kd 9s 4h 3c Qs")
    game.raise_to(1, 4)
    game.raise_to(0, 6)
    game.raise_to(1, 8)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and not la.can_raise
    game.call(0)
    assert stacks(game) == [92, 92]


def test_a_round_that_becomes_heads_up_is_uncapped() -> None:
    game = scripted(fixed_limit_holdem(2, 4), [100, 100, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.raise_to(2, 4)
    game.fold(0)
    game.raise_to(1, 6)
    game.raise_to(2, 8)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.can_raise and la.min_raise_to == 10


def test_a_round_capped_three_handed_stays_capped_after_a_fold() -> None:
    game = scripted(fixed_limit_holdem(2, 4), [100, 100, 100], 2,
                    "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.raise_to(2, 4)
    game.raise_to(0, 6)
    game.raise_to(1, 8)  # capped with three players in
    game.fold(2)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and not la.can_raise


# --- a raise nobody can call ----------------------------------------------------------------------


def test_a_raise_is_legal_up_to_what_the_largest_opponent_can_match() -> None:
    game = scripted(no_limit_holdem(1, 2), [100, 28, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.call(2)
    game.fold(0)
    game.raise_to(1, 20)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == 28 and la.max_raise_to == 100
    game.raise_to(2, 28)  # below the full raise (38): all p1 can match
    game.call(1)
    assert game.table.total_chips() + (game.hand.pot_total() if game.hand else 0) == 228


def test_all_in_facing_a_bet_nobody_can_raise_over_is_a_call() -> None:
    game = scripted(no_limit_holdem(1, 2), [10, 100, 300], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
    game.all_in(2)  # 300: p0 and p1 can match 10 and 100
    game.call(0)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and not la.can_raise
    game.all_in(1)  # a call of 100: p2's other 200 comes back uncalled
    assert BetReturned(2, 200) in game.events
    assert stacks(game) == [30, 0, 380]  # AA wins the main pot, p2's pair of threes the side pot


# --- a fold with a free check is binding --------------------------------------------------------


def test_folding_when_a_check_is_free_is_accepted_and_binding() -> None:
    game = scripted(no_limit_holdem(1, 2), [100, 100], 1, "AsAc 7h2d", "Kd 9s 4h 3c Qs")
    game.call(1)
    game.fold(0)  # the big blind could check
    assert stacks(game) == [98, 102]


# --- stud -------------------------------------------------------------------------------------------


def test_the_next_lowest_card_brings_in_when_the_lowest_is_all_in_on_the_ante() -> None:
    # p1 shows the 2d but is all-in on the ante; p0's 9h is next lowest.
    game = dealt(seven_card_stud(1, 2, 5, 10), [100, 1, 100], 2, "2s3s9h 4s5s2d 6s7sKc")
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and la.bring_in == 2


def test_a_bring_in_short_of_the_bring_in_posts_what_it_has() -> None:
    game = dealt(seven_card_stud(1, 2, 5, 10), [100, 2, 100], 2, "2s3s9h 4s5s2d 6s7sKc")
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.bring_in == 1
    game.act(1, "bring_in")
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 1 and la.min_raise_to == 5


def test_a_short_all_in_on_an_open_pair_does_not_set_the_bet_size() -> None:
    # p1 pairs its nines on fourth street and bets its last 7 chips; raises stay small bets.
    game = dealt(seven_card_stud(1, 2, 5, 10), [100, 10, 100], 2, "2s3s9h 4s5s9d 6s7sKc 8c 9c 2c")
    game.act(1, "bring_in")
    game.call(2)
    game.call(0)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and la.amounts == (5, 7)
    game.bet(1, 7)
    la = game.legal_actions()
    assert la is not None and la.seat == 2 and la.min_raise_to == la.max_raise_to == 12


def test_stud_odd_chip_goes_to_the_highest_card_by_suit() -> None:
    # p0 and p1 tie with six-high straights; p2 antes and folds: pot 7. p1's Qd beats p0's Jd.
    game = dealt(seven_card_stud(1, 2, 5, 10), [100, 100, 100], 2,
                 "2s3s4s 2d3d4d AcKcKh 5h 5c 6h 6c 8c 9c Jd Qd")
    game.act(1, "bring_in")
    game.fold(2)
    game.call(0)
    while game.status_name == "running":
        game.check(game.to_act)  # type: ignore[arg-type]
    award = next(e for e in game.events if isinstance(e, PotAwarded))
    assert award.winners == (1, 0) and award.amounts == (4, 3)
    assert stacks(game) == [100, 101, 99]


def test_razz_odd_chip_goes_to_the_lowest_card_by_suit() -> None:
    # p0 and p1 both make 6-5-4-3-2 and split the 9-chip pot; p1's 2d is lower than p0's 2s.
    game = dealt(razz(1, 2, 5, 10), [100, 100, 100], 2,
                 "2s3s4s 2d3d4d 9cTcKh 5h 5c 6d 6h 6c 7d Kc Qc 8d Kd Qs Js")
    game.act(2, "bring_in")  # the king brings in (razz: the highest card)
    game.call(0)
    game.call(1)
    while game.status_name == "running":
        game.check(game.to_act)  # type: ignore[arg-type]
    award = next(e for e in game.events if isinstance(e, PotAwarded))
    assert award.winners == (1, 0) and award.amounts == (5, 4)
    assert stacks(game) == [101, 102, 97]


# --- draw: the muck is reshuffled (Robert's Rules, draw poker) ------------------------------------


def test_the_muck_with_folded_hands_is_reshuffled_when_the_deck_runs_out() -> None:
    game = Game(deuce_to_seven_triple_draw(2, 4), seats=6, first_button=5, seed=3, max_hands=1)
    for i in range(6):
        game.sit_down(f"p{i}", 100, i)
    game.start()
    # p2..p5 fold (20 cards to the muck); p0 and p1 draw five cards at every draw
    for seat in (2, 3, 4, 5):
        game.fold(seat)
    game.call(0)
    game.check(1)
    hand = game.hand
    assert hand is not None
    for _ in range(3):
        for seat in (0, 1):
            game.draw(seat, list(hand.by_seat[seat].hole))
        game.check(0)
        game.check(1)
    reshuffles = [e for e in game.events if isinstance(e, DiscardsReshuffled)]
    # 30 dealt, 10 and 10 drawn leave 2; the third draw reshuffles 20 discards and 20 folded cards
    assert [e.count for e in reshuffles] == [40]
    dealt_after = [c for e in game.events if isinstance(e, HoleCardsDealt) for c in e.cards]
    assert len(dealt_after) == 60  # some folded and discarded cards were dealt again
    assert sum(stacks(game)) == 600


def test_a_phh_big_blind_ante_replays_as_dead_money() -> None:
    # PHH: "a big-blind ante is a non-zero entry at the big blind's index only". p1 (SB) shoves 10
    # and wins the 10 + 10 + 2 pot: the ante is not returned to the big blind as a side pot.
    [hh] = loads(
        """
variant = "NT"
antes = [0, 2, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [10, 100, 100]
actions = ["d dh p1 AsAc", "d dh p2 7h2d", "d dh p3 8c3d", "p3 f", "p1 cbr 10", "p2 cc",
           "d db Kd9s4h", "d db 3c", "d db Qs"]
finishing_stacks = [22, 88, 100]
"""
    )
    result = replay(hh)
    assert result.complete and list(result.stacks) == [22, 88, 100]


def test_short_deck_without_antes_still_deals_hole_cards() -> None:
    from variants import short_deck_holdem

    game = Game(short_deck_holdem(ante=0, button_blind=2), seats=3, seed=1, max_hands=1)
    for i in range(3):
        game.sit_down(f"p{i}", 100, i)
    game.start()
    hand = game.hand
    assert hand is not None and all(len(hp.hole) == 2 for hp in hand.players)
    assert posted(game) == [(hand.players[-1].seat, "button blind", 2)]


# --- conventions other engines follow, as options (docs/rules.md, PokerKit deviations) -------------


def test_option_full_bet_rule_a_limit_all_in_under_a_full_raise_never_reopens() -> None:
    # p0 bets 20, p1 all-in to 30. Robert's Rules (rule 6): 10 is half a bet, a full raise: p0 may
    # raise again. The full-bet rule (PokerKit): 10 is short of the 20 raised before: p0 may only call.
    for full_bet_rule, reopened in ((False, True), (True, False)):
        game = _limit_flop([200, 50, 200, 200], FixedLimit(20, 40, full_bet_rule=full_bet_rule))
        game.bet(0, 20)
        game.raise_to(1, 30)
        la = game.legal_actions()
        assert la is not None and la.seat == 2 and la.min_raise_to == 50
        game.call(2)
        game.call(3)
        la = game.legal_actions()
        assert la is not None and la.seat == 0 and la.call_amount == 10 and la.can_raise is reopened


def test_option_full_bet_rule_the_next_raise_is_a_full_bet_over_a_short_all_in() -> None:
    # p0 bets 20, p1 all-in to 21: Robert's Rules let p2 complete to 40; the full-bet rule has
    # p2 raise a full bet over the all-in, to 41.
    for full_bet_rule, to in ((False, 40), (True, 41)):
        game = _limit_flop([200, 41, 200, 200], FixedLimit(20, 40, full_bet_rule=full_bet_rule))
        game.bet(0, 20)
        game.raise_to(1, 21)
        la = game.legal_actions()
        assert la is not None and la.seat == 2 and la.min_raise_to == la.max_raise_to == to
        game.raise_to(2, to)
        game.fold(3)
        game.call(0)
        _check_down(game)
        # p1's kings win the main pot 80 + 3 x 21 (p3 folded after 20 pre-flop); p0's aces the side pot
        assert stacks(game) == [180 - to + 2 * (to - 21) + 0, 143, 180 - to, 180]


def test_option_full_bet_rule_short_all_ins_pending_keep_the_betting_closed() -> None:
    # PokerKit's model (state.py): after short all-ins that add up to its largest raise, a further
    # short all-in keeps the betting closed to the players who acted since the last full raise, even
    # facing that much. On a 20-chip flop p0 bets 20, p1, p2, p3 go all-in to 35, 40 and 45, p4 calls.
    # Robert's Rules: 35 and 45 are full raises (half a bet over 20 and 35): p0 may raise to 65.
    for full_bet_rule in (False, True):
        structure = FixedLimit(20, 40, full_bet_rule=full_bet_rule, first_raise_reopens=full_bet_rule)
        stages = community_card_game(structure, hole_cards=2, blinds=(10, 20), high=HIGH)
        game = scripted(stages, [200, 55, 60, 65, 200], 4, "AsAc KsKc 7h2d 8c3d 9d9c", "Kd 9s 4h 3c Qs")
        for seat in (2, 3, 4, 0):
            game.call(seat)
        game.check(1)
        game.bet(0, 20)
        for seat, to in ((1, 35), (2, 40), (3, 45)):
            game.raise_to(seat, to)
        game.call(4)
        la = game.legal_actions()
        assert la is not None and la.seat == 0 and la.call_amount == 25
        assert la.can_raise is not full_bet_rule
        if not full_bet_rule:
            assert la.min_raise_to == 65


def test_option_cap_counts_blind_off_allows_four_raises_after_the_blind() -> None:
    for counts_blind, capped_at in ((True, 8), (False, 10)):
        stages = community_card_game(FixedLimit(2, 4, cap_counts_blind=counts_blind), hole_cards=2,
                                     blinds=(1, 2), high=HIGH)
        game = scripted(stages, [100, 100, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
        seat, to = 2, 4
        while game.can_raise_to(seat, to):
            game.raise_to(seat, to)
            seat, to = (seat + 1) % 3, to + 2
        st = game.stage.street_state  # type: ignore[union-attr]
        assert st is not None and st.bet_to == capped_at


def test_option_cap_counts_blind_off_counts_short_all_ins_too() -> None:
    # PokerKit counts every bet, raise and completion for the cap: after p2's all-in 5 over the blind
    # (under half a bet, no raise by Robert's Rules) the round caps at 80, not at 100.
    for short_all_in, capped_at in ((True, 80), (False, 100)):
        stages = community_card_game(FixedLimit(20, 40, cap_counts_blind=False), hole_cards=2, blinds=(10, 20),
                                     high=HIGH)
        game = scripted(stages, [200, 200, 25, 200], 3, "AsAc KsKc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
        if short_all_in:
            game.raise_to(2, 25)
        else:
            game.fold(2)
        to = 40
        while game.can_raise_to(game.to_act, to):  # type: ignore[arg-type]
            game.raise_to(game.to_act, to)  # type: ignore[arg-type]
            to += 20
        st = game.stage.street_state  # type: ignore[union-attr]
        assert st is not None and st.bet_to == capped_at


def test_option_first_raise_reopens_a_short_all_in_over_the_blind() -> None:
    # No-limit 1/2: p2 calls, p0 (small blind) is all-in to 3, one chip over the blind. TDA: not a
    # full raise, so p2, who acted, may only call. PokerKit (the blind is not a raise): the round's
    # first raise reopens the betting whatever its size.
    for reopens in (False, True):
        stages = community_card_game(NoLimit(2, first_raise_reopens=reopens), hole_cards=2, blinds=(1, 2), high=HIGH)
        game = scripted(stages, [3, 100, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
        game.call(2)
        game.all_in(0)
        la = game.legal_actions()
        assert la is not None and la.seat == 1 and la.can_raise and la.min_raise_to == 5
        game.call(1)
        la = game.legal_actions()
        assert la is not None and la.seat == 2 and la.call_amount == 1 and la.can_raise is reopens


def test_option_first_raise_reopens_a_short_limit_all_in_bet_to_those_who_checked() -> None:
    # On a 20-chip flop an all-in bet of 8 (under half a bet) does not reopen the betting to the
    # players who checked (Robert's Rules, rule 6); as the round's first bet, PokerKit says it does.
    for reopens in (False, True):
        game = _limit_flop([200, 200, 28, 200], FixedLimit(20, 40, first_raise_reopens=reopens))
        game.check(0)
        game.check(1)
        game.bet(2, 8)
        game.call(3)
        la = game.legal_actions()
        assert la is not None and la.seat == 0 and la.call_amount == 8 and la.can_raise is reopens
        if reopens:
            assert la.min_raise_to == 28


def test_option_straddle_sets_min_raise_off_raises_by_the_min_bet() -> None:
    # Blinds 1/2 and a straddle of 4: Robert's Rules (no-limit rule 2: a straddle sets a new minimum
    # bring-in) raise by at least 4, to 8; PokerKit raises by the minimum bet, to 6.
    for sets, lowest in ((True, 8), (False, 6)):
        stages = community_card_game(NoLimit(2, straddle_sets_min_raise=sets), hole_cards=2, blinds=(1, 2, 4),
                                     high=HIGH)
        game = scripted(stages, [100] * 4, 3, "AsAc 7h2d 8c3d 9d9c", "Kd 9s 4h 3c Qs")
        la = game.legal_actions()
        assert la is not None and la.seat == 3 and la.call_amount == 4 and la.min_raise_to == lowest
        game.raise_to(3, lowest)
        la = game.legal_actions()
        assert la is not None and la.seat == 0 and la.min_raise_to == 2 * lowest - 4  # by the raise made


def test_option_raise_to_match_off_refuses_a_raise_below_the_minimum() -> None:
    # p1 (28 chips) raises to 20; p2 may raise to 28, all p1 can match, though a full raise is to 38
    # (real histories record it); PokerKit refuses any raise below 38 that is not all-in.
    for allowed in (True, False):
        stages = community_card_game(NoLimit(2, raise_to_match=allowed), hole_cards=2, blinds=(1, 2), high=HIGH)
        game = scripted(stages, [100, 28, 100], 2, "AsAc 7h2d 8c3d", "Kd 9s 4h 3c Qs")
        game.call(2)
        game.fold(0)
        game.raise_to(1, 20)
        la = game.legal_actions()
        assert la is not None and la.seat == 2 and la.min_raise_to == (28 if allowed else 38)
        if not allowed:
            with pytest.raises(IllegalActionError, match="below the minimum"):
                game.raise_to(2, 28)
        game.raise_to(2, 38)
        game.call(1)  # all-in for 28: the other 10 come back to p2
        assert stacks(game) == [99, 0, 129]  # p1's 7h2d loses to p2's 8c3d (a pair of threes)


def test_stages_for_sets_conventions_on_every_betting_structure() -> None:
    hh = HandHistory(variant="FT", antes=[0, 0], blinds_or_straddles=[1, 2], small_bet=2, big_bet=4,
                     starting_stacks=[100, 100], actions=())
    conventions = {k: v for d in POKERKIT.values() for k, v in d.items()}
    stages = stages_for(hh, lambda v: int(v or 0), 2, conventions=conventions)
    structures: list[BettingStructure] = [s.structure for s in stages if isinstance(s, BettingRound)]
    assert len(structures) == 4 and all(s is structures[0] for s in structures)
    assert structures[0] == FixedLimit(2, 4, heads_up_uncapped=False, full_bet_rule=True, cap_counts_blind=False,
                                       first_raise_reopens=True, raise_to_match=False)
    plain = stages_for(hh, lambda v: int(v or 0), 2)
    assert next(s.structure for s in plain if isinstance(s, BettingRound)) == FixedLimit(2, 4)
    with pytest.raises(ConfigError, match="unknown betting conventions"):
        stages_for(hh, lambda v: int(v or 0), 2, conventions={"heads_up_capped": True})
    with pytest.raises(ConfigError, match="True or False"):
        FixedLimit(2, 4, full_bet_rule=1)  # type: ignore[arg-type]
