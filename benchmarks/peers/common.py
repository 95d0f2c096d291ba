"""Shared workload definition and measuring loop for the engine benchmark.

Workload (identical for every engine): no-limit hold'em, blinds 1/2, every stack reset to
``STACK`` at the start of each hand, each decision drawn uniformly from the legal options
{fold (only when facing a bet), check/call, minimum raise, all-in} using ``random.Random(seed)``;
all-in is dropped when it equals the minimum raise, and raises are offered only when the engine
says a raise is legal (so a player who can only call all-in chooses between fold and call).
The engines shuffle with the global ``random`` module, which ``drive`` seeds too.

A runner module exposes ``NAME``, ``available()`` and
``play(hands, players, seed, seconds=None) -> RunStats``; the simplest ``play`` is
``drive(partial(make_table, players), hands, players, seed, seconds)`` where ``make_table(players,
rng)`` builds a table and returns a function that plays one whole hand (showdown and side pots
included) and returns ``(decisions, sum of stacks after the hand)``.
"""

from __future__ import annotations

import random
import resource
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

STACK = 400
SMALL_BLIND, BIG_BLIND = 1, 2

#: Measure ``peak_kib`` with tracemalloc (slows every engine down) instead of RSS growth.
TRACEMALLOC = False

Hand = Callable[[], tuple[int, int]]


@dataclass(slots=True)
class RunStats:
    hands: int = 0
    decisions: int = 0
    seconds: float = 0.0
    errors: int = 0
    conservation_failures: int = 0
    peak_kib: float = 0.0
    error_kinds: dict[str, int] = field(default_factory=dict)

    @property
    def hands_per_s(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def decisions_per_s(self) -> float:
        return self.decisions / self.seconds if self.seconds else 0.0


class _Counts(Protocol):
    errors: int
    error_kinds: dict[str, int]


def count_error(stats: _Counts, exc: Exception) -> None:
    """Count a hand that raised ``exc``, by its message."""
    stats.errors += 1
    kind = f"{type(exc).__name__}: {exc}"[:100]
    stats.error_kinds[kind] = stats.error_kinds.get(kind, 0) + 1


def drive(
    make_table: Callable[[random.Random], Hand],
    hands: int,
    players: int,
    seed: int,
    seconds: float | None = None,
) -> RunStats:
    """Play up to ``hands`` hands (or until ``seconds`` are spent) and measure them.

    An exception counts as an error for that hand (which still counts as played) and the table
    is rebuilt; a hand whose final stacks do not add up to ``players * STACK`` counts as a
    conservation failure. ``peak_kib`` is the growth of the process's peak RSS during the run
    (meaningful in a fresh process, as ``engine.py`` runs it), or the tracemalloc peak when
    ``TRACEMALLOC`` is set.
    """
    random.seed(seed)
    rng = random.Random(seed)
    hand = make_table(rng)
    stats, expected = RunStats(), players * STACK
    if TRACEMALLOC:
        tracemalloc.start()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    deadline = start + seconds if seconds else float("inf")
    for _ in range(hands):
        try:
            decisions, total = hand()
        except Exception as exc:
            count_error(stats, exc)
            hand = make_table(rng)
        else:
            stats.decisions += decisions
            stats.conservation_failures += total != expected
        stats.hands += 1
        if time.perf_counter() >= deadline:
            break
    stats.seconds = time.perf_counter() - start
    if TRACEMALLOC:
        stats.peak_kib = tracemalloc.get_traced_memory()[1] / 1024
        tracemalloc.stop()
    else:
        stats.peak_kib = float(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0)
    return stats
