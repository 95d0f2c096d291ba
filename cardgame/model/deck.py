"""Deck specifications (which cards) and decks (an ordered, shuffled stock to deal from)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from typing import Self

import attrs

from cardgame.engine.copies import shallow_copy
from cardgame.model.cards import CARDS, RANKS, SUITS, Card, format_cards
from cardgame.model.errors import CardError, ConfigError
from cardgame.model.inputs import excerpt
from cardgame.model.rng import RandomSource

__all__ = ["SHORT_DECK", "STANDARD_DECK", "Deck", "DeckSpec"]


def _ranks_valid(value: str) -> None:
    if not value or any(r not in RANKS for r in value) or len(set(value)) != len(value):
        raise ConfigError(f"Deck ranks {excerpt(value)} must be distinct characters from {RANKS!r}.")


def _suits_valid(value: str) -> None:
    if not value or any(s not in SUITS for s in value) or len(set(value)) != len(value):
        raise ConfigError(f"Deck suits {excerpt(value)} must be distinct characters from {SUITS!r}.")


@functools.cache
def _cards_of(ranks: str, suits: str) -> tuple[Card, ...]:
    return tuple(
        CARDS[RANKS.index(r) * 4 + SUITS.index(s)]
        for r in sorted(ranks, key=RANKS.index)
        for s in sorted(suits, key=SUITS.index)
    )


@attrs.frozen
class DeckSpec:
    """Which cards a deck holds: every combination of ``ranks`` and ``suits``.

    ``DeckSpec("AKQJT9876")`` is the 36-card short deck; ``DeckSpec("KQJ", "hs")`` Leduc's six.
    """

    ranks: str = RANKS
    suits: str = SUITS

    def __attrs_post_init__(self) -> None:
        _ranks_valid(self.ranks)
        _suits_valid(self.suits)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in index order."""
        return _cards_of(self.ranks, self.suits)

    def __len__(self) -> int:
        return len(self.ranks) * len(self.suits)


STANDARD_DECK = DeckSpec()
SHORT_DECK = DeckSpec("6789TJQKA")


#: ``_BITS[top]`` is ``(top + 1).bit_length()``: the random bits drawn for a card from ``top + 1`` cards
#: (a lookup where the method call costs a frame's worth of instructions per card dealt).
_BITS = tuple((top + 1).bit_length() for top in range(len(CARDS)))


def _bits_upto(n: int) -> tuple[int, ...]:
    """:data:`_BITS` for a stock of up to ``n`` cards (one given more cards than a deck holds)."""
    return tuple((top + 1).bit_length() for top in range(n))


class Deck:
    """The stock of one hand: cards are dealt from the top (the end of the list).

    A shuffled deck shuffles as it deals: each card dealt is drawn uniformly from the cards
    left (Fisher-Yates, one step per card), which deals exactly the distribution of a full
    shuffle while drawing only as many random numbers as cards dealt. Its ``remaining``
    cards are then in no particular order. A stacked deck deals its cards in the given order.
    """

    __slots__ = ("_bits", "_cards", "_rng", "dealt", "spec")

    def __init__(self, spec: DeckSpec = STANDARD_DECK, cards: Iterable[int] | None = None) -> None:
        self.spec = spec
        self._cards: list[Card] = list(spec.cards) if cards is None else [CARDS[c] for c in cards]
        self._rng: RandomSource | None = None
        self._bits: Callable[[int], int] | None = None  # the random source's getrandbits, bound once
        self.dealt: int = 0

    @classmethod
    def shuffled(cls, spec: DeckSpec, rng: RandomSource) -> Deck:
        """A deck that draws every card it deals at random from ``rng``."""
        deck = cls(spec)
        deck._rng, deck._bits = rng, rng.generator.getrandbits  # as the rng setter, without its call
        return deck

    @classmethod
    def stacked(cls, top_first: Sequence[int], spec: DeckSpec = STANDARD_DECK) -> Deck:
        """A deck that deals ``top_first`` in that order (for scripted hands and replays)."""
        return cls(spec, reversed(list(top_first)))

    def deal(self, count: int) -> list[Card]:
        """Remove and return ``count`` cards from the top."""
        cards = self._cards
        n = len(cards)
        if count > n:
            raise CardError(f"Cannot deal {count} cards: only {n} remain in the deck.")
        getrandbits = self._bits
        if getrandbits is not None:
            drawn: list[Card] = []
            draw = drawn.append
            bits = _BITS if n <= len(_BITS) else _bits_upto(n)
            for top in range(n - 1, n - 1 - count, -1):  # the last card's place: one card fewer each time
                i = getrandbits(bits[top])  # bits[top]: the bits of the number of cards left
                while i > top:  # rejection sampling: exactly uniform, as random.randrange does
                    i = getrandbits(bits[top])
                draw(cards[i])
                cards[i] = cards[top]  # the last card of the stock takes the drawn one's place
            del cards[n - count :]  # the drawn places, cut off the end at once
            self.dealt += count
            return drawn
        if count == 1:
            self.dealt += 1
            return [cards.pop()]
        out = cards[-count:]
        del cards[-count:]
        out.reverse()
        self.dealt += count
        return out

    def copy(self, rng: RandomSource | None) -> Self:
        """The same stock, in the same order, for a copy of the game: a shuffled deck draws from
        ``rng`` (the copy's random source), a stacked one takes ``None``."""
        new = shallow_copy(self)
        new._cards = self._cards[:]
        new.rng = rng
        return new

    def put_back(self, cards: Iterable[int], rng: RandomSource | None = None) -> None:
        """Return cards to the bottom of the stock (shuffled first when ``rng`` is given)."""
        back = [CARDS[c] for c in cards]
        if rng is not None:
            rng.shuffle(back)
        self._cards[:0] = back

    @property
    def rng(self) -> RandomSource | None:
        """The random source a shuffled deck draws each card from; ``None`` for a stacked deck."""
        return self._rng

    @rng.setter
    def rng(self, rng: RandomSource | None) -> None:
        self._rng = rng
        self._bits = None if rng is None else rng.generator.getrandbits

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The undealt cards: top first for a stacked deck, in no set order for a shuffled one."""
        return tuple(reversed(self._cards))

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards, top {format_cards(self._cards[-3:][::-1])}...)"
