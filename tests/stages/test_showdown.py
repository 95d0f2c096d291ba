"""The showdown alone: uncontested pots, side pots, split pots, hi/lo halves, show order; the hand's end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest

from cardgame.engine import Done, Exit, Restart
from cardgame.model.cards import parse_cards
from cardgame.model.events import CardsShown, HandEnded, PotAwarded
from cardgame.stages import EndHand, Showdown, ShowdownResult
from tests.helpers import make_context


@dataclass(frozen=True)
class Value:
    value: int
    description: str


class ByFirstCard:
    """A toy evaluator: the rank of the first hole card; ``low`` inverts it and needs <= 6 (an 8)."""

    def __init__(self, low: bool = False) -> None:
        self.name = "toy low" if low else "toy high"
        self.low = low

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int | None:
        r = hole[0] >> 2
        if self.low:
            return None if r > 6 else 100 - r
        return r

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> Value | None:
        v = self.rank(hole, board)
        return None if v is None else Value(v, f"{self.name} {v}")


def showdown_ctx(stacks: list[int], contributions: list[int], holes: str, folded: frozenset[int] = frozenset()):  # type: ignore[no-untyped-def]
    ctx = make_context(stacks)
    hand = ctx.hand
    assert hand is not None
    cards = parse_cards(holes)
    for i, (hp, c) in enumerate(zip(hand.players, contributions, strict=True)):
        hp.put_dead(c)
        hp.hole = list(cards[2 * i : 2 * i + 2])
        hp.folded = hp.seat in folded
    return ctx


def awards(ctx) -> list[tuple[int, int, tuple[int, ...], tuple[int, ...], str]]:  # type: ignore[no-untyped-def]
    return [(e.pot, e.amount, e.winners, e.amounts, e.share) for e in ctx.log if isinstance(e, PotAwarded)]


def test_last_player_standing_wins_without_showing() -> None:
    ctx = showdown_ctx([100, 100, 100], [10, 20, 20], "AhKh QsQd 7c2d", folded=frozenset({0, 1}))
    stage = Showdown(ByFirstCard())  # type: ignore[arg-type]
    stage.start(ctx, None)
    assert awards(ctx) == [(0, 50, (2,), (50,), "")]
    assert not [e for e in ctx.log if isinstance(e, CardsShown)]
    assert [p.stack for p in ctx.table.players()] == [90, 80, 130]
    assert stage.outcome == Done(ShowdownResult(1, ((2, 50),), ()))
    assert ctx.hand is not None  # the hand's end is the next stage


@pytest.mark.parametrize("max_hands", [None, 1])
def test_the_end_of_hand_closes_the_hand_then_restarts_or_stops(max_hands: int | None) -> None:
    ctx = showdown_ctx([100, 100], [0, 0], "AhKh QsQd")
    ctx.max_hands = max_hands
    stage = EndHand()
    stage.start(ctx, ShowdownResult(1, ((0, 0),), ()))  # built by hand
    assert ctx.hand is None and isinstance(ctx.log[-1], HandEnded) and ctx.hands_played == 1
    assert stage.outcome == (Restart() if max_hands is None else Exit())


def test_side_pots_go_to_the_best_eligible_hand() -> None:
    # seat 0 (all-in 50) has the best hand, seat 1 second; seat 2 covers everyone.
    ctx = showdown_ctx([50, 100, 200], [50, 100, 200], "AhKh QsQd 7c2d")
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 150, (0,), (150,), ""), (1, 100, (1,), (100,), ""), (2, 100, (2,), (100,), "")]


def test_split_pot_with_odd_chip_left_of_the_button() -> None:
    ctx = showdown_ctx([100, 100, 100], [5, 5, 5], "AhKh 2s2d AdKd")
    stage = Showdown(ByFirstCard())  # type: ignore[arg-type]
    stage.start(ctx, None)
    assert awards(ctx) == [(0, 15, (0, 2), (8, 7), "")]
    assert stage.outcome is not None
    result = stage.outcome.result  # type: ignore[attr-defined]
    assert isinstance(result, ShowdownResult) and result.winnings == ((0, 8), (2, 7))


def test_hi_lo_halves_odd_chip_to_high_and_scoop_without_low() -> None:
    ctx = showdown_ctx([100, 100, 100], [7, 7, 7], "AhKh 3s2d 9c3d")
    Showdown(ByFirstCard(), ByFirstCard(low=True)).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 11, (0,), (11,), "high"), (0, 10, (1,), (10,), "low")]
    ctx = showdown_ctx([100, 100], [10, 10], "AhKh 9c2d")
    Showdown(ByFirstCard(), ByFirstCard(low=True)).start(ctx, None)  # type: ignore[arg-type]
    assert awards(ctx) == [(0, 20, (0,), (20,), "")]


def test_show_order_starts_with_the_last_aggressor() -> None:
    ctx = showdown_ctx([100, 100, 100], [5, 5, 5], "AhKh 2s2d 9d9c")
    assert ctx.hand is not None
    ctx.hand.last_aggressor = 1
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert [e.seat for e in ctx.log if isinstance(e, CardsShown)] == [1, 2, 0]


def test_with_no_bet_on_the_last_round_the_first_to_act_there_shows_first() -> None:
    """TDA rule 16: no bet on the final round, the first live player from where its action started
    shows first (stud: the best board showing); a bet on it, the last aggressor."""
    ctx = showdown_ctx([100, 100, 100], [5, 5, 5], "AhKh 2s2d 9d9c")
    assert ctx.hand is not None
    ctx.hand.first_to_act = 2
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert [e.seat for e in ctx.log if isinstance(e, CardsShown)] == [2, 0, 1]
    ctx = showdown_ctx([100, 100, 100], [5, 5, 5], "AhKh 2s2d 9d9c")
    assert ctx.hand is not None
    ctx.hand.first_to_act, ctx.hand.last_aggressor = 2, 1
    Showdown(ByFirstCard()).start(ctx, None)  # type: ignore[arg-type]
    assert [e.seat for e in ctx.log if isinstance(e, CardsShown)] == [1, 2, 0]


def test_a_stud_hand_checked_through_seventh_street_is_shown_from_the_best_board() -> None:
    """Played end to end: whoever acted first on the last round (the betting round's own order:
    stud's best board) shows first when nobody bet there; in hold'em that is left of the button."""
    from cardgame.model.events import ActionTaken, BoardDealt, HoleCardsDealt
    from cardgame.play.game import Game
    from variants import get

    for code, seed in (("F7S", 3), ("FR", 4), ("NT", 5)):
        game = Game(get(code), seats=4, seed=seed, max_hands=1, keep_hands=None, first_button=0)
        for name in ("Ann", "Bob", "Cat", "Dan"):
            game.sit_down(name, 1000)
        game.start()
        while game.to_act is not None:  # stay in as cheaply as possible: the last round is checked through
            legal = game.legal_actions()
            assert legal is not None
            seat = game.to_act
            game.act(seat, "bring_in" if legal.bring_in else "check" if legal.can_check else "call")
        log = game.events
        last = max(i for i, e in enumerate(log) if isinstance(e, BoardDealt | HoleCardsDealt))  # the last street
        first = next(e.seat for e in log[last:] if isinstance(e, ActionTaken))
        shown = [e.seat for e in log if isinstance(e, CardsShown)]
        assert shown[0] == first, (code, shown, first)
        if code == "NT":
            assert first == 1  # left of the button

