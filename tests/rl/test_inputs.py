"""The learning environments as an input boundary: calls before ``reset``, bad actions, huge and odd
arguments, a refused vector batch, and seeds drawn from the operating system and reported for replay."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from cardgame.model.errors import CardError, CardgameError, ConfigError, IllegalActionError
from cardgame.model.inputs import excerpt
from cardgame.rl import env, raw_env
from cardgame.rl.actions import Move, send
from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.observe import encoder
from cardgame.rl.vector import VectorEnv

HUGE = 10**5000


def _started() -> Any:
    e = raw_env("NT")
    e.reset(seed=1)
    return e.game


def state(e: Any) -> tuple[int, list[int], str]:
    """What a refused call must leave as it was: the events, the stacks, the agent to act."""
    game = e.game if hasattr(e, "game") else e.unwrapped.game
    return len(game.events), [p.stack for p in game.table.players()], e.agent_selection


@pytest.mark.parametrize("call", [
    lambda: raw_env("NT").step(1),
    lambda: raw_env("NT").observe("player_0"),
    lambda: raw_env("NT").last(),
    lambda: raw_env("NT").table_stacks(),
    lambda: env("NT").step(1),
    lambda: env("NT").observe("player_0"),
    lambda: env("NT").last(),
    lambda: SingleAgentEnv("NT").step(1),
    lambda: SingleAgentEnv("NT").action_masks(),
    lambda: VectorEnv("NT", 2).step([1, 1]),
    lambda: VectorEnv("NT", 2).action_masks(),
], ids=["raw step", "raw observe", "raw last", "raw table_stacks", "env step", "env observe", "env last",
        "gym step", "gym action_masks", "vector step", "vector action_masks"])
def test_calls_before_reset_raise_the_librarys_error(call: Callable[[], object]) -> None:
    with pytest.raises(IllegalActionError, match=r"call reset\(\) first"):
        call()


def test_a_bool_is_not_an_action_and_numpy_integers_are() -> None:
    e = env("NT")
    e.reset(seed=1)
    before = state(e)
    with pytest.raises(IllegalActionError, match="not True"):
        e.step(True)
    assert state(e) == before
    e.step(np.int64(1))
    assert state(e) != before
    gym = SingleAgentEnv("NT", opponents="calling-station")
    gym.reset(seed=1)
    with pytest.raises(IllegalActionError, match=r"not np\.True_"):
        gym.step(np.True_)
    gym.step(np.int32(1))


@pytest.mark.parametrize("action", [HUGE, -HUGE, -1, 5, 1.0, float("nan"), "1", b"1", None, [1], np.array([1, 2]),
                                    np.float64(1.0), {1: 1}], ids=excerpt)
def test_odd_actions_are_refused_naming_the_legal_ones(action: object) -> None:
    e = env("NT")
    e.reset(seed=2)
    before = state(e)
    with pytest.raises(IllegalActionError, match=r"legal now: .*1 \(check/call\)") as caught:
        e.step(action)
    assert len(str(caught.value)) < 500
    assert state(e) == before
    e.step(1)  # still playable


def test_a_finished_agent_steps_none_only() -> None:
    e = raw_env("kuhn poker")
    e.reset(seed=3)
    e.step(2)  # a bet
    e.step(0)  # a fold ends the hand: every agent is done
    assert all(e.terminations.values())
    with pytest.raises(IllegalActionError, match="only action is None, not 1"):
        e.step(1)
    while e.agents:
        e.step(None)
    with pytest.raises(IllegalActionError, match="episode is over"):
        e.step(None)


@pytest.mark.parametrize(("make", "error", "words"), [
    (lambda: raw_env("NT", players=-HUGE), ConfigError, "players"),
    (lambda: raw_env("NT", players=True), ConfigError, "players"),
    (lambda: raw_env("NT", stack=-HUGE), ConfigError, "stack"),
    (lambda: raw_env("NT", stack=[HUGE, 1]), ConfigError, "stack"),
    (lambda: raw_env("NT", hands=HUGE), ConfigError, "hands"),
    (lambda: raw_env("NT", seed=-HUGE), ConfigError, "seed"),
    (lambda: raw_env("NT", seed=2**128), ConfigError, "seed"),
    (lambda: raw_env("NT", button=-HUGE), ConfigError, "button"),
    (lambda: raw_env("NT", reward=["chips"]), ConfigError, "reward"),
    (lambda: raw_env("NT", reward=np.array(["chips", "bb"])), ConfigError, "reward"),
    (lambda: raw_env("NT", params={1: 2}), ConfigError, "params"),
    (lambda: raw_env("NT", observation_options={("stack",): 1}), ConfigError, "observation_options"),
    (lambda: raw_env("x" * 10**6), ConfigError, "variant"),
    (lambda: raw_env("NT", actions="x" * 10**6), ConfigError, "actions"),
    (lambda: SingleAgentEnv("NT", seat=-HUGE), ConfigError, "seat"),
    (lambda: SingleAgentEnv("NT", opponents=["x"] * 10**5), ConfigError, "opponents"),
    (lambda: SingleAgentEnv("NT", illegal="x" * 10**6), ConfigError, "illegal"),
    (lambda: SingleAgentEnv("NT").reset(seed=-HUGE), ConfigError, "seed"),
    (lambda: VectorEnv("NT", -HUGE), ConfigError, "num_envs"),
    (lambda: VectorEnv("NT", HUGE), ConfigError, "num_envs"),
    (lambda: VectorEnv("NT", 2).reset(seed=HUGE), ConfigError, "seed"),
    (lambda: VectorEnv("NT", 2).reset(seed=2**128 - 1), ConfigError, "seed"),
    (lambda: raw_env("NT").reset(options={"cards": [HUGE]}), CardError, "card index"),
    (lambda: raw_env("NT").reset(options={"cards": "Ah" * 10**6}), CardError, "characters"),
    (lambda: raw_env("NT").reset(options={"cards": list(range(10**6))}), ConfigError, "at most 52"),
    (lambda: raw_env("NT").reset(seed=HUGE), ConfigError, "seed"),
    (lambda: raw_env("\U0001239a" * 20), ConfigError, "printable ASCII"),
    (lambda: SingleAgentEnv("NT", opponents="x" * 10**5), ConfigError, "bot name"),
    (lambda: VectorEnv("NT", 2, opponents=["x" * 10**5]), ConfigError, "bot name"),
    (lambda: send(_started(), [1] * 10**5, Move("act", "call")), IllegalActionError,
     "seat"),
    (lambda: encoder("planes", _started()).block(np.array([1, 2])), ConfigError, "No block"),
], ids=lambda x: x if isinstance(x, str) else "")
def test_huge_and_odd_arguments_are_refused_briefly(make: Callable[[], object], error: type[CardgameError],
                                                    words: str) -> None:
    with pytest.raises(error, match=words) as caught:
        make()
    assert len(str(caught.value)) < 500


def test_a_refused_reset_changes_nothing() -> None:
    e = raw_env("NT", seed=5)
    e.reset()
    before = state(e), e.seed_used
    with pytest.raises(CardError):
        e.reset(options={"cards": [HUGE]})
    with pytest.raises(ConfigError):
        e.reset(seed=-1)
    assert (state(e), e.seed_used) == before
    e.reset()
    replay = raw_env("NT", seed=5)
    replay.reset()
    replay.reset()
    assert (replay.seed_used, replay.observe("player_0")["observation"].tolist()) == (
        e.seed_used, e.observe("player_0")["observation"].tolist())


def test_a_refused_vector_batch_moves_no_table() -> None:
    vec = VectorEnv("NT", 3, opponents="calling-station", dict_obs=False)
    vec.reset(seed=7)
    masks = vec.action_masks()
    legal = [int(np.flatnonzero(row)[-1]) for row in masks]
    before = [(len(t.aec.game.events), t.aec.table_stacks()) for t in vec.envs]
    assert masks[2, 0] == 0  # (checking is free: folding is masked)
    for bad in ([legal[0], legal[1], 99], [legal[0], True, legal[2]], [legal[0], legal[1], 1.5],
                [legal[0], legal[1], 0]):
        with pytest.raises(IllegalActionError, match=r"Table [12]: .*No table moved") as caught:
            vec.step(bad)
        assert len(str(caught.value)) < 500
        assert [(len(t.aec.game.events), t.aec.table_stacks()) for t in vec.envs] == before
    for wrong in (legal[:2], np.array(1), np.array([legal]), "12", {0: 1, 1: 1, 2: 1}):
        with pytest.raises(ConfigError, match="one action index per table"):
            vec.step(wrong)
    vec.step(np.array(legal, np.int64))
    assert [len(t.aec.game.events) for t in vec.envs] != [b[0] for b in before]


def test_a_vector_batch_is_checked_against_the_masks_it_gave_not_the_callers_copy() -> None:
    # The step checks each action against the masks of the observations it returned, before any table moves;
    # with copy=False the caller holds the mask array itself, and marking an index in it legalises nothing.
    vec = VectorEnv("NT", 3, opponents="calling-station", dict_obs=False, copy=False)
    vec.reset(seed=7)
    masks = vec.action_masks()
    before = [len(t.aec.game.events) for t in vec.envs]
    masks[2, 0] = 1  # (folding is masked at table 2: checking is free)
    with pytest.raises(IllegalActionError, match=r"Table 2: .*No table moved"):
        vec.step([1, 1, 0])
    assert [len(t.aec.game.events) for t in vec.envs] == before


def test_passive_play_replaces_what_is_not_a_legal_index() -> None:
    e = SingleAgentEnv("NT", opponents="calling-station", illegal="passive")
    e.reset(seed=8)
    for junk in (True, "raise", None, HUGE, 2.5):
        info = e.step(junk)[4]
        assert info == {"illegal": True}
        if e._done:
            e.reset()


def observations(e: Any, steps: int) -> list[list[float]]:
    """The first observation of ``steps`` episodes of the AEC environment ``e``, each after a seedless reset."""
    out = []
    for _ in range(steps):
        e.reset()
        out.append(e.observe(e.agent_selection)["observation"].tolist())
    return out


def test_a_seedless_reset_draws_128_bits_from_the_system_and_reports_them() -> None:
    a, b = raw_env("NT"), raw_env("NT")
    assert a.seed_used is None
    first = observations(a, 1)
    b.reset()
    assert a.seed_used is not None and b.seed_used is not None and a.seed_used != b.seed_used
    assert max(a.seed_used, b.seed_used) >= 2**64  # 128 bits drawn (both below 2**64: odds 2**-128)
    seeds = [a.seed_used]
    later = observations(a, 3)
    seeds += [a.seed_used]
    replay = raw_env("NT")
    replay.reset(seed=seeds[0])  # the run's first seed replays the whole run
    assert [replay.observe(replay.agent_selection)["observation"].tolist()] == first
    assert observations(replay, 3) == later and replay.seed_used == seeds[1]
    single = raw_env("NT")
    single.reset(seed=seeds[1])  # an episode's own seed deals it again
    assert single.observe(single.agent_selection)["observation"].tolist() == later[-1]


def test_gym_and_vector_seeds_replay_their_episodes() -> None:
    gym = SingleAgentEnv("NT", opponents="random")
    obs, _ = gym.reset()
    seed = gym.seed_used
    assert seed is not None
    again = SingleAgentEnv("NT", opponents="random")
    assert again.reset(seed=seed)[0]["observation"].tolist() == obs["observation"].tolist()
    vec = VectorEnv("NT", 2, opponents="random", dict_obs=False)
    rows = vec.reset()[0]
    seeds = vec.seeds_used
    assert None not in seeds and seeds[0] != seeds[1]
    for i, s in enumerate(seeds):
        lone = SingleAgentEnv("NT", opponents="random")
        assert lone.reset(seed=s)[0]["observation"].tolist() == rows[i].tolist()


def test_deeply_nested_and_array_arguments_get_the_librarys_error() -> None:
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    e = raw_env("NT")
    e.reset(seed=9)
    with pytest.raises(IllegalActionError) as refused:  # repr itself fails on such nesting: an excerpt does not
        e.step(nested)
    assert len(str(refused.value)) < 500 and "[[[" in str(refused.value)
    with pytest.raises(ConfigError, match=r"players .*not array\(\[2, 3\]\)"):  # numpy refuses __index__
        raw_env("NT", players=np.array([2, 3]))
    with pytest.raises(ConfigError, match="stack"):
        raw_env("NT", stack=np.array([[100, 100]]))


def test_vector_seeds_may_be_numpy_integers_or_an_array_of_one_per_table() -> None:
    vec = VectorEnv("kuhn poker", 2, opponents="random", dict_obs=False)
    rows = vec.reset(seed=np.int64(4))[0]
    assert vec.seeds_used == [4, 5]
    assert vec.reset(seed=np.array([4, 5]))[0].tolist() == rows.tolist()
    with pytest.raises(ConfigError, match="seed of each table"):
        vec.reset(seed=np.array([4, -5]))


def test_an_action_abstraction_with_no_action_is_refused() -> None:
    """The base class alone has no labels: a space of no action is the library's error, not gymnasium's."""
    from cardgame.rl.actions import ActionAbstraction

    with pytest.raises(ConfigError, match="has no action"):
        ActionAbstraction()
