"""The server's group writes: every table whose events came due while a write was under way goes in
the next one, one transaction (one commit) for all of them, not one each."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from cardgame.server import writer as writer_module
from cardgame.server.app import Server
from cardgame.server.config import read_config

TABLE = {"variant": "NT", "seats": 2, "min_buy_in": 40, "max_buy_in": 200}


def test_tables_due_during_a_group_write_go_together_in_the_next(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    real = writer_module.write
    groups: list[int] = []  # each group write's number of tables
    first = threading.Event()  # the first write waits for this

    def write(store: Any, lease: Any, rows: Any) -> None:
        if any(rows):
            groups.append(len(rows))
            if len(groups) == 1:
                assert first.wait(10)
        real(store, lease, rows)

    monkeypatch.setattr(writer_module, "write", write)

    async def main() -> None:
        server = Server(str(tmp_path / "t.db"))
        await server.start()

        def due() -> str:
            """A new table with a player seated: its events wait to be recorded."""
            host = server.create(read_config(TABLE))
            host.game.sit_down("ann", 100)
            host.refresh()
            return host.table_id

        try:
            tables = [due()]
            while not groups:  # the first table's write is under way, held
                await asyncio.sleep(0.005)
            for _ in range(3):  # each comes due in a turn of the loop of its own
                tables.append(due())
                await asyncio.sleep(0.01)
            first.set()
            for table_id in tables:
                await server.settled(table_id)
                assert table_id not in server.writing
        finally:
            await server.stop()

    asyncio.run(main())
    assert groups == [1, 3]  # (before: [1, 1, 1, 1], a transaction and a commit for each)
