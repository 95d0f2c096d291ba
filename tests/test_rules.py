"""Each rule of docs/rules.md pinned by a scripted hand with exact stacks (Robert's Rules, TDA)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from cardgame.cards import parse_cards
from cardgame.errors import IllegalActionError
from cardgame.events import BetReturned, DiscardsReshuffled, ForcedBetPosted, HoleCardsDealt, PotAwarded
from cardgame.game import Game
from cardgame.phh import loads
from cardgame.phh.replay import replay
from cardgame.stage import Stage
from tests.variants.test_holdem_end_to_end import scripted
from variants import (
    deuce_to_seven_triple_draw,
    fixed_limit_holdem,
    no_limit_holdem,
    razz,
    seven_card_stud,
)


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


# --- big-blind ante (TDA 2019) -------------------------------------------------------------------


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


# --- fixed limit: the cap (Robert's Rules, betting and raising, rules 3 and 4) --------------------


def test_the_cap_is_a_bet_and_three_raises_with_the_blind_as_the_bet() -> None:
    game = scripted(fixed_limit_holdem(2, 4), [100, 100], 1, "AsAc 7h2d", "Kd 9s 4h 3c Qs")
    game.raise_to(1, 4)
    game.raise_to(0, 6)
    game.raise_to(1, 8)
    la = game.legal_actions()
    assert la is not None and la.seat == 0 and not la.can_raise
    with pytest.raises(IllegalActionError, match="raise cap is reached"):
        game.raise_to(0, 10)


def test_heads_up_the_cap_can_be_lifted() -> None:
    game = scripted(fixed_limit_holdem(2, 4, heads_up_uncapped=True), [100, 100], 1, "AsAc 7h2d", "Kd 9s 4h 3c Qs")
    for seat, to in ((1, 4), (0, 6), (1, 8), (0, 10), (1, 12)):
        game.raise_to(seat, to)
    assert game.legal_actions() is not None and game.can_raise_to(0, 14)


def test_a_round_capped_three_handed_stays_capped_after_a_fold() -> None:
    game = scripted(fixed_limit_holdem(2, 4, heads_up_uncapped=True), [100, 100, 100], 2,
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
