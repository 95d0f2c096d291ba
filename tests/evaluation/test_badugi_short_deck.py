"""Badugi and short-deck high hands."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, pairwise

import pytest

from cardgame.evaluation import (
    BADUGI,
    SHORT_DECK_CATEGORY_NAMES,
    SHORT_DECK_HIGH,
    HandEvaluator,
    describe_badugi,
    describe_short_deck_high,
    evaluate_badugi,
    short_deck_high,
)
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError

BADUGI_LADDER = [
    "Ac 2d 3h 4s",  # the best badugi
    "Ac 2d 3h 5s",
    "Ac 2d 4h 5s",
    "Kc Qd Jh Ts",  # any four-card badugi beats every three-card hand
    "Ac 2d 3h 3s",  # three cards: 3-2-A
    "Ac 2d 4h 4s",  # 4-2-A
    "Ac 3d 4h 4d",  # 4-3-A
    "2c 3d 4h 4d",  # 4-3-2
    "Kc Qd Jh Jc",
    "Ac 2c 3d 4d",  # two cards: 3-A
    "Ac Ad Ah As",  # one card
    "Kc Kd Kh Ks",
]


def test_badugi_ladder() -> None:
    values = [evaluate_badugi(parse_cards(h)) for h in BADUGI_LADDER]
    assert all(a > b for a, b in pairwise(values))


@pytest.mark.parametrize(
    ("cards", "description", "used"),
    [
        ("4s 2d Ac 3h", "Badugi (4 3 2 A)", "4s 3h 2d Ac"),
        ("Ac 3d 4h 4d", "3-card (4 3 A)", "4h 3d Ac"),
        ("Kc Kd Kh Ks", "1-card (K)", "Ks"),
    ],
)
def test_badugi_descriptions(cards: str, description: str, used: str) -> None:
    hv = describe_badugi(parse_cards(cards))
    assert (hv.description, hv.cards) == (description, parse_cards(used))
    assert hv.value == BADUGI.rank(parse_cards(cards), ()) == evaluate_badugi(parse_cards(cards))


def test_badugi_matches_brute_force() -> None:
    def reference(cards: tuple[int, ...]) -> tuple[int, list[int]]:
        best: tuple[int, list[int]] | None = None
        for size in range(1, 5):
            for sub in combinations(cards, size):
                if len({c & 3 for c in sub}) == size == len({c >> 2 for c in sub}):
                    key = (size, [-r for r in sorted((((c >> 2) + 1) % 13 for c in sub), reverse=True)])
                    best = key if best is None or key > best else best
        assert best is not None
        return best

    rng = random.Random(4)
    hands = [tuple(rng.sample(range(52), 4)) for _ in range(3000)]
    ours = [evaluate_badugi(h) for h in hands]
    refs = [reference(h) for h in hands]
    for i, j in pairwise(sorted(range(len(hands)), key=ours.__getitem__)):
        assert (ours[i] < ours[j]) == (refs[i] < refs[j]) and (ours[i] == ours[j]) == (refs[i] == refs[j])


def test_badugi_errors() -> None:
    assert isinstance(BADUGI, HandEvaluator)
    with pytest.raises(CardError):
        evaluate_badugi(parse_cards("Ac 2d 3h"))
    with pytest.raises(CardError):
        BADUGI.rank(parse_cards("Ac 2d 3h 4s"), parse_cards("5c"))


def test_every_short_deck_five_card_hand() -> None:
    """Counts over all C(36, 5) hands, against the counts worked out by hand."""
    counts = Counter(short_deck_high(h) >> 20 for h in combinations(range(16, 52), 5))
    expected = {
        "Straight Flush": 6 * 4,  # tops T..A and the A-6-7-8-9
        "Four of a Kind": 9 * 8 * 4,
        "Flush": 126 * 4 - 24,
        "Full House": 9 * 4 * 8 * 6,
        "Straight": 6 * 4**5 - 24,
        "Three of a Kind": 9 * 4 * 28 * 16,
        "Two Pair": 36 * 36 * 7 * 4,
        "Pair": 9 * 6 * 56 * 64,
        "High Card": (126 - 6) * (4**5 - 4),
    }
    assert {SHORT_DECK_CATEGORY_NAMES[c]: n for c, n in counts.items()} == expected


def test_short_deck_rules() -> None:
    ladder = [
        "Kc Qd 9h 8s 6c",
        "6c 6d 7h 8s 9c",
        "Ac Ad Ah Ks Qc",  # trips
        "Ac 6d 7h 8s 9c",  # A-6-7-8-9: the lowest straight
        "6c 7d 8h 9s Tc",
        "Tc Jd Qh Ks Ac",
        "Ac Ad Ah Ks Kc",  # full house
        "6c 7c 8c 9c Jc",  # a flush beats a full house
        "6c 6d 6h 6s 7c",
        "Ac 6c 7c 8c 9c",  # the lowest straight flush
        "Tc Jc Qc Kc Ac",
    ]
    values = [short_deck_high(parse_cards(h)) for h in ladder]
    assert all(a < b for a, b in pairwise(values))
    hv = describe_short_deck_high(parse_cards("Ah 6c 7d 8s 9h Kd Kc"))
    assert (hv.description, hv.cards) == ("Straight (9)", parse_cards("9h 8s 7d 6c Ah"))


def test_short_deck_flush_over_full_house_from_seven_cards() -> None:
    hole, board = parse_cards("Kh Kd"), parse_cards("Ks 7h 7d Th 9h")
    assert describe_short_deck_high((*hole, *board)).description == "Full House (K over 7)"
    hole = parse_cards("Kh 6h")
    hv = SHORT_DECK_HIGH.describe(hole, board)
    assert (hv.description, hv.value) == ("Flush (K T 9 7 6)", SHORT_DECK_HIGH.rank(hole, board))
    assert hv.category == "Flush"


def test_short_deck_rejects_small_cards() -> None:
    assert isinstance(SHORT_DECK_HIGH, HandEvaluator)
    with pytest.raises(CardError, match="deuces to fives"):
        short_deck_high(parse_cards("Ac 5d 7h 8s 9c"))
