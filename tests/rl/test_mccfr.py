"""Monte Carlo CFR (cardgame.rl.mccfr): external and outcome sampling through the OpenSpiel-style game,
seeded; on Kuhn and Leduc exactly OpenSpiel's regrets and average policy for the same numpy seed."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from cardgame.model.errors import ConfigError
from cardgame.play.game import Game
from cardgame.rl.cfr import GameTree, exploitability, uniform_policy
from cardgame.rl.mccfr import MCCFR
from cardgame.rl.spiel import SpielGame, information_state, load_game
from tests.rl.test_spiel import _walk_both


def _theirs(name: str, sampling: str, seed: int, iterations: int) -> Any:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    game = pyspiel.load_game(name)
    np.random.seed(seed)
    solver = (external_sampling_mccfr.ExternalSamplingSolver if sampling == "external"
              else outcome_sampling_mccfr.OutcomeSamplingSolver)(game)
    for _ in range(iterations):
        solver.iteration()
    return game, solver


@pytest.mark.parametrize(("name", "iterations"), [("kuhn_poker", 150), ("leduc_poker", 25)])
@pytest.mark.parametrize("sampling", ["external", "outcome"])
def test_mccfr_equals_openspiels_for_the_same_seed(name: str, iterations: int, sampling: str,
                                                   request: pytest.FixtureRequest) -> None:
    """The same samples from the same seed: every information set's regrets and average sums equal
    OpenSpiel's Python solvers' (``external_sampling_mccfr``, ``outcome_sampling_mccfr``), to the bit."""
    game, theirs = _theirs(name, sampling, 11, iterations)
    tree: GameTree = request.getfixturevalue("kuhn_tree" if name == "kuhn_poker" else "leduc_tree")
    names: dict[str, str] = {}
    _walk_both(tree.root, game.new_initial_state(), tree, names)
    ours = MCCFR(load_game(name), sampling, seed=11)
    ours.iterate(iterations)
    assert len(ours.tables) == len(theirs._infostates) > 0
    for key, (regrets, sums) in theirs._infostates.items():
        assert ours.tables[names[key]] == (list(regrets), list(sums))
    from open_spiel.python.algorithms import exploitability as spiel_exploitability

    assert exploitability(tree, ours.tree_policy(tree)) == pytest.approx(
        spiel_exploitability.exploitability(game, theirs.average_policy()), abs=1e-9)


@pytest.mark.parametrize("sampling", ["external", "outcome"])
def test_the_average_policy_nears_equilibrium_on_kuhn(sampling: str, kuhn_tree: GameTree) -> None:
    solver = MCCFR(load_game("kuhn_poker"), sampling, seed=3)
    start = exploitability(kuhn_tree, uniform_policy(kuhn_tree))
    solver.iterate(400)
    assert solver.iterations == 400
    # 0.458 to 0.047 (external), 0.13 (outcome)
    assert exploitability(kuhn_tree, solver.tree_policy(kuhn_tree)) < start / 3
    assert len(solver.current_policy()) == len(solver.average_policy()) == 12


def test_a_seed_replays_and_another_differs() -> None:
    game = load_game("leduc_poker", players=3)
    runs = [MCCFR(game, "outcome", seed=s) for s in (4, 4, 5)]
    for run in runs:
        run.iterate(15)
    assert runs[0].tables == runs[1].tables != runs[2].tables


def test_any_variant_and_a_key_of_ones_own() -> None:
    """Three-handed Kuhn (four cards) with the default keys, then two-player Kuhn abstracted to the
    betting alone (every card looks the same): fewer sets, the policy played in a live hand."""
    solver = MCCFR(SpielGame("kuhn poker", 3), "external", seed=1)
    solver.iterate(30)
    assert all(len(probs) in (2, 3) for probs in solver.average_policy().values())
    game = Game(SpielGame("kuhn poker", 3).env.variant.build(), seats=3, seed=2)
    for seat in range(3):
        game.sit_down(f"p{seat}", 10, seat)
    game.start()
    seat = game.to_act
    assert seat is not None and solver.choose(game, seat, random.Random(1)) in (1, 2)

    def betting_only(game: Game, seat: int) -> str:  # what the seat saw, its cards hidden
        return "/".join(line for line in information_state(game, seat).splitlines() if "dealt" not in line)

    abstract = MCCFR(load_game("kuhn_poker"), "outcome", seed=1, key=betting_only)
    abstract.iterate(50)
    assert len(abstract.tables) == 4  # first to act, checked to, bet to, checked and bet to
    kuhn = Game(load_game("kuhn_poker").env.variant.build(), seats=2, seed=2)
    for s in range(2):
        kuhn.sit_down(f"p{s}", 10, s)
    kuhn.start()
    assert kuhn.to_act is not None and abstract.choose(kuhn, kuhn.to_act, random.Random(1)) in (1, 2)
    with pytest.raises(ConfigError, match="is not to act now"):
        abstract.choose(kuhn, 1 - kuhn.to_act, random.Random(1))


@pytest.mark.parametrize(("kwargs", "words"), [
    ({"game": "leduc_poker"}, "MCCFR runs on a SpielGame"),
    ({"sampling": "chance"}, "sampling must be one of external, outcome"),
    ({"seed": -1}, "seed must be"),
    ({"seed": 2**32}, "seed must be"),
    ({"seed": True}, "seed must be"),
    ({"exploration": 1.5}, "exploration is a number from 0 to 1"),
    ({"exploration": float("nan")}, "exploration is a number from 0 to 1"),
    ({"key": "information_state_string"}, "key is a function"),
])
def test_bad_arguments_are_refused(kwargs: dict[str, Any], words: str, kuhn_tree: GameTree) -> None:
    args: dict[str, Any] = {"game": load_game("kuhn_poker"), **kwargs}
    with pytest.raises(ConfigError, match=words):
        MCCFR(args.pop("game"), **args)
    solver = MCCFR(load_game("kuhn_poker"))
    for bad in (-1, 1.5, "3", 10**40):
        with pytest.raises(ConfigError, match="number of iterations"):
            solver.iterate(bad)  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="A game tree is a GameTree"):
        solver.tree_policy("tree")  # type: ignore[arg-type]
    with pytest.raises(ConfigError, match="choose takes a Game"):
        solver.choose(None, 0, random.Random())  # type: ignore[arg-type]
    assert solver.tables == {} and solver.iterations == 0


def test_a_key_must_give_text() -> None:
    solver = MCCFR(load_game("kuhn_poker"), "outcome", key=lambda game, seat: [seat])  # type: ignore[arg-type,return-value]
    with pytest.raises(ConfigError, match="A key function returns text, not"):
        solver.iterate(1)
    state = load_game("kuhn_poker").new_initial_state().child(0).child(1)
    assert state.hand is not None
    with pytest.raises(ConfigError, match="A key function returns text, not"):
        solver.choose(state.hand, 0, random.Random(1))


def test_a_key_that_merges_different_decisions_is_refused() -> None:
    solver = MCCFR(load_game("leduc_poker"), "external", key=lambda game, seat: "one set")
    with pytest.raises(ConfigError, match=r"offers [23] and [23] actions: its key does not tell the states apart"):
        solver.iterate(5)


def test_the_state_cache_changes_nothing_but_the_time() -> None:
    """States met again come from SpielGame's cache (by history); without it, the same tables."""
    runs = []
    for cache in (0, 50, 10_000):  # none, emptied every 50 states, all kept
        game = load_game("leduc_poker", cache=cache)
        solver = MCCFR(game, "external", seed=2)
        solver.iterate(20)
        runs.append(solver.tables)
        assert len(game._states) <= cache
    assert runs[0] == runs[1] == runs[2]
    for bad in (-1, True, 1.5, "9"):
        with pytest.raises(ConfigError, match="cache"):
            load_game("leduc_poker", cache=bad)


@pytest.mark.parametrize("sampling", ["external", "outcome"])
def test_three_handed_the_only_difference_is_the_odd_chip(sampling: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Three-handed Leduc: OpenSpiel halves an odd split pot, the engine pays whole chips, so the runs
    part; paid OpenSpiel's returns for the same histories, ours is OpenSpiel's MCCFR to the bit."""
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import external_sampling_mccfr, outcome_sampling_mccfr

    from cardgame.rl.spiel import SpielState

    game = pyspiel.load_game("leduc_poker", {"players": 3})

    def their_returns(state: SpielState) -> list[float]:
        theirs = game.new_initial_state()
        for action in state.history():
            theirs.apply_action(action)
        assert theirs.is_terminal()
        return list(theirs.returns())

    np.random.seed(4)
    solver = (external_sampling_mccfr.ExternalSamplingSolver if sampling == "external"
              else outcome_sampling_mccfr.OutcomeSamplingSolver)(game)
    for _ in range(6):
        solver.iteration()
    monkeypatch.setattr(SpielState, "returns", their_returns)
    ours = MCCFR(load_game("leduc_poker", players=3), sampling, seed=4)
    ours.iterate(6)
    assert sorted(r.tolist() for r, _ in solver._infostates.values()) == sorted(r for r, _ in ours.tables.values())
    assert sorted(s.tolist() for _, s in solver._infostates.values()) == sorted(s for _, s in ours.tables.values())
