"""What the showdown needs from an evaluator, and :func:`winners` (Norvig's ``allmax``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar, runtime_checkable

from cardgame.evaluation.describe import HandValue

__all__ = ["DescribesValues", "HandEvaluator", "winners"]

X = TypeVar("X")


@runtime_checkable
class HandEvaluator(Protocol):
    """Ranks a player's hole cards with a board; one instance per kind of hand (high, low...).

    ``rank`` is the fast path (higher is better, equal ties, ``None`` when the hand does not
    qualify, e.g. no 8-low); ``describe`` gives the same ranking as a :class:`HandValue` with text
    and the cards used (``describe(...).value == rank(...)``). Both raise ``CardError`` for
    impossible input (wrong card counts, cards not 0..51).
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
