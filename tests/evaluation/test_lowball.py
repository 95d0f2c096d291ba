"""Ace-to-five (razz, 8-or-better) and deuce-to-seven lows: orderings from the rules, brute force."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from cardgame.evaluation import (
    ACE_TO_FIVE_LOW,
    DEUCE_TO_SEVEN_LOW,
    EIGHT_OR_BETTER_LOW,
    HandEvaluator,
    ace_to_five_low,
    describe_ace_to_five_low,
    describe_deuce_to_seven_low,
    deuce_to_seven_low,
    eight_or_better_low,
)
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError
from tests.evaluation._reference import best_a5, best_d27

# best first
ACE_TO_FIVE_LADDER = [
    "5h 4h 3h 2h Ah",  # the wheel; straights and flushes do not count
    "6c 4d 3h 2s Ac",
    "6c 5d 3h 2s Ac",
    "6c 5d 4h 3s 2c",
    "7c 4d 3h 2s Ac",
    "8c 7d 6h 5s 4c",  # the worst 8-low
    "9c 4d 3h 2s Ac",
    "Kc Qd Jh Ts 9c",  # the worst unpaired hand still beats any pair
    "Ac Ad 2h 3s 4c",  # lowest pair
    "Ac Ad 2h 3s 5c",
    "2c 2d Ah 3s 4c",
    "Kc Kd Qh Js Tc",
    "Ac Ad 2h 2s 3c",  # two pair
    "Ac Ad Ah 2s 3c",  # trips
    "Ac Ad Ah 2s 2c",  # full house
    "Ac Ad Ah As 2c",  # quads
]
DEUCE_TO_SEVEN_LADDER = [
    "7c 5d 4h 3s 2c",  # the best hand
    "7c 6d 4h 3s 2c",
    "7c 6d 5h 4s 2c",
    "8c 5d 4h 3s 2c",
    "Kc Qd Jh Ts 8c",
    "Ac 5d 4h 3s 2c",  # ace high, not a straight
    "Ac Kd Qh Js 9c",
    "2c 2d 3h 4s 5c",  # a pair
    "Ac Ad Kh Qs Jc",
    "2c 2d 3h 3s 4c",  # two pair
    "2c 2d 2h 3s 4c",  # trips
    "6c 5d 4h 3s 2c",  # straights count against
    "Ac Kd Qh Js Tc",
    "7c 5c 4c 3c 2c",  # so do flushes
    "2c 2d 2h 3s 3c",
    "2c 2d 2h 2s 3c",
    "6c 5c 4c 3c 2c",  # straight flush: the worst
]


def test_ace_to_five_ladder() -> None:
    values = [ace_to_five_low(parse_cards(h)) for h in ACE_TO_FIVE_LADDER]
    assert all(a > b for a, b in pairwise(values))
    # suits never matter
    assert ace_to_five_low(parse_cards("8c 6d 4h 2s Ac")) == ace_to_five_low(parse_cards("8h 6h 4h 2h Ah"))


def test_deuce_to_seven_ladder() -> None:
    values = [deuce_to_seven_low(parse_cards(h)) for h in DEUCE_TO_SEVEN_LADDER]
    assert all(a > b for a, b in pairwise(values))


@pytest.mark.parametrize(
    ("cards", "description", "used", "qualifies"),
    [
        ("Kc Kd Qh Qs 2c 3d 4h", "Low (K Q 4 3 2)", "Kd Qs 4h 3d 2c", False),  # razz: pairs dropped
        ("9c 8d 7h 6s 5c 4d 3h", "Low (7 6 5 4 3)", "7h 6s 5c 4d 3h", True),
        ("Ac 2d 3h 4s 5c 6d 7h", "Low (5 4 3 2 A)", "5c 4s 3h 2d Ac", True),
        ("8c 7d 6h 5s 4c Kd Kh", "Low (8 7 6 5 4)", "8c 7d 6h 5s 4c", True),
        ("9c 5d 4h 3s 2c Kd Kh", "Low (9 5 4 3 2)", "9c 5d 4h 3s 2c", False),
        ("Ac Ad 2c 2d 3c 3d 4h", "Pair (A 4 3 2)", "Ad Ac 4h 3d 2d", False),
        ("Kc Kd Ks Kh Qc Qd Qh", "Full House (Q over K)", "Qh Qd Qc Ks Kh", False),
    ],
)
def test_razz_and_eight_or_better(cards: str, description: str, used: str, qualifies: bool) -> None:
    hand = parse_cards(cards)
    hv = describe_ace_to_five_low(hand)
    assert (hv.description, hv.cards, hv.value) == (description, parse_cards(used), ace_to_five_low(hand))
    assert (eight_or_better_low(hand) is not None) is qualifies
    assert (EIGHT_OR_BETTER_LOW.describe(hand[:2], hand[2:]) is not None) is qualifies
    assert ACE_TO_FIVE_LOW.rank(hand[:3], hand[3:]) == hv.value


@pytest.mark.parametrize(
    ("cards", "description", "used"),
    [
        ("7h 5h 4h 3h 2h Kd 8c", "Low (8 5 4 3 2)", "8c 5h 4h 3h 2h"),  # avoids the flush
        ("Ac 5d 4h 3s 2c", "Low (A 5 4 3 2)", "Ac 5d 4h 3s 2c"),
        ("6c 5d 4h 3s 2c Kd", "Low (K 5 4 3 2)", "Kd 5d 4h 3s 2c"),  # avoids the straight
        ("2c 2d 3h 3s 4c 4d 5h", "Pair (2 5 4 3)", "2d 2c 5h 4c 3h"),
        ("7c 6c 5c 4c 3c", "Straight Flush (7)", "7c 6c 5c 4c 3c"),
    ],
)
def test_deuce_to_seven_descriptions(cards: str, description: str, used: str) -> None:
    hand = parse_cards(cards)
    hv = describe_deuce_to_seven_low(hand)
    assert (hv.description, hv.cards, hv.value) == (description, parse_cards(used), deuce_to_seven_low(hand))
    assert DEUCE_TO_SEVEN_LOW.rank(hand[:2], hand[2:]) == hv.value


@pytest.mark.parametrize("size", [5, 6, 7])
def test_against_brute_force(size: int) -> None:
    rng = random.Random(size)
    hands = [tuple(rng.sample(range(52), size)) for _ in range(1500)]
    hands += [tuple(rng.sample(range(32), size)) for _ in range(500)]  # low-card heavy: pairs, 8-lows
    for ours_fn, ref_fn in ((ace_to_five_low, best_a5), (deuce_to_seven_low, best_d27)):
        ours = [ours_fn(h) for h in hands]
        refs = [ref_fn(h) for h in hands]
        for i, j in pairwise(sorted(range(len(hands)), key=ours.__getitem__)):
            # higher value = better = smaller reference badness
            assert (ours[i] < ours[j]) == (refs[i] > refs[j]), (hands[i], hands[j])
            assert (ours[i] == ours[j]) == (refs[i] == refs[j])
    for h in hands:
        ref = best_a5(h)
        assert (eight_or_better_low(h) is not None) == (ref[0] == 0 and ref[1][0] <= 8)


def test_protocol_and_errors() -> None:
    for evaluator in (ACE_TO_FIVE_LOW, EIGHT_OR_BETTER_LOW, DEUCE_TO_SEVEN_LOW):
        assert isinstance(evaluator, HandEvaluator)
        with pytest.raises(CardError):
            evaluator.rank(parse_cards("Ac 2c"), parse_cards("3c 4c"))
        with pytest.raises(CardError):
            evaluator.rank(parse_cards("Ac 2c 3d"), parse_cards("4c 5c 3d"))
