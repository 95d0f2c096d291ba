"""Seating, buy-ins, top-ups, sitting out, leaving mid-hand, views and the status table."""

from __future__ import annotations

import pytest

from cardgame.model.errors import ConfigError, IllegalActionError, StageError, TableError
from cardgame.model.events import ActionTaken, HoleCardsDealt, PlayerLeft, PlayerSatOut
from cardgame.model.table import Table
from cardgame.play.game import Game
from variants import no_limit_holdem


def game3(**kw) -> Game:  # type: ignore[no-untyped-def]
    g = Game(no_limit_holdem(1, 2), seats=4, min_buy_in=40, max_buy_in=200, first_button=2, seed=3, **kw)
    for i, name in enumerate(("Ann", "Bob", "Cat")):
        g.sit_down(name, 100, i)
    return g


def test_buy_in_limits_and_seats() -> None:
    g = game3()
    with pytest.raises(TableError, match="buy-in 20 is outside the table limits; allowed is 40 to 200"):
        g.sit_down("Dan", 20)
    with pytest.raises(TableError, match="Seat 1 is taken; empty seats are \\[3\\]"):
        g.sit_down("Dan", 100, 1)
    with pytest.raises(TableError, match="already seated"):
        g.sit_down("Ann", 100)
    with pytest.raises(TableError, match="Seat 9 does not exist"):
        g.sit_down("Dan", 100, 9)
    g.sit_down("Dan", 100)
    with pytest.raises(TableError, match="table is full"):
        g.sit_down("Eve", 100)
    with pytest.raises(ConfigError):
        Table(1)
    with pytest.raises(ConfigError, match="above the maximum"):
        Table(6, min_buy_in=500, max_buy_in=100)


def test_top_up_only_between_hands_and_within_the_maximum() -> None:
    g = game3()
    g.top_up(0, 50)
    assert g.table.player(0).stack == 150
    with pytest.raises(TableError, match="allowed is at most 50"):
        g.top_up(0, 51)
    g.start()
    with pytest.raises(TableError, match="only between hands"):
        g.top_up(1, 10)


def test_leave_between_hands_cashes_out_at_once() -> None:
    g = game3()
    assert g.leave(2) == 100
    assert g.table.seats[2] is None
    assert isinstance(g.events[-1], PlayerLeft)


def test_leaving_mid_hand_folds_and_frees_the_seat_when_the_hand_ends() -> None:
    g = game3(max_hands=1)
    g.start()  # button 2: Ann SB, Bob BB, Cat to act
    assert g.to_act == 2
    g.raise_to(2, 6)
    assert g.leave(0) is None  # Ann leaves out of turn: her hand is folded now
    hand = g.hand
    assert hand.by_seat[0].folded and g.table.seats[0] is not None
    g.fold(1)  # Bob folds: Cat wins
    assert g.status_name == "exited"
    assert g.table.seats[0] is None
    left = [e for e in g.events if isinstance(e, PlayerLeft)]
    assert left == [PlayerLeft(0, "Ann", 99)]
    assert g.table.total_chips() == 201


def test_leaving_on_your_turn_folds_and_play_goes_on() -> None:
    g = game3()
    g.start()
    g.leave(2)
    assert g.to_act == 0 and g.hand.by_seat[2].folded


def test_sit_out_applies_from_the_next_hand_and_broke_players_sit_out() -> None:
    g = game3(max_hands=2)
    g.start()
    g.sit_out(2)
    assert 2 in g.hand.by_seat  # still in this hand
    g.fold(2)
    g.fold(0)
    assert 2 not in g.hand.by_seat  # hand 2 goes on without seat 2
    with pytest.raises(TableError, match="has no chips"):
        g.table.player(1).stack = 0
        g.sit_in(1)


def test_game_starts_when_enough_players_sit_down() -> None:
    g = Game(no_limit_holdem(), seats=3, seed=1)
    g.sit_down("Ann", 100)
    g.start()
    assert g.hand is None and g.stage is not None and g.stage.state == "waiting_for_players"
    with pytest.raises(IllegalActionError, match="No player is to act"):
        g.call(0)
    g.sit_down("Bob", 100)
    assert g.hand is not None and g.to_act is not None


def test_views_hide_other_players_cards() -> None:
    g = game3()
    g.start()
    view = g.view(0)
    assert all(c is not None for c in view.seat(0).hole)
    assert view.seat(1).hole == (None, None)
    assert g.view(None).seat(0).hole == (None, None)
    dealt = [e for e in g.events_for(1) if isinstance(e, HoleCardsDealt)]
    assert [e.cards == (None, None) for e in dealt] == [e.seat != 1 for e in dealt]


def test_status_table_shows_pot_street_and_marks() -> None:
    g = game3()
    g.start()
    g.raise_to(2, 6)
    g.fold(0)
    text = g.status()
    lines = text.splitlines()
    assert lines[0] == "Hand #1  Street: preflop  Pot: 9"
    assert lines[2].startswith("F ") and "Ann" in lines[2]
    assert lines[3].startswith("> ") and "Bob" in lines[3]
    assert "Cat (B)" in lines[4] and "?? ??" in lines[4]


def test_can_queries_match_the_legal_actions() -> None:
    g = game3()
    g.start()
    assert g.can_fold(2) and g.can_call(2) and not g.can_check(2)
    assert g.can_raise_to(2, 4) and not g.can_raise_to(2, 3) and not g.can_bet(2)
    assert not g.can_call(0)  # not seat 0's turn


def test_a_stopped_game_takes_no_more_actions() -> None:
    g = game3(max_hands=1)
    g.start()
    g.fold(2)
    g.fold(0)
    with pytest.raises(StageError, match="exited"):
        g.dispatcher.send("act", 1, "check")


def test_stop_ends_the_game_before_the_next_hand() -> None:
    g = game3()
    g.start()
    g.stop()
    g.fold(2)
    g.fold(0)
    assert g.status_name == "exited"
    assert not any(isinstance(e, PlayerSatOut) for e in g.events)


def test_event_log_keeps_the_last_hands_only() -> None:
    from cardgame.model.events import HandStarted
    from cardgame.play.bots import calling_station

    g = Game(no_limit_holdem(1, 2), seats=2, seed=1, max_hands=30, keep_hands=5)
    seen: list[object] = []
    g.subscribe(seen.append)
    g.sit_down("a", 10**6)
    g.sit_down("b", 10**6)
    g.start()
    g.play(calling_station)
    started = [e.hand for e in g.events if isinstance(e, HandStarted)]
    assert started[-5:] == [26, 27, 28, 29, 30] and len(started) < 10  # the last 5, trimmed in batches
    assert len([e for e in seen if isinstance(e, HandStarted)]) == 30


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((None, "raise", "10"), "whole-number amount to raise to, not '10'"),
        ((None, "raise", 10.0), "whole-number amount to raise to, not 10.0"),
        ((None, 5, None), "Unknown action 5"),
        (("0", "call", None), "Seat '0' is not a seat number"),
        (([0], "call", None), r"Seat \[0\] is not a seat number"),
        ((0.0, "call", None), "Seat 0.0 is not a seat number"),
        ((None, "call", 999), r"An amount \(999\) was given to call"),
    ],
)
def test_wrong_types_are_illegal_actions_in_either_build(args: tuple[object, ...], message: str) -> None:
    """A bot's string or float is named, not a TypeError (the compiled build checks types at calls)."""
    g = Game(no_limit_holdem(1, 2), seed=1)
    for name in ("Ann", "Bob"):
        g.sit_down(name, 100)
    with pytest.raises(TableError, match=r"buy-in \(in chips\) must be a whole number of at least 1, not '100'"):
        g.sit_down("Cat", "100")  # type: ignore[arg-type]
    g.start()
    seat = g.to_act
    before = [(p.seat, p.stack) for p in g.table.players()], len(g.events)
    with pytest.raises(IllegalActionError, match=message):
        g.act(*((seat, *args[1:]) if args[0] is None else args))  # type: ignore[arg-type]
    assert ([(p.seat, p.stack) for p in g.table.players()], len(g.events)) == before
    assert g.to_act == seat


def test_an_action_returns_its_own_event_when_the_hand_it_ends_trims_the_log() -> None:
    """With ``keep_hands=1`` the fold that ends a hand opens the next, which trims the log; ``act``
    still returns the fold (found by the snapshot property test)."""
    game = Game(no_limit_holdem(1, 2), seed=1, keep_hands=1)
    game.sit_down("Ann", 100)
    game.sit_down("Bob", 100)
    game.start()
    for _ in range(6):
        seat = game.to_act
        assert seat is not None
        event = game.act(seat, "fold")
        assert type(event) is ActionTaken and (event.seat, event.action) == (seat, "fold")
    assert len(game.ctx.hand_starts) <= 2
