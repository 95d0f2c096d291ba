"""The kernel's events: the base record every game event derives from, and the one the dispatcher emits."""

from __future__ import annotations

from typing import ClassVar

import attrs

__all__ = ["Event", "StageFailed"]


@attrs.frozen
class Event:
    """Base class: an immutable record of one change. A game's own events derive from it."""

    kind: ClassVar[str] = "event"

    def seen_by(self, seat: int | None) -> Event:
        """This event as ``seat`` may see it (``None``: a spectator); hidden information is ``None``."""
        return self

    def describe(self, names: dict[int, str] | None = None) -> str:
        return repr(self)


@attrs.frozen
class StageFailed(Event):
    """The dispatcher stopped the game: stage ``stage`` failed with ``reason``."""

    kind: ClassVar[str] = "stage failed"
    stage: str
    reason: str

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Stage {self.stage} failed: {self.reason}"
