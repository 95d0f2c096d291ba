"""The dead-button rule: where the blinds go (hand-built tables), the stages that open the hand and post
the blinds and what players coming in owe, and whole games (missed blinds, new players, snapshots, PHH)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import pairwise

import pytest

import variants
from cardgame.engine import Stage
from cardgame.model.button import Placement, place_blinds
from cardgame.model.context import Context
from cardgame.model.errors import ConfigError, HandHistoryError
from cardgame.model.events import BlindMissed, BlindsPlaced, ForcedBetPosted, HandStarted
from cardgame.model.table import Table
from cardgame.phh.export import hand_to_phh
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.stages import BlindsOpened, DeadButtonBlinds, DeadButtonWait
from cardgame.store.snapshot import SnapshotError, dumps, loads, restore


def table_of(seated: dict[int, str], seats: int = 6) -> Table:
    """A table with a player in each given seat owing what the value says ("" for nothing)."""
    table = Table(seats)
    for seat, owes in seated.items():
        table.sit_down(f"p{seat}", 100, seat).owes = owes
    return table


def place(table: Table, last: tuple[int, int, int], new_player: str = "post") -> Placement:
    return place_blinds(table.seats, table.in_play(), last, new_player)


# --- where the blinds go (cardgame.model.button) -------------------------------------------------

def test_the_big_blind_moves_to_the_next_player_and_the_small_blind_and_button_follow() -> None:
    table = table_of({s: "" for s in range(5)})
    placed = place(table, (0, 1, 2))
    assert (placed.button, placed.small_blind, placed.big_blind) == (1, 2, 3)
    assert placed.seats == (0, 1, 2, 3, 4) and placed.position == (1, 2, 3) and placed.posts


def test_the_small_blind_is_dead_when_last_hands_big_blind_has_left() -> None:
    """Robert's Rules, buttons and blinds 2(b); TDA dead button: nobody posts the small blind."""
    table = table_of({0: "", 1: "", 3: "", 4: ""})  # the big blind, seat 2, left
    placed = place(table, (0, 1, 2))
    assert (placed.button, placed.small_blind, placed.big_blind) == (1, None, 3)
    assert placed.position == (1, 2, 3)  # the small blind's place is seat 2, empty


def test_the_button_stays_dead_on_an_empty_seat() -> None:
    table = table_of({0: "", 2: "", 3: "", 4: ""})  # last hand's small blind, seat 1, left
    placed = place(table, (0, 1, 2))
    assert (placed.button, placed.small_blind, placed.big_blind) == (1, 2, 3)
    assert 1 not in placed.seats


def test_heads_up_the_button_posts_the_small_blind_and_nobody_has_the_big_blind_twice() -> None:
    """TDA, button in heads-up: going from three players to two, the big blind keeps moving."""
    for left, big, button in ((0, 1, 2), (1, 0, 2), (2, 0, 1)):
        table = table_of({s: "" for s in range(3) if s != left})
        placed = place(table, (0, 1, 2))
        assert (placed.button, placed.small_blind, placed.big_blind) == (button, button, big), left
        assert placed.big_blind != 2 and not placed.posts


def test_a_player_sitting_out_misses_the_big_blind_and_then_owes_both() -> None:
    table = table_of({s: "" for s in range(5)})
    table.seats[3].sitting_out = True  # type: ignore[union-attr]
    placed = place(table, (0, 1, 2))
    assert placed.big_blind == 4 and placed.missed == ((3, "both"),)


def test_a_player_sitting_out_in_the_small_blind_misses_the_small_blind() -> None:
    table = table_of({s: "" for s in range(5)})
    table.seats[2].sitting_out = True  # type: ignore[union-attr]
    placed = place(table, (0, 1, 2))
    assert placed.small_blind is None and placed.missed == ((2, "small"),)


@pytest.mark.parametrize(("new_player", "dealt"), [("post", True), ("wait", False)])
def test_a_new_player_posts_or_waits_for_the_big_blind(new_player: str, dealt: bool) -> None:
    table = table_of({0: "", 1: "", 2: "", 3: "", 5: "new"})
    placed = place(table, (0, 1, 2), new_player)
    assert placed.big_blind == 3 and (5 in placed.seats) is dealt


def test_a_new_player_at_the_big_blind_is_dealt_in_either_way() -> None:
    table = table_of({0: "", 1: "", 2: "", 3: "new"})
    assert 3 in place(table, (0, 1, 2), "wait").seats


def test_nobody_comes_in_between_the_button_and_the_big_blind() -> None:
    """Robert's Rules: a new player cannot be dealt in between the small blind and the button."""
    table = table_of({0: "", 1: "new", 2: "", 3: "", 4: ""})
    placed = place(table, (0, 1, 2))
    assert (placed.button, placed.small_blind, placed.big_blind) == (1, 2, 3) and 1 not in placed.seats


def test_when_the_rule_leaves_one_player_everyone_in_play_is_dealt_in_owing_nothing() -> None:
    table = table_of({0: "", 1: "both"})
    placed = place(table, (1, 1, 0))
    assert placed.seats == (0, 1) and not placed.posts and placed.big_blind == 1


# --- the stages, on hand-built tables ---------------------------------------------------------------

def open_and_post(table: Table, position: tuple[int, int, int], blinds: tuple[int, int] = (1, 2),
                  new_player: str = "post") -> tuple[Context, DeadButtonBlinds]:
    ctx = Context(table, seed=1)
    wait = DeadButtonWait(new_player=new_player)
    wait.position = position
    wait.start(ctx, None)
    assert wait.outcome is not None
    bets = DeadButtonBlinds(blinds)
    bets.start(ctx, wait.outcome.result)  # type: ignore[attr-defined]
    return ctx, bets


def posts(ctx: Context) -> list[tuple[int, str, int]]:
    return [(e.seat, e.bet, e.amount) for e in ctx.log if isinstance(e, ForcedBetPosted)]


def test_the_stages_post_a_live_big_blind_with_a_dead_small_blind_and_act_left_of_it() -> None:
    table = table_of({0: "", 1: "", 3: "", 4: ""})
    ctx, bets = open_and_post(table, (0, 1, 2))
    assert posts(ctx) == [(3, "big blind", 2)]
    assert [e for e in ctx.log if isinstance(e, BlindsPlaced)] == [BlindsPlaced(1, None, 3)]
    result = bets.outcome.result  # type: ignore[union-attr]
    assert result.opener == 4 and result.bet_to == 2
    assert ctx.total_chips() == 400


def test_a_returning_player_posts_the_big_blind_live_and_the_small_blind_dead() -> None:
    """Robert's Rules, buttons and blinds: missed blinds are posted big live, small dead."""
    table = table_of({0: "", 1: "", 2: "", 3: "", 5: "both"})
    ctx, bets = open_and_post(table, (0, 1, 2))
    assert posts(ctx) == [(2, "small blind", 1), (3, "big blind", 2), (5, "missed big blind", 2),
                          (5, "missed small blind", 1)]
    hand = ctx.hand
    assert hand is not None and hand.dead == 1 and hand.by_seat[5].bet == 2  # 2 live, 1 in the main pot
    assert table.seats[5].owes == ""  # type: ignore[union-attr]
    assert bets.outcome.result.opener == 5  # type: ignore[union-attr]  # left of the big blind: the post moves nothing


def test_the_stages_record_a_missed_blind_on_the_player_and_in_the_log() -> None:
    table = table_of({s: "" for s in range(5)})
    table.seats[3].sitting_out = True  # type: ignore[union-attr]
    ctx, _ = open_and_post(table, (0, 1, 2))
    assert [e for e in ctx.log if isinstance(e, BlindMissed)] == [BlindMissed(3, "both")]
    assert table.seats[3].owes == "both"  # type: ignore[union-attr]


def test_the_first_hand_is_placed_as_the_moving_button_places_it_and_nobody_owes() -> None:
    table = table_of({0: "new", 1: "new", 2: "new"})
    ctx = Context(table, seed=1)
    wait = DeadButtonWait()
    wait.start(ctx, None)
    result = wait.outcome.result  # type: ignore[union-attr]
    assert isinstance(result, BlindsOpened) and (result.small_blind, result.big_blind) == (1, 2)
    assert wait.position == (0, 1, 2) and all(p.owes == "" for p in table.players())


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ConfigError, match="new_player"):
        DeadButtonWait(new_player="later")
    with pytest.raises(ConfigError, match="exactly two blinds"):
        DeadButtonBlinds((1, 2, 4))
    with pytest.raises(ConfigError, match="button must be one of"):
        variants.no_limit_holdem(button="sideways")
    with pytest.raises(ConfigError, match="dead button"):
        variants.no_limit_holdem(new_player="wait")
    with pytest.raises(ConfigError, match="bomb pot"):
        variants.no_limit_holdem(button="dead", bomb_pot=5)


# --- whole games ------------------------------------------------------------------------------------

def fold_to_the_big_blind(game: Game) -> None:
    """Play the hand in progress out: everyone folds or checks (the next hand then opens)."""
    number = game.hand.number
    while game.to_act is not None and game.hand is not None and game.hand.number == number:
        seat = game.to_act
        game.act(seat, "check" if game.can_check(seat) else "fold")


def away_and_back(stages: Sequence[Stage[Context]], seed: int,
                  play: Callable[[Game], None] = fold_to_the_big_blind) -> Game:
    """Five players at a six-seat table on ``stages``; seat 4 sits out for two hands and sits in again
    (it has missed both blinds). ``play`` plays a hand out."""
    game = Game(stages, seats=6, seed=seed, keep_hands=None)
    for s in range(5):
        game.sit_down(f"p{s}", 100, s)
    game.start()  # button 0, blinds 1, 2
    game.sit_out(4)
    play(game)  # hand 2: blinds 2, 3
    play(game)  # hand 3: the big blind passes seat 4 to seat 0
    game.sit_in(4)
    return game


def hands(game: Game) -> list[tuple[int, int | None, int]]:
    return [(e.button, e.small_blind, e.big_blind) for e in game.events if isinstance(e, BlindsPlaced)]


def test_a_game_plays_the_dead_button_missed_blinds_and_new_players_end_to_end() -> None:
    game = Game(variants.no_limit_holdem(1, 2, button="dead", new_player="wait"), seats=6, seed=3, keep_hands=None)
    for s in range(4):
        game.sit_down(f"p{s}", 100, s)
    game.start()  # hand 1: button 0, blinds 1 and 2
    game.sit_out(3)  # folds seat 3's hand
    fold_to_the_big_blind(game)  # hand 2: the big blind passes seat 3, sitting out, to seat 0
    game.sit_down("new", 100, 5)  # waits for the big blind
    fold_to_the_big_blind(game)
    game.sit_in(3)  # owes both blinds: waits for the big blind too
    for _ in range(4):
        fold_to_the_big_blind(game)
    assert hands(game) == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 2), (1, 2, 3), (2, 3, 5), (3, 5, 0)]
    assert BlindMissed(3, "both") in game.events
    dealt = [e.seats for e in game.events if isinstance(e, HandStarted)]
    assert [3 in d for d in dealt] == [True, False, False, False, True, True, True]
    assert [5 in d for d in dealt] == [False, False, False, False, False, True, True]
    bets = {e.bet for e in game.events if isinstance(e, ForcedBetPosted)}
    assert bets == {"small blind", "big blind"}  # those who waited came in at the big blind, posting nothing more
    assert game.ctx.total_chips() == 500


def test_a_returning_player_who_posts_pays_big_live_small_dead_and_chips_are_conserved() -> None:
    game = away_and_back(variants.no_limit_holdem(1, 2, button="dead"), seed=4)
    fold_to_the_big_blind(game)  # hand 4: button 3, blinds 0 and 1: seat 4, between the button and the small
    fold_to_the_big_blind(game)  # blind, waits; hand 5: button 0, blinds 1 and 2: seat 4 posts to come in
    dealt = [e.seats for e in game.events if isinstance(e, HandStarted)]
    assert [4 in d for d in dealt] == [True, False, False, False, True]
    bets = [(e.seat, e.bet, e.amount) for e in game.events if isinstance(e, ForcedBetPosted)]
    assert bets[-4:] == [(1, "small blind", 1), (2, "big blind", 2), (4, "missed big blind", 2),
                         (4, "missed small blind", 1)]
    assert game.ctx.total_chips() == 500


def test_a_snapshot_keeps_the_positions_and_what_players_owe() -> None:
    game = Game(variants.no_limit_holdem(1, 2, button="dead"), seats=6, seed=5, keep_hands=None)
    for s in range(4):
        game.sit_down(f"p{s}", 100, s)
    game.start()
    game.sit_out(3)
    fold_to_the_big_blind(game)
    fold_to_the_big_blind(game)
    text = dumps(game)
    twin = loads(text, variants.no_limit_holdem(1, 2, button="dead"))
    assert twin.table.seats[3].owes == game.table.seats[3].owes == "both"  # type: ignore[union-attr]
    assert twin.dispatcher.stages[0].position == game.dispatcher.stages[0].position  # type: ignore[attr-defined]
    for g in (game, twin):
        g.sit_in(3)
        fold_to_the_big_blind(g)
        fold_to_the_big_blind(g)
    assert hands(twin)[-2:] == hands(game)[-2:]
    bad = text.replace('"owes": "both"', '"owes": "lots"')
    with pytest.raises(SnapshotError, match="owes"):
        loads(bad, variants.no_limit_holdem(1, 2, button="dead"))
    data = json.loads(text)
    data["stages"][0]["fields"]["position"] = {"type": "tuple", "items": [1, "two"]}
    with pytest.raises(SnapshotError, match="position"):
        restore(data, variants.no_limit_holdem(1, 2, button="dead"))


def test_dead_button_hands_export_to_phh_and_replay_to_the_same_stacks() -> None:
    """A dead small blind is written as the big blind first; posts to come in as negative entries."""
    stages = variants.no_limit_holdem(1, 2, button="dead")
    game = away_and_back(stages, seed=6)
    game.leave(game.to_act or 0)  # between hands the seat empties: a dead small blind or button soon
    fold_to_the_big_blind(game)
    fold_to_the_big_blind(game)
    fold_to_the_big_blind(game)
    events = game.events
    starts = [i for i, e in enumerate(events) if isinstance(e, HandStarted)]
    written = []
    for a, b in pairwise(starts):
        hand = events[a:b]
        if any(type(e).__name__ == "PlayerLeft" for e in hand):
            continue
        hh = hand_to_phh(hand, stages)
        written.append(hh.blinds_or_straddles)
        assert tuple(replay(hh).stacks) == tuple(hh.finishing_stacks or ())
    assert any(b is not None and min(b) < 0 for b in written)


@pytest.mark.parametrize("build", [variants.fixed_limit_holdem, variants.pot_limit_omaha,
                                   variants.fixed_limit_omaha_hi_lo])
def test_the_other_blind_game_builders_take_the_dead_button(build: object) -> None:
    stages = build(button="dead", new_player="wait")  # type: ignore[operator]
    assert isinstance(stages[0], DeadButtonWait) and stages[0].new_player == "wait"
    assert isinstance(stages[1], DeadButtonBlinds)
    game = Game(stages, seats=4, seed=1)
    for s in (0, 2, 3):
        game.sit_down(f"p{s}", 100, s)
    game.start()
    assert any(isinstance(e, BlindsPlaced) for e in game.events)


def test_phh_export_refuses_a_missed_small_blind_posted_while_the_small_blind_is_dead() -> None:
    """PHH reads the small blind's size from the blinds: with none posted, a dead post would replay live."""
    events = [HandStarted(1, 0, (3, 4, 0), (100, 100, 100)), BlindsPlaced(1, None, 3),
              ForcedBetPosted(3, "big blind", 2), ForcedBetPosted(4, "missed small blind", 1)]
    with pytest.raises(HandHistoryError, match="missed small blind"):
        hand_to_phh(events, variants.no_limit_holdem(1, 2, button="dead"))
