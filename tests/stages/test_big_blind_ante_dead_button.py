"""The big-blind ante under the dead button (TDA 2024 recommended procedure RP-11: the big blind posts the ante
for the table): the player in the big blind posts it wherever the rule puts the blind, a new or returning player
there too; one posting to come in elsewhere posts none unless ``entry_ante``. Hand-built tables, then whole
games and their PHH."""

from __future__ import annotations

from itertools import pairwise

import pytest

import variants
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError
from cardgame.model.events import BlindsPlaced, ForcedBetPosted, HandStarted, PlayerLeft
from cardgame.model.table import Table
from cardgame.phh.export import hand_to_phh
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.stages import DeadButtonBlinds, DeadButtonWait
from tests.stages.test_dead_button import away_and_back, fold_to_the_big_blind, posts, table_of


def open_and_post(table: Table, position: tuple[int, int, int] | None, ante: int = 3, *,
                  entry_ante: bool = False, first: bool = False) -> tuple[Context, DeadButtonBlinds]:
    ctx = Context(table, seed=1)
    wait = DeadButtonWait()
    wait.position = position
    wait.start(ctx, None)
    assert wait.outcome is not None
    bets = DeadButtonBlinds((1, 2), ante=ante, big_blind_ante=True, entry_ante=entry_ante, big_blind_ante_first=first)
    bets.start(ctx, wait.outcome.result)  # type: ignore[attr-defined]
    return ctx, bets


def test_with_a_dead_small_blind_the_big_blind_still_posts_the_ante() -> None:
    table = table_of({0: "", 1: "", 3: "", 4: ""})  # last hand's big blind, seat 2, left: the small blind is dead
    ctx, bets = open_and_post(table, (0, 1, 2))
    assert posts(ctx) == [(3, "big blind", 2), (3, "big blind ante", 3)]
    assert ctx.hand is not None and ctx.hand.pot_total() == 5 and ctx.total_chips() == 400
    assert bets.outcome.result.opener == 4 and bets.outcome.result.bet_to == 2  # type: ignore[union-attr]


def test_a_returning_player_dealt_in_at_the_big_blind_posts_the_blind_and_the_ante_only() -> None:
    table = table_of({0: "", 1: "", 2: "", 3: "both"})  # seat 3 missed blinds; the big blind reaches it
    ctx, _ = open_and_post(table, (0, 1, 2))
    assert posts(ctx) == [(2, "small blind", 1), (3, "big blind", 2), (3, "big blind ante", 3)]
    assert table.seats[3].owes == ""  # type: ignore[union-attr]


@pytest.mark.parametrize(("entry_ante", "extra"), [(False, []), (True, [(5, "big blind ante to come in", 3)])])
def test_a_player_posting_to_come_in_elsewhere_posts_no_ante_unless_the_house_says_so(
    entry_ante: bool, extra: list[tuple[int, str, int]]
) -> None:
    table = table_of({0: "", 1: "", 2: "", 3: "", 5: "both"})
    ctx, _ = open_and_post(table, (0, 1, 2), entry_ante=entry_ante)
    assert posts(ctx) == [(2, "small blind", 1), (3, "big blind", 2), (5, "missed big blind", 2), *extra,
                          (5, "missed small blind", 1), (3, "big blind ante", 3)]
    hand = ctx.hand
    assert hand is not None and hand.by_seat[5].bet == 2  # only the big blind is live
    assert ctx.total_chips() == 500


def test_a_short_big_blind_posts_the_blind_first_or_the_ante_first_as_configured() -> None:
    """TDA 2024 RP-11: big blind first; TDA 2019: the ante first."""
    for first, expected in ((False, [(3, "big blind", 2), (3, "big blind ante", 2)]),
                            (True, [(3, "big blind ante", 3), (3, "big blind", 1)])):
        table = table_of({0: "", 1: "", 3: "", 4: ""})
        table.seats[3].stack = 4  # type: ignore[union-attr]
        ctx, _ = open_and_post(table, (0, 1, 2), first=first)
        assert posts(ctx) == expected and ctx.total_chips() == 304


def test_heads_up_the_player_who_is_not_the_button_posts_both() -> None:
    table = table_of({0: "", 2: ""})
    ctx, _ = open_and_post(table, (0, 1, 2))
    placed = next(e for e in ctx.log if isinstance(e, BlindsPlaced))
    assert placed.button == placed.small_blind != placed.big_blind
    assert [p for p in posts(ctx) if p[1] == "big blind ante"] == [(placed.big_blind, "big blind ante", 3)]


def test_the_first_hand_places_the_ante_on_the_big_blind() -> None:
    ctx, _ = open_and_post(table_of({0: "", 1: "", 2: ""}), None)
    assert posts(ctx) == [(1, "small blind", 1), (2, "big blind", 2), (2, "big blind ante", 3)]


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ConfigError, match="big_blind_ante=True"):
        DeadButtonBlinds((1, 2), ante=2, entry_ante=True)
    for bad in (1, "yes", None):
        with pytest.raises(ConfigError, match="True or False"):
            DeadButtonBlinds((1, 2), ante=2, big_blind_ante=True, entry_ante=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="dead button"):
        variants.no_limit_holdem(1, 2, ante=2, big_blind_ante=True, entry_ante=True)  # a moving button
    with pytest.raises(ConfigError, match="one amount"):
        DeadButtonBlinds((1, 2), ante=(1, 2), big_blind_ante=True)


@pytest.mark.parametrize("entry_ante", [False, True])
def test_a_game_with_the_big_blind_ante_and_the_dead_button_replays_from_phh(entry_ante: bool) -> None:
    stages = variants.no_limit_holdem(1, 2, ante=2, big_blind_ante=True, button="dead", entry_ante=entry_ante)
    game = away_and_back(stages, seed=4)
    fold_to_the_big_blind(game)
    fold_to_the_big_blind(game)  # hand 5: seat 4 posts to come in
    game.leave(2)  # hand 5's big blind leaves: hand 6's small blind is dead
    for _ in range(3):
        fold_to_the_big_blind(game)
    events = game.events
    bets = [(e.seat, e.bet) for e in events if isinstance(e, ForcedBetPosted)]
    assert ((4, "big blind ante to come in") in bets) is entry_ante
    assert BlindsPlaced(1, None, 3) in events and (3, "big blind ante") in bets
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    checked = 0
    for a, b in pairwise(starts):
        hand = events[a:b]
        if any(isinstance(e, PlayerLeft) for e in hand):
            continue
        hh = hand_to_phh(hand, stages)
        placed = next(e for e in hand if isinstance(e, BlindsPlaced))
        seats = next(e for e in hand if isinstance(e, HandStarted)).seats
        if len(seats) > 2:  # PHH's players are the hand's seats in dealing order
            assert hh.antes == tuple(2 if s == placed.big_blind else 0 for s in seats)
        assert tuple(replay(hh).stacks) == tuple(hh.finishing_stacks or ())
        checked += 1
    assert checked >= 5



def test_a_tournament_level_with_the_big_blind_ante_plays_under_the_dead_button() -> None:
    """A tournament's level (``Structure.game_options``) builds the big-blind ante with ``button="dead"`` (TDA:
    tournaments use a dead button): a player out leaves the small blind dead and the big blind still antes."""
    from cardgame.tournament.structure import preset

    structure = preset("turbo sng hands")
    level = structure.levels[3]
    assert level.ante > 0
    game = Game(variants.no_limit_holdem(**structure.game_options(level), button="dead"), seats=4, seed=2,
                keep_hands=None)
    for s in range(4):
        game.sit_down(f"p{s}", 2000, s)
    game.start()  # button 0, blinds 1 and 2
    game.leave(2)  # the big blind goes: next hand the small blind is dead
    fold_to_the_big_blind(game)
    placed = [e for e in game.events if isinstance(e, BlindsPlaced)]
    assert placed[-1] == BlindsPlaced(1, None, 3)
    hand = game.events[max(i for i, e in enumerate(game.events) if isinstance(e, HandStarted)):]
    assert [(e.seat, e.bet, e.amount) for e in hand if isinstance(e, ForcedBetPosted)] == [
        (3, "big blind", level.big_blind), (3, "big blind ante", level.ante)]
    assert game.ctx.total_chips() + sum(e.cashed_out for e in game.events if isinstance(e, PlayerLeft)) == 8000
