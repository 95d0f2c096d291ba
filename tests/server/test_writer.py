"""The server's store thread (:class:`~cardgame.server.writer.StoreWriter`): group writes queued together
are committed together, and a table whose rows are refused does not take the others' with it."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from cardgame.server.writer import StoreWriter
from cardgame.store import EventStore, StoreError
from cardgame.store.lease import Lease


def _table(table_id: str) -> list[tuple[str, tuple[object, ...]]]:
    return [("INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?)", (table_id, 1.0, 2, 1, 2, None))]


def test_group_writes_queued_together_are_one_transaction_and_a_refused_one_fails_alone(tmp_path: Path) -> None:
    async def main() -> None:
        writer = StoreWriter()
        store = await writer.run(EventStore, tmp_path / "s.db")
        lease = Lease(store, "server")
        await writer.run(lease.acquire)
        statements: list[str] = []
        await writer.run(store.database.connection.set_trace_callback, statements.append)  # type: ignore[attr-defined]
        answers: list[list[BaseException | None]] = []
        for batch in (["t1", "t2", "t3"], ["t1", "t4"]):  # t1 again: refused by its primary key
            gate = threading.Event()
            blocked = asyncio.ensure_future(writer.run(gate.wait))  # the thread is busy while they queue
            await asyncio.sleep(0.05)
            for table_id in batch:
                writer.write_group(store, lease, [_table(table_id)], answers.append)
            gate.set()
            await blocked
            await writer.run(lambda: None)
        assert [[type(e).__name__ if e else None for e in a] for a in answers] == \
            [[None]] * 3 + [["StoreError"], [None]]
        assert isinstance(answers[3][0], StoreError) and "UNIQUE" in str(answers[3][0])
        commits = [s for s in statements if s == "COMMIT"]
        # the first three in one transaction; then the two together (refused), and each alone (t4 committed)
        assert len(commits) == 2
        assert [t for (t,) in await writer.run(store.query, "SELECT table_id FROM tables ORDER BY table_id")] == \
            ["t1", "t2", "t3", "t4"]
        await writer.run(store.close)
        writer.close()

    asyncio.run(main())
