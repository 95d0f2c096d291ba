"""Fuzz: random poker stage lists (deals up and down, boards, bets, draws, discards, run-it-twice,
bring-ins, blinds or antes or neither, every evaluator, decks of 4 to 52 cards, 2 to 9 seats) are
either refused when the game is built, with a ConfigError, or play three hands with random bots
(no stage fails mid-hand, no chip lost)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame import Game
from cardgame.evaluation import (
    ACE_TO_FIVE_LOW,
    BADUGI,
    DEUCE_TO_SEVEN_LOW,
    EIGHT_OR_BETTER_LOW,
    HIGH,
    OMAHA_EIGHT_LOW,
    OMAHA_HIGH,
)
from cardgame.evaluation.small_games import HIGH_CARD, LEDUC
from cardgame.model.betting import FixedLimit, NoLimit
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.play.bots import random_bot
from cardgame.stages import (
    BettingRound,
    BringIn,
    DealBoard,
    DealHole,
    Draw,
    EndHand,
    ForcedBets,
    RunItTwice,
    Showdown,
    WaitForPlayers,
)
from cardgame.stages.base import PokerStage

EVALUATORS = [HIGH, OMAHA_HIGH, BADUGI, LEDUC, HIGH_CARD, DEUCE_TO_SEVEN_LOW, ACE_TO_FIVE_LOW]
LOWS = [None, EIGHT_OR_BETTER_LOW, OMAHA_EIGHT_LOW]
DECKS = [None, DeckSpec("AKQJT9876"), DeckSpec("JQKA", "s"), DeckSpec("KQJ", "hs")]


@st.composite
def middles(draw: Any) -> PokerStage:
    kind = draw(st.sampled_from(["hole", "board", "board", "bet", "bet", "bet", "draw", "discard", "run"]))
    if kind == "hole":
        return DealHole(face_up=tuple(draw(st.lists(st.booleans(), min_size=1, max_size=4))),
                        community_if_short=draw(st.booleans()))
    if kind == "board":
        return DealBoard(draw(st.integers(1, 4)), burn=draw(st.booleans()))
    if kind == "bet":
        return BettingRound(draw(st.sampled_from([NoLimit(2), FixedLimit(2, 4)])), draw(st.integers(0, 4)))
    if kind == "draw":
        return Draw()
    if kind == "run":
        return RunItTwice(((1, "river"),))
    return Draw(1, min_discards=1, replace=False)


@st.composite
def stage_lists(draw: Any) -> list[PokerStage]:
    stages: list[PokerStage] = [WaitForPlayers(2, max_players=draw(st.sampled_from([None, 2, 3, 8])),
                                               deck=draw(st.sampled_from(DECKS)))]
    forced = draw(st.sampled_from(["blinds", "ante", "none"]))
    if forced == "blinds":
        stages.append(ForcedBets((1, 2)))
    elif forced == "ante":
        stages.append(ForcedBets((), ante=1))
    stages.append(DealHole(face_up=tuple(draw(st.lists(st.booleans(), min_size=1, max_size=5)))))
    if draw(st.booleans()):
        stages.append(BringIn(1))
    for stage in draw(st.lists(middles(), max_size=7)):
        if isinstance(stage, RunItTwice) and not isinstance(stages[-1], BettingRound):
            stages.append(BettingRound(NoLimit(2)))
        stages.append(stage)
    if not any(isinstance(s, BettingRound) for s in stages):
        stages.append(BettingRound(NoLimit(2)))
    if draw(st.integers(0, 9)):
        stages.append(Showdown(draw(st.sampled_from(EVALUATORS)), draw(st.sampled_from(LOWS))))
    if draw(st.integers(0, 9)):
        stages.append(EndHand())
    return stages


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stage_lists(), st.integers(2, 9), st.integers(0, 2**16))
def test_a_random_stage_list_is_refused_at_build_or_plays(stages: list[PokerStage], seats: int, seed: int) -> None:
    try:
        game = Game(stages, seats=seats, seed=seed, max_hands=3)
    except ConfigError:
        return
    for seat in range(seats):
        game.sit_down(f"p{seat}", 200)
    game.start()
    game.play(random_bot, max_actions=2000)
    # the game played its hands, or waits for players after all but one went broke
    assert game.status_name == "exited" or (game.status_name == "running" and game.to_act is None
                                            and game.stage is not None and game.stage.name == "wait for players")
    assert sum(p.stack for p in game.table.players()) == 200 * seats
