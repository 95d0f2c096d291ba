"""The decision clock: ``action_time`` seconds for each decision, then the seat's time bank.

A seat's bank starts full (``time_bank`` seconds) and is only spent: each decision that takes
longer than the action time spends the difference, and a timeout spends it all. Times are
seconds on the host's clock (``time.monotonic`` unless a test gives another).
"""

from __future__ import annotations

__all__ = ["Clock"]


class Clock:
    """The running decision clock of one table, and every seat's time bank."""

    def __init__(self, action_time: float, time_bank: float) -> None:
        self.action_time = action_time
        self.time_bank = time_bank
        self.banks: dict[int, float] = {}
        self.seat: int | None = None  # the seat whose clock runs
        self.key: int | None = None  # the decision it runs for (the event number it was asked on)
        self.started = 0.0

    def bank(self, seat: int) -> float:
        """``seat``'s time bank left, not counting a decision in progress."""
        return self.banks.get(seat, self.time_bank)

    def start(self, seat: int, key: int, now: float) -> None:
        """Run the clock for ``seat``'s decision ``key`` (no change if it already runs for it)."""
        if self.seat != seat or self.key != key:
            self.seat, self.key, self.started = seat, key, now

    def deadline(self) -> float:
        """When the running decision times out."""
        assert self.seat is not None
        return self.started + self.action_time + self.bank(self.seat)

    def action_left(self, now: float) -> float:
        """The action time left at ``now``: never more than ``action_time``, also while the clock
        waits to start (after a hand, for the hand pause)."""
        return min(self.action_time, max(0.0, self.started + self.action_time - now))

    def starts_in(self, now: float) -> float:
        """Seconds until the running clock starts to count (0 once it counts)."""
        return max(0.0, self.started - now)

    def bank_left(self, now: float) -> float:
        if self.seat is None:
            return 0.0
        over = max(0.0, now - self.started - self.action_time)
        return max(0.0, self.bank(self.seat) - over)

    def spend(self, seat: int, now: float) -> None:
        """``seat`` answered (or timed out) at ``now``: spend what it used of its bank; stop the clock."""
        if self.seat == seat:
            self.banks[seat] = self.bank_left(now)
            self.seat = self.key = None

    def forget(self, seat: int) -> None:
        """``seat`` left: a new player there starts with a full bank."""
        self.banks.pop(seat, None)
        if self.seat == seat:
            self.seat = self.key = None
