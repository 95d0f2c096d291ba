"""Payout tables: the defaults by field size, rounding to whole units with the remainder rule stated in
``cardgame.tournament.payouts``, and validation with clear errors."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.tournament import (
    TournamentError,
    check_payouts,
    check_percentages,
    default_percentages,
    payouts,
    payouts_for,
)


def test_sit_and_go_defaults() -> None:
    assert default_percentages(2) == (100,)
    assert default_percentages(6) == (65, 35)
    assert default_percentages(9) == (50, 30, 20)
    assert payouts_for(9, 900) == (450, 270, 180)


def test_a_larger_field_pays_about_fifteen_percent() -> None:
    for entrants, paid in ((11, 2), (100, 15), (1000, 150), (1001, 151)):
        table = default_percentages(entrants)
        assert len(table) == paid and sum(table) == 100
        assert all(a >= b for a, b in itertools.pairwise(table))
    hundred = default_percentages(100)
    assert 29 < hundred[0] < 31 and 1.9 < hundred[-1] < 2.1  # the winner ~30 %, the last paid ~2 buy-ins


def test_rounding_gives_the_remainder_by_the_stated_rule() -> None:
    """Rounded down to whole units: the rest to the winner ("first") or a unit each to the largest
    rounding losses, the higher place first on a tie ("largest")."""
    assert payouts(1001, [50, 30, 20]) == (501, 300, 200)
    assert payouts(100, [Fraction(100, 3)] * 3) == (34, 33, 33)
    assert payouts(100, [Fraction(100, 3)] * 3, remainder="largest") == (34, 33, 33)
    assert payouts(1000, ["45.5", "30.25", "24.25"], remainder="largest") == (455, 303, 242)
    assert payouts(1000, ["45.5", "30.25", "24.25"]) == (456, 302, 242)
    assert payouts(123_456, [50, 30, 20], unit=100) == (61_856, 37_000, 24_600)
    assert payouts(123_456, [50, 30, 20], unit=100, remainder="largest") == (61_756, 37_000, 24_700)
    assert payouts(5, [60, 40], unit=100) == (5, 0)  # less than a unit: all to the winner


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(st.integers(min_value=0, max_value=10**15), st.integers(min_value=1, max_value=3000),
       st.integers(min_value=1, max_value=10**4), st.sampled_from(["first", "largest"]))
def test_payouts_add_up_to_the_pool_and_never_rise(pool: int, entrants: int, unit: int, rule: str) -> None:
    amounts = payouts_for(entrants, pool, unit=unit, remainder=rule)
    assert sum(amounts) == pool
    assert all(a >= b for a, b in itertools.pairwise(amounts))
    if pool % unit == 0:
        assert all(a % unit == 0 for a in amounts)


HUGE = 10**5000


@pytest.mark.parametrize(("call", "match"), [
    (lambda: check_percentages([50, 30, 10]), "add up to 90 %, not 100 %"),
    (lambda: check_percentages([30, 50, 20]), "Place 2 pays 50 %, more than place 1's 30 %"),
    (lambda: check_percentages([50, 30, 20], entrants=2), "pays 3 places but there are 2 entrants"),
    (lambda: check_percentages([100, 0]), "above 0 and at most 100"),
    (lambda: check_percentages([float("nan")]), "finite number"),
    (lambda: check_percentages(["1e2"]), "decimal number such as 27.5"),
    (lambda: check_percentages([HUGE]), "at most 18 digits"),
    (lambda: check_percentages([Fraction(1, 3 * 10**7)] * 3), "at most 6 decimals"),
    (lambda: check_percentages("50,50"), "must be a list"),
    (lambda: check_payouts([10, 20]), "Place 2 pays 20, more than place 1's 10"),
    (lambda: check_payouts([0]), "first place pays 0"),
    (lambda: check_payouts([3, 2, 1], entrants=2), "pays 3 places but there are 2 entrants"),
    (lambda: payouts(-1, [100]), "prize pool"),
    (lambda: payouts(100, [100], unit=0), "rounding unit"),
    (lambda: payouts(100, [100], remainder="x" * 10**6), "remainder rule must be one of"),
    (lambda: payouts_for(HUGE, 100), "number of entrants"),
    (lambda: payouts_for(2, 100, percentages=[50, 30, 20]), "3 places but there are 2 entrants"),
])
def test_bad_tables_are_refused_with_a_short_message(call: Any, match: str) -> None:
    with pytest.raises(TournamentError, match=match) as info:
        call()
    assert len(str(info.value)) <= 700


def test_floats_are_read_as_written() -> None:
    """72.7 + 27.3 is 100 as written (as binary floats it is 100.00000000000001 or so)."""
    assert check_percentages([72.7, 27.3]) == (Fraction(727, 10), Fraction(273, 10))
    with pytest.raises(TournamentError, match="more than place 1"):
        check_percentages([27.3, 72.7])
