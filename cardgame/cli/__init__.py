"""The ``cardgame`` command, one module per subcommand: ``demo`` (bots play; the hand history is
printed), ``play`` (a person against bots in the terminal), ``replay`` (step through one hand
history), ``phh check`` (replay hand histories), ``equity`` (exact or Monte Carlo all-in equity),
``simulate`` (a match between bots), ``diagram`` (a variant's stages and machines drawn), ``acpc`` (a
bot against an ACPC dealer, or a dealer for ACPC bots), ``serve`` (the table server) and ``verify``
(check that a server's hand was dealt from the deck it committed to).

Errors in the command line or the input print one line on stderr and exit with status 2 (a file
that cannot be read or written: an excerpt of its path and the system's reason). Every
number on the command line is read as ASCII digits (``²`` and ``٥`` are refused) within bounds
checked before any work starts: a number of hands, samples or workers past them is an error, not a
run that never ends.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import NoReturn

from rich.console import Console

from cardgame.cli import acpc, demo, diagram, equity, phh, play, replay, serve, simulate, verify
from cardgame.model.errors import CardgameError
from cardgame.model.inputs import os_error

__all__ = ["main"]

#: The subcommands in the order ``cardgame --help`` lists them: each module's ``add`` registers its parser
#: and sets ``run`` (``run(args, console) -> exit status``).
COMMANDS = (demo, play, replay, phh, equity, simulate, diagram, acpc, serve, verify)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line on stderr (and exit status 2)."""

    def error(self, message: str) -> NoReturn:
        if len(message) > 300:  # argparse quotes a bad value whole
            message = message[:300] + f"... ({len(message):,} characters)"
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    try:
        return version("cardgame")
    except PackageNotFoundError:
        from cardgame import __version__

        return __version__


def parser() -> argparse.ArgumentParser:
    """The ``cardgame`` command's parser, every subcommand registered."""
    top = _Parser(prog="cardgame", description="Poker assembled from small state machines.")
    top.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = top.add_subparsers(dest="command", required=True)
    for command in COMMANDS:
        command.add(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``cardgame`` with ``argv`` (default: the process's arguments); return the exit status."""
    args = parser().parse_args(argv)
    console = Console(soft_wrap=True)
    try:
        status: int = args.run(args, console)
        return status
    except BrokenPipeError:  # the reader stopped reading (``cardgame demo | head``): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except CardgameError as exc:
        print(f"cardgame: error: {' '.join(str(exc).splitlines())}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file that cannot be read or written: its path (an excerpt) and the reason
        print(f"cardgame: error: {os_error(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardgame: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
