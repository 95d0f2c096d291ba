"""Benchmark of cardgame.evaluation against eval7, phevaluator, treys and pokerkit.

Run ``python benchmarks/evaluation.py`` (add ``--all7`` to enumerate all 133,784,560 seven-card
hands and check their category counts against tests/data/vectors.json). Peers that are
not installed are skipped with a message. Every peer evaluates the same random 7-card hands in
this run; its per-hand results are checked to order the hands as ours do.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgame.evaluation import HIGH, OMAHA_HIGH, evaluate_high, evaluate_high_batch
from cardgame.evaluation.batch import (
    BATCH_CARD_KEYS,
    CARD_BITS,
    FLUSH_TABLE,
    HAVE_NUMBA,
    high_values_from_sums,
    rank_table,
)
from cardgame.evaluation.equity import equity
from cardgame.model.cards import format_cards

ROOT = Path(__file__).resolve().parents[1]
VECTORS = ROOT / "tests" / "data" / "vectors.json"
CATEGORIES = [
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight",
    "flush", "full_house", "four_of_a_kind", "straight_flush",
]  # fmt: skip


def rate(func: Callable[[], object], count: int, repeat: int = 3) -> float:
    """Best-of-``repeat`` calls per second of ``func`` (which performs ``count`` evaluations)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return count / best


def agrees(ours: Sequence[int], theirs: Sequence[Any], higher_is_better: bool = True) -> bool:
    """Whether ``theirs`` orders the hands (including ties) exactly as ``ours`` does."""
    order = sorted(range(len(ours)), key=ours.__getitem__)
    for a, b in pairwise(order):
        same = ours[a] == ours[b]
        if (theirs[a] == theirs[b]) != same:
            return False
        if not same and (theirs[a] < theirs[b]) != higher_is_better:
            return False
    return True


def per_call(hands: list[tuple[int, ...]], rounds: int = 5) -> list[tuple[str, float, str]]:
    """Per-call rates; all evaluators are timed once per round, interleaved, best round kept.

    Interleaving keeps the comparison fair on a machine whose load changes during the run.
    """
    ours = [evaluate_high(h) for h in hands]
    texts = [format_cards(h).split() for h in hands]
    split = [(h[:2], h[2:]) for h in hands]
    # name -> (work, number of hands, agreement with our order)
    jobs: dict[str, tuple[Callable[[], object], int, str]] = {
        "cardgame evaluate_high": (lambda: [evaluate_high(h) for h in hands], len(hands), "-"),
        "cardgame HIGH.rank(hole, board)": (lambda: [HIGH.rank(a, b) for a, b in split], len(hands), "-"),
    }
    try:
        import eval7  # type: ignore[import-untyped]

        e7 = [[eval7.Card(t) for t in h] for h in texts]
        same = agrees(ours, [eval7.evaluate(h) for h in e7])
        jobs["eval7"] = (lambda: [eval7.evaluate(h) for h in e7], len(hands), str(same))
    except ImportError:
        print("eval7 not installed: skipped (pip install eval7)")
    try:
        from phevaluator import evaluate_cards  # type: ignore[import-untyped]

        same = agrees(ours, [evaluate_cards(*h) for h in hands], higher_is_better=False)
        jobs["phevaluator"] = (lambda: [evaluate_cards(*h) for h in hands], len(hands), str(same))
    except ImportError:
        print("phevaluator not installed: skipped (pip install phevaluator)")
    try:
        import treys  # type: ignore[import-untyped]

        n_treys = min(len(hands), 10_000)
        tc = [[treys.Card.new(t) for t in h] for h in texts[:n_treys]]
        ev = treys.Evaluator()
        same = agrees(ours[:n_treys], [ev.evaluate(h[:2], h[2:]) for h in tc], higher_is_better=False)
        jobs["treys"] = (lambda: [ev.evaluate(h[:2], h[2:]) for h in tc], n_treys, str(same))
    except ImportError:
        print("treys not installed: skipped (pip install treys)")
    try:
        from pokerkit import StandardHighHand

        n_pk = min(len(hands), 1_000)
        pk = [("".join(t[:2]), "".join(t[2:])) for t in texts[:n_pk]]
        same = agrees(ours[:n_pk], [StandardHighHand.from_game(a, b) for a, b in pk])
        jobs["pokerkit"] = (lambda: [StandardHighHand.from_game(a, b) for a, b in pk], n_pk, str(same))
    except ImportError:
        print("pokerkit not installed: skipped (pip install pokerkit)")
    best = dict.fromkeys(jobs, 0.0)
    for _ in range(rounds):
        for name, (work, count, _same) in jobs.items():
            best[name] = max(best[name], rate(work, count, 1))
    return [(name, best[name], same) for name, (_w, _c, same) in jobs.items()]


def all_seven_numpy() -> tuple[np.ndarray, int]:
    """Category counts and distinct values of all 7-card hands, numpy only.

    Five-card suffixes are enumerated once in lexicographic order, so the 5-subsets of the cards
    above ``b`` are a tail of that list; each (a, b) prefix adds its two keys to that tail.
    """
    from concurrent.futures import ThreadPoolExecutor

    from cardgame.evaluation.ranges import combination_rows

    fives = combination_rows(52, 5)
    keys = BATCH_CARD_KEYS[fives].sum(axis=1)
    masks = CARD_BITS[fives].sum(axis=1)
    first = fives[:, 0]
    tail_start = np.searchsorted(first, np.arange(53))
    rank_table(7)

    def run(a: int) -> tuple[np.ndarray, np.ndarray]:
        counts = np.zeros(9, dtype=np.int64)
        seen = np.zeros(1 << 24, dtype=bool)
        for b in range(a + 1, 47):
            tail = slice(tail_start[b + 1], None)
            values = high_values_from_sums(
                keys[tail] + BATCH_CARD_KEYS[a] + BATCH_CARD_KEYS[b], masks[tail] + CARD_BITS[a] + CARD_BITS[b], 7
            )
            counts += np.bincount(values >> 20, minlength=9)
            seen[values] = True
        return counts, seen

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(run, range(46)))
    counts = sum((r[0] for r in results), np.zeros(9, dtype=np.int64))
    seen = np.logical_or.reduce([r[1] for r in results])
    return counts, int(seen.sum())


def all_seven_numba() -> tuple[np.ndarray, int]:
    """Category counts and distinct values of all 7-card hands: seven nested loops in numba."""
    import numba

    @numba.njit(parallel=True)
    def kernel(ck: Any, cb: Any, table: Any, flush: Any, counts: Any, seen: Any) -> None:
        for a in numba.prange(46):
            for b in range(a + 1, 47):
                kb, mb = ck[a] + ck[b], cb[a] + cb[b]
                for c in range(b + 1, 48):
                    kc, mc = kb + ck[c], mb + cb[c]
                    for d in range(c + 1, 49):
                        kd, md = kc + ck[d], mc + cb[d]
                        for e in range(d + 1, 50):
                            ke, me = kd + ck[e], md + cb[e]
                            for f in range(e + 1, 51):
                                kf, mf = ke + ck[f], me + cb[f]
                                for g in range(f + 1, 52):
                                    s, m = kf + ck[g], mf + cb[g]
                                    fl = (s + (0x3333 << 24)) & (0x8888 << 24)
                                    if fl == 0:
                                        v = table[s & 0x7FFFFF]
                                    else:
                                        suit = 0
                                        while (fl >> (24 + 4 * suit + 3)) & 1 == 0:
                                            suit += 1
                                        v = flush[(m >> (13 * suit)) & 0x1FFF]
                                    counts[a, v >> 20] += 1
                                    seen[v] = True

    counts = np.zeros((46, 9), dtype=np.int64)
    seen = np.zeros(1 << 24, dtype=np.bool_)
    kernel(BATCH_CARD_KEYS, CARD_BITS, rank_table(7), FLUSH_TABLE, counts, seen)
    return counts.sum(axis=0), int(seen.sum())


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="random 7-card hands per call test")
    parser.add_argument("--all7", action="store_true", help="enumerate all 133,784,560 7-card hands")
    parser.add_argument("--no-numba", action="store_true", help="numpy paths only, even with numba installed")
    args = parser.parse_args(argv)
    numba_ok = HAVE_NUMBA and not args.no_numba
    rng = np.random.default_rng(2024)
    cards = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7]
    hands = [tuple(h) for h in cards.tolist()]

    print(f"Per-call 7-card evaluation, {args.hands:,} random hands (fewer for the slow peers)")
    rows = per_call(hands)
    base = rows[0][1]
    print(f"{'evaluator':34} {'evals/s':>12} {'vs ours':>8}  same order")
    for name, r, same in rows:
        print(f"{name:34} {r:12,.0f} {r / base:8.2f}  {same}")

    print("\nBatch (numpy arrays of card indexes)")
    big = np.argsort(rng.random((2_000_000, 52)), axis=1)[:, :7].astype(np.int8)
    modes = [False, True] if numba_ok else [False]
    if not numba_ok:
        print("numba not installed or --no-numba: numpy path only")
    for use_numba in modes:
        evaluate_high_batch(big[:1000], use_numba=use_numba)  # warm up / compile
        r = rate(partial(evaluate_high_batch, big, use_numba=use_numba), len(big))
        print(f"{'evaluate_high_batch ' + ('numba' if use_numba else 'numpy'):34} {r:12,.0f} evals/s")

    omaha = [(h[:4], h[4:9]) for h in (rng.permutation(52)[:9].tolist() for _ in range(20_000))]
    r = rate(lambda: [OMAHA_HIGH.rank(a, b) for a, b in omaha], len(omaha))
    print(f"{'OMAHA_HIGH.rank (4 hole, 5 board)':34} {r:12,.0f} evals/s")

    print("\nExact AhKh vs QsQd pre-flop (1,712,304 boards)")
    paths = [False, True] if numba_ok else [False]
    for use_numba in paths:  # first calls: tables, and numba's compile (or load from its disk cache)
        start = time.perf_counter()
        equity(["AhKh", "QsQd"], "2c 3c 4c", use_numba=use_numba)
        print(f"{'first call ' + ('numba' if use_numba else 'numpy'):34} {time.perf_counter() - start:9.3f} s")
    best = dict.fromkeys(paths, float("inf"))
    for _ in range(3):
        for use_numba in paths:
            start = time.perf_counter()
            result = equity(["AhKh", "QsQd"], use_numba=use_numba)
            best[use_numba] = min(best[use_numba], time.perf_counter() - start)
    for use_numba in paths:
        print(f"{'equity ' + ('numba' if use_numba else 'numpy'):34} {best[use_numba]:9.3f} s")
    print(f"equity {result.equity[0]} = {result.equity_floats[0]:.7f}")

    code = (
        "import time; t = time.perf_counter(); import cardgame.evaluation as ev; i = time.perf_counter() - t; "
        "t = time.perf_counter(); ev.evaluate_high([0, 4, 8, 12, 17, 21, 25]); print(i, time.perf_counter() - t)"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT) for _ in range(3)]
    times = sorted(tuple(map(float, r.stdout.split())) for r in runs if r.returncode == 0)
    if times:
        print(f"\nimport cardgame.evaluation (with numpy): {times[0][0]:.3f} s; "
              f"first evaluate_high (builds the tables): {times[0][1]:.3f} s")  # fmt: skip

    if args.all7:
        ref = json.loads(VECTORS.read_text())["seven_card_categories"]
        start = time.perf_counter()
        counts, distinct = all_seven_numba() if numba_ok else all_seven_numpy()
        elapsed = time.perf_counter() - start
        total = int(counts.sum())
        ok = {c: int(n) for c, n in zip(CATEGORIES, counts, strict=True)} == {c: ref[c] for c in CATEGORIES}
        ok = ok and total == ref["hands"] and distinct == ref["distinct_values"]
        path = "numba" if numba_ok else "numpy"
        print(f"\nAll {total:,} seven-card hands ({path}): {elapsed:.2f} s, {total / elapsed:,.0f} hands/s")
        print(f"{distinct} distinct values; counts match vectors.json: {ok}")
        for c, n in zip(CATEGORIES, counts, strict=True):
            print(f"  {c:16} {int(n):>12,}")
        if not ok:
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
