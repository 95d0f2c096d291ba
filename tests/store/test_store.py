"""The event store: recording, queries, export, and recovery after a process is killed mid-hand.

The tests that take ``store`` or ``store_location`` run on SQLite and on PostgreSQL (``conftest.py``).
"""

from __future__ import annotations

import io
import json
import os
import queue
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from cardgame.model.errors import CardgameError
from cardgame.model.events import (
    ActionTaken,
    ChipsAdded,
    Event,
    HandEnded,
    HandStarted,
    PlayerLeft,
    PlayerSeated,
)
from cardgame.play.bots import calling_station, random_bot
from cardgame.play.game import Game
from cardgame.store import (
    EventStore,
    HandVoided,
    StoreError,
    TableState,
    recover,
    replay_log,
)
from tests.helpers import failing_hook
from variants import no_limit_holdem

REPO = Path(__file__).resolve().parents[2]


class Clock:
    """A fake wall clock: each reading is one second later."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1
        return self.now


def _played(store: EventStore, table_id: str = "t1", *, hands: int = 3, seed: int = 5, clock: Clock | None = None,
            names: tuple[str, ...] = ("ann", "bob", "cat")) -> Game:
    """A finished game of ``hands`` hands between calling stations (nobody goes broke), recorded from the start."""
    game = Game(no_limit_holdem(1, 2), seed=seed, max_hands=hands, keep_hands=None)
    store.record(game, table_id, clock=clock or Clock())
    for name in names:
        game.sit_down(name, 200)
    game.start()
    game.play(calling_station)
    return game


# --- schema and durability settings ------------------------------------------------------------------


def test_a_new_store_has_the_schema_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    with EventStore(path) as s:
        assert s.query("PRAGMA journal_mode") == [("wal",)]
        assert s.query("PRAGMA synchronous") == [(2,)]  # FULL
        names = {r[0] for r in s.query("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"tables", "events", "hands", "hand_players"} <= names
    with EventStore(path, synchronous="NORMAL") as s:  # reopening keeps the data
        assert s.query("PRAGMA synchronous") == [(1,)]
        assert s.tables() == []


def test_a_store_caches_8_mib_of_pages_and_checkpoints_its_log_every_10000_pages(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as s:  # what a server with hundreds of tables writes into stays cached
        assert s.query("PRAGMA cache_size") == [(-8_192,)]
        assert s.query("PRAGMA wal_autocheckpoint") == [(10_000,)]


def test_files_that_are_not_stores_raise_store_errors(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="not a readable event store"):
        EventStore(garbage)
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE x (y)")
    with pytest.raises(StoreError, match="not an event store"):
        EventStore(other)
    newer = tmp_path / "newer.db"
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 7")
    with pytest.raises(StoreError, match="schema version 7"):
        EventStore(newer)
    with pytest.raises(StoreError, match="synchronous"):
        EventStore(tmp_path / "x.db", synchronous="OFF")  # type: ignore[arg-type]


# --- recording ---------------------------------------------------------------------------------------


def test_every_event_is_one_row_in_order(store: EventStore) -> None:
    game = _played(store)
    rows = store.events("t1")
    assert [r.seq for r in rows] == list(range(len(rows)))
    assert isinstance(rows[0].event, TableState)
    assert [r.event for r in rows[1:]] == game.events  # the default keep_hands=10 keeps all 3 hands here
    for r in rows:
        assert r.kind == r.event.kind
        assert r.seat == getattr(r.event, "seat", None)
    started = [r for r in rows if isinstance(r.event, HandStarted)]
    assert all(r.hand == r.event.hand for r in started)  # type: ignore[attr-defined]
    in_hand = [r for r in rows if isinstance(r.event, ActionTaken)]
    assert in_hand and all(r.hand is not None for r in in_hand)
    assert all(r.hand is None for r in rows if isinstance(r.event, (PlayerSeated, TableState)))


def test_a_batch_recorder_writes_on_flush_the_same_log_in_one_transaction(store: EventStore) -> None:
    _played(store, "each")
    game = Game(no_limit_holdem(1, 2), seed=5, max_hands=3, keep_hands=None)
    recorder = store.record(game, "batched", clock=Clock(), batch=True)
    for name in ("ann", "bob", "cat"):
        game.sit_down(name, 200)
    game.start()
    game.play(calling_station, max_actions=5)
    assert len(store.events("batched")) == 1  # the table's state only: the rest waits for flush
    recorder.flush()
    assert [r.event for r in store.events("batched")[1:]] == game.events
    game.play(calling_station)
    recorder.flush()
    recorder.flush()  # nothing left: no-op
    each, batched = store.events("each"), store.events("batched")
    assert [(r.seq, r.hand, r.kind, r.seat, r.event, r.time) for r in batched] == \
        [(r.seq, r.hand, r.kind, r.seat, r.event, r.time) for r in each]
    assert [(h.hand, h.status, h.final_stacks) for h in store.hands("batched")] == \
        [(h.hand, h.status, h.final_stacks) for h in store.hands("each")]


class Calls:
    """An SQLite connection that lists the calls made into it (``execute`` and ``executemany``)."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self.connection = connection
        self.calls: list[str] = []

    def execute(self, sql: str, params: object = ()) -> object:
        self.calls.append(" ".join(sql.split()[:3]))
        return self.connection.execute(sql, params)  # type: ignore[arg-type]

    def executemany(self, sql: str, params: object) -> object:
        self.calls.append("many " + " ".join(sql.split()[:3]))
        return self.connection.executemany(sql, params)  # type: ignore[arg-type]


def test_a_batch_of_events_is_written_in_a_few_calls_into_the_database(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store:
        game = Game(no_limit_holdem(1, 2), seed=5, max_hands=2, keep_hands=None)
        recorder = store.record(game, "t", clock=Clock(), batch=True)
        for name in ("ann", "bob", "cat"):
            game.sit_down(name, 200)
        game.start()
        game.play(calling_station)
        database = store.database
        real = database.connection  # type: ignore[attr-defined]
        database.connection = calls = Calls(real)  # type: ignore[attr-defined]
        recorder.flush()
        database.connection = real  # type: ignore[attr-defined]
        written = store.events("t")
        assert len(written) > 40 and [r.event for r in written[1:]] == game.events
        # one executemany of events between the hands' rows (a hand's row is written before its first
        # event's): the seats, then for each hand its row, its players, its events, its end, its last event
        assert calls.calls == ["BEGIN IMMEDIATE", "many INSERT INTO events", *[
            "INSERT INTO hands", "many INSERT INTO hand_players", "many INSERT INTO events", "UPDATE hands SET",
            "INSERT INTO events"] * 2, "COMMIT"]


def test_a_write_refused_at_its_last_row_writes_none_of_its_rows(store: EventStore) -> None:
    _played(store, hands=1)
    before = store.events("t1")
    row = "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)"
    fresh = [(row, ("t1", len(before) + i, None, 1.0, "x", None, "{}")) for i in range(3)]
    with pytest.raises(StoreError, match="failed"):
        store.write([*fresh, (row, ("t1", 0, None, 1.0, "x", None, "{}"))])  # seq 0 is taken
    assert store.events("t1") == before


def test_hands_rows_record_players_stacks_and_times(store: EventStore) -> None:
    game = _played(store)
    hands = store.hands("t1")
    ended = [e for e in game.events if isinstance(e, HandEnded)]
    assert [h.hand for h in hands] == [e.hand for e in ended] == [1, 2, 3]
    for h, e in zip(hands, ended, strict=True):
        assert h.status == "complete" and h.final_stacks == e.stacks
        assert h.started < h.ended  # type: ignore[operator]
        start = next(x for x in game.events if isinstance(x, HandStarted) and x.hand == h.hand)
        assert h.seats == start.seats and h.start_stacks == start.stacks
        assert set(h.players) == {"ann", "bob", "cat"}


def test_queries_by_table_player_and_time(store: EventStore) -> None:
    clock = Clock()
    _played(store, "t1", clock=clock)
    middle = clock.now
    _played(store, "t2", clock=clock, names=("ann", "dan"))
    assert [t.table_id for t in store.tables()] == ["t1", "t2"]
    assert len(store.hands("t1")) == 3 and len(store.hands("t2")) == 3
    assert len(store.hands(player="ann")) == 6
    assert {h.table_id for h in store.hands(player="dan")} == {"t2"}
    assert store.hands(player="nobody") == []
    assert {h.table_id for h in store.hands(start=middle)} == {"t2"}
    assert {h.table_id for h in store.hands(end=middle)} == {"t1"}
    assert len(store.hands("t1", player="bob", start=0, end=middle)) == 3
    assert store.hands(start=datetime.fromtimestamp(middle, UTC)) == store.hands(start=middle)
    events = store.hand_events("t1", 2)
    assert isinstance(events[0], HandStarted) and isinstance(events[-1], HandEnded)
    assert events[0].hand == events[-1].hand == 2
    with pytest.raises(StoreError, match=r"No table 'nope'.*\['t1', 't2'\]"):
        store.table("nope")


def test_export_jsonl_writes_one_object_per_event(store: EventStore, tmp_path: Path) -> None:
    _played(store, "t1")
    _played(store, "t2")
    path = tmp_path / "out.jsonl"
    count = store.export_jsonl(path, "t1")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert count == len(lines) == len(store.events("t1"))
    first = json.loads(lines[0])
    assert set(first) == {"table_id", "seq", "hand", "time", "kind", "seat", "event"}
    dealt = next(json.loads(x) for x in lines if '"HoleCardsDealt"' in x)
    assert all(isinstance(c, str) and len(c) == 2 for c in dealt["event"]["cards"])
    buffer = io.StringIO()
    assert store.export_jsonl(buffer) == len(store.events("t1")) + len(store.events("t2"))


def test_phh_writer_fills_the_column_and_a_failing_writer_leaves_it_null(store: EventStore) -> None:
    seen: list[list[Event]] = []

    def writer(events: list[Event]) -> str:
        seen.append(events)
        return f"hand {events[0].hand}"  # type: ignore[attr-defined]

    game = Game(no_limit_holdem(1, 2), seed=2, max_hands=2, keep_hands=None)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    store.record(game, "t1", phh_writer=writer)
    game.start()
    game.play(calling_station)
    assert [h.phh for h in store.hands("t1")] == ["hand 1", "hand 2"]
    assert isinstance(seen[0][0], HandStarted) and isinstance(seen[0][-1], HandEnded)

    def broken(events: list[Event]) -> str:
        raise RuntimeError("no")

    game = Game(no_limit_holdem(1, 2), seed=2, max_hands=1, keep_hands=None)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    store.record(game, "t2", phh_writer=broken)
    game.start()
    with pytest.warns(UserWarning, match="PHH writer failed"):
        game.play(random_bot)
    assert [h.phh for h in store.hands("t2")] == [None]
    assert store.hands("t2")[0].status == "complete"


def test_the_default_writer_uses_the_phh_exporter_when_there_is_one(store: EventStore) -> None:
    export = pytest.importorskip("cardgame.phh.export")
    if not hasattr(export, "hand_to_phh"):
        pytest.skip("cardgame.phh.export has no hand_to_phh yet")
    from cardgame.phh import loads
    from cardgame.phh.replay import replay

    _played(store, "t1", hands=2)
    for h in store.hands("t1"):
        assert h.phh is not None
        [history] = loads(h.phh)
        assert replay(history).stacks == tuple(dict(h.final_stacks or ()).get(s, 0) for s in h.seats)


def test_recording_refuses_a_hand_in_progress_and_reused_hand_numbers(store: EventStore) -> None:
    game = Game(no_limit_holdem(1, 2), seed=1, keep_hands=None)
    game.sit_down("a", 100)
    game.sit_down("b", 100)
    game.start()
    with pytest.raises(StoreError, match="in progress; start recording between hands"):
        store.record(game, "t1")
    _played(store, "t2")
    with pytest.raises(StoreError, match=r"already has hands up to #3.*recover"):
        store.record(Game(no_limit_holdem(1, 2), keep_hands=None), "t2")
    with pytest.raises(StoreError, match="seats and buy-in limits"):
        store.record(Game(no_limit_holdem(1, 2), seats=9, keep_hands=None), "t2")


def test_a_failed_write_detaches_the_recorder_and_raises_a_store_error(store_location: str) -> None:
    s = EventStore(store_location)
    game = Game(no_limit_holdem(1, 2), seed=1, keep_hands=None)
    recorder = s.record(game, "t1")
    s.close()
    with pytest.raises(StoreError, match=r"Recording event 1 .* failed") as info:
        game.sit_down("a", 100)
    assert isinstance(info.value, CardgameError)
    assert recorder not in game.ctx.hooks
    game.sit_down("b", 100)  # the game goes on, unrecorded


def test_a_corrupt_payload_is_reported_with_its_row(store: EventStore) -> None:
    _played(store, "t1", hands=1)
    with store.transaction() as db:
        db.execute("UPDATE events SET payload = '{\"type\": \"Nope\"}' WHERE table_id = 't1' AND seq = 2")
    with pytest.raises(StoreError, match=r"table 't1', seq 2.*unknown record type 'Nope'"):
        store.events("t1")
    with store.transaction() as db:
        db.execute("UPDATE events SET payload = ? WHERE table_id = ? AND seq = ?", ("{broken", "t1", 2))
    with pytest.raises(StoreError, match=r"seq 2\) has a corrupt payload"):
        store.events("t1")
    with pytest.raises(StoreError, match="corrupt payload"):
        store.export_jsonl(io.StringIO(), "t1")


# --- replaying a log and voiding an interrupted hand ---------------------------------------------------


def test_replay_voids_an_interrupted_hand_and_cancels_a_leave_logged_at_its_end() -> None:
    log: list[Event] = [
        PlayerSeated(0, "a", 100), PlayerSeated(1, "b", 100), PlayerSeated(2, "c", 50),
        HandStarted(1, 0, (1, 2, 0), (100, 50, 100)),
        HandEnded(1, ((0, 90), (1, 110), (2, 50))),
        ChipsAdded(2, 25, 75),
        HandStarted(2, 1, (2, 0, 1), (75, 90, 110)),
        ActionTaken(2, "raise", 75, 75, True),
        PlayerLeft(0, "a", 0),  # a leave logged by close_hand just before the crash
    ]
    state = replay_log(log)
    assert state.interrupted == log[6]
    assert [(s.seat, s.name, s.stack) for s in state.seats] == [(0, "a", 90), (1, "b", 110), (2, "c", 75)]
    assert state.button == 0 and state.last_hand == 2  # the button of the last finished hand


def test_replay_rejects_a_log_that_contradicts_itself() -> None:
    with pytest.raises(StoreError, match="seat 3, where nobody is seated"):
        replay_log([PlayerSeated(0, "a", 10), ChipsAdded(3, 5, 15)])


def test_recover_after_a_clean_stop_and_twice_in_a_row(store: EventStore) -> None:
    game = _played(store, "t1")
    again = recover(store, "t1", no_limit_holdem(1, 2), seed=3)
    assert [(p.seat, p.name, p.stack) for p in again.table.players()] == \
        [(p.seat, p.name, p.stack) for p in game.table.players()]
    assert again.table.button == game.table.button and again.ctx.hands_played == 3
    assert store.hands("t1", status="voided") == []
    assert len(store.events("t1")) == len(game.events) + 1  # the TableState, and nothing written since
    with pytest.raises(StoreError, match="No table"):
        recover(store, "t9", no_limit_holdem(1, 2))


# --- a real crash: SIGKILL a recording process mid-hand -------------------------------------------------

CHILD = textwrap.dedent(
    """
    import json, sys, time
    from cardgame.play.bots import calling_station, random_bot
    from cardgame.model.events import ActionTaken, HandEnded
    from cardgame.play.game import Game
    from cardgame.store import EventStore
    from variants import no_limit_holdem

    path, kill_after = sys.argv[1], int(sys.argv[2])
    store = EventStore(path)
    game = Game(no_limit_holdem(1, 2), seats=6, seed=20240601, min_buy_in=50, max_buy_in=400, keep_hands=None)
    recorder = store.record(game, "t1")  # hooked first: an event is committed before others see it
    count = 0

    def say(*parts):
        print(*parts, flush=True)

    def watch(event):
        global count
        count += 1
        if isinstance(event, HandEnded):
            say("ENDED", json.dumps([event.hand, event.stacks]))
        if count >= kill_after and isinstance(event, ActionTaken):
            say("KILL", recorder.next_seq)
            time.sleep(60)  # the parent kills us here, mid-hand

    game.hook(watch)  # inside the change: the kill comes right after this action is recorded
    for i, buy_in in enumerate((100, 150, 200, 250)):
        game.sit_down(f"p{i}", buy_in, i)
        say("BUYIN", buy_in)
    game.start()
    rounds = 0
    left = False
    while True:
        game.play(random_bot, max_actions=3)
        rounds += 1
        hand = game.hand
        for p in list(game.table.players()):
            if p.stack == 0 and (hand is None or p.seat not in hand.by_seat):
                game.top_up(p.seat, 100)
                say("BUYIN", 100)
                game.sit_in(p.seat)
        if rounds == 8:
            game.sit_down("late", 120, 4)  # mid-hand: plays from the next hand
            say("BUYIN", 120)
        if rounds >= 12 and not left and game.hand is not None and 1 in game.hand.by_seat:
            game.leave(1)  # folds now, leaves when the hand ends
            left = True
        if game.to_act is None:
            break
    say("DONE")
    """
)


def _start_child(tmp_path: Path, db: str, kill_after: int) -> tuple[subprocess.Popen[str], queue.Queue[str]]:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, str(script), db, str(kill_after)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, cwd=REPO)
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))
        lines.put("EOF")

    threading.Thread(target=pump, daemon=True).start()
    return proc, lines


def test_killing_the_recording_process_mid_hand_loses_nothing_and_recovery_voids_the_hand(
        tmp_path: Path, store_location: str) -> None:
    db = store_location
    proc, lines = _start_child(tmp_path, db, kill_after=260)
    out: list[str] = []
    deadline = time.monotonic() + 8
    try:
        while True:
            line = lines.get(timeout=max(0.1, deadline - time.monotonic()))
            out.append(line)
            if line.startswith("KILL") or line in ("EOF", "DONE"):
                break
        assert out[-1].startswith("KILL"), f"the child ended without reaching the kill point: {out[-3:]}"
        os.kill(proc.pid, signal.SIGKILL)
        assert proc.wait(timeout=5) == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stdout is not None:
            proc.stdout.close()
        if proc.stderr is not None:
            proc.stderr.close()
    committed = int(out[-1].split()[1])
    buy_ins = sum(int(x.split()[1]) for x in out if x.startswith("BUYIN"))
    ended = {json.loads(x.split(" ", 1)[1])[0]: json.loads(x.split(" ", 1)[1])[1] for x in out if x.startswith("ENDED")}
    assert len(ended) >= 5, "enough hands should finish before the kill"

    if not db.startswith("postgresql://"):
        with sqlite3.connect(db) as raw:  # the file is sound and the WAL is replayed on opening
            assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    store = EventStore(db)
    try:
        rows = store.events("t1")  # every payload decodes: no partial event
        assert [r.seq for r in rows] == list(range(committed))  # nothing lost, nothing half-written
        events = [r.event for r in rows]
        assert isinstance(events[-1], ActionTaken)
        assert any(isinstance(e, PlayerLeft) for e in events) and any(isinstance(e, ChipsAdded) for e in events)

        hands = store.hands("t1")
        complete = {h.hand: h for h in hands if h.status == "complete"}
        assert {n: [list(p) for p in h.final_stacks or ()] for n, h in complete.items()} == ended
        [playing] = [h for h in hands if h.status == "playing"]
        start = next(e for e in reversed(events) if isinstance(e, HandStarted))
        assert playing.hand == start.hand == max(ended) + 1

        # chips per player as the log has them: the last HandEnded, then seating events, then the void
        expected: dict[int, int] = {}
        for e in events:
            if isinstance(e, (PlayerSeated, ChipsAdded)):
                expected[e.seat] = e.stack
            elif isinstance(e, PlayerLeft):
                expected.pop(e.seat)
            elif isinstance(e, HandEnded):
                expected.update(dict(e.stacks))
        expected.update(zip(start.seats, start.stacks, strict=True))
        cashed_out = sum(e.cashed_out for e in events if isinstance(e, PlayerLeft))

        game = recover(store, "t1", no_limit_holdem(1, 2), seed=1, max_hands=start.hand + 2)
        assert {p.seat: p.stack for p in game.table.players()} == expected
        assert game.table.total_chips() == buy_ins - cashed_out
        assert game.ctx.hands_played == start.hand  # the voided number is not reused
        [voided] = store.hands("t1", status="voided")
        assert voided.hand == start.hand
        assert isinstance(store.events("t1")[-1].event, HandVoided)

        # the recovered table continues the same log; a second recovery agrees with the game
        store.record(game, "t1")
        game.start()
        game.play(random_bot)
        assert game.status_name == "exited"
        numbers = [h.hand for h in store.hands("t1")]
        assert numbers == sorted(numbers) and numbers[-2:] == [start.hand + 1, start.hand + 2]
        again = recover(store, "t1", no_limit_holdem(1, 2))
        assert [(p.seat, p.name, p.stack) for p in again.table.players()] == \
            [(p.seat, p.name, p.stack) for p in game.table.players()]
        assert again.table.total_chips() == buy_ins - cashed_out
    finally:
        store.close()


def test_recover_takes_a_seed_the_library_drew(store: EventStore) -> None:
    """A table shuffling from a 128-bit seed (``new_seed``) recovers with one (refused before: 18 digits)."""
    from cardgame.model.rng import MAX_SEED

    _played(store, "t1")
    again = recover(store, "t1", no_limit_holdem(1, 2), seed=MAX_SEED)
    assert again.seed == MAX_SEED
    with pytest.raises(StoreError, match=r"below 2\*\*128"):
        recover(store, "t1", no_limit_holdem(1, 2), seed=MAX_SEED + 1)


def test_an_event_a_hook_emits_at_a_hands_end_is_logged_between_hands_and_the_table_recovers(
        store: EventStore) -> None:
    """A hook that seats a player when a hand ends (as a tournament moving players does): the seat is
    logged between hands, not as part of the hand that ended (which made the log unrecoverable:
    "its hand is 1 but the log has no hand in progress there")."""
    game = Game(no_limit_holdem(1, 2), seats=4, seed=3, max_hands=2, keep_hands=None)
    store.record(game, "t1", clock=Clock())
    game.sit_down("ann", 200, 0)
    game.sit_down("bob", 200, 1)

    def seat_cat(event: object) -> None:
        if isinstance(event, HandEnded) and event.hand == 1:
            game.sit_down("cat", 150, 2)

    game.hook(seat_cat)
    game.start()
    game.play(calling_station)
    seated = [r for r in store.events("t1") if isinstance(r.event, PlayerSeated) and r.event.name == "cat"]
    assert [r.hand for r in seated] == [None]
    again = recover(store, "t1", no_limit_holdem(1, 2))
    assert [(p.name, p.stack) for p in again.table.players()] == [(p.name, p.stack) for p in game.table.players()]


def test_a_failed_game_started_again_is_recorded_with_its_hand_void_and_recovers(store: EventStore) -> None:
    """Game.start after a failure voids the hand: the store marks it voided, a player who left during
    it leaves between hands with the stack they started it with, and the log recovers to the game."""
    game = Game(no_limit_holdem(1, 2), seats=3, seed=4, keep_hands=None)
    store.record(game, "t1", clock=Clock())
    for i, name in enumerate(("ann", "bob", "cat")):
        game.sit_down(name, 100 + 10 * i, i)
    armed = failing_hook(game)
    game.start()
    first = game.to_act
    assert first is not None
    game.act(first, "call")
    game.leave(first)
    armed[0] = True
    with pytest.raises(CardgameError, match="a hook failed"):
        game.act(game.to_act, "call")  # type: ignore[arg-type]
    game.start()
    assert [h.status for h in store.hands("t1")] == ["voided", "playing"]
    left = [r for r in store.events("t1") if isinstance(r.event, PlayerLeft)]
    assert [(r.hand, r.event.cashed_out) for r in left] == [(None, 100 + 10 * first)]
    again = recover(store, "t1", no_limit_holdem(1, 2))
    assert sorted((p.name, p.stack) for p in again.table.players()) == sorted(
        (p.name, p.stack + (hp.contributed if (hp := game.hand.by_seat.get(p.seat)) else 0))  # type: ignore[union-attr]
        for p in game.table.players())


def test_a_lease_is_checked_at_every_write_and_rewritten_only_when_a_sixth_of_it_has_run_out(store: EventStore) -> None:
    from cardgame.store.lease import Lease, LeaseLost

    now = [1000.0]
    lease = Lease(store, "n", ttl=60, clock=lambda: now[0])
    lease.acquire()

    def expires() -> float:
        return float(store.query("SELECT expires FROM store_leases WHERE name = 'n'")[0][0])

    for step, expected in [(9.0, 1060.0), (2.0, 1071.0), (5.0, 1071.0)]:  # renewed after 10 s of the 60
        now[0] += step
        with store.transaction() as db:
            lease.renew(db)
        assert expires() == expected
    with store.transaction() as db:
        db.execute("UPDATE store_leases SET holder = 'another'")
    with pytest.raises(LeaseLost, match="no longer holds"), store.transaction() as db:
        db.execute("DELETE FROM store_leases")  # rolled back with the failed renewal
        lease.renew(db)
    assert store.query("SELECT holder FROM store_leases") == [("another",)]


def test_a_commit_that_fails_is_rolled_back_and_the_next_write_works(tmp_path: Path) -> None:
    with EventStore(tmp_path / "s.db") as store:
        with store.transaction() as db:  # a constraint checked at COMMIT: a failed commit leaves SQLite's open
            db.execute("CREATE TABLE parent (id INTEGER PRIMARY KEY)")
            db.execute("CREATE TABLE child (id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)")
        with pytest.raises(StoreError, match="FOREIGN KEY"):
            store.write([("INSERT INTO child VALUES (?)", (1,))])
        store.write([("INSERT INTO parent VALUES (?)", (1,)), ("INSERT INTO child VALUES (?)", (1,))])
        assert store.query("SELECT id FROM child") == [(1,)]
