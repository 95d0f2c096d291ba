"""Monte Carlo CFR on any variant, through the OpenSpiel-style game (:mod:`cardgame.rl.spiel`).

``MCCFR(SpielGame(...), "external", seed=s).iterate(n)`` runs external-sampling or outcome-sampling
MCCFR (Lanctot et al. 2009; Lanctot 2013): each iteration samples one episode per player from the
states of :class:`~cardgame.rl.spiel.SpielGame` (chance deals a card at a time, the environment's
action indices, the engine's rules), so no tree is enumerated and any variant runs, however large.
Regrets and average-policy sums are kept per information set, keyed by what the acting seat sees
(:func:`~cardgame.rl.spiel.information_state`, or a ``key`` of one's own: an abstraction).

The updates are OpenSpiel's (``open_spiel.python.algorithms.external_sampling_mccfr`` with its
simple averaging, and ``outcome_sampling_mccfr`` with exploration 0.6), drawing from a
``numpy.random.RandomState(seed)`` in the same order with the same probabilities: on Leduc, a seed
gives exactly the regrets and average policy OpenSpiel computes after ``numpy.random.seed`` with that
seed (tests/rl/test_mccfr.py). ``average_policy()`` maps each information set's key to its actions'
probabilities; :meth:`MCCFR.tree_policy` gives it on a :class:`~cardgame.rl.cfr.GameTree` (for
:func:`~cardgame.rl.cfr.exploitability`) and :meth:`MCCFR.choose` plays it in a live hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.game import Game
from cardgame.rl.cfr import GameTree, Policy
from cardgame.rl.spiel import SpielGame, SpielState, information_state

__all__ = ["MCCFR", "SAMPLING"]

#: The samplings :class:`MCCFR` runs.
SAMPLING = ("external", "outcome")

#: A key function: the information set of ``seat`` to act in ``game`` (default :func:`information_state`).
Key = Callable[[Game, int], str]

_START = 1e-6  # OpenSpiel's first regret and average sum of every action (a uniform start, soon erased)


class MCCFR:
    """Monte Carlo CFR on ``game`` (a :class:`~cardgame.rl.spiel.SpielGame`): ``sampling``
    ``"external"`` or ``"outcome"``, ``seed`` (0 to ``2**32 - 1``) the sampler's, ``exploration``
    outcome sampling's share of uniform play at the updating player's decisions, ``key`` the
    information set of a seat to act in a game (``key(game, seat)``; default
    :func:`~cardgame.rl.spiel.information_state`: an abstraction groups states so)."""

    def __init__(self, game: SpielGame, sampling: str = "external", *, seed: int = 0, exploration: float = 0.6,
                 key: Key | None = None) -> None:
        if not isinstance(game, SpielGame):
            raise ConfigError(f"MCCFR runs on a SpielGame (load_game('leduc_poker')), not {excerpt(game)}.")
        if not isinstance(sampling, str) or sampling not in SAMPLING:
            raise ConfigError(f"sampling must be one of {', '.join(SAMPLING)}, not {excerpt(sampling)}.")
        if type(exploration) not in (float, int) or not 0 <= exploration <= 1:  # bool and NaN refused
            raise ConfigError(f"exploration is a number from 0 to 1, not {excerpt(exploration)}.")
        if key is not None and not callable(key):
            raise ConfigError(f"key is a function of a game and a seat (or None), not {excerpt(key)}.")
        self.game = game
        self.sampling = sampling
        self.seed = check_int(seed, "seed", ConfigError, minimum=0, maximum=2**32 - 1)
        self.exploration = float(exploration)
        self.key: Key = key if key is not None else information_state
        self.players = game.num_players()
        self.iterations = 0
        #: Per information set key: its regrets and its average-policy sums, one per legal action.
        self.tables: dict[str, tuple[list[float], list[float]]] = {}
        self._rng = np.random.RandomState(self.seed)

    # --- running ------------------------------------------------------------------------------------
    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` iterations: each samples one episode per player, updating its regrets."""
        iterations = check_int(iterations, "number of iterations", ConfigError, minimum=0)
        for _ in range(iterations):
            for player in range(self.players):
                if self.sampling == "external":
                    self._external(self.game.new_initial_state(), player)
                else:
                    self._outcome(self.game.new_initial_state(), player, 1.0, 1.0, 1.0)
            self.iterations += 1

    def _table(self, state: SpielState, actions: int) -> tuple[str, tuple[list[float], list[float]]]:
        game = state.hand
        assert game is not None
        key = self._key(game, state.current_player())
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = ([_START] * actions, [_START] * actions)
        elif len(table[0]) != actions:
            raise ConfigError(f"{self.game.name}: the information set {excerpt(key)} offers {len(table[0])} and "
                              f"{actions} actions: its key does not tell the states apart.")
        return key, table

    def _key(self, game: Game, seat: int) -> str:
        key = self.key(game, seat)
        if not isinstance(key, str):
            raise ConfigError(f"A key function returns text, not {excerpt(key)}.")
        return key

    def _sample(self, probs: list[float]) -> int:
        return int(self._rng.choice(len(probs), p=probs))

    def _external(self, state: SpielState, player: int) -> float:
        """One external-sampling walk for ``player``: every action of its own, one of everyone else's."""
        if state.is_terminal():
            return state.returns()[player]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            return self._external(state.child(outcomes[self._sample([p for _, p in outcomes])][0]), player)
        current = state.current_player()
        legal = state.legal_actions()
        _, (regrets, sums) = self._table(state, len(legal))
        policy = _matched(regrets)
        value = 0.0
        if current != player:
            value = self._external(state.child(legal[self._sample(policy)]), player)
        else:
            values = [self._external(state.child(a), player) for a in legal]
            for p, v in zip(policy, values, strict=True):
                value += p * v
            for i, v in enumerate(values):
                regrets[i] += v - value
        if current == (player + 1) % self.players:  # OpenSpiel's simple averaging: the next player's sets
            for i, p in enumerate(policy):
                sums[i] += p
        return value

    def _outcome(self, state: SpielState, player: int, own: float, others: float, sampled: float) -> float:
        """One outcome-sampling episode for ``player`` (``own``, ``others``: the reaches of its policy and
        of chance's and the others'; ``sampled``: of the sampling policy); its value estimate."""
        if state.is_terminal():
            return state.returns()[player]
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            at = self._sample([p for _, p in outcomes])
            chance = outcomes[at][1]
            state.apply_action(outcomes[at][0])
            return self._outcome(state, player, own, chance * others, chance * sampled)
        current = state.current_player()
        legal = state.legal_actions()
        n = len(legal)
        _, (regrets, sums) = self._table(state, n)
        policy = _matched(regrets)
        e = self.exploration
        sample = [e * (1.0 / n) + (1.0 - e) * p for p in policy] if current == player else policy
        at = self._sample(sample)
        state.apply_action(legal[at])
        if current == player:
            child = self._outcome(state, player, own * policy[at], others, sampled * sample[at])
        else:
            child = self._outcome(state, player, own, others * policy[at], sampled * sample[at])
        values = [child / sample[at] if i == at else 0.0 for i in range(n)]
        estimate = 0.0
        for p, v in zip(policy, values, strict=True):
            estimate += p * v
        if current == player:
            cf_value = estimate * others / sampled
            for i in range(n):
                regrets[i] += values[i] * others / sampled - cf_value
            for i in range(n):
                sums[i] += own * policy[i] / sampled
        return estimate

    # --- the policies ------------------------------------------------------------------------------
    def average_policy(self) -> dict[str, list[float]]:
        """Each information set met (its key) with the average policy's probability of each legal action."""
        return {key: _normalised(sums) for key, (_, sums) in self.tables.items()}

    def current_policy(self) -> dict[str, list[float]]:
        """Regret matching at each information set met."""
        return {key: _matched(regrets) for key, (regrets, _) in self.tables.items()}

    def tree_policy(self, tree: GameTree, policy: dict[str, list[float]] | None = None) -> Policy:
        """``policy`` (default: the average) as a profile of ``tree`` (the same game, enumerated), uniform
        where no sample went, for :func:`~cardgame.rl.cfr.exploitability`."""
        if not isinstance(tree, GameTree):
            raise ConfigError(f"A game tree is a GameTree (GameTree.build(game)), not {excerpt(tree)}.")
        if policy is None:
            policy = self.average_policy()
        elif not isinstance(policy, dict):
            raise ConfigError(f"policy is a dict of an information set's key to its probabilities, not "
                              f"{excerpt(policy)}.")
        out: Policy = []
        for info in tree.infosets:
            row = policy.get(info.key)
            n = len(info.actions)
            ok = isinstance(row, list) and len(row) == n and all(type(p) is float and 0 <= p <= 1 for p in row)
            out.append(list(row) if ok and row is not None else [1.0 / n] * n)
        return out

    def choose(self, game: Game, seat: int, rng: random.Random) -> int:
        """An action index for ``seat`` to act in ``game`` (a hand of this variant, played anywhere), drawn
        from the average policy at its information set (``key``); uniform at a set never sampled."""
        if not isinstance(game, Game) or not isinstance(rng, random.Random):
            raise ConfigError(f"choose takes a Game and a random.Random, not {excerpt(game)} and {excerpt(rng)}.")
        seat = check_int(seat, "seat", ConfigError, minimum=0, maximum=len(game.table.seats) - 1)
        if game.to_act != seat:
            raise ConfigError(f"Seat {seat} is not to act now.")
        legal = [int(i) for i in np.flatnonzero(self.game.env.actions.mask(game))]
        table = self.tables.get(self._key(game, seat))
        probs = _normalised(table[1]) if table is not None and len(table[1]) == len(legal) else [1.0] * len(legal)
        return rng.choices(legal, weights=probs)[0]


def _matched(regrets: list[float]) -> list[float]:
    """Regret matching, as OpenSpiel computes it (the same floats)."""
    positive = [r if r > 0.0 else 0.0 for r in regrets]
    total = 0.0
    for r in positive:
        total += r
    if total <= 0:
        return [1.0 / len(regrets)] * len(regrets)
    return [r / total for r in positive]


def _normalised(sums: list[float]) -> list[float]:
    total = sum(sums)
    return [s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums)
