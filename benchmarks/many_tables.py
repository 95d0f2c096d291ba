"""Many tables at once: N six-player tables of the engine benchmark's workload, each advanced one
hand in turn, against one table alone, in one run. The ratio shows what a large live heap costs
(garbage collection walks every table's objects), as a server or a simulation holding many games
would see it.

    python benchmarks/many_tables.py                    # 1 and 1,000 tables, 20,000 hands each
    python benchmarks/many_tables.py --tables 1 100 1000 --hands 50000
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from peers.cardgame_runner import _table  # noqa: E402


def hands_per_second(tables: int, hands: int, players: int, seed: int) -> float:
    random.seed(seed)
    rng = random.Random(seed)
    games = [_table(players, rng) for _ in range(tables)]
    start = time.perf_counter()
    for i in range(hands):
        games[i % tables]()
    return hands / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 1000])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    base = None
    print(f"{'tables':>7} {'hands/s':>9} {'vs one':>7}")
    for n in args.tables:
        rate = hands_per_second(n, args.hands, args.players, args.seed)
        base = base or rate
        print(f"{n:>7} {rate:>9,.0f} {rate / base:>7.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
