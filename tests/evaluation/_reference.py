"""Independent, slow reference evaluators for the tests (Norvig-style rank tuples), and test data."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

VECTORS = Path(__file__).resolve().parents[1] / "data" / "vectors.json"


@cache
def vectors() -> dict[str, Any]:
    """The reference vectors (tests/data/vectors.json, copied from the project's shared references)."""
    data: dict[str, Any] = json.loads(VECTORS.read_text())
    return data


def norvig_rank(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Norvig's ``hand_rank`` of exactly five cards: (category, ranks by count then rank)."""
    groups = sorted(((n, r) for r, n in Counter(c >> 2 for c in cards).items()), reverse=True)
    counts = tuple(n for n, _ in groups)
    ranks = tuple(r for _, r in groups)
    if ranks == (12, 3, 2, 1, 0):
        ranks = (3, 2, 1, 0, -1)
    straight = len(ranks) == 5 and ranks[0] - ranks[4] == 4
    flush = len({c & 3 for c in cards}) == 1
    category = (
        8 if straight and flush else
        7 if counts == (4, 1) else
        6 if counts == (3, 2) else
        5 if flush else
        4 if straight else
        3 if counts == (3, 1, 1) else
        2 if counts == (2, 2, 1) else
        1 if counts == (2, 1, 1, 1) else
        0
    )  # fmt: skip
    return category, ranks


def best_norvig(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Best :func:`norvig_rank` over every five of ``cards``."""
    return max(norvig_rank(five) for five in combinations(cards, 5))


def a5_key(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Ace-to-five badness of exactly five cards: (number of duplicated cards, ranks by count
    then rank, high first), ace = 1; lower is better."""
    ranks = [((c >> 2) + 1) % 13 + 1 for c in cards]
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    shape = tuple(n for n, _ in groups)
    order = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)]
    return order.index(shape), tuple(r for _, r in groups)


def best_a5(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return min(a5_key(five) for five in combinations(cards, 5))


def d27_key(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """Deuce-to-seven badness of five cards: Norvig's rank with the ace high only."""
    cat, ranks = norvig_rank(cards)
    if ranks == (3, 2, 1, 0, -1):  # no wheel in deuce-to-seven: ace high
        cat, ranks = (5 if cat == 8 else 0), (12, 3, 2, 1, 0)
    return cat, ranks


def best_d27(cards: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return min(d27_key(five) for five in combinations(cards, 5))
