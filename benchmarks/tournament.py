"""A multi-table tournament between bots played to its winner (``cardgame.tournament.run_event``): the
hands and rounds it took, the time, the players moved, the round the final table formed, and the first
places. Every round the event checks that the chips at all tables add up to entrants x stack and that
the tables are balanced by the TDA rule (balancing them again moves nobody), so a run that ends is a
run whose every round passed.

    python benchmarks/tournament.py                              # 1,000 players, the fast structure
    python benchmarks/tournament.py --entrants 5000 --bots random,pair-raiser --structure "turbo sng hands"
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parent.parent)]

from cardgame.tournament import EventSpec, Structure, preset, run_event  # noqa: E402

#: Three hands a level, the big-blind ante from level 2 (the suite's 1,000-player test plays it too).
FAST = Structure.from_rows([[10, 20, 0, 3], [20, 40, 40, 3], [50, 100, 100, 3], [100, 200, 200, 3],
                            [200, 400, 400, 3], [400, 800, 800, 3], [800, 1600, 1600, 3], [1500, 3000, 3000, 3]],
                           unit="hands", name="fast")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=1_000)
    parser.add_argument("--bots", default="random,all-in,pair-raiser")
    parser.add_argument("--structure", default="fast", help="fast, or a preset's name")
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args(argv)
    structure = FAST if args.structure == "fast" else preset(args.structure)
    spec = EventSpec(args.entrants, tuple(args.bots.split(",")), structure)
    start = time.perf_counter()
    result = run_event(spec, args.seed)
    seconds = time.perf_counter() - start
    print(f"{args.entrants:,} entrants ({args.bots}; {structure.name}), seed {args.seed}: {result.hands:,} hands in "
          f"{result.rounds:,} rounds, {seconds:.1f} s ({1000 * seconds / result.hands:.2f} ms a hand); "
          f"{result.moves:,} players moved; final table from round {result.final_table}; "
          f"{len(result.levels)} levels; chips and balance checked every round")
    print(result.table(10))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
