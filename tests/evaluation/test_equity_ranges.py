"""Equity of ranges and of every game: against eval7, and against enumerations written plainly here."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import combinations, permutations
from math import sqrt
from pathlib import Path

import pytest

from benchmarks.equity import mean_over_villains
from cardgame.evaluation import (
    ace_to_five_low,
    deuce_to_seven_low,
    eight_or_better_low,
    evaluate_badugi,
    evaluate_high,
    short_deck_high,
)
from cardgame.evaluation.equity import EquityResult, equity
from cardgame.evaluation.ranges import parse_range
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError, ConfigError

ROOT = Path(__file__).resolve().parents[2]


def eval7_cards(text: str) -> list[object]:
    eval7 = pytest.importorskip("eval7", reason="eval7 is a test extra: pip install -e '.[test]'")
    return [eval7.Card(str(c)) for c in parse_cards(text)]


@pytest.mark.parametrize(("hand", "villain", "board"), [
    ("AhKh", "QQ+, AQs+", "7c 2d 9s 3h 4h"),
    ("AsAd", "AA, A3o, 32s", "Kh Jd 8c 5d 2s"),
    ("Tc9c", "22+, A2s+, KTo+", "Jc 8c 2h 3d Qs"),
    ("7h7d", "22+, A2+, K2+, Q2+, J2+, T2+, 92+, 82+, 72+, 62+, 52+, 42+, 32", "Ah Kd 7s 2c 2d"),  # every hand
])
def test_hand_against_range_on_the_river_equals_eval7_exactly(hand: str, villain: str, board: str) -> None:
    eval7 = pytest.importorskip("eval7")
    theirs = eval7.py_hand_vs_range_exact(eval7_cards(hand), eval7.HandRange(villain), eval7_cards(board))
    ours = equity([hand, villain], board)
    assert ours.exact and float(ours.equity[0]) == pytest.approx(theirs, abs=1e-6)  # eval7 returns a float32


def within_three_errors(ours: float, our_error: float, theirs: float, samples: int) -> None:
    """|ours - theirs| within three standard errors of the difference (theirs bounded by p(1 - p) / n)."""
    their_error = sqrt(max(theirs * (1 - theirs), 1e-9) / samples)
    assert abs(ours - theirs) <= 3 * sqrt(our_error**2 + their_error**2), (ours, theirs, our_error, their_error)


@pytest.mark.parametrize(("hand", "villain", "board"), [
    ("AhKh", "QQ+, AQs+", ""),
    ("7s6s", "22+, ATs+, KQo", ""),
    ("AhKh", "QQ+, AQs+", "7c 2d 9s"),
])
def test_hand_against_range_agrees_with_eval7_monte_carlo(hand: str, villain: str, board: str) -> None:
    eval7 = pytest.importorskip("eval7")
    n = 200_000
    theirs = eval7.py_hand_vs_range_monte_carlo(eval7_cards(hand), eval7.HandRange(villain), eval7_cards(board), n)
    ours = equity([hand, villain], board, samples=n, seed=7, exact=False)
    within_three_errors(float(ours.equity[0]), ours.std_error[0], theirs, n)
    if board:  # the flop is cheap to enumerate: exact, and eval7's estimate is near it
        exact = equity([hand, villain], board)
        assert exact.exact
        within_three_errors(float(exact.equity[0]), 0.0, theirs, n)


@pytest.mark.parametrize(("hero", "villain", "board"), [
    ("AKs, QQ", "JJ+, AQs+", "7c 2d 9s"),
    ("TT+, AJs+", "22+, KQs", ""),
])
def test_range_against_range_agrees_with_eval7(hero: str, villain: str, board: str) -> None:
    """eval7 gives each hero hand's equity; the range's is their mean weighted by the villain hands each meets."""
    eval7 = pytest.importorskip("eval7")
    n = 20_000
    per_hand = eval7.py_all_hands_vs_range(eval7.HandRange(hero), eval7.HandRange(villain), eval7_cards(board), n)
    theirs = mean_over_villains(per_hand, parse_range(villain), board)
    ours = equity([hero, villain], board, samples=200_000, seed=3)
    within_three_errors(float(ours.equity[0]), ours.std_error[0], theirs, n * len(per_hand))


# Enumerations written plainly: every way the cards still to come can fall, scored with the one-hand evaluators.

def plain_equity(hands: Sequence[Sequence[int]], board: Sequence[int], deck: Sequence[int], board_size: int,
                 per_player: int, value: Callable[[list[int]], object],
                 low: Callable[[list[int]], int | None] | None = None) -> list[Fraction]:
    """Each player's share of the pot over every deal of the board and of ``per_player`` cards each."""
    rest = [c for c in deck if c not in {*board, *(c for h in hands for c in h)}]
    need = board_size - len(board) + per_player * len(hands)
    shares = [Fraction(0)] * len(hands)
    deals = 0
    for cards in permutations(rest, need) if per_player else combinations(rest, need):
        full_board = [*board, *cards[: board_size - len(board)]]
        more = cards[board_size - len(board):]
        mine = [[*h, *more[i * per_player:(i + 1) * per_player], *full_board] for i, h in enumerate(hands)]
        highs = [value(m) for m in mine]
        best = max(highs)  # type: ignore[type-var]
        winners = [i for i, v in enumerate(highs) if v == best]
        lows = [low(m) for m in mine] if low else []
        qualified = [v for v in lows if v is not None]
        if qualified:
            low_winners = [i for i, v in enumerate(lows) if v == max(qualified)]
            for i in winners:
                shares[i] += Fraction(1, 2 * len(winners))
            for i in low_winners:
                shares[i] += Fraction(1, 2 * len(low_winners))
        else:
            for i in winners:
                shares[i] += Fraction(1, len(winners))
        deals += 1
    return [s / deals for s in shares]


def cards(*texts: str) -> list[list[int]]:
    return [[int(c) for c in parse_cards(t)] for t in texts]


@pytest.mark.parametrize(("game", "hands", "dead", "value", "low"), [
    ("stud", ("As Ah Kd Qc 5h 7d", "9c 9d 9h Js 2s 3s"), "Ks 2d", evaluate_high, None),
    ("stud", ("Ac 2c 3d 4h Kd Ks", "5s 6s 7s 8h Qh Qd"), "", evaluate_high, eight_or_better_low),
    ("razz", ("As 2h 3d 9c Kh Qs", "4c 5c 6c 7h 8d Td"), "Ad", ace_to_five_low, None),
])
def test_stud_and_razz_agree_with_a_plain_enumeration(game: str, hands: tuple[str, str], dead: str,
                                                      value: Callable[[list[int]], object],
                                                      low: Callable[[list[int]], int | None] | None) -> None:
    """One card to come each: every ordered pair of the cards left, by the one-hand evaluators."""
    dead_cards = cards(dead)[0] if dead else []
    deck = [c for c in range(52) if c not in dead_cards]
    expected = plain_equity(cards(*hands), [], deck, 0, 1, value, low)
    ours = equity(list(hands), game=game, dead=dead, hi_lo=low is not None, samples=200_000, seed=5)
    assert not ours.exact
    for mine, exact, error in zip(ours.equity, expected, ours.std_error, strict=True):
        assert abs(float(mine) - float(exact)) <= 3 * error


@pytest.mark.parametrize(("game", "hands", "board", "value"), [
    ("2-7", ("7h 5d 3c 2s *", "8h 6d 4c 3s 2c"), "", deuce_to_seven_low),
    ("a-5", ("Ah 2d 3c 4s *", "As 2c 3d 6h 7c"), "", ace_to_five_low),
    ("badugi", ("Ah 2d 3c *", "As 5d 4h 2c"), "", evaluate_badugi),
    ("short-deck", ("Ah Kh", "9c 9d"), "6h 7h 8c Js", short_deck_high),
])
def test_draw_and_short_deck_equal_a_plain_enumeration(game: str, hands: tuple[str, str], board: str,
                                                       value: Callable[[list[int]], object]) -> None:
    """Draw games: the hand drawing one card against a pat hand, every card it may draw; short deck:
    every river."""
    deck = list(range(16, 52)) if game == "short-deck" else list(range(52))
    board_cards = cards(board)[0] if board else []
    drawer, pat = hands
    kept = cards(drawer.replace("*", ""))[0]
    pat_cards = cards(pat)[0]
    if board:
        expected = plain_equity([kept, pat_cards], board_cards, deck, 5, 0, value)
    else:  # each card the drawer may catch, the pat hand as it stands
        rest = [c for c in deck if c not in {*kept, *pat_cards}]
        shares = [Fraction(0), Fraction(0)]
        for c in rest:
            a, b = value([*kept, c]), value(pat_cards)
            if a == b:
                shares = [s + Fraction(1, 2) for s in shares]
            else:
                shares[0 if a > b else 1] += 1  # type: ignore[operator]
        expected = [s / len(rest) for s in shares]
    ours = equity([drawer.replace(" ", ""), pat.replace(" ", "")], board, game=game)
    assert ours.exact and list(ours.equity) == expected


def test_weighted_ranges_enumerate_exactly() -> None:
    """A weight of 0.5 counts a matchup half: AKs at half weight against AKo equals the plain mean."""
    r = equity(["0.5(AKs), AKo", "QQ"], "Ah 7c 2d 9s")
    suited = equity(["AKs", "QQ"], "Ah 7c 2d 9s")
    offsuit = equity(["AKo", "QQ"], "Ah 7c 2d 9s")
    # matchups: AKs has 3 combos left (Ah on board), AKo 9; each meets the queens left
    a, b = Fraction(suited.out_of), Fraction(offsuit.out_of)
    expected = (suited.equity[0] * a / 2 + offsuit.equity[0] * b) / (a / 2 + b)
    assert r.exact and r.equity[0] == expected and sum(r.equity) == 1


def test_monte_carlo_stops_at_the_target_error_and_is_seeded() -> None:
    first = equity(["AKs", "QQ+, AQs+"], target_error=0.003, seed=11)
    assert not first.exact and max(first.std_error) <= 0.003 and first.boards < 100_000
    assert equity(["AKs", "QQ+, AQs+"], target_error=0.003, seed=11) == first
    timed = equity(["AKs", "QQ+, AQs+"], samples=10**8, seconds=0.3, seed=1)
    assert 0 < timed.boards < 10**8


def test_dead_cards_and_impossible_ranges() -> None:
    with_dead = equity(["AA", "KK"], "2c 3d 4h", dead="As Ah")
    assert with_dead.exact and with_dead.out_of == 1 * 6 * comb45(2)
    with pytest.raises(CardError, match="No hand of player 2's holdem range 'KK' is possible"):
        equity(["AA", "KK"], "Kc Kd Kh", dead="Ks")
    with pytest.raises(ConfigError, match="always share a card"):
        equity(["AsAh, AsAd", "AhAd, AsAh"])
    with pytest.raises(CardError, match="twice"):
        equity(["AsAh", "AhAs"])
    with pytest.raises(CardError, match="a card of a known hand"):  # dropped before any deal is drawn
        equity(["AhKh", "AhAs, KhKs"])
    with pytest.raises(ConfigError, match="hi/lo"):
        equity(["AA", "KK"], game="razz", hi_lo=True)


def comb45(k: int) -> int:
    from math import comb
    return comb(52 - 3 - 2 - 2 - 2, k)


def test_a_result_prints_as_a_table() -> None:
    mc = equity(["AKs", "QQ+, AQs+"], "Ah 7c 2d", dead="5s", exact=False, samples=20_000, seed=1)
    text = str(mc)
    assert text.splitlines()[0] == ("holdem, board Ah 7c 2d, dead 5s, Monte Carlo over 20,000 samples "
                                    "(± is 1.96 standard errors, a 95% margin)")
    assert "equity  margin" in text and "±" in text and "QQ+, AQs+" in text
    exact = equity(["AhKh", "QsQd"], "2c 3d 4h")
    assert "exact over 990 boards" in str(exact) and "±" not in str(exact)
    assert isinstance(exact, EquityResult) and "scoop" in str(equity(["AsKs2h3h", "QQ**"], "4c 5d 9s", game="omaha",
                                                                      hi_lo=True, samples=2_000, seed=1))


def test_equity_command_answers_a_range_question() -> None:
    """As a user runs it: the issue's command, and stud with dead cards."""
    run = [sys.executable, "-m", "cardgame", "equity"]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "120"}
    out = subprocess.run([*run, "AKs", "QQ+,AQs+", "--board", "Ah7c2d", "--dead", "5s"], capture_output=True,
                         text=True, env=env, check=True, cwd=ROOT).stdout
    assert "exact over 39,732 boards" in out and "79.02%" in out and "1495/1892" in out
    out = subprocess.run([*run, "AsAhKd", "**Qc", "--game", "stud", "--dead", "Ks 2d", "--samples", "20000",
                          "--seed", "1"], capture_output=True, text=True, env=env, check=True, cwd=ROOT).stdout
    assert "stud, dead Ks 2d, Monte Carlo over 20,000 samples" in out and "±" in out
    bad = subprocess.run([*run, "AKs", "QQ+,AZs"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert bad.returncode == 2 and "cannot read 'AZs'" in bad.stderr


HOSTILE = [None, 1, 1.5, float("nan"), float("inf"), -1, True, "x" * 100_000, "", b"AhKh", ["AhKh"], {"a": 1},
           10**30, object(), ("Ah", "Kh", "Qh"), parse_range("AA")]


@pytest.mark.parametrize("name", ["hands", "board", "game", "hi_lo", "dead", "exact", "samples", "target_error",
                                  "seconds", "seed", "use_numba", "progress"])
def test_each_parameter_refuses_hostile_values_with_the_librarys_error(name: str) -> None:
    from cardgame.model.errors import CardgameError
    for value in HOSTILE:
        call = {"hands": ["AhKh", "QQ+"], "board": "2c 3d 4h", "samples": 2000, "seed": 1, name: value}
        try:
            equity(**call)  # type: ignore[arg-type]
        except CardgameError as exc:
            assert len(str(exc)) <= 700


@pytest.mark.parametrize(("game", "hands", "board"), [
    ("holdem", ["AKs", "QQ+, AQs+"], "Ah 7c 2d"),
    ("short-deck", ["AK", "QQ+"], "6h 7h 8c"),
    ("holdem", ["0.5(AKs), AKo", "QQ, 0.25(JJ)"], "Ah 7c 2d"),  # weighted: drawn in proportion
])
def test_range_matchup_tables_equal_monte_carlo(game: str, hands: list[str], board: str) -> None:
    """The exact tables value every hand on every board, those sharing a card too (then dropped): a
    crash once (seven-card index out of range; the short-deck evaluator refusing a repeated card)."""
    exact = equity(hands, board, game=game)
    sampled = equity(hands, board, game=game, exact=False, samples=100_000, seed=4)
    assert exact.exact and sum(exact.equity) == 1
    assert abs(float(exact.equity[0]) - float(sampled.equity[0])) <= 3 * sampled.std_error[0]


def test_five_card_omaha_ranges_and_hi_lo_scoops() -> None:
    result = equity(["AsAhKd**", "QQ***"], "Ac 7d 2h", game="omaha", samples=20_000, seed=1)
    assert result.players == ("AsAhKd**", "QQ***") and float(result.equity[0]) > 0.85
    hi_lo = equity(["As2s3d4d", "KsKdQhQc"], "5h 6h Kc", game="omaha", hi_lo=True)
    scoop, split, lose = hi_lo.rates[0]
    assert hi_lo.exact and "scoop" in str(hi_lo) and scoop + split + lose == pytest.approx(1)
