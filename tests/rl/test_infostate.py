"""The perfect-recall information-state tensor (``observation="infostate"``): OpenSpiel's own vector
for Leduc hold'em, and in every variant two histories a seat can tell apart give it different
tensors (and histories it cannot tell apart the same one)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import cardgame.rl
import variants
from cardgame.model.errors import ConfigError
from cardgame.rl.observe import InfoState, encoder
from cardgame.rl.spiel import information_state, load_game


@pytest.mark.parametrize(("name", "size", "states"), [("leduc_poker", 30, 300)])
def test_leduc_is_openspiels_information_state_tensor(name: str, size: int, states: int) -> None:
    """Random hands of pyspiel's game and ours in lockstep (the same cards, the same actions): at
    every decision both players' tensors equal pyspiel's ``information_state_tensor``."""
    pyspiel = pytest.importorskip("pyspiel")
    ours, theirs = load_game(name), pyspiel.load_game(name)
    assert theirs.information_state_tensor_shape() == [size]
    rng = random.Random(3)
    enc: InfoState | None = None
    compared = set()
    for _ in range(150):
        a, b = ours.new_initial_state(), theirs.new_initial_state()
        while not b.is_terminal():
            if not b.is_chance_node():
                game = a._env.game
                enc = enc or InfoState(game)
                assert enc.size == size
                for player in (0, 1):
                    expected = np.array(b.information_state_tensor(player), np.float32)
                    assert np.array_equal(enc.encode(game, player), expected), (b.history(), player)
                    compared.add(b.information_state_string(player))
            action = rng.choice(b.legal_actions())
            a.apply_action(action)
            b.apply_action(action)
    assert len(compared) >= states


def _sorted(line: str) -> str:
    """A line of the information state with the cards of one deal in one order (a deal's order
    tells nothing: the tensor has a plane per deal)."""
    head, sep, cards = line.partition(" is dealt ")
    if not sep:
        head, sep, cards = line.partition(": ")
    return head + sep + " ".join(sorted(cards.split(" (")[0].split())) if sep else line


def _walk(variant: str, players: int, seed: int, hands: int, **options: object) -> dict[bytes, set[str]]:
    """Random legal play of ``variant``: at each decision, the tensor of the seat to act mapped to the
    information states (``cardgame.rl.spiel.information_state``: the hand as that seat saw it) giving it."""
    env = cardgame.rl.raw_env(variant, players, observation="infostate", **options)
    rng = random.Random(seed)
    seen: dict[bytes, set[str]] = {}
    for episode in range(hands):
        env.reset(seed=seed + episode)
        while env.agents:
            agent = env.agent_selection
            if env.terminations[agent]:
                env.step(None)
                continue
            game = env.game
            assert game is not None
            seat = game.to_act
            assert seat is not None
            obs = env.observe(agent)
            text = information_state(game, seat).replace(f"player_{seat} sees", "")
            text = "\n".join(_sorted(line) for line in text.splitlines() if not line.startswith("Hand #"))
            seen.setdefault(obs["observation"].tobytes() + bytes([seat]), set()).add(text)
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return seen


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("two-player kuhn poker", 2, {}),
    ("kuhn poker", 3, {}),
    ("leduc hold'em", 2, {}),
    ("NT", 2, {"stack": 20}),
    ("NT", 3, {"stack": 20}),
    ("FT", 3, {}),
    ("F7S", 3, {}),
    ("F2L3D", 2, {}),
    ("pineapple", 3, {}),
])
def test_perfect_recall_one_tensor_an_information_state(variant: str, players: int, options: dict[str, object]) -> None:
    """Every tensor stands for one information state: two histories the seat tells apart (another
    action, another order, another card of its own or on the board) never share a tensor."""
    seen = _walk(variant, players, 11, 60, **options)
    assert len(seen) >= 10
    clashes = {k: v for k, v in seen.items() if len(v) > 1}
    assert not clashes, next(iter(clashes.values()))


def test_the_order_of_actions_is_kept() -> None:
    """Check then bet, against bet then call: the planes count one bet and one passive action in the
    round either way; the tensor says which came first."""
    game = load_game("leduc_poker").new_initial_state()
    for card in (0, 2):
        game.apply_action(card)
    first = game.child(1).child(2)  # check, bet: player 0 to answer
    second = game.child(2).child(1)  # bet, call: the board is dealt
    second.apply_action(5)
    enc = encoder("infostate", first._env.game)
    one = enc.encode(first._env.game, 0)
    actions = enc.block("actions")  # type: ignore[attr-defined]
    assert one[actions][:4].tolist() == [1, 0, 0, 1]
    assert enc.encode(second._env.game, 0)[actions][:4].tolist() == [0, 1, 1, 0]


def test_options_sizes_and_bounds() -> None:
    env = cardgame.rl.raw_env("NT", 6, observation="infostate", observation_options={"max_raises": 3})
    enc = env.encoder
    assert isinstance(enc, InfoState) and enc.slots == 6 + 3 * 5 and enc.width == 4
    names = [b.name for b in enc.blocks]
    assert names == ["player", "hole", "board", "actions", "stacks"]
    assert enc.block("board").stop - enc.block("board").start == 3 * 52  # flop, turn, river
    env.reset(seed=4)
    obs = env.observe(env.agent_selection)["observation"]
    assert env.observation_space(env.agent_selection)["observation"].contains(obs)
    stud = cardgame.rl.raw_env("F7S", 3, observation="infostate").encoder
    assert [b.name for b in stud.blocks] == ["player", "hole", "up_cards", "actions"]
    assert stud.slots == 3 + 5 * 2  # cap 4, plus the bring-in
    with pytest.raises(ConfigError, match="max_raises"):
        cardgame.rl.raw_env("NT", observation="infostate", observation_options={"max_raises": 0})
    with pytest.raises(ConfigError, match="No block"):
        enc.block("history")
    assert variants.get("NT")  # the registry is there for the walk above
