"""A hand history as steps, one per action of the file: after each, the table as every seat sees it
(or with every card shown) and the lines of play the action added. Replay viewers (the terminal's
``cardgame replay``, a web page) step through them forwards and backwards without replaying again.

The hand is played through the engine by :func:`cardgame.phh.replay.replay`, which runs ahead of
the file: a betting round's last call also deals the next street, and an all-in hand runs out,
shows and pays at once. The steps follow the file instead: the table is kept as it was after each
event, and an event a later action of the file stands for (a board the file deals later, a hand it
shows later) waits for that action, with everything after it. So a call shows the call, the
file's ``d db`` deals the flop, and an all-in run-out comes a street a step. Cards the file does not
know (``????``, which the replay fills with unused cards) are shown as ``??`` in every view; a card a
player shows (the engine's showdown, or the file's ``sm``) is seen by every seat from then on.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import attrs

from cardgame.engine import Stages
from cardgame.evaluation.equity import EquityResult, equity
from cardgame.model.cards import Card
from cardgame.model.errors import CardgameError, HandHistoryError
from cardgame.model.events import BoardDealt, CardsDiscarded, CardsShown, Event, HoleCardsDealt
from cardgame.model.inputs import check_instance, check_text, is_ascii_int
from cardgame.phh.actions import Action, DealBoardAction, DealHoleAction, ShowMuckAction, StandPatDiscardAction
from cardgame.phh.history import HandHistory
from cardgame.phh.replay import replay
from cardgame.play.game import Game
from cardgame.play.narration import Line, Narration
from cardgame.play.view import TableView, table_view

__all__ = ["EQUITY_GAMES", "HandSteps", "Step", "Viewer", "hand_steps", "pick_hand", "printable", "seat_of",
           "view_equity"]

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


#: PHH variant code -> the :func:`~cardgame.evaluation.equity.equity` game and whether pots split hi/lo.
EQUITY_GAMES: Mapping[str, tuple[str, bool]] = {
    "FT": ("holdem", False), "NT": ("holdem", False), "NS": ("short-deck", False), "PO": ("omaha", False),
    "FO/8": ("omaha", True), "F7S": ("stud", False), "F7S/8": ("stud", True), "FR": ("razz", False),
    "N2L1D": ("2-7", False), "F2L3D": ("2-7", False), "FB": ("badugi", False),
}


def view_equity(view: TableView, variant: str, *, samples: int = 20_000) -> EquityResult | None:
    """Each live player's all-in equity at this point, as ``view`` shows the cards: a card the view
    does not show is unknown (dealt at random), the board's cards to come are dealt, and a folded
    player's cards the view shows are dead. Exact when cheap, else ``samples`` seeded Monte Carlo
    deals (the same answer every time). ``None`` when fewer than two players are live, the variant
    has no equity game (:data:`EQUITY_GAMES`) or the deck cannot deal every live player to the end
    (eight stud players). Draw games rank the hands as they stand."""
    check_instance(view, TableView, "A TableView", HandHistoryError)
    check_text(variant, "variant", HandHistoryError)
    game, hi_lo = EQUITY_GAMES.get(variant, ("", False))
    live = [s for s in view.seats if s.in_hand and not s.folded and s.hole]
    if not game or len(live) < 2:
        return None
    hands = tuple("".join(str(c) if c is not None else "*" for c in s.hole) for s in live)
    dead = tuple(c for s in view.seats if s.folded for c in s.hole if c is not None)
    try:
        return _equity(hands, tuple(view.board), dead, game, hi_lo, samples)
    except CardgameError:  # too few cards left to deal everyone to the end
        return None


@functools.lru_cache(maxsize=256)
def _equity(hands: tuple[str, ...], board: tuple[Card, ...], dead: tuple[Card, ...], game: str, hi_lo: bool,
            samples: int) -> EquityResult:
    return equity(list(hands), board, dead=dead, game=game, hi_lo=hi_lo, samples=samples, seed=0)


def seat_of(text: str, names: Sequence[str]) -> int | None:
    """A viewpoint from the command line: ``all`` (``None``), a player's number as the file counts
    them (``2`` or ``p2`` is seat 1) or a player's name (any case). Raises :class:`HandHistoryError`
    naming the choices."""
    key = text.strip().lower()
    if key == "all":
        return None
    number = key.removeprefix("p")
    if is_ascii_int(number, max_digits=4) and 1 <= int(number) <= len(names):
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
            recorder.start(game)
        else:
            recorder.step(game, index)

    result = replay(hh, source=source, configure=stages.append, after=after)
    if recorder.steps:  # what happened after the file's last action belongs to the last step
        recorder.finish()
    return HandSteps(hh, names, tuple(recorder.steps), result.scale, recorder.button)


def _stands_for(event: Event, shower: int | None) -> bool:
    """Whether the file's action stands for ``event``: a board deal (``shower`` ``None``) or that
    player's show."""
    if shower is None:
        return isinstance(event, BoardDealt)
    return isinstance(event, CardsShown) and event.seat == shower


#: The table after an event: every card shown, and as each seat sees it (before the file's masking).
_Raw = tuple[TableView, dict[int, TableView]]


@attrs.define(eq=False)
class _Heard:
    """One event of the engine and the table right after it; ``taken`` once a step has shown it."""

    event: Event
    raw: _Raw
    taken: bool = False


class _Recorder:
    """Hears the engine's events, keeping the table after each, and makes a step of each action of
    the file from the events that action stands for (see the module)."""

    def __init__(self, hh: HandHistory, names: tuple[str, ...], known: set[Card], viewers: tuple[Viewer, ...]):
        self.hh = hh
        self.names = names
        self.known = known
        self.viewers = viewers
        self.narrations: dict[Viewer, Narration] = {}
        self.heard: list[_Heard] = []
        self.front = 0  # the events before it are all taken: the table shown is the one after them
        self.shown: dict[int, set[Card]] = {}
        self.steps: list[Step] = []
        self.game: Game | None = None
        self.start_raw: _Raw | None = None
        # the file's actions that stand for events: by position, boards dealt and hands shown after it
        self.boards_after = [0] * len(hh.actions)
        self.shows_after: list[dict[int, int]] = [{} for _ in hh.actions]
        shows: dict[int, int]
        boards, shows = 0, {}
        for i in range(len(hh.actions) - 1, -1, -1):
            self.boards_after[i], self.shows_after[i] = boards, dict(shows)
            a = hh.actions[i]
            if isinstance(a, DealBoardAction):
                boards += 1
            elif isinstance(a, ShowMuckAction) and a.cards:
                shows[a.player] = shows.get(a.player, 0) + 1

    @property
    def button(self) -> bool:
        narration = self.narrations.get(None)
        return narration is None or narration.complete_to is None

    def start(self, game: Game) -> None:
        self.game = game
        self.start_raw = self._raw(game)
        game.hook(self.hear)  # the table as it is at each event, inside the change

    def hear(self, event: Event) -> None:
        assert self.game is not None  # (subscribed once the game is known)
        self.heard.append(_Heard(self._unknown_hidden(event), self._raw(self.game)))

    def step(self, game: Game, index: int) -> None:
        action = self.hh.actions[index]
        if isinstance(action, ShowMuckAction) and action.cards:
            self.shown.setdefault(action.player, set()).update(c for c in action.cards if c is not None)
        taken: list[int] = []
        shower = action.player if isinstance(action, ShowMuckAction) and action.cards else None
        if isinstance(action, DealBoardAction) or shower is not None:  # the event it stands for, if the engine
            mine = next((i for i in range(self.front, len(self.heard)) if not self.heard[i].taken  # ran ahead to it
                         and _stands_for(self.heard[i].event, shower)), None)
            if mine is not None:
                self.heard[mine].taken = True
                taken.append(mine)
                event = self.heard[mine].event
                if isinstance(event, CardsShown) and self.boards_after[index]:  # shown before the run-out:
                    self.heard[mine].event = attrs.evolve(event, hand="")  # its value names cards to come
        boards, shows = self.boards_after[index], self.shows_after[index]
        for i in range(self.front, len(self.heard)):  # then every event up to the first a later action stands for
            h = self.heard[i]
            if h.taken:
                continue
            if isinstance(h.event, BoardDealt) and boards:
                break
            if isinstance(h.event, CardsShown) and shows.get(h.event.seat):
                break
            h.taken = True
            taken.append(i)
        while self.front < len(self.heard) and self.heard[self.front].taken:
            self.front += 1
        self.steps.append(self._step(index, [self.heard[i] for i in sorted(taken)], live=self._caught_up(game)))

    def finish(self) -> None:
        """Add what happened after the file's last action (the hand's end) to the last step."""
        rest = [h for h in self.heard if not h.taken]
        if not rest:
            return
        for h in rest:
            h.taken = True
        self.front = len(self.heard)
        last = self.steps[-1]
        more = self._step(last.index, rest, live=None)
        self.steps[-1] = attrs.evolve(more, actions=last.actions,
                                      lines={v: last.lines[v] + more.lines[v] for v in self.viewers})

    def _caught_up(self, game: Game) -> Game | None:
        """The game itself when every event is shown and its hand is open (its player to act is known),
        else ``None``: the table is the one kept after the last event shown."""
        return game if self.front == len(self.heard) and game.hand is not None else None

    def _step(self, index: int, taken: list[_Heard], live: Game | None) -> Step:
        for h in taken:
            if isinstance(h.event, CardsShown):
                self.shown.setdefault(h.event.seat, set()).update(h.event.cards)
        raw = self._raw(live, to_act=True) if live is not None else (
            self.heard[self.front - 1].raw if self.front else self.start_raw)
        assert raw is not None  # (the table was kept when the players were seated)
        views = self._masked(raw)
        lines: dict[Viewer, tuple[Line, ...]] = {}
        for v, narration in self.narrations.items():
            out: list[Line] = []
            for h in taken:
                out += narration.feed(h.event if v is None else h.event.seen_by(v))
            out += narration.flush()
            lines[v] = tuple(out)
        action = self.hh.actions[index]
        texts = {v: self._action_text(action, v, views[v]) for v in self.viewers}
        return Step(index, texts, lines, views)

    def _unknown_hidden(self, event: Event) -> Event:
        """``event`` with the cards the file does not know (the replay's fillers) as ``None``."""
        if isinstance(event, HoleCardsDealt | CardsDiscarded):
            cards = tuple(c if c in self.known else None for c in event.cards)
            return event if cards == event.cards else attrs.evolve(event, cards=cards)
        return event

    def _raw(self, game: Game, *, to_act: bool = False) -> _Raw:
        """The table now, with every card and as each seat sees it; whose turn only when asked (in
        the middle of an action the game cannot say)."""
        ctx, turn = game.ctx, game.to_act if to_act else None
        seats = [v for v in self.viewers if v is not None]
        return table_view(ctx, reveal=True, to_act=turn), {v: table_view(ctx, v, to_act=turn) for v in seats}

    def _masked(self, raw: _Raw) -> dict[Viewer, TableView]:
        """Each viewpoint's table: a card shows where the file knows it and the viewer sees it, or it
        was shown."""
        every, mine_by_seat = raw
        out: dict[Viewer, TableView] = {}
        for v in self.viewers:
            view = every if v is None else mine_by_seat[v]
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
