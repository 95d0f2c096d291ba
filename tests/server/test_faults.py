"""Faults done to a real ``cardgame serve`` process: its SQLite file locked (in play and at the start), its
PostgreSQL server killed, the process killed under load, a table's log corrupted, a twin of the same name,
SIGTERM mid-hand (within the drain deadline and past it). After each, every event a player was shown is in
the store and the chips add up: no hand is played unrecorded, no chip made or lost."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets.sync.client")

from cardgame.store import EventStore
from tests.pg import PostgresServer
from tests.server.faults import BUY_IN, Player, Serve, check_store, players, wait_for
from tests.server.test_events import _hand_for_hand_rounds, _places


def _kinds(p: Player, kind: str) -> list[str]:
    return [m["kind"] for _, m in p.notices if m["kind"] == kind]


def test_a_locked_store_pauses_the_table_tells_the_players_and_play_resumes_where_it_stopped(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            wait_for(lambda: ann.hands() >= 3, "three hands")
            lock = sqlite3.connect(db, isolation_level=None, timeout=10)
            lock.execute("BEGIN EXCLUSIVE")  # another process holds the file
            locked_at = time.monotonic()
            wait_for(lambda: _kinds(ann, "paused") and _kinds(bob, "paused"), "the paused notice", timeout=10)
            assert "cannot record" in ann.notices[-1][1]["text"]
            started = time.monotonic()
            assert isinstance(server.get("/api/tables", timeout=2), list)  # the event loop is not blocked
            assert time.monotonic() - started < 1.5
            shown = max(ann.seen)
            time.sleep(3)
            assert max(ann.seen) == shown and max(bob.seen) == shown  # nothing dealt or shown while paused
            lock.execute("ROLLBACK")
            lock.close()
            wait_for(lambda: _kinds(ann, "resumed") and _kinds(bob, "resumed"), "the resumed notice", timeout=15)
            hands = ann.hands()
            wait_for(lambda: ann.hands() >= hands + 3, "three more hands")
            assert time.monotonic() - locked_at < 40
        server.term()
        server.proc.wait(timeout=40)
        check_store(db, table, [ann, bob], 2 * BUY_IN)
    finally:
        server.kill()


def test_a_seat_taken_while_the_store_is_locked_is_one_write_seat_and_token_together(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        table = server.create()
        lock = sqlite3.connect(db, isolation_level=None, timeout=10)
        lock.execute("BEGIN EXCLUSIVE")
        ann = Player(server.port, table, "ann")
        ann.start()
        time.sleep(3)
        assert ann.seat is None  # not seated before the seat and its token are recorded
        lock.execute("ROLLBACK")
        lock.close()
        wait_for(lambda: ann.seat is not None, "ann seated", timeout=15)
        ann.stop()
        server.kill()  # no shutdown: what the store holds is what a restart has
        server = Serve(db, tmp_path, port=server.port)
        again = Player(server.port, table, "ann", token=ann.token)
        again.start()
        wait_for(lambda: again.seat == ann.seat, "ann's seat resumed with her token")
        again.stop()
    finally:
        server.kill()


def test_a_killed_server_under_load_restarts_with_every_shown_event_recorded(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        tables = [server.create() for _ in range(3)]
        seated = []
        for table in tables:
            those = [Player(server.port, table, n) for n in ("ann", "bob")]
            for p in those:
                p.start()
            seated.append(those)
        wait_for(lambda: all(p.hands() >= 5 for those in seated for p in those), "five hands at each table")
        server.kill()  # SIGKILL under load
        for those in seated:
            for p in those:
                p.stop()
        server = Serve(db, tmp_path, port=server.port)
        voided = []
        for table, those in zip(tables, seated, strict=True):
            check_store(db, table, those, 2 * BUY_IN)
            back = Player(server.port, table, "ann", token=those[0].token)
            back.start()
            wait_for(lambda back=back: back.seat is not None, "ann back")  # type: ignore[misc]
            back.stop()
            voided += [m["text"] for _, m in back.notices if m["kind"] == "voided"]
        assert voided and "voided when the server restarted" in voided[0]  # told, not vanished
    finally:
        server.kill()


def test_a_table_that_cannot_be_recovered_is_set_aside_and_the_others_start(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        tables = [server.create() for _ in range(4)]
        tokens = []
        for table in tables:
            with players(server.port, table, "ann", "bob") as (ann, bob):
                wait_for(lambda ann=ann: ann.hands() >= 1, "a hand")  # type: ignore[misc]
            tokens.append((ann.token, bob.token))
        server.term()
        server.proc.wait(timeout=40)
        good, edited, cut, bad_config = tables
        with EventStore(db) as store, store.transaction() as sql:
            sql.execute("UPDATE events SET payload = '{broken' WHERE table_id = ? AND seq = 2", (edited,))
            sql.execute("DELETE FROM events WHERE table_id = ? AND seq = 3", (cut,))  # a log with a hole
            sql.execute("UPDATE server_tables SET config = 'nope' WHERE table_id = ?", (bad_config,))
        server = Serve(db, tmp_path, port=server.port)
        listed = {t["id"]: t for t in server.get("/api/tables")}
        assert listed[good]["status"] != "unavailable" and listed[good]["hands"] >= 1
        for table in (edited, cut, bad_config):
            assert listed[table]["status"] == "unavailable" and listed[table]["error"]
        output = server.output()
        assert "set aside" in output and "Traceback" not in output
        back = [Player(server.port, good, name, token=token) for name, token in zip("ab", tokens[0], strict=True)]
        for p in back:
            p.start()
        wait_for(lambda: back[0].hands() >= 1, "a hand at the good table")
        for p in back:
            p.stop()
    finally:
        server.kill()


def test_a_truncated_store_file_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    server = Serve(str(db), tmp_path)
    server.create()
    server.term()
    server.proc.wait(timeout=40)
    with open(db, "r+b") as f:
        f.truncate(5000)
    server = Serve(str(db), tmp_path, wait=False)
    assert server.proc.wait(timeout=60) == 1
    output = server.output()
    assert "cannot start" in output and "Traceback" not in output


def test_a_twin_with_the_same_name_refuses_to_start_while_the_first_plays_on(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path, "--name", "http://cards.example")
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            wait_for(lambda: ann.hands() >= 2, "two hands")
            twin = Serve(db, tmp_path, "--name", "http://cards.example", wait=False)
            assert twin.proc.wait(timeout=60) == 1
            assert "held by another process" in twin.output() and "Traceback" not in twin.output()
            hands = ann.hands()
            wait_for(lambda: ann.hands() >= hands + 2, "two more hands")
            assert not [m for _, m in ann.notices if m["kind"] == "voided"]
        server.term()
        server.proc.wait(timeout=40)
        store = check_store(db, table, [ann, bob], 2 * BUY_IN)
        assert not store.hands(table, status="voided")
        other = Serve(db, tmp_path, "--name", "http://cards.example")  # the name is free again
        other.kill()
    finally:
        server.kill()


def _term_mid_hand(server: Serve, ann: Player, bob: Player) -> int:
    """After two hands, the players stop answering (a hand is in play) and the server gets SIGTERM; returns
    the number of the hand in play once the players are told the server is shutting down."""
    wait_for(lambda: ann.hands() >= 2, "two hands")
    ann.playing.clear()
    bob.playing.clear()  # the next decision waits: a hand is in play
    time.sleep(0.5)
    in_play: int = max(e["hand"] for k, e in ann.seen.values() if k == "hand started")
    server.term()
    wait_for(lambda: _kinds(ann, "paused"), "the shutting-down notice", timeout=10)
    return in_play


def test_sigterm_finishes_the_hand_in_play_deals_no_new_one_and_exits(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path, "--drain", "20")
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            in_play = _term_mid_hand(server, ann, bob)
            ann.playing.set()
            bob.playing.set()
            server.proc.wait(timeout=30)
        store = check_store(db, table, [ann, bob], 2 * BUY_IN)
        hands = store.hands(table)
        assert hands[-1].hand == in_play and hands[-1].status == "complete"  # finished; none dealt after it
        assert not store.hands(table, status="voided")
    finally:
        server.kill()


def test_a_hand_that_outlasts_the_drain_deadline_is_left_recorded_and_voided_at_the_restart(tmp_path: Path) -> None:
    """SIGTERM with a hand that cannot finish in time (nobody acts; ``--drain 2``): the server exits at the
    deadline without dealing on, every event shown is recorded, and the restarted server voids that hand,
    every player back to the stack they began it with, and tells them so."""
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path, "--drain", "2")
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            in_play = _term_mid_hand(server, ann, bob)  # and nobody answers: the hand waits past the deadline
            server.proc.wait(timeout=20)  # the deadline, not the action clock (30 s)
        assert all(h.hand < in_play for h in EventStore(db).hands(table, status="complete"))  # none finished after
        check_store(db, table, [ann, bob], 2 * BUY_IN)
        server = Serve(db, tmp_path, port=server.port)
        voided = EventStore(db).hands(table, status="voided")
        assert [h.hand for h in voided] == [in_play]
        back = Player(server.port, table, "ann", token=ann.token)
        back.start()
        wait_for(lambda: back.seat is not None, "ann back")
        back.stop()
        assert any(m["kind"] == "voided" for _, m in back.notices)  # told, not vanished
        check_store(db, table, [], 2 * BUY_IN)
        assert "Traceback" not in server.output()
    finally:
        server.kill()


def test_a_store_locked_when_the_server_starts_is_waited_for_and_its_tables_come_back(tmp_path: Path) -> None:
    """Another process holds the SQLite file when ``cardgame serve`` starts: it says it waits for the store,
    does not exit or serve unrecorded, and once the file is free it starts with its tables and chips."""
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            wait_for(lambda: ann.hands() >= 2, "two hands")
        server.term()
        server.proc.wait(timeout=40)
        lock = sqlite3.connect(db, isolation_level=None, timeout=10)
        lock.execute("BEGIN EXCLUSIVE")  # another process holds the file
        try:
            server = Serve(db, tmp_path, port=server.port, wait=False)
            wait_for(lambda: "waiting for the store" in server.output(), "the waiting notice", timeout=30)
            time.sleep(1)
            assert server.proc.poll() is None  # waiting, not exited
            with pytest.raises(OSError):
                server.get("/api/tables", timeout=1)  # nothing served while it cannot record
        finally:
            lock.execute("ROLLBACK")
            lock.close()
        server.wait_up()
        listed = {t["id"]: t for t in server.get("/api/tables")}
        assert listed[table]["status"] != "unavailable" and listed[table]["hands"] >= 2
        assert "Traceback" not in server.output()
        check_store(db, table, [ann, bob], 2 * BUY_IN)
    finally:
        server.kill()


def test_a_killed_postgresql_pauses_the_table_and_play_resumes_after_it_is_back(
        tmp_path: Path, postgres_server: PostgresServer, postgres_dsn: str) -> None:
    server = Serve(postgres_dsn, tmp_path)
    try:
        assert postgres_server.password not in server.output()  # the banner masks it
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, bob):
            wait_for(lambda: ann.hands() >= 3, "three hands")
            data = str(postgres_server.data)
            done = postgres_server.run("pg_ctl", "stop", "-D", data, "-m", "immediate", "-w")
            assert done.returncode == 0, done.stderr
            try:
                wait_for(lambda: _kinds(ann, "paused"), "the paused notice", timeout=15)
                shown = max(ann.seen)
                time.sleep(1)
                assert max(ann.seen) == shown
            finally:
                # restart: started again with the options it last ran with (postmaster.opts)
                log = str(postgres_server.folder / "server.log")
                done = postgres_server.run("pg_ctl", "restart", "-D", data, "-l", log, "-w", "-t", "60")
                assert done.returncode == 0, done.stderr + done.stdout
            wait_for(lambda: _kinds(ann, "resumed"), "the resumed notice", timeout=30)
            hands = ann.hands()
            wait_for(lambda: ann.hands() >= hands + 2, "two more hands")
            server.create()  # creating a table works again too
        server.term()
        server.proc.wait(timeout=40)
        check_store(postgres_dsn, table, [ann, bob], 2 * BUY_IN)
        assert postgres_server.password not in server.output()
    finally:
        server.kill()


def test_the_server_keeps_postgresql_synchronous_commit_on(postgres_dsn: str) -> None:
    import asyncio

    from cardgame.server.app import Server

    async def run() -> list[tuple[object, ...]]:
        server = Server(postgres_dsn, name="http://sync.example")
        await server.start()
        try:
            assert server.writer is not None and server.store is not None
            return await server.writer.run(server.store.query, "SHOW synchronous_commit")
        finally:
            await server.stop()

    assert asyncio.run(run()) == [("on",)]


def test_a_hands_phh_is_made_from_the_stored_events_when_asked_for(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    server = Serve(db, tmp_path)
    try:
        table = server.create()
        with players(server.port, table, "ann", "bob") as (ann, _bob):
            wait_for(lambda: ann.hands() >= 2, "two hands")
        with EventStore(db) as store:
            assert [h.phh for h in store.hands(table, status="complete")][:2] == [None, None]  # not at each hand's end
        import urllib.request

        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/api/tables/{table}/hands/1.phh", timeout=5) as r:
            text = r.read().decode()
        assert 'variant = "NT"' in text and 'players = ["bob", "ann"]' in text
    finally:
        server.kill()


def _stored_hands(db: str, event_id: str) -> int:
    """The hands an event's stored state says it has played."""
    import json

    store = EventStore(db)
    try:
        found = store.query("SELECT state FROM server_events WHERE event_id = ?", (event_id,))
        return int(json.loads(found[0][0])["hands"]) if found else 0
    finally:
        store.close()


def test_an_event_killed_mid_play_resumes_after_a_restart_with_every_stack_place_and_level(tmp_path: Path) -> None:
    import json

    from cardgame.model.events import ForcedBetPosted, HandEnded, HandStarted

    db = str(tmp_path / "s.db")
    levels = [[10, 20, 0, 3], [20, 40, 0, 3], [50, 100, 0, 3], [100, 200, 0, 1000]]
    spec = json.dumps({"name": "Crash SNG", "seats": 3, "stack": 5000, "payouts": [70, 30], "start_at": 0,
                       "structure": {"unit": "hands", "levels": levels}, "bot_delay": 0.02, "hand_pause": 0,
                       "bots": ["calling-station"]})
    server = Serve(db, tmp_path, "--event", spec)
    try:
        event_id = server.get("/api/events")[0]["id"]
        wait_for(lambda: _stored_hands(db, event_id) >= 7, "seven hands stored", timeout=30)  # (the API's
        server.kill()  # -9: no shutdown, the hand in play is void      count can run ahead of the store's)
        store = EventStore(db)
        (state,), = store.query("SELECT state FROM server_events WHERE event_id = ?", (event_id,))
        before = json.loads(state)
        table = before["tables"]["1"]
        rows = list(store.events(table))
        last_end = next(r.event for r in reversed(rows) if isinstance(r.event, HandEnded))
        killed_at = rows[-1].seq
        store.close()
        assert before["status"] == "running" and before["hands"] >= 7

        server = Serve(db, tmp_path, port=server.port)
        after = server.get(f"/api/events/{event_id}")
        assert after["table"] == table and after["hands"] >= before["hands"]
        places = {p["name"]: p["place"] for p in after["players"]}
        assert all(places[name] == place for name, place, *_ in before["finishes"])  # places kept
        assert sum(p["stack"] for p in after["players"]) == 3 * 5000
        wait_for(lambda: server.get(f"/api/events/{event_id}")["hands"] > before["hands"], "a hand after the restart")
        store = EventStore(db)
        rows = [r for r in store.events(table) if r.seq > killed_at]
        store.close()
        first = next(i for i, r in enumerate(rows) if isinstance(r.event, HandStarted))
        started = rows[first].event
        assert dict(zip(started.seats, started.stacks, strict=True)) == {
            s: c for s, c in last_end.stacks if c > 0}  # every stack as the last finished hand left it
        number = before["hands"] + 1
        level = next(i for i, end in enumerate((3, 6, 9, 10**9)) if number <= end)
        big = next(r.event for r in rows[first:] if isinstance(r.event, ForcedBetPosted) and r.event.bet == "big blind")
        assert big.amount == levels[level][1] or big.all_in  # the level in play, not the first
    finally:
        server.kill()


def test_a_multi_table_event_killed_mid_play_resumes_with_every_chip_seated(tmp_path: Path) -> None:
    import json

    db = str(tmp_path / "s.db")
    spec = json.dumps({"name": "Crash MTT", "seats": 7, "table_size": 3, "stack": 1000, "payouts": [70, 30],
                       "start_at": 0, "structure": "turbo sng hands", "bot_delay": 0.02, "hand_pause": 0,
                       "bots": ["random", "calling-station", "calling-station"]})
    server = Serve(db, tmp_path, "--event", spec)
    try:
        event_id = server.get("/api/events")[0]["id"]
        wait_for(lambda: server.get(f"/api/events/{event_id}")["moves"] >= 1, "a player moved", timeout=40)
        server.kill()
        store = EventStore(db)
        (state,), = store.query("SELECT state FROM server_events WHERE event_id = ?", (event_id,))
        store.close()
        before = json.loads(state)
        server = Serve(db, tmp_path, port=server.port)
        after = server.get(f"/api/events/{event_id}")
        assert sum(p["stack"] for p in after["players"]) == 7 * 1000  # every chip, none moving
        places = {p["name"]: p["place"] for p in after["players"]}
        assert all(places[name] == place for name, place, *_ in before["finishes"])
        left = [p for p in after["players"] if p["place"] is None or after["status"] == "finished"]
        assert all(p["table"] is not None for p in left if p["stack"] > 0)  # each seated at a table of the event
        hands = after["hands"]
        wait_for(lambda: server.get(f"/api/events/{event_id}")["hands"] > hands + 2
                 or server.get(f"/api/events/{event_id}")["status"] == "finished", "hands after the restart")
        assert sum(p["stack"] for p in server.get(f"/api/events/{event_id}")["players"]) == 7 * 1000
    finally:
        server.kill()


def test_an_event_killed_while_its_tables_play_hand_for_hand_resumes_the_round_and_plays_to_a_winner(
        tmp_path: Path) -> None:
    import json

    db = str(tmp_path / "s.db")
    spec = json.dumps({"name": "Bubble", "seats": 9, "table_size": 3, "stack": 1000, "payouts": [30, 25, 20, 15, 10],
                       "start_at": 0, "structure": "turbo sng hands", "bot_delay": 0.01, "hand_pause": 0,
                       "bots": ["tight-aggressive", "calling-station"]})
    server = Serve(db, tmp_path, "--event", spec)
    try:
        event_id = server.get("/api/events")[0]["id"]
        url = f"/api/events/{event_id}"

        def stored() -> dict[str, Any]:
            store = EventStore(db)
            try:
                (state,), = store.query("SELECT state FROM server_events WHERE event_id = ?", (event_id,))
                return dict(json.loads(state))
            finally:
                store.close()

        wait_for(lambda: (e := stored())["hand_for_hand"] or e["status"] == "finished", "hand for hand", timeout=60)
        if not stored()["hand_for_hand"]:
            pytest.skip("two players went out in one hand over the bubble: no hand for hand this time")
        server.kill()
        server = Serve(db, tmp_path, port=server.port)
        wait_for(lambda: server.get(url)["status"] == "finished", "the winner", timeout=60)
        _, groups = _hand_for_hand_rounds(Path(db), 9, 5)  # no table dealt a hand alone after the restart either
        done = server.get(url)
        assert sorted(p["place"] for p in done["players"])[0] == 1 and all(p["places"] for p in done["players"])
        winner = next(p["name"] for p in done["players"] if p["place"] == 1)
        # the players out before the kill in the round it cut short are ranked together, apart from later rounds'
        assert {p["name"]: p["places"] for p in done["players"]} == {**_places(groups, 9), winner: "1"}
        assert sum(p["prize"] for p in done["players"]) == 100  # every place given, the round's players out too
        assert next(p for p in done["players"] if p["place"] == 1)["stack"] == 9 * 1000
    finally:
        server.kill()
