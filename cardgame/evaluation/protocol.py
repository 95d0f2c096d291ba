"""What the showdown needs from an evaluator, the cards it ranks (:class:`CardCounts`), and
:func:`winners` (Norvig's ``allmax``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

import attrs

from cardgame.evaluation.describe import HandValue

__all__ = ["CardCounts", "CountsCards", "DescribesValues", "HandEvaluator", "card_counts", "winners"]

#: Fewest and most cards (most ``None``: no limit).
Bounds = tuple[int, int | None]


def _within(low: int, high: int, bounds: Bounds) -> bool:
    return bounds[0] <= low and (bounds[1] is None or high <= bounds[1])


def _bounds(bounds: Bounds) -> str:
    least, most = bounds
    return f"at least {least}" if most is None else str(least) if least == most else f"{least} to {most}"


@attrs.frozen(cache_hash=True)
class CardCounts:
    """The cards an evaluator ranks, each as ``(fewest, most)`` (most ``None``: no limit): ``together``
    the hole and board cards of a hand, ``hole`` and ``board`` each. Hold'em's high hand takes 5 to 7
    together; Omaha exactly two of 2 to 6 hole cards with three of 3 to 5 board cards."""

    together: Bounds
    hole: Bounds = (0, None)
    board: Bounds = (0, None)

    def misfit(self, hole: tuple[int, int], board: tuple[int, int], together: tuple[int, int]) -> str | None:
        """What is wrong with hands of ``hole``, ``board`` and ``together`` cards (each a range of
        fewest and most), or ``None`` when every such hand can be ranked."""
        for what, have, bounds in (("together", together, self.together), ("in the hole (up cards too)", hole,
                                   self.hole), ("on the board", board, self.board)):
            if not _within(have[0], have[1], bounds):
                return f"{_bounds(bounds)} cards {what}"
        return None


@runtime_checkable
class CountsCards(Protocol):
    """An evaluator that says which hands it ranks (``cards``), so that a stage list whose showdown
    it cannot rank is refused when the game is built."""

    @property
    def cards(self) -> CardCounts: ...


def card_counts(evaluator: object) -> CardCounts | None:
    """The :class:`CardCounts` an evaluator declares, or ``None`` (a user's evaluator need not)."""
    counts = getattr(evaluator, "cards", None)
    return counts if isinstance(counts, CardCounts) else None

X = TypeVar("X")


@runtime_checkable
class HandEvaluator(Protocol):
    """Ranks a player's hole cards with a board; one instance per kind of hand (high, low...).

    ``rank`` is the fast path (higher is better, equal ties, ``None`` when the hand does not
    qualify, e.g. no 8-low); ``describe`` gives the same ranking as a :class:`HandValue` with text
    and the cards used (``describe(...).value == rank(...)``). Both raise ``CardError`` for
    impossible input (wrong card counts, cards not 0..51). The library's evaluators also say which
    counts they take (:class:`CountsCards`), which the showdown checks when the game is built.
    """

    @property
    def name(self) -> str: ...

    def rank(self, hole: Sequence[int], board: Sequence[int]) -> int | None: ...

    def describe(self, hole: Sequence[int], board: Sequence[int]) -> HandValue | None: ...


@runtime_checkable
class DescribesValues(Protocol):
    """An evaluator whose description depends on the value alone: ``text(value)`` is
    ``describe(hole, board).description`` for every hand worth ``value``, so the showdown
    describes a value without picking its cards."""

    def text(self, value: int) -> str: ...


def winners(hands: Sequence[X], key: Callable[[X], Any] | None = None) -> list[int]:
    """Indices of every hand with the best key (all of them on a tie), in order.

    Keys of ``None`` (a hand that does not qualify) never win; with no qualifying hand the
    result is empty. ``winners([3, 7, 7]) == [1, 2]``.
    """
    best: Any = None
    out: list[int] = []
    for i, hand in enumerate(hands):
        k = hand if key is None else key(hand)
        if k is None:
            continue
        if best is None or k > best:
            best, out = k, [i]
        elif k == best:
            out.append(i)
    return out
