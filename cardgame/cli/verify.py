"""``cardgame verify``: check that a hand was dealt from the deck the table committed to before it
(:mod:`cardgame.server.fairness`)."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from cardgame.model.errors import CardgameError
from cardgame.model.inputs import read_text

__all__ = ["add"]

#: The largest saved hand read (a hand's events are a few tens of kilobytes).
MAX_BYTES = 4 << 20


def run(args: argparse.Namespace, console: Console) -> int:
    """Check the commitment against the reveal (and the events of a saved hand); one line saying so."""
    from cardgame.server.fairness import DealError, read_saved, verify
    from cardgame.store.serialize import SnapshotError, from_json

    def json_of(text: str, what: str) -> Any:
        try:
            return from_json(text)
        except SnapshotError as exc:
            raise DealError(f"The {what} is not JSON: {exc}") from None

    if len(args.items) == 1:
        saved = json_of(read_text(args.items[0], MAX_BYTES, DealError, "a saved hand"), "saved hand")
        commitment, reveal, events = read_saved(saved)
    elif len(args.items) == 2:
        commitment, text = args.items
        reveal = json_of(text, "reveal")
        events = None
    else:
        raise CardgameError("Give a saved hand's file, or the commitment and the reveal (see cardgame verify --help).")
    console.print(verify(commitment, reveal, events).describe(), highlight=False)
    return 0


def add(sub: argparse._SubParsersAction[Any]) -> None:
    """The ``verify`` subcommand."""
    p = sub.add_parser(
        "verify", help="check that a server's hand was dealt from the deck it committed to before the hand",
        description="Check a hand of cardgame serve: that the reveal sent when it ended hashes to the commitment "
                    "sent before its first card (so the deck was fixed before anyone acted), and, for a saved "
                    "hand, that every card dealt and shown came from that deck in order. Exit status 0: it holds; "
                    "2: it does not, with the reason.")
    p.add_argument("items", nargs="+", metavar="FILE | COMMITMENT REVEAL",
                   help="a saved hand (JSON: commitment, reveal and the hand's events, or the reveal alone, "
                        "as a hand's 'hand ended' event carries it), or the commitment (64 hex digits) and the "
                        "reveal as JSON ('{\"salt\": ..., \"deck\": ...}')")
    p.set_defaults(run=run)
