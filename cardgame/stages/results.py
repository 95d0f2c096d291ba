"""What the stages hand on: the result records of the standard stages (and draw options).

Each is a frozen attrs value saved by name in snapshots and event stores
(:mod:`cardgame.store.serialize`). They live in a module of their own, which the compiled build
(``setup.py``) leaves as Python, so their field annotations stay the typed ones cattrs reads.
Each stage module re-exports its own result (``cardgame.stages.showdown.ShowdownResult``).
"""

from __future__ import annotations

from typing import Protocol

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.cards import Card

__all__ = ["AwaitsPlayer", "BettingResult", "BringInResult", "DrawOptions", "ForcedBetsResult", "HandOpened", "Opening",
           "RunOptions", "ShowOptions", "ShowdownResult"]


class AwaitsPlayer(Protocol):
    """A stage that waits on a player's decision says whose (``Game.to_act`` asks the current
    stage): the betting round, a draw, the run-it-twice choice."""

    @property
    def to_act(self) -> int | None:
        """The seat the stage waits on, or ``None``."""


class Opening:
    """What a result offers the betting round that follows it (each a property, default: nothing),
    so a receiver asks ``isinstance(previous, Opening)`` rather than naming result types:
    ``opener``, the seat the round considers first (``None``: the round's own order); ``bet_to``,
    ``min_raise`` and ``raises``, the bet left to match, the smallest raise and the bets the cap
    counts (the blinds'); ``bring_in``, the amount the opener may bring in instead of completing
    (0: none)."""

    __slots__ = ()

    @property
    def opener(self) -> int | None:
        return None

    @property
    def bet_to(self) -> int:
        return 0

    @property
    def min_raise(self) -> int:
        return 0

    @property
    def raises(self) -> int:
        return 0

    @property
    def bring_in(self) -> int:
        return 0


@fast_init
@attrs.frozen
class HandOpened:
    """Result: the hand number, the button seat and the seats dealt in (left of the button first)."""

    hand: int
    button: int | None
    seats: tuple[int, ...]


@fast_init
@attrs.frozen
class ForcedBetsResult(Opening):
    """Result: the button, the (seat, amount) of every live blind (small blind first) and of every
    dead post, and what the betting round that follows starts from (:class:`Opening`): ``opener``
    acts first (left of the last blind; ``None`` without a live blind), ``bet_to`` is the bet to
    call (the full blind, however short its poster), ``min_raise`` the smallest raise and
    ``raises`` 1 when a blind is the round's bet (it counts for the cap)."""

    button: int | None
    blinds: tuple[tuple[int, int], ...]
    antes: tuple[tuple[int, int], ...]
    opener: int | None = None
    bet_to: int = 0
    min_raise: int = 0
    raises: int = 0


@fast_init
@attrs.frozen
class BringInResult(Opening):
    """Result: the seat that must bring in (``None`` if nobody can: all are all-in) and the amount;
    as an :class:`Opening`, the seat opens the round and may bring in ``amount``."""

    seat: int | None
    amount: int

    @property
    def opener(self) -> int | None:
        return self.seat

    @property
    def bring_in(self) -> int:
        return self.amount if self.seat is not None else 0


@fast_init
@attrs.frozen
class BettingResult:
    """Result: the street, the seats still live, whether all but one folded, and whether betting is
    over for the hand (fewer than two live players can still bet: the rest is dealt out)."""

    street: str
    live: tuple[int, ...]
    won_uncontested: bool
    betting_over: bool = False


@fast_init
@attrs.frozen
class DrawOptions:
    """What the player to draw may do: discard ``min_discards`` to ``max_discards`` of ``hole``
    (0: stand pat); ``replace`` is ``False`` where discards are not replaced (Pineapple)."""

    seat: int
    hole: tuple[Card, ...]
    max_discards: int
    min_discards: int = 0
    replace: bool = True


@fast_init
@attrs.frozen
class RunOptions:
    """A run-it-twice choice (:class:`~cardgame.stages.RunItTwice`, a house option): ``seat`` is the
    live player to choose now, and may ask for 1 to ``max_runs`` run-outs of the rest of the
    board (``game.choose_runs(seat, runs)``). Every live player chooses in turn from the button's
    left; the fewest asked for is how many run-outs are dealt, so running it more than once needs
    everyone's agreement. Each pot is then split equally between the run-outs (an odd chip to the
    first) and each part is awarded on its own board."""

    seat: int
    max_runs: int


@fast_init
@attrs.frozen
class ShowOptions:
    """A show-or-muck decision at a showdown played with ``show_or_muck`` (TDA rule 16; Robert's
    Rules, showdown): ``seat`` shows (``game.show(seat)``) or mucks (``game.muck(seat)``) its hand.
    ``wins``: the hand takes a share of some pot against the hands tabled so far; ``awarded``: the
    pot is already won uncontested (or every other hand mucked), and showing is only a courtesy.
    ``default`` is what a player who does not answer does: show a hand that wins (a muck forfeits
    it), muck one that does not."""

    seat: int
    wins: bool
    awarded: bool = False

    @property
    def default(self) -> str:
        """``"show"`` for a hand that wins a contested pot, else ``"muck"``."""
        return "show" if self.wins and not self.awarded else "muck"


@fast_init
@attrs.frozen
class ShowdownResult:
    """Result: chips won per seat, and the seats that showed their cards."""

    hand: int
    winnings: tuple[tuple[int, int], ...]
    shown: tuple[int, ...]
