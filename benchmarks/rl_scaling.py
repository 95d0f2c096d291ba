"""Self-play data across cores: :func:`cardgame.rl.vector.collect`'s decisions per second on 1, 2 and
all cores.

    python benchmarks/rl_scaling.py [--episodes 6000] [--backend process] [--game leduc] [--json out.json]

Every seat plays ``Policy(uniform)`` (index answers from the mask, as a learner's policy does), so
each decision is observed (``observation``: the planes) and recorded: a row of the returned
:class:`~cardgame.rl.vector.Trajectories` is one learner step. The episodes are cut into shards
(four per worker of the largest run) played by ``workers`` local processes (``--backend process``)
or a local Ray cluster started with that many CPUs (``--backend ray``, ``pip install 'cardgame[ray]'``);
the wall time includes starting the workers. ``speed-up`` is against one worker; the arrays are the
same for every worker count (``collect``'s guarantee), which the script checks.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent)]

GAMES = {"leduc": ("leduc hold'em", {}), "nlh": ("NT", {"stack": 100})}


@dataclass(frozen=True)
class Scaling:
    """One run: ``workers`` workers played ``episodes`` episodes, ``steps`` decisions, in ``seconds``."""

    game: str
    backend: str
    workers: int
    episodes: int
    steps: int
    seconds: float
    steps_per_s: float
    speedup: float


def counts() -> list[int]:
    """1, 2 and every core of this machine (each once)."""
    return sorted({1, 2, os.cpu_count() or 1})


def measure(game: str, episodes: int, backend: str, workers: list[int]) -> list[Scaling]:
    from cardgame.rl.vector import Policy, collect, uniform

    variant, options = GAMES[game]
    shard = max(episodes // (4 * max(workers)), 1)
    runs: list[Scaling] = []
    first = None
    for n in workers:
        if backend == "ray":
            import ray

            ray.shutdown()  # a cluster of n CPUs for this run
            ray.init(num_cpus=n, include_dashboard=False, log_to_driver=False, configure_logging=False)
        start = time.perf_counter()
        data = collect(variant, [Policy(uniform), Policy(uniform)], episodes, seed=1, workers=n, backend=backend,
                       shard_episodes=shard, **options)  # type: ignore[arg-type]
        seconds = time.perf_counter() - start
        if first is None:
            first = data
        elif not np.array_equal(first.actions, data.actions) or not np.array_equal(first.observations,
                                                                                    data.observations):
            raise SystemExit(f"{n} workers collected other data than one: collect is broken")
        base = runs[0].steps_per_s if runs else len(data) / seconds
        runs.append(Scaling(game, backend, n, episodes, len(data), seconds, len(data) / seconds,
                            len(data) / seconds / base))
    if backend == "ray":
        import ray

        ray.shutdown()
    return runs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=6_000)
    parser.add_argument("--backend", choices=("process", "ray"), default="process")
    parser.add_argument("--game", choices=tuple(GAMES), action="append", help="leduc, nlh (default: both)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    rows: list[Scaling] = []
    for game in args.game or list(GAMES):
        rows += measure(game, args.episodes, args.backend, counts())
    print(f"collect: self-play decisions per second ({args.backend}, {args.episodes:,} episodes a run, "
          f"{os.cpu_count()} cores)")
    print(f"  {'game':<8} {'workers':>7} {'steps':>9} {'seconds':>8} {'steps/s':>10} {'speed-up':>8}")
    for r in rows:
        print(f"  {r.game:<8} {r.workers:>7} {r.steps:>9,} {r.seconds:>8.2f} {r.steps_per_s:>10,.0f} "
              f"{r.speedup:>7.2f}x")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in rows], indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
