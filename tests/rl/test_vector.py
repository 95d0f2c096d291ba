"""Vectorised play: the vector environment plays each table exactly as a lone SingleAgentEnv with the
same seed would, in arrays; collect gives the same trajectories on any backend and workers."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.vector import Policy, Trajectories, VectorEnv, collect, uniform


def choose(masks: np.ndarray, rng: np.random.Generator) -> list[int]:
    return [int(rng.choice(np.flatnonzero(row))) for row in masks]


@pytest.mark.parametrize(("variant", "options"), [
    ("NT", {"observation": "rlcard", "opponents": "seed-ai"}),
    ("F2L3D", {"players": 3, "opponents": ["random", "calling-station"], "hands": 2}),
])
def test_each_table_plays_as_a_lone_environment_with_its_seed(variant: str, options: dict[str, object]) -> None:
    n, seed, steps = 3, 40, 40
    vec = VectorEnv(variant, n, dict_obs=False, **options)  # type: ignore[arg-type]
    lone = [SingleAgentEnv(variant, **options) for _ in range(n)]  # type: ignore[arg-type]
    obs, infos = vec.reset(seed=seed)
    first = [e.reset(seed=seed + i) for i, e in enumerate(lone)]
    assert np.array_equal(obs, np.stack([o["observation"] for o, _ in first]))
    assert list(infos["skipped"]) == [info["skipped"] for _, info in first]
    masks = np.stack([o["action_mask"] for o, _ in first])
    rng = np.random.default_rng(1)
    ended = 0
    for _ in range(steps):
        assert np.array_equal(vec.action_masks(), masks)
        actions = choose(masks, rng)
        obs, rewards, terminations, truncations, _ = vec.step(np.array(actions))
        assert obs.shape == (n, vec.encoder.space.shape[0]) and obs.dtype == np.float32
        assert not truncations.any()
        rows = []
        for i, (e, a) in enumerate(zip(lone, actions, strict=True)):
            o, r, done, _, _ = e.step(a)
            assert (rewards[i], terminations[i]) == (r, done)
            if done:
                ended += 1
                o, _ = e.reset()
            rows.append(o)
        assert np.array_equal(obs, np.stack([o["observation"] for o in rows]))
        masks = np.stack([o["action_mask"] for o in rows])
    assert ended >= 3


def test_spaces_hold_what_it_returns_and_arrays_are_reused_without_copy() -> None:
    vec = VectorEnv("leduc hold'em", 4, opponents="random", copy=False)
    assert vec.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    obs, _ = vec.reset(seed=0)
    assert vec.observation_space.contains(obs)
    assert obs["observation"].shape == (4, vec.encoder.space.shape[0])
    assert obs["action_mask"].shape == (4, vec.actions.n)
    step = vec.step(vec.action_space.sample(mask=tuple(m.astype(np.int8) for m in obs["action_mask"])))
    again = vec.step(choose(step[0]["action_mask"], np.random.default_rng(0)))
    assert again[0]["observation"] is obs["observation"] and again[1] is step[1]  # written in place
    assert vec.observation_space.contains(again[0])
    copied = VectorEnv("leduc hold'em", 2, opponents="random")
    a, _ = copied.reset(seed=0)
    b = copied.step(choose(a["action_mask"], np.random.default_rng(0)))[0]
    assert b["observation"] is not a["observation"]
    assert copied.render()[0].strip() and len(copied.render()) == 2


def test_gymnasiums_episode_statistics_wrapper_counts_every_episode() -> None:
    vec = RecordEpisodeStatistics(VectorEnv("kuhn poker", 4, opponents="random", dict_obs=False))
    vec.reset(seed=3)
    finished = 0
    rng = np.random.default_rng(0)
    for _ in range(30):
        _, _, terminations, _, infos = vec.step(choose(vec.unwrapped.action_masks(), rng))
        finished += int(terminations.sum())
        if terminations.any():
            assert set(np.flatnonzero(infos["_episode"])) == set(np.flatnonzero(terminations))
    assert finished >= 10 and len(vec.return_queue) == min(finished, 100)


def test_passive_tables_say_which_index_they_replaced() -> None:
    vec = VectorEnv("NT", 2, opponents="calling-station", illegal="passive", dict_obs=False)
    vec.reset(seed=1)
    masks = vec.action_masks()
    bad = [int(np.flatnonzero(masks[0] == 0)[0]) if (masks[0] == 0).any() else 99, int(np.flatnonzero(masks[1])[0])]
    infos = vec.step(bad)[4]
    assert list(infos["_illegal"]) == [True, False]


@pytest.mark.parametrize(("make", "message"), [
    (lambda: VectorEnv("NT", 0), "num_envs"),
    (lambda: VectorEnv("NT", 2, dict_obs="no"), "dict_obs"),
    (lambda: VectorEnv("NT", 2, render_mode="ansi"), "render"),
    (lambda: VectorEnv("NT", 2).reset(seed=[1]), "one per table"),
])
def test_bad_settings_are_refused(make: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        make()  # type: ignore[operator]


def test_a_step_needs_one_action_per_table_and_leaves_them_unchanged() -> None:
    vec = VectorEnv("NT", 2, opponents="random", dict_obs=False)
    obs, _ = vec.reset(seed=5)
    with pytest.raises(ConfigError, match="one action index per table"):
        vec.step([1])
    assert np.array_equal(vec.reset(seed=5)[0], obs)


def test_a_table_whose_episode_was_ended_by_hand_is_refused_before_any_table_moves() -> None:
    """The batch is checked before any table moves, a table's episode included: one played to its end
    through ``envs[i]`` between steps is refused up front (its mask of the step before still marks the
    index), naming the table, and the other tables, played after it or before, do not move."""
    vec = VectorEnv("leduc hold'em", 3, opponents="random", dict_obs=False)
    vec.reset(seed=7)
    table = vec.envs[1]
    rng = np.random.default_rng(2)
    mask = vec.action_masks()[1]
    done = False
    while not done:
        obs, _, done, _, _ = table.step(int(rng.choice(np.flatnonzero(mask))))
        mask = obs["action_mask"]
    games = [t.aec.game for t in vec.envs]
    before = [len(g.events) if g is not None else 0 for g in games]
    with pytest.raises(IllegalActionError, match=r"Table 1: .*episode is over.* No table moved"):
        vec.step(choose(vec.action_masks(), rng))
    assert [len(g.events) if g is not None else 0 for g in games] == before
    assert [t.aec.game for t in vec.envs] == games


# --- collect ---------------------------------------------------------------------------------------------
def check(t: Trajectories, players: int) -> None:
    """Every row's action is legal for its mask; each seat's rewards in an episode add up to its return,
    paid at or before its last decision; chips are conserved in every episode."""
    assert len(t) > 0
    assert t.masks[np.arange(len(t)), t.actions].all()
    for e in np.unique(t.episodes):
        rows = t.episodes == e
        net = dict.fromkeys(range(players), 0.0)
        for s in np.unique(t.seats[rows]):
            mine = rows & (t.seats == s)
            assert t.rewards[mine].sum() == pytest.approx(t.returns[mine][0])
            assert t.dones[mine].sum() == 1 and t.dones[np.flatnonzero(mine)[-1]]
            net[int(s)] = float(t.returns[mine][0])
        if len(net) == players and all(np.any(rows & (t.seats == s)) for s in range(players)):
            assert sum(net.values()) == pytest.approx(0.0)


def test_collect_records_bots_and_policies_and_is_the_same_on_any_workers() -> None:
    args = ("NT", ["seed-ai", Policy(uniform)], 24)
    serial = collect(*args, seed=7, shard_episodes=6, observation="rlcard")
    check(serial, 2)
    assert set(np.unique(serial.episodes)) <= set(range(24)) and serial.observations.shape[1] == 54
    spread = collect(*args, seed=7, shard_episodes=6, observation="rlcard", workers=2, backend="process")
    for name in ("observations", "masks", "actions", "rewards", "returns", "dones", "seats", "episodes"):
        assert np.array_equal(getattr(serial, name), getattr(spread, name)), name
    other = collect(*args, seed=8, shard_episodes=6, observation="rlcard")
    assert not np.array_equal(other.actions[:50], serial.actions[:50])


def test_collect_a_draw_game_with_bots_only() -> None:
    t = collect("F2L3D", ["random", "calling-station", "seed-ai"], 6, seed=2, hands=2)
    check(t, 3)
    assert t.observations.dtype == np.float32 and t.actions.dtype == np.int64


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_collect_on_ray_is_the_same() -> None:  # pragma: no cover - Ray is optional
    import ray

    a = collect("kuhn poker", ["random", Policy(uniform)], 12, seed=1, shard_episodes=4)
    try:
        b = collect("kuhn poker", ["random", Policy(uniform)], 12, seed=1, shard_episodes=4, workers=2, backend="ray")
    finally:
        ray.shutdown()  # collect started a local cluster: the next test starts its own
    assert np.array_equal(a.observations, b.observations) and np.array_equal(a.actions, b.actions)


@pytest.mark.parametrize(("call", "message"), [
    (lambda: collect("NT", ["nobody", "random"], 2), "Unknown bot"),
    (lambda: collect("NT", "random", 2), "players"),
    (lambda: collect("NT", ["random", "random"], 0), "episodes"),
    (lambda: collect("NT", ["random", "random"], 2, seed=3, render_mode="ansi"), "render_mode"),
    (lambda: collect("NT", ["random", "random"], 2, reward="dollars"), "reward"),
    (lambda: collect("NT", ["random", Policy(lambda o, m, r: 1)], 2, workers=2), "pickled"),
    (lambda: Policy(3), "Policy"),  # type: ignore[arg-type]
])
def test_collect_refuses_bad_input(call: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        call()  # type: ignore[operator]
