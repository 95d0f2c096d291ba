"""Every variant is a Gymnasium id: ``gymnasium.make("cardgame/NT-v0", ...)`` is the single-agent
environment, registered when ``cardgame.rl`` is imported; bad options are the library's error."""

from __future__ import annotations

import subprocess
import sys
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.envs.registration import ENV_ID_RE
from gymnasium.utils.env_checker import check_env

import cardgame.rl
import variants
from cardgame.model.errors import ConfigError
from cardgame.rl.gym import SingleAgentEnv, gym_id, register
from tests.conftest import REPO

IDS = register()


def test_every_variant_has_one_valid_id() -> None:
    assert len(IDS) == len(set(IDS)) == len(variants.available())
    assert all(ENV_ID_RE.fullmatch(i) for i in IDS)
    assert {"cardgame/NT-v0", "cardgame/leduc-holdem-v0", "cardgame/FO-8-v0", "cardgame/five-card-draw-v0"} <= set(IDS)
    assert gym_id(variants.get("two-player kuhn poker")) == "cardgame/two-player-kuhn-poker-v0"


@pytest.mark.parametrize("env_id", IDS)
def test_make_plays_an_episode_to_its_end(env_id: str) -> None:
    e = gymnasium.make(env_id, opponents="random")
    assert isinstance(e.unwrapped, SingleAgentEnv)
    assert e.unwrapped.aec.variant.name == next(v.name for v in variants.available() if gym_id(v) == env_id)
    obs, _ = e.reset(seed=7)
    rng = np.random.default_rng(7)
    for _ in range(500):
        obs, _, terminated, truncated, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        if terminated or truncated:
            break
    assert terminated
    e.close()


def test_make_passes_keyword_arguments_through() -> None:
    e = gymnasium.make("cardgame/NT-v0", players=3, opponents="random", seat=2, reward="bb")
    inner = e.unwrapped
    assert (len(inner.aec.possible_agents), inner.seat, inner.aec.reward_unit) == (3, 2, "bb")


@pytest.mark.parametrize("env_id", ["cardgame/NT-v0", "cardgame/leduc-holdem-v0", "cardgame/F2L3D-v0"])
def test_gymnasium_check_env_passes_on_made_environments(env_id: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make(env_id, illegal="passive", opponents="random").unwrapped)


def test_bad_options_are_the_librarys_error() -> None:
    with pytest.raises(ConfigError, match=r"Unknown option 'player'.*seat, opponents, players, illegal, stack"):
        gymnasium.make("cardgame/NT-v0", player=3)
    with pytest.raises(ConfigError, match="players of Leduc hold'em must be a whole number from 2 to 10"):
        gymnasium.make("cardgame/leduc-holdem-v0", players=11)
    with pytest.raises(ConfigError, match="Unknown option"):
        SingleAgentEnv("NT", stacks=100)
    with pytest.raises(ConfigError, match=r"Unknown option 'x+'\.\.\. \(1,000,000 characters\)"):
        gymnasium.make("cardgame/NT-v0", **{"x" * 10**6: 1})
    with pytest.raises(ConfigError, match=r"Unknown option 'stacks'; the environment takes: players, stack"):
        cardgame.rl.env("NT", stacks=100)
    with pytest.raises(gymnasium.error.Error):
        gymnasium.make("cardgame/no-such-game-v0")


def test_make_vec_steps_tables_of_a_registered_id() -> None:
    vec = gymnasium.make_vec("cardgame/leduc-holdem-v0", num_envs=2, opponents="random")
    obs, _ = vec.reset(seed=3)
    assert obs["observation"].shape == (2, 56)
    vec.step(np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]))
    vec.close()


def test_a_fresh_interpreter_makes_an_id_by_naming_the_module() -> None:
    code = ("import gymnasium; e = gymnasium.make('cardgame.rl:cardgame/leduc-holdem-v0'); e.reset(seed=1); "
            "print(type(e.unwrapped).__name__)")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=False,
                         timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "SingleAgentEnv"
