"""Compare our engine with PokerKit hand by hand and print a table per variant and direction.

    python scripts/differential.py --hands 2000 --seed 1 [--variant NT] [--direction A|B] [--show-failures 3]

Direction A: PokerKit plays, we replay its PHH. Direction B: we play, PokerKit replays our PHH.
Columns: hands, agree, explained (a documented PokerKit deviation, docs/rules.md), open (our own
known bugs, listed in the harness), disagree (unexplained), error (PokerKit could not play its hand).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.differential.harness import CODES, run_hand

COLUMNS = ("agree", "explained", "open", "disagree", "error")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per variant and direction")
    parser.add_argument("--seed", type=int, default=1, help="seeds run from seed * 1,000,000")
    parser.add_argument("--variant", choices=CODES, action="append", help="PHH code (repeatable); default all")
    parser.add_argument("--direction", choices=("A", "B"), action="append", help="default both")
    parser.add_argument("--show-failures", type=int, default=2, metavar="N", help="repros printed per row")
    args = parser.parse_args(argv)
    if args.hands < 1:
        parser.error("--hands must be at least 1")
    warnings.simplefilter("ignore")
    print(f"{'variant':7} {'dir':3} {'hands':>6} " + " ".join(f"{c:>9}" for c in COLUMNS) + f" {'hands/s':>8}")
    failures = []
    unexplained = 0
    deviations: Counter[str] = Counter()
    for code in args.variant or CODES:
        for direction in args.direction or ("A", "B"):
            counts: Counter[str] = Counter()
            start = time.perf_counter()
            for i in range(args.hands):
                out = run_hand(code, direction, args.seed * 1_000_000 + i)
                counts[out.status] += 1
                if out.deviation:
                    deviations[out.deviation] += 1
                if out.status == "disagree":
                    unexplained += 1
                    if counts["disagree"] <= args.show_failures:
                        failures.append(out.repro())
            rate = args.hands / (time.perf_counter() - start)
            print(f"{code:7} {direction:3} {args.hands:>6} " + " ".join(f"{counts[c]:>9}" for c in COLUMNS)
                  + f" {rate:>8.0f}")
    print("\nexplained or open, by deviation: " + ", ".join(f"{k} {v}" for k, v in deviations.most_common()))
    for text in failures:
        print("\n" + text)
    return 1 if unexplained else 0


if __name__ == "__main__":
    raise SystemExit(main())
