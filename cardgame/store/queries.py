"""Reading a store back: tables, hands (by table, player, time, status) and events, as records."""

from __future__ import annotations

import math
from datetime import datetime
from typing import Any

import attrs

from cardgame.model.events import Event
from cardgame.model.inputs import check_int, check_text, excerpt
from cardgame.model.table import MAX_SEATS
from cardgame.store.connection import StoreFile
from cardgame.store.errors import StoreError
from cardgame.store.schema import NotText
from cardgame.store.serialize import MAX_INT, SnapshotError, decode_event, from_json, structure

__all__ = [
    "MAX_TEXT",
    "HandRecord",
    "Row",
    "StoredEvent",
    "TableInfo",
    "event_row",
    "events",
    "hand_players",
    "hands",
    "highest",
    "table",
    "table_id_arg",
    "table_info",
    "tables",
]

#: Characters a text column may hold: an event's JSON takes a few hundred, a hand's PHH a few thousand.
MAX_TEXT = 1_000_000


class Row:
    """A row read from the store, checked column by column as it is read: :class:`StoreError` names
    the table, the row and the column, and says what the column may hold."""

    __slots__ = ("names", "row", "where")

    def __init__(self, table: str, names: tuple[str, ...], row: tuple[Any, ...], key: str) -> None:
        if len(row) != len(names):
            raise StoreError(f"A {table} row has {len(row)} columns, not {len(names)} ({', '.join(names)}).")
        self.names = names
        self.row = row
        self.where = f"{table} row ({key})"

    def fail(self, i: int, allowed: str) -> StoreError:
        """The error for column ``i``, which must be ``allowed``."""
        value = self.row[i]
        shown = "bytes that are not UTF-8 text" if isinstance(value, NotText) else excerpt(value)
        return StoreError(f"The {self.where} is corrupt: {self.names[i]} must be {allowed}, not {shown}.")

    def text(self, i: int, *, optional: bool = False, limit: int = MAX_TEXT) -> Any:
        """Column ``i`` as text of at most ``limit`` characters (or null when ``optional``)."""
        value = self.row[i]
        if value is None and optional:
            return None
        if type(value) is not str or len(value) > limit:
            raise self.fail(i, f"text of at most {limit:,} characters{' or null' if optional else ''}")
        return value

    def whole(self, i: int, *, minimum: int = 0, maximum: int = MAX_INT, optional: bool = False) -> Any:
        """Column ``i`` as a whole number from ``minimum`` to ``maximum`` (or null when ``optional``)."""
        value = self.row[i]
        if value is None and optional:
            return None
        if type(value) is not int or not minimum <= value <= maximum:
            raise self.fail(i, f"a whole number from {minimum:,} to {maximum:,}{' or null' if optional else ''}")
        return value

    def seconds(self, i: int, *, optional: bool = False) -> Any:
        """Column ``i`` as a finite number of seconds (or null when ``optional``)."""
        value = self.row[i]
        if value is None and optional:
            return None
        if type(value) not in (int, float) or not math.isfinite(value):
            raise self.fail(i, f"a time in seconds{' or null' if optional else ''}")
        return float(value)


def table_id_arg(value: object) -> str:
    """A table id handed to the store: text of at most 1,000 characters (:class:`StoreError` otherwise)."""
    return check_text(value, "table id", StoreError, max_length=1_000, empty=True)


def _seconds_arg(value: object, what: str) -> float | None:
    """A time handed to :func:`hands`: ``None``, an aware datetime or epoch seconds."""
    if value is None or isinstance(value, datetime):
        return None if value is None else value.timestamp()
    if type(value) not in (int, float) or not -MAX_INT <= value <= MAX_INT:  # NaN compares false
        raise StoreError(f"{what} must be epoch seconds or a datetime, not {excerpt(value)}.")
    return float(value)  # type: ignore[arg-type]


def _key(*values: Any) -> str:
    """A row's key for messages (which may itself be corrupt: quoted as excerpts)."""
    return ", ".join(excerpt(v, 40) for v in values)


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


_TABLE_COLUMNS = ("table_id", "created", "seat_count", "min_buy_in", "max_buy_in", "first_button")


def _table_row(r: tuple[Any, ...]) -> TableInfo:
    row = Row("tables", _TABLE_COLUMNS, r, f"table {_key(r[0] if r else None)}")
    seat_count = row.whole(2, minimum=2, maximum=MAX_SEATS)
    min_buy_in = row.whole(3, minimum=1)
    return TableInfo(row.text(0, limit=1_000), row.seconds(1), seat_count, min_buy_in, row.whole(4, minimum=min_buy_in),
                     row.whole(5, maximum=seat_count - 1, optional=True))


def table_info(store: StoreFile, table_id: str) -> TableInfo | None:
    """The configuration of ``table_id``, or ``None`` if the store has no such table."""
    table_id = table_id_arg(table_id)
    rows = store.query(f"SELECT {', '.join(_TABLE_COLUMNS)} FROM tables WHERE table_id = ?", (table_id,))
    return _table_row(rows[0]) if rows else None


def table(store: StoreFile, table_id: str) -> TableInfo:
    """The configuration of ``table_id``; :class:`StoreError` lists the known ids if it is absent."""
    info = table_info(store, table_id)
    if info is None:
        known = [t.table_id for t in tables(store)]
        raise StoreError(f"No table {excerpt(table_id)} in {excerpt(store.path)}; recorded tables are "
                         f"{excerpt(known, 200)}.")
    return info


def tables(store: StoreFile) -> list[TableInfo]:
    """Every recorded table, oldest first."""
    return [_table_row(r) for r in store.query(f"SELECT {', '.join(_TABLE_COLUMNS)} FROM tables "
                                               "ORDER BY created, table_id")]


def hands(store: StoreFile, table_id: str | None = None, *, player: str | None = None,
          start: float | datetime | None = None, end: float | datetime | None = None,
          status: str | None = None) -> list[HandRecord]:
    """Hands, oldest first, filtered by table, by a player's name, by start time
    (``start <= started < end``, epoch seconds or aware datetimes) and by status (playing,
    complete, voided)."""
    table_id = None if table_id is None else table_id_arg(table_id)
    player = None if player is None else check_text(player, "player's name", StoreError, empty=True)
    start, end = _seconds_arg(start, "start"), _seconds_arg(end, "end")
    if status is not None and (not isinstance(status, str) or status not in _STATUSES):
        raise StoreError(f"A hand's status is {', '.join(_STATUSES)} (or None for any), not {excerpt(status)}.")
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
    return [_hand_record(r) for r in store.query(" ".join(sql), params)]


#: The JSON of the ``hands.players`` and ``hands.final_stacks`` columns.
_PLAYERS = tuple[tuple[int, str, int], ...]
_STACKS = tuple[tuple[int, int], ...]


_HAND_COLUMNS = ("table_id", "hand", "started", "ended", "status", "players", "final_stacks", "phh")
_STATUSES = ("playing", "complete", "voided")


def _hand_record(r: tuple[Any, ...]) -> HandRecord:
    row = Row("hands", _HAND_COLUMNS, r, f"table {_key(r[0])}, hand {_key(r[1])}" if len(r) > 1 else "?")
    table_id, hand, started = row.text(0, limit=1_000), row.whole(1, minimum=1), row.seconds(2)
    ended, status = row.seconds(3, optional=True), row.text(4, limit=20)
    players, final, phh = row.text(5), row.text(6, optional=True), row.text(7, optional=True)
    where = f"hands row (table {excerpt(table_id)}, hand {hand})"
    if status not in _STATUSES:
        raise row.fail(4, " or ".join(_STATUSES))
    try:
        entries: tuple[tuple[int, str, int], ...] = structure(from_json(players), _PLAYERS, "players")
        finals = None if final is None else structure(from_json(final), _STACKS, "final_stacks")
    except SnapshotError as exc:
        raise StoreError(f"{where} is corrupt: {exc}.") from None
    seats = tuple(s for s, _, _ in entries)
    names = tuple(n for _, n, _ in entries)
    stacks = tuple(c for _, _, c in entries)
    for what, seen, amounts in (("players", seats, stacks), ("final_stacks", tuple(s for s, _ in finals or ()),
                                                              tuple(c for _, c in finals or ()))):
        if len(set(seen)) != len(seen) or not all(0 <= x < MAX_SEATS for x in seen) or min(amounts, default=0) < 0:
            raise StoreError(f"{where} is corrupt: {what} must list each seat (0 to {MAX_SEATS - 1}) once with a "
                             f"stack of at least 0, not {excerpt(players if what == 'players' else final)}.")
    return HandRecord(table_id, hand, started, ended, status, seats, names, stacks, finals, phh)


def hand_players(store: StoreFile, table_id: str) -> list[tuple[int, int, str]]:
    """The ``hand_players`` rows of ``table_id`` as ``(hand, seat, name)``, each column checked."""
    table_id = table_id_arg(table_id)
    rows = store.query("SELECT table_id, hand, seat, name FROM hand_players WHERE table_id = ? ORDER BY hand, seat",
                       (table_id,))
    out = []
    for r in rows:
        key = f"table {_key(r[0])}, hand {_key(r[1])}, seat {_key(r[2])}" if len(r) > 2 else "?"
        row = Row("hand_players", ("table_id", "hand", "seat", "name"), r, key)
        out.append((row.whole(1, minimum=1), row.whole(2, maximum=MAX_SEATS - 1), row.text(3, limit=1_000)))
    return out


_EVENT_COLUMNS = ("table_id", "seq", "hand", "time", "kind", "seat", "payload")

#: A hand's events, found without an index of every event by hand (which a store would write a page of at
#: every commit): they lie from its first ``hand started`` event to the first start of a later hand, whose
#: seqs an index of the hands' starts gives (``events_hand_starts``; a store made before it has
#: ``events_by_hand``, which answers the same query). The rows are those of ``hand = ?``, in a log whose
#: hand numbers do not go back.
_HAND_EVENTS = (" AND hand = ? AND seq >= coalesce((SELECT seq FROM events WHERE table_id = ? AND hand >= ? "
                "AND hand <= ? AND kind = 'hand started' ORDER BY hand, seq LIMIT 1), "
                f"{-2**63}) AND seq <= coalesce((SELECT seq - 1 FROM events WHERE table_id = ? AND hand > ? "
                f"AND kind = 'hand started' ORDER BY hand, seq LIMIT 1), {2**63 - 1})")


def event_row(r: tuple[Any, ...]) -> tuple[tuple[str, int, int | None, float, str, int | None], Any]:
    """The checked columns of an ``events`` row (``table_id, seq, hand, time, kind, seat``) and its
    payload's JSON data; :class:`StoreError` names the row and what is wrong."""
    row = Row("events", _EVENT_COLUMNS, r, f"table {_key(r[0])}, seq {_key(r[1])}" if len(r) > 1 else "?")
    columns = (row.text(0, limit=1_000), row.whole(1), row.whole(2, minimum=1, optional=True), row.seconds(3),
               row.text(4, limit=100), row.whole(5, maximum=MAX_SEATS - 1, optional=True))
    payload = row.text(6)
    try:
        data = from_json(payload)
    except SnapshotError as exc:
        raise StoreError(f"The {row.where} has a corrupt payload: {exc}.") from None
    return columns, data


def events(store: StoreFile, table_id: str, *, hand: int | None = None) -> list[StoredEvent]:
    """The events of ``table_id`` in order (only those of ``hand`` if given)."""
    table_id = table_id_arg(table_id)
    if hand is not None:
        hand = check_int(hand, "hand number", StoreError, minimum=0)
    sql = f"SELECT {', '.join(_EVENT_COLUMNS)} FROM events WHERE table_id = ?"
    params: list[Any] = [table_id]
    if hand is not None:
        sql += _HAND_EVENTS
        params += [hand, table_id, hand, hand, table_id, hand]
    rows = store.query(sql + " ORDER BY seq", params)
    return [_stored_event(r) for r in rows]


def _stored_event(r: tuple[Any, ...]) -> StoredEvent:
    """The event of an ``events`` row; :class:`StoreError` names the row."""
    columns, data = event_row(r)
    table_id, seq, hand, time, kind, seat = columns
    where = f"events row (table {excerpt(table_id)}, seq {seq})"
    try:
        event = decode_event(data, where)
    except SnapshotError as exc:
        raise StoreError(str(exc)) from None
    if event.kind != kind:
        raise StoreError(f"The {where} is corrupt: its kind is {excerpt(kind)} but its payload is a "
                         f"{type(event).__name__} ({excerpt(event.kind)}).")
    return StoredEvent(table_id, seq, hand, time, kind, seat, event)


def highest(store: StoreFile, table: str, column: str, table_id: str) -> int | None:
    """The highest ``column`` (``seq`` of events, ``hand`` of hands) recorded for ``table_id``, or ``None``;
    :class:`StoreError` if the store holds something other than a whole number there."""
    value = store.query(f"SELECT max({column}) FROM {table} WHERE table_id = ?", (table_id,))[0][0]
    if value is not None and (type(value) is not int or not 0 <= value <= MAX_INT):
        shown = "bytes that are not UTF-8 text" if isinstance(value, NotText) else excerpt(value)
        raise StoreError(f"The {table} rows of table {excerpt(table_id)} are corrupt: a {column} is {shown}, not a "
                         f"whole number from 0 to {MAX_INT:,}.")
    return value
