"""Benchmark of range parsing and range equity against eval7, on the same questions in one run.

Run ``python benchmarks/equity.py`` (``--samples N`` for the Monte Carlo questions, default 100,000).
Each row asks both libraries one question: parse a range string (the combination sets are checked
identical), the equity of a hand against a range on the river (both exact: checked equal), on the
flop and preflop, and of a range against a range. eval7 answers the flop and preflop by Monte Carlo
(``py_hand_vs_range_monte_carlo``; a range against a range as ``py_all_hands_vs_range``, each hero hand
sampled, averaged over the villain hands each meets); we answer exactly when there are at most
2,000,000 deals, else by Monte Carlo with the same number of samples. The table gives each answer
with its standard error (0 when exact; eval7's bounded by ``sqrt(p(1 - p) / n)``), the time of each
(best of three), and whether the answers agree within three standard errors. Ranges are parsed
before the equity questions are timed (eval7's ``HandRange``, our ``parse_range``): the first row
times the parsing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from math import sqrt
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cardgame.evaluation import ranges
from cardgame.evaluation.equity import equity
from cardgame.model.cards import parse_cards

CORPUS = [
    "AKs, QQ+, A5s-A2s, KQo, AhKh, T9s+",
    "22+, A2s+, K9s+, Q9s+, J9s+, T9s, A9o+, KTo+, QTo+, JTo",
    "JJ+, AT+, 80%(A8s+)",
    "77-22, A9s-A2s, K8s-K2s, 0.5(QJo, JTo)",
]


def best(func: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs of ``func`` (seconds) and its last answer."""
    fastest, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = func()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100_000)
    n = parser.parse_args().samples
    try:
        import eval7  # type: ignore[import-untyped]
    except ImportError:
        print("eval7 not installed: pip install eval7")
        return

    def cards7(text: str) -> list[Any]:
        return [eval7.Card(str(c)) for c in parse_cards(text)]

    rows: list[tuple[str, float, str, float, str, str]] = []
    parse = ranges._parse.__wrapped__  # type: ignore[attr-defined]  # uncached, as a first parse is
    theirs_t, _ = best(lambda: [eval7.HandRange(t) for t in CORPUS])
    ours_t, parsed = best(lambda: [parse(t, "holdem") for t in CORPUS])
    same = all({tuple(sorted(map(int, h), reverse=True)): w for h, w in r.combos.items()}
               == {tuple(sorted((int(parse_cards(str(c))[0]) for c in h), reverse=True)): w
                   for h, w in eval7.HandRange(t)} for t, r in zip(CORPUS, parsed, strict=True))
    rows.append((f"parse {len(CORPUS)} range strings", theirs_t, "", ours_t, "", "identical" if same else "DIFFER"))

    def hand_vs_range(hand: str, villain: str, board: str) -> None:
        label = f"{hand} vs {villain}" + (f" on {board}" if board else " preflop")
        theirs, ours = eval7.HandRange(villain), ranges.parse_range(villain)
        mine, mine7, board7 = parse_cards(hand), cards7(hand), cards7(board)
        if len(board7) == 5:
            t7, e7 = best(lambda: eval7.py_hand_vs_range_exact(mine7, theirs, board7))
            se7 = 0.0
        else:
            t7, e7 = best(lambda: eval7.py_hand_vs_range_monte_carlo(mine7, theirs, board7, n))
            se7 = sqrt(e7 * (1 - e7) / n)
        t, r = best(lambda: equity([mine, ours], board, samples=n, seed=1))
        rows.append((label, t7, f"{e7:.4f} ± {se7:.4f}", t, f"{float(r.equity[0]):.4f} ± {r.std_error[0]:.4f}"
                     + (" exact" if r.exact else ""), agree(float(r.equity[0]), r.std_error[0], e7, se7)))

    hand_vs_range("AhKh", "QQ+, AQs+", "7c 2d 9s 3h 4h")
    hand_vs_range("AhKh", "QQ+, AQs+", "7c 2d 9s")
    hand_vs_range("Tc9c", "22+, A2s+, KTo+", "Jc 8c 2h")
    hand_vs_range("AhKh", "QQ+, AQs+", "")
    hand_vs_range("7s6s", "22+, ATs+, KQo", "")

    def range_vs_range(hero: str, villain: str, board: str) -> None:
        hero_range, villain_range = eval7.HandRange(hero), eval7.HandRange(villain)
        ours = [ranges.parse_range(hero), ranges.parse_range(villain)]
        per_hand = max(1, n // len(hero_range))
        board7 = cards7(board)

        def theirs() -> float:
            result = eval7.py_all_hands_vs_range(hero_range, villain_range, board7, per_hand)
            return mean_over_villains(result, ours[1], board)

        t7, e7 = best(theirs)
        se7 = sqrt(e7 * (1 - e7) / (per_hand * len(hero_range)))
        t, r = best(lambda: equity(ours, board, samples=n, seed=1))
        rows.append((f"{hero} vs {villain}" + (f" on {board}" if board else " preflop"), t7, f"{e7:.4f} ± {se7:.4f}",
                     t, f"{float(r.equity[0]):.4f} ± {r.std_error[0]:.4f}" + (" exact" if r.exact else ""),
                     agree(float(r.equity[0]), r.std_error[0], e7, se7)))

    range_vs_range("AKs, QQ", "JJ+, AQs+", "7c 2d 9s")
    range_vs_range("TT+, AJs+", "22+, KQs", "")

    width = max(len(r[0]) for r in rows)
    print(f"{n:,} samples where a Monte Carlo answers; times are the best of three runs")
    print(f"{'question':<{width}}  {'eval7 s':>9}  {'eval7 answer':<16}  {'ours s':>9}  {'our answer':<22}  agree")
    for label, t7, a7, t, a, ok in rows:
        print(f"{label:<{width}}  {t7:>9.4f}  {a7:<16}  {t:>9.4f}  {a:<22}  {ok}")


def mean_over_villains(per_hand: dict[Any, float], villain: ranges.Range, board: str) -> float:
    """A range's equity from eval7's ``py_all_hands_vs_range`` (each hero hand's equity): their mean,
    each weighted by how many of the villain's hands it meets (those sharing no card with it or the board)."""
    known = set(parse_cards(board))
    villains = [set(h) for h in villain]
    total = weight = 0.0
    for hand, value in per_hand.items():
        mine = set(parse_cards(" ".join(map(str, hand))))
        meets = sum(1 for v in villains if not v & mine and not v & known)
        total += meets * value
        weight += meets
    return total / weight


def agree(ours: float, our_error: float, theirs: float, their_error: float) -> str:
    """Whether two answers differ by at most three standard errors of their difference (exact: 1e-6)."""
    bound = 3 * sqrt(our_error**2 + their_error**2) or 1e-6
    return "yes" if abs(ours - theirs) <= bound else "NO"


if __name__ == "__main__":
    main()
