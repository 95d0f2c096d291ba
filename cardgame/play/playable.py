"""What a driver of bots needs of a game: :class:`PlayableGame`, the part of
:class:`~cardgame.play.game.Game` that :func:`cardgame.play.bot.play` reads and calls.

It sits below both: ``Game.play`` hands itself to :mod:`cardgame.play.bot`, which knows the game only
through this protocol, so neither module imports the other in a loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardgame.engine import Dispatcher
from cardgame.model.context import Context
from cardgame.model.events import Event
from cardgame.model.legal import LegalActions
from cardgame.play.view import TableView
from cardgame.stages.results import DrawOptions, RunOptions, ShowOptions

__all__ = ["PlayableGame"]


class PlayableGame(Protocol):
    """A game bots can play: its context and stages, the hand in progress and its log, the question
    open now (who is to act, and their legal actions, draw or run-out options), and the answers."""

    @property
    def ctx(self) -> Context: ...

    @property
    def dispatcher(self) -> Dispatcher[Context]: ...

    @property
    def events(self) -> list[Event]: ...

    @property
    def hand(self) -> Any: ...

    @property
    def to_act(self) -> int | None: ...

    def subscribe(self, listener: Callable[[Event], None]) -> None: ...

    def view(self, seat: int | None = None) -> TableView: ...

    def legal_actions(self) -> LegalActions | None: ...

    def draw_options(self) -> DrawOptions | None: ...

    def run_options(self) -> RunOptions | None: ...

    def show_options(self) -> ShowOptions | None: ...

    def act(self, seat: int, action: str, amount: int | None = None) -> Event: ...

    def draw(self, seat: int, discards: Sequence[int] = ()) -> Event: ...

    def choose_runs(self, seat: int, runs: int) -> Event: ...

    def show(self, seat: int) -> Event: ...

    def muck(self, seat: int) -> None: ...
