"""PHH export: hands played by the engine, written as PHH and replayed, give the same hand."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardgame.model.errors import HandHistoryError
from cardgame.model.events import ActionTaken, CardsShown
from cardgame.phh import dumps, loads
from cardgame.phh.actions import DealBoardAction, DealHoleAction, ShowMuckAction
from cardgame.phh.export import game_to_phh, variant_fields
from cardgame.phh.replay import replay
from cardgame.play.bots import random_bot, random_draw
from cardgame.play.game import Game
from variants import available, kuhn_poker

CODED = [v for v in available() if v.code]


def _played(variant, players: int, seed: int) -> tuple[list, Game]:  # type: ignore[no-untyped-def, type-arg]
    """Three hands of ``variant`` between random bots, every event kept."""
    stages = variant.build()
    game = Game(stages, seats=players, seed=seed, max_hands=3, keep_hands=None)
    for i in range(players):
        game.sit_down(f"p{i}", 200)
    game.start()
    game.play(random_bot, drawer=random_draw)
    return stages, game


@pytest.mark.parametrize("variant", CODED, ids=[v.code or "" for v in CODED])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_played_hands_round_trip_through_phh(variant, players: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    stages, game = _played(variant, players, seed)
    hands = game_to_phh(game.events, stages, game.names())
    assert len(hands) == game.ctx.hands_played
    for hh in hands:
        [again] = loads(dumps(hh))
        assert again == hh
        result = replay(again)
        assert result.complete
        assert list(result.stacks) == list(hh.finishing_stacks or ())
        ours = [(e.action, e.to) for e in result.game.events if isinstance(e, ActionTaken)]
        bets = ("FoldAction", "CheckCallAction", "CompleteBetRaiseAction", "PostBringInAction")
        assert len(ours) == sum(type(a).__name__ in bets for a in hh.actions)


@pytest.mark.parametrize("variant", CODED, ids=[v.code or "" for v in CODED])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_hands_as_one_seat_saw_them_keep_every_shown_card_and_replay(variant, players: int,  # type: ignore[no-untyped-def]
                                                                     seed: int) -> None:
    """A player's own history (``seen_by``): the others' unshown cards are unknown, but every card
    shown at the showdown is written, before an all-in run-out too, so the hand replays to its stacks."""
    stages, game = _played(variant, players, seed)
    shown = [e for e in game.events if isinstance(e, CardsShown)]
    hands = game_to_phh([e.seen_by(0) for e in game.events], stages, game.names())
    written = {c for hh in hands for a in hh.actions if isinstance(a, ShowMuckAction) for c in a.cards or ()}
    assert {c for e in shown for c in e.cards} <= written
    size = len(variant.deck.ranks) * len(variant.deck.suits)
    for hh in hands:
        dealt = sum(len(a.cards) for a in hh.actions if isinstance(a, (DealHoleAction, DealBoardAction)))
        if dealt > size:  # the dealer reshuffled the discards: unknown ones cannot be dealt again
            continue
        result = replay(hh)
        assert result.complete and list(result.stacks) == list(hh.finishing_stacks or ())


def test_variant_fields_of_no_limit_holdem() -> None:
    from variants import no_limit_holdem

    assert variant_fields(no_limit_holdem(5, 10), 3) == {
        "variant": "NT", "antes": [0, 0, 0], "ante_trimming_status": True, "blinds_or_straddles": [5, 10, 0],
        "min_bet": 10,
    }


def test_games_without_a_phh_code_are_refused() -> None:
    with pytest.raises(HandHistoryError, match="PHH has no variant code"):
        variant_fields(kuhn_poker(), 3)
