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


def test_settled_pots_leave_this_streets_bets_in_front_of_the_players() -> None:
    """Robert's Rules: bets are gathered into the pot when the round ends. A bet nobody has called is
    no side pot, and a player still to act is in every pot their stack reaches."""
    from cardgame.model.pots import settled_pots
    from cardgame.play.game import Game
    from variants import no_limit_holdem

    game = Game(no_limit_holdem(1, 2), seats=3, first_button=0, seed=3)
    for name, chips in (("Ann", 50), ("Bob", 200), ("Cat", 200)):
        game.sit_down(name, chips)
    game.start()
    game.all_in(0)  # Ann, on the button, first to act three-handed
    game.call(1)
    assert settled_pots(game.hand.players) == [] and game.view(0).pots == ()  # every chip is still a bet
    game.call(2)
    assert game.hand.street == "flop"
    assert game.view(0).pots == (Pot(150, (1, 2, 0)),)
    game.bet(1, 20)
    assert game.view(0).pots == (Pot(150, (1, 2, 0)),)  # side_pots would say: side 20 (Bob)
    assert side_pots(game.hand.players)[-1] == Pot(20, (1,))
    game.call(2)
    assert game.view(0).pots == (Pot(150, (1, 2, 0)), Pot(40, (1, 2)))
