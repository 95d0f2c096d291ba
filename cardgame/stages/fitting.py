"""What a poker stage list leaves at the table, stage by stage: the summary the build-time check
(:func:`cardgame.engine.check_fit`) walks every path of a list with.

Each poker stage declares, in its :meth:`~cardgame.engine.Stage.fit`, what it needs of a
:class:`TableFit` and what it leaves: deals add cards (and must fit the deck at the most seats
the game deals in), forced bets say whether blinds open the betting, the bring-in needs an up card
and no blinds, a showdown needs the cards its evaluators rank, and the hand must end.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable

import attrs

from cardgame.model.errors import ConfigError

__all__ = ["Range", "TableFit", "count", "hand_won", "table_fit"]

#: Fewest and most cards, as a path to a stage may leave them.
Range = tuple[int, int]


def count(n: int) -> str:
    """``1 card``, ``3 cards``: a count of cards for a message."""
    return f"{n} card" if n == 1 else f"{n} cards"


def _range(r: Range) -> str:
    return str(r[0]) if r[0] == r[1] else f"{r[0]} to {r[1]}"


@attrs.frozen(cache_hash=True)
class TableFit:
    """What the stages so far leave on one path through a hand (hashable: paths that leave the same
    merge).

    ``seats`` and ``deck``: the most players dealt in and the cards in the deck (``None``: not known,
    the deck is not checked). ``hole``, ``board`` and ``together``: the cards each player holds
    (up cards included), on the board, and both, as ranges; ``up``: the up cards each player shows.
    ``dealt`` and ``other``: the cards taken from the deck for each player and besides (board cards
    and burns); ``drawn``: the cards each player may have drawn, whose discards went to the muck,
    which later draws may shuffle back (Robert's Rules, draw games) but later deals do not.
    ``blinds``: live blinds were posted this hand (they open the betting). ``contested``: ``False``
    on the way of a hand won without a showdown. ``ended``: the hand was closed.
    """

    seats: int | None = None
    deck: int | None = None
    hole: Range = (0, 0)
    board: Range = (0, 0)
    together: Range = (0, 0)
    up: int = 0
    dealt: int = 0
    other: int = 0
    drawn: int = 0
    blinds: bool = False
    contested: bool = True
    ended: bool = False

    @staticmethod
    @functools.cache
    def at(seats: int | None, deck: int | None) -> TableFit:
        """A table of ``seats`` and a deck of ``deck`` cards before any hand (one value for each: a
        list's check starts from it every time a game is built)."""
        return TableFit(seats, deck)

    def needed(self, per_player: int, other: int, *, muck: bool = False) -> int | None:
        """Cards the hand takes from the deck with ``per_player`` more to each of the most seats and
        ``other`` more besides (``muck``: a draw, which may use the discards); ``None`` when the seats
        are not known."""
        if self.seats is None:
            return None
        return self.seats * (self.dealt + per_player + (0 if muck else self.drawn)) + self.other + other

    def take(self, per_player: int, other: int, what: str, *, muck: bool = False) -> None:
        """Refuse a deal of ``what`` that would run the deck out at the most seats."""
        need = self.needed(per_player, other, muck=muck)
        if need is not None and self.deck is not None and need > self.deck:
            raise ConfigError(
                f"it deals {what}, and with {self.seats} players dealt in the hand would then need "
                f"{need} cards; the deck has {self.deck} (deal fewer cards, or deal in fewer players: "
                f"WaitForPlayers(max_players=...) or fewer seats)"
            )

    def deal(self, hole: int, up: int, board: int, burns: int = 0) -> TableFit:
        """This summary after ``hole`` cards to each player (``up`` of them face up) and ``board``
        cards (and ``burns``) to the board."""
        return attrs.evolve(
            self,
            hole=(self.hole[0] + hole, self.hole[1] + hole),
            board=(self.board[0] + board, self.board[1] + board),
            together=(self.together[0] + hole + board, self.together[1] + hole + board),
            up=self.up + up,
            dealt=self.dealt + hole,
            other=self.other + board + burns,
        )

    def cards_text(self) -> str:
        """The cards each player can use, for a message: ``2 (2 hole and up, 0 board)``."""
        return f"{_range(self.together)} ({_range(self.hole)} hole and up, {_range(self.board)} board)"

    def unfinished(self) -> str | None:
        """What the list leaves undone if it stops here (the kernel asks after the last stage)."""
        if self.ended:
            return None
        return ("no stage closes the hand: a poker list ends with EndHand (after a Showdown), which "
                "starts the next hand or stops the game")


def table_fit(before: Hashable) -> TableFit | None:
    """``before`` as a :class:`TableFit`, or ``None`` when what came before declared nothing (a stage
    of the kernel alone): then the stages after it are not checked against it."""
    return before if isinstance(before, TableFit) else None


def hand_won(before: Hashable) -> Hashable:
    """``before`` on the way of a hand won by the last player left (a betting round's or a draw's
    jump to the showdown): no hands are shown there."""
    table = table_fit(before)
    return before if table is None else attrs.evolve(table, contested=False)
