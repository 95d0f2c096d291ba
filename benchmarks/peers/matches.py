"""The bot matches of ``benchmarks/simulate.py`` as other engines play them, and their measuring loop.

Every engine plays no-limit hold'em with blinds 1/2 and every stack reset to ``STACK`` (100 big
blinds, as ``cardgame.simulate.Match`` defaults to) before each hand, the bots keeping their seats
while the button moves. The bots follow the decision rules of ``cardgame.play.bots``:

* ``random``: uniform over fold (only when facing a bet), check/call, the smallest raise and the
  largest (all-in) when it differs, drawn from a seeded ``random.Random``;
* ``calling-station``: always checks or calls;
* ``all-in``: raises all-in whenever a raise is allowed, else checks or calls.

A runner module (``pypokerengine_match``, ``rlcard_match``) exposes ``NAME``, ``DIST``,
``available()`` and ``play(bots, hands, seed, seconds=None) -> MatchStats``. This module uses
only the standard library, so a runner can run under another interpreter than the project's.
"""

from __future__ import annotations

import random
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from .common import count_error

STACK = 200
SMALL_BLIND, BIG_BLIND = 1, 2
BOTS = ("random", "calling-station", "all-in")

#: Plays one whole hand and returns ``(decisions, chips conserved)``.
Hand = Callable[[], tuple[int, bool]]


@dataclass(slots=True)
class MatchStats:
    """One engine's run: hands and decisions played, wall and CPU seconds (CPU includes the worker
    processes), hands that raised (``error_kinds`` counts them by message) and hands whose chips
    did not add up."""

    hands: int = 0
    decisions: int | None = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    errors: int = 0
    conservation_failures: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)


def cpu_seconds() -> float:
    """CPU time of this process and of its children that have ended."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def check_bots(bots: tuple[str, ...]) -> None:
    """Refuse bots the peers do not have."""
    unknown = [bot for bot in bots if bot not in BOTS]
    if unknown:
        raise ValueError(f"The peers play only the bots {', '.join(BOTS)}, not {', '.join(unknown)}.")


def drive(make_table: Callable[[random.Random], Hand], hands: int, seed: int,
          seconds: float | None = None) -> MatchStats:
    """Play up to ``hands`` hands (or until ``seconds`` are spent) and measure them.

    The bots draw from ``random.Random(seed)``; the global ``random`` (which some engines shuffle
    with) is seeded too. A hand that raises counts as played and as an error, and the table is
    built anew.
    """
    random.seed(seed)
    rng = random.Random(seed)
    hand = make_table(rng)
    stats = MatchStats()
    decisions = 0
    cpu0, start = cpu_seconds(), time.perf_counter()
    deadline = start + seconds if seconds else float("inf")
    for _ in range(hands):
        try:
            made, conserved = hand()
        except Exception as exc:
            count_error(stats, exc)
            hand = make_table(rng)
        else:
            decisions += made
            stats.conservation_failures += not conserved
        stats.hands += 1
        if time.perf_counter() >= deadline:
            break
    stats.seconds = time.perf_counter() - start
    stats.cpu_seconds = cpu_seconds() - cpu0
    stats.decisions = decisions
    return stats
