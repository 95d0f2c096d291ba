"""Deck specifications (which cards) and decks (an ordered, shuffled stock to deal from)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from cardgame.cards import CARDS, RANKS, SUITS, Card, format_cards
from cardgame.errors import CardError, ConfigError
from cardgame.rng import RandomSource

__all__ = ["SHORT_DECK", "STANDARD_DECK", "Deck", "DeckSpec"]


def _ranks_valid(_inst: object, _attr: object, value: str) -> None:
    if not value or any(r not in RANKS for r in value) or len(set(value)) != len(value):
        raise ConfigError(f"Deck ranks {value!r} must be distinct characters from {RANKS!r}.")


def _suits_valid(_inst: object, _attr: object, value: str) -> None:
    if not value or any(s not in SUITS for s in value) or len(set(value)) != len(value):
        raise ConfigError(f"Deck suits {value!r} must be distinct characters from {SUITS!r}.")


@attrs.frozen
class DeckSpec:
    """Which cards a deck holds: every combination of ``ranks`` and ``suits``.

    ``DeckSpec("AKQJT9876")`` is the 36-card short deck; ``DeckSpec("KQJ", "hs")`` Leduc's six.
    """

    ranks: str = attrs.field(default=RANKS, validator=_ranks_valid)
    suits: str = attrs.field(default=SUITS, validator=_suits_valid)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards in index order."""
        return tuple(
            CARDS[RANKS.index(r) * 4 + SUITS.index(s)]
            for r in sorted(self.ranks, key=RANKS.index)
            for s in sorted(self.suits, key=SUITS.index)
        )

    def __len__(self) -> int:
        return len(self.ranks) * len(self.suits)


STANDARD_DECK = DeckSpec()
SHORT_DECK = DeckSpec("6789TJQKA")


class Deck:
    """The stock of one hand: cards are dealt from the top (the end of the list)."""

    __slots__ = ("_cards", "dealt", "spec")

    def __init__(self, spec: DeckSpec = STANDARD_DECK, cards: Iterable[int] | None = None) -> None:
        self.spec = spec
        self._cards: list[Card] = list(spec.cards) if cards is None else [CARDS[c] for c in cards]
        self.dealt: int = 0

    @classmethod
    def shuffled(cls, spec: DeckSpec, rng: RandomSource) -> Deck:
        deck = cls(spec)
        rng.shuffle(deck._cards)
        return deck

    @classmethod
    def stacked(cls, top_first: Sequence[int], spec: DeckSpec = STANDARD_DECK) -> Deck:
        """A deck that deals ``top_first`` in that order (for scripted hands and replays)."""
        return cls(spec, reversed(list(top_first)))

    def deal(self, count: int) -> list[Card]:
        """Remove and return ``count`` cards from the top."""
        cards = self._cards
        if count > len(cards):
            raise CardError(f"Cannot deal {count} cards: only {len(cards)} remain in the deck.")
        if count == 1:
            self.dealt += 1
            return [cards.pop()]
        out = cards[-count:]
        del cards[-count:]
        out.reverse()
        self.dealt += count
        return out

    def put_back(self, cards: Iterable[int], rng: RandomSource | None = None) -> None:
        """Return cards to the bottom of the stock (shuffled first when ``rng`` is given)."""
        back = [CARDS[c] for c in cards]
        if rng is not None:
            rng.shuffle(back)
        self._cards[:0] = back

    @property
    def remaining(self) -> tuple[Card, ...]:
        """The undealt cards, top first."""
        return tuple(reversed(self._cards))

    def __len__(self) -> int:
        return len(self._cards)

    def __repr__(self) -> str:
        return f"Deck({len(self._cards)} cards, top {format_cards(self._cards[-3:][::-1])}...)"
