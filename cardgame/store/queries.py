"""Reading a store back: tables, hands (by table, player, time, status) and events, as records."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import attrs

from cardgame.events import Event
from cardgame.serialize import SnapshotError, decode_event, from_json, structure
from cardgame.store.errors import StoreError

if TYPE_CHECKING:
    from cardgame.store.database import EventStore

__all__ = [
    "HandRecord",
    "StoredEvent",
    "TableInfo",
    "events",
    "hands",
    "table",
    "table_info",
    "tables",
]


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


def table_info(store: EventStore, table_id: str) -> TableInfo | None:
    """The configuration of ``table_id``, or ``None`` if the store has no such table."""
    rows = store.query("SELECT * FROM tables WHERE table_id = ?", (table_id,))
    return TableInfo(*rows[0]) if rows else None


def table(store: EventStore, table_id: str) -> TableInfo:
    """The configuration of ``table_id``; :class:`StoreError` lists the known ids if it is absent."""
    info = table_info(store, table_id)
    if info is None:
        known = [t.table_id for t in tables(store)]
        raise StoreError(f"No table {table_id!r} in {store.path!r}; recorded tables are {known}.")
    return info


def tables(store: EventStore) -> list[TableInfo]:
    """Every recorded table, oldest first."""
    return [TableInfo(*r) for r in store.query("SELECT * FROM tables ORDER BY created, table_id")]


def hands(store: EventStore, table_id: str | None = None, *, player: str | None = None,
          start: float | datetime | None = None, end: float | datetime | None = None,
          status: str | None = None) -> list[HandRecord]:
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
    return [_hand_record(r) for r in store.query(" ".join(sql), params)]


#: The JSON of the ``hands.players`` and ``hands.final_stacks`` columns.
_PLAYERS = tuple[tuple[int, str, int], ...]
_STACKS = tuple[tuple[int, int], ...]


def _hand_record(row: tuple[Any, ...]) -> HandRecord:
    table_id, hand, started, ended, status, players, final, phh = row
    where = f"hands row (table {table_id!r}, hand {hand})"
    try:
        entries: tuple[tuple[int, str, int], ...] = structure(from_json(players), _PLAYERS, "players")
        finals = None if final is None else structure(from_json(final), _STACKS, "final_stacks")
    except SnapshotError as exc:
        raise StoreError(f"{where} is corrupt: {exc}.") from None
    seats = tuple(s for s, _, _ in entries)
    names = tuple(n for _, n, _ in entries)
    stacks = tuple(c for _, _, c in entries)
    return HandRecord(table_id, hand, started, ended, status, seats, names, stacks, finals, phh)


def events(store: EventStore, table_id: str, *, hand: int | None = None) -> list[StoredEvent]:
    """The events of ``table_id`` in order (only those of ``hand`` if given)."""
    sql = "SELECT table_id, seq, hand, time, kind, seat, payload FROM events WHERE table_id = ?"
    params: list[Any] = [table_id]
    if hand is not None:
        sql += " AND hand = ?"
        params.append(hand)
    rows = store.query(sql + " ORDER BY seq", params)
    return [StoredEvent(r[0], r[1], r[2], r[3], r[4], r[5], _decode_payload(r)) for r in rows]


def _decode_payload(row: tuple[Any, ...]) -> Event:
    """The event of an ``events`` row (``table_id, seq, ..., payload``); :class:`StoreError` names the row."""
    where = f"events row (table {row[0]!r}, seq {row[1]})"
    try:
        data = from_json(row[6])
    except SnapshotError as exc:
        raise StoreError(f"{where} has a corrupt payload: {exc}") from None
    try:
        return decode_event(data, where)
    except SnapshotError as exc:
        raise StoreError(str(exc)) from None
