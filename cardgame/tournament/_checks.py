"""Checks shared by the tournament modules: lists of whole numbers and choices, refused with
:class:`TournamentError` quoting an excerpt."""

from __future__ import annotations

from collections.abc import Sequence

from cardgame.model.inputs import MAX_NUMBER, check_int, excerpt
from cardgame.tournament.errors import TournamentError

#: The most entries a list handed to the tournament package may hold (players, places, levels).
MAX_ENTRIES = 100_000


def check_list(value: object, what: str, *, max_length: int = MAX_ENTRIES, min_length: int = 1) -> list[object]:
    """``value`` as a list if it is a list or tuple of ``min_length`` to ``max_length`` entries."""
    if not isinstance(value, list | tuple):
        raise TournamentError(f"The {what} must be a list, not {excerpt(value)}.")
    if not min_length <= len(value) <= max_length:
        raise TournamentError(f"The {what} must hold from {min_length:,} to {max_length:,} entries, "
                              f"not {len(value):,}.")
    return list(value)


def check_ints(value: object, what: str, *, minimum: int = 0, maximum: int = MAX_NUMBER,
               max_length: int = MAX_ENTRIES, min_length: int = 1) -> tuple[int, ...]:
    """``value`` as a tuple of whole numbers from ``minimum`` to ``maximum`` (a list or tuple of
    ``min_length`` to ``max_length`` of them)."""
    items = check_list(value, what, max_length=max_length, min_length=min_length)
    return tuple(check_int(v, f"{what} entry {i + 1}", TournamentError, minimum=minimum, maximum=maximum)
                 for i, v in enumerate(items))


def check_choice(value: object, what: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``."""
    if not isinstance(value, str) or value not in choices:
        raise TournamentError(f"The {what} must be one of {', '.join(repr(c) for c in choices)}, "
                              f"not {excerpt(value)}.")
    return value
