"""Memory over a long run: our engine plays N six-player hands (the engine benchmark's workload)
and prints the process's resident memory every tenth of the run; it should stay flat.

    python benchmarks/soak.py                 # 1,000,000 hands
    python benchmarks/soak.py --hands 200000
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
from peers.common import STACK  # noqa: E402


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4096 / 2**20


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    random.seed(args.seed)
    hand = _table(args.players, random.Random(args.seed))
    step = max(1, args.hands // 10)
    start = time.perf_counter()
    samples = []
    bad = 0
    for i in range(1, args.hands + 1):
        _, total = hand()
        bad += total != args.players * STACK
        if i % step == 0:
            samples.append(rss_mib())
            print(f"{i:>9} hands  {i / (time.perf_counter() - start):8.0f} hands/s  RSS {samples[-1]:7.1f} MiB",
                  flush=True)
    growth = samples[-1] - samples[0] if samples else 0.0
    print(f"RSS growth from the first sample to the last: {growth:+.1f} MiB; conservation failures: {bad}")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
