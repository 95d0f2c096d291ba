"""``cardgame replay``: step through a hand history forwards and backwards, as a seat sees it or with
every card shown (:mod:`cardgame.terminal.replay`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console

from cardgame.cli.args import whole

__all__ = ["add"]

MAX_HAND = 10**6  # more hands than a hand-history file may hold (cardgame.phh.io.MAX_BYTES)


def run(args: argparse.Namespace, console: Console) -> int:
    """Open the hand and the viewpoint (errors before anything is shown), then step or print."""
    from cardgame.terminal.replay import Replayer, interact, print_steps

    replayer = Replayer(args.file, args.hand, args.seat, equity=args.equity)
    if args.print or not sys.stdin.isatty():
        print_steps(replayer, console)
    else:
        interact(replayer, console)
    return 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``replay`` subcommand."""
    p = sub.add_parser(
        "replay", help="step through a PHH hand history, as a seat sees it or with every card",
        description="Step through one hand of a .phh or .phhs file, action by action, with the table as a "
                    "seat sees it (its own cards; others' only once shown) or every card shown. Commands: "
                    "n or Enter next, p previous, g N go to step N, s SEAT viewpoint, a every card, h hands "
                    "(h N: hand N), q quit, help. When input is not a terminal, or with --print, every step "
                    "is printed in order.")
    p.add_argument("file", help="a .phh or .phhs hand-history file")
    p.add_argument("--hand", type=whole("--hand", 1, MAX_HAND), default=1, metavar="N",
                   help="the hand of a .phhs file to replay, from 1 (default 1)")
    p.add_argument("--seat", default="all", metavar="S",
                   help="the viewpoint: 'all' (every card, the default), a player's number as the file counts "
                        "them (2 or p2) or a player's name")
    p.add_argument("--print", action="store_true", help="print every step in order instead of stepping")
    p.add_argument("--equity", action="store_true",
                   help="show each live player's all-in equity at each step, as the viewpoint sees the cards "
                        "(exact when cheap, else seeded Monte Carlo)")
    p.set_defaults(run=run)
