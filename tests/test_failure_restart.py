"""A game that failed (a hook raised inside a change) and is started again: the hand the failure
stopped is void (every bet returned, the button back, ``HandVoided``), so no chip is lost; and a stage
list started by one game is refused by another instead of corrupting both."""

from __future__ import annotations

import random

import pytest

import variants
from cardgame import Game
from cardgame.engine.errors import StageError
from cardgame.model.events import HandStarted, HandVoided, PlayerLeft
from cardgame.store.recovery import replay_log
from cardgame.store.snapshot import restore, snapshot
from tests.helpers import failing_hook


def _failing_game(code: str = "NT", players: int = 3, seed: int = 1) -> tuple[Game, list[bool]]:
    game = Game(variants.get(code), seats=players, seed=seed, keep_hands=None)
    for i in range(players):
        game.sit_down(f"p{i}", 100 + 10 * i, i)
    armed = failing_hook(game)
    game.start()
    return game, armed


def _fail_on(game: Game, armed: list[bool], action: str, amount: int | None = None) -> None:
    armed[0] = True
    seat = game.to_act
    assert seat is not None
    with pytest.raises(StageError, match="a hook failed"):
        game.act(seat, action, amount)
    assert game.status_name == "failed"


def test_starting_a_failed_game_again_voids_the_hand_and_returns_every_bet() -> None:
    game, armed = _failing_game()
    started = [e for e in game.events if isinstance(e, HandStarted)][-1]
    before = dict(zip(started.seats, started.stacks, strict=True))
    game.act(game.to_act, "raise", 10)  # type: ignore[arg-type]
    _fail_on(game, armed, "call")
    game.start()
    voided = [e for e in game.events if isinstance(e, HandVoided)]
    assert voided == [HandVoided(started.hand, tuple((s, before[s]) for s in started.seats))]
    assert game.ctx.total_chips() == 100 + 110 + 120  # was 278: the pot of the failed hand was lost
    nxt = [e for e in game.events if isinstance(e, HandStarted)][-1]
    assert nxt.hand == started.hand + 1 and nxt.button == started.button  # the button stays (as recovery)
    assert game.status_name == "running" and game.to_act is not None
    # the store's reading of the log agrees: a void returning the starting stacks
    log = replay_log([e for e in game.events if not isinstance(e, HandStarted) or e.hand < nxt.hand])
    assert {s.seat: s.stack for s in log.seats} == before


@pytest.mark.parametrize("code", ["NT", "FO/8", "F7S", "F2L3D", "leduc hold'em", "NS"])
def test_failures_at_random_points_never_lose_a_chip_and_snapshots_agree(code: str) -> None:
    rng = random.Random(code)
    game, armed = _failing_game(code, players=4, seed=rng.randrange(2**32))
    total = game.ctx.total_chips()
    for _ in range(300):
        if game.status_name != "running":
            break
        seat = game.to_act
        if seat is None:
            break
        opts = game.draw_options()
        if rng.randrange(10) == 0 and opts is None:
            armed[0] = True
        try:
            if opts is not None:
                game.draw(seat, ())
            else:
                legal = game.legal_actions()
                assert legal is not None
                if legal.bring_in:
                    game.act(seat, "bring_in")
                else:
                    game.act(seat, "check" if legal.can_check else rng.choice(["fold", "call", "call"]))
        except StageError:
            armed[0] = False
            game.start()
            twin = restore(snapshot(game), variants.get(code))  # the game after the void, saved and restored
            assert twin.ctx.total_chips() == game.ctx.total_chips() == total
            assert twin.events == game.events and twin.table.button == game.table.button
        assert game.ctx.total_chips() == total


def test_a_leaver_in_the_failed_hand_goes_with_the_stack_they_started_it_with() -> None:
    game, armed = _failing_game()
    first = game.to_act
    assert first is not None
    game.act(first, "call")
    assert game.leave(first) is None  # in a hand: the seat is held until it ends
    _fail_on(game, armed, "call")
    game.start()
    left = [e for e in game.events if isinstance(e, PlayerLeft)]
    assert [(e.seat, e.cashed_out) for e in left] == [(first, 100 + 10 * first)]
    assert game.table.seats[first] is None


def test_a_stage_list_another_game_is_playing_is_refused() -> None:
    stages = variants.get("NT").build()
    one = Game(stages, seats=2, seed=1)
    one.sit_down("a", 100)
    one.sit_down("b", 100)
    one.start()
    with pytest.raises(StageError, match=r"stage is in the middle of another game \(in state 'waiting_for_action'\); "
                                         r"build a new stage list"):
        Game(stages, seats=2)  # was: built, and the first game's next action an IndexError
    one.act(one.to_act, "call")  # type: ignore[arg-type]  # the first game plays on, untouched
    assert one.ctx.total_chips() == 200
