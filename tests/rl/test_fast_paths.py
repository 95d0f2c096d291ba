"""The environments' fast paths against the readable forms they stand for: an episode's game copied
from the seated template equals one built anew; the encoders' incremental histories equal encoding
from scratch."""

from __future__ import annotations

import random

import numpy as np
import pytest

import variants
from cardgame import Game
from cardgame.rl.actions import for_game, send
from cardgame.rl.env import _dealt, _seated, env, raw_env
from cardgame.rl.observe import Planes


def _built(name: str, stacks: list[int], seed: int | None, button: int, hands: int) -> Game:
    game = Game(variants.get(name), seats=len(stacks), seed=seed, first_button=button, max_hands=hands)
    for seat, stack in enumerate(stacks):
        game.sit_down(f"player_{seat}", stack, seat)
    return game


@pytest.mark.parametrize(("name", "stacks"), [("NT", [200, 150, 90]), ("leduc hold'em", [30, 30]),
                                              ("F7S", [100, 100, 100, 100]), ("F2L3D", [80, 120])])
def test_a_game_dealt_from_the_template_is_the_game_built_anew(name: str, stacks: list[int]) -> None:
    """Same seed, button and hands: the same events through random play of two hands, and the template
    is never started (so it deals again)."""
    template = _seated(variants.get(name).build(), stacks)
    for seed in (1, 2**127 + 5):
        button = seed % len(stacks)
        copied = _dealt(template, seed, button, 2, None)
        built = _built(name, stacks, seed, button, 2)
        built.start()
        rng = random.Random(seed)
        actions = for_game("default", built, chips=sum(stacks))
        while built.to_act is not None:
            assert copied.events == built.events
            seat = built.to_act
            index = rng.choice(np.flatnonzero(actions.mask(built)).tolist())
            send(built, seat, actions.decode(index, built))
            send(copied, seat, actions.decode(index, copied))
        assert copied.events == built.events and copied.ctx.hands_played == built.ctx.hands_played
        assert template.status_name == "new" and template.hand is None


def test_the_environment_deals_from_its_template_with_chosen_cards() -> None:
    env = raw_env("leduc hold'em", seed=4)
    env.reset(options={"cards": "Ks Kh"})
    game = env.game
    assert game is not None and game.hand is not None
    assert [str(c) for hp in game.hand.players for c in hp.hole] == ["Ks", "Kh"]
    twin = env.copy()
    twin.reset(seed=4)
    env.reset(seed=4)
    assert env.game is not None and twin.game is not None and env.game.events == twin.game.events
    assert np.array_equal(env.observe("player_0")["observation"], twin.observe("player_0")["observation"])


@pytest.mark.parametrize("name", [v.name for v in variants.available()])
def test_observations_and_masks_equal_the_plain_ones_in_every_variant(name: str) -> None:
    """Random play of three-handed episodes (two hands each) in every variant, with every action
    abstraction that fits: the environment's observation (planes reading only new events, one history
    for every seat) equals a fresh encoder's for every seat, and its mask (a betting mask made once
    and copied) equals the abstraction's plain ``mask``, for the agent to act and the others."""
    top = variants.get(name).max_players
    players = min(3, top) if top else 3
    abstractions = ["default", "pot-fractions", "fixed-limit", "raise-to"]
    rng = random.Random(name)
    total = 0
    for k, actions in enumerate(abstractions):
        env = raw_env(name, players, stack=40, actions=actions, hands=2, seed=k)
        enc = env.encoder
        assert isinstance(enc, Planes)
        for _episode in range(3):
            env.reset()
            steps = 0
            while env.agents and steps < 60:
                game = env.game
                assert game is not None
                for agent in env.possible_agents:
                    seat = env.possible_agents.index(agent)
                    obs = env.observe(agent)
                    cold = Planes(game, stack=enc.stack, max_raises=enc.max_raises).encode(game, seat)
                    assert np.array_equal(obs["observation"], cold), (name, actions, agent, len(game.events))
                    plain = env.actions.mask(game) if agent == env.agent_selection and game.to_act == seat else (
                        np.zeros(env.actions.n, np.int8))
                    if env.terminations.get(agent, True):
                        plain = np.zeros(env.actions.n, np.int8)
                    assert np.array_equal(obs["action_mask"], plain), (name, actions, agent, len(game.events))
                agent = env.agent_selection
                if env.terminations[agent] or env.truncations[agent]:
                    env.step(None)
                    continue
                legal = np.flatnonzero(env.observe(agent)["action_mask"]).tolist()
                env.step(rng.choice(legal))
                steps += 1
            total += steps
    assert total >= 30, total  # hands played through, not a decision or two


def test_the_wrappers_one_step_reads_are_the_environments_and_refused_before_reset() -> None:
    """agents, terminations and the like read through the PettingZoo wrapper in one step: before the
    first reset they raise PettingZoo's AttributeError, after it they are the raw environment's own."""
    wrapped = env("leduc hold'em")
    names = ("agents", "agent_selection", "terminations", "truncations", "rewards", "infos")
    for name in names:
        with pytest.raises(AttributeError, match="before reset"):
            getattr(wrapped, name)
    wrapped.reset(seed=2)
    for name in names:
        assert getattr(wrapped, name) is getattr(wrapped.unwrapped, name)
    wrapped.step(1)
    assert wrapped.agent_selection == wrapped.unwrapped.agent_selection


@pytest.mark.parametrize(("name", "actions", "observation"), [
    ("NT", "default", "planes"), ("NT", "raise-to", "rlcard"), ("FT", "fixed-limit", "rlcard"),
    ("leduc hold'em", "default", "rlcard"), ("F2L3D", "default", "planes"), ("F7S", "pot-fractions", "infostate"),
])
def test_the_vectors_rows_equal_the_plain_encoding_and_mask(name: str, actions: str, observation: str) -> None:
    """A vector environment writes each table's observation through a memoryview kept for its row and
    copies a betting mask kept by its key: every row equals a fresh encoder's vector and the
    abstraction's plain mask of that table's game, step after step, across episodes."""
    from cardgame.rl.observe import encoder
    from cardgame.rl.vector import VectorEnv

    vec = VectorEnv(name, 4, opponents="random", actions=actions, observation=observation, dict_obs=False,
                    copy=False, stack=60)
    obs, _ = vec.reset(seed=3)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(40):
        masks = vec.action_masks()
        for i, table in enumerate(vec.envs):
            game = table.aec.game
            assert game is not None
            fresh = encoder(observation, game, **({"max_chips": 120} if observation == "rlcard" and name == "NT"
                                                  else {} if observation == "rlcard" else {"stack": 60}))
            assert np.array_equal(obs[i], fresh.encode(game, table.seat)), (name, i, len(game.events))
            assert np.array_equal(masks[i], vec.actions.mask(game)), (name, i, len(game.events))
        obs, _, terminations, _, _ = vec.step([int(rng.choice(np.flatnonzero(row))) for row in masks])
        ended += int(terminations.sum())
    assert ended >= 4


@pytest.mark.parametrize("name", ["NT", "leduc hold'em", "F2L3D", "F7S", "FO/8"])
@pytest.mark.parametrize("pattern", ["every step", "to act only", "random seats", "copies and resets"])
def test_planes_read_only_new_events_under_any_pattern_of_observations(name: str, pattern: str) -> None:
    """The planes keep one reading of the hand's history for every seat and read only the events logged
    since their last observation of that hand, whichever seat's: observing every seat at every step, only
    the seat to act, random seats at random steps (steps skipped), or a copy of the environment (which
    shares the encoder) in turn with the original and resets in the middle of a hand, each observation
    equals a fresh encoder's."""
    players = 3 if name != "leduc hold'em" else 2
    env = raw_env(name, players, stack=50, hands=2, seed=7)
    enc = env.encoder
    assert isinstance(enc, Planes)
    rng = random.Random(f"{name} {pattern}")

    def check(e: raw_env, agent: str) -> None:
        game = e.game
        assert game is not None
        seat = e.possible_agents.index(agent)
        cold = Planes(game, stack=enc.stack, max_raises=enc.max_raises).encode(game, seat)
        assert np.array_equal(e.observe(agent)["observation"], cold), (name, pattern, agent, len(game.events))

    checked = 0
    for _episode in range(4):
        env.reset()
        other: raw_env | None = None
        while env.agents:
            agent = env.agent_selection
            if pattern == "every step":
                for a in env.possible_agents:
                    check(env, a)
                    checked += 1
            elif pattern == "to act only" or rng.random() < 0.5:
                check(env, agent)
                checked += 1
            if pattern == "random seats" and rng.random() < 0.3:
                check(env, rng.choice(env.possible_agents))
                checked += 1
            if pattern == "copies and resets":
                if other is None or rng.random() < 0.3:
                    other = env.copy()
                if other.agents:  # the copy steps on its own, observed in turn with the original
                    check(other, other.agent_selection)
                    a = other.agent_selection
                    if other.terminations[a] or other.truncations[a]:
                        other.step(None)
                    else:
                        other.step(rng.choice(np.flatnonzero(other.observe(a)["action_mask"]).tolist()))
                    checked += 1
                if rng.random() < 0.05:
                    env.reset()  # in the middle of a hand
                    continue
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"]).tolist()))
    assert checked >= 20, checked


def test_observe_hands_out_a_vector_of_its_own_and_a_failed_write_leaves_none_behind() -> None:
    """The environment writes every observation through one kept vector and hands out a copy: a vector
    handed out is the caller's (later observations, of either seat, do not change it; changing it does
    not change them), and an encoder failing half-way leaves the kept vector at zeros for the next."""
    env = raw_env("leduc hold'em", seed=3)
    env.reset()
    first = env.observe("player_0")["observation"]
    kept = first.copy()
    assert kept.any()
    env.observe("player_1")
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert np.array_equal(first, kept)
    first[:] = 7.0
    game = env.game
    assert game is not None
    fresh = Planes(game, stack=env.encoder.stack)  # type: ignore[attr-defined]
    assert np.array_equal(env.observe("player_0")["observation"], fresh.encode(game, 0))
    write = env._write

    def failing(game: Game, seat: int, w: object) -> None:
        write(game, seat, w)
        raise RuntimeError("half-way")

    env._write = failing
    with pytest.raises(RuntimeError, match="half-way"):
        env.observe("player_1")
    env._write = write
    assert np.array_equal(env.observe("player_0")["observation"], fresh.encode(game, 0))
    assert np.array_equal(env.observe("player_1")["observation"], fresh.encode(game, 1))
