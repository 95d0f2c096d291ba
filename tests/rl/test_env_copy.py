"""raw_env.copy() and reset(options={"cards": ...}): what search (CFR) needs of the environment."""

from __future__ import annotations

import pytest

from cardgame.model.errors import CardError, ConfigError
from cardgame.rl import raw_env


def test_reset_deals_the_cards_chosen_and_refuses_bad_ones_unchanged() -> None:
    env = raw_env("two-player kuhn poker", button=1, seed=4)
    env.reset(options={"cards": "Ks Js", "ignored": 1})
    assert env.game is not None and env.game.hand is not None
    assert [env.game.hand.by_seat[s].hole for s in (0, 1)] == [[c] for c in env.game.ctx.deck_spec.cards[2::-2]]
    before = env.game
    for bad, error in (("Ks Ks", CardError), ("As", CardError)):
        with pytest.raises(error):
            env.reset(options={"cards": bad})
        assert env.game is before
    with pytest.raises(ConfigError, match="reset's options are a mapping"):
        env.reset(options=["cards"])  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="options\\['cards'\\] are card strings"):
        env.reset(options={"cards": 5})
    # The seed stream was not used up by the refused resets: the next seedless reset is the first one's.
    twin = raw_env("two-player kuhn poker", button=1, seed=4)
    twin.reset(options={"cards": "Ks Js"})
    env.reset()
    twin.reset()
    assert env.game is not None and twin.game is not None
    assert env.game.seed == twin.game.seed


def test_a_copy_goes_on_alone() -> None:
    env = raw_env("leduc hold'em", button=1, seed=2)
    env.reset(options={"cards": "Js Qs"})
    twin = env.copy()
    twin.step(2)  # a bet on the copy
    assert env.game is not None and twin.game is not None and twin.game is not env.game
    assert env.agent_selection == "player_0" and twin.agent_selection == "player_1"
    twin.step(0)  # the other folds: the copy's hand is over, the original's not
    assert all(twin.terminations.values()) and not any(env.terminations.values())
    start = env.stacks[0]
    assert twin.table_stacks() == {"player_0": start + 1, "player_1": start - 1}
    assert env.table_stacks() == {"player_0": start, "player_1": start}
    # The original plays the same hand on; a copy can be reset and neither disturbs the other.
    again = env.copy()
    again.reset(seed=9)
    env.step(1)
    env.step(1)
    assert env.game.hand is not None and len(env.game.hand.board) == 1
    assert again.game is not None and again.game.hand is not None and again.game.hand.board == []


@pytest.mark.parametrize("variant", ["NT", "F2L3D", "F7S", "leduc hold'em"])
def test_a_game_copies_after_an_episode_abandoned_in_the_middle_of_a_hand(variant: str) -> None:
    # Regression: the environment deals every episode on the same stages; an episode reset in the middle
    # of a betting round (or a draw) left that stage's state behind, and copying a later episode's game
    # once its hand was over raised a bare AssertionError ("a street is bet inside a hand").
    env = raw_env(variant, seed=5)
    fresh = raw_env(variant, seed=5)
    for abandon_after in (2, 3, 5):
        env.reset(seed=11)
        for _ in range(abandon_after):  # check or call into the later streets, then walk away
            if env.terminations[env.agent_selection]:
                break
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(1 if mask[1] else int(mask.argmax()))
        env.reset(seed=12)
        fresh.reset(seed=12)
        while env.agents:
            assert env.game is not None and fresh.game is not None
            twin = env.game.copy()
            assert twin.legal_actions() == fresh.game.legal_actions()
            agent = env.agent_selection
            obs, _, done, _, _ = env.last()
            assert (obs["observation"] == fresh.observe(agent)["observation"]).all()
            action = None if done else 0 if obs["action_mask"][0] else int(obs["action_mask"].argmax())
            env.step(action)
            fresh.step(action)
        assert env.game is not None and env.game.hand is None
        env.game.copy()  # the hand is over: every stage copies
        env.copy()
