"""Bots: a seat's private view in, an answer out; the Game itself is never handed to a bot.

A bot is any callable ``bot(view) -> answer``. The :class:`BotView` holds what the seat may see:
its own cards, the board, every player's up cards, stacks, bets and pot, the hand's events as
the seat sees them, and the question asked, exactly one of:

* ``view.legal`` (a :class:`~cardgame.model.betting.LegalActions`): a betting decision. Answer a word
  or ``(word, amount)``: ``fold``, ``check``, ``call``, ``bet``, ``raise``, ``all_in``,
  ``bring_in``. One vocabulary for every street (:func:`to_action`): ``raise`` and ``bet`` are
  the same word (a raise on an unopened street is the bet), without an amount they mean the
  smallest raise, or a call once raising is closed (the cap, nobody left to call); ``check``
  and ``call`` both mean "stay in as cheaply as possible" (in stud, posting a due bring-in);
  ``all_in`` means the largest raise allowed, or a call. Amounts are raise-to street totals.
* ``view.draw`` (a :class:`~cardgame.stages.DrawOptions`): answer the cards to discard (strings
  such as ``"Ah"`` or cards; empty: stand pat). ``check`` or ``call`` stand pat, or throw the
  lowest cards a compulsory discard requires (Pineapple).
* ``view.runs`` (a :class:`~cardgame.stages.RunOptions`): answer how many run-outs (1..max);
  ``check`` or ``call`` run once.
* ``view.show`` (a :class:`~cardgame.stages.ShowOptions`, at a showdown played with ``show_or_muck``):
  answer ``show`` or ``muck``; ``check`` or ``call`` answer its ``default`` (show a hand that wins
  against those tabled, muck one that does not).

An answer the rules do not allow raises :class:`~cardgame.model.errors.BotError`, naming the seat,
the answer and what was allowed. A class may derive from :class:`BotBase` for separate methods
and the hooks ``hand_started`` and ``hand_ended`` (which sees the hand's showdown). Bots draw
randomness from ``view.rng``, a ``random.Random`` of the seat's own derived from the game's seed
(:meth:`RandomSource.stream <cardgame.model.rng.RandomSource.stream>`), so a match replays exactly, yet
no bot can read the deck's generator. (A bot runs in the same process as the game: it is trusted
code, which Python cannot fence in; an untrusted bot plays over the network, :mod:`cardgame.acpc`.)
:func:`play` (and :meth:`Game.play <cardgame.play.game.Game.play>`) runs bots on a game.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import attrs

from cardgame.engine.records import fast_init
from cardgame.model.betting import LegalActions
from cardgame.model.cards import Card, format_cards
from cardgame.model.errors import BotError, CardError, IllegalActionError
from cardgame.model.events import CardsShown, Event, HandEnded, HandStarted, PotAwarded
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.playable import PlayableGame as Game  # what the driver needs of cardgame.play.game.Game
from cardgame.play.shape import GameShape, game_shape
from cardgame.play.view import SeatRow, SeatView, seat_rows
from cardgame.stages.results import DrawOptions, RunOptions, ShowOptions

__all__ = [
    "Answer",
    "Bot",
    "BotBase",
    "BotView",
    "HandEnd",
    "HandEvents",
    "HandStart",
    "build_view",
    "decide",
    "play",
    "seat_rng",
    "to_action",
    "to_discards",
    "to_runs",
    "to_show",
]

#: What a bot returns: a word, ``(word, amount)``, the cards to discard, or a number of run-outs.
Answer = str | tuple[str, int | None] | Sequence[Card | str | int] | int

T = TypeVar("T")

_WORDS = {
    "fold": "fold", "check": "check", "call": "call", "bet": "raise", "raise": "raise", "all_in": "all_in",
    "all-in": "all_in", "allin": "all_in", "bring_in": "bring_in", "bring-in": "bring_in", "complete": "raise",
}
_PASSIVE = ("check", "call")


@fast_init
@attrs.frozen(eq=False)
class BotView:
    """What one seat sees when it must decide; hidden cards of other players are ``None``.

    ``hole`` are the seat's own cards in the order dealt (``up``: which are face up); ``seats``
    every seated player as :class:`~cardgame.play.view.SeatView`; ``history`` this hand's events as the
    seat sees them; ``rng`` the seat's own random stream. Exactly one of ``legal``, ``draw``,
    ``runs`` and ``show`` is set: the question asked. Build one with :func:`build_view`: ``seats``,
    ``me`` and ``history`` are made on first use from what it copied when the question was asked. The
    built-in bots that read only the question (``random``, ``calling-station``, ``all-in``,
    ``pair-raiser``) are handed views that copy neither the seats nor the events: reading ``seats``,
    ``me``, ``player``, ``opponents``, ``stack`` or ``history`` of one raises :class:`BotError`; and
    :func:`decide` asks ``random``, ``calling-station`` and ``all-in`` a betting question without any
    view (their answer from the question and ``rng`` alone: the same draws).
    """

    seat: int
    hand: int
    shape: GameShape
    street: str
    hole: tuple[Card, ...]
    up: tuple[bool, ...]
    board: tuple[Card, ...]
    pot: int
    button: int | None
    rng: random.Random
    legal: LegalActions | None = None
    draw: DrawOptions | None = None
    runs: RunOptions | None = None
    show: ShowOptions | None = None
    _rows: tuple[SeatRow, ...] = ()  # the seats' rows as this seat sees them (view.seat_rows)
    _events: tuple[Event, ...] = ()  # the hand's events as a spectator sees them
    _own: tuple[tuple[int, Event], ...] = ()  # (index, event as this seat sees it) where that differs

    @functools.cached_property
    def seats(self) -> tuple[SeatView, ...]:
        """Every seated player's row, in seat order."""
        if not self._rows:  # never empty in a view of the seat's own: its row is there
            raise self._unread("seats")
        return tuple([SeatView(*row) for row in self._rows])

    @functools.cached_property
    def history(self) -> tuple[Event, ...]:
        """This hand's events so far as this seat sees them (``event.seen_by(seat)``)."""
        if not self._rows:
            raise self._unread("history")
        if not self._own:
            return self._events
        events = list(self._events)
        for i, event in self._own:
            events[i] = event
        return tuple(events)

    def _unread(self, what: str) -> BotError:
        return BotError(f"This view was made for a built-in bot that reads only the question asked, its cards, the "
                        f"board and the pot: it holds no {what}.", seat=self.seat, allowed="legal, draw, runs, show, "
                        "hole, up, board, pot, street, button, rng")

    @functools.cached_property
    def me(self) -> SeatView:
        """This seat's own row (made alone: the other seats' rows are made when read)."""
        return self.player(self.seat)

    @property
    def stack(self) -> int:
        return self.me.stack

    def player(self, seat: int) -> SeatView:
        """The row of ``seat`` (a :class:`~cardgame.play.view.SeatView` made from it, equal to its
        one in ``seats``)."""
        if not self._rows:
            raise self._unread("seats")
        for row in self._rows:
            if row[0] == seat:
                return SeatView(*row)
        raise KeyError(seat)

    @property
    def opponents(self) -> tuple[SeatView, ...]:
        """The other players still in the hand (not folded), in seat order."""
        return tuple(s for s in self.seats if s.in_hand and not s.folded and s.seat != self.seat)

    @property
    def to_call(self) -> int:
        """Chips a call puts in now (0: checking is free, or not a betting decision)."""
        return self.legal.call_amount if self.legal is not None else 0


@attrs.frozen
class HandStart:
    """Told to :meth:`BotBase.hand_started`: the hand number, the button, the seats dealt in and
    their stacks before any forced bet (same order)."""

    seat: int
    hand: int
    button: int | None
    seats: tuple[int, ...]
    stacks: tuple[int, ...]


@attrs.frozen
class HandEnd:
    """Told to :meth:`BotBase.hand_ended`: the hand's events as the seat sees them (cards shown
    at the showdown are public, mucked ones stay hidden), chips won per seat, final stacks."""

    seat: int
    hand: int
    history: tuple[Event, ...]
    won: tuple[tuple[int, int], ...]
    stacks: tuple[tuple[int, int], ...]

    def shown(self) -> dict[int, tuple[Card, ...]]:
        """The cards each seat showed at the showdown."""
        return {e.seat: e.cards for e in self.history if isinstance(e, CardsShown)}


class Bot(Protocol):
    """Anything that answers a :class:`BotView`: ``bot(view) -> answer`` (see the module)."""

    def __call__(self, view: BotView, /) -> Answer: ...


class BotBase:
    """A bot as a class: override :meth:`act`, and :meth:`discard`, :meth:`choose_runs` or the
    hooks as needed. Calling the bot answers whichever question the view asks."""

    def __call__(self, view: BotView, /) -> Answer:
        if view.draw is not None:
            return self.discard(view)
        if view.runs is not None:
            return self.choose_runs(view)
        if view.show is not None:
            return self.show_or_muck(view)
        return self.act(view)

    def act(self, view: BotView) -> Answer:
        """A betting decision (``view.legal``). The default checks or calls."""
        return "call"

    def discard(self, view: BotView) -> Answer:
        """The cards to discard in a draw (``view.draw``). The default stands pat."""
        return ()

    def choose_runs(self, view: BotView) -> Answer:
        """How many run-outs to ask for (``view.runs``). The default runs once."""
        return 1

    def show_or_muck(self, view: BotView) -> Answer:
        """Show or muck at the showdown (``view.show``). The default shows a hand that wins against
        those tabled so far and mucks the others (``view.show.default``)."""
        assert view.show is not None
        return view.show.default

    def hand_started(self, start: HandStart) -> None:
        """Called when a hand this bot is dealt into starts (before its first decision)."""

    def hand_ended(self, end: HandEnd) -> None:
        """Called when a hand this bot was dealt into ends."""


# --- the answer vocabulary ---------------------------------------------------------------------------
def _word(answer: object) -> tuple[str, object]:
    if isinstance(answer, str):
        exact = _WORDS.get(answer)  # most bots answer in the exact words: no need to normalise
        if exact is not None:
            return exact, None
        word, amount = answer, None
    elif isinstance(answer, tuple | list) and len(answer) == 2 and isinstance(answer[0], str):
        word, amount = answer[0], answer[1]
        exact = _WORDS.get(word) if type(word) is str else None
        if exact is not None:
            return exact, amount
    else:
        return "", None
    return _WORDS.get(word.strip().lower().replace(" ", "_"), ""), amount


def to_action(answer: object, legal: LegalActions) -> tuple[str, int | None]:
    """The precise ``(action, amount)`` for :meth:`Game.act <cardgame.play.game.Game.act>` that a bot's
    ``answer`` means under ``legal`` (see the module); raises :class:`BotError` if none."""
    if type(answer) is str:  # most answers: a plain word staying in or folding
        word = _WORDS.get(answer)
        if word == "call" or word == "check":
            return ("bring_in", None) if legal.bring_in else ("call", None) if legal.call_amount else ("check", None)
        if word == "fold" and not legal.bring_in:
            return "fold", None
    word, amount = _word(answer)
    if not word:
        raise BotError(f"Bot answered {excerpt(answer)}, which is no action; answer one of fold, check, call, bet, "
                       f"raise, all_in, bring_in, or (word, amount).", seat=legal.seat, allowed=legal.describe())
    if amount is not None and (not isinstance(amount, int) or isinstance(amount, bool)):
        raise BotError(f"Bot answered {excerpt(answer)}: an amount is a whole number of chips.", seat=legal.seat,
                       allowed=legal.describe())
    if word in ("fold", "check", "call", "bring_in") and amount is not None:
        raise BotError(f"Bot answered {excerpt(answer)}: {word} takes no amount.", seat=legal.seat,
                       allowed=legal.describe())
    if word == "all_in":
        if amount is not None:
            raise BotError(f"Bot answered {excerpt(answer)}: all_in takes no amount.", seat=legal.seat,
                           allowed=legal.describe())
        if legal.can_raise:
            word, amount = "raise", max(legal.amounts) if legal.amounts else legal.max_raise_to
        else:
            word = "call"
    if word == "raise":
        if not legal.can_raise:
            if amount is not None:
                raise BotError(f"Bot answered {excerpt(answer)}, but no bet or raise is allowed now.",
                               seat=legal.seat, allowed=legal.describe())
            word = "call"
        else:
            to = legal.min_raise_to if amount is None else amount
            if legal.amounts and to not in legal.amounts:
                raise BotError(f"Bot answered {excerpt(answer)}: the raise-to amount must be one of "
                               f"{', '.join(map(str, legal.amounts))}.", seat=legal.seat, allowed=legal.describe())
            if not legal.min_raise_to <= to <= legal.max_raise_to:
                raise BotError(f"Bot answered {excerpt(answer)}: the raise-to amount must be {legal.min_raise_to} to "
                               f"{legal.max_raise_to}.", seat=legal.seat, allowed=legal.describe())
            return ("bet" if legal.is_bet else "raise"), to
    if legal.bring_in and word in ("call", "check", "fold", "bring_in"):
        return "bring_in", None  # the bring-in is forced: staying in is posting it
    if word == "bring_in":
        raise BotError(f"Bot answered {excerpt(answer)}, but no bring-in is due.", seat=legal.seat,
                       allowed=legal.describe())
    if word in ("call", "check"):
        return ("call", None) if legal.call_amount else ("check", None)
    return "fold", None


def to_discards(answer: object, options: DrawOptions) -> tuple[Card, ...]:
    """The cards a bot's ``answer`` discards in a draw (``check``/``call``: none, or the lowest
    ``min_discards`` cards where a discard is compulsory, as in Pineapple); raises
    :class:`BotError` for anything but ``min_discards`` to ``max_discards`` distinct cards of the hand."""
    allowed = f"{options.min_discards} to {options.max_discards} of {format_cards(options.hole)}"
    if isinstance(answer, str) and _word(answer)[0] in _PASSIVE:  # stand pat, or throw the lowest cards required
        return tuple(sorted(options.hole, key=lambda c: c.rank)[: options.min_discards])
    if isinstance(answer, str) or not isinstance(answer, Sequence):
        raise BotError(f"Bot answered {excerpt(answer)} to a draw; answer the cards to discard.", seat=options.seat,
                       allowed=allowed)
    try:
        cards = tuple(Card(c) for c in answer)
    except CardError as exc:
        raise BotError(f"Bot answered {excerpt(answer)} to a draw: {exc}", seat=options.seat, allowed=allowed) from None
    if (len(set(cards)) != len(cards) or not set(cards) <= set(options.hole)
            or not options.min_discards <= len(cards) <= options.max_discards):
        raise BotError(f"Bot discarded {format_cards(cards) or 'nothing'}, which is not {allowed}.",
                       seat=options.seat, allowed=allowed)
    return cards


def to_runs(answer: object, options: RunOptions) -> int:
    """The run-outs a bot's ``answer`` asks for (``check``/``call``: one); raises :class:`BotError`."""
    if isinstance(answer, str) and _word(answer)[0] in _PASSIVE:
        return 1
    if not isinstance(answer, int) or isinstance(answer, bool) or not 1 <= answer <= options.max_runs:
        raise BotError(f"Bot answered {excerpt(answer)} to a run-out choice.", seat=options.seat,
                       allowed=f"1 to {options.max_runs} runs")
    return answer


def to_show(answer: object, options: ShowOptions) -> str:
    """``"show"`` or ``"muck"``, as a bot's ``answer`` says (``check``/``call``: ``options.default``;
    ``fold`` mucks); raises :class:`BotError`."""
    if not isinstance(options, ShowOptions):
        raise BotError(f"A show-or-muck question is a ShowOptions, not {excerpt(options)}.")
    if isinstance(answer, str):
        word = answer.strip().lower()
        if word in ("show", "muck"):
            return word
        if word == "fold":
            return "muck"
        if _word(answer)[0] in _PASSIVE:
            return options.default
    raise BotError(f"Bot answered {excerpt(answer)} to show or muck.", seat=options.seat, allowed="show or muck")


# --- the driver ------------------------------------------------------------------------------------
def _hand_start(log: Sequence[Event]) -> int:
    """Where the hand in progress starts in ``log`` (its ``HandStarted``; 0 if none)."""
    try:  # the last HandStarted, found by a scan from the end in C
        return len(log) - 1 - operator.indexOf(map(type, reversed(log)), HandStarted)
    except ValueError:
        return 0


def _hand_events(game: Game) -> list[Event]:
    """The events of the hand in progress (from its ``HandStarted``)."""
    log = game.events
    return log[_hand_start(log):]


_PUBLIC = Event.seen_by
#: Event classes found not to override ``seen_by``: every seat sees their events whole.
_PUBLIC_TYPES: set[type[Event]] = set()


class HandEvents:
    """The hand in progress's events, rendered once for every seat instead of once per seat and
    decision: each event as a spectator sees it (``seen_by(None)``), and an event that hides
    something also as the seat it names sees it (``seen_by(event.seat)``; every other seat sees
    the spectator's). :meth:`update` reads the events logged since the last call; the log is only
    trimmed when a hand opens, so within one hand its indices hold. Views copy what they need."""

    __slots__ = ("_hand", "_read", "events", "own")

    def __init__(self) -> None:
        self._hand = -1
        self._read = 0
        self.events: list[Event] = []
        self.own: dict[int, list[tuple[int, Event]]] = {}

    def update(self, game: Game) -> None:
        """Catch up with ``game``'s log (a new hand starts afresh)."""
        ctx = game.ctx
        log = ctx.log
        hand = ctx.hand
        number = hand.number if hand is not None else -1
        read, end = self._read, len(log)
        if number != self._hand or read > end:
            self._hand, self.events, self.own = number, [], {}
            read = self._read = _hand_start(log)
        if read == end:
            return
        new = log[read:]
        self._read = end
        events = self.events
        if _PUBLIC_TYPES.issuperset(map(type, new)):  # most calls: every seat sees these events as they are
            events.extend(new)
            return
        kinds: set[type[Event]] = set(map(type, new))
        for kind in kinds - _PUBLIC_TYPES:
            if kind.seen_by is _PUBLIC:  # a class that does not override seen_by hides nothing
                _PUBLIC_TYPES.add(kind)
        hiding = kinds - _PUBLIC_TYPES
        if not hiding:
            events.extend(new)
            return
        own = self.own
        for event in new:
            if type(event) not in hiding:
                events.append(event)
                continue
            seen = event.seen_by(None)
            seat = getattr(event, "seat", None)
            if isinstance(seat, int):  # the seat it names sees it whole, the others as a spectator
                mine = event.seen_by(seat)
                if mine is not seen:
                    own.setdefault(seat, []).append((len(events), mine))
            elif hand is not None:
                for s in hand.by_seat:
                    mine = event.seen_by(s)
                    if mine != seen:
                        own.setdefault(s, []).append((len(events), mine))
            events.append(seen)


def build_view(game: Game, seat: int, shape: GameShape, rng: random.Random, *, legal: LegalActions | None = None,
               draw: DrawOptions | None = None, runs: RunOptions | None = None,
               events: HandEvents | None = None, show: ShowOptions | None = None, for_bot: object = None) -> BotView:
    """The :class:`BotView` of ``seat`` in the hand in progress, asking one question (``events``:
    the hand's rendered events, when the caller keeps them across decisions; updated here).
    ``for_bot``: the bot to be asked; a built-in bot that reads only the question (``random``,
    ``calling-station``, ``all-in``, ``pair-raiser``) gets a view copying neither ``seats`` nor
    ``history``, as :func:`decide` gives it."""
    if id(for_bot) in _QUESTION_ONLY:
        events = None
    elif events is None:
        events = HandEvents()
    return _view(game, seat, shape, rng, events, legal, draw, runs, show)


def _view(game: Game, seat: int, shape: GameShape, rng: random.Random, events: HandEvents | None,
          legal: LegalActions | None = None, draw: DrawOptions | None = None, runs: RunOptions | None = None,
          show: ShowOptions | None = None) -> BotView:
    """:func:`build_view`; ``events=None``: a view without ``seats`` and ``history`` (for the bots that
    read neither: :func:`_question_only`), which copies neither."""
    ctx = game.ctx
    hand = ctx.hand
    assert hand is not None, "a view is of the hand in progress"
    hp = hand.by_seat[seat]
    if events is None:
        return BotView(seat, hand.number, shape, hand.street, tuple(hp.hole), tuple(hp.face_up), tuple(hand.board),
                       hand.pot_total(), hand.button, rng, legal, draw, runs, show)
    events.update(game)
    own = events.own.get(seat)
    return BotView(seat, hand.number, shape, hand.street, tuple(hp.hole), tuple(hp.face_up), tuple(hand.board),
                   hand.pot_total(), hand.button, rng, legal, draw, runs, show, seat_rows(ctx, seat),
                   tuple(events.events), tuple(own) if own else ())


#: The bots marked by :func:`_question_only`, by id. Each is held here: an id names one live object only, and a
#: bot freed (its module imported again) could leave its id to another, a user's bot then taken for it.
_QUESTION_ONLY: dict[int, object] = {}
#: A built-in bot's betting answer from the question and its stream alone, by the bot's id (:func:`_bets_by`;
#: each such bot is one of :data:`_QUESTION_ONLY`, held there).
_BETTING: dict[int, Callable[[LegalActions, random.Random], Answer]] = {}

B = TypeVar("B", bound=Callable[..., Any])


def _question_only(bot: B) -> B:
    """Mark a built-in bot that reads only the question, its seat's cards, the board, the pot and
    ``view.rng``, never ``seats`` nor ``history``: :func:`decide` hands it a view that copies
    neither (reading them raises :class:`BotError`)."""
    _QUESTION_ONLY[id(bot)] = bot
    return bot


def _bets_by(answer: Callable[[LegalActions, random.Random], Answer]) -> Callable[[B], B]:
    """Mark a built-in bot (a :func:`_question_only` one) whose betting answer is ``answer(view.legal,
    view.rng)``, the same draws from the same stream: a caller asking it many betting questions
    (:class:`cardgame.rl.vector.VectorEnv`) asks ``answer`` (:func:`_betting_answer`) and builds no view."""

    def mark(bot: B) -> B:
        _QUESTION_ONLY[id(bot)] = bot  # (held, as every question-only bot: its id names it alone)
        _BETTING[id(bot)] = answer
        return bot

    return mark


def _betting_answer(bot: object) -> Callable[[LegalActions, random.Random], Answer] | None:
    """The function answering ``bot``'s betting questions from the legal actions and the seat's
    stream alone, as the bot would from its view (the built-in ``random``, ``calling-station`` and
    ``all-in``); ``None`` for any other bot, which needs its view."""
    return _BETTING.get(id(bot))


def _play_answer(game: Game, seat: int, legal: LegalActions, answer: object, bot: object = None) -> None:
    """Play ``seat``'s betting ``answer`` to the question ``legal`` (what :func:`decide` does with a
    bot's answer): :class:`BotError` naming the seat (and ``bot``) if the rules refuse it, the game
    unchanged."""
    try:
        action, amount = to_action(answer, legal)
    except BotError as exc:
        raise _named(bot, seat, exc) from None
    _act(game, seat, legal, action, amount)


def _act(game: Game, seat: int, legal: LegalActions, action: str, amount: int | None) -> None:
    """Play a bot's betting answer ``(action, amount)`` (:func:`to_action`'s): :class:`BotError` if refused."""
    try:
        game.act(seat, action, amount)
    except IllegalActionError as exc:
        raise BotError(f"Seat {seat}: {exc}", seat=seat, allowed=exc.allowed or legal.describe()) from None


def _named(bot: object, seat: int, exc: BotError) -> BotError:
    """``exc``, a bot's refused answer, naming the seat and the bot."""
    name = getattr(bot, "__name__", type(bot).__name__)
    return BotError(f"Seat {seat} ({name}): {exc.reason}", seat=seat, allowed=exc.allowed)


def seat_rng(game: Game, seat: int) -> random.Random:
    """The random stream of the bot playing ``seat`` in ``game`` (``view.rng``): derived from the
    game's seed and the seat, never the deck's generator; the same stream on every call."""
    return game.ctx.rng.stream(seat_label(seat))


def seat_label(seat: int) -> str:
    """The label of the random stream of the bot playing ``seat`` (:func:`seat_rng`)."""
    return f"bot seat {seat}"


class _Hooks:
    """Collects the hand starts and ends of one game for :class:`BotBase` hooks, called later
    (between decisions), never from inside the engine."""

    def __init__(self, game: Game, bots: Callable[[int], Bot | None]) -> None:
        self.game = game
        self.bots = bots
        self.pending: list[tuple[int, BotBase, HandStart | HandEnd]] = []
        self.events: list[Event] = []
        if game.hand is not None:  # a hand already under way: catch up on it
            for event in _hand_events(game):
                self.listen(event)
        game.subscribe(self.listen)

    def listen(self, event: Event) -> None:
        if type(event) is HandStarted:
            self.events = [event]
            for seat in event.seats:
                bot = self.bots(seat)
                if isinstance(bot, BotBase):
                    self.pending.append((seat, bot, HandStart(seat, event.hand, event.button, event.seats,
                                                              event.stacks)))
            return
        self.events.append(event)
        if type(event) is HandEnded:
            start = self.events[0]
            won: dict[int, int] = {}
            for e in self.events:
                if type(e) is PotAwarded:
                    for s, a in zip(e.winners, e.amounts, strict=True):
                        won[s] = won.get(s, 0) + a
            seats = start.seats if isinstance(start, HandStarted) else ()
            for seat in seats:
                bot = self.bots(seat)
                if isinstance(bot, BotBase):
                    history = tuple(e.seen_by(seat) for e in self.events)
                    self.pending.append((seat, bot, HandEnd(seat, event.hand, history, tuple(sorted(won.items())),
                                                            event.stacks)))
            self.events = []

    def flush(self) -> None:
        pending, self.pending = self.pending, []
        for _seat, bot, note in pending:
            if isinstance(note, HandStart):
                bot.hand_started(note)
            else:
                bot.hand_ended(note)

    def close(self) -> None:
        self.flush()
        self.game.ctx.unsubscribe(self.listen)


def _pick(bots: Mapping[int, Bot] | Bot, seat: int) -> Bot:
    if isinstance(bots, Mapping):
        bot = bots.get(seat)
        if bot is None:
            raise BotError(f"No bot plays seat {seat}; bots were given for seats {sorted(bots)}.", seat=seat,
                           allowed=", ".join(map(str, sorted(bots))))
        return bot
    return bots


def _ask(bot: Bot, view: BotView, convert: Callable[[object, Any], T], question: Any) -> T:
    try:
        return convert(bot(view), question)
    except BotError as exc:
        raise _named(bot, view.seat, exc) from None


def _who(special: Bot | None, bot: Bot | None, seat: int, missing: Callable[[int], Bot] | None) -> Bot:
    """The bot answering a question: ``special`` (a drawer or chooser) if given, else ``bot``, else
    ``missing(seat)``."""
    found = special or bot
    if found is None:
        if missing is None:
            raise BotError(f"No bot plays seat {seat}.", seat=seat, allowed="a bot")
        return missing(seat)
    return found


def decide(game: Game, seat: int, bot: Bot | None, rng: random.Random, *, shape: GameShape, events: HandEvents,
           drawer: Bot | None = None, chooser: Bot | None = None,
           missing: Callable[[int], Bot] | None = None) -> None:
    """Ask the question ``seat`` faces now (a draw, a run-out choice or a betting decision) and play
    the answer: ``drawer`` and ``chooser`` answer draws and run-out choices when given, else
    ``bot``; with no bot for the question, ``missing(seat)`` supplies one (or raises). An answer the
    rules refuse raises :class:`BotError` and leaves the game unchanged."""
    legal = game.legal_actions()  # first: most questions are betting decisions (asked of no other stage)
    if legal is not None:
        answerer = bot if bot is not None else _who(None, bot, seat, missing)
        quick = _BETTING.get(id(answerer))
        if quick is not None:  # a built-in bot answering from the question and its stream: no view built
            _play_answer(game, seat, legal, quick(legal, rng), answerer)
            return
        view = _view(game, seat, shape, rng, None if id(answerer) in _QUESTION_ONLY else events, legal)
        _act(game, seat, legal, *_ask(answerer, view, to_action, legal))
    elif (options := game.draw_options()) is not None:
        answerer = _who(drawer, bot, seat, missing)
        view = _view(game, seat, shape, rng, None if id(answerer) in _QUESTION_ONLY else events, draw=options)
        game.draw(seat, _ask(answerer, view, to_discards, options))
    elif (runs := game.run_options()) is not None:
        answerer = _who(chooser, bot, seat, missing)
        view = _view(game, seat, shape, rng, None if id(answerer) in _QUESTION_ONLY else events, runs=runs)
        game.choose_runs(seat, _ask(answerer, view, to_runs, runs))
    else:
        show = game.show_options()
        assert show is not None, "decide asks the question the seat faces now"
        answerer = _who(None, bot, seat, missing)
        view = _view(game, seat, shape, rng, None if id(answerer) in _QUESTION_ONLY else events, show=show)
        if _ask(answerer, view, to_show, show) == "show":
            game.show(seat)
        else:
            game.muck(seat)


def play(game: Game, bots: Mapping[int, Bot] | Bot, *, drawer: Bot | None = None, chooser: Bot | None = None,
         max_actions: int = 10**9, shape: GameShape | None = None) -> int:
    """Let ``bots`` (one for every seat, or one per seat) answer every question until nobody is to
    act: the game exited, failed, or waits for players. Draws ask ``drawer`` and run-out choices
    ``chooser`` when given, else the seat's bot. Returns the number of answers."""
    given = list(bots.values()) if isinstance(bots, Mapping) else [bots]
    for i, bot in enumerate((*given, drawer, chooser)):
        if not callable(bot) and (bot is not None or i < len(given)):
            raise BotError(f"A bot is a callable bot(view) (or a mapping of seats to them), not {excerpt(bot)}.")
    max_actions = check_int(max_actions, "max_actions", BotError, minimum=0)
    if shape is None:
        shape = game_shape(game.dispatcher.stages, game.ctx.deck_spec)
    seats: dict[int, tuple[Bot | None, random.Random]] = {}  # seat -> its bot and its random stream
    events = HandEvents()  # shared by every seat's views
    uses_hooks = any(isinstance(b, BotBase) for b in (bots.values() if isinstance(bots, Mapping) else (bots,)))
    hooks = _Hooks(game, lambda s: bots.get(s) if isinstance(bots, Mapping) else bots) if uses_hooks else None
    taken = 0
    try:
        while taken < max_actions:
            seat = game.to_act
            if seat is None:
                break
            if hooks is not None:
                hooks.flush()
            mine = seats.get(seat)
            if mine is None:
                bot = bots.get(seat) if isinstance(bots, Mapping) else bots
                if bot is None and drawer is None and chooser is None:  # refused before the seat's stream is made
                    _pick(bots, seat)
                mine = seats[seat] = (bot, seat_rng(game, seat))
            decide(game, seat, mine[0], mine[1], shape=shape, events=events, drawer=drawer, chooser=chooser,
                   missing=lambda s: _pick(bots, s))
            taken += 1
    finally:
        if hooks is not None:
            hooks.close()
    return taken
