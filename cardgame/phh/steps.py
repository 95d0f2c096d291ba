"""A hand history as steps, one per action of the file: after each, the table as every seat sees it
(or with every card shown) and the lines of play the action added. Replay viewers (the terminal's
``cardgame replay``, a web page) step through them forwards and backwards without replaying again.

The hand is played through the engine by :func:`cardgame.phh.replay.replay`, so a step shows the
engine's table: a betting round's last call also deals the next street (the file's ``d db`` after
it adds nothing), and an all-in hand runs out and is shown at once. Cards the file does not know
(``????``, which the replay fills with unused cards) are shown as ``??`` in every view; a card a
player shows (the engine's showdown, or the file's ``sm``) is seen by every seat from then on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from cardgame.engine import Stages
from cardgame.model.cards import Card
from cardgame.model.errors import HandHistoryError
from cardgame.model.events import CardsDiscarded, CardsShown, Event, HandEnded, HoleCardsDealt
from cardgame.phh.actions import Action, DealHoleAction, ShowMuckAction, StandPatDiscardAction
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.play.narration import Line, Narration
from cardgame.play.view import TableView, table_view

__all__ = ["HandSteps", "Step", "Viewer", "hand_steps", "pick_hand", "printable", "seat_of"]

#: A viewpoint: a seat (``0`` is the file's ``p1``), or ``None`` for every card shown.
Viewer = int | None


@attrs.frozen
class Step:
    """The hand after the file's action ``index`` (0-based): per viewpoint, the action as written
    (cards the viewpoint may not see as ``??``), the lines of play it added, and the table."""

    index: int
    actions: Mapping[Viewer, str]
    lines: Mapping[Viewer, tuple[Line, ...]]
    views: Mapping[Viewer, TableView]


@attrs.frozen
class HandSteps:
    """Every step of one hand. ``names`` are the players' (the file's ``players``, else ``p1``...);
    amounts are chips: the file's amounts times ``scale`` (1 unless the file has fractions);
    ``button`` is false in stud (no button is named)."""

    history: HandHistory
    names: tuple[str, ...]
    steps: tuple[Step, ...]
    scale: int
    button: bool

    def __len__(self) -> int:
        return len(self.steps)


def printable(text: str, limit: int = 40) -> str:
    """``text`` from a file made safe to show: characters that are not printable (a terminal's escape
    sequences) as ``?``, cut to ``limit`` characters with ``...``."""
    text = "".join(c if c.isprintable() else "?" for c in text[: limit + 1])
    return text if len(text) <= limit else text[: limit - 3] + "..."


def seat_of(text: str, names: Sequence[str]) -> int | None:
    """A viewpoint from the command line: ``all`` (``None``), a player's number as the file counts
    them (``2`` or ``p2`` is seat 1) or a player's name (any case). Raises :class:`HandHistoryError`
    naming the choices."""
    key = text.strip().lower()
    if key == "all":
        return None
    number = key.removeprefix("p")
    if number.isascii() and number.isdigit() and 1 <= int(number) <= len(names):
        return int(number) - 1
    for seat, name in enumerate(names):
        if name.lower() == key:
            return seat
    raise HandHistoryError(f"no seat {text.strip()[:40]!r}: give 'all', a player's number 1 to {len(names)} "
                           f"or a name ({', '.join(names)})")


def pick_hand(hands: Sequence[HandHistory | HandHistoryError], number: int, source: str) -> HandHistory:
    """Hand ``number`` (1-based) of a file's hands (:func:`cardgame.phh.io.load_each`). A number out
    of range names how many hands there are; a hand that did not load raises its error."""
    if len(hands) == 1 and isinstance(hands[0], HandHistoryError):
        raise hands[0]  # the file itself cannot be read, or is not a hand
    if not 1 <= number <= len(hands):
        count = f"{len(hands)} hand" + ("" if len(hands) == 1 else "s")
        raise HandHistoryError(f"{source}: no hand {number}: the file has {count} (1 to {len(hands)})")
    hand = hands[number - 1]
    if isinstance(hand, HandHistoryError):
        raise hand
    return hand


def hand_steps(hh: HandHistory, *, source: str = "<hand>") -> HandSteps:
    """Replay ``hh`` through the engine and keep every step. A hand the engine cannot replay raises
    the replay's :class:`HandHistoryError` naming the action at fault."""
    n = hh.player_count
    given = hh.players if hh.players and len(hh.players) == n else ()
    names = tuple(printable(given[i]) if i < len(given) and given[i].strip() else f"p{i + 1}" for i in range(n))
    known = {c for a in hh.actions for c in getattr(a, "cards", None) or () if c is not None}
    viewers: tuple[Viewer, ...] = (None, *range(n))
    stages: list[Stages] = []
    recorder = _Recorder(hh, names, known, viewers)

    def after(game: Game, index: int) -> None:
        if index < 0:
            recorder.narrations = {v: Narration.for_stages(stages[0], dict(enumerate(names))) for v in viewers}
            recorder.game = game
            game.subscribe(recorder.hear)
        else:
            recorder.step(game, index)

    result = replay(hh, source=source, configure=stages.append, after=after)
    if recorder.steps:  # a run-out asked for after the file's last action belongs to the last step
        recorder.finish(result.game)
    return HandSteps(hh, names, tuple(recorder.steps), result.scale, recorder.button)


class _Recorder:
    """Collects the events of each action and turns them into steps."""

    def __init__(self, hh: HandHistory, names: tuple[str, ...], known: set[Card], viewers: tuple[Viewer, ...]):
        self.hh = hh
        self.names = names
        self.known = known
        self.viewers = viewers
        self.narrations: dict[Viewer, Narration] = {}
        self.pending: list[Event] = []
        self.shown: dict[int, set[Card]] = {}
        self.final: dict[Viewer, TableView] | None = None  # the table as the hand ended
        self.steps: list[Step] = []
        self.game: Game | None = None

    @property
    def button(self) -> bool:
        narration = self.narrations.get(None)
        return narration is None or narration.complete_to is None

    def hear(self, event: Event) -> None:
        event = self._unknown_hidden(event)
        self.pending.append(event)
        if isinstance(event, CardsShown):
            self.shown.setdefault(event.seat, set()).update(event.cards)
        elif isinstance(event, HandEnded):  # (the hand is still open: its cards are on the table)
            assert self.game is not None  # (subscribed once the game is known)
            self.final = self._views(self.game)

    def step(self, game: Game, index: int) -> None:
        action = self.hh.actions[index]
        if isinstance(action, ShowMuckAction) and action.cards:
            self.shown.setdefault(action.player, set()).update(c for c in action.cards if c is not None)
        views = self._views(game) if game.hand is not None or self.final is None else self.final
        lines = self._lines()
        texts = {v: self._action_text(action, v, views[v]) for v in self.viewers}
        self.steps.append(Step(index, texts, lines, views))

    def finish(self, game: Game) -> None:
        """Add what happened after the file's last action (the hand's end) to the last step."""
        if not self.pending:
            return
        last = self.steps[-1]
        lines = self._lines()
        views = self._views(game) if game.hand is not None or self.final is None else self.final
        self.steps[-1] = attrs.evolve(last, lines={v: last.lines[v] + lines[v] for v in self.viewers}, views=views)

    def _lines(self) -> dict[Viewer, tuple[Line, ...]]:
        out: dict[Viewer, tuple[Line, ...]] = {}
        for v, narration in self.narrations.items():
            lines: list[Line] = []
            for event in self.pending:
                lines += narration.feed(event if v is None else event.seen_by(v))
            lines += narration.flush()
            out[v] = tuple(lines)
        self.pending = []
        return out

    def _unknown_hidden(self, event: Event) -> Event:
        """``event`` with the cards the file does not know (the replay's fillers) as ``None``."""
        if isinstance(event, HoleCardsDealt | CardsDiscarded):
            cards = tuple(c if c in self.known else None for c in event.cards)
            return event if cards == event.cards else attrs.evolve(event, cards=cards)
        return event

    def _views(self, game: Game) -> dict[Viewer, TableView]:
        ctx, to_act = game.ctx, game.to_act
        every = table_view(ctx, reveal=True, to_act=to_act)
        out: dict[Viewer, TableView] = {}
        for v in self.viewers:
            view = every if v is None else table_view(ctx, v, to_act=to_act)
            seats = []
            for mine, full in zip(view.seats, every.seats, strict=True):
                shown = self.shown.get(full.seat, set())
                hole = tuple(c if c is not None and c in self.known and (mine_c is not None or c in shown) else None
                             for mine_c, c in zip(mine.hole, full.hole, strict=True))
                seats.append(attrs.evolve(mine, name=self.names[mine.seat] if mine.seat < len(self.names)
                                          else mine.name, hole=hole))
            out[v] = attrs.evolve(view, seats=tuple(seats))
        return out

    def _action_text(self, action: Action, viewer: Viewer, view: TableView) -> str:
        """The file's action as ``viewer`` may read it: another player's dealt or discarded cards that
        the viewer's table does not show are ``??`` (shown cards are everyone's)."""
        if (viewer is not None and isinstance(action, DealHoleAction | StandPatDiscardAction)
                and action.player != viewer):
            seen = {c for s in view.seats if s.seat == action.player for c in s.hole if c is not None}
            action = attrs.evolve(action, cards=tuple(c if c in seen else None for c in action.cards))
        return printable(action.to_text(), 200)  # (with the file's commentary, if any)
