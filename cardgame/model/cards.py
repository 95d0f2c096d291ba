"""Cards as small integers, and parsing of card strings.

A card is ``rank * 4 + suit``: rank 0 is a deuce and 12 an ace, suit 0..3 is clubs, diamonds,
hearts, spades. :class:`Card` is an ``int`` subclass, so evaluators index tables with it directly
while it still prints as ``Ah``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import islice
from typing import Any

from cardgame.model.errors import CardError
from cardgame.model.inputs import excerpt

__all__ = ["CARDS", "MAX_CARD_TEXT", "RANKS", "SUITS", "Card", "format_cards", "parse_card", "parse_cards"]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
_RANK_INDEX = {r: i for i, r in enumerate(RANKS)} | {r.lower(): i for i, r in enumerate(RANKS)}
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)} | {s.upper(): i for i, s in enumerate(SUITS)}
_TOKEN = re.compile(r"(10|[2-9TJQKAtjqka])([cdhsCDHS])")
_ALLOWED = "rank one of 2-9, T (or 10), J, Q, K, A followed by suit one of c, d, h, s (e.g. 'Ah', '10h')"

MAX_CARD_TEXT = 1_000
"""Characters a card string may have. A whole deck written the longest way (``"10h, "`` for each
of 52 cards) takes 260, and no string of more than 52 cards is valid (a card may appear once), so
a longer string is refused before it is read."""


class Card(int):
    """One playing card; ``Card("Ah")`` or ``Card(51)``: an ``int`` 0 to 51, ``rank * 4 + suit``.

    ``rank`` is a number, 0 for a deuce to 12 for an ace (``Card("Ah").rank == 12``), and ``suit`` 0
    to 3 (clubs, diamonds, hearts, spades); ``str(card)`` is the text form, ``"Ah"``."""

    __slots__ = ()

    def __new__(cls, value: object) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if isinstance(value, Card):
            return value
        if not isinstance(value, int) or isinstance(value, bool):
            raise CardError(f"A card is a string such as 'Ah' or an index 0 to 51, not {excerpt(value)}.")
        if not 0 <= value < 52:
            raise CardError(f"Card index {excerpt(value)} is out of range; allowed are 0 to 51.")
        return CARDS[value]

    @property
    def rank(self) -> int:
        """0 for a deuce .. 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANKS[int(self) >> 2]

    @property
    def suit_char(self) -> str:
        return SUITS[int(self) & 3]

    def __str__(self) -> str:
        return RANKS[int(self) >> 2] + SUITS[int(self) & 3]

    def __repr__(self) -> str:
        return f"Card('{self}')"

    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
_BY_TEXT = {str(c): c for c in CARDS}


def parse_card(text: str) -> Card:
    """Parse one card: ``"Ah"``, ``"td"``, ``"10h"``."""
    if not isinstance(text, str):
        raise CardError(f"parse_card takes a card string such as 'Ah', not {excerpt(text)} (Card(n) takes an index).")
    card = _BY_TEXT.get(text)
    if card is not None:
        return card
    m = _TOKEN.fullmatch(text.strip())
    if m is None:
        raise CardError(f"Malformed card {excerpt(text)}; expected {_ALLOWED}.")
    rank = 8 if m.group(1) == "10" else _RANK_INDEX[m.group(1)]
    return CARDS[rank * 4 + _SUIT_INDEX[m.group(2)]]


def parse_cards(text: str | Iterable[str | int]) -> tuple[Card, ...]:
    """Parse ``"Ah 7c Td"``, ``"AhKd"``, ``"10h 9h"`` or an iterable of cards into a tuple.

    Raises :class:`CardError` naming the first bad token and its position, or a repeated card; a
    string longer than :data:`MAX_CARD_TEXT` characters, an iterable of more than 52 items and
    anything else (``None``, a number, bytes) are refused before any work.
    """
    if isinstance(text, str):
        out = _parse_text(text)
    else:
        if isinstance(text, (bytes, bytearray, memoryview)):
            items = None
        else:
            try:
                items = iter(text)
            except TypeError:
                items = None
        if items is None:
            raise CardError(f"Cards are a string such as 'Ah 7c Td' or an iterable of cards ('Ah' or an index 0 to "
                            f"51), not {excerpt(text)}.")
        first = list(islice(items, len(CARDS) + 1))
        if len(first) > len(CARDS):
            raise CardError(f"More than {len(CARDS)} cards were given ({excerpt(first)}...); a card may appear once, "
                            f"so at most {len(CARDS)} are allowed.")
        out = tuple(Card(c) for c in first)
    if len(set(out)) != len(out):
        dup = next(c for c in out if out.count(c) > 1)
        raise CardError(f"Card {dup} appears twice in {excerpt(format_cards(out))}; each card may appear once.")
    return out


def _parse_text(text: str) -> tuple[Card, ...]:
    """The cards of a card string (see :func:`parse_cards`)."""
    if len(text) > MAX_CARD_TEXT:
        raise CardError(f"A card string may have at most {MAX_CARD_TEXT:,} characters; {excerpt(text)} is longer.")
    compact = text.replace(",", " ")
    pos = 0
    cards: list[Card] = []
    n = len(compact)
    while pos < n:
        if compact[pos].isspace():
            pos += 1
            continue
        m = _TOKEN.match(compact, pos)
        if m is None:
            bad = compact[pos : pos + 3].split()[0] if compact[pos:].split() else compact[pos:]
            raise CardError(
                f"Malformed card string {excerpt(text)}: cannot read {excerpt(bad)} at position {pos}; "
                f"each card is {_ALLOWED}."
            )
        rank = 8 if m.group(1) == "10" else _RANK_INDEX[m.group(1)]
        cards.append(CARDS[rank * 4 + _SUIT_INDEX[m.group(2)]])
        pos = m.end()
    return tuple(cards)


def format_cards(cards: Iterable[int]) -> str:
    """``"Ah 7c Td"``; the inverse of :func:`parse_cards`."""
    try:
        items: Any = cards if isinstance(cards, list | tuple) else tuple(cards)  # an iterator is read once
    except TypeError:
        items = cards  # not an iterable: parse_cards names it
    else:
        try:
            return " ".join([str(CARDS[c]) if type(c) is not bool and c >= 0 else str(Card(c)) for c in items])
        except (TypeError, IndexError):  # an item that is not a card index
            pass
    return " ".join(map(str, parse_cards(items)))  # raises CardError naming the bad card
