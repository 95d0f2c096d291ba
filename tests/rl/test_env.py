"""The PettingZoo AEC environment: PettingZoo's own API and seed tests for every variant, chips
conserved over random play, rewards at the end of each hand, rendering, and errors."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test

import variants
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.rl import env, raw_env

ALL = [v.name for v in variants.available()]


@pytest.mark.parametrize("name", ALL)
def test_pettingzoo_api_and_seed_tests_pass(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns about things it cannot check (no seed argument...)
        api_test(env(name, 2, hands=2), num_cycles=15)
        seed_test(lambda: env(name, 2, hands=2), num_cycles=15)


def test_kuhn_three_handed_and_six_handed_holdem_pass_too() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, players in (("kuhn poker", 3), ("NT", 6), ("F7S", 8)):
            api_test(env(name, players), num_cycles=15)
            seed_test(lambda name=name, players=players: env(name, players), num_cycles=15)  # type: ignore[misc]


def play_random(e: raw_env, rng: np.random.Generator, limit: int = 2000) -> dict[str, float]:
    """Play random legal actions to the end of the episode; each agent's total reward. Checks the chips
    on the table after every step."""
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for _ in range(limit):
        agent = e.agent_selection
        obs, reward, done, _, _ = e.last()
        totals[agent] += reward
        assert sum(e.table_stacks().values()) == e.chips
        if done:
            e.step(None)
            if not e.agents:
                return totals
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, "the agent to act always has a legal action"
        e.step(int(rng.choice(legal)))
    raise AssertionError("the episode did not end")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(ALL), seed=st.integers(0, 2**32), players=st.integers(2, 4), hands=st.integers(1, 4),
       short=st.booleans())
def test_chips_are_conserved_and_rewards_are_the_stack_changes(
        name: str, seed: int, players: int, hands: int, short: bool) -> None:
    top = variants.get(name).max_players
    players = min(players, top)
    e = raw_env(name, players, hands=hands, stack=[10 + 7 * i for i in range(players)] if short else None)
    e.reset(seed=seed)
    start = e.table_stacks()
    totals = play_random(e, np.random.default_rng(seed))
    end = e.table_stacks()
    assert totals == {a: end[a] - start[a] for a in e.possible_agents}
    assert sum(totals.values()) == 0


def test_rewards_come_at_the_end_of_each_hand_in_big_blinds() -> None:
    e = raw_env("NT", 2, hands=3, reward="bb", seed=5, stack=50)
    e.reset()
    paid = []
    while e.agents:
        agent = e.agent_selection
        done = e.last()[2]
        if done:
            e.step(None)
            continue
        hand = e._game.hand.number
        e.step(1)  # check or call down
        if any(e.rewards.values()):
            paid.append((hand, dict(e.rewards)))
            assert sum(e.rewards.values()) == 0
            assert all(r * 2 == int(r * 2) for r in e.rewards.values())  # chips / a big blind of 2
        assert agent in e.possible_agents
    assert [h for h, _ in paid] == sorted({h for h, _ in paid}) and len(paid) <= 3


def test_an_episode_ends_when_a_player_is_broke() -> None:
    e = raw_env("NT", 2, hands=50, stack=4, seed=2, actions="fixed-limit")
    e.reset()
    steps = 0
    while e.agents:
        obs, _, done, _, _ = e.last()
        e.step(None if done else int(np.flatnonzero(obs["action_mask"])[-1]))  # always raise (all in)
        steps += 1
    assert 0 in e.table_stacks().values() and e._game.ctx.hands_played < 50


def test_reset_with_a_seed_replays_and_seeds_differ() -> None:
    def first(seed: int) -> np.ndarray:
        e = env("NT", 2)
        e.reset(seed=seed)
        return e.last()[0]["observation"]

    assert np.array_equal(first(7), first(7))
    assert any(not np.array_equal(first(7), first(s)) for s in range(8, 12))


def test_the_constructor_seed_starts_a_replayable_stream() -> None:
    def hands(e: raw_env) -> list[np.ndarray]:
        out = []
        for _ in range(3):
            e.reset()
            out.append(e.observe(e.agent_selection)["observation"])
        return out

    a, b = hands(raw_env("FT", 2, seed=3)), hands(raw_env("FT", 2, seed=3))
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], a[1]) or not np.array_equal(a[1], a[2])


def test_render_is_text() -> None:
    e = env("FT", 3, render_mode="ansi", seed=1)
    e.reset()
    text = e.render()
    assert "Pot: 3" in text and "player_2" in text
    assert raw_env("FT", 2).render() == "No game yet: call reset()."


def test_a_masked_action_is_refused_naming_it_and_the_legal_ones() -> None:
    e = env("leduc hold'em", 2, seed=4)
    e.reset()
    obs, agent = e.last()[0], e.agent_selection
    assert obs["action_mask"].tolist() == [0, 1, 1]  # the first to act may check or bet
    with pytest.raises(IllegalActionError, match=r"Action 0 \(fold\) is not legal now; the legal actions are "
                                                 r"1 \(check/call\), 2 \(raise\)"):
        e.step(0)
    again = e.last()[0]
    assert np.array_equal(again["observation"], obs["observation"]) and e.agent_selection == agent
    e.step(np.int64(2))  # numpy integers are indices too


def test_only_the_agent_to_act_has_a_mask() -> None:
    e = raw_env("NT", 3, seed=1)
    e.reset()
    for agent in e.possible_agents:
        assert e.observe(agent)["action_mask"].any() == (agent == e.agent_selection)


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"variant": "no such game"}, "Unknown variant"),
    ({"variant": 12}, "variant must be"),
    ({"players": 3, "variant": "two-player kuhn poker"}, "players of two-player kuhn poker must be .* 2 to 2"),
    ({"players": 11, "variant": "leduc hold'em"}, "players of Leduc hold'em must be a whole number from 2 to 10"),
    ({"players": 1}, "players .*must be"),
    ({"reward": "dollars"}, "chips, bb"),
    ({"hands": 0}, "hands .*must be"),
    ({"stack": [100]}, "one per player"),
    ({"stack": 0}, "stack .*must be"),
    ({"observation": "pixels"}, "Unknown observation"),
    ({"actions": "all"}, "default, fixed-limit"),
    ({"render_mode": "rgb_array"}, "render_mode"),
    ({"runs": "twice"}, "once, agent"),
    ({"button": 5}, "button .*must be"),
    ({"params": {"blinds": 3}}, "its parameters are"),
    ({"params": [("ante", 1)]}, "params must be a mapping"),
])
def test_bad_config_is_a_config_error(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ConfigError, match=words):
        raw_env(**kwargs)  # type: ignore[arg-type]


def test_run_out_choices_by_the_env_or_the_agents() -> None:
    for runs, asked in (("once", False), ("agent", True)):
        e = raw_env("NT", 2, params={"run_it_twice": True}, runs=runs, seed=3)
        e.reset()
        seen = False
        while e.agents:
            obs, _, done, _, _ = e.last()
            if done:
                e.step(None)
                continue
            if e._game.run_options() is not None:
                seen = True
                assert obs["action_mask"].tolist() == [1, 1, 0, 0, 0]
                e.step(1)  # run it twice
                continue
            e.step(4 if obs["action_mask"][4] else 1)  # all in, call
        assert seen == asked
        assert sum(e.table_stacks().values()) == e.chips


@pytest.mark.parametrize(("name", "size"), [("NT", 54), ("FT", 72), ("leduc hold'em", 36)])
def test_rlcards_encodings_compare_with_published_results(name: str, size: int) -> None:
    e = env(name, 2, observation="rlcard", seed=1)
    e.reset()
    assert e.observation_space("player_0")["observation"].shape == (size,)
    assert e.last()[0]["observation"].shape == (size,)


def test_observation_options_reach_the_encoder() -> None:
    with pytest.raises(ConfigError, match="rlcard"):
        raw_env("FR", 2, observation="rlcard")
    with pytest.raises(ConfigError, match="takes no option"):
        raw_env("NT", 2, observation_options={"colour": 1})
    with pytest.raises(ConfigError, match="mapping"):
        raw_env("NT", 2, observation_options=3)  # type: ignore[arg-type]
    small = raw_env("NT", 2, observation_options={"max_raises": 2})
    assert small.encoder.max_raises == 2  # type: ignore[attr-defined]


def trajectory(e: raw_env, seed: int) -> list[tuple[str, bytes, float]]:
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while e.agents:
        obs, reward, done, _, _ = e.last()
        out.append((e.agent_selection, obs["observation"].tobytes(), reward))
        e.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("name", ALL)
def test_an_env_playing_its_stages_again_plays_as_a_new_one(name: str) -> None:
    """The environment builds its variant's stages once; episodes after one that ended mid-hand (a
    player broke three-handed) play exactly as in a new environment."""
    players = min(3, variants.get(name).max_players)
    kept = raw_env(name, players, hands=3, stack=[6, 30, 30][:players])
    for seed in range(4):
        assert trajectory(kept, seed) == trajectory(raw_env(name, players, hands=3, stack=[6, 30, 30][:players]), seed)
