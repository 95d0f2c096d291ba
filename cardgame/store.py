"""Crash-safe table logs in SQLite, queries over them, and recovery of a table after a crash.

``EventStore(path)`` holds any number of tables. ``store.record(game, "table-1")`` subscribes to
the game and writes every event as it happens, one transaction per event; ``recover(store,
"table-1", no_limit_holdem(1, 2))`` rebuilds the table from the log after a crash, voiding the
hand that was interrupted. Event payloads are the JSON of :mod:`cardgame.serialize` (cards as
text, a ``"type"`` tag); times are wall-clock seconds since the epoch (``time.time()``).

Schema (``PRAGMA user_version`` = :data:`SCHEMA_VERSION`):

* ``tables(table_id, created, seat_count, min_buy_in, max_buy_in, first_button)``
* ``events(table_id, seq, hand, time, kind, seat, payload)``: ``seq`` counts from 0 per table;
  ``hand`` is the hand in progress (null between hands), ``seat`` the event's seat if it has one,
  ``kind`` the event's ``kind`` (``"action"``, ``"hand started"``...), ``payload`` its JSON.
* ``hands(table_id, hand, started, ended, status, players, final_stacks, phh)``: ``status`` is
  playing, complete or voided; ``players`` JSON ``[[seat, name, starting stack], ...]``;
  ``final_stacks`` JSON ``[[seat, stack], ...]`` from ``HandEnded``; ``phh`` the finished hand as
  PHH text, or null (see :meth:`EventStore.record`).
* ``hand_players(table_id, hand, seat, name)``: an index for "the hands of this player".
"""

from __future__ import annotations

import contextlib
import importlib
import inspect
import json
import os
import sqlite3
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import datetime
from typing import IO, Any, ClassVar, Literal

import attrs

from cardgame.errors import CardgameError
from cardgame.events import (
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    PlayerLeft,
    PlayerSatIn,
    PlayerSatOut,
    PlayerSeated,
)
from cardgame.game import Game
from cardgame.serialize import SnapshotError, decode_event, encode_event, register_type
from cardgame.stage import Stage
from cardgame.table import Player, Table

__all__ = [
    "SCHEMA_VERSION",
    "EventStore",
    "HandRecord",
    "HandVoided",
    "PhhWriter",
    "Recorder",
    "SeatState",
    "StoreError",
    "StoredEvent",
    "TableInfo",
    "TableLog",
    "TableState",
    "default_phh_writer",
    "recover",
    "replay_log",
]

#: The schema version this module writes and reads (``PRAGMA user_version``).
SCHEMA_VERSION = 1

#: Turns the events of one finished hand (``HandStarted`` .. ``HandEnded``) into PHH text
#: (``None``: leave the column null).
PhhWriter = Callable[[list[Event]], str | None]


class StoreError(CardgameError):
    """A store that cannot be opened, read or written, or a log that contradicts itself."""


# --- events the store writes itself ----------------------------------------------------------------


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


# --- records returned by queries ---------------------------------------------------------------------


@attrs.frozen
class TableInfo:
    """A recorded table's configuration."""

    table_id: str
    created: float
    seat_count: int
    min_buy_in: int
    max_buy_in: int
    first_button: int | None


@attrs.frozen
class StoredEvent:
    """One row of the ``events`` table with its decoded event."""

    table_id: str
    seq: int
    hand: int | None
    time: float
    kind: str
    seat: int | None
    event: Event


@attrs.frozen
class HandRecord:
    """One row of the ``hands`` table. ``seats``, ``players`` and ``start_stacks`` run in deal order."""

    table_id: str
    hand: int
    started: float
    ended: float | None
    status: str  # playing, complete or voided
    seats: tuple[int, ...]
    players: tuple[str, ...]
    start_stacks: tuple[int, ...]
    final_stacks: tuple[tuple[int, int], ...] | None
    phh: str | None


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


_SCHEMA = """
CREATE TABLE tables (
    table_id     TEXT PRIMARY KEY,
    created      REAL NOT NULL,
    seat_count   INTEGER NOT NULL,
    min_buy_in   INTEGER NOT NULL,
    max_buy_in   INTEGER NOT NULL,
    first_button INTEGER
);
CREATE TABLE events (
    table_id TEXT NOT NULL REFERENCES tables(table_id),
    seq      INTEGER NOT NULL,
    hand     INTEGER,
    time     REAL NOT NULL,
    kind     TEXT NOT NULL,
    seat     INTEGER,
    payload  TEXT NOT NULL,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
CREATE INDEX events_by_hand ON events(table_id, hand);
CREATE TABLE hands (
    table_id     TEXT NOT NULL REFERENCES tables(table_id),
    hand         INTEGER NOT NULL,
    started      REAL NOT NULL,
    ended        REAL,
    status       TEXT NOT NULL CHECK (status IN ('playing', 'complete', 'voided')),
    players      TEXT NOT NULL,
    final_stacks TEXT,
    phh          TEXT,
    PRIMARY KEY (table_id, hand)
);
CREATE INDEX hands_by_start ON hands(started);
CREATE TABLE hand_players (
    table_id TEXT NOT NULL,
    hand     INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    name     TEXT NOT NULL,
    PRIMARY KEY (table_id, hand, seat),
    FOREIGN KEY (table_id, hand) REFERENCES hands(table_id, hand)
);
CREATE INDEX hand_players_by_name ON hand_players(name);
"""

def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class EventStore:
    """An SQLite file of table logs.

    Durability: the database runs in WAL mode, and every event is written in its own
    transaction (``BEGIN IMMEDIATE`` .. ``COMMIT``). In WAL mode a commit appends the changed
    pages and then a commit frame to the ``-wal`` file; a process killed at any instant leaves
    either the whole transaction or none of it, because SQLite ignores WAL frames after the last
    complete commit when it next opens the file. So a crash never leaves half an event, and
    readers (queries, exports, another process) never block the writer.

    ``synchronous="FULL"`` (the default) also fsyncs the WAL at each commit, so an event the
    players have seen survives a power cut or an OS crash, not only a killed process; a
    cardroom's ledger of chips needs that. ``"NORMAL"`` skips that fsync (in WAL mode it stays
    safe against a killed process and never corrupts the file, but may lose the last events on
    power loss) and is several times faster: use it for simulations.
    """

    def __init__(self, path: str | os.PathLike[str], *, synchronous: Literal["FULL", "NORMAL"] = "FULL",
                 timeout: float = 10.0) -> None:
        if synchronous not in ("FULL", "NORMAL"):
            raise StoreError(f"synchronous must be 'FULL' or 'NORMAL', not {synchronous!r}.")
        self.path = os.fspath(path)
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the event store {self.path!r}: {exc}.") from None
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(f"PRAGMA synchronous={synchronous}")
            self._db.execute("PRAGMA foreign_keys=ON")
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0:
                with self._transaction():
                    version = self._db.execute("PRAGMA user_version").fetchone()[0]  # another process?
                    if version == 0:
                        if self._db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                            raise StoreError(f"{self.path!r} is an SQLite database but not an event store "
                                             "(it has tables and no store schema version).")
                        for statement in _SCHEMA.split(";"):
                            if statement.strip():
                                self._db.execute(statement)
                        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                        version = SCHEMA_VERSION
            if version != SCHEMA_VERSION:
                raise StoreError(f"{self.path!r} has event store schema version {version}; this library reads "
                                 f"version {SCHEMA_VERSION}.")
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"{self.path!r} is not a readable event store: {exc}.") from None
        except StoreError:
            self._db.close()
            raise

    # --- plumbing ---------------------------------------------------------------------------------
    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")

    def _query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"Reading the event store {self.path!r} failed: {exc}.") from None

    def close(self) -> None:
        """Close the database (recorders writing to it must be detached first)."""
        self._db.close()

    def __enter__(self) -> EventStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- recording ------------------------------------------------------------------------------
    def record(self, game: Game, table_id: str, *, phh_writer: PhhWriter | Literal["auto"] | None = "auto",
               clock: Callable[[], float] = time.time) -> Recorder:
        """Write every event of ``game`` to this store under ``table_id`` from now on.

        Start between hands (before ``start()``, or with no hand in progress). The first write
        is a :class:`TableState` event with the seats as they are, so a game whose players sat
        down before recording, or a game returned by :func:`recover`, has a complete log.
        A table id already in the store continues its log; its configuration must match, and
        its hand numbers must not be reused (recover the table to continue its numbering).

        ``phh_writer`` fills the ``hands.phh`` column of each finished hand: ``"auto"`` uses
        :func:`default_phh_writer` (``cardgame.phh.export.hand_to_phh`` when it exists and PHH has
        a code for the game, else the column stays null), ``None`` leaves it null. A writer that
        raises leaves it null with a warning; the hand is recorded either way.
        """
        if not isinstance(table_id, str) or not table_id:
            raise StoreError(f"A table id must be non-empty text, not {table_id!r}.")
        ctx = game.ctx
        if ctx.hand is not None:
            raise StoreError(f"Hand #{ctx.hand.number} is in progress; start recording between hands.")
        t = ctx.table
        info = self._table_info(table_id)
        if info is not None:
            mine = (t.seat_count, t.min_buy_in, t.max_buy_in)
            theirs = (info.seat_count, info.min_buy_in, info.max_buy_in)
            if mine != theirs:
                raise StoreError(f"Table {table_id!r} is recorded with seats and buy-in limits {theirs}; this game "
                                 f"has {mine}.")
            top = self._query("SELECT max(hand) FROM hands WHERE table_id = ?", (table_id,))[0][0]
            if top is not None and top > ctx.hands_played:
                raise StoreError(f"Table {table_id!r} already has hands up to #{top} but this game's next hand is "
                                 f"#{ctx.hands_played + 1}; recover() the table to continue it, or use a new id.")
        writer = default_phh_writer(game) if phh_writer == "auto" else phh_writer
        recorder = Recorder(self, game, table_id, writer, clock)
        state = TableState(tuple((p.seat, p.name, p.stack, p.sitting_out) for p in t.players()), t.button,
                           ctx.hands_played)
        try:
            with self._transaction() as db:
                if info is None:
                    db.execute("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)",
                               (table_id, clock(), t.seat_count, t.min_buy_in, t.max_buy_in, t.first_button))
                recorder._write(db, state, None)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot start recording table {table_id!r}: {exc}.") from None
        game.subscribe(recorder)
        return recorder

    # --- queries ----------------------------------------------------------------------------------
    def _table_info(self, table_id: str) -> TableInfo | None:
        rows = self._query("SELECT * FROM tables WHERE table_id = ?", (table_id,))
        return TableInfo(*rows[0]) if rows else None

    def table(self, table_id: str) -> TableInfo:
        """The configuration of ``table_id``; :class:`StoreError` lists the known ids if it is absent."""
        info = self._table_info(table_id)
        if info is None:
            known = [t.table_id for t in self.tables()]
            raise StoreError(f"No table {table_id!r} in {self.path!r}; recorded tables are {known}.")
        return info

    def tables(self) -> list[TableInfo]:
        """Every recorded table, oldest first."""
        return [TableInfo(*r) for r in self._query("SELECT * FROM tables ORDER BY created, table_id")]

    def hands(self, table_id: str | None = None, *, player: str | None = None, start: float | datetime | None = None,
              end: float | datetime | None = None, status: str | None = None) -> list[HandRecord]:
        """Hands, oldest first, filtered by table, by a player's name, by start time
        (``start <= started < end``, epoch seconds or aware datetimes) and by status (playing,
        complete, voided)."""
        if isinstance(start, datetime):
            start = start.timestamp()
        if isinstance(end, datetime):
            end = end.timestamp()
        sql = ["SELECT h.table_id, h.hand, h.started, h.ended, h.status, h.players, h.final_stacks, h.phh "
               "FROM hands h"]
        where: list[str] = []
        params: list[Any] = []
        if player is not None:
            sql.append("JOIN hand_players p ON p.table_id = h.table_id AND p.hand = h.hand")
            where.append("p.name = ?")
            params.append(player)
        for cond, value in (("h.table_id = ?", table_id), ("h.started >= ?", start), ("h.started < ?", end),
                            ("h.status = ?", status)):
            if value is not None:
                where.append(cond)
                params.append(value)
        if where:
            sql.append("WHERE " + " AND ".join(where))
        sql.append("ORDER BY h.started, h.table_id, h.hand")
        return [self._hand_record(r) for r in self._query(" ".join(sql), params)]

    def _hand_record(self, row: tuple[Any, ...]) -> HandRecord:
        table_id, hand, started, ended, status, players, final, phh = row
        where = f"hands row (table {table_id!r}, hand {hand})"
        try:
            entries = json.loads(players)
            seats = tuple(int(s) for s, _, _ in entries)
            names = tuple(str(n) for _, n, _ in entries)
            stacks = tuple(int(c) for _, _, c in entries)
            finals = None if final is None else tuple((int(s), int(c)) for s, c in json.loads(final))
        except (ValueError, TypeError) as exc:
            raise StoreError(f"{where} is corrupt: {exc}.") from None
        return HandRecord(table_id, hand, started, ended, status, seats, names, stacks, finals, phh)

    def events(self, table_id: str, *, hand: int | None = None) -> list[StoredEvent]:
        """The events of ``table_id`` in order (only those of ``hand`` if given)."""
        sql = "SELECT table_id, seq, hand, time, kind, seat, payload FROM events WHERE table_id = ?"
        params: list[Any] = [table_id]
        if hand is not None:
            sql += " AND hand = ?"
            params.append(hand)
        rows = self._query(sql + " ORDER BY seq", params)
        return [StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], _decode_payload(r)) for r in rows]

    def hand_events(self, table_id: str, hand: int) -> list[Event]:
        """The events of one hand, ``HandStarted`` first."""
        return [e.event for e in self.events(table_id, hand=hand)]

    def export_jsonl(self, path_or_file: str | os.PathLike[str] | IO[str], table_id: str | None = None) -> int:
        """Write one JSON object per event (all tables, or ``table_id``); returns how many.

        Each line is ``{"table_id", "seq", "hand", "time", "kind", "seat", "event"}`` where
        ``event`` is the tagged payload (cards as text).
        """
        sql = "SELECT table_id, seq, hand, time, kind, seat, payload FROM events"
        params: list[Any] = []
        if table_id is not None:
            sql += " WHERE table_id = ?"
            params.append(table_id)
        rows = self._query(sql + " ORDER BY table_id, seq", params)
        with contextlib.ExitStack() as stack:
            if isinstance(path_or_file, (str, os.PathLike)):
                out: IO[str] = stack.enter_context(open(path_or_file, "w", encoding="utf-8"))
            else:
                out = path_or_file
            for r in rows:
                try:
                    payload = json.loads(r[6])
                except ValueError as exc:
                    raise StoreError(f"events row (table {r[0]!r}, seq {r[1]}) has a corrupt payload: {exc}.") from None
                keys = ("table_id", "seq", "hand", "time", "kind", "seat")
                out.write(_dumps({**dict(zip(keys, r[:6], strict=True)), "event": payload}) + "\n")
        return len(rows)


def _decode_payload(row: tuple[Any, ...]) -> Event:
    where = f"events row (table {row[0]!r}, seq {row[1]})"
    try:
        return decode_event(json.loads(row[6]), where)
    except ValueError as exc:  # SnapshotError is a ValueError too
        text = str(exc) if isinstance(exc, SnapshotError) else f"{where} has a corrupt payload: {exc}"
        raise StoreError(text) from None


# --- recording ---------------------------------------------------------------------------------------


def default_phh_writer(game: Game) -> PhhWriter | None:
    """A writer for ``game`` built on ``cardgame.phh.export.hand_to_phh``, or ``None``.

    ``None`` when that module does not exist, or when its ``variant_fields`` says PHH has no code
    for the game (Kuhn, Leduc, five-card draw). ``hand_to_phh(events, stages, names)`` (or
    ``hand_to_phh(events)``) may return PHH text or a :class:`~cardgame.phh.HandHistory`, which is
    written with :func:`cardgame.phh.dumps`. Names are those seated when the hand ends, plus
    those who left at its end.
    """
    try:
        module = importlib.import_module("cardgame.phh.export")
    except ModuleNotFoundError as exc:
        if exc.name in ("cardgame.phh.export", "cardgame.phh"):
            return None
        warnings.warn(f"cardgame.phh.export cannot be imported ({exc}); PHH text is not stored.", stacklevel=3)
        return None
    except Exception as exc:
        warnings.warn(f"cardgame.phh.export cannot be imported ({exc}); PHH text is not stored.", stacklevel=3)
        return None
    fn = getattr(module, "hand_to_phh", None)
    if not callable(fn):
        return None
    stages = game.dispatcher.stages
    signature = inspect.signature(fn)
    try:
        signature.bind([], stages, {})
        with_stages = True
    except TypeError:
        try:
            signature.bind([])
            with_stages = False
        except TypeError:
            warnings.warn("cardgame.phh.export.hand_to_phh takes neither (events) nor (events, stages, names); "
                          "pass phh_writer= to record PHH text.", stacklevel=3)
            return None
    check = getattr(module, "variant_fields", None)
    if with_stages and callable(check):
        try:
            check(stages, 2)
        except CardgameError:
            return None  # PHH has no code for this game
    from cardgame.phh import dumps

    def write(events: list[Event]) -> str:
        names = {p.seat: p.name for p in game.table.players()}
        names.update((e.seat, e.name) for e in events if isinstance(e, PlayerLeft))
        result = fn(events, stages, names) if with_stages else fn(events)
        return result if isinstance(result, str) else dumps(result)

    return write


class Recorder:
    """The listener :meth:`EventStore.record` subscribes: writes each event in its own transaction.

    If a write fails, the recorder detaches itself and raises :class:`StoreError` from the game
    call that emitted the event. The game in memory has then moved past the log; discard it and
    :func:`recover` the table from the store (its log is complete up to the failed event).
    """

    def __init__(self, store: EventStore, game: Game, table_id: str, phh_writer: PhhWriter | None,
                 clock: Callable[[], float]) -> None:
        self.store = store
        self.game = game
        self.table_id = table_id
        self.phh_writer = phh_writer
        self.clock = clock
        top = store._query("SELECT max(seq) FROM events WHERE table_id = ?", (table_id,))[0][0]
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
        try:
            with self.store._transaction() as db:
                self._write(db, event, number, phh)
        except (sqlite3.Error, SnapshotError) as exc:
            self.detach()
            raise StoreError(f"Recording event {self.next_seq} ({event.kind}) of table {self.table_id!r} failed: "
                             f"{exc}. The recorder is detached; recover the table from the store.") from exc

    def _phh(self, events: list[Event]) -> str | None:
        assert self.phh_writer is not None
        try:
            return self.phh_writer(list(events))
        except Exception as exc:
            warnings.warn(f"The PHH writer failed on a hand of table {self.table_id!r} ({type(exc).__name__}: "
                          f"{exc}); its phh column stays null.", stacklevel=3)
            return None

    def _write(self, db: sqlite3.Connection, event: Event, hand: int | None, phh: str | None = None) -> None:
        now = self.clock()
        seat = getattr(event, "seat", None)
        db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)",
                   (self.table_id, self.next_seq, hand, now, event.kind, seat if type(seat) is int else None,
                    _dumps(encode_event(event))))
        if isinstance(event, HandStarted):
            seats = self.game.ctx.table.seats
            names = [p.name if (p := seats[s]) is not None else "" for s in event.seats]
            stacks = list(event.stacks) or [0] * len(event.seats)
            players = [[s, n, c] for s, n, c in zip(event.seats, names, stacks, strict=True)]
            db.execute("INSERT INTO hands VALUES (?, ?, ?, NULL, 'playing', ?, NULL, NULL)",
                       (self.table_id, event.hand, now, _dumps(players)))
            db.executemany("INSERT INTO hand_players VALUES (?, ?, ?, ?)",
                           [(self.table_id, event.hand, s, n) for s, n in zip(event.seats, names, strict=True)])
        elif isinstance(event, HandEnded):
            db.execute("UPDATE hands SET ended = ?, status = 'complete', final_stacks = ?, phh = ? "
                       "WHERE table_id = ? AND hand = ?",
                       (now, _dumps([list(p) for p in event.stacks]), phh, self.table_id, event.hand))
        elif isinstance(event, HandVoided):
            db.execute("UPDATE hands SET ended = ?, status = 'voided', final_stacks = ? "
                       "WHERE table_id = ? AND hand = ?",
                       (now, _dumps([list(p) for p in event.stacks]), self.table_id, event.hand))
        self.next_seq += 1

    def detach(self) -> None:
        """Stop recording (the game keeps running)."""
        listeners = self.game.ctx.listeners
        if self in listeners:
            listeners.remove(self)


# --- recovery ---------------------------------------------------------------------------------------


def replay_log(events: Iterable[Event]) -> TableLog:
    """Seats, names and stacks as a table's log leaves them, applying the voiding rule of :func:`recover`.

    Seating events (seated, chips added, sat out/in, left) apply as they come; ``HandEnded`` sets
    the stacks; ``TableState`` resets the table. A hand started and not ended is voided: its
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

    for e in events:
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
        elif isinstance(e, HandEnded):
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


def recover(store: EventStore, table_id: str, stages: Sequence[Stage], seed: int | None = None, *,
            max_hands: int | None = None, keep_hands: int | None = 100, mark_void: bool = True) -> Game:
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
    table = Table(info.seat_count, info.min_buy_in, info.max_buy_in, info.first_button)
    for s in log.seats:
        if not 0 <= s.seat < table.seat_count:
            raise StoreError(f"The log of table {table_id!r} seats {s.name!r} in seat {s.seat}, which the "
                             f"{table.seat_count}-seat table does not have.")
        table.seats[s.seat] = Player(s.name, s.seat, s.stack, s.sitting_out)
    table.button = log.button
    game = Game(stages, table=table, seed=seed, max_hands=max_hands, keep_hands=keep_hands)
    game.ctx.hands_played = log.last_hand
    if log.interrupted is not None and mark_void:
        hand = log.interrupted
        returned = tuple((s, st.stack) for s in hand.seats for st in log.seats if st.seat == s)
        recorder = Recorder(store, game, table_id, None, time.time)
        try:
            with store._transaction() as db:
                recorder._write(db, HandVoided(hand.hand, returned), hand.hand)
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot mark hand #{hand.hand} of table {table_id!r} void: {exc}.") from None
    return game
