"""Compare our engine with PokerKit hand by hand and print a table per variant and direction.

    python scripts/differential.py --hands 2000 --seed 1 [--variant NT] [--direction A|B] [--show-failures 3]

Direction A: PokerKit plays, we replay its PHH. Direction B: we play, PokerKit replays our PHH.
Columns: hands, agree, explained (checked: replayed on our engine under the named PokerKit
convention, docs/rules.md, the hand gives PokerKit's result), open (no convention reproduces
PokerKit's result: a bug or a missing convention; the run fails), error (PokerKit could not play
its own hand). A closing table counts the explained hands per convention and variant ("a | b":
either convention alone reproduces PokerKit's result; "a+b": only both together do).
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

COLUMNS = ("agree", "explained", "open", "error", "uncompared")


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
    codes = args.variant or list(CODES)
    print(f"{'variant':7} {'dir':3} {'hands':>6} " + " ".join(f"{c:>9}" for c in COLUMNS) + f" {'hands/s':>8}")
    failures = []
    totals: Counter[str] = Counter()
    by_deviation: dict[str, Counter[str]] = {}
    ambiguous: list[str] = []  # hands another set of as many conventions explains as well
    for code in codes:
        for direction in args.direction or ("A", "B"):
            counts: Counter[str] = Counter()
            start = time.perf_counter()
            for i in range(args.hands):
                out = run_hand(code, direction, args.seed * 1_000_000 + i)
                counts[out.status] += 1
                if out.status == "explained":
                    by_deviation.setdefault(out.deviation, Counter())[f"{code} {direction}"] += 1
                    if out.alternatives:
                        ambiguous.append(f"{code} {direction} {out.seed}: {out.deviation}")
                if out.status in ("open", "error") and counts[out.status] <= args.show_failures:
                    failures.append(out.repro())
            totals.update(counts)
            rate = args.hands / (time.perf_counter() - start)
            print(f"{code:7} {direction:3} {args.hands:>6} " + " ".join(f"{counts[c]:>9}" for c in COLUMNS)
                  + f" {rate:>8.0f}")
    print(f"{'all':7} {'':3} {sum(totals.values()):>6} " + " ".join(f"{totals[c]:>9}" for c in COLUMNS))
    print("\nexplained hands by convention (checked by replay) and variant, directions A/B:")
    width = max([len(k) for k in by_deviation] + [9])
    print(f"{'convention':{width}} " + " ".join(f"{c:>7}" for c in codes) + f" {'total':>6}")
    for name, counter in sorted(by_deviation.items(), key=lambda kv: -sum(kv[1].values())):
        cells = [f"{counter[f'{c} A']}/{counter[f'{c} B']}" if counter[f"{c} A"] or counter[f"{c} B"] else "."
                 for c in codes]
        print(f"{name:{width}} " + " ".join(f"{x:>7}" for x in cells) + f" {sum(counter.values()):>6}")
    print(f"\nhands explained equally well by another set of conventions (a | b): {len(ambiguous)}")
    for line in ambiguous[: args.show_failures * 5]:
        print("  " + line)
    for text in failures:
        print("\n" + text)
    return 1 if totals["open"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
