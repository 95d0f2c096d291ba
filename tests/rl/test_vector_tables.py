"""The vector environment's own stepping against the readable per-table code: its rows equal a fresh
encoder's of each table's game in every family of variant, and its tables, stepped without the AEC
bookkeeping a vector does not read, are between steps exactly the lone environments' state."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.observe import Planes
from cardgame.rl.vector import VectorEnv

#: Every family of variant the planes cover: flop games, fixed and no limit, draws (single, triple,
#: badugi, pineapple's discard), stud (up cards, bring-in), hi/lo, short deck, Kuhn and Leduc.
FAMILIES: list[tuple[str, dict[str, Any]]] = [
    ("NT", {"players": 3, "stack": 40}),
    ("FT", {}),
    ("leduc hold'em", {"seat": 1}),
    ("kuhn poker", {"players": 3}),
    ("two-player kuhn poker", {}),
    ("F2L3D", {"players": 3, "hands": 2}),
    ("N2L1D", {}),
    ("five-card draw", {"stack": 30}),
    ("FB", {"seat": 1}),
    ("F7S", {"players": 3, "stack": 60}),
    ("FR", {}),
    ("F7S/8", {"hands": 3, "stack": 40}),
    ("FO/8", {"players": 3}),
    ("PO", {"stack": 50, "hands": 2}),
    ("NS", {}),
    ("pineapple", {"players": 3}),
    ("courchevel", {}),
    ("ante hold'em", {"stack": 20, "hands": 3}),
]


def choose(masks: np.ndarray, rng: np.random.Generator) -> list[int]:
    return [int(rng.choice(np.flatnonzero(row))) for row in masks]


@pytest.mark.parametrize(("variant", "options"), FAMILIES)
def test_every_tables_planes_equal_a_fresh_encoders(variant: str, options: dict[str, Any]) -> None:
    vec = VectorEnv(variant, 5, opponents="random", dict_obs=False, copy=False, **options)
    encoder = vec.encoder
    assert isinstance(encoder, Planes)
    obs, _ = vec.reset(seed=11)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(60):
        for i, table in enumerate(vec.envs):
            game = table.aec.game
            assert game is not None
            fresh = Planes(game, stack=encoder.stack, max_raises=encoder.max_raises)
            assert np.array_equal(obs[i], fresh.encode(game, table.seat)), (variant, i, len(game.events))
        obs, _, terminations, _, _ = vec.step(choose(vec.action_masks(), rng))
        ended += int(terminations.sum())
    assert ended >= 5


@pytest.mark.parametrize(("variant", "options"), [
    ("leduc hold'em", {}),
    ("F2L3D", {"players": 3, "hands": 3, "stack": 30, "reward": "bb"}),
    ("NT", {"players": 3, "hands": 2, "stack": 12, "opponents": ["random", "calling-station"]}),
    ("F7S", {"players": 3, "opponents": "seed-ai", "seat": 2}),
    ("NT", {"params": {"run_it_twice": True}, "stack": 20, "opponents": "all-in"}),
    ("NT", {"params": {"run_it_twice": True}, "stack": 20, "opponents": "all-in", "runs": "agent"}),
])
def test_between_steps_each_table_is_the_lone_environments_state(variant: str, options: dict[str, Any]) -> None:
    """What a user reads or plays through ``envs[i]`` (its AEC environment's rewards, terminations, agent,
    payouts, undo log) is after every step what a lone environment's is after the same steps."""
    n = 3
    vec = VectorEnv(variant, n, dict_obs=False, **options)
    lone = [SingleAgentEnv(variant, **options) for _ in range(n)]
    vec.reset(seed=21)
    masks = np.stack([e.reset(seed=21 + i)[0]["action_mask"] for i, e in enumerate(lone)])
    rng = np.random.default_rng(8)
    fields = ("rewards", "_cumulative_rewards", "terminations", "truncations", "agent_selection", "agents",
              "_paid", "_played", "_rewarded", "_log", "seed_used")
    ended = 0
    for _ in range(40):
        actions = choose(masks, rng)
        _, rewards, terminations, _, _ = vec.step(actions)
        rows = []
        for i, (table, e, a) in enumerate(zip(vec.envs, lone, actions, strict=True)):
            o, r, done, _, _ = e.step(a)
            assert (rewards[i], terminations[i]) == (r, done)
            if done:
                ended += 1
                o, _ = e.reset()
            rows.append(o["action_mask"])
            for name in fields:
                assert getattr(table.aec, name) == getattr(e.aec, name), (variant, i, name)
            assert (table._carried, table._done) == (e._carried, e._done)
            assert table.aec.game is not None and e.aec.game is not None
            assert table.aec.game.events == e.aec.game.events
        masks = np.stack(rows)
    assert ended >= 3



@pytest.mark.parametrize("bad", [-1, 3, 2**70, True, 1.0, "1", None, np.int64(-1), "masked"])
@pytest.mark.parametrize("as_array", [False, True])
def test_a_batch_with_one_refused_index_moves_no_table(bad: object, as_array: bool) -> None:
    """The batch is checked at once when every index is marked; any other (negative, past the space,
    huge, a bool, a float, text, masked) goes to the table-by-table check, which names the table, and
    no table moves; given as a list or as an array (where numpy can hold it)."""
    vec = VectorEnv("leduc hold'em", 4, opponents="random", dict_obs=False)
    obs, _ = vec.reset(seed=3)
    masks = vec.action_masks()
    actions: list[object] = [int(np.flatnonzero(row)[0]) for row in masks]
    actions[2] = int(np.flatnonzero(masks[2] == 0)[0]) if bad == "masked" else bad
    batch: object = actions
    if as_array:
        if bad is True:
            return  # (numpy makes [1, True] the int array [1, 1]: nothing refused is left)
        try:
            batch = np.array(actions)
        except OverflowError:
            return
    games = [t.aec.game for t in vec.envs]
    events = [len(g.events) for g in games if g is not None]
    with pytest.raises(Exception, match=r"Table 2" if not as_array else r"Table \d") as refused:
        vec.step(batch)
    assert type(refused.value).__name__ in ("IllegalActionError", "ConfigError")
    assert [t.aec.game for t in vec.envs] == games
    assert [len(g.events) for g in games if g is not None] == events
    assert np.array_equal(vec.action_masks(), masks)
    legal = [int(np.flatnonzero(row)[-1]) for row in masks]
    assert vec.step(np.array(legal, np.uint8))[0].shape == obs.shape  # and then a good batch plays
