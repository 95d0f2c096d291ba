"""The server's group writes: every table whose events came due while a write was under way goes in
the next one, one transaction (one commit) for all of them, not one each."""

from __future__ import annotations

import asyncio
import collections
import threading
from pathlib import Path
from typing import Any

import pytest

from cardgame.server import writer as writer_module
from cardgame.server.app import Server
from cardgame.server.config import read_config

TABLE = {"variant": "NT", "seats": 2, "min_buy_in": 40, "max_buy_in": 200}


def _due(server: Server) -> str:
    """A new table with a player seated: its events wait to be recorded."""
    host = server.create(read_config(TABLE))
    host.game.sit_down("ann", 100)
    host.refresh()
    return host.table_id


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


        try:
            tables = [_due(server)]
            while not groups:  # the first table's write is under way, held
                await asyncio.sleep(0.005)
            for _ in range(3):  # each comes due in a turn of the loop of its own
                tables.append(_due(server))
                await asyncio.sleep(0.01)
            first.set()
            for table_id in tables:
                await server.settled(table_id)
                assert table_id not in server.writing
        finally:
            await server.stop()

    asyncio.run(main())
    assert groups == [1, 3]  # (before: [1, 1, 1, 1], a transaction and a commit for each)


def test_tables_due_soon_after_a_write_began_wait_for_the_gap_and_share_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A group write starts at least ``write_gap`` seconds after the one before began: tables that come due
    in between, each in a turn of the loop of its own after the first write is over, share one commit."""
    real = writer_module.write
    groups: list[int] = []  # each group write's number of tables

    def write(store: Any, lease: Any, rows: Any) -> None:
        if any(rows):
            groups.append(len(rows))
        real(store, lease, rows)

    monkeypatch.setattr(writer_module, "write", write)

    async def main() -> float:
        server = Server(str(tmp_path / "t.db"))
        server.write_gap = 0.5
        await server.start()


        try:
            loop = asyncio.get_running_loop()
            begun = loop.time()
            first = _due(server)
            await server.settled(first)
            assert groups == [1]
            later = [_due(server)]
            await asyncio.sleep(0.02)
            later.append(_due(server))
            for table_id in later:
                await server.settled(table_id)
                assert table_id not in server.writing
            return loop.time() - begun
        finally:
            await server.stop()

    took = asyncio.run(main())
    assert groups == [1, 2]  # (before: [1, 1, 1], a commit for each as it came due)
    assert took >= 0.45


def test_the_store_log_is_copied_into_the_file_on_a_thread_of_its_own(tmp_path: Path) -> None:
    """A server copies its SQLite store's write-ahead log into the file on a thread other than the
    writer's (SQLite's own checkpoint, run by the commit that fills the log, held every table's write up
    for some 100 ms): with the writer's own checkpoints off, the file still takes in what was committed."""
    import os
    import time

    from cardgame.server.writer import StoreWriter
    from cardgame.store.connection import StoreFile

    path = tmp_path / "t.db"
    store = StoreFile(path, synchronous="NORMAL")
    store.query("PRAGMA wal_autocheckpoint=0")  # the writer's connection copies nothing
    store.query("CREATE TABLE scratch (n INTEGER PRIMARY KEY, text TEXT)")
    writer = StoreWriter()
    try:
        writer.checkpoints(store, interval=0.01)
        writer.checkpoints(store, interval=0.01)  # one thread, however often asked
        assert sum(t.name == "cardgame-checkpoint" for t in threading.enumerate()) == 1
        size = os.path.getsize(path)
        store.write([("INSERT INTO scratch (text) VALUES (?)", ("x" * 500,))] * 2000)
        deadline = time.monotonic() + 20
        while os.path.getsize(path) < size + 500_000 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert os.path.getsize(path) >= size + 500_000
    finally:
        writer.close()
        store.close()
    assert not any(t.name == "cardgame-checkpoint" for t in threading.enumerate())


def test_a_server_copies_its_log_while_it_runs(tmp_path: Path) -> None:
    async def main() -> list[str]:
        server = Server(str(tmp_path / "t.db"))
        await server.start()
        running = [t.name for t in threading.enumerate()]
        await server.stop()
        return running

    assert "cardgame-checkpoint" in asyncio.run(main())
    assert "cardgame-checkpoint" not in [t.name for t in threading.enumerate()]


def test_a_large_group_is_shown_over_several_turns_of_the_loop_each_table_after_its_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables of a finished group write are shown in slices, each in a turn of the event loop of its
    own, so the loop's other work (every other table's messages) runs between them; each table still
    shows nothing before its rows are committed; and a table that came due during the write is written
    next without waiting for the last slice. (Before: all of them in one callback, some hundred
    milliseconds under load.)"""
    import json
    import sqlite3
    import time

    from cardgame.server.host import Client, message_text

    real = writer_module.write
    held = threading.Event()  # the large group's write waits for this

    def write(store: Any, lease: Any, rows: Any) -> None:
        if len(rows) >= 40:
            assert held.wait(10)
        real(store, lease, rows)

    monkeypatch.setattr(writer_module, "write", write)
    path = tmp_path / "t.db"
    turn = 0  # turns of the loop, as a task that yields at every one counts them
    shown: list[tuple[int, str]] = []  # (turn, table) of each message sent
    order: list[str] = []  # "write" (a group write started) and each table shown, in turn
    early: list[str] = []  # a message whose events were not yet committed
    large: list[str] = []

    async def main() -> None:
        nonlocal turn
        server = Server(str(path))
        await server.start()
        reader = sqlite3.connect(path)
        running = True
        write_due = server._write_due

        def note_write_due() -> None:
            if server._due and not server._group_writing:
                order.append("write")
            write_due()

        monkeypatch.setattr(server, "_write_due", note_write_due)

        async def count_turns() -> None:
            nonlocal turn
            while running:
                turn += 1
                await asyncio.sleep(0)

        def client(table_id: str) -> Client:
            def deliver(message: Any) -> None:
                seq = json.loads(message_text(message))["seq"]
                committed = reader.execute("SELECT MAX(seq) FROM events WHERE table_id = ?", (table_id,)).fetchone()[0]
                if committed is None or committed < seq:
                    early.append(table_id)
                shown.append((turn, table_id))
                order.append(table_id)
                end = time.perf_counter() + 0.001  # a message costs a millisecond to send
                while time.perf_counter() < end:
                    pass
            return Client(deliver)

        def due() -> str:
            host = server.create(read_config(TABLE))
            host.connect(client(host.table_id))
            host.game.sit_down("ann", 100)
            host.refresh()
            return host.table_id

        counter = asyncio.get_running_loop().create_task(count_turns())
        try:
            large.extend(due() for _ in range(40))  # all due in one group
            while "write" not in order:
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.02)
            tables = [*large, due()]  # due while the large group's write is under way
            held.set()
            for table_id in tables:
                await server.settled(table_id)
                assert table_id not in server.writing
        finally:
            running = False
            await counter
            reader.close()
            await server.stop()

    asyncio.run(main())
    assert not early
    assert set(large) <= {t for _, t in shown}
    turns = sorted({n for n, t in shown if t in large})
    assert len(turns) >= 5  # 40 tables of 2 ms or more each, in slices of a few milliseconds (before: 1)
    by_turn = collections.Counter(n for n, t in shown if t in large)
    assert max(by_turn.values()) <= 2 * 40 // 5
    last_shown = max(i for i, item in enumerate(order) if item in large)
    assert order.count("write") == 2 and order.index("write", 1) < last_shown  # the next write did not wait
