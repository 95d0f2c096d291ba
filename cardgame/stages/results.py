"""What the stages hand on: the result records of the standard stages (and draw options).

Each is a frozen attrs value saved by name in snapshots and event stores
(:mod:`cardgame.store.serialize`). They live in a module of their own, which the compiled build
(``setup.py``) leaves as Python, so their field annotations stay the typed ones cattrs reads.
Each stage module re-exports its own result (``cardgame.stages.showdown.ShowdownResult``).
"""

from __future__ import annotations

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.cards import Card

__all__ = ["BettingResult", "BringInResult", "DrawOptions", "ForcedBetsResult", "HandOpened", "RunOptions",
           "ShowdownResult"]


@fast_init
@attrs.frozen
class HandOpened:
    """Result: the hand number, the button seat and the seats dealt in (left of the button first)."""

    hand: int
    button: int | None
    seats: tuple[int, ...]


@fast_init
@attrs.frozen
class ForcedBetsResult:
    """Result: the button, the (seat, amount) of every live blind (small blind first) and of every
    dead post, and ``opener``, the seat that acts first in the betting round that follows (left of
    the last blind; ``None`` without a live blind)."""

    button: int | None
    blinds: tuple[tuple[int, int], ...]
    antes: tuple[tuple[int, int], ...]
    opener: int | None = None


@fast_init
@attrs.frozen
class BringInResult:
    """Result: the seat that must bring in (``None`` if nobody can: all are all-in) and the amount."""

    seat: int | None
    amount: int


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
    """What the player to choose may do: ask for 1 to ``max_runs`` run-outs of the rest of the board."""

    seat: int
    max_runs: int


@fast_init
@attrs.frozen
class ShowdownResult:
    """Result: chips won per seat, and the seats that showed their cards."""

    hand: int
    winnings: tuple[tuple[int, int], ...]
    shown: tuple[int, ...]
