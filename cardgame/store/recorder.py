"""Recording a game as it runs: the listener that writes each event (and the hand rows) in its own
transaction, and the two events the store writes itself (:class:`TableState`, :class:`HandVoided`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import ClassVar

import attrs

from cardgame.model.events import Event, HandEnded, HandStarted
from cardgame.model.inputs import excerpt
from cardgame.play.game import Game
from cardgame.store.backend import Connection, reason
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.export import PhhWriter
from cardgame.store.queries import TableInfo, highest, table_info
from cardgame.store.serialize import SnapshotError, encode_event, register_type, to_compact_json, unstructure

__all__ = ["HandVoided", "Recorder", "TableState", "check_recordable", "start_recording"]


@attrs.frozen
class HandVoided(Event):
    """Recovery cancelled an interrupted hand: ``stacks`` are the (seat, stack) each got back."""

    kind: ClassVar[str] = "hand voided"
    hand: int
    stacks: tuple[tuple[int, int], ...]

    def describe(self, names: dict[int, str] | None = None) -> str:
        return f"Hand #{self.hand} is void: every bet is returned"


@attrs.frozen
class TableState(Event):
    """The table when recording started: (seat, name, stack, sitting out) for every seated player."""

    kind: ClassVar[str] = "table state"
    seats: tuple[tuple[int, str, int, bool], ...]
    button: int | None
    hands_played: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return "Recording starts: " + ", ".join(f"{n} (seat {s}) {c}" for s, n, c, _ in self.seats)


register_type(HandVoided)
register_type(TableState)


def _check_table_id(table_id: object) -> None:
    if not isinstance(table_id, str) or not table_id or len(table_id) > 1_000 or "\x00" in table_id:
        raise StoreError(f"A table id must be non-empty text of at most 1,000 characters without NUL (which "
                         f"PostgreSQL cannot store), not {excerpt(table_id)}.")


def check_recordable(store: StoreFile, game: Game, table_id: str) -> TableInfo | None:
    """Refuse (:class:`StoreError`) to record ``game`` as ``table_id`` mid-hand, or as a recorded
    table of another configuration or with hand numbers it would reuse; the table's recorded
    configuration, if any."""
    _check_table_id(table_id)
    ctx = game.ctx
    if ctx.hand is not None:
        raise StoreError(f"Hand #{ctx.hand.number} is in progress; start recording between hands.")
    t = ctx.table
    info = table_info(store, table_id)
    if info is not None:
        mine = (t.seat_count, t.min_buy_in, t.max_buy_in)
        theirs = (info.seat_count, info.min_buy_in, info.max_buy_in)
        if mine != theirs:
            raise StoreError(f"Table {excerpt(table_id)} is recorded with seats and buy-in limits {theirs}; this game "
                             f"has {mine}.")
        top = highest(store, "hands", "hand", table_id)
        if top is not None and top > ctx.hands_played:
            raise StoreError(f"Table {excerpt(table_id)} already has hands up to #{top} but this game's next hand is "
                             f"#{ctx.hands_played + 1}; recover() the table to continue it, or use a new id.")
    return info


def start_recording(store: StoreFile, game: Game, table_id: str, info: TableInfo | None,
                    phh_writer: PhhWriter | None, clock: Callable[[], float], *, batch: bool = False) -> Recorder:
    """Write the table row (unless ``info`` says it exists) and a :class:`TableState`, then
    subscribe a :class:`Recorder` to ``game`` (checked by :func:`check_recordable` first)."""
    t = game.ctx.table
    recorder = Recorder(store, game, table_id, phh_writer, clock, batch=batch)
    state = TableState(tuple((p.seat, p.name, p.stack, p.sitting_out) for p in t.players()), t.button,
                       game.ctx.hands_played)
    try:
        with store.transaction() as db:
            if info is None:
                db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                           (table_id, clock(), t.seat_count, t.min_buy_in, t.max_buy_in, t.first_button))
            recorder.write(db, state, None)
    except StoreError as exc:
        raise StoreError(f"Cannot start recording table {excerpt(table_id)}: {reason(exc)}.") from None
    game.subscribe(recorder)
    return recorder


class Recorder:
    """The listener :meth:`EventStore.record <cardgame.store.EventStore.record>` subscribes: writes
    each event in its own transaction, or with ``batch`` keeps them until :meth:`flush` writes them
    all in one (a server flushes before it shows anyone the events: one transaction per action
    and what follows it, instead of one per event).

    If a write fails, the recorder detaches itself and raises :class:`StoreError` from the game
    call that emitted the event. The game in memory has then moved past the log; discard it and
    :func:`recover` the table from the store (its log is complete up to the failed event).
    """

    def __init__(self, store: StoreFile, game: Game, table_id: str, phh_writer: PhhWriter | None,
                 clock: Callable[[], float], *, batch: bool = False) -> None:
        if not isinstance(store, StoreFile):
            raise StoreError(f"A recorder writes to an EventStore, not {excerpt(store)}.")
        if not isinstance(game, Game):
            raise StoreError(f"A recorder records a Game, not {excerpt(game)}.")
        _check_table_id(table_id)
        if not callable(clock) or not (phh_writer is None or callable(phh_writer)):
            raise StoreError(f"A recorder's clock (and its PHH writer, if any) are functions, not "
                             f"{excerpt(clock if not callable(clock) else phh_writer)}.")
        self.store = store
        self.batch = batch
        self._pending: list[tuple[Event, int | None, str | None, float]] = []
        self.game = game
        self.table_id = table_id
        self.phh_writer = phh_writer
        self.clock = clock
        top = highest(store, "events", "seq", table_id)
        self.next_seq: int = 0 if top is None else top + 1
        self._hand_events: list[Event] | None = None

    def __call__(self, event: Event) -> None:
        hand = self.game.ctx.hand
        number = hand.number if hand is not None else None
        if isinstance(event, HandStarted):
            self._hand_events = []
            number = event.hand
        if self._hand_events is not None:
            self._hand_events.append(event)
        phh = None
        if isinstance(event, HandEnded):
            number = event.hand
            if self._hand_events is not None and self.phh_writer is not None:
                phh = self._phh(self._hand_events)
            self._hand_events = None
        self._pending.append((event, number, phh, self.clock()))
        if not self.batch:
            self.flush()

    def flush(self) -> None:
        """Write the events kept so far, in one transaction (:class:`StoreError` if it fails: the
        recorder is then detached)."""
        if not self._pending:
            return
        pending, self._pending = self._pending, []
        first = self.next_seq
        try:
            with self.store.transaction() as db:
                for event, number, phh, when in pending:
                    self.write(db, event, number, phh, when=when)
        except (StoreError, SnapshotError) as exc:
            self.next_seq = first
            self.detach()
            kinds = ", ".join(dict.fromkeys(e.kind for e, *_ in pending))
            which = f"event {first}" if len(pending) == 1 else f"events {first} to {first + len(pending) - 1}"
            raise StoreError(f"Recording {which} ({kinds}) of table {excerpt(self.table_id)} failed: {reason(exc)}. "
                             "The recorder is detached; recover the table from the store.") from exc

    def _phh(self, events: list[Event]) -> str | None:
        assert self.phh_writer is not None
        try:
            return self.phh_writer(list(events))
        except Exception as exc:
            warnings.warn(f"The PHH writer failed on a hand of table {excerpt(self.table_id)} ({type(exc).__name__}: "
                          f"{exc}); its phh column stays null.", stacklevel=3)
            return None

    def write(self, db: Connection, event: Event, hand: int | None, phh: str | None = None, *,
              when: float | None = None) -> None:
        """Write ``event`` as the next row of the log (inside the caller's transaction on ``db``),
        and open or close the hand's row when it starts, ends or is voided; ``when`` it happened
        (default: now)."""
        now = self.clock() if when is None else when
        seat = getattr(event, "seat", None)
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (self.table_id, self.next_seq, hand, now, event.kind, seat if type(seat) is int else None,
                    to_compact_json(encode_event(event))))
        if isinstance(event, HandStarted):
            seats = self.game.ctx.table.seats
            names = [p.name if (p := seats[s]) is not None else "" for s in event.seats]
            stacks = list(event.stacks) or [0] * len(event.seats)
            players = tuple(zip(event.seats, names, stacks, strict=True))
            db.execute("INSERT INTO hands VALUES (?, ?, ?, NULL, 'playing', ?, NULL, NULL)",
                       (self.table_id, event.hand, now, to_compact_json(unstructure(players))))
            db.executemany("INSERT INTO hand_players VALUES (?, ?, ?, ?)",
                           [(self.table_id, event.hand, s, n) for s, n in zip(event.seats, names, strict=True)])
        elif isinstance(event, HandEnded):
            db.execute("UPDATE hands SET ended = ?, status = 'complete', final_stacks = ?, phh = ? "
                       "WHERE table_id = ? AND hand = ?",
                       (now, to_compact_json(unstructure(event.stacks)), phh, self.table_id, event.hand))
        elif isinstance(event, HandVoided):
            db.execute("UPDATE hands SET ended = ?, status = 'voided', final_stacks = ? "
                       "WHERE table_id = ? AND hand = ?",
                       (now, to_compact_json(unstructure(event.stacks)), self.table_id, event.hand))
        self.next_seq += 1

    def detach(self) -> None:
        """Stop recording (the game keeps running)."""
        self.game.ctx.unsubscribe(self)
