"""The fast hold'em paths of :mod:`cardgame.evaluation.equity` pinned against the readable ones they stand in for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import cardgame.evaluation.equity as eq
from cardgame.evaluation.batch import CARD_BITS
from cardgame.evaluation.equity import equity


def deals(rows: int, seed: int) -> np.ndarray[Any, np.dtype[np.intp]]:
    """``rows`` random deals of seven distinct cards; a quarter of them hold five of one suit (some a royal flush)."""
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((rows, 52)), axis=1)[:, :7].astype(np.intp)
    suit, few = int(rng.integers(0, 4)), rows // 4
    others = np.array([c for c in range(52) if c % 4 != suit])
    cards[:few, :5] = np.argsort(rng.random((few, 13)), axis=1)[:, :5] * 4 + suit
    cards[:few, 5:] = others[np.argsort(rng.random((few, len(others))), axis=1)[:, :2]]
    cards[:8, :5] = np.array([48, 44, 40, 36, 32]) + suit
    return cards


def test_fast_seven_card_values_equal_the_readable_evaluator() -> None:
    cards = deals(20_000, 1)
    assert (np.sort(cards, axis=1)[:, 1:] != np.sort(cards, axis=1)[:, :-1]).all()
    readable = eq._values("holdem", cards[:, 2:], [cards[:, :2]], False)[0][0]
    keys = eq._sums(eq._SEVEN_KEYS, cards) + eq.SEVEN_SUIT_OFFSET
    fast = eq._holdem_seven(keys, lambda rows: eq._sums(CARD_BITS, cards[rows]))
    assert np.array_equal(fast, readable)
    assert (readable >> 20 >= 5).sum() > 5_000  # the flush path was taken


def test_heads_up_counts_score_as_pot_shares() -> None:
    rng = np.random.default_rng(2)
    values = [(rng.integers(0, 6, (40, 300)).astype(np.int32), None) for _ in range(2)]
    fits = rng.random((40, 300)) < 0.8
    flat = [(v.reshape(-1), None) for v, _ in values]
    share = eq._pot_shares(flat, 4).reshape(2, 40, 300) * fits  # type: ignore[arg-type]
    won, lost, tied = eq._heads_up(values[0][0], values[1][0], fits)
    assert np.array_equal(won, (share[0] == 4).sum(axis=1)) and np.array_equal(lost, (share[1] == 4).sum(axis=1))
    assert np.array_equal(tied, (share[0] == 2).sum(axis=1)) and tied.sum() > 0
    counted = eq._Tally(2, 4)
    counted.add(flat)  # type: ignore[arg-type]
    whole = eq._pot_shares(flat, 4)  # type: ignore[arg-type]
    assert counted.sums.tolist() == whole.sum(axis=1).tolist()
    assert counted.squares.tolist() == ((whole / 4) ** 2).sum(axis=1).tolist()
    assert counted.wins.tolist() == (whole == 4).sum(axis=1).tolist()
    assert counted.ties.tolist() == ((whole > 0) & (whole < 4)).sum(axis=1).tolist()
    assert counted.done == 12_000


@pytest.mark.parametrize(("hands", "board", "dead"), [
    (["AhKh", "QQ+, AQs+"], "7c 2d 9s 3h", ""),  # one card to come
    (["0.4(AKs), QQ", "JJ+, 0.5(AQs+)"], "7c 2d 9s", "5s"),  # weighted ranges, dead card
    (["AhKh", "TT+", "22+, KQs"], "Jc 8c 2h", ""),  # three players
    (["AsAd", "KsKd"], "Qs Js 2s", ""),  # flushes on both sides
    (["AhKh", "QQ"], "7c 2d", ""),  # three to come: a pair of cards and one
    (["AhKh", "QQ, JJ:0.5"], "7c", ""),  # four to come: two pairs of cards
])
def test_fast_sampler_and_readable_sampler_both_meet_the_exact_answer(
    hands: list[str], board: str, dead: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    exact = equity(hands, board, dead=dead, exact=True)
    fast = equity(hands, board, dead=dead, exact=False, samples=40_000, seed=3)
    monkeypatch.setattr(eq, "_FAST_MATCHUPS", 0)  # the readable sampler, drawing hand by hand
    readable = equity(hands, board, dead=dead, exact=False, samples=40_000, seed=3)
    assert fast != readable  # two different samplers ran
    for result in (fast, readable):
        assert result.boards == 40_000 and not result.exact
        for ours, theirs, error in zip(result.equity, exact.equity, result.std_error, strict=True):
            assert abs(float(ours) - float(theirs)) <= 4 * error + 1e-9, (hands, ours, theirs, error)
        for rates, truth in zip(result.rates, exact.rates, strict=True):
            for p, q in zip(rates, truth, strict=True):
                assert abs(p - q) <= 4 * np.sqrt(max(q * (1 - q), 1e-4) / 40_000), (hands, rates, truth)


@pytest.mark.parametrize("hands", [
    ["7s6s", "22+, ATs+, KQo"],
    ["22+, A2s+, K9s+", "22+, A2+, K9+"],  # over 32,768 matchups: the matchup drawn by rng.integers
])
def test_fast_sampler_agrees_with_the_readable_one_pre_flop(hands: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    fast = equity(hands, samples=60_000, seed=4)
    monkeypatch.setattr(eq, "_FAST_MATCHUPS", 0)
    readable = equity(hands, samples=60_000, seed=4)
    assert fast != readable
    error = np.hypot(fast.std_error[0], readable.std_error[0])
    assert abs(float(fast.equity[0]) - float(readable.equity[0])) <= 4 * error


def test_fast_sampler_repeats_with_its_seed_and_stops_on_target() -> None:
    first = equity(["AKs", "QQ+, AQs+"], samples=50_000, seed=9)
    assert first == equity(["AKs", "QQ+, AQs+"], samples=50_000, seed=9)
    assert first != equity(["AKs", "QQ+, AQs+"], samples=50_000, seed=10)
    stopped = equity(["AKs", "QQ+, AQs+"], samples=10**6, target_error=0.004, seed=9)
    assert stopped.boards < 10**6 and max(stopped.std_error) <= 0.004


def test_fast_sampler_without_numpy_popcount_deals_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    with_popcount = equity(["AhKh", "QQ+, AQs+"], "7c", samples=30_000, seed=5)
    monkeypatch.setattr(eq, "_POPCOUNT", None)  # numpy 1.x: the deal's card masks are summed instead
    assert equity(["AhKh", "QQ+, AQs+"], "7c", samples=30_000, seed=5) == with_popcount
