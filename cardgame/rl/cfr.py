"""Counterfactual regret minimisation (CFR) on any small variant, through the environment.

``tree = GameTree.build(SpielGame("two-player kuhn poker"))`` enumerates the game tree once, every
state an environment copy stepped with the environment's own action indices
(:mod:`cardgame.rl.spiel`, :mod:`cardgame.rl.actions`: the masks say what is legal, the engine plays
it), chance as every card the deck may deal (:meth:`Game.copy <cardgame.play.game.Game.copy>` and
:meth:`Game.stack_deck <cardgame.play.game.Game.stack_deck>`), and each decision's information set
keyed by what the acting seat may see (:func:`~cardgame.rl.spiel.information_state`: its cards,
the board, every action). ``CFR(tree).iterate(n)`` then runs tabular CFR on that tree (Zinkevich et
al. 2007) with alternating updates: ``"vanilla"``, ``"cfr+"`` (regret matching+ and linear averaging,
Tammelin 2014) or ``"linear"`` (Linear CFR, Brown and Sandholm 2019). :func:`expected_values`
evaluates a profile exactly by walking the tree, :func:`best_response_value` and
:func:`exploitability` measure how far it is from equilibrium (OpenSpiel's convention: NashConv
over the number of players, in chips).

Two-player Kuhn poker (ante 1, bet 1) is worth -1/18 to the player who acts first; Leduc has
9,457 states and 936 information sets, as in OpenSpiel. Trees beyond ``max_nodes`` are refused:
tabular CFR is for the small games.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.game import Game
from cardgame.rl.spiel import SpielGame, SpielState, information_state

__all__ = [
    "CFR",
    "METHODS",
    "GameTree",
    "InfoSet",
    "Node",
    "Policy",
    "best_response_value",
    "check_policy",
    "expected_values",
    "exploitability",
    "nash_conv",
    "uniform_policy",
]

#: The CFR flavours :class:`CFR` runs.
METHODS = ("vanilla", "cfr+", "linear")

_DECISION, _CHANCE, _TERMINAL = 0, 1, 2

#: A profile: for each information set of a tree (its index), the probability of each of its actions.
Policy = list[list[float]]


class Node:
    """A state of the tree: a decision (``player``, its ``infoset``, ``actions`` and ``children``),
    a chance node (``actions`` the cards' indices, ``children``, ``probs``) or a terminal one
    (``payoffs``, chips per seat)."""

    __slots__ = ("actions", "children", "infoset", "kind", "payoffs", "player", "probs")

    def __init__(self, kind: int, player: int = -1, infoset: int = -1, actions: tuple[int, ...] = (),
                 children: Sequence[Node] = (), probs: tuple[float, ...] = (), payoffs: tuple[float, ...] = ()) -> None:
        self.kind = kind
        self.player = player
        self.infoset = infoset
        self.actions = actions
        self.children = tuple(children)
        self.probs = probs
        self.payoffs = payoffs


class InfoSet(NamedTuple):
    """An information set: its ``key`` (what ``player`` sees), its legal ``actions`` (environment
    indices) and how many own decisions came before it (``depth``)."""

    key: str
    player: int
    actions: tuple[int, ...]
    depth: int


class GameTree:
    """The whole tree of one hand of a :class:`~cardgame.rl.spiel.SpielGame`: ``root``, the
    ``infosets`` (``index`` maps a key to its position), ``players`` and ``nodes`` (how many)."""

    def __init__(self, root: Node, infosets: list[InfoSet], players: int, nodes: int, name: str) -> None:
        self.root = root
        self.infosets = infosets
        self.index = {info.key: i for i, info in enumerate(infosets)}
        self.players = players
        self.nodes = nodes
        self.name = name

    @classmethod
    def build(cls, game: SpielGame, *, max_nodes: int = 200_000) -> GameTree:
        """Enumerate ``game``'s tree through its states; :class:`ConfigError` past ``max_nodes``."""
        if not isinstance(game, SpielGame):
            raise ConfigError(f"A game tree is built from a SpielGame (load_game('leduc_poker')), not {excerpt(game)}.")
        max_nodes = check_int(max_nodes, "max_nodes", ConfigError, minimum=1)
        infosets: list[InfoSet] = []
        index: dict[str, int] = {}
        count = 0

        def walk(state: SpielState, depths: tuple[int, ...]) -> Node:
            nonlocal count
            count += 1
            if count > max_nodes:
                raise ConfigError(f"{game.name} has more than {max_nodes:,} states: too many for tabular CFR "
                                  f"(max_nodes); play it with a smaller deck, fewer players or shallower stacks.")
            if state.is_terminal():
                return Node(_TERMINAL, payoffs=tuple(state.returns()))
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                return Node(_CHANCE, actions=tuple(c for c, _ in outcomes),
                            children=[walk(state.child(c), depths) for c, _ in outcomes],
                            probs=tuple(p for _, p in outcomes))
            player = state.current_player()
            actions = tuple(state.legal_actions())
            key = state.information_state_string()
            at = index.get(key)
            if at is None:
                at = index[key] = len(infosets)
                infosets.append(InfoSet(key, player, actions, depths[player]))
            elif infosets[at].actions != actions:  # the rules would break perfect recall: refuse
                raise ConfigError(f"{game.name}: one information set offers {infosets[at].actions} and "
                                  f"{actions}: its key does not tell the states apart.")
            deeper = tuple(d + (s == player) for s, d in enumerate(depths))
            return Node(_DECISION, player, at, actions, [walk(state.child(a), deeper) for a in actions])

        root = walk(game.new_initial_state(), (0,) * game.num_players())
        return cls(root, infosets, game.num_players(), count, game.name)

    def first_player(self) -> int:
        """The player of the first decision (the same in every deal of the games here)."""
        node = self.root
        while node.kind == _CHANCE:
            node = node.children[0]
        return node.player

    def policy_of(self, policy: Policy, key: str) -> dict[int, float]:
        """``policy`` at the information set ``key``: each action index with its probability."""
        at = self.index.get(key) if isinstance(key, str) else None
        if at is None:
            raise ConfigError(f"No information set of {self.name} has the key {excerpt(key)}.")
        return dict(zip(self.infosets[at].actions, check_policy(self, policy)[at], strict=True))

    def choose(self, policy: Policy, game: Game, seat: int, rng: random.Random) -> int:
        """An action index drawn from ``policy`` for ``seat`` to act in ``game`` (a hand of the
        same variant and stacks, played anywhere: its information set is looked up by key)."""
        if not isinstance(game, Game) or not isinstance(rng, random.Random):
            raise ConfigError(f"choose takes a Game and a random.Random, not {excerpt(game)} and {excerpt(rng)}.")
        seat = check_int(seat, "seat", ConfigError, minimum=0, maximum=len(game.table.seats) - 1)
        probs = self.policy_of(policy, information_state(game, seat))
        return rng.choices(list(probs), weights=list(probs.values()))[0]


def _check_tree(tree: object) -> GameTree:
    if not isinstance(tree, GameTree):
        raise ConfigError(f"A game tree is a GameTree (GameTree.build(game)), not {excerpt(tree)}.")
    return tree


def check_policy(tree: GameTree, policy: object) -> Policy:
    """``policy`` if it is a profile of ``tree`` (a list of probabilities per information set, as many
    as its actions, each a finite number from 0 to 1), else :class:`ConfigError`."""
    infosets = _check_tree(tree).infosets
    if isinstance(policy, list) and len(policy) == len(infosets):
        ok = True
        for row, info in zip(policy, infosets, strict=True):
            if not isinstance(row, list) or len(row) != len(info.actions) or not all(
                    (isinstance(p, float) or type(p) is int) and 0 <= p <= 1 for p in row):
                ok = False
                break
        if ok:
            return policy
    raise ConfigError(f"A policy of {tree.name} is a list of {len(infosets)} lists (one per information set), each "
                      f"of a probability (a float from 0 to 1) per action; not {excerpt(policy)}.")


def uniform_policy(tree: GameTree) -> Policy:
    """Every legal action equally likely."""
    _check_tree(tree)
    return [[1.0 / len(info.actions)] * len(info.actions) for info in tree.infosets]


def expected_values(tree: GameTree, policy: Policy) -> list[float]:
    """Each player's expected chips when all play ``policy``, by walking the whole tree."""
    check_policy(tree, policy)

    def walk(node: Node) -> list[float]:
        if node.kind == _TERMINAL:
            return list(node.payoffs)
        weights = node.probs if node.kind == _CHANCE else policy[node.infoset]
        total = [0.0] * tree.players
        for w, child in zip(weights, node.children, strict=True):
            if w > 0:
                for p, v in enumerate(walk(child)):
                    total[p] += w * v
        return total

    return walk(tree.root)


def best_response_value(tree: GameTree, policy: Policy, player: int) -> float:
    """The most ``player`` can expect against the others playing ``policy`` (a best response, found
    information set by information set from the deepest up)."""
    check_policy(tree, policy)
    player = check_int(player, "player", ConfigError, minimum=0, maximum=tree.players - 1)
    groups: dict[int, list[tuple[Node, float]]] = {}

    def collect(node: Node, reach: float) -> None:  # reach: chance's and the others' probability
        if node.kind == _TERMINAL:
            return
        if node.kind == _CHANCE:
            for p, child in zip(node.probs, node.children, strict=True):
                collect(child, reach * p)
        elif node.player == player:
            groups.setdefault(node.infoset, []).append((node, reach))
            for child in node.children:
                collect(child, reach)
        else:
            for p, child in zip(policy[node.infoset], node.children, strict=True):
                if p > 0:
                    collect(child, reach * p)

    collect(tree.root, 1.0)
    best: dict[int, int] = {}
    memo: dict[int, float] = {}

    def value(node: Node) -> float:
        known = memo.get(id(node))
        if known is not None:
            return known
        if node.kind == _TERMINAL:
            v = node.payoffs[player]
        elif node.kind == _CHANCE:
            v = sum(p * value(child) for p, child in zip(node.probs, node.children, strict=True))
        elif node.player == player:
            v = value(node.children[best[node.infoset]])
        else:
            v = sum(p * value(child) for p, child in zip(policy[node.infoset], node.children, strict=True) if p > 0)
        memo[id(node)] = v
        return v

    for at in sorted(groups, key=lambda i: tree.infosets[i].depth, reverse=True):
        members = groups[at]
        totals = [sum(reach * value(node.children[a]) for node, reach in members)
                  for a in range(len(tree.infosets[at].actions))]
        best[at] = max(range(len(totals)), key=totals.__getitem__)
    return value(tree.root)


def nash_conv(tree: GameTree, policy: Policy) -> float:
    """How much the players together gain by each switching alone to a best response."""
    values = expected_values(tree, policy)
    return sum(best_response_value(tree, policy, p) - values[p] for p in range(tree.players))


def exploitability(tree: GameTree, policy: Policy) -> float:
    """:func:`nash_conv` over the number of players (OpenSpiel's ``exploitability``), in chips: 0 at
    a Nash equilibrium."""
    return nash_conv(tree, policy) / tree.players


class CFR:
    """Tabular CFR on ``tree`` (``method``: one of :data:`METHODS`); ``iterate(n)`` runs ``n``
    iterations, each updating every player in turn; ``average_policy()`` converges to equilibrium
    in two-player zero-sum games."""

    def __init__(self, tree: GameTree, method: str = "vanilla") -> None:
        _check_tree(tree)
        if not isinstance(method, str) or method not in METHODS:
            raise ConfigError(f"method must be one of {', '.join(METHODS)}, not {excerpt(method)}.")
        self.tree = tree
        self.method = method
        self.iterations = 0
        self.regrets: list[list[float]] = [[0.0] * len(i.actions) for i in tree.infosets]
        self.sums: list[list[float]] = [[0.0] * len(i.actions) for i in tree.infosets]

    def current_policy(self) -> Policy:
        """Regret matching: each action in proportion to its positive regret (uniform if none)."""
        out = []
        for regrets in self.regrets:
            positive = [r if r > 0 else 0.0 for r in regrets]
            total = sum(positive)
            out.append([r / total for r in positive] if total > 0 else [1.0 / len(regrets)] * len(regrets))
        return out

    def average_policy(self) -> Policy:
        """The average of the policies played, each weighted by its player's reach (and, for
        ``"cfr+"`` and ``"linear"``, by its iteration)."""
        out = []
        for sums in self.sums:
            total = sum(sums)
            out.append([s / total for s in sums] if total > 0 else [1.0 / len(sums)] * len(sums))
        return out

    def iterate(self, iterations: int = 1) -> None:
        iterations = check_int(iterations, "number of iterations", ConfigError, minimum=0)
        tree = self.tree
        for _ in range(iterations):
            self.iterations += 1
            t = self.iterations
            weight = 1.0 if self.method == "vanilla" else float(t)
            regret_weight = float(t) if self.method == "linear" else 1.0
            for player in range(tree.players):
                self._walk(tree.root, player, 1.0, 1.0, self.current_policy(), weight, regret_weight)
                if self.method == "cfr+":
                    for at, info in enumerate(tree.infosets):
                        if info.player == player:
                            self.regrets[at] = [r if r > 0 else 0.0 for r in self.regrets[at]]

    def _walk(self, node: Node, player: int, own: float, others: float, policy: Policy, weight: float,
              regret_weight: float) -> float:
        """``player``'s expected value at ``node``, updating its regrets and sums on the way; ``own``
        is its reach probability, ``others`` chance's and the other players'."""
        kind = node.kind
        if kind == _TERMINAL:
            return node.payoffs[player]
        if own == 0.0 and others == 0.0:  # nobody reaches it: nothing below changes (OpenSpiel prunes so)
            return 0.0
        if kind == _CHANCE:
            v = 0.0
            for p, child in zip(node.probs, node.children, strict=True):
                v += p * self._walk(child, player, own, others * p, policy, weight, regret_weight)
            return v
        at = node.infoset
        strategy = policy[at]
        if node.player != player:
            v = 0.0
            for p, child in zip(strategy, node.children, strict=True):  # p = 0 too: ``player``'s average
                v += p * self._walk(child, player, own, others * p, policy, weight, regret_weight)  # is by its reach
            return v
        values = [self._walk(child, player, own * p, others, policy, weight, regret_weight)
                  for p, child in zip(strategy, node.children, strict=True)]
        v = sum(p * x for p, x in zip(strategy, values, strict=True))
        regrets, sums = self.regrets[at], self.sums[at]
        scale = others * regret_weight
        for a, x in enumerate(values):
            regrets[a] += scale * (x - v)
            sums[a] += weight * own * strategy[a]
        return v
