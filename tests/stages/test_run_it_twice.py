"""Run it twice: the stage alone on a hand-built betting result, then whole hands, bad input and PHH."""

from __future__ import annotations

import pytest

from cardgame import Game
from cardgame.engine import PassOn
from cardgame.model.errors import IllegalActionError
from cardgame.model.events import BoardDealt, PotAwarded, RunsChosen
from cardgame.phh.export import game_to_phh
from cardgame.phh.io import dumps, loads
from cardgame.phh.replay import replay
from cardgame.stages import BettingResult, RunItTwice
from tests.helpers import make_context
from variants import no_limit_holdem

STREETS = ((3, "flop"), (1, "turn"), (1, "river"))


def test_while_betting_goes_on_the_stage_hands_the_result_on() -> None:
    ctx = make_context([100, 100])
    given = BettingResult("preflop", (0, 1), False, betting_over=False)  # built by hand
    stage = RunItTwice(STREETS)
    stage.start(ctx, given)
    assert stage.outcome == PassOn() and stage.previous is given and ctx.hand is not None and ctx.hand.board == []


def test_when_betting_is_over_the_live_players_choose_in_turn() -> None:
    ctx = make_context([100, 100, 100])
    stage = RunItTwice(STREETS)
    stage.start(ctx, BettingResult("preflop", (0, 2), False, betting_over=True))  # built by hand
    assert stage.state == "choosing_runs" and stage.run_options() is not None
    assert stage.run_options().seat == 0  # type: ignore[union-attr]


def all_in_preflop(runs: tuple[int, int]) -> Game:
    g = Game(no_limit_holdem(1, 2, run_it_twice=True), seed=3, keep_hands=None)
    for name in ("a", "b", "c"):
        g.sit_down(name, 100)
    g.ctx.stack_deck("AhAd KsKd 7c2h  3c 2s3s4s 5d 6c 9h 8c7s6s 5h 4h")  # hole cards, then the run-outs
    g.start()
    assert g.hand is not None
    g.all_in(g.to_act)  # type: ignore[arg-type]
    g.all_in(g.to_act)  # type: ignore[arg-type]
    g.fold(g.to_act)  # type: ignore[arg-type]
    for want in runs:
        g.choose_runs(g.to_act, want)  # type: ignore[arg-type]
    return g


def test_two_run_outs_split_every_pot_and_conserve_chips() -> None:
    g = all_in_preflop((2, 2))
    boards = [e for e in g.events if isinstance(e, BoardDealt)]
    assert len(boards) == 6 and boards[2].board != boards[5].board  # flop, turn, river twice
    assert len(boards[3].board) == 3  # the second run-out starts again from the board before it (none)
    awards = [e for e in g.events if isinstance(e, PotAwarded)]
    assert [a.run for a in awards] == [0, 1]
    assert sum(a.amount for a in awards) == 202 and [a.amount for a in awards] == [101, 101]  # 100 + 100 + 2
    assert g.ctx.total_chips() == 300  # the next hand has started: its blinds are in the pot


def test_one_player_asking_to_run_once_means_once() -> None:
    g = all_in_preflop((2, 1))
    assert len([e for e in g.events if isinstance(e, BoardDealt)]) == 3
    assert [e.run for e in g.events if isinstance(e, PotAwarded)] == [None]
    assert [e.runs for e in g.events if isinstance(e, RunsChosen)] == [2, 1]


def test_bad_choices_are_refused_and_change_nothing() -> None:
    g = Game(no_limit_holdem(1, 2, run_it_twice=True), seed=3, keep_hands=None)
    for name in ("a", "b"):
        g.sit_down(name, 100)
    g.start()
    g.all_in(g.to_act)  # type: ignore[arg-type]
    g.call(g.to_act)  # type: ignore[arg-type]
    opts = g.run_options()
    assert opts is not None
    before = len(g.events)
    with pytest.raises(IllegalActionError, match="from 1 to 2, not 3"):
        g.choose_runs(opts.seat, 3)
    with pytest.raises(IllegalActionError, match="turn to choose"):
        g.choose_runs(1 - opts.seat, 2)
    with pytest.raises(IllegalActionError, match="not True"):
        g.choose_runs(opts.seat, True)  # type: ignore[arg-type]
    assert len(g.events) == before and g.run_options() == opts


def test_a_hand_run_twice_round_trips_through_phh() -> None:
    g = all_in_preflop((2, 2))
    hh = game_to_phh(g.events, no_limit_holdem(1, 2, run_it_twice=True), g.names())[0]
    assert hh.extra["_runout_count"] == 2
    (again,) = loads(dumps(hh))
    result = replay(again)
    assert result.complete and result.stacks == hh.finishing_stacks


def test_the_last_player_to_choose_mucking_lets_the_run_out_go_on() -> None:
    """Found in review: when the player still to choose mucked (or left), everyone live had chosen but
    nothing re-checked, so the stage waited on nobody. The hand now goes on and the other hand wins."""
    g = all_in_preflop((2,))
    chooser = g.to_act
    assert chooser is not None and g.run_options() is not None
    g.muck(chooser)
    winners = {w for e in g.events if isinstance(e, PotAwarded) for w in e.winners}
    assert winners and chooser not in winners
    assert g.ctx.total_chips() == 300
