"""``cardgame equity``: all-in equity of hands and ranges in every game the library ranks, exact or
Monte Carlo, printed as a table (equity, its margin, wins, ties, losses and the deals counted)."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import Any

from rich.console import Console

from cardgame.cli.args import MAX_SEED, whole
from cardgame.evaluation.equity import GAMES, MAX_SAMPLES
from cardgame.model.inputs import excerpt

__all__ = ["add"]

_DECIMAL = re.compile(r"[0-9]{1,7}(\.[0-9]{1,9})?|\.[0-9]{1,9}")


def positive(what: str, maximum: float) -> Callable[[str], float]:
    """An argparse type: a positive decimal number (ASCII digits, a point) of at most ``maximum``."""

    def parse(text: str) -> float:
        if not _DECIMAL.fullmatch(text) or not 0 < float(text) <= maximum:
            raise argparse.ArgumentTypeError(f"the {what} must be a decimal number above 0 and at most {maximum:g}, "
                                             f"not {excerpt(text)}")
        return float(text)

    return parse


def run(args: argparse.Namespace, console: Console) -> int:
    """Print the players' equities as a table, and each exact equity as a fraction."""
    from cardgame.cli.progress import progress_bar
    from cardgame.evaluation.equity import equity

    exact = True if args.exact else (False if args.samples is not None or args.target_error or args.time else None)
    with progress_bar("deals") as progress:
        result = equity(args.hands, args.board or (), game=args.game, hi_lo=args.hi_lo, dead=args.dead or (),
                        exact=exact, samples=args.samples or 100_000, target_error=args.target_error,
                        seconds=args.time, seed=args.seed, progress=progress)
    console.print(str(result), highlight=False, markup=False)
    if result.exact and all(e.denominator < 10**15 for e in result.equity):
        fractions = ", ".join(f"{eq.numerator}/{eq.denominator}" for eq in result.equity)
        console.print(f"exact equities: {fractions}", highlight=False, markup=False)
    return 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``equity`` subcommand."""
    eq = sub.add_parser("equity", help="all-in equity of hands and ranges (exact or Monte Carlo)",
                        description="Each player is a hand ('AhKh') or a range ('QQ+, AQs+', '0.5(JJ)', 'random'; "
                                    "Omaha 'AA**', 'AAKKds'; stud: the cards known, the rest dealt; draw games: "
                                    "'7h5d3c2s*' draws one).")
    eq.add_argument("hands", nargs="+", help="each player's hand or range, e.g. AhKh 'QQ+, AQs+'")
    eq.add_argument("--board", default="", help="known board cards, e.g. 'Jc 3d 5c'")
    eq.add_argument("--dead", default="", help="cards out of the deck (folded, discarded or seen), e.g. 5s")
    eq.add_argument("--game", choices=list(GAMES), default="holdem")
    eq.add_argument("--hi-lo", action="store_true", help="split pots with an eight-or-better low (omaha, stud, holdem)")
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help="enumerate every deal")
    how.add_argument("--samples", type=whole("number of samples", 1, MAX_SAMPLES), default=None,
                     help="Monte Carlo with at most this many deals")
    eq.add_argument("--target-error", type=positive("target error", 1.0), default=None,
                    help="Monte Carlo until every standard error is at most this (e.g. 0.001)")
    eq.add_argument("--time", type=positive("time in seconds", 86_400), default=None,
                    help="Monte Carlo for at most this many seconds")
    eq.add_argument("--seed", type=whole("seed", 0, MAX_SEED), default=None)
    eq.set_defaults(run=run)
