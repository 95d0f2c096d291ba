"""Waiting for players alone: waits, opens a hand when enough sit, exits when told."""

from __future__ import annotations

import pytest

from cardgame.model.context import Context
from cardgame.model.deck import SHORT_DECK
from cardgame.model.errors import ConfigError
from cardgame.model.table import Table
from cardgame.stages import HandOpened, WaitForPlayers


def test_waits_until_enough_players_then_opens_a_hand() -> None:
    table = Table(6)
    table.sit_down("a", 100, 2)
    ctx = Context(table, seed=1)
    stage = WaitForPlayers(2)
    stage.start(ctx, None)
    assert stage.state == "waiting_for_players" and ctx.hand is None
    table.sit_down("b", 100, 4)
    stage.on_table_change()
    assert stage.state == "hand_opened"
    assert stage.outcome is not None
    assert stage.outcome.result == HandOpened(1, 2, (4, 2))  # type: ignore[attr-defined]
    assert ctx.hand is not None and len(ctx.hand.deck) == 52


def test_sitting_out_and_broke_players_are_not_dealt_in() -> None:
    table = Table(4)
    for i in range(4):
        table.sit_down(f"p{i}", 100, i)
    table.seats[1].sitting_out = True  # type: ignore[union-attr]
    table.seats[2].stack = 0  # type: ignore[union-attr]
    ctx = Context(table, seed=1)
    WaitForPlayers(2).start(ctx, None)
    assert ctx.hand is not None and sorted(ctx.hand.by_seat) == [0, 3]


def test_button_moves_to_the_next_seat_in_play_each_hand() -> None:
    table = Table(6, first_button=1)
    for s in (1, 3, 5):
        table.sit_down(f"p{s}", 100, s)
    ctx = Context(table, seed=1)
    buttons = []
    for _ in range(4):
        WaitForPlayers().start(ctx, None)
        assert ctx.hand is not None
        buttons.append(ctx.hand.button)
        ctx.close_hand()
    assert buttons == [1, 3, 5, 1]


def test_first_button_on_an_empty_seat_goes_to_the_next_seat_in_play_clockwise() -> None:
    table = Table(6, first_button=4)
    for s in (1, 3):
        table.sit_down(f"p{s}", 100, s)
    assert table.move_button(table.in_play()) == 1  # from seat 4 past 5 and 0, wrapping round
    assert table.move_button(table.in_play()) == 3
    assert table.move_button([1]) == 1  # seat 3 left: the next seat in play clockwise is 1


def test_exits_after_max_hands_or_on_request() -> None:
    table = Table(2)
    table.sit_down("a", 10)
    table.sit_down("b", 10)
    ctx = Context(table, max_hands=0)
    stage = WaitForPlayers()
    stage.start(ctx, None)
    assert stage.outcome is not None and type(stage.outcome).__name__ == "Exit"
    ctx2 = Context(table)
    ctx2.stop_requested = True
    stage.start(ctx2, None)
    assert type(stage.outcome).__name__ == "Exit"


def test_deck_parameter_sets_the_variant_deck() -> None:
    table = Table(2)
    table.sit_down("a", 10)
    table.sit_down("b", 10)
    ctx = Context(table, seed=3)
    WaitForPlayers(deck=SHORT_DECK).start(ctx, None)
    assert ctx.hand is not None and len(ctx.hand.deck) == 36


def test_bad_config() -> None:
    with pytest.raises(ConfigError):
        WaitForPlayers(1)
