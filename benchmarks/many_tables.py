"""Many tables at once: N six-player tables of the engine benchmark's workload, each advanced one
hand in turn, against one table alone, in one run. The ratio shows what a large live heap costs
(garbage collection walks every table's objects), as a server or a simulation holding many games
would see it.

Each row also gives the garbage collector's work during the run: collections per generation,
the seconds they took (``gc.callbacks``) and the objects they found unreachable. What a hand
allocates and keeps until the table's next hand (the hand, its players, its deck, the events the
log keeps) lives through a whole round of N hands, so with many tables it reaches the oldest
generation and dies there: that, not garbage cycles, is what the full collections walk.

``--freeze`` moves everything built before the first hand into the permanent generation
(``gc.freeze()``), which full collections skip; ``--keep-hands`` sets how many hands each game's
log keeps (``Game(keep_hands=...)``, default 1); ``--gc-threshold`` sets
``gc.set_threshold`` for the run. They show where the time goes; the headline ratio is the one
with none of them.

    python benchmarks/many_tables.py                    # 1 and 1,000 tables, 20,000 hands each
    python benchmarks/many_tables.py --tables 1 100 1000 --hands 50000
    python benchmarks/many_tables.py --freeze --keep-hands 2
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from peers.cardgame_runner import _table  # noqa: E402

from cardgame import Game  # noqa: E402


class _GcWatch:
    """Counts the collector's collections, seconds and unreachable objects while installed."""

    def __init__(self) -> None:
        self.collections = [0, 0, 0]
        self.seconds = [0.0, 0.0, 0.0]
        self.collected = 0
        self._start = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._start = time.perf_counter()
            return
        generation = info["generation"]
        self.collections[generation] += 1
        self.seconds[generation] += time.perf_counter() - self._start
        self.collected += info["collected"]


def hands_per_second(tables: int, hands: int, players: int, seed: int, *, freeze: bool = False,
                     keep_hands: int | None = None) -> tuple[float, _GcWatch]:
    random.seed(seed)
    rng = random.Random(seed)
    made = Game.__init__
    if keep_hands is not None:
        def init(self: Game, *args: Any, **kwargs: Any) -> None:
            kwargs.setdefault("keep_hands", keep_hands)
            made(self, *args, **kwargs)

        Game.__init__ = init  # type: ignore[method-assign]
    try:
        games = [_table(players, rng) for _ in range(tables)]
    finally:
        Game.__init__ = made  # type: ignore[method-assign]
    if freeze:
        gc.collect()
        gc.freeze()
    watch = _GcWatch()
    gc.callbacks.append(watch)
    try:
        start = time.perf_counter()
        for i in range(hands):
            games[i % tables]()
        rate = hands / (time.perf_counter() - start)
    finally:
        gc.callbacks.remove(watch)
        gc.unfreeze()
    return rate, watch


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, nargs="+", default=[1, 1000])
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--freeze", action="store_true", help="gc.freeze() once the tables are built")
    parser.add_argument("--keep-hands", type=int, help="hands each game's log keeps (default: the Game's, 10)")
    parser.add_argument("--gc-threshold", type=int, nargs=3, metavar=("G0", "G1", "G2"),
                        help="gc.set_threshold for the run (default: Python's, 700 10 10)")
    args = parser.parse_args(argv)
    if args.gc_threshold:
        gc.set_threshold(*args.gc_threshold)
    base = None
    print(f"{'tables':>7} {'hands/s':>9} {'vs one':>7}  {'collections (gen 0/1/2)':>24} {'GC s (0/1/2)':>20} "
          f"{'unreachable':>11}")
    for n in args.tables:
        rate, watch = hands_per_second(n, args.hands, args.players, args.seed, freeze=args.freeze,
                                       keep_hands=args.keep_hands)
        base = base or rate
        counts = "/".join(map(str, watch.collections))
        seconds = "/".join(f"{s:.2f}" for s in watch.seconds)
        print(f"{n:>7} {rate:>9,.0f} {rate / base:>7.2f}  {counts:>24} {seconds:>20} {watch.collected:>11,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
