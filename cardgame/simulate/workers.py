"""Where a match's shards are played: here (serial), in local processes, or on a Ray cluster.

Every backend plays the same shards with the same seeds and hands back their results, which are
combined in shard order, so the results are identical whatever the backend and the workers.
Ray (``pip install 'cardgame[ray]'``) is for runs that outgrow one machine: a cluster already
joined with ``ray.init(address=...)`` is used as it is, else a local one with ``workers`` CPUs.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.simulate.config import Match
from cardgame.simulate.shard import Shard, ShardResult, play_shard

__all__ = ["BACKENDS", "MAX_WORKERS", "run_shards"]

BACKENDS = ("serial", "process", "ray")
MAX_WORKERS = 1_024
"""Workers a match may ask for (processes here, CPUs of a local Ray cluster)."""

Done = Callable[[ShardResult], None]


def _serial(match: Match, shards: Sequence[Shard], workers: int, done: Done) -> list[ShardResult]:
    out = []
    for shard in shards:
        out.append(play_shard(match, shard))
        done(out[-1])
    return out


def _process(match: Match, shards: Sequence[Shard], workers: int, done: Done) -> list[ShardResult]:
    out = []
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(play_shard, match, shard) for shard in shards]
        for future in as_completed(futures):
            out.append(future.result())
            done(out[-1])
    return out


def _ray(match: Match, shards: Sequence[Shard], workers: int, done: Done) -> list[ShardResult]:
    try:
        import ray
    except ImportError:
        raise ConfigError("The Ray backend needs Ray: pip install 'cardgame[ray]'.") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    remote = ray.remote(play_shard)
    match_ref = ray.put(match)
    pending = [remote.remote(match_ref, shard) for shard in shards]
    out = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        out.append(ray.get(ready[0]))
        done(out[-1])
    return out


_RUN = {"serial": _serial, "process": _process, "ray": _ray}


def run_shards(match: Match, shards: Sequence[Shard], *, workers: int = 1, backend: str | None = None,
               done: Done = lambda result: None) -> list[ShardResult]:
    """Play ``shards`` of ``match`` on ``backend`` (default: serial for one worker, else local
    processes) with ``workers`` workers; ``done`` is called as each shard finishes."""
    if not isinstance(workers, int) or isinstance(workers, bool) or not 1 <= workers <= MAX_WORKERS:
        raise ConfigError(f"workers must be a whole number from 1 to {MAX_WORKERS:,}, not {excerpt(workers)}.")
    backend = backend or ("serial" if workers == 1 else "process")
    if backend not in _RUN:
        raise ConfigError(f"Unknown backend {backend!r}; the backends are {', '.join(BACKENDS)}.")
    if backend != "serial":
        if match.record:
            raise ConfigError("Recording to a SQLite store needs the serial backend (one writer); use workers=1.")
        try:
            pickle.dumps(match)
        except Exception as exc:
            raise ConfigError(f"The {backend} backend sends the bots to other processes, and they cannot be "
                              f"pickled ({exc}); pass bots by name or as module-level functions.") from None
    return _RUN[backend](match, shards, workers, done)
