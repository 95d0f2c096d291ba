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

    python benchmarks/rl_scaling.py --vector [--steps 20000] [--rounds 3]

``--vector``: learner decisions per second in wall time of ``VectorEnv(workers=1)`` and
``VectorEnv(workers=2)`` (64 tables, a random bot at the other seat, the learner's index drawn from
the masks for the batch at once) and of a lone ``SingleAgentEnv``, run in turn ``--rounds`` times
(the workers' start not counted); each round's ratios, and their medians.
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


def worker_cpu(pid: int) -> float:
    """A process's CPU seconds so far (Linux: ``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def vector_wall(game: str, steps: int, workers: int) -> tuple[float, float]:
    """Learner decisions per second of a 64-table ``VectorEnv`` on ``workers`` processes, or (0) of a lone
    ``SingleAgentEnv``: in wall time, and in the CPU time of the critical path (this process's and the busiest
    worker's, which the wall time equals when every process has a core)."""
    from cardgame.rl.gym import SingleAgentEnv
    from cardgame.rl.vector import VectorEnv

    variant, options = GAMES[game]
    rng = np.random.default_rng(1)
    if workers == 0:
        env = SingleAgentEnv(variant, opponents="random", **options)  # type: ignore[arg-type]
        obs, _ = env.reset(seed=1)
        start, cpu = time.perf_counter(), time.process_time()
        for _ in range(steps):
            mask = obs["action_mask"]
            obs, _, terminated, _, _ = env.step(int((rng.random(mask.size) * mask).argmax()))
            if terminated:
                obs, _ = env.reset()
        return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)
    vec = VectorEnv(variant, 64, opponents="random", dict_obs=False, copy=False, workers=workers,
                    **options)  # type: ignore[arg-type]
    vec.reset(seed=1)
    pids = [p.pid for p in vec._pool.processes] if vec._pool is not None else []
    busy = [worker_cpu(p) for p in pids]
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(steps // 64):
        masks = vec.action_masks()
        vec.step((rng.random(masks.shape) * masks).argmax(1).tolist())
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    cpu += max((worker_cpu(p) - b for p, b in zip(pids, busy, strict=True)), default=0.0)
    vec.close()
    return steps // 64 * 64 / seconds, steps // 64 * 64 / cpu


def vector_main(steps: int, rounds: int) -> None:
    print(f"VectorEnv (64 tables) against a lone SingleAgentEnv: learner decisions per second, wall time and "
          f"(cpu) the critical path's CPU time ({os.cpu_count()} cores, {steps:,} decisions a run, runs in turn)")
    print(f"  {'game':<6} {'round':<7} {'lone':>8} {'1 worker':>9} {'2 workers':>9} {'2w/1w':>6} {'2w/lone':>7} "
          f"{'1w/lone':>7}")
    for game in GAMES:
        ratios: dict[str, list[tuple[float, float, float]]] = {"wall": [], "cpu": []}
        for r in range(rounds):
            runs = [vector_wall(game, steps, w) for w in (0, 1, 2)]
            for k, clock in enumerate(ratios):
                lone, one, two = (run[k] for run in runs)
                ratios[clock].append((two / one, two / lone, one / lone))
                print(f"  {game:<6} {r + 1:>2} {clock:<4} {lone:>8,.0f} {one:>9,.0f} {two:>9,.0f} {two / one:>5.2f}x "
                      f"{two / lone:>6.2f}x {one / lone:>6.2f}x")
        for clock, values in ratios.items():
            m = np.median(np.array(values), axis=0)
            print(f"  {game:<6} median {clock:<4} {'':>17} {'':>9} {m[0]:>5.2f}x {m[1]:>6.2f}x {m[2]:>6.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--episodes", type=int, default=6_000)
    parser.add_argument("--backend", choices=("process", "ray"), default="process")
    parser.add_argument("--game", choices=tuple(GAMES), action="append", help="leduc, nlh (default: both)")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument("--vector", action="store_true", help="VectorEnv(workers=2) against 1 and a lone env")
    parser.add_argument("--steps", type=int, default=20_000, help="--vector: learner decisions a run")
    parser.add_argument("--rounds", type=int, default=3, help="--vector: runs of each, in turn")
    args = parser.parse_args(argv)
    if args.vector:
        vector_main(args.steps, args.rounds)
        return 0
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
