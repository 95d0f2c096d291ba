"""The event store on PostgreSQL: the DSN, the schema in PostgreSQL's dialect, its errors, and
several stores (processes) sharing one database. The store's other tests run on PostgreSQL too
(``test_store.py`` through ``conftest.py``); the tests here that take ``store`` or
``store_location`` run on both backends, the others need the server of :mod:`tests.pg`."""

from __future__ import annotations

import io
import sqlite3
import sys
import threading
from pathlib import Path

import pytest

from cardgame.model.errors import CardgameError
from cardgame.model.events import HandEnded, HandStarted
from cardgame.play.bots import calling_station, random_bot
from cardgame.play.game import Game
from cardgame.store import EventStore, StoreError, TableState, recover
from cardgame.store.postgres import PostgresDatabase, is_dsn, redact, translate
from cardgame.store.schema import SqliteDatabase
from tests.pg import PostgresServer, free_port
from variants import no_limit_holdem


def _game(seed: int, hands: int, names: tuple[str, ...] = ("ann", "bob", "cat")) -> Game:
    game = Game(no_limit_holdem(1, 2), seed=seed, max_hands=hands, keep_hands=None)
    for name in names:
        game.sit_down(name, 200)
    return game


def _stacks(game: Game) -> list[tuple[int, str, int]]:
    return [(p.seat, p.name, p.stack) for p in game.table.players()]


def _check_log(store: EventStore, table_id: str, game: Game) -> None:
    """The log of ``table_id`` is whole (seq 0, 1, 2, ...; every hand complete) and leaves ``game``'s seats."""
    rows = store.events(table_id)
    assert [r.seq for r in rows] == list(range(len(rows)))
    hands = store.hands(table_id)
    assert [h.hand for h in hands] == list(range(1, game.ctx.hands_played + 1))
    assert all(h.status == "complete" for h in hands)
    assert _stacks(recover(store, table_id, no_limit_holdem(1, 2))) == _stacks(game)


# --- the seam: placeholders, DSNs, the optional psycopg -------------------------------------------------


def test_placeholders_become_psycopg_ones_outside_quotes_and_comments() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c = ?") == "SELECT a FROM t WHERE b = %s AND c = %s"
    assert translate("SELECT '?', \"?\" FROM t WHERE x LIKE 'a%' AND y = ?") == \
        "SELECT '?', \"?\" FROM t WHERE x LIKE 'a%%' AND y = %s"
    assert translate("SELECT 'it''s ?' -- a ? here\n, 5 % 2 /* ? */ WHERE z = ?") == \
        "SELECT 'it''s ?' -- a ? here\n, 5 %% 2 /* ? */ WHERE z = %s"


def test_a_dsn_opens_postgresql_and_anything_else_a_file(tmp_path: Path) -> None:
    assert is_dsn("postgresql://u@h/db") and is_dsn("postgres://u@h/db")
    assert not is_dsn(str(tmp_path / "postgresql.db")) and not is_dsn("postgresql.db")
    with EventStore(tmp_path / "s.db") as s:
        assert isinstance(s.database, SqliteDatabase)


def test_passwords_never_show() -> None:
    assert redact("postgresql://ann:s3cret@db.example:5432/cards") == "postgresql://ann:***@db.example:5432/cards"
    assert redact("postgres://db/cards?user=ann&password=s3cret&sslmode=require") == \
        "postgres://db/cards?user=ann&password=***&sslmode=require"
    assert redact("postgresql://ann@127.0.0.1/cards") == "postgresql://ann@127.0.0.1/cards"


def test_without_psycopg_a_dsn_says_which_extra_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg now raises ImportError
    with pytest.raises(StoreError, match=r"needs psycopg 3.*pip install cardgame\[postgres\]") as info:
        EventStore("postgresql://ann:s3cret@127.0.0.1:1/cards")
    assert "s3cret" not in str(info.value)


# --- a PostgreSQL store: schema, settings, errors --------------------------------------------------------


def _columns_sqlite(path: Path, table: str) -> list[str]:
    with sqlite3.connect(path) as db:
        return [r[1] for r in db.execute(f"PRAGMA table_info({table})")]


def test_a_new_database_gets_the_schema_in_postgresqls_dialect(postgres_dsn: str, tmp_path: Path) -> None:
    EventStore(tmp_path / "s.db").close()
    with EventStore(postgres_dsn) as s:
        assert isinstance(s.database, PostgresDatabase)
        assert s.query("SELECT schema_version FROM store_meta") == [(1,)]
        for table in ("tables", "events", "hands", "hand_players"):  # the same columns in the same order
            rows = s.query("SELECT column_name, data_type FROM information_schema.columns "
                           "WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position",
                           (table,))
            assert [name for name, _ in rows] == _columns_sqlite(tmp_path / "s.db", table)
            types = dict(rows)
            assert all(types[c] == "double precision" for c in ("created", "time", "started", "ended") if c in types)
            assert all(types[c] == "bigint" for c in ("seq", "hand", "seat", "seat_count", "min_buy_in") if c in types)
        assert s.query("SHOW synchronous_commit") == [("on",)]
        assert s.query("SHOW lock_timeout") == [("10s",)]
        game = _game(1, 2)
        s.record(game, "t1")
        game.start()
        game.play(calling_station)
    with EventStore(postgres_dsn.replace("postgresql://", "postgres://"), synchronous="NORMAL", timeout=2.5) as s:
        assert s.query("SHOW synchronous_commit") == [("off",)]
        assert s.query("SHOW lock_timeout") == [("2500ms",)]
        _check_log(s, "t1", game)  # reopened: the same store


def test_a_server_that_cannot_be_reached_or_refuses_the_login_raises_store_errors(
        postgres_server: PostgresServer, postgres_dsn: str) -> None:
    down = f"postgresql://postgres:{postgres_server.password}@127.0.0.1:{free_port()}/cards"
    with pytest.raises(StoreError, match=r"Cannot connect to the event store 'postgresql://postgres:\*\*\*@.*refused"):
        EventStore(down)
    with pytest.raises(StoreError, match=r"Cannot connect.*invalid"):
        EventStore("postgresql://postgres@127.0.0.1:notaport/cards")
    wrong = postgres_dsn.replace(postgres_server.password, "not-the-password")
    with pytest.raises(StoreError, match="password authentication failed") as info:
        EventStore(wrong)
    assert "not-the-password" not in str(info.value)
    with pytest.raises(StoreError, match='database "nowhere" does not exist'):
        EventStore(postgres_server.dsn("nowhere"))
    with pytest.raises(StoreError, match="timeout must be a positive number"):
        EventStore(postgres_dsn, timeout=0)


def test_databases_that_are_not_stores_of_this_version_are_refused(postgres_server: PostgresServer) -> None:
    other = postgres_server.create_database()
    postgres_server.execute("CREATE TABLE players (name TEXT)", other)
    with pytest.raises(StoreError, match=r"a PostgreSQL database but not an event store \(it has tables, players"):
        EventStore(other)
    newer = postgres_server.create_database()
    EventStore(newer).close()
    postgres_server.execute("UPDATE store_meta SET schema_version = 7", newer)
    with pytest.raises(StoreError, match="has event store schema version 7; this library reads version 1"):
        EventStore(newer)
    postgres_server.execute("INSERT INTO store_meta VALUES (1)", newer)
    with pytest.raises(StoreError, match="store_meta has 2 rows, not one"):
        EventStore(newer)
    with EventStore(postgres_server.create_database()) as s, \
            pytest.raises(StoreError, match=r"table id must be non-empty text .* without NUL"):
        s.record(_game(1, 1), "a\x00b")


def test_a_lost_connection_detaches_the_recorder_then_reconnects_and_recovery_returns_every_chip(
        postgres_server: PostgresServer, postgres_dsn: str) -> None:
    store = EventStore(postgres_dsn)
    game = _game(3, 10)
    ended: list[HandEnded] = []
    game.subscribe(lambda e: ended.append(e) if isinstance(e, HandEnded) else None)
    store.record(game, "t1")
    game.start()
    while len(ended) < 5:
        game.play(calling_station, max_actions=1)
    game.play(calling_station, max_actions=2)  # hand 6 is under way
    assert game.hand is not None and game.hand.number == 6
    [(pid,)] = store.query("SELECT pg_backend_pid()")
    postgres_server.execute(f"SELECT pg_terminate_backend({int(pid)})")  # the server drops the connection
    with pytest.raises(CardgameError, match=r"Recording event \d+ .*failed: Writing to the event store "
                                            r"'postgresql://postgres:\*\*\*@.*recover the table"):
        game.play(random_bot, max_actions=1)
    assert postgres_server.password not in str(store.path)
    assert [t.table_id for t in store.tables()] == ["t1"]  # the next use connects again
    [(again_pid,)] = store.query("SELECT pg_backend_pid()")
    assert again_pid != pid
    store.close()
    with EventStore(postgres_dsn) as again:
        [cut] = again.hands("t1", status="playing")
        started = next(e.event for e in again.events("t1", hand=cut.hand) if isinstance(e.event, HandStarted))
        back = recover(again, "t1", no_limit_holdem(1, 2))
        assert {p.seat: p.stack for p in back.table.players()} == dict(zip(started.seats, started.stacks, strict=True))
        assert back.table.total_chips() == 600
        assert [h.status for h in again.hands("t1")] == ["complete"] * 5 + ["voided"]


# --- other modules' tables in the store's database (both backends) ----------------------------------------


def test_other_modules_keep_their_own_tables_beside_the_store(store_location: str) -> None:
    ddl = ("CREATE TABLE IF NOT EXISTS server_tables (table_id TEXT PRIMARY KEY, config TEXT NOT NULL, "
           "created DOUBLE PRECISION NOT NULL, hands BIGINT NOT NULL DEFAULT 0)")  # the portable types
    with EventStore(store_location) as store:
        with store.transaction() as db:
            db.execute(ddl)
            db.execute("INSERT INTO server_tables (table_id, config, created) VALUES (?, ?, ?)",
                       ("t1", "{}", 1722500000.125))
            db.executemany("INSERT INTO server_tables VALUES (?, ?, ?, ?)", [("t2", "50% off", 2.0, 3),
                                                                              ("t3", "a '?'", 2.5, 4)])
        with pytest.raises(StoreError, match="Writing to the event store"), store.transaction() as db:  # all or none
            db.execute("UPDATE server_tables SET hands = hands + 1")
            db.execute("INSERT INTO server_tables (table_id, config, created) VALUES (?, ?, ?)", ("t1", "", 0))
        game = _game(2, 1)
        store.record(game, "t1")
        game.start()
        game.play(calling_station)
    with EventStore(store_location) as store:  # reopened with the extra table in it
        with store.transaction() as db:
            db.execute(ddl)  # the module's own "create if missing" at start-up
            upsert = ("INSERT INTO server_tables (table_id, config, created, hands) VALUES (?, ?, ?, ?) "
                      "ON CONFLICT (table_id) DO UPDATE SET hands = server_tables.hands + excluded.hands")
            db.execute(upsert, ("t2", "", 0.0, 10))
            db.execute(upsert, ("t4", "new", 4.0, 1))
            db.execute("DELETE FROM server_tables WHERE table_id = ?", ("t4",))
        assert store.query("SELECT table_id, config, created, hands FROM server_tables WHERE config LIKE ? "
                           "OR config LIKE '%''?''' ORDER BY table_id", ("50%",)) == [("t2", "50% off", 2.0, 13),
                                                                                     ("t3", "a '?'", 2.5, 4)]
        assert store.query("SELECT count(*) FROM server_tables") == [(3,)]
        assert store.query("SELECT created FROM server_tables WHERE table_id = ?", ("t1",)) == [(1722500000.125,)]
        _check_log(store, "t1", game)


# --- several stores on one database at once (both backends) ------------------------------------------------


def test_two_stores_recording_different_tables_interleaved_both_succeed(store_location: str) -> None:
    first, second = EventStore(store_location), EventStore(store_location)
    try:
        games = {"t1": _game(10, 4), "t2": _game(11, 4, ("dan", "eve"))}  # calling stations: nobody busts
        for (table_id, game), store in zip(games.items(), (first, second), strict=True):
            store.record(game, table_id)
            game.start()
        while any(g.to_act is not None for g in games.values()):  # one decision each, in turn
            for game in games.values():
                game.play(calling_station, max_actions=1)
        for table_id, game in games.items():
            assert game.ctx.hands_played == 4
            _check_log(first, table_id, game)
            _check_log(second, table_id, game)
        out = io.StringIO()
        assert first.export_jsonl(out) == len(first.events("t1")) + len(first.events("t2"))
    finally:
        first.close()
        second.close()


def test_stores_on_threads_record_their_tables_at_the_same_time(store_location: str) -> None:
    EventStore(store_location).close()
    start = threading.Barrier(3)
    games: dict[str, Game] = {}
    failures: list[BaseException] = []

    def run(table_id: str, seed: int) -> None:
        try:
            with EventStore(store_location) as store:
                game = games[table_id] = _game(seed, 8)
                store.record(game, table_id)
                start.wait(timeout=30)
                game.start()
                game.play(random_bot)  # to the end, or until a bust leaves too few players
                assert game.hand is None
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=run, args=(f"t{i}", i)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures, failures
    with EventStore(store_location) as store:
        assert sorted(t.table_id for t in store.tables()) == ["t0", "t1", "t2"]
        for table_id, game in games.items():
            _check_log(store, table_id, game)


def test_a_second_writer_on_the_same_table_is_refused_and_the_log_stays_whole(store_location: str) -> None:
    first, second = EventStore(store_location), EventStore(store_location)
    try:
        game = _game(5, 2)
        first.record(game, "t1")
        game.start()
        game.play(calling_station)  # two hands
        # both now think they drive t1 (a deployment error): each recovered it and records it
        rivals = [recover(s, "t1", no_limit_holdem(1, 2), seed=6, max_hands=3) for s in (first, second)]
        for store, rival in zip((first, second), rivals, strict=True):
            store.record(rival, "t1")
        with pytest.raises(CardgameError, match=r"Recording event \d+ \(hand started\) of table 't1' failed"):
            rivals[0].start()  # its next row's seq was taken by the other's first row
        rivals[1].start()
        rivals[1].play(calling_station)
        assert rivals[1].ctx.hands_played == 3
        _check_log(first, "t1", rivals[1])
    finally:
        first.close()
        second.close()


def test_stores_opened_at_once_on_an_empty_database_create_the_schema_once(store_location: str) -> None:
    start = threading.Barrier(4)
    opened: list[list[object]] = []
    failures: list[BaseException] = []

    def open_store() -> None:
        try:
            start.wait(timeout=30)
            with EventStore(store_location) as store:
                opened.append(list(store.tables()))
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=open_store) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not failures, failures
    assert opened == [[]] * 4


def test_hand_ended_rows_read_back_the_same_on_both_backends(store_location: str) -> None:
    with EventStore(store_location) as store:
        game = _game(7, 2)
        store.record(game, "t1", clock=iter(float(t) + 0.25 for t in range(10**6)).__next__)
        game.start()
        game.play(calling_station)
        ends = [e.event for e in store.events("t1") if isinstance(e.event, HandEnded)]
        assert [h.final_stacks for h in store.hands("t1")] == [e.stacks for e in ends]
        assert [r.time for r in store.events("t1")][:3] == [1.25, 2.25, 3.25]  # doubles, not 4-byte reals
        assert store.table("t1").created == 0.25


def test_text_the_database_cannot_hold_fails_the_write_with_a_store_error(store: EventStore) -> None:
    game = Game(no_limit_holdem(1, 2), seed=1, keep_hands=None)
    recorder = store.record(game, "t1")
    with pytest.raises(StoreError, match=r"Recording event 1 \(seated\) of table 't1' failed: Writing to the event"):
        game.sit_down("lone \ud800 surrogate", 100)  # no UTF-8 for it
    assert recorder not in game.ctx.hooks
    assert [type(e.event) for e in store.events("t1")] == [TableState]
