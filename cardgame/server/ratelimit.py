"""A token bucket: ``rate`` messages a second on average, bursts of up to ``burst``."""

from __future__ import annotations

__all__ = ["TokenBucket"]


class TokenBucket:
    """``take(now)`` is ``True`` while the connection keeps within its rate."""

    __slots__ = ("burst", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.last = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
