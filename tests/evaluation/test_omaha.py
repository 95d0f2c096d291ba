"""Omaha high: exactly two hole cards and three board cards."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from cardgame.evaluation import (
    OMAHA_EIGHT_LOW,
    OMAHA_HIGH,
    HandEvaluator,
    evaluate_high,
    omaha_eight_low,
    omaha_high,
)
from cardgame.evaluation.lowball import LOW_BASE
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError


@pytest.mark.parametrize(
    ("hole", "board", "description"),
    [
        # four hearts in hand and one on the board: no flush
        ("Ah Kh Qh Jh", "Th 3c 4d 7s 2c", "High Card (A K T 7 4)"),
        # four hearts on the board and one in hand: no flush either
        ("Ah Kc Qd 2s", "Th 3h 4h 8h 9c", "High Card (A K T 9 8)"),
        # two hearts in hand and three on the board: a flush
        ("Ah 2h Qd Js", "Th 3h 4h 8s 9c", "Flush (A T 4 3 2)"),
        # a straight needs two hole cards, hold'em would take 9-K with one
        ("9h 2d 2c 2s", "Tc Jd Qs Kh 4c", "Pair (2 K Q J)"),
        ("9h 8d 2c 2s", "Tc Jd Qs 3h 4c", "Straight (Q)"),
        # trips on the board play as three of a kind with two hole kickers
        ("2c 3c 4d 5d", "As Ad Ac Ks Kd", "Three of a Kind (A 5 4)"),
        # quads in hand are only a pair of them
        ("9c 9d 9h 9s", "2c 5d 7h Js Kc", "Pair (9 K J 7)"),
        # a board flush with one heart in hand is not a flush
        ("Ah Kd Qd Jc", "2h 5h 7h 9h Th", "High Card (A K T 9 7)"),
        ("As Ks 7c 7d 2h", "Ah Kh 7h 3s 4d", "Three of a Kind (7 A K)"),  # five-card Omaha
        ("Qs Qd 6c 6h", "Qc 5s 5d 8h 2c", "Full House (Q over 5)"),
        ("Qs Qd 5c 6h", "Qc 5s 5d 8h 2c", "Full House (Q over 5)"),
        ("Ac 2c 9d Td", "3c 4c 5c Kh Kd", "Straight Flush (5)"),
    ],
)
def test_two_plus_three_rule(hole: str, board: str, description: str) -> None:
    hv = OMAHA_HIGH.describe(parse_cards(hole), parse_cards(board))
    assert hv.description == description
    assert hv.value == OMAHA_HIGH.rank(parse_cards(hole), parse_cards(board))
    assert sum(c in parse_cards(hole) for c in hv.cards) == 2
    assert sum(c in parse_cards(board) for c in hv.cards) == 3


@pytest.mark.parametrize("hole_size", [4, 5, 6])
def test_matches_brute_force(hole_size: int) -> None:
    rng = random.Random(hole_size)
    for _ in range(400):
        cards = rng.sample(range(52), hole_size + 5)
        if rng.random() < 0.5:  # make flushes likely
            suit = rng.randrange(4)
            suited = rng.sample([r * 4 + suit for r in range(13)], 6)
            cards = suited + [c for c in cards if c not in suited]
            rng.shuffle(cards)
        hole, board = cards[:hole_size], cards[hole_size : hole_size + rng.choice([3, 4, 5])]
        expected = max(evaluate_high(h + b) for h in combinations(hole, 2) for b in combinations(board, 3))
        assert omaha_high(hole, board) == expected


def test_protocol_and_errors() -> None:
    assert isinstance(OMAHA_HIGH, HandEvaluator)
    with pytest.raises(CardError):
        OMAHA_HIGH.rank(parse_cards("Ah"), parse_cards("2c 3c 4c"))
    with pytest.raises(CardError):
        OMAHA_HIGH.rank(parse_cards("Ah Kh Qh Jh"), parse_cards("2c 3c"))
    with pytest.raises(CardError, match="twice"):
        OMAHA_HIGH.rank(parse_cards("Ah Kh Qh Jh"), parse_cards("2c 3c Ah"))


@pytest.mark.parametrize(
    ("hole", "board", "description"),
    [
        ("Ah 2h Kd Kc", "3c 4d 5s Qh Jd", "Low (5 4 3 2 A)"),
        ("Ah 2h 3d Kc", "4c 5d 9s Qh 8d", "Low (8 5 4 2 A)"),
        # one low card in hand never makes a low, however low the board
        ("Ah Kd Qc Js", "2c 3d 4s 5h 6d", None),
        # the hole pair must be two different ranks, not both on the board
        ("Ah Ad 2c 2s", "Ac 2d 5s 8h Kd", None),
        ("Ah 2d 3c Ks", "2c 3d 7s Th Kd", None),  # board has only two unused low ranks
        ("Ah 2d 3c Ks", "4c 5d 7s Th Kd", "Low (7 5 4 2 A)"),
        ("Ah 2h 3d 4c", "5c 9d Ts Qh Jd", None),  # only one low board card
        ("7c 8d 2s 2h", "Ac 3d 4s Qh Jd", "Low (7 4 3 2 A)"),
    ],
)
def test_omaha_eight_low(hole: str, board: str, description: str | None) -> None:
    h, b = parse_cards(hole), parse_cards(board)
    hv = OMAHA_EIGHT_LOW.describe(h, b)
    assert (None if hv is None else hv.description) == description
    assert OMAHA_EIGHT_LOW.rank(h, b) == (None if hv is None else hv.value)
    if hv is not None:
        assert sum(c in h for c in hv.cards) == 2 and sum(c in b for c in hv.cards) == 3


def test_omaha_eight_low_matches_brute_force() -> None:
    def reference(hole: list[int], board: list[int]) -> tuple[int, ...] | None:
        lows = [
            tuple(sorted((((c >> 2) + 1) % 13 for c in h + b), reverse=True))
            for h in combinations(hole, 2)
            for b in combinations(board, 3)
        ]
        good = [low for low in lows if len(set(low)) == 5 and low[0] <= 7]
        return min(good) if good else None

    rng = random.Random(8)
    for _ in range(1500):
        cards = rng.sample([c for c in range(52) if c >> 2 < 7 or c >> 2 > 9], 9)
        hole, board = cards[:4], cards[4:]
        ours = omaha_eight_low(hole, board)
        ref = reference(hole, board)
        assert (ours is None) == (ref is None)
        if ours is not None and ref is not None:
            packed = int("".join(f"{r:x}" for r in ref), 16)
            assert ours == LOW_BASE - packed
