"""The one seeded random source of a game: every shuffle and every bot decision draws from it."""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence
from typing import Any, TypeVar

__all__ = ["RandomSource"]

T = TypeVar("T")


class RandomSource:
    """A seeded ``random.Random``; ``RandomSource()`` picks a secure random seed and records it.

    Replaying a game with the same seed (and the same actions) reproduces every card dealt.
    """

    __slots__ = ("_random", "seed")

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int = secrets.randbits(64) if seed is None else int(seed)
        self._random = random.Random(self.seed)

    @property
    def generator(self) -> random.Random:
        """The underlying ``random.Random`` (for hot loops that bind its methods)."""
        return self._random

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates through the seeded generator)."""
        self._random.shuffle(items)

    def randrange(self, stop: int) -> int:
        return self._random.randrange(stop)

    def random(self) -> float:
        return self._random.random()

    def choice(self, items: list[T] | tuple[T, ...]) -> T:
        return items[self._random.randrange(len(items))]

    def getstate(self) -> tuple[Any, ...]:
        """The generator's state, for snapshots."""
        return self._random.getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._random.setstate(state)

    def __repr__(self) -> str:
        return f"RandomSource(seed={self.seed})"
