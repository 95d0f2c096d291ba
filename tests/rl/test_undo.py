"""Undo: raw_env.undo() and SpielState.undo_action() take back the last action exactly (observations,
masks, rewards, terminations, chips, the hand), as OpenSpiel's undo_action; nothing to undo is refused."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import cardgame.rl
from cardgame.model.errors import IllegalActionError
from cardgame.rl import raw_env
from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.spiel import CHANCE, load_game


def _everything(env: raw_env) -> Any:
    """All an agent, a trainer or a watcher can read of the environment now."""
    assert env.game is not None
    seen = {a: {k: v.tolist() for k, v in env.observe(a).items()} for a in env.possible_agents}
    return (seen, dict(env.rewards), dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations),
            {a: dict(i) for a, i in env.infos.items()}, env.agent_selection, list(env.agents), env.table_stacks(),
            env.game.status(reveal=True), [e.describe({}) for e in env.game.events], env.seed_used)


def _legal(env: raw_env, rng: random.Random) -> int | None:
    agent = env.agent_selection
    if env.terminations[agent] or env.truncations[agent]:
        return None
    return int(rng.choice(np.flatnonzero(env.observe(agent)["action_mask"])))


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("NT", 3, {"hands": 3, "stack": 40}),
    ("leduc hold'em", 3, {}),
    ("2-7 triple draw", 2, {"actions": "fixed-limit"}),
    ("FO/8", 2, {"hands": 2}),
    ("two-player kuhn poker", 2, {"hands": 4}),
])
def test_step_then_undo_gives_back_the_same_environment(variant: str, players: int, options: dict[str, Any]) -> None:
    rng = random.Random(variant)
    for episode in range(8):
        env = raw_env(variant, players, seed=episode, **options)
        env.reset(options={"cards": None} if episode else None)
        trail = [_everything(env)]
        while env.agents:
            action = _legal(env, rng)
            env.step(action)
            if rng.random() < 0.4:  # take it back: everything is as before; then play on (another choice maybe)
                env.undo()
                assert _everything(env) == trail[-1]
                env.step(_legal(env, rng))
            trail.append(_everything(env))
        while len(trail) > 1 and rng.random() < 0.5:  # back over the end of the episode, and several steps
            env.undo()
            trail.pop()
            assert _everything(env) == trail[-1]


def test_undo_takes_back_chosen_cards_and_a_copys_steps_alone() -> None:
    env = raw_env("leduc hold'em", seed=3, button=1)
    env.reset(options={"cards": "Ks Jh Kh"})
    env.step(2)
    twin = env.copy()
    env.step(1)  # the call deals the board: the king
    assert env.game is not None and [str(c) for c in env.game.hand.board] == ["Kh"]  # type: ignore[union-attr]
    env.undo()
    assert env.game.hand is not None and not env.game.hand.board and env.agent_selection == "player_1"
    twin.undo()  # the copy keeps its own record
    assert twin.agent_selection == "player_0" and twin.observe("player_0")["action_mask"].tolist() == [0, 1, 1]
    env.undo()
    assert _everything(env) == _everything(twin)


def test_nothing_to_undo_is_refused_and_changes_nothing() -> None:
    env = raw_env("NT", seed=1)
    with pytest.raises(IllegalActionError, match="reset"):
        env.undo()
    env.reset()
    before = _everything(env)
    with pytest.raises(IllegalActionError, match="Nothing to undo: no step since reset"):
        env.undo()
    assert _everything(env) == before
    env.step(1)
    env.undo()
    with pytest.raises(IllegalActionError, match="Nothing to undo"):
        env.undo()
    wrapped = cardgame.rl.env("NT", seed=1)
    with pytest.raises(IllegalActionError, match="reset"):
        wrapped.undo()
    wrapped.reset()
    wrapped.step(1)
    wrapped.undo()
    learner = SingleAgentEnv("NT", seat=1, opponents="calling-station", seed=2)
    learner.reset()  # the bot in seat 0 answered first
    with pytest.raises(IllegalActionError, match="A bot answered in this episode"):
        learner.aec.undo()


def test_spiel_undo_action_is_pyspiels() -> None:
    rng = random.Random(5)
    game = load_game("leduc_poker", players=3)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            before = (state.history(), state.current_player(), state.legal_actions(), str(state), state.returns())
            player = CHANCE if state.is_chance_node() else state.current_player()
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            if rng.random() < 0.5:
                state.undo_action(player, action)
                assert (state.history(), state.current_player(), state.legal_actions(), str(state),
                        state.returns()) == before
                state.apply_action(action)
        with pytest.raises(IllegalActionError, match="The last action is"):
            state.undo_action(player, action + 1)
        with pytest.raises(IllegalActionError, match="The last action is"):
            state.undo_action((player + 1) % 3, action)
    with pytest.raises(IllegalActionError, match="Nothing to undo"):
        game.new_initial_state().undo_action(CHANCE, 0)
    state = game.new_initial_state()
    state.apply_action(0)
    for bad in (True, "0", 10**40, -5):
        with pytest.raises(IllegalActionError):
            state.undo_action(bad, 0)  # type: ignore[arg-type]
    state.undo_action(CHANCE, 0)
    assert state.history() == [] and state.is_chance_node()
