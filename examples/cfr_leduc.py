"""Counterfactual regret minimisation on Leduc hold'em, through the library's environment.

The game tree is enumerated once through :mod:`cardgame.rl.spiel` (environment copies stepped with
the environment's action indices; every card chance may deal), then tabular CFR+ runs on it. At
checkpoints the example prints the average policy's exploitability (chips a best response wins
from it per hand, averaged over the two seats: 0 at equilibrium) and its win rate against two
bots of :mod:`cardgame.play.bots` over the same deals, in chips per hand with its standard error.

Run: python examples/cfr_leduc.py [--iterations 2000] [--method cfr+] [--hands 1000]
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Sequence

from cardgame.rl.cfr import CFR, METHODS, GameTree, Policy, exploitability
from cardgame.rl.gym import SingleAgentEnv
from cardgame.rl.spiel import load_game

__all__ = ["checkpoints", "main", "win_rate"]

BOTS = ("calling-station", "random")


def win_rate(tree: GameTree, policy: Policy, bot: str, hands: int) -> tuple[float, float]:
    """Chips per hand (and its standard error) ``policy`` wins against ``bot`` over ``hands`` hands,
    the policy in seat 0 on even hands and seat 1 on odd ones (the button stays on seat 1, as in
    the tree)."""
    envs = [SingleAgentEnv("leduc hold'em", seat=seat, opponents=bot, button=1) for seat in (0, 1)]
    rng = random.Random(0)
    results = []
    for hand in range(hands):
        env = envs[hand % 2]
        env.reset(seed=hand)
        won, done = 0.0, False
        while not done:
            game = env.aec.game
            assert game is not None
            _, reward, done, _, _ = env.step(tree.choose(policy, game, env.seat, rng))
            won += reward
        results.append(won)
    mean = sum(results) / hands
    spread = math.sqrt(sum((r - mean) ** 2 for r in results) / max(hands - 1, 1) / hands)
    return mean, spread


def checkpoints(iterations: int) -> list[int]:
    """1, 10, 100... up to ``iterations``, and ``iterations`` itself."""
    points = [10**k for k in range(12) if 10**k < iterations]
    return [*points, iterations]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000, help="CFR iterations (default 2000)")
    parser.add_argument("--method", choices=METHODS, default="cfr+", help="the CFR flavour (default cfr+)")
    parser.add_argument("--hands", type=int, default=1000, help="hands against each bot per checkpoint")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.hands < 1:
        parser.error("--iterations and --hands must be at least 1")
    start = time.perf_counter()
    tree = GameTree.build(load_game("leduc_poker"))
    print(f"Leduc hold'em: {tree.nodes:,} states, {len(tree.infosets)} information sets, "
          f"enumerated through the environment in {time.perf_counter() - start:.1f} s")
    solver = CFR(tree, args.method)
    header = f"{'iterations':>10}  {'seconds':>8}  {'exploitability':>14}" + "".join(f"  {b:>22}" for b in BOTS)
    print(header)
    spent = 0.0
    for point in checkpoints(args.iterations):
        start = time.perf_counter()
        solver.iterate(point - solver.iterations)
        spent += time.perf_counter() - start
        policy = solver.average_policy()
        row = f"{point:>10}  {spent:>8.1f}  {exploitability(tree, policy):>14.4f}"
        for bot in BOTS:
            mean, error = win_rate(tree, policy, bot, args.hands)
            row += f"  {mean:>+13.3f} ± {error:.3f}"
        print(row, flush=True)
    print(f"{args.iterations / spent:.0f} iterations per second ({args.method}); exploitability in chips per hand "
          f"(ante 1, bets 2 and 4), win rates in chips per hand against each bot")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
