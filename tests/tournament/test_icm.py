"""ICM equity against published figures (``tests/data/icm_published.toml``), against an independent
brute force over every finishing order, and by its properties; the Monte Carlo method within its
standard error of the exact one; bad input refused with the package's own error."""

from __future__ import annotations

import itertools
import math
import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.tournament import Icm, TournamentError, exact_steps, icm, icm_table
from cardgame.tournament.icm import EXACT_STEPS, MAX_SAMPLE_WORK
from tests.conftest import DATA

PUBLISHED = tomllib.loads((DATA / "icm_published.toml").read_text(encoding="utf-8"))["example"]
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True, database=None)


def brute_force(stacks: list[int], payouts: list[int]) -> list[float]:
    """Malmuth-Harville by its definition: every finishing order of the players with chips, its chance
    the product of each place's share of the chips left (players without chips share the last places)."""
    live = [i for i, s in enumerate(stacks) if s]
    equity = [0.0] * len(stacks)
    prizes = list(payouts) + [0] * (len(stacks) - len(payouts))
    for order in itertools.permutations(live):
        chance, left = 1.0, sum(stacks)
        for player in order:
            chance *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            equity[player] += chance * prizes[place]
    out = [i for i, s in enumerate(stacks) if not s]
    for i in out:
        equity[i] = sum(prizes[len(live):]) / len(out)
    return equity


@pytest.mark.parametrize("example", PUBLISHED, ids=[e["name"] for e in PUBLISHED])
def test_published_icm_figures(example: dict[str, Any]) -> None:
    """Each published example, to the digits it was published with (its source is in the data file)."""
    result = icm(example["stacks"], example["payouts"])
    assert result.method == "exact"
    for mine, theirs in zip(result.equity, example["equity"], strict=True):
        if not math.isnan(theirs):
            assert abs(mine - theirs) <= example["tolerance"], (example["name"], result.equity)


def test_the_wikipedia_example_exactly() -> None:
    """Wikipedia's 50/30/20 chips, 70/30 paid, worked by hand: first place by the chips, second by the
    chips left once the winner is out."""
    result = icm([50, 30, 20], [70, 30])
    expected = (35 + 30 * (0.3 * 5 / 7 + 0.2 * 5 / 8), 21 + 30 * (0.5 * 3 / 5 + 0.2 * 3 / 8),
                14 + 30 * (0.5 * 2 / 5 + 0.3 * 2 / 7))
    assert result.equity == pytest.approx(expected, rel=1e-12)
    assert result.share == pytest.approx([e / 100 for e in expected], rel=1e-12)
    assert result.prize_pool == 100 and result.standard_error == (0.0, 0.0, 0.0)


def test_the_icm_table_of_the_published_four_handed_example() -> None:
    table = icm_table(icm([500, 5000, 1500, 3000], [500, 300, 200]), ["D", "A", "C", "B"])
    assert table.splitlines() == [
        "player  chips  chips %  equity  equity %",
        "A       5,000    50.00  377.78     37.78",
        "B       3,000    30.00  312.89     31.29",
        "C       1,500    15.00  225.60     22.56",
        "D         500     5.00   83.73      8.37",
        "prize pool 1,000 (exact)",
    ]


stacks_st = st.lists(st.integers(min_value=0, max_value=10**6), min_size=2, max_size=6).filter(any)


@st.composite
def games(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    stacks = draw(stacks_st)
    paid = draw(st.integers(min_value=1, max_value=len(stacks)))
    payouts = sorted(draw(st.lists(st.integers(min_value=0, max_value=10**6), min_size=paid, max_size=paid)),
                     reverse=True)
    if not any(payouts):
        payouts[0] = 1
    return stacks, payouts


@SETTINGS
@given(games())
def test_exact_icm_is_the_brute_force_over_every_finishing_order(game: tuple[list[int], list[int]]) -> None:
    stacks, payouts = game
    assert icm(stacks, payouts).equity == pytest.approx(brute_force(stacks, payouts), rel=1e-9, abs=1e-6)


@SETTINGS
@given(games())
def test_equities_add_up_to_the_prize_pool_and_follow_the_stacks(game: tuple[list[int], list[int]]) -> None:
    """The pool is shared out whole; a larger stack is worth at least as much (payouts never rise),
    never more than first place, and a player with no chips gets the last places' payouts shared."""
    stacks, payouts = game
    result = icm(stacks, payouts)
    assert sum(result.equity) == pytest.approx(sum(payouts), rel=1e-9)
    assert sum(result.share) == pytest.approx(1.0, rel=1e-9)
    for i, j in itertools.permutations(range(len(stacks)), 2):
        if stacks[i] > stacks[j]:
            assert result.equity[i] >= result.equity[j] - 1e-6 * max(payouts)
        if stacks[i] == stacks[j]:
            assert result.equity[i] == pytest.approx(result.equity[j], rel=1e-9, abs=1e-9)
    assert max(result.equity) <= payouts[0] * (1 + 1e-12)
    zeros = [i for i, s in enumerate(stacks) if s == 0]
    live = len(stacks) - len(zeros)
    for i in zeros:
        assert result.equity[i] == pytest.approx(sum(payouts[live:]) / len(zeros))


def test_symmetric_stacks_share_equally_and_the_chip_leader_gets_most() -> None:
    assert icm([1000] * 9, [50, 30, 20]).equity == pytest.approx([100 / 9] * 9)
    result = icm([9000, 500, 500], [65, 35])
    assert result.equity[0] == max(result.equity) and result.equity[1] == result.equity[2]


def test_a_player_with_no_chips_gets_the_payout_of_their_place() -> None:
    """One player out: last place's payout; two out: the last two places' shared; a player with every
    chip: first place."""
    assert icm([700, 300, 0], [50, 30, 20]).equity[2] == 20
    assert icm([1000, 0, 0], [50, 30, 20]).equity == (50.0, 25.0, 25.0)


@settings(max_examples=8, deadline=None, derandomize=True, database=None)
@given(games(), st.integers(min_value=0, max_value=2**64))
def test_monte_carlo_agrees_with_exact_within_its_standard_error(game: tuple[list[int], list[int]],
                                                                 seed: int) -> None:
    stacks, payouts = game
    exact = icm(stacks, payouts, method="exact")
    sampled = icm(stacks, payouts, method="monte carlo", samples=20_000, seed=seed)
    assert sampled.method == "monte carlo" and sampled.samples == 20_000 and sampled.seed == seed
    for e, s, err in zip(exact.equity, sampled.equity, sampled.standard_error, strict=True):
        # five standard errors (fails about 1 in 10**6), and a payout of chance below about 1/samples
        # may never be drawn (then its standard error is 0 too)
        assert abs(e - s) <= 5 * err + 5 * max(payouts) / 20_000
    assert sum(sampled.equity) == pytest.approx(sum(payouts), rel=1e-9)


def test_monte_carlo_replays_from_its_seed_and_reports_one_it_drew() -> None:
    a = icm([10, 20, 30, 40], [60, 40], method="monte carlo", samples=1000, seed=7)
    assert a == icm([10, 20, 30, 40], [60, 40], method="monte carlo", samples=1000, seed=7)
    assert a != icm([10, 20, 30, 40], [60, 40], method="monte carlo", samples=1000, seed=8)
    drawn = icm([10, 20, 30, 40], [60, 40], method="monte carlo", samples=1000)
    assert drawn.seed is not None
    assert drawn == icm([10, 20, 30, 40], [60, 40], method="monte carlo", samples=1000, seed=drawn.seed)


def test_auto_is_exact_within_its_stated_cost_and_samples_beyond() -> None:
    """The cost stated in the module: m * 2**(m-1) steps when every place pays (5,120 for 10, 524,288
    for 16); 20 players paying 3: 3,820. Past EXACT_STEPS, auto samples and exact is refused."""
    assert exact_steps(10, 10) == 5_120 and exact_steps(16, 16) == 524_288 and exact_steps(20, 3) == 3_820
    assert icm(list(range(1, 11)), list(range(10, 0, -1))).method == "exact"
    assert icm(list(range(1, 31)), [50, 30, 20]).method == "exact"
    assert exact_steps(40, 10) > EXACT_STEPS
    big = icm(list(range(1, 41)), list(range(10, 0, -1)), seed=3)
    assert big.method == "monte carlo" and sum(big.equity) == pytest.approx(55)
    with pytest.raises(TournamentError, match="more than 1,000,000 steps; use method='monte carlo'"):
        icm(list(range(1, 41)), list(range(10, 0, -1)), method="exact")
    table = icm_table(big)
    assert "Monte Carlo, " in table and "seed 3" in table and "± s.e." in table


HUGE = 10**5000


@pytest.mark.parametrize(("call", "match"), [
    (lambda: icm([0, 0], [1]), "At least one player must have chips"),
    (lambda: icm([1, 2], [0, 0]), "must pay something"),
    (lambda: icm([1, 2], [3, 2, 1]), "pay 3 places but there are 2 players"),
    (lambda: icm([1, -2], [1]), "stacks entry 2 must be a whole number"),
    (lambda: icm([1, HUGE], [1]), "at most 18 digits"),
    (lambda: icm([1, True], [1]), "stacks entry 2"),
    (lambda: icm("12", [1]), "stacks must be a list"),
    (lambda: icm([1] * 10_001, [1]), "from 1 to 10,000 entries"),
    (lambda: icm([1, 2], [1.5]), "payouts entry 1"),
    (lambda: icm([1, 2], [1], method="x" * 100_000), "ICM method must be one of"),
    (lambda: icm([1, 2], [1], samples=10), "number of samples"),
    (lambda: icm([1, 2], [1], seed=-1), "ICM seed"),
    (lambda: icm([1] * 2000, [1], method="monte carlo", samples=50_000), "at most 10,000 samples"),
    (lambda: icm_table(icm([1, 2], [1]), ["a"]), "one name per stack"),
    (lambda: icm_table(icm([1, 2], [1]), ["a", "x" * 100_000]), "name 2"),
    (lambda: icm_table("result"), "An Icm result"),
    (lambda: Icm((1, 2), (1,), (1.0,), (1.0,), (0.0,), "exact"), "one finite float per stack"),
    (lambda: Icm((1,), (1,), (math.nan,), (1.0,), (0.0,), "exact"), "one finite float per stack"),
])
def test_bad_input_is_refused_with_a_short_message(call: Any, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as info:
        call()
    assert len(str(info.value)) <= 700


def test_many_players_sample_by_default_within_the_work_bound() -> None:
    """2,000 players paying 3 places is past the exact method's cost: auto samples as many orders as
    MAX_SAMPLE_WORK allows (10,000), and the pool is still shared out whole."""
    result = icm([1 + i % 7 for i in range(2000)], [50, 30, 20], seed=1)
    assert result.method == "monte carlo" and result.samples == MAX_SAMPLE_WORK // 2000 == 10_000
    assert sum(result.equity) == pytest.approx(100)
