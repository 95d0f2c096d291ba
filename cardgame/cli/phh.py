"""``cardgame phh check``: replay hand histories and compare their finishing stacks."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.model.errors import CardgameError
from cardgame.model.inputs import excerpt

__all__ = ["add"]


def run(args: argparse.Namespace, console: Console) -> int:
    """Replay every hand of ``args.paths``; 1 if any fails to reproduce."""
    from cardgame.phh.replay import check_paths

    report = check_paths(args.paths)
    if not report.hands:
        raise CardgameError(f"no PHH hands found in {excerpt(' '.join(args.paths))} (looked for .phh and .phhs files)")
    for line in report.lines():
        console.print(line, highlight=False, markup=False)
    return 0 if report.ok else 1


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``phh`` subcommand."""
    phh = sub.add_parser("phh", help="hand histories in the PHH format")
    phh_sub = phh.add_subparsers(dest="phh_command", required=True)
    check = phh_sub.add_parser("check", help="replay PHH files and compare finishing stacks")
    check.add_argument("paths", nargs="+")
    check.set_defaults(run=run)
