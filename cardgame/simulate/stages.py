"""Stages a match puts in front of a variant's stage list: count the hands played, reset the
stacks before each hand (cash games), and deal each hand from a deck stacked in advance
(duplicate matches)."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Self

from cardgame.model.context import Context
from cardgame.model.deck import Deck, DeckSpec
from cardgame.model.events import ChipsAdded, Event, PlayerSatIn
from cardgame.model.rng import RandomSource
from cardgame.stages.base import PokerStage

__all__ = ["CountHands", "ResetStacks", "StackedDeals"]


class CountHands(PokerStage):
    """Before each hand, hands the events logged since it last ran (the hand before) to ``count``
    in one batch, and empties the buffer. The game fills it as a hook, inside each change, so the
    batch is the whole hand before: ``game.hook(stage.buffer.append)`` (a call per event that runs no
    Python; a listener would get the last events of a hand only after the call that ended it, with
    the next hand's); call :meth:`flush` once the game stops, for the last hand. A
    :class:`~cardgame.simulate.tally.Tally` fed so counts what it would count as a listener."""

    name: ClassVar[str] = "count hands"
    __slots__ = ("buffer", "count")

    def __init__(self, count: Callable[[list[Event]], None]) -> None:
        super().__init__()
        self.count = count
        self.buffer: list[Event] = []

    def copy(self, ctx: Context) -> Self:
        """This stage in a copy of the game (``Game.copy``), with an empty buffer of its own: the
        copy's events are not the match's."""
        new = super().copy(ctx)
        new.buffer = []
        return new

    def flush(self) -> None:
        """Count what the buffer holds, and empty it."""
        self.count(self.buffer)
        self.buffer.clear()

    def on_start(self) -> None:
        self.flush()


class ResetStacks(PokerStage):
    """Before each hand, sets every seated player's stack to ``stack`` and sits them in (a cash
    game whose players rebuy to the same stack every hand). Each change is a ``ChipsAdded``
    event (with a negative amount when chips won are taken off the table)."""

    name: ClassVar[str] = "reset stacks"
    __slots__ = ("stack",)

    def __init__(self, stack: int) -> None:
        super().__init__()
        self.stack = stack

    def on_start(self) -> None:
        for p in self.ctx.table.players():
            if p.stack != self.stack:
                delta, p.stack = self.stack - p.stack, self.stack
                self.ctx.emit(ChipsAdded(p.seat, delta, p.stack))
            if p.sitting_out:
                p.sitting_out = False
                self.ctx.emit(PlayerSatIn(p.seat))


class StackedDeals(PokerStage):
    """Deals each hand from a deck shuffled by a random source of its own seeded with ``seed`` (from
    the match's seed), so the cards of the n-th hand are the same whatever the players did before
    and however many draws their bots took from the game's source (duplicate matches)."""

    name: ClassVar[str] = "stacked deals"
    __slots__ = ("_random", "spec")

    def __init__(self, seed: int, spec: DeckSpec) -> None:
        super().__init__()
        self._random = RandomSource(seed)
        self.spec = spec

    def copy(self, ctx: Context) -> Self:
        """This stage in a copy of the game, dealing from a copy of its random source."""
        new = super().copy(ctx)
        new._random = self._random.copy()
        return new

    def on_start(self) -> None:
        cards = list(self.spec.cards)
        self._random.shuffle(cards)
        self.ctx.next_deck = Deck.stacked(cards, self.spec)
