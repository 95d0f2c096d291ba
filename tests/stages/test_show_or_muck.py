"""The showdown's ``show_or_muck`` and ``ask_to_see`` table rules (TDA rules 13, 14, 16, 18; Robert's Rules,
showdown): the stage alone with hand-built hands, then whole games through ``Game`` and their PHH."""

from __future__ import annotations

from collections import Counter

import pytest

from cardgame.engine import Done
from cardgame.model.errors import BotError, ConfigError, IllegalActionError
from cardgame.model.events import CardsShown, HandEnded, HandMucked, HandStarted, PlayerLeft, PotAwarded
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import check_hand, replay
from cardgame.play import bots
from cardgame.play.bot import to_show
from cardgame.play.game import Game
from cardgame.stages import Showdown, ShowdownResult, ShowOptions
from cardgame.store import snapshot
from tests.stages.test_showdown import ByFirstCard, awards, showdown_ctx
from variants import no_limit_holdem


def choosing(stacks, contributions, holes, *, aggressor=None, folded=frozenset(), ask=False):  # type: ignore[no-untyped-def]
    ctx = showdown_ctx(stacks, contributions, holes, folded=folded)
    ctx.hand.last_aggressor = aggressor
    stage = Showdown(ByFirstCard(), show_or_muck=True, ask_to_see=ask)  # type: ignore[arg-type]
    return ctx, stage, stage.start(ctx, None)


def shown(ctx) -> list[int]:  # type: ignore[no-untyped-def]
    return [e.seat for e in ctx.log if isinstance(e, CardsShown)]


def test_players_show_or_muck_in_turn_from_the_last_aggressor() -> None:
    ctx, stage, outcome = choosing([100, 100, 100], [20, 20, 20], "QsQd AhKh 7c2d", aggressor=2)
    assert outcome is None and stage.state == "showing"
    assert stage.to_act == 2 and shown(ctx) == []  # TDA rule 16: the last aggressor first
    assert stage.show_options() == ShowOptions(2, True)  # nothing tabled yet: it wins so far
    stage.handle("show", 2)
    assert shown(ctx) == [2] and stage.to_act == 0
    assert stage.show_options() == ShowOptions(0, True)  # a queen beats the seven
    stage.handle("show", 0)
    assert stage.to_act == 1 and stage.show_options() == ShowOptions(1, True)  # the ace beats both
    assert stage.handle("show", 1) == Done(ShowdownResult(ctx.hand.number, ((1, 60),), (0, 1, 2)))
    assert shown(ctx) == [2, 0, 1]  # each hand shown once, in the order chosen


def test_a_losing_hand_is_mucked_unshown() -> None:
    ctx, stage, _ = choosing([100, 100, 100], [20, 20, 20], "AhKh QsQd 7c2d", aggressor=0)
    stage.handle("show", 0)
    options = stage.show_options()
    assert options == ShowOptions(1, False) and options.default == "muck"  # the time-out answer
    stage.handle("muck", 1)
    stage.handle("muck", 2)
    assert shown(ctx) == [0]
    assert [e.seat for e in ctx.log if isinstance(e, HandMucked)] == [1, 2]
    assert awards(ctx) == [(0, 60, (0,), (60,), "")]


def test_a_muck_forfeits_even_the_best_hand() -> None:
    """Robert's Rules, showdown 1: a player must show all cards to win any part of the pot."""
    ctx, stage, _ = choosing([100, 100, 100], [20, 20, 20], "7c2d AhKh QsQd", aggressor=0)
    stage.handle("show", 0)
    assert stage.show_options() == ShowOptions(1, True)
    stage.handle("muck", 1)  # the ace mucked
    stage.handle("show", 2)
    assert awards(ctx)[0][2] == (2,) and ctx.table.seats[1].stack == 80


def test_a_tabled_hand_cannot_be_mucked_and_shows_wait_their_turn() -> None:
    ctx, stage, _ = choosing([100, 100], [20, 20], "AhKh QsQd", aggressor=1)
    with pytest.raises(IllegalActionError, match="turn to show") as info:
        stage.handle("show", 0)
    assert info.value.rule == "showing out of turn"
    stage.handle("show", 1)
    with pytest.raises(IllegalActionError, match="tabled") as info:
        stage.handle("muck", 1)
    assert info.value.rule == "muck a tabled hand"
    assert stage.to_act == 0 and shown(ctx) == [1] and not any(isinstance(e, HandMucked) for e in ctx.log)


def test_every_hand_is_tabled_at_once_when_a_player_is_all_in() -> None:
    """TDA rule 16: face up for all-ins."""
    ctx = showdown_ctx([5, 100], [20, 20], "AhKh QsQd")
    ctx.hand.players[0].all_in = True
    stage = Showdown(ByFirstCard(), show_or_muck=True)  # type: ignore[arg-type]
    assert isinstance(stage.start(ctx, None), Done)
    assert sorted(shown(ctx)) == [0, 1]


def test_the_last_hand_not_mucked_wins_unshown_and_may_then_show() -> None:
    """TDA rule 14: when every other hand is mucked unshown, the last live hand wins."""
    ctx, stage, _ = choosing([100, 100], [20, 20], "AhKh QsQd", aggressor=0)
    stage.handle("muck", 0)  # the aggressor (and best hand) mucks
    assert stage.state == "winner_may_show" and awards(ctx) == [(0, 40, (1,), (40,), "")]
    assert stage.show_options() == ShowOptions(1, True, True)
    assert stage.show_options().default == "muck"  # showing is a courtesy: the time-out declines
    stage.handle("show", 1)
    assert shown(ctx) == [1] and isinstance(stage.outcome, Done)


def test_an_uncontested_winner_may_show_or_decline() -> None:
    for answer, seen in (("show", [2]), ("muck", [])):
        ctx, stage, outcome = choosing([100, 100, 100], [10, 20, 20], "AhKh QsQd 7c2d", folded=frozenset({0, 1}))
        assert outcome is None and stage.to_act == 2 and awards(ctx) == [(0, 50, (2,), (50,), "")]
        with pytest.raises(IllegalActionError, match="only seat 2"):
            stage.handle("muck", 0)
        stage.handle(answer, 2)
        assert shown(ctx) == seen and stage.outcome == Done(ShowdownResult(ctx.hand.number, ((2, 50),), ()))
        assert not any(isinstance(e, HandMucked) for e in ctx.log)


def test_a_player_holding_cards_may_ask_to_see_the_called_hand() -> None:
    """TDA rule 18; Robert's Rules, showdown 5: the hand is shown and stays dead."""
    ctx, stage, _ = choosing([100, 100, 100], [20, 20, 20], "AhKh QsQd 7c2d", aggressor=0, ask=True)
    with pytest.raises(IllegalActionError, match="no called hand"):
        stage.handle("ask_to_see", 1)  # not mucked yet
    stage.handle("muck", 0)
    with pytest.raises(IllegalActionError, match="holds no live hand"):
        stage.handle("ask_to_see", 0)  # who mucked lost the right
    stage.handle("ask_to_see", 2)  # out of turn too: any player still holding cards
    assert shown(ctx) == [0]
    with pytest.raises(IllegalActionError, match="no called hand"):
        stage.handle("ask_to_see", 1)  # seen already
    stage.handle("show", 1)
    stage.handle("show", 2)
    assert awards(ctx) == [(0, 60, (1,), (60,), "")]  # the ace, shown on request, stays dead


def test_asking_is_refused_without_the_option() -> None:
    ctx, stage, _ = choosing([100, 100, 100], [20, 20, 20], "AhKh QsQd 7c2d", aggressor=0)
    stage.handle("muck", 0)
    with pytest.raises(IllegalActionError, match="ask_to_see is off"):
        stage.handle("ask_to_see", 1)
    assert shown(ctx) == []


@pytest.mark.parametrize("options", [{"show_or_muck": 1}, {"show_or_muck": "yes"}, {"ask_to_see": True},
                                     {"show_or_muck": True, "ask_to_see": None}])
def test_the_options_are_checked(options: dict[str, object]) -> None:
    with pytest.raises(ConfigError):
        Showdown(show_or_muck=options.get("show_or_muck", False), ask_to_see=options.get("ask_to_see", False))  # type: ignore[arg-type]


# --- whole games, as a user plays them --------------------------------------------------------------------
def river_bet_game(seed: int, **options: bool) -> Game:
    """Three players call down to the river, where the first to act bets and the others call."""
    game = Game(no_limit_holdem(1, 2, show_or_muck=True, **options), seed=seed, seats=3, keep_hands=None)
    for name in ("Ann", "Bob", "Cy"):
        game.sit_down(name, 100)
    game.start()
    while game.legal_actions() is not None:
        seat = game.to_act
        assert seat is not None
        if game.hand.street == "river" and game.can_bet(seat, 10):
            game.bet(seat, 10)
        elif game.can_call(seat):
            game.call(seat)
        else:
            game.check(seat)
    return game


def test_a_game_waits_for_the_showdown_decisions() -> None:
    game = river_bet_game(3, ask_to_see=True)
    options = game.show_options()
    assert options is not None and game.to_act == options.seat == game.hand.last_aggressor
    assert game.legal_actions() is None and not game.can_show(options.seat + 1)
    with pytest.raises(IllegalActionError):
        game.act(options.seat, "call")
    game.muck(options.seat)
    asker = game.to_act
    assert asker is not None and game.can_ask_to_see(asker) and not game.can_ask_to_see(options.seat)
    seen = game.ask_to_see(asker)
    assert isinstance(seen, CardsShown) and seen.seat == options.seat
    while (choice := game.show_options()) is not None:
        game.show(choice.seat) if choice.default == "show" else game.muck(choice.seat)
    assert game.show_options() is None and any(isinstance(e, HandEnded) for e in game.events)
    with pytest.raises(IllegalActionError, match="Nobody is to show"):
        game.show(0)


def test_bots_answer_and_the_hands_replay_from_phh() -> None:
    """Bots show winners and muck losers; the PHH export writes ``sm`` lines that replay to the same stacks."""
    game = Game(no_limit_holdem(1, 2, show_or_muck=True), seed=11, seats=4, max_hands=25, keep_hands=None)
    for name in ("Ann", "Bob", "Cy", "Di"):
        game.sit_down(name, 200)
    game.start()
    game.play(bots.calling_station)
    assert game.status_name == "exited"
    kinds = Counter(type(e) for e in game.events)
    assert kinds[HandMucked] > 0 and kinds[CardsShown] > 0
    histories = game_to_phh(game.events, game.dispatcher.stages, game.names())
    texts = "\n".join(str(hh.actions) for hh in histories)
    assert "ShowMuckAction" in texts
    assert all(check_hand(hh, "game", i).status == "ok" for i, hh in enumerate(histories))
    mucked: set[int] = set()
    for e in game.events:  # a mucked hand wins nothing (every bet was called: no excess comes back)
        if isinstance(e, HandStarted):
            mucked = set()
        elif isinstance(e, HandMucked):
            mucked.add(e.seat)
        elif isinstance(e, PotAwarded):
            assert not mucked & set(e.winners)


def test_uncontested_winners_who_show_replay_from_phh() -> None:
    def shows(view):  # type: ignore[no-untyped-def]
        if view.show is not None:
            return "show"
        return "fold" if view.legal is not None and view.legal.can_fold and view.rng.random() < 0.4 else "call"

    game = Game(no_limit_holdem(1, 2, show_or_muck=True), seed=5, seats=3, max_hands=20, keep_hands=None)
    for name in ("Ann", "Bob", "Cy"):
        game.sit_down(name, 200)
    game.start()
    game.play(shows)
    assert not any(isinstance(e, HandMucked) for e in game.events)
    histories = game_to_phh(game.events, game.dispatcher.stages, game.names())
    assert all(check_hand(hh, "game", i).status == "ok" for i, hh in enumerate(histories))


def test_the_option_off_shows_every_hand_at_once() -> None:
    game = Game(no_limit_holdem(1, 2), seed=3, seats=3, keep_hands=None)
    for name in ("Ann", "Bob", "Cy"):
        game.sit_down(name, 100)
    game.start()
    while not any(isinstance(e, HandEnded) for e in game.events):
        seat = game.to_act
        game.call(seat) if game.can_call(seat) else game.check(seat)  # type: ignore[arg-type]
    assert game.show_options() is None
    assert sum(isinstance(e, CardsShown) for e in game.events) == 3 and not any(
        isinstance(e, HandMucked) for e in game.events)


def test_a_player_leaving_at_the_showdown_mucks_and_the_hand_replays() -> None:
    """Leaving while hands are shown mucks the untabled hand (no fold after the river), and the PHH replays."""
    game = river_bet_game(3)
    first = game.to_act
    assert first is not None
    game.show(first)
    leaver = game.to_act
    assert leaver is not None
    assert game.leave(leaver) is None  # the seat is held until the hand ends
    assert [e.seat for e in game.events if isinstance(e, HandMucked)] == [leaver]
    assert not any(getattr(e, "action", None) == "fold" and e.seat == leaver for e in game.events[-4:])
    while (choice := game.show_options()) is not None:
        game.show(choice.seat)
    assert game.table.seats[leaver] is None
    history = game_to_phh(game.events, game.dispatcher.stages, game.names())[0]
    stacks = replay(history).stacks  # (the export writes a leaver's finishing stack as 0: compare each seat)
    seats = next(e for e in game.events if isinstance(e, HandStarted)).seats
    final = dict(next(e for e in game.events if isinstance(e, HandEnded)).stacks)
    final[leaver] = next(e.cashed_out for e in game.events if isinstance(e, PlayerLeft))
    assert list(stacks) == [final[seat] for seat in seats]


def test_a_snapshot_is_refused_while_the_showdown_waits_and_taken_after() -> None:
    """A showdown waiting on decisions is not saved (it would restore stuck, nobody to act): refused clearly."""
    game = river_bet_game(3)
    with pytest.raises(snapshot.SnapshotError, match="showdown stage is waiting"):
        snapshot.dumps(game)
    while (choice := game.show_options()) is not None:
        game.show(choice.seat)
    restored = snapshot.loads(snapshot.dumps(game), no_limit_holdem(1, 2, show_or_muck=True))
    assert restored.to_act == game.to_act is not None


def test_the_narration_opens_the_showdown_with_a_muck() -> None:
    from cardgame.play.narration import Narration

    game = river_bet_game(3)
    first = game.to_act
    assert first is not None
    game.muck(first)
    events = game.events
    start = max(i for i, e in enumerate(events) if isinstance(e, HandStarted))
    narration = Narration.for_stages(game.dispatcher.stages, game.names())
    lines = [line.text for e in events[start:] for line in narration.feed(e)]
    where = lines.index("*** SHOWDOWN ***")
    assert lines[where + 1].endswith("mucks")


@pytest.mark.parametrize("answer", [None, -1, 10**400, "raise", True, 1.5, [1], "x" * 10**6])
def test_a_bot_answer_that_is_neither_show_nor_muck_is_refused(answer: object) -> None:
    options = ShowOptions(1, True)
    assert to_show("show", options) == "show" and to_show("fold", options) == "muck"
    assert to_show("call", options) == "show" and to_show("check", ShowOptions(1, False)) == "muck"
    with pytest.raises(BotError) as info:
        to_show(answer, options)
    assert len(str(info.value)) <= 700
    with pytest.raises(BotError, match="ShowOptions"):
        to_show("show", answer)


def test_the_game_api_refuses_hostile_seats_at_the_showdown() -> None:
    game = river_bet_game(3, ask_to_see=True)
    before = (list(game.events), game.show_options())
    for seat in (None, -1, 10**400, "1", True, 1.5, [1], 99):
        for method in (game.show, game.ask_to_see, game.muck):
            with pytest.raises(IllegalActionError):
                method(seat)  # type: ignore[arg-type]
        assert not game.can_show(seat) and not game.can_ask_to_see(seat) and not game.can_muck(seat)  # type: ignore[arg-type]
    assert (list(game.events), game.show_options()) == before


def test_the_table_s_chips_add_up_while_an_uncontested_winner_decides_to_show() -> None:
    """The pot is paid before the winner's show-or-muck decision: the chips committed are cleared with it
    (they were counted twice, in the winner's stack and in the hand, until the winner answered)."""
    for folded in (frozenset({0, 1}), frozenset()):
        ctx, stage, _ = choosing([100, 100, 100], [10, 20, 20], "AhKh QsQd 7c2d", folded=folded, aggressor=2)
        if not folded:
            stage.handle("muck", 2)
            stage.handle("muck", 0)  # the last hand left wins unshown, and may show
        assert stage.state == "winner_may_show"
        assert ctx.total_chips() == 300 and ctx.hand.pot_total() == 0
