"""Cards as the reference dealer deals them: the same seed gives the same cards, hand after hand.

The reference dealer seeds a Mersenne Twister (MT19937) with ``init_genrand(seed)`` and deals each
hand's cards one at a time: each player's hole cards by position, then each round's board cards;
a card is ``deck[genrand_int32() % cards_left]``, whose place the last card of the deck then takes.
Python's :class:`random.Random` is the same generator, so loading the state ``init_genrand``
builds gives the reference's numbers. This is the dealer's one source of randomness.
"""

from __future__ import annotations

import random

from cardgame.acpc.gamedef import GameDef
from cardgame.model.cards import CARDS, RANKS, SUITS, Card

__all__ = ["ReferenceDeals", "mersenne_twister"]


def mersenne_twister(seed: int) -> random.Random:
    """A generator in the state MT19937's ``init_genrand(seed)`` leaves (``seed`` taken mod 2**32)."""
    state = [seed & 0xFFFFFFFF]
    for i in range(1, 624):
        prev = state[-1]
        state.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    generator = random.Random()
    generator.setstate((3, (*state, 624), None))
    return generator


class ReferenceDeals:
    """Each call deals the next hand of ``game`` as the reference dealer seeded with ``seed`` does:
    ``(hole cards by position, board cards in the order dealt)``."""

    def __init__(self, game: GameDef, seed: int) -> None:
        self.game = game
        self.seed = seed
        self._random = mersenne_twister(seed)
        # the reference's deck order: suit by suit (the last num_suits), ranks upwards (the top num_ranks)
        self._deck = [CARDS[r * 4 + s] for s in range(len(SUITS) - game.num_suits, len(SUITS))
                      for r in range(len(RANKS) - game.num_ranks, len(RANKS))]

    def __call__(self) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
        game = self.game
        deck = list(self._deck)
        bits = self._random.getrandbits
        left = len(deck)

        def card() -> Card:
            nonlocal left
            i = bits(32) % left
            out = deck[i]
            deck[i] = deck[left - 1]
            left -= 1
            return out

        hole = tuple(tuple(card() for _ in range(game.num_hole_cards)) for _ in range(game.num_players))
        board = tuple(card() for _ in range(sum(game.num_board_cards)))
        return hole, board
