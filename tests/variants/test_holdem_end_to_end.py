"""Hold'em end to end through the dispatcher, with scripted decks and exact final stacks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import variants
from cardgame.engine import Stage
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import ActionTaken, BetReturned, PotAwarded
from cardgame.play.game import Game
from variants import fixed_limit_holdem, no_limit_holdem


def scripted(stages: list[Stage], stacks: Sequence[int], button: int, holes: str, board: str) -> Game:
    """A game with one hand: ``holes`` in dealing order (left of the button first), ``board`` 5 cards.

    Burn cards are filled in before the flop, turn and river.
    """
    game = Game(stages, seats=len(stacks), first_button=button, seed=0, max_hands=1)
    for i, s in enumerate(stacks):
        game.sit_down(f"p{i}", s, i)
    b = parse_cards(board)
    filler = [c for c in game.ctx.deck_spec.cards if c not in set(parse_cards(holes)) | set(b)][:3]
    burns = filler
    game.ctx.stack_deck([*parse_cards(holes), burns[0], *b[:3], burns[1], b[3], burns[2], b[4]])
    game.start()
    return game


def stacks(game: Game) -> list[int]:
    return [p.stack for p in game.table.players()]


def test_three_way_all_in_with_two_side_pots() -> None:
    # p3 has the button; p0 SB, p1 BB. Stacks 50/100/200/300. p2 shoves 200; p3's all-in is a call
    # of 200 (no opponent could call more), p0 and p1 call all-in. Main pot 200 (p0 best), side 150
    # (p1), side 200 (p2); p3 keeps 100.
    game = scripted(no_limit_holdem(1, 2), [50, 100, 200, 300], 3,
                    "AsAc KsKc QsQc 4d5h", "2d 7h 9c Jd 3s")
    game.all_in(2)
    game.all_in(3)
    game.call(0)
    game.call(1)
    assert game.status_name == "exited"
    assert stacks(game) == [200, 150, 200, 100]
    pots = [(e.pot, e.amount, e.winners) for e in game.events if isinstance(e, PotAwarded)]
    assert pots == [(0, 200, (0,)), (1, 150, (1,)), (2, 200, (2,))]
    assert not [e for e in game.events if isinstance(e, BetReturned)]


def test_split_pot_odd_chip_goes_to_the_first_winner_left_of_the_button() -> None:
    # Button p2 limps, p0 (SB) folds, p1 checks: pot 5, the board (a royal flush) plays.
    game = scripted(no_limit_holdem(1, 2), [100, 100, 100], 2, "2c3d 4h5c 7d8h", "Ts Js Qs Ks As")
    game.call(2)
    game.fold(0)
    game.check(1)
    for _ in range(3):
        game.check(1)
        game.check(2)
    assert stacks(game) == [99, 101, 100]
    award = next(e for e in game.events if isinstance(e, PotAwarded))
    assert award.winners == (1, 2) and award.amounts == (3, 2)


def test_heads_up_order_and_exact_stacks() -> None:
    # p1 has the button and the small blind: acts first pre-flop, last after.
    game = scripted(no_limit_holdem(1, 2), [100, 100], 1, "AhAd 7c2s", "Kd 9s 4h 3c Qs")
    assert game.to_act == 1
    game.raise_to(1, 6)
    game.call(0)
    assert game.to_act == 0  # flop: big blind first
    game.check(0)
    game.bet(1, 10)
    game.call(0)
    game.check(0)
    game.check(1)
    game.bet(0, 20)
    game.fold(1)
    assert stacks(game) == [116, 84]
    assert BetReturned(0, 20) in game.events


def test_capped_fixed_limit_round() -> None:
    game = scripted(fixed_limit_holdem(2, 4), [100, 100, 100], 2, "AhAd KhKd QhQd", "2c 7s 9d Jc 3h")
    game.raise_to(2, 4)
    game.raise_to(0, 6)
    game.raise_to(1, 8)
    assert not game.can_raise_to(2)
    game.call(2)
    game.call(0)
    for seat in (0, 1, 2):  # flop checks around
        game.check(seat)
    game.bet(0, 4)  # turn: big bets
    game.raise_to(1, 8)
    game.raise_to(2, 12)
    game.raise_to(0, 16)
    la = game.legal_actions()
    assert la is not None and la.seat == 1 and not la.can_raise
    game.call(1)
    game.call(2)
    for seat in (0, 1, 2):
        game.check(seat)
    assert stacks(game) == [148, 76, 76]


def test_short_all_in_does_not_reopen_betting() -> None:
    game = scripted(no_limit_holdem(1, 2), [1000, 14, 1000], 2, "7h7d AhAd KhKd", "2c 5s 9d Jc 3h")
    game.raise_to(2, 10)
    game.call(0)
    game.all_in(1)
    with pytest.raises(IllegalActionError, match="betting was not reopened"):
        game.raise_to(2, 30)
    assert not game.can_raise_to(2) and game.can_call(2)
    game.call(2)
    game.call(0)
    game.bet(0, 50)
    game.call(2)
    for _ in range(2):
        game.check(0)
        game.check(2)
    assert stacks(game) == [936, 42, 1036]


def test_illegal_input_leaves_the_game_as_it_was() -> None:
    game = scripted(no_limit_holdem(1, 2), [100, 100, 100], 2, "AhAd KhKd QhQd", "2c 7s 9d Jc 3h")
    before = (game.status(reveal=True), len(game.events), game.to_act)
    for bad in (lambda: game.call(0), lambda: game.raise_to(2, 3), lambda: game.bet(2, 10),
                lambda: game.act(7, "call"), lambda: game.raise_to(2, 1000)):
        with pytest.raises(IllegalActionError):
            bad()
    assert (game.status(reveal=True), len(game.events), game.to_act) == before
    assert game.ctx.total_chips() == 300


def test_everyone_folds_to_the_big_blind() -> None:
    game = scripted(no_limit_holdem(1, 2), [100, 100, 100], 2, "AhAd KhKd QhQd", "2c 7s 9d Jc 3h")
    game.fold(2)
    game.fold(0)
    assert stacks(game) == [99, 101, 100]
    assert not [e for e in game.events if isinstance(e, ActionTaken) and e.seat == 1]
    assert game.status_name == "exited"


@pytest.mark.parametrize(("build", "args"), [
    (variants.no_limit_holdem, {"small_blind": 2, "big_blind": 1}),
    (variants.no_limit_holdem, {"small_blind": 1, "big_blind": 2, "straddles": (1,)}),
    (variants.fixed_limit_holdem, {"small_bet": 2, "big_bet": 4, "small_blind": 3, "big_blind": 2}),
    (variants.pot_limit_omaha, {"small_blind": 5, "big_blind": 2}),
    (variants.deuce_to_seven_single_draw, {"small_blind": 3, "big_blind": 2}),
])
def test_blinds_that_do_not_rise_are_refused(build: Any, args: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match="must not be above"):
        build(**args)
    assert build(**{**args, "small_blind": 1, "big_blind": 2, "straddles": ()} if "straddles" in args else
                 {**args, "small_blind": 1, "big_blind": 2})
