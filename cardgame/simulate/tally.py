"""Per-player statistics of a match, counted from the events of its games.

A :class:`Tally` listens to a game's events and adds, for each player (by its index in the
match, whatever seat it sits in): hands dealt, chips won or lost per hand, VPIP (hands where it
put chips in voluntarily in the first betting round), PFR (hands where it bet or raised then),
bets and raises against calls (the aggression factor), and showdowns reached and won.
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from cardgame.model.events import (
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
    """Counts the events of one game; ``players[seat]`` is the match index of the player in a seat.

    Call it with each event (a listener), or :meth:`feed` it the events in batches (cheaper: one
    call for many events); a batch may end anywhere, even in the middle of a hand."""

    def __init__(self, players: dict[int, int], counts: list[Counts]) -> None:
        self.players = players
        self.counts = counts
        self.start: dict[int, int] = {}
        self.vpip: set[int] = set()
        self.pfr: set[int] = set()
        self.folded: set[int] = set()
        self.won: set[int] = set()
        self._reset()

    def _reset(self) -> None:
        self.first_round = True
        self.acted = False
        self.shown = False
        self.start = {}
        for seats in (self.vpip, self.pfr, self.folded, self.won):
            seats.clear()

    def __call__(self, e: Event) -> None:
        self.feed((e,))

    def feed(self, events: Iterable[Event]) -> None:
        """Count ``events``, in the order they happened."""
        for e in events:
            kind = type(e)
            if kind is ActionTaken:
                assert isinstance(e, ActionTaken)
                self.acted = True
                action, seat = e.action, e.seat
                if action == "fold":
                    self.folded.add(seat)
                elif action == "call":
                    self.counts[self.players[seat]].calls += 1
                    if self.first_round:
                        self.vpip.add(seat)
                elif action == "bet" or action == "raise":
                    self.counts[self.players[seat]].aggressive += 1
                    if self.first_round:
                        self.vpip.add(seat)
                        self.pfr.add(seat)
            elif kind is HandStarted:
                assert isinstance(e, HandStarted)
                self._reset()
                self.start = dict(zip(e.seats, e.stacks, strict=True))
            elif (kind is BoardDealt or kind is CardsDiscarded or kind is HoleCardsDealt) and self.acted:
                # cards dealt after someone acted end the first round (Courchevel's first flop card comes before)
                self.first_round = False
            elif kind is CardsShown:
                self.shown = True
            elif kind is PotAwarded:
                assert isinstance(e, PotAwarded)
                self.won.update(e.winners)
            elif kind is HandEnded:
                assert isinstance(e, HandEnded)
                self._ended(e)

    def _ended(self, e: HandEnded) -> None:
        stacks = dict(e.stacks)
        players, counts, vpip, pfr, folded, won = self.players, self.counts, self.vpip, self.pfr, self.folded, self.won
        showdown = self.shown
        for seat, before in self.start.items():
            c = counts[players[seat]]
            c.hands += 1
            c.nets.append(stacks.get(seat, 0) - before)
            if seat in vpip:
                c.vpip += 1
                c.pfr += seat in pfr
            if showdown and seat not in folded:
                c.showdowns += 1
                c.showdowns_won += seat in won
        self._reset()
