"""An OpenSpiel-style game over the environment: states with pyspiel's method names, for search.

``load_game("kuhn_poker")`` (two-player Kuhn poker), ``load_game("leduc_poker")`` (Leduc hold'em)
or ``SpielGame(variant, players)`` for any variant; ``game.new_initial_state()`` gives a
:class:`SpielState` with ``current_player``, ``legal_actions``, ``chance_outcomes``,
``apply_action``, ``undo_action``, ``is_terminal``, ``returns``, ``information_state_string`` and ``clone``, as
pyspiel's states have. No pyspiel is needed: the states are the library's own
(:class:`~cardgame.rl.env.raw_env` copies, the rules the engine's), so OpenSpiel-style algorithms
written against these names run on every variant, and pyspiel's own games can be compared with them
(tests/rl/test_spiel.py does).

As in OpenSpiel, chance deals one card at a time: a chance action is the card's index in the
game's deck (:attr:`SpielGame.deck`; Kuhn: J Q K are 0 1 2; Leduc: Jh Js Qh Qs Kh Ks are 0 to 5,
as OpenSpiel numbers them) and every undealt card is equally likely. Player ``p`` is seat ``p``;
the button is the last seat, so in the ante games seat 0 acts first (OpenSpiel's player 0). A
decision's actions are the environment's indices (:mod:`cardgame.rl.actions`; fixed-limit: 0 fold,
1 check or call, 2 bet or raise, which are Leduc's in OpenSpiel). Returns are chips won or lost.

A state never changes the environment it holds: an action steps a copy (:meth:`raw_env.copy`),
so ``clone`` is cheap and a search may keep every state it visits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from cardgame.model.cards import Card
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.table import MAX_SEATS
from cardgame.play.game import Game, VariantLike
from cardgame.rl.actions import check_game, whole_or_none
from cardgame.rl.env import raw_env

__all__ = ["CHANCE", "GAMES", "TERMINAL", "SpielGame", "SpielState", "information_state", "load_game"]

#: pyspiel's ids for the chance player and for a terminal state's player.
CHANCE = -1
TERMINAL = -4

#: OpenSpiel's names for the games it shares with the library, and the variants they are.
GAMES: Mapping[str, str] = {"kuhn_poker": "two-player kuhn poker", "leduc_poker": "leduc hold'em"}


def information_state(game: Game, seat: int) -> str:
    """What ``seat`` may know of the hand in progress, as text: the hand's events as it sees them
    (its own cards, the board, every action), one a line. Two histories ``seat`` cannot tell apart
    give the same text, and the text never forgets (perfect recall): an information set's key."""
    seat = check_int(seat, "seat", ConfigError, minimum=0, maximum=len(check_game(game).table.seats) - 1)
    return "\n".join([f"player_{seat} sees", *_hand_lines(game, seat)])


def _hand_lines(game: Game, seat: int | None) -> list[str]:
    """The last hand's events, as ``seat`` sees them (``None``: every card shown)."""
    starts = game.ctx.hand_starts
    names = {s: f"player_{s}" for s in range(len(game.table.seats))}
    events = game.events[starts[-1] if starts else 0:]
    return [(e if seat is None else e.seen_by(seat)).describe(names) for e in events]


class SpielGame:
    """A variant as an OpenSpiel-style game: ``players`` seats, ``stack`` chips each (default 100
    big blinds), the builder's ``params`` and the environment's ``actions`` abstraction."""

    def __init__(self, variant: str | VariantLike, players: int = 2, *, stack: int | None = None,
                 params: Mapping[str, Any] | None = None, actions: str = "default", cache: int = 10_000) -> None:
        players = check_int(players, "number of players", ConfigError, minimum=2, maximum=MAX_SEATS)
        #: How many states (by history) to keep: a state met again is looked up, not played again
        #: (sampling solvers meet the same states over and over); emptied when full (a state is 10 to 15 KB).
        self.cache = check_int(cache, "cache (states kept)", ConfigError, minimum=0)
        self._states: dict[tuple[int, ...], tuple[Any, ...]] = {}
        self.env = raw_env(variant, players, stack=stack, params=params, actions=actions, button=players - 1, seed=0)
        self.env.reset()
        game = self.env.game
        assert game is not None
        if game.hand is None or not self.env.agents:
            raise ConfigError(f"{self.env.variant.name} with these stacks ends its hand before anyone decides: "
                              f"no game to search.")
        self.deal = game.hand.deck.dealt  # the cards dealt before the first decision
        self.deck: tuple[Card, ...] = game.ctx.deck_spec.cards
        self.index: dict[Card, int] = {card: i for i, card in enumerate(self.deck)}
        self.name = self.env.variant.name

    def num_players(self) -> int:
        return len(self.env.possible_agents)

    def num_distinct_actions(self) -> int:
        return int(self.env.actions.n)

    def max_chance_outcomes(self) -> int:
        return len(self.deck)

    def new_initial_state(self) -> SpielState:
        """The state before the deal: chance deals the hole cards one by one."""
        return SpielState(self, None, (), self.deal, None, tuple(range(len(self.deck))), ())

    def __str__(self) -> str:
        return f"{self.name}({self.num_players()} players)"


def load_game(name: str, **options: Any) -> SpielGame:
    """The game OpenSpiel calls ``name`` (:data:`GAMES`), with :class:`SpielGame`'s ``options``."""
    if not isinstance(name, str) or name not in GAMES:
        raise ConfigError(f"{excerpt(name)} is not a game here; the games are {', '.join(GAMES)} (or "
                          f"SpielGame(variant)).")
    return SpielGame(GAMES[name], **options)


class SpielState:
    """One state of a :class:`SpielGame` (see the module): a decision, a chance node dealing a card,
    or the end of the hand."""

    __slots__ = ("_action", "_chosen", "_env", "_need", "_pool", "game", "history_")

    def __init__(self, game: SpielGame, env: raw_env | None, chosen: tuple[int, ...], need: int,
                 action: int | None, pool: tuple[int, ...], history: tuple[int, ...]) -> None:
        self.game = game
        self._env = env  # never stepped: an action steps a copy
        self._chosen = chosen  # the cards chance chose so far, for the deal pending
        self._need = need  # cards still to choose (0: not a chance node)
        self._action = action  # the decision that deals them (None: the hand's first deal)
        self._pool = pool  # the undealt cards' indices, while dealing
        self.history_ = history

    # --- what the state is ---------------------------------------------------------------------------
    @property
    def hand(self) -> Game | None:
        """The game in this state (``None`` while the first cards are being chosen), for reading:
        it is shared with the states cloned from this one, so it must not be played on."""
        env = self._env
        return env.game if env is not None and not self._need else None

    def is_chance_node(self) -> bool:
        return self._need > 0

    def is_terminal(self) -> bool:
        env = self._env
        return not self._need and env is not None and all(env.terminations.values())

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        if self._need:
            return CHANCE
        env = self._env
        assert env is not None
        if all(env.terminations.values()):
            return TERMINAL
        return env.possible_agents.index(env.agent_selection)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions legal now (chance: the undealt cards); none for another player or at the end."""
        if player is not None:
            player = self._player(player, CHANCE)
        if self._need:
            return [c for c in self._pool if c not in self._chosen] if player in (None, CHANCE) else []
        current = self.current_player()
        if current == TERMINAL or player not in (None, current):
            return []
        env = self._env
        assert env is not None and env.game is not None
        return [int(i) for i in np.flatnonzero(env.actions.mask(env.game))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each undealt card with its probability (all equal); empty unless a chance node."""
        cards = self.legal_actions(CHANCE) if self._need else []
        return [(c, 1.0 / len(cards)) for c in cards]

    def returns(self) -> list[float]:
        """The chips each player won or lost in the hand (zeros until it ends)."""
        if not self.is_terminal():
            return [0.0] * self.game.num_players()
        env = self._env
        assert env is not None
        return [float(now - start) for now, start in zip(env.table_stacks().values(), env.stacks, strict=True)]

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (default: the one to act) may know: :func:`information_state`."""
        env = self._env
        if env is None or env.game is None:
            raise IllegalActionError("No cards are dealt yet: the state is chance's.", rule="no information state")
        seat = self.current_player() if player is None else self._player(player, 0)
        if seat < 0:
            raise IllegalActionError("The hand is over: no player is to act.", rule="no such player")
        return information_state(env.game, seat)

    def _player(self, player: object, least: int) -> int:
        """``player`` as a player's number (from ``least``: :data:`CHANCE` or 0), else :class:`IllegalActionError`."""
        return check_int(player, "player", IllegalActionError, minimum=least, maximum=self.game.num_players() - 1)

    def history(self) -> list[int]:
        return list(self.history_)

    def action_to_string(self, player: int, action: int) -> str:
        """``action`` in words: a card (``player`` :data:`CHANCE`) or a betting index's label."""
        player = self._player(player, CHANCE)
        top = len(self.game.deck) if player == CHANCE else self.game.num_distinct_actions()
        index = whole_or_none(action, 0, top - 1)
        if index is None:
            raise ConfigError(f"An action is an index 0 to {top - 1}, not {excerpt(action)}.")
        return str(self.game.deck[index]) if player == CHANCE else self.game.env.actions._bet_label(index)

    def __str__(self) -> str:
        """The hand so far, every card shown (or the cards chance has chosen so far)."""
        if self._env is None or self._need:
            dealt = " ".join(str(self.game.deck[c]) for c in self._chosen)
            return f"chance deals ({dealt or 'nothing yet'}; {self._need} to go)"
        assert self._env.game is not None
        return "\n".join(_hand_lines(self._env.game, None))

    # --- moving on -------------------------------------------------------------------------------------
    def clone(self) -> SpielState:
        """An independent copy (cheap: the environment is shared, never stepped)."""
        return SpielState(self.game, self._env, self._chosen, self._need, self._action, self._pool, self.history_)

    def child(self, action: int) -> SpielState:
        """The state after ``action``, this one unchanged."""
        new = self.clone()
        new.apply_action(action)
        return new

    def undo_action(self, player: int, action: int) -> None:
        """Take back the last action (``player`` took ``action``; :data:`CHANCE` for a card), as pyspiel's
        ``undo_action``: the state is again the one before it. Anything but the last action, or nothing to
        take back, raises :class:`~cardgame.model.errors.IllegalActionError` and changes nothing."""
        history = self.history_
        if not history:
            raise IllegalActionError("Nothing to undo: no action since the initial state.", rule="nothing to undo")
        player = self._player(player, CHANCE)
        before = self.game.new_initial_state()
        for taken in history[:-1]:
            before.apply_action(taken)
        last = CHANCE if before.is_chance_node() else before.current_player()
        if (player, whole_or_none(action, 0, len(self.game.deck) + self.game.num_distinct_actions())) != (
                last, history[-1]):
            raise IllegalActionError(f"The last action is {history[-1]} by player {last}, not {excerpt(action)} by "
                                     f"player {player}.", rule="not the last action",
                                     allowed=f"{last}, {history[-1]}")
        for name in self.__slots__:
            setattr(self, name, getattr(before, name))

    def apply_action(self, action: int) -> None:
        """Play ``action`` (a card's index at a chance node); an action not legal now raises
        :class:`~cardgame.model.errors.IllegalActionError` and changes nothing."""
        legal = self.legal_actions()
        index = whole_or_none(action, 0, max(legal, default=0))
        if index is None or index not in legal:
            raise IllegalActionError(f"Action {excerpt(action)} is not legal now; the legal ones are {legal}.",
                                     rule="action not legal", allowed=", ".join(map(str, legal)))
        action = index
        history = (*self.history_, action)
        cache = self.game._states
        known = cache.get(history)
        if known is not None:
            self._env, self._chosen, self._need, self._action, self._pool = known
            self.history_ = history
            return
        self._play(action, history)
        if self.game.cache:
            if len(cache) >= self.game.cache:
                cache.clear()
            cache[history] = (self._env, self._chosen, self._need, self._action, self._pool)

    def _play(self, action: int, history: tuple[int, ...]) -> None:
        """:meth:`apply_action` of a legal ``action`` not in the cache."""
        if self._need:
            chosen = (*self._chosen, action)
            if self._need > 1:
                self._chosen, self._need, self.history_ = chosen, self._need - 1, history
                return
            self._env = self._dealt(chosen)
            self._chosen, self._need, self._action, self.history_ = (), 0, None, history
            return
        env = self._env
        assert env is not None and env.game is not None and env.game.hand is not None
        trial = env.copy()
        game = trial.game
        assert game is not None
        deck = game.hand.deck
        before = deck.dealt
        pool = tuple(sorted(self.game.index[c] for c in deck.remaining))
        trial.step(action)
        if deck.dealt == before:
            self._env, self.history_ = trial, history
            return
        # The action deals cards: chance chooses them first, then the action is played on them.
        self._need, self._action, self._pool, self._chosen, self.history_ = (
            deck.dealt - before, action, pool, (), history)

    def _dealt(self, chosen: tuple[int, ...]) -> raw_env:
        """The environment after the pending deal, with ``chosen`` the cards dealt."""
        cards = [self.game.deck[c] for c in chosen]
        if self._action is None:
            env = self.game.env.copy()
            env.reset(seed=0, options={"cards": cards})
            return env
        assert self._env is not None
        env = self._env.copy()
        game = env.game
        assert game is not None and game.hand is not None
        game.stack_deck(cards)
        deck = game.hand.deck  # the stacked one
        before = deck.dealt
        env.step(self._action)
        if deck.dealt - before != len(cards):  # the rules dealt another number of cards than the trial did
            raise ConfigError(f"{self.game.name}: the deal after action {self._action} depends on the cards dealt; "
                              f"it cannot be enumerated card by card.")
        return env
