"""Who acts first in a betting round: by position, or by the best hand showing (stud games).

Stud rules (Robert's Rules of Poker, seven-card stud): from fourth street on, the best hand
showing acts first; only pairs, trips and quads count among up cards (no straights or flushes),
then high cards. In razz (ace-to-five low) the lowest hand showing acts first, aces low and
pairs bad. Identical showing hands: the player first clockwise from the button's left acts first.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from cardgame.model.cards import Card
from cardgame.model.hand import Hand

__all__ = ["Order", "best_showing_high", "best_showing_low", "left_of_button", "showing_value"]

#: Returns the index in ``hand.players`` of the first player to consider for action.
Order = Callable[[Hand], int]


def left_of_button(hand: Hand) -> int:
    """The first seat left of the button (``hand.players[0]``)."""
    return 0


def showing_value(cards: Sequence[Card], low: bool = False) -> tuple[int, ...]:
    """A comparable value of up cards; larger is better (``low``: better for razz).

    High: (size of the largest group, size of the second, ranks by group then rank).
    Low: aces count as one; fewer and smaller pairs are better, then lower ranks.
    """
    if low:
        ranks = [0 if c.rank == 12 else c.rank + 1 for c in cards]
    else:
        ranks = [c.rank for c in cards]
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = [n for _, n in groups] + [0, 0]
    if not low:
        return (shape[0], shape[1], *(r for r, _ in groups))
    # razz: compare the worst (highest) group first; a pair is worse than any unpaired card
    by_badness = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    return (-shape[0], -shape[1], *(-r for r, _ in by_badness))


def _best_showing(hand: Hand, low: bool) -> int:
    best: tuple[int, ...] | None = None
    index = 0
    for i, hp in enumerate(hand.players):
        if hp.folded:
            continue
        up = [c for c, u in zip(hp.hole, hp.face_up, strict=True) if u]
        value = showing_value(up, low)
        if best is None or value > best:
            best, index = value, i
    return index


def best_showing_high(hand: Hand) -> int:
    """Stud high: the best poker hand among the up cards acts first."""
    return _best_showing(hand, low=False)


def best_showing_low(hand: Hand) -> int:
    """Razz: the lowest hand among the up cards acts first."""
    return _best_showing(hand, low=True)
