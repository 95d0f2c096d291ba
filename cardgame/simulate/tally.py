"""Per-player statistics of a match, counted from the events of its games.

A :class:`Tally` listens to a game's events and adds, for each player (by its index in the
match, whatever seat it sits in): hands dealt, chips won or lost per hand, VPIP (hands where it
put chips in voluntarily in the first betting round), PFR (hands where it bet or raised then),
bets and raises against calls (the aggression factor), and showdowns reached and won.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from cardgame.events import (
    ActionTaken,
    BoardDealt,
    CardsDiscarded,
    CardsShown,
    Event,
    HandEnded,
    HandStarted,
    HoleCardsDealt,
    PotAwarded,
)

__all__ = ["Counts", "Tally"]


@attrs.define
class Counts:
    """One player's counts (see the module); ``nets`` is the chips won or lost in each hand dealt."""

    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    aggressive: int = 0
    calls: int = 0
    showdowns: int = 0
    showdowns_won: int = 0
    nets: list[int] = attrs.Factory(list)

    def add(self, other: Counts) -> None:
        self.hands += other.hands
        self.vpip += other.vpip
        self.pfr += other.pfr
        self.aggressive += other.aggressive
        self.calls += other.calls
        self.showdowns += other.showdowns
        self.showdowns_won += other.showdowns_won
        self.nets += other.nets


class Tally:
    """Counts the events of one game; ``players[seat]`` is the match index of the player in a seat."""

    def __init__(self, players: dict[int, int], counts: list[Counts]) -> None:
        self.players = players
        self.counts = counts
        self._handlers: dict[type[Event], Callable[[Any], None]] = {
            ActionTaken: self._action, HandStarted: self._started, BoardDealt: self._street,
            CardsDiscarded: self._street, HoleCardsDealt: self._street, CardsShown: self._shown,
            PotAwarded: self._awarded, HandEnded: self._ended,
        }
        self._reset()

    def _reset(self) -> None:
        self.first_round = True
        self.acted = False
        self.start: dict[int, int] = {}
        self.vpip: set[int] = set()
        self.pfr: set[int] = set()
        self.folded: set[int] = set()
        self.shown = False
        self.won: set[int] = set()

    def __call__(self, e: Event) -> None:
        handler = self._handlers.get(type(e))  # most events (stacks, blinds, cards dealt) count nothing
        if handler is not None:
            handler(e)

    def _action(self, e: ActionTaken) -> None:
        self.acted = True
        c = self.counts[self.players[e.seat]]
        if e.action in ("bet", "raise"):
            c.aggressive += 1
            if self.first_round:
                self.vpip.add(e.seat)
                self.pfr.add(e.seat)
        elif e.action == "call":
            c.calls += 1
            if self.first_round:
                self.vpip.add(e.seat)
        elif e.action == "fold":
            self.folded.add(e.seat)

    def _started(self, e: HandStarted) -> None:
        self._reset()
        self.start = dict(zip(e.seats, e.stacks, strict=True))

    def _street(self, e: Event) -> None:
        """A board card or a draw ends the first betting round; so do more hole cards after an action (stud)."""
        if type(e) is not HoleCardsDealt or self.acted:
            self.first_round = False

    def _shown(self, e: CardsShown) -> None:
        self.shown = True

    def _awarded(self, e: PotAwarded) -> None:
        self.won.update(e.winners)

    def _ended(self, e: HandEnded) -> None:
        stacks = dict(e.stacks)
        for seat, before in self.start.items():
            c = self.counts[self.players[seat]]
            c.hands += 1
            c.nets.append(stacks.get(seat, 0) - before)
            c.vpip += seat in self.vpip
            c.pfr += seat in self.pfr
            if self.shown and seat not in self.folded:
                c.showdowns += 1
                c.showdowns_won += seat in self.won
        self._reset()
