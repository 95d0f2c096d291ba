"""A store writes no index entry per event: a hand's events are found from an index of the hands' starts
(``events_hand_starts``) instead of an index of every event by hand, which cost every table a page of the
write-ahead log at every commit. A store made before (``events_by_hand``, tests/data/store) still reads,
records and recovers."""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

from cardgame.play.game import Game
from cardgame.store import EventStore, recover
from cardgame.store.queries import _EVENT_COLUMNS
from tests.helpers import load_script
from variants import no_limit_holdem

OLD = Path(__file__).resolve().parent.parent / "data" / "store" / "events-by-hand.db"


#: ``decisions`` random decisions of ``game``: the old store's script's own, which made OLD's hands.
play = load_script(OLD.parent / "make_events_by_hand.py", "make_events_by_hand").play


def record_with_a_void(store: EventStore, table_id: str, seed: int) -> None:
    """Four hands, a fifth interrupted and voided by recovery, then two more and one in progress."""
    rng = random.Random(seed)
    game = Game(no_limit_holdem(1, 2), seats=2, seed=seed)
    store.record(game, table_id, phh_writer=None)
    game.sit_down("Ann", 200, 0)
    game.sit_down("Bob", 200, 1)
    game.start()
    while game.ctx.hands_played < 4:
        play(game, rng, 1)
    play(game, rng, 3)
    again = recover(store, table_id, no_limit_holdem(1, 2), seed=seed + 1)
    store.record(again, table_id, phh_writer=None)
    again.start()
    while again.ctx.hands_played < 7:
        play(again, rng, 1)


def by_hand(store: EventStore, table_id: str, hand: int) -> list[tuple[object, ...]]:
    """The rows of ``hand`` as an index of every event by hand finds them."""
    sql = f"SELECT {', '.join(_EVENT_COLUMNS[:6])} FROM events WHERE table_id = ? AND hand = ? ORDER BY seq"
    return store.query(sql, (table_id, hand))


def check_hands(store: EventStore, table_id: str) -> None:
    statuses = dict(store.query("SELECT hand, status FROM hands WHERE table_id = ?", (table_id,)))
    assert sorted(statuses.values()).count("voided") == 1
    for hand in range(10):
        found = [(e.table_id, e.seq, e.hand, e.time, e.kind, e.seat) for e in store.events(table_id, hand=hand)]
        assert found == by_hand(store, table_id, hand)
        assert bool(found) == (hand in statuses)
        if statuses.get(hand) == "complete":
            assert f"hand = {hand}" in (store.hand_phh(table_id, hand, no_limit_holdem(1, 2)) or "")


def test_a_store_indexes_the_hands_starts_not_every_event(store_location: str) -> None:
    with EventStore(store_location) as store:
        record_with_a_void(store, "t", 3)
        check_hands(store, "t")
        record_with_a_void(store, "u", 4)
        check_hands(store, "u")
        check_hands(store, "t")
    if "://" not in store_location:  # SQLite: the index of the events holds the hands' starts alone
        db = sqlite3.connect(store_location)
        indexes = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
        assert [(name, "WHERE kind = 'hand started'" in sql) for name, sql in indexes] == [("events_hand_starts", True)]
        starts = db.execute("SELECT count(*) FROM events WHERE kind = 'hand started'").fetchone()[0]
        assert db.execute("SELECT count(*) FROM events INDEXED BY events_hand_starts "
                          "WHERE table_id > '' AND kind = 'hand started'").fetchone()[0] == starts == 16
        db.close()


def test_a_commit_of_a_decision_writes_fewer_pages(tmp_path: Path) -> None:
    """A decision at each of 20 tables, committed together, adds to the write-ahead log the page of each table's
    newest rows and no page of an index of them."""
    with EventStore(tmp_path / "s.db") as store:
        db = store.database.connection  # type: ignore[attr-defined]
        db.execute("PRAGMA wal_autocheckpoint=0")
        games, recorders = [], []
        for t in range(20):
            game = Game(no_limit_holdem(1, 2), seats=2, seed=t)
            recorders.append(store.record(game, f"table {t}", batch=True, phh_writer=None))
            game.sit_down("Ann", 20_000, 0)
            game.sit_down("Bob", 20_000, 1)
            game.start()
            games.append(game)

        def decide_all() -> int:
            for game in games:
                legal = game.legal_actions()
                assert legal is not None
                game.act(legal.seat, "call" if legal.call_amount else "check")
            assert db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0  # an empty log
            with store.transaction() as tx:
                for r in recorders:
                    for sql, params in r.take():
                        tx.execute(sql, params)
            pages: int = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
            return pages

        for _ in range(60):  # each table's rows fill pages of their own
            decide_all()
        pages = sum(decide_all() for _ in range(20)) / 20 / len(games)
        print("PAGES", pages)
        assert pages < 2.8  # a commit's pages a table: its rows' and some of the hands' (3.2 with events_by_hand)


def test_a_store_made_before_reads_records_and_recovers(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(OLD, path)
    with EventStore(path) as store:
        assert [r[0] for r in store.query("SELECT name FROM sqlite_master WHERE name LIKE 'events_%'")] == [
            "events_by_hand"]
        for table_id in ("alpha", "beta"):
            check_hands(store, table_id)
        game = recover(store, "alpha", no_limit_holdem(1, 2), seed=11)  # hand 8, in progress, is voided
        store.record(game, "alpha", phh_writer=None)
        game.start()
        rng = random.Random(2)
        while game.ctx.hands_played < 10:
            play(game, rng, 1)
        assert sum(p.stack for p in game.table.players()) + (game.hand.pot_total() if game.hand else 0) == 400
        statuses = dict(store.query("SELECT hand, status FROM hands WHERE table_id = 'alpha'"))
        assert statuses[8] == "voided" and statuses[10] == "complete"
        for hand in range(12):
            found = [(e.table_id, e.seq, e.hand, e.time, e.kind, e.seat) for e in store.events("alpha", hand=hand)]
            assert found == by_hand(store, "alpha", hand)
