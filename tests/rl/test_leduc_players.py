"""Leduc hold'em for 2 to 10 players, as OpenSpiel's ``leduc_poker`` with ``players``: its deck, the
same legal actions, chance outcomes and returns over random playouts (where pyspiel is installed)."""

from __future__ import annotations

import random

import pytest

import variants
from cardgame.model.errors import ConfigError
from cardgame.play.game import Game
from cardgame.rl.env import raw_env
from cardgame.rl.spiel import load_game
from variants.research import leduc_deck, leduc_holdem


def test_the_deck_grows_by_a_rank_a_player() -> None:
    assert [str(c) for c in leduc_deck(2).cards] == ["Jh", "Js", "Qh", "Qs", "Kh", "Ks"]
    assert [str(c) for c in leduc_deck(3).cards][:2] == ["Th", "Ts"] and len(leduc_deck(3).cards) == 8
    assert len(leduc_deck(10).cards) == 22 and str(leduc_deck(10).cards[0]) == "3h"
    assert leduc_holdem().variant is variants.get("leduc hold'em")  # heads-up: the registered game itself
    assert leduc_holdem(players=5).variant.deck == leduc_deck(5)


@pytest.mark.parametrize("players", [1, 11, True, 2.0, "3", 10**40])
def test_bad_player_counts_are_refused(players: object) -> None:
    with pytest.raises(ConfigError, match="players of Leduc hold'em must be a whole number from 2 to 10"):
        leduc_holdem(players=players)  # type: ignore[arg-type]


def test_the_environment_deals_its_players_in() -> None:
    e = raw_env("leduc hold'em", 5, seed=3)
    e.reset()
    assert e.game is not None and len(e.game.ctx.deck_spec.cards) == 12
    assert len(e.game.hand.by_seat) == 5  # type: ignore[union-attr]
    with pytest.raises(ConfigError, match="deals at most 2 players, not 3"):
        raw_env("leduc hold'em", 3, params={"players": 2})
    with pytest.raises(ConfigError, match="players of Leduc hold'em must be a whole number from 2 to 10, not 11"):
        raw_env("leduc hold'em", 11)
    game = Game(leduc_holdem(players=3), seats=3, seed=1)  # the game alone, seated by hand
    assert len(game.ctx.deck_spec.cards) == 8


@pytest.mark.parametrize("players", [2, 3, 5, 10])
def test_random_playouts_agree_with_openspiel(players: int) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    theirs_game = pyspiel.load_game("leduc_poker", {"players": players})
    ours_game = load_game("leduc_poker", players=players)
    assert ours_game.max_chance_outcomes() == theirs_game.max_chance_outcomes() == 2 * (players + 1)
    rng = random.Random(players)
    odd_splits = 0
    for _ in range(60 if players < 10 else 25):
        ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.is_terminal() and ours.current_player() == theirs.current_player()
            if theirs.is_chance_node():
                assert ours.chance_outcomes() == theirs.chance_outcomes()  # the same floats: MCCFR samples alike
            assert ours.legal_actions() == theirs.legal_actions()
            action = rng.choice(theirs.legal_actions())
            ours.apply_action(action)
            theirs.apply_action(action)
        assert ours.is_terminal()
        mine, their = ours.returns(), theirs.returns()
        assert sum(mine) == 0 and all(float(r).is_integer() for r in mine)  # whole chips
        if mine != their:  # OpenSpiel halves an odd pot; the engine gives the odd chip to one winner
            odd_splits += 1
            diffs = sorted(a - b for a, b in zip(mine, their, strict=True) if a != b)
            assert diffs == [-0.5, 0.5]
    assert odd_splits > 0 or players != 3  # the seeded 3-handed playouts split odd pots
