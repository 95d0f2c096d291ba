"""Wait until enough players are seated and in play, then open the hand."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any, ClassVar, Self

from cardgame.engine import Done
from cardgame.model.context import Context
from cardgame.model.deck import DeckSpec
from cardgame.model.errors import ConfigError
from cardgame.model.inputs import check_int
from cardgame.stages.base import PokerStage
from cardgame.stages.fitting import TableFit, table_fit
from cardgame.stages.results import HandOpened

__all__ = ["HandOpened", "WaitForPlayers"]


class WaitForPlayers(PokerStage):
    """Waits for ``min_players`` seats in play; then moves the button, shuffles and opens a hand.

    Ends with *exit* instead when the game was asked to stop or ``max_hands`` were played.
    ``deck`` overrides the context's deck for this variant (e.g. the short deck). With more than
    ``max_players`` seats in play, the first ``max_players`` of them are dealt in.
    """

    name: ClassVar[str] = "wait for players"
    states: ClassVar[list[str]] = ["ready", "waiting_for_players", "hand_opened", "game_over"]
    transitions: ClassVar[list[dict[str, Any]]] = [
        {"trigger": "begin", "source": "ready", "dest": "game_over", "conditions": "game_over"},
        {"trigger": "begin", "source": "ready", "dest": "hand_opened", "prepare": "find_seats",
         "conditions": "enough_players", "after": "open_hand"},
        {"trigger": "begin", "source": "ready", "dest": "waiting_for_players"},
        {"trigger": "table_changed", "source": "waiting_for_players", "dest": "game_over", "conditions": "game_over"},
        {"trigger": "table_changed", "source": "waiting_for_players", "dest": "hand_opened", "prepare": "find_seats",
         "conditions": "enough_players", "after": "open_hand"},
    ]
    ends: ClassVar[dict[str, str]] = {"hand_opened": "opened", "game_over": "exited"}
    takes: ClassVar[tuple[type, ...]] = (type(None),)
    gives: ClassVar[tuple[type, ...]] = (HandOpened,)

    __slots__ = ("_opened", "_seats", "deck", "max_players", "min_players")

    def __init__(self, min_players: int = 2, *, max_players: int | None = None, deck: DeckSpec | None = None) -> None:
        super().__init__()
        check_int(min_players, "min_players", ConfigError, minimum=2)
        if max_players is not None and check_int(max_players, "max_players", ConfigError) < min_players:
            raise ConfigError(f"max_players {max_players} is below min_players {min_players}.")
        self.min_players = min_players
        self.max_players = max_players
        self.deck = deck
        self._seats: list[int] = []  # the seats in play, as find_seats last found them
        self._opened: HandOpened | None = None  # the hand this stage opened last

    def copy(self, ctx: Context) -> Self:
        """This stage in a copy of the game, with a list of seats of its own."""
        new = super().copy(ctx)
        new._seats = self._seats[:]
        return new

    def on_table_change(self) -> None:
        if self.state == "waiting_for_players":
            self.trigger("table_changed")

    # --- the build-time check (cardgame.stages.fitting) --------------------------------------------
    def fit(self, before: Hashable) -> Hashable:
        """A new hand: at most ``max_players`` dealt in, from this stage's deck if it has one."""
        table = table_fit(before) or TableFit()
        seats = table.seats if self.max_players is None else min(table.seats or self.max_players, self.max_players)
        return TableFit(seats, table.deck if self.deck is None else len(self.deck))

    def fit_key(self) -> Hashable:
        return self.max_players, None if self.deck is None else len(self.deck)

    # --- conditions and callbacks ---------------------------------------------------------------
    def game_over(self) -> bool:
        return self.ctx.game_over()

    def find_seats(self) -> None:
        """The seats in play now (prepare: the condition and the hand read them)."""
        self._seats = self.ctx.table.in_play()

    def enough_players(self) -> bool:
        return len(self._seats) >= self.min_players

    def open_hand(self) -> None:
        ctx = self.ctx
        seats = self._seats
        if self.max_players is not None and len(seats) > self.max_players:
            seats = seats[: self.max_players]
        if self.deck is not None and ctx.deck_spec is not self.deck:  # (an equal spec is replaced: no comparison)
            ctx.deck_spec = self.deck
        hand = ctx.open_hand(seats)
        self._opened = HandOpened(hand.number, hand.button, tuple(hand.by_seat))  # by_seat is in hand order

    def opened(self) -> Done:
        """The ending of ``hand_opened``: the hand's number, button and seats dealt in."""
        return Done(self._opened)
