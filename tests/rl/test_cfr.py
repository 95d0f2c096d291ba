"""CFR through the environment: two-player Kuhn poker reaches its value -1/18 with the known
equilibrium's shape; Leduc's tree and exploitability match OpenSpiel's published figures."""

from __future__ import annotations

import random

import pytest

from cardgame.model.errors import ConfigError
from cardgame.rl import env as rl_env
from cardgame.rl.cfr import CFR, METHODS, GameTree, best_response_value, expected_values, exploitability, uniform_policy
from cardgame.rl.spiel import SpielGame, information_state

KUHN_VALUE = -1 / 18
FOLD, CHECK, BET = 0, 1, 2  # the fixed-limit indices: fold, check/call, bet/raise


def _infoset(tree: GameTree, player: int, card: str, actions: list[str]) -> int:
    """The information set of ``player`` holding ``card`` after ``actions`` (lines as the events
    describe them, e.g. "player_0 checks")."""
    found = [i for i, info in enumerate(tree.infosets)
             if info.player == player and f"player_{player} is dealt {card}" in info.key
             and info.key.split("\n")[6:] == actions]
    assert len(found) == 1, (player, card, actions, found)
    return found[0]


def test_kuhn_tree_is_kuhns_and_the_uniform_profile_is_not_an_equilibrium(kuhn_tree: GameTree) -> None:
    tree = kuhn_tree
    assert (tree.nodes, len(tree.infosets), tree.players, tree.first_player()) == (58, 12, 2, 0)
    # Every information set shows its own card and hides the other's.
    assert all(info.key.count("is dealt ??") == 1 for info in tree.infosets)
    uniform = uniform_policy(tree)
    assert expected_values(tree, uniform) == pytest.approx([1 / 8, -1 / 8])
    assert exploitability(tree, uniform) == pytest.approx(11 / 24)  # OpenSpiel's figure for Kuhn


def test_cfr_reaches_kuhns_value_with_the_equilibrium_shape(kuhn_tree: GameTree) -> None:
    tree = kuhn_tree
    solver = CFR(tree)
    errors = []
    for n in (10, 90, 900):
        solver.iterate(n)
        errors.append(exploitability(tree, solver.average_policy()))
    assert errors[0] > errors[1] > errors[2] and errors[2] < 0.002
    avg = solver.average_policy()
    first = tree.first_player()
    value = expected_values(tree, avg)
    assert value[first] == pytest.approx(KUHN_VALUE, abs=0.005)
    assert value[first] == pytest.approx(-value[1 - first])
    # Kuhn's equilibria: the first player bets a jack with some alpha in [0, 1/3], a king with 3 alpha,
    # never a queen; it calls a bet with a queen alpha + 1/3 of the time, never with a jack.
    bet = {card: dict(zip(tree.infosets[at].actions, avg[at], strict=True)).get(BET, 0.0)
           for card in "JQK" for at in [_infoset(tree, first, f"{card}s", [])]}
    alpha = bet["J"]
    assert -1e-9 <= alpha <= 1 / 3 + 0.01
    assert bet["K"] == pytest.approx(3 * alpha, abs=0.03)
    assert bet["Q"] < 0.02
    second = 1 - first
    after = [f"player_{first} checks", f"player_{second} bets 1"]
    call = {card: avg[at][tree.infosets[at].actions.index(CHECK)]
            for card in "JQK" for at in [_infoset(tree, first, f"{card}s", after)]}
    assert call["J"] < 0.02 and call["Q"] == pytest.approx(alpha + 1 / 3, abs=0.03) and call["K"] > 0.98
    # The second player bluffs a jack a third of the time after a check, calls a bet with a queen a third.
    bluff = _infoset(tree, second, "Js", [f"player_{first} checks"])
    assert avg[bluff][tree.infosets[bluff].actions.index(BET)] == pytest.approx(1 / 3, abs=0.03)
    queen = _infoset(tree, second, "Qs", [f"player_{first} bets 1"])
    assert avg[queen][tree.infosets[queen].actions.index(CHECK)] == pytest.approx(1 / 3, abs=0.03)


@pytest.mark.parametrize("method", METHODS)
def test_every_method_converges_on_kuhn(kuhn_tree: GameTree, method: str) -> None:
    solver = CFR(kuhn_tree, method)
    solver.iterate(300)
    avg = solver.average_policy()
    assert expected_values(kuhn_tree, avg)[0] == pytest.approx(KUHN_VALUE, abs=0.005)
    assert exploitability(kuhn_tree, avg) < 0.01
    # A best response to the average gains almost nothing over the game value.
    assert best_response_value(kuhn_tree, avg, 1) == pytest.approx(-KUHN_VALUE, abs=0.01)


def test_kuhn_tree_with_other_stakes_scales() -> None:
    tree = GameTree.build(SpielGame("two-player kuhn poker", params={"ante": 2, "bet": 2}))
    solver = CFR(tree, "cfr+")
    solver.iterate(300)
    assert expected_values(tree, solver.average_policy())[0] == pytest.approx(2 * KUHN_VALUE, abs=0.01)


def test_leduc_tree_matches_openspiels_figures(leduc_tree: GameTree) -> None:
    tree = leduc_tree
    assert (tree.nodes, len(tree.infosets), tree.first_player()) == (9457, 936, 0)
    uniform = uniform_policy(tree)
    assert exploitability(tree, uniform) == pytest.approx(4.747222222222222 / 2)  # OpenSpiel's NashConv, halved
    solver = CFR(tree, "cfr+")
    errors = []
    for n in (2, 8, 10):
        solver.iterate(n)
        errors.append(exploitability(tree, solver.average_policy()))
    assert errors[0] > errors[1] > errors[2]
    assert errors[2] < 0.6


def test_a_policy_plays_live_hands_by_their_information_state(kuhn_tree: GameTree) -> None:
    solver = CFR(kuhn_tree, "cfr+")
    solver.iterate(50)
    policy = solver.average_policy()
    aec = rl_env("two-player kuhn poker", button=1).unwrapped
    rng = random.Random(3)
    decisions = 0
    for seed in range(40):
        aec.reset(seed=seed)
        while not all(aec.terminations.values()):
            seat = aec.possible_agents.index(aec.agent_selection)
            assert aec.game is not None
            key = information_state(aec.game, seat)
            assert key in kuhn_tree.index
            aec.step(kuhn_tree.choose(policy, aec.game, seat, rng))
            decisions += 1
    assert decisions >= 80


def test_bad_input_is_refused(kuhn_tree: GameTree) -> None:
    with pytest.raises(ConfigError, match="method must be one of vanilla, cfr\\+, linear"):
        CFR(kuhn_tree, "mccfr")
    with pytest.raises(ConfigError, match="iterations must be a whole number"):
        CFR(kuhn_tree).iterate(-1)
    with pytest.raises(ConfigError, match="more than 1,000 states"):
        GameTree.build(SpielGame("leduc hold'em"), max_nodes=1000)
    with pytest.raises(ConfigError, match="No information set"):
        kuhn_tree.policy_of(uniform_policy(kuhn_tree), "nothing")
