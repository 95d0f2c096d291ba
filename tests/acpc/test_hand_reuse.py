"""A match plays every hand on one engine game (``AcpcHand.next_hand``): each hand is the same as on
a fresh game, and ``line`` is the match state's text byte for byte (the reference dealer's lines;
ACPC protocol 2.0.0, the MATCHSTATE format)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardgame.acpc.deal import ReferenceDeals
from cardgame.acpc.gamedef import STANDARD_GAMES
from cardgame.acpc.hand import AcpcHand
from cardgame.acpc.matchstate import CALL, FOLD, RAISE, Action
from cardgame.model.cards import parse_cards
from cardgame.model.errors import CardError, IllegalActionError, ProtocolError


def _answer(hand: AcpcHand, rng: random.Random) -> Action:
    """A random answer, sometimes not allowed (the dealer's ``fix`` turns it into one that is)."""
    size = rng.randrange(0, 25_000) if not hand.definition.is_limit else None
    return rng.choice([CALL, FOLD, RAISE if size is None else Action("r", size)])


@settings(max_examples=30, deadline=None, derandomize=True)
@given(name=st.sampled_from(sorted(STANDARD_GAMES)), seed=st.integers(0, 2**32 - 1), hands=st.integers(1, 8))
def test_every_hand_of_a_match_on_one_game_is_the_hand_on_a_fresh_game(name: str, seed: int, hands: int) -> None:
    game = STANDARD_GAMES[name]
    deals = ReferenceDeals(game, seed)
    rng = random.Random(seed)
    reused: AcpcHand | None = None
    for number in range(hands):
        hole, board = deals()
        fresh = AcpcHand(game, number, hole, board)
        if reused is None:
            reused = AcpcHand(game, number, hole, board)
        else:
            reused.next_hand(number, hole, board)
        while True:
            for p in range(game.num_players):
                assert reused.line(p) == str(reused.state(p)) == str(fresh.state(p))
            if fresh.finished:
                break
            assert reused.to_act == fresh.to_act and reused.allowed() == fresh.allowed()
            action = fresh.fix(_answer(fresh, rng))
            assert reused.apply(action) == fresh.apply(action)
        assert reused.finished
        assert reused.values() == fresh.values() and reused.chips() == fresh.chips()
        assert reused.cards() == fresh.cards() and reused.betting == fresh.betting
        assert sum(reused.chips()) == 0


def test_the_next_hand_waits_for_this_one_and_refused_cards_change_nothing() -> None:
    game = STANDARD_GAMES["holdem.limit.2p.reverse_blinds"]
    hand = AcpcHand(game, 0, [parse_cards("3c4d"), parse_cards("9d6c")], parse_cards("6d7hAs Ks Td"))
    with pytest.raises(IllegalActionError, match="not over"):
        hand.next_hand(1, [parse_cards("2c2d"), parse_cards("5h5s")])
    hand.apply(FOLD)
    before = [hand.line(0), hand.line(1)]
    with pytest.raises(CardError, match="given twice"):
        hand.next_hand(1, [parse_cards("2c2d"), parse_cards("2c5s")])
    with pytest.raises(ProtocolError, match="3 positions"):
        hand.next_hand(1, [parse_cards("2c2d"), parse_cards("5h5s"), ()])
    assert [hand.line(0), hand.line(1)] == before and hand.finished and hand.number == 0
    hand.next_hand(1, [parse_cards("2c2d"), parse_cards("5h5s")], parse_cards("6d7hAs Ks Td"))
    assert hand.line(1) == "MATCHSTATE:1:1::|5h5s" and hand.to_act == 1  # firstPlayer 2: position 1 acts
    assert hand.game.hand.players[0].player.stack == game.stack_sizes[0] - game.blinds[0]
