"""Recovery after a crash: what a table's log leaves at the table, and a new game that continues it.

An interrupted hand is voided, every chip returned (see :func:`recover`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence

import attrs

from cardgame.engine import Stage
from cardgame.model.context import Context
from cardgame.model.errors import CardgameError
from cardgame.model.events import (
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    PlayerLeft,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
    RakeTaken,
)
from cardgame.model.inputs import check_int, excerpt
from cardgame.model.rng import check_seed
from cardgame.model.table import Player, Table
from cardgame.play.game import Game
from cardgame.store.backend import reason
from cardgame.store.database import EventStore
from cardgame.store.errors import StoreError
from cardgame.store.queries import hand_players
from cardgame.store.recorder import HandVoided, Recorder, TableState
from cardgame.store.serialize import SnapshotError, decode_event, encode_event

__all__ = ["SeatState", "TableLog", "recover", "replay_log"]


@attrs.frozen
class SeatState:
    """A seat as the log leaves it."""

    seat: int
    name: str
    stack: int
    sitting_out: bool = False


@attrs.frozen
class TableLog:
    """What a table's log says: seats and stacks, the button of the last finished hand, the last
    hand number used, and the hand that was started but neither ended nor voided (if any)."""

    seats: tuple[SeatState, ...]
    button: int | None
    last_hand: int
    interrupted: HandStarted | None


class _Replay:
    """A table's log replayed event by event, each checked against what came before it
    (:class:`StoreError` names the event's place, ``where``, and what is wrong).

    The rules: a seat is taken only when free and left by the player seated there; a top-up adds
    its amount to a player out of the hand in progress; a player leaving between hands takes their
    stack; hands are numbered on from the last (a :class:`TableState` may skip ahead, never back),
    one at a time; a hand starts each seat with the stack the log left it and ends (or is voided)
    once, with every chip it started with and every seated player listed. ``outcomes`` keeps each
    hand's start, names and end for :func:`recover` to hold the ``hands`` rows against.
    """

    def __init__(self) -> None:
        self.seats: dict[int, SeatState] = {}
        self.button: int | None = None
        self.last_hand = 0
        self.pending: HandStarted | None = None
        self.start_stacks: dict[int, int] = {}
        self.left_in_hand: dict[int, PlayerLeft] = {}
        self.raked = 0  # chips the house took from the hand in progress (RakeTaken)
        #: hand -> (its HandStarted, the names it dealt in, its HandEnded or HandVoided or None)
        self.outcomes: dict[int, tuple[HandStarted, tuple[str, ...], HandEnded | HandVoided | None]] = {}

    def expected_hand(self, e: Event) -> int | None:
        """The ``hand`` column the recorder writes for ``e`` at this point of the log."""
        if isinstance(e, (HandStarted, HandEnded, HandVoided)):
            return e.hand
        if isinstance(e, TableState) or self.pending is None:
            return None
        return self.pending.hand

    def apply(self, e: Event, where: str) -> None:
        """Apply the next event of the log, found at ``where``."""

        def wrong(detail: str) -> StoreError:
            return StoreError(f"The log is inconsistent at {where}: {detail}.")

        def seat_of(seat: int, what: str) -> SeatState:
            if seat not in self.seats:
                raise wrong(f"{what} names seat {seat}, where nobody is seated")
            return self.seats[seat]

        def chips(*amounts: int) -> None:
            if any(a < 0 for a in amounts):
                raise wrong(f"a {type(e).__name__} gives a negative stack ({min(amounts)})")

        seats, pending = self.seats, self.pending
        if isinstance(e, PlayerSeated):
            chips(e.stack)
            if e.seat in seats:
                raise wrong(f"{excerpt(e.name)} sits down in seat {e.seat}, which {excerpt(seats[e.seat].name)} holds")
            seats[e.seat] = SeatState(e.seat, e.name, e.stack)
        elif isinstance(e, ChipsAdded):
            chips(e.stack)
            before = seat_of(e.seat, "a top-up")
            if pending is not None and e.seat in self.start_stacks and e.seat not in self.left_in_hand:
                raise wrong(f"seat {e.seat} tops up during hand #{pending.hand}, which it is in")
            if e.amount <= 0 or e.stack != before.stack + e.amount:
                raise wrong(f"seat {e.seat} had {before.stack} chips and a top-up of {e.amount} leaves it {e.stack}")
            seats[e.seat] = attrs.evolve(before, stack=e.stack)
        elif isinstance(e, PlayerSatOut):
            seats[e.seat] = attrs.evolve(seat_of(e.seat, "a sit-out"), sitting_out=True)
        elif isinstance(e, PlayerSatIn):
            seats[e.seat] = attrs.evolve(seat_of(e.seat, "a sit-in"), sitting_out=False)
        elif isinstance(e, PlayerLeft):
            chips(e.cashed_out)
            player = seat_of(e.seat, "a leave")
            if e.name != player.name:
                raise wrong(f"{excerpt(e.name)} leaves seat {e.seat}, where {excerpt(player.name)} sits")
            if pending is not None and e.seat in self.start_stacks:
                self.left_in_hand[e.seat] = e  # their chips are counted at the hand's end
            elif e.cashed_out != player.stack:
                raise wrong(f"seat {e.seat} leaves with {e.cashed_out} chips but has {player.stack}")
            del seats[e.seat]
        elif isinstance(e, RakeTaken):
            if pending is None or e.amount < 0:
                raise wrong(f"a rake of {excerpt(e.amount)} chips is taken outside a hand")
            self.raked += e.amount
        elif isinstance(e, HandStarted):
            self._start(e, wrong, seat_of, chips)
        elif isinstance(e, (HandEnded, HandVoided)):
            self._end(e, wrong, seat_of, chips)
        elif isinstance(e, TableState):
            chips(*(c for _, _, c, _ in e.seats))
            if e.hands_played < self.last_hand:
                raise wrong(f"recording starts after hand #{e.hands_played}, but the log has hands up to "
                            f"#{self.last_hand}")
            if len({s for s, *_ in e.seats}) != len(e.seats):
                raise wrong(f"the table state lists a seat twice: {excerpt(e.seats)}")
            self.seats = {s: SeatState(s, n, c, out) for s, n, c, out in e.seats}
            self.button = e.button
            self.last_hand = e.hands_played
            self.pending = None  # a table recovered without voiding: its state is the one given

    def _start(self, e: HandStarted, wrong: Callable[[str], StoreError], seat_of: Callable[[int, str], SeatState],
               chips: Callable[..., None]) -> None:
        chips(*e.stacks)
        if self.pending is not None:
            raise wrong(f"hand #{e.hand} starts while hand #{self.pending.hand} has neither ended nor been voided")
        if e.hand != self.last_hand + 1:
            raise wrong(f"hand #{e.hand} starts after hand #{self.last_hand}; hands are numbered on one by one")
        if not e.seats or len(set(e.seats)) != len(e.seats) or (e.stacks and len(e.stacks) != len(e.seats)):
            raise wrong(f"hand #{e.hand} starts with seats {excerpt(e.seats)} and stacks {excerpt(e.stacks)}: each "
                        "seat once, one stack per seat")
        stacks = e.stacks or tuple(seat_of(s, "a hand start").stack for s in e.seats)
        for seat, stack in zip(e.seats, stacks, strict=True):
            if seat_of(seat, f"hand #{e.hand}'s start").stack != stack:
                raise wrong(f"hand #{e.hand} starts seat {seat} with {stack} chips but the log left it "
                            f"{self.seats[seat].stack}")
        self.pending, self.last_hand = e, e.hand
        self.start_stacks = dict(zip(e.seats, stacks, strict=True))
        self.left_in_hand = {}
        self.raked = 0
        self.outcomes[e.hand] = (e, tuple(self.seats[s].name for s in e.seats), None)

    def _end(self, e: HandEnded | HandVoided, wrong: Callable[[str], StoreError],
             seat_of: Callable[[int, str], SeatState], chips: Callable[..., None]) -> None:
        chips(*(c for _, c in e.stacks))
        ends = "ends" if isinstance(e, HandEnded) else "is voided"
        pending = self.pending
        if pending is None or pending.hand != e.hand:
            now = "no hand is in progress" if pending is None else f"hand #{pending.hand} is in progress"
            raise wrong(f"hand #{e.hand} {ends} but {now}")
        listed = [s for s, _ in e.stacks]
        if len(set(listed)) != len(listed):
            raise wrong(f"hand #{e.hand} {ends} listing a seat twice: {excerpt(e.stacks)}")
        if isinstance(e, HandVoided):
            self.void()
            returned = tuple((s, self.seats[s].stack) for s in pending.seats)
            if e.stacks != returned:
                raise wrong(f"hand #{e.hand} is voided returning {excerpt(e.stacks)}, but its players started "
                            f"with {excerpt(returned)}")
        else:
            if set(listed) != set(self.seats):
                raise wrong(f"hand #{e.hand} ends listing seats {excerpt(sorted(listed))}, but seats "
                            f"{excerpt(sorted(self.seats))} are taken")
            after = sum(c for s, c in e.stacks if s in self.start_stacks)
            after += sum(left.cashed_out for left in self.left_in_hand.values())
            if after + self.raked != sum(self.start_stacks.values()):
                raked = f" and {self.raked} raked" if self.raked else ""
                raise wrong(f"hand #{e.hand}'s players started with {sum(self.start_stacks.values())} chips and "
                            f"end with {after}{raked}")
            for seat, stack in e.stacks:
                if seat not in self.start_stacks and self.seats[seat].stack != stack:
                    raise wrong(f"hand #{e.hand} ends with {stack} chips in seat {seat}, which was not in the hand "
                                f"and had {self.seats[seat].stack}")
            for seat, stack in e.stacks:
                self.seats[seat] = attrs.evolve(self.seats[seat], stack=stack)
            self.button = pending.button
        started, names, _ = self.outcomes[e.hand]
        self.outcomes[e.hand] = (started, names, e)
        self.pending = None

    def void(self) -> None:
        """Give the players of the hand in progress their starting stacks back (a leave during it is undone)."""
        for seat, stack in self.start_stacks.items():
            if seat in self.left_in_hand:
                if seat in self.seats:
                    raise StoreError(f"Cannot void hand #{self.pending.hand if self.pending else '?'}: seat {seat} "
                                     "was left and taken again during it.")
                self.seats[seat] = SeatState(seat, self.left_in_hand[seat].name, stack)
            elif seat in self.seats:
                self.seats[seat] = attrs.evolve(self.seats[seat], stack=stack)

    def finish(self) -> TableLog:
        """What the log leaves at the table, the hand in progress voided."""
        interrupted = self.pending
        if interrupted is not None:
            self.void()
        return TableLog(tuple(self.seats[s] for s in sorted(self.seats)), self.button, self.last_hand, interrupted)


def replay_log(events: Iterable[Event]) -> TableLog:
    """Seats, names and stacks as a table's log leaves them, applying the voiding rule of :func:`recover`.

    Seating events (seated, chips added, sat out/in, left) apply as they come; ``HandEnded`` sets
    the stacks; ``TableState`` resets the table. The log must hold together, or :class:`StoreError`
    names the event (counting from 0) and what is wrong: no negative stack, no seat taken twice, a
    top-up adds its amount, a leave between hands takes the stack, hands are numbered one by one,
    a hand starts each seat with the stack the log left it and ends once, with the chips it
    started with. A hand started and not ended is voided: its players get their starting stacks
    back (from ``HandStarted.stacks``), and a leave logged by that hand's end is cancelled with it
    (the player is back in the seat).
    """
    if isinstance(events, (str, bytes)) or not isinstance(events, Iterable):
        raise StoreError(f"replay_log takes an iterable of events, not {excerpt(events)}.")
    replay = _Replay()
    for i, e in enumerate(events):
        where = f"event {i}"
        if not isinstance(e, Event):
            raise StoreError(f"The log is inconsistent at {where}: {excerpt(e)} is not an event.")
        try:  # its fields of their types, whole numbers of at most 18 digits
            e = decode_event(encode_event(e), where)
        except SnapshotError as exc:
            raise StoreError(f"The log is inconsistent at {where}: {exc}") from None
        replay.apply(e, where)
    return replay.finish()


def _check_hands(store: EventStore, table_id: str, replay: _Replay, where: dict[int, str]) -> None:
    """The ``hands`` and ``hand_players`` rows of ``table_id`` say what the log says: a row for each hand
    started, with its players and starting stacks, its status and final stacks; no other row."""
    rows = {h.hand: h for h in store.hands(table_id)}
    for number, h in rows.items():
        row = f"hands row (table {excerpt(table_id)}, hand {number})"
        if number not in replay.outcomes:
            raise StoreError(f"The {row} names a hand the log never starts.")
        started, names, end = replay.outcomes[number]
        stacks = started.stacks or (0,) * len(started.seats)
        status, final = (("complete", end.stacks) if isinstance(end, HandEnded) else
                         ("voided", end.stacks) if isinstance(end, HandVoided) else ("playing", None))
        for what, theirs, ours in (("players", tuple(zip(h.seats, h.players, h.start_stacks, strict=True)),
                                    tuple(zip(started.seats, names, stacks, strict=True))),
                                   ("status", h.status, status), ("final_stacks", h.final_stacks, final),
                                   ("ended", h.ended is None, status == "playing")):
            if theirs != ours:
                shown = ("null" if theirs else "a time") if what == "ended" else excerpt(theirs)
                raise StoreError(f"The {row} disagrees with the log ({where[number]}): its {what} is {shown}.")
    for number in replay.outcomes:
        if number not in rows:
            raise StoreError(f"The log starts hand #{number} at {where[number]}, but the hands table has no row "
                             "for it.")
    listed: dict[tuple[int, int], str] = {}
    for n, s, name in hand_players(store, table_id):
        listed[n, s] = name  # (table_id, hand, seat) is the key: one row each
    wanted = {(n, s): name for n, h in rows.items() for s, name in zip(h.seats, h.players, strict=True)}
    for n, s in sorted(set(listed) | set(wanted)):
        if listed.get((n, s)) != wanted.get((n, s)):
            row = f"row (table {excerpt(table_id)}, hand {n}, seat {s})"
            if (n, s) not in listed:
                raise StoreError(f"The hand_players table has no {row} for {excerpt(wanted[n, s])}, whom the hands "
                                 f"row of hand {n} deals in.")
            ours = f"deals {excerpt(wanted[n, s])} in" if (n, s) in wanted else "deals nobody in"
            raise StoreError(f"The hand_players {row} names {excerpt(listed[n, s])}, but the hands row of hand {n} "
                             f"{ours} there.")


def recover(store: EventStore, table_id: str, stages: Sequence[Stage[Context]], seed: int | None = None, *,
            max_hands: int | None = None, keep_hands: int | None = 1, mark_void: bool = True) -> Game:
    """Rebuild ``table_id`` from its log as a new, unstarted game on ``stages`` (a fresh variant list).

    Seats, names, stacks and sitting-out flags are those the log gives after the last finished
    hand (:func:`replay_log`). A hand that was interrupted (``HandStarted`` without
    ``HandEnded``, e.g. the process was killed) is **void**: every chip committed to it goes back,
    so each of its players has the stack they had when it started, whether they had folded or
    not. This is the standard practice of online cardrooms when a server fails mid-hand ("the
    hand is cancelled and all bets are returned"; e.g. Run It Once Poker and PokerMagnet publish
    that a crashed hand is treated as a misdeal with every player refunded what they put in).
    As in a misdeal redeal (TDA), the button does not advance: it returns to the last finished
    hand's button, so the next hand is dealt with the voided hand's button. The voided hand's
    number is not reused.

    Before anything is written the log is checked row by row (:func:`replay_log`'s rules, the
    ``events`` rows numbered 0, 1, 2... with their ``hand`` and ``seat`` columns right, and the
    ``hands`` and ``hand_players`` rows saying what the log says): a log that does not hold together
    raises :class:`StoreError` naming the row, so recovery never creates or destroys a chip.

    With ``mark_void`` the store records the decision: a :class:`HandVoided` event and the hand's
    status ``voided``. The random state is not in the log: the new game deals from ``seed``.
    Record the returned game with :meth:`EventStore.record` to continue the same log.
    """
    if not isinstance(store, EventStore):
        raise StoreError(f"recover takes an EventStore, not {excerpt(store)}.")
    if seed is not None:
        check_seed(seed, StoreError)  # a seed the library drew (128 bits) as well as a small chosen one
    for what, value in (("max_hands", max_hands), ("keep_hands", keep_hands)):
        if value is not None:
            check_int(value, what, StoreError, minimum=0)
    info = store.table(table_id)
    replay = _Replay()
    started: dict[int, str] = {}
    for i, r in enumerate(store.events(table_id)):
        row = f"events row (table {excerpt(table_id)}, seq {r.seq})"
        if r.seq != i:
            raise StoreError(f"The log of table {excerpt(table_id)} has no seq {i}: its rows are numbered 0, 1, 2... "
                             f"and the {row} comes next.")
        seat = getattr(r.event, "seat", None)
        if r.seat != (seat if type(seat) is int else None):
            raise StoreError(f"The {row} is corrupt: its seat is {excerpt(r.seat)} but its event's is {excerpt(seat)}.")
        expected = replay.expected_hand(r.event)
        if r.hand != expected:
            there = (f"its event is hand #{expected}'s" if isinstance(r.event, (HandStarted, HandEnded, HandVoided))
                     else f"the log has {'no hand' if expected is None else f'hand #{expected}'} in progress there")
            raise StoreError(f"The {row} is corrupt: its hand is {excerpt(r.hand)} but {there}.")
        replay.apply(r.event, f"the {row}")
        if isinstance(r.event, HandStarted):
            started[r.event.hand] = f"the {row}"
    _check_hands(store, table_id, replay, started)
    log = replay.finish()
    try:
        table = Table(info.seat_count, info.min_buy_in, info.max_buy_in, info.first_button)
    except CardgameError as exc:
        raise StoreError(f"The tables row (table {excerpt(table_id)}) is corrupt: {exc}") from None
    names: set[str] = set()
    for s in log.seats:
        if not 0 <= s.seat < table.seat_count:
            raise StoreError(f"The tables row (table {excerpt(table_id)}) gives {table.seat_count} seats, but its log "
                             f"seats {excerpt(s.name)} in seat {s.seat}.")
        if not s.name.strip() or s.name in names:
            raise StoreError(f"The log of table {excerpt(table_id)} seats {excerpt(s.name)} in seat {s.seat}: a name "
                             "must be non-empty and seated once.")
        names.add(s.name)
        table.seats[s.seat] = Player(s.name, s.seat, s.stack, s.sitting_out)
    if log.button is not None and not 0 <= log.button < table.seat_count:
        raise StoreError(f"The tables row (table {excerpt(table_id)}) gives {table.seat_count} seats, but its log "
                         f"puts the button in seat {log.button}.")
    table.button = log.button
    game = Game(stages, table=table, seed=seed, max_hands=max_hands, keep_hands=keep_hands)
    game.ctx.hands_played = log.last_hand
    if log.interrupted is not None and mark_void:
        hand = log.interrupted
        returned = tuple((s, st.stack) for s in hand.seats for st in log.seats if st.seat == s)
        recorder = Recorder(store, game, table_id, None, time.time)
        try:
            with store.transaction() as db:
                recorder.write(db, HandVoided(hand.hand, returned), hand.hand)
        except StoreError as exc:
            raise StoreError(f"Cannot mark hand #{hand.hand} of table {excerpt(table_id)} void: "
                             f"{reason(exc)}.") from None
    return game
