"""Where the shards of a match (or of any job cut into shards: :func:`run_jobs`) are played: here
(serial), in local processes, or on a Ray cluster.

Every backend plays the same shards with the same seeds and hands back their results, which are
combined in shard order, so the results are identical whatever the backend and the workers.
Ray (``pip install 'cardgame[ray]'``) is for runs that outgrow one machine: a cluster already
joined with ``ray.init(address=...)`` is used as it is, else a local one with ``workers`` CPUs.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int, excerpt
from cardgame.simulate.config import Match
from cardgame.simulate.shard import Shard, ShardResult, play_shard

__all__ = ["BACKENDS", "MAX_WORKERS", "run_jobs", "run_shards"]

BACKENDS = ("serial", "process", "ray")
MAX_WORKERS = 1_024
"""Workers a match may ask for (processes here, CPUs of a local Ray cluster)."""

J = TypeVar("J")
R = TypeVar("R")
Play = Callable[[J, Shard], R]
Done = Callable[[R], None]


def _serial(job: J, shards: Sequence[Shard], play: Play[J, R], workers: int, done: Done[R]) -> list[R]:
    out = []
    for shard in shards:
        out.append(play(job, shard))
        done(out[-1])
    return out


#: Why the pool of processes broke, when the main module is a script (``python script.py``).
UNGUARDED = ("The worker processes stopped before their work was done: a script that calls simulate (or run_jobs) "
             "with more than one worker must do it under if __name__ == \"__main__\": (each worker imports the "
             "script{where}, which must not start the work again).")


def _process(job: J, shards: Sequence[Shard], play: Play[J, R], workers: int, done: Done[R]) -> list[R]:
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        # a worker importing the main module, which starts the work again (no __main__ guard): the worker
        # stops quietly, and the script that started it says why (below), in one line
        raise SystemExit(1)
    out = []
    try:
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            futures = [pool.submit(play, job, shard) for shard in shards]
            for future in as_completed(futures):
                out.append(future.result())
                done(out[-1])
    except BrokenProcessPool:
        script = getattr(sys.modules.get("__main__"), "__file__", None)
        if script is None or getattr(sys.modules.get("__main__"), "__package__", None):  # -m, a shell: no script
            raise ConfigError("A worker process stopped before its work was done (killed, or out of memory?); "
                              "try fewer workers.") from None
        raise ConfigError(UNGUARDED.format(where=f" {excerpt(os.path.basename(script))}")) from None
    return out


def _ray(job: J, shards: Sequence[Shard], play: Play[J, R], workers: int, done: Done[R]) -> list[R]:
    try:
        import ray
    except ImportError:
        raise ConfigError("The Ray backend needs Ray: pip install 'cardgame[ray]'.") from None
    if not ray.is_initialized():
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    remote = ray.remote(play)
    job_ref = ray.put(job)
    pending = [remote.remote(job_ref, shard) for shard in shards]
    out = []
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        out.append(ray.get(ready[0]))
        done(out[-1])
    return out


_RUN = {"serial": _serial, "process": _process, "ray": _ray}


def _backend(workers: object, backend: str | None) -> str:
    workers = check_int(workers, "workers", ConfigError, minimum=1, maximum=MAX_WORKERS)
    backend = backend or ("serial" if workers == 1 else "process")
    if not isinstance(backend, str) or backend not in _RUN:
        raise ConfigError(f"Unknown backend {excerpt(backend)}; the backends are {', '.join(BACKENDS)}.")
    return backend


def run_jobs(job: J, shards: Sequence[Shard], play: Play[J, R], *, workers: int = 1, backend: str | None = None,
             done: Done[R] = lambda result: None) -> list[R]:
    """``play(job, shard)`` for each of ``shards`` on ``backend`` (default: serial for one worker,
    else local processes) with ``workers`` workers; ``done`` is called as each shard finishes.
    Other backends pickle ``job`` and import ``play``: a module-level function."""
    backend = _backend(workers, backend)
    if backend != "serial":
        try:
            pickle.dumps(job)
        except Exception as exc:
            raise ConfigError(f"The {backend} backend sends the bots (and policies) to other processes, and they "
                              f"cannot be pickled ({exc}); pass bots by name, policies as module-level functions."
                              ) from None
    return _RUN[backend](job, shards, play, workers, done)


def run_shards(match: Match, shards: Sequence[Shard], *, workers: int = 1, backend: str | None = None,
               done: Done[ShardResult] = lambda result: None) -> list[ShardResult]:
    """Play ``shards`` of ``match`` on ``backend`` (default: serial for one worker, else local
    processes) with ``workers`` workers; ``done`` is called as each shard finishes."""
    if match.record and _backend(workers, backend) != "serial":
        raise ConfigError("Recording to a SQLite store needs the serial backend (one writer); use workers=1.")
    return run_jobs(match, shards, play_shard, workers=workers, backend=backend, done=done)
