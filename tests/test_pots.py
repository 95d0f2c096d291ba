"""Side pots from contributions, and odd-chip splitting."""

from __future__ import annotations

from cardgame.model.pots import Pot, side_pots, split
from tests.helpers import make_context


def contribute(amounts: list[int], folded: set[int] = frozenset()):  # type: ignore[assignment,no-untyped-def]
    ctx = make_context([1000] * len(amounts))
    assert ctx.hand is not None
    for hp, a in zip(ctx.hand.players, amounts, strict=True):
        hp.put_dead(a)
        hp.folded = hp.seat in folded
    return ctx.hand.players


def test_equal_contributions_make_one_pot() -> None:
    assert side_pots(contribute([10, 10, 10])) == [Pot(30, (0, 1, 2))]


def test_each_all_in_level_caps_a_pot() -> None:
    assert side_pots(contribute([50, 100, 200, 200])) == [
        Pot(200, (0, 1, 2, 3)), Pot(150, (1, 2, 3)), Pot(200, (2, 3))
    ]


def test_folded_chips_stay_in_the_pots_they_reached() -> None:
    assert side_pots(contribute([30, 100, 100], folded={0})) == [Pot(230, (1, 2))]
    assert side_pots(contribute([80, 50, 100], folded={2})) == [Pot(150, (0, 1)), Pot(80, (0,))]


def test_odd_chips_go_one_at_a_time_from_the_first_winner() -> None:
    assert split(5, [3, 1]) == [3, 2]
    assert split(10, [0, 1, 2]) == [4, 3, 3]
    assert split(11, [0, 1, 2]) == [4, 4, 3]
