"""Recovery after a crash: what a table's log leaves at the table, and a new game that continues it.

An interrupted hand is voided, every chip returned (see :func:`recover`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence

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
)
from cardgame.model.inputs import excerpt
from cardgame.model.table import Player, Table
from cardgame.play.game import Game
from cardgame.store.backend import reason
from cardgame.store.database import EventStore
from cardgame.store.errors import StoreError
from cardgame.store.recorder import HandVoided, Recorder, TableState

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


def replay_log(events: Iterable[Event]) -> TableLog:
    """Seats, names and stacks as a table's log leaves them, applying the voiding rule of :func:`recover`.

    Seating events (seated, chips added, sat out/in, left) apply as they come; ``HandEnded`` sets
    the stacks; ``TableState`` resets the table. The log must hold together: no negative stack, a
    hand starts each seat with the stack the log left it, and ends with the chips it started with
    (:class:`StoreError` otherwise). A hand started and not ended is voided: its
    players get their starting stacks back (from ``HandStarted.stacks``), and a leave logged by
    that hand's end is cancelled with it (the player is back in the seat).
    """
    seats: dict[int, SeatState] = {}
    button: int | None = None
    last_hand = 0
    pending: HandStarted | None = None
    start_stacks: dict[int, int] = {}
    left_in_hand: dict[int, PlayerLeft] = {}

    def seat_of(seat: int, what: str) -> SeatState:
        if seat not in seats:
            raise StoreError(f"The log is inconsistent: {what} names seat {seat}, where nobody is seated.")
        return seats[seat]

    def void() -> None:
        for seat, stack in start_stacks.items():
            if seat in left_in_hand:
                if seat in seats:
                    raise StoreError(f"Cannot void hand #{pending.hand if pending else '?'}: seat {seat} was "
                                     "left and taken again during it.")
                seats[seat] = SeatState(seat, left_in_hand[seat].name, stack)
            elif seat in seats:
                seats[seat] = attrs.evolve(seats[seat], stack=stack)

    def chips(*amounts: int) -> None:
        if any(a < 0 for a in amounts):
            raise StoreError(f"The log is inconsistent: a {type(e).__name__} gives a negative stack ({min(amounts)}).")

    for e in events:
        if isinstance(e, (PlayerSeated, ChipsAdded)):
            chips(e.stack)
        elif isinstance(e, (HandEnded, HandVoided)):
            chips(*(c for _, c in e.stacks))
        elif isinstance(e, HandStarted):
            chips(*e.stacks)
            if len(set(e.seats)) != len(e.seats) or (e.stacks and len(e.stacks) != len(e.seats)):
                raise StoreError(f"The log is inconsistent: hand #{e.hand} starts with seats {excerpt(e.seats)} and "
                                 f"stacks {excerpt(e.stacks)}: each seat once, one stack per seat.")
        elif isinstance(e, TableState):
            chips(*(c for _, _, c, _ in e.seats))
        if isinstance(e, PlayerSeated):
            seats[e.seat] = SeatState(e.seat, e.name, e.stack)
        elif isinstance(e, ChipsAdded):
            seats[e.seat] = attrs.evolve(seat_of(e.seat, "a top-up"), stack=e.stack)
        elif isinstance(e, PlayerSatOut):
            seats[e.seat] = attrs.evolve(seat_of(e.seat, "a sit-out"), sitting_out=True)
        elif isinstance(e, PlayerSatIn):
            seats[e.seat] = attrs.evolve(seat_of(e.seat, "a sit-in"), sitting_out=False)
        elif isinstance(e, PlayerLeft):
            seat_of(e.seat, "a leave")
            del seats[e.seat]
            if pending is not None and e.seat in start_stacks:
                left_in_hand[e.seat] = e
        elif isinstance(e, HandStarted):
            if pending is not None:
                void()
            pending = e
            last_hand = max(last_hand, e.hand)
            stacks = e.stacks or tuple(seat_of(s, "a hand start").stack for s in e.seats)
            start_stacks = dict(zip(e.seats, stacks, strict=True))
            left_in_hand = {}
            for seat, stack in start_stacks.items():
                if seat_of(seat, f"hand #{e.hand}'s start").stack != stack:
                    raise StoreError(f"The log is inconsistent: hand #{e.hand} starts seat {seat} with {stack} chips "
                                     f"but the log left it {seats[seat].stack}.")
        elif isinstance(e, HandEnded):
            if pending is not None and pending.hand == e.hand:  # chips are conserved within a hand
                after = sum(c for s, c in e.stacks if s in start_stacks)
                after += sum(left.cashed_out for left in left_in_hand.values())
                if after != sum(start_stacks.values()):
                    raise StoreError(f"The log is inconsistent: hand #{e.hand}'s players started with "
                                     f"{sum(start_stacks.values())} chips and end with {after}.")
            for seat, stack in e.stacks:
                if seat not in start_stacks and seat_of(seat, f"the end of hand #{e.hand}").stack != stack:
                    raise StoreError(f"The log is inconsistent: hand #{e.hand} ends with {stack} chips in seat {seat}, "
                                     f"which was not in the hand and had {seats[seat].stack}.")
            for seat, stack in e.stacks:
                seats[seat] = attrs.evolve(seat_of(seat, f"the end of hand #{e.hand}"), stack=stack)
            if pending is not None and pending.hand == e.hand:
                button = pending.button
            pending = None
        elif isinstance(e, HandVoided):
            if pending is not None:
                void()
            else:
                for seat, stack in e.stacks:
                    if seat in seats:
                        seats[seat] = attrs.evolve(seats[seat], stack=stack)
            pending = None
        elif isinstance(e, TableState):
            seats = {s: SeatState(s, n, c, out) for s, n, c, out in e.seats}
            button = e.button
            last_hand = max(last_hand, e.hands_played)
            pending = None
    interrupted = pending
    if pending is not None:
        void()
    return TableLog(tuple(seats[s] for s in sorted(seats)), button, last_hand, interrupted)


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

    With ``mark_void`` the store records the decision: a :class:`HandVoided` event and the hand's
    status ``voided``. The random state is not in the log: the new game deals from ``seed``.
    Record the returned game with :meth:`EventStore.record` to continue the same log.
    """
    info = store.table(table_id)
    log = replay_log(e.event for e in store.events(table_id))
    try:
        table = Table(info.seat_count, info.min_buy_in, info.max_buy_in, info.first_button)
    except CardgameError as exc:
        raise StoreError(f"The tables row of {table_id!r} is corrupt: {exc}") from None
    names: set[str] = set()
    for s in log.seats:
        if not 0 <= s.seat < table.seat_count:
            raise StoreError(f"The log of table {table_id!r} seats {excerpt(s.name)} in seat {s.seat}, which the "
                             f"{table.seat_count}-seat table does not have.")
        if not s.name.strip() or s.name in names:
            raise StoreError(f"The log of table {table_id!r} seats {excerpt(s.name)} in seat {s.seat}: a name must "
                             "be non-empty and seated once.")
        names.add(s.name)
        table.seats[s.seat] = Player(s.name, s.seat, s.stack, s.sitting_out)
    if log.button is not None and not 0 <= log.button < table.seat_count:
        raise StoreError(f"The log of table {table_id!r} puts the button in seat {log.button}, which the "
                         f"{table.seat_count}-seat table does not have.")
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
            raise StoreError(f"Cannot mark hand #{hand.hand} of table {table_id!r} void: {reason(exc)}.") from None
    return game
