"""The table: seats, players, stacks and the button.

Seating rules:

* Buy-ins and top-ups must keep a stack within ``[min_buy_in, max_buy_in]``; chips are added
  only between hands (Robert's Rules of Poker: chips cannot be added during a hand).
* A player who leaves or sits out during a hand has that hand folded; the seat is freed or
  marked out when the hand ends (see :meth:`cardgame.play.game.Game.leave`).
* A player with no chips after a hand is sat out automatically.
* Button: the *moving button* rule. Each hand the button moves to the next seat in play, and the
  blinds are the next seats in play after it; a player who sits down joins the next hand without
  posting (the common online cash-game rule). Heads-up the button posts the small blind. The
  tournament *dead button* rule (TDA), with new players posting or waiting for the big blind and
  missed blinds, is the option ``button="dead"`` of the blind-game builders
  (:mod:`cardgame.model.button`).
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from cardgame.engine.copies import shallow_copy
from cardgame.model.errors import ConfigError, TableError
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.model.player import Player

__all__ = ["MAX_SEATS", "Player", "Table"]

MAX_SEATS = 1_000
"""Seats a table may have: far more than any poker table, few enough that a corrupt or hostile seat
count (a snapshot's, a store's) cannot make the seat list exhaust memory."""


def _positive(_inst: object, attribute: attrs.Attribute[int], value: int) -> None:
    check_int(value, f"table's {attribute.name}", ConfigError, minimum=1)


@attrs.define(eq=False, slots=True, on_setattr=attrs.setters.NO_OP)
class Table:
    """Seats numbered ``0 .. seat_count - 1``; ``button`` is the seat with the dealer button.

    The limits are validated when the table is made (attribute writes are plain, as the button
    moves every hand).
    """

    # attrs fields: seat_count, min_buy_in, max_buy_in, first_button (the first hand's button)

    seat_count: int = attrs.field(default=6, validator=_positive)
    min_buy_in: int = attrs.field(default=1, validator=_positive)
    max_buy_in: int = attrs.field(default=10**12, validator=_positive)
    first_button: int | None = None
    button: int | None = attrs.field(default=None, init=False)
    seats: list[Player | None] = attrs.field(init=False)

    def __attrs_post_init__(self) -> None:
        if not 2 <= self.seat_count <= MAX_SEATS:
            raise ConfigError(f"A table has 2 to {MAX_SEATS:,} seats, not {self.seat_count:,}.")
        if self.first_button is not None:
            check_int(self.first_button, "first button", ConfigError, minimum=0, maximum=self.seat_count - 1)
        if self.min_buy_in > self.max_buy_in:
            raise ConfigError(
                f"Table minimum buy-in {self.min_buy_in} is above the maximum {self.max_buy_in}."
            )
        self.seats = [None] * self.seat_count

    # --- queries -------------------------------------------------------------------------
    def players(self) -> Iterator[Player]:
        """Seated players in seat order."""
        return (p for p in self.seats if p is not None)

    def player(self, seat: int) -> Player:
        """The player in ``seat``; :class:`TableError` names the occupied seats if it is empty."""
        seat = self._check_seat(seat)
        p = self.seats[seat]
        if p is None:
            taken = [q.seat for q in self.players()]
            raise TableError(f"Seat {seat} is empty; occupied seats are {taken}.")
        return p

    def in_play(self) -> list[int]:
        """Seats that will be dealt into the next hand."""
        return [p.seat for p in self.seats if p is not None and p.stack > 0 and not p.sitting_out and not p.leaving]

    def total_chips(self) -> int:
        return sum(p.stack for p in self.players())

    def copy(self) -> Table:
        """The same table with a copy of every seated player (``Game.copy``)."""
        new = shallow_copy(self)
        new.seats = [None if p is None else p.copy() for p in self.seats]
        return new

    # --- seating ----------------------------------------------------------------------------
    def _check_seat(self, seat: object) -> int:
        if type(seat) is int and 0 <= seat < self.seat_count:  # the common case, at once
            return seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise TableError(f"Seat {excerpt(seat)} does not exist; seats are 0 to {self.seat_count - 1}.")
        return int(seat)

    def _check_buy_in(self, amount: object, what: str) -> int:
        amount = check_int(amount, f"{what} (in chips)", TableError, minimum=1)
        if amount < self.min_buy_in or amount > self.max_buy_in:
            raise TableError(
                f"The {what} {amount} is outside the table limits; "
                f"allowed is {self.min_buy_in} to {self.max_buy_in}."
            )
        return amount

    def sit_down(self, name: str, buy_in: int, seat: int | None = None) -> Player:
        """Seat ``name`` with ``buy_in`` chips in ``seat`` (the first empty seat if omitted)."""
        check_text(name, "player's name (a non-empty string)", TableError)
        if any(p.name == name for p in self.players()):
            raise TableError(f"A player named {excerpt(name)} is already seated; names must be unique.")
        buy_in = self._check_buy_in(buy_in, "buy-in")
        empty = [i for i, p in enumerate(self.seats) if p is None]
        if seat is None:
            if not empty:
                raise TableError(f"The table is full: all {self.seat_count} seats are taken.")
            seat = empty[0]
        elif self.seats[seat := self._check_seat(seat)] is not None:
            raise TableError(f"Seat {seat} is taken; empty seats are {empty}.")
        player = Player(name=name, seat=seat, stack=buy_in)
        self.seats[seat] = player
        return player

    def top_up(self, seat: int, amount: int) -> Player:
        """Add ``amount`` chips; the new stack must stay within the buy-in limits."""
        p = self.player(seat)
        amount = check_int(amount, "top-up (in chips)", TableError, minimum=1)
        if p.stack + amount > self.max_buy_in:
            raise TableError(
                f"Adding {amount} would make the stack {p.stack + amount}, above the maximum buy-in "
                f"{self.max_buy_in}; allowed is at most {self.max_buy_in - p.stack}."
            )
        p.stack += amount
        return p

    def remove(self, seat: int) -> Player:
        """Free ``seat`` and return the player who left (with the stack they cash out)."""
        p = self.player(seat)
        self.seats[seat] = None
        return p

    # --- the button ------------------------------------------------------------------------
    def next_in_play(self, after: int, seats: list[int]) -> int:
        """The first seat of ``seats`` (in seat order, as :meth:`in_play` gives) clockwise after ``after``."""
        if not seats:
            raise TableError("No seat is in play.")
        for s in seats:
            if s > after:
                return s
        return seats[0]  # past the last seat: wrap around

    def move_button(self, seats: list[int]) -> int:
        """Move the button to the next seat in play (moving-button rule) and return it.

        The first hand's button is ``first_button`` (or the next seat in play after it), else
        the first seat in play.
        """
        if self.button is None:
            first = seats[0] if self.first_button is None else self.first_button
            self.button = first if first in seats else self.next_in_play(first, seats)
        else:
            self.button = self.next_in_play(self.button, seats)
        return self.button
