"""What a learner decision of ``benchmarks/rl.py``'s workloads costs, counted rather than timed.

On a shared machine a timed run moves by half or more with the load; a count does not. This plays
the benchmark's random-legal workloads on our environments (the PettingZoo AEC loop reading
``env.last()``; 16 tables of ``SingleAgentEnv`` against a random bot, stepped in turn; a
``VectorEnv`` of the same 16 tables, which plays the same games with the same draws, drawn for its 16
tables at once as a learner of a vector environment does, so the two counts compare) and counts, per
learner decision, the Python bytecode instructions executed and the Python function calls. ``--top N``
lists the functions executing the most instructions. Compare two checkouts by running it in each; the
counts are the same from run to run.

    python benchmarks/rl_counts.py                       # both games, both observations
    python benchmarks/rl_counts.py --game leduc --observation planes --top 20
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

import engine_counts  # noqa: E402
import rl  # noqa: E402

VARIANTS = {"nlh": ("NT", {"stack": 100}), "leduc": ("leduc hold'em", {})}
TABLES = 16


def workload(kind: str, game: str, observation: str, seed: int) -> Callable[[int], int]:
    """A function playing about ``steps`` learner decisions of ``kind`` and returning how many it played."""
    variant, options = VARIANTS[game]
    rng = np.random.default_rng(seed)
    if kind == "aec":
        import cardgame.rl

        env = cardgame.rl.env(variant, 2, observation=observation, **options)
        env.reset(seed=seed)

        def aec(steps: int) -> int:
            return rl.aec_steps(env, rng, steps)

        return aec
    if kind == "single":  # the vector's tables, each a lone environment, in turn: the same games, the same draws
        from cardgame.rl.gym import SingleAgentEnv

        tables = [SingleAgentEnv(variant, opponents="random", observation=observation, **options)
                  for _ in range(TABLES)]
        last = [env.reset(seed=seed + i)[0] for i, env in enumerate(tables)]

        def one(steps: int) -> int:
            return rl.tables_in_turn(tables, last, rng, steps)

        return one
    from cardgame.rl.vector import VectorEnv

    vector = VectorEnv(variant, TABLES, opponents="random", dict_obs=False, copy=False, observation=observation,
                       **options)
    vector.reset(seed=seed)

    def many(steps: int) -> int:
        done = 0
        while done < steps:
            vector.step(random_legal(vector.action_masks(), rng))
            done += TABLES
        return done

    return many


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """For each row of ``masks``, a legal index drawn uniformly, for the whole batch at once: the same draws
    as ``flatnonzero(row)[rng.integers(count)]`` row by row (``rng.integers`` on an array of bounds draws
    as it does bound by bound), as a learner of a vector environment picks."""
    k = rng.integers(masks.sum(axis=1))
    return (masks.cumsum(axis=1) > k[:, None]).argmax(axis=1)


def count(play: Callable[[int], int], steps: int, warm: int) -> tuple[Counter[str], Counter[str], int]:
    """Instructions and calls by function over about ``steps`` decisions after ``warm``; the decisions."""
    play(warm)
    done, ops, calls, _ = engine_counts.traced(lambda: play(steps))
    return ops, calls, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", choices=tuple(VARIANTS), nargs="+", default=list(VARIANTS))
    parser.add_argument("--observation", choices=("rlcard", "planes"), nargs="+", default=["rlcard", "planes"])
    parser.add_argument("--kind", choices=("aec", "single", "vector"), nargs="+", default=["aec", "single", "vector"])
    parser.add_argument("--steps", type=int, default=2_000, help="learner decisions counted")
    parser.add_argument("--warm", type=int, default=200, help="decisions played first, not counted")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=0, help="list the N functions executing the most instructions")
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for game in args.game:
            for observation in args.observation:
                for kind in args.kind:
                    ops, calls, n = count(workload(kind, game, observation, args.seed), args.steps, args.warm)
                    print(f"{game:<6} {observation:<7} {kind:<7} {sum(ops.values()) / n:8,.0f} instructions "
                          f"{sum(calls.values()) / n:6.1f} calls per learner decision")
                    if args.top:
                        for where, done in ops.most_common(args.top):
                            print(f"  {done / n:8.1f} instructions {calls[where] / n:6.2f} calls  {where}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
