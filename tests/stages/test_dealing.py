"""Dealing stages alone: hole cards in order from a stacked deck, burn and board, skipping."""

from __future__ import annotations

from cardgame.engine import PassOn
from cardgame.model.cards import parse_cards
from cardgame.model.events import BoardDealt, HoleCardsDealt
from cardgame.stages import DealBoard, DealHole
from tests.helpers import make_context


def test_hole_cards_go_left_of_the_button_first_in_blocks() -> None:
    ctx = make_context([100, 100, 100], deck="AhKh QsQd 7c2d")
    stage = DealHole(2)
    stage.start(ctx, "previous")
    assert ctx.hand is not None
    assert [tuple(hp.hole) for hp in ctx.hand.players] == [
        parse_cards("AhKh"), parse_cards("QsQd"), parse_cards("7c2d")
    ]
    assert stage.outcome == PassOn() and stage.previous == "previous"  # the next stage starts with what it was given
    dealt = [e for e in ctx.log if isinstance(e, HoleCardsDealt)]
    assert dealt[0].seen_by(1).cards == (None, None) and dealt[0].seen_by(0).cards == parse_cards("AhKh")


def test_board_burns_one_card_then_deals() -> None:
    ctx = make_context([100, 100], deck="2c 3c4c5c 6c 7c")
    DealBoard(3, "flop").start(ctx, None)
    DealBoard(1, "turn").start(ctx, None)
    assert ctx.hand is not None
    assert tuple(ctx.hand.board) == parse_cards("3c4c5c7c")
    assert tuple(ctx.hand.discards) == parse_cards("2c6c")
    assert [e.street for e in ctx.log if isinstance(e, BoardDealt)] == ["flop", "turn"]


def test_nothing_is_dealt_when_one_player_is_left() -> None:
    ctx = make_context([100, 100, 100])
    assert ctx.hand is not None
    for hp in ctx.hand.players[1:]:
        hp.folded = True
    left = len(ctx.hand.deck)
    for stage in (DealHole(2), DealBoard(3)):
        stage.start(ctx, None)
        assert stage.state == "not_contested"
    assert len(ctx.hand.deck) == left and not ctx.hand.board
