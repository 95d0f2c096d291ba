"""Tests of examples/bomb_pot.py: the BombPot stage alone, then the variant end to end.

Run: pytest examples/test_bomb_pot.py
"""

from __future__ import annotations

import pytest
from bomb_pot import BombPot, bomb_pot_holdem, main, register_bomb_pot

from cardgame import Game
from cardgame.bots import random_bot
from cardgame.cli import main as cli_main
from cardgame.context import Context
from cardgame.errors import ConfigError
from cardgame.events import ActionTaken, BoardDealt, Event, ForcedBetPosted, HandStarted, PotAwarded
from cardgame.stage import Done, Failed, check_fit
from cardgame.stages import ForcedBets, ForcedBetsResult, HandOpened
from tests.helpers import make_context
from variants import registry


def posted(ctx: Context) -> list[tuple[int, str, int, bool]]:
    return [(e.seat, e.bet, e.amount, e.all_in) for e in ctx.log if isinstance(e, ForcedBetPosted)]


# --- the stage alone: a hand-built context and a hand-built HandOpened, no other stage run ---------


def test_every_player_posts_the_bomb_pot_as_dead_money() -> None:
    ctx = make_context([100, 100, 100])  # button on seat 2: seats 0, 1, 2 in hand order
    stage = BombPot(10)
    stage.start(ctx, HandOpened(hand=1, button=2, seats=(0, 1, 2)))

    assert posted(ctx) == [(0, "bomb pot", 10, False), (1, "bomb pot", 10, False), (2, "bomb pot", 10, False)]
    hand = ctx.hand
    assert hand is not None
    assert [hp.player.stack for hp in hand.players] == [90, 90, 90]
    assert [hp.contributed for hp in hand.players] == [10, 10, 10]
    assert [hp.bet for hp in hand.players] == [0, 0, 0]  # dead money: nothing to call
    assert hand.pot_total() == 30 and hand.bet_to == 0
    assert stage.state == "done"
    assert stage.outcome == Done(ForcedBetsResult(2, blinds=(), antes=((0, 10), (1, 10), (2, 10)), opener=None))


def test_a_short_player_posts_what_they_have_and_is_all_in() -> None:
    ctx = make_context([100, 4, 100])
    stage = BombPot(10)
    stage.start(ctx, HandOpened(hand=1, button=2, seats=(0, 1, 2)))

    assert posted(ctx) == [(0, "bomb pot", 10, False), (1, "bomb pot", 4, True), (2, "bomb pot", 10, False)]
    hand = ctx.hand
    assert hand is not None
    short = hand.by_seat[1]
    assert short.all_in and short.player.stack == 0 and short.contributed == 4
    assert hand.pot_total() == 24
    assert isinstance(stage.outcome, Done)
    assert stage.outcome.result.antes == ((0, 10), (1, 4), (2, 10))


def test_heads_up_the_button_posts_first() -> None:
    ctx = make_context([50, 50], button=0)
    BombPot(5).start(ctx, HandOpened(hand=1, button=0, seats=(1, 0)))
    assert posted(ctx) == [(0, "bomb pot", 5, False), (1, "bomb pot", 5, False)]


def test_a_hand_with_one_player_fails() -> None:
    ctx = make_context([100])
    stage = BombPot(10)
    stage.start(ctx, HandOpened(hand=1, button=0, seats=(0,)))
    assert stage.outcome == Failed("a bomb pot needs at least two players in the hand", "bomb pot", "done")
    assert posted(ctx) == []


@pytest.mark.parametrize("amount", [0, -5, True, 2.5, "10"])
def test_a_bad_amount_is_refused(amount: object) -> None:
    with pytest.raises(ConfigError, match="positive whole number"):
        BombPot(amount)


def test_the_variant_fits_and_a_bomb_pot_after_blinds_does_not() -> None:
    check_fit(bomb_pot_holdem(10, 2))
    stages = bomb_pot_holdem(10, 2)
    stages.insert(1, ForcedBets((1, 2)))
    with pytest.raises(ConfigError, match=r"Stage 2 \(bomb pot\) does not fit.*gives ForcedBetsResult"):
        check_fit(stages)


# --- the variant end to end ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(2, 10))  # seeds whose games last at least two hands
def test_bomb_pot_holdem_conserves_chips_and_first_bets_on_the_flop(seed: int) -> None:
    hands = 20
    game = Game(bomb_pot_holdem(amount=10, big_blind=2), seats=4, seed=seed, max_hands=hands, keep_hands=None)
    buy_ins = [200, 150, 100, 15]
    for i, chips in enumerate(buy_ins):
        game.sit_down(f"p{i}", chips, i)
    total = sum(buy_ins)
    streets: list[str] = []  # the street of every action, read as it happens

    def listen(event: Event) -> None:
        if not isinstance(event, PotAwarded):  # chips move from the pot to stacks during awards
            assert game.ctx.total_chips() == total
        if isinstance(event, ActionTaken):
            streets.append(game.hand.street)

    game.subscribe(listen)
    game.start()
    game.play(random_bot)

    assert sum(p.stack for p in game.table.players()) == total
    assert streets and set(streets) <= {"flop", "turn", "river"}
    # no action between a hand's start and its flop; every player dealt in posts the bomb pot first
    started = flopped = False
    dealt_in: tuple[int, ...] = ()
    posts: list[int] = []
    for event in game.events:
        if isinstance(event, HandStarted):
            started, flopped, dealt_in, posts = True, False, event.seats, []
        elif isinstance(event, ForcedBetPosted):
            assert event.bet == "bomb pot" and not flopped
            posts.append(event.seat)
        elif isinstance(event, BoardDealt) and event.street == "flop":
            flopped = True
            assert sorted(posts) == sorted(dealt_in)
        elif isinstance(event, ActionTaken):
            assert started and flopped, "an action before the flop"
    assert game.ctx.hands_played >= 2


def test_main_registers_the_variant_and_prints_the_hands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))  # leave the real registry as it was
    main()
    out = capsys.readouterr().out
    assert "Hand #1, button Ann" in out and "Dan posts bomb pot 6 and is all-in" in out
    assert "Flop:" in out and "Hand #3 ends" in out and "Stack" in out
    variant = registry.get("bomb pot hold'em")
    assert variant.builder is bomb_pot_holdem and register_bomb_pot() is variant  # registered once
    assert cli_main(["demo", "--variant", "bomb pot hold'em", "--hands", "2", "--seed", "3"]) == 0
    assert "Results after" in capsys.readouterr().out
