"""Recording a game as it runs: the listener that writes each event (and the hand rows) in its own
transaction, and the event the store writes itself (:class:`TableState`; recovery also writes the
model's :class:`~cardgame.model.events.HandVoided`)."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from typing import ClassVar

import attrs

from cardgame.model.events import Event, HandEnded, HandStarted, HandVoided
from cardgame.model.inputs import check_int, excerpt
from cardgame.play.game import Game
from cardgame.store.backend import Connection, Row, reason
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.export import PhhWriter
from cardgame.store.queries import TableInfo, highest, table_info
from cardgame.store.serialize import SnapshotError, encoded_json, register_type, to_compact_json, unstructure

__all__ = ["HandVoided", "Recorder", "Row", "TableState", "check_recordable", "start_recording", "write_rows"]


@attrs.frozen
class TableState(Event):
    """The table when recording started: (seat, name, stack, sitting out) for every seated player."""

    kind: ClassVar[str] = "table state"
    seats: tuple[tuple[int, str, int, bool], ...]
    button: int | None
    hands_played: int

    def describe(self, names: dict[int, str] | None = None) -> str:
        return "Recording starts: " + ", ".join(f"{n} (seat {s}) {c}" for s, n, c, _ in self.seats)


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
    hook a :class:`Recorder` to ``game`` (checked by :func:`check_recordable` first)."""
    recorder = Recorder(store, game, table_id, phh_writer, clock, batch=batch)
    try:
        write_rows(store, recorder.start_rows(new_table=info is None))
    except StoreError as exc:
        raise StoreError(f"Cannot start recording table {excerpt(table_id)}: {reason(exc)}.") from None
    game.hook(recorder)
    return recorder


#: The statement of an event's row in the log.
EVENT_ROW = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)"

#: What an event does to its hand's row, by the event's type (as :func:`_role` finds it).
_ROLES: dict[type, int] = {}
_OTHER, _STARTED, _ENDED, _VOIDED = range(4)


def _role(kind: type) -> int:
    """Whether an event of type ``kind`` starts (``_STARTED``), ends or voids a hand, or ``_OTHER``."""
    role = next((r for c, r in ((HandStarted, _STARTED), (HandEnded, _ENDED), (HandVoided, _VOIDED))
                 if issubclass(kind, c)), _OTHER)
    _ROLES[kind] = role
    return role


def _rows_json(rows: object) -> str:
    """``to_compact_json(unstructure(rows))``, made directly for a tuple of tuples of JSON values (a hand's
    players, its stacks)."""
    if type(rows) is tuple and all(type(r) is tuple and all(type(v) in _JSON_SCALARS for v in r) for r in rows):
        return to_compact_json([list(r) for r in rows])
    return to_compact_json(unstructure(rows))


_JSON_SCALARS = frozenset({int, str, bool, float, type(None)})


def write_rows(store: StoreFile, rows: Sequence[Row]) -> None:
    """Run ``rows`` in one transaction of ``store`` (:class:`StoreError` if it fails: nothing is written)."""
    store.write(rows)


class Recorder:
    """The listener :meth:`EventStore.record <cardgame.store.EventStore.record>` subscribes: writes
    each event in its own transaction, or with ``batch`` keeps them until :meth:`flush` writes them
    all in one (a server flushes before it shows anyone the events: one transaction per action
    and what follows it, instead of one per event).

    Each event becomes its rows (:data:`Row`) when it happens, on the thread that runs the game, so
    a server can hand them to another thread: :meth:`take` gives the rows kept so far (and
    :meth:`add_rows` puts statements of its own among them, written in the same transaction), and
    :func:`write_rows` writes them.

    If a :meth:`flush` fails, the recorder detaches itself and raises :class:`StoreError` from the
    game call that emitted the event. The game in memory has then moved past the log; discard it and
    :func:`recover` the table from the store (its log is complete up to the failed event).
    """

    def __init__(self, store: StoreFile, game: Game, table_id: str, phh_writer: PhhWriter | None,
                 clock: Callable[[], float], *, batch: bool = False, next_seq: int | None = None) -> None:
        if not isinstance(store, StoreFile):
            raise StoreError(f"A recorder writes to an EventStore, not {excerpt(store)}.")
        if not isinstance(game, Game):
            raise StoreError(f"A recorder records a Game, not {excerpt(game)}.")
        _check_table_id(table_id)
        if not callable(clock) or not (phh_writer is None or callable(phh_writer)):
            raise StoreError(f"A recorder's clock (and its PHH writer, if any) are functions, not "
                             f"{excerpt(clock if not callable(clock) else phh_writer)}.")
        if next_seq is not None:
            check_int(next_seq, "next_seq", StoreError, minimum=0)
        self.store = store
        self.batch = batch
        self._pending: list[Row] = []
        self.game = game
        self.table_id = table_id
        self.phh_writer = phh_writer
        self.clock = clock
        if next_seq is None:
            top = highest(store, "events", "seq", table_id)
            next_seq = 0 if top is None else top + 1
        self.next_seq: int = next_seq
        self._hand_events: list[Event] | None = None
        self._over: object | None = None  # the hand that ended or was voided while the context still holds it

    def __call__(self, event: Event) -> None:
        role = _ROLES.get(type(event))
        if role is None:
            role = _role(type(event))
        hand = self.game.ctx.hand
        # an event after the hand's end (a hook's, at HandEnded; a leave after a void) is between hands
        number = hand.number if hand is not None and hand is not self._over else None
        phh = None
        if role:
            if role == _STARTED:
                self._hand_events = [] if self.phh_writer is not None else None
                number = event.hand  # type: ignore[attr-defined]
            elif role == _VOIDED:
                self._over, self._hand_events = hand, None  # a void hand has no history to write
            elif role == _ENDED:
                number = event.hand  # type: ignore[attr-defined]
                self._over = hand
                if self._hand_events is not None:
                    self._hand_events.append(event)
                    phh = self._phh(self._hand_events)
                self._hand_events = None
        if self._hand_events is not None:
            self._hand_events.append(event)
        try:
            self._pending += self.rows(event, number, phh, when=self.clock())
        except SnapshotError as exc:
            self.detach()
            raise StoreError(f"Recording event {self.next_seq} ({event.kind}) of table {excerpt(self.table_id)} "
                             f"failed: {reason(exc)}. The recorder is detached; recover the table from the "
                             "store.") from exc
        if not self.batch:
            self.flush()

    @property
    def pending(self) -> bool:
        """Whether rows wait to be written."""
        return bool(self._pending)

    def add_rows(self, rows: Sequence[Row]) -> None:
        """Write ``rows`` (statements of the caller's) with the next events, in their transaction."""
        self._pending += rows
        if not self.batch:
            self.flush()

    def take(self) -> list[Row]:
        """The rows kept so far, in order; the recorder forgets them (write them with :func:`write_rows`)."""
        rows, self._pending = self._pending, []
        return rows

    def flush(self) -> None:
        """Write the events kept so far, in one transaction (:class:`StoreError` if it fails: the
        recorder is then detached)."""
        if not self._pending:
            return
        rows = self.take()
        try:
            write_rows(self.store, rows)
        except (StoreError, SnapshotError) as exc:
            events = [params for sql, params in rows if sql == EVENT_ROW]
            first = events[0][1] if events else self.next_seq
            kinds = [params[4] for params in events]
            self.next_seq = first
            self.detach()
            shown = ", ".join(dict.fromkeys(kinds))
            which = f"event {first}" if len(kinds) == 1 else f"events {first} to {first + len(kinds) - 1}"
            raise StoreError(f"Recording {which} ({shown}) of table {excerpt(self.table_id)} failed: {reason(exc)}. "
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
        for sql, params in self.rows(event, hand, phh, when=when):
            db.execute(sql, params)

    def rows(self, event: Event, hand: int | None, phh: str | None = None, *, when: float | None = None) -> list[Row]:
        """The statements that write ``event`` as the next row of the log (and open or close the hand's
        row: before the event's, so that the event rows of a batch come together, written by one
        ``executemany``); the next event takes the next sequence number."""
        now = self.clock() if when is None else when
        seat = getattr(event, "seat", None)
        row: Row = (EVENT_ROW, (self.table_id, self.next_seq, hand, now, event.kind,
                                seat if type(seat) is int else None, encoded_json(event)))
        role = _ROLES.get(type(event))
        if role is None:
            role = _role(type(event))
        self.next_seq += 1
        if not role:
            return [row]
        if role == _STARTED:
            started: HandStarted = event  # type: ignore[assignment]
            seats = self.game.ctx.table.seats
            names = [p.name if (p := seats[s]) is not None else "" for s in started.seats]
            stacks = list(started.stacks) or [0] * len(started.seats)
            players = tuple(zip(started.seats, names, stacks, strict=True))
            return [("INSERT INTO hands VALUES (?, ?, ?, NULL, 'playing', ?, NULL, NULL)",
                     (self.table_id, started.hand, now, _rows_json(players))),
                    *[("INSERT INTO hand_players VALUES (?, ?, ?, ?)", (self.table_id, started.hand, s, n))
                      for s, n in zip(started.seats, names, strict=True)], row]
        over: HandEnded | HandVoided = event  # type: ignore[assignment]
        if role == _ENDED:
            return [("UPDATE hands SET ended = ?, status = 'complete', final_stacks = ?, phh = ? "
                     "WHERE table_id = ? AND hand = ?",
                     (now, _rows_json(over.stacks), phh, self.table_id, over.hand)), row]
        return [("UPDATE hands SET ended = ?, status = 'voided', final_stacks = ? WHERE table_id = ? AND hand = ?",
                 (now, _rows_json(over.stacks), self.table_id, over.hand)), row]

    def start_rows(self, *, new_table: bool) -> list[Row]:
        """The rows that open the log: the table's row (a ``new_table``) and a :class:`TableState` of the
        seats as they are."""
        t = self.game.ctx.table
        state = TableState(tuple((p.seat, p.name, p.stack, p.sitting_out) for p in t.players()), t.button,
                           self.game.ctx.hands_played)
        rows: list[Row] = []
        if new_table:
            rows.append(("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                         (self.table_id, self.clock(), t.seat_count, t.min_buy_in, t.max_buy_in, t.first_button)))
        return rows + self.rows(state, None)

    def detach(self) -> None:
        """Stop recording (the game keeps running)."""
        self.game.ctx.unhook(self)
