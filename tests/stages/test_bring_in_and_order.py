"""The stud bring-in and the best-showing-hand action order, alone."""

from __future__ import annotations

import pytest

from cardgame.model.action_order import best_showing_high, best_showing_low, showing_value
from cardgame.model.betting import FixedLimit
from cardgame.model.cards import parse_cards
from cardgame.model.errors import IllegalActionError
from cardgame.stages import BettingRound, BringIn, BringInResult
from tests.helpers import make_context


def stud_ctx(ups: str, downs: int = 2):  # type: ignore[no-untyped-def]
    cards = parse_cards(ups)
    ctx = make_context([100] * len(cards))
    assert ctx.hand is not None
    filler = iter(c for c in ctx.deck_spec.cards if c not in cards)
    for hp, up in zip(ctx.hand.players, cards, strict=True):
        hp.hole = [next(filler) for _ in range(downs)] + [up]
        hp.face_up = [False] * downs + [True]
    return ctx


@pytest.mark.parametrize(
    ("ups", "highest", "seat"),
    [
        ("Kh 2d 5c", False, 1),  # lowest card brings in
        ("2s 2c 2h", False, 1),  # tie on rank: clubs is the lowest suit
        ("Ah 2d Ac", False, 1),  # aces are high in stud
        ("Kh 2d Ks", True, 2),  # razz: highest card, spades highest suit
        ("Ah 2d 3c", True, 2),  # razz: aces are low, so the three brings in
    ],
)
def test_bring_in_seat(ups: str, highest: bool, seat: int) -> None:
    ctx = stud_ctx(ups)
    stage = BringIn(3, highest=highest)
    stage.start(ctx, None)
    assert stage.outcome is not None
    assert stage.outcome.result == BringInResult(seat, 3)  # type: ignore[attr-defined]


def test_bring_in_may_post_or_complete_and_completion_reopens() -> None:
    ctx = stud_ctx("Kh 2d 5c")
    rnd = BettingRound(FixedLimit(5, 10), 0, "third street")
    rnd.start(ctx, BringInResult(1, 2))  # built by hand: seat 1 (the deuce) brings in 2
    la = rnd.legal_actions()
    assert la is not None and la.seat == 1 and la.bring_in == 2 and not la.can_fold and not la.can_check
    assert (la.min_raise_to, la.max_raise_to) == (5, 5)  # or complete to the small bet
    with pytest.raises(IllegalActionError, match="must bring in 2 or complete"):
        rnd.handle("act", 1, "fold")
    rnd.handle("act", 1, "bring_in")
    la = rnd.legal_actions()
    assert la is not None and la.seat == 2 and la.call_amount == 2 and la.min_raise_to == 5  # complete
    rnd.handle("act", 2, "raise", 5)
    rnd.handle("act", 0, "raise", 10)
    la = rnd.legal_actions()
    assert la is not None and la.seat == 1 and la.can_raise and la.min_raise_to == 15
    assert rnd.street_state is not None and rnd.street_state.raises == 2  # the completion and one raise


def test_showing_order_high_and_low() -> None:
    ctx = stud_ctx("Kh 2d 5c", downs=2)
    assert ctx.hand is not None
    for hp, more in zip(ctx.hand.players, parse_cards("3h 2s 9c"), strict=True):
        hp.hole.append(more)
        hp.face_up.append(True)
    # showing: K3, 22 (pair), 59
    assert best_showing_high(ctx.hand) == 1
    assert best_showing_low(ctx.hand) == 2  # razz: 9-5 is lower than K-3, and a pair is worst
    assert showing_value(parse_cards("9c 5c"), low=True) > showing_value(parse_cards("Kh 3h"), low=True)


def test_identical_showing_hands_act_in_seat_order_from_the_button() -> None:
    ctx = stud_ctx("Kh Kd 5c")
    assert ctx.hand is not None
    assert best_showing_high(ctx.hand) == 0
