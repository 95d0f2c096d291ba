"""The server's own rows in the event store: each table's configuration and its seats' token hashes.

Three tables beside the store's (SQL both SQLite and PostgreSQL take):

* ``server_tables(table_id, created, config, owner)``: ``config`` is the :class:`TableConfig` as
  JSON, ``owner`` the name (its address) of the server process that drives the table: several
  processes sharing one database each recover and drive their own tables, and list the others';
* ``server_seats(table_id, seat, token_hash)``: the SHA-256 of each person's seat token (never the
  token), so a restarted server lets the same players resume their seats;
* ``server_creators(table_id, client, token_hash)``: for a table a client opened, its address (the
  tables it may open count it) and the SHA-256 of the creator token that closes it.

The events themselves are the store's (:meth:`EventStore.record`); a restarted server rebuilds
each table with :func:`cardgame.store.recover`, which voids an interrupted hand.
"""

from __future__ import annotations

import time
from typing import Any

from cardgame.engine.errors import ConfigError
from cardgame.model.inputs import excerpt
from cardgame.server.config import TableConfig, read_config
from cardgame.store import EventStore, StoreError
from cardgame.store.recorder import Row
from cardgame.store.serialize import SnapshotError, from_json, to_compact_json

__all__ = ["Registry"]

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS server_tables (table_id TEXT PRIMARY KEY, created DOUBLE PRECISION NOT NULL, "
    "config TEXT NOT NULL, owner TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS server_seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, "
    "token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat))",
    "CREATE TABLE IF NOT EXISTS server_creators (table_id TEXT PRIMARY KEY, client TEXT NOT NULL, "
    "token_hash TEXT NOT NULL)",
)


class Registry:
    """The server's tables and seat tokens in ``store``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        with store.transaction() as db:
            for statement in _SCHEMA:
                db.execute(statement)

    def add(self, table_id: str, config: TableConfig, owner: str) -> None:
        self._write(self.add_rows(table_id, config, owner))

    @staticmethod
    def add_rows(table_id: str, config: TableConfig, owner: str) -> list[Row]:
        """The statements that add a table (written with its first events)."""
        return [("INSERT INTO server_tables (table_id, created, config, owner) VALUES (?, ?, ?, ?)",
                 (table_id, time.time(), to_compact_json(config.to_data()), owner))]

    def tables(self, owner: str | None = None) -> list[tuple[str, TableConfig, str]]:
        """The tables ``owner`` drives (``None``: every process's), oldest first, each with its config
        and owner (:class:`StoreError` if a row is corrupt)."""
        found, corrupt = self.rows(owner)
        if corrupt:
            raise StoreError(corrupt[0][1])
        return found

    def rows(self, owner: str | None = None) -> tuple[list[tuple[str, TableConfig, str]], list[tuple[str, str]]]:
        """The tables ``owner`` drives (``None``: every process's) as :meth:`tables` gives them, and apart
        the (table id, what is wrong) of each whose row is corrupt."""
        found, corrupt = [], []
        rows = self.store.query("SELECT table_id, config, owner FROM server_tables ORDER BY created, table_id")
        for table_id, text, who in rows:
            if owner is not None and who != owner:
                continue
            try:
                config = read_config(from_json(text))
            except (SnapshotError, ConfigError, TypeError) as exc:
                corrupt.append((str(table_id), f"The server_tables row of {excerpt(table_id)} is corrupt: {exc}"))
                continue
            found.append((str(table_id), config, str(who)))
        return found, corrupt

    def set_token(self, table_id: str, seat: int, token_hash: str | None) -> None:
        """Keep ``token_hash`` for ``seat`` (``None``: the seat is free)."""
        self._write(self.token_rows(table_id, seat, token_hash))

    @staticmethod
    def token_rows(table_id: str, seat: int, token_hash: str | None) -> list[Row]:
        """The statements of :meth:`set_token` (written with the events of the seat's change)."""
        if token_hash is None:
            return [("DELETE FROM server_seats WHERE table_id = ? AND seat = ?", (table_id, seat))]
        return [("INSERT INTO server_seats (table_id, seat, token_hash) VALUES (?, ?, ?) "
                 "ON CONFLICT (table_id, seat) DO UPDATE SET token_hash = excluded.token_hash",
                 (table_id, seat, token_hash))]

    def tokens(self, table_id: str) -> dict[int, str]:
        rows: list[Any] = self.store.query("SELECT seat, token_hash FROM server_seats WHERE table_id = ?", (table_id,))
        return {int(seat): str(digest) for seat, digest in rows}

    def set_creator(self, table_id: str, client: str, token_hash: str) -> None:
        """Keep the address and creator token hash of a table a client opened."""
        self._write(self.creator_rows(table_id, client, token_hash))

    @staticmethod
    def creator_rows(table_id: str, client: str, token_hash: str) -> list[Row]:
        """The statements of :meth:`set_creator` (written with the table's first events)."""
        return [("INSERT INTO server_creators (table_id, client, token_hash) VALUES (?, ?, ?)",
                 (table_id, client, token_hash))]

    def creators(self) -> dict[str, tuple[str, str]]:
        """Each client's table: its creator's address and creator token hash."""
        rows: list[Any] = self.store.query("SELECT table_id, client, token_hash FROM server_creators")
        return {str(t): (str(c), str(h)) for t, c, h in rows}

    def remove(self, table_id: str) -> None:
        """Forget a closed table (its events stay in the store): a restart does not bring it back."""
        self._write(self.remove_rows(table_id))

    @staticmethod
    def remove_rows(table_id: str) -> list[Row]:
        """The statements of :meth:`remove` (written after the table's last events)."""
        return [(f"DELETE FROM {name} WHERE table_id = ?", (table_id,))
                for name in ("server_tables", "server_seats", "server_creators")]

    def _write(self, rows: list[Row]) -> None:
        with self.store.transaction() as db:
            for sql, params in rows:
                db.execute(sql, params)
