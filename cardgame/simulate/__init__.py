"""Matches between bots and their statistics: ``simulate(Match(...))``.

::

    from cardgame.simulate import Match, simulate

    result = simulate(Match("NT", ("seed-ai", "random", "all-in"), hands=10_000, seed=1), workers=2)
    print(result.table())              # chips, bb/100 ± 95 %, VPIP, PFR, AF, showdowns won
    result.to_json()                   # the same for one seed, whatever the backend and workers

Cash games reset the stacks every hand; tournaments are freeze-outs with rising blinds
(:class:`BlindSchedule`); duplicate matches replay every deal with the seats rotated. Shards of
hands run serially, in local processes, or on Ray (:mod:`cardgame.simulate.workers`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.rng import check_seed
from cardgame.simulate.config import MAX_HANDS, BlindSchedule, Match
from cardgame.simulate.results import BotResult, MatchResult, combine
from cardgame.simulate.shard import Shard, ShardResult, play_shard
from cardgame.simulate.workers import BACKENDS, run_jobs, run_shards

__all__ = ["BACKENDS", "BlindSchedule", "BotResult", "Match", "MatchResult", "Progress", "Shard", "ShardResult",
           "play_shard", "run_jobs", "shards", "simulate", "split"]


def shards(match: Match) -> list[Shard]:
    """The match's shards: blocks of ``shard_hands`` hands, each seeded from ``match.seed``."""
    _check_match(match)
    return split(match.hands, match.shard_hands, match.seed)


def split(hands: int, shard_hands: int, seed: int) -> list[Shard]:
    """``hands`` cut into shards of ``shard_hands`` (the last one shorter), each seeded from ``seed``
    (``numpy.random.SeedSequence.spawn``): the same shards whatever plays them."""
    hands = check_int(hands, "number of hands", ConfigError, minimum=0, maximum=MAX_HANDS)
    shard_hands = check_int(shard_hands, "shard_hands", ConfigError, minimum=1, maximum=MAX_HANDS)
    seed = check_seed(seed)
    sizes = [shard_hands] * (hands // shard_hands)
    if hands % shard_hands:
        sizes.append(hands % shard_hands)
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    return [Shard(i, size, int(s.generate_state(1, dtype=np.uint64)[0] >> 1))
            for i, (size, s) in enumerate(zip(sizes, seeds, strict=True))]


Progress = Callable[[int, int], None]
"""A progress callback: ``progress(done, total)``, hands (or deals) played so far and in all."""


def _check_match(match: object) -> None:
    if not isinstance(match, Match):
        raise ConfigError(f"A match is a cardgame.simulate.Match, not {excerpt(match)}.")


def simulate(match: Match, *, workers: int = 1, backend: str | None = None,
             progress: Progress | None = None) -> MatchResult:
    """Play ``match`` and return its results.

    The match is cut into shards of ``match.shard_hands`` hands, each seeded from ``match.seed``
    (:func:`shards`). ``workers`` is how many shards are played at once: one plays them here, one
    after another; more play them in that many local processes, or on Ray with ``backend="ray"``
    (``backend`` is ``"serial"``, ``"process"`` or ``"ray"``; ``None`` chooses by ``workers``).
    The shards are combined in their order, so the results are identical for any number of
    workers and any backend. ``progress``, if given, is called with ``(hands done, hands in
    all)`` once before the first shard and after each shard (in the order they finish).
    """
    import variants
    from cardgame.play.shape import game_shape

    _check_match(match)
    if progress is not None and not callable(progress):
        raise ConfigError(f"progress must be None or a function progress(done, total), not {excerpt(progress)}.")
    variant = variants.get(match.variant)
    big_blind = game_shape(variant.build(**match.params), variant.deck).big_blind
    parts = shards(match)
    if progress is None:
        results = run_shards(match, parts, workers=workers, backend=backend)
    else:
        report = progress
        sizes = {s.index: s.hands for s in parts}
        done = 0

        def finished(result: ShardResult) -> None:
            nonlocal done
            done += sizes[result.index]
            report(done, match.hands)

        report(0, match.hands)
        results = run_shards(match, parts, workers=workers, backend=backend, done=finished)
    result = combine(match, big_blind, results)
    if match.phh:
        from cardgame.phh.io import save

        hands = [h for r in sorted(results, key=lambda r: r.index) for h in r.phh]
        Path(match.phh).parent.mkdir(parents=True, exist_ok=True)
        save(match.phh, hands)
    return result
