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

from pathlib import Path

import numpy as np

from cardgame.simulate.config import BlindSchedule, Match
from cardgame.simulate.results import BotResult, MatchResult, combine
from cardgame.simulate.shard import Shard, ShardResult, play_shard
from cardgame.simulate.workers import BACKENDS, run_shards

__all__ = ["BACKENDS", "BlindSchedule", "BotResult", "Match", "MatchResult", "Shard", "ShardResult", "play_shard",
           "shards", "simulate"]


def shards(match: Match) -> list[Shard]:
    """The match's shards: blocks of ``shard_hands`` hands, each seeded from ``match.seed``."""
    sizes = [match.shard_hands] * (match.hands // match.shard_hands)
    if match.hands % match.shard_hands:
        sizes.append(match.hands % match.shard_hands)
    seeds = np.random.SeedSequence(match.seed).spawn(len(sizes))
    return [Shard(i, size, int(s.generate_state(1, dtype=np.uint64)[0] >> 1))
            for i, (size, s) in enumerate(zip(sizes, seeds, strict=True))]


def simulate(match: Match, *, workers: int = 1, backend: str | None = None, progress: bool = False) -> MatchResult:
    """Play ``match`` and return its results. ``workers`` > 1 uses local processes unless
    ``backend`` says ``"ray"``; ``progress`` shows a progress bar (rich) on the terminal."""
    import variants
    from cardgame.play.shape import game_shape

    variant = variants.get(match.variant)
    big_blind = game_shape(variant.build(**match.params), variant.deck).big_blind
    parts = shards(match)
    if not progress:
        results = run_shards(match, parts, workers=workers, backend=backend)
    else:
        from rich.progress import Progress

        with Progress(transient=True) as bar:
            task = bar.add_task(f"{variant.name}: {match.hands:,} hands", total=match.hands)
            sizes = {s.index: s.hands for s in parts}
            results = run_shards(match, parts, workers=workers, backend=backend,
                                 done=lambda r: bar.advance(task, sizes[r.index]))
    result = combine(match, big_blind, results)
    if match.phh:
        from cardgame.phh.io import save

        hands = [h for r in sorted(results, key=lambda r: r.index) for h in r.phh]
        Path(match.phh).parent.mkdir(parents=True, exist_ok=True)
        save(match.phh, hands)
    return result
