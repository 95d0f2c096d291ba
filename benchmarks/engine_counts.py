"""What one hand of the engine benchmark's workload costs, counted rather than timed.

On a shared machine a timed run moves by half or more with the load; a count does not. This plays
``benchmarks/engine.py``'s workload on our engine (``peers/cardgame_runner.py``, the same seed) and
counts, per hand, the Python bytecode instructions executed, the Python function calls, and the
records built by a generated ``__init__`` (events, stage results, outcomes: each costs a frame and
one slot write per field). ``--top N`` lists the functions executing the most instructions.
Compare two checkouts by running it in each; the counts are the same from run to run.

    python benchmarks/engine_counts.py                 # 6 and 2 players, 300 hands after 50
    python benchmarks/engine_counts.py --players 6 --top 30
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, TypeVar

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from peers import cardgame_runner  # noqa: E402

T = TypeVar("T")


def count(players: int, hands: int, warm: int, seed: int) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Instructions and calls by function, and records by class, over ``hands`` hands after ``warm``."""
    random.seed(seed)
    hand = cardgame_runner._table(players, random.Random(seed))
    for _ in range(warm):  # the evaluator's descriptions and the log's first trim, as a long run has them
        hand()

    def play() -> None:
        for _ in range(hands):
            hand()

    return traced(play)[1:]


def traced(run: Callable[[], T]) -> tuple[T, Counter[str], Counter[str], Counter[str]]:
    """What ``run()`` returns, and the instructions and calls executed in the functions it calls (its own
    frame, the workload's loop, not counted) by function and the records built by class
    (``benchmarks/rl_counts.py`` counts the learning environments with it too)."""
    ops: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    records: Counter[str] = Counter()
    own = getattr(run, "__code__", None)
    sys.settrace(tracer(ops, lambda code: code is own, calls, records))
    try:
        done = run()
    finally:
        sys.settrace(None)
    return done, ops, calls, records


def tracer(ops: Counter[str], skip: Callable[[CodeType], bool], calls: Counter[str] | None = None,
           records: Counter[str] | None = None) -> Callable[[FrameType, str, Any], Any]:
    """A ``sys.settrace`` function counting into ``ops`` the instructions executed by function
    (``"file.py:name"``), and into ``calls`` and ``records`` when given the calls and the records built
    (a generated ``__init__``) by class; the functions ``skip`` names are not counted (nor their own lines)."""

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        code = frame.f_code
        if skip(code):
            return None
        where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_name}"
        if calls is not None:
            calls[where] += 1
        if records is not None and code.co_filename == "<string>" and code.co_name == "__init__" \
                and "self" in frame.f_locals:
            records[type(frame.f_locals["self"]).__name__] += 1
        frame.f_trace_opcodes = True

        def step(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "opcode":
                ops[where] += 1
            return step

        return step

    return trace


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, nargs="+", default=[6, 2])
    parser.add_argument("--hands", type=int, default=300, help="hands counted")
    parser.add_argument("--warm", type=int, default=50, help="hands played first, not counted")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=0, help="list the N functions executing the most instructions")
    args = parser.parse_args(argv)
    for players in args.players:
        ops, calls, records = count(players, args.hands, args.warm, args.seed)
        n = args.hands
        print(f"{players} players: {sum(ops.values()) / n:,.0f} instructions, {sum(calls.values()) / n:.1f} Python "
              f"calls and {sum(records.values()) / n:.1f} records per hand")
        if args.top:
            for where, done in ops.most_common(args.top):
                print(f"  {done / n:8.1f} instructions {calls[where] / n:6.2f} calls  {where}")
            print("  records: " + ", ".join(f"{name} {made / n:.2f}" for name, made in records.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
