"""Training on many workers with Ray: a policy-gradient learner fed by :func:`cardgame.rl.vector.collect`.

Each iteration the learner's current policy (a linear softmax over the observation, masked to the
legal indices) is sent to the workers, which play ``--episodes`` episodes against a bot of
:mod:`cardgame.play.bots` (the learner in seat 0, the bot in seat 1; the button moves with the seed)
and send back every decision as arrays (:class:`~cardgame.rl.vector.Trajectories`). The learner then
takes one REINFORCE step on its own decisions (the episode's return minus the batch's mean return)
and goes on. The shards are Ray tasks on a local cluster of ``--workers`` CPUs (or a cluster already
joined with ``ray.init(address=...)``); ``--backend process`` runs the same on local processes
without Ray. The data of an iteration are the same for any number of workers (``collect``'s shards
are seeded from ``--seed`` and the iteration), so a run replays.

Run: pip install 'cardgame[ray]'; python examples/ray_reinforce.py [--iterations 30] [--episodes 4000]
[--workers 2] [--opponent random] [--variant "leduc hold'em"] [--backend ray]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cardgame.rl.env import raw_env
from cardgame.rl.vector import Policy, Trajectories, collect

__all__ = ["LinearPolicy", "main", "reinforce_step", "train"]

Array = npt.NDArray[Any]

#: Shards an iteration's episodes are cut into, whatever the workers: the data are the same for any number.
SHARDS = 8


class LinearPolicy:
    """``softmax(weights @ [observation, 1])`` over the indices the mask marks: picklable, so Ray and
    local processes can run it (``collect`` wraps it in a :class:`~cardgame.rl.vector.Policy`)."""

    def __init__(self, weights: Array) -> None:
        self.weights = weights

    def probabilities(self, observations: Array, masks: Array) -> Array:
        """Each row's action probabilities (``float64[T, n]``), zero where the mask is."""
        x = np.concatenate([observations, np.ones((observations.shape[0], 1), observations.dtype)], axis=1)
        logits = x @ self.weights.T
        logits = np.where(masks > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]

    def __call__(self, observation: Array, mask: Array, rng: np.random.Generator) -> int:
        p = self.probabilities(observation[None, :], mask[None, :])[0]
        return int(rng.choice(p.size, p=p))


def reinforce_step(policy: LinearPolicy, data: Trajectories, seat: int, lr: float) -> LinearPolicy:
    """One REINFORCE step on ``seat``'s decisions in ``data``: each decision's log-probability pushed
    up by its episode's return minus the mean return (a baseline), averaged over the decisions."""
    mine = data.seats == seat
    obs, masks, actions = data.observations[mine], data.masks[mine], data.actions[mine]
    advantage = data.returns[mine] - data.returns[mine].mean()
    p = policy.probabilities(obs, masks)
    chosen = np.zeros_like(p)
    chosen[np.arange(len(actions)), actions] = 1.0
    x = np.concatenate([obs, np.ones((obs.shape[0], 1), obs.dtype)], axis=1)
    gradient = ((chosen - p) * advantage[:, None]).T @ x / max(len(actions), 1)
    return LinearPolicy(policy.weights + lr * gradient)


def train(variant: str, opponent: str, iterations: int, episodes: int, workers: int, backend: str, seed: int,
          lr: float, report: Any = print) -> list[float]:
    """Train the learner (seat 0) against ``opponent`` (seat 1); each iteration's mean return of the
    learner per episode, in chips (``report`` gets a line per iteration)."""
    if backend == "ray":  # Ray's workers get the policy's class by value: they need not import this file
        import ray.cloudpickle

        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    env = raw_env(variant, 2)
    size, n = env.encoder.space.shape[0], env.actions.n
    policy = LinearPolicy(np.zeros((n, size + 1)))
    means = []
    for iteration in range(iterations):
        start = time.perf_counter()
        data = collect(variant, [Policy(policy, "learner"), opponent], episodes, seed=seed + iteration * episodes,
                       workers=workers, backend=backend, shard_episodes=max(episodes // SHARDS, 1))
        seconds = time.perf_counter() - start
        mine = data.seats == 0
        per_episode = float(data.returns[mine & data.dones].mean())  # one row per episode: its last decision
        means.append(per_episode)
        policy = reinforce_step(policy, data, 0, lr)
        report(f"{iteration + 1:>4} {per_episode:+8.3f} chips/episode  {len(data):>7,} decisions "
               f"{len(data) / seconds:>9,.0f}/s")
    return means


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="leduc hold'em")
    parser.add_argument("--opponent", default="random", help="a bot name of cardgame.play.bots")
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--episodes", type=int, default=4_000, help="episodes an iteration")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--backend", choices=("ray", "process", "serial"), default="ray")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.5)
    args = parser.parse_args(argv)
    for name in ("iterations", "episodes", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.backend == "ray":
        import ray

        if not ray.is_initialized():
            ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
    print(f"REINFORCE on {args.variant} against {args.opponent}: {args.workers} workers ({args.backend})")
    print("iter   return          decisions   speed")
    means = train(args.variant, args.opponent, args.iterations, args.episodes, args.workers, args.backend,
                  args.seed, args.lr)
    third = max(len(means) // 3, 1)
    print(f"mean return, first third {np.mean(means[:third]):+.3f}, last third {np.mean(means[-third:]):+.3f} "
          "chips/episode")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
