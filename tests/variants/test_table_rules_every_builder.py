"""The table rules of issue 35 on every builder: show or muck (TDA rules 13, 14, 16, 18) on every game with a
showdown, the dead button (Robert's Rules of Poker, buttons and blinds, rule 2) on every game with blinds.
The stages with hand-built inputs, then whole games of each family (draw, stud, flop games, short deck, the
research games), their PHH ``sm`` lines written and replayed."""

from __future__ import annotations

import inspect
from collections import Counter
from collections.abc import Callable

import pytest

import variants
from cardgame.evaluation import DEUCE_TO_SEVEN_LOW
from cardgame.model.cards import parse_cards
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import (
    BlindMissed,
    BlindsPlaced,
    CardsShown,
    ForcedBetPosted,
    HandEnded,
    HandMucked,
    HandStarted,
    PotAwarded,
)
from cardgame.phh.export import game_to_phh
from cardgame.phh.replay import check_hand
from cardgame.play.game import Game
from cardgame.stages import DeadButtonBlinds, DeadButtonWait, ForcedBets, Showdown, ShowOptions, WaitForPlayers
from cardgame.stages.base import PokerStage
from tests.stages.test_dead_button import away_and_back
from tests.stages.test_showdown import ByFirstCard, awards, showdown_ctx
from variants.streets import opening

#: Registered games without blinds: stud (no button at all), ante hold'em and the research games (antes only,
#: the button moves: the dead-button rule places blinds).
NO_BLINDS = {"seven-card stud", "stud hi/lo", "razz", "ante hold'em", "kuhn poker", "two-player kuhn poker",
             "leduc hold'em"}
EVERY = variants.available()
BLIND_GAMES = [v for v in EVERY if v.name not in NO_BLINDS]


def dead_options(name: str) -> dict[str, object]:
    """``button="dead"``; short deck plays it with a small and a big blind instead of the button blind."""
    extra: dict[str, object] = {"blinds": (1, 2), "button_blind": 0} if name == "short-deck hold'em" else {}
    return {"button": "dead", **extra}


# --- every builder takes the options ----------------------------------------------------------------------

@pytest.mark.parametrize("variant", EVERY, ids=[v.name for v in EVERY])
def test_every_game_with_a_showdown_takes_show_or_muck_and_ask_to_see(variant: variants.Variant) -> None:
    stages = list(variant.builder(show_or_muck=True, ask_to_see=True))
    showdown = next(s for s in stages if isinstance(s, Showdown))
    assert showdown.show_or_muck and showdown.ask_to_see
    with pytest.raises(ConfigError, match="ask_to_see needs show_or_muck"):
        variant.builder(ask_to_see=True)
    assert not next(s for s in variant.builder() if isinstance(s, Showdown)).show_or_muck  # off by default


@pytest.mark.parametrize("variant", BLIND_GAMES, ids=[v.name for v in BLIND_GAMES])
def test_every_blind_game_takes_the_dead_button(variant: variants.Variant) -> None:
    stages = list(variant.builder(**dead_options(variant.name), new_player="wait"))
    assert isinstance(stages[0], DeadButtonWait) and stages[0].new_player == "wait"
    assert isinstance(stages[1], DeadButtonBlinds) and stages[1].blinds[1] > 0
    assert sum(isinstance(s, ForcedBets) for s in stages) == 1
    with pytest.raises(ConfigError, match="button must be one of"):
        variant.builder(button="sideways")
    with pytest.raises(ConfigError, match="dead button"):
        variant.builder(new_player="wait")  # waiting for the big blind is a dead-button rule


def test_games_without_blinds_take_no_button_option() -> None:
    """Stud has no button; the ante games' button moves (docs/rules.md)."""
    for v in EVERY:
        if v.name in NO_BLINDS:
            assert "button" not in inspect.signature(v.builder).parameters, v.name


def test_short_deck_with_the_dead_button_needs_blinds_and_no_button_blind() -> None:
    with pytest.raises(ConfigError, match="button blind"):
        variants.short_deck_holdem(blinds=(1, 2), button="dead")
    with pytest.raises(ConfigError, match="give blinds="):
        variants.short_deck_holdem(button_blind=0, button="dead")
    for bad in ((1,), "12", (1, 2, 4), 7):
        with pytest.raises(ConfigError, match="small blind, big blind"):
            variants.short_deck_holdem(blinds=bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="must not be above"):
        variants.short_deck_holdem(blinds=(3, 2))


# --- the stages, built by hand ----------------------------------------------------------------------------

def test_opening_builds_the_moving_or_the_dead_button_for_any_family() -> None:
    moving = opening(max_players=6, blinds=(1, 2))
    assert [type(s) for s in moving] == [WaitForPlayers, ForcedBets]
    dead = opening(max_players=6, blinds=(1, 2), ante=1, button="dead", new_player="wait")
    assert [type(s) for s in dead] == [DeadButtonWait, DeadButtonBlinds]
    assert dead[0].max_players == 6 and dead[1].ante == (1,)  # type: ignore[attr-defined]
    assert [type(s) for s in opening(ante=1)] == [WaitForPlayers, ForcedBets]
    bba = opening(blinds=(1, 2), ante=2, big_blind_ante=True, button="dead", entry_ante=True)[1]
    assert isinstance(bba, DeadButtonBlinds) and bba.big_blind_ante and bba.entry_ante
    assert [type(s) for s in opening()] == [WaitForPlayers]  # nothing posted: no forced-bets stage
    for bad, match in (({"button_blind": 2}, "button blind"), ({"dead": (0, 1)}, "dead or live"),
                       ({"live": (2,)}, "dead or live"), ({"entry_ante": 1}, "True or False")):
        with pytest.raises(ConfigError, match=match):
            opening(blinds=(1, 2), button="dead", **bad)  # type: ignore[arg-type]


def test_with_no_bet_on_seventh_street_the_best_board_shows_first() -> None:
    """TDA rule 16: with no bet on the final round, the first player to act shows first (stud: the best
    board showing, set by the round as ``first_to_act``), then clockwise."""
    ctx = showdown_ctx([100, 100, 100], [20, 20, 20], "AhKh QsQd 7c2d")
    ctx.hand.first_to_act = 1  # type: ignore[union-attr]
    stage = Showdown(ByFirstCard(), show_or_muck=True)  # type: ignore[arg-type]
    stage.start(ctx, None)
    assert stage.show_options() == ShowOptions(1, True)
    stage.handle("show", 1)
    assert stage.to_act == 2 and stage.show_options() == ShowOptions(2, False)
    stage.handle("muck", 2)
    assert stage.to_act == 0 and stage.show_options() == ShowOptions(0, True)
    stage.handle("show", 0)
    assert awards(ctx) == [(0, 60, (0,), (60,), "")]


def test_a_lowball_showdown_says_which_hand_wins_as_hands_are_tabled() -> None:
    """Deuce-to-seven: the lowest hand wins; a higher hand shown after it loses and may be mucked unshown."""
    ctx = showdown_ctx([100, 100, 100], [20, 20, 20], "AhKh QsQd 7c2d")
    hands = ("7c 5d 4h 3s 2c", "8c 6d 4d 3h 2d", "Kc Qd Jh 9s 8s")  # a seven low, an eight low, king high
    for hp, hole in zip(ctx.hand.players, hands, strict=True):  # type: ignore[union-attr]
        hp.hole = list(parse_cards(hole))
    ctx.hand.last_aggressor = 1  # type: ignore[union-attr]
    stage = Showdown(DEUCE_TO_SEVEN_LOW, show_or_muck=True)
    stage.start(ctx, None)
    stage.handle("show", 1)  # the eight low, the bettor, first
    assert stage.show_options() == ShowOptions(2, False)  # king high loses to it
    stage.handle("muck", 2)
    assert stage.show_options() == ShowOptions(0, True)  # the seven low beats the eight
    stage.handle("show", 0)
    assert [e.seat for e in ctx.log if isinstance(e, CardsShown)] == [1, 0]
    assert [e.seat for e in ctx.log if isinstance(e, HandMucked)] == [2]
    assert awards(ctx)[0][2] == (0,)


# --- whole games of each family ---------------------------------------------------------------------------

def answer(view):  # type: ignore[no-untyped-def]
    """A bot: shows a hand that wins, mucks one that loses; calls every bet (stands pat on draws, throws
    the fewest cards it must)."""
    if view.show is not None:
        return view.show.default
    if view.draw is not None:
        return view.draw.hole[:view.draw.min_discards]
    return "call"


def play_and_replay(stages: list[PokerStage], players: int, seed: int, hands: int = 20) -> Game:
    """Bots play ``hands``; chips are conserved, a mucked hand wins nothing, and when the game has a PHH
    code every hand's history (``sm`` lines included) replays to the same stacks."""
    game = Game(stages, seats=players, seed=seed, max_hands=hands, keep_hands=None)
    for i in range(players):
        game.sit_down(f"p{i}", 200)
    game.start()
    game.play(answer)
    assert game.status_name == "exited" and game.ctx.total_chips() == 200 * players
    mucked: set[int] = set()
    for e in game.events:
        if isinstance(e, HandStarted):
            mucked = set()
        elif isinstance(e, HandMucked):
            mucked.add(e.seat)
        elif isinstance(e, PotAwarded):
            assert not mucked & set(e.winners)
    kinds = Counter(type(e) for e in game.events)
    assert kinds[HandMucked] > 0 and kinds[CardsShown] > 0
    if _code(stages) is not None:
        histories = game_to_phh(game.events, game.dispatcher.stages, game.names())
        assert any(hh.actions and "ShowMuckAction" in str(hh.actions) for hh in histories)
        assert [check_hand(hh, "game", i).status for i, hh in enumerate(histories)] == ["ok"] * len(histories)
    return game


def _code(stages: list[PokerStage]) -> str | None:
    """The PHH code of the registered variant ``stages`` were built as (``None``: PHH has none)."""
    code: str | None = getattr(getattr(stages, "variant", None), "code", None)
    return code


FAMILIES: list[tuple[str, Callable[[], list[PokerStage]], int]] = [
    ("badugi", lambda: variants.badugi(2, 4, show_or_muck=True, ask_to_see=True), 4),
    ("2-7 single draw", lambda: variants.deuce_to_seven_single_draw(1, 2, show_or_muck=True), 3),
    ("2-7 triple draw", lambda: variants.deuce_to_seven_triple_draw(2, 4, show_or_muck=True), 3),
    ("five-card draw", lambda: variants.five_card_draw(2, 4, show_or_muck=True), 4),
    ("seven-card stud", lambda: variants.seven_card_stud(show_or_muck=True), 4),
    ("stud hi/lo", lambda: variants.seven_card_stud_hi_lo(show_or_muck=True), 4),
    ("razz", lambda: variants.razz(show_or_muck=True, ask_to_see=True), 4),
    ("fixed-limit hold'em", lambda: variants.fixed_limit_holdem(2, 4, show_or_muck=True), 4),
    ("pot-limit omaha", lambda: variants.pot_limit_omaha(1, 2, show_or_muck=True), 4),
    ("omaha hi/lo", lambda: variants.fixed_limit_omaha_hi_lo(2, 4, show_or_muck=True), 4),
    ("short deck", lambda: variants.short_deck_holdem(1, 2, show_or_muck=True), 4),
    ("pineapple", lambda: variants.pineapple(1, 2, show_or_muck=True), 4),
    ("courchevel", lambda: variants.courchevel(1, 2, show_or_muck=True), 4),
    ("kuhn poker", lambda: variants.kuhn_poker(show_or_muck=True), 3),
]


@pytest.mark.parametrize(("name", "build", "players"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_each_family_plays_show_or_muck_and_replays_its_sm_lines(
    name: str, build: Callable[[], list[PokerStage]], players: int
) -> None:
    play_and_replay(build(), players, seed=7)


def test_stud_shows_from_the_best_board_when_seventh_street_is_checked() -> None:
    """Seven-card stud, everyone calling down and checking seventh street: the best board shows first."""
    game = Game(variants.seven_card_stud(show_or_muck=True), seats=3, seed=2, keep_hands=None)
    for name in ("Ann", "Bob", "Cy"):
        game.sit_down(name, 500)
    game.start()
    while game.legal_actions() is not None:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions()
        assert legal is not None
        if legal.bring_in:
            game.act(seat, "bring_in")
        elif game.hand.street == "seventh street" and game.can_check(seat):
            game.check(seat)
        else:
            game.call(seat) if game.can_call(seat) else game.check(seat)
    options = game.show_options()
    assert options is not None and options.seat == game.hand.first_to_act and game.hand.last_aggressor is None
    with pytest.raises(IllegalActionError, match="turn to show"):
        game.show((options.seat + 1) % 3)
    while (choice := game.show_options()) is not None:
        game.show(choice.seat) if choice.default == "show" else game.muck(choice.seat)
    assert any(isinstance(e, HandEnded) for e in game.events)


def fold_round(game: Game) -> None:
    """Play the hand in progress out: everyone folds or checks (standing pat on draws)."""
    number = game.hand.number
    while game.to_act is not None and game.hand is not None and game.hand.number == number:
        seat = game.to_act
        if (draw := game.draw_options()) is not None:
            game.draw(seat, draw.hole[:draw.min_discards])
        elif game.show_options() is not None:
            game.muck(seat) if game.can_muck(seat) else game.show(seat)
        else:
            game.act(seat, "check" if game.can_check(seat) else "fold")


DEAD: list[tuple[str, Callable[[], list[PokerStage]]]] = [
    ("badugi", lambda: variants.badugi(2, 4, button="dead", show_or_muck=True)),
    ("2-7 single draw", lambda: variants.deuce_to_seven_single_draw(1, 2, button="dead")),
    ("short deck", lambda: variants.short_deck_holdem(0, 0, blinds=(1, 2), button="dead")),
    ("pineapple", lambda: variants.pineapple(1, 2, button="dead")),
    ("courchevel", lambda: variants.courchevel(1, 2, button="dead")),
]


@pytest.mark.parametrize(("name", "build"), DEAD, ids=[d[0] for d in DEAD])
def test_each_family_plays_the_dead_button_with_missed_blinds_posted_big_live_small_dead(
    name: str, build: Callable[[], list[PokerStage]]
) -> None:
    """As the hold'em game of tests/stages/test_dead_button.py: a player sits out as the big blind passes,
    comes back and posts the big blind live and the small blind dead; every hand's PHH replays."""
    stages = build()
    game = away_and_back(stages, 4, fold_round)  # seat 4 misses both blinds and sits in again after hand 3
    fold_round(game)  # hand 4: seat 4, between the button and the small blind, waits
    fold_round(game)  # hand 5: seat 4 posts to come in
    placed = [(e.button, e.small_blind, e.big_blind) for e in game.events if isinstance(e, BlindsPlaced)]
    assert placed == [(0, 1, 2), (1, 2, 3), (2, 3, 0), (3, 0, 1), (0, 1, 2)]
    assert BlindMissed(4, "both") in game.events
    bets = [(e.seat, e.bet) for e in game.events if isinstance(e, ForcedBetPosted) and "ante" not in e.bet]
    assert bets[-4:] == [(1, "small blind"), (2, "big blind"), (4, "missed big blind"), (4, "missed small blind")]
    assert game.ctx.total_chips() == 500
    fold_round(game)  # hand 5 played out
    if _code(stages) is not None:
        histories = game_to_phh(game.events, game.dispatcher.stages, game.names())
        assert [check_hand(hh, "game", i).status for i, hh in enumerate(histories)] == ["ok"] * len(histories)
        assert min(histories[4].blinds_or_straddles or (0,)) < 0  # hand 5's post to come in, as PHH writes it
