"""Equity: the exact reference numbers, brute force on small cases, seeded Monte Carlo."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations

import numpy as np
import pytest

from cardgame.evaluation import (
    eight_or_better_low,
    evaluate_high,
    omaha_eight_low,
    omaha_high,
    winners,
)
from cardgame.evaluation import equity as equity_module
from cardgame.evaluation.batch import HAVE_NUMBA
from cardgame.evaluation.equity import equity, hand_strength
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError, ConfigError
from tests.evaluation._reference import vectors

# Exact hold'em runs a numba kernel when numba is importable; both paths must agree exactly.
needs_numba = pytest.mark.skipif(not HAVE_NUMBA, reason="numba is optional: pip install -e '.[fast]'")
PATHS = [pytest.param(False, id="numpy"), pytest.param(True, id="numba", marks=needs_numba)]


@pytest.mark.parametrize("use_numba", PATHS)
def test_ahkh_vs_qsqd_exact_and_fast(use_numba: bool) -> None:
    ref = vectors()["preflop_equities_exact"][0]
    equity(["AhKh", "QsQd"], "2c 3c 4c", use_numba=use_numba)  # warm the tables (and compile)
    start = time.perf_counter()
    result = equity(ref["hands"], use_numba=use_numba)
    elapsed = time.perf_counter() - start
    assert result.exact and result.boards == ref["boards"] == 1712304
    assert result.wins == tuple(ref["wins"]) and result.ties == (ref["ties"], ref["ties"])
    assert result.equity == tuple(Fraction(e) for e in ref["equity"])
    assert sum(result.equity) == 1
    assert elapsed < (1.0 if use_numba else 3.0)  # 0.02 s / 0.15 s on two cores; generous for load


@pytest.mark.parametrize("use_numba", PATHS)
@pytest.mark.parametrize("index", [1, 2, 3])
def test_other_reference_equities(index: int, use_numba: bool) -> None:
    ref = vectors()["preflop_equities_exact"][index]
    result = equity(ref["hands"], use_numba=use_numba)
    assert result.boards == ref["boards"] and result.wins == tuple(ref["wins"])
    ties = ref.get("ties", ref.get("three_way_ties"))
    assert result.ties == (ties,) * len(ref["hands"])
    assert [round(e, 7) for e in result.equity_floats] == ref["equity_float"]


@needs_numba
@pytest.mark.parametrize("index", [0, 1, 2, 3])
@pytest.mark.parametrize("hi_lo", [False, True])
def test_numba_and_numpy_agree_on_the_reference_hands(index: int, hi_lo: bool) -> None:
    hands = vectors()["preflop_equities_exact"][index]["hands"]
    assert equity(hands, hi_lo=hi_lo, use_numba=True) == equity(hands, hi_lo=hi_lo, use_numba=False)


@needs_numba
@pytest.mark.parametrize("seed", range(12))
def test_numba_and_numpy_agree_on_random_deals(seed: int) -> None:
    """2-4 random hands, a random board of 0-5 cards, high and hi/lo: identical results."""
    rng = np.random.default_rng(seed)
    n_hands = 2 + seed % 3
    n_board = [0, 3, 4, 5, 1, 2][seed % 6]
    if n_board == 0 and n_hands > 2:
        n_board = 3  # keep the test quick: pre-flop multiway is covered by the reference hands
    deck = rng.permutation(52).tolist()
    hands = [deck[2 * i : 2 * i + 2] for i in range(n_hands)]
    board = deck[2 * n_hands : 2 * n_hands + n_board]
    for hi_lo in (False, True):
        fast = equity(hands, board, hi_lo=hi_lo, use_numba=True)
        slow = equity(hands, board, hi_lo=hi_lo, use_numba=False)
        assert fast == slow and fast.exact and sum(fast.equity) == 1


@needs_numba
def test_numba_agrees_on_flush_and_split_heavy_boards() -> None:
    """Suited boards (flushes for one, both or none) and boards that split the pot many ways."""
    for hands, board in [
        (["AhKh", "2h3h", "QsQd"], "4h 5h"),
        (["AhKh", "2h3h"], "4h 5h 9h"),
        (["Ac2d", "As2h", "Ad2c", "Ah2s"], "Kc"),
        (["Ah2c", "Ad3c", "8h7d"], "4c 5d Kh"),
    ]:
        for hi_lo in (False, True):
            assert equity(hands, board, hi_lo=hi_lo, use_numba=True) == equity(
                hands, board, hi_lo=hi_lo, use_numba=False
            )


def test_use_numba_without_numba_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equity_module, "HAVE_NUMBA", False)
    with pytest.raises(ConfigError, match="numba"):
        equity(["AhKh", "QsQd"], "2c 3c 4c", use_numba=True)
    # the default falls back to numpy
    assert equity(["AhKh", "QsQd"], "2c 3c 4c 5d").boards == 44


Rank = Callable[[Sequence[int], Sequence[int]], int | None]


def _brute_force(
    texts: list[str], board: str, rank: Rank, low: Rank | None = None
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[Fraction, ...]]:
    """Exact equity by per-call evaluation of every completed board: (wins, ties, equity)."""
    hands = [parse_cards(h) for h in texts]
    known = parse_cards(board)
    rest = sorted(set(range(52)) - {c for h in hands for c in h} - set(known))
    n = len(hands)
    shares = [Fraction(0)] * n
    wins = [0] * n
    ties = [0] * n
    boards = list(combinations(rest, 5 - len(known)))
    for extra in boards:
        full = (*known, *extra)
        share = [Fraction(0)] * n
        high = winners(hands, key=lambda h: rank(h, full))
        lows = winners(hands, key=lambda h: low(h, full)) if low else []
        pot = Fraction(1, 2) if lows else Fraction(1)
        for i in high:
            share[i] += pot / len(high)
        for i in lows:
            share[i] += pot / len(lows)
        for i in range(n):
            shares[i] += share[i]
            wins[i] += share[i] == 1
            ties[i] += 0 < share[i] < 1
    return tuple(wins), tuple(ties), tuple(s / len(boards) for s in shares)


@pytest.mark.parametrize(
    ("hands", "board", "game", "hi_lo"),
    [
        (["AhKh", "QsQd", "7c7d"], "Qh 7h 2c", "holdem", False),
        (["AsKs", "Ac2c"], "Kd 9s 3s 4c", "holdem", False),
        (["Ah2h", "KsKd", "3c4c"], "5h 6d Kc", "holdem", True),
        (["AhKhQd2c", "QsJd7c8c"], "2h 7d 9s", "omaha", False),
        (["Ah2hQd3c", "KsKd7c8c", "As4s5s6d"], "4h 5d 9s", "omaha", True),
        (["AhKhQhJh", "2c3c4d5d"], "Th 9c 8c 2h", "omaha", False),
    ],
)
def test_exact_matches_brute_force(hands: list[str], board: str, game: str, hi_lo: bool) -> None:
    if game == "holdem":
        ranked = _brute_force(
            hands,
            board,
            lambda h, b: evaluate_high((*h, *b)),
            (lambda h, b: eight_or_better_low((*h, *b))) if hi_lo else None,
        )
    else:
        ranked = _brute_force(hands, board, omaha_high, omaha_eight_low if hi_lo else None)
    result = equity(hands, board, game=game, hi_lo=hi_lo)
    assert result.exact and (result.wins, result.ties, result.equity) == ranked


def test_monte_carlo_is_seeded_and_close() -> None:
    a = equity(["AhKh", "QsQd"], exact=False, samples=60_000, seed=3)
    b = equity(["AhKh", "QsQd"], exact=False, samples=60_000, seed=3)
    c = equity(["AhKh", "QsQd"], exact=False, samples=60_000, seed=4)
    assert a == b and a != c and not a.exact and a.boards == 60_000
    assert abs(a.equity_floats[0] - 0.4621446) < 0.01
    assert sum(a.equity) == 1
    assert sum(a.wins) + a.ties[0] == a.boards


def test_exact_is_chosen_by_board_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(equity_module, "EXACT_LIMIT", 1000)
    sampled = equity(["AhKh", "QsQd"], samples=500, seed=1)
    assert not sampled.exact and sampled.boards == 500
    turn = equity(["AhKh", "QsQd"], "2c 7d 9s Ts")
    assert turn.exact and turn.boards == 44


def test_ten_hands_exact() -> None:
    ten = ["AhAd", "KhKd", "QhQd", "JhJd", "ThTd", "9h9d", "8h8d", "7h7d", "6h6d", "5h5d"]
    result = equity(ten)
    assert result.exact and result.boards == 201376  # C(32, 5)
    assert sum(result.equity) == 1
    assert max(range(10), key=result.equity.__getitem__) == 0


def test_equity_errors() -> None:
    with pytest.raises(ConfigError):
        equity(["AhKh"])
    with pytest.raises(ConfigError):
        equity(["AhKh", "QsQd"], game="checkers")
    with pytest.raises(CardError, match="twice"):
        equity(["AhKh", "AhQd"])
    with pytest.raises(CardError, match="twice"):
        equity(["AhKh", "QsQd"], "Qs 2c 3c")
    with pytest.raises(CardError):
        equity(["AhKhQh", "QsQd"])
    with pytest.raises(CardError):
        equity(["AhKhQhJh", "QsQd2c3c"], "2d 3d 4d 5d 6d 7d", game="omaha")


def test_hand_strength() -> None:
    aces = hand_strength("AsAd", opponents=1, samples=40_000, seed=1)
    assert aces == hand_strength("AsAd", opponents=1, samples=40_000, seed=1)
    assert abs(aces - 0.852) < 0.01  # pocket aces against one random hand
    assert hand_strength("AsAd", opponents=4, samples=20_000, seed=1) < aces
    nuts = hand_strength("AsKs", "Qs Js Ts 2c 3d", opponents=5, samples=2000, seed=2)
    assert nuts == 1.0


def test_hand_strength_on_the_river_matches_enumeration() -> None:
    hole, board = parse_cards("Jc Td"), parse_cards("Jh 7s 4d 2c 9h")
    rest = sorted(set(range(52)) - set(hole) - set(board))
    ours = evaluate_high((*hole, *board))
    exact = 0.0
    for opp in combinations(rest, 2):
        theirs = evaluate_high((*opp, *board))
        exact += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
    exact /= len(list(combinations(rest, 2)))
    assert abs(hand_strength(hole, board, samples=40_000, seed=5) - exact) < 0.01


def test_weak_hand_drop_out() -> None:
    """Opponents folding everything below a pair of sixes: only 66+ ever beat us."""
    plain = hand_strength("Ks9s", opponents=3, samples=20_000, seed=6)
    dropped = hand_strength("Ks9s", opponents=3, samples=20_000, seed=6, drop_weak=True)
    assert dropped > plain + 0.3
    # only pocket aces stay, and with three aces in sight nobody can hold two
    assert hand_strength("AsAd", "Ah 7c 2d", 3, 5000, seed=7, drop_weak=True, weakest="AA") == 1.0
    assert hand_strength("AsAd", "Ah 7c 2d", 3, 5000, seed=7) < 1.0
    with pytest.raises(ConfigError):
        hand_strength("AsAd", weakest="A")


def test_hand_strength_is_the_seed_ais_own() -> None:
    """Hold'em's ``hand_strength`` from text cards and the seed AI's from a game's shape are one
    implementation: the same seed gives the same number, drop-out and all."""
    from cardgame.evaluation.strength import HOLDEM, Situation
    from cardgame.evaluation.strength import hand_strength as seat_strength
    from cardgame.play.shape import game_shape
    from cardgame.play.strength import hand_strength as bot_strength
    from variants import get

    mine, board = parse_cards("Ks9s"), parse_cards("9h 4c 2d")
    where = Situation(mine, 2, board, 5, ((), (), ()), 2, (True, True, True))
    text = hand_strength("Ks9s", "9h 4c 2d", 3, 3000, seed=11, drop_weak=True, weakest="88")
    assert text == seat_strength(HOLDEM, where, np.random.default_rng(11), samples=3000, weakest="88")
    nt = get("NT")
    assert text == bot_strength(game_shape(nt.build(), nt.deck), where, np.random.default_rng(11), samples=3000,
                                weakest="88")
    assert hand_strength("Ks9s", "9h 4c 2d", 3, 3000, seed=11) != text  # the drop-out is felt


def test_hand_strength_beyond_one_block_of_deals() -> None:
    """More deals than one block (``CHUNK``) are drawn block by block and averaged: still the known
    equity of aces heads-up, and the same for a seed."""
    from cardgame.evaluation.strength import CHUNK

    aces = hand_strength("AsAd", samples=CHUNK + 5000, seed=3)
    assert abs(aces - 0.852) < 0.01
    assert aces == hand_strength("AsAd", samples=CHUNK + 5000, seed=3)
