"""Action abstractions: one ``Discrete`` action space per environment, masked to what is legal now.

PettingZoo wants one fixed action space per agent, yet a hand asks different questions: bets,
draws (which cards to throw), run-it-twice choices. Every abstraction answers them all from
one ``Discrete(n)``, with ``n`` the largest of the three, and :meth:`~ActionAbstraction.mask`
marks the indices legal for the question asked now:

* a **betting decision**: index 0 folds, 1 checks or calls (in stud it posts a due bring-in),
  and the higher indices bet or raise, each abstraction its own way (:class:`FixedLimit`,
  :class:`PotFractions`, :class:`RaiseTo`). A stud bring-in is index 1, completing the bet the
  first raise index.
* a **draw**: the index is a bit mask over the hole cards in the order dealt (bit ``i`` set:
  discard card ``i``); 0 stands pat. The mask marks the masks throwing an allowed number of cards
  (Pineapple's compulsory discard: exactly one bit).
* a **run-it-twice choice** (when the agent is asked, see the environment's ``runs``): index
  ``r - 1`` asks for ``r`` run-outs.

:meth:`~ActionAbstraction.decode` turns an index into a :class:`Move` for the
:class:`~cardgame.play.game.Game` (:func:`send` plays it); an index the mask does not mark raises
:class:`~cardgame.model.errors.IllegalActionError` naming it and the legal ones, and changes nothing.
:func:`for_game` fits an abstraction to a game (its draws and run-outs); ``"default"`` is
:class:`FixedLimit` when every betting round is fixed-limit, else :class:`PotFractions`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from gymnasium import spaces

from cardgame.model.betting import FixedLimit as FixedLimitStructure
from cardgame.model.betting import LegalActions
from cardgame.model.cards import Card, format_cards
from cardgame.model.errors import ConfigError, IllegalActionError
from cardgame.model.events import Event
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.play.game import Game
from cardgame.stages import BettingRound, DealHole, Draw, RunItTwice
from cardgame.stages.results import DrawOptions, RunOptions

__all__ = [
    "NAMES",
    "ActionAbstraction",
    "FixedLimit",
    "Move",
    "PotFractions",
    "RaiseTo",
    "check_game",
    "draw_cards",
    "for_game",
    "max_runs",
    "send",
    "whole_or_none",
]

#: The names :func:`for_game` takes, besides an :class:`ActionAbstraction`.
NAMES = ("default", "fixed-limit", "pot-fractions", "raise-to")

#: The largest ``RaiseTo`` space (indices): one per chip would be too many beyond this.
MAX_RAISE_TO = 100_000

#: The most pot fractions a :class:`PotFractions` takes, and the largest fraction (pots).
MAX_FRACTIONS = 64
MAX_FRACTION = 1_000.0


class Move(NamedTuple):
    """What an action index means now: ``kind`` is ``"act"`` (``action``, ``amount`` as
    :meth:`Game.act <cardgame.play.game.Game.act>` takes them), ``"draw"`` (``discards``) or
    ``"runs"`` (``runs``)."""

    kind: str
    action: str = ""
    amount: int | None = None
    discards: tuple[Card, ...] = ()
    runs: int = 1


def whole_or_none(value: object, minimum: int, maximum: int) -> int | None:
    """``value`` as an ``int`` if it is a whole number (an ``int`` or a numpy integer; never a ``bool``)
    from ``minimum`` to ``maximum``, else ``None``: how an action index is read."""
    if type(value) is int:  # the common case, checked at once
        return value if minimum <= value <= maximum else None
    try:
        return check_int(value, "action", ConfigError, minimum=minimum, maximum=maximum)
    except ConfigError:
        return None


def check_game(game: object) -> Game:
    """``game`` if it is a :class:`Game`, else :class:`ConfigError`."""
    if not isinstance(game, Game):
        raise ConfigError(f"Expected a Game (cardgame.play.game.Game), not {excerpt(game)}.")
    return game


def send(game: Game, seat: int, move: Move) -> Event:
    """Play ``move`` for ``seat`` on ``game``; the event it made."""
    seats = len((game if isinstance(game, Game) else check_game(game)).table.seats)
    if type(seat) is not int or not 0 <= seat < seats:  # (the common case checked at once)
        seat = check_int(seat, "seat", IllegalActionError, minimum=0, maximum=seats - 1)
    if not isinstance(move, Move):
        raise ConfigError(f"send plays a Move (an abstraction's decode gives one), not {excerpt(move)}.")
    if move.kind == "act":
        return game.act(seat, move.action, move.amount)
    if move.kind == "draw":
        return game.draw(seat, move.discards)
    return game.choose_runs(seat, move.runs)


_CHECK, _CALL = Move("act", "check"), Move("act", "call")
_BRING_IN, _FOLD = Move("act", "bring_in"), Move("act", "fold")


def _passive(la: LegalActions) -> Move:
    """Index 1: post a due bring-in, else call, else check."""
    return _BRING_IN if la.bring_in else _CALL if la.call_amount else _CHECK


def _raise(la: LegalActions, to: int) -> Move:
    return Move("act", "bet" if la.is_bet else "raise", to)


def _popcount(n: int) -> int:
    return bin(n).count("1")


class ActionAbstraction:
    """The shared part of every abstraction: the space, draws, run-outs, masks and errors.

    ``labels`` name the betting indices; ``draw_cards`` is the most hole cards a draw round
    holds (its bit masks need ``2 ** draw_cards`` indices; 0: the game has no draw);
    ``max_runs`` the run-outs the agent may ask for (0: it is never asked).
    """

    labels: tuple[str, ...] = ()

    def __init__(self, *, draw_cards: int = 0, max_runs: int = 0) -> None:
        draw_cards = check_int(draw_cards, "draw_cards", ConfigError, minimum=0, maximum=16)
        max_runs = check_int(max_runs, "max_runs", ConfigError, minimum=0, maximum=16)
        self.draw_cards = draw_cards
        self.max_runs = max_runs
        self.bets = self._count()
        self.n = max(self.bets, 2**draw_cards if draw_cards else 0, max_runs)
        if self.n == 0:
            raise ConfigError("An action abstraction with no betting labels, draw or run-outs has no action; use "
                              "one of its subclasses (FixedLimit, PotFractions, RaiseTo) or give it labels.")
        self.space = spaces.Discrete(self.n)
        self._draw_masks: dict[tuple[int, int, int], np.ndarray] = {}
        self._bet_masks: dict[tuple[bool, bool], np.ndarray] = {}  # betting masks by _bet_key
        self._bet_views: dict[tuple[bool, bool], memoryview] = {}  # the same, as memoryviews (a vector's rows)

    # --- what a subclass says about betting ---------------------------------------------------------
    def _count(self) -> int:
        """How many indices betting uses."""
        return len(self.labels)

    def _bet_mask(self, la: LegalActions, game: Game, mask: np.ndarray) -> None:
        """Mark the legal betting indices of ``la`` in ``mask``."""
        mask[1] = 1
        if la.can_fold:
            mask[0] = 1

    def _bet_key(self, la: LegalActions) -> tuple[bool, bool] | None:
        """What the betting mask of ``la`` depends on, when that is all (a key to keep the mask by);
        ``None``: it depends on more (the sizes allowed), and is worked out each time."""
        return None

    def _bet_move(self, index: int, la: LegalActions, game: Game) -> Move | None:
        """The move betting index ``index`` means under ``la`` (``None``: not legal now)."""
        if index == 1:
            return _passive(la)
        if index == 0 and la.can_fold:
            return _FOLD
        return None

    def _bet_label(self, index: int) -> str:
        return self.labels[index] if 0 <= index < len(self.labels) else "nothing"

    def _bet_legal(self, la: LegalActions, game: Game) -> str:
        """The legal betting indices, in words."""
        mask = np.zeros(self.n, np.int8)
        self._bet_mask(la, game, mask)
        return ", ".join(f"{i} ({self._bet_label(int(i))})" for i in np.flatnonzero(mask))

    def fit(self, *, draw_cards: int, max_runs: int) -> ActionAbstraction:
        """This abstraction sized for a game with these draws and run-out choices."""
        return type(self)(**self._config(), draw_cards=draw_cards, max_runs=max_runs)

    def _config(self) -> dict[str, Any]:
        return {}

    # --- the public face ------------------------------------------------------------------------------
    def mask(self, game: Game, out: np.ndarray | None = None) -> np.ndarray:
        """``int8[n]``: 1 for each index legal for the question ``game`` asks now (all 0: none asked);
        written into ``out`` (an ``int8[n]`` array, e.g. a vector environment's row) when given."""
        if out is None:
            mask = np.zeros(self.n, np.int8)
        elif isinstance(out, np.ndarray) and out.shape == (self.n,) and out.dtype == np.int8 and out.flags.writeable:
            mask = out
            mask.fill(0)
        else:
            raise ConfigError(f"out must be a writeable int8 array of shape ({self.n},), not {excerpt(out)}.")
        return self._fill_mask(game if isinstance(game, Game) else check_game(game), mask)

    def _fill_mask(self, game: Game, mask: np.ndarray) -> np.ndarray:
        """:meth:`mask` into ``mask`` (zeros), ``game`` checked."""
        la = game.legal_actions()
        if la is not None:
            self._bet_mask(la, game, mask)
            return mask
        opts = game.draw_options()
        if opts is not None:
            mask[:] = self._draw_mask(opts)
            return mask
        runs = game.run_options()
        if runs is not None and self.max_runs:
            mask[: min(runs.max_runs, self.max_runs)] = 1
        return mask

    def _new_mask(self, game: Game) -> np.ndarray:
        """:meth:`mask` as a new array, ``game`` checked: a betting mask that depends only on
        :meth:`_bet_key` is made once and copied (``tests/rl/test_fast_paths.py`` compares it to
        :meth:`mask`'s)."""
        la = game.legal_actions()
        if la is None:
            return self._fill_mask(game, np.zeros(self.n, np.int8))
        key = self._bet_key(la)
        kept = self._bet_masks.get(key) if key is not None else None
        if kept is None:
            kept = np.zeros(self.n, np.int8)
            self._bet_mask(la, game, kept)
            if key is None:
                return kept
            self._bet_masks[key] = kept
        return kept.copy()

    def _write_mask(self, game: Game, mask: np.ndarray, w: memoryview) -> None:
        """:meth:`_fill_mask` into ``mask`` (zeros), ``w`` its memoryview: a betting mask that depends only on
        :meth:`_bet_key` is made once and copied through ``w`` (``tests/rl/test_fast_paths.py`` compares it)."""
        la = game.legal_actions()
        key = self._bet_key(la) if la is not None else None
        if key is None:
            self._fill_mask(game, mask)
            return
        kept = self._bet_views.get(key)
        if kept is None:
            assert la is not None
            self._bet_mask(la, game, mask)
            kept = self._bet_views[key] = memoryview(mask.copy())  # type: ignore[arg-type]  # (numpy is a buffer)
        else:
            w[:] = kept

    def index_or_none(self, value: object) -> int | None:
        """``value`` as an index of the space (an ``int`` or a numpy integer 0 to ``n - 1``; never a
        ``bool``), else ``None``."""
        return whole_or_none(value, 0, self.n - 1)

    def decode(self, index: object, game: Game) -> Move:
        """The :class:`Move` ``index`` means now; :class:`IllegalActionError` if it is not an index of
        the space or the mask does not mark it (the game is unchanged)."""
        i = index if type(index) is int and 0 <= index < self.n else self.index_or_none(index)
        if i is None:
            legal = self.describe(check_game(game))
            raise IllegalActionError(f"An action is an index 0 to {self.n - 1} (an int or a numpy integer) that the "
                                     f"mask marks, not {excerpt(index)}; legal now: {legal}.",
                                     rule="action not an index", allowed=legal)
        la = (game if isinstance(game, Game) else check_game(game)).legal_actions()
        if la is not None:
            move = self._bet_move(i, la, game) if 0 <= i < self.bets else None
            if move is None:
                raise IllegalActionError(f"Action {i} ({self._bet_label(i)}) is not legal now; the legal actions are "
                                         f"{self._bet_legal(la, game)}.", rule="action masked",
                                         allowed=self._bet_legal(la, game))
            return move
        opts = game.draw_options()
        if opts is not None:
            if not 0 <= i < self.n or not self._draw_mask(opts)[i]:
                raise IllegalActionError(f"Action {i} is not a legal discard mask now: {self._draw_words(opts)}.",
                                         rule="action masked", allowed=self._draw_words(opts))
            return Move("draw", discards=tuple([c for j, c in enumerate(opts.hole) if i >> j & 1]))
        runs = game.run_options()
        if runs is not None:
            if not self.max_runs or not 0 <= i < min(runs.max_runs, self.max_runs):
                raise IllegalActionError(f"Action {i} is no run-out choice now: {self._runs_words(runs)}.",
                                         rule="action masked", allowed=self._runs_words(runs))
            return Move("runs", runs=i + 1)
        raise IllegalActionError(f"Action {i}: nobody is to act now.", rule="no action pending")

    def passive(self, game: Game) -> int:
        """The index of the cheapest answer legal now: check or call (post a due bring-in), stand pat
        (or throw the fewest cards a compulsory discard allows), run once; 0 when nothing is asked."""
        if check_game(game).legal_actions() is not None:
            return 1
        return int(np.argmax(self.mask(game)))

    def describe(self, game: Game) -> str:
        """The legal indices now, in words (for errors and for people)."""
        la = check_game(game).legal_actions()
        if la is not None:
            return self._bet_legal(la, game)
        opts = game.draw_options()
        if opts is not None:
            return self._draw_words(opts)
        runs = game.run_options()
        return self._runs_words(runs) if runs is not None else "none (nobody is to act)"

    # --- draws and run-outs -----------------------------------------------------------------------------
    def _draw_mask(self, opts: DrawOptions) -> np.ndarray:
        """The legal discard bit masks for ``opts`` (cached by hand size and discard bounds)."""
        h = len(opts.hole)
        key = (h, opts.min_discards, opts.max_discards)
        mask = self._draw_masks.get(key)
        if mask is None:
            if h > self.draw_cards:
                raise IllegalActionError(f"A draw from {h} cards does not fit this action space (bit masks over "
                                         f"{self.draw_cards} cards); fit the abstraction to the game (for_game).",
                                         rule="draw too large")
            mask = np.zeros(self.n, np.int8)
            for bits in range(2**h):
                if opts.min_discards <= _popcount(bits) <= opts.max_discards:
                    mask[bits] = 1
            self._draw_masks[key] = mask
        return mask

    def _draw_words(self, opts: DrawOptions) -> str:
        least, most = opts.min_discards, opts.max_discards
        count = f"exactly {least}" if least == most else f"{least} to {most}"
        return (f"a bit mask over {format_cards(opts.hole)} (bit i discards card i) with {count} bits set, "
                f"below {2 ** len(opts.hole)}")

    def _runs_words(self, runs: RunOptions) -> str:
        if not self.max_runs:
            return "none (the environment answers run-out choices itself)"
        top = min(runs.max_runs, self.max_runs)
        return f"0 to {top - 1} (index r - 1 asks for r run-outs)"

    def __repr__(self) -> str:
        config = ", ".join(f"{k}={v!r}" for k, v in self._config().items())
        return f"{type(self).__name__}({config}{', ' if config else ''}n={self.n})"


class FixedLimit(ActionAbstraction):
    """Fold, check/call, raise: ``Discrete(3)`` (more in a draw game). The raise is the smallest
    allowed, as the rules size it (a stud completion; with an open pair on fourth street, the small
    bet: the big one needs :class:`RaiseTo`). In a no-limit game it is the minimum raise."""

    labels = ("fold", "check/call", "raise")

    def _bet_mask(self, la: LegalActions, game: Game, mask: np.ndarray) -> None:
        super()._bet_mask(la, game, mask)
        if la.can_raise:
            mask[2] = 1

    def _bet_key(self, la: LegalActions) -> tuple[bool, bool] | None:
        return la.can_fold, la.can_raise

    def _bet_move(self, index: int, la: LegalActions, game: Game) -> Move | None:
        if index == 2:
            return _raise(la, la.min_raise_to) if la.can_raise else None
        return ActionAbstraction._bet_move(self, index, la, game)  # (the base's, without super())


class PotFractions(ActionAbstraction):
    """Fold, check/call, a raise of each fraction of the pot, all-in (for no-limit and pot-limit).

    A raise of fraction ``f`` is to ``bet + f * (pot after calling)``, rounded down: 1.0 is a
    pot-sized raise, pot-limit's largest. A fraction below the smallest raise allowed maps to that
    smallest raise, and one above the largest (pot-limit's cap, the stack, what an opponent can
    match) to that largest, so several indices may mean one amount; every raise index is legal
    exactly when raising is. ``all_in`` adds the largest raise allowed (all-in in no-limit, the pot
    in pot-limit). In a fixed-limit game each index raises the nearest size the rules allow.
    """

    def __init__(self, fractions: Sequence[float] = (0.5, 1.0), all_in: bool = True, *, draw_cards: int = 0,
                 max_runs: int = 0) -> None:
        if isinstance(fractions, str) or not isinstance(fractions, Sequence) or len(fractions) > MAX_FRACTIONS:
            raise ConfigError(f"fractions must be a sequence of at most {MAX_FRACTIONS} positive numbers (of the "
                              f"pot), not {excerpt(fractions)}.")
        self.fractions = tuple(_fraction(f) for f in fractions)
        if type(all_in) is not bool:
            raise ConfigError(f"all_in must be True or False, not {excerpt(all_in)}.")
        if not fractions and not all_in:
            raise ConfigError("PotFractions needs a raise: give fractions, or all_in=True.")
        self.all_in = all_in
        self.labels = ("fold", "check/call", *(f"raise {f:g} pot" for f in self.fractions),
                       *(("all-in",) if all_in else ()))
        super().__init__(draw_cards=draw_cards, max_runs=max_runs)

    def _config(self) -> dict[str, Any]:
        return {"fractions": self.fractions, "all_in": self.all_in}

    def _bet_mask(self, la: LegalActions, game: Game, mask: np.ndarray) -> None:
        super()._bet_mask(la, game, mask)
        if la.can_raise:
            mask[2 : len(self.labels)] = 1

    def _bet_key(self, la: LegalActions) -> tuple[bool, bool] | None:
        return la.can_fold, la.can_raise

    def _bet_move(self, index: int, la: LegalActions, game: Game) -> Move | None:
        if index < 2:
            return ActionAbstraction._bet_move(self, index, la, game)  # (the base's, without super())
        if not la.can_raise:
            return None
        k = index - 2
        if k == len(self.fractions):  # all-in: the largest raise allowed
            return _raise(la, max(la.amounts) if la.amounts else la.max_raise_to)
        hand = game.hand
        pot = hand.pot_total() if hand is not None else 0
        to = la.bet_to + int(self.fractions[k] * (pot + la.call_amount))
        to = min(max(to, la.min_raise_to), la.max_raise_to)
        if la.amounts:
            to = min(la.amounts, key=lambda a: abs(a - to))
        return _raise(la, to)


def _fraction(value: object) -> float:
    """``value`` as a pot fraction: a number above 0 and at most :data:`MAX_FRACTION`, else :class:`ConfigError`."""
    f = math.nan
    if isinstance(value, int | float) and not isinstance(value, bool):
        with contextlib.suppress(OverflowError):  # an int too large for a float stays NaN: refused
            f = float(value)
    if not 0 < f <= MAX_FRACTION:
        raise ConfigError(f"A pot fraction must be a positive finite number of at most {MAX_FRACTION:g}, not "
                          f"{excerpt(value)}.")
    return f


class RaiseTo(ActionAbstraction):
    """Raw sizes: index 0 folds, 1 checks or calls, ``2 + t`` bets or raises to ``t`` chips (the
    street total), for ``t`` from 0 to ``max_chips``; the mask marks the legal range. For small
    stacks and research: the space has ``max_chips + 3`` indices (at most 100,000)."""

    def __init__(self, max_chips: int | None = None, *, draw_cards: int = 0, max_runs: int = 0) -> None:
        if max_chips is not None:
            max_chips = check_int(max_chips, "max_chips (None: the chips on the table; PotFractions for deep "
                                  "stacks)", ConfigError, minimum=1, maximum=MAX_RAISE_TO)
        self.max_chips = max_chips
        super().__init__(draw_cards=draw_cards, max_runs=max_runs)

    def _count(self) -> int:
        return (self.max_chips or 0) + 3

    def _bet_label(self, index: int) -> str:
        if 0 <= index < 2:
            return ("fold", "check/call")[index]
        return f"raise to {index - 2}" if index < self.bets else "nothing"

    def _config(self) -> dict[str, Any]:
        return {"max_chips": self.max_chips}

    def with_chips(self, chips: int) -> RaiseTo:
        """This abstraction sized for ``chips`` on the table, unless it was given ``max_chips``."""
        chips = check_int(chips, "chips on the table", ConfigError, minimum=0)
        if self.max_chips is not None:
            return self
        if chips > MAX_RAISE_TO:
            raise ConfigError(f"RaiseTo needs one index per chip: {chips} chips on the table is more than "
                              f"{MAX_RAISE_TO}; use smaller stacks or PotFractions.")
        return RaiseTo(chips, draw_cards=self.draw_cards, max_runs=self.max_runs)

    def _bet_mask(self, la: LegalActions, game: Game, mask: np.ndarray) -> None:
        super()._bet_mask(la, game, mask)
        if la.can_raise:
            top = self.bets - 3
            if la.amounts:  # the sizes the rules give, and all-in (LegalActions.allows_raise_to)
                for a in (*la.amounts, la.all_in_to):
                    if a <= top and la.allows_raise_to(a):
                        mask[2 + a] = 1
            elif la.min_raise_to <= top:
                mask[2 + la.min_raise_to : 2 + min(la.max_raise_to, top) + 1] = 1

    def _bet_move(self, index: int, la: LegalActions, game: Game) -> Move | None:
        if index < 2:
            return ActionAbstraction._bet_move(self, index, la, game)  # (the base's, without super())
        to = index - 2
        if not la.allows_raise_to(to):  # the betting round's size rules
            return None
        return _raise(la, to)

    def _bet_legal(self, la: LegalActions, game: Game) -> str:
        words = super()._bet_legal(la, game) if not la.can_raise else ", ".join(
            f"{i} ({self._bet_label(i)})" for i in (0, 1) if i == 1 or la.can_fold)
        if la.can_raise:
            sizes = la.amounts or (la.min_raise_to, la.max_raise_to)
            if la.amounts:
                words += ", " + ", ".join(f"{2 + a} (raise to {a})" for a in sizes)
            else:
                words += f", {2 + sizes[0]} to {2 + sizes[1]} (raise to {sizes[0]} to {sizes[1]}: index 2 + chips)"
        return words


def draw_cards(game: Game) -> int:
    """The most hole cards a player holds in a draw round of ``game``'s variant (0: no draw)."""
    held = most = 0
    for stage in check_game(game).dispatcher.stages:
        if isinstance(stage, DealHole):
            held += len(stage.face_up)
        elif isinstance(stage, Draw):
            most = max(most, held)
            if not stage.replace:
                held -= min(stage.min_discards, held)
    return most


def max_runs(game: Game) -> int:
    """The most run-outs ``game``'s variant lets players ask for (0: it does not run it twice)."""
    return max((s.max_runs for s in check_game(game).dispatcher.stages if isinstance(s, RunItTwice)), default=0)


def _fixed_limit(game: Game) -> bool:
    rounds = [s.structure for s in game.dispatcher.stages if isinstance(s, BettingRound)]
    return bool(rounds) and all(isinstance(r, FixedLimitStructure) for r in rounds)


def for_game(spec: object, game: Game, *, chips: int, choose_runs: bool = False) -> ActionAbstraction:
    """The abstraction ``spec`` (a name in :data:`NAMES` or an :class:`ActionAbstraction`) fitted to
    ``game``: its draws, its run-out choices when ``choose_runs``, ``chips`` on the table (RaiseTo)."""
    check_game(game)
    chips = check_int(chips, "chips on the table", ConfigError, minimum=0)
    if isinstance(spec, str):
        name = check_text(spec, "actions", ConfigError, max_length=100).strip().lower()
        if name == "default":
            name = "fixed-limit" if _fixed_limit(game) else "pot-fractions"
        made: ActionAbstraction
        if name == "fixed-limit":
            made = FixedLimit()
        elif name == "pot-fractions":
            made = PotFractions()
        elif name == "raise-to":
            made = RaiseTo()
        else:
            raise ConfigError(f"Unknown actions {excerpt(spec)}; give one of {', '.join(NAMES)}, or an "
                              f"ActionAbstraction (FixedLimit(), PotFractions(fractions=...), RaiseTo()).")
    elif isinstance(spec, ActionAbstraction):
        made = spec
    else:
        raise ConfigError(f"actions must be one of {', '.join(NAMES)} or an ActionAbstraction, not {excerpt(spec)}.")
    fitted = made.fit(draw_cards=draw_cards(game), max_runs=max_runs(game) if choose_runs else 0)
    if isinstance(fitted, RaiseTo):
        fitted = fitted.with_chips(chips)
    return fitted
