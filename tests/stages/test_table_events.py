"""Seating changes and mucks as events of the current stage, each stage alone on a hand-built context."""

from __future__ import annotations

import pytest

import cardgame.stages as stages_module
from cardgame.engine import Done, Exit, Goto, Stage
from cardgame.model.betting import NoLimit
from cardgame.model.context import Context
from cardgame.model.errors import IllegalActionError, TableError
from cardgame.model.events import (
    ActionTaken,
    CardsShown,
    ChipsAdded,
    PlayerLeft,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    PotAwarded,
)
from cardgame.model.table import Table
from cardgame.stages import (
    BettingResult,
    BettingRound,
    DealHole,
    Draw,
    HandOpened,
    RunItTwice,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import TABLE_EVENTS, PokerStage
from tests.helpers import make_context, opened
from tests.stages.test_betting_round import preflop

STREETS = ((3, "flop"), (1, "turn"), (1, "river"))


def state_of(ctx: Context) -> tuple[object, ...]:
    """What a refused event must leave as it was: seats, stacks, flags, the hand's players and the log."""
    seats = tuple(None if p is None else (p.name, p.stack, p.sitting_out, p.leaving) for p in ctx.table.seats)
    hand = ctx.hand
    players = () if hand is None else tuple((hp.seat, hp.folded, hp.all_in, hp.bet, hp.contributed)
                                            for hp in hand.players)
    return seats, players, None if hand is None else hand.mucked, len(ctx.log)


def test_every_poker_stage_takes_the_table_events_before_its_own() -> None:
    classes = [c for c in vars(stages_module).values() if isinstance(c, type) and issubclass(c, PokerStage)]
    assert len(classes) >= 10
    for cls in classes:
        assert cls.events[: len(TABLE_EVENTS)] == TABLE_EVENTS, cls
    assert BettingRound.events == (*TABLE_EVENTS, "act")
    assert Draw.events == (*TABLE_EVENTS, "draw")

    class Both(PokerStage):  # a subclass may also list the table events itself: each is taken once
        events = (*PokerStage.events, "extra")

        def on_extra(self) -> None:
            """An event of the stage's own."""

    assert Both.events == (*TABLE_EVENTS, "extra")


# --- between hands: the wait-for-players stage -----------------------------------------------------
def waiting(*names: str, out: tuple[int, ...] = ()) -> tuple[Context, WaitForPlayers]:
    """A wait-for-players stage started alone with ``names`` seated from seat 0, seats ``out`` sitting out."""
    table = Table(6)
    for i, name in enumerate(names):
        table.sit_down(name, 100, i).sitting_out = i in out
    ctx = Context(table, seed=1)
    stage = WaitForPlayers(2)
    assert stage.start(ctx, None) is None
    return ctx, stage


def test_a_player_sitting_down_while_the_stage_waits_opens_the_hand() -> None:
    ctx, stage = waiting("a")
    out = stage.handle("sit_down", "b", 80, 3)
    assert isinstance(out, Done) and out.result == HandOpened(1, 0, (3, 0))
    assert ctx.log[0] == PlayerSeated(3, "b", 80)


def test_between_hands_a_leaver_is_paid_at_once_and_chips_are_added_at_once() -> None:
    ctx, stage = waiting("a")
    assert stage.handle("top_up", 0, 50) is None
    assert ctx.table.player(0).stack == 150 and ctx.log[-1] == ChipsAdded(0, 50, 150)
    assert stage.handle("leave", 0) is None  # still waiting: nobody is seated
    assert ctx.table.seats[0] is None and ctx.log[-1] == PlayerLeft(0, "a", 150)
    assert stage.state == "waiting_for_players"


def test_sitting_in_again_opens_the_hand_and_sitting_out_does_not() -> None:
    ctx, stage = waiting("a", "b", out=(1,))
    assert stage.handle("sit_out", 0) is None and ctx.log[-1] == PlayerSatOut(0)
    assert stage.handle("sit_in", 0) is None  # seat 1 still sits out
    out = stage.handle("sit_in", 1)
    assert ctx.log[-3:-1] == [PlayerSatIn(0), PlayerSatIn(1)]
    assert isinstance(out, Done) and isinstance(out.result, HandOpened)


def test_a_refused_seating_change_changes_nothing() -> None:
    ctx, stage = waiting("a")
    before = state_of(ctx)
    with pytest.raises(TableError, match="Seat 4 is empty"):
        stage.handle("leave", 4)
    with pytest.raises(TableError, match="Seat 0 is taken"):
        stage.handle("sit_down", "b", 100, 0)
    ctx.table.player(0).stack = 0
    with pytest.raises(TableError, match="has no chips; top up before sitting in"):
        stage.handle("sit_in", 0)
    with pytest.raises(IllegalActionError, match="Seat 0 has no live hand to muck"):
        stage.handle("muck", 0)
    ctx.table.player(0).stack = 100
    assert state_of(ctx) == before and stage.outcome is None


# --- in a hand: the betting round ----------------------------------------------------------------------
def test_a_leaver_out_of_turn_is_folded_now_and_keeps_the_seat() -> None:
    ctx, stage = preflop([100, 100, 100, 100])  # button 3, SB 0, BB 1; seat 2 to act
    assert stage.handle("leave", 0) is None
    hand = ctx.hand
    assert hand is not None and hand.by_seat[0].folded and stage.to_act == 2
    assert ctx.log[-1] == ActionTaken(0, "fold", 0, 1)
    p = ctx.table.player(0)
    assert p.leaving and ctx.table.seats[0] is p  # the seat is freed when the hand ends


def test_a_leaver_to_act_facing_a_bet_folds_through_the_action() -> None:
    ctx, stage = preflop([100, 100, 100, 100])
    assert stage.handle("leave", 2) is None
    hand = ctx.hand
    assert hand is not None and hand.by_seat[2].folded and hand.by_seat[2].acted_at == 2  # the action's own
    assert stage.to_act == 3


def test_an_all_in_leaver_stays_live() -> None:
    ctx, stage = preflop([100, 100, 100, 100])
    stage.handle("act", 2, "all_in")
    assert stage.handle("leave", 2) is None
    hand = ctx.hand
    assert hand is not None and not hand.by_seat[2].folded and ctx.table.player(2).leaving
    assert not any(isinstance(e, ActionTaken) and e.action == "fold" for e in ctx.log)


def test_a_leave_that_leaves_one_hand_ends_the_round() -> None:
    _, stage = preflop([100, 100, 100], button=2)  # SB 0, BB 1, seat 2 to act
    stage.handle("act", 2, "fold")
    out = stage.handle("leave", 1)  # out of turn: seat 0 is to act
    assert isinstance(out, Goto) and out.stage == "showdown"
    assert isinstance(out.result, BettingResult) and out.result.live == (0,)
    assert stage.state == "hand_won"


def test_a_player_not_in_the_hand_tops_up_and_leaves_at_once_and_a_newcomer_waits() -> None:
    table = Table(4, first_button=2)
    for i in range(4):
        table.sit_down(f"p{i}", 100, i).sitting_out = i == 3  # seat 3 is not dealt in
    ctx = Context(table, seed=1)
    hand = ctx.open_hand(table.in_play())
    stage = BettingRound(NoLimit(2), 1)
    assert stage.start(ctx, opened(ctx)) is None
    assert hand is not None and 3 not in hand.by_seat
    with pytest.raises(TableError, match="chips can be added only between hands"):
        stage.handle("top_up", 0, 10)
    assert stage.handle("top_up", 3, 10) is None  # not in the hand: at once
    assert stage.handle("leave", 3) is None
    assert ctx.table.seats[3] is None and ctx.log[-1] == PlayerLeft(3, "p3", 110)
    assert stage.handle("sit_down", "late", 60, None) is None
    assert ctx.table.player(3).name == "late" and 3 not in hand.by_seat and stage.to_act is not None


def test_no_muck_while_betting_goes_on() -> None:
    ctx, stage = preflop([100, 100, 100])
    before = state_of(ctx)
    with pytest.raises(IllegalActionError, match="only once betting is over"):
        stage.handle("muck", 1)
    with pytest.raises(IllegalActionError, match="Seat 7 has no live hand"):
        stage.handle("muck", 7)
    assert state_of(ctx) == before


def test_sitting_out_in_a_hand_plays_it_out() -> None:
    ctx, stage = preflop([100, 100, 100])
    assert stage.handle("sit_out", 1) is None
    hand = ctx.hand
    assert hand is not None and not hand.by_seat[1].folded and ctx.table.player(1).sitting_out
    assert ctx.log[-1] == PlayerSatOut(1)


# --- in a hand: drawing, and choosing run-outs once betting is over -------------------------------------
def test_a_leaver_whose_turn_it_is_to_draw_is_folded_and_the_next_player_draws() -> None:
    ctx = make_context([100, 100, 100])
    DealHole(5).start(ctx, None)
    draw = Draw()
    draw.start(ctx, "prev")
    assert draw.handle("leave", 0) is None
    hand = ctx.hand
    assert hand is not None and hand.by_seat[0].folded
    opts = draw.draw_options()
    assert opts is not None and opts.seat == 1
    with pytest.raises(IllegalActionError, match="only once betting is over"):
        draw.handle("muck", 1)


def test_mucking_once_betting_is_over_but_never_the_last_live_hand() -> None:
    ctx = make_context([100, 100, 100])
    stage = RunItTwice(STREETS)
    stage.start(ctx, BettingResult("preflop", (0, 1, 2), False, betting_over=True))
    assert stage.handle("muck", 2) is None
    hand = ctx.hand
    assert hand is not None and hand.by_seat[2].folded and hand.mucked == {2}
    with pytest.raises(IllegalActionError, match="Seat 2 has no live hand"):
        stage.handle("muck", 2)
    assert stage.handle("muck", 1) is None
    before = state_of(ctx)
    with pytest.raises(IllegalActionError, match="The last live hand cannot be mucked"):
        stage.handle("muck", 0)
    assert state_of(ctx) == before


def test_an_event_no_stage_takes_is_refused_naming_them() -> None:
    _, stage = preflop([100, 100])
    with pytest.raises(IllegalActionError, match="takes sit_down, top_up, sit_out, sit_in, leave, muck, "
                                                 "table_change, act"):
        stage.handle("dance", 0)
    assert isinstance(stage, Stage)


def test_when_all_but_one_hand_mucked_before_the_run_out_it_wins_unshown() -> None:
    ctx = make_context([50, 100, 200])
    hand = ctx.hand
    assert hand is not None
    for hp in hand.players:
        hp.put_dead(hp.player.stack)  # all in; no cards dealt, no board
    hand.mucked = frozenset({1, 2})
    for seat in (1, 2):
        hand.by_seat[seat].folded = True
    out = Showdown().start(ctx, None)
    assert isinstance(out, Done) and out.result.winnings == ((0, 150), (1, 50), (2, 150))  # type: ignore[union-attr]
    awards = [e for e in ctx.log if isinstance(e, PotAwarded)]
    assert [(e.amount, e.winners, e.amounts) for e in awards] == [(150, (0,), (150,)), (100, (1, 2), (50, 50)),
                                                                 (100, (2,), (100,))]
    assert not any(isinstance(e, CardsShown) for e in ctx.log) and ctx.table.total_chips() == 350


def test_table_change_lets_a_waiting_stage_see_a_stop_request_and_changes_nothing_in_a_hand() -> None:
    ctx, stage = waiting("a")
    ctx.stop_requested = True
    assert stage.handle("table_change") == Exit() and stage.state == "game_over"
    ctx, betting = preflop([100, 100, 100])
    before = state_of(ctx)
    assert betting.handle("table_change") is None and state_of(ctx) == before
