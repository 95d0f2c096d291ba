"""The game context handed to every stage: table, random source, the hand in progress, the log."""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Sequence

from cardgame.engine import Emitter
from cardgame.engine.copies import shallow_copy_but
from cardgame.model.cards import Card, format_cards, parse_cards
from cardgame.model.deck import STANDARD_DECK, Deck, DeckSpec
from cardgame.model.errors import CardError, TableError
from cardgame.model.events import Event, HandEnded, HandStarted, HandVoided, PlayerLeft, PlayerSatOut
from cardgame.model.hand import Hand, HandPlayer
from cardgame.model.inputs import excerpt
from cardgame.model.rng import RandomSource
from cardgame.model.table import Table

__all__ = ["Context"]

Listener = Callable[[Event], None]

_logger = logging.getLogger("cardgame")
_KEPT_ERRORS = 20  # the latest listener errors a context keeps (listener_errors)
#: The slots Context.copy gives values of its own (not copied first, then written again).
_OWN = frozenset({"table", "rng", "_hand_starts", "_queue", "_held", "_delivering",
                  "listener_errors", "_log", "_listeners", "_hooks", "quiet", "emit"})


class Context(Emitter):
    """Shared state of one game. Stages read and change it; every change is logged as an event.

    ``deck_spec`` is the deck each hand is shuffled from; ``max_hands`` (optional) makes the
    wait-for-players stage end the game with *exit* once that many hands were played.
    ``log`` keeps the events of at least the last ``keep_hands`` hands and at most twice as many
    (it is trimmed in batches; ``None``: every event), so a long simulation runs in flat memory;
    listeners see every event either way. The default is the shortest (1: the hand in progress, and
    the one before until the next trim): events freed long after they were made are out of the
    processor's cache (freeing them measured 13 % of a six-handed hand at 100,
    ``benchmarks/engine.py``), and a server or a simulation holding many games pays for every kept
    event in each full garbage collection (1,000 tables ran at 0.50x of one table keeping 10 hands,
    0.88x keeping 1: ``benchmarks/many_tables.py``). Keep more, or record with :mod:`cardgame.store`.

    ``emit(event)`` records an event at once, calls every hook (:meth:`hook`) at once, and queues it
    for the listeners (:meth:`subscribe`). Listeners get their events when the change that made them
    is complete: when the outermost call into the game returns (between :meth:`hold` and
    :meth:`release`, which the dispatcher's ``start`` and ``send`` call; an event emitted outside
    any call is delivered at once), in order, from one queue, so a listener that calls into the game
    sees every event in the order it happened. A listener's exception is logged (the ``cardgame``
    logger) and kept in :attr:`listener_errors`; the other listeners still get the event and the game
    plays on. While nobody listens or hooks, ``emit`` is the log's own ``append``: an event costs
    one C call on the hot path; and ``quiet`` is true, so the dispatcher does not call :meth:`hold`
    and :meth:`release` (only a hook or a listener, neither of which there is, could subscribe one
    inside a call).
    """

    __slots__ = (
        "_delivering",
        "_hand_starts",
        "_held",
        "_hooks",
        "_listeners",
        "_log",
        "_pin",
        "_queue",
        "_trimmed",
                "deck_spec",
        "emit",
        "hand",
        "hands_played",
        "keep_hands",
        "listener_errors",
        "max_hands",
        "next_deck",
        "quiet",
        "rng",
        "stop_requested",
        "table",
        "voidable",
    )

    emit: Callable[[Event], None]
    quiet: bool  # nobody listens or hooks (set with emit)

    def __init__(
        self,
        table: Table | None = None,
        *,
        seed: int | None = None,
        rng: RandomSource | None = None,
        deck_spec: DeckSpec = STANDARD_DECK,
        max_hands: int | None = None,
        keep_hands: int | None = 1,
    ) -> None:
        self.table = table if table is not None else Table()
        self.rng = rng if rng is not None else RandomSource(seed)
        self.deck_spec = deck_spec
        self.hand: Hand | None = None
        self.next_deck: Deck | None = None
        self.hands_played = 0
        self.max_hands = max_hands
        self.stop_requested = False
        self.keep_hands = keep_hands
        self._hand_starts: list[int] = []
        self._listeners: list[Listener] = []
        self._hooks: list[Listener] = []
        self._queue: list[Event] = []  # events the listeners have not had yet
        self._held = 0  # calls into the game under way (hold without release)
        self._delivering = False
        self.listener_errors: deque[tuple[Event, Exception]] = deque(maxlen=_KEPT_ERRORS)
        self.log = []  # also binds ``emit``
        self._trimmed = 0  # events trimmed off the front of the log so far
        self._pin: int | None = None  # a mark: trimming keeps every event emitted since
        #: the hand in progress's button before it and its start, which :meth:`void_hand` goes back to
        self.voidable: tuple[int | None, HandStarted] | None = None

    def mark(self) -> int:
        """How many events were emitted so far (trimmed ones included). Trimming keeps every event
        from here on until :meth:`first_since` takes the mark (or the next mark replaces it)."""
        mark = self._pin = self._trimmed + len(self._log)
        return mark

    def first_since(self, mark: int) -> Event:
        """The first event emitted since :meth:`mark` returned ``mark``; releases the mark."""
        self._pin = None
        return self._log[mark - self._trimmed]

    @property
    def hand_starts(self) -> list[int]:
        """Where each kept hand starts in ``log`` (indices; empty when ``keep_hands`` is ``None``)."""
        return self._hand_starts

    @hand_starts.setter
    def hand_starts(self, starts: list[int]) -> None:
        self._hand_starts = starts

    @property
    def log(self) -> list[Event]:
        """The recorded events, oldest first (see the class docstring for how many are kept)."""
        return self._log

    @log.setter
    def log(self, log: list[Event]) -> None:
        self._log = log
        self._bind_emit()

    @property
    def listeners(self) -> tuple[Listener, ...]:
        """The callables that see every event, in the order they subscribed."""
        return tuple(self._listeners)

    @property
    def hooks(self) -> tuple[Listener, ...]:
        """The callables called inside each change, in the order they were added (:meth:`hook`)."""
        return tuple(self._hooks)

    def subscribe(self, listener: Listener) -> None:
        """Call ``listener(event)`` for every event from now on, once the change that made it is
        complete (see the class docstring)."""
        self._listeners.append(listener)
        self._bind_emit()

    def unsubscribe(self, listener: Listener) -> None:
        """Stop calling ``listener`` (nothing happens if it was not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)
            self._bind_emit()

    def hook(self, hook: Listener) -> None:
        """Call ``hook(event)`` as each event is emitted, inside the change that makes it, before the
        game goes on: for the game's own collaborators that must act before the next step (a recorder
        that must not let a hand be dealt it cannot record, a server stacking the next hand's deck, a
        hand-history replay marking mucks). A hook sees the state half-way through a change, and its
        exception fails the current stage. Anything that only watches subscribes instead."""
        self._hooks.append(hook)
        self._bind_emit()

    def unhook(self, hook: Listener) -> None:
        """Stop calling ``hook`` (nothing happens if it was not added)."""
        if hook in self._hooks:
            self._hooks.remove(hook)
            self._bind_emit()

    def hold(self) -> None:
        """A call into the game begins: events wait for the listeners until :meth:`release`."""
        self._held += 1

    def release(self) -> None:
        """A call into the game ends: when the outermost has, the listeners get the waiting events."""
        self._held -= 1
        if not self._held and self._queue:
            self._deliver()

    def _deliver(self) -> None:
        """Hand the queued events to the listeners, oldest first; one loop at a time (a listener that
        calls into the game queues its events behind the ones still to deliver)."""
        if self._delivering:
            return
        self._delivering = True
        queue = self._queue
        done = 0
        try:
            while done < len(queue):
                event = queue[done]
                done += 1
                for listener in tuple(self._listeners):
                    try:
                        listener(event)
                    except Exception as exc:  # reported, never the game's failure
                        self._report(listener, event, exc)
        finally:
            del queue[:done]
            self._delivering = False

    def _report(self, listener: Listener, event: Event, exc: Exception) -> None:
        self.listener_errors.append((event, exc))
        name = getattr(listener, "__qualname__", type(listener).__qualname__)
        _logger.error("The listener %s raised %s at %s; the game plays on.", name[:100], type(exc).__name__,
                      type(event).__name__, exc_info=exc)

    def copy(self, *, listeners: bool = False, rng: RandomSource | None = None) -> Context:
        """A context in the same state that goes on independently (``Game.copy``): the table, its
        players, the hand, the decks and the random source copied; the log's list copied (its events,
        immutable, shared); the deck spec shared. ``listeners``: the copy calls the same listeners
        and hooks (default: none). ``rng``: the copy's random source instead of a copy of this one's
        (a game dealt anew from a template: its decks, if any, draw from it)."""
        new = shallow_copy_but(self, _OWN)
        table = new.table = self.table.copy()
        rng = new.rng = self.rng.copy() if rng is None else rng
        hand = self.hand
        if hand is not None or self.next_deck is not None:  # (a template between hands has no deck to copy)

            def deck_rng(deck: Deck) -> RandomSource | None:
                own = deck.rng
                return rng if own is self.rng else None if own is None else own.copy()

            if hand is not None:
                players = {old: twin for old, twin in zip(self.table.players(), table.players(), strict=True)}
                new.hand = hand.copy(players, hand.deck.copy(deck_rng(hand.deck)))
            if self.next_deck is not None:
                new.next_deck = self.next_deck.copy(deck_rng(self.next_deck))
        new._hand_starts = self._hand_starts[:]
        new._queue = []
        new._held = 0
        new._delivering = False
        new.listener_errors = deque(maxlen=_KEPT_ERRORS)
        new._log = self._log[:]
        new._listeners = self._listeners[:] if listeners else []
        new._hooks = self._hooks[:] if listeners else []
        new._bind_emit()
        return new

    def _bind_emit(self) -> None:
        self.quiet = not (self._listeners or self._hooks)
        self.emit = self._log.append if self.quiet else self._emit_to_listeners

    def _emit_to_listeners(self, event: Event) -> None:
        self._log.append(event)
        if self._listeners:
            self._queue.append(event)
        for hook in self._hooks:
            hook(event)
        if not self._held and self._queue:
            self._deliver()

    # --- the hand lifecycle -----------------------------------------------------------------------
    def open_hand(self, seats: list[int], deck: Deck | None = None) -> Hand:
        """Start a hand for ``seats``: move the button, order players left of it, shuffle a deck."""
        table = self.table
        before = table.button
        button = table.move_button(seats)
        i = seats.index(button)
        ordered = seats[i + 1 :] + seats[: i + 1]
        sitting = table.seats
        players: list[HandPlayer] = []
        stacks: list[int] = []
        for s in ordered:  # one pass: each player's part in the hand, and their stack before it
            p = sitting[s]
            assert p is not None, "a seat in play holds a player"
            players.append(HandPlayer(p))
            stacks.append(p.stack)
        if deck is None and self.next_deck is not None:
            deck, self.next_deck = self.next_deck, None
        if deck is None:
            deck = Deck.shuffled(self.deck_spec, self.rng)
        hand = Hand(self.hands_played + 1, button, players, deck)
        self.hand = hand
        if self.keep_hands is not None:
            starts = self._hand_starts
            starts.append(len(self._log))
            if len(starts) >= 2 * self.keep_hands:  # trim in batches: amortised, not every hand
                cut = starts[-self.keep_hands]
                if self._pin is not None:  # an event a caller is about to read stays
                    cut = min(cut, self._pin - self._trimmed)
                if cut > 0:
                    del self._log[:cut]
                    self._trimmed += cut
                    self._hand_starts = [i - cut for i in starts if i >= cut]
        started = HandStarted(hand.number, button, tuple(ordered), tuple(stacks))
        self.voidable = (before, started)
        self.emit(started)
        return hand

    def stack_deck(self, top_first: Sequence[object] | str) -> None:
        """Deal the next hand from a deck whose top cards are ``top_first`` (scripted hands): card
        indices, card strings, or one string (``"AhKd 7c"``). Raises :class:`CardError` for a card
        given twice or not in the game's deck."""
        cards = self.deck_spec.cards
        self.next_deck = self._stacked(top_first, cards, self.deck_spec, f"in this game's deck ({len(cards)} cards)")

    def stack_hand_deck(self, top_first: Sequence[object] | str) -> None:
        """Deal the rest of the hand in progress from its undealt cards, ``top_first`` first (in
        dealing order, burn cards included), then the others in random order: search deals the cards
        it chooses to a copy of the game. Raises :class:`CardError` for a card given twice or
        already dealt, and :class:`~cardgame.model.errors.TableError` with no hand in progress."""
        hand = self.hand
        if hand is None:
            raise TableError("No hand is in progress; stack_deck stacks the next hand's deck.")
        deck = hand.deck
        undealt = deck.remaining
        deck = self._stacked(top_first, undealt, deck.spec, f"among the {len(undealt)} undealt cards "
                             f"({format_cards(sorted(undealt))})")
        deck.dealt = hand.deck.dealt
        hand.deck = deck

    def _stacked(self, top_first: Sequence[object] | str, pool: Sequence[Card], spec: DeckSpec, where: str) -> Deck:
        """A stacked deck of ``pool``'s cards, ``top_first`` on top and the rest shuffled."""
        if isinstance(top_first, str):
            top_first = parse_cards(top_first)
        elif not isinstance(top_first, Sequence):  # a number, None, an iterator: refused before any work
            raise CardError(f"The cards to stack are a card string ('AhKd 7c') or a list of cards, "
                            f"not {excerpt(top_first)}.")
        known = [Card(c) for c in top_first]  # card strings ("Ah") or indices; CardError otherwise
        if len(set(known)) != len(known):
            twice = sorted({c for c in known if known.count(c) > 1})
            raise CardError(f"A stacked deck deals each card once; {format_cards(twice)} appear more than once.")
        missing = [c for c in known if c not in pool]
        if missing:
            raise CardError(f"{format_cards(missing)} are not {where}.")
        rest = [c for c in pool if c not in set(known)]
        self.rng.shuffle(rest)
        return Deck.stacked(known + rest, spec)

    def close_hand(self) -> None:
        """End the hand: free the seats of leavers, sit out the broke, log the final stacks."""
        hand = self.hand
        if hand is None:
            return
        table = self.table
        self.hands_played += 1
        self._let_go(hand)
        self.emit(HandEnded(hand.number, tuple([(p.seat, p.stack) for p in table.seats if p is not None])))
        self.hand = None

    def void_hand(self) -> HandVoided | None:
        """Void the hand in progress, one that cannot be finished (its game failed): each of its players
        gets back the stack they started it with (every bet returned, as after a misdeal: Robert's Rules
        of Poker, Section 3; the rule a crashed server's hand follows, docs/rules.md), the button goes
        back to where it was, and the hand's number is not used again; then leavers go and the broke
        sit out as at a hand's end.
        Returns the :class:`HandVoided` emitted (``None``: no hand was in progress)."""
        hand = self.hand
        if hand is None:
            return None
        table = self.table
        kept = self.voidable
        if kept is not None and kept[1].hand == hand.number:
            table.button = kept[0]
            start = dict(zip(kept[1].seats, kept[1].stacks, strict=True))
        else:  # a game restored mid-hand: the log's start of the hand, else what each put in
            found = [e for e in self._log if type(e) is HandStarted and e.hand == hand.number and e.stacks]
            start = (dict(zip(found[-1].seats, found[-1].stacks, strict=True)) if found
                     else {hp.seat: hp.player.stack + hp.contributed for hp in hand.players})
        for hp in hand.players:
            hp.player.stack = start[hp.seat]
        voided = HandVoided(hand.number, tuple((hp.seat, hp.player.stack) for hp in hand.players))
        self.emit(voided)
        self.hands_played += 1
        self._let_go(hand)
        self.hand = None
        self.voidable = None
        return voided

    def _let_go(self, hand: Hand) -> None:
        """At a hand's end: free the seats of its leavers, sit out its broke players."""
        table = self.table
        for hp in hand.players:
            p = hp.player
            if p.leaving and table.seats[p.seat] is p:
                table.remove(p.seat)
                self.emit(PlayerLeft(p.seat, p.name, p.stack))
            elif p.stack == 0 and not p.sitting_out:
                p.sitting_out = True
                self.emit(PlayerSatOut(p.seat))

    def game_over(self) -> bool:
        """Whether the game was asked to stop or has played ``max_hands`` hands."""
        return self.stop_requested or (self.max_hands is not None and self.hands_played >= self.max_hands)

    def total_chips(self) -> int:
        """Chips on the table: every stack plus every chip committed to the hand in progress."""
        committed = self.hand.pot_total() if self.hand is not None else 0
        return self.table.total_chips() + committed
