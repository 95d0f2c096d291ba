"""Listeners get each event once the change that made it is complete (issue 32): they see states
that exist, in order, and a listener's exception never stops the game."""

from __future__ import annotations

import logging

import pytest

import variants
from cardgame.model.context import Context
from cardgame.model.events import Event, HandStarted, HoleCardsDealt, PotAwarded
from cardgame.play.bots import random_bot
from cardgame.play.game import Game


def _seated(variant: variants.Variant, players: int = 3, seed: int = 7, **options: object) -> Game:
    game = Game(variant, seats=players, seed=seed, **options)  # type: ignore[arg-type]
    for seat in range(players):
        game.sit_down(f"p{seat}", 200, seat)
    return game


@pytest.mark.parametrize("variant", variants.available(), ids=lambda v: v.name)
def test_a_chip_summing_listener_sees_the_tables_total_at_every_event(variant: variants.Variant) -> None:
    """Before: up to 2,200 chips where the table had 1,200, at ``PotAwarded`` (the pot still counted
    with the stacks already paid)."""
    players = 2 if "kuhn" in variant.name.lower() and "two" in variant.name.lower() else 3
    game = _seated(variant, players, max_hands=4)
    total = game.ctx.total_chips()
    seen: list[tuple[str, int]] = []
    game.subscribe(lambda event: seen.append((event.kind, game.ctx.total_chips())))
    game.start()
    game.play(random_bot)
    assert game.status_name != "failed" and game.ctx.hands_played >= 1 and game.listener_errors == []
    assert any(isinstance(e, PotAwarded) for e in game.events)
    assert [kind for kind, chips in seen if chips != total] == []


def test_a_listener_finds_the_dealt_cards_in_the_players_hand() -> None:
    """Before: at ``HoleCardsDealt`` the hand did not yet hold what the event says was dealt."""
    game = _seated(variants.get("NT"), seed=3, max_hands=6)
    started: list[int] = []
    missing: list[HoleCardsDealt] = []
    checked: list[HoleCardsDealt] = []

    def check(event: Event) -> None:
        if isinstance(event, HandStarted):
            started.append(event.hand)
        elif isinstance(event, HoleCardsDealt):
            hand = game.hand
            if hand is not None and hand.number == started[-1]:  # not a hand that ended in the same call
                checked.append(event)
                if not set(event.cards) <= set(hand.player(event.seat).cards):
                    missing.append(event)

    game.subscribe(check)
    game.start()
    game.play(random_bot)
    assert checked and missing == []


def test_a_raising_listener_is_reported_and_the_game_plays_on(caplog: pytest.LogCaptureFixture) -> None:
    """Before: the game stopped as a failed stage at the first event the listener raised on."""
    game = _seated(variants.get("NT"), max_hands=3, keep_hands=None)
    heard: list[Event] = []
    first = len(game.events)

    def broken(event: Event) -> None:
        raise RuntimeError("a broken display")

    game.subscribe(broken)
    game.subscribe(heard.append)  # the listeners after the broken one still hear every event
    with caplog.at_level(logging.ERROR, logger="cardgame"):
        game.start()
        game.play(random_bot)
    assert game.status_name == "exited" and game.ctx.hands_played == 3
    assert heard == game.events[first:]
    errors = game.listener_errors
    assert len(errors) == 20  # the latest ones
    assert errors[-1][0] is game.events[-1] and isinstance(errors[-1][1], RuntimeError)
    assert "broken" in caplog.text and "RuntimeError" in caplog.text


def test_a_listener_that_acts_sees_every_event_in_order() -> None:
    """A listener that calls into the game (a bot acting as events arrive) is not called again from
    inside its own call: the events its action makes follow the ones still to deliver."""
    game = _seated(variants.get("NT"), seed=11, max_hands=3, keep_hands=None)
    seen: list[Event] = []
    depth = [0]
    deepest = [0]

    def act(event: Event) -> None:
        depth[0] += 1
        deepest[0] = max(deepest[0], depth[0])
        seen.append(event)
        seat = game.to_act
        if seat is not None and game.status_name == "running":
            game.act(seat, "check_call")
        depth[0] -= 1

    first = len(game.events)
    game.subscribe(act)
    game.start()
    assert game.status_name == "exited" and game.ctx.hands_played == 3
    assert seen == game.events[first:]
    assert deepest[0] == 1


def test_a_game_nobody_observes_is_not_held_and_one_observed_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """With no listener and no hook the context is ``quiet`` and the dispatcher skips ``hold`` and ``release``
    (two calls an action); a subscribed listener makes every call hold its events back again."""
    game = _seated(variants.get("NT"), seed=5)
    ctx = game.ctx
    held: list[int] = []
    hold = type(ctx).hold

    def counting_hold(self: Context) -> None:
        held.append(1)
        hold(self)

    monkeypatch.setattr(type(ctx), "hold", counting_hold)
    assert ctx.quiet
    game.start()
    game.act(game.to_act, "check_call")  # type: ignore[arg-type]
    assert held == []
    seen: list[Event] = []
    ctx.subscribe(seen.append)
    assert not ctx.quiet
    game.act(game.to_act, "check_call")  # type: ignore[arg-type]
    assert held and seen
    ctx.unsubscribe(seen.append)
    assert ctx.quiet


def test_a_listener_a_hook_subscribes_inside_a_call_hears_its_events_after_the_change() -> None:
    """A hook (the only code, with a listener, that runs inside a call) subscribes a listener while the call
    is under way: the call began held, so the listener still sees only complete states (the chips add up)."""
    game = _seated(variants.get("NT"), seed=9, max_hands=3)
    total = game.ctx.total_chips()
    seen: list[int] = []

    def listener(event: Event) -> None:
        seen.append(game.ctx.total_chips())

    def hook(event: Event) -> None:
        if isinstance(event, HoleCardsDealt) and listener not in game.ctx.listeners:
            game.subscribe(listener)

    game.hook(hook)
    game.start()
    game.play(random_bot)
    assert seen and set(seen) == {total}
