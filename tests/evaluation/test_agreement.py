"""Agreement with established evaluators (eval7 and phevaluator, test extras) on random hands.

Two evaluators agree when they order every pair of hands the same way: sorting the hands by our
value, theirs must rise with ours and tie exactly where ours ties. Checked for the per-call
path and the numpy batch path on the same 300,000 seven-card hands (and 5- and 6-card hands).
"""

from __future__ import annotations

import numpy as np
import pytest

from cardgame.evaluation import evaluate_high, evaluate_high_batch
from cardgame.model.cards import RANKS, SUITS

eval7 = pytest.importorskip("eval7", reason="eval7 is a test extra: pip install -e '.[test]'")
phevaluator = pytest.importorskip("phevaluator", reason="phevaluator is a test extra")

NAMES = [RANKS[c >> 2] + SUITS[c & 3] for c in range(52)]


def random_hands(count: int, size: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 52)), axis=1)[:, :size].astype(np.int64)


def assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], theirs[order]
    same = a[1:] == a[:-1]
    assert np.all(b[1:][same] == b[:-1][same]), "a tie for us is not a tie for the reference"
    assert np.all(b[1:][~same] > b[:-1][~same]), "a better hand for us is not better for the reference"


@pytest.mark.parametrize(("size", "count"), [(7, 300_000), (6, 50_000), (5, 50_000)])
def test_agrees_with_eval7_per_call_and_batch(size: int, count: int) -> None:
    hands = random_hands(count, size, seed=size)
    cards7 = [eval7.Card(n) for n in NAMES]
    theirs = np.array([eval7.evaluate([cards7[c] for c in row]) for row in hands.tolist()], dtype=np.int64)
    per_call = np.array([evaluate_high(row) for row in hands.tolist()], dtype=np.int64)
    batch = evaluate_high_batch(hands).astype(np.int64)
    assert np.array_equal(per_call, batch)
    assert_same_order(per_call, theirs)


def test_agrees_with_phevaluator() -> None:
    hands = random_hands(100_000, 7, seed=99)
    # phevaluator ranks 1 (royal flush) .. 7462 (worst): lower is better, so negate it.
    theirs = -np.array([phevaluator.evaluate_cards(*(NAMES[c] for c in row)) for row in hands.tolist()], dtype=np.int64)
    assert_same_order(evaluate_high_batch(hands).astype(np.int64), theirs)
