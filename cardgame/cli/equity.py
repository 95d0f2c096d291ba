"""``cardgame equity``: all-in equity of known hands, exact or Monte Carlo."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_SEED, whole
from cardgame.evaluation.equity import MAX_SAMPLES

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    """Print each hand's equity, wins and ties."""
    from cardgame.cli.progress import progress_bar
    from cardgame.evaluation.equity import equity

    exact = True if args.exact else (False if args.samples is not None else None)
    with progress_bar("boards") as progress:
        result = equity(args.hands, args.board or (), game=args.game, hi_lo=args.hi_lo, exact=exact,
                        samples=args.samples or 100_000, seed=args.seed, progress=progress)
    kind = "exact over" if result.exact else "Monte Carlo,"
    console.print(f"{kind} {result.boards:,} boards", highlight=False)
    width = max(len(h) for h in args.hands)
    console.print(f"{'hand':<{width}}  {'equity':>9}  {'wins':>10}  {'ties':>9}  exact", highlight=False)
    for hand, eq, wins, ties in zip(args.hands, result.equity, result.wins, result.ties, strict=True):
        frac = f"{eq.numerator}/{eq.denominator}" if result.exact else ""
        console.print(f"{hand:<{width}}  {float(eq):>9.4%}  {wins:>10,}  {ties:>9,}  {frac}", highlight=False)
    return 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``equity`` subcommand."""
    eq = sub.add_parser("equity", help="all-in equity of known hands (exact or Monte Carlo)")
    eq.add_argument("hands", nargs="+", help="each hand's cards, e.g. AhKh QsQd")
    eq.add_argument("--board", default="", help="known board cards, e.g. 'Jc 3d 5c'")
    eq.add_argument("--game", choices=["holdem", "omaha"], default="holdem")
    eq.add_argument("--hi-lo", action="store_true", help="split pots with an eight-or-better low")
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every board")
    how.add_argument("--samples", type=whole("number of samples", 1, MAX_SAMPLES), default=None,
                     help="Monte Carlo with this many boards")
    eq.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None)
    eq.set_defaults(run=run)
