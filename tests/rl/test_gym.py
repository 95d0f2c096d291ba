"""The Gymnasium single-agent environment: Gymnasium's checker, bots through the bot interface (each
seeing only its own seat), rewards, determinism and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env

from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.play.bot import Answer, BotView
from cardgame.rl.gym import SingleAgentEnv


@pytest.mark.parametrize(("variant", "opponents"), [("NT", "seed-ai"), ("F2L3D", "random"), ("F7S", "calling-station")])
def test_gymnasium_check_env_passes(variant: str, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # no spec: the checker cannot make other render modes
        check_env(SingleAgentEnv(variant, opponents=opponents, illegal="passive"))


def episode(e: SingleAgentEnv, seed: int | None, rng: np.random.Generator) -> tuple[float, list[float]]:
    obs, info = e.reset(seed=seed)
    total, rewards = info["skipped_reward"], []
    done = False
    while not done:
        obs, reward, done, truncated, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not truncated
        rewards.append(reward)
        total += reward
    return total, rewards


def test_the_learners_rewards_are_its_chips_won_and_replay_with_the_seed() -> None:
    e = SingleAgentEnv("NT", seat=1, opponents=["random", "calling-station"], players=3, hands=5, seed=9)
    start = e.aec.stacks[1]
    a = episode(e, 11, np.random.default_rng(0))
    assert a[0] == e.aec.table_stacks()["player_1"] - start
    assert sum(e.aec.table_stacks().values()) == e.aec.chips
    b = episode(e, 11, np.random.default_rng(0))
    assert a == b


class Spy:
    """A bot that records what it was shown and checks or calls."""

    def __init__(self) -> None:
        self.views: list[BotView] = []

    def __call__(self, view: BotView) -> Answer:
        self.views.append(view)
        return "call"


def test_each_bot_sees_only_its_own_seat() -> None:
    spies = [Spy(), Spy()]
    e = SingleAgentEnv("F7S", seat=0, opponents=spies, players=3, seed=2)
    rng = np.random.default_rng(1)
    for _ in range(3):
        episode(e, None, rng)
    for seat, spy in enumerate(spies, start=1):
        assert spy.views
        for view in spy.views:
            assert view.seat == seat
            for row in view.seats:
                if row.seat != seat and row.hole:  # others' cards: stud's first two are dealt face down
                    assert row.hole[:2] == (None, None)
                elif row.seat == seat:
                    assert None not in row.hole


def test_a_masked_action_raises_unless_played_passively() -> None:
    e = SingleAgentEnv("leduc hold'em", opponents="calling-station", seed=1)
    obs, _ = e.reset(seed=1)
    masked = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="is not legal now"):
        e.step(masked)
    assert np.array_equal(e.action_masks(), obs["action_mask"])
    passive = SingleAgentEnv("leduc hold'em", opponents="calling-station", illegal="passive")
    obs, _ = passive.reset(seed=1)
    _, _, _, _, info = passive.step(masked)
    assert info == {"illegal": True}


def test_stepping_a_finished_episode_is_refused() -> None:
    e = SingleAgentEnv("kuhn poker", opponents="all-in")
    rng = np.random.default_rng(3)
    episode(e, 5, rng)
    with pytest.raises(IllegalActionError, match="call reset"):
        e.step(1)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"seat": 2}, "seat must be"),
    ({"opponents": "shark"}, "Unknown bot"),
    ({"opponents": ["random"], "players": 3}, "one per other seat"),
    ({"opponents": [3]}, "bot name"),
    ({"illegal": "ignore"}, "raise, passive"),
    ({"hands": -1}, "hands .*must be"),
])
def test_bad_config_is_a_config_error(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        SingleAgentEnv("NT", **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(("variant", "players"), [("NT", 3), ("leduc hold'em", 2), ("F2L3D", 3), ("F7S", 2)])
def test_built_in_bots_asked_without_a_view_play_the_episodes_their_views_play(variant: str, players: int) -> None:
    """``random``, ``calling-station`` and ``all-in`` opponents answer betting questions without a view
    (their answer from the question and their stream): every episode is the one the same bots play
    behind wrappers the library does not know (asked through views), observation for observation."""
    from cardgame.play.bots import always_all_in, calling_station, random_bot

    def viewed(bot: object) -> object:
        return lambda view: bot(view)  # type: ignore[operator]

    names = ["random", "calling-station", "all-in"][: players - 1]
    bots = [random_bot, calling_station, always_all_in][: players - 1]
    quick = SingleAgentEnv(variant, opponents=names, players=players, hands=3)
    slow = SingleAgentEnv(variant, opponents=[viewed(b) for b in bots], players=players, hands=3)  # type: ignore[misc]
    rng = np.random.default_rng(4)
    steps = 0
    for seed in range(10):
        (a, info_a), (b, info_b) = quick.reset(seed=seed), slow.reset(seed=seed)
        assert info_a == info_b
        done = False
        while not done:
            assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(a["action_mask"],
                                                                                          b["action_mask"])
            index = int(rng.choice(np.flatnonzero(a["action_mask"])))
            (a, reward, done, _, _), (b, *other) = quick.step(index), slow.step(index)
            assert (reward, done) == tuple(other[:2])
            steps += 1
        assert quick.aec.table_stacks() == slow.aec.table_stacks()
    assert steps >= 10
