"""The command line's argument types: whole numbers in ASCII digits within bounds, ports and output files,
each checked by argparse before any work starts."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from cardgame.model.errors import CardgameError
from cardgame.model.inputs import excerpt, read_int, writable_file
from cardgame.model.rng import MAX_SEED

__all__ = ["MAX_CHIPS", "MAX_COUNT", "MAX_SEED", "MAX_TIMEOUT_MS", "output", "port", "ports", "whole"]

#: Bounds of the command line's numbers (the library's own, where it has one). ``MAX_SEED`` (2**128 - 1,
#: from cardgame.model.rng): runs given no seed draw 128 bits and print them, so any seed printed can be given back.
MAX_CHIPS = 10**12  # a table's default maximum buy-in
MAX_COUNT = 10**18 - 1  # a dealer's hands (a match the user means to run until stopped)
MAX_TIMEOUT_MS = 86_400_000  # a day


def port(text: str) -> int:
    """An argparse type: a TCP port, 0 to 65535, in ASCII digits."""
    return whole("port", 0, 65535)(text)


def ports(text: str) -> list[int]:
    """An argparse type: comma-separated ports."""
    return [port(p.strip()) for p in text.split(",")]


def whole(what: str, minimum: int, maximum: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``minimum`` to ``maximum`` in ASCII digits
    (:func:`cardgame.model.inputs.read_int`)."""

    def parse(text: str) -> int:
        try:
            return read_int(text, what, CardgameError, signed=True, minimum=minimum, maximum=maximum,
                            max_digits=max(18, len(str(maximum))))
        except CardgameError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return parse


def output(text: str) -> str:
    """An argparse type: a file the command can write (checked before it runs): not a folder, in a folder
    that exists and may be written, its name no longer than the system allows."""
    if not writable_file(text):
        raise argparse.ArgumentTypeError(f"cannot write the file {excerpt(text)}: give a file name (of at most 255 "
                                         "bytes) in a folder that exists and may be written")
    return text
